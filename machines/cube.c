/* cube.c -- the Boolean n-cube: 2^n nodes, link d joins the nodes whose
 * addresses differ in bit d (dimension d). Default route: e-cube, the
 * differing dimensions in ascending order. Neighbour moves (the CM-200's
 * NEWS grid) and router messages are priced apart. Its key is
 * `dimensions`; the report and the trace header give n; the viewer draws
 * the classic picture of the address bits (up to the 6-cube) with binary
 * node labels, and a bar per dimension, up and down.
 */
#include "topology.h"
#include "machine.h"
#include "graycode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static uint64_t cube_channels(const Topology *t, int link0, int link1)
{
    return (uint64_t)(link1 - link0) * t->nodes;
}

static int cube_node_links(const Topology *t)
{
    return t->links;
}

static gboolean cube_parse(const MachineInput *in, Topology *t, char **why)
{
    const char *where;
    long long n;
    if (!machine_input_value(in, "dimensions", &where)) {
        machine_input_problem(in, "%s: [machine] needs dimensions (topology "
                              "cube)", machine_input_group_where(in));
        return FALSE;
    }
    if (!machine_input_int(in, "dimensions", 1, TOPOLOGY_CUBE_MAX_DIMENSIONS,
                           &n))
        return FALSE;
    return topology_cube_init(t, (int)n, why);
}

static char *cube_title(const Topology *t)
{
    return g_strdup(t->ops->name);
}

static gboolean cube_trace_build(Topology *t, uint32_t axes, uint32_t nodes,
                                 gboolean wrap, const uint32_t *side,
                                 char **why)
{
    (void)nodes;
    (void)wrap;
    (void)side;
    return axes <= TOPOLOGY_CUBE_MAX_DIMENSIONS
           && topology_cube_init(t, (int)axes, why);
}

/* Cut across dimension n-1: the 2^(n-1) edges of that dimension. */
static uint64_t cube_bisection(const Topology *t)
{
    return t->nodes / 2;
}

/* ---- rings: binary-reflected Gray codes --------------------------------- */

/* The ring over dimensions lo..hi is the Gray code G(i) = i xor i/2 in
 * those address bits (Johnsson & Ho, Definition 1): consecutive codes,
 * the last and the first included, differ in one bit, so every step is
 * one link. The other bits name the ring. */
static gboolean cube_ring(const Topology *t, const char *value,
                          TopologyRing *r, char **why)
{
    long lo = 0, hi = t->axes - 1;
    if (value && strcmp(value, "all")) {
        char *end;
        lo = strtol(value, &end, 10);
        const char *p = end + 2;
        if (end == value || strncmp(end, "..", 2)
            || (hi = strtol(p, &end, 10), end == p) || *end || lo < 0
            || hi < lo || hi >= t->axes) {
            *why = g_strdup_printf("'%s' is not a range of dimensions (valid: "
                                   "all, or LO..HI within 0..%d)", value,
                                   t->axes - 1);
            return FALSE;
        }
    }
    *r = (TopologyRing){ .length = (uint32_t)1 << (hi - lo + 1), .longest = 1,
                         .lo = (int)lo, .hi = (int)hi };
    return TRUE;
}

static uint32_t cube_ring_mask(const TopologyRing *r)
{
    return (r->length - 1) << r->lo;
}

static uint32_t cube_ring_position(const Topology *t, const TopologyRing *r,
                                   uint32_t node)
{
    (void)t;
    return (uint32_t)gray_decode((node & cube_ring_mask(r)) >> r->lo);
}

static uint32_t cube_ring_node(const Topology *t, const TopologyRing *r,
                               uint32_t node, uint32_t position)
{
    (void)t;
    return (node & ~cube_ring_mask(r)) | (uint32_t)gray_encode(position) << r->lo;
}

static int cube_ring_link(const Topology *t, const TopologyRing *r,
                          uint32_t node, uint32_t next)
{
    (void)t;
    (void)r;
    return __builtin_ctz(node ^ next);
}

/* ---- the viewer --------------------------------------------------------- */

/* The classic cube drawing stays readable up to the 6-cube (64 nodes,
 * 384 channels); beyond, the matrix view is the one that scales. */
#define CUBE_VIEW_MAX_DIMENSIONS 6

/* The classic drawing: dimensions 0 and 1 a square, 2 the depth of a
 * cube drawn in oblique projection, 3 and 4 copies of that cube side by
 * side and below, 5 a copy of the four. Long edges (3..5) are arcs so
 * they do not run through the nodes between their ends. */
static const double cube_axis[CUBE_VIEW_MAX_DIMENSIONS][2] = {
    { 1.0, 0.0 }, { 0.0, 1.0 }, { 0.42, -0.34 },
    { 2.1, 0.0 }, { 0.0, 2.15 }, { 4.4, 0.0 },
};
static const double cube_bulge[CUBE_VIEW_MAX_DIMENSIONS] = {
    0, 0, 0, 0.16, 0.14, 0.09
};

/* The drawing may be this much wider than its proportions (or taller) to
 * fill the panel: the oblique dimension 2 stays legible as a diagonal. */
#define CUBE_VIEW_STRETCH 1.4

static const char *cube_graph_refusal(const Topology *t)
{
    return t->axes > CUBE_VIEW_MAX_DIMENSIONS
               ? "the graph view draws cubes up to 6 dimensions (64 nodes); "
                 "this is the matrix view"
               : NULL;
}

static void cube_place(const Topology *t, uint32_t node, double *x, double *y)
{
    *x = *y = 0;
    for (int d = 0; d < t->axes; d++)
        if ((node >> d) & 1) {
            *x += cube_axis[d][0];
            *y += cube_axis[d][1];
        }
}

static void cube_stroke(const Topology *t, uint32_t node, int link,
                        TopologyStroke *s)
{
    (void)t;
    (void)node;
    *s = (TopologyStroke){ .bulge = cube_bulge[link] };
}

/* The address in binary, dimension n-1 first: the bits the drawing's
 * positions are made of. */
static void cube_node_label(const Topology *t, uint32_t node, char *buf,
                            size_t size)
{
    size_t n = (size_t)t->axes;
    for (size_t i = 0; i < n && i + 1 < size; i++)
        buf[i] = ((node >> (n - 1 - i)) & 1) ? '1' : '0';
    buf[MIN(n, size - 1)] = '\0';
}

static int cube_link_axis(const Topology *t, int link)
{
    (void)t;
    return link;
}

static void cube_bar_label(const Topology *t, int link, char *buf, size_t size)
{
    (void)t;
    snprintf(buf, size, "d%d", link);
}

const TopologyOps topology_cube_ops = {
    .name = "cube",
    .traits = TOPOLOGY_DIMENSIONS | TOPOLOGY_RINGS,
    .summary = "Boolean n-cube (dimensions = n): 2^n nodes, link d is dimension d",
    .classes = (1u << CLASS_NEIGHBOUR) | (1u << CLASS_ROUTER),
    .neighbour = cube_neighbour,
    .link_name = cube_link_name,
    .direction = cube_direction,
    .route = cube_route,
    .channels = cube_channels,
    .node_links = cube_node_links,
    .keys = (const char *const[]){ "dimensions", NULL },
    .parse = cube_parse,
    .describe_json = topology_dimensions_json,
    .describe_text = topology_dimensions_text,
    .title = cube_title,
    .number = topology_dimensions_number,
    .trace_code = 0,
    .trace_build = cube_trace_build,
    .bisection = cube_bisection,
    .ring_key = "dimensions",
    .ring = cube_ring,
    .ring_position = cube_ring_position,
    .ring_node = cube_ring_node,
    .ring_link = cube_ring_link,
    .view = {
        .graph_refusal = cube_graph_refusal,
        .place = cube_place,
        .stroke = cube_stroke,
        .unit = 1.0,
        .stretch = CUBE_VIEW_STRETCH,
        .node_label = cube_node_label,
        .link_axis = cube_link_axis,
        .matrix_legend = "matrix: a row per node, a column per dimension (the "
                         "node's channel across it), coloured by busy share in "
                         "the window; hover for counts",
        .bars = TOPOLOGY_BARS_UP_DOWN,
        .bar_label = cube_bar_label,
    },
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

gboolean topology_is_cube(const Topology *t)
{
    return t->ops == &topology_cube_ops;
}
