/* check_traces.c -- traces: recording, the file format, queries, exports.
 *
 * Asserted, on cube scenarios and on meshes, tori and complete graphs
 * (tests/traffic.h drives the engine there): a recorded trace agrees with
 * the run's own statistics (every element transfer once, per link and
 * direction against the report's link_up/link_down, busy ticks per link
 * at each message's own element time, the busiest channel, exact
 * intervals and startups for the dimension exchange); the channel table
 * lists exactly the channels that carried something, named through the
 * topology, even on a complete graph whose node * links overflows 32 bits;
 * recording changes no result (the JSON report is identical with and
 * without it) and is deterministic byte for byte; the file reads back to
 * the same trace; every truncation and every flipped byte of a file is a
 * clear error, never a crash, and so is each broken rule of trace.h under
 * a valid checksum; a version 1 file (tests/data/traces/v1.trace, written
 * by cubemu before 2.0) is refused naming both versions; marks of a
 * 1024-node run are merged without losing a node; the CSV's element
 * columns, one per link, add up to element_transfers; the Paje and Chrome
 * exports have one event per recorded interval and startup and name
 * channels by link; with tick-seconds the Chrome time axis is physical
 * microseconds.
 */
#include "export.h"
#include "run.h"
#include "trace.h"

#include <check.h>
#include "check_main.h"
#include "report_json.h"
#include "traffic.h"
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

static Scenario *scenario_text(const char *text)
{
    GError *e = NULL;
    Scenario *s = scenario_load_data("test", text, &e);
    ck_assert_msg(s != NULL, "%s", e ? e->message : "");
    return s;
}

typedef struct {
    Report *report;
    Trace *trace;
} Recorded;

/* Scenarios with contention (ports = one splits messages into runs),
 * startups, a slow element time, multi-step programs. */
static const char *const scenarios[] = {
    "[machine]\ntopology = cube\ndimensions = 5\n[algorithm]\n"
    "name = gray-to-binary\nmethod = concurrent\nelements-per-node = 7\n",
    "[machine]\ntopology = cube\ndimensions = 4\n[algorithm]\n"
    "name = gray-to-binary\nmethod = sequential\nelements-per-node = 8\n",
    "[machine]\ntopology = cube\ndimensions = 4\nports = one\n[algorithm]\n"
    "name = exchange\nmethod = all-port\nelements-per-node = 9\n",
    "[machine]\ntopology = cube\ndimensions = 3\nstartup = 2\nelement-time = 3\n"
    "[algorithm]\nname = exchange\nmethod = sequential\nelements-per-node = 5\n",
    "[machine]\ntopology = cube\ndimensions = 6\nports = 2\n[algorithm]\n"
    "name = binary-to-gray\nmethod = concurrent\nelements-per-node = 33\n",
};

/* Machines for tests/traffic.h: a mesh, a torus with contention, a
 * complete graph with startups holding ports and a tick length, a 3-d
 * torus pricing its classes apart. */
static const char *const machines[] = {
    "[machine]\ntopology = mesh\nshape = 4x4\n",
    "[machine]\ntopology = mesh\nshape = 4x4\nwrap = yes\nports = one\n",
    "[machine]\ntopology = complete\nprocessors = 8\nstartup = 2\n"
    "tick-seconds = 1e-6\n",
    "[machine]\ntopology = mesh\nshape = 3x2x3\nwrap = yes\nports = 2\n"
    "neighbour.startup = 1\nrouter.startup = 3\nrouter.element-time = 2\n",
};

#define SCENARIOS ((int)G_N_ELEMENTS(scenarios))
#define CASES (SCENARIOS + (int)G_N_ELEMENTS(machines))

static Recorded record(const char *text)
{
    g_autoptr(Scenario) s = scenario_text(text);
    g_autoptr(TraceRecorder) rec = trace_recorder_new();
    RunOptions opt = { .observer = trace_recorder_observer(),
                       .observer_data = rec };
    GError *e = NULL;
    Recorded r = { run_scenario(s, &opt, &e), NULL };
    ck_assert_msg(r.report != NULL, "%s", e ? e->message : "");
    r.trace = trace_recorder_finish(rec, r.report);
    return r;
}

static Recorded record_traffic(const char *machine)
{
    GError *e = NULL;
    Recorded r = { NULL, NULL };
    r.report = traffic_record(machine, &r.trace, &e);
    ck_assert_msg(r.report != NULL, "%s", e ? e->message : "");
    return r;
}

/* Case i: a cube scenario, then a traffic machine. */
static Recorded record_case(int i)
{
    return i < SCENARIOS ? record(scenarios[i])
                         : record_traffic(machines[i - SCENARIOS]);
}

static void recorded_clear(Recorded *r)
{
    report_free(r->report);
    trace_free(r->trace);
}

static GBytes *trace_bytes(const Trace *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    GError *e = NULL;
    ck_assert_msg(trace_write(t, f, "memory", &e), "%s", e ? e->message : "");
    fclose(f);
    return g_bytes_new_take(buf, len);
}

/* ---- recording agrees with the run ------------------------------------ */

START_TEST(trace_matches_run_statistics)
{
    Recorded r = record_case(_i);
    const Trace *t = r.trace;
    const Report *rep = r.report;
    const Topology *tp = &rep->machine.topology;
    ck_assert_uint_eq(trace_nodes(t), tp->nodes);
    ck_assert_int_eq(t->topology.links, tp->links);
    ck_assert_ptr_eq(t->topology.ops, tp->ops);
    ck_assert_int_eq(t->cycles, rep->cycles);
    ck_assert(t->tick_seconds == rep->machine.tick_seconds);
    ck_assert_str_eq(trace_info(t, "algorithm"), rep->algorithm);
    int links = tp->links;
    uint64_t *up = g_new0(uint64_t, links), *down = g_new0(uint64_t, links);
    uint64_t *busy = g_new0(uint64_t, links);
    uint64_t *per_channel = g_new0(uint64_t, t->channels->len);
    uint64_t total = 0;
    /* The table: sorted, each channel one the topology has. */
    CkTally table = CK_TALLY_INIT;
    for (guint c = 0; c < t->channels->len; c++) {
        const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, c);
        ck_tally_uint(&table, topology_neighbour(tp, ch->source, (int)ch->link),
                      ch->dest, "channel %u (node %u link %u): dest", c,
                      ch->source, ch->link);
        ck_tally_int(&table, topology_direction(tp, ch->source, (int)ch->link),
                     ch->direction, "channel %u (node %u link %u): direction", c,
                     ch->source, ch->link);
        if (c) {
            const TraceChannel *p = &g_array_index(t->channels, TraceChannel, c - 1);
            ck_tally_true(&table, p->source < ch->source
                                  || (p->source == ch->source && p->link < ch->link),
                          "channel %u (node %u link %u) after channel %u (node %u "
                          "link %u) in (source, link) order", c, ch->source,
                          ch->link, c - 1, p->source, p->link);
        }
    }
    ck_tally_assert(&table, "case %d: channel table", _i);
    CkTally records = CK_TALLY_INIT;
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        const TraceChannel *c = &g_array_index(t->channels, TraceChannel, b->channel);
        const TraceMessage *m = &g_array_index(t->messages, TraceMessage, b->message);
        ck_tally_int(&records, rep->machine.price[m->cls].element_time,
                     m->element_time, "busy record %u (message %u, class %d): "
                     "element time", i, b->message, (int)m->cls);
        (c->direction > 0 ? up : down)[c->link] += b->count;
        busy[c->link] += b->count * (uint64_t)m->element_time;
        per_channel[b->channel] += b->count;
        total += b->count;
        /* As ck_assert_int_le: both sides as intmax_t. */
        intmax_t end = trace_busy_end(t, b), cycles = t->cycles;
        ck_tally_true(&records, end <= cycles,
                      "busy record %u ends at %jd, within the run's %jd cycles",
                      i, end, cycles);
    }
    ck_tally_assert(&records, "case %d: busy records", _i);
    ck_assert_uint_eq(total, rep->element_transfers);
    ck_assert_uint_eq(total, t->element_transfers);
    CkTally per_link = CK_TALLY_INIT;
    for (int l = 0; l < links; l++) {
        ck_tally_uint(&per_link, rep->link_up[l], up[l], "link %d: elements up", l);
        ck_tally_uint(&per_link, rep->link_down[l], down[l], "link %d: elements down", l);
        ck_tally_uint(&per_link, rep->link_busy[l], busy[l], "link %d: busy ticks", l);
    }
    ck_tally_assert(&per_link, "case %d: per link against the report", _i);
    uint64_t most = 0;
    CkTally used = CK_TALLY_INIT;
    for (guint c = 0; c < t->channels->len; c++) {
        /* only used channels (as ck_assert_uint_gt: unsigned) */
        ck_tally_true(&used, per_channel[c] > 0, "channel %u carried elements", c);
        most = MAX(most, per_channel[c]);
    }
    ck_tally_assert(&used, "case %d: channels in the table", _i);
    ck_assert_uint_eq(most, rep->max_channel_elements);
    ck_assert_uint_le(t->messages->len, rep->messages);
    /* Startups: exactly when they hold a port, each its class's price. */
    uint64_t with_startup = 0;
    for (guint i = 0; i < t->messages->len; i++) {
        const TraceMessage *m = &g_array_index(t->messages, TraceMessage, i);
        with_startup += rep->machine.price[m->cls].startup > 0;
    }
    ck_assert_uint_eq(t->startups->len,
                      rep->machine.startup_holds_port ? with_startup : 0);
    /* The index agrees: whole-run busy time is the elements times tau,
     * and every channel is found again by (node, link). */
    g_autoptr(TraceIndex) x = trace_index_new(t);
    CkTally index = CK_TALLY_INIT;
    for (guint c = 0; c < t->channels->len; c++) {
        const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, c);
        ck_tally_uint(&index, per_channel[c], trace_index_elements(x, c),
                      "channel %u: elements", c);
        ck_tally_int(&index, c, trace_index_find(x, ch->source, ch->link),
                     "channel %u found by (node %u, link %u)", c, ch->source,
                     ch->link);
    }
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        ck_tally_ptr(&index, b, trace_index_at(x, b->channel, b->start),
                     "busy record %u found at (channel %u, tick %lld)", i,
                     b->channel, (long long)b->start);
    }
    ck_tally_assert(&index, "case %d: the index", _i);
    g_free(up);
    g_free(down);
    g_free(busy);
    g_free(per_channel);
    recorded_clear(&r);
}
END_TEST

/* The sequential exchange on a 3-cube, K = 5, Ts = 2, tau = 3: in step d
 * every channel of dimension d carries one run of 5 elements, starting
 * after the step's startup, which holds that channel for 2 cycles. */
START_TEST(exchange_intervals_exact)
{
    Recorded r = record(scenarios[3]);
    const Trace *t = r.trace;
    Tick step = 2 + 5 * 3;
    ck_assert_uint_eq(t->channels->len, 8 * 3);
    ck_assert_uint_eq(t->busy->len, 8 * 3);
    CkTally runs = CK_TALLY_INIT;
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        const TraceChannel *c = &g_array_index(t->channels, TraceChannel, b->channel);
        const TraceMessage *m = &g_array_index(t->messages, TraceMessage, b->message);
        ck_tally_int(&runs, (Tick)c->link * step + 2, b->start,
                     "busy record %u (node %u link %u): start", i, c->source, c->link);
        ck_tally_uint(&runs, 0, b->first, "busy record %u: first", i);
        ck_tally_uint(&runs, 5, b->count, "busy record %u: count", i);
        ck_tally_uint(&runs, c->source, m->source, "busy record %u: message source", i);
        ck_tally_uint(&runs, c->dest, m->dest, "busy record %u: message dest", i);
        ck_tally_uint(&runs, 1, m->hops, "busy record %u: message hops", i);
        ck_tally_int(&runs, 3, m->element_time, "busy record %u: element time", i);
    }
    ck_tally_assert(&runs, "busy records of the exchange");
    ck_assert(t->startup_holds_port);
    ck_assert_uint_eq(t->startups->len, 8 * 3);
    CkTally startups = CK_TALLY_INIT;
    for (guint i = 0; i < t->startups->len; i++) {
        const TraceStartup *s = &g_array_index(t->startups, TraceStartup, i);
        ck_tally_int(&startups, (Tick)s->link * step, s->start,
                     "startup %u (link %u): start", i, s->link);
        ck_tally_int(&startups, 2, s->duration, "startup %u: duration", i);
    }
    ck_tally_assert(&startups, "startups of the exchange");
    g_autoptr(TraceIndex) x = trace_index_new(t);
    ck_assert_str_eq(trace_index_phase(x, 0, NULL), "dimension 0");
    uint32_t nodes;
    ck_assert_str_eq(trace_index_phase(x, 2 * 17 + 1, &nodes), "dimension 2");
    ck_assert_uint_eq(nodes, 8);
    ck_assert_int_eq(trace_index_busy(x, 0, 0, 5), 3);   /* [2, 5) of [2, 17) */
    ck_assert_ptr_nonnull(trace_index_at(x, 0, 16));
    ck_assert_ptr_null(trace_index_at(x, 0, 17));
    recorded_clear(&r);
}
END_TEST

/* A complete graph of 70000 processors: node * links passes 2^32, so a
 * 32-bit channel key would wrap. Every node sends once, to the node
 * 35000 away; the table holds exactly those channels. */
START_TEST(complete_graph_keys_do_not_overflow)
{
    GError *e = NULL;
    Trace *t = NULL;
    g_autoptr(Report) rep = traffic_record_mode(
        "[machine]\ntopology = complete\nprocessors = 70000\n", TRUE, &t, &e);
    ck_assert_msg(rep != NULL, "%s", e ? e->message : "");
    ck_assert_uint_eq(t->channels->len, 70000);
    CkTally keys = CK_TALLY_INIT;
    for (guint c = 0; c < t->channels->len; c++) {
        const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, c);
        ck_tally_uint(&keys, c, ch->source, "channel %u: source", c);
        ck_tally_uint(&keys, (c + 35000) % 70000, ch->link, "channel %u: link", c);
        ck_tally_uint(&keys, ch->link, ch->dest, "channel %u: dest", c);
    }
    ck_tally_assert(&keys, "channels of the 70000-node complete graph");
    char name[TRACE_CHANNEL_NAME_MAX];
    trace_channel_name(t, 69999, 34999, name, sizeof name);
    ck_assert_str_eq(name, "node 69999 to 34999");
    g_autoptr(GBytes) bytes = trace_bytes(t);
    gsize len;
    const guint8 *data = g_bytes_get_data(bytes, &len);
    g_autoptr(Trace) back = trace_parse("bytes", data, len, &e);
    ck_assert_msg(back != NULL, "%s", e ? e->message : "");
    ck_assert_uint_eq(trace_nodes(back), 70000);
    trace_free(t);
}
END_TEST

START_TEST(recording_changes_nothing)
{
    g_autoptr(Scenario) s = scenario_text(scenarios[_i]);
    GError *e = NULL;
    RunOptions plain = { .dump_memory = TRUE };
    g_autoptr(Report) a = run_scenario(s, &plain, &e);
    ck_assert_msg(a != NULL, "%s", e ? e->message : "");
    g_autoptr(TraceRecorder) rec = trace_recorder_new();
    RunOptions traced = { .dump_memory = TRUE,
                          .observer = trace_recorder_observer(),
                          .observer_data = rec };
    g_autoptr(Report) b = run_scenario(s, &traced, &e);
    ck_assert_msg(b != NULL, "%s", e ? e->message : "");
    g_autofree char *ja = json_without_wall(a);
    g_autofree char *jb = json_without_wall(b);
    size_t at = 0;
    while (ja[at] && ja[at] == jb[at])
        at++;
    ck_assert_msg(ja[at] == jb[at], "reports differ at byte %zu: '%.60s' against '%.60s'",
                  at, ja + (at > 20 ? at - 20 : 0), jb + (at > 20 ? at - 20 : 0));
}
END_TEST

START_TEST(traces_are_deterministic)
{
    Recorded a = record_case(_i), b = record_case(_i);
    g_autoptr(GBytes) ba = trace_bytes(a.trace);
    g_autoptr(GBytes) bb = trace_bytes(b.trace);
    ck_assert(g_bytes_equal(ba, bb));
    recorded_clear(&a);
    recorded_clear(&b);
}
END_TEST

/* 1024 nodes each mark every one of their 9 steps: far fewer records, and
 * every (node, step) still there. */
START_TEST(marks_merged_without_loss)
{
    Recorded r = record("[machine]\ntopology = cube\ndimensions = 10\n[algorithm]\n"
                        "name = gray-to-binary\nmethod = concurrent\n"
                        "elements-per-node = 18\n");
    const Trace *t = r.trace;
    uint64_t marked = 0;
    for (guint i = 0; i < t->marks->len; i++)
        marked += g_array_index(t->marks, TraceMark, i).nodes;
    ck_assert_uint_eq(marked, 9 * 1024);
    ck_assert_uint_lt(t->marks->len, 9 * 1024 / 8);
    ck_assert_uint_eq(t->labels->len, 9);
    /* Every node gave every step exactly once. */
    guint8 *seen = g_new0(guint8, 9 * 1024);
    CkTally marks = CK_TALLY_INIT;
    for (guint i = 0; i < t->marks->len; i++) {
        const TraceMark *m = &g_array_index(t->marks, TraceMark, i);
        const char *label = t->labels->pdata[m->label];
        unsigned step = 0;
        int parsed = sscanf(label, "step %u", &step);
        ck_tally_int(&marks, 1, parsed, "mark %u: label '%s' reads as 'step N'",
                     i, label);
        /* step and the node range index seen: one that does not read, or
         * lies outside, is tallied and skipped, never counted out of
         * bounds. */
        gboolean inside = step < 9 && m->nodes <= 1024 && m->node <= 1024 - m->nodes;
        ck_tally_true(&marks, parsed != 1 || inside,
                      "mark %u: step %u, nodes [%u, %u + %u) within 9 steps of "
                      "1024 nodes", i, step, m->node, m->node, m->nodes);
        if (parsed != 1 || !inside)
            continue;
        for (uint32_t v = m->node; v < m->node + m->nodes; v++)
            seen[step * 1024 + v]++;
    }
    for (guint i = 0; i < 9 * 1024; i++)
        ck_tally_uint(&marks, 1, seen[i], "step %u of node %u: marks", i / 1024,
                      i % 1024);
    ck_tally_assert(&marks, "marks of every (node, step)");
    g_free(seen);
    recorded_clear(&r);
}
END_TEST

/* ---- the file ---------------------------------------------------------- */

static void assert_same_trace(const Trace *a, const Trace *b)
{
    ck_assert_ptr_eq(a->topology.ops, b->topology.ops);
    ck_assert_uint_eq(trace_nodes(a), trace_nodes(b));
    ck_assert_int_eq(a->topology.links, b->topology.links);
    ck_assert_int_eq(a->topology.axes, b->topology.axes);
    ck_assert_int_eq(a->topology.wrap, b->topology.wrap);
    ck_assert_int_eq(a->ports, b->ports);
    ck_assert_int_eq(a->startup_holds_port, b->startup_holds_port);
    ck_assert(a->tick_seconds == b->tick_seconds);
    ck_assert_int_eq(a->cycles, b->cycles);
    ck_assert_uint_eq(a->element_transfers, b->element_transfers);
    /* The counts first, as real assertions: each loop below indexes both
     * traces up to a's count. The records then go through one tally,
     * whose message names the first that differs. */
    ck_assert_uint_eq(a->info->len, b->info->len);
    ck_assert_uint_eq(a->channels->len, b->channels->len);
    ck_assert_uint_eq(a->messages->len, b->messages->len);
    ck_assert_uint_eq(a->busy->len, b->busy->len);
    ck_assert_uint_eq(a->startups->len, b->startups->len);
    ck_assert_uint_eq(a->labels->len, b->labels->len);
    ck_assert_uint_eq(a->marks->len, b->marks->len);
    CkTally same = CK_TALLY_INIT;
    for (int i = 0; i < a->topology.axes; i++)
        ck_tally_uint(&same, a->topology.side[i], b->topology.side[i],
                      "side of axis %d", i);
    for (MessageClass c = 0; c < CLASS_COUNT; c++) {
        ck_tally_int(&same, a->price[c].startup, b->price[c].startup,
                     "class %d: startup", (int)c);
        ck_tally_int(&same, a->price[c].element_time, b->price[c].element_time,
                     "class %d: element time", (int)c);
    }
    for (guint i = 0; i < a->info->len; i++) {
        ck_tally_str(&same, g_array_index(a->info, TraceInfo, i).key,
                     g_array_index(b->info, TraceInfo, i).key, "info %u: key", i);
        ck_tally_str(&same, g_array_index(a->info, TraceInfo, i).value,
                     g_array_index(b->info, TraceInfo, i).value,
                     "info %u (%s): value", i, g_array_index(a->info, TraceInfo, i).key);
    }
    for (guint i = 0; i < a->channels->len; i++) {
        const TraceChannel *x = &g_array_index(a->channels, TraceChannel, i);
        const TraceChannel *y = &g_array_index(b->channels, TraceChannel, i);
        ck_tally_true(&same, x->source == y->source && x->link == y->link
                             && x->dest == y->dest && x->direction == y->direction,
                      "channel %u: (source, link, dest, direction) (%u, %u, %u, %d) "
                      "read back as (%u, %u, %u, %d)", i, x->source, x->link,
                      x->dest, x->direction, y->source, y->link, y->dest,
                      y->direction);
    }
    for (guint i = 0; i < a->messages->len; i++) {
        const TraceMessage *x = &g_array_index(a->messages, TraceMessage, i);
        const TraceMessage *y = &g_array_index(b->messages, TraceMessage, i);
        ck_tally_true(&same, x->id == y->id && x->count == y->count
                             && x->posted == y->posted
                             && x->element_time == y->element_time && x->cls == y->cls
                             && x->source == y->source && x->dest == y->dest
                             && x->tag == y->tag && x->hops == y->hops,
                      "message %u: (id, count, posted, element time, class, source, "
                      "dest, tag, hops) (%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
                      ", %lld, %lld, %d, %u, %u, %d, %u) read back as (%"
                      G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ", %lld, %lld, %d, %u, "
                      "%u, %d, %u)", i, x->id, x->count, (long long)x->posted,
                      (long long)x->element_time, (int)x->cls, x->source, x->dest,
                      x->tag, x->hops, y->id, y->count, (long long)y->posted,
                      (long long)y->element_time, (int)y->cls, y->source, y->dest,
                      y->tag, y->hops);
    }
    for (guint i = 0; i < a->busy->len; i++) {
        const TraceBusy *x = &g_array_index(a->busy, TraceBusy, i);
        const TraceBusy *y = &g_array_index(b->busy, TraceBusy, i);
        ck_tally_true(&same, x->start == y->start && x->first == y->first
                             && x->count == y->count && x->channel == y->channel
                             && x->message == y->message,
                      "busy record %u: (start, first, count, channel, message) "
                      "(%lld, %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ", %u, %u) "
                      "read back as (%lld, %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
                      ", %u, %u)", i, (long long)x->start, x->first, x->count,
                      x->channel, x->message, (long long)y->start, y->first,
                      y->count, y->channel, y->message);
    }
    for (guint i = 0; i < a->startups->len; i++) {
        const TraceStartup *x = &g_array_index(a->startups, TraceStartup, i);
        const TraceStartup *y = &g_array_index(b->startups, TraceStartup, i);
        ck_tally_true(&same, x->start == y->start && x->duration == y->duration
                             && x->message == y->message && x->link == y->link,
                      "startup %u: (start, duration, message, link) (%lld, %lld, "
                      "%u, %u) read back as (%lld, %lld, %u, %u)", i,
                      (long long)x->start, (long long)x->duration, x->message,
                      x->link, (long long)y->start, (long long)y->duration,
                      y->message, y->link);
    }
    for (guint i = 0; i < a->labels->len; i++)
        ck_tally_str(&same, a->labels->pdata[i], b->labels->pdata[i], "label %u", i);
    for (guint i = 0; i < a->marks->len; i++) {
        const TraceMark *x = &g_array_index(a->marks, TraceMark, i);
        const TraceMark *y = &g_array_index(b->marks, TraceMark, i);
        ck_tally_true(&same, x->time == y->time && x->label == y->label
                             && x->node == y->node && x->nodes == y->nodes,
                      "mark %u: (time, label, node, nodes) (%lld, %u, %u, %u) read "
                      "back as (%lld, %u, %u, %u)", i, (long long)x->time, x->label,
                      x->node, x->nodes, (long long)y->time, y->label, y->node,
                      y->nodes);
    }
    ck_assert_uint_eq(a->faults->len, b->faults->len);
    for (guint i = 0; i < a->faults->len; i++) {
        const FaultEntry *x = &g_array_index(a->faults, FaultEntry, i);
        const FaultEntry *y = &g_array_index(b->faults, FaultEntry, i);
        ck_tally_true(&same, x->node == y->node && x->link == y->link
                             && x->from == y->from && x->until == y->until,
                      "fault %u read back changed", i);
    }
    for (guint i = 0; i < a->messages->len; i++)
        ck_tally_true(&same, g_array_index(a->messages, TraceMessage, i).detoured
                             == g_array_index(b->messages, TraceMessage, i).detoured,
                      "message %u's detoured flag read back changed", i);
    ck_tally_assert(&same, "the trace read back");
}

START_TEST(file_round_trip)
{
    Recorded r = record_case(_i);
    g_autofree char *dir = g_dir_make_tmp("cubemu-trace-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "run.trace", NULL);
    GError *e = NULL;
    ck_assert_msg(trace_save(r.trace, path, &e), "%s", e ? e->message : "");
    g_autoptr(Trace) back = trace_load(path, &e);
    ck_assert_msg(back != NULL, "%s", e ? e->message : "");
    assert_same_trace(r.trace, back);
    remove(path);
    g_rmdir(dir);
    recorded_clear(&r);
}
END_TEST

static gboolean error_names_file(const GError *e)
{
    return e && g_str_has_prefix(e->message, "bytes: ")
           && (strstr(e->message, "truncated") || strstr(e->message, "corrupt")
               || strstr(e->message, "not a cubemu trace")
               || strstr(e->message, "not supported"));
}

/* The cube with contention, and the 3-d torus whose header has a shape,
 * startups and two classes. */
static const int damaged_cases[] = { 2, SCENARIOS + 3 };

START_TEST(every_truncation_is_an_error)
{
    Recorded r = record_case(damaged_cases[_i]);
    g_autoptr(GBytes) bytes = trace_bytes(r.trace);
    gsize len;
    const guint8 *data = g_bytes_get_data(bytes, &len);
    CkTally refused = CK_TALLY_INIT;
    for (gsize cut = 0; cut < len; cut++) {
        /* A copy of exactly `cut` bytes, so the sanitizers see any read
         * past the end. */
        guint8 *copy = g_memdup2(data, cut ? cut : 1);
        GError *e = NULL;
        Trace *t = trace_parse("bytes", copy, cut, &e);
        ck_tally_true(&refused, t == NULL, "a %zu-byte prefix of %zu parsed",
                      (size_t)cut, (size_t)len);
        ck_tally_true(&refused, error_names_file(e), "cut %zu: %s", (size_t)cut,
                      e ? e->message : "(no error)");
        /* The loop goes on past a failure: free a trace that parsed, and
         * an error that may be missing. */
        trace_free(t);
        g_clear_error(&e);
        g_free(copy);
    }
    ck_tally_assert(&refused, "case %d: every prefix of %zu bytes",
                    damaged_cases[_i], (size_t)len);
    recorded_clear(&r);
}
END_TEST

START_TEST(every_flipped_byte_is_an_error)
{
    Recorded r = record_case(damaged_cases[_i]);
    g_autoptr(GBytes) bytes = trace_bytes(r.trace);
    gsize len;
    const guint8 *data = g_bytes_get_data(bytes, &len);
    guint8 *copy = g_memdup2(data, len);
    static const guint8 flips[] = { 0x01, 0x80, 0xff };
    CkTally refused = CK_TALLY_INIT;
    for (gsize i = 0; i < len; i++)
        for (guint f = 0; f < G_N_ELEMENTS(flips); f++) {
            copy[i] ^= flips[f];
            GError *e = NULL;
            Trace *t = trace_parse("bytes", copy, len, &e);
            ck_tally_true(&refused, t == NULL,
                          "flipping byte %zu by %02x went unnoticed", (size_t)i,
                          flips[f]);
            ck_tally_true(&refused, error_names_file(e), "byte %zu (by %02x): %s",
                          (size_t)i, flips[f], e ? e->message : "(no error)");
            /* The loop goes on past a failure: free a trace that parsed,
             * and an error that may be missing. */
            trace_free(t);
            g_clear_error(&e);
            copy[i] ^= flips[f];
        }
    ck_tally_assert(&refused, "case %d: every flipped byte of %zu",
                    damaged_cases[_i], (size_t)len);
    g_free(copy);
    recorded_clear(&r);
}
END_TEST

/* Break one rule of trace.h in a written file (through the Trace, or by
 * patching a byte), fix the checksum, and return the reader's message. */
static char *broken_message(int which, void (*breaker)(Trace *t),
                            gsize patch_offset, int patch_value)
{
    Recorded r = record_case(which);
    if (breaker)
        breaker(r.trace);
    g_autoptr(GBytes) bytes = trace_bytes(r.trace);
    gsize len;
    const guint8 *original = g_bytes_get_data(bytes, &len);
    guint8 *data = g_memdup2(original, len);
    if (patch_value >= 0) {
        data[patch_offset] = (guint8)patch_value;
        uint32_t crc = (uint32_t)crc32_z(0, data, len - 4);
        for (int i = 0; i < 4; i++)
            data[len - 4 + i] = (guint8)(crc >> (8 * i));
    }
    GError *e = NULL;
    Trace *t = trace_parse("bytes", data, len, &e);
    ck_assert_ptr_null(t);
    char *msg = g_strdup(e->message);
    g_error_free(e);
    g_free(data);
    recorded_clear(&r);
    return msg;
}

static void break_channel_index(Trace *t)
{
    g_array_index(t->busy, TraceBusy, 0).channel = t->channels->len;
}

static void break_overlap(Trace *t)
{
    TraceBusy copy = g_array_index(t->busy, TraceBusy, 0);
    g_array_insert_val(t->busy, 1, copy);
    t->element_transfers += copy.count;
}

static void break_sum(Trace *t)
{
    t->element_transfers++;
}

static void break_mark(Trace *t)
{
    g_array_index(t->marks, TraceMark, 0).nodes = trace_nodes(t) + 1;
}

static void break_label(Trace *t)
{
    g_free(t->labels->pdata[0]);
    t->labels->pdata[0] = g_strdup("\xff\xfe");
}

static void break_time(Trace *t)
{
    g_array_index(t->busy, TraceBusy, 0).start = t->cycles;
}

/* Node 0 of a mesh without wrap has no -x. */
static void break_missing_link(Trace *t)
{
    g_array_index(t->channels, TraceChannel, 0).link = 1;
}

static void break_channel_order(Trace *t)
{
    TraceChannel *c = (TraceChannel *)(void *)t->channels->data;
    TraceChannel first = c[0];
    c[0] = c[1];
    c[1] = first;
}

/* The last channel's records removed: it stays in the table, idle. */
static void break_unused_channel(Trace *t)
{
    uint32_t last = t->channels->len - 1;
    while (t->busy->len
           && g_array_index(t->busy, TraceBusy, t->busy->len - 1).channel == last) {
        t->element_transfers -= g_array_index(t->busy, TraceBusy,
                                              t->busy->len - 1).count;
        g_array_set_size(t->busy, t->busy->len - 1);
    }
}

static void break_startup(Trace *t)
{
    g_array_index(t->startups, TraceStartup, 0).duration++;
}

static void break_class(Trace *t)
{
    g_array_index(t->messages, TraceMessage, 0).cls = CLASS_COUNT;
}

/* Offsets in the fixed header (FORMAT.md). */
#define AT_MAJOR 8
#define AT_TOPOLOGY 16
#define AT_NODES 24
#define AT_BUSY_COUNT 112

START_TEST(broken_rules_are_named)
{
    const int gray4 = 1, mesh = SCENARIOS, complete = SCENARIOS + 2;
    Recorded r = record(scenarios[gray4]);
    g_autofree char *want = g_strdup_printf(
        "bytes: corrupt: busy record 0 names channel %u of %u",
        r.trace->channels->len, r.trace->channels->len);
    recorded_clear(&r);
    g_autofree char *a = broken_message(gray4, break_channel_index, 0, -1);
    ck_assert_msg(g_str_has_prefix(a, want), "%s", a);
    g_autofree char *b = broken_message(gray4, break_overlap, 0, -1);
    ck_assert_msg(strstr(b, "out of order or overlap on one channel") != NULL, "%s", b);
    g_autofree char *c = broken_message(gray4, break_sum, 0, -1);
    ck_assert_msg(strstr(c, "the header says") != NULL, "%s", c);
    g_autofree char *d = broken_message(gray4, break_mark, 0, -1);
    ck_assert_msg(strstr(d, "corrupt: mark 0 names") != NULL, "%s", d);
    g_autofree char *f = broken_message(gray4, break_label, 0, -1);
    ck_assert_msg(strstr(f, "label 1 of 3 does not fit or is not UTF-8") != NULL, "%s", f);
    g_autofree char *g = broken_message(gray4, break_time, 0, -1);
    ck_assert_msg(strstr(g, "lies outside the run's 24 cycles") != NULL, "%s", g);
    g_autofree char *i = broken_message(mesh, break_missing_link, 0, -1);
    ck_assert_str_eq(i, "bytes: corrupt: channel 0 leaves node 0 on -x, a link "
                        "that node does not have");
    g_autofree char *j = broken_message(mesh, break_channel_order, 0, -1);
    ck_assert_str_eq(j, "bytes: corrupt: channels 0 and 1 are out of order or "
                        "repeated");
    g_autofree char *k = broken_message(mesh, break_unused_channel, 0, -1);
    ck_assert_str_eq(k, "bytes: corrupt: 1 of the 48 channels in the table "
                        "carried nothing (the table lists only channels that did)");
    g_autofree char *l = broken_message(complete, break_startup, 0, -1);
    ck_assert_str_eq(l, "bytes: corrupt: startup record 0 lasts 3 cycles; a "
                        "neighbour message's startup is 2");
    g_autofree char *n = broken_message(complete, break_class, 0, -1);
    ck_assert_msg(strstr(n, "corrupt: message 0 has class 2") != NULL, "%s", n);
    g_autofree char *o = broken_message(mesh, NULL, AT_TOPOLOGY, 7);
    /* The list goes on with every topology registered after these. */
    ck_assert_msg(g_str_has_prefix(o, "bytes: corrupt: topology code 7 "
                                      "(valid: 0 cube, 1 mesh, 2 complete"),
                  "%s", o);
    g_autofree char *p = broken_message(mesh, NULL, AT_NODES, 15);
    ck_assert_str_eq(p, "bytes: corrupt: the header says 15 nodes and 4 links; "
                        "that mesh has 16 and 4");
    g_autofree char *v = broken_message(gray4, NULL, AT_MAJOR, 3);
    ck_assert_str_eq(v, "bytes: trace format version 3.2 is not supported "
                        "(this cubemu reads version 2.x; re-record the trace with it)");
    g_autofree char *m = broken_message(gray4, NULL, 1, 'X');
    ck_assert_str_eq(m, "bytes: not a cubemu trace (it does not begin with the "
                        "trace magic; see traces/FORMAT.md)");
    g_autofree char *h = broken_message(gray4, NULL, AT_BUSY_COUNT + 7, 0xff);
    ck_assert_msg(strstr(h, "truncated or corrupt: the header announces") != NULL, "%s", h);
}
END_TEST

/* ---- faults (format 2.2) ------------------------------------------------ */

/* The 3-cube's exchange with a dead link and a channel down for a while
 * (tests/traces.sh draws and exports the same run). */
static const char fault_scenario[] =
    "[machine]\ntopology = cube\ndimensions = 3\n"
    "faults = 0-1, 2>3@5..40\n[algorithm]\nname = exchange\n";

static Trace *parse_bytes(GBytes *bytes, GError **e)
{
    gsize len;
    const guint8 *data = g_bytes_get_data(bytes, &len);
    return trace_parse("bytes", data, len, e);
}

/* The recorder takes the machine's entries and marks the two messages
 * across 0-1 as detoured; the file gives all back, with a dead node added
 * to the list (the reader checks rules, not how a run came by them). */
START_TEST(faults_round_trip)
{
    Recorded r = record(fault_scenario);
    const Trace *t = r.trace;
    ck_assert_uint_eq(t->faults->len, 3);
    const FaultEntry want[] = { { 0, 0, 0, FAULTS_FOREVER },
                                { 1, 0, 0, FAULTS_FOREVER }, { 2, 0, 5, 40 } };
    for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
        const FaultEntry *e = &g_array_index(t->faults, FaultEntry, i);
        ck_assert_msg(e->node == want[i].node && e->link == want[i].link
                      && e->from == want[i].from && e->until == want[i].until,
                      "fault %u", i);
    }
    ck_assert_str_eq(trace_info(t, "faults"), "0-1, 2>3@5..40");
    guint detoured = 0;
    for (guint i = 0; i < t->messages->len; i++) {
        const TraceMessage *m = &g_array_index(t->messages, TraceMessage, i);
        if (m->detoured) {
            detoured++;
            ck_assert_uint_eq(m->hops, 3);
            ck_assert_uint_eq(m->source ^ m->dest, 1);
        }
    }
    ck_assert_uint_eq(detoured, 2);
    ck_assert(trace_channel_down(t, 0, 0, 0) && trace_channel_down(t, 1, 0, 255));
    ck_assert(!trace_channel_down(t, 2, 0, 4) && trace_channel_down(t, 2, 0, 5)
              && trace_channel_down(t, 2, 0, 39) && !trace_channel_down(t, 2, 0, 40));
    ck_assert(!trace_channel_faulty(t, 3, 0) && trace_channel_faulty(t, 2, 0));
    FaultEntry dead = { 5, -1, 0, FAULTS_FOREVER };
    g_array_insert_val(r.trace->faults, 3, dead);
    ck_assert(trace_node_dead(t, 5) && !trace_node_dead(t, 4));
    g_autoptr(GBytes) bytes = trace_bytes(t);
    GError *e = NULL;
    g_autoptr(Trace) back = parse_bytes(bytes, &e);
    ck_assert_msg(back != NULL, "%s", e ? e->message : "");
    assert_same_trace(t, back);
    ck_assert(trace_node_dead(back, 5));
    recorded_clear(&r);
}
END_TEST

/* Minor version 2.1 (what cubemu wrote before faults): a fault-free trace
 * is the same bytes apart from the version and the checksum, and reads
 * back without faults; a 2.1 file with bytes after its marks is refused,
 * as before. */
static GBytes *as_minor(GBytes *bytes, int minor)
{
    gsize len;
    const guint8 *original = g_bytes_get_data(bytes, &len);
    guint8 *data = g_memdup2(original, len);
    data[AT_MAJOR + 2] = (guint8)minor;
    data[AT_MAJOR + 3] = 0;
    uint32_t crc = (uint32_t)crc32_z(0, data, len - 4);
    for (int i = 0; i < 4; i++)
        data[len - 4 + i] = (guint8)(crc >> (8 * i));
    return g_bytes_new_take(data, len);
}

START_TEST(faults_and_older_minor_versions)
{
    Recorded plain = record(scenarios[1]);
    g_autoptr(GBytes) bytes = trace_bytes(plain.trace);
    g_autoptr(GBytes) old = as_minor(bytes, 1);
    GError *e = NULL;
    g_autoptr(Trace) back = parse_bytes(old, &e);
    ck_assert_msg(back != NULL, "%s", e ? e->message : "");
    ck_assert_uint_eq(back->version_minor, 1);
    ck_assert_uint_eq(back->faults->len, 0);
    assert_same_trace(plain.trace, back);
    recorded_clear(&plain);

    Recorded r = record(fault_scenario);
    g_autoptr(GBytes) faulty = trace_bytes(r.trace);
    g_autoptr(GBytes) faulty_old = as_minor(faulty, 1);
    ck_assert_ptr_null(parse_bytes(faulty_old, &e));
    ck_assert_str_eq(e->message, "bytes: corrupt: 80 bytes after the marks that "
                                 "the header does not account for");
    g_clear_error(&e);
    recorded_clear(&r);
}
END_TEST

static void break_fault_node(Trace *t)
{
    g_array_index(t->faults, FaultEntry, 0).node = trace_nodes(t);
}

static void break_fault_order(Trace *t)
{
    FaultEntry *f = (FaultEntry *)(void *)t->faults->data;
    FaultEntry first = f[0];
    f[0] = f[2];
    f[2] = first;
}

static void break_fault_interval(Trace *t)
{
    g_array_index(t->faults, FaultEntry, 2).until = 5;
}

static void break_fault_link(Trace *t)
{
    g_array_index(t->faults, FaultEntry, 0).link = 3;
}

static char *broken_fault(void (*breaker)(Trace *t))
{
    Recorded r = record(fault_scenario);
    breaker(r.trace);
    g_autoptr(GBytes) bytes = trace_bytes(r.trace);
    GError *e = NULL;
    ck_assert_ptr_null(parse_bytes(bytes, &e));
    char *msg = g_strdup(e->message);
    g_error_free(e);
    recorded_clear(&r);
    return msg;
}

START_TEST(broken_faults_are_named)
{
    g_autofree char *a = broken_fault(break_fault_node);
    ck_assert_str_eq(a, "bytes: corrupt: fault 0 names node 8 of 8");
    g_autofree char *b = broken_fault(break_fault_order);
    ck_assert_str_eq(b, "bytes: corrupt: faults 0 and 1 are out of order or "
                        "repeated");
    g_autofree char *c = broken_fault(break_fault_interval);
    ck_assert_str_eq(c, "bytes: corrupt: fault 2 lasts [5, 5) (valid: a dead "
                        "node for good, a channel over a nonempty interval "
                        "from 0 on)");
    g_autofree char *d = broken_fault(break_fault_link);
    ck_assert_str_eq(d, "bytes: corrupt: fault 0 names link 3 of node 0, which "
                        "it does not have");
}
END_TEST

/* A file cubemu wrote before format 2.0: refused, naming the file and
 * both versions. */
START_TEST(version_1_refused)
{
    const char *path = CUBEMU_SOURCE_DIR "/tests/data/traces/v1.trace";
    GError *e = NULL;
    ck_assert_ptr_null(trace_load(path, &e));
    g_autofree char *want = g_strdup_printf(
        "%s: trace format version 1.0 is not supported (this cubemu reads "
        "version 2.x; re-record the trace with it)", path);
    ck_assert_str_eq(e->message, want);
    ck_assert_int_eq(e->code, TRACE_ERROR_VERSION);
    g_error_free(e);
}
END_TEST

START_TEST(missing_file)
{
    GError *e = NULL;
    ck_assert_ptr_null(trace_load("/nonexistent/run.trace", &e));
    ck_assert_str_eq(e->message, "/nonexistent/run.trace: cannot read: No such file or directory");
    g_error_free(e);
}
END_TEST

/* ---- exports ----------------------------------------------------------- */

static char *export_text(const Trace *t, TraceExportFormat f, Tick window)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    GError *e = NULL;
    ck_assert_msg(trace_export(t, f, window, out, "memory", &e), "%s",
                  e ? e->message : "");
    fclose(out);
    return buf;
}

/* An export's lines, split by g_strsplit_set, which scans the characters
 * itself: g_strsplit calls strstr once a line, and under AddressSanitizer
 * each intercepted call measures the rest of the text, which makes a
 * split quadratic in an export's size. */
static char **export_lines(const char *text)
{
    return g_strsplit_set(text, "\n", -1);
}

static guint count_lines(const char *text, const char *prefix, const char *contains)
{
    guint n = 0;
    g_auto(GStrv) lines = export_lines(text);
    for (char **l = lines; *l; l++)
        n += g_str_has_prefix(*l, prefix) && (!contains || strstr(*l, contains));
    return n;
}

START_TEST(csv_sums_equal_element_transfers)
{
    Recorded r = record_case(_i);
    const Tick windows[] = { 0, 1, 2, 7, 1000000 };
    CkTally tally = CK_TALLY_INIT;
    for (guint w = 0; w < G_N_ELEMENTS(windows); w++) {
        long long ww = (long long)windows[w];
        g_autofree char *csv = export_text(r.trace, TRACE_EXPORT_CSV, windows[w]);
        g_auto(GStrv) lines = export_lines(csv);
        g_auto(GStrv) head = g_strsplit(lines[0], ",", -1);
        guint cols = g_strv_length(head);
        uint64_t sum = 0, total = 0;
        guint rows = 0, link_columns = 0;
        for (guint c = 0; c < cols; c++)
            link_columns += g_str_has_suffix(head[c], " elements");
        ck_tally_uint(&tally, (guint)r.trace->topology.links, link_columns,
                      "window %lld: link columns", ww);
        for (char **l = lines + 1; *l && **l; l++, rows++) {
            g_auto(GStrv) cells = g_strsplit(*l, ",", -1);
            guint ncells = g_strv_length(cells);
            ck_tally_uint(&tally, cols, ncells, "window %lld row %u: cells", ww, rows);
            /* The row is read a column of the header at a time: one with
             * too few cells is skipped, its difference tallied. */
            if (ncells != cols)
                continue;
            for (guint c = 0; c < cols; c++) {
                if (g_str_has_suffix(head[c], " elements"))
                    sum += g_ascii_strtoull(cells[c], NULL, 10);
                if (!strcmp(head[c], "elements"))
                    total += g_ascii_strtoull(cells[c], NULL, 10);
                if (g_str_has_suffix(head[c], "utilisation")) {
                    double u = g_ascii_strtod(cells[c], NULL);
                    ck_tally_true(&tally, u >= 0 && u <= 1 + 1e-9,
                                  "window %lld row %u: %s '%s' in [0, 1]", ww, rows,
                                  head[c], cells[c]);
                }
            }
        }
        Tick window = windows[w] ? windows[w] : trace_export_default_window(r.trace);
        ck_tally_uint(&tally, (guint)((r.trace->cycles + window - 1) / window), rows,
                      "window %lld: rows", ww);
        ck_tally_uint(&tally, r.report->element_transfers, sum,
                      "window %lld: sum of the link columns", ww);
        ck_tally_uint(&tally, r.report->element_transfers, total,
                      "window %lld: sum of the elements column", ww);
        gboolean seconds = strstr(lines[0], ",window_start_seconds,") != NULL;
        ck_tally_int(&tally, r.trace->tick_seconds > 0, seconds,
                     "window %lld: a window_start_seconds column", ww);
    }
    ck_tally_assert(&tally, "case %d: CSV", _i);
    recorded_clear(&r);
}
END_TEST

START_TEST(paje_and_chrome_counts)
{
    Recorded r = record_case(_i);
    const Trace *t = r.trace;
    uint64_t mark_nodes = 0, all_node_marks = 0, part_marks = 0;
    for (guint i = 0; i < t->marks->len; i++) {
        const TraceMark *m = &g_array_index(t->marks, TraceMark, i);
        mark_nodes += m->nodes;
        if (m->nodes == trace_nodes(t))
            all_node_marks++;
        else
            part_marks += m->nodes;
    }
    uint32_t nodes = trace_nodes(t);
    g_autofree char *paje = export_text(t, TRACE_EXPORT_PAJE, 0);
    ck_assert(g_str_has_prefix(paje, "%EventDef PajeDefineContainerType 0\n"));
    ck_assert(strstr(paje, "%EventDef PajeSetState 7\n") != NULL);
    ck_assert_uint_eq(count_lines(paje, "7 ", "V_busy"), t->busy->len);
    ck_assert_uint_eq(count_lines(paje, "7 ", "V_idle"),
                      t->busy->len + t->channels->len);
    ck_assert_uint_eq(count_lines(paje, "8 ", NULL), mark_nodes);
    ck_assert_uint_eq(count_lines(paje, "9 ", NULL), t->messages->len);
    ck_assert_uint_eq(count_lines(paje, "10 ", NULL), t->messages->len);
    ck_assert_uint_eq(count_lines(paje, "5 ", NULL), 1 + nodes + t->channels->len);
    ck_assert_uint_eq(count_lines(paje, "6 ", NULL), 1 + nodes + t->channels->len);
    ck_assert_uint_eq(count_lines(paje, "12 ", NULL), t->startups->len ? nodes : 0);
    ck_assert_uint_eq(count_lines(paje, "13 ", NULL), t->startups->len);
    ck_assert_uint_eq(count_lines(paje, "14 ", NULL), t->startups->len);
    /* Paje wants time order. */
    double last = 0;
    g_auto(GStrv) lines = export_lines(paje);
    CkTally order = CK_TALLY_INIT;
    for (char **l = lines; *l; l++) {
        int ev;
        double time;
        if (**l == '%' || sscanf(*l, "%d %lf", &ev, &time) != 2 || ev < 5
            || ev == 11)
            continue;
        ck_tally_true(&order, time >= last, "line %td '%.80s' at %.17g, not before %.17g",
                      l - lines + 1, *l, time, last);
        last = time;
    }
    ck_tally_assert(&order, "case %d: Paje events in time order", _i);
    g_autofree char *chrome = export_text(t, TRACE_EXPORT_CHROME, 0);
    ck_assert_uint_eq(count_lines(chrome, "", "\"ph\":\"X\""), t->busy->len);
    ck_assert_uint_eq(count_lines(chrome, "", "\"ph\":\"b\""), t->startups->len);
    ck_assert_uint_eq(count_lines(chrome, "", "\"ph\":\"e\""), t->startups->len);
    ck_assert_uint_eq(count_lines(chrome, "", "\"s\":\"g\""), all_node_marks);
    ck_assert_uint_eq(count_lines(chrome, "", "\"s\":\"p\""), part_marks);
    /* A thread per channel; and per channel that brings a message to its
     * destination a receive thread there, with a receive slice per such
     * busy record; a flow per message. */
    guint receive_tracks = 0, receives = 0;
    g_autofree guint8 *into = g_new0(guint8, t->channels->len + 1);
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        if (g_array_index(t->messages, TraceMessage, b->message).dest
            == g_array_index(t->channels, TraceChannel, b->channel).dest) {
            receives++;
            receive_tracks += !into[b->channel];
            into[b->channel] = 1;
        }
    }
    ck_assert_uint_eq(count_lines(chrome, "", "\"thread_name\"")
                      - count_lines(chrome, "", " phase\"}}")
                      - count_lines(chrome, "", "\"phases (all nodes)\""),
                      t->channels->len + receive_tracks);
    ck_assert_uint_eq(count_lines(chrome, "", " from node "), receive_tracks);
    ck_assert_uint_eq(count_lines(chrome, "", "\"cat\":\"receive\",\"ph\":\"B\""),
                      receives);
    ck_assert_uint_eq(count_lines(chrome, "", "\"ph\":\"s\""), t->messages->len);
    ck_assert_uint_eq(count_lines(chrome, "", "\"ph\":\"f\""), t->messages->len);
    recorded_clear(&r);
}
END_TEST

/* Every export names a channel by its topology's link: "node 5 +x" on the
 * torus, "node 3 to 7" on the complete graph; the CSV has a column per
 * link name. */
START_TEST(exports_name_links)
{
    static const struct { int which; const char *channel, *column; } want[] = {
        { 3, "node 5 dimension 2", "dimension 2 elements" },
        { SCENARIOS + 1, "node 5 +x", "-y elements" },
        { SCENARIOS + 2, "node 3 to 7", "to 7 elements" },
        { SCENARIOS + 3, "node 5 -z", "+z utilisation" },
    };
    CkTally named = CK_TALLY_INIT;
    for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
        Recorded r = record_case(want[i].which);
        g_autofree char *thread = g_strdup_printf("\"args\":{\"name\":\"%s\"}",
                                                  want[i].channel);
        g_autofree char *container = g_strdup_printf("CT_Channel C_N%c \"%s\"",
                                                     want[i].channel[5],
                                                     want[i].channel);
        g_autofree char *column = g_strdup_printf(",%s,", want[i].column);
        g_autofree char *chrome = export_text(r.trace, TRACE_EXPORT_CHROME, 0);
        g_autofree char *paje = export_text(r.trace, TRACE_EXPORT_PAJE, 0);
        g_autofree char *csv = export_text(r.trace, TRACE_EXPORT_CSV, 0);
        ck_tally_true(&named, strstr(chrome, thread) != NULL, "case %d: Chrome: no %s",
                      want[i].which, thread);
        ck_tally_true(&named, strstr(paje, container) != NULL, "case %d: Paje: no %s",
                      want[i].which, container);
        ck_tally_true(&named, strstr(csv, column) != NULL, "case %d: CSV: no %s in %.200s",
                      want[i].which, column, csv);
        recorded_clear(&r);
    }
    ck_tally_assert(&named, "channels and columns named by link");
}
END_TEST

/* Chrome's ts is the start tick, whatever the tick length (1 us of
 * display time is a tick), which otherData gives; Paje dates are
 * seconds. */
START_TEST(exports_show_seconds)
{
    Recorded r = record_case(SCENARIOS + 2);
    const Trace *t = r.trace;
    ck_assert(t->tick_seconds == 1e-6);
    g_autofree char *chrome = export_text(t, TRACE_EXPORT_CHROME, 0);
    ck_assert(strstr(chrome, "\"time_unit\":\"1 tick = 1 us of display time\","
                             "\"tick_seconds\":1e-06,") != NULL);
    const TraceBusy *b = &g_array_index(t->busy, TraceBusy, t->busy->len - 1);
    g_autofree char *slice = g_strdup_printf("\"ts\":%" G_GINT64_FORMAT ",",
                                             (gint64)b->start);
    ck_assert_msg(strstr(chrome, slice) != NULL, "no %s", slice);
    g_autofree char *paje = export_text(t, TRACE_EXPORT_PAJE, 0);
    char end[G_ASCII_DTOSTR_BUF_SIZE];
    g_ascii_formatd(end, sizeof end, "%.15g", (double)t->cycles * 1e-6);
    g_autofree char *destroy = g_strdup_printf("6 %s CT_Machine C_M\n", end);
    ck_assert_msg(strstr(paje, destroy) != NULL, "no %s", destroy);
    g_autofree char *text = trace_seconds_text(t, t->cycles);
    g_autofree char *expect = g_strdup_printf("%" G_GINT64_FORMAT " us",
                                              (gint64)t->cycles);
    ck_assert_str_eq(text, expect);
    recorded_clear(&r);
}
END_TEST

static Suite *traces_suite(void)
{
    Suite *s = suite_create("traces");
    TCase *t = ck_tcase(s, "recording", 120);
    tcase_add_loop_test(t, trace_matches_run_statistics, 0, CASES);
    tcase_add_test(t, exchange_intervals_exact);
    tcase_add_test(t, complete_graph_keys_do_not_overflow);
    tcase_add_loop_test(t, recording_changes_nothing, 0, SCENARIOS);
    tcase_add_loop_test(t, traces_are_deterministic, 0, CASES);
    tcase_add_test(t, marks_merged_without_loss);
    t = ck_tcase(s, "file", 120);
    tcase_add_loop_test(t, file_round_trip, 0, CASES);
    tcase_add_loop_test(t, every_truncation_is_an_error, 0,
                        G_N_ELEMENTS(damaged_cases));
    tcase_add_loop_test(t, every_flipped_byte_is_an_error, 0,
                        G_N_ELEMENTS(damaged_cases));
    tcase_add_test(t, broken_rules_are_named);
    tcase_add_test(t, version_1_refused);
    tcase_add_test(t, faults_round_trip);
    tcase_add_test(t, faults_and_older_minor_versions);
    tcase_add_test(t, broken_faults_are_named);
    tcase_add_test(t, missing_file);
    t = ck_tcase(s, "exports", 120);
    tcase_add_loop_test(t, csv_sums_equal_element_transfers, 0, CASES);
    tcase_add_loop_test(t, paje_and_chrome_counts, 0, CASES);
    tcase_add_test(t, exports_name_links);
    tcase_add_test(t, exports_show_seconds);
    return s;
}

CUBE_CHECK_MAIN(traces_suite)
