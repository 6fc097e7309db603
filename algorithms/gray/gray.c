/* gray.c -- conversion between binary-reflected Gray code and binary code
 * placements on an n-cube (Johnsson & Ho 1990, Section 4).
 *
 * Data: K elements per node; element (i, j) is logical processor i, local
 * offset j, payload i*K + j. gray-to-binary starts with (i, j) on node G(i)
 * and ends with it on node i; binary-to-gray is the inverse.
 *
 * Both directions are the same set of exchanges (Lemma 2): in dimension d
 * (0 <= d <= n-2) exactly the elements with b_(d+1)(i) = 1 cross, in any
 * order of dimensions (Corollary 3). Each node decides from its own address
 * whether the element it holds now crosses (Lemma 3, in the form
 * crossing_mask below), so all control is node-local; the part of that
 * decision that does not depend on the address is computed once per run.
 *
 *   sequential  one dimension a step, all K elements: start-dimension m,
 *               then m-1, ..., 0, n-2, ..., m+1 (Figure 4 is m = n-2).
 *   concurrent  K split into n-1 contiguous sets of nearly equal size; set s
 *               crosses dimension (n-2-s-t) mod (n-1) in step t (Figure 5;
 *               the paper's "mod (n-2)" is a misprint, see ERRATA.md), so all
 *               n-1 dimensions are busy in every step (Theorem 5).
 */
#include "algorithm.h"
#include "graycode.h"
#include "variant.h"

#include <math.h>

/* One exchange of the schedule: a node posts it in its step when the
 * element it holds in [offset, offset+count) has bit dimension+1 of its
 * logical index set, which is parity(address & mask) (see crossing_mask). */
typedef struct {
    uint32_t mask;
    int dimension;
    int tag;
    size_t offset, count;
} GrayExchange;

/* The whole schedule is the same on every node; only the masks' parities
 * differ. prepare lays it out once per run, so that a step is one row of
 * `width` table entries, each an AND and a parity: no node keeps state. */
typedef struct {
    gboolean to_binary;     /* gray-to-binary (TRUE) or binary-to-gray */
    int n;
    uint64_t k;
    int method;
    int start;              /* sequential: first dimension */
    unsigned width;         /* exchanges a step: sets that hold elements */
    GrayExchange plan[];    /* (n-1) rows of width: row t is step t */
} GrayConfig;

enum { GRAY_CONCURRENT, GRAY_SEQUENTIAL };

static const AlgorithmMethod gray_methods[] = {
    { "concurrent", "n-1 sets, each in its own cyclic dimension order "
                    "(Figure 5, Theorem 5)" },
    { "sequential", "one dimension per step with all K elements "
                    "(Figure 4, start-dimension m)" },
    { NULL, NULL }
};

static const ParamSpec gray_params[] = {
    { .key = "elements-per-node", .type = PARAM_INT, .fallback = "64",
      .min = 1, .max = 1LL << 32, .help = "K, elements per node" },
    { .key = "start-dimension", .type = PARAM_INT, .fallback = "auto",
      .min = 0, .max = TOPOLOGY_CUBE_MAX_DIMENSIONS,
      .help = "sequential only: first exchange dimension, 0..n-2 (auto: n-2, "
              "as in Figure 4)" },
    { .key = NULL }
};

/* Which bits of its address decide whether a node's element crosses
 * dimension d, after the exchanges in the dimension set `done`.
 *
 * The position of element i is base(i) xor sum over d in done of
 * b_(d+1)(i) 2^d, with base = G (from Gray) or the identity (from binary)
 * (Lemma 3). Solving for the bits of i held at address a from the top (bit
 * n-1 never moves) gives b_(n-1) = a_(n-1) and, below it,
 * b_m = a_m xor (toggle_m ? b_(m+1) : 0), where toggle_m says whether bit m
 * of the position still mixes in b_(m+1): G mixes it in, crossing
 * dimension m mixes it in once more, so toggle_m = from_gray xor (m in
 * done). Unrolling from m = d+1 upwards, b_(d+1) = a_(d+1) xor ... xor a_j,
 * j the first index at or above d+1 where toggle_j is false, or n-1 if the
 * chain reaches the top. The bits d+1..j are a run-wide constant, so the
 * whole test is parity(a & mask). */
static uint32_t crossing_mask(int d, int n, uint32_t done, gboolean from_gray)
{
    int j = d + 1;
    while (j < n - 1 && (((done >> j) & 1) != 0) != from_gray)
        j++;
    return (uint32_t)(((uint64_t)1 << (j + 1)) - ((uint64_t)1 << (d + 1)));
}

/* Dimension crossed in step t by data following a cyclic decreasing order
 * that starts at `first` over dimensions 0..n-2. */
static int cyclic_dimension(int first, unsigned t, int n)
{
    int len = n - 1;
    return (int)(((first - (long)t) % len + len) % len);
}

static uint32_t done_before(int first, unsigned t, int n)
{
    uint32_t done = 0;
    for (unsigned u = 0; u < t; u++)
        done |= (uint32_t)1 << cyclic_dimension(first, u, n);
    return done;
}

static void set_range(const GrayConfig *c, int s, size_t *offset, size_t *count)
{
    uint64_t sets = (uint64_t)(c->n - 1);
    uint64_t q = c->k / sets, r = c->k % sets;
    *offset = (size_t)(q * (uint64_t)s + ((uint64_t)s < r ? (uint64_t)s : r));
    *count = (size_t)(q + ((uint64_t)s < r ? 1 : 0));
}

/* Exchanges a step. Concurrent: one per set that holds elements. Sets get
 * q = K div (n-1) elements and the first K mod (n-1) one more, so a set is
 * empty exactly when q = 0 and s >= K: the non-empty sets are 0..width-1,
 * the same in every step. Sequential: the one exchange of all K. */
static unsigned plan_width(int method, int n, uint64_t k)
{
    if (n < 2)
        return 0;                         /* no dimension needs communication */
    if (method == GRAY_SEQUENTIAL)
        return 1;
    return (unsigned)(k < (uint64_t)(n - 1) ? k : (uint64_t)(n - 1));
}

/* Row t of the plan: every exchange a node may post in step t, with all
 * of the decision made but the parity of its address under the mask. */
static void plan_step(GrayConfig *c, unsigned t)
{
    int n = c->n;
    GrayExchange *row = &c->plan[(size_t)t * c->width];
    if (c->method == GRAY_SEQUENTIAL) {
        int d = cyclic_dimension(c->start, t, n);
        row[0] = (GrayExchange){
            .mask = crossing_mask(d, n, done_before(c->start, t, n),
                                  c->to_binary),
            .dimension = d, .tag = (int)t, .offset = 0, .count = (size_t)c->k,
        };
        return;
    }
    for (unsigned s = 0; s < c->width; s++) {
        int first = n - 2 - (int)s;
        int d = cyclic_dimension(first, t, n);
        GrayExchange *e = &row[s];
        set_range(c, (int)s, &e->offset, &e->count);
        e->mask = crossing_mask(d, n, done_before(first, t, n), c->to_binary);
        e->dimension = d;
        e->tag = (int)(t * TOPOLOGY_CUBE_MAX_DIMENSIONS + s);
    }
}

static NodeStatus gray_step(Node *node, const void *config)
{
    const GrayConfig *c = config;
    unsigned t = node_step(node);
    if (c->width == 0)
        return NODE_DONE;                 /* no dimension needs communication */
    uint32_t a = node_address(node);
    const GrayExchange *row = &c->plan[(size_t)t * c->width];
    if (c->method == GRAY_SEQUENTIAL)
        node_mark(node, "step %u: dimension %d", t, row[0].dimension);
    else
        node_mark(node, "step %u", t);
    for (const GrayExchange *e = row; e < row + c->width; e++)
        if (__builtin_parity(a & e->mask))
            node_exchange(node, e->dimension, e->offset, e->count, e->tag);
    return t + 1 == (unsigned)(c->n - 1) ? NODE_DONE : NODE_CONTINUE;
}

static void *gray_prepare(const Machine *m, const Params *p,
                          MemoryLayout *layout, gboolean to_binary,
                          GError **error)
{
    long long start = params_int(p, "start-dimension");
    int method = params_method(p);
    int n = m->topology.axes;
    if (method == GRAY_CONCURRENT && start != PARAM_AUTO)
        return params_fail(p, error, "start-dimension",
                                "applies to method sequential only");
    if (start != PARAM_AUTO && start > n - 2)
        return params_fail(p, error, "start-dimension",
                                "%lld is not a dimension requiring "
                                "communication (valid: 0..%d for n = %d)",
                                start, n - 2, n);
    uint64_t k = (uint64_t)params_int(p, "elements-per-node");
    unsigned width = plan_width(method, n, k);
    unsigned steps = n < 2 ? 0 : (unsigned)(n - 1);
    GrayConfig *c = g_malloc0(sizeof *c + (size_t)steps * width
                                          * sizeof(GrayExchange));
    c->to_binary = to_binary;
    c->n = n;
    c->k = k;
    c->method = method;
    c->start = start == PARAM_AUTO ? n - 2 : (int)start;
    c->width = width;
    for (unsigned t = 0; t < steps; t++)
        plan_step(c, t);
    layout->memory_elements = layout->elements_per_node = (size_t)c->k;
    layout->local_size = 0;
    return c;
}

ALGORITHM_PREPARE_VARIANT(gray_prepare_to_binary, gray_prepare, TRUE)
ALGORITHM_PREPARE_VARIANT(gray_prepare_to_gray, gray_prepare, FALSE)

/* Logical processor whose data node x holds in the Gray-code placement. */
static void fill(uint64_t i, uint64_t k, Word *memory)
{
    for (uint64_t j = 0; j < k; j++)
        memory[j] = i * k + j;
}

static void gray_init(const void *config, uint32_t x, Word *memory)
{
    const GrayConfig *c = config;
    fill(c->to_binary ? gray_decode(x) : x, c->k, memory);
}

static void gray_expect(const void *config, uint32_t x, Word *expected)
{
    const GrayConfig *c = config;
    fill(c->to_binary ? x : gray_decode(x), c->k, expected);
}

static void gray_report(const void *config, Report *r)
{
    const GrayConfig *c = config;
    const Machine *m = &r->machine;
    /* Every message crosses one link: the neighbour class's price. */
    const MachinePrice *price = machine_price(m, CLASS_NEIGHBOUR);
    double ts = (double)price->startup, tau = (double)price->element_time;
    double k = (double)c->k;
    int n = c->n;
    uint64_t nodes = (uint64_t)1 << n;

    report_detail_int(r, "dimensions_requiring_communication", n - 1);
    report_detail_int(r, "total_exchanges",
                           (long long)((uint64_t)(n - 1) * nodes * c->k / 2));
    if (n < 2) {
        report_cycle_bound(r, "no communication (n = 1)", BOUND_EXACT,
                                0, "Section 4: only dimensions 0..n-2 need "
                                "communication");
        return;
    }
    double sets_size = ceil(k / (n - 1));
    if (c->method == GRAY_CONCURRENT) {
        report_detail_int(r, "sets", n - 1);
        report_detail_int(r, "set_size", (long long)sets_size);
    } else {
        report_detail_int(r, "start_dimension", c->start);
    }
    report_cycle_bound(r, "Theorem 1: Ts + ceil(K/2)", BOUND_LOWER,
                            ts + ceil(k / 2) * tau,
                            "Johnsson & Ho, Theorem 1 (lower bound K/2)");
    report_cycle_bound(r, "Conjecture 1: Ts + K(n-1)/n", BOUND_LOWER,
                            ts + ceil(k * (n - 1) / n) * tau,
                            "Johnsson & Ho, Conjecture 1 (unproven lower "
                            "bound K(n-1)/n)");
    /* Theorem 5 is the concurrent algorithm's; Figure 4's count is the
     * sequential one's. The concurrent method meets Figure 4's bound too,
     * since Theorem 5's is never larger ((n-1) ceil(K/(n-1)) <= (n-1) K),
     * so both apply to it; Theorem 5 is n/a for the sequential method. */
    static const char *const t5 = "Theorem 5: (n-1)(Ts + ceil(K/(n-1)))";
    static const char *const t5_src = "Johnsson & Ho, Theorem 5 (n-1 steps of "
                                      "ceil(K/(n-1)) element transfers)";
    static const char *const sq = "sequential: (n-1)(Ts + K)";
    static const char *const sq_src = "Johnsson & Ho, Figure 4 (n-1 exchanges "
                                      "of K elements)";
    if (c->method == GRAY_CONCURRENT)
        report_cycle_bound(r, t5, BOUND_UPPER,
                           (n - 1) * (ts + sets_size * tau), t5_src);
    else
        report_bound_na(r, "cycles", t5, BOUND_UPPER,
                        "the concurrent method's bound; the sequential "
                        "method moves all K elements in each step", t5_src);
    report_cycle_bound(r, sq, BOUND_UPPER, (n - 1) * (ts + k * tau), sq_src);
}

const Algorithm algorithm_gray_to_binary = {
    .name = "gray-to-binary",
    .summary = "move element (i, j) from node G(i) to node i",
    .source = "Johnsson & Ho 1990, Section 4, Figures 4-5, Theorem 5",
    .needs = TOPOLOGY_DIMENSIONS,
    .methods = gray_methods,
    .params = gray_params,
    .prepare = gray_prepare_to_binary,
    .release = g_free,
    .init = gray_init,
    .step = gray_step,
    .expect = gray_expect,
    .report = gray_report,
};

const Algorithm algorithm_binary_to_gray = {
    .name = "binary-to-gray",
    .summary = "move element (i, j) from node i to node G(i)",
    .source = "Johnsson & Ho 1990, Section 4, Theorem 5",
    .needs = TOPOLOGY_DIMENSIONS,
    .methods = gray_methods,
    .params = gray_params,
    .prepare = gray_prepare_to_gray,
    .release = g_free,
    .init = gray_init,
    .step = gray_step,
    .expect = gray_expect,
    .report = gray_report,
};
