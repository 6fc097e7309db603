/* check_record.c -- the schedule recorder (workloads/record.h), fed
 * operations as the engine tells them (SimObserver.op): the ranks'
 * operations in program order, the dependencies steps imply, the
 * boundaries between steps, how a send compares with the replay's routes,
 * the operation-level program's started dependencies, and what stops the
 * recorder. run --schedule-out end to end is tests/record.sh's. */
#include <check.h>
#include "check_main.h"
#include <glib.h>
#include <string.h>

/* by its path: traces/record.h takes the name */
#include "../workloads/record.h"
#include "schedule.h"

/* An n-cube of unit prices, no tick length (machine_clear frees it). */
static Machine cube_machine(int n)
{
    Machine m = { .name = g_strdup("test"), .ports = MACHINE_PORTS_ALL,
                  .flop_time = 1 };
    char *why = NULL;
    if (!topology_cube_init(&m.topology, n, &why))
        ck_abort_msg("topology_cube_init(%d): %s", n, why ? why : "");
    for (MessageClass c = 0; c < CLASS_COUNT; c++)
        m.price[c] = (MachinePrice){ 0, 1, FALSE };
    return m;
}

static void post(ScheduleRecorder *r, SimOp op)
{
    schedule_recorder_observer()->op(r, &op);
}

static SimOp work(uint32_t node, unsigned step, Tick ticks)
{
    return (SimOp){ .kind = SIM_OP_WORK, .node = node, .step = step,
                    .ticks = ticks, .hops = -1 };
}

static SimOp message(SimOpKind kind, uint32_t node, unsigned step,
                     uint32_t peer, int tag, uint64_t count, int hops,
                     const int *path)
{
    return (SimOp){ .kind = kind, .node = node, .step = step, .peer = peer,
                    .tag = tag, .count = count, .hops = hops, .path = path };
}

/* Op i of rank r: its kind and size, and its dependencies as "op:started"
 * joined by spaces. */
static void assert_op(const Schedule *s, uint32_t r, uint32_t i,
                      SchedKind kind, uint64_t size, const char *deps)
{
    const SchedRank *k = &s->ranks[r];
    ck_assert_uint_lt(i, k->nops);
    const SchedOp *o = &k->ops[i];
    ck_assert_int_eq(o->kind, kind);
    ck_assert_uint_eq(o->size, size);
    GString *got = g_string_new(NULL);
    for (uint32_t d = 0; d < o->ndeps; d++) {
        SchedDep dep = k->deps[o->dep_first + d];
        g_string_append_printf(got, "%s%u:%d", d ? " " : "", dep.op,
                               dep.started ? 1 : 0);
    }
    ck_assert_msg(!strcmp(got->str, deps), "rank %u op %u: deps '%s', want "
                  "'%s'", r, i, got->str, deps);
    g_string_free(got, TRUE);
}

/* Two steps of a program of steps on a 2-cube: each op in its order, the
 * step's sends after its work, the boundary between the steps, bytes as
 * elements x 8, and an exact replay with route = auto. */
START_TEST(steps_become_dependencies)
{
    Machine m = cube_machine(2);
    g_autoptr(ScheduleRecorder) r = schedule_recorder_new();
    GError *e = NULL;
    ck_assert(schedule_recorder_begin(r, &m, "t.ini: algorithm x", FALSE,
                                      "t.goal", &e));
    static const int link0 = 0, link1 = 1;
    post(r, work(0, 0, 5));
    post(r, message(SIM_OP_SEND, 0, 0, 1, 2, 3, 1, &link0));
    post(r, message(SIM_OP_RECV, 0, 0, 1, 2, 3, -1, NULL));
    post(r, message(SIM_OP_SEND, 1, 0, 0, 2, 3, 1, &link0));
    post(r, message(SIM_OP_RECV, 1, 0, 0, 2, 3, -1, NULL));
    post(r, message(SIM_OP_SEND, 0, 1, 2, 0, 1, 1, &link1));
    post(r, message(SIM_OP_RECV, 2, 1, 0, 0, 1, -1, NULL));
    post(r, message(SIM_OP_SEND, 0, 2, 3, 7, 2, -1, NULL));
    post(r, message(SIM_OP_RECV, 3, 0, 0, 7, 2, -1, NULL));
    ck_assert(schedule_recorder_check(r, &e));
    ScheduleRecording how;
    Schedule *s = schedule_recorder_finish(r, &how);
    ck_assert_uint_eq(s->nranks, 4);
    ck_assert_uint_eq(s->ranks[0].nops, 7);
    assert_op(s, 0, 0, SCHED_CALC, 5, "");
    assert_op(s, 0, 1, SCHED_SEND, 24, "0:0");
    assert_op(s, 0, 2, SCHED_RECV, 24, "");
    assert_op(s, 0, 3, SCHED_CALC, 0, "0:0 1:0 2:0");
    assert_op(s, 0, 4, SCHED_SEND, 8, "3:0");
    assert_op(s, 0, 5, SCHED_CALC, 0, "4:0");
    assert_op(s, 0, 6, SCHED_SEND, 16, "5:0");
    ck_assert_uint_eq(s->ranks[0].ops[6].peer, 3);
    ck_assert_int_eq(s->ranks[0].ops[6].tag, 7);
    ck_assert_uint_eq(s->ranks[1].nops, 2);
    assert_op(s, 1, 1, SCHED_RECV, 24, "");
    ck_assert_uint_eq(s->ranks[2].nops, 1);    /* a first step adds nothing */
    ck_assert(schedule_check(s, NULL));
    ck_assert(how.exact);
    ck_assert(!how.router);
    ck_assert_uint_eq(how.sends, 4);
    ck_assert_ptr_nonnull(strstr(s->comment, "exact: yes"));
    ck_assert_ptr_nonnull(strstr(s->comment, "route = auto"));
    schedule_free(s);
    machine_clear(&m);
}
END_TEST

/* A send along a path of two links that is not the default route replays
 * along the route: not exact, off-route, with the count. */
START_TEST(off_route_named)
{
    Machine m = cube_machine(2);
    int route[3];
    ck_assert_int_eq(topology_route(&m.topology, 0, 3, route), 2);
    const int other[2] = { route[1], route[0] };
    g_autoptr(ScheduleRecorder) r = schedule_recorder_new();
    ck_assert(schedule_recorder_begin(r, &m, "t", FALSE, "t.goal", NULL));
    post(r, message(SIM_OP_SEND, 0, 0, 3, 0, 4, 2, other));
    post(r, message(SIM_OP_SEND, 0, 0, 3, 1, 4, 2, route));
    post(r, message(SIM_OP_SEND, 2, 0, 1, 0, 4, -1, NULL));
    ScheduleRecording how;
    Schedule *s = schedule_recorder_finish(r, &how);
    ck_assert(!how.exact);
    ck_assert_uint_eq(how.sends, 3);
    ck_assert_uint_eq(how.off_route, 1);
    ck_assert_ptr_nonnull(strstr(s->comment, "exact: no (off-route)"));
    ck_assert_ptr_nonnull(strstr(s->comment, "1 of 3 sends"));
    schedule_free(s);
    machine_clear(&m);
}
END_TEST

/* An operation-level program: the boundary keeps the calls' order by
 * irequires, its local work by requires; the replay is not exact. */
START_TEST(operation_level_started)
{
    Machine m = cube_machine(1);
    static const int link0 = 0;
    g_autoptr(ScheduleRecorder) r = schedule_recorder_new();
    ck_assert(schedule_recorder_begin(r, &m, "t", TRUE, "t.goal", NULL));
    post(r, message(SIM_OP_RECV, 0, 0, 1, 0, 1, -1, NULL));
    post(r, work(0, 0, 3));
    post(r, message(SIM_OP_SEND, 0, 1, 1, 0, 1, 1, &link0));
    Schedule *s = schedule_recorder_finish(r, NULL);
    assert_op(s, 0, 2, SCHED_CALC, 0, "0:1 1:0");
    assert_op(s, 0, 3, SCHED_SEND, 8, "2:0");
    ck_assert_ptr_nonnull(strstr(s->comment, "exact: no (operation-level)"));
    schedule_free(s);
    machine_clear(&m);
}
END_TEST

/* What a schedule cannot hold stops the recorder, named by node and
 * step; a budget too small for the first growth too. */
START_TEST(recorder_stops)
{
    Machine m = cube_machine(1);
    g_autoptr(ScheduleRecorder) r = schedule_recorder_new();
    GError *e = NULL;
    ck_assert(schedule_recorder_begin(r, &m, "t", FALSE, "t.goal", NULL));
    post(r, message(SIM_OP_SEND, 1, 4, 0, -1, 1, -1, NULL));
    ck_assert(!schedule_recorder_check(r, &e));
    ck_assert_str_eq(e->message, "cannot record the run as a schedule: node "
                     "1, step 4: tag -1: a schedule's tags are 0 to "
                     "2147483647");
    g_clear_error(&e);

    ck_assert(schedule_recorder_begin(r, &m, "t", FALSE, "t.goal", NULL));
    ck_assert(schedule_recorder_check(r, NULL));     /* begin starts over */
    schedule_recorder_set_budget(r, schedule_recorder_bytes(r));
    post(r, work(0, 0, 1));
    ck_assert(!schedule_recorder_check(r, &e));
    ck_assert_ptr_nonnull(strstr(e->message, "the schedule outgrew the "));
    g_clear_error(&e);
    machine_clear(&m);
}
END_TEST

/* A tick of a whole number of nanoseconds: calcs in nanoseconds, the
 * replay's default time unit; else in ticks, with the time-unit named. */
START_TEST(time_units)
{
    Machine m = cube_machine(1);
    m.tick_seconds = 1e-7;
    g_autoptr(ScheduleRecorder) r = schedule_recorder_new();
    ck_assert(schedule_recorder_begin(r, &m, "t", FALSE, "t.goal", NULL));
    post(r, work(0, 0, 3));
    ScheduleRecording how;
    Schedule *s = schedule_recorder_finish(r, &how);
    assert_op(s, 0, 0, SCHED_CALC, 300, "");
    ck_assert(how.time_unit_default);
    ck_assert(how.time_unit == 1e-9);
    schedule_free(s);

    m.tick_seconds = 1.5e-9;
    ck_assert(schedule_recorder_begin(r, &m, "t", FALSE, "t.goal", NULL));
    post(r, work(0, 0, 3));
    s = schedule_recorder_finish(r, &how);
    assert_op(s, 0, 0, SCHED_CALC, 3, "");
    ck_assert(!how.time_unit_default);
    ck_assert(how.time_unit == 1.5e-9);
    ck_assert_ptr_nonnull(strstr(s->comment, "time-unit = 1.5e-09"));
    schedule_free(s);
    machine_clear(&m);
}
END_TEST

static Suite *record_suite(void)
{
    Suite *s = suite_create("record");
    const CkTest tests[] = {
        { steps_become_dependencies, 0 },
        { off_route_named, 0 },
        { operation_level_started, 0 },
        { recorder_stops, 0 },
        { time_units, 0 },
        { NULL, 0 }
    };
    ck_add_tcase(s, "recorder", 0, tests);
    return s;
}

CUBE_CHECK_MAIN(record_suite)
