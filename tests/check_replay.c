/* check_replay.c -- the `schedule` algorithm: a message schedule replayed
 * on an emulated machine (algorithms/schedule/schedule.c).
 *
 * Asserted: cycle counts worked by hand (a chain of a send, a calc and a
 * send; irequires against requires; a calc's time units through the
 * machine's tick length); messages equal to the schedule's sends, and
 * every replay's data verified, on Schedgen's schedules over cubes, tori
 * and the complete graph; the classes a mapping gives (a ring in Gray
 * code is all neighbour messages); and the refusals, each with its exact
 * message: more ranks than nodes, a mapping that does not fit, a mapping
 * file's bad lines, a missing file; a receive nobody sends ends as a
 * deadlock naming it.
 */
#include "run.h"

#include <check.h>
#include "check_main.h"
#include "check_run.h"
#include <glib/gstdio.h>
#include <string.h>

/* A GOAL file in a temporary folder with TEXT; its path (g_free), and the
 * folder removed by remove_goal. */
static char *write_goal(const char *name, const char *text)
{
    g_autofree char *dir = g_dir_make_tmp("cubemu-replay-XXXXXX", NULL);
    ck_assert_ptr_nonnull(dir);
    char *path = g_build_filename(dir, name, NULL);
    ck_assert(g_file_set_contents(path, text, -1, NULL));
    return path;
}

static void remove_goal(char *path)
{
    g_autofree char *dir = g_path_get_dirname(path);
    g_unlink(path);
    g_rmdir(dir);
    g_free(path);
}

/* Schedule PATH on the n-cube (Ts = 0, one tick an element), with the
 * extra [algorithm] key KEY = VALUE if KEY is given. */
static Scenario *replay(const char *path, const char *dims, const char *key,
                        const char *value)
{
    const char *const rows[][3] = {
        { "machine", "topology", "cube" },
        { "machine", "dimensions", dims },
        { "algorithm", "name", "schedule" },
        { "algorithm", "schedule", path },
        { "algorithm", "time-unit", "1" },
        { "algorithm", key ? key : "mapping", key ? value : "identity" },
        { NULL },
    };
    return ck_scenario(rows);
}

static Report *must_run(const Scenario *s)
{
    GError *e = NULL;
    Report *r = run_scenario(s, NULL, &e);
    ck_assert_msg(r != NULL, "%s", e ? e->message : "");
    ck_assert_msg(r->data_correct, "%s", r->data_problem ? r->data_problem : "");
    return r;
}

/* Rank 0 sends rank 1 two elements (left by tick 2), works 5 ticks
 * (until 7), then sends one more (left at 8); rank 1 has both receives
 * posted from the start, and the second completes at 8. */
START_TEST(a_chain_by_hand)
{
    char *path = write_goal("chain.goal",
        "num_ranks 2\n"
        "rank 0 {\n"
        "l1: send 16b to 1 tag 0\n"
        "l2: calc 5\n"
        "l2 requires l1\n"
        "l3: send 8b to 1 tag 1\n"
        "l3 requires l2\n"
        "}\n"
        "rank 1 {\n"
        "l1: recv 16b from 0 tag 0\n"
        "l2: recv 8b from 0 tag 1\n"
        "}\n");
    g_autoptr(Scenario) s = replay(path, "1", NULL, NULL);
    g_autoptr(Report) r = must_run(s);
    ck_assert_int_eq(r->cycles, 8);
    ck_assert_uint_eq(r->messages, 2);
    ck_assert_uint_eq(r->element_transfers, 3);
    ck_assert_int_eq(r->compute_max, 5);
    ck_assert(report_bounds_hold(r));
    remove_goal(path);
}
END_TEST

/* Rank 0 sends two elements to rank 1 (dimension 0) and one to rank 2
 * (dimension 1): with irequires the second goes at once, and the run
 * ends at 2; with requires it waits for the first, and ends at 3. */
START_TEST(irequires_starts_with_its_dependency)
{
    static const char *const kinds[] = { "irequires", "requires" };
    static const Tick want[] = { 2, 3 };
    for (int i = 0; i < 2; i++) {
        g_autofree char *text = g_strdup_printf(
            "num_ranks 3\n"
            "rank 0 {\n"
            "l1: send 16b to 1 tag 0\n"
            "l2: send 8b to 2 tag 0\n"
            "l2 %s l1\n"
            "}\n"
            "rank 1 {\n"
            "l1: recv 16b from 0 tag 0\n"
            "}\n"
            "rank 2 {\n"
            "l1: recv 8b from 0 tag 0\n"
            "}\n", kinds[i]);
        char *path = write_goal("irequires.goal", text);
        g_autoptr(Scenario) s = replay(path, "2", NULL, NULL);
        g_autoptr(Report) r = must_run(s);
        ck_assert_msg(r->cycles == want[i], "%s: %lld cycles", kinds[i],
                      (long long)r->cycles);
        remove_goal(path);
    }
}
END_TEST

/* calc 500 in nanoseconds on a machine of 100 ns ticks is 5 ticks;
 * without tick-seconds a time unit is a tick. */
START_TEST(calc_through_the_tick_length)
{
    char *path = write_goal("calc.goal",
        "num_ranks 1\n"
        "rank 0 {\n"
        "l1: calc 500\n"
        "}\n");
    g_autoptr(Scenario) s = replay(path, "1", "time-unit", "1e-9");
    scenario_put(s, "machine", "tick-seconds", "1e-7", "test");
    g_autoptr(Report) r = must_run(s);
    ck_assert_int_eq(r->cycles, 5);
    g_autoptr(Scenario) s2 = replay(path, "1", NULL, NULL);
    g_autoptr(Report) r2 = must_run(s2);
    ck_assert_int_eq(r2->cycles, 500);
    remove_goal(path);
}
END_TEST

/* A calc of no time completes as it starts, in the same call: the send
 * behind it goes at tick 0, and the run is the send's 2 ticks. */
START_TEST(a_calc_of_no_time_is_a_boundary)
{
    char *path = write_goal("zero.goal",
        "num_ranks 2\n"
        "rank 0 {\n"
        "l1: calc 0\n"
        "l2: send 16b to 1 tag 0\n"
        "l2 requires l1\n"
        "}\n"
        "rank 1 {\n"
        "l1: recv 16b from 0 tag 0\n"
        "}\n");
    g_autoptr(Scenario) s = replay(path, "1", NULL, NULL);
    g_autoptr(Report) r = must_run(s);
    ck_assert_int_eq(r->cycles, 2);
    ck_assert_int_eq(r->compute_max, 0);
    remove_goal(path);
}
END_TEST

/* Schedgen's schedules (tests/data/goal/) on a cube, a torus and the
 * complete graph: data verified, a message a send, the run's bounds. */
START_TEST(schedgen_schedules_everywhere)
{
    static const char *const files[] = {
        "tests/data/goal/dissemination-8.goal",
        "tests/data/goal/allreduce-recdoub-8.goal",
        "tests/data/goal/linbarrier-4.goal",
        "tests/data/goal/bcast-nb-4.goal",
    };
    static const char *const machines[][4] = {
        { "topology", "cube", "dimensions", "3" },
        { "topology", "mesh", "shape", "4x2" },
        { "topology", "complete", "processors", "8" },
    };
    CkTally t = CK_TALLY_INIT;
    for (size_t f = 0; f < G_N_ELEMENTS(files); f++)
        for (size_t m = 0; m < G_N_ELEMENTS(machines); m++) {
            const char *const rows[][3] = {
                { "machine", machines[m][0], machines[m][1] },
                { "machine", machines[m][2], machines[m][3] },
                { "machine", "wrap", m == 1 ? "yes" : NULL },
                { "algorithm", "name", "schedule" },
                { "algorithm", "schedule", files[f] },
                { NULL },
            };
            g_autoptr(Scenario) s = ck_scenario(rows);
            g_autoptr(Report) r = ck_tally_run(&t, s, NULL, "%s on %s",
                                               files[f], machines[m][1]);
            if (!r)
                continue;
            const Detail *sends = report_find_detail(r, "sends");
            ck_tally_true(&t, r->data_correct, "%s on %s: data", files[f],
                          machines[m][1]);
            ck_tally_uint(&t, (uint64_t)sends->i, r->messages,
                          "%s on %s: messages", files[f], machines[m][1]);
            ck_tally_true(&t, report_bounds_hold(r), "%s on %s: bounds",
                          files[f], machines[m][1]);
        }
    ck_tally_assert(&t, "Schedgen's schedules on three machines");
}
END_TEST

/* A ring, rank r to r+1 mod 4, on the 2-cube: with the identity mapping
 * the steps 1 -> 2 and 3 -> 0 cross two dimensions (router messages);
 * in Gray code every step is a neighbour's. */
START_TEST(gray_mapping_makes_a_ring_of_neighbours)
{
    GString *g = g_string_new("num_ranks 4\n");
    for (int r = 0; r < 4; r++)
        g_string_append_printf(g, "rank %d {\nl1: send 8b to %d tag 0\n"
                               "l2: recv 8b from %d tag 0\n}\n", r,
                               (r + 1) % 4, (r + 3) % 4);
    char *path = write_goal("ring.goal", g->str);
    g_string_free(g, TRUE);
    g_autoptr(Scenario) id = replay(path, "2", NULL, NULL);
    g_autoptr(Report) ri = must_run(id);
    ck_assert_uint_eq(ri->class_messages[CLASS_ROUTER], 2);
    ck_assert_uint_eq(ri->class_messages[CLASS_NEIGHBOUR], 2);
    g_autoptr(Scenario) gray = replay(path, "2", "mapping", "gray");
    g_autoptr(Report) rg = must_run(gray);
    ck_assert_uint_eq(rg->class_messages[CLASS_ROUTER], 0);
    ck_assert_uint_eq(rg->class_messages[CLASS_NEIGHBOUR], 4);
    ck_assert_uint_eq(rg->element_transfers, 4);
    /* route = router: every send along the default route */
    g_autoptr(Scenario) routed = replay(path, "2", "route", "router");
    scenario_put(routed, "algorithm", "mapping", "gray", "test");
    g_autoptr(Report) rr = must_run(routed);
    ck_assert_uint_eq(rr->class_messages[CLASS_ROUTER], 4);
    remove_goal(path);
}
END_TEST

START_TEST(refusals_say_why)
{
    char *path = write_goal("four.goal",
        "num_ranks 4\n"
        "rank 0 {\n}\nrank 1 {\n}\nrank 2 {\n}\nrank 3 {\n}\n");
    /* more ranks than nodes */
    g_autoptr(Scenario) small = replay(path, "1", NULL, NULL);
    g_autofree char *want = g_strdup_printf(
        "test: schedule: %s has 4 ranks, and the machine 2 nodes", path);
    ck_refused(small, want);
    /* a mapping that is not one */
    g_autoptr(Scenario) bad = replay(path, "2", "mapping", "spiral");
    ck_refused(bad, "test: mapping: 'spiral' is not a mapping (valid: "
                    "identity, gray, live, file:PATH)");
    /* a mapping file: a node out of range, a node twice, too few */
    static const struct { const char *text, *want; } files[] = {
        { "0\n1\n7\n3\n", ":3: '7' is not a node (valid: 0..3)" },
        { "0\n1\n1\n3\n", ":3: node 1 is mapped twice" },
        { "3 # rank 0\n\n2\n", ": 2 nodes for the schedule's 4 ranks" },
    };
    for (size_t i = 0; i < G_N_ELEMENTS(files); i++) {
        char *map = write_goal("map.txt", files[i].text);
        g_autofree char *value = g_strconcat("file:", map, NULL);
        g_autoptr(Scenario) s = replay(path, "2", "mapping", value);
        g_autofree char *w = g_strdup_printf("test: mapping: %s%s", map,
                                             files[i].want);
        ck_refused(s, w);
        remove_goal(map);
    }
    remove_goal(path);
    /* a file that is not there */
    g_autoptr(Scenario) none = replay("no/such.goal", "2", NULL, NULL);
    ck_refused_with(none, "test: schedule: no/such.goal", NULL);
}
END_TEST

/* A receive nobody sends: the run ends as a failed run (RUN_ERROR_STUCK,
 * exit status 1), naming every rank that waits, the receives it waits on
 * and where the schedule wrote them, and how many of its ops never
 * started; a rank whose message arrived but that still waits on another
 * names only the missing one. */
START_TEST(a_receive_nobody_sends_is_a_deadlock)
{
    char *path = write_goal("stuck.goal",
        "num_ranks 4\n"
        "rank 0 {\n"
        "l1: recv 8b from 1 tag 0\n"
        "l2: send 8b to 1 tag 0\n"
        "l2 requires l1\n"
        "}\n"
        "rank 1 {\n"
        "l1: recv 8b from 0 tag 0\n"
        "l2: send 8b to 0 tag 0\n"
        "l3: calc 5\n"
        "l2 requires l1\n"
        "l3 requires l2\n"
        "}\n"
        "rank 2 {\n"
        "l1: send 8b to 3 tag 5\n"
        "}\n"
        "rank 3 {\n"
        "l1: recv 8b from 2 tag 5\n"
        "l2: recv 16b from 0 tag 7\n"
        "}\n");
    g_autoptr(Scenario) s = replay(path, "2", NULL, NULL);
    GError *e = NULL;
    Report *r = run_scenario(s, NULL, &e);
    ck_assert_ptr_null(r);
    ck_assert(g_error_matches(e, RUN_ERROR, RUN_ERROR_STUCK));
    g_autofree char *want = g_strdup_printf(
        "deadlock: node 0 in step 0 waits for 1 receive(s); the first from "
        "node 1 with tag 0 was never sent\n"
        "  rank 0 (node 0) waits on recv 8b from 1 tag 0 (%s:3); 1 op(s) "
        "never started\n"
        "  rank 1 (node 1) waits on recv 8b from 0 tag 0 (%s:8); 2 op(s) "
        "never started\n"
        "  rank 3 (node 3) waits on recv 16b from 0 tag 7 (%s:19)",
        path, path, path);
    ck_assert_msg(e && g_str_has_suffix(e->message, want), "%s",
                  e ? e->message : "");
    g_error_free(e);
    remove_goal(path);
}
END_TEST

static Suite *replay_suite(void)
{
    Suite *s = suite_create("replay");
    const CkTest tests[] = {
        { a_chain_by_hand, 0 },
        { irequires_starts_with_its_dependency, 0 },
        { calc_through_the_tick_length, 0 },
        { a_calc_of_no_time_is_a_boundary, 0 },
        { schedgen_schedules_everywhere, 0 },
        { gray_mapping_makes_a_ring_of_neighbours, 0 },
        { refusals_say_why, 0 },
        { a_receive_nobody_sends_is_a_deadlock, 0 },
        { NULL, 0 },
    };
    ck_add_tcase(s, "replay", 0, tests);
    return s;
}

CUBE_CHECK_MAIN(replay_suite)
