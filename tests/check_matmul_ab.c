/* check_matmul_ab.c -- matrix multiplication with A or B stationary
 * (Mathur & Johnsson 1992, Section 4.1; algorithms/matmul/stationary.c):
 * random shapes on random power-of-two arrays of cubes of dimension 2..6
 * and on a 4 x 4 torus, doubles and complex, stationary A, B and auto,
 * block sizes auto and random: every result exact, A and B at home, and
 * the exact neighbour counts, every shift one hop.
 *
 * Runs made in loops are checked into a CkTally (check_main.h) and assert
 * once; what a later check cannot do without (a report, a detail) stops
 * the test with if (!ok) ck_abort_msg(...), which writes nothing when it
 * holds. */
#include "run.h"

#include <check.h>
#include "check_main.h"
#include "check_run.h"
#include "report_json.h"
#include <string.h>

static Scenario *mm_scenario(int dims, uint32_t nr, uint32_t nc,
                             uint32_t p, uint32_t q, uint32_t r,
                             const char *stationary, const char *element,
                             uint32_t block)
{
    Scenario *s = scenario_new("test");
    char buf[64];
    if (dims > 0) {
        scenario_put(s, "machine", "preset", "cube", "test");
        g_snprintf(buf, sizeof buf, "%d", dims);
        scenario_put(s, "machine", "dimensions", buf, "test");
    } else {
        scenario_put(s, "machine", "topology", "mesh", "test");
        scenario_put(s, "machine", "shape", "4x4", "test");
        scenario_put(s, "machine", "wrap", "yes", "test");
    }
    scenario_put(s, "algorithm", "name", "matmul", "test");
    g_snprintf(buf, sizeof buf, "%ux%ux%u", p, q, r);
    scenario_put(s, "algorithm", "shape", buf, "test");
    if (nr) {
        g_snprintf(buf, sizeof buf, "%ux%u", nr, nc);
        scenario_put(s, "algorithm", "processors", buf, "test");
    }
    scenario_put(s, "algorithm", "stationary", stationary, "test");
    scenario_put(s, "algorithm", "element", element, "test");
    if (block) {
        g_snprintf(buf, sizeof buf, "%u", block);
        scenario_put(s, "algorithm", "block", buf, "test");
    }
    return s;
}

static uint32_t between(GRand *g, uint32_t lo, uint32_t hi)
{
    return (uint32_t)g_rand_int_range(g, (gint32)lo, (gint32)hi + 1);
}

/* A random problem on a random cube: dims 2..6, an nr x nc processor
 * array of it, and P x Q x R up to 70 with P >= nr, R >= nc and Q >= both,
 * drawn from G in that order. */
typedef struct {
    int dims;
    uint32_t nr, nc, p, q, r;
} CubeProblem;

static CubeProblem random_cube_problem(GRand *g)
{
    CubeProblem c;
    c.dims = (int)between(g, 2, 6);
    uint32_t rb = between(g, 0, (uint32_t)c.dims);
    c.nr = 1u << rb;
    c.nc = 1u << (c.dims - rb);
    c.p = between(g, c.nr, 70);
    c.r = between(g, c.nc, 70);
    c.q = between(g, MAX(c.nr, c.nc), 70);
    return c;
}

/* One run: exact data, every bound, one hop per neighbour transfer, and
 * for A or B the shift counts of Section 4.1; into T when the caller loops,
 * asserted here when T is NULL. No report, or no stationary operand named,
 * stops the test: nothing to check. */
static void run_one(CkTally *t, int dims, uint32_t nr, uint32_t nc, uint32_t p,
                    uint32_t q, uint32_t r, const char *st,
                    const char *element, uint32_t block)
{
    CkTally own = CK_TALLY_INIT;
    CkTally *tl = t ? t : &own;
    char what[128];
    snprintf(what, sizeof what, "n=%d %ux%u %ux%ux%u %s %s b=%u", dims, nr, nc, p, q, r,
             st, element, block);
    g_autoptr(Scenario) s = mm_scenario(dims, nr, nc, p, q, r, st, element,
                                        block);
    GError *e = NULL;
    g_autoptr(Report) rep = run_scenario(s, NULL, &e);
    if (rep == NULL)
        ck_abort_msg("%s: %s", what, e ? e->message : "");
    ck_tally_true(tl, rep->data_correct, "%s: data correct (%s)", what, rep->data_problem);
    ck_tally_true(tl, report_bounds_hold(rep), "%s: bounds hold", what);
    ck_tally_int(tl, rep->class_transfers[CLASS_NEIGHBOUR],
                 rep->class_elements[CLASS_NEIGHBOUR], "%s: neighbour elements = element-hops",
                 what);
    const char *ran = detail(rep, "stationary")->text;
    if (ran == NULL)    /* compared with strcmp below */
        ck_abort_msg("%s: stationary detail has no text", what);
    if (!strcmp(st, "auto")) {
        const char *want = p >= 8 * r ? "A" : r >= 16 * p ? "B" : "C";
        ck_tally_str(tl, want, ran, "%s: stationary", what);
    } else {
        ck_tally_str(tl, st, ran, "%s: stationary", what);
    }
    if (strcmp(ran, "C")) {
        gboolean a = !strcmp(ran, "A");
        uint32_t gr = nr, gc = nc;
        if (!nr) {
            gr = gc = 4;
        }
        uint64_t want_block = block ? block : a ? MIN(r, 64) : MIN(p, 32);
        ck_tally_int(tl, (long long)want_block, detail(rep, "block")->i, "%s: block",
                     what);
        uint64_t free_ext = a ? r : p;
        uint64_t blocks = (free_ext + want_block - 1) / want_block;
        ck_tally_int(tl, (long long)blocks, detail(rep, "blocks")->i, "%s: blocks", what);
        ck_tally_int(tl, (long long)(blocks * ((a ? gr : gc) - 1)),
                     detail(rep, "shifts_broadcast")->i, "%s: broadcast shifts", what);
        ck_tally_int(tl, (long long)(blocks * ((a ? gc : gr) - 1)),
                     detail(rep, "shifts_reduce")->i, "%s: reduce shifts", what);
        ck_tally_int(tl, (long long)gr * gc * blocks * (gr - 1 + gc - 1),
                     rep->class_messages[CLASS_NEIGHBOUR], "%s: neighbour messages", what);
    }
    if (t == NULL)
        ck_tally_assert(&own, "%s", what);
}

static const char *const elements[] = { "double", "complex" };

START_TEST(random_cubes)
{
    GRand *g = g_rand_new_with_seed(20261123);
    static const char *const st[] = { "A", "B" };
    CkTally t = CK_TALLY_INIT;
    for (int round = 0; round < 20; round++) {
        CubeProblem c = random_cube_problem(g);
        uint32_t block = g_rand_boolean(g) ? 0 : between(g, 1, 40);
        run_one(&t, c.dims, c.nr, c.nc, c.p, c.q, c.r, st[round % 2],
                elements[round / 2 % 2], block);
    }
    g_rand_free(g);
    ck_tally_assert(&t, "A and B stationary on random cubes");
}
END_TEST

/* auto picks A when P >= 8 R, B when R >= 16 P, C otherwise. */
START_TEST(auto_choice)
{
    run_one(NULL, 3, 4, 2, 64, 9, 7, "auto", "double", 0);
    run_one(NULL, 3, 2, 4, 3, 11, 60, "auto", "complex", 0);
    run_one(NULL, 3, 2, 4, 70, 5, 8, "auto", "complex", 0);
    run_one(NULL, 4, 4, 4, 20, 20, 20, "auto", "double", 0);
    GRand *g = g_rand_new_with_seed(7);
    CkTally t = CK_TALLY_INIT;
    for (int round = 0; round < 8; round++) {
        CubeProblem c = random_cube_problem(g);
        run_one(&t, c.dims, c.nr, c.nc, c.p, c.q, c.r, "auto", elements[round % 2],
                0);
    }
    g_rand_free(g);
    ck_tally_assert(&t, "auto on random cubes");
}
END_TEST

START_TEST(torus)
{
    GRand *g = g_rand_new_with_seed(44);
    static const char *const st[] = { "A", "B", "auto" };
    CkTally t = CK_TALLY_INIT;
    for (int round = 0; round < 6; round++) {
        uint32_t p = between(g, 4, 70), q = between(g, 4, 70);
        uint32_t r = between(g, 4, 70);
        uint32_t block = round < 3 ? 0 : between(g, 1, 30);
        run_one(&t, 0, 0, 0, p, q, r, st[round % 3], elements[round % 2], block);
    }
    g_rand_free(g);
    ck_tally_assert(&t, "the 4x4 torus");
}
END_TEST

START_TEST(block_needs_a_or_b)
{
    g_autoptr(Scenario) s = mm_scenario(3, 2, 4, 8, 8, 8, "C", "double", 4);
    ck_refused_with(s, "block: applies to stationary A or B", NULL);
}
END_TEST

static Suite *matmul_ab_suite(void)
{
    Suite *s = suite_create("matmul_ab");
    TCase *tc = tcase_create("matmul_ab");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, random_cubes);
    tcase_add_test(tc, auto_choice);
    tcase_add_test(tc, torus);
    tcase_add_test(tc, block_needs_a_or_b);
    suite_add_tcase(s, tc);
    return s;
}

CUBE_CHECK_MAIN(matmul_ab_suite)
