/* bitonic.c -- Batcher's bitonic sort on the n-cube, a node program that
 * cubemu loads from a scenario ([algorithm] program = ./bitonic.so).
 *
 * P = 2^n nodes hold K keys each, N = P K keys in all: a pseudo-random
 * permutation of 0..N-1 (the `seed` picks it). At the end node x holds
 * the keys x K .. x K + K - 1 in ascending order.
 *
 * The algorithm is Batcher's bitonic sorter (Batcher 1968) with each
 * compare-exchange of two keys replaced by a merge-split of two sorted
 * blocks of K keys (Baudet & Stevenson 1978): step 0 sorts each node's
 * block; then for stage i = 0..n-1 and dimension j = i down to 0 the node
 * x and its partner x ^ 2^j swap blocks across link j, and each merges the
 * two and keeps the lower K keys if (bit j of x is 0) equals (bit i+1 of x
 * is 0, ascending), else the upper K. That is n(n+1)/2 compare-split
 * steps, one neighbour message of K keys per node each.
 *
 * Step calls: call 0 sorts; call t = 1..S (S = n(n+1)/2) merges the
 * blocks received in call t-1 (from call 2 on) and posts compare-split
 * step t-1; call S+1 does the last merge and returns CUBEMU_DONE. Memory:
 * [0, K) the node's block, [K, 2K) the partner's block as received; the
 * merge writes K keys into K words of private scratch (cubemu_local).
 *
 * Local work charged (cubemu_compute, in comparisons): the local sort is a
 * bottom-up merge sort, ceil(log2 K) passes over K keys, charged
 * K ceil(log2 K) (its number of moves, a bound on its comparisons); each
 * merge-split emits K keys with one comparison each, charged K. Both are
 * the same on every node, whatever the keys.
 *
 * Bounds: messages and element transfers are exact (one message of K
 * keys over one link per node per step, and nothing else is sent);
 * cycles are at least S (Ts + K Tw) of neighbour messages, plus the local
 * work at the machine's flop time.
 */
#include <cubemu/program.h>

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t k;                   /* K, keys per node */
    uint64_t keys;                /* N = P K */
    uint32_t nodes;               /* P = 2^n */
    int n;
    unsigned steps;               /* S = n(n+1)/2 compare-split steps */
    /* The input permutation: rounds of a bijection on [0, 2^bits), and
     * cycle-walking down to [0, N). */
    int bits;
    int shift;
    uint64_t mask;
    uint64_t add[3], mul[3];
} BitonicConfig;

enum { PHASE_SORT, PHASE_MERGE };

static const char *const bitonic_phases[] = { "local sort", "merge", NULL };

static const cubemu_method bitonic_methods[] = {
    { "batcher", "bitonic sort of K-key blocks: local sort, then n(n+1)/2 "
                 "merge-split steps, one dimension each" },
    { NULL, NULL }
};

static const cubemu_param bitonic_params[] = {
    { .key = "elements-per-node", .type = CUBEMU_PARAM_INT, .fallback = "64",
      .min = 1, .max = 1LL << 24, .help = "K, keys per node" },
    { .key = "seed", .type = CUBEMU_PARAM_INT, .fallback = "1", .min = 0,
      .max = INT64_MAX, .help = "picks the input permutation of 0..PK-1" },
    { .key = NULL }
};

/* splitmix64: the round keys from the seed. */
static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A bijection on [0, 2^bits): each operation is one (adding a constant
 * and multiplying by an odd one modulo 2^bits, and v ^= v >> s on a value
 * below 2^bits). */
static uint64_t mix(const BitonicConfig *c, uint64_t v)
{
    for (int r = 0; r < 3; r++) {
        v = (v + c->add[r]) & c->mask;
        v = (v * c->mul[r]) & c->mask;
        v ^= v >> c->shift;
    }
    return v;
}

/* The input key at global index i < N: cycle-walking keeps the bijection
 * on [0, 2^bits) inside [0, N), where it is still one. */
static uint64_t input_key(const BitonicConfig *c, uint64_t i)
{
    uint64_t v = mix(c, i);
    while (v >= c->keys)
        v = mix(c, v);
    return v;
}

/* Compare-split step s as (stage i, dimension j): stage i has steps
 * j = i, i-1, ..., 0. */
static void step_of(unsigned s, unsigned *stage, unsigned *dimension)
{
    unsigned i = 0;
    while (s > i) {
        s -= i + 1;
        i++;
    }
    *stage = i;
    *dimension = i - s;
}

static unsigned ceil_log2(uint64_t k)
{
    unsigned b = 0;
    while (((uint64_t)1 << b) < k)
        b++;
    return b;
}

/* Sort a[0, k) ascending, bottom-up merge sort through tmp[0, k). */
static void merge_sort(cubemu_word *a, cubemu_word *tmp, size_t k)
{
    cubemu_word *from = a, *to = tmp;
    for (size_t width = 1; width < k; width *= 2) {
        for (size_t lo = 0; lo < k; lo += 2 * width) {
            size_t mid = lo + width < k ? lo + width : k;
            size_t hi = mid + width < k ? mid + width : k;
            size_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                to[o++] = from[i] <= from[j] ? from[i++] : from[j++];
            while (i < mid)
                to[o++] = from[i++];
            while (j < hi)
                to[o++] = from[j++];
        }
        cubemu_word *t = from;
        from = to;
        to = t;
    }
    if (from != a)
        memcpy(a, from, k * sizeof *a);
}

/* Merge-split of two ascending blocks a[0, k) and b[0, k): the lower k
 * keys of the two (or the upper k) into a, ascending, through out. Taking
 * k of the 2k keys consumes fewer than k of either block before the last
 * one, so no index runs off its block. */
static void merge_split(cubemu_word *a, const cubemu_word *b,
                        cubemu_word *out, size_t k, int keep_low)
{
    if (keep_low) {
        size_t i = 0, j = 0;
        for (size_t o = 0; o < k; o++)
            out[o] = a[i] <= b[j] ? a[i++] : b[j++];
    } else {
        size_t i = k, j = k;          /* keys left in a and b */
        for (size_t o = k; o-- > 0;)
            out[o] = a[i - 1] > b[j - 1] ? a[--i] : b[--j];
    }
    memcpy(a, out, k * sizeof *a);
}

static int bitonic_step(cubemu_node *node, const void *config)
{
    const BitonicConfig *c = config;
    unsigned t = cubemu_step(node);
    uint32_t x = cubemu_address(node);
    cubemu_word *memory = cubemu_memory(node);
    cubemu_word *scratch = cubemu_local(node);
    size_t k = (size_t)c->k;

    if (t == 0) {
        cubemu_phase(node, PHASE_SORT);
        cubemu_mark(node, "local sort");
        merge_sort(memory, scratch, k);
        cubemu_compute(node, c->k * ceil_log2(c->k));
        return c->steps == 0 ? CUBEMU_DONE : CUBEMU_CONTINUE;
    }
    if (t == 1)
        cubemu_phase(node, PHASE_MERGE);
    unsigned stage, dimension;
    if (t >= 2) {
        /* The blocks of compare-split step t-2 are in [0, K) and [K, 2K). */
        step_of(t - 2, &stage, &dimension);
        int ascending = ((x >> (stage + 1)) & 1) == 0;
        int low = ((x >> dimension) & 1) == 0;
        merge_split(memory, memory + k, scratch, k, low == ascending);
        cubemu_compute(node, c->k);
    }
    if (t - 1 == c->steps)
        return CUBEMU_DONE;
    /* Compare-split step t-1: this block to the partner across link j,
     * the partner's into [K, 2K) (written when it arrives). */
    step_of(t - 1, &stage, &dimension);
    cubemu_mark(node, "stage %u, dimension %u", stage, dimension);
    int link = (int)dimension;
    cubemu_send(node, &link, 1, 0, k, (int)(t - 1));
    cubemu_recv(node, x ^ ((uint32_t)1 << dimension), (int)(t - 1), k, k);
    return CUBEMU_CONTINUE;
}

static void *bitonic_prepare(const cubemu_machine *m, cubemu_params *params,
                             cubemu_layout *layout)
{
    BitonicConfig *c = calloc(1, sizeof *c);
    if (!c)
        return cubemu_fail(params, NULL, "out of memory");
    c->n = cubemu_machine_axes(m);
    c->nodes = cubemu_machine_nodes(m);
    c->k = (uint64_t)cubemu_param_int(params, "elements-per-node");
    c->keys = (uint64_t)c->nodes * c->k;
    c->steps = (unsigned)(c->n * (c->n + 1) / 2);
    c->bits = (int)ceil_log2(c->keys);
    c->mask = c->bits ? ~(uint64_t)0 >> (64 - c->bits) : 0;
    c->shift = c->bits > 1 ? (c->bits + 1) / 2 : 1;
    uint64_t state = (uint64_t)cubemu_param_int(params, "seed");
    for (int r = 0; r < 3; r++) {
        c->add[r] = splitmix(&state);
        c->mul[r] = splitmix(&state) | 1;
    }
    layout->memory_elements = 2 * (size_t)c->k;
    layout->elements_per_node = (size_t)c->k;
    layout->local_size = (size_t)c->k * sizeof(cubemu_word);
    layout->element = CUBEMU_WORD;
    layout->computed = 0;          /* a permutation: conservation holds */
    return c;
}

static void bitonic_init(const void *config, uint32_t x, cubemu_word *memory)
{
    const BitonicConfig *c = config;
    for (uint64_t j = 0; j < c->k; j++)
        memory[j] = input_key(c, (uint64_t)x * c->k + j);
}

/* Sorted, node x holds the keys x K .. x K + K - 1: the input is a
 * permutation of 0..N-1. */
static void bitonic_expect(const void *config, uint32_t x,
                           cubemu_word *expected)
{
    const BitonicConfig *c = config;
    for (uint64_t j = 0; j < c->k; j++)
        expected[j] = (uint64_t)x * c->k + j;
}

static void bitonic_report(const void *config, const cubemu_machine *m,
                           cubemu_report *r)
{
    const BitonicConfig *c = config;
    double ts = (double)cubemu_machine_startup(m, CUBEMU_NEIGHBOUR);
    double tw = (double)cubemu_machine_element_time(m, CUBEMU_NEIGHBOUR);
    double steps = c->steps, p = c->nodes, k = (double)c->k;
    cubemu_detail_int(r, "compare_exchange_steps", (long long)c->steps);
    cubemu_bound(r, "messages", "P n(n+1)/2", CUBEMU_EXACT, p * steps,
                 "one message per node per compare-split step "
                 "(Batcher 1968, bitonic sorter)");
    cubemu_bound(r, "element_transfers", "P K n(n+1)/2", CUBEMU_EXACT,
                 p * k * steps,
                 "every node's K keys cross one link per compare-split step");
    cubemu_bound(r, "cycles", "n(n+1)/2 (Ts + K Tw)", CUBEMU_LOWER,
                 steps * (ts + k * tw),
                 "n(n+1)/2 neighbour messages of K keys in sequence, "
                 "plus the local sort and merges at the flop time");
}

CUBEMU_PROGRAM(.name = "bitonic",
               .summary = "Batcher's bitonic sort of P K keys, K per node",
               .source = "Batcher 1968, Sorting networks and their "
                         "applications (bitonic sorter); merge-split of "
                         "blocks: Baudet & Stevenson 1978",
               .needs = CUBEMU_NEEDS_DIMENSIONS,
               .flags = CUBEMU_RUNS_IN_THREADS,
               .methods = bitonic_methods,
               .params = bitonic_params,
               .phases = bitonic_phases,
               .prepare = bitonic_prepare,
               .release = free,
               .init = bitonic_init,
               .step = bitonic_step,
               .expect = bitonic_expect,
               .report = bitonic_report);
