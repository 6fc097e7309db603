/* broadcast.c -- a one-to-all broadcast among the live nodes, a node
 * program that runs on a machine with dead nodes ([machine] faults =
 * node:U or random-nodes:K:SEED) as on a whole one, on any topology.
 *
 * Every node starts with its own vector of K 64-bit words; at the end
 * every live node holds the root's vector, the root being the live node
 * of the lowest address. A dead node runs nothing, so its memory keeps
 * its own vector, and the reference (expect) says so: it asks the machine
 * which nodes are alive (cubemu_machine_node_alive), as the nodes do in
 * their steps (cubemu_node_alive).
 *
 * The live nodes are numbered in address order, rank 0 (the root) to
 * L - 1, and the vector goes down a binomial tree over the ranks: in
 * round s = 0, 1, ... every rank r < 2^s that has it sends it to rank
 * r + 2^s (when there is one), so after round s ranks 0 .. 2^(s+1) - 1
 * hold it and R = ceil(log2 L) rounds reach all L. On a whole n-cube
 * rank r is node r and rank r + 2^s is its neighbour across dimension s,
 * so the tree is the cube's spanning binomial tree; with dead nodes the
 * ranks shift and a partner may be farther away. A partner that is a
 * neighbour is sent to across that one link (a neighbour message, which
 * the machine detours if the link is dead), any other along the route
 * (cubemu_send_to, a router message that goes around the faults).
 *
 * Step calls: call s = 0 .. R-1 posts round s (a send, a receive or
 * nothing); call R returns CUBEMU_DONE. Memory: [0, K) the vector.
 * Private state: the node's rank and L, found in call 0.
 *
 * Bounds: messages L - 1 (every live node but the root receives the
 * vector once, nothing else is sent), and element transfers at least
 * (L - 1) K (each message crosses one link or more).
 *
 * The program declares CUBEMU_RUNS_WITH_DEAD_NODES in its descriptor's
 * flags: without it cubemu refuses to run it on a machine with dead
 * nodes.
 */
#include <cubemu/program.h>

#include <stdlib.h>

typedef struct {
    const cubemu_machine *machine;
    uint64_t k;                   /* K, words per node */
    uint64_t key;                 /* from the seed */
    uint32_t nodes;               /* P, live and dead */
    uint32_t live;                /* L */
    uint32_t root;                /* the live node of the lowest address */
    unsigned rounds;              /* R = ceil(log2 L) */
} BroadcastConfig;

/* A node's state between step calls. */
typedef struct {
    uint32_t rank;                /* among the live nodes, in address order */
} BroadcastLocal;

static const cubemu_method broadcast_methods[] = {
    { "binomial", "ceil(log2 L) rounds down a binomial tree over the L "
                  "live nodes in address order" },
    { NULL, NULL }
};

static const cubemu_param broadcast_params[] = {
    { .key = "elements-per-node", .type = CUBEMU_PARAM_INT, .fallback = "64",
      .min = 1, .max = 1LL << 24, .help = "K, words per node" },
    { .key = "seed", .type = CUBEMU_PARAM_INT, .fallback = "1", .min = 0,
      .max = INT64_MAX, .help = "picks the input vectors" },
    { .key = NULL }
};

/* The splitmix64 finaliser, a bijection on 64-bit words. */
static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Word j of node x's input vector. */
static cubemu_word input(const BroadcastConfig *c, uint32_t x, uint64_t j)
{
    return mix(c->key ^ mix(((uint64_t)x << 32) ^ j));
}

static void *broadcast_prepare(const cubemu_machine *m, cubemu_params *p,
                               cubemu_layout *layout)
{
    BroadcastConfig *c = calloc(1, sizeof *c);
    if (!c)
        return cubemu_fail(p, NULL, "out of memory");
    c->machine = m;
    c->k = (uint64_t)cubemu_param_int(p, "elements-per-node");
    c->key = mix((uint64_t)cubemu_param_int(p, "seed"));
    c->nodes = cubemu_machine_nodes(m);
    c->root = CUBEMU_NONE;
    for (uint32_t x = 0; x < c->nodes; x++)
        if (cubemu_machine_node_alive(m, x)) {
            if (c->root == CUBEMU_NONE)
                c->root = x;
            c->live++;
        }
    if (c->live == 0) {
        free(c);
        return cubemu_fail(p, NULL, "the machine has no live node");
    }
    while ((1ull << c->rounds) < c->live)
        c->rounds++;
    layout->memory_elements = layout->elements_per_node = c->k;
    layout->local_size = sizeof(BroadcastLocal);
    layout->element = CUBEMU_WORD;
    layout->computed = 1;         /* copied: the root's words on every node */
    return c;
}

static void broadcast_init(const void *config, uint32_t x, cubemu_word *mem)
{
    const BroadcastConfig *c = config;
    for (uint64_t j = 0; j < c->k; j++)
        mem[j] = input(c, x, j);
}

/* The live node of rank `rank`. */
static uint32_t live_node(cubemu_node *n, uint32_t rank)
{
    uint32_t nodes = cubemu_nodes(n);
    for (uint32_t x = 0; x < nodes; x++)
        if (cubemu_node_alive(n, x) && rank-- == 0)
            return x;
    return CUBEMU_NONE;
}

/* Send the vector to `dest`: across the link to it when it is a
 * neighbour, else along the route. */
static void send_vector(cubemu_node *n, uint32_t dest, size_t k)
{
    for (int l = 0; l < cubemu_links(n); l++)
        if (cubemu_neighbour(n, l) == dest) {
            cubemu_send(n, &l, 1, 0, k, 0);
            return;
        }
    cubemu_send_to(n, dest, 0, k, 0);
}

static int broadcast_step(cubemu_node *n, const void *config)
{
    const BroadcastConfig *c = config;
    BroadcastLocal *me = cubemu_local(n);
    unsigned s = cubemu_step(n);
    uint32_t x = cubemu_address(n);
    if (s == 0)
        for (uint32_t y = 0; y < x; y++)
            me->rank += cubemu_node_alive(n, y) ? 1u : 0u;
    if (s >= c->rounds)
        return CUBEMU_DONE;
    uint32_t half = 1u << s;
    if (me->rank < half && me->rank + half < c->live)
        send_vector(n, live_node(n, me->rank + half), (size_t)c->k);
    else if (me->rank >= half && me->rank < 2 * half)
        cubemu_recv(n, live_node(n, me->rank - half), 0, 0, (size_t)c->k);
    return CUBEMU_CONTINUE;
}

static void broadcast_expect(const void *config, uint32_t x,
                             cubemu_word *expected)
{
    const BroadcastConfig *c = config;
    uint32_t from = cubemu_machine_node_alive(c->machine, x) ? c->root : x;
    for (uint64_t j = 0; j < c->k; j++)
        expected[j] = input(c, from, j);
}

static void broadcast_report(const void *config, const cubemu_machine *m,
                             cubemu_report *r)
{
    const BroadcastConfig *c = config;
    (void)m;
    cubemu_detail_int(r, "live_nodes", c->live);
    cubemu_detail_int(r, "rounds", c->rounds);
    cubemu_bound(r, "messages", "L - 1: one a live node but the root",
                 CUBEMU_EXACT, (double)(c->live - 1),
                 "binomial tree over the live nodes");
    cubemu_bound(r, "element_transfers", "(L - 1) K: each message crosses "
                 "a link at least", CUBEMU_LOWER,
                 (double)(c->live - 1) * (double)c->k,
                 "binomial tree over the live nodes");
}

CUBEMU_PROGRAM(.name = "broadcast",
               .summary = "one-to-all broadcast among the live nodes "
                          "(runs with dead nodes)",
               .source = "S. L. Johnsson and C.-T. Ho, \"Optimum "
                         "broadcasting and personalized communication in "
                         "hypercubes\", IEEE Trans. Computers 38(9), 1989: "
                         "the spanning binomial tree",
               .needs = 0,
               .methods = broadcast_methods,
               .params = broadcast_params,
               .prepare = broadcast_prepare,
               .release = free,
               .init = broadcast_init,
               .step = broadcast_step,
               .expect = broadcast_expect,
               .report = broadcast_report,
               .flags = CUBEMU_RUNS_WITH_DEAD_NODES | CUBEMU_RUNS_IN_THREADS);
