/* program.c -- BMMC permutations y = A x XOR c as an emulated node program
 * (Cormen 1997, Sections 5-6), on top of the plan of bmmc.h.
 *
 * N = 2^n elements (`elements`), P = 2^p nodes (the machine's dimensions);
 * the element with source index x starts with payload x at the place the
 * layout gives x (Figure 1), and must end where the layout puts A x XOR c.
 *
 *   two-phase  (default) Section 5: phase 1 permutes locally by W in
 *              Gray-code order (Appendix B); phase 2 runs 2^rank(gamma)
 *              rounds, each node sending N/(2^rank(gamma) P) contiguous
 *              elements to the target processor of line 3 and receiving as
 *              many from the source of line 4 into the same words
 *              (Sendrecv_replace), then placing them in Gray-code order.
 *              Messages carry payload only.
 *   naive      every element travels on its own, with its index, in one
 *              message of two words; the receiver places it by the index.
 *
 * Each round's message follows the dimension-ordered (e-cube) path from
 * source to target, ascending or descending (`routing`); contention shows
 * in cycles and max_channel_elements.
 *
 * Node memory: two-phase holds data [0, M) and temp [M, 2M), M = N/P;
 * naive holds data, then 2M words of outgoing pairs and 2M of incoming.
 */
#include "algorithm.h"
#include "bmmc.h"
#include "catalog.h"
#include "routing.h"

#include <math.h>
#include <string.h>

typedef struct {
    int n, p, f;                /* index bits, processor bits, layout */
    Gf2Matrix A, Ainv;
    uint64_t c, cinv;           /* y = A x ^ c;  x = Ainv y ^ cinv */
    /* Byte tables of A and Ainv (gf2.h), built once in prepare: every
     * element's image or source is one lookup per byte of its index. */
    Gf2Table A_tab, Ainv_tab;
    BmmcPlan *plan;
    int method;
    RouteOrder routing;
    uint64_t m;                 /* N/P, elements per node */
} BmmcConfig;

enum { BMMC_TWO_PHASE, BMMC_NAIVE };

static const AlgorithmMethod bmmc_methods[] = {
    { "two-phase", "W locally in Gray-code order, then 2^rank(gamma) rounds "
                   "of Sendrecv_replace (Section 5)" },
    { "naive", "every element sent on its own with its index" },
    { NULL, NULL }
};

static const char *const bmmc_routings[] = { "ascending", "descending", NULL };

static const ParamSpec bmmc_params[] = {
    { .key = "elements", .type = PARAM_INT, .fallback = NULL,
      .min = 1, .max = 1LL << 40, .help = "N, total elements, a power of two "
      "with at least one per node" },
    { .key = "matrix", .type = PARAM_TEXT, .fallback = "",
      .help = "a named permutation: identity, bit-reversal, vector-reversal, "
              "gray, gray-inverse, shuffle, unshuffle, transpose:QxR" },
    { .key = "columns", .type = PARAM_TEXT, .fallback = "",
      .help = "explicit A: columns c0,c1,... (column j as a decimal or 0x "
              "word, row 0 the least significant bit)" },
    { .key = "complement", .type = PARAM_TEXT, .fallback = "",
      .help = "the complement vector c (a word; default: the named "
              "permutation's, else 0)" },
    { .key = "layout", .type = PARAM_TEXT, .fallback = "processor-major",
      .help = "processor-major, processor-minor, or f:F (processor bits at "
              "index bits F..F+p-1)" },
    { .key = "routing", .type = PARAM_CHOICE, .fallback = "ascending",
      .choices = bmmc_routings, .help = "dimension order of e-cube paths" },
    { .key = NULL }
};

static uint64_t apply(const Gf2Table *A, uint64_t c, uint64_t x)
{
    return gf2_table_mul_vec(A, x) ^ c;
}

/* ---- the node programs ----------------------------------------------- */

/* Round t's target processor of node k and the e-cube route to it:
 * what two_phase_step sends along and what bmmc_peek says it will. */
static int round_route(const BmmcConfig *c, uint32_t k, unsigned t,
                       uint32_t *target, int *path)
{
    *target = (uint32_t)bmmc_plan_target_proc(c->plan, k, t);
    return route_ecube(k, *target, c->p, c->routing, path);
}

static NodeStatus two_phase_step(Node *node, const BmmcConfig *c)
{
    unsigned t = node_step(node);
    uint64_t k = node_address(node);
    size_t w = node_element_words(node);
    Word *data = node_memory(node), *temp = data + c->m * w;
    uint64_t rounds = bmmc_plan_rounds(c->plan);
    if (t == 0) {
        node_mark(node, "phase 1: local permutation W");
        bmmc_plan_intraprocessor_w(c->plan, k, data, temp, w);
    } else {
        bmmc_plan_place_received_w(c->plan, k, t - 1, temp, data, w);
    }
    if (t == rounds)
        return NODE_DONE;
    node_mark(node, "round %u", t);
    uint64_t epm = bmmc_plan_elements_per_message(c->plan);
    size_t offset = (size_t)(c->m + bmmc_plan_message_offset(c->plan, t));
    uint64_t source = bmmc_plan_source_proc(c->plan, k, t);
    uint32_t target;
    int path[TOPOLOGY_CUBE_MAX_DIMENSIONS];
    int hops = round_route(c, (uint32_t)k, t, &target, path);
    node_send(node, path, hops, offset, (size_t)epm, (int)t);
    node_recv(node, (uint32_t)source, (int)t, offset, (size_t)epm);
    return NODE_CONTINUE;
}

/* node.h, NodePeekFn: round t of the two-phase method sends first (and
 * only) to its target processor, along the e-cube route two_phase_step
 * takes; the last step sends nothing, nor does a round whose target is
 * the node itself (a route of no links). The naive method posts every
 * message in one step, where a first one tells little. */
static int bmmc_peek(const void *config, uint32_t node, unsigned step,
                     uint32_t *dest, int *path)
{
    G_STATIC_ASSERT(TOPOLOGY_CUBE_MAX_DIMENSIONS <= NODE_PEEK_HOPS);
    const BmmcConfig *c = config;
    if (c->method == BMMC_NAIVE || step >= bmmc_plan_rounds(c->plan))
        return NODE_PEEK_NONE;
    int hops = round_route(c, node, step, dest, path);
    return hops > 0 ? hops : NODE_PEEK_NONE;
}

static NodeStatus naive_step(Node *node, const BmmcConfig *c)
{
    uint64_t k = node_address(node);
    Word *data = node_memory(node);
    Word *out = data + c->m, *in = out + 2 * c->m;
    if (node_step(node) == 0) {
        node_mark(node, "naive: every element on its own");
        for (uint64_t o = 0; o < c->m; o++) {
            uint64_t x = bmmc_layout_index(c->n, c->p, c->f, k, o);
            uint64_t proc, off;
            bmmc_layout_locate(c->n, c->p, c->f, apply(&c->A_tab, c->c, x), &proc, &off);
            out[2 * o] = x;
            out[2 * o + 1] = data[o];
            int path[TOPOLOGY_CUBE_MAX_DIMENSIONS];
            int hops = route_ecube((uint32_t)k, (uint32_t)proc, c->p, c->routing,
                                   path);
            node_send(node, path, hops, (size_t)(c->m + 2 * o), 2, 0);
        }
        /* One receive per element this node will hold, from the node that
         * holds its source; where it lands is read from the index. */
        for (uint64_t o = 0; o < c->m; o++) {
            uint64_t y = bmmc_layout_index(c->n, c->p, c->f, k, o);
            uint64_t proc, off;
            bmmc_layout_locate(c->n, c->p, c->f, apply(&c->Ainv_tab, c->cinv, y),
                               &proc, &off);
            node_recv(node, (uint32_t)proc, 0, (size_t)(3 * c->m + 2 * o), 2);
        }
        return NODE_CONTINUE;
    }
    for (uint64_t j = 0; j < c->m; j++) {
        uint64_t proc, off;
        bmmc_layout_locate(c->n, c->p, c->f, apply(&c->A_tab, c->c, in[2 * j]),
                           &proc, &off);
        data[off] = in[2 * j + 1];
    }
    return NODE_DONE;
}

static NodeStatus bmmc_step(Node *node, const void *config)
{
    const BmmcConfig *c = config;
    return c->method == BMMC_NAIVE ? naive_step(node, c) : two_phase_step(node, c);
}

/* ---- setup and verification ------------------------------------------ */

static void bmmc_config_free(BmmcConfig *c)
{
    if (c)
        bmmc_plan_free(c->plan);
    g_free(c);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(BmmcConfig, bmmc_config_free)

static void bmmc_release(void *config)
{
    bmmc_config_free(config);
}

static gboolean parse_layout(const char *text, int n, int p, int *f)
{
    if (!strcmp(text, "processor-major")) {
        *f = n - p;
        return TRUE;
    }
    if (!strcmp(text, "processor-minor")) {
        *f = 0;
        return TRUE;
    }
    /* f:F, F decimal digits only: strtol alone would take "f: 2" and
     * "f:+2" too */
    if (!g_str_has_prefix(text, "f:") || !g_ascii_isdigit(text[2]))
        return FALSE;
    char *end;
    long v = strtol(text + 2, &end, 10);
    if (end == text + 2 || *end || v < 0 || v > n - p)
        return FALSE;
    *f = (int)v;
    return TRUE;
}

/* The catalog's messages may start with the key's name; say it once. */
static const char *without_key(const char *message, const char *key)
{
    size_t len = strlen(key);
    return strncmp(message, key, len) == 0 && message[len] == ':'
               ? message + len + 2 : message;
}

static void *bmmc_prepare(const Machine *m, const Params *p,
                          MemoryLayout *layout, GError **error)
{
    g_autoptr(GError) e = NULL;
    long long elements = params_int(p, "elements");
    int pbits = m->topology.axes;
    if (elements & (elements - 1))
        return params_fail(p, error, "elements", "%lld is not a power of "
                                "two", elements);
    int n = __builtin_ctzll((unsigned long long)elements);
    if (n < pbits)
        return params_fail(p, error, "elements", "%lld elements are "
                                "fewer than one per node (P = %u nodes)",
                                elements, 1u << pbits);
    const char *matrix = params_text(p, "matrix");
    const char *columns = params_text(p, "columns");
    if (!matrix == !columns)
        return params_fail(p, error, matrix ? "columns" : "matrix",
                                "give exactly one of matrix and columns");

    g_autoptr(BmmcConfig) c = g_new0(BmmcConfig, 1);
    c->n = n;
    c->p = pbits;
    c->method = params_method(p);
    c->routing = params_choice(p, "routing") == 0 ? ROUTE_ASCENDING
                                                      : ROUTE_DESCENDING;
    c->m = (uint64_t)1 << (n - pbits);
    if (matrix && !bmmc_catalog_named(matrix, n, &c->A, &c->c, &e))
        return params_fail(p, error, "matrix", "%s",
                                without_key(e->message, "matrix"));
    if (columns && !bmmc_catalog_parse_columns(columns, n, &c->A, &e))
        return params_fail(p, error, "columns", "%s",
                                without_key(e->message, "columns"));
    const char *complement = params_text(p, "complement");
    if (complement && !bmmc_catalog_parse_complement(complement, n, &c->c, &e))
        return params_fail(p, error, "complement", "%s",
                                without_key(e->message, "complement"));
    if (!parse_layout(params_text(p, "layout"), n, pbits, &c->f))
        return params_fail(p, error, "layout", "'%s' is not a layout "
                                "(valid: processor-major, processor-minor, "
                                "f:F with F in 0..%d for n = %d, p = %d)",
                                params_text(p, "layout"), n - pbits, n,
                                pbits);
    uint64_t cinv;
    Gf2Matrix Ainv = c->A;
    int rc = bmmc_inverse(n, c->A.col, c->c, Ainv.col, &cinv);
    if (rc == 0)
        rc = bmmc_plan_new(n, pbits, c->A.col, c->c, c->f, &c->plan);
    if (rc != 0)
        return params_fail(p, error, matrix ? "matrix" : "columns", "%s",
                                bmmc_strerror(rc));
    c->Ainv = Ainv;
    c->cinv = cinv;
    gf2_table_init(&c->A_tab, &c->A);
    gf2_table_init(&c->Ainv_tab, &c->Ainv);
    layout->elements_per_node = (size_t)c->m;
    layout->memory_elements = (size_t)c->m * (c->method == BMMC_NAIVE ? 5 : 2);
    layout->local_size = 0;
    return g_steal_pointer(&c);
}

static void bmmc_init(const void *config, uint32_t x, Word *memory)
{
    const BmmcConfig *c = config;
    for (uint64_t o = 0; o < c->m; o++)
        memory[o] = bmmc_layout_index(c->n, c->p, c->f, x, o);
}

/* Node k, offset o must hold the element whose target index lives there:
 * y from the layout, x = A^-1 (y ^ c) -- the permutation's own inverse
 * (Lemma 1), not the factorisation the node program used. */
static void bmmc_expect(const void *config, uint32_t k, Word *expected)
{
    const BmmcConfig *c = config;
    for (uint64_t o = 0; o < c->m; o++) {
        uint64_t y = bmmc_layout_index(c->n, c->p, c->f, k, o);
        expected[o] = apply(&c->Ainv_tab, c->cinv, y);
    }
}

/* Lemma 3 from the definition: for every node, the distinct processors
 * its elements go to and how many go to each; *targets and *per_target
 * are the common values, or -1 when nodes or targets disagree.
 *
 * One counting pass per node, no sort: seen[t] is 1 + the last node that
 * sent to processor t, so t is new for node k exactly when seen[t] != k + 1,
 * and only then is count[t] restarted; nothing is cleared between nodes.
 * The node's distinct targets are listed in `hit` (at most min(N/P, P)) and
 * their counts read back once the node is done. The order in which counts
 * are compared does not matter: the common value survives only if every
 * count equals it. The arrays cost 12 bytes a node, less than the engine
 * keeps for each node; 32-bit marks hold every node + 1, as a cube has at
 * most 2^TOPOLOGY_CUBE_MAX_DIMENSIONS nodes. */
G_STATIC_ASSERT(TOPOLOGY_CUBE_MAX_DIMENSIONS < 32);

static void lemma3_counts(const BmmcConfig *c, double *targets,
                          double *per_target, uint64_t *busiest_remote)
{
    uint64_t nodes = (uint64_t)1 << c->p;
    g_autofree uint32_t *seen = g_new0(uint32_t, nodes);
    g_autofree uint64_t *count = g_new(uint64_t, nodes);
    g_autofree uint64_t *hit = g_new(uint64_t, MIN(c->m, nodes));
    *targets = *per_target = -2;
    *busiest_remote = 0;
    for (uint64_t k = 0; k < nodes; k++) {
        uint64_t remote = 0, distinct = 0;
        uint32_t mark = (uint32_t)(k + 1);
        for (uint64_t o = 0; o < c->m; o++) {
            uint64_t x = bmmc_layout_index(c->n, c->p, c->f, k, o), to, off;
            bmmc_layout_locate(c->n, c->p, c->f, apply(&c->A_tab, c->c, x), &to, &off);
            remote += to != k;
            if (seen[to] != mark) {
                seen[to] = mark;
                count[to] = 0;
                hit[distinct++] = to;
            }
            count[to]++;
        }
        if (remote > *busiest_remote)
            *busiest_remote = remote;
        for (uint64_t i = 0; i < distinct; i++) {
            double r = (double)count[hit[i]];
            *per_target = *per_target == -2 || *per_target == r ? r : -1;
        }
        double d = (double)distinct;
        *targets = *targets == -2 || *targets == d ? d : -1;
    }
}

static void bmmc_report(const void *config, Report *r)
{
    const BmmcConfig *c = config;
    const Machine *m = &r->machine;
    const MachinePrice *price = machine_price(m, CLASS_ROUTER);
    double ts = (double)price->startup, tau = (double)price->element_time;
    uint64_t nodes = (uint64_t)1 << c->p, total = (uint64_t)1 << c->n;
    uint64_t rounds = bmmc_plan_rounds(c->plan);
    uint64_t epm = bmmc_plan_elements_per_message(c->plan);
    /* Every element's payload is sent once; anything more is index words. */
    uint64_t index_words = r->elements_sent - total;
    long long cols[64];
    for (int j = 0; j < c->n; j++)
        cols[j] = (long long)c->A.col[j];

    report_detail_int(r, "n", c->n);
    report_detail_int(r, "p", c->p);
    report_detail_int(r, "layout_f", c->f);
    report_detail_list(r, "columns", cols, (size_t)c->n);
    report_detail_int(r, "complement", (long long)c->c);
    report_detail_int(r, "rank_gamma", bmmc_plan_rank_gamma(c->plan));
    report_detail_int(r, "rounds", (long long)rounds);
    report_detail_int(r, "elements_per_message",
                           (long long)(c->method == BMMC_NAIVE ? 1 : epm));
    report_detail_int(r, "messages_per_node",
                           (long long)(r->messages / nodes));
    report_detail_int(r, "index_words_sent", (long long)index_words);

    double targets, per_target;
    uint64_t busiest_remote;
    lemma3_counts(c, &targets, &per_target, &busiest_remote);
    /* Lemma 3's counts, taken from A x ^ c for every element (-1 where
     * nodes differ), against the plan's 2^rank(gamma) rounds. */
    report_detail_int(r, "targets_per_node", (long long)targets);
    report_detail_int(r, "elements_per_target", (long long)per_target);
    report_bound(r, "details.targets_per_node",
                 "Lemma 3: target processors per node = 2^rank(gamma)",
                 BOUND_EXACT, (double)rounds,
                 "Cormen 1997, Lemma 3 (counted from A x ^ c for every "
                 "element; -1 if nodes differ)");
    report_bound(r, "details.elements_per_target",
                 "Lemma 3: elements to each target = N/(2^rank(gamma) P)",
                 BOUND_EXACT, (double)epm,
                 "Cormen 1997, Lemma 3 (counted from A x ^ c; -1 if "
                 "counts differ)");

    /* Each method's bounds; the other method's are listed as n/a. */
    static const char *const naive_only =
        "the naive method's bound; this run's method is two-phase";
    static const char *const two_phase_only =
        "the two-phase method's bound; this run's method is naive";
    static const char *const tp_messages = "messages = P 2^rank(gamma)";
    static const char *const tp_messages_src =
        "Cormen 1997, Section 5: one Sendrecv_replace per node per round";
    static const char *const tp_index = "index words sent = 0";
    static const char *const tp_index_src =
        "Cormen 1997, Section 1: data only, no indices";
    static const char *const tp_comm =
        "communication: sum over remote rounds of Ts + N/(2^rank(gamma) P)";
    static const char *const tp_comm_src =
        "Section 5: rounds follow one another on each node";
    static const char *const nv_messages = "messages = N";
    static const char *const nv_messages_src = "naive: one message per element";
    static const char *const nv_index = "index words sent = N";
    static const char *const nv_index_src = "naive: every element carries its index";
    static const char *const nv_comm = "communication: Ts + 2 (remote elements) / ports";
    static const char *const nv_comm_src = "the busiest node's words leave over its ports";
    if (c->method == BMMC_TWO_PHASE) {
        report_bound(r, "messages", tp_messages, BOUND_EXACT,
                     (double)(nodes * rounds), tp_messages_src);
        report_bound(r, "details.index_words_sent", tp_index, BOUND_EXACT, 0,
                     tp_index_src);
        /* Every round whose target is another node must push its epm
         * elements out of the node before the next round starts. */
        double lower = 0;
        for (uint64_t k = 0; k < nodes; k++) {
            double t = 0;
            for (uint64_t b = 0; b < rounds; b++)
                if (bmmc_plan_target_proc(c->plan, k, b) != k)
                    t += ts + (double)epm * tau;
            if (t > lower)
                lower = t;
        }
        report_cycle_bound(r, tp_comm, BOUND_LOWER, lower, tp_comm_src);
        report_bound_na(r, "messages", nv_messages, BOUND_EXACT, naive_only,
                        nv_messages_src);
        report_bound_na(r, "details.index_words_sent", nv_index, BOUND_EXACT,
                        naive_only, nv_index_src);
        report_bound_na(r, "cycles", nv_comm, BOUND_LOWER, naive_only,
                        nv_comm_src);
    } else {
        report_bound_na(r, "messages", tp_messages, BOUND_EXACT,
                        two_phase_only, tp_messages_src);
        report_bound_na(r, "details.index_words_sent", tp_index, BOUND_EXACT,
                        two_phase_only, tp_index_src);
        report_bound_na(r, "cycles", tp_comm, BOUND_LOWER, two_phase_only,
                        tp_comm_src);
        report_bound(r, "messages", nv_messages, BOUND_EXACT, (double)total,
                     nv_messages_src);
        report_bound(r, "details.index_words_sent", nv_index, BOUND_EXACT,
                     (double)total, nv_index_src);
        int lanes = machine_port_limit(m);
        double lower = busiest_remote
            ? ts + ceil(2.0 * (double)busiest_remote / (lanes ? lanes : 1)) * tau
            : 0;
        report_cycle_bound(r, nv_comm, BOUND_LOWER, lower, nv_comm_src);
    }
}

const Algorithm algorithm_bmmc = {
    .name = "bmmc",
    .summary = "BMMC permutation y = A x XOR c of N elements on P nodes",
    .source = "Cormen 1997, Sections 3-6, Lemma 3, Appendices A-C",
    .needs = TOPOLOGY_DIMENSIONS,
    .methods = bmmc_methods,
    .params = bmmc_params,
    .prepare = bmmc_prepare,
    .release = bmmc_release,
    .init = bmmc_init,
    .step = bmmc_step,
    .peek = bmmc_peek,
    .expect = bmmc_expect,
    .report = bmmc_report,
};
