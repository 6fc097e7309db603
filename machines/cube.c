/* cube.c -- the Boolean n-cube: 2^n nodes, link d joins the nodes whose
 * addresses differ in bit d (dimension d). Default route: e-cube, the
 * differing dimensions in ascending order. Neighbour moves (the CM-200's
 * NEWS grid) and router messages are priced apart.
 */
#include "topology.h"

#include <stdio.h>

static uint32_t cube_neighbour(const Topology *t, uint32_t node, int link)
{
    (void)t;
    return node ^ ((uint32_t)1 << link);
}

static void cube_link_name(const Topology *t, int link, char *buf, size_t size)
{
    (void)t;
    snprintf(buf, size, "dimension %d", link);
}

static int cube_direction(const Topology *t, uint32_t node, int link)
{
    (void)t;
    return ((node >> link) & 1) ? -1 : 1;
}

static int cube_route(const Topology *t, uint32_t from, uint32_t to, int *links)
{
    uint32_t diff = from ^ to;
    int hops = 0;
    for (int d = 0; d < t->axes; d++)
        if ((diff >> d) & 1)
            links[hops++] = d;
    return hops;
}

const TopologyOps topology_cube_ops = {
    .name = "cube",
    .kind = TOPOLOGY_CUBE,
    .summary = "Boolean n-cube (dimensions = n): 2^n nodes, link d is dimension d",
    .classes = (1u << CLASS_NEIGHBOUR) | (1u << CLASS_ROUTER),
    .neighbour = cube_neighbour,
    .link_name = cube_link_name,
    .direction = cube_direction,
    .route = cube_route,
};

gboolean topology_cube_init(Topology *t, int dimensions, char **why)
{
    if (dimensions < 1 || dimensions > TOPOLOGY_CUBE_MAX_DIMENSIONS) {
        *why = g_strdup_printf("%d is out of range (valid: 1..%d)", dimensions,
                               TOPOLOGY_CUBE_MAX_DIMENSIONS);
        return FALSE;
    }
    *t = (Topology){ .ops = &topology_cube_ops };
    t->nodes = (uint32_t)1 << dimensions;
    t->links = t->axes = dimensions;
    for (int d = 0; d < dimensions; d++) {
        t->side[d] = 2;
        t->stride[d] = (uint32_t)1 << d;
    }
    t->diameter = (uint32_t)dimensions;
    return TRUE;
}
