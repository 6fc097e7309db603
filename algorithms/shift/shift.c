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
 *
 * Written against the node-program SDK (<cubemu/program.h>) alone, as a
 * user's loaded program is, and listed in the registry as a PROGRAM: the
 * built-ins use the interface they install, so it cannot drift from
 * them.
 */
#include <cubemu/program.h>

#include <stdlib.h>
#include <string.h>

typedef struct {
    const cubemu_machine *machine;    /* valid until release */
    cubemu_ring ring;
    uint64_t k;
    int direction;                /* +1 or -1 */
} ShiftConfig;

static const char *const shift_directions[] = { "+", "-", NULL };

static const cubemu_method shift_methods[] = {
    { "ring", "every node sends its K elements one step along a ring" },
    { NULL, NULL }
};

/* The parameters that pick a topology's rings (its ring key). */
static const char *const shift_ring_keys[] = { "axis", "dimensions", NULL };

static const cubemu_param shift_params[] = {
    { .key = "elements-per-node", .type = CUBEMU_PARAM_INT, .fallback = "64",
      .min = 1, .max = 1LL << 32, .help = "K, elements per node" },
    /* A mesh has at most 32 axes (machines/topology.h). */
    { .key = "axis", .type = CUBEMU_PARAM_INT, .fallback = "0", .min = 0,
      .max = 31, .help = "mesh: the axis of the rings" },
    { .key = "direction", .type = CUBEMU_PARAM_CHOICE, .fallback = "+",
      .choices = shift_directions, .help = "+ (to the next node) or -" },
    { .key = "dimensions", .type = CUBEMU_PARAM_TEXT, .fallback = "all",
      .help = "cube: the ring's dimensions, all or LO..HI" },
    { .key = NULL }
};

/* The node one position on from x's position `at` along its ring, in
 * direction dir (+1 or -1): a wrap, not a division, a node's step being
 * little more than its two messages. */
static uint32_t shift_along(const ShiftConfig *c, uint32_t x, uint32_t at,
                            int dir)
{
    uint32_t n = c->ring.length;
    uint32_t to = dir > 0 ? (at + 1 == n ? 0 : at + 1)
                          : (at == 0 ? n - 1 : at - 1);
    return cubemu_ring_node(c->machine, &c->ring, x, to);
}

static int shift_step(cubemu_node *node, const void *config)
{
    const ShiftConfig *c = config;
    uint32_t x = cubemu_address(node);
    uint32_t at = cubemu_ring_position(c->machine, &c->ring, x);
    uint32_t next = shift_along(c, x, at, c->direction);
    uint32_t prev = shift_along(c, x, at, -c->direction);
    cubemu_mark(node, "shift");
    if (next == x)
        return CUBEMU_DONE;             /* a ring of one: nothing moves */
    int link = cubemu_ring_link(c->machine, &c->ring, x, next);
    if (link >= 0)
        cubemu_send(node, &link, 1, 0, (size_t)c->k, 0);
    else
        cubemu_send_to(node, next, 0, (size_t)c->k, 0);
    cubemu_recv(node, prev, 0, 0, (size_t)c->k);
    return CUBEMU_DONE;
}

static void *shift_prepare(const cubemu_machine *m, cubemu_params *p,
                           cubemu_layout *layout)
{
    ShiftConfig *c = calloc(1, sizeof *c);
    if (!c)
        return cubemu_fail(p, NULL, "out of memory");
    c->machine = m;
    c->k = (uint64_t)cubemu_param_int(p, "elements-per-node");
    c->direction = cubemu_param_choice(p, "direction") == 0 ? 1 : -1;
    const char *ring_key = cubemu_ring_key(m);
    for (const char *const *key = shift_ring_keys; *key; key++)
        if (cubemu_param_given(p, *key) && (!ring_key || strcmp(*key, ring_key))) {
            free(c);
            return cubemu_fail(p, *key, "does not pick the rings of a %s (%s)",
                               cubemu_machine_topology(m),
                               ring_key ? ring_key
                                        : "it has one family of rings");
        }
    char why[256];
    if (!cubemu_ring_get(m, ring_key ? cubemu_param_text(p, ring_key) : NULL,
                         &c->ring, why, sizeof why)) {
        free(c);
        return cubemu_fail(p, ring_key, "%s", why);
    }
    layout->memory_elements = layout->elements_per_node = (size_t)c->k;
    layout->local_size = 0;
    layout->element = CUBEMU_WORD;
    return c;
}

static void shift_init(const void *config, uint32_t x, cubemu_word *memory)
{
    const ShiftConfig *c = config;
    for (uint64_t j = 0; j < c->k; j++)
        memory[j] = (uint64_t)x * c->k + j;
}

/* Node x holds the block of the node one position back along its ring.
 * The step reaches its partners through the same ring maps, so these are
 * held to their definition on their own (tests/check_topology.c: every
 * node in one ring, position and node inverse, one-link steps). */
static void shift_expect(const void *config, uint32_t x, cubemu_word *expected)
{
    const ShiftConfig *c = config;
    int64_t n = c->ring.length;
    int64_t back = (int64_t)cubemu_ring_position(c->machine, &c->ring, x)
                   - c->direction;
    uint32_t from = cubemu_ring_node(c->machine, &c->ring, x,
                                     (uint32_t)((back % n + n) % n));
    for (uint64_t j = 0; j < c->k; j++)
        expected[j] = (uint64_t)from * c->k + j;
}

static void shift_report(const void *config, const cubemu_machine *m,
                         cubemu_report *r)
{
    const ShiftConfig *c = config;
    uint32_t ring = c->ring.length, h = ring > 1 ? c->ring.longest : 0;
    /* A step of h > 1 links (the end of a mesh line without wrap) goes
     * along the default route as a router message; every other is one
     * link. */
    int routed = h > 1;
    double k = (double)c->k;
    double one = (double)cubemu_machine_startup(m, CUBEMU_NEIGHBOUR)
                 + k * (double)cubemu_machine_element_time(m, CUBEMU_NEIGHBOUR);
    double cycles = one;
    if (routed) {
        double back = (double)cubemu_machine_startup(m, CUBEMU_ROUTER)
                      + (k + h - 1)
                        * (double)cubemu_machine_element_time(m, CUBEMU_ROUTER);
        cycles = one > back ? one : back;
    }
    /* Exact when no element waits: all ports, or one message in and out
     * per node and no forwarding through another node's ports. */
    int exact = cubemu_machine_ports(m) == 0 || !routed;
    cubemu_bound(r, "cycles", routed ? "max(Ts + K Tw, Ts + (K + h - 1) Tw)"
                                     : "Ts + K Tw",
                 exact ? CUBEMU_EXACT : CUBEMU_LOWER, ring > 1 ? cycles : 0,
                 routed ? "one-link steps, and the steps of h links "
                          "along the default route, pipelined"
                        : "one message of K elements per node, one hop");
    cubemu_detail_int(r, "ring_length", ring);
    cubemu_detail_int(r, "longest_path", h);
}

const cubemu_program program_shift = {
    CUBEMU_PROGRAM_VERSION,
    .name = "shift",
    .summary = "cyclic shift of every node's K elements along a ring",
    .source = "Cannon's building block (Mathur & Johnsson 1992, Section 4.2); "
              "Gray-code rings (Johnsson & Ho 1990, Definition 1)",
    .needs = CUBEMU_NEEDS_RINGS,
    .methods = shift_methods,
    .params = shift_params,
    .prepare = shift_prepare,
    .release = free,
    .init = shift_init,
    .step = shift_step,
    .expect = shift_expect,
    .report = shift_report,
};
