/* check_bmmc.c -- the BMMC node program (Cormen 1997) on the emulated cube.
 *
 * Random nonsingular matrices and complements, n up to 24 index bits and
 * p up to 11 processor bits, random layouts: the final memory must hold
 * every element where A x ^ c puts it (the runner's independent check),
 * Lemma 3's counts must hold, two-phase must send no index words and
 * exactly P 2^rank(gamma) messages; naive sends N messages and N index
 * words. Bad specifications are refused with exact messages.
 *
 * The random runs are checked into a CkTally (check_main.h) and assert once
 * per test; what a later check cannot do without (a report, a detail) stops
 * the test with if (!ok) ck_abort_msg(...), which writes nothing when it
 * holds.
 */
#include "run.h"
#include "gf2.h"
#include "routing.h"

#include <check.h>
#include "check_main.h"
#include "check_run.h"
#include <string.h>

static Scenario *bmmc_scenario(int p, uint64_t elements, const char *matrix,
                               const char *columns, const char *complement,
                               const char *layout, const char *method)
{
    Scenario *s = scenario_new("test");
    char buf[64];
    scenario_put(s, "machine", "topology", "cube", "test");
    g_snprintf(buf, sizeof buf, "%d", p);
    scenario_put(s, "machine", "dimensions", buf, "test");
    scenario_put(s, "algorithm", "name", "bmmc", "test");
    g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT, (guint64)elements);
    scenario_put(s, "algorithm", "elements", buf, "test");
    if (matrix)
        scenario_put(s, "algorithm", "matrix", matrix, "test");
    if (columns)
        scenario_put(s, "algorithm", "columns", columns, "test");
    if (complement)
        scenario_put(s, "algorithm", "complement", complement, "test");
    if (layout)
        scenario_put(s, "algorithm", "layout", layout, "test");
    if (method)
        scenario_put(s, "algorithm", "method", method, "test");
    return s;
}

/* The detail KEY of R; the test stops if there is none (there is no value
 * to return). Called in loops, so a found detail writes nothing. */
static double detail(const Report *r, const char *key)
{
    g_autofree char *field = g_strconcat("details.", key, NULL);
    double v;
    if (!report_lookup(r, field, &v))
        ck_abort_msg("no %s", field);
    return v;
}

static char *columns_text(const Gf2Matrix *A, int n)
{
    GString *s = g_string_new(NULL);
    for (int j = 0; j < n; j++)
        g_string_append_printf(s, "%s0x%" G_GINT64_MODIFIER "x", j ? "," : "",
                               (guint64)A->col[j]);
    return g_string_free(s, FALSE);
}

/* One random run, checked into T. */
static void run_random(CkTally *t, Gf2Rng *rng, int n, int p, const char *method)
{
    Gf2Matrix A;
    gf2_random_nonsingular(&A, n, rng);
    uint64_t c = gf2_rng_bits(rng, n);
    int f = (int)(gf2_rng_next(rng) % (uint64_t)(n - p + 1));
    g_autofree char *cols = columns_text(&A, n);
    char comp[32], layout[16];
    g_snprintf(comp, sizeof comp, "%" G_GUINT64_FORMAT, (guint64)c);
    g_snprintf(layout, sizeof layout, "f:%d", f);
    g_autoptr(Scenario) s = bmmc_scenario(p, (uint64_t)1 << n, NULL, cols, comp,
                                          layout, method);
    GError *e = NULL;
    g_autoptr(Report) r = run_scenario(s, NULL, &e);
    if (r == NULL)      /* nothing to check */
        ck_abort_msg("n=%d p=%d: %s", n, p, e ? e->message : "");
    ck_tally_true(t, r->data_correct, "n=%d p=%d f=%d %s: data correct (%s)", n, p, f,
                  method, r->data_problem);
    ck_tally_true(t, report_bounds_hold(r), "n=%d p=%d f=%d: bounds hold", n, p, f);
    double rounds = detail(r, "rounds");
    ck_tally_int(t, 1LL << (long long)detail(r, "rank_gamma"), (long long)rounds,
                 "n=%d p=%d f=%d %s: rounds", n, p, f, method);
    if (!strcmp(method, "two-phase")) {
        ck_tally_int(t, 0, (long long)detail(r, "index_words_sent"),
                     "n=%d p=%d f=%d: index words sent", n, p, f);
        ck_tally_uint(t, (uint64_t)rounds << p, r->messages, "n=%d p=%d f=%d: messages",
                      n, p, f);
        ck_tally_uint(t, (uint64_t)1 << n, r->elements_sent, "n=%d p=%d f=%d: elements sent",
                      n, p, f);
        ck_tally_int(t, (1LL << n) / ((long long)rounds << p),
                     (long long)detail(r, "elements_per_message"),
                     "n=%d p=%d f=%d: elements per message", n, p, f);
    } else {
        ck_tally_int(t, 1LL << n, (long long)detail(r, "index_words_sent"),
                     "n=%d p=%d f=%d naive: index words sent", n, p, f);
        ck_tally_uint(t, (uint64_t)1 << n, r->messages, "n=%d p=%d f=%d naive: messages",
                      n, p, f);
    }
}

START_TEST(random_matrices_small)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 0xb33c);
    CkTally t = CK_TALLY_INIT;
    for (int trial = 0; trial < 120; trial++) {
        int p = 1 + (int)(gf2_rng_next(&rng) % 6);
        int n = p + (int)(gf2_rng_next(&rng) % 7);
        run_random(&t, &rng, n, p, trial % 4 == 0 ? "naive" : "two-phase");
    }
    ck_tally_assert(&t, "random matrices, n <= 12");
}
END_TEST

START_TEST(random_matrices_large)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 0x24b1);
    /* n up to 24 index bits, p up to 11 (the 2048-node CM-200) */
    const int sizes[][2] = { { 24, 11 }, { 20, 11 }, { 18, 9 }, { 16, 11 },
                             { 12, 11 }, { 11, 11 }, { 22, 4 } };
    CkTally t = CK_TALLY_INIT;
    for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++)
        run_random(&t, &rng, sizes[i][0], sizes[i][1], "two-phase");
    ck_tally_assert(&t, "random matrices, n up to 24");
}
END_TEST

START_TEST(catalog_and_layouts)
{
    const char *names[] = { "identity", "bit-reversal", "vector-reversal",
                            "gray", "gray-inverse", "shuffle", "unshuffle",
                            "transpose:16x64" };
    const char *layouts[] = { "processor-major", "processor-minor", "f:2" };
    CkTally t = CK_TALLY_INIT;
    for (size_t i = 0; i < G_N_ELEMENTS(names); i++)
        for (size_t l = 0; l < G_N_ELEMENTS(layouts); l++)
            for (int m = 0; m < 2; m++) {
                const char *method = m ? "naive" : "two-phase";
                g_autoptr(Scenario) s = bmmc_scenario(5, 1024, names[i], NULL,
                    NULL, layouts[l], method);
                GError *e = NULL;
                g_autoptr(Report) r = run_scenario(s, NULL, &e);
                if (r == NULL)      /* nothing to check */
                    ck_abort_msg("%s %s %s: %s", names[i], layouts[l], method,
                                 e ? e->message : "");
                ck_tally_true(&t, r->data_correct, "%s %s %s: data correct (%s)",
                              names[i], layouts[l], method, r->data_problem);
                ck_tally_true(&t, report_bounds_hold(r), "%s %s %s: bounds hold",
                              names[i], layouts[l], method);
            }
    ck_tally_assert(&t, "catalog permutations in three layouts");
    /* bit-reversal, processor-major: gamma is the antidiagonal's lower-left
     * block, rank min(p, n-p) */
    g_autoptr(Scenario) s = bmmc_scenario(5, 1024, "bit-reversal", NULL, NULL,
                                          NULL, NULL);
    g_autoptr(Report) r = run_scenario(s, NULL, NULL);
    ck_assert_int_eq((long long)detail(r, "rank_gamma"), 5);
    ck_assert_int_eq((long long)detail(r, "elements_per_message"), 1);
    /* vector-reversal touches no processor-bit mixing: one round */
    g_autoptr(Scenario) v = bmmc_scenario(5, 1024, "vector-reversal", NULL,
                                          NULL, NULL, NULL);
    g_autoptr(Report) rv = run_scenario(v, NULL, NULL);
    ck_assert_int_eq((long long)detail(rv, "rounds"), 1);
    ck_assert_uint_eq(rv->messages, 32);
}
END_TEST

START_TEST(descending_routing_same_data)
{
    g_autoptr(Scenario) a = bmmc_scenario(6, 4096, "bit-reversal", NULL, NULL,
                                          NULL, NULL);
    scenario_put(a, "algorithm", "routing", "descending", "test");
    g_autoptr(Report) r = run_scenario(a, NULL, NULL);
    ck_assert(r->data_correct);
    ck_assert(report_bounds_hold(r));
}
END_TEST

START_TEST(bad_specifications_refused)
{
    g_autoptr(Scenario) a = bmmc_scenario(3, 100, "identity", NULL, NULL, NULL, NULL);
    ck_refused(a, "test: elements: 100 is not a power of two");
    g_autoptr(Scenario) b = bmmc_scenario(5, 16, "identity", NULL, NULL, NULL, NULL);
    ck_refused(b, "test: elements: 16 elements are fewer than one per node "
                  "(P = 32 nodes)");
    g_autoptr(Scenario) c = bmmc_scenario(2, 16, NULL, NULL, NULL, NULL, NULL);
    ck_refused(c, "test: matrix: give exactly one of matrix and columns");
    g_autoptr(Scenario) d = bmmc_scenario(2, 16, NULL, "1,2,3,8", NULL, NULL, NULL);
    ck_refused(d, "test: columns: singular over GF(2), rank 3 of 4: column 0 = "
               "column 1 + column 2");
    g_autoptr(Scenario) f = bmmc_scenario(2, 16, "bit-reversal", NULL, NULL,
                                          "f:3", NULL);
    ck_refused(f, "test: layout: 'f:3' is not a layout (valid: "
                  "processor-major, processor-minor, f:F with F in 0..2 for "
                  "n = 4, p = 2)");
    /* only digits after "f:" (strtol skipped the blank and took the sign) */
    const char *loose[] = { "f: 2", "f:+2", "f:-0", "f:", "f:2 ", "f:0x1" };
    CkTally t = CK_TALLY_INIT;
    for (size_t i = 0; i < G_N_ELEMENTS(loose); i++) {
        g_autoptr(Scenario) l = bmmc_scenario(2, 16, "bit-reversal", NULL,
                                              NULL, loose[i], NULL);
        g_autofree char *want = g_strdup_printf(
            "test: layout: '%s' is not a layout (valid: processor-major, "
            "processor-minor, f:F with F in 0..2 for n = 4, p = 2)", loose[i]);
        ck_tally_refused(&t, l, want);
    }
    ck_tally_assert(&t, "loose layouts refused");
    g_autoptr(Scenario) ok = bmmc_scenario(2, 16, "bit-reversal", NULL, NULL,
                                           "f:02", NULL);
    g_autoptr(Report) r = run_scenario(ok, NULL, NULL);
    ck_assert(r != NULL && r->data_correct);
    g_autoptr(Scenario) g = bmmc_scenario(2, 16, "rotate", NULL, NULL, NULL, NULL);
    GError *e = NULL;
    ck_assert(run_scenario(g, NULL, &e) == NULL);
    ck_assert(g_str_has_prefix(e->message, "test: matrix: "));
    ck_assert(strstr(e->message, "rotate") != NULL);
    g_error_free(e);
}
END_TEST

/* route_ecube: the dimensions where the two addresses differ, lowest
 * first (ascending) or highest first (descending), for every pair of
 * nodes of the 1- to 7-cubes and of a few pairs of the 31-cube. */
START_TEST(ecube_routes_are_the_differing_dimensions)
{
    CkTally t = CK_TALLY_INIT;
    for (int n = 1; n <= 31; n += n < 7 ? 1 : 24) {
        uint32_t nodes = n < 7 ? (uint32_t)1 << n : 64;
        for (uint32_t a = 0; a < nodes; a++)
            for (uint32_t b = 0; b < nodes; b++) {
                uint32_t from = n < 7 ? a : a * 0x2545f491u >> 1;
                uint32_t to = n < 7 ? b : b * 0x9e3779b9u >> 1;
                for (int o = 0; o < 2; o++) {
                    RouteOrder order = o ? ROUTE_DESCENDING : ROUTE_ASCENDING;
                    int path[32], want[32], hops = 0;
                    for (int i = 0; i < n; i++) {
                        int d = o ? n - 1 - i : i;
                        if (((from ^ to) >> d) & 1)
                            want[hops++] = d;
                    }
                    int got = route_ecube(from, to, n, order, path);
                    ck_tally_int(&t, hops, got, "n %d %u -> %u order %d: hops",
                                 n, from, to, o);
                    for (int h = 0; h < hops && h < got; h++)
                        ck_tally_int(&t, want[h], path[h],
                                     "n %d %u -> %u order %d: hop %d", n, from,
                                     to, o, h);
                }
            }
    }
    ck_tally_assert(&t, "e-cube routes");
}
END_TEST

static Suite *bmmc_suite(void)
{
    Suite *s = suite_create("bmmc");
    TCase *t = ck_tcase(s, "node program", 300);
    tcase_add_test(t, random_matrices_small);
    tcase_add_test(t, random_matrices_large);
    tcase_add_test(t, catalog_and_layouts);
    tcase_add_test(t, descending_routing_same_data);
    tcase_add_test(t, ecube_routes_are_the_differing_dimensions);
    tcase_add_test(t, bad_specifications_refused);
    return s;
}

CUBE_CHECK_MAIN(bmmc_suite)
