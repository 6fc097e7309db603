/* check_run_limits.c -- the limits that stop node programs that never
 * finish (sim.h, SimLimits; util/stop.h; cubemu run --tick-limit and
 * --wall-limit), with node programs of this file's own, since no
 * algorithm of the registry loops.
 *
 * Asserted: the tick limit stops programs that post local work forever
 * (node_busy, node_compute) at exactly the limit, counting the nodes
 * unfinished there; a run that ends by the limit is unchanged, one whose
 * last node finishes a tick after it fails even when every event ran by
 * the limit; a program whose steps return NODE_CONTINUE posting nothing
 * runs forever at tick 0, past any tick limit, and the stop flags end it
 * within SIM_STOP_POLL events; the engine says where it is in the flags;
 * with the real timer (stop_timer_arm) such a loop fails cleanly after
 * the limit, a step that never returns ends the process with status 2,
 * one line, its temporary output removed and the previous file intact,
 * and a limit that expires outside the engine's loop does the same.
 */
#include "sim.h"
#include "stop.h"
#include "output.h"

#include <check.h>
#include "check_main.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define HINT " (a node program that never finishes?)"

/* A 2-cube, every class one tick a element, no startup, flop-time 1. */
static Machine cube2(void)
{
    Machine m = { .name = g_strdup("test"), .ports = MACHINE_PORTS_ALL,
                  .flop_time = 1 };
    char *why = NULL;
    if (!topology_cube_init(&m.topology, 2, &why))
        ck_abort_msg("topology_cube_init: %s", why ? why : "");
    for (MessageClass c = 0; c < CLASS_COUNT; c++)
        m.price[c] = (MachinePrice){ 0, 1, FALSE };
    return m;
}

static const SimLayout layout = { 64, 1, 0, 0, FALSE };

/* Run FN on the 2-cube under LIMITS (NULL: none); the Sim, its error in
 * *error (NULL if it succeeded). */
static Sim *run_limited(NodeStepFn fn, const void *config,
                        const SimLimits *limits, GError **error)
{
    Machine m = cube2();
    Sim *sim = sim_new(&m, &layout);
    machine_clear(&m);
    if (limits)
        sim_set_limits(sim, limits);
    sim_run(sim, fn, config, error);
    return sim;
}

/* Run FN under LIMITS and require the error MESSAGE (SIM_ERROR_LIMIT). */
static void expect_limit(NodeStepFn fn, const void *config,
                         const SimLimits *limits, const char *message)
{
    GError *e = NULL;
    Sim *sim = run_limited(fn, config, limits, &e);
    ck_assert_msg(e != NULL, "the run succeeded; expected: %s", message);
    ck_assert_msg(g_error_matches(e, SIM_ERROR, SIM_ERROR_LIMIT),
                  "error %d: %s", e->code, e->message);
    ck_assert_str_eq(e->message, message);
    g_error_free(e);
    sim_free(sim);
}

/* ---- programs ----------------------------------------------------------- */

static NodeStatus busy_forever(Node *node, const void *config)
{
    (void)config;
    node_busy(node, 7);
    return NODE_CONTINUE;
}

static NodeStatus compute_forever(Node *node, const void *config)
{
    (void)config;
    node_compute(node, 5);
    return NODE_CONTINUE;
}

/* Node 0 finishes at once, node 1 after 10 ticks of work, the others
 * work forever. */
static NodeStatus some_finish(Node *node, const void *config)
{
    (void)config;
    uint32_t x = node_address(node);
    if (x == 0 || (x == 1 && node_step(node) == 1))
        return NODE_DONE;
    node_busy(node, x == 1 ? 10 : 3);
    return NODE_CONTINUE;
}

/* Node 0 sends 5 elements to node 1 at tick 0 (they arrive at tick 5),
 * the others idle for 2 ticks; all finish in one step. */
static NodeStatus one_message(Node *node, const void *config)
{
    (void)config;
    int link = 0;
    if (node_address(node) == 0)
        node_send(node, &link, 1, 0, 5, 3);
    else if (node_address(node) == 1)
        node_recv(node, 0, 3, 8, 5);
    else
        node_idle(node, 2);
    return NODE_DONE;
}

/* Where the engine said it was during the steps (stop.h). */
static sig_atomic_t where_seen;

/* Returns NODE_CONTINUE posting nothing, forever; with stop flags for
 * config, node 0 asks them to stop in its step 100000, as the timer's
 * handler would. */
static NodeStatus zero_time_forever(Node *node, const void *config)
{
    StopFlags *flags = (StopFlags *)config;
    if (flags) {
        where_seen = flags->where;
        if (node_address(node) == 0 && node_step(node) == 100000)
            flags->stop = STOP_ASKED;
    }
    return NODE_CONTINUE;
}

static volatile unsigned long spins;

/* Node 2's second step never returns. */
static NodeStatus never_returns(Node *node, const void *config)
{
    (void)config;
    if (node_address(node) == 2 && node_step(node) == 1)
        for (;;)
            spins++;
    node_busy(node, 1);
    return node_step(node) < 3 ? NODE_CONTINUE : NODE_DONE;
}

/* ---- the tick limit ------------------------------------------------------ */

START_TEST(tick_limit_stops_local_work_forever)
{
    SimLimits l = { .ticks = 1000 };
    expect_limit(busy_forever, NULL, &l,
                 "the run passed the tick limit 1000 at tick 1000 with 4 of 4 "
                 "nodes unfinished" HINT);
    l.ticks_name = "--tick-limit 1000";
    expect_limit(compute_forever, NULL, &l,
                 "the run passed --tick-limit 1000 at tick 1000 with 4 of 4 "
                 "nodes unfinished" HINT);
    /* node 0 finished at tick 0, node 1 at tick 10 */
    l.ticks = 9;
    l.ticks_name = "--tick-limit 9";
    expect_limit(some_finish, NULL, &l,
                 "the run passed --tick-limit 9 at tick 9 with 3 of 4 nodes "
                 "unfinished" HINT);
    l.ticks = 10;
    l.ticks_name = "--tick-limit 10";
    expect_limit(some_finish, NULL, &l,
                 "the run passed --tick-limit 10 at tick 10 with 2 of 4 nodes "
                 "unfinished" HINT);
}
END_TEST

/* The same run with and without a limit it does not reach. */
static void expect_same_run(const Sim *a, const Sim *b, const char *what)
{
    const SimStats *x = sim_stats(a), *y = sim_stats(b);
    ck_assert_msg(x->cycles == y->cycles && x->events == y->events
                  && x->messages == y->messages
                  && x->element_transfers == y->element_transfers,
                  "%s: the run changed", what);
    for (uint32_t n = 0; n < 4; n++) {
        ck_assert_int_eq(x->finished[n], y->finished[n]);
        ck_assert_int_eq(memcmp(sim_node_memory((Sim *)a, n),
                                sim_node_memory((Sim *)b, n),
                                layout.memory_elements * sizeof(Word)), 0);
    }
}

START_TEST(tick_limit_at_the_end_of_a_run)
{
    GError *e = NULL;
    Sim *free_run = run_limited(one_message, NULL, NULL, &e);
    ck_assert_msg(!e, "%s", e ? e->message : "");
    ck_assert_int_eq(sim_stats(free_run)->cycles, 5);
    /* the sender finishes when its message has arrived */
    const Tick finished[4] = { 5, 5, 2, 2 };
    for (uint32_t x = 0; x < 4; x++)
        ck_assert_int_eq(sim_stats(free_run)->finished[x], finished[x]);
    /* every event runs at tick 0: the limit is passed only by the time
     * the message's last element arrives, which the end of the run sees */
    ck_assert_uint_eq(sim_stats(free_run)->events, 4 + 1);
    for (Tick t = 5; t <= 6; t++) {
        SimLimits l = { .ticks = t };
        Sim *sim = run_limited(one_message, NULL, &l, &e);
        ck_assert_msg(!e, "limit %d: %s", (int)t, e ? e->message : "");
        expect_same_run(free_run, sim, "a limit at or after the last tick");
        sim_free(sim);
    }
    SimLimits l = { .ticks = 4, .ticks_name = "--tick-limit 4" };
    expect_limit(one_message, NULL, &l,
                 "the run passed --tick-limit 4 at tick 4 with 2 of 4 nodes "
                 "unfinished" HINT);
    l = (SimLimits){ .ticks = 1 };
    expect_limit(one_message, NULL, &l,
                 "the run passed the tick limit 1 at tick 1 with 4 of 4 nodes "
                 "unfinished" HINT);
    /* and with stop flags that are never raised, nothing changes either */
    StopFlags flags = { 0 };
    SimLimits w = { .ticks = 100, .stop = &flags };
    Sim *sim = run_limited(one_message, NULL, &w, &e);
    ck_assert_msg(!e, "%s", e ? e->message : "");
    expect_same_run(free_run, sim, "stop flags not raised");
    ck_assert_int_eq(flags.where, STOP_OUTSIDE);
    ck_assert_int_eq(flags.stop, STOP_NONE);
    sim_free(sim);
    sim_free(free_run);
}
END_TEST

/* ---- steps that take no time --------------------------------------------- */

START_TEST(zero_time_steps_pass_no_tick_limit)
{
    /* The engine runs such a program at tick 0 for ever: the tick limit
     * never sees it, the stop flags do, within SIM_STOP_POLL events. */
    StopFlags flags = { 0 };
    SimLimits l = { .ticks = 1, .stop = &flags, .stop_name = "--wall-limit 9" };
    where_seen = STOP_OUTSIDE;
    GError *e = NULL;
    Sim *sim = run_limited(zero_time_forever, &flags, &l, &e);
    ck_assert_msg(e && g_error_matches(e, SIM_ERROR, SIM_ERROR_LIMIT), "%s",
                  e ? e->message : "the run succeeded");
    ck_assert_str_eq(e->message, "the run passed --wall-limit 9 at tick 0 "
                     "with 4 of 4 nodes unfinished" HINT);
    g_error_free(e);
    uint64_t asked = 4 * 100000 + 1;   /* node 0's step 100000 */
    ck_assert_uint_ge(sim_stats(sim)->events, asked);
    ck_assert_uint_le(sim_stats(sim)->events, asked + SIM_STOP_POLL);
    ck_assert_int_eq(sim_stats(sim)->cycles, 0);
    ck_assert_int_eq(flags.stop, STOP_SEEN);
    ck_assert_int_eq(flags.where, STOP_OUTSIDE);
    ck_assert_int_eq(where_seen, STOP_STEP);
    sim_free(sim);
}
END_TEST

/* ---- the timer ----------------------------------------------------------- */

START_TEST(wall_limit_stops_a_loop_cleanly)
{
    StopFlags flags = { 0 };
    SimLimits l = { .stop = &flags, .stop_name = "--wall-limit 0.2" };
    GError *e = NULL;
    gint64 t0 = g_get_monotonic_time();
    ck_assert(stop_timer_arm(&flags, 0.2, "x: the run passed --wall-limit 0.2",
                             2, &e));
    /* the step asks nothing (config NULL): only the timer stops it */
    Sim *sim = run_limited(zero_time_forever, NULL, &l, &e);
    double took = (double)(g_get_monotonic_time() - t0) / 1e6;
    stop_timer_disarm();
    ck_assert_msg(e && g_error_matches(e, SIM_ERROR, SIM_ERROR_LIMIT), "%s",
                  e ? e->message : "the run succeeded");
    ck_assert_str_eq(e->message, "the run passed --wall-limit 0.2 at tick 0 "
                     "with 4 of 4 nodes unfinished" HINT);
    g_error_free(e);
    ck_assert_msg(took >= 0.2, "stopped after %.3f s", took);
    ck_assert_int_eq(flags.stop, STOP_SEEN);
    sim_free(sim);
}
END_TEST

/* In a process of its own: FILE holds "previous\n"; an output is opened
 * on it and half written, the limit of 0.2 s armed, and then either
 * (step) the engine runs never_returns or (outside) the process only
 * waits. The parent gets its status and standard error. */
static void run_stopped(gboolean step, const char *file, int *status,
                        char **err)
{
    g_assert(g_file_set_contents(file, "previous\n", -1, NULL));
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO);
        Output *o = output_open(file, NULL);
        if (!o)
            _exit(90);
        fputs("half a trace", output_stream(o));
        fflush(output_stream(o));
        StopFlags flags = { 0 };
        if (!stop_timer_arm(&flags, 0.2, "x: the run passed --wall-limit 0.2",
                            2, NULL))
            _exit(91);
        if (step) {
            SimLimits l = { .stop = &flags };
            GError *e = NULL;
            Sim *sim = run_limited(never_returns, NULL, &l, &e);
            (void)sim;
        } else {
            for (int i = 0; i < 100; i++)
                g_usleep(100000);
        }
        _exit(92);                      /* not reached */
    }
    close(fds[1]);
    GString *text = g_string_new(NULL);
    char buf[512];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        g_string_append_len(text, buf, n);
    }
    close(fds[0]);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
    *err = g_string_free(text, FALSE);
}

/* Only FILE is left in DIR, and it holds "previous\n". */
static void expect_previous_file(const char *dir, const char *file)
{
    g_autofree char *text = NULL;
    ck_assert(g_file_get_contents(file, &text, NULL, NULL));
    ck_assert_str_eq(text, "previous\n");
    GDir *d = g_dir_open(dir, 0, NULL);
    ck_assert(d != NULL);
    const char *name;
    int files = 0;
    while ((name = g_dir_read_name(d)))
        files++;
    g_dir_close(d);
    ck_assert_int_eq(files, 1);
}

START_TEST(wall_limit_ends_a_step_that_never_returns)
{
    g_autofree char *dir = g_dir_make_tmp("cubemu-stop-XXXXXX", NULL);
    ck_assert(dir != NULL);
    g_autofree char *file = g_build_filename(dir, "out.trace", NULL);
    int status;
    g_autofree char *err = NULL;
    run_stopped(TRUE, file, &status, &err);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 2,
                  "status %d: %s", status, err);
    ck_assert_str_eq(err, "x: the run passed --wall-limit 0.2 inside a node "
                     "program's step (a step that never returns?); files "
                     "being written were removed, existing files are "
                     "untouched\n");
    expect_previous_file(dir, file);
    g_free(err);
    err = NULL;
    run_stopped(FALSE, file, &status, &err);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 2,
                  "status %d: %s", status, err);
    ck_assert_str_eq(err, "x: the run passed --wall-limit 0.2 outside the "
                     "engine's event loop, while the run was being prepared "
                     "or verified; files being written were removed, "
                     "existing files are untouched\n");
    expect_previous_file(dir, file);
    g_unlink(file);
    g_rmdir(dir);
}
END_TEST

static Suite *run_limits_suite(void)
{
    Suite *s = suite_create("run limits");
    const CkTest engine[] = {
        { tick_limit_stops_local_work_forever, 0 },
        { tick_limit_at_the_end_of_a_run, 0 },
        { zero_time_steps_pass_no_tick_limit, 0 },
        { NULL, 0 },
    };
    ck_add_tcase(s, "engine", 30, engine);
    const CkTest timer[] = {
        { wall_limit_stops_a_loop_cleanly, 0 },
        { wall_limit_ends_a_step_that_never_returns, 0 },
        { NULL, 0 },
    };
    ck_add_tcase(s, "timer", 30, timer);
    return s;
}

CUBE_CHECK_MAIN(run_limits_suite)
