/* routing.h -- paths on the Boolean cube, shared by node programs.
 *
 * A path is a sequence of dimensions for node_send. Dimension-ordered
 * (e-cube) routing corrects the differing address bits one at a time in a
 * fixed order, so it is minimal and deadlock-free; ascending order is the
 * classic e-cube, descending the mirror image.
 */
#ifndef CUBE_ROUTING_H
#define CUBE_ROUTING_H

#include <stdint.h>
#include "node.h"

typedef enum { ROUTE_ASCENDING, ROUTE_DESCENDING } RouteOrder;

/* Write the e-cube path from `from` to `to` on an n-cube into path
 * (room for n dimensions); return its length (0 when from == to). */
static inline int route_ecube(uint32_t from, uint32_t to, int n,
                              RouteOrder order, int *path)
{
    /* the set bits of from ^ to, lowest or highest first: a message
     * costs its hops, not n (a BMMC sends one a element) */
    uint32_t diff = n < 32 ? (from ^ to) & (((uint32_t)1 << n) - 1)
                           : from ^ to;
    int hops = 0;
    if (order == ROUTE_ASCENDING)
        for (; diff; diff &= diff - 1)
            path[hops++] = __builtin_ctz(diff);
    else
        for (; diff; diff &= ~((uint32_t)1 << (31 - __builtin_clz(diff))))
            path[hops++] = 31 - __builtin_clz(diff);
    return hops;
}

/* The length-three detour around the edge across dimension d, through the
 * 2-cube of d and `via` (Johnsson & Ho, Theorem 3): via, d, via. */
static inline int route_detour(int d, int via, int *path)
{
    path[0] = via;
    path[1] = d;
    path[2] = via;
    return 3;
}

/* Two-path transfer of a run to the neighbour across dimension d: the first
 * `direct` elements of memory[offset, offset+count) go over the edge, the
 * rest over the length-three detour through dimension `via` (Theorem 3's
 * pair of edge-disjoint paths in the 2-cube of d and via). The two parts
 * are messages with tags tag and tag+1. The neighbour posts the matching
 * two_path_recv with the same split. */
void two_path_send(Node *node, int d, int via, size_t offset,
                   size_t count, size_t direct, int tag);
void two_path_recv(Node *node, int d, size_t offset, size_t count,
                   size_t direct, int tag);
/* The split that finishes first when both paths are free: the detour's
 * elements arrive two cycles after the direct ones would, so the direct
 * path takes ceil(count/2) + 1 (all of them when count <= 3). */
size_t two_path_direct_share(size_t count);

#endif
