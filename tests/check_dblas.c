/* check_dblas.c -- the level-2 DBLAS (Mathur & Johnsson 1992, Section 3):
 * matvec, vecmat and rank1 give exact results for random shapes and
 * processor arrays, double and complex, on cubes and tori; message counts
 * derived by hand; method combined (Section 3: align and spread, reduce
 * and align, each one router operation) exact on random shapes and counted
 * by hand; the auto array; kernels timed by name or by flop-time;
 * Mflop/s with tick-seconds; refusals name their key.
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

static const char *const routines[] = { "matvec", "vecmat", "rank1" };

static Scenario *db_scenario(const char *routine, uint64_t p, uint64_t q,
                             const char *processors, const char *element)
{
    Scenario *s = scenario_new("test");
    char buf[64];
    scenario_put(s, "algorithm", "name", routine, "test");
    g_snprintf(buf, sizeof buf, "%llux%llu", (unsigned long long)p,
               (unsigned long long)q);
    scenario_put(s, "algorithm", "shape", buf, "test");
    if (processors)
        scenario_put(s, "algorithm", "processors", processors, "test");
    if (element)
        scenario_put(s, "algorithm", "element", element, "test");
    return s;
}

static void on_cube(Scenario *s, unsigned dims)
{
    char buf[16];
    scenario_put(s, "machine", "preset", "cube", "test");
    g_snprintf(buf, sizeof buf, "%u", dims);
    scenario_put(s, "machine", "dimensions", buf, "test");
}

/* db_scenario on the DIMS-cube. */
static Scenario *cube_scenario(const char *routine, uint64_t p, uint64_t q,
                               const char *processors, const char *element,
                               unsigned dims)
{
    Scenario *s = db_scenario(routine, p, q, processors, element);
    on_cube(s, dims);
    return s;
}

static void on_torus(Scenario *s, uint32_t rows, uint32_t cols)
{
    char buf[32];
    scenario_put(s, "machine", "topology", "mesh", "test");
    if (rows > 1)
        g_snprintf(buf, sizeof buf, "%ux%u", rows, cols);
    else
        g_snprintf(buf, sizeof buf, "%u", cols);
    scenario_put(s, "machine", "shape", buf, "test");
    scenario_put(s, "machine", "wrap", "yes", "test");
}

/* Runs S: the data must be correct and every bound hold, asserted at once,
 * or into T when the caller loops (T not NULL). No report stops the test
 * either way: there is nothing to return. */
static Report *run_ok(Scenario *s, const char *what, CkTally *t)
{
    GError *e = NULL;
    Report *r = run_scenario(s, NULL, &e);
    if (t == NULL) {
        ck_assert_msg(r != NULL, "%s: %s", what, e ? e->message : "");
        ck_assert_msg(r->data_correct, "%s: %s", what,
                      r->data_problem ? r->data_problem : "?");
        ck_assert_msg(report_bounds_hold(r), "%s: a bound fails", what);
        return r;
    }
    if (r == NULL)
        ck_abort_msg("%s: %s", what, e ? e->message : "");
    ck_tally_true(t, r->data_correct, "%s: data correct (%s)", what,
                  r->data_problem ? r->data_problem : "?");
    ck_tally_true(t, report_bounds_hold(r), "%s: bounds hold", what);
    return r;
}

/* A random problem: every fourth trial a torus, the others a cube of
 * 1..6 dimensions as a random array; P >= N_r and Q >= N_c, sometimes
 * exactly (a vector shorter than N). */
typedef struct {
    gboolean torus;
    unsigned dims;
    uint32_t rows, cols;
    uint64_t p, q;
    char arr[32];
} DbProblem;

static DbProblem random_problem(GRand *g, int trial)
{
    DbProblem b = { .torus = trial % 4 == 3 };
    if (b.torus) {
        static const uint32_t shapes[][2] = {
            { 4, 8 }, { 2, 4 }, { 4, 4 }, { 8, 2 }, { 1, 8 }, { 2, 2 } };
        int k = g_rand_int_range(g, 0, 6);
        b.rows = shapes[k][0];
        b.cols = shapes[k][1];
    } else {
        b.dims = (unsigned)g_rand_int_range(g, 1, 7);
        unsigned rb = (unsigned)g_rand_int_range(g, 0, (int)b.dims + 1);
        b.rows = 1u << rb;
        b.cols = 1u << (b.dims - rb);
    }
    b.p = g_rand_boolean(g) ? b.rows
          : b.rows + (uint64_t)g_rand_int_range(g, 0, 3 * (int)b.rows + 5);
    b.q = g_rand_boolean(g) ? b.cols
          : b.cols + (uint64_t)g_rand_int_range(g, 0, 3 * (int)b.cols + 5);
    g_snprintf(b.arr, sizeof b.arr, "%ux%u", b.rows, b.cols);
    return b;
}

/* Random P >= N_r, Q >= N_c (sometimes exactly N_r, a vector shorter than
 * N), random arrays, every routine and element, on cubes of 1..6
 * dimensions and on tori. */
START_TEST(random_exact)
{
    GRand *g = g_rand_new_with_seed(20261123);
    CkTally t = CK_TALLY_INIT;
    for (int trial = 0; trial < 40; trial++) {
        DbProblem b = random_problem(g, trial);
        for (int r = 0; r < 3; r++)
            for (int cx = 0; cx < 2; cx++) {
                const char *el = cx ? "complex" : "double";
                g_autoptr(Scenario) s = db_scenario(routines[r], b.p, b.q, b.arr,
                                                    el);
                char seed[16];
                g_snprintf(seed, sizeof seed, "%d", trial + 7);
                scenario_put(s, "algorithm", "seed", seed, "test");
                if (b.torus)
                    on_torus(s, b.rows, b.cols);
                else
                    on_cube(s, b.dims);
                g_autofree char *what = g_strdup_printf(
                    "%s %s %llux%llu on %s %s", routines[r], el,
                    (unsigned long long)b.p, (unsigned long long)b.q, b.arr,
                    b.torus ? "torus" : "cube");
                g_autoptr(Report) rep = run_ok(s, what, &t);
                ck_tally_str(&t, b.arr, detail(rep, "processors")->text,
                             "%s: processors", what);
            }
    }
    g_rand_free(g);
    ck_tally_assert(&t, "random shapes and arrays");
}
END_TEST

/* 16 x 16 on a 4x4 array of the 4-cube: blocks of 4 x 4, vectors in
 * blocks of 1 (block h on node (h/4, h%4)). Counted by hand:
 *   matvec  align-x: x_j from (j/4, j%4) to (0, j/4), all but j = 0 move:
 *           15 router messages of 1; spread 4 columns and reduce 4 rows,
 *           each line's segment of 4 in min(2, 4) = 2 parts of 2 (the two
 *           rotated trees of the 2-cube axis), every non-root node of the
 *           line receiving (spread) or sending (reduce) each part once: 3 x
 *           2 messages per line, 48 neighbour messages, 96 elements;
 *           align-y: y_i from (i/4, 0) to (i/4, i%4): 12 move;
 *   vecmat  the same counts by symmetry (x_i to (i/4, 0): 12 move; y_j
 *           from (0, j/4): 15 move);
 *   rank1   x to column 0 (12), y to row 0 (15), two spreads of 24. */
START_TEST(message_counts)
{
    CkTally tl = CK_TALLY_INIT;
    for (int r = 0; r < 3; r++) {
        g_autoptr(Scenario) s = cube_scenario(routines[r], 16, 16, "4x4", NULL, 4);
        g_autoptr(Report) rep = run_ok(s, routines[r], &tl);
        ck_tally_uint(&tl, 27, rep->class_messages[CLASS_ROUTER], "%s: router messages",
                      routines[r]);
        ck_tally_uint(&tl, 27, rep->class_elements[CLASS_ROUTER], "%s: router elements",
                      routines[r]);
        ck_tally_uint(&tl, 48, rep->class_messages[CLASS_NEIGHBOUR], "%s: neighbour messages",
                      routines[r]);
        ck_tally_uint(&tl, 96, rep->class_elements[CLASS_NEIGHBOUR], "%s: neighbour elements",
                      routines[r]);
        /* Trees: log2 4 = 2 steps each. */
        const char *k1 = r < 2 ? "spread_steps" : "spread_x_steps";
        const char *k2 = r < 2 ? "reduce_steps" : "spread_y_steps";
        ck_tally_int(&tl, 2, detail(rep, k1)->i, "%s: %s", routines[r], k1);
        ck_tally_int(&tl, 2, detail(rep, k2)->i, "%s: %s", routines[r], k2);
    }
    ck_tally_assert(&tl, "16 x 16 on the 4x4 array of the 4-cube");
    /* The 4x4 torus: the trees' second step (2 positions away) is a
     * router message: per line of 4, 2 neighbour and 1 router message. */
    g_autoptr(Scenario) t = db_scenario("matvec", 16, 16, NULL, NULL);
    on_torus(t, 4, 4);
    g_autoptr(Report) rep = run_ok(t, "matvec torus", NULL);
    ck_assert_uint_eq(rep->class_messages[CLASS_NEIGHBOUR], 16);
    ck_assert_uint_eq(rep->class_elements[CLASS_NEIGHBOUR], 64);
    ck_assert_uint_eq(rep->class_messages[CLASS_ROUTER], 27 + 8);
    ck_assert_uint_eq(rep->class_elements[CLASS_ROUTER], 27 + 32);
}
END_TEST

/* A single spread step on the cube is Ts + count Tw: rank1 16x16 on a
 * 1x2 array of the 1-cube, every message one hop, is timed by hand. x (16) in blocks of 8:
 * x_0..7 on node (0,0), x_8..15 on (0,1) -> column 0: one router message
 * of 8 (1 hop: 8 cycles); y_0..7 home on (0,0) -> (0,0) (local), y_8..15
 * on (0,1) (local); spread-x: (0,0) sends its 16 to (0,1): 16 cycles;
 * no spread-y. Total 8 + 16 = 24. */
START_TEST(cycles_by_hand)
{
    g_autoptr(Scenario) s = cube_scenario("rank1", 16, 16, "1x2", NULL, 1);
    g_autoptr(Report) rep = run_ok(s, "rank1 1x2", NULL);
    ck_assert_int_eq(rep->cycles, 24);
    ck_assert_uint_eq(rep->class_messages[CLASS_ROUTER], 1);
    ck_assert_uint_eq(rep->class_messages[CLASS_NEIGHBOUR], 1);
    ck_assert_int_eq(detail(rep, "phase_spread_x_cycles")->i, 16);
}
END_TEST

/* The all-port spread on the cube: rank1 on 2^a x 2^b arrays of cubes of
 * 1..8 dimensions with segments shorter than, equal to and longer than
 * the axis's dimension count k (min(k, m) parts, uneven parts). rank1
 * checks every element of A + x y^T on every node, and every x_i y_j is
 * nonzero, so a part that misses a node (or lands at the wrong offset)
 * fails data = correct. The spreads' messages are counted: each part
 * reaches each non-root node of each line exactly once. */
START_TEST(spread_all_port)
{
    GRand *g = g_rand_new_with_seed(77);
    CkTally t = CK_TALLY_INIT;
    for (int trial = 0; trial < 30; trial++) {
        unsigned dims = (unsigned)g_rand_int_range(g, 1, 9);
        unsigned rb = (unsigned)g_rand_int_range(g, 0, (int)dims + 1);
        unsigned cb = dims - rb;
        uint32_t rows = 1u << rb, cols = 1u << cb;
        /* Segments: bp = ceil(P / rows) spread along a row (k = cb),
         * bq = ceil(Q / cols) down a column (k = rb). */
        uint64_t bp = (uint64_t)g_rand_int_range(g, 1, 2 * (int)dims + 4);
        uint64_t bq = (uint64_t)g_rand_int_range(g, 1, 2 * (int)dims + 4);
        uint64_t p = bp * rows - (uint64_t)g_rand_int_range(g, 0, 2) * (bp > 1);
        uint64_t q = bq * cols - (uint64_t)g_rand_int_range(g, 0, 2) * (bq > 1);
        if (p < rows)
            p = rows;
        if (q < cols)
            q = cols;
        char arr[32];
        g_snprintf(arr, sizeof arr, "%ux%u", rows, cols);
        g_autoptr(Scenario) s = cube_scenario("rank1", p, q, arr,
                                              trial % 3 ? "double" : "complex", dims);
        g_autofree char *what = g_strdup_printf("rank1 %llux%llu on %s",
                                                (unsigned long long)p,
                                                (unsigned long long)q, arr);
        g_autoptr(Report) rep = run_ok(s, what, &t);
        uint64_t sp = (uint64_t)detail(rep, "block_rows")->i;
        uint64_t sq = (uint64_t)detail(rep, "block_cols")->i;
        uint64_t px = cb ? MIN(cb, sp) : 0, py = rb ? MIN(rb, sq) : 0;
        ck_tally_int(&t, (int64_t)px, detail(rep, "spread_x_parts")->i,
                     "%s: spread-x parts", what);
        ck_tally_int(&t, (int64_t)py, detail(rep, "spread_y_parts")->i,
                     "%s: spread-y parts", what);
        ck_tally_uint(&t, (uint64_t)rows * (cols - 1) * px
                          + (uint64_t)cols * (rows - 1) * py,
                      rep->class_messages[CLASS_NEIGHBOUR], "%s: neighbour messages", what);
        ck_tally_uint(&t, (uint64_t)rows * (cols - 1) * sp
                          + (uint64_t)cols * (rows - 1) * sq,
                      rep->class_elements[CLASS_NEIGHBOUR], "%s: neighbour elements", what);
    }
    g_rand_free(g);
    ck_tally_assert(&t, "all-port spreads");
}
END_TEST

/* All ports at once: a segment of m = 6000 spread along the 6-cube (rank1
 * 6000 x 64 on 1x64, matvec 64 x 6000 on 64x1) takes about 6 steps of m/6
 * = 1000 element times, not the single tree's 6 m = 36000; the reduce of
 * vecmat 64 x 6000 on 64x1 likewise. The phases also hold the align's skew (nodes that finish
 * their align early wait in the tree), hence the slack. */
START_TEST(spread_reduce_use_all_ports)
{
    /* ROUTINE P x Q on the 6-cube's ARRAY: 6 PARTS, and PHASE (WHAT) within
     * [m, 2 m) for m = 6000; ZERO_PARTS, if given, 0. */
    static const struct {
        const char *routine;
        uint64_t p, q;
        const char *array, *parts, *zero_parts, *phase, *what;
    } cases[] = {
        { "rank1", 6000, 64, "1x64", "spread_x_parts", NULL,
          "phase_spread_x_cycles", "spread-x" },
        { "matvec", 64, 6000, "64x1", "spread_parts", "reduce_parts",
          "phase_spread_x_cycles", "matvec spread-x" },
        { "vecmat", 64, 6000, "64x1", "reduce_parts", NULL,
          "phase_reduce_y_cycles", "reduce-y" },
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(Scenario) s = cube_scenario(cases[i].routine, cases[i].p,
                                              cases[i].q, cases[i].array, NULL, 6);
        g_autofree char *what = g_strdup_printf(
            "%s %llux%llu on %s", cases[i].routine, (unsigned long long)cases[i].p,
            (unsigned long long)cases[i].q, cases[i].array);
        g_autoptr(Report) rep = run_ok(s, what, NULL);
        ck_assert_msg(detail(rep, cases[i].parts)->i == 6, "%s: %s %lld, expected 6",
                      what, cases[i].parts, (long long)detail(rep, cases[i].parts)->i);
        if (cases[i].zero_parts)
            ck_assert_msg(detail(rep, cases[i].zero_parts)->i == 0, "%s: %s %lld, "
                          "expected 0", what, cases[i].zero_parts,
                          (long long)detail(rep, cases[i].zero_parts)->i);
        int64_t t = detail(rep, cases[i].phase)->i;
        ck_assert_msg(t >= 6000 && t < 2 * 6000, "%s took %lld", cases[i].what,
                      (long long)t);
    }
}
END_TEST

START_TEST(auto_array)
{
    g_autoptr(Scenario) a = cube_scenario("matvec", 40, 24, NULL, NULL, 6);
    g_autoptr(Report) ra = run_ok(a, "auto 40x24", NULL);
    ck_assert_str_eq(detail(ra, "processors")->text, "8x8");
    ck_assert_str_eq(detail(ra, "processors_chosen")->text, "auto");
    /* P/Q = 8 = 2^3 on 64 nodes: 16x4 and 32x2 are both 1 away; the tie
     * goes to more rows. */
    g_autoptr(Scenario) b = cube_scenario("rank1", 64, 8, "auto", NULL, 6);
    g_autoptr(Report) rb = run_ok(b, "auto 64x8", NULL);
    ck_assert_str_eq(detail(rb, "processors")->text, "32x2");
    /* Square: square. */
    g_autoptr(Scenario) c = db_scenario("vecmat", 512, 512, NULL, NULL);
    scenario_put(c, "machine", "preset", "cm200-8k", "test");
    g_autoptr(Report) rc = run_ok(c, "auto 512", NULL);
    ck_assert_str_eq(detail(rc, "processors")->text, "16x16");
}
END_TEST

/* A sample of Table 1 within issue #52's 15%, the CM-200 model's
 * constants coming from Tables 2 and 5 only (every cell is in
 * algorithms/matmul/README.md, generated by tools/cm200-tables.py). */
START_TEST(table1_sample_within_15_percent)
{
    static const struct {
        const char *routine, *preset;
        uint64_t p;
        double paper;
    } cells[] = {
        { "matvec", "cm200-64k", 4096, 0.0144 },
        { "vecmat", "cm200-8k", 2048, 0.0169 },
        { "rank1", "cm200-32k", 2048, 0.0110 },
    };
    CkTally t = CK_TALLY_INIT;
    for (size_t i = 0; i < G_N_ELEMENTS(cells); i++) {
        g_autoptr(Scenario) s = db_scenario(cells[i].routine, cells[i].p,
                                            cells[i].p, "auto", NULL);
        scenario_put(s, "machine", "preset", cells[i].preset, "test");
        g_autoptr(Report) r = run_ok(s, cells[i].routine, &t);
        double ratio = (double)r->cycles * r->machine.tick_seconds
                       / cells[i].paper;
        ck_tally_true(&t, ratio >= 0.85 && ratio <= 1.15,
                      "Table 1 %s %llu on %s: %.3f of the paper's %g s",
                      cells[i].routine, (unsigned long long)cells[i].p,
                      cells[i].preset, ratio, cells[i].paper);
    }
    ck_tally_assert(&t, "Table 1 sampled within 15%%");
}
END_TEST

/* matvec and rank1 by their kernel rates, vecmat by flop-time when the
 * machine has no rate for it; the flops and Mflop/s details. */
START_TEST(kernels_and_mflops)
{
    CkTally t = CK_TALLY_INIT;
    for (int r = 0; r < 3; r++) {
        g_autoptr(Scenario) s = cube_scenario(routines[r], 12, 20, "2x4", NULL, 3);
        scenario_put(s, "machine", "kernel.matvec", "per-flop:3", "test");
        scenario_put(s, "machine", "kernel.rank1", "per-flop:5", "test");
        scenario_put(s, "machine", "flop-time", "2", "test");
        scenario_put(s, "machine", "tick-seconds", "1e-6", "test");
        g_autoptr(Report) rep = run_ok(s, routines[r], &t);
        /* blocks 6 x 5: 60 flops per node */
        long long per_flop = r == 0 ? 3 : r == 1 ? 2 : 5;
        unsigned local = r < 2 ? 2 : 4;
        ck_tally_str(&t, routines[r], rep->phase_name[local], "%s: phase %u", routines[r],
                     local);
        ck_tally_int(&t, 60 * per_flop, rep->phase[local].compute_max,
                     "%s: local phase compute", routines[r]);
        double flops = 2.0 * 12 * 20;
        ck_tally_double(&t, flops, detail(rep, "flops")->d, "%s: flops", routines[r]);
        double want = flops / ((double)rep->cycles * 1e-6) / 1e6;
        double mflops = detail(rep, "mflops")->d;
        ck_tally_true(&t, fabs(mflops - want) < 1e-9 * want, "%s: mflops %g != %g",
                      routines[r], mflops, want);
    }
    ck_tally_assert(&t, "kernel times and Mflop/s");
    g_autoptr(Scenario) c = cube_scenario("matvec", 12, 20, "2x4", "complex", 3);
    g_autoptr(Report) rc = run_ok(c, "complex flops", NULL);
    ck_assert(detail(rc, "flops")->d == 4 * 2.0 * 12 * 20);
}
END_TEST

START_TEST(refusals)
{
    static const struct {
        const char *routine;
        uint64_t p, q;
        const char *processors;
        unsigned dims;              /* the cube's; 0: the 4x8 torus */
        const char *shape;          /* put over PxQ, unless NULL */
        const char *message;
    } cases[] = {
        { "matvec", 3, 64, "4x2", 3, NULL,
          "test: shape: P = 3 is less than the N_r = 4 processor rows" },
        { "rank1", 64, 1, "4x2", 3, NULL,
          "test: shape: Q = 1 is less than the N_c = 2 processor columns" },
        { "vecmat", 64, 64, "4x4", 3, NULL,
          "test: processors: processor array 4x4 has 16 processors; the "
          "machine has 8 nodes" },
        { "matvec", 64, 64, "3x4", 3, NULL,
          "test: processors: 3x4: both extents must be powers of two" },
        { "matvec", 64, 64, "8x4", 0, NULL,
          "test: processors: processor array 8x4 does not match the mesh" },
        { "matvec", 64, 64, NULL, 3, "64by64",
          "test: shape: '64by64' is not PxQ" },
        { "matvec", 2, 2, NULL, 3, NULL,
          "test: shape: 2x2 fits no processor array of the 8 nodes" },
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(Scenario) s = db_scenario(cases[i].routine, cases[i].p,
                                            cases[i].q, cases[i].processors, NULL);
        if (cases[i].shape)
            scenario_put(s, "algorithm", "shape", cases[i].shape, "test");
        if (cases[i].dims)
            on_cube(s, cases[i].dims);
        else
            on_torus(s, 4, 8);
        ck_refused_with(s, cases[i].message, NULL);
    }
}
END_TEST


/* Method combined, random problems as random_exact's: every result exact,
 * every bound (the router's exact counts) holding, nothing sent to a
 * neighbour but through the router. */
START_TEST(combined_random_exact)
{
    GRand *g = g_rand_new_with_seed(20261204);
    CkTally t = CK_TALLY_INIT;
    for (int trial = 0; trial < 24; trial++) {
        DbProblem b = random_problem(g, trial);
        for (int r = 0; r < 3; r++) {
            const char *el = (trial + r) % 2 ? "complex" : "double";
            g_autoptr(Scenario) s = db_scenario(routines[r], b.p, b.q, b.arr,
                                                el);
            scenario_put(s, "algorithm", "method", "combined", "test");
            if (b.torus)
                on_torus(s, b.rows, b.cols);
            else
                on_cube(s, b.dims);
            g_autofree char *what = g_strdup_printf(
                "combined %s %s %llux%llu on %s %s", routines[r], el,
                (unsigned long long)b.p, (unsigned long long)b.q, b.arr,
                b.torus ? "torus" : "cube");
            g_autoptr(Report) rep = run_ok(s, what, &t);
            ck_tally_uint(&t, 0, rep->class_messages[CLASS_NEIGHBOUR],
                          "%s: no neighbour messages", what);
        }
    }
    g_rand_free(g);
    ck_tally_assert(&t, "method combined, random shapes and arrays");
}
END_TEST

/* 16 x 16 on the 4x4 array of the 4-cube, vectors in blocks of 1 (x_j
 * home on node (j/4, j%4)), method combined, counted by hand:
 *   matvec  x_j to the 4 nodes (i, j/4) of column j/4: its home is one of
 *           them when j%4 == j/4 (j = 0, 5, 10, 15): 64 - 4 = 60; y_i
 *           from the 4 nodes (i/4, m) of row i/4 to its home (i/4, i%4),
 *           always one of them: 64 - 16 = 48; 108 router messages of one
 *           element;
 *   vecmat  x_i to row i/4 (48), y_j from column j/4 (60): 108;
 *   rank1   x to rows (48), y to columns (60): 108. */
START_TEST(combined_message_counts)
{
    CkTally tl = CK_TALLY_INIT;
    for (int r = 0; r < 3; r++) {
        g_autoptr(Scenario) s = cube_scenario(routines[r], 16, 16, "4x4", NULL, 4);
        scenario_put(s, "algorithm", "method", "combined", "test");
        g_autoptr(Report) rep = run_ok(s, routines[r], &tl);
        ck_tally_uint(&tl, 108, rep->class_messages[CLASS_ROUTER],
                      "%s: router messages", routines[r]);
        ck_tally_uint(&tl, 108, rep->class_elements[CLASS_ROUTER],
                      "%s: router elements", routines[r]);
        ck_tally_uint(&tl, 0, rep->class_messages[CLASS_NEIGHBOUR],
                      "%s: neighbour messages", routines[r]);
    }
    ck_tally_assert(&tl, "combined, 16 x 16 on the 4x4 array of the 4-cube");
}
END_TEST

static Suite *dblas_suite(void)
{
    Suite *s = suite_create("dblas");
    TCase *t = ck_tcase(s, "dblas", 120);
    tcase_add_test(t, random_exact);
    tcase_add_test(t, combined_random_exact);
    tcase_add_test(t, combined_message_counts);
    tcase_add_test(t, message_counts);
    tcase_add_test(t, cycles_by_hand);
    tcase_add_test(t, spread_all_port);
    tcase_add_test(t, spread_reduce_use_all_ports);
    tcase_add_test(t, auto_array);
    tcase_add_test(t, kernels_and_mflops);
    tcase_add_test(t, table1_sample_within_15_percent);
    tcase_add_test(t, refusals);
    return s;
}

CUBE_CHECK_MAIN(dblas_suite)
