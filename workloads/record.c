/* record.c -- the schedule recorder (record.h): a run's operations, as the
 * engine tells them (SimObserver.op), into a Schedule of one rank a node.
 *
 * Invariants while recording, for each node x (NodeRecord):
 *  - rank x's operations are x's, in the order its program posted them;
 *  - ops [step_first, nops) are the current step's (step), the boundary
 *    before them (if any) is op `boundary`, and `last_work` is the step's
 *    latest local work (if any): a new operation requires the boundary,
 *    and a send or local work requires last_work too (record.h);
 *  - an operation of a later step first closes the current one with a
 *    boundary (a calc of no time) that requires ops [step_first, nops).
 * Every send is also compared with what the replay would send, with each
 * of its routes (auto, router): the path (the explicit one, or the default
 * route) and the class (machine.h: one link is a neighbour message, the
 * default route or several links a router message, on a topology that
 * prices the router apart). The counts of the sends that differ decide the
 * route to replay with and whether the replay is exact.
 *
 * Memory: a rank's arrays grow by doubling here, not in schedule_add_op,
 * so that each growth is first held to the budget and tried
 * (g_try_renew); a growth that fails stops the recorder (failure), and
 * the run goes on to its end, as an observer cannot stop it.
 */
#include "record.h"
#include "json_writer.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

/* No operation: a node's boundary or last local work before it has one. */
#define RECORD_NONE UINT32_MAX

/* A rank's arrays' first allocation, in elements. */
#define RECORD_FIRST_ROOM 8u

/* What writing a schedule allocates beyond it, a bound per operation of
 * its largest rank: GOAL's writer and schedule_check keep a few words an
 * operation, SimGrid's writer a dozen and a hash table's entry for each
 * (source, destination, tag) (workloads/simgrid.c). */
#define RECORD_WRITE_BYTES_PER_OP 128u

/* Nanoseconds in a second: GOAL's time unit (LogGOPSim's, the replay's
 * default time-unit). */
#define RECORD_NS_PER_SECOND 1e9

/* How far tick-seconds x 1e9 may lie from a whole number of nanoseconds
 * and still be one: a decimal tick length such as 1e-7 is not exact in a
 * double, and its product with 1e9 is off by a rounding or two. */
#define RECORD_NS_TOLERANCE 1e-9

/* The replay's routes (algorithms/schedule/, `route`), and why a send
 * replays otherwise under one (ScheduleRecording's counts). */
enum { ROUTE_AUTO, ROUTE_ROUTER, ROUTES };
enum { MISS_OFF_ROUTE, MISS_OTHER_LINK, MISS_OTHER_CLASS, MISSES };

typedef struct {
    uint32_t step;                /* of ops [step_first, nops) */
    uint32_t step_first;
    uint32_t boundary;            /* or RECORD_NONE */
    uint32_t last_work;           /* in the current step, or RECORD_NONE */
} NodeRecord;

struct ScheduleRecorder {
    Machine machine;
    gboolean has_machine;
    gboolean classes_differ;      /* the topology prices router messages,
                                   * and not as neighbour messages */
    char *source;
    gboolean each;
    Schedule *sched;
    NodeRecord *node;
    int *route;                   /* the default route, diameter + 1 */
    uint64_t bytes;               /* the ranks' arrays as allocated */
    uint32_t most_ops;            /* the largest rank's operations */
    uint64_t budget;
    char *failure;                /* the recorder stopped: why */
    uint64_t ops, sends;
    uint64_t miss[ROUTES][MISSES];
    /* Calcs are kept in ticks; nanoseconds (a tick is ns_per_tick of
     * them) while every calc so far converts exactly. */
    uint64_t ns_per_tick;         /* 0: not a whole number, or no tick */
    double replay_ticks_per_ns;   /* the replay's factor, as it computes it */
    gboolean ns_exact;
};

ScheduleRecorder *schedule_recorder_new(void)
{
    ScheduleRecorder *r = g_new0(ScheduleRecorder, 1);
    r->budget = RECORD_NO_BUDGET;
    return r;
}

static void recorder_clear(ScheduleRecorder *r)
{
    if (r->has_machine)
        machine_clear(&r->machine);
    r->has_machine = FALSE;
    g_clear_pointer(&r->source, g_free);
    g_clear_pointer(&r->sched, schedule_free);
    g_clear_pointer(&r->node, g_free);
    g_clear_pointer(&r->route, g_free);
    g_clear_pointer(&r->failure, g_free);
    r->bytes = 0;
    r->most_ops = 0;
    r->ops = r->sends = 0;
    memset(r->miss, 0, sizeof r->miss);
}

void schedule_recorder_free(ScheduleRecorder *r)
{
    if (!r)
        return;
    recorder_clear(r);
    g_free(r);
}

uint64_t schedule_recorder_bytes_for(uint32_t nodes)
{
    return (uint64_t)nodes * (sizeof(SchedRank) + sizeof(NodeRecord));
}

uint64_t schedule_recorder_bytes(const ScheduleRecorder *r)
{
    uint64_t nodes = r->sched ? r->sched->nranks : 0;
    return schedule_recorder_bytes_for((uint32_t)nodes) + r->bytes
           + (uint64_t)r->most_ops * RECORD_WRITE_BYTES_PER_OP;
}

void schedule_recorder_set_budget(ScheduleRecorder *r, uint64_t bytes)
{
    r->budget = bytes;
}

/* The whole number of nanoseconds a tick of TICK_SECONDS is, or 0. */
static uint64_t whole_ns(double tick_seconds)
{
    double ns = tick_seconds * RECORD_NS_PER_SECOND;
    if (!(tick_seconds > 0) || ns < 1 || ns > (double)SCHEDULE_MAX_TIME)
        return 0;
    double k = nearbyint(ns);
    return fabs(ns - k) <= RECORD_NS_TOLERANCE * k ? (uint64_t)k : 0;
}

gboolean schedule_recorder_begin(ScheduleRecorder *r, const Machine *m,
                                 const char *source, gboolean each,
                                 const char *name, GError **error)
{
    g_return_val_if_fail(r && m && source && name, FALSE);
    recorder_clear(r);
    uint32_t nodes = machine_nodes(m);
    SchedRank *ranks = g_try_new0(SchedRank, nodes);
    NodeRecord *node = g_try_new(NodeRecord, nodes);
    if (!ranks || !node) {
        g_free(ranks);
        g_free(node);
        g_autofree char *size = g_format_size_full(
            schedule_recorder_bytes_for(nodes), G_FORMAT_SIZE_IEC_UNITS);
        g_set_error(error, SCHEDULE_ERROR, SCHEDULE_ERROR_INPUT,
                    "%s: cannot allocate %s to record %u nodes", name, size,
                    nodes);
        return FALSE;
    }
    /* schedule_new's tables, allocated softly above */
    r->sched = g_new0(Schedule, 1);
    r->sched->name = g_strdup(name);
    r->sched->nranks = nodes;
    r->sched->ranks = ranks;
    r->node = node;
    for (uint32_t x = 0; x < nodes; x++)
        node[x] = (NodeRecord){ 0, 0, RECORD_NONE, RECORD_NONE };
    machine_copy(&r->machine, m);
    r->has_machine = TRUE;
    const MachinePrice *nb = &m->price[CLASS_NEIGHBOUR],
                       *rt = &m->price[CLASS_ROUTER];
    r->classes_differ = topology_has_class(m->topology.ops, CLASS_ROUTER)
                        && (!machine_uniform_price(m)
                            || nb->memory_path != rt->memory_path);
    r->route = g_new(int, topology_max_route(&m->topology) + 1);
    r->source = g_strdup(source);
    r->each = each;
    r->ns_per_tick = m->tick_seconds > 0 ? whole_ns(m->tick_seconds) : 0;
    r->ns_exact = r->ns_per_tick > 0;
    /* time-unit (its default, 1e-9) / tick-seconds, as the replay's
     * prepare divides them */
    r->replay_ticks_per_ns = r->ns_exact ? (1 / RECORD_NS_PER_SECOND)
                                               / m->tick_seconds : 0;
    return TRUE;
}

/* ---- growing ------------------------------------------------------------ */

static void recorder_stop(ScheduleRecorder *r, char *why)
{
    if (!r->failure)
        r->failure = why;
    else
        g_free(why);
}

/* *ARRAY of *ROOM elements of SIZE bytes, full at N, doubled (not above
 * LIMIT elements); FALSE (stopped) where the budget or the allocator
 * refuses. */
static gboolean grow(ScheduleRecorder *r, void **array, uint32_t *room,
                     uint32_t n, uint64_t limit, size_t size, const char *what,
                     uint32_t x)
{
    if (n < *room)
        return TRUE;
    uint64_t want = *room ? MIN((uint64_t)*room * 2, limit) : RECORD_FIRST_ROOM;
    if (want <= n) {
        recorder_stop(r, g_strdup_printf("node %u posted more %s than a "
                                         "schedule's rank holds (%" PRIu64 ")",
                                         x, what, limit));
        return FALSE;
    }
    uint64_t old = (uint64_t)*room * size, new_bytes = want * size;
    /* the old block and the new one, while realloc moves it */
    if (r->budget != RECORD_NO_BUDGET
        && schedule_recorder_bytes(r) + new_bytes > r->budget) {
        g_autofree char *b = g_format_size_full(r->budget,
                                                G_FORMAT_SIZE_IEC_UNITS);
        recorder_stop(r, g_strdup_printf("the schedule outgrew the %s the "
                                         "run's memory limit leaves for it "
                                         "(%" PRIu64 " operations recorded; "
                                         "the limit is reported with "
                                         "G_MESSAGES_DEBUG=all, and "
                                         "CUBEMU_MEMORY_LIMIT sets it)", b,
                                         r->ops));
        return FALSE;
    }
    void *p = g_try_realloc(*array, new_bytes);
    if (!p) {
        g_autofree char *b = g_format_size_full(new_bytes,
                                                G_FORMAT_SIZE_IEC_UNITS);
        recorder_stop(r, g_strdup_printf("cannot allocate %s for node %u's "
                                         "%s", b, x, what));
        return FALSE;
    }
    *array = p;
    *room = (uint32_t)want;
    r->bytes += new_bytes - old;
    return TRUE;
}

/* Room for one more operation of rank x and `deps` more dependencies. */
static gboolean room(ScheduleRecorder *r, uint32_t x, uint32_t deps)
{
    SchedRank *k = &r->sched->ranks[x];
    if (!grow(r, (void **)&k->ops, &k->ops_room, k->nops, SCHEDULE_MAX_OPS,
              sizeof(SchedOp), "operations", x))
        return FALSE;
    if (k->ndeps > SCHEDULE_MAX_DEPS - deps) {
        recorder_stop(r, g_strdup_printf("node %u's operations have more "
                                         "dependencies than a schedule's "
                                         "rank holds (%" PRIu64 ")", x,
                                         (uint64_t)SCHEDULE_MAX_DEPS));
        return FALSE;
    }
    while (k->ndeps + deps > k->deps_room)
        if (!grow(r, (void **)&k->deps, &k->deps_room, k->deps_room,
                  SCHEDULE_MAX_DEPS, sizeof(SchedDep), "dependencies", x))
            return FALSE;
    r->most_ops = MAX(r->most_ops, k->nops + 1);
    return TRUE;
}

/* ---- what the replay would send ----------------------------------------- */

static gboolean same_path(const int *a, int na, const int *b, int nb)
{
    return na == nb && (na == 0 || !memcmp(a, b, (size_t)na * sizeof *a));
}

/* Send op as the replay sends it under each route, against how the run
 * sent it: the misses by reason. A message's class is only its price
 * (startup, element-time, memory paths: emu/sim.c), so where the two
 * classes cost the same, only the path tells them apart. */
static void compare_send(ScheduleRecorder *r, const SimOp *op)
{
    const Topology *t = &r->machine.topology;
    uint32_t src = op->node, dst = op->peer;
    MessageClass routed = r->classes_differ ? CLASS_ROUTER : CLASS_NEIGHBOUR;
    int rh = topology_route(t, src, dst, r->route);
    /* how the run sent it: its path, its class */
    const int *path = op->hops < 0 ? r->route : op->path;
    int hops = op->hops < 0 ? rh : op->hops;
    MessageClass cls = op->hops < 0 || hops != 1 ? routed : CLASS_NEIGHBOUR;
    r->sends++;
    if (hops != 1 && !same_path(path, hops, r->route, rh)) {
        /* several links (or none) off the default route: neither route
         * replays it */
        r->miss[ROUTE_AUTO][MISS_OFF_ROUTE]++;
        r->miss[ROUTE_ROUTER][MISS_OFF_ROUTE]++;
        return;
    }
    /* route = router: the default route, routed */
    if (cls != routed)
        r->miss[ROUTE_ROUTER][MISS_OTHER_CLASS]++;
    else if (!same_path(path, hops, r->route, rh))
        r->miss[ROUTE_ROUTER][MISS_OTHER_LINK]++;
    /* route = auto: the first link to an adjacent node, else routed */
    int link = -1;
    for (int l = 0; dst != src && l < t->links && link < 0; l++)
        if (topology_neighbour(t, src, l) == dst)
            link = l;
    if (link < 0)
        return;                   /* as router: the same as above */
    if (cls != CLASS_NEIGHBOUR)
        r->miss[ROUTE_AUTO][MISS_OTHER_CLASS]++;
    else if (!same_path(path, hops, &link, 1))
        r->miss[ROUTE_AUTO][MISS_OTHER_LINK]++;
}

/* ---- the observer ---------------------------------------------------------- */

static void record_op(void *data, const SimOp *op)
{
    ScheduleRecorder *r = data;
    if (r->failure || !r->sched || op->node >= r->sched->nranks)
        return;
    uint32_t x = op->node;
    NodeRecord *n = &r->node[x];
    SchedRank *k = &r->sched->ranks[x];
    if (k->nops > n->step_first && op->step != n->step) {
        /* the step ends: its boundary */
        uint32_t steps_ops = k->nops - n->step_first;
        if (!room(r, x, steps_ops))
            return;
        SchedOp b = { .kind = SCHED_CALC };
        uint32_t at = schedule_add_op(r->sched, x, &b);
        r->ops++;
        /* An operation-level program's calls follow completions that the
         * observer is not told of: its boundary keeps the calls' order
         * (irequires) and the local work that holds the node, nothing
         * more, so that the schedule cannot wait where the run did not. */
        for (uint32_t i = n->step_first; i < at; i++)
            schedule_add_dep(r->sched, x, i, r->each && i != n->last_work);
        n->boundary = at;
        n->step_first = at + 1;
        n->last_work = RECORD_NONE;
    }
    n->step = op->step;
    SchedOp o = { 0 };
    switch (op->kind) {
    case SIM_OP_SEND:
    case SIM_OP_RECV:
        if (op->tag < 0) {
            recorder_stop(r, g_strdup_printf("node %u, step %u: tag %d: a "
                                             "schedule's tags are 0 to %d",
                                             x, op->step, op->tag,
                                             SCHEDULE_MAX_TAG));
            return;
        }
        if (op->count > SCHEDULE_MAX_BYTES / RECORD_ELEMENT_BYTES) {
            recorder_stop(r, g_strdup_printf("node %u, step %u: a message of "
                                             "%" PRIu64 " elements is more "
                                             "than a schedule's %" PRIu64
                                             " bytes", x, op->step, op->count,
                                             (uint64_t)SCHEDULE_MAX_BYTES));
            return;
        }
        o.kind = op->kind == SIM_OP_SEND ? SCHED_SEND : SCHED_RECV;
        o.peer = op->peer;
        o.tag = op->tag;
        o.size = op->count * RECORD_ELEMENT_BYTES;
        if (op->kind == SIM_OP_SEND)
            compare_send(r, op);
        break;
    default:                      /* SIM_OP_WORK, SIM_OP_IDLE: in ticks */
        if ((uint64_t)op->ticks > SCHEDULE_MAX_TIME) {
            recorder_stop(r, g_strdup_printf("node %u, step %u: %" PRIu64
                                             " ticks of local work are more "
                                             "than a schedule's calc holds "
                                             "(%" PRIu64 ")", x, op->step,
                                             (uint64_t)op->ticks,
                                             (uint64_t)SCHEDULE_MAX_TIME));
            return;
        }
        o.kind = SCHED_CALC;
        o.size = (uint64_t)op->ticks;
        if (r->ns_exact) {
            /* the replay's ticks of the calc in nanoseconds, its default */
            r->ns_exact = o.size <= SCHEDULE_MAX_TIME / r->ns_per_tick
                          && llround((double)(o.size * r->ns_per_tick)
                                     * r->replay_ticks_per_ns)
                                 == (long long)o.size;
        }
        break;
    }
    gboolean after_work = o.kind != SCHED_RECV && n->last_work != RECORD_NONE;
    if (!room(r, x, (n->boundary != RECORD_NONE) + after_work))
        return;
    uint32_t at = schedule_add_op(r->sched, x, &o);
    r->ops++;
    if (n->boundary != RECORD_NONE)
        schedule_add_dep(r->sched, x, n->boundary, FALSE);
    if (after_work)
        schedule_add_dep(r->sched, x, n->last_work, FALSE);
    if (o.kind == SCHED_CALC)
        n->last_work = at;
}

static const SimObserver recorder_observer = { .op = record_op };

const SimObserver *schedule_recorder_observer(void)
{
    return &recorder_observer;
}

gboolean schedule_recorder_check(const ScheduleRecorder *r, GError **error)
{
    if (!r->failure)
        return TRUE;
    g_set_error(error, SCHEDULE_ERROR, SCHEDULE_ERROR_INPUT,
                "cannot record the run as a schedule: %s", r->failure);
    return FALSE;
}

/* ---- finishing -------------------------------------------------------------- */

static uint64_t misses(const ScheduleRecorder *r, int route)
{
    uint64_t n = 0;
    for (int i = 0; i < MISSES; i++)
        n += r->miss[route][i];
    return n;
}

/* The machine, in a line: topology, size, ports, prices, tick. */
static void describe_machine(const Machine *m, GString *out)
{
    const Topology *t = &m->topology;
    char ports[16];
    g_autoptr(GString) shape = g_string_new(NULL);
    t->ops->describe_text(t, shape);
    g_string_append_printf(out, "machine: %s, %s%s (%u nodes), ports = %s",
                           m->name, t->ops->name, shape->str, t->nodes,
                           machine_ports_text(m, ports));
    for (MessageClass c = 0; c < CLASS_COUNT; c++)
        if (topology_has_class(t->ops, c))
            g_string_append_printf(out, ", %s startup = %" PRId64 ", "
                                   "element-time = %" PRId64 "%s",
                                   message_class_name(c),
                                   (int64_t)m->price[c].startup,
                                   (int64_t)m->price[c].element_time,
                                   m->price[c].memory_path
                                       ? ", memory paths" : "");
    if (m->tick_seconds > 0)
        g_string_append_printf(out, ", tick = %g s", m->tick_seconds);
}

Schedule *schedule_recorder_finish(ScheduleRecorder *r,
                                   ScheduleRecording *how)
{
    g_return_val_if_fail(r && r->sched && !r->failure, NULL);
    ScheduleRecording h = { 0 };
    uint64_t auto_miss = misses(r, ROUTE_AUTO);
    uint64_t router_miss = misses(r, ROUTE_ROUTER);
    h.router = auto_miss > 0 && router_miss < auto_miss;
    int route = h.router ? ROUTE_ROUTER : ROUTE_AUTO;
    h.sends = r->sends;
    h.off_route = r->miss[route][MISS_OFF_ROUTE];
    h.other_link = r->miss[route][MISS_OTHER_LINK];
    h.other_class = r->miss[route][MISS_OTHER_CLASS];
    h.exact = !r->each && misses(r, route) == 0;
    const Machine *m = &r->machine;
    Schedule *s = g_steal_pointer(&r->sched);
    /* the calcs' unit */
    gboolean ns = r->ns_exact;
    if (ns)
        for (uint32_t x = 0; x < s->nranks; x++)
            for (uint32_t i = 0; i < s->ranks[x].nops; i++)
                if (s->ranks[x].ops[i].kind == SCHED_CALC)
                    s->ranks[x].ops[i].size *= r->ns_per_tick;
    h.time_unit = ns || m->tick_seconds <= 0 ? 1 / RECORD_NS_PER_SECOND
                                             : m->tick_seconds;
    h.time_unit_default = ns || m->tick_seconds <= 0;
    s->time_unit = h.time_unit;

    char unit[JSON_DOUBLE_BUF];
    json_format_double(unit, m->tick_seconds);
    GString *c = g_string_new(NULL);
    g_string_append_printf(c, "bytes are elements x %d (the replay's "
                           "element-bytes), whatever an element's width: a "
                           "channel moves one element per element-time\n",
                           RECORD_ELEMENT_BYTES);
    g_string_append_printf(c, "recorded by cubemu run --schedule-out: %s\n",
                           r->source);
    describe_machine(m, c);
    g_string_append(c, "\none rank a node (rank r is node r); each step's "
                    "operations require the calc 0 that ends the step "
                    "before, which requires all of that step's\n");
    if (ns)
        g_string_append_printf(c, "calcs are local work and waiting "
                               "(node_idle) in nanoseconds: a tick is %"
                               PRIu64 " ns\n", r->ns_per_tick);
    else if (m->tick_seconds > 0)
        g_string_append_printf(c, "calcs are local work and waiting "
                               "(node_idle) in ticks of %s s (not a whole "
                               "number of nanoseconds): replay with "
                               "time-unit = %s\n", unit, unit);
    else
        g_string_append(c, "calcs are local work and waiting (node_idle) "
                        "in ticks (the machine gives no tick-seconds; the "
                        "replay then reads a time unit as a tick)\n");
    g_string_append_printf(c, "replay: [algorithm] name = schedule, route = "
                           "%s, time-unit = %s, on the same [machine]\n",
                           h.router ? "router" : "auto",
                           h.time_unit_default ? "1e-9" : unit);
    if (h.exact) {
        g_string_append(c, "exact: yes (the replay gives the run's cycles, "
                        "messages and element transfers)");
    } else {
        g_string_append(c, "exact: no (");
        const char *sep = "";
        if (r->each) {
            g_string_append(c, "operation-level");
            sep = ", ";
        }
        if (h.off_route) {
            g_string_append_printf(c, "%soff-route", sep);
            sep = ", ";
        }
        if (h.other_link) {
            g_string_append_printf(c, "%sother-link", sep);
            sep = ", ";
        }
        if (h.other_class)
            g_string_append_printf(c, "%smixed-classes", sep);
        g_string_append(c, "):");
        if (r->each)
            g_string_append(c, " the program is called at the operation "
                            "level, as its operations complete, and the "
                            "schedule keeps its calls' order and local work "
                            "but not what each call waited for: messages "
                            "and element transfers replay, cycles need not;");
        if (misses(r, route))
            g_string_append_printf(c, " %" PRIu64 " of %" PRIu64 " sends "
                                   "replay along another path or in another "
                                   "class", misses(r, route), r->sends);
        if (h.off_route)
            g_string_append_printf(c, ", %" PRIu64 " along explicit paths "
                                   "that are not the default route",
                                   h.off_route);
        if (h.other_link)
            g_string_append_printf(c, ", %" PRIu64 " over a link that is "
                                   "not the first to their neighbour",
                                   h.other_link);
        if (h.other_class)
            g_string_append_printf(c, ", %" PRIu64 " %s (one-link and "
                                   "routed sends to neighbours are mixed)",
                                   h.other_class,
                                   h.router ? "one-link sends to neighbours"
                                            : "routed sends to neighbours");
    }
    s->comment = g_string_free(c, FALSE);
    recorder_clear(r);
    if (how)
        *how = h;
    return s;
}
