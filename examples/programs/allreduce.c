/* allreduce.c -- all-reduce by recursive doubling on the n-cube, a node
 * program that cubemu loads from a scenario ([algorithm] program =
 * ./allreduce.so).
 *
 * Every node holds a vector of K 64-bit words; at the end every node holds
 * the element-wise sum of all P vectors, modulo 2^64 (exact, so the result
 * is checked word for word). Recursive doubling, the classic hypercube
 * all-reduce (the butterfly; Thakur, Rabenseifner & Gropp 2005, the
 * recursive-doubling algorithm of MPICH's MPI_Allreduce for short
 * vectors): in step d = 0..n-1 node x and its partner x ^ 2^d swap their
 * partial sums across link d and each adds the other's into its own. After
 * step d every node holds the sum over the 2^(d+1) nodes that agree with
 * it above bit d.
 *
 * Step calls: call d = 0..n-1 adds the vector received in call d-1 (from
 * call 1 on) and posts step d; call n does the last addition and returns
 * CUBEMU_DONE. Memory: [0, K) the partial sum, [K, 2K) the partner's as
 * received. Local work charged: K additions per received vector.
 *
 * Bounds: messages P n and element transfers P n K are exact (one message
 * of K words over one link per node per step, nothing else sent); cycles
 * are at least n (Ts + K Tw), plus the additions at the flop time.
 */
#include <cubemu/program.h>

#include <stdlib.h>

typedef struct {
    uint64_t k;                   /* K, words per node */
    uint32_t nodes;               /* P = 2^n */
    int n;
    uint64_t key;                 /* from the seed */
    cubemu_word sum[];            /* the reference: sum over y of init(y) */
} AllreduceConfig;

static const cubemu_method allreduce_methods[] = {
    { "recursive-doubling", "n steps: swap partial sums across dimension d "
                            "and add" },
    { NULL, NULL }
};

static const cubemu_param allreduce_params[] = {
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

/* Word j of node x's input. */
static cubemu_word input(const AllreduceConfig *c, uint32_t x, uint64_t j)
{
    return mix(c->key + (uint64_t)x * c->k + j);
}

static int allreduce_step(cubemu_node *node, const void *config)
{
    const AllreduceConfig *c = config;
    unsigned d = cubemu_step(node);
    cubemu_word *memory = cubemu_memory(node);
    size_t k = (size_t)c->k;
    if (d > 0) {
        /* The partner's partial sum of step d-1 is in [K, 2K). */
        for (size_t j = 0; j < k; j++)
            memory[j] += memory[k + j];
        cubemu_compute(node, c->k);
    }
    if (d == (unsigned)c->n)
        return CUBEMU_DONE;
    cubemu_mark(node, "dimension %u", d);
    int link = (int)d;
    cubemu_send(node, &link, 1, 0, k, (int)d);
    cubemu_recv(node, cubemu_address(node) ^ ((uint32_t)1 << d), (int)d, k,
                k);
    return CUBEMU_CONTINUE;
}

static void *allreduce_prepare(const cubemu_machine *m,
                               cubemu_params *params, cubemu_layout *layout)
{
    uint64_t k = (uint64_t)cubemu_param_int(params, "elements-per-node");
    AllreduceConfig *c = malloc(sizeof *c + (size_t)k * sizeof(cubemu_word));
    if (!c)
        return cubemu_fail(params, "elements-per-node",
                           "cannot allocate the reference of %llu words",
                           (unsigned long long)k);
    c->k = k;
    c->n = cubemu_machine_axes(m);
    c->nodes = cubemu_machine_nodes(m);
    c->key = mix((uint64_t)cubemu_param_int(params, "seed")
                 + 0x9e3779b97f4a7c15u);
    /* The reference, once: every node must end with the sum of all
     * inputs, computed here from init's own hash, not by the program. */
    for (uint64_t j = 0; j < k; j++)
        c->sum[j] = 0;
    for (uint32_t y = 0; y < c->nodes; y++)
        for (uint64_t j = 0; j < k; j++)
            c->sum[j] += input(c, y, j);
    layout->memory_elements = 2 * (size_t)k;
    layout->elements_per_node = (size_t)k;
    layout->local_size = 0;
    layout->element = CUBEMU_WORD;
    layout->computed = 1;          /* sums: compared with expect only */
    return c;
}

static void allreduce_init(const void *config, uint32_t x,
                           cubemu_word *memory)
{
    const AllreduceConfig *c = config;
    for (uint64_t j = 0; j < c->k; j++)
        memory[j] = input(c, x, j);
}

static void allreduce_expect(const void *config, uint32_t x,
                             cubemu_word *expected)
{
    const AllreduceConfig *c = config;
    (void)x;
    for (uint64_t j = 0; j < c->k; j++)
        expected[j] = c->sum[j];
}

static void allreduce_report(const void *config, const cubemu_machine *m,
                             cubemu_report *r)
{
    const AllreduceConfig *c = config;
    double ts = (double)cubemu_machine_startup(m, CUBEMU_NEIGHBOUR);
    double tw = (double)cubemu_machine_element_time(m, CUBEMU_NEIGHBOUR);
    double n = c->n, p = c->nodes, k = (double)c->k;
    cubemu_detail_int(r, "rounds", c->n);
    cubemu_bound(r, "messages", "P n", CUBEMU_EXACT, p * n,
                 "one message per node per step (recursive doubling)");
    cubemu_bound(r, "element_transfers", "P n K", CUBEMU_EXACT, p * n * k,
                 "every node's K words cross one link per step");
    cubemu_bound(r, "cycles", "n (Ts + K Tw)", CUBEMU_LOWER,
                 n * (ts + k * tw),
                 "n neighbour messages of K words in sequence, plus the "
                 "additions at the flop time");
}

CUBEMU_PROGRAM(.name = "allreduce",
               .summary = "all-reduce (sum mod 2^64) of K words per node",
               .source = "recursive doubling on the hypercube (Thakur, "
                         "Rabenseifner & Gropp 2005, Optimization of "
                         "collective communication operations in MPICH)",
               .needs = CUBEMU_NEEDS_DIMENSIONS,
               .flags = CUBEMU_RUNS_IN_THREADS,
               .methods = allreduce_methods,
               .params = allreduce_params,
               .prepare = allreduce_prepare,
               .release = free,
               .init = allreduce_init,
               .step = allreduce_step,
               .expect = allreduce_expect,
               .report = allreduce_report);
