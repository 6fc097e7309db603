/* check_traces.c -- traces: recording, the file format, queries, exports.
 *
 * Asserted: a recorded trace agrees with the run's own statistics (every
 * element transfer once, per dimension and direction, the busiest channel,
 * exact intervals for the dimension exchange); recording changes no result
 * (the JSON report is identical with and without it) and is deterministic
 * byte for byte; the file reads back to the same trace; every truncation
 * and every flipped byte of a file is a clear error, never a crash, and so
 * is each broken rule of trace.h under a valid checksum; marks of a
 * 1024-node run are merged without losing a node; the CSV's element
 * columns add up to element_transfers and the Paje and Chrome exports have
 * one event per recorded interval.
 */
#include "export.h"
#include "run.h"
#include "trace.h"

#include <check.h>
#include "report_json.h"
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

static Recorded record(const char *text)
{
    g_autoptr(Scenario) s = scenario_text(text);
    g_autoptr(TraceRecorder) rec = trace_recorder_new();
    RunOptions opt = { .observer = trace_recorder_observer(),
                           .observer_data = rec };
    GError *e = NULL;
    Recorded r = { run_scenario(s, &opt, &e), NULL };
    ck_assert_msg(r.report != NULL, "%s", e ? e->message : "");
    r.trace = trace_recorder_finish(rec, r.report, &e);
    ck_assert_msg(r.trace != NULL, "%s", e ? e->message : "");
    return r;
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

/* ---- recording agrees with the run ------------------------------------ */

START_TEST(trace_matches_run_statistics)
{
    Recorded r = record(scenarios[_i]);
    const Trace *t = r.trace;
    const Report *rep = r.report;
    int n = rep->machine.topology.axes;
    ck_assert_uint_eq(t->nodes, 1u << n);
    ck_assert_uint_eq(t->channels->len, (1u << n) * (unsigned)n);
    ck_assert_int_eq(t->cycles, rep->cycles);
    ck_assert_str_eq(trace_info(t, "topology"), "cube");
    ck_assert_str_eq(trace_info(t, "algorithm"), rep->algorithm);
    uint64_t *up = g_new0(uint64_t, n), *down = g_new0(uint64_t, n);
    uint64_t *per_channel = g_new0(uint64_t, t->channels->len);
    uint64_t total = 0;
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        const TraceChannel *c = &g_array_index(t->channels, TraceChannel, b->channel);
        ck_assert_uint_eq(c->dest, c->source ^ (1u << c->dimension));
        ck_assert_int_eq(c->direction, (c->source >> c->dimension) & 1 ? -1 : 1);
        (c->direction > 0 ? up : down)[c->dimension] += b->count;
        per_channel[b->channel] += b->count;
        total += b->count;
        ck_assert_int_le(b->start + (Tick)b->count * t->element_time, t->cycles);
    }
    ck_assert_uint_eq(total, rep->element_transfers);
    ck_assert_uint_eq(total, t->element_transfers);
    for (int d = 0; d < n; d++) {
        ck_assert_uint_eq(up[d], rep->link_up[d]);
        ck_assert_uint_eq(down[d], rep->link_down[d]);
    }
    uint64_t most = 0;
    for (guint c = 0; c < t->channels->len; c++)
        most = MAX(most, per_channel[c]);
    ck_assert_uint_eq(most, rep->max_channel_elements);
    ck_assert_uint_le(t->messages->len, rep->messages);
    /* The index agrees: whole-run busy time is the elements times tau. */
    g_autoptr(TraceIndex) x = trace_index_new(t);
    for (guint c = 0; c < t->channels->len; c++) {
        ck_assert_uint_eq(trace_index_elements(x, c), per_channel[c]);
        ck_assert_int_eq(trace_index_busy(x, c, 0, t->cycles),
                         (Tick)per_channel[c] * t->element_time);
    }
    g_free(up);
    g_free(down);
    g_free(per_channel);
    recorded_clear(&r);
}
END_TEST

/* The sequential exchange on a 3-cube, K = 5, Ts = 2, tau = 3: in step d
 * every channel of dimension d carries one run of 5 elements, starting
 * after the step's startup. */
START_TEST(exchange_intervals_exact)
{
    Recorded r = record(scenarios[3]);
    const Trace *t = r.trace;
    ck_assert_uint_eq(t->busy->len, 8 * 3);
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        const TraceChannel *c = &g_array_index(t->channels, TraceChannel, b->channel);
        const TraceMessage *m = &g_array_index(t->messages, TraceMessage, b->message);
        Tick step = 2 + 5 * 3;
        ck_assert_int_eq(b->start, (Tick)c->dimension * step + 2);
        ck_assert_uint_eq(b->first, 0);
        ck_assert_uint_eq(b->count, 5);
        ck_assert_uint_eq(m->source, c->source);
        ck_assert_uint_eq(m->dest, c->dest);
        ck_assert_uint_eq(m->hops, 1);
    }
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
    Recorded a = record(scenarios[_i]), b = record(scenarios[_i]);
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
    for (guint i = 0; i < t->marks->len; i++) {
        const TraceMark *m = &g_array_index(t->marks, TraceMark, i);
        const char *label = t->labels->pdata[m->label];
        unsigned step;
        ck_assert_int_eq(sscanf(label, "step %u", &step), 1);
        for (uint32_t v = m->node; v < m->node + m->nodes; v++)
            seen[step * 1024 + v]++;
    }
    for (guint i = 0; i < 9 * 1024; i++)
        ck_assert_uint_eq(seen[i], 1);
    g_free(seen);
    recorded_clear(&r);
}
END_TEST

/* ---- the file ---------------------------------------------------------- */

static void assert_same_trace(const Trace *a, const Trace *b)
{
    ck_assert_uint_eq(a->nodes, b->nodes);
    ck_assert_uint_eq(a->dimensions, b->dimensions);
    ck_assert_int_eq(a->ports, b->ports);
    ck_assert_int_eq(a->element_time, b->element_time);
    ck_assert_int_eq(a->startup, b->startup);
    ck_assert_int_eq(a->cycles, b->cycles);
    ck_assert_uint_eq(a->element_transfers, b->element_transfers);
    ck_assert_uint_eq(a->info->len, b->info->len);
    for (guint i = 0; i < a->info->len; i++) {
        ck_assert_str_eq(g_array_index(a->info, TraceInfo, i).key,
                         g_array_index(b->info, TraceInfo, i).key);
        ck_assert_str_eq(g_array_index(a->info, TraceInfo, i).value,
                         g_array_index(b->info, TraceInfo, i).value);
    }
    ck_assert_uint_eq(a->channels->len, b->channels->len);
    for (guint i = 0; i < a->channels->len; i++) {
        const TraceChannel *x = &g_array_index(a->channels, TraceChannel, i);
        const TraceChannel *y = &g_array_index(b->channels, TraceChannel, i);
        ck_assert(x->source == y->source && x->dest == y->dest
                  && x->dimension == y->dimension && x->direction == y->direction);
    }
    ck_assert_uint_eq(a->messages->len, b->messages->len);
    for (guint i = 0; i < a->messages->len; i++) {
        const TraceMessage *x = &g_array_index(a->messages, TraceMessage, i);
        const TraceMessage *y = &g_array_index(b->messages, TraceMessage, i);
        ck_assert(x->id == y->id && x->count == y->count && x->posted == y->posted
                  && x->source == y->source && x->dest == y->dest
                  && x->tag == y->tag && x->hops == y->hops);
    }
    ck_assert_uint_eq(a->busy->len, b->busy->len);
    for (guint i = 0; i < a->busy->len; i++) {
        const TraceBusy *x = &g_array_index(a->busy, TraceBusy, i);
        const TraceBusy *y = &g_array_index(b->busy, TraceBusy, i);
        ck_assert(x->start == y->start && x->first == y->first && x->count == y->count
                  && x->channel == y->channel && x->message == y->message);
    }
    ck_assert_uint_eq(a->labels->len, b->labels->len);
    for (guint i = 0; i < a->labels->len; i++)
        ck_assert_str_eq(a->labels->pdata[i], b->labels->pdata[i]);
    ck_assert_uint_eq(a->marks->len, b->marks->len);
    for (guint i = 0; i < a->marks->len; i++) {
        const TraceMark *x = &g_array_index(a->marks, TraceMark, i);
        const TraceMark *y = &g_array_index(b->marks, TraceMark, i);
        ck_assert(x->time == y->time && x->label == y->label && x->node == y->node
                  && x->nodes == y->nodes);
    }
}

START_TEST(file_round_trip)
{
    Recorded r = record(scenarios[_i]);
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

START_TEST(every_truncation_is_an_error)
{
    Recorded r = record(scenarios[2]);
    g_autoptr(GBytes) bytes = trace_bytes(r.trace);
    gsize len;
    const guint8 *data = g_bytes_get_data(bytes, &len);
    for (gsize cut = 0; cut < len; cut++) {
        /* A copy of exactly `cut` bytes, so the sanitizers see any read
         * past the end. */
        guint8 *copy = g_memdup2(data, cut ? cut : 1);
        GError *e = NULL;
        Trace *t = trace_parse("bytes", copy, cut, &e);
        ck_assert_msg(t == NULL, "a %zu-byte prefix of %zu parsed", (size_t)cut,
                      (size_t)len);
        ck_assert_msg(error_names_file(e), "cut %zu: %s", (size_t)cut,
                      e ? e->message : "(no error)");
        g_error_free(e);
        g_free(copy);
    }
    recorded_clear(&r);
}
END_TEST

START_TEST(every_flipped_byte_is_an_error)
{
    Recorded r = record(scenarios[2]);
    g_autoptr(GBytes) bytes = trace_bytes(r.trace);
    gsize len;
    const guint8 *data = g_bytes_get_data(bytes, &len);
    guint8 *copy = g_memdup2(data, len);
    static const guint8 flips[] = { 0x01, 0x80, 0xff };
    for (gsize i = 0; i < len; i++)
        for (guint f = 0; f < G_N_ELEMENTS(flips); f++) {
            copy[i] ^= flips[f];
            GError *e = NULL;
            Trace *t = trace_parse("bytes", copy, len, &e);
            ck_assert_msg(t == NULL, "flipping byte %zu by %02x went unnoticed",
                          (size_t)i, flips[f]);
            ck_assert_msg(error_names_file(e), "byte %zu: %s", (size_t)i,
                          e ? e->message : "(no error)");
            g_error_free(e);
            copy[i] ^= flips[f];
        }
    g_free(copy);
    recorded_clear(&r);
}
END_TEST

/* Break one rule of trace.h in a written file, fix the checksum, and
 * expect the reader to name the rule. */
static char *broken_message(void (*breaker)(Trace *t), guint8 *patch_at,
                            gsize patch_offset, guint8 patch_value)
{
    Recorded r = record(scenarios[1]);
    if (breaker)
        breaker(r.trace);
    g_autoptr(GBytes) bytes = trace_bytes(r.trace);
    gsize len;
    const guint8 *original = g_bytes_get_data(bytes, &len);
    guint8 *data = g_memdup2(original, len);
    if (patch_at) {
        data[patch_offset] = patch_value;
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
    g_array_index(t->marks, TraceMark, 0).nodes = t->nodes + 1;
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

START_TEST(broken_rules_are_named)
{
    g_autofree char *a = broken_message(break_channel_index, NULL, 0, 0);
    ck_assert_msg(g_str_has_prefix(a, "bytes: corrupt: busy record 0 names channel 64 of 64"), "%s", a);
    g_autofree char *b = broken_message(break_overlap, NULL, 0, 0);
    ck_assert_msg(strstr(b, "out of order or overlap on one channel") != NULL, "%s", b);
    g_autofree char *c = broken_message(break_sum, NULL, 0, 0);
    ck_assert_msg(strstr(c, "the header says") != NULL, "%s", c);
    g_autofree char *d = broken_message(break_mark, NULL, 0, 0);
    ck_assert_msg(strstr(d, "corrupt: mark 0 names") != NULL, "%s", d);
    g_autofree char *f = broken_message(break_label, NULL, 0, 0);
    ck_assert_msg(strstr(f, "label 1 of 3 does not fit or is not UTF-8") != NULL, "%s", f);
    g_autofree char *g = broken_message(break_time, NULL, 0, 0);
    ck_assert_msg(strstr(g, "lies outside the run's 24 cycles") != NULL, "%s", g);
    guint8 dummy;
    g_autofree char *v = broken_message(NULL, &dummy, 8, 2);   /* major 2 */
    ck_assert_str_eq(v, "bytes: trace format version 2.0 is not supported "
                        "(this cubemu reads version 1.x; re-record the trace with it)");
    g_autofree char *m = broken_message(NULL, &dummy, 1, 'X');
    ck_assert_str_eq(m, "bytes: not a cubemu trace (it does not begin with the "
                        "trace magic; see traces/FORMAT.md)");
    g_autofree char *h = broken_message(NULL, &dummy, 80, 0xff);   /* busy count */
    ck_assert_msg(strstr(h, "truncated or corrupt: the header announces") != NULL, "%s", h);
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

static guint count_lines(const char *text, const char *prefix, const char *contains)
{
    guint n = 0;
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++)
        n += g_str_has_prefix(*l, prefix) && (!contains || strstr(*l, contains));
    return n;
}

START_TEST(csv_sums_equal_element_transfers)
{
    Recorded r = record(scenarios[_i]);
    const Tick windows[] = { 0, 1, 2, 7, 1000000 };
    for (guint w = 0; w < G_N_ELEMENTS(windows); w++) {
        g_autofree char *csv = export_text(r.trace, TRACE_EXPORT_CSV, windows[w]);
        g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
        g_auto(GStrv) head = g_strsplit(lines[0], ",", -1);
        guint cols = g_strv_length(head);
        uint64_t sum = 0, total = 0;
        guint rows = 0;
        for (char **l = lines + 1; *l && **l; l++, rows++) {
            g_auto(GStrv) cells = g_strsplit(*l, ",", -1);
            ck_assert_uint_eq(g_strv_length(cells), cols);
            for (guint c = 0; c < cols; c++) {
                if (g_str_has_suffix(head[c], "_elements"))
                    sum += g_ascii_strtoull(cells[c], NULL, 10);
                if (!strcmp(head[c], "elements"))
                    total += g_ascii_strtoull(cells[c], NULL, 10);
                if (g_str_has_suffix(head[c], "utilisation")) {
                    double u = g_ascii_strtod(cells[c], NULL);
                    ck_assert(u >= 0 && u <= 1 + 1e-9);
                }
            }
        }
        Tick window = windows[w] ? windows[w] : trace_export_default_window(r.trace);
        ck_assert_uint_eq(rows, (guint)((r.trace->cycles + window - 1) / window));
        ck_assert_uint_eq(sum, r.report->element_transfers);
        ck_assert_uint_eq(total, r.report->element_transfers);
    }
    recorded_clear(&r);
}
END_TEST

START_TEST(paje_and_chrome_counts)
{
    Recorded r = record(scenarios[_i]);
    const Trace *t = r.trace;
    uint64_t mark_nodes = 0, all_node_marks = 0, part_marks = 0;
    for (guint i = 0; i < t->marks->len; i++) {
        const TraceMark *m = &g_array_index(t->marks, TraceMark, i);
        mark_nodes += m->nodes;
        if (m->nodes == t->nodes)
            all_node_marks++;
        else
            part_marks += m->nodes;
    }
    g_autofree char *paje = export_text(t, TRACE_EXPORT_PAJE, 0);
    ck_assert(g_str_has_prefix(paje, "%EventDef PajeDefineContainerType 0\n"));
    ck_assert(strstr(paje, "%EventDef PajeSetState 7\n") != NULL);
    ck_assert_uint_eq(count_lines(paje, "7 ", "V_busy"), t->busy->len);
    ck_assert_uint_eq(count_lines(paje, "7 ", "V_idle"),
                      t->busy->len + t->channels->len);
    ck_assert_uint_eq(count_lines(paje, "8 ", NULL), mark_nodes);
    ck_assert_uint_eq(count_lines(paje, "9 ", NULL), t->messages->len);
    ck_assert_uint_eq(count_lines(paje, "10 ", NULL), t->messages->len);
    ck_assert_uint_eq(count_lines(paje, "5 ", NULL), 1 + t->nodes + t->channels->len);
    ck_assert_uint_eq(count_lines(paje, "6 ", NULL), 1 + t->nodes + t->channels->len);
    /* Paje wants time order. */
    double last = 0;
    g_auto(GStrv) lines = g_strsplit(paje, "\n", -1);
    for (char **l = lines; *l; l++) {
        int ev;
        double time;
        if (**l == '%' || sscanf(*l, "%d %lf", &ev, &time) != 2 || ev < 5)
            continue;
        ck_assert(time >= last);
        last = time;
    }
    g_autofree char *chrome = export_text(t, TRACE_EXPORT_CHROME, 0);
    ck_assert_uint_eq(count_lines(chrome, "", "\"ph\":\"X\""), t->busy->len);
    ck_assert_uint_eq(count_lines(chrome, "", "\"s\":\"g\""), all_node_marks);
    ck_assert_uint_eq(count_lines(chrome, "", "\"s\":\"p\""), part_marks);
    recorded_clear(&r);
}
END_TEST

static Suite *traces_suite(void)
{
    Suite *s = suite_create("traces");
    TCase *t = tcase_create("recording");
    tcase_set_timeout(t, 120);
    tcase_add_loop_test(t, trace_matches_run_statistics, 0, G_N_ELEMENTS(scenarios));
    tcase_add_test(t, exchange_intervals_exact);
    tcase_add_loop_test(t, recording_changes_nothing, 0, G_N_ELEMENTS(scenarios));
    tcase_add_loop_test(t, traces_are_deterministic, 0, G_N_ELEMENTS(scenarios));
    tcase_add_test(t, marks_merged_without_loss);
    suite_add_tcase(s, t);
    t = tcase_create("file");
    tcase_set_timeout(t, 120);
    tcase_add_loop_test(t, file_round_trip, 0, G_N_ELEMENTS(scenarios));
    tcase_add_test(t, every_truncation_is_an_error);
    tcase_add_test(t, every_flipped_byte_is_an_error);
    tcase_add_test(t, broken_rules_are_named);
    tcase_add_test(t, missing_file);
    suite_add_tcase(s, t);
    t = tcase_create("exports");
    tcase_set_timeout(t, 120);
    tcase_add_loop_test(t, csv_sums_equal_element_transfers, 0, G_N_ELEMENTS(scenarios));
    tcase_add_loop_test(t, paje_and_chrome_counts, 0, G_N_ELEMENTS(scenarios));
    suite_add_tcase(s, t);
    return s;
}

int main(int argc, char **argv)
{
    (void)argc;
    machine_set_program_path(argv[0]);
    SRunner *sr = srunner_create(traces_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
