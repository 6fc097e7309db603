/* check_matmul_ab.c -- matrix multiplication with A or B stationary
 * (Mathur & Johnsson 1992, Section 4.1; algorithms/matmul/stationary.c):
 * random shapes on random power-of-two arrays of cubes of dimension 2..6
 * and on a 4 x 4 torus, doubles and complex, stationary A, B and auto,
 * block sizes auto and random: every result exact, A and B at home, and
 * the exact neighbour counts, every shift one hop. Method cmssl
 * (nonsystolic.c, Sections 4.1 and 5): the same, with the trees' message
 * counts worked out here from their definition, and the local time as
 * one level-2 kernel call per vector of a block.
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
#include "kernel.h"

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


/* ---- method cmssl: the nonsystolic level-2 blocks ---------------------- */

static unsigned log2u(uint32_t x)
{
    unsigned b = 0;
    while (x > 1)
        x >>= 1, b++;
    return b;
}

/* Neighbour messages and elements of the spreads and reductions on a cube:
 * per block of nb, every node but a line's root receives (spread) or sends
 * (reduce) each of min(s, segment) parts once. */
static void cmssl_tree_counts(gboolean a, uint32_t nr, uint32_t nc,
                              uint64_t alpha, uint64_t gamma, uint64_t qa,
                              uint64_t qb, uint64_t nb, uint64_t *msgs,
                              uint64_t *elems)
{
    unsigned sb = log2u(a ? nr : nc), sr = log2u(a ? nc : nr);
    uint64_t xs = (a ? qa : qb) * nb, as = (a ? alpha : gamma) * nb;
    uint64_t slines = a ? nc : nr, rlines = a ? nr : nc;
    uint64_t sothers = (a ? nr : nc) - 1, rothers = (a ? nc : nr) - 1;
    *msgs += slines * sothers * MIN(sb, xs) + rlines * rothers * MIN(sr, as);
    *elems += slines * sothers * xs + rlines * rothers * as;
}

/* On the 4 x 4 torus one binomial tree per line of 4: step 0's partner
 * is one hop away (2 messages of the whole segment per line), step 1's
 * two (a router message); four lines spread, four reduce. */
static void cmssl_torus_neighbour(gboolean a, uint64_t alpha, uint64_t gamma,
                                  uint64_t qa, uint64_t qb, uint64_t nb,
                                  uint64_t *msgs, uint64_t *elems)
{
    uint64_t xs = (a ? qa : qb) * nb, as = (a ? alpha : gamma) * nb;
    *msgs += 4 * 2 + 4 * 2;
    *elems += 4 * 2 * xs + 4 * 2 * as;
}

static void cmssl_one(CkTally *t, int dims, uint32_t nr, uint32_t nc,
                      uint32_t p, uint32_t q, uint32_t r, const char *st,
                      const char *element, uint32_t block)
{
    char what[128];
    snprintf(what, sizeof what, "cmssl n=%d %ux%u %ux%ux%u %s %s b=%u", dims,
             nr, nc, p, q, r, st, element, block);
    g_autoptr(Scenario) s = mm_scenario(dims, nr, nc, p, q, r, st, element,
                                        block);
    scenario_put(s, "algorithm", "method", "cmssl", "test");
    GError *e = NULL;
    g_autoptr(Report) rep = run_scenario(s, NULL, &e);
    if (rep == NULL)
        ck_abort_msg("%s: %s", what, e ? e->message : "");
    ck_tally_true(t, rep->data_correct, "%s: data correct (%s)", what,
                  rep->data_problem);
    ck_tally_true(t, report_bounds_hold(rep), "%s: bounds hold", what);
    const char *ran = detail(rep, "stationary")->text;
    if (ran == NULL)
        ck_abort_msg("%s: stationary detail has no text", what);
    if (!strcmp(ran, "C"))
        return;                   /* the systolic program, tested above */
    gboolean a = !strcmp(ran, "A");
    ck_tally_str(t, "nonsystolic", detail(rep, "schedule")->text,
                 "%s: schedule", what);
    uint64_t ext = a ? r : p;
    uint64_t b = block ? block : a ? MIN(r, 64) : MIN(p, 32);
    b = MIN(b, ext);
    uint64_t blocks = (ext + b - 1) / b;
    ck_tally_int(t, (long long)b, detail(rep, "block")->i, "%s: block", what);
    ck_tally_int(t, (long long)blocks, detail(rep, "blocks")->i,
                 "%s: blocks", what);
    gboolean torus = dims <= 0;
    if (torus)
        nr = nc = 4;              /* the 4 x 4 torus */
    uint64_t alpha = (p + nr - 1) / nr, gamma = (r + nc - 1) / nc;
    uint64_t qa = (q + nc - 1) / nc, qb = (q + nr - 1) / nr;
    uint64_t msgs = 0, elems = 0;
    for (uint64_t j = 0; j < blocks; j++)
        if (torus)
            cmssl_torus_neighbour(a, alpha, gamma, qa, qb,
                                  MIN(b, ext - j * b), &msgs, &elems);
        else
            cmssl_tree_counts(a, nr, nc, alpha, gamma, qa, qb,
                              MIN(b, ext - j * b), &msgs, &elems);
    ck_tally_int(t, (long long)msgs, rep->class_messages[CLASS_NEIGHBOUR],
                 "%s: neighbour messages", what);
    ck_tally_int(t, (long long)elems, rep->class_elements[CLASS_NEIGHBOUR],
                 "%s: neighbour elements", what);
    ck_tally_int(t, rep->class_transfers[CLASS_NEIGHBOUR],
                 rep->class_elements[CLASS_NEIGHBOUR],
                 "%s: every tree step one hop", what);
}

START_TEST(cmssl_random_cubes)
{
    GRand *g = g_rand_new_with_seed(20261204);
    static const char *const st[] = { "A", "B", "auto" };
    CkTally t = CK_TALLY_INIT;
    for (int round = 0; round < 24; round++) {
        CubeProblem c = random_cube_problem(g);
        uint32_t block = g_rand_boolean(g) ? 0 : between(g, 1, 40);
        if (round % 3 == 2)
            block = 0;
        cmssl_one(&t, c.dims, c.nr, c.nc, c.p, c.q, c.r, st[round % 3],
                  elements[round / 3 % 2], block);
    }
    /* Shapes auto sends to A (P >= 8 R) and B (R >= 16 P). */
    cmssl_one(&t, 4, 4, 4, 64, 9, 3, "auto", "double", 0);
    cmssl_one(&t, 4, 2, 8, 3, 20, 60, "auto", "complex", 0);
    cmssl_one(&t, 5, 8, 4, 200, 40, 1, "auto", "double", 0);
    g_rand_free(g);
    ck_tally_assert(&t, "method cmssl on random cubes");
}
END_TEST

START_TEST(cmssl_torus)
{
    GRand *g = g_rand_new_with_seed(45);
    static const char *const st[] = { "A", "B" };
    CkTally t = CK_TALLY_INIT;
    for (int round = 0; round < 6; round++) {
        uint32_t p = between(g, 4, 70), q = between(g, 4, 70);
        uint32_t r = between(g, 4, 70);
        uint32_t block = round < 2 ? 0 : between(g, 1, 30);
        cmssl_one(&t, 0, 0, 0, p, q, r, st[round % 2], elements[round % 2],
                  block);
    }
    g_rand_free(g);
    ck_tally_assert(&t, "method cmssl on the 4x4 torus");
}
END_TEST

/* Section 5: level-2 kernels priced through Table 2. Table 6's 1024 x 1024
 * x 4 on the 256-node CM-200 runs A stationary in one block of 4 columns
 * on 16 x 16: four "matvec" calls of the 64 x 64 block a node. */
START_TEST(cmssl_level2_kernel_calls)
{
    g_autoptr(Scenario) s = scenario_new("test");
    scenario_put(s, "machine", "preset", "cm200-8k", "test");
    scenario_put(s, "algorithm", "name", "matmul", "test");
    scenario_put(s, "algorithm", "shape", "1024x1024x4", "test");
    scenario_put(s, "algorithm", "stationary", "auto", "test");
    scenario_put(s, "algorithm", "method", "cmssl", "test");
    scenario_put(s, "algorithm", "verify", "sample:64", "test");
    GError *e = NULL;
    g_autoptr(Report) rep = run_scenario(s, NULL, &e);
    if (rep == NULL)
        ck_abort_msg("%s", e ? e->message : "");
    ck_assert(rep->data_correct);
    ck_assert(report_bounds_hold(rep));
    ck_assert_str_eq(detail(rep, "stationary")->text, "A");
    ck_assert_str_eq(detail(rep, "processors")->text, "16x16");
    ck_assert_int_eq(detail(rep, "block")->i, 4);
    uint64_t shape[3] = { 64, 64, 0 };
    Tick one = kernel_ticks(&rep->machine, "matvec", shape, 2 * 64 * 64);
    ck_assert_int_gt(one, 0);
    ck_assert_int_eq(detail(rep, "local_cycles")->i, 4 * (long long)one);
}
END_TEST

static Suite *matmul_ab_suite(void)
{
    Suite *s = suite_create("matmul_ab");
    TCase *tc = ck_tcase(s, "matmul_ab", 120);
    tcase_add_test(tc, random_cubes);
    tcase_add_test(tc, auto_choice);
    tcase_add_test(tc, torus);
    tcase_add_test(tc, block_needs_a_or_b);
    tcase_add_test(tc, cmssl_random_cubes);
    tcase_add_test(tc, cmssl_torus);
    tcase_add_test(tc, cmssl_level2_kernel_calls);
    return s;
}

CUBE_CHECK_MAIN(matmul_ab_suite)
