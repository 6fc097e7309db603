/* check_gray.c -- Gray/binary conversion (Johnsson & Ho 1990, Section 4)
 * and the dimension exchange, through the scenario runner.
 *
 * Asserted: correct final memory for n = 1..10, several K (some below
 * n-1), both methods, both directions, every start dimension; exact cycle
 * counts ((n-1)ceil(K/(n-1)) for concurrent, the Theorem 5 bound itself,
 * and (n-1)K for sequential); the placements after every step of Figure 4
 * and of Figure 5's three sequences; refused parameter combinations.
 */
#include "run.h"
#include "graycode.h"

#include <check.h>
#include "check_main.h"
#include "check_run.h"
#include "exchanges.h"
#include <math.h>
#include <string.h>

/* ALG by METHOD on the n-cube, K elements a node, and EXTRA_KEY
 * ("group.key") = EXTRA_VALUE if EXTRA_KEY is not NULL. */
static Scenario *scenario_for(const char *alg, const char *method, int n,
                              long k, const char *extra_key,
                              const char *extra_value)
{
    char dims[16], elements[24];
    g_snprintf(dims, sizeof dims, "%d", n);
    g_snprintf(elements, sizeof elements, "%ld", k);
    const char *const rows[][3] = {
        { "machine", "topology", "cube" },
        { "machine", "dimensions", dims },
        { "algorithm", "name", alg },
        { "algorithm", "method", method },
        { "algorithm", "elements-per-node", elements },
        { NULL },
    };
    Scenario *s = ck_scenario(rows);
    if (extra_key) {
        const char *dot = strchr(extra_key, '.');
        g_autofree char *group = g_strndup(extra_key, (gsize)(dot - extra_key));
        scenario_put(s, group, dot + 1, extra_value, "test");
    }
    return s;
}

static Report *must_run(Scenario *s, const RunOptions *opt)
{
    GError *e = NULL;
    Report *r = run_scenario(s, opt, &e);
    ck_assert_msg(r != NULL, "%s", e ? e->message : "");
    return r;
}


static const Bound *bound_named(const Report *r, const char *prefix)
{
    for (guint i = 0; i < r->bounds->len; i++) {
        const Bound *b = &g_array_index(r->bounds, Bound, i);
        if (g_str_has_prefix(b->name, prefix))
            return b;
    }
    ck_abort_msg("no bound '%s'", prefix);
    return NULL;
}

static double bound_value(const Report *r, const char *prefix,
                          gboolean *holds)
{
    for (guint i = 0; i < r->bounds->len; i++) {
        const Bound *b = &g_array_index(r->bounds, Bound, i);
        if (g_str_has_prefix(b->name, prefix)) {
            *holds = b->holds;
            return b->value;
        }
    }
    ck_abort_msg("no bound '%s'", prefix);
    return 0;
}

START_TEST(all_methods_all_directions_correct_and_exact)
{
    const long ks[] = { 1, 2, 3, 7, 33 };
    const char *algs[] = { "gray-to-binary", "binary-to-gray" };
    CkTally t = CK_TALLY_INIT;
    for (int n = 1; n <= 10; n++)
        for (size_t ki = 0; ki < G_N_ELEMENTS(ks); ki++)
            for (int a = 0; a < 2; a++) {
                long k = ks[ki];
                uint64_t nodes = 1ull << n;
                uint64_t exchanges = (uint64_t)(n - 1) * nodes * (uint64_t)k / 2;
                long t5 = n > 1 ? (n - 1) * ((k + n - 2) / (n - 1)) : 0;
                /* concurrent */
                g_autofree char *what = g_strdup_printf("%s n=%d K=%ld",
                                                        algs[a], n, k);
                g_autoptr(Scenario) s = scenario_for(algs[a], "concurrent", n, k,
                                                     NULL, NULL);
                g_autoptr(Report) r = ck_tally_run(&t, s, NULL, "%s", what);
                if (r) {
                    ck_tally_true(&t, r->data_correct, "%s: %s", what,
                                  r->data_problem);
                    ck_tally_uint(&t, exchanges, r->element_transfers,
                                  "%s: element transfers", what);
                    ck_tally_int(&t, t5, r->cycles, "%s: cycles", what);
                    ck_tally_true(&t, report_bounds_hold(r), "%s: bounds hold",
                                  what);
                }
                /* sequential, every start dimension */
                for (int m = 0; m <= (n > 1 ? n - 2 : 0); m++) {
                    char start[8];
                    g_snprintf(start, sizeof start, "%d", m);
                    g_autofree char *wq = g_strdup_printf("%s seq n=%d K=%ld "
                                                          "m=%d", algs[a], n,
                                                          k, m);
                    g_autoptr(Scenario) sq = scenario_for(algs[a], "sequential",
                        n, k, n > 1 ? "algorithm.start-dimension" : NULL, start);
                    g_autoptr(Report) rq = ck_tally_run(&t, sq, NULL, "%s", wq);
                    if (!rq)
                        continue;
                    ck_tally_true(&t, rq->data_correct, "%s: %s", wq,
                                  rq->data_problem);
                    ck_tally_uint(&t, exchanges, rq->element_transfers,
                                  "%s: element transfers", wq);
                    ck_tally_int(&t, (n - 1) * k, rq->cycles, "%s: cycles", wq);
                    if (n > 1) {
                        /* bound_value stops the test where a bound is
                         * missing, and writes nothing where it is found */
                        gboolean holds;
                        bound_value(rq, "Theorem 1", &holds);
                        ck_tally_true(&t, holds, "%s: Theorem 1 holds", wq);
                        bound_value(rq, "sequential", &holds);
                        ck_tally_true(&t, holds, "%s: the sequential bound "
                                      "holds", wq);
                        /* Theorem 5 is the concurrent method's: listed
                         * for the sequential one as n/a, never evaluated */
                        double v = bound_value(rq, "Theorem 5", &holds);
                        const Bound *t5 = bound_named(rq, "Theorem 5");
                        ck_tally_true(&t, !t5->applies && !holds && isnan(v)
                                      && t5->measured == (double)rq->cycles,
                                      "%s: Theorem 5 is n/a", wq);
                    }
                }
            }
    ck_tally_assert(&t, "both conversions, both methods, n = 1..10");
}
END_TEST

/* gray-to-binary, concurrent, on the 6-cube with K = 50 and KEY = VALUE:
 * it must run, the data correct. */
static Report *run_6cube(const char *key, const char *value)
{
    g_autoptr(Scenario) s = scenario_for("gray-to-binary", "concurrent", 6, 50,
                                         key, value);
    Report *r = must_run(s, NULL);
    ck_assert(r->data_correct);
    return r;
}

START_TEST(startup_paid_per_step)
{
    g_autoptr(Report) r = run_6cube("machine.startup", "7");
    ck_assert_int_eq(r->cycles, 5 * (7 + 10));
    ck_assert(report_bounds_hold(r));
}
END_TEST

START_TEST(ports_one_is_reported_honestly)
{
    g_autoptr(Report) r = run_6cube("machine.ports", "one");
    gboolean holds;
    double t5 = bound_value(r, "Theorem 5", &holds);
    ck_assert(r->cycles > t5);
    ck_assert(!holds);
}
END_TEST

/* On a machine with memory paths the report's lower bound is the busiest
 * node's path: each element a node sends or receives holds its path for
 * one element-time (docs/machine-model.md, "Memory paths"). The busiest
 * node is found here without the engine: every set's elements follow
 * Lemma 2 (element i crosses dimension d exactly when bit d+1 of i is
 * set) in the method's order of dimensions, from G(i) or from i, and each
 * crossing loads its source's and its destination's path. */
static uint64_t busiest_path(const char *alg, gboolean concurrent, int n,
                             uint64_t k)
{
    uint32_t nodes = 1u << n;
    unsigned sets = concurrent ? (unsigned)MIN(k, (uint64_t)(n - 1)) : 1;
    g_autofree uint64_t *load = g_new0(uint64_t, nodes);
    for (unsigned s = 0; s < sets; s++) {
        uint64_t size = concurrent ? k / (uint64_t)(n - 1)
                                         + (s < k % (uint64_t)(n - 1))
                                   : k;
        int first = concurrent ? n - 2 - (int)s : n - 2;
        for (uint32_t i = 0; i < nodes; i++) {
            uint32_t pos = strcmp(alg, "gray-to-binary") ? i
                                                         : (uint32_t)gray_encode(i);
            for (int t = 0; t < n - 1; t++) {
                int d = ((first - t) % (n - 1) + (n - 1)) % (n - 1);
                if (!((i >> (d + 1)) & 1))
                    continue;
                load[pos] += size;
                pos ^= 1u << d;
                load[pos] += size;
            }
        }
    }
    uint64_t most = 0;
    for (uint32_t x = 0; x < nodes; x++)
        most = MAX(most, load[x]);
    return most;
}

START_TEST(memory_paths_bound_is_the_busiest_path)
{
    static const char *const algs[] = { "gray-to-binary", "binary-to-gray" };
    static const long ks[] = { 1, 5, 13, 40 };
    enum { TAU = 3 };
    CkTally t = CK_TALLY_INIT;
    for (int n = 2; n <= 7; n++)
        for (size_t a = 0; a < G_N_ELEMENTS(algs); a++)
            for (int conc = 0; conc < 2; conc++)
                for (size_t ki = 0; ki < G_N_ELEMENTS(ks); ki++) {
                    g_autoptr(Scenario) s = scenario_for(
                        algs[a], conc ? "concurrent" : "sequential", n, ks[ki],
                        "machine.memory-path", "yes");
                    scenario_put(s, "machine", "element-time", "3", "test");
                    g_autoptr(Report) r = must_run(s, NULL);
                    const Bound *b = bound_named(r, "memory paths");
                    uint64_t want = TAU * busiest_path(algs[a], conc, n,
                                                       (uint64_t)ks[ki]);
                    ck_tally_true(&t, r->data_correct && b->applies && b->holds
                                      && b->kind == BOUND_LOWER,
                                  "%s n = %d K = %ld %s: correct, bound holds",
                                  algs[a], n, ks[ki], conc ? "conc" : "seq");
                    ck_tally_uint(&t, want, (uint64_t)b->value,
                                  "%s n = %d K = %ld %s: busiest path", algs[a],
                                  n, ks[ki], conc ? "conc" : "seq");
                }
    ck_tally_assert(&t, "the memory-path bound of both conversions");
    /* without paths there is no such bound */
    g_autoptr(Scenario) s = scenario_for("gray-to-binary", "concurrent", 5, 8,
                                         NULL, NULL);
    g_autoptr(Report) r = must_run(s, NULL);
    for (guint i = 0; i < r->bounds->len; i++)
        ck_assert(!g_str_has_prefix(g_array_index(r->bounds, Bound, i).name,
                                    "memory paths"));
}
END_TEST

/* ---- Figures 4 and 5: placements after every step --------------------- */


/* Figure 4 and Figure 5 (n = 4): rows i = 0..15 stand for address G(i);
 * each column is the data index held there after one more exchange. */
static const int fig5_seq2[3][16] = {        /* dims 2, 1, 0 (= Figure 4) */
    { 0, 1, 2, 3, 4, 5, 6, 7, 15, 14, 13, 12, 11, 10, 9, 8 },
    { 0, 1, 2, 3, 7, 6, 5, 4, 12, 13, 14, 15, 11, 10, 9, 8 },
    { 0, 1, 3, 2, 6, 7, 5, 4, 12, 13, 15, 14, 10, 11, 9, 8 },
};
static const int fig5_seq1[3][16] = {        /* dims 1, 0, 2 */
    { 0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11, 15, 14, 13, 12 },
    { 0, 1, 3, 2, 6, 7, 5, 4, 8, 9, 11, 10, 14, 15, 13, 12 },
    { 0, 1, 3, 2, 6, 7, 5, 4, 12, 13, 15, 14, 10, 11, 9, 8 },
};
static const int fig5_seq0[3][16] = {        /* dims 0, 2, 1 */
    { 0, 1, 3, 2, 4, 5, 7, 6, 8, 9, 11, 10, 12, 13, 15, 14 },
    { 0, 1, 3, 2, 4, 5, 7, 6, 14, 15, 13, 12, 10, 11, 9, 8 },
    { 0, 1, 3, 2, 6, 7, 5, 4, 12, 13, 15, 14, 10, 11, 9, 8 },
};
static const int fig5_dims[3][3] = { { 2, 1, 0 }, { 1, 0, 2 }, { 0, 2, 1 } };

/* Replay the recorded exchanges of one data set (tags with set s) step by
 * step and compare every column with the figure, into TALLY (the test
 * asserts it); WHAT names the run. */
static void replay(const Exchanges *ex, int set, int tag_stride,
                   const int (*expected)[16], const int *dims,
                   CkTally *tally, const char *what)
{
    int held[16];
    for (int i = 0; i < 16; i++)
        held[gray_encode((uint64_t)i)] = i;
    for (int t = 0; t < 3; t++) {
        int next[16];
        memcpy(next, held, sizeof next);
        for (int j = 0; j < ex->count; j++) {
            if (ex->x[j].tag != t * tag_stride + set)
                continue;
            ck_tally_int(tally, dims[t], ex->x[j].dim, "%s: set %d step %d "
                         "message %d from node %u: dimension", what, set, t, j,
                         ex->x[j].source);
            /* a wrong dimension could address outside next[] */
            if (ex->x[j].dim != dims[t])
                continue;
            next[ex->x[j].source ^ (1u << ex->x[j].dim)] = held[ex->x[j].source];
        }
        memcpy(held, next, sizeof held);
        for (int i = 0; i < 16; i++)
            ck_tally_true(tally, held[gray_encode((uint64_t)i)] == expected[t][i],
                          "%s: set %d step %d row %d: %d, figure says %d",
                          what, set, t, i, held[gray_encode((uint64_t)i)],
                          expected[t][i]);
    }
}

START_TEST(figure4_and_figure5_sequences)
{
    const int (*figs[3])[16] = { fig5_seq2, fig5_seq1, fig5_seq0 };
    CkTally t = CK_TALLY_INIT;
    for (int start = 2; start >= 0; start--) {
        char m[4];
        g_snprintf(m, sizeof m, "%d", start);
        g_autofree char *what = g_strdup_printf("sequential from dimension %d",
                                                start);
        g_autoptr(Scenario) s = scenario_for("gray-to-binary", "sequential", 4,
                                             1, "algorithm.start-dimension", m);
        g_autofree Exchanges *ex = g_new0(Exchanges, 1);
        RunOptions opt = { .observer = &exchanges_observer,
                           .observer_data = ex };
        g_autoptr(Report) r = ck_tally_run(&t, s, &opt, "%s", what);
        if (!r)
            continue;
        ck_tally_true(&t, r->data_correct, "%s: data correct", what);
        ck_tally_int(&t, 3, r->cycles, "%s: cycles", what);
        replay(ex, 0, 1, figs[2 - start], fig5_dims[2 - start], &t, what);
    }
    ck_tally_assert(&t, "Figure 5's sequences, one at a time");
    /* concurrent with K = 3: set s starts in dimension 2 - s, so the three
     * sets run Seq 2, Seq 1 and Seq 0 of Figure 5 at once in 3 cycles */
    g_autoptr(Scenario) s = scenario_for("gray-to-binary", "concurrent", 4, 3,
                                         NULL, NULL);
    Exchanges *ex = g_new0(Exchanges, 1);
    RunOptions opt = { .observer = &exchanges_observer,
                       .observer_data = ex };
    g_autoptr(Report) r = must_run(s, &opt);
    ck_assert(r->data_correct);
    ck_assert_int_eq(r->cycles, 3);
    CkTally tc = CK_TALLY_INIT;
    for (int set = 0; set < 3; set++)
        replay(ex, set, TOPOLOGY_CUBE_MAX_DIMENSIONS, figs[set], fig5_dims[set],
               &tc, "concurrent, K = 3");
    ck_tally_assert(&tc, "Figure 5's sequences at once");
    g_free(ex);
}
END_TEST

/* ---- refused parameters ---------------------------------------------- */

static void expect_refusal(Scenario *s, const char *message)
{
    GError *e = NULL;
    Report *r = run_scenario(s, NULL, &e);
    ck_assert(r == NULL);
    ck_assert(g_error_matches(e, SCENARIO_ERROR, SCENARIO_ERROR_INPUT));
    ck_assert_str_eq(e->message, message);
    g_error_free(e);
}

START_TEST(bad_parameters_refused)
{
    g_autoptr(Scenario) a = scenario_for("gray-to-binary", "concurrent", 4, 8,
                                         "algorithm.start-dimension", "1");
    expect_refusal(a, "test: start-dimension: applies to method sequential only");
    g_autoptr(Scenario) b = scenario_for("gray-to-binary", "sequential", 4, 8,
                                         "algorithm.start-dimension", "3");
    expect_refusal(b, "test: start-dimension: 3 is not a dimension requiring "
                   "communication (valid: 0..2 for n = 4)");
    g_autoptr(Scenario) c = scenario_for("gray-to-binary", "fast", 4, 8, NULL, NULL);
    expect_refusal(c, "test: method: unknown value 'fast' (valid: concurrent, "
                   "sequential)");
    g_autoptr(Scenario) d = scenario_for("exchange", "sequential", 4, 0, NULL, NULL);
    expect_refusal(d, "test: elements-per-node: 0 is out of range "
                   "(valid: 1..4294967296)");
}
END_TEST

/* ---- exchange -------------------------------------------------------- */

START_TEST(exchange_methods_exact)
{
    CkTally t = CK_TALLY_INIT;
    for (int n = 1; n <= 9; n++)
        for (long k = 1; k <= 40; k += 13) {
            g_autofree char *what = g_strdup_printf("sequential n=%d K=%ld", n,
                                                    k);
            g_autoptr(Scenario) s = scenario_for("exchange", "sequential", n, k,
                                                 "machine.startup", "2");
            g_autoptr(Report) r = ck_tally_run(&t, s, NULL, "%s", what);
            if (r) {
                ck_tally_true(&t, r->data_correct, "%s: data correct", what);
                ck_tally_int(&t, n * (2 + k), r->cycles, "%s: cycles", what);
                ck_tally_uint(&t, (uint64_t)n << n, r->messages,
                              "%s: messages", what);
                ck_tally_true(&t, report_bounds_hold(r), "%s: bounds hold",
                              what);
            }
            g_autofree char *wa = g_strdup_printf("all-port n=%d K=%ld", n, k);
            g_autoptr(Scenario) a = scenario_for("exchange", "all-port", n, k,
                                                 "machine.startup", "2");
            g_autoptr(Report) ra = ck_tally_run(&t, a, NULL, "%s", wa);
            if (!ra)
                continue;
            ck_tally_true(&t, ra->data_correct, "%s: data correct", wa);
            ck_tally_int(&t, 2 + (k + n - 1) / n, ra->cycles, "%s: cycles", wa);
            ck_tally_uint(&t, (uint64_t)k << n, ra->element_transfers,
                          "%s: element transfers", wa);
            ck_tally_true(&t, report_bounds_hold(ra), "%s: bounds hold", wa);
        }
    ck_tally_assert(&t, "exchange, both methods, n = 1..9");
}
END_TEST

static Suite *gray_suite(void)
{
    const CkTest conversion[] = {
        { memory_paths_bound_is_the_busiest_path, 0 },
        { all_methods_all_directions_correct_and_exact, 0 },
        { startup_paid_per_step, 0 },
        { ports_one_is_reported_honestly, 0 },
        { figure4_and_figure5_sequences, 0 },
        { bad_parameters_refused, 0 },
        { NULL, 0 },
    };
    const CkTest exchange[] = {
        { exchange_methods_exact, 0 },
        { NULL, 0 },
    };
    Suite *s = suite_create("gray");
    ck_add_tcase(s, "conversion", 120, conversion);
    ck_add_tcase(s, "exchange", 60, exchange);
    return s;
}

CUBE_CHECK_MAIN(gray_suite)
