/* mesh.c -- k-dimensional meshes and tori, S_{k-1} x ... x S_0 nodes. A
 * node's address is its coordinates in mixed radix, axis 0 least
 * significant: address = sum c_i * stride_i, stride_i = S_0 ... S_{i-1}.
 * Link 2i goes one step up axis i, link 2i+1 one step down; with wrap the
 * ends of every line are joined (a torus). A line of two nodes is one edge
 * either way: wrap adds no second pair of channels there, so a mesh of
 * side 2 is the Boolean cube whatever wrap says (Mou & Wang's view of the
 * cube as the log N-dimensional mesh of side 2).
 * Default route: axis by axis, axis 0 first, the shorter way round on a
 * torus (the positive direction on a tie).
 */
#include "topology.h"

#include <stdio.h>

/* Names of the first three axes, as the papers draw them. */
static const char mesh_axis_letters[] = "xyz";

static gboolean mesh_wraps(const Topology *t, int axis)
{
    return t->wrap && t->side[axis] > 2;
}

static uint32_t mesh_neighbour(const Topology *t, uint32_t node, int link)
{
    int axis = link / 2;
    uint32_t s = t->side[axis], stride = t->stride[axis];
    uint32_t c = node / stride % s;
    if (link % 2 == 0) {
        if (c + 1 < s)
            return node + stride;
        return mesh_wraps(t, axis) ? node - c * stride : TOPOLOGY_NONE;
    }
    if (c > 0)
        return node - stride;
    return mesh_wraps(t, axis) ? node + (s - 1) * stride : TOPOLOGY_NONE;
}

static void mesh_link_name(const Topology *t, int link, char *buf, size_t size)
{
    int axis = link / 2;
    char sign = link % 2 == 0 ? '+' : '-';
    if (t->axes <= 3)
        snprintf(buf, size, "%c%c", sign, mesh_axis_letters[axis]);
    else
        snprintf(buf, size, "%cd%d", sign, axis);
}

static int mesh_direction(const Topology *t, uint32_t node, int link)
{
    (void)t;
    (void)node;
    return link % 2 == 0 ? 1 : -1;
}

static int mesh_route(const Topology *t, uint32_t from, uint32_t to, int *links)
{
    int hops = 0;
    for (int i = 0; i < t->axes; i++) {
        uint32_t s = t->side[i];
        uint32_t a = from / t->stride[i] % s, b = to / t->stride[i] % s;
        if (a == b)
            continue;
        uint32_t steps;
        int dir;
        if (mesh_wraps(t, i)) {
            uint32_t up = (b + s - a) % s, down = s - up;
            dir = up <= down ? 1 : -1;
            steps = up <= down ? up : down;
        } else {
            dir = b > a ? 1 : -1;
            steps = b > a ? b - a : a - b;
        }
        for (uint32_t k = 0; k < steps; k++)
            links[hops++] = topology_mesh_link(i, dir);
    }
    return hops;
}

const TopologyOps topology_mesh_ops = {
    .name = "mesh",
    .kind = TOPOLOGY_MESH,
    .summary = "k-d mesh (shape = S_{k-1}x...xS_0), a torus with wrap = yes; "
               "link 2i is +axis i, 2i+1 is -axis i",
    .classes = (1u << CLASS_NEIGHBOUR) | (1u << CLASS_ROUTER),
    .neighbour = mesh_neighbour,
    .link_name = mesh_link_name,
    .direction = mesh_direction,
    .route = mesh_route,
};

gboolean topology_mesh_init(Topology *t, int axes, const uint32_t *side,
                            gboolean wrap, char **why)
{
    if (axes < 1 || axes > TOPOLOGY_MAX_AXES) {
        *why = g_strdup_printf("%d axes is out of range (valid: 1..%d)", axes,
                               TOPOLOGY_MAX_AXES);
        return FALSE;
    }
    *t = (Topology){ .ops = &topology_mesh_ops };
    uint64_t nodes = 1;
    for (int i = 0; i < axes; i++) {
        if (side[i] < 2) {
            *why = g_strdup_printf("side %u of axis %d is below 2 (a line "
                                   "of one node has no links)", side[i], i);
            return FALSE;
        }
        t->side[i] = side[i];
        t->stride[i] = (uint32_t)nodes;
        nodes *= side[i];
        if (nodes > TOPOLOGY_MAX_NODES) {
            *why = g_strdup_printf("more than %u nodes", TOPOLOGY_MAX_NODES);
            return FALSE;
        }
    }
    t->nodes = (uint32_t)nodes;
    t->axes = axes;
    t->links = 2 * axes;
    t->wrap = wrap;
    for (int i = 0; i < axes; i++)
        t->diameter += mesh_wraps(t, i) ? side[i] / 2 : side[i] - 1;
    return TRUE;
}
