/* ccc.c -- the cube-connected cycles CCC(n) (Preparata & Vuillemin 1981):
 * the Boolean n-cube with every node w replaced by a cycle of n nodes
 * (w, 0..n-1), node (w, i) keeping the cube's dimension i. n 2^n nodes of
 * degree 3, so a machine of many nodes with a fixed number of ports
 * each, which the cube is not.
 *
 * Address (w, i) = w n + i: a cycle's nodes are neighbours in memory.
 * Link 0 goes one step up the cycle, to (w, i + 1 mod n), link 1 one step
 * down, link 2 across the cube, to (w xor 2^i, i). n >= 3: on shorter
 * cycles the two cycle links would meet the same node.
 *
 * Default route: minimal. Every dimension in which w and w' differ must
 * be crossed at the cycle position of that dimension, so a route is a
 * walk around the cycle from i to j that passes each such position,
 * taking the cube link the first time it does. The shortest such walk
 * either goes round one way, a whole turn more than the distance, or
 * stays inside an arc that holds all the positions to pass and turns at
 * the arc's ends: the arc leaves out one gap between consecutive
 * positions, and on an arc (a line) the shortest walk from a to b that
 * covers it goes to one end, then to the other, then back to b. The route
 * is the shortest of these candidates; tests/check_topology.c compares
 * it with breadth-first distances. Diameter (Meliksetian & Chen):
 * 2n + floor(n/2) - 2 for n >= 4, 6 for n = 3.
 *
 * Its key is `dimensions` (n); the report gives n; the trace header has
 * n axes and no sides; the viewer draws each cycle as a small polygon at
 * the position of its cube node (up to CCC(4), 64 nodes).
 */
#include "topology.h"
#include "machine.h"

#include <math.h>
#include <stdio.h>

/* n 2^n <= TOPOLOGY_MAX_NODES. */
#define CCC_MIN_DIMENSIONS 3
#define CCC_MAX_DIMENSIONS 21

enum { CCC_UP = 0, CCC_DOWN = 1, CCC_CUBE = 2, CCC_LINKS = 3 };

static gboolean ccc_init(Topology *t, int dimensions, char **why);

static uint32_t ccc_neighbour(const Topology *t, uint32_t node, int link)
{
    uint32_t n = (uint32_t)t->axes, w = node / n, i = node % n;
    switch (link) {
    case CCC_UP:
        return w * n + (i + 1) % n;
    case CCC_DOWN:
        return w * n + (i + n - 1) % n;
    default:
        return (w ^ (1u << i)) * n + i;
    }
}

static void ccc_link_name(const Topology *t, int link, char *buf, size_t size)
{
    (void)t;
    snprintf(buf, size, "%s", link == CCC_UP ? "+cycle"
                              : link == CCC_DOWN ? "-cycle" : "cube");
}

static int ccc_direction(const Topology *t, uint32_t node, int link)
{
    uint32_t n = (uint32_t)t->axes;
    if (link == CCC_CUBE)
        return ((node / n >> node % n) & 1) ? -1 : 1;
    return link == CCC_UP ? 1 : -1;
}

/* ---- the minimal route -------------------------------------------------- */

/* A walk around the cycle: at most three legs, each `steps` moves up
 * (link 0) or down (link 1). */
typedef struct {
    uint32_t cost;
    int legs;
    int link[3];
    uint32_t steps[3];
} CccWalk;

static void ccc_consider(CccWalk *best, int legs, const int *link,
                         const uint32_t *steps)
{
    uint32_t cost = 0;
    for (int k = 0; k < legs; k++)
        cost += steps[k];
    if (cost >= best->cost)
        return;
    best->cost = cost;
    best->legs = legs;
    for (int k = 0; k < legs; k++) {
        best->link[k] = link[k];
        best->steps[k] = steps[k];
    }
}

/* The shortest walk from position i to j passing every position whose bit
 * is set in `must` (the dimensions to cross). */
static CccWalk ccc_walk(uint32_t n, uint32_t i, uint32_t j, uint32_t must)
{
    CccWalk best = { .cost = UINT32_MAX };
    uint32_t up = (j + n - i) % n, down = (n - up) % n;
    /* Round one way: a whole turn passes every position. */
    ccc_consider(&best, 1, (int[]){ CCC_UP }, (uint32_t[]){ up + n });
    ccc_consider(&best, 1, (int[]){ CCC_DOWN }, (uint32_t[]){ down + n });
    /* An arc: the positions to visit, i and j, in cycle order; leaving
     * out the gap that follows position p (up to the next one, q) keeps
     * the arc from q up to p, of length n - gap. */
    uint32_t keep = must | 1u << i | 1u << j;
    for (uint32_t p = 0; p < n; p++) {
        if (!((keep >> p) & 1))
            continue;
        uint32_t gap = 1;
        while (gap < n && !((keep >> (p + gap) % n) & 1))
            gap++;
        uint32_t q = (p + gap) % n, len = n - gap;    /* 0: one position */
        uint32_t xi = (i + n - q) % n, xj = (j + n - q) % n;
        /* Down to q, up to p, down to j; or up to p, down to q, up to j. */
        ccc_consider(&best, 3, (int[]){ CCC_DOWN, CCC_UP, CCC_DOWN },
                     (uint32_t[]){ xi, len, len - xj });
        ccc_consider(&best, 3, (int[]){ CCC_UP, CCC_DOWN, CCC_UP },
                     (uint32_t[]){ len - xi, len, xj });
    }
    return best;
}

static int ccc_route(const Topology *t, uint32_t from, uint32_t to, int *links)
{
    uint32_t n = (uint32_t)t->axes;
    uint32_t must = (from / n) ^ (to / n), at = from % n;
    CccWalk walk = ccc_walk(n, at, to % n, must);
    /* Cross a dimension the first time the walk stands at its position:
     * where it starts, and after each move. */
    int hops = 0;
    for (int k = 0, s = 0;; s++) {
        if ((must >> at) & 1) {
            links[hops++] = CCC_CUBE;
            must &= ~(1u << at);
        }
        for (; k < walk.legs && (uint32_t)s == walk.steps[k]; k++)
            s = 0;
        if (k == walk.legs)
            return hops;
        links[hops++] = walk.link[k];
        at = walk.link[k] == CCC_UP ? (at + 1) % n : (at + n - 1) % n;
    }
}

static uint64_t ccc_channels(const Topology *t, int link0, int link1)
{
    return (uint64_t)(link1 - link0) * t->nodes;
}

static int ccc_node_links(const Topology *t)
{
    return t->links;
}

/* Cut across dimension n-1: the cycles stay whole on either side, and the
 * 2^(n-1) edges of that dimension cross it. */
static uint64_t ccc_bisection(const Topology *t)
{
    return (uint64_t)1 << (t->axes - 1);
}

/* ---- keys, report, trace ------------------------------------------------ */

static gboolean ccc_parse(const MachineInput *in, Topology *t, char **why)
{
    const char *where;
    long long n;
    if (!machine_input_value(in, "dimensions", &where)) {
        machine_input_problem(in, "%s: [machine] needs dimensions (topology "
                              "ccc: the cube's n, also each cycle's length)",
                              machine_input_group_where(in));
        return FALSE;
    }
    if (!machine_input_int(in, "dimensions", CCC_MIN_DIMENSIONS,
                           CCC_MAX_DIMENSIONS, &n))
        return FALSE;
    return ccc_init(t, (int)n, why);
}

static char *ccc_title(const Topology *t)
{
    return g_strdup_printf("CCC(%d)", t->axes);
}

/* The header's axes are n, its nodes n 2^n. */
static gboolean ccc_trace_build(Topology *t, uint32_t axes, uint32_t nodes,
                                gboolean wrap, const uint32_t *side, char **why)
{
    (void)wrap;
    (void)side;
    return axes >= CCC_MIN_DIMENSIONS && axes <= CCC_MAX_DIMENSIONS
           && nodes == axes << axes && ccc_init(t, (int)axes, why);
}

/* ---- rings: the cycles -------------------------------------------------- */

/* One family, the n-node cycles, every step one link. */
static gboolean ccc_ring(const Topology *t, const char *value, TopologyRing *r,
                         char **why)
{
    (void)value;
    (void)why;
    *r = (TopologyRing){ .length = (uint32_t)t->axes, .longest = 1 };
    return TRUE;
}

static uint32_t ccc_ring_position(const Topology *t, const TopologyRing *r,
                                  uint32_t node)
{
    (void)r;
    return node % (uint32_t)t->axes;
}

static uint32_t ccc_ring_node(const Topology *t, const TopologyRing *r,
                              uint32_t node, uint32_t position)
{
    (void)r;
    uint32_t n = (uint32_t)t->axes;
    return node / n * n + position;
}

static int ccc_ring_link(const Topology *t, const TopologyRing *r,
                         uint32_t node, uint32_t next)
{
    (void)r;
    return ccc_neighbour(t, node, CCC_UP) == next ? CCC_UP : CCC_DOWN;
}

/* ---- the viewer --------------------------------------------------------- */

/* Up to CCC(4): 64 nodes, 192 channels. */
#define CCC_VIEW_MAX_DIMENSIONS 4
/* Cube nodes this far apart; each cycle a polygon of this radius. */
#define CCC_VIEW_SPACING 3.2
#define CCC_VIEW_RADIUS 0.75

/* The drawing may be this much wider than its proportions (or taller) to
 * fill the panel, the cycles' polygons a little flattened. */
#define CCC_VIEW_STRETCH 1.4

static const char *ccc_graph_refusal(const Topology *t)
{
    return t->axes > CCC_VIEW_MAX_DIMENSIONS
               ? "the graph view draws cube-connected cycles up to CCC(4) "
                 "(64 nodes); this is the matrix view"
               : NULL;
}

/* Cube node w on a grid, bits 0 and 2 across, 1 and 3 down; the cycle's
 * node i on a circle around it, node 0 at the top. */
static void ccc_place(const Topology *t, uint32_t node, double *x, double *y)
{
    uint32_t n = (uint32_t)t->axes, w = node / n, i = node % n;
    double a = 2 * G_PI * i / n - G_PI / 2;
    *x = CCC_VIEW_SPACING * ((w & 1) + 2 * ((w >> 2) & 1))
         + CCC_VIEW_RADIUS * cos(a);
    *y = CCC_VIEW_SPACING * (((w >> 1) & 1) + 2 * ((w >> 3) & 1))
         + CCC_VIEW_RADIUS * sin(a);
}

/* Cube edges of dimensions 2 and 3 span two cells: arcs, so that they do
 * not run through the cycle between their ends. */
static void ccc_stroke(const Topology *t, uint32_t node, int link,
                       TopologyStroke *s)
{
    uint32_t i = node % (uint32_t)t->axes;
    *s = (TopologyStroke){ .bulge = link == CCC_CUBE && i >= 2 ? 0.12 : 0 };
}

/* "w.i": the cube node and the position on its cycle. */
static void ccc_node_label(const Topology *t, uint32_t node, char *buf,
                           size_t size)
{
    uint32_t n = (uint32_t)t->axes;
    snprintf(buf, size, "%u.%u", node / n, node % n);
}

/* The cycle's two links together, the cube's apart. */
static int ccc_link_axis(const Topology *t, int link)
{
    (void)t;
    return link == CCC_CUBE;
}

const TopologyOps topology_ccc_ops = {
    .name = "ccc",
    .traits = TOPOLOGY_RINGS,
    .summary = "cube-connected cycles CCC(n) (dimensions = n): n 2^n nodes of "
               "degree 3, links +cycle, -cycle and cube",
    .classes = (1u << CLASS_NEIGHBOUR) | (1u << CLASS_ROUTER),
    .neighbour = ccc_neighbour,
    .link_name = ccc_link_name,
    .direction = ccc_direction,
    .route = ccc_route,
    .channels = ccc_channels,
    .node_links = ccc_node_links,
    .keys = (const char *const[]){ "dimensions", NULL },
    .parse = ccc_parse,
    .describe_json = topology_dimensions_json,
    .describe_text = topology_dimensions_text,
    .title = ccc_title,
    .number = topology_dimensions_number,
    .trace_code = 3,
    .trace_build = ccc_trace_build,
    .bisection = ccc_bisection,
    .ring = ccc_ring,
    .ring_position = ccc_ring_position,
    .ring_node = ccc_ring_node,
    .ring_link = ccc_ring_link,
    .view = {
        .graph_refusal = ccc_graph_refusal,
        .place = ccc_place,
        .stroke = ccc_stroke,
        .stretch = CCC_VIEW_STRETCH,
        .node_label = ccc_node_label,
        .link_axis = ccc_link_axis,
        .column_names = TRUE,
        .matrix_legend = "matrix: a row per node, a column per link (+cycle, "
                         "-cycle, cube), coloured by busy share in the "
                         "window; hover for counts",
        .bars = TOPOLOGY_BARS_LINKS,
    },
};

static gboolean ccc_init(Topology *t, int dimensions, char **why)
{
    if (dimensions < CCC_MIN_DIMENSIONS || dimensions > CCC_MAX_DIMENSIONS) {
        *why = g_strdup_printf("%d is out of range (valid: %d..%d)",
                               dimensions, CCC_MIN_DIMENSIONS,
                               CCC_MAX_DIMENSIONS);
        return FALSE;
    }
    uint32_t n = (uint32_t)dimensions;
    *t = (Topology){ .ops = &topology_ccc_ops };
    t->nodes = n << n;
    t->links = CCC_LINKS;
    t->axes = dimensions;
    t->diameter = n == 3 ? 6 : 2 * n + n / 2 - 2;
    return TRUE;
}
