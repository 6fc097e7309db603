/* mesh.c -- k-dimensional meshes and tori, S_{k-1} x ... x S_0 nodes. A
 * node's address is its coordinates in mixed radix, axis 0 least
 * significant: address = sum c_i * stride_i, stride_i = S_0 ... S_{i-1}.
 * Link 2i goes one step up axis i, link 2i+1 one step down; with wrap the
 * ends of every line are joined (a torus). A line of two nodes is one edge
 * either way: wrap adds no second pair of channels there, so a mesh of
 * side 2 is the Boolean cube whatever wrap says (Mou & Wang's view of the
 * cube as the log N-dimensional mesh of side 2).
 * Default route: axis by axis, axis 0 first, the shorter way round on a
 * torus (the positive direction on a tie). Its keys are `shape` and
 * `wrap`; the trace header carries wrap and the sides; the viewer draws
 * grids (a torus's wrap-around and a third axis as stubs), up to three
 * axes and 512 nodes.
 */
#include "topology.h"
#include "machine.h"
#include "json_writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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

static uint64_t mesh_channels(const Topology *t, int link0, int link1)
{
    uint64_t channels = 0;
    for (int l = link0; l < link1; l++) {
        uint32_t s = t->side[l / 2];
        channels += mesh_wraps(t, l / 2) ? t->nodes : t->nodes / s * (s - 1);
    }
    return channels;
}

/* An inner node has all of them. */
static int mesh_node_links(const Topology *t)
{
    return t->links;
}

static const char *const mesh_yes_no[] = { "no", "yes", NULL };

static gboolean mesh_parse(const MachineInput *in, Topology *t, char **why)
{
    const char *where;
    const char *shape = machine_input_value(in, "shape", &where);
    int axes;
    uint32_t side[TOPOLOGY_MAX_AXES];
    if (!shape) {
        machine_input_problem(in, "%s: [machine] needs shape (topology mesh: "
                              "S_{k-1}x...xS_0, e.g. 16x16x16)",
                              machine_input_group_where(in));
        return FALSE;
    }
    char *bad = NULL;
    if (!topology_parse_shape(shape, &axes, side, &bad)) {
        machine_input_problem(in, "%s: shape: %s", where, bad);
        g_free(bad);
        return FALSE;
    }
    /* The product of the sides, the node count the message names: exact
     * unless it passes 64 bits, which enough axes can. */
    uint64_t nodes = 1;
    gboolean beyond = FALSE;
    for (int i = 0; i < axes && !beyond; i++) {
        beyond = nodes > UINT64_MAX / side[i];
        nodes *= side[i];
    }
    if (beyond || nodes > TOPOLOGY_MAX_NODES) {
        g_autofree char *count = beyond ? g_strdup("over 2^64")
            : g_strdup_printf("%" G_GUINT64_FORMAT, (guint64)nodes);
        machine_input_problem(in, "%s: shape: '%s' is too large: %s nodes "
                              "(valid: sides whose product is at most %u)",
                              where, shape, count, TOPOLOGY_MAX_NODES);
        return FALSE;
    }
    int wrap = 0;
    if (!machine_input_choice(in, "wrap", mesh_yes_no, &wrap))
        return FALSE;
    return topology_mesh_init(t, axes, side, wrap == 1, why);
}

static void mesh_describe_json(const Topology *t, JsonWriter *w)
{
    g_autofree char *shape = topology_shape_text(t);
    json_writer_key(w, "shape");
    json_writer_string(w, shape);
    json_writer_key(w, "wrap");
    json_writer_bool(w, t->wrap);
}

static void mesh_describe_text(const Topology *t, GString *line)
{
    g_autofree char *shape = topology_shape_text(t);
    g_string_append_printf(line, " %s%s", shape, t->wrap ? " (torus)" : "");
}

static char *mesh_title(const Topology *t)
{
    g_autofree char *shape = topology_shape_text(t);
    return g_strdup_printf("%s %s", t->wrap ? "torus" : "mesh", shape);
}

static gboolean mesh_trace_build(Topology *t, uint32_t axes, uint32_t nodes,
                                 gboolean wrap, const uint32_t *side,
                                 char **why)
{
    (void)nodes;
    return topology_mesh_init(t, (int)axes, side, wrap, why);
}

/* Cut the longest even axis through its middle: the other axes' lines
 * cross it once, twice with wrap-around (a torus side of two has one
 * edge). None if every side is odd. */
static uint64_t mesh_bisection(const Topology *t)
{
    uint64_t best = 0;
    for (int i = 0; i < t->axes; i++) {
        if (t->side[i] % 2)
            continue;
        uint64_t lines = t->nodes / t->side[i];
        uint64_t cut = mesh_wraps(t, i) ? 2 * lines : lines;
        if (!best || cut < best)
            best = cut;
    }
    return best;
}

/* ---- rings: the lines along one axis ------------------------------------ */

/* The rings along axis `value` (default 0): each line of the mesh in
 * coordinate order. On a torus every step is one link; without wrap the
 * last node reaches the first back across the line, S - 1 links. */
static gboolean mesh_ring(const Topology *t, const char *value,
                          TopologyRing *r, char **why)
{
    char *end = NULL;
    long axis = value ? strtol(value, &end, 10) : 0;
    if ((value && (end == value || *end)) || axis < 0 || axis >= t->axes) {
        *why = g_strdup_printf("%s is not an axis of this mesh (valid: 0..%d)",
                               value ? value : "0", t->axes - 1);
        return FALSE;
    }
    uint32_t s = t->side[axis];
    *r = (TopologyRing){ .length = s, .axis = (int)axis,
                         .longest = mesh_wraps(t, (int)axis) || s == 2 ? 1
                                                                   : s - 1 };
    return TRUE;
}

static uint32_t mesh_ring_position(const Topology *t, const TopologyRing *r,
                                   uint32_t node)
{
    return node / t->stride[r->axis] % t->side[r->axis];
}

static uint32_t mesh_ring_node(const Topology *t, const TopologyRing *r,
                               uint32_t node, uint32_t position)
{
    uint32_t stride = t->stride[r->axis];
    return node - mesh_ring_position(t, r, node) * stride + position * stride;
}

/* The axis's link that leads to next, the down link first: on a line of
 * two both lead there. */
static int mesh_ring_link(const Topology *t, const TopologyRing *r,
                          uint32_t node, uint32_t next)
{
    for (int dir = -1; dir <= 1; dir += 2) {
        int l = topology_mesh_link(r->axis, dir);
        if (mesh_neighbour(t, node, l) == next)
            return l;
    }
    return -1;
}

/* ---- the viewer --------------------------------------------------------- */

/* Meshes are drawn as grids up to a few hundred nodes and three axes. */
#define MESH_VIEW_MAX_NODES 512
#define MESH_VIEW_MAX_AXES 3
/* Layers of a 3-d mesh stand this far apart (in neighbour distances),
 * side by side. */
#define MESH_VIEW_LAYER_GAP 1.5
/* A channel drawn as two stubs (a torus's wrap-around, a 3-d mesh's third
 * axis) reaches this far from its node, in neighbour distances: a stub is
 * half an edge, with room for the arrowhead. */
#define MESH_VIEW_STUB_LENGTH 0.42
/* A grid's rows may stand up to this many times further apart than its
 * columns, or the columns than the rows, so that it fills the panel. */
#define MESH_VIEW_STRETCH 2.0
/* The third axis of a 3-d mesh points up and to the right, the direction
 * of the cube's dimension 2 in its drawing (cube.c). */
static const double mesh_depth_axis[2] = { 0.42, -0.34 };

static const char *mesh_graph_refusal(const Topology *t)
{
    return t->axes > MESH_VIEW_MAX_AXES || t->nodes > MESH_VIEW_MAX_NODES
               ? "the graph view draws meshes of up to 3 axes and 512 nodes; "
                 "this is the matrix view"
               : NULL;
}

/* A grid: axis 0 across, axis 1 down, axis 2 as layers side by side. */
static void mesh_place(const Topology *t, uint32_t node, double *x, double *y)
{
    uint32_t c[TOPOLOGY_MAX_AXES];
    double layer = t->axes > 2 ? t->side[0] - 1 + MESH_VIEW_LAYER_GAP : 0;
    topology_coords(t, node, c);
    *x = c[0] + (t->axes > 2 ? c[2] * layer : 0);
    *y = t->axes > 1 ? c[1] : 0;
}

/* Channels along axes 0 and 1 join their nodes, except a torus's
 * wrap-around, drawn as a stub out of the border and one into the
 * opposite border; every channel of axis 2 is a pair of stubs pointing
 * towards the next layer (up and right) or the previous one. */
static void mesh_stroke(const Topology *t, uint32_t node, int link,
                        TopologyStroke *s)
{
    uint32_t c[TOPOLOGY_MAX_AXES], e[TOPOLOGY_MAX_AXES];
    int axis = link / 2, dir = mesh_direction(t, node, link);
    topology_coords(t, node, c);
    topology_coords(t, mesh_neighbour(t, node, link), e);
    gboolean wraps = (int64_t)e[axis] - (int64_t)c[axis] != dir;
    *s = (TopologyStroke){ 0 };
    if (axis < 2 && !wraps)
        return;
    double dx = axis == 0 ? dir : axis == 1 ? 0 : dir * mesh_depth_axis[0];
    double dy = axis == 1 ? dir : axis == 0 ? 0 : dir * mesh_depth_axis[1];
    double len = hypot(dx, dy);
    s->stubs = TRUE;
    s->dx = dx * (MESH_VIEW_STUB_LENGTH / len);
    s->dy = dy * (MESH_VIEW_STUB_LENGTH / len);
}

/* "z = 1" under each layer of a 3-d mesh, below its bottom-left node. */
static void mesh_captions(const Topology *t,
                          void (*emit)(void *ctx, uint32_t node,
                                       const char *text),
                          void *ctx)
{
    if (t->axes < 3)
        return;
    char name[TOPOLOGY_LINK_NAME_MAX], label[TOPOLOGY_LINK_NAME_MAX + 16];
    mesh_link_name(t, topology_mesh_link(2, 1), name, sizeof name);
    for (uint32_t z = 0; z < t->side[2]; z++) {
        uint32_t corner = z * t->stride[2] + (t->side[1] - 1) * t->stride[1];
        snprintf(label, sizeof label, "%s = %u", name + 1, z);
        emit(ctx, corner, label);
    }
}

static const char *mesh_graph_legend(const Topology *t)
{
    return t->wrap || t->axes > 2
               ? "graph: every directed channel drawn to the right of its "
                 "direction; wrap-around and third-axis channels as a stub out "
                 "of one node and one into the other; coloured by busy share "
                 "in the window"
               : NULL;
}

static int mesh_link_axis(const Topology *t, int link)
{
    (void)t;
    return link / 2;
}

/* The axis of the pair: "+x" and "-x" under "x". */
static void mesh_bar_label(const Topology *t, int link, char *buf, size_t size)
{
    char name[TOPOLOGY_LINK_NAME_MAX];
    mesh_link_name(t, link, name, sizeof name);
    snprintf(buf, size, "%s", name + 1);
}

const TopologyOps topology_mesh_ops = {
    .name = "mesh",
    .traits = TOPOLOGY_AXES | TOPOLOGY_RINGS,
    .summary = "k-d mesh (shape = S_{k-1}x...xS_0), a torus with wrap = yes; "
               "link 2i is +axis i, 2i+1 is -axis i",
    .classes = (1u << CLASS_NEIGHBOUR) | (1u << CLASS_ROUTER),
    .neighbour = mesh_neighbour,
    .link_name = mesh_link_name,
    .direction = mesh_direction,
    .route = mesh_route,
    .channels = mesh_channels,
    .node_links = mesh_node_links,
    .keys = (const char *const[]){ "shape", "wrap", NULL },
    .parse = mesh_parse,
    .describe_json = mesh_describe_json,
    .describe_text = mesh_describe_text,
    .title = mesh_title,
    .trace_code = 1,
    .trace_shape = TRUE,
    .trace_build = mesh_trace_build,
    .bisection = mesh_bisection,
    .ring_key = "axis",
    .ring = mesh_ring,
    .ring_position = mesh_ring_position,
    .ring_node = mesh_ring_node,
    .ring_link = mesh_ring_link,
    .view = {
        .graph_refusal = mesh_graph_refusal,
        .place = mesh_place,
        .stroke = mesh_stroke,
        .stub_length = MESH_VIEW_STUB_LENGTH,
        .stretch = MESH_VIEW_STRETCH,
        .captions = mesh_captions,
        .graph_legend = mesh_graph_legend,
        .link_axis = mesh_link_axis,
        .column_names = TRUE,
        .matrix_legend = "matrix: a row per node, a column per link (+x, -x, "
                         "...), coloured by busy share in the window; hover "
                         "for counts",
        .bars = TOPOLOGY_BARS_PAIRS,
        .bar_label = mesh_bar_label,
    },
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
