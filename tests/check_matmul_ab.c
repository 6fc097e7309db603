/* check_matmul_ab.c -- matrix multiplication with A or B stationary
 * (Mathur & Johnsson 1992, Section 4.1; algorithms/matmul/stationary.c):
 * random shapes on random power-of-two arrays of cubes of dimension 2..6
 * and on a 4 x 4 torus, doubles and complex, stationary A, B and auto,
 * block sizes auto and random: every result exact, A and B at home, and
 * the exact neighbour counts, every shift one hop. */
#include "run.h"

#include <check.h>
#include "check_main.h"
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

/* One run: exact data, every bound, one hop per neighbour transfer, and
 * for A or B the shift counts of Section 4.1. */
static void run_one(int dims, uint32_t nr, uint32_t nc, uint32_t p,
                    uint32_t q, uint32_t r, const char *st,
                    const char *element, uint32_t block)
{
    g_autoptr(Scenario) s = mm_scenario(dims, nr, nc, p, q, r, st, element,
                                        block);
    GError *e = NULL;
    g_autoptr(Report) rep = run_scenario(s, NULL, &e);
    ck_assert_msg(rep != NULL, "n=%d %ux%u %ux%ux%u %s %s b=%u: %s", dims,
                  nr, nc, p, q, r, st, element, block, e ? e->message : "");
    ck_assert_msg(rep->data_correct, "n=%d %ux%u %ux%ux%u %s %s b=%u: %s",
                  dims, nr, nc, p, q, r, st, element, block,
                  rep->data_problem);
    ck_assert_msg(report_bounds_hold(rep), "n=%d %ux%u %ux%ux%u %s %s b=%u: "
                  "a bound fails", dims, nr, nc, p, q, r, st, element, block);
    ck_assert_int_eq(rep->class_elements[CLASS_NEIGHBOUR],
                     rep->class_transfers[CLASS_NEIGHBOUR]);
    const char *ran = detail(rep, "stationary")->text;
    if (!strcmp(st, "auto")) {
        const char *want = p >= 8 * r ? "A" : r >= 16 * p ? "B" : "C";
        ck_assert_str_eq(ran, want);
    } else {
        ck_assert_str_eq(ran, st);
    }
    if (!strcmp(ran, "C"))
        return;
    gboolean a = !strcmp(ran, "A");
    uint32_t gr = nr, gc = nc;
    if (!nr) {
        gr = gc = 4;
    }
    uint64_t want_block = block ? block : a ? MIN(r, 64) : MIN(p, 32);
    ck_assert_int_eq(detail(rep, "block")->i, (long long)want_block);
    uint64_t free_ext = a ? r : p;
    uint64_t blocks = (free_ext + want_block - 1) / want_block;
    ck_assert_int_eq(detail(rep, "blocks")->i, (long long)blocks);
    ck_assert_int_eq(detail(rep, "shifts_broadcast")->i,
                     (long long)(blocks * ((a ? gr : gc) - 1)));
    ck_assert_int_eq(detail(rep, "shifts_reduce")->i,
                     (long long)(blocks * ((a ? gc : gr) - 1)));
    ck_assert_int_eq(rep->class_messages[CLASS_NEIGHBOUR],
                     (long long)gr * gc * blocks * (gr - 1 + gc - 1));
}

static const char *const elements[] = { "double", "complex" };

START_TEST(random_cubes)
{
    GRand *g = g_rand_new_with_seed(20261123);
    static const char *const st[] = { "A", "B" };
    for (int round = 0; round < 20; round++) {
        int dims = (int)between(g, 2, 6);
        uint32_t rb = between(g, 0, (uint32_t)dims);
        uint32_t nr = 1u << rb, nc = 1u << (dims - rb);
        uint32_t p = between(g, nr, 70), r = between(g, nc, 70);
        uint32_t q = between(g, MAX(nr, nc), 70);
        uint32_t block = g_rand_boolean(g) ? 0 : between(g, 1, 40);
        run_one(dims, nr, nc, p, q, r, st[round % 2], elements[round / 2 % 2],
                block);
    }
    g_rand_free(g);
}
END_TEST

/* auto picks A when P >= 8 R, B when R >= 16 P, C otherwise. */
START_TEST(auto_choice)
{
    run_one(3, 4, 2, 64, 9, 7, "auto", "double", 0);
    run_one(3, 2, 4, 3, 11, 60, "auto", "complex", 0);
    run_one(3, 2, 4, 70, 5, 8, "auto", "complex", 0);
    run_one(4, 4, 4, 20, 20, 20, "auto", "double", 0);
    GRand *g = g_rand_new_with_seed(7);
    for (int round = 0; round < 8; round++) {
        int dims = (int)between(g, 2, 6);
        uint32_t rb = between(g, 0, (uint32_t)dims);
        uint32_t nr = 1u << rb, nc = 1u << (dims - rb);
        uint32_t p = between(g, nr, 70), r = between(g, nc, 70);
        uint32_t q = between(g, MAX(nr, nc), 70);
        run_one(dims, nr, nc, p, q, r, "auto", elements[round % 2], 0);
    }
    g_rand_free(g);
}
END_TEST

START_TEST(torus)
{
    GRand *g = g_rand_new_with_seed(44);
    static const char *const st[] = { "A", "B", "auto" };
    for (int round = 0; round < 6; round++) {
        uint32_t p = between(g, 4, 70), q = between(g, 4, 70);
        uint32_t r = between(g, 4, 70);
        uint32_t block = round < 3 ? 0 : between(g, 1, 30);
        run_one(0, 0, 0, p, q, r, st[round % 3], elements[round % 2], block);
    }
    g_rand_free(g);
}
END_TEST

static void refused(Scenario *s, const char *message)
{
    GError *e = NULL;
    ck_assert(run_scenario(s, NULL, &e) == NULL);
    ck_assert_int_eq(e->code, SCENARIO_ERROR_INPUT);
    ck_assert_msg(strstr(e->message, message), "%s", e->message);
    g_error_free(e);
}

START_TEST(block_needs_a_or_b)
{
    g_autoptr(Scenario) s = mm_scenario(3, 2, 4, 8, 8, 8, "C", "double", 4);
    refused(s, "block: applies to stationary A or B");
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
