/* check_transpose.c -- the transposes of Al Na'mneh, Pan & Yoo (2006):
 * every method moves the data right for P in {2, 3, 4, 5, 7, 8, 16} where
 * it applies, is refused with a clear message where it does not, measures
 * exactly the cost model on the complete graph with one port, and the
 * model (model.c) gives the and the ERRATA's numbers. */
#include "run.h"
#include "model.h"

#include <check.h>
#include "check_main.h"
#include "check_run.h"
#include "report_json.h"
#include <string.h>

/* smp-8 (Section 6): Ts = 300 Tw. */
#define TS 300.0
#define TW 1.0

static const uint32_t procs[] = { 2, 3, 4, 5, 7, 8, 16 };
#define NPROCS (sizeof procs / sizeof procs[0])

/* METHOD on P processors of smp-8, a SIZE x SIZE matrix; RADIX if not 0. */
static Scenario *tp_scenario(uint32_t p, const char *method, uint32_t size,
                             int radix)
{
    char procs_text[16], size_text[16], radix_text[16];
    g_snprintf(procs_text, sizeof procs_text, "%u", p);
    g_snprintf(size_text, sizeof size_text, "%u", size);
    g_snprintf(radix_text, sizeof radix_text, "%d", radix);
    const char *const rows[][3] = {
        { "machine", "preset", "smp-8" },
        { "machine", "processors", procs_text },
        { "algorithm", "name", "transpose" },
        { "algorithm", "method", method },
        { "algorithm", "size", size_text },
        { "algorithm", "radix", radix ? radix_text : NULL },
        { NULL },
    };
    return ck_scenario(rows);
}

/* Run, check the data, and for every method but mpich the exact bound:
 * measured cycles == model_cycles == the model's own formula. Called in
 * loops: compared into T, which the test asserts after them; a missing
 * report, or bounds other than the one read, end the case there. */
static void run_exact(uint32_t p, const char *method, TpMethod m,
                      uint32_t size, int radix, CkTally *t)
{
    g_autoptr(Scenario) s = tp_scenario(p, method, size, radix);
    g_autoptr(Report) r = ck_tally_run(t, s, NULL, "%s P=%u r=%d", method, p,
                                       radix);
    if (!r)
        return;
    ck_tally_true(t, r->data_correct, "%s P=%u r=%d: %s", method, p, radix,
                  r->data_problem);
    /* The model's cycle bound, and for an even P the bisection's: on the
     * complete graph (P/2)^2 channels each way for (P/2)^2 blocks, so
     * Ts + N/P^2 Tw (one block's elements), below every run. */
    guint want = p % 2 ? 1 : 2;
    ck_tally_uint(t, want, r->bounds->len, "%s P=%u r=%d: bounds", method, p,
                  radix);
    if (r->bounds->len != want)
        return;
    if (want == 2) {
        const Bound *cut = &g_array_index(r->bounds, Bound, 1);
        ck_tally_true(t, g_str_has_prefix(cut->name, "bisection"), "%s P=%u "
                      "r=%d: %s", method, p, radix, cut->name);
        ck_tally_int(t, TS + (long long)(size / p) * (size / p) * TW,
                     (long long)cut->value, "%s P=%u r=%d: the bisection "
                     "bound", method, p, radix);
        ck_tally_int(t, BOUND_LOWER, cut->kind, "%s P=%u r=%d: its kind",
                     method, p, radix);
        ck_tally_true(t, r->cycles >= (Tick)cut->value, "%s P=%u r=%d: "
                      "%lld >= %g", method, p, radix, (long long)r->cycles,
                      cut->value);
    }
    const Bound *b = &g_array_index(r->bounds, Bound, 0);
    double model = tp_model(m, (double)size * size, p, (uint32_t)radix, TS, TW);
    ck_tally_int(t, (long long)model, (long long)b->value, "%s P=%u r=%d: "
                 "the bound, the model", method, p, radix);
    ck_tally_int(t, (long long)model, detail(r, "model_cycles")->i, "%s P=%u "
                 "r=%d: details.model_cycles", method, p, radix);
    if (m == TP_MPICH) {
        ck_tally_int(t, BOUND_LOWER, b->kind, "%s P=%u r=%d: bound kind",
                     method, p, radix);
        ck_tally_true(t, r->cycles >= (Tick)model, "%s P=%u r=%d: %lld >= %g",
                      method, p, radix, (long long)r->cycles, model);
    } else {
        ck_tally_int(t, BOUND_EXACT, b->kind, "%s P=%u r=%d: bound kind",
                     method, p, radix);
        ck_tally_true(t, r->cycles == (Tick)model, "%s P=%u r=%d: %lld != %g",
                      method, p, radix, (long long)r->cycles, model);
    }
}

START_TEST(every_method_every_p)
{
    CkTally t = CK_TALLY_INIT;
    for (size_t i = 0; i < NPROCS; i++) {
        uint32_t p = procs[i];
        uint32_t size = 2 * p;                  /* blocks of 2 x 2 */
        run_exact(p, "mpich", TP_MPICH, size, 0, &t);
        run_exact(p, "pairwise", TP_PAIRWISE, size, 0, &t);
        if (!(p & (p - 1)))
            run_exact(p, "butterfly", TP_BUTTERFLY, size, 0, &t);
        for (uint32_t r = 2; r <= p; r++)
            run_exact(p, "bruck", TP_BRUCK, size, (int)r, &t);
    }
    ck_tally_assert(&t, "every method, every P");
}
END_TEST

/* Adaptive runs the radix the model chose, and measures its cost. */
START_TEST(adaptive_runs_its_choice)
{
    CkTally t = CK_TALLY_INIT;
    for (size_t i = 0; i < NPROCS; i++) {
        uint32_t p = procs[i];
        for (uint32_t size = p; size <= 24 * p; size += 7 * p) {
            g_autoptr(Scenario) s = tp_scenario(p, "adaptive", size, 0);
            g_autoptr(Report) r = run_scenario(s, NULL, NULL);
            ck_tally_true(&t, r && r->data_correct, "P=%u size %u: runs, data "
                          "correct", p, size);
            if (!r)
                continue;
            uint32_t second;
            double second_cost;
            uint32_t radix = tp_adaptive_radix((double)size * size, p, TS,
                                               TW, &second, &second_cost);
            ck_tally_int(&t, radix, detail(r, "radix")->i, "P=%u size %u: "
                         "radix", p, size);
            ck_tally_int(&t, second, detail(r, "runner_up_radix")->i, "P=%u "
                         "size %u: runner-up radix", p, size);
            ck_tally_int(&t, (Tick)tp_model(TP_BRUCK, (double)size * size, p,
                                            radix, TS, TW),
                         r->cycles, "P=%u size %u: cycles, the model", p, size);
            ck_tally_true(&t, p < 3 || second_cost >= r->cycles, "P=%u size "
                          "%u: runner-up cost %g >= %lld cycles", p, size,
                          second_cost, (long long)r->cycles);
        }
    }
    ck_tally_assert(&t, "adaptive's choices");
}
END_TEST

START_TEST(refusals)
{
    static const struct {
        uint32_t p;
        const char *method;
        uint32_t size;
        int radix;
        const char *message;
    } cases[] = {
        { 8, "pairwise", 20, 0, "size: 20 is not a multiple of the 8 processors" },
        { 8, "bruck", 16, 9, "radix: 9 is outside 2..P (valid: 2..8)" },
        { 8, "bruck", 16, 1, "radix: 1 is out of range (valid: 2..16384)" },
        { 5, "butterfly", 10, 0, "method: butterfly needs P a power of two, and "
                                 "P = 5 is not" },
        { 8, "pairwise", 16, 4, "radix: applies to method bruck" },
        { 8, "adaptive", 16, 4, "(adaptive chooses the radix)" },
    };
    for (size_t c = 0; c < G_N_ELEMENTS(cases); c++) {
        g_autoptr(Scenario) s = tp_scenario(cases[c].p, cases[c].method,
                                            cases[c].size, cases[c].radix);
        ck_refused_with(s, cases[c].message, NULL);
    }
}
END_TEST

/* ERRATA: for P = 8, radix 2 = 3 Ts + 12 N/64 Tw, radix 4 = 4 Ts +
 * 10 N/64 Tw, radix 8 = 7 Ts + 7 N/64 Tw; radix 3 ties 4 and 7 ties 8. */
START_TEST(model_p8)
{
    /* Bruck's radix r costs ts Ts + tw N/64 Tw. */
    static const struct { uint32_t radix; int ts, tw; } forms[] = {
        { 2, 3, 12 }, { 4, 4, 10 }, { 8, 7, 7 },
    };
    /* The model of method (radix) is that of want_method (want_radix):
     * radix 3 ties 4 and 7 ties 8; radix 2 is the butterfly (eq. 12 =
     * eq. 2), radix P pairwise (eq. 16 corrected = eq. 1). */
    static const struct {
        TpMethod want_method;
        uint32_t want_radix;
        TpMethod method;
        uint32_t radix;
        const char *what;
    } same[] = {
        { TP_BRUCK, 4, TP_BRUCK, 3, "radix 3 ties 4" },
        { TP_BRUCK, 8, TP_BRUCK, 7, "radix 7 ties 8" },
        { TP_BUTTERFLY, 0, TP_BRUCK, 2, "radix 2, the butterfly" },
        { TP_PAIRWISE, 0, TP_BRUCK, 8, "radix 8, pairwise" },
    };
    CkTally t = CK_TALLY_INIT;
    for (double n = 64; n <= 65536; n *= 4) {
        double b = n / 64;
        for (size_t i = 0; i < G_N_ELEMENTS(forms); i++)
            ck_tally_double(&t, forms[i].ts * TS + forms[i].tw * b * TW,
                            tp_model(TP_BRUCK, n, 8, forms[i].radix, TS, TW),
                            "N = %g: radix %u, %d Ts + %d N/64 Tw", n,
                            forms[i].radix, forms[i].ts, forms[i].tw);
        for (size_t i = 0; i < G_N_ELEMENTS(same); i++)
            ck_tally_double(&t, tp_model(same[i].want_method, n, 8,
                                         same[i].want_radix, TS, TW),
                            tp_model(same[i].method, n, 8, same[i].radix, TS, TW),
                            "N = %g: %s", n, same[i].what);
    }
    ck_tally_assert(&t, "the model for P = 8, N = 64..65536");
    /* P = 16, r = 4 (ERRATA): 6 steps of 4 blocks, 6 Ts + 24 N/256 Tw. */
    TpShape s = tp_shape(TP_BRUCK, 16, 4);
    ck_assert_uint_eq(s.steps, 6);
    ck_assert_uint_eq(s.sent_blocks, 24);
    ck_assert_uint_eq(s.max_message_blocks, 4);
    /* Table 1: Bruck radix P needs N/P + 2 N/P^2; pairwise 2 N/P^2. */
    ck_assert_uint_eq(tp_shape(TP_BRUCK, 8, 8).buffer_blocks, 8 + 2);
    ck_assert_uint_eq(tp_shape(TP_PAIRWISE, 8, 0).buffer_blocks, 2);
}
END_TEST

/* The adaptive radix at N on each side of a threshold. */
static void assert_radix(double n, uint32_t p, uint32_t want)
{
    ck_assert_msg(tp_adaptive_radix(n, p, TS, TW, NULL, NULL) == want,
                  "N = %g, P = %u: radix %u, want %u", n, p,
                  tp_adaptive_radix(n, p, TS, TW, NULL, NULL), want);
}

START_TEST(model_thresholds)
{
    /* eq. 14 corrected: 9600 for P = 8; eq. 17 corrected: 19200. */
    ck_assert(tp_model(TP_BRUCK, 9600, 8, 2, TS, TW)
              == tp_model(TP_BRUCK, 9600, 8, 4, TS, TW));
    ck_assert(tp_model(TP_BRUCK, 19200, 8, 4, TS, TW)
              == tp_model(TP_BRUCK, 19200, 8, 8, TS, TW));
    assert_radix(9599, 8, 2);
    assert_radix(9600, 8, 4);                   /* tie: the larger radix */
    assert_radix(9601, 8, 4);
    assert_radix(19199, 8, 4);
    assert_radix(19200, 8, 8);
    assert_radix(19201, 8, 8);
    /* P = 16 (ERRATA): 2 -> 4 at N = 64 Ts, 4 -> 16 at N = 256 Ts. */
    ck_assert(tp_model(TP_BRUCK, 64 * TS, 16, 2, TS, TW)
              == tp_model(TP_BRUCK, 64 * TS, 16, 4, TS, TW));
    ck_assert(tp_model(TP_BRUCK, 256 * TS, 16, 4, TS, TW)
              == tp_model(TP_BRUCK, 256 * TS, 16, 16, TS, TW));
    ck_assert(tp_model(TP_BRUCK, 64 * TS - 1, 16, 2, TS, TW)
              < tp_model(TP_BRUCK, 64 * TS - 1, 16, 4, TS, TW));
    ck_assert(tp_model(TP_BRUCK, 256 * TS + 1, 16, 16, TS, TW)
              < tp_model(TP_BRUCK, 256 * TS + 1, 16, 4, TS, TW));
    /* Butterfly/pairwise crossover (ERRATA): 16 Ts for P = 4, 51.2 Ts
     * for P = 8. */
    ck_assert(tp_model(TP_BUTTERFLY, 16 * TS, 4, 0, TS, TW)
              == tp_model(TP_PAIRWISE, 16 * TS, 4, 0, TS, TW));
    ck_assert(tp_model(TP_BUTTERFLY, 51.2 * TS, 8, 0, TS, TW)
              == tp_model(TP_PAIRWISE, 51.2 * TS, 8, 0, TS, TW));
    ck_assert(tp_model(TP_BUTTERFLY, 4000, 4, 0, TS, TW)
              < tp_model(TP_PAIRWISE, 4000, 4, 0, TS, TW));
    ck_assert(tp_model(TP_BUTTERFLY, 16000, 8, 0, TS, TW)
              > tp_model(TP_PAIRWISE, 16000, 8, 0, TS, TW));
}
END_TEST

/* Digit counts (the blocks of one Bruck step) against a plain count. */
START_TEST(digit_counts)
{
    CkTally t = CK_TALLY_INIT;
    for (uint32_t p = 2; p <= 40; p++)
        for (uint32_t r = 2; r <= p; r++)
            for (unsigned x = 0; x < tp_bruck_subphases(p, r); x++)
                for (uint32_t z = 0; z < r; z++) {
                    uint64_t want = 0, div = 1;
                    for (unsigned i = 0; i < x; i++)
                        div *= r;
                    for (uint32_t k = 0; k < p; k++)
                        want += k / div % r == z;
                    ck_tally_uint(&t, want, tp_bruck_digit_count(p, r, x, z),
                                  "P=%u radix %u subphase %u digit %u", p, r,
                                  x, z);
                }
    ck_tally_assert(&t, "Bruck digit counts, P = 2..40");
}
END_TEST

/* Other topologies: the data is right everywhere, and the bisection bound
 * is Ts + ceil((P/2)^2 b^2 / B) Tw with the cut's B channels each way
 * written here from the topology (the cube's top dimension, P/2; the 4 x 4
 * mesh's middle, P/4; CCC(4)'s top cube dimension, 2^3), and holds. */
START_TEST(cube_mesh_and_ccc)
{
    static const char *const methods[] = { "mpich", "pairwise", "butterfly",
                                           "bruck", "adaptive" };
    static const struct {
        const char *topology, *key, *value, *size;
        unsigned p, b, cut;
    } topo[] = {
        { "cube", "dimensions", "4", "32", 16, 2, 8 },
        { "mesh", "shape", "4x4", "32", 16, 2, 4 },
        { "ccc", "dimensions", "4", "64", 64, 1, 8 },
    };
    CkTally tl = CK_TALLY_INIT;
    for (size_t t = 0; t < G_N_ELEMENTS(topo); t++)
        for (size_t i = 0; i < 5; i++) {
            const char *const rows[][3] = {
                { "machine", "topology", topo[t].topology },
                { "machine", topo[t].key, topo[t].value },
                { "machine", "startup", "10" },
                { "algorithm", "name", "transpose" },
                { "algorithm", "method", methods[i] },
                { "algorithm", "size", topo[t].size },
                { NULL },
            };
            g_autoptr(Scenario) s = ck_scenario(rows);
            g_autoptr(Report) r = ck_tally_run(&tl, s, NULL, "%s on %s",
                                               methods[i], topo[t].topology);
            if (!r)
                continue;
            ck_tally_true(&tl, r->data_correct, "%s on %s: data", methods[i],
                          topo[t].topology);
            unsigned half = topo[t].p / 2, block = topo[t].b * topo[t].b;
            unsigned cross = half * half * block;
            long long want = 10 + (cross + topo[t].cut - 1) / topo[t].cut;
            ck_tally_uint(&tl, 1, r->bounds->len, "%s on %s: bounds",
                          methods[i], topo[t].topology);
            if (r->bounds->len != 1)
                continue;
            const Bound *cut = &g_array_index(r->bounds, Bound, 0);
            ck_tally_true(&tl, g_str_has_prefix(cut->name, "bisection"),
                          "%s on %s: %s", methods[i], topo[t].topology,
                          cut->name);
            ck_tally_int(&tl, want, (long long)cut->value, "%s on %s: the "
                         "bisection bound", methods[i], topo[t].topology);
            ck_tally_true(&tl, r->cycles >= (Tick)cut->value, "%s on %s: "
                          "%lld >= %g", methods[i], topo[t].topology,
                          (long long)r->cycles, cut->value);
        }
    ck_tally_assert(&tl, "transposes on the cube, the mesh and CCC(4)");
}
END_TEST

static Suite *transpose_suite(void)
{
    Suite *s = suite_create("transpose");
    TCase *tc = ck_tcase(s, "transpose", 60);
    tcase_add_test(tc, every_method_every_p);
    tcase_add_test(tc, adaptive_runs_its_choice);
    tcase_add_test(tc, refusals);
    tcase_add_test(tc, model_p8);
    tcase_add_test(tc, model_thresholds);
    tcase_add_test(tc, digit_counts);
    tcase_add_test(tc, cube_mesh_and_ccc);
    return s;
}

CUBE_CHECK_MAIN(transpose_suite)
