/* check_matmul.c -- the systolic multiplication with C stationary (Mathur &
 * Johnsson 1992, Section 4.2): exact products for random shapes and
 * processor arrays on cubes and tori, double and complex; shift and moved
 * element counts equal the formulas of Section 4.3; every cyclic shift is
 * one hop; Claim 2's processor arrays; bad shapes refused with the key's
 * place; and the cm200-8k timing model within 20% of Table 5.
 *
 * Tests that loop over runs check them into a CkTally (check_main.h) and
 * assert once; what a later check cannot do without (a report, a detail)
 * stops the test with if (!ok) ck_abort_msg(...), which writes nothing when
 * it holds. */
#include "run.h"

#include <check.h>
#include "check_main.h"
#include "check_run.h"
#include "report_json.h"
#include <string.h>

static Scenario *mm_scenario(const char *preset, int dims, const char *shape,
                             const char *procs, const char *element)
{
    Scenario *s = scenario_new("test.ini");
    char buf[64];
    scenario_put(s, "machine", "preset", preset, "test.ini:2");
    if (dims) {
        g_snprintf(buf, sizeof buf, "%d", dims);
        scenario_put(s, "machine", "dimensions", buf, "test.ini:3");
    }
    scenario_put(s, "algorithm", "name", "matmul", "test.ini:5");
    scenario_put(s, "algorithm", "shape", shape, "test.ini:6");
    if (procs)
        scenario_put(s, "algorithm", "processors", procs, "test.ini:7");
    if (element)
        scenario_put(s, "algorithm", "element", element, "test.ini:8");
    return s;
}

static uint64_t cdiv(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

/* Run, and check data, bounds and the Section 4.3 counts into T (the
 * callers loop over runs). No report stops the test: nothing to check. */
static Report *run_checked(CkTally *t, Scenario *s, uint64_t p, uint64_t q, uint64_t r,
                           uint32_t nr, uint32_t nc)
{
    GError *e = NULL;
    Report *rep = run_scenario(s, NULL, &e);
    if (rep == NULL)
        ck_abort_msg("%llux%llux%llu on %ux%u: %s", (unsigned long long)p,
                     (unsigned long long)q, (unsigned long long)r, nr, nc,
                     e ? e->message : "");
    char what[96];
    snprintf(what, sizeof what, "%llux%llux%llu on %ux%u", (unsigned long long)p,
             (unsigned long long)q, (unsigned long long)r, nr, nc);
    ck_tally_true(t, rep->data_correct, "%s: data correct (%s)", what, rep->data_problem);
    ck_tally_true(t, report_bounds_hold(rep), "%s: bounds hold", what);
    uint64_t l = MAX(nr, nc), qpad = l * cdiv(q, l);
    long long moved_a = detail(rep, "elements_moved_a")->i;
    long long moved_b = detail(rep, "elements_moved_b")->i;
    ck_tally_int(t, nc - 1, detail(rep, "shifts_a")->i, "%s: shifts of A", what);
    ck_tally_int(t, nr - 1, detail(rep, "shifts_b")->i, "%s: shifts of B", what);
    ck_tally_int(t, (long long)(cdiv(p, nr) * (qpad / nc) * (nc - 1)), moved_a,
                 "%s: elements of A moved", what);
    ck_tally_int(t, (long long)((qpad / nr) * cdiv(r, nc) * (nr - 1)), moved_b,
                 "%s: elements of B moved", what);
    /* Every cyclic shift is one hop: element-hops equal elements. */
    ck_tally_uint(t, rep->class_elements[CLASS_NEIGHBOUR], rep->class_transfers[CLASS_NEIGHBOUR],
                  "%s: neighbour element-hops", what);
    ck_tally_uint(t, (uint64_t)nr * nc * (uint64_t)(moved_a + moved_b),
                  rep->class_elements[CLASS_NEIGHBOUR], "%s: neighbour elements", what);
    return rep;
}

START_TEST(random_shapes_on_cubes)
{
    GRand *rng = g_rand_new_with_seed(11);
    CkTally t = CK_TALLY_INIT;
    for (int trial = 0; trial < 40; trial++) {
        int n = g_rand_int_range(rng, 1, 7);
        int rbits = g_rand_int_range(rng, 0, n + 1);
        uint32_t nr = 1u << rbits, nc = 1u << (n - rbits);
        uint64_t p = nr + (uint64_t)g_rand_int_range(rng, 0, 40);
        uint64_t r = nc + (uint64_t)g_rand_int_range(rng, 0, 40);
        uint64_t q = MAX(nr, nc) + (uint64_t)g_rand_int_range(rng, 0, 40);
        char shape[64], procs[32];
        g_snprintf(shape, sizeof shape, "%llux%llux%llu",
                   (unsigned long long)p, (unsigned long long)q,
                   (unsigned long long)r);
        g_snprintf(procs, sizeof procs, "%ux%u", nr, nc);
        const char *el = trial % 2 ? "complex" : "double";
        g_autoptr(Scenario) s = mm_scenario("cube", n, shape, procs, el);
        report_free(run_checked(&t, s, p, q, r, nr, nc));
    }
    g_rand_free(rng);
    ck_tally_assert(&t, "random shapes on cubes");
}
END_TEST

START_TEST(tori)
{
    static const struct { const char *shape; uint32_t nr, nc; } tori[] = {
        { "4x8", 4, 8 }, { "2x2", 2, 2 }, { "8x2", 8, 2 }, { "4x4", 4, 4 },
    };
    CkTally t = CK_TALLY_INIT;
    for (size_t i = 0; i < G_N_ELEMENTS(tori); i++) {
        Scenario *s = scenario_new("torus.ini");
        scenario_put(s, "machine", "topology", "mesh", "torus.ini:2");
        scenario_put(s, "machine", "shape", tori[i].shape, "torus.ini:3");
        scenario_put(s, "machine", "wrap", "yes", "torus.ini:4");
        scenario_put(s, "algorithm", "name", "matmul", "torus.ini:6");
        scenario_put(s, "algorithm", "shape", "19x23x29", "torus.ini:7");
        report_free(run_checked(&t, s, 19, 23, 29, tori[i].nr, tori[i].nc));
        scenario_free(s);
    }
    ck_tally_assert(&t, "19x23x29 on tori");
}
END_TEST

/* Claim 2: the array follows C's aspect ratio (the examples). */
START_TEST(claim2_processor_arrays)
{
    static const struct { const char *preset, *shape, *want; } cases[] = {
        { "cm200-8k", "1024x64x256", "32x8" },
        { "cm200-16k", "1024x64x512", "32x16" },
        { "cm200-8k", "256x256x256", "16x16" },
        { "cm200-16k", "512x512x512", "32x16" },   /* a tie: more rows */
    };
    CkTally t = CK_TALLY_INIT;
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(Scenario) s = mm_scenario(cases[i].preset, 0, cases[i].shape,
                                            NULL, NULL);
        scenario_put(s, "algorithm", "verify", "sample:16", "test.ini:9");
        GError *e = NULL;
        g_autoptr(Report) r = run_scenario(s, NULL, &e);
        if (r == NULL)      /* nothing to check */
            ck_abort_msg("%s %s: %s", cases[i].preset, cases[i].shape,
                         e ? e->message : "");
        ck_tally_true(&t, r->data_correct, "%s %s: data correct (%s)", cases[i].preset,
                      cases[i].shape, r->data_problem);
        ck_tally_str(&t, cases[i].want, detail(r, "processors")->text, "%s %s: processors",
                     cases[i].preset, cases[i].shape);
    }
    ck_tally_assert(&t, "Claim 2's processor arrays");
}
END_TEST

START_TEST(refusals)
{
    g_autoptr(Scenario) a = mm_scenario("cube", 4, "3x16x16", "4x4", NULL);
    ck_refused_with(a, "test.ini:6", "every operand needs an element per node",
                    NULL);
    g_autoptr(Scenario) b = mm_scenario("cube", 4, "0x16x16", "4x4", NULL);
    ck_refused_with(b, "test.ini:6", "between 1 and 2^32", NULL);
    g_autoptr(Scenario) c = mm_scenario("cube", 4, "16x16x16", "3x4", NULL);
    ck_refused_with(c, "test.ini:7", "powers of two", NULL);
    g_autoptr(Scenario) d = mm_scenario("cube", 4, "16x16x16", "4x8", NULL);
    ck_refused_with(d, "test.ini:7", "the machine has 16 nodes", NULL);
    g_autoptr(Scenario) e = mm_scenario("cube", 4, "16x16", "4x4", NULL);
    ck_refused_with(e, "test.ini:6", "is not PxQxR", NULL);
    g_autoptr(Scenario) f = mm_scenario("torus-16x16", 0, "64x64x64", "32x8",
                                        NULL);
    ck_refused_with(f, "test.ini:7", "does not match the mesh", NULL);
    g_autoptr(Scenario) g = mm_scenario("smp-8", 0, "16x16x16", "2x4", NULL);
    ck_refused_with(g, "test.ini:5", "does not run on topology 'complete'",
                    NULL);
    g_autoptr(Scenario) h = mm_scenario("cube", 4, "16x16x16", "4x4", NULL);
    scenario_put(h, "algorithm", "verify", "sample:0", "test.ini:9");
    ck_refused_with(h, "test.ini:9", "sample:K", NULL);
}
END_TEST

/* Table 5 (256-node CM-200, 64-bit): alignment, local multiply and cyclic
 * shifts, from the emulated ticks, within 20%. The larger sizes are
 * scenarios/matmul/table5-cm200-8k-*.ini. */
START_TEST(table5_within_20_percent)
{
    static const struct { const char *shape; double align, local, shifts; }
        t5[] = {
            { "256x256x256", 0.030, 0.020, 0.089 },
            { "512x512x512", 0.117, 0.133, 0.362 },
            { "1024x1024x1024", 0.473, 0.968, 1.447 },
        };
    CkTally t = CK_TALLY_INIT;
    for (size_t i = 0; i < G_N_ELEMENTS(t5); i++) {
        g_autoptr(Scenario) s = mm_scenario("cm200-8k", 0, t5[i].shape, NULL,
                                            NULL);
        scenario_put(s, "algorithm", "verify", "sample:64", "test.ini:9");
        GError *e = NULL;
        g_autoptr(Report) r = run_scenario(s, NULL, &e);
        if (r == NULL)      /* nothing to check */
            ck_abort_msg("%s: %s", t5[i].shape, e ? e->message : "");
        ck_tally_true(&t, r->data_correct, "%s: data correct (%s)", t5[i].shape,
                      r->data_problem);
        double ts = r->machine.tick_seconds;
        ck_tally_double(&t, 1e-7, ts, "%s: tick seconds", t5[i].shape);
        double got[3] = { detail(r, "alignment_cycles")->i * ts,
                          detail(r, "local_cycles")->i * ts,
                          detail(r, "shift_cycles")->i * ts };
        double want[3] = { t5[i].align, t5[i].local, t5[i].shifts };
        for (int j = 0; j < 3; j++)
            ck_tally_true(&t, got[j] >= 0.8 * want[j] && got[j] <= 1.2 * want[j],
                          "%s phase %d: %g s against Table 5's %g s",
                          t5[i].shape, j, got[j], want[j]);
    }
    ck_tally_assert(&t, "Table 5 within 20%%");
}
END_TEST

static Suite *matmul_suite(void)
{
    Suite *s = suite_create("matmul");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, random_shapes_on_cubes);
    tcase_add_test(tc, tori);
    tcase_add_test(tc, claim2_processor_arrays);
    tcase_add_test(tc, refusals);
    tcase_add_test(tc, table5_within_20_percent);
    suite_add_tcase(s, tc);
    return s;
}

CUBE_CHECK_MAIN(matmul_suite)
