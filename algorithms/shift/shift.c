/* shift.c -- the cyclic shift, the building block of Cannon's multiply and
 * the first algorithm that runs on every topology.
 *
 * Every node sends its K elements to the next node of its ring and
 * receives the K elements of the previous one (payload of element j on
 * node x: x*K + j, so node x ends with its predecessor's block). The rings
 * are the topology's (TopologyRing, machines/topology.h): on a mesh the
 * lines along `axis`, on a cube the binary-reflected Gray code over the
 * address bits of `dimensions` (Johnsson & Ho, Definition 1), on the
 * complete graph the processors in address order, on the cube-connected
 * cycles each cycle. A step that is one link is sent over it; one that is
 * not (the end of a mesh line without wrap) goes along the default route,
 * h links, pipelined.
 * Exact cycles, uncontended (ports = all, or one message per node and no
 * forwarding): Ts + K Tw when every step is one link, and
 * Ts + (K + h - 1) Tw for a routed step of h links.
 */
#include "algorithm.h"

#include <string.h>

typedef struct {
    Topology topology;            /* a copy of the machine's */
    TopologyRing ring;
    uint64_t k;
    int direction;                /* +1 or -1 */
} ShiftConfig;

static const char *const shift_directions[] = { "+", "-", NULL };

static const AlgorithmMethod shift_methods[] = {
    { "ring", "every node sends its K elements one step along a ring" },
    { NULL, NULL }
};

/* The parameters that pick a topology's rings (its ring_key). */
static const char *const shift_ring_keys[] = { "axis", "dimensions", NULL };

static const ParamSpec shift_params[] = {
    { .key = "elements-per-node", .type = PARAM_INT, .fallback = "64",
      .min = 1, .max = 1LL << 32, .help = "K, elements per node" },
    { .key = "axis", .type = PARAM_INT, .fallback = "0", .min = 0,
      .max = TOPOLOGY_MAX_AXES - 1, .help = "mesh: the axis of the rings" },
    { .key = "direction", .type = PARAM_CHOICE, .fallback = "+",
      .choices = shift_directions, .help = "+ (to the next node) or -" },
    { .key = "dimensions", .type = PARAM_TEXT, .fallback = "all",
      .help = "cube: the ring's dimensions, all or LO..HI" },
    { .key = NULL }
};

/* The node `steps` positions on from x along its ring (steps may be
 * negative). */
static uint32_t shift_along(const ShiftConfig *c, uint32_t x, int64_t steps)
{
    const Topology *t = &c->topology;
    int64_t n = c->ring.length;
    int64_t at = t->ops->ring_position(t, &c->ring, x);
    return t->ops->ring_node(t, &c->ring, x,
                             (uint32_t)(((at + steps) % n + n) % n));
}

static NodeStatus shift_step(Node *node, const void *config)
{
    const ShiftConfig *c = config;
    const Topology *t = &c->topology;
    uint32_t x = node_address(node);
    uint32_t next = shift_along(c, x, c->direction);
    uint32_t prev = shift_along(c, x, -c->direction);
    node_mark(node, "shift");
    if (next == x)
        return NODE_DONE;               /* a ring of one: nothing moves */
    int link = t->ops->ring_link(t, &c->ring, x, next);
    if (link >= 0)
        node_send(node, &link, 1, 0, (size_t)c->k, 0);
    else
        node_send_to(node, next, 0, (size_t)c->k, 0);
    node_recv(node, prev, 0, 0, (size_t)c->k);
    return NODE_DONE;
}

static void *shift_prepare(const Machine *m, const Params *p,
                           MemoryLayout *layout, GError **error)
{
    g_autofree ShiftConfig *c = g_new0(ShiftConfig, 1);
    const TopologyOps *ops = m->topology.ops;
    c->topology = m->topology;
    c->k = (uint64_t)params_int(p, "elements-per-node");
    c->direction = params_choice(p, "direction") == 0 ? 1 : -1;
    for (const char *const *key = shift_ring_keys; *key; key++)
        if (params_given(p, *key)
            && (!ops->ring_key || strcmp(*key, ops->ring_key)))
            return params_fail(p, error, *key, "does not pick the rings of "
                               "a %s (%s)", ops->name,
                               ops->ring_key ? ops->ring_key
                                             : "it has one family of rings");
    g_autofree char *why = NULL;
    if (!ops->ring(&m->topology,
                   ops->ring_key ? params_text(p, ops->ring_key) : NULL,
                   &c->ring, &why))
        return params_fail(p, error, ops->ring_key, "%s", why);
    layout->memory_elements = layout->elements_per_node = (size_t)c->k;
    layout->local_size = 0;
    layout->element = ELEMENT_WORD;
    return g_steal_pointer(&c);
}

static void shift_init(const void *config, uint32_t x, Word *memory)
{
    const ShiftConfig *c = config;
    for (uint64_t j = 0; j < c->k; j++)
        memory[j] = (uint64_t)x * c->k + j;
}

/* Node x holds the block of the node one position back along its ring.
 * The step reaches its partners through the same ring maps, so these are
 * held to their definition on their own (tests/check_topology.c: every
 * node in one ring, position and node inverse, one-link steps). */
static void shift_expect(const void *config, uint32_t x, Word *expected)
{
    const ShiftConfig *c = config;
    uint32_t from = shift_along(c, x, -c->direction);
    for (uint64_t j = 0; j < c->k; j++)
        expected[j] = (uint64_t)from * c->k + j;
}

static void shift_report(const void *config, Report *r)
{
    const ShiftConfig *c = config;
    const Machine *m = &r->machine;
    uint32_t ring = c->ring.length, h = ring > 1 ? c->ring.longest : 0;
    /* A step of h > 1 links (the end of a mesh line without wrap) goes
     * along the default route as a router message; every other is one
     * link. */
    gboolean routed = h > 1;
    const MachinePrice *hop = machine_price(m, CLASS_NEIGHBOUR);
    double k = (double)c->k;
    double one = (double)hop->startup + k * (double)hop->element_time;
    double cycles = one;
    if (routed) {
        const MachinePrice *rt = machine_price(m, CLASS_ROUTER);
        double back = (double)rt->startup
                      + (k + h - 1) * (double)rt->element_time;
        cycles = MAX(one, back);
    }
    /* Exact when no element waits: all ports, or one message in and out
     * per node and no forwarding through another node's ports. */
    gboolean exact = m->ports == MACHINE_PORTS_ALL || !routed;
    report_cycle_bound(r, routed ? "max(Ts + K Tw, Ts + (K + h - 1) Tw)"
                                 : "Ts + K Tw",
                       exact ? BOUND_EXACT : BOUND_LOWER, ring > 1 ? cycles : 0,
                       routed ? "one-link steps, and the steps of h links "
                                "along the default route, pipelined"
                              : "one message of K elements per node, one hop");
    report_detail_int(r, "ring_length", ring);
    report_detail_int(r, "longest_path", h);
}

const Algorithm algorithm_shift = {
    .name = "shift",
    .summary = "cyclic shift of every node's K elements along a ring",
    .source = "Cannon's building block (Mathur & Johnsson 1992, Section 4.2); "
              "Gray-code rings (Johnsson & Ho 1990, Definition 1)",
    .needs = TOPOLOGY_RINGS,
    .methods = shift_methods,
    .params = shift_params,
    .prepare = shift_prepare,
    .release = g_free,
    .init = shift_init,
    .step = shift_step,
    .expect = shift_expect,
    .report = shift_report,
};
