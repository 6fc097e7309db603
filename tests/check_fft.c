/* check_fft.c -- m-d FFT communication on k-d meshes (Mou & Wang).
 *
 * Asserted: Figure 3's identical mapping and Figure 5's 2-3 shuffle of a
 * 64 x 64 index set on the 16 x 16 x 16 mesh, step by step, cost 45 and
 * 45 measured cycles; the shuffle's permutation is the card dealing of
 * Section 5 (Theorem 10); on random index shapes, mesh shapes (the cube
 * among them), bit permutations and orders, the mapping is a bijection,
 * every step is one sd(i, 2^j), the cost is the diameter (Theorem 18) and
 * the measured cycles equal the cost, and (timed through the engine's
 * observer) every step sd(i, w) takes exactly w cycles; real FFTs match the direct DFT and
 * FFTW within 1e-9 in both orders; broadcasts from random sources take
 * the diameter (Lemmas 3-5, Theorem 6); refusals with exact messages.
 */
#include "run.h"

#include <check.h>
#include "check_main.h"
#include "check_run.h"
#include "report_json.h"
#include <string.h>

/* Columns of details.steps. */
enum { COL_AXIS, COL_BIT, COL_DIMENSION, COL_DISTANCE, COL_CYCLES, COLUMNS };

/* The largest random problems: 2^10 nodes keep the suite quick. */
#define RANDOM_MAX_BITS 10
#define RANDOM_TRIALS 200

/* ALGORITHM on SHAPE on MESH: "cube:N", the N-cube, or a mesh's shape
 * (no wrap, all ports, no startup, one cycle an element). */
static Scenario *fft_scenario(const char *mesh, const char *algorithm,
                              const char *shape)
{
    const char *dims = g_str_has_prefix(mesh, "cube:") ? mesh + strlen("cube:")
                                                       : NULL;
    const char *const rows[][3] = {
        { "machine", "preset", dims ? "cube" : NULL },
        { "machine", "dimensions", dims },
        { "machine", "topology", dims ? NULL : "mesh" },
        { "machine", "shape", dims ? NULL : mesh },
        { "machine", "wrap", dims ? NULL : "no" },
        { "machine", "ports", dims ? NULL : "all" },
        { "machine", "startup", dims ? NULL : "0" },
        { "machine", "element-time", dims ? NULL : "1" },
        { "algorithm", "name", algorithm },
        { "algorithm", "shape", shape },
        { NULL },
    };
    return ck_scenario(rows);
}

/* An FFT of SHAPE on MESH with a mapping and an order (pre, post). */
typedef struct {
    const char *mesh, *shape, *mapping, *order;
} FftCase;

static Scenario *fft_case(const FftCase *c)
{
    Scenario *s = fft_scenario(c->mesh, "fft", c->shape);
    scenario_put(s, "algorithm", "mapping", c->mapping, "test");
    scenario_put(s, "algorithm", "order", c->order, "test");
    return s;
}

/* details.steps of a report, checked once to be rows: the tests read it
 * field by field in loops over steps. */
static const Detail *steps_of(const Report *r)
{
    const Detail *d = detail(r, "steps");
    ck_assert_int_eq(d->type, DETAIL_ROWS);
    return d;
}

/* A field of one step. Read in loops, so the bound is checked in plain C
 * (no assertion write per read); a read past the table still stops the
 * test before it happens. */
static long long step_field(const Detail *steps, guint step, int column)
{
    guint at = step * COLUMNS + (guint)column;
    if (at >= steps->list->len)
        ck_abort_msg("step %u column %d: details.steps has %u steps", step,
                     column, steps->list->len / COLUMNS);
    return g_array_index(steps->list, long long, at);
}

/* Figures 3 and 5 as (mesh dimension, distance), p = 0 then p = 1, q
 * ascending: the postmorphism order. */
static void assert_figure(const char *mapping, const int want[12][2])
{
    g_autoptr(Scenario) s = fft_scenario("16x16x16", "fft", "64x64");
    scenario_put(s, "algorithm", "mapping", mapping, "test");
    g_autoptr(Report) r = run_scenario(s, NULL, NULL);
    ck_assert(r && r->data_correct && report_bounds_hold(r));
    const Detail *steps = steps_of(r);
    ck_assert_uint_eq(steps->list->len, 12 * COLUMNS);
    CkTally tl = CK_TALLY_INIT;
    for (guint t = 0; t < 12; t++) {
        ck_tally_int(&tl, t / 6, step_field(steps, t, COL_AXIS), "step %u axis", t);
        ck_tally_int(&tl, t % 6, step_field(steps, t, COL_BIT), "step %u bit", t);
        ck_tally_int(&tl, want[t][0], step_field(steps, t, COL_DIMENSION),
                     "step %u dimension", t);
        ck_tally_int(&tl, want[t][1], step_field(steps, t, COL_DISTANCE),
                     "step %u distance", t);
        ck_tally_int(&tl, want[t][1], step_field(steps, t, COL_CYCLES),
                     "step %u cycles", t);
    }
    ck_tally_assert(&tl, "%s mapping: the figure's steps", mapping);
    ck_assert_int_eq(detail(r, "cost")->i, 45);
    ck_assert_int_eq(r->cycles, 45);
}

/* Figure 3's identical mapping and Figure 5's shuffle. */
static const struct {
    const char *mapping;
    int steps[12][2];
} figures[] = {
    { "identical", {
        { 0, 1 }, { 0, 2 }, { 0, 4 }, { 0, 8 }, { 1, 1 }, { 1, 2 },
        { 1, 4 }, { 1, 8 }, { 2, 1 }, { 2, 2 }, { 2, 4 }, { 2, 8 } } },
    { "shuffle", {
        { 0, 1 }, { 1, 1 }, { 2, 1 }, { 0, 4 }, { 1, 4 }, { 2, 4 },
        { 0, 2 }, { 1, 2 }, { 2, 2 }, { 0, 8 }, { 1, 8 }, { 2, 8 } } },
};

START_TEST(figures_3_and_5)
{
    assert_figure(figures[_i].mapping, figures[_i].steps);
}
END_TEST

/* Section 5's card dealing, independent of Theorem 10's formula: m
 * dealers hold n/m cards each (dealer j: cards j n/m ...), deal k at a
 * time to the k gamblers in turn, and the gamblers' piles are stacked,
 * gambler 0 first. Card x lands at position pos[x]. */
static void deal(int n, int m, int k, int *pos)
{
    int w1 = n / m, w2 = n / k;
    int next[TOPOLOGY_MAX_AXES] = { 0 };      /* next card of each dealer */
    int pile[TOPOLOGY_MAX_AXES] = { 0 };      /* cards each gambler holds */
    for (int dealt = 0; dealt < n;)
        for (int j = 0; j < m; j++)
            for (int g = 0; g < k; g++, dealt++)
                pos[j * w1 + next[j]++] = g * w2 + pile[g]++;
}

START_TEST(shuffle_is_the_dealing)
{
    static const struct { const char *mesh, *shape; int n, m, k; } cases[] = {
        { "16x16x16", "64x64", 12, 2, 3 },
        { "4x4x4x4x4x4", "64x64", 12, 2, 6 },
        { "64", "8x8", 6, 2, 1 },                  /* the perfect shuffle */
        { "8x8", "4x4x4", 6, 3, 2 },
        { "cube:4", "16", 4, 1, 4 },
    };
    CkTally tl = CK_TALLY_INIT;
    for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
        g_autoptr(Scenario) s = fft_scenario(cases[c].mesh, "fft",
                                             cases[c].shape);
        scenario_put(s, "algorithm", "mapping", "shuffle", "test");
        g_autoptr(Report) r = run_scenario(s, NULL, NULL);
        ck_tally_true(&tl, r != NULL, "%s: runs", cases[c].mesh);
        if (!r)
            continue;
        int pos[TOPOLOGY_MAX_AXES];
        deal(cases[c].n, cases[c].m, cases[c].k, pos);
        const Detail *d = detail(r, "permutation");
        /* n index bits, so that the positions below are inside the list */
        ck_tally_uint(&tl, cases[c].n, d->list->len, "%s: permutation length",
                      cases[c].mesh);
        if (d->list->len != (guint)cases[c].n)
            continue;
        for (int x = 0; x < cases[c].n; x++)
            ck_tally_int(&tl, x, g_array_index(d->list, long long, pos[x]),
                         "%s %s: permutation[%d]", cases[c].mesh,
                         cases[c].shape, pos[x]);
    }
    ck_tally_assert(&tl, "the shuffles' permutations");
}
END_TEST

/* "S_{k-1}x...xS_0" from log2 sides, axis 0 last. */
static char *shape_text(const int *bits, int k)
{
    GString *t = g_string_new(NULL);
    for (int i = k - 1; i >= 0; i--)
        g_string_append_printf(t, "%u%s", 1u << bits[i], i ? "x" : "");
    return g_string_free(t, FALSE);
}

/* Split n bits into 1..n parts of at least one bit each. */
static int random_split(GRand *g, int n, int *bits)
{
    int k = g_rand_int_range(g, 1, n + 1);
    for (int i = 0; i < k; i++)
        bits[i] = 1;
    for (int rest = n - k; rest > 0; rest--)
        bits[g_rand_int_range(g, 0, k)]++;
    return k;
}

static char *random_permutation(GRand *g, int n, int *perm)
{
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = g_rand_int_range(g, 0, i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    GString *t = g_string_new("permutation:");
    for (int i = 0; i < n; i++)
        g_string_append_printf(t, "%s%d", i ? "," : "", perm[i]);
    return g_string_free(t, FALSE);
}

/* One random case: the mapping is a bijection (address bit y holds index
 * bit p_y, a permutation), each step C(p, q) is sd(i, 2^j) for the address
 * bit holding index bit (p, q), the cost is the diameter, the cycles the
 * cost, and the data (placeholders or a real FFT) verified. Compared into
 * T, which the test asserts after its trials; a failure that leaves nothing
 * to read further (no report, no steps table) ends the case there. Every
 * draw from G comes before the run, so later trials are the same either
 * way. */
static void random_case(GRand *g, gboolean compute, int trial, CkTally *t)
{
    int n = g_rand_int_range(g, 1, RANDOM_MAX_BITS + 1);
    int abits[TOPOLOGY_MAX_AXES], sbits[TOPOLOGY_MAX_AXES];
    int perm[TOPOLOGY_MAX_AXES];
    int m = random_split(g, n, abits), k = random_split(g, n, sbits);
    gboolean cube = g_rand_boolean(g);
    g_autofree char *shape = shape_text(abits, m);
    g_autofree char *mesh = cube ? g_strdup_printf("cube:%d", n)
                                 : shape_text(sbits, k);
    if (cube)
        for (k = 0; k < n; k++)
            sbits[k] = 1;
    g_autofree char *mapping = random_permutation(g, n, perm);
    gboolean pre = g_rand_boolean(g);
    g_autoptr(Scenario) s = fft_scenario(mesh, "fft", shape);
    scenario_put(s, "algorithm", "mapping", mapping, "test");
    scenario_put(s, "algorithm", "order", pre ? "pre" : "post", "test");
    if (compute) {
        scenario_put(s, "algorithm", "compute", "fft", "test");
        g_autofree char *seed = g_strdup_printf("%u", g_rand_int(g));
        scenario_put(s, "algorithm", "seed", seed, "test");
    }
    g_autoptr(Report) r = ck_tally_run(t, s, NULL, "trial %d: %s on %s", trial,
                                       shape, mesh);
    if (!r)
        return;
    ck_tally_true(t, r->data_correct, "trial %d: %s on %s %s %s: %s", trial,
                  shape, mesh, mapping, pre ? "pre" : "post", r->data_problem);

    /* A bijection: the index bits p_y are all different, so distinct
     * indices land on distinct nodes; enumerate to be sure. */
    uint32_t nodes = 1u << n;
    g_autofree guint8 *hit = g_new0(guint8, nodes);
    for (uint32_t v = 0; v < nodes; v++) {
        uint32_t u = 0;
        for (int y = 0; y < n; y++)
            u |= ((v >> perm[y]) & 1u) << y;
        ck_tally_true(t, !hit[u], "trial %d: %s: index %u lands on node %u, "
                      "already hit", trial, mapping, v, u);
        hit[u] = 1;
    }

    int aoff[TOPOLOGY_MAX_AXES + 1] = { 0 }, soff[TOPOLOGY_MAX_AXES + 1] = { 0 };
    long long diameter = 0;
    for (int p = 0; p < m; p++)
        aoff[p + 1] = aoff[p] + abits[p];
    for (int i = 0; i < k; i++) {
        soff[i + 1] = soff[i] + sbits[i];
        diameter += (1LL << sbits[i]) - 1;
    }
    /* one step C(p, q) per index bit: n rows, so that the loop below reads
     * inside the table */
    const Detail *steps = detail(r, "steps");
    ck_tally_int(t, DETAIL_ROWS, steps->type, "trial %d: details.steps type",
                 trial);
    if (steps->type != DETAIL_ROWS)
        return;
    ck_tally_uint(t, (guint)n * COLUMNS, steps->list->len,
                  "trial %d: %s on %s: details.steps fields", trial, shape, mesh);
    if (steps->list->len != (guint)n * COLUMNS)
        return;
    long long cost = 0;
    guint st = 0;
    for (int p = 0; p < m; p++)
        for (int r0 = 0; r0 < abits[p]; r0++, st++) {
            int q = pre ? abits[p] - 1 - r0 : r0;
            ck_tally_int(t, p, step_field(steps, st, COL_AXIS),
                         "trial %d: %s on %s %s: step %u axis", trial, shape,
                         mesh, mapping, st);
            ck_tally_int(t, q, step_field(steps, st, COL_BIT),
                         "trial %d: %s on %s %s: step %u bit", trial, shape,
                         mesh, mapping, st);
            int y = 0;
            while (perm[y] != aoff[p] + q)
                y++;
            int i = 0;
            while (soff[i + 1] <= y)
                i++;
            ck_tally_int(t, i, step_field(steps, st, COL_DIMENSION),
                         "trial %d: %s on %s %s: step %u dimension", trial,
                         shape, mesh, mapping, st);
            ck_tally_int(t, 1LL << (y - soff[i]),
                         step_field(steps, st, COL_DISTANCE),
                         "trial %d: %s on %s %s: step %u distance", trial,
                         shape, mesh, mapping, st);
            cost += step_field(steps, st, COL_DISTANCE);
        }
    ck_tally_int(t, cost, detail(r, "cost")->i, "trial %d: %s on %s %s: "
                 "details.cost", trial, shape, mesh, mapping);
    ck_tally_int(t, diameter, cost, "trial %d: %s on %s %s: cost, the "
                 "diameter (Theorem 18)", trial, shape, mesh, mapping);
    ck_tally_int(t, cost, r->cycles, "trial %d: %s on %s %s: cycles, the "
                 "cost (sd(i, w): w cycles)", trial, shape, mesh, mapping);
    ck_tally_true(t, report_bounds_hold(r), "trial %d: %s on %s %s: bounds "
                  "hold", trial, shape, mesh, mapping);
}

/* RANDOM_TRIALS random cases (WHAT) from SEED, asserted once. */
static void random_cases(guint32 seed, gboolean compute, const char *what)
{
    g_autoptr(GRand) g = g_rand_new_with_seed(seed);
    CkTally t = CK_TALLY_INIT;
    for (int trial = 0; trial < RANDOM_TRIALS; trial++)
        random_case(g, compute, trial, &t);
    ck_tally_assert(&t, "%d %s, seed %u", RANDOM_TRIALS, what, seed);
}

START_TEST(random_permutations_cost_the_diameter)
{
    random_cases(13, FALSE, "random mappings");
}
END_TEST

START_TEST(random_ffts_match_the_reference)
{
    random_cases(1993, TRUE, "random FFTs");
}
END_TEST

/* Above the direct DFT's limit the reference is FFTW: 2^11 and 2^12
 * points, a 3-d index set, both orders, identical and shuffle. */
START_TEST(large_ffts_match_fftw)
{
    static const FftCase cases[] = {
        { "16x16x8", "16x8x16", "identical", "post" },
        { "16x16x8", "16x8x16", "identical", "pre" },
        { "16x16x16", "64x64", "shuffle", "pre" },
        { "cube:12", "16x16x16", "permutation:11,10,9,8,7,6,5,4,3,2,1,0", "post" },
    };
    CkTally t = CK_TALLY_INIT;
    for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
        g_autoptr(Scenario) s = fft_case(&cases[c]);
        scenario_put(s, "algorithm", "compute", "fft", "test");
        g_autoptr(Report) r = ck_tally_run(&t, s, NULL, "%s", cases[c].mesh);
        if (!r)
            continue;
        ck_tally_true(&t, r->data_correct, "%s %s: %s", cases[c].shape,
                      cases[c].order, r->data_problem);
        ck_tally_int(&t, detail(r, "mesh_diameter")->i, r->cycles,
                     "%s %s on %s: cycles, the diameter", cases[c].shape,
                     cases[c].order, cases[c].mesh);
    }
    ck_tally_assert(&t, "large FFTs against FFTW");
}
END_TEST

START_TEST(broadcasts_take_the_diameter)
{
    g_autoptr(GRand) g = g_rand_new_with_seed(6);
    CkTally t = CK_TALLY_INIT;
    for (int trial = 0; trial < RANDOM_TRIALS / 2; trial++) {
        int abits[TOPOLOGY_MAX_AXES], sbits[TOPOLOGY_MAX_AXES];
        int n = g_rand_int_range(g, 1, RANDOM_MAX_BITS + 1);
        int m = random_split(g, n, abits), k = random_split(g, n, sbits);
        g_autofree char *shape = shape_text(abits, m);
        g_autofree char *mesh = shape_text(sbits, k);
        GString *src = g_string_new(NULL);
        for (int p = m - 1; p >= 0; p--)
            g_string_append_printf(src, "%u%s",
                                   g_rand_int_range(g, 0, 1 << abits[p]),
                                   p ? "," : "");
        g_autoptr(Scenario) s = fft_scenario(mesh, "fft-broadcast", shape);
        scenario_put(s, "algorithm", "source", src->str, "test");
        g_autoptr(Report) r = run_scenario(s, NULL, NULL);
        ck_tally_true(&t, r && r->data_correct, "trial %d: %s from %s on %s: "
                      "runs, data correct", trial, shape, src->str, mesh);
        long long diameter = 0;
        for (int i = 0; i < k; i++)
            diameter += (1LL << sbits[i]) - 1;
        if (r)
            ck_tally_true(&t, r->cycles == diameter, "trial %d: %s from %s on "
                          "%s: %lld cycles, diameter %lld", trial, shape,
                          src->str, mesh, (long long)r->cycles, diameter);
        g_string_free(src, TRUE);
    }
    ck_tally_assert(&t, "%d broadcasts, seed 6", RANDOM_TRIALS / 2);
}
END_TEST

/* Per-step timing from the engine's observer: a message's tag is its FFT
 * step; a step spans from its first message's posting to the end of its
 * last element's last hop. */
#define STEP_MAX TOPOLOGY_MAX_AXES
typedef struct {
    Tick first_posted[STEP_MAX], last_end[STEP_MAX];
    CkTally *tally;         /* the test's: the observer runs per channel use */
    const char *what;       /* the case, for its messages */
} StepTimes;

static void step_channel_busy(void *data, const SimMessage *m, uint32_t node,
                              int link, uint64_t first, uint64_t count,
                              Tick start)
{
    (void)first;
    StepTimes *t = data;
    /* the tag indexes the arrays: a tag out of range fails the test (the
     * tally, asserted after the run) and is not recorded */
    ck_tally_true(t->tally, m->tag >= 0 && m->tag < STEP_MAX, "%s: message "
                  "%llu on node %u link %d: tag %d, a step below %d", t->what,
                  (unsigned long long)m->id, node, link, m->tag, STEP_MAX);
    if (m->tag < 0 || m->tag >= STEP_MAX)
        return;
    Tick end = start + (Tick)count * m->element_time;
    t->first_posted[m->tag] = MIN(t->first_posted[m->tag], m->posted);
    t->last_end[m->tag] = MAX(t->last_end[m->tag], end);
}

/* Each sd(i, w) takes exactly w cycles, and the steps follow one another
 * without overlap: step s starts when step s - 1 ends. Compared into T,
 * with the observer's checks; the test asserts it after its cases. */
static void assert_step_times(Scenario *s, const char *what, CkTally *t)
{
    StepTimes times = { .tally = t, .what = what };
    for (int i = 0; i < STEP_MAX; i++) {
        times.first_posted[i] = G_MAXINT64;
        times.last_end[i] = 0;
    }
    const SimObserver observer = { .channel_busy = step_channel_busy };
    RunOptions options = { .observer = &observer, .observer_data = &times };
    g_autoptr(Report) r = run_scenario(s, &options, NULL);
    ck_tally_true(t, r && r->data_correct, "%s: runs, data correct", what);
    if (!r)
        return;
    const Detail *steps = detail(r, "steps");
    ck_tally_int(t, DETAIL_ROWS, steps->type, "%s: details.steps type", what);
    if (steps->type != DETAIL_ROWS)
        return;
    /* the steps index the observer's arrays */
    guint nsteps = steps->list->len / COLUMNS;
    ck_tally_true(t, nsteps <= STEP_MAX, "%s: %u steps, at most %d", what,
                  nsteps, STEP_MAX);
    if (nsteps > STEP_MAX)
        return;
    Tick at = 0;
    for (guint i = 0; i < nsteps; i++) {
        ck_tally_int(t, at, times.first_posted[i], "%s: step %u first posted",
                     what, i);
        at = times.last_end[i];
        ck_tally_int(t, step_field(steps, i, COL_CYCLES),
                     at - times.first_posted[i], "%s: step %u span", what, i);
        ck_tally_int(t, step_field(steps, i, COL_DISTANCE),
                     step_field(steps, i, COL_CYCLES),
                     "%s: step %u cycles, its distance", what, i);
    }
    ck_tally_int(t, r->cycles, at, "%s: the last step's end, the run's cycles",
                 what);
}

START_TEST(each_step_takes_its_distance)
{
    static const FftCase cases[] = {
        { "16x16x16", "64x64", "identical", "post" },         /* Figure 3 */
        { "16x16x16", "64x64", "shuffle", "post" },           /* Figure 5 */
        { "16x16x16", "64x64", "shuffle", "pre" },
        { "8x4x16", "32x16", "permutation:5,0,8,3,6,1,2,7,4", "pre" },
        { "cube:10", "32x32", "permutation:9,0,8,1,7,2,6,3,5,4", "post" },
        { "1024", "32x32", "identical", "post" },
    };
    CkTally t = CK_TALLY_INIT;
    for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
        g_autoptr(Scenario) s = fft_case(&cases[c]);
        g_autofree char *what = g_strdup_printf("%s on %s, %s, %s",
                                                cases[c].shape, cases[c].mesh,
                                                cases[c].mapping, cases[c].order);
        assert_step_times(s, what, &t);
    }
    ck_tally_assert(&t, "step times");
}
END_TEST

START_TEST(refusals)
{
    /* ALGORITHM on SHAPE on MESH, with algorithm.KEY = VALUE if KEY. */
    static const struct {
        const char *mesh, *algorithm, *shape, *key, *value, *message;
    } cases[] = {
        { "4x16", "fft", "8x8", "mapping", "shuffle",
          "test: mapping: shuffle needs a regular mesh (all sides equal; "
          "Theorem 10 and Algorithm 4); use permutation:... on this one" },
        { "16x16x16", "fft", "64x32", NULL, NULL,
          "test: shape: 64x32 has 2^11 points, the machine 4096 nodes "
          "(valid: an index set of exactly one element per node)" },
        { "cube:8", "fft", "16x16", "mapping", "shuffle",
          "test: mapping: shuffle needs n a multiple of m and of k and "
          "n/m a multiple of k (Theorem 10); here n = 8, m = 2, k = 8" },
        { "8x8", "fft", "8x8", "mapping", "permutation:0,1,2,3,4,4",
          "test: mapping: index bit 4 appears twice (valid: "
          "permutation:p_0,...,p_5, address bit y holds index bit p_y)" },
        { "8x8", "fft", "12x8", NULL, NULL,
          "test: shape: side 12 of axis 1 is not a power of two >= 2" },
        { "8x8", "fft-broadcast", "8x8", "source", "8,0",
          "test: source: '8' is not a coordinate of axis 1 (valid: 0..7)" },
        { "8x8", "fft", "8x8", "mapping", "transpose",
          "test: mapping: 'transpose' is not a mapping (valid: "
          "identical, shuffle, permutation:p_0,...,p_{n-1})" },
    };
    for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
        g_autoptr(Scenario) s = fft_scenario(cases[c].mesh, cases[c].algorithm,
                                             cases[c].shape);
        if (cases[c].key)
            scenario_put(s, "algorithm", cases[c].key, cases[c].value, "test");
        ck_refused(s, cases[c].message);
    }
}
END_TEST

static Suite *fft_suite(void)
{
    const CkTest fft[] = {
        { figures_3_and_5, G_N_ELEMENTS(figures) },
        { shuffle_is_the_dealing, 0 },
        { random_permutations_cost_the_diameter, 0 },
        { random_ffts_match_the_reference, 0 },
        { large_ffts_match_fftw, 0 },
        { each_step_takes_its_distance, 0 },
        { broadcasts_take_the_diameter, 0 },
        { refusals, 0 },
        { NULL, 0 },
    };
    Suite *s = suite_create("fft");
    ck_add_tcase(s, "fft", 300, fft);
    return s;
}

CUBE_CHECK_MAIN(fft_suite)
