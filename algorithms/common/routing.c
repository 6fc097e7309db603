/* routing.c -- the two-path transfer primitive (see routing.h). */
#include "routing.h"

void two_path_send(Node *node, int d, int via, size_t offset,
                   size_t count, size_t direct, int tag)
{
    int path[3];
    if (direct > 0)
        node_send(node, &d, 1, offset, direct, tag);
    if (count > direct)
        node_send(node, path, route_detour(d, via, path), offset + direct,
                  count - direct, tag + 1);
}

void two_path_recv(Node *node, int d, size_t offset, size_t count,
                   size_t direct, int tag)
{
    uint32_t from = node_address(node) ^ ((uint32_t)1 << d);
    if (direct > 0)
        node_recv(node, from, tag, offset, direct);
    if (count > direct)
        node_recv(node, from, tag + 1, offset + direct, count - direct);
}

size_t two_path_direct_share(size_t count)
{
    size_t direct = (count + 1) / 2 + 1;
    return direct < count ? direct : count;
}
