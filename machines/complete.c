/* complete.c -- the fully connected machine (the SMP of Al Na'mneh, Pan &
 * Yoo): P processors, a directed channel for every ordered pair. Link j is
 * the channel to node j (absent at node j itself); the default route is
 * that one link, so every message is a neighbour message and the machine
 * prices one class. The engine keeps state only for channels in use, so a
 * large P costs nothing per pair: with a port limit the ports are the
 * contended resource. Its key is `processors`; the trace header has no
 * axes; the viewer draws a circle of chords (up to 16 processors).
 */
#include "topology.h"
#include "machine.h"
#include "json_writer.h"

#include <math.h>
#include <stdio.h>

static uint32_t complete_neighbour(const Topology *t, uint32_t node, int link)
{
    (void)t;
    return (uint32_t)link == node ? TOPOLOGY_NONE : (uint32_t)link;
}

static void complete_link_name(const Topology *t, int link, char *buf,
                               size_t size)
{
    (void)t;
    snprintf(buf, size, "to %d", link);
}

static int complete_direction(const Topology *t, uint32_t node, int link)
{
    (void)t;
    return (uint32_t)link > node ? 1 : -1;
}

static int complete_route(const Topology *t, uint32_t from, uint32_t to,
                          int *links)
{
    (void)t;
    if (from == to)
        return 0;
    links[0] = (int)to;
    return 1;
}

/* Every link but the one to a node itself: P - 1 channels each. */
static uint64_t complete_channels(const Topology *t, int link0, int link1)
{
    return (uint64_t)(link1 - link0) * (t->nodes - 1);
}

/* All but the link to the node itself. */
static int complete_node_links(const Topology *t)
{
    return t->links - 1;
}

static gboolean complete_parse(const MachineInput *in, Topology *t,
                               char **why)
{
    const char *where;
    long long p;
    if (!machine_input_value(in, "processors", &where)) {
        machine_input_problem(in, "%s: [machine] needs processors (topology "
                              "complete)", machine_input_group_where(in));
        return FALSE;
    }
    if (!machine_input_int(in, "processors", 2, TOPOLOGY_MAX_NODES, &p))
        return FALSE;
    return topology_complete_init(t, (uint32_t)p, why);
}

static void complete_describe_json(const Topology *t, JsonWriter *w)
{
    json_writer_key(w, "processors");
    json_writer_int(w, t->nodes);
}

static void complete_describe_text(const Topology *t, GString *line)
{
    (void)t;
    (void)line;
}

static char *complete_title(const Topology *t)
{
    return g_strdup(t->ops->name);
}

/* The header's axes are 0: a complete graph has none. */
static gboolean complete_trace_build(Topology *t, uint32_t axes,
                                     uint32_t nodes, gboolean wrap,
                                     const uint32_t *side, char **why)
{
    (void)wrap;
    (void)side;
    return axes == 0 && topology_complete_init(t, nodes, why);
}

/* Any half of the processors: every ordered pair across the cut has its
 * channel, (P/2)^2 each way. */
static uint64_t complete_bisection(const Topology *t)
{
    return t->nodes % 2 ? 0 : (uint64_t)(t->nodes / 2) * (t->nodes / 2);
}

/* One ring, the processors in address order: every step a direct link. */
static gboolean complete_ring(const Topology *t, const char *value,
                              TopologyRing *r, char **why)
{
    (void)value;
    (void)why;
    *r = (TopologyRing){ .length = t->nodes, .longest = 1 };
    return TRUE;
}

static uint32_t complete_ring_position(const Topology *t, const TopologyRing *r,
                                       uint32_t node)
{
    (void)t;
    (void)r;
    return node;
}

static uint32_t complete_ring_node(const Topology *t, const TopologyRing *r,
                                   uint32_t node, uint32_t position)
{
    (void)t;
    (void)r;
    (void)node;
    return position;
}

static int complete_ring_link(const Topology *t, const TopologyRing *r,
                              uint32_t node, uint32_t next)
{
    (void)t;
    (void)r;
    (void)node;
    return (int)next;
}

/* ---- the viewer --------------------------------------------------------- */

/* The circle of chords: P (P - 1) channels; beyond 16 processors (240
 * channels) the chords merge into a grey disc. */
#define COMPLETE_VIEW_MAX_NODES 16

static const char *complete_graph_refusal(const Topology *t)
{
    return t->nodes > COMPLETE_VIEW_MAX_NODES
               ? "the graph view draws complete graphs of up to 16 "
                 "processors; this is the matrix view"
               : NULL;
}

/* Processors on a circle, node 0 at the top, one neighbour distance apart;
 * every channel a chord. */
static void complete_place(const Topology *t, uint32_t node, double *x,
                           double *y)
{
    double a = 2 * G_PI * node / t->nodes - G_PI / 2;
    *x = cos(a) * t->nodes / (2 * G_PI);
    *y = sin(a) * t->nodes / (2 * G_PI);
}

static void complete_stroke(const Topology *t, uint32_t node, int link,
                            TopologyStroke *s)
{
    (void)t;
    (void)node;
    (void)link;
    *s = (TopologyStroke){ 0 };
}

/* All links are one axis: the destinations. */
static int complete_link_axis(const Topology *t, int link)
{
    (void)t;
    (void)link;
    return 0;
}

const TopologyOps topology_complete_ops = {
    .name = "complete",
    .traits = TOPOLOGY_DIRECT | TOPOLOGY_RINGS,
    .summary = "fully connected (processors = P): a channel for every ordered "
               "pair, link j is the channel to node j",
    .classes = 1u << CLASS_NEIGHBOUR,
    .neighbour = complete_neighbour,
    .link_name = complete_link_name,
    .direction = complete_direction,
    .route = complete_route,
    .channels = complete_channels,
    .node_links = complete_node_links,
    .sparse_links = TRUE,
    .keys = (const char *const[]){ "processors", NULL },
    .parse = complete_parse,
    .describe_json = complete_describe_json,
    .describe_text = complete_describe_text,
    .title = complete_title,
    .trace_code = 2,
    .trace_build = complete_trace_build,
    .bisection = complete_bisection,
    .ring = complete_ring,
    .ring_position = complete_ring_position,
    .ring_node = complete_ring_node,
    .ring_link = complete_ring_link,
    .view = {
        .graph_refusal = complete_graph_refusal,
        .place = complete_place,
        .stroke = complete_stroke,
        .link_axis = complete_link_axis,
        .matrix_legend = "matrix: a row per node, a column per destination "
                         "(the channel to that node), coloured by busy share "
                         "in the window; hover for counts",
        .bars = TOPOLOGY_BARS_LINKS,
    },
};

gboolean topology_complete_init(Topology *t, uint32_t processors, char **why)
{
    if (processors < 2 || processors > TOPOLOGY_MAX_NODES) {
        *why = g_strdup_printf("%u is out of range (valid: 2..%u)", processors,
                               TOPOLOGY_MAX_NODES);
        return FALSE;
    }
    *t = (Topology){ .ops = &topology_complete_ops };
    t->nodes = processors;
    t->links = (int)processors;
    t->diameter = 1;
    return TRUE;
}
