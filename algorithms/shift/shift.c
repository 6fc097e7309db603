/* shift.c -- the cyclic shift, the building block of Cannon's multiply and
 * the first algorithm that runs on every topology.
 *
 * Every node sends its K elements to the next node of a ring and receives
 * the K elements of the previous one (payload of element j on node x:
 * x*K + j, so node x ends with its predecessor's block):
 *   mesh      the ring is each line along mesh axis `axis`, in `direction`;
 *             on a torus every move is one hop; without wrap the node at
 *             the end of a line sends to the start along the default
 *             route, walking back across the whole line (S - 1 hops, in
 *             the opposite direction, so it meets no other message);
 *   cube      the ring is the binary-reflected Gray code over the address
 *             bits of `dimensions` (default all), so every move crosses one
 *             dimension (Johnsson & Ho, Definition 1);
 *   complete  node x sends to (x + 1) mod P (or x - 1), over the direct
 *             channel.
 * Exact cycles, uncontended (ports = all, or one message per node and no
 * forwarding): Ts + K Tw for a one-hop ring, and on a mesh without wrap the
 * routed message's Ts + (K + S - 2) Tw (pipelining over S - 1 hops).
 */
#include "algorithm.h"
#include "graycode.h"

#include <string.h>

/* Rings over at most this many cube dimensions: an address has 32 bits. */
#define SHIFT_MAX_RING_BITS 32

typedef struct {
    Topology topology;            /* a copy of the machine's */
    uint64_t k;
    int direction;                /* +1 or -1 */
    int axis;                     /* mesh */
    int lo, hi;                   /* cube: ring over dimensions lo..hi */
} ShiftConfig;

static const char *const shift_directions[] = { "+", "-", NULL };

static const AlgorithmMethod shift_methods[] = {
    { "ring", "every node sends its K elements one step along a ring" },
    { NULL, NULL }
};

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

/* The next node of x's ring in direction dir. */
static uint32_t shift_next(const ShiftConfig *c, uint32_t x, int dir)
{
    const Topology *t = &c->topology;
    switch (t->ops->kind) {
    case TOPOLOGY_MESH: {
        uint32_t s = t->side[c->axis], stride = t->stride[c->axis];
        uint32_t at = x / stride % s;
        uint32_t to = (at + (dir > 0 ? 1 : s - 1)) % s;
        return x - at * stride + to * stride;
    }
    case TOPOLOGY_CUBE: {
        int r = c->hi - c->lo + 1;
        uint32_t mask = (uint32_t)(((uint64_t)1 << r) - 1) << c->lo;
        uint64_t pos = gray_decode((x & mask) >> c->lo);
        pos = (pos + (dir > 0 ? 1 : ((uint64_t)1 << r) - 1)) & (((uint64_t)1 << r) - 1);
        return (x & ~mask) | ((uint32_t)gray_encode(pos) << c->lo);
    }
    case TOPOLOGY_COMPLETE:
        return (uint32_t)((x + (dir > 0 ? 1 : t->nodes - 1)) % t->nodes);
    }
    return x;
}

/* The link from x to its ring successor when that is one hop, else -1
 * (the end of a mesh line without wrap). */
static int shift_link(const ShiftConfig *c, uint32_t x, uint32_t next)
{
    const Topology *t = &c->topology;
    switch (t->ops->kind) {
    case TOPOLOGY_MESH:
        for (int dir = -1; dir <= 1; dir += 2) {
            int l = topology_mesh_link(c->axis, dir);
            if (topology_neighbour(t, x, l) == next)
                return l;
        }
        return -1;
    case TOPOLOGY_CUBE:
        return __builtin_ctz(x ^ next);
    case TOPOLOGY_COMPLETE:
        return (int)next;
    }
    return -1;
}

static NodeStatus shift_step(Node *node, const void *config)
{
    const ShiftConfig *c = config;
    uint32_t x = node_address(node);
    uint32_t next = shift_next(c, x, c->direction);
    uint32_t prev = shift_next(c, x, -c->direction);
    int link = shift_link(c, x, next);
    node_mark(node, "shift");
    if (next == x)
        return NODE_DONE;               /* a ring of one: nothing moves */
    if (link >= 0)
        node_send(node, &link, 1, 0, (size_t)c->k, 0);
    else
        node_send_to(node, next, 0, (size_t)c->k, 0);
    node_recv(node, prev, 0, 0, (size_t)c->k);
    return NODE_DONE;
}

static gboolean parse_range(const char *text, int n, int *lo, int *hi)
{
    if (!strcmp(text, "all")) {
        *lo = 0;
        *hi = n - 1;
        return TRUE;
    }
    char *end;
    long a = strtol(text, &end, 10);
    if (end == text || strncmp(end, "..", 2))
        return FALSE;
    const char *p = end + 2;
    long b = strtol(p, &end, 10);
    if (end == p || *end || a < 0 || b < a || b >= n
        || b - a + 1 > SHIFT_MAX_RING_BITS)
        return FALSE;
    *lo = (int)a;
    *hi = (int)b;
    return TRUE;
}

static void *shift_prepare(const Machine *m, const Params *p,
                           MemoryLayout *layout, GError **error)
{
    g_autofree ShiftConfig *c = g_new0(ShiftConfig, 1);
    c->topology = m->topology;
    c->k = (uint64_t)params_int(p, "elements-per-node");
    c->direction = params_choice(p, "direction") == 0 ? 1 : -1;
    c->axis = (int)params_int(p, "axis");
    TopologyKind kind = m->topology.ops->kind;
    if (kind != TOPOLOGY_MESH && params_given(p, "axis"))
        return params_fail(p, error, "axis", "applies to a mesh; on a %s "
                           "the ring is %s", m->topology.ops->name,
                           kind == TOPOLOGY_CUBE ? "set by dimensions"
                                                 : "0, 1, ..., P-1");
    if (kind == TOPOLOGY_MESH && c->axis >= m->topology.axes)
        return params_fail(p, error, "axis", "%d is not an axis of this "
                           "mesh (valid: 0..%d)", c->axis, m->topology.axes - 1);
    if (kind != TOPOLOGY_CUBE && params_given(p, "dimensions"))
        return params_fail(p, error, "dimensions", "applies to a cube");
    if (kind == TOPOLOGY_CUBE
        && !parse_range(params_text(p, "dimensions"), m->topology.axes,
                        &c->lo, &c->hi))
        return params_fail(p, error, "dimensions", "'%s' is not a range of "
                           "dimensions (valid: all, or LO..HI within 0..%d)",
                           params_text(p, "dimensions"), m->topology.axes - 1);
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

/* Node x holds its ring predecessor's block, derived here from
 * coordinates (mesh), ring positions (cube: position i holds G(i)) and
 * addresses (complete), not from shift_next. */
static void shift_expect(const void *config, uint32_t x, Word *expected)
{
    const ShiftConfig *c = config;
    const Topology *t = &c->topology;
    uint32_t from = x;
    if (t->ops->kind == TOPOLOGY_MESH) {
        uint32_t co[TOPOLOGY_MAX_AXES];
        topology_coords(t, x, co);
        uint32_t s = t->side[c->axis];
        co[c->axis] = (uint32_t)(((int64_t)co[c->axis] - c->direction + s) % s);
        from = topology_address(t, co);
    } else if (t->ops->kind == TOPOLOGY_CUBE) {
        int r = c->hi - c->lo + 1;
        uint64_t size = (uint64_t)1 << r, g = (x >> c->lo) & (size - 1), i = 0;
        for (int b = r - 1; b >= 0; b--)          /* b_m = g_m xor b_(m+1) */
            i |= (((g >> b) & 1) ^ ((i >> (b + 1)) & 1)) << b;
        uint64_t pi = (i + size - (uint64_t)(c->direction > 0 ? 1 : size - 1)) % size;
        uint64_t pg = pi ^ (pi >> 1);
        from = (uint32_t)((x & ~(uint32_t)((size - 1) << c->lo))
                          | (uint32_t)(pg << c->lo));
    } else {
        from = (uint32_t)(((int64_t)x - c->direction + t->nodes) % t->nodes);
    }
    for (uint64_t j = 0; j < c->k; j++)
        expected[j] = (uint64_t)from * c->k + j;
}

static void shift_report(const void *config, Report *r)
{
    const ShiftConfig *c = config;
    const Machine *m = &r->machine;
    const Topology *t = &c->topology;
    uint32_t ring = t->ops->kind == TOPOLOGY_MESH ? t->side[c->axis]
                    : t->ops->kind == TOPOLOGY_CUBE ? 1u << (c->hi - c->lo + 1)
                    : t->nodes;
    /* A mesh line without wrap closes its ring with a routed message over
     * ring - 1 hops; every other move is one hop. */
    gboolean routed = t->ops->kind == TOPOLOGY_MESH && !t->wrap && ring > 2;
    const MachinePrice *hop = machine_price(m, CLASS_NEIGHBOUR);
    double k = (double)c->k;
    double one = (double)hop->startup + k * (double)hop->element_time;
    double cycles = one;
    if (routed) {
        const MachinePrice *rt = machine_price(m, CLASS_ROUTER);
        double back = (double)rt->startup
                      + (k + ring - 2) * (double)rt->element_time;
        cycles = MAX(one, back);
    }
    /* Exact when no element waits: all ports, or one message in and out
     * per node and no forwarding through another node's ports. */
    gboolean exact = m->ports == MACHINE_PORTS_ALL || !routed;
    report_cycle_bound(r, routed ? "max(Ts + K Tw, Ts + (K + S - 2) Tw)"
                                 : "Ts + K Tw",
                       exact ? BOUND_EXACT : BOUND_LOWER, ring > 1 ? cycles : 0,
                       routed ? "one-hop moves, and the wrap-around message "
                                "walking back across the line of S nodes"
                              : "one message of K elements per node, one hop");
    report_detail_int(r, "ring_length", ring);
    report_detail_int(r, "longest_path", routed ? ring - 1 : ring > 1);
}

const Algorithm algorithm_shift = {
    .name = "shift",
    .summary = "cyclic shift of every node's K elements along a ring",
    .source = "Cannon's building block (Mathur & Johnsson 1992, Section 4.2); "
              "Gray-code rings (Johnsson & Ho 1990, Definition 1)",
    .topologies = (1u << TOPOLOGY_CUBE) | (1u << TOPOLOGY_MESH)
                  | (1u << TOPOLOGY_COMPLETE),
    .methods = shift_methods,
    .params = shift_params,
    .prepare = shift_prepare,
    .release = g_free,
    .init = shift_init,
    .step = shift_step,
    .expect = shift_expect,
    .report = shift_report,
};
