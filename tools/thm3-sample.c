/* tools/thm3-sample.c -- Theorem 3 with delta = 8 (K = 32) on random shapes
 * of cubes beyond the 16-cube, where tools/thm3-types cannot enumerate.
 *
 *     make build/tools/thm3-sample
 *     build/tools/thm3-sample COUNT SEED NMIN NMAX [--run EVERY]
 *
 * On a 16-cube the delta = 8 processor dimensions D_paddr must be 0, 2,
 * ..., 14; on an n-cube, n = 17..26, they can be any eight of 0..n-2 no two
 * adjacent (the theorem's condition), each with its relay above it, and
 * the other dimensions add address bits that the 16-cube never had. Each
 * sample draws n, eight such dimensions, and two shapes of 2^(n+5)
 * elements in which exactly those processor bits are the top of an axis in
 * one shape only (which shape at random), every other processor bit the
 * top of both or of neither (probability 0.3 each), and the five offset
 * bits (K = 32) boundaries drawn for each shape alone. It then runs
 * everything of a two-path run with schedule = slots but the engine
 * (run/prepare.h: the algorithm's prepare builds the shape's plan and
 * checks the chosen slot table on every group of the cube: channels once a
 * cycle, arrivals, Theorem 3's delta h + 1 cycles), and prints what
 * prepare chose: a slot table, or the windowed timetable and how many
 * cycles it lengthened. With --run EVERY every EVERY-th sample also runs
 * in the engine and the cycles, the data check and the bounds are printed.
 *
 * Exit status 1 if some sample's plan misses Theorem 3 (a table that
 * does not serve, then windows lengthened) or a run fails; algorithms/reshape/README.md says
 * what a run of it found. */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prepare.h"
#include "run.h"

#define OFFSET 5        /* K = 32 */
#define DELTA 8

/* tops: bit k set when address bit k is the top of an axis (bit bits-1
 * always); the shape as cubemu writes it, most significant axis first. */
static char *shape_text(uint64_t tops, int bits)
{
    int width[64], n = 0;
    for (int k = 0, lo = 0; k < bits; k++)
        if ((tops >> k) & 1) {
            width[n++] = k - lo + 1;
            lo = k + 1;
        }
    GString *s = g_string_new(NULL);
    for (int j = n - 1; j >= 0; j--)
        g_string_append_printf(s, "%s%llu", j == n - 1 ? "" : "x",
                               1ULL << width[j]);
    return g_string_free(s, FALSE);
}

/* Eight processor dimensions of 0..n-2, no two adjacent, uniformly among
 * such sets (rejection). */
static uint32_t pick_d(GRand *rng, int n)
{
    for (;;) {
        uint32_t d = 0;
        int got = 0;
        while (got < DELTA) {
            int j = g_rand_int_range(rng, 0, n - 1);
            if (!((d >> j) & 1)) {
                d |= 1u << j;
                got++;
            }
        }
        if (!(d & (d >> 1)))
            return d;
    }
}

int main(int argc, char **argv)
{
    long count = argc >= 5 ? strtol(argv[1], NULL, 10) : 0;
    long seed = argc >= 5 ? strtol(argv[2], NULL, 10) : 0;
    int nmin = argc >= 5 ? atoi(argv[3]) : 0, nmax = argc >= 5 ? atoi(argv[4]) : 0;
    long every = 0;
    if (argc == 7 && strcmp(argv[5], "--run") == 0)
        every = strtol(argv[6], NULL, 10);
    if ((argc != 5 && argc != 7) || count < 1 || nmin < 17 || nmax > 26
        || nmin > nmax || (argc == 7 && every < 1)) {
        fprintf(stderr, "usage: thm3-sample COUNT SEED NMIN NMAX [--run EVERY] "
                        "(17 <= NMIN <= NMAX <= 26)\n");
        return 2;
    }
    GRand *rng = g_rand_new_with_seed((guint32)seed);
    GHashTable *kinds = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    long missed = 0, refused = 0, ran = 0;
    for (long c = 0; c < count; c++) {
        int n = g_rand_int_range(rng, nmin, nmax + 1), bits = n + OFFSET;
        uint32_t d = pick_d(rng, n);
        uint64_t from = 1ULL << (bits - 1), to = from;
        for (int k = 0; k + 1 < bits; k++) {
            if (k < OFFSET) {
                if (g_rand_double(rng) < 0.3)
                    from |= 1ULL << k;
                if (g_rand_double(rng) < 0.3)
                    to |= 1ULL << k;
            } else if ((d >> (k - OFFSET)) & 1) {
                *(g_rand_boolean(rng) ? &from : &to) |= 1ULL << k;
            } else if (g_rand_double(rng) < 0.3) {
                from |= 1ULL << k;
                to |= 1ULL << k;
            }
        }
        g_autofree char *a = shape_text(from, bits);
        g_autofree char *b = shape_text(to, bits);
        g_autoptr(Scenario) s = scenario_new("thm3-sample");
        char nb[8];
        g_snprintf(nb, sizeof nb, "%d", n);
        scenario_put(s, "machine", "topology", "cube", "thm3-sample");
        scenario_put(s, "machine", "dimensions", nb, "thm3-sample");
        scenario_put(s, "algorithm", "name", "reshape", "thm3-sample");
        scenario_put(s, "algorithm", "method", "two-path", "thm3-sample");
        scenario_put(s, "algorithm", "schedule", "slots", "thm3-sample");
        scenario_put(s, "algorithm", "from", a, "thm3-sample");
        scenario_put(s, "algorithm", "to", b, "thm3-sample");
        RunSetup setup;
        GError *e = NULL;
        if (!run_setup(s, &setup, &e)) {
            printf("%ld n=%d D=%#x %s -> %s: refused: %s\n", c, n, d, a, b, e->message);
            g_error_free(e);
            refused++;
            continue;
        }
        g_autoptr(Report) rep = run_setup_report(&setup);
        const Detail *dl = report_find_detail(rep, "delta");
        const Detail *kind = report_find_detail(rep, "timetable_kind");
        const Detail *ext = report_find_detail(rep, "windows_extended");
        if (!dl || dl->i != DELTA || !kind || !ext) {
            printf("%ld n=%d %s -> %s: no delta = 8 timetable in the plan\n", c, n, a, b);
            run_setup_release(&setup, TRUE);
            return 1;
        }
        g_hash_table_replace(kinds, g_strdup(kind->text),
                             GSIZE_TO_POINTER(GPOINTER_TO_SIZE(
                                 g_hash_table_lookup(kinds, kind->text)) + 1));
        int miss = ext->i != 0;
        missed += miss;
        printf("%ld n=%d D=%#x %s -> %s: %s, windows_extended %lld%s\n", c, n, d, a,
               b, kind->text, ext->i, miss ? "  MISSES THEOREM 3" : "");
        run_setup_release(&setup, TRUE);
        if (every && c % every == 0) {
            g_autoptr(Report) r = run_scenario(s, NULL, &e);
            if (!r) {
                printf("    run failed: %s\n", e->message);
                g_error_free(e);
                missed++;
                continue;
            }
            ran++;
            printf("    ran: %llu cycles, data %s, bounds %s\n",
                   (unsigned long long)r->cycles, r->data_correct ? "correct" : "WRONG",
                   report_bounds_hold(r) ? "hold" : "DO NOT HOLD");
            fflush(stdout);
            if (!r->data_correct || !report_bounds_hold(r) || r->cycles != 17)
                missed++;
        }
        fflush(stdout);
    }
    printf("%ld samples (n = %d..%d, seed %ld): refused %ld;", count, nmin, nmax,
           seed, refused);
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, kinds);
    while (g_hash_table_iter_next(&it, &k, &v))
        printf(" %s %zu;", (const char *)k, GPOINTER_TO_SIZE(v));
    printf(" run in the engine %ld; missing Theorem 3 %ld\n", ran, missed);
    g_hash_table_destroy(kinds);
    g_rand_free(rng);
    return missed ? 1 : 0;
}
