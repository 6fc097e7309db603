/* check_limits.c -- the memory a run may use, and exports and indexes
 * bounded by a trace's records (issue #46, items 5 and 6).
 *
 * Asserted: run_memory_choose takes the smallest of the limits, each less
 * what it covers already, and names it, for exact values (ties, a limit
 * below what is in use, none at all); the parsers of the cgroup and
 * /proc files read what the kernel writes; this process's candidates are
 * plausible; a refused run names its limit; a run whose trace does not
 * fit what the limit leaves is refused ("machine too large to trace")
 * where the same run untraced fits. Forged traces (tests/data/traces/
 * forged-*.trace: a 3-cube's or an 8-processor complete graph's records
 * under a header that says 2^26 nodes, and a mark stretched over 2^26 - 1
 * nodes) export in every format to a few kilobytes, or are refused with
 * TRACE_ERROR_INPUT where marks would be written node by node beyond the
 * bound; their index answers at once; and the index's adjacency and
 * phases, now kept without per-node tables, agree with a brute force on
 * recorded traces.
 */
#include "export.h"
#include "record.h"
#include "run.h"
#include "trace.h"

#include <check.h>
#include "check_main.h"
#include <stdlib.h>
#include <string.h>

#define MiB ((uint64_t)1 << 20)
#define GiB ((uint64_t)1 << 30)
#define DATA CUBEMU_SOURCE_DIR "/tests/data/traces/"

static char *iec(uint64_t b)
{
    return g_format_size_full(b, G_FORMAT_SIZE_IEC_UNITS);
}

/* ---- the limit chooser ------------------------------------------------- */

/* A case of the chooser: the candidates, with every limit left 0 meaning
 * none (RUN_NO_LIMIT), and the limit it must choose: its kind, its bytes
 * (unless any_bytes), and its text (unless NULL): a printf format of
 * size[0] and size[1] in IEC units, the whole text or (text_prefix) its
 * start. */
typedef struct {
    const char *what;
    RunMemoryCandidates c;
    RunLimitKind kind;
    gboolean any_bytes;
    uint64_t bytes;
    const char *text;
    gboolean text_prefix;
    uint64_t size[2];
} Choice;

static const Choice choices[] = {
    { .what = "physical share (what is in use not subtracted from it)",
      .c = { .physical = 10 * GiB, .vm_size = 30 * MiB },
      .kind = RUN_LIMIT_PHYSICAL, .bytes = 8 * GiB,
      .text = "80%% of physical memory (%s)", .size = { 10 * GiB } },
    { .what = "RLIMIT_AS less what is in use",
      .c = { .physical = 10 * GiB, .rlimit_as = 200 * MiB, .vm_size = 30 * MiB },
      .kind = RUN_LIMIT_AS, .bytes = 170 * MiB,
      .text = "the RLIMIT_AS of %s less %s in use", .size = { 200 * MiB, 30 * MiB } },
    { .what = "RLIMIT_DATA",
      .c = { .physical = 10 * GiB, .rlimit_as = 200 * MiB, .vm_size = 30 * MiB,
             .rlimit_data = 100 * MiB, .vm_data = 12 * MiB },
      .kind = RUN_LIMIT_DATA, .bytes = 88 * MiB,
      .text = "the RLIMIT_DATA of ", .text_prefix = TRUE },
    { .what = "the cgroup",
      .c = { .physical = 10 * GiB, .rlimit_as = 2 * GiB, .vm_size = 30 * MiB,
             .cgroup = GiB, .cgroup_used = 900 * MiB },
      .kind = RUN_LIMIT_CGROUP, .bytes = 124 * MiB,
      .text = "the cgroup's memory limit of %s less %s in use",
      .size = { GiB, 900 * MiB } },
    { .what = "the environment",
      .c = { .physical = 10 * GiB, .env = 50000000 },
      .kind = RUN_LIMIT_ENV, .bytes = 50000000,
      .text = "CUBEMU_MEMORY_LIMIT of 50000000 bytes" },
    /* A tie goes to the environment, then RLIMIT_AS before RLIMIT_DATA. */
    { .what = "a tie of the environment and RLIMIT_AS",
      .c = { .physical = 10 * GiB, .env = 50000000, .rlimit_as = 50000000 + 1000,
             .vm_size = 1000 },
      .kind = RUN_LIMIT_ENV, .any_bytes = TRUE },
    { .what = "a tie of RLIMIT_AS and RLIMIT_DATA",
      .c = { .physical = 10 * GiB, .rlimit_as = 50000000 + 1000, .vm_size = 1000,
             .rlimit_data = 50000000 },
      .kind = RUN_LIMIT_AS, .bytes = 50000000 },
    /* The environment may lower the limit, never raise it. */
    { .what = "the environment above physical memory",
      .c = { .physical = GiB, .env = 100 * GiB },
      .kind = RUN_LIMIT_PHYSICAL, .any_bytes = TRUE },
    { .what = "more in use than RLIMIT_AS",
      .c = { .physical = 10 * GiB, .rlimit_as = 100 * MiB, .vm_size = 120 * MiB },
      .kind = RUN_LIMIT_AS, .bytes = 0 },
    { .what = "nothing known",
      .kind = RUN_LIMIT_NONE, .bytes = RUN_NO_LIMIT, .text = "no limit" },
};

START_TEST(choose)
{
    const Choice *x = &choices[_i];
    RunMemoryCandidates c = x->c;
    uint64_t *limits[] = { &c.rlimit_as, &c.rlimit_data, &c.cgroup, &c.env };
    for (size_t k = 0; k < G_N_ELEMENTS(limits); k++)
        if (*limits[k] == 0)
            *limits[k] = RUN_NO_LIMIT;
    RunMemoryLimit l;
    run_memory_choose(&c, &l);
    ck_assert_msg(l.kind == x->kind, "%s: limit kind %d, expected %d", x->what,
                  (int)l.kind, (int)x->kind);
    if (!x->any_bytes)
        ck_assert_msg(l.bytes == x->bytes, "%s: %" G_GUINT64_FORMAT " bytes, "
                      "expected %" G_GUINT64_FORMAT, x->what, (guint64)l.bytes,
                      (guint64)x->bytes);
    if (x->text) {
        g_autofree char *a = iec(x->size[0]), *b = iec(x->size[1]);
        g_autofree char *want = g_strdup_printf(x->text, a, b);
        ck_assert_msg(x->text_prefix ? g_str_has_prefix(l.text, want)
                                     : strcmp(l.text, want) == 0,
                      "%s: \"%s\", expected %s\"%s\"", x->what, l.text,
                      x->text_prefix ? "a start of " : "", want);
    }
}
END_TEST

/* ---- parsers ------------------------------------------------------------ */

START_TEST(cgroup_limit_text)
{
    uint64_t b = 0;
    ck_assert(run_cgroup_parse_limit("max\n", &b));
    ck_assert_uint_eq(b, RUN_NO_LIMIT);
    ck_assert(run_cgroup_parse_limit("1073741824\n", &b));
    ck_assert_uint_eq(b, GiB);
    ck_assert(run_cgroup_parse_limit("  536870912 ", &b));
    ck_assert_uint_eq(b, 512 * MiB);
    /* v1's "no limit": the largest page-aligned 63-bit number. */
    ck_assert(run_cgroup_parse_limit("9223372036854771712\n", &b));
    ck_assert_uint_eq(b, RUN_NO_LIMIT);
    ck_assert(run_cgroup_parse_limit("0\n", &b));
    ck_assert_uint_eq(b, 0);
    ck_assert(!run_cgroup_parse_limit("", &b));
    ck_assert(!run_cgroup_parse_limit("\n", &b));
    ck_assert(!run_cgroup_parse_limit("maximum\n", &b));
    ck_assert(!run_cgroup_parse_limit("-1\n", &b));
    ck_assert(!run_cgroup_parse_limit("12k\n", &b));
}
END_TEST

START_TEST(status_and_stat_fields)
{
    const char *status = "Name:\tcubemu\nVmPeak:\t  150000 kB\n"
                         "VmSize:\t    2048 kB\nVmData:\t      12 kB\n";
    uint64_t v = 0;
    ck_assert(run_parse_field(status, "VmSize", &v));
    ck_assert_uint_eq(v, 2048 * 1024);
    ck_assert(run_parse_field(status, "VmData", &v));
    ck_assert_uint_eq(v, 12 * 1024);
    ck_assert(!run_parse_field(status, "VmRSS", &v));
    ck_assert(!run_parse_field(status, "VmSi", &v));
    const char *stat2 = "anon 123\nfile_mapped 5\nfile 4096\n";
    ck_assert(run_parse_field(stat2, "file", &v));
    ck_assert_uint_eq(v, 4096);
    const char *stat1 = "cache 1\nrss 2\ntotal_cache 77\n";
    ck_assert(run_parse_field(stat1, "total_cache", &v));
    ck_assert_uint_eq(v, 77);
    ck_assert(!run_parse_field("", "file", &v));
}
END_TEST

START_TEST(cgroup_paths)
{
    const char *v2 = "0::/user.slice/session-1.scope\n";
    g_autofree char *a = run_cgroup_path(v2, TRUE);
    ck_assert_str_eq(a, "/user.slice/session-1.scope");
    g_autofree char *b = run_cgroup_path(v2, FALSE);
    ck_assert_ptr_null(b);
    const char *v1 = "9:name=systemd:/\n5:cpu,cpuacct:/x\n"
                     "4:memory:/process_api/d3b7\n0::/\n";
    g_autofree char *c = run_cgroup_path(v1, FALSE);
    ck_assert_str_eq(c, "/process_api/d3b7");
    g_autofree char *d = run_cgroup_path(v1, TRUE);
    ck_assert_str_eq(d, "/");
    g_autofree char *e = run_cgroup_path("7:blkio,memory:/a:b\n", FALSE);
    ck_assert_str_eq(e, "/a:b");
    g_autofree char *f = run_cgroup_path("3:name=systemd:/x\n", FALSE);
    ck_assert_ptr_null(f);
    g_autofree char *g = run_cgroup_path("", TRUE);
    ck_assert_ptr_null(g);
}
END_TEST

START_TEST(this_process)
{
    g_unsetenv("CUBEMU_MEMORY_LIMIT");
    RunMemoryCandidates c;
    run_memory_candidates(&c);
    ck_assert_uint_gt(c.physical, 0);
    ck_assert_uint_gt(c.vm_size, 0);
    ck_assert_uint_gt(c.vm_data, 0);
    ck_assert_uint_ge(c.vm_size, c.vm_data);
    ck_assert_uint_eq(c.env, RUN_NO_LIMIT);
    ck_assert_uint_le(run_memory_limit(),
                      (uint64_t)((double)c.physical * RUN_MEMORY_SHARE));
    g_setenv("CUBEMU_MEMORY_LIMIT", "12345", TRUE);
    RunMemoryLimit l;
    run_memory_find(&l);
    ck_assert_int_eq(l.kind, RUN_LIMIT_ENV);
    ck_assert_uint_eq(l.bytes, 12345);
    g_unsetenv("CUBEMU_MEMORY_LIMIT");
}
END_TEST

/* ---- runs refused ------------------------------------------------------- */

static Scenario *exchange(int dimensions)
{
    g_autofree char *text = g_strdup_printf(
        "[machine]\ntopology = cube\ndimensions = %d\n[algorithm]\n"
        "name = exchange\n", dimensions);
    GError *e = NULL;
    Scenario *s = scenario_load_data("limits", text, &e);
    ck_assert_msg(s != NULL, "%s", e ? e->message : "");
    return s;
}

/* Run s under CUBEMU_MEMORY_LIMIT = limit, traced or not; TRUE if it ran,
 * else the error in *message (if given). */
static gboolean run_under(const Scenario *s, uint64_t limit, gboolean traced,
                          char **message)
{
    g_autofree char *text = g_strdup_printf("%" G_GUINT64_FORMAT,
                                            (guint64)limit);
    g_setenv("CUBEMU_MEMORY_LIMIT", text, TRUE);
    g_autoptr(TraceRecorder) rec = traced ? trace_recorder_new() : NULL;
    RunOptions opt = { .observer = traced ? trace_recorder_observer() : NULL,
                       .observer_data = rec };
    GError *e = NULL;
    g_autoptr(Report) r = run_scenario(s, &opt, &e);
    g_unsetenv("CUBEMU_MEMORY_LIMIT");
    if (traced && r) {
        g_autoptr(Trace) t = trace_recorder_finish(rec, r);
        ck_assert_uint_eq(t->busy->len > 0, TRUE);
    }
    if (!r) {
        ck_assert_msg(g_error_matches(e, SCENARIO_ERROR, SCENARIO_ERROR_INPUT),
                      "%s", e->message);
        if (message)
            *message = g_strdup(e->message);
        g_error_free(e);
    }
    return r != NULL;
}

/* The least CUBEMU_MEMORY_LIMIT the run is admitted with, to 64 KiB. */
static uint64_t least_limit(const Scenario *s, gboolean traced)
{
    uint64_t lo = 0, hi = 4 * GiB;
    ck_assert(run_under(s, hi, traced, NULL));
    while (hi - lo > 65536) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (run_under(s, mid, traced, NULL))
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

START_TEST(refusal_names_the_limit)
{
    g_autoptr(Scenario) s = exchange(10);
    g_autofree char *why = NULL;
    ck_assert(!run_under(s, 1000, FALSE, &why));
    ck_assert_msg(strstr(why, "machine too large: 1024 nodes with 64 elements "
                              "each would need ") != NULL, "%s", why);
    ck_assert_msg(strstr(why, "(CUBEMU_MEMORY_LIMIT of 1000 bytes; ") != NULL,
                  "%s", why);
}
END_TEST

/* The estimate counts the trace recorder: at the least limit the
 * untraced run is admitted with, the traced one is refused, after its
 * run, naming the trace; it is admitted with more. */
START_TEST(trace_counted)
{
    g_autoptr(Scenario) s = exchange(10);
    uint64_t untraced = least_limit(s, FALSE);
    g_autofree char *why = NULL;
    ck_assert(!run_under(s, untraced, TRUE, &why));
    ck_assert_msg(strstr(why, "machine too large to trace: recording the "
                              "trace would need ") != NULL, "%s", why);
    ck_assert_msg(strstr(why, "CUBEMU_MEMORY_LIMIT of ") != NULL, "%s", why);
    uint64_t traced = least_limit(s, TRUE);
    /* A 10-cube exchange records 10,240 messages and busy records. */
    ck_assert_uint_gt(traced, untraced + 10240 * (sizeof(TraceMessage)
                                                  + 2 * sizeof(TraceBusy)));
}
END_TEST

/* The recorder's projected peak grows as it records and holds its
 * tables: more than the messages and busy records it has, twice the busy
 * records at least (the sorted copy finishing makes). */
START_TEST(recorder_bytes_bound_tables)
{
    g_autoptr(Scenario) s = exchange(8);
    g_autoptr(TraceRecorder) rec = trace_recorder_new();
    uint64_t empty = trace_recorder_bytes(rec);
    RunOptions opt = { .observer = trace_recorder_observer(),
                       .observer_data = rec };
    ck_assert(trace_recorder_observes(opt.observer));
    ck_assert(!trace_recorder_observes(NULL));
    GError *e = NULL;
    g_autoptr(Report) r = run_scenario(s, &opt, &e);
    ck_assert_msg(r != NULL, "%s", e ? e->message : "");
    uint64_t full = trace_recorder_bytes(rec);
    ck_assert(trace_recorder_check(rec, &e));
    g_autoptr(Trace) t = trace_recorder_finish(rec, r);
    ck_assert_uint_gt(full, empty);
    ck_assert_uint_ge(full, t->messages->len * sizeof(TraceMessage)
                            + 2 * t->busy->len * sizeof(TraceBusy)
                            + t->channels->len * sizeof(TraceChannel));
}
END_TEST

/* A budget too small stops the recorder; check says why and how much. */
START_TEST(recorder_budget_stops_it)
{
    g_autoptr(Scenario) s = exchange(8);
    g_autoptr(TraceRecorder) rec = trace_recorder_new();
    RunOptions opt = { .observer = trace_recorder_observer(),
                       .observer_data = rec };
    /* run_scenario sets the budget from the limit: a limit that leaves
     * the recorder a few kilobytes beyond the engine. */
    uint64_t untraced = least_limit(s, FALSE);
    g_autofree char *text = g_strdup_printf("%" G_GUINT64_FORMAT,
                                            (guint64)(untraced + 65536));
    g_setenv("CUBEMU_MEMORY_LIMIT", text, TRUE);
    GError *e = NULL;
    g_autoptr(Report) r = run_scenario(s, &opt, &e);
    g_unsetenv("CUBEMU_MEMORY_LIMIT");
    ck_assert_ptr_null(r);
    ck_assert_msg(strstr(e->message, "more than the ") != NULL, "%s", e->message);
    g_clear_error(&e);
    ck_assert(!trace_recorder_check(rec, &e));
    ck_assert(g_error_matches(e, TRACE_ERROR, TRACE_ERROR_IO));
    g_clear_error(&e);
}
END_TEST

/* ---- forged traces ------------------------------------------------------ */

static const char *const forged[] = {
    DATA "forged-cube-26.trace", DATA "forged-complete-26.trace",
    DATA "forged-mark-26.trace",
};

static Trace *load(const char *path)
{
    GError *e = NULL;
    Trace *t = trace_load(path, &e);
    ck_assert_msg(t != NULL, "%s", e ? e->message : "");
    return t;
}

/* Export to memory: the bytes written, or -1 with *error. */
static gssize export_size(const Trace *t, TraceExportFormat f, char **text,
                          GError **error)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    gboolean ok = trace_export(t, f, 0, out, "memory", error);
    fclose(out);
    if (text)
        *text = buf;
    else
        free(buf);
    return ok ? (gssize)len : -1;
}

/* Every format of the forged headers in a few kilobytes; the stretched
 * mark refused by the formats that write marks node by node. */
START_TEST(forged_exports_bounded)
{
    g_autoptr(Trace) t = load(forged[_i]);
    ck_assert_uint_eq(trace_nodes(t), 1u << 26);
    gboolean stretched = _i == 2;
    for (int f = 0; f <= TRACE_EXPORT_CSV; f++) {
        GError *e = NULL;
        gint64 t0 = g_get_monotonic_time();
        gssize n = export_size(t, (TraceExportFormat)f, NULL, &e);
        gint64 us = g_get_monotonic_time() - t0;
        if (stretched && f != TRACE_EXPORT_CSV) {
            ck_assert_int_eq(n, -1);
            ck_assert(g_error_matches(e, TRACE_ERROR, TRACE_ERROR_INPUT));
            ck_assert_msg(strstr(e->message, "would be written node by node "
                                             "for 67108879 nodes") != NULL,
                          "%s", e->message);
            g_error_free(e);
        } else {
            ck_assert_msg(n > 0 && n < 64 * 1024, "%s %s: %zd bytes",
                          forged[_i], trace_export_formats[f].name, n);
        }
        /* Bounded by the records: far below a second even sanitized. */
        ck_assert_msg(us < 2000000, "%s %s: %" G_GINT64_FORMAT " us",
                      forged[_i], trace_export_formats[f].name, us);
    }
}
END_TEST

/* Chrome names the processes that have events (the 3-cube's 8 nodes and
 * the machine's, which holds the counters);
 * Paje makes containers for them; the complete graph's CSV has a column
 * per link that carried something. */
START_TEST(forged_exports_name_what_is_there)
{
    g_autoptr(Trace) t = load(forged[0]);
    g_autofree char *chrome = NULL, *paje = NULL;
    ck_assert_int_gt(export_size(t, TRACE_EXPORT_CHROME, &chrome, NULL), 0);
    ck_assert_int_gt(export_size(t, TRACE_EXPORT_PAJE, &paje, NULL), 0);
    guint names = 0, containers = 0;
    for (const char *p = chrome; (p = strstr(p, "\"process_name\"")); p++)
        names++;
    for (const char *p = paje; (p = strstr(p, " CT_Node C_M \"node ")); p++)
        containers++;
    ck_assert_uint_eq(names, 9);
    ck_assert_uint_eq(containers, 8);

    g_autoptr(Trace) k = load(forged[1]);
    g_autofree char *csv = NULL;
    ck_assert_int_gt(export_size(k, TRACE_EXPORT_CSV, &csv, NULL), 0);
    g_auto(GStrv) lines = g_strsplit(csv, "\n", 2);
    g_autoptr(GHashTable) used = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (guint c = 0; c < k->channels->len; c++)
        g_hash_table_add(used, GUINT_TO_POINTER(
            g_array_index(k->channels, TraceChannel, c).link + 1));
    g_auto(GStrv) cols = g_strsplit(lines[0], ",", -1);
    guint elements = 0;
    for (char **c = cols; *c; c++)
        elements += g_str_has_prefix(*c, "to ") && g_str_has_suffix(*c, " elements");
    ck_assert_uint_eq(elements, g_hash_table_size(used));
}
END_TEST

/* The index of a forged trace: built at once, and its queries answer as
 * the records say. */
START_TEST(forged_index)
{
    g_autoptr(Trace) t = load(forged[_i]);
    gint64 t0 = g_get_monotonic_time();
    g_autoptr(TraceIndex) x = trace_index_new(t);
    ck_assert_int_lt(g_get_monotonic_time() - t0, 2000000);
    guint n;
    const TraceChannel *c0 = &g_array_index(t->channels, TraceChannel, 0);
    const uint32_t *out = trace_index_out(x, c0->source, &n);
    ck_assert_uint_gt(n, 0);
    ck_assert_uint_eq(out[0], 0);
    ck_assert_int_eq(trace_index_find(x, c0->source, c0->link), 0);
    trace_index_out(x, (1u << 26) - 1, &n);
    ck_assert_uint_eq(n, 0);
    trace_index_in(x, (1u << 26) - 1, &n);
    ck_assert_uint_eq(n, 0);
    if (t->marks->len) {
        const TraceMark *m = &g_array_index(t->marks, TraceMark,
                                            t->marks->len - 1);
        uint32_t nodes = 0;
        const char *phase = trace_index_phase(x, m->time, &nodes);
        ck_assert_ptr_nonnull(phase);
        ck_assert_uint_eq(nodes, _i == 2 ? (1u << 26) - 1 : 8);
    }
}
END_TEST

/* ---- the index against a brute force ------------------------------------ */

static Trace *record(const char *text)
{
    GError *e = NULL;
    g_autoptr(Scenario) s = scenario_load_data("limits", text, &e);
    ck_assert_msg(s != NULL, "%s", e ? e->message : "");
    g_autoptr(TraceRecorder) rec = trace_recorder_new();
    RunOptions opt = { .observer = trace_recorder_observer(),
                       .observer_data = rec };
    g_autoptr(Report) r = run_scenario(s, &opt, &e);
    ck_assert_msg(r != NULL, "%s", e ? e->message : "");
    return trace_recorder_finish(rec, r);
}

static const char *const recorded[] = {
    "[machine]\ntopology = cube\ndimensions = 5\n[algorithm]\n"
    "name = gray-to-binary\nmethod = concurrent\nelements-per-node = 7\n",
    "[machine]\ntopology = mesh\nshape = 4x6\nwrap = yes\n[algorithm]\n"
    "name = shift\naxis = 1\nelements-per-node = 3\n",
    "[machine]\ntopology = complete\nprocessors = 12\n[algorithm]\n"
    "name = shift\nelements-per-node = 2\n",
};

START_TEST(index_agrees_with_brute_force)
{
    g_autoptr(Trace) t = record(recorded[_i]);
    g_autoptr(TraceIndex) x = trace_index_new(t);
    uint32_t nodes = trace_nodes(t);
    CkTally adj = CK_TALLY_INIT;
    for (uint32_t v = 0; v < nodes; v++)
        for (int dir = 0; dir < 2; dir++) {
            guint n;
            const uint32_t *got = dir ? trace_index_in(x, v, &n)
                                      : trace_index_out(x, v, &n);
            guint k = 0;
            for (guint c = 0; c < t->channels->len; c++) {
                const TraceChannel *ch = &g_array_index(t->channels,
                                                        TraceChannel, c);
                if ((dir ? ch->dest : ch->source) != v)
                    continue;
                ck_tally_true(&adj, k < n && got[k] == c,
                              "node %u %s: entry %u", v, dir ? "in" : "out", k);
                k++;
            }
            ck_tally_uint(&adj, k, n, "node %u %s: count", v,
                          dir ? "in" : "out");
        }
    ck_tally_assert(&adj, "case %d: adjacency", _i);
    /* Phases: replay the marks node by node. */
    g_autofree uint32_t *current = g_new(uint32_t, nodes);
    g_autofree uint32_t *count = g_new0(uint32_t, t->labels->len + 1);
    for (uint32_t v = 0; v < nodes; v++)
        current[v] = UINT32_MAX;
    CkTally ph = CK_TALLY_INIT;
    for (guint i = 0; i < t->marks->len;) {
        Tick time = g_array_index(t->marks, TraceMark, i).time;
        for (; i < t->marks->len
               && g_array_index(t->marks, TraceMark, i).time == time; i++) {
            const TraceMark *m = &g_array_index(t->marks, TraceMark, i);
            for (uint32_t v = m->node; v < m->node + m->nodes; v++) {
                if (current[v] != UINT32_MAX)
                    count[current[v]]--;
                current[v] = m->label;
                count[m->label]++;
            }
        }
        uint32_t best = 0;
        for (guint l = 0; l < t->labels->len; l++)
            best = MAX(best, count[l]);
        uint32_t got = 0;
        const char *phase = trace_index_phase(x, time, &got);
        ck_tally_uint(&ph, best, got, "time %" G_GINT64_FORMAT, (gint64)time);
        guint l = 0;
        while (l < t->labels->len && t->labels->pdata[l] != phase)
            l++;
        ck_tally_true(&ph, l < t->labels->len && count[l] == best,
                      "time %" G_GINT64_FORMAT ": the phase has the most "
                      "nodes", (gint64)time);
    }
    ck_tally_assert(&ph, "case %d: phases", _i);
}
END_TEST

static Suite *limits_suite(void)
{
    const CkTest limits[] = {
        { choose, G_N_ELEMENTS(choices) },
        { cgroup_limit_text, 0 },
        { status_and_stat_fields, 0 },
        { cgroup_paths, 0 },
        { this_process, 0 },
        { refusal_names_the_limit, 0 },
        { trace_counted, 0 },
        { recorder_bytes_bound_tables, 0 },
        { recorder_budget_stops_it, 0 },
        { forged_exports_bounded, G_N_ELEMENTS(forged) },
        { forged_exports_name_what_is_there, 0 },
        { forged_index, G_N_ELEMENTS(forged) },
        { index_agrees_with_brute_force, G_N_ELEMENTS(recorded) },
        { NULL, 0 },
    };
    Suite *s = suite_create("limits");
    /* The least-limit searches run a 10-cube some thirty times. */
    ck_add_tcase(s, "limits", 120, limits);
    return s;
}

CUBE_CHECK_MAIN(limits_suite)
