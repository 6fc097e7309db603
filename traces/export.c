/* export.c -- Chrome JSON, Paje and CSV from a Trace (see export.h).
 *
 * Invariant: every exporter writes each busy record exactly once (as one
 * busy slice, one busy state, or its elements spread over the CSV
 * windows), so counts in the output can be checked against the trace.
 * (Chrome also copies the records that reach a message's destination
 * onto the destination's receive tracks, and counts them in its
 * counters; a busy slice, "ph":"X", is still a busy record and nothing
 * else.) Channels are named by the topology's link names ("node 5 +x"),
 * through trace_channel_name, in every format.
 *
 * Size: an export costs time, memory and output in proportion to the
 * trace's records, never to the machine its header describes (a header
 * may say 2^26 nodes over a handful of records): per-node entries (Chrome's
 * process names, Paje's node containers) are written for the nodes the
 * records name (NodeRuns), the CSV's columns of a complete graph and
 * Chrome's link counters are the links that carried something, Chrome's
 * flows, receive slices and counter samples are a few per busy record or
 * message, and the one thing a record multiplies, a mark's range of nodes
 * written node by node (Chrome: an instant and a phase slice per node),
 * is bounded against the records (export_bounded).
 */
#include "export.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The names and extensions of trace_export_formats (defined at the end,
 * with the exporters): the command line parses and lists them from
 * there. */

gboolean trace_export_format_parse(const char *name, TraceExportFormat *format)
{
    for (int f = 0; trace_export_formats[f].name; f++) {
        const TraceExportFormatSpec *x = &trace_export_formats[f];
        gboolean found = !strcmp(name, x->name);
        for (const char *const *a = x->aliases; a && *a && !found; a++)
            found = !strcmp(name, *a);
        if (found) {
            *format = (TraceExportFormat)f;
            return TRUE;
        }
    }
    return FALSE;
}

gboolean trace_export_format_of_path(const char *path, TraceExportFormat *format)
{
    for (int f = 0; trace_export_formats[f].name; f++)
        for (const char *const *e = trace_export_formats[f].extensions;
             e && *e; e++)
            if (g_str_has_suffix(path, *e)) {
                *format = (TraceExportFormat)f;
                return TRUE;
            }
    return FALSE;
}

char *trace_export_valid_names(gboolean extensions)
{
    GString *s = g_string_new(NULL);
    for (int f = 0; trace_export_formats[f].name; f++) {
        const TraceExportFormatSpec *x = &trace_export_formats[f];
        if (!extensions)
            g_string_append_printf(s, "%s%s", s->len ? ", " : "", x->name);
        for (const char *const *e = extensions ? x->extensions : x->aliases;
             e && *e; e++)
            g_string_append_printf(s, "%s%s", s->len ? ", " : "", *e);
    }
    return g_string_free(s, FALSE);
}

/* Digits of a time in seconds: enough for a tick count up to 10^15 to
 * survive the multiplication, few enough that 0.1 stays "0.1". */
#define EXPORT_TIME_FORMAT "%.15g"

/* Paje's dates are in seconds (Chrome's axis is ticks: see below). */
#define EXPORT_PAJE_UNITS_PER_SECOND 1.0

/* How an export writes times: whole ticks, or (with tick_seconds) a
 * physical unit, per_tick of it per tick. */
typedef struct {
    gboolean physical;
    double per_tick;
} TimeUnit;

static TimeUnit time_unit(const Trace *t, double units_per_second)
{
    TimeUnit u = { t->tick_seconds > 0, t->tick_seconds * units_per_second };
    return u;
}

static const char *time_text(const TimeUnit *u, Tick ticks,
                             char buf[G_ASCII_DTOSTR_BUF_SIZE])
{
    if (u->physical)
        return g_ascii_formatd(buf, G_ASCII_DTOSTR_BUF_SIZE, EXPORT_TIME_FORMAT,
                               (double)ticks * u->per_tick);
    g_snprintf(buf, G_ASCII_DTOSTR_BUF_SIZE, "%" G_GINT64_FORMAT, (gint64)ticks);
    return buf;
}

void trace_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

/* ---- the nodes a trace names ------------------------------------------ */

/* "cannot allocate N bytes (X MiB) for WHAT": the exports' tables grow
 * with the trace, which may be larger than the memory left. */
static gboolean no_room(GError **error, uint64_t bytes, const char *what)
{
    g_autofree char *iec = g_format_size_full(bytes, G_FORMAT_SIZE_IEC_UNITS);
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO, "cannot allocate %"
                G_GUINT64_FORMAT " bytes (%s) for %s", (guint64)bytes, iec,
                what);
    return FALSE;
}

/* n elements of `size` bytes, zeroed, or NULL (too many or no memory). */
static void *try_table(uint64_t n, gsize size)
{
    n = MAX(n, 1);
    return n <= G_MAXSIZE / size ? g_try_malloc0((gsize)(n * size)) : NULL;
}

/* Nodes [first, end). */
typedef struct {
    uint32_t first, end;
} NodeRun;

/* Sorted disjoint runs (nodes_named). */
typedef struct {
    NodeRun *run;
    gsize len;
} NodeRuns;

static void runs_add(NodeRuns *runs, uint32_t first, uint32_t count)
{
    if (!count)
        return;
    /* The channel table comes by source: repeats in a row cost nothing. */
    if (runs->len && runs->run[runs->len - 1].first == first
        && runs->run[runs->len - 1].end - first >= count)
        return;
    runs->run[runs->len++] = (NodeRun){ first, first + count };
}

static int run_compare(const void *a, const void *b)
{
    const NodeRun *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* Sorted, merged where they touch or overlap. */
static void runs_merge(NodeRuns *runs)
{
    if (runs->len < 2)
        return;
    qsort(runs->run, runs->len, sizeof(NodeRun), run_compare);
    NodeRun *r = runs->run;
    gsize out = 0;
    for (gsize i = 1; i < runs->len; i++) {
        if (r[i].first <= r[out].end)
            r[out].end = MAX(r[out].end, r[i].end);
        else
            r[++out] = r[i];
    }
    runs->len = out + 1;
}

/* What names a node in each format. */
typedef enum {
    NAMES_CHROME,   /* a slice's channel, a receive slice's destination, a
                     * startup's source, a mark's nodes when it is not
                     * every node's (else pid 0) */
    NAMES_PAJE,     /* a channel's source, a message's ends, a startup's
                     * source, a mark's nodes */
} NodesNamed;

/* The nodes the trace's records name, as sorted disjoint runs; FALSE with
 * *error where their table cannot be allocated. `receives` (Chrome): a bit
 * per channel that brings a message to its destination, whose destination
 * has a receive track. g_free runs->run. */
static gboolean nodes_named(const Trace *t, NodesNamed which,
                            const guint8 *receives, NodeRuns *runs,
                            GError **error)
{
    guint nm = t->messages->len;
    uint64_t most = (uint64_t)t->channels->len + t->startups->len
                    + t->marks->len + (which == NAMES_PAJE ? 2 * (uint64_t)nm : 0)
                    + (receives ? t->channels->len : 0);
    runs->len = 0;
    runs->run = try_table(most, sizeof(NodeRun));
    /* A message's link joins its ends; it has one if it has a busy
     * record. */
    guint8 *linked = which == NAMES_PAJE ? try_table(nm / 8 + 1, 1) : NULL;
    if (!runs->run || (which == NAMES_PAJE && !linked)) {
        g_free(runs->run);
        g_free(linked);
        runs->run = NULL;
        return no_room(error, (most + 1) * sizeof(NodeRun) + nm / 8 + 1,
                       "the table of the nodes the trace names");
    }
    for (guint c = 0; c < t->channels->len; c++)
        runs_add(runs, g_array_index(t->channels, TraceChannel, c).source, 1);
    if (receives)
        for (guint c = 0; c < t->channels->len; c++)
            if ((receives[c / 8] >> (c % 8)) & 1)
                runs_add(runs, g_array_index(t->channels, TraceChannel, c).dest, 1);
    if (linked) {
        for (guint i = 0; i < t->busy->len; i++) {
            guint m = g_array_index(t->busy, TraceBusy, i).message;
            linked[m / 8] |= (guint8)(1u << (m % 8));
        }
        for (guint i = 0; i < nm; i++)
            if (linked[i / 8] & (1u << (i % 8))) {
                const TraceMessage *m = &g_array_index(t->messages,
                                                       TraceMessage, i);
                runs_add(runs, m->source, 1);
                runs_add(runs, m->dest, 1);
            }
        g_free(linked);
    }
    for (guint i = 0; i < t->startups->len; i++) {
        const TraceStartup *st = &g_array_index(t->startups, TraceStartup, i);
        runs_add(runs, g_array_index(t->messages, TraceMessage,
                                     st->message).source, 1);
    }
    for (guint i = 0; i < t->marks->len; i++) {
        const TraceMark *m = &g_array_index(t->marks, TraceMark, i);
        if (which == NAMES_CHROME && m->nodes == trace_nodes(t))
            runs_add(runs, 0, 1);
        else
            runs_add(runs, m->node, m->nodes);
    }
    runs_merge(runs);
    return TRUE;
}

#define FOR_NODES(runs, v)                                                  \
    for (gsize run_ = 0; run_ < (runs)->len; run_++)                        \
        for (uint32_t v = (runs)->run[run_].first;                          \
             v < (runs)->run[run_].end; v++)

/* Marks are written node by node (a Chrome instant per node of a mark
 * that is not every node's; a Paje event per node of every mark), so a
 * 24-byte mark may stand for as many lines as the machine has nodes. The
 * export is refused where the marks would be written for more nodes than
 * TRACE_EXPORT_MARK_FLOOR plus TRACE_EXPORT_MARK_PER_RECORD per record of
 * the trace: a recorded run's marks come from its nodes' steps, which
 * leave records too. */
static gboolean export_bounded(const Trace *t, TraceExportMarks marks,
                               const char *name, GError **error)
{
    if (marks == TRACE_EXPORT_MARKS_NONE)
        return TRUE;
    uint64_t lines = 0;
    for (guint i = 0; i < t->marks->len; i++) {
        const TraceMark *m = &g_array_index(t->marks, TraceMark, i);
        if (marks == TRACE_EXPORT_MARKS_PER_NODE || m->nodes != trace_nodes(t))
            lines += m->nodes;
    }
    uint64_t records = (uint64_t)t->channels->len + t->messages->len
                       + t->busy->len + t->startups->len + t->marks->len;
    uint64_t allowed = TRACE_EXPORT_MARK_FLOOR
                       + TRACE_EXPORT_MARK_PER_RECORD * records;
    if (lines <= allowed)
        return TRUE;
    g_autofree char *topology = trace_topology_text(t);
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_INPUT,
                "cannot export this trace to %s: its %u marks would be "
                "written node by node for %" G_GUINT64_FORMAT " nodes, more "
                "than its %" G_GUINT64_FORMAT " records can belong to (at "
                "most %" G_GUINT64_FORMAT "; the header's machine: %s); the "
                "file is corrupt or forged", name, t->marks->len,
                (guint64)lines, (guint64)records, (guint64)allowed, topology);
    return FALSE;
}

/* ---- faults ----------------------------------------------------------- */

/* "down: node 5 +x", "dead: node 7": fault i's name (Chrome's track,
 * Paje's container); free with g_free. */
static char *export_fault_name(const Trace *t, guint i)
{
    const FaultEntry *e = &g_array_index(t->faults, FaultEntry, i);
    if (e->link < 0)
        return g_strdup_printf("dead: node %u", e->node);
    char name[TRACE_CHANNEL_NAME_MAX];
    trace_channel_name(t, e->node, (uint32_t)e->link, name, sizeof name);
    return g_strdup_printf("down: %s", name);
}

/* ---- links ------------------------------------------------------------ */

static int link_compare(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The links of the channel table, sorted, each once. */
static GArray *used_links(const Trace *t)
{
    GArray *links = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    for (guint c = 0; c < t->channels->len; c++)
        g_array_append_val(links, g_array_index(t->channels, TraceChannel,
                                                c).link);
    if (links->len > 1) {
        qsort(links->data, links->len, sizeof(uint32_t), link_compare);
        uint32_t *l = (uint32_t *)(void *)links->data;
        guint out = 0;
        for (guint i = 1; i < links->len; i++)
            if (l[i] != l[out])
                l[++out] = l[i];
        g_array_set_size(links, out + 1);
    }
    return links;
}

/* Where `link` is in the sorted links: a binary search. */
static gsize link_column(const GArray *links, uint32_t link)
{
    gsize lo = 0, hi = links->len;
    while (lo < hi) {
        gsize mid = lo + (hi - lo) / 2;
        if (g_array_index(links, uint32_t, mid) < link)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ---- Chrome trace events ---------------------------------------------- */

/* The Chrome export is the Trace Event Format as Perfetto's JSON importer
 * (and chrome://tracing) reads it. Its time axis is ticks: ts and dur are
 * whole ticks, which the format calls microseconds, so 1 us of display
 * time is one tick whatever the tick length (otherData states it, and
 * tick_seconds when the trace has one). Whole numbers matter: Perfetto
 * turns a fractional ts into nanoseconds by truncation, so a slice's ts +
 * dur and the next slice's ts, each rounded on its own, could overlap by
 * a nanosecond and no longer nest (with the CM-200's 1e-7 s tick, some
 * back-to-back pairs did).
 *
 * Tracks, by tid (a pid is a node, and the machine's process is pid
 * `nodes`, which no node has; tids are unique across processes):
 *   c              channel c's busy slices ('X', one per busy record:
 *                  "ph":"X" is a busy record and nothing else), in the
 *                  process of its source: "node 5 +x";
 *   nch + c        the receive slices of channel c ('B'/'E'), in the
 *                  process of its destination: a copy of each busy record
 *                  of c whose message ends there, "node 6 from node 5 +x";
 *   2 nch + v      node v's phases from the marks of some nodes ('B'/'E');
 *   2 nch + nodes  the machine's phases from the marks of every node;
 *   2 nch + nodes + 1 + i   fault i of the trace (2.2), in the machine's
 *                  process: "down: node 5 +x" or "dead: node 7", one
 *                  slice ('X', cat "fault") over the ticks of the run it
 *                  lasts, and a global instant ('i', "s":"g") where it
 *                  begins, so that Perfetto draws a line across every
 *                  track there.
 * A busy slice of a message that went around a fault has "detoured":true
 * among its args (and its flow the cat "detour"), so a query or a search
 * for it finds the detour's hops.
 * The machine's process also holds the counters ('C'): per link that
 * carried something, its busy channels; per message class, its busy
 * channels and its messages in flight (posted, last element not yet
 * arrived). Each counter has a sample at ts 0 and then one at every tick
 * its value changes, so counters cost what the busy records do.
 *
 * A message is a flow (Trace Event Format v1 flow events, same "id",
 * "cat" and "name"): "s" on the first busy slice of its first channel,
 * on its source; "t" on its first slice of each further channel of its
 * route, on the node the hop leaves; "f" with "bp":"e" on the receive
 * slice of its last element, on its destination. Perfetto binds each to
 * the slice open on that thread at its ts, and every flow event's ts is
 * the start of the slice it belongs to: at one ts Perfetto's sorter
 * takes 'E', then 'X', then the rest in file order, and the receive
 * slices are written before the flows. (The v2 form, bind_id and
 * flow_in/flow_out on the slices, would bind as well; the v1 events
 * keep the slices as they were and make the flows countable.) */

#define CHROME_TIME_UNIT "1 tick = 1 us of display time"

typedef struct {
    const Trace *t;
    FILE *out;
    gboolean first;               /* no event written yet */
    guint nch;
    uint32_t machine;             /* the machine's pid: the node count */
    guint8 *receives;             /* bit per channel: carries a message to
                                   * its destination (a receive track) */
    /* Phases of the marks of some nodes: the nodes they name, as runs,
     * and per such node (at run offset + node - run start) its phase
     * begun and not yet written. */
    NodeRuns marked;
    guint64 *marked_at;           /* per run: nodes in the runs before */
    Tick *phase_from;             /* -1: none open */
    uint32_t *phase_label;
    uint32_t *phase_open;         /* nodes with a phase open */
    /* Flows: the busy records of message m are by_message[msg_first[m] ..
     * msg_first[m + 1]), in the table's (channel, start) order. */
    guint *msg_first;
    uint32_t *by_message;
    struct ChromeHop *hops;       /* room for the most channels a message
                                   * crosses */
    /* Counters. */
    GArray *links;                /* uint32_t, sorted: links used */
    struct ChromeCount *counts;
    gsize ncounts;
    int64_t *value;               /* per series */
    guint8 *active;               /* per series: it changes at all */
} Chrome;

/* One channel of a message's route: its busy records' first and last
 * start, and where the first is. */
typedef struct ChromeHop {
    Tick first_start, last_start;
    uint32_t channel;
} ChromeHop;

/* A counter's change: series (a link's column, then per class its busy
 * channels, then per class its messages in flight), +1 or -1. */
typedef struct ChromeCount {
    Tick time;
    uint32_t series;
    int32_t delta;
} ChromeCount;

static const char *chrome_sep(Chrome *c)
{
    if (c->first) {
        c->first = FALSE;
        return "";
    }
    return ",\n";
}

static gboolean bit_get(const guint8 *bits, guint i)
{
    return (bits[i / 8] >> (i % 8)) & 1;
}

static uint64_t chrome_receive_tid(const Chrome *c, uint32_t channel)
{
    return (uint64_t)c->nch + channel;
}

static uint64_t chrome_phase_tid(const Chrome *c, uint32_t node)
{
    return 2 * (uint64_t)c->nch + node;
}

static uint64_t chrome_fault_tid(const Chrome *c, guint fault)
{
    return chrome_phase_tid(c, trace_nodes(c->t)) + 1 + fault;
}

static const TraceMessage *chrome_message(const Chrome *c, guint m)
{
    return &g_array_index(c->t->messages, TraceMessage, m);
}

static const TraceChannel *chrome_channel(const Chrome *c, guint ch)
{
    return &g_array_index(c->t->channels, TraceChannel, ch);
}

/* "message 12: 3 -> 5": a busy slice's, its receive slice's and its
 * flow's name. */
#define CHROME_MESSAGE_NAME_MAX 48
static const char *chrome_message_name(const Chrome *c, guint m,
                                       char buf[CHROME_MESSAGE_NAME_MAX])
{
    const TraceMessage *msg = chrome_message(c, m);
    g_snprintf(buf, CHROME_MESSAGE_NAME_MAX, "message %u: %u -> %u", m,
               msg->source, msg->dest);
    return buf;
}

static void chrome_free(Chrome *c)
{
    g_free(c->receives);
    g_free(c->marked.run);
    g_free(c->marked_at);
    g_free(c->phase_from);
    g_free(c->phase_label);
    g_free(c->phase_open);
    g_free(c->msg_first);
    g_free(c->by_message);
    g_free(c->hops);
    if (c->links)
        g_array_unref(c->links);
    g_free(c->counts);
    g_free(c->value);
    g_free(c->active);
}

static int count_compare(const void *pa, const void *pb)
{
    const ChromeCount *x = pa, *y = pb;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->series < y->series ? -1 : x->series > y->series;
}

static int hop_compare(const void *pa, const void *pb)
{
    const ChromeHop *x = pa, *y = pb;
    if (x->first_start != y->first_start)
        return x->first_start < y->first_start ? -1 : 1;
    return x->channel < y->channel ? -1 : x->channel > y->channel;
}

/* Every table the export needs, before a byte is written: FALSE with
 * *error (and everything freed by the caller) where one cannot be had. */
static gboolean chrome_prepare(Chrome *c, GError **error)
{
    const Trace *t = c->t;
    guint nb = t->busy->len, nm = t->messages->len, nk = t->marks->len;
    uint64_t asked = 0;
#define TRY(p, n, size) (asked += (uint64_t)MAX((n), 1) * (size), \
                         (p) = try_table((n), (size)))
    if (!TRY(c->receives, c->nch / 8 + 1, 1)
        || !TRY(c->marked.run, nk, sizeof(NodeRun))
        || !TRY(c->msg_first, (uint64_t)nm + 1, sizeof(guint))
        || !TRY(c->by_message, nb, sizeof(uint32_t)))
        return no_room(error, asked, "the Chrome export's tracks and flows");
    for (guint i = 0; i < nb; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        if (chrome_message(c, b->message)->dest
            == chrome_channel(c, b->channel)->dest)
            c->receives[b->channel / 8] |= (guint8)(1u << (b->channel % 8));
        c->msg_first[b->message + 1]++;
    }
    /* The records by message (a counting sort, stable), and the most
     * records of one message: room for the channels it crosses. */
    guint most = 0;
    for (guint m = 0; m < nm; m++) {
        most = MAX(most, c->msg_first[m + 1]);
        c->msg_first[m + 1] += c->msg_first[m];
    }
    for (guint i = 0; i < nb; i++) {
        uint32_t m = g_array_index(t->busy, TraceBusy, i).message;
        c->by_message[c->msg_first[m]++] = i;
    }
    for (guint m = nm; m > 0; m--)
        c->msg_first[m] = c->msg_first[m - 1];
    c->msg_first[0] = 0;
    if (!TRY(c->hops, most, sizeof(ChromeHop)))
        return no_room(error, asked, "the Chrome export's flows");

    /* The nodes that mark on their own, and a phase slot for each. */
    for (guint i = 0; i < nk; i++) {
        const TraceMark *m = &g_array_index(t->marks, TraceMark, i);
        if (m->nodes != trace_nodes(t))
            runs_add(&c->marked, m->node, m->nodes);
    }
    runs_merge(&c->marked);
    uint64_t named = 0;
    if (!TRY(c->marked_at, (uint64_t)c->marked.len + 1, sizeof(guint64)))
        return no_room(error, asked, "the Chrome export's phases");
    for (gsize r = 0; r < c->marked.len; r++) {
        c->marked_at[r] = named;
        named += c->marked.run[r].end - c->marked.run[r].first;
    }
    if (!TRY(c->phase_from, named, sizeof(Tick))
        || !TRY(c->phase_label, named, sizeof(uint32_t))
        || !TRY(c->phase_open, named, sizeof(uint32_t)))
        return no_room(error, asked, "the Chrome export's phases");
    for (uint64_t k = 0; k < named; k++)
        c->phase_from[k] = -1;

    /* Counter changes: a busy record starts and ends on its link and in
     * its class, a message is posted and arrives. */
    c->links = used_links(t);
    guint series = c->links->len + 2 * CLASS_COUNT;
    c->ncounts = 4 * (gsize)nb + 2 * (gsize)nm;
    if (!TRY(c->counts, c->ncounts, sizeof(ChromeCount))
        || !TRY(c->value, series, sizeof(int64_t))
        || !TRY(c->active, series, 1))
        return no_room(error, asked, "the Chrome export's counters");
    Tick *arrival = try_table(nm, sizeof(Tick));
    if (!arrival)
        return no_room(error, asked + (uint64_t)MAX(nm, 1) * sizeof(Tick),
                       "the Chrome export's counters");
#undef TRY
    for (guint m = 0; m < nm; m++)
        arrival[m] = -1;
    guint nl = c->links->len;
    gsize k = 0;
    for (guint i = 0; i < nb; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        uint32_t link = (uint32_t)link_column(c->links,
                                              chrome_channel(c, b->channel)->link);
        uint32_t cls = nl + (uint32_t)chrome_message(c, b->message)->cls;
        Tick end = trace_busy_end(t, b);
        c->counts[k++] = (ChromeCount){ b->start, link, 1 };
        c->counts[k++] = (ChromeCount){ end, link, -1 };
        c->counts[k++] = (ChromeCount){ b->start, cls, 1 };
        c->counts[k++] = (ChromeCount){ end, cls, -1 };
        arrival[b->message] = MAX(arrival[b->message], end);
    }
    for (guint m = 0; m < nm; m++) {
        const TraceMessage *msg = chrome_message(c, m);
        if (arrival[m] <= msg->posted)
            continue;
        uint32_t flight = nl + CLASS_COUNT + (uint32_t)msg->cls;
        c->counts[k++] = (ChromeCount){ msg->posted, flight, 1 };
        c->counts[k++] = (ChromeCount){ arrival[m], flight, -1 };
    }
    g_free(arrival);
    c->ncounts = k;
    if (k > 1)
        qsort(c->counts, k, sizeof(ChromeCount), count_compare);
    return TRUE;
}

static void chrome_metadata(const Trace *t, FILE *out)
{
    g_autofree char *title = trace_title(t);
    g_autofree char *topology = trace_topology_text(t);
    /* No displayTimeUnit: Chrome knows only "ms" and "ns", and the axis's
     * microsecond is a tick; time_unit says so, tick_seconds how long a
     * tick is. */
    fputs("{\"otherData\":{\"title\":", out);
    trace_json_string(out, title);
    fputs(",\"topology\":", out);
    trace_json_string(out, topology);
    fputs(",\"time_unit\":\"" CHROME_TIME_UNIT "\"", out);
    if (t->tick_seconds > 0) {
        char tick[G_ASCII_DTOSTR_BUF_SIZE];
        g_ascii_formatd(tick, sizeof tick, "%g", t->tick_seconds);
        fprintf(out, ",\"tick_seconds\":%s", tick);
    }
    for (guint i = 0; i < t->info->len; i++) {
        const TraceInfo *in = &g_array_index(t->info, TraceInfo, i);
        fputc(',', out);
        trace_json_string(out, in->key);
        fputc(':', out);
        trace_json_string(out, in->value);
    }
    fprintf(out, ",\"cycles\":\"%" G_GINT64_FORMAT "\"},\n\"traceEvents\":[\n",
            (gint64)t->cycles);
}

static void chrome_thread_name(Chrome *c, uint32_t pid, uint64_t tid,
                               const char *name)
{
    fprintf(c->out, "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,"
            "\"tid\":%" G_GUINT64_FORMAT ",\"args\":{\"name\":", chrome_sep(c),
            pid, (guint64)tid);
    trace_json_string(c->out, name);
    fputs("}}", c->out);
}

/* Processes and threads by name: the nodes that have events, the
 * machine's when it has some, and every track. */
static void chrome_names(Chrome *c, const NodeRuns *processes,
                         gboolean all_marks)
{
    const Trace *t = c->t;
    FILE *out = c->out;
    char name[TRACE_CHANNEL_NAME_MAX];
    /* Perfetto shows no process without a name. */
    FOR_NODES(processes, v) {
        g_snprintf(name, sizeof name, "node %u", v);
        fprintf(out, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,"
                "\"args\":{\"name\":", chrome_sep(c), v);
        trace_json_string(out, name);
        fprintf(out, "}},\n{\"name\":\"process_sort_index\",\"ph\":\"M\","
                "\"pid\":%u,\"args\":{\"sort_index\":%u}}", v, v);
    }
    if (t->busy->len || all_marks || t->faults->len) {
        g_autofree char *topology = trace_topology_text(t);
        g_autofree char *machine = g_strdup_printf("machine (%s)", topology);
        fprintf(out, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,"
                "\"args\":{\"name\":", chrome_sep(c), c->machine);
        trace_json_string(out, machine);
        fprintf(out, "}},\n{\"name\":\"process_sort_index\",\"ph\":\"M\","
                "\"pid\":%u,\"args\":{\"sort_index\":-1}}", c->machine);
    }
    for (guint ch = 0; ch < c->nch; ch++) {
        const TraceChannel *x = chrome_channel(c, ch);
        trace_channel_name(t, x->source, x->link, name, sizeof name);
        chrome_thread_name(c, x->source, ch, name);
    }
    for (guint ch = 0; ch < c->nch; ch++) {
        if (!bit_get(c->receives, ch))
            continue;
        const TraceChannel *x = chrome_channel(c, ch);
        trace_channel_name(t, x->source, x->link, name, sizeof name);
        g_autofree char *from = g_strdup_printf("node %u from %s", x->dest, name);
        chrome_thread_name(c, x->dest, chrome_receive_tid(c, ch), from);
    }
    FOR_NODES(&c->marked, v) {
        g_snprintf(name, sizeof name, "node %u phase", v);
        chrome_thread_name(c, v, chrome_phase_tid(c, v), name);
    }
    if (all_marks)
        chrome_thread_name(c, c->machine, chrome_phase_tid(c, trace_nodes(t)),
                           "phases (all nodes)");
    for (guint i = 0; i < t->faults->len; i++) {
        g_autofree char *fault = export_fault_name(c->t, i);
        chrome_thread_name(c, c->machine, chrome_fault_tid(c, i), fault);
    }
}

/* A busy slice per busy record, on its channel's thread. */
static void chrome_busy(Chrome *c)
{
    const Trace *t = c->t;
    FILE *out = c->out;
    char link[TOPOLOGY_LINK_NAME_MAX], slice[CHROME_MESSAGE_NAME_MAX];
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        const TraceChannel *ch = chrome_channel(c, b->channel);
        const TraceMessage *m = chrome_message(c, b->message);
        trace_link_name(t, ch->link, link, sizeof link);
        fprintf(out, "%s{\"name\":", chrome_sep(c));
        trace_json_string(out, chrome_message_name(c, b->message, slice));
        fprintf(out, ",\"cat\":\"message\",\"ph\":\"X\",\"ts\":%" G_GINT64_FORMAT
                ",\"dur\":%" G_GINT64_FORMAT ",\"pid\":%u,\"tid\":%u,"
                "\"args\":{\"link\":", (gint64)b->start,
                (gint64)(trace_busy_end(t, b) - b->start), ch->source,
                b->channel);
        trace_json_string(out, link);
        fprintf(out, ",\"start_cycle\":%" G_GINT64_FORMAT ",\"message\":%"
                G_GUINT64_FORMAT ",\"class\":\"%s\",\"source\":%u,\"dest\":%u,"
                "\"tag\":%d,\"first\":%" G_GUINT64_FORMAT ",\"elements\":%"
                G_GUINT64_FORMAT ",\"message_elements\":%" G_GUINT64_FORMAT
                ",\"element_time\":%" G_GINT64_FORMAT ",\"posted\":%"
                G_GINT64_FORMAT ",\"hops\":%u%s}}", (gint64)b->start,
                (guint64)m->id, message_class_name(m->cls), m->source, m->dest,
                m->tag, (guint64)b->first, (guint64)b->count, (guint64)m->count,
                (gint64)m->element_time, (gint64)m->posted, m->hops,
                m->detoured ? ",\"detoured\":true" : "");
    }
}

/* A receive slice per busy record that brings elements of its message to
 * their destination, on the destination's track for that channel. */
static void chrome_receives(Chrome *c)
{
    const Trace *t = c->t;
    FILE *out = c->out;
    char slice[CHROME_MESSAGE_NAME_MAX];
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        const TraceChannel *ch = chrome_channel(c, b->channel);
        const TraceMessage *m = chrome_message(c, b->message);
        if (m->dest != ch->dest)
            continue;
        uint64_t tid = chrome_receive_tid(c, b->channel);
        fprintf(out, "%s{\"name\":", chrome_sep(c));
        trace_json_string(out, chrome_message_name(c, b->message, slice));
        fprintf(out, ",\"cat\":\"receive\",\"ph\":\"B\",\"ts\":%" G_GINT64_FORMAT
                ",\"pid\":%u,\"tid\":%" G_GUINT64_FORMAT ",\"args\":{\"message\":%"
                G_GUINT64_FORMAT ",\"source\":%u,\"dest\":%u,\"first\":%"
                G_GUINT64_FORMAT ",\"elements\":%" G_GUINT64_FORMAT "}},\n"
                "{\"cat\":\"receive\",\"ph\":\"E\",\"ts\":%" G_GINT64_FORMAT
                ",\"pid\":%u,\"tid\":%" G_GUINT64_FORMAT "}", (gint64)b->start, m->dest, (guint64)tid,
                (guint64)m->id, m->source, m->dest, (guint64)b->first,
                (guint64)b->count, (gint64)trace_busy_end(t, b), m->dest,
                (guint64)tid);
    }
}

static void chrome_flow_event(Chrome *c, const char *ph, guint m,
                              const char *name, Tick ts, uint32_t pid,
                              uint64_t tid)
{
    fprintf(c->out, "%s{\"name\":", chrome_sep(c));
    trace_json_string(c->out, name);
    fprintf(c->out, ",\"cat\":\"%s\",\"ph\":\"%s\",\"id\":%u,\"ts\":%"
            G_GINT64_FORMAT ",\"pid\":%u,\"tid\":%" G_GUINT64_FORMAT "%s}",
            chrome_message(c, m)->detoured ? "detour" : "message",
            ph, m, (gint64)ts, pid, (guint64)tid,
            *ph == 'f' ? ",\"bp\":\"e\"" : "");
}

/* Every message that reaches its destination over a channel as a flow:
 * its route, channel by channel in the order its first element crossed
 * them, from its first busy slice on the source to the receive slice of
 * its last element on the destination. */
static void chrome_flows(Chrome *c)
{
    const Trace *t = c->t;
    char name[CHROME_MESSAGE_NAME_MAX];
    for (guint m = 0; m < t->messages->len; m++) {
        const TraceMessage *msg = chrome_message(c, m);
        guint n = 0;
        for (guint k = c->msg_first[m]; k < c->msg_first[m + 1]; k++) {
            const TraceBusy *b = &g_array_index(t->busy, TraceBusy,
                                                c->by_message[k]);
            if (n && c->hops[n - 1].channel == b->channel) {
                c->hops[n - 1].last_start = b->start;
                continue;
            }
            c->hops[n++] = (ChromeHop){ b->start, b->start, b->channel };
        }
        if (n > 1)
            qsort(c->hops, n, sizeof(ChromeHop), hop_compare);
        /* The last hop: the channel into the destination. */
        guint last = n;
        for (guint h = 0; h < n; h++)
            if (chrome_channel(c, c->hops[h].channel)->dest == msg->dest)
                last = h;
        if (last == n)
            continue;
        chrome_message_name(c, m, name);
        const ChromeHop *h0 = &c->hops[0], *hl = &c->hops[last];
        chrome_flow_event(c, "s", m, name, h0->first_start,
                          chrome_channel(c, h0->channel)->source, h0->channel);
        for (guint h = 1; h < last; h++)
            chrome_flow_event(c, "t", m, name, c->hops[h].first_start,
                              chrome_channel(c, c->hops[h].channel)->source,
                              c->hops[h].channel);
        chrome_flow_event(c, "f", m, name, hl->last_start, msg->dest,
                          chrome_receive_tid(c, hl->channel));
    }
}

/* Startups may overlap one another on a node (one per port), which
 * slices on one thread cannot show: async spans can. */
static void chrome_startups(Chrome *c)
{
    const Trace *t = c->t;
    FILE *out = c->out;
    char link[TOPOLOGY_LINK_NAME_MAX];
    for (guint i = 0; i < t->startups->len; i++) {
        const TraceStartup *s = &g_array_index(t->startups, TraceStartup, i);
        const TraceMessage *m = chrome_message(c, s->message);
        trace_link_name(t, s->link, link, sizeof link);
        for (int end = 0; end < 2; end++) {
            fprintf(out, "%s{\"name\":\"startup of message %u\",\"cat\":"
                    "\"startup\",\"ph\":\"%s\",\"id\":%u,\"ts\":%" G_GINT64_FORMAT
                    ",\"pid\":%u,\"tid\":0", chrome_sep(c), s->message,
                    end ? "e" : "b", s->message,
                    (gint64)(s->start + (end ? s->duration : 0)), m->source);
            if (!end) {
                fputs(",\"args\":{\"link\":", out);
                trace_json_string(out, link);
                fprintf(out, ",\"start_cycle\":%" G_GINT64_FORMAT ",\"cycles\":%"
                        G_GINT64_FORMAT "}", (gint64)s->start, (gint64)s->duration);
            }
            fputc('}', out);
        }
    }
}

/* The faults: per entry a slice over the part of the run it lasts (none
 * if it begins after the run) and a global instant where it begins. The
 * args give the entry as the trace has it, "until" null for good. */
static void chrome_fault_args(Chrome *c, const FaultEntry *e)
{
    const Trace *t = c->t;
    FILE *out = c->out;
    fprintf(out, ",\"args\":{\"node\":%u", e->node);
    if (e->link >= 0) {
        char link[TOPOLOGY_LINK_NAME_MAX];
        trace_link_name(t, (uint32_t)e->link, link, sizeof link);
        fputs(",\"link\":", out);
        trace_json_string(out, link);
        fprintf(out, ",\"to\":%u",
                topology_neighbour(&t->topology, e->node, e->link));
    }
    fprintf(out, ",\"from\":%" G_GINT64_FORMAT, (gint64)e->from);
    if (e->until == FAULTS_FOREVER)
        fputs(",\"until\":null}}", out);
    else
        fprintf(out, ",\"until\":%" G_GINT64_FORMAT "}}", (gint64)e->until);
}

static void chrome_faults(Chrome *c)
{
    const Trace *t = c->t;
    FILE *out = c->out;
    for (guint i = 0; i < t->faults->len; i++) {
        const FaultEntry *e = &g_array_index(t->faults, FaultEntry, i);
        g_autofree char *name = export_fault_name(c->t, i);
        uint64_t tid = chrome_fault_tid(c, i);
        Tick end = MIN(e->until, t->cycles);
        if (e->from < end) {
            fprintf(out, "%s{\"name\":", chrome_sep(c));
            trace_json_string(out, name);
            fprintf(out, ",\"cat\":\"fault\",\"ph\":\"X\",\"ts\":%"
                    G_GINT64_FORMAT ",\"dur\":%" G_GINT64_FORMAT ",\"pid\":%u,"
                    "\"tid\":%" G_GUINT64_FORMAT, (gint64)e->from,
                    (gint64)(end - e->from), c->machine, (guint64)tid);
            chrome_fault_args(c, e);
        }
        if (e->from <= t->cycles) {
            fprintf(out, "%s{\"name\":", chrome_sep(c));
            trace_json_string(out, name);
            fprintf(out, ",\"cat\":\"fault\",\"ph\":\"i\",\"s\":\"g\",\"ts\":%"
                    G_GINT64_FORMAT ",\"pid\":%u,\"tid\":%" G_GUINT64_FORMAT,
                    (gint64)e->from, c->machine, (guint64)tid);
            chrome_fault_args(c, e);
        }
    }
}

/* Marks as instants: one global instant for a mark of every node, one
 * per node for a mark of some. */
static void chrome_marks(Chrome *c)
{
    const Trace *t = c->t;
    FILE *out = c->out;
    for (guint i = 0; i < t->marks->len; i++) {
        const TraceMark *m = &g_array_index(t->marks, TraceMark, i);
        const char *label = t->labels->pdata[m->label];
        if (m->nodes == trace_nodes(t)) {
            fprintf(out, "%s{\"name\":", chrome_sep(c));
            trace_json_string(out, label);
            fprintf(out, ",\"cat\":\"mark\",\"ph\":\"i\",\"s\":\"g\",\"ts\":%"
                    G_GINT64_FORMAT ",\"pid\":0,\"tid\":0,\"args\":{\"nodes\":%u}}",
                    (gint64)m->time, m->nodes);
            continue;
        }
        for (uint32_t v = m->node; v - m->node < m->nodes; v++) {
            fprintf(out, "%s{\"name\":", chrome_sep(c));
            trace_json_string(out, label);
            fprintf(out, ",\"cat\":\"mark\",\"ph\":\"i\",\"s\":\"p\",\"ts\":%"
                    G_GINT64_FORMAT ",\"pid\":%u,\"tid\":0}", (gint64)m->time, v);
        }
    }
}

/* A phase slice [from, to) on a track, unless it lasts no tick (a node
 * that marks twice in one tick is in the first phase for none). */
static void chrome_phase(Chrome *c, uint32_t pid, uint64_t tid, uint32_t label,
                         Tick from, Tick to)
{
    if (to <= from)
        return;
    fprintf(c->out, "%s{\"name\":", chrome_sep(c));
    trace_json_string(c->out, c->t->labels->pdata[label]);
    fprintf(c->out, ",\"cat\":\"phase\",\"ph\":\"B\",\"ts\":%" G_GINT64_FORMAT
            ",\"pid\":%u,\"tid\":%" G_GUINT64_FORMAT "},\n{\"cat\":\"phase\","
            "\"ph\":\"E\",\"ts\":%"
            G_GINT64_FORMAT ",\"pid\":%u,\"tid\":%" G_GUINT64_FORMAT "}",
            (gint64)from, pid, (guint64)tid, (gint64)to, pid, (guint64)tid);
}

/* The phase slot of node v, which the marks of some nodes name. */
static guint64 chrome_phase_slot(const Chrome *c, uint32_t v)
{
    gsize lo = 0, hi = c->marked.len;
    while (hi - lo > 1) {
        gsize mid = lo + (hi - lo) / 2;
        if (c->marked.run[mid].first <= v)
            lo = mid;
        else
            hi = mid;
    }
    return c->marked_at[lo] + (v - c->marked.run[lo].first);
}

/* Phases: a node is in the phase it marked last. A mark of every node
 * begins a phase on the machine's track until the next such mark, and
 * ends every node's own; a mark of some nodes begins a phase on each
 * one's track until its next mark of either kind. Both last at most to
 * the end of the run. */
static void chrome_phases(Chrome *c)
{
    const Trace *t = c->t;
    uint64_t machine_tid = chrome_phase_tid(c, trace_nodes(t));
    Tick all_from = -1;
    uint32_t all_label = 0;
    guint open = 0;
    for (guint i = 0; i <= t->marks->len; i++) {
        const TraceMark *m = i < t->marks->len
                             ? &g_array_index(t->marks, TraceMark, i) : NULL;
        Tick now = m ? m->time : t->cycles;
        if (!m || m->nodes == trace_nodes(t)) {
            if (all_from >= 0)
                chrome_phase(c, c->machine, machine_tid, all_label, all_from, now);
            if (m) {
                all_from = m->time;
                all_label = m->label;
            }
            for (guint k = 0; k < open; k++) {
                uint32_t v = c->phase_open[k];
                guint64 slot = chrome_phase_slot(c, v);
                chrome_phase(c, v, chrome_phase_tid(c, v), c->phase_label[slot],
                             c->phase_from[slot], now);
                c->phase_from[slot] = -1;
            }
            open = 0;
            continue;
        }
        guint64 slot = chrome_phase_slot(c, m->node);
        for (uint32_t v = m->node; v - m->node < m->nodes; v++, slot++) {
            if (c->phase_from[slot] >= 0)
                chrome_phase(c, v, chrome_phase_tid(c, v), c->phase_label[slot],
                             c->phase_from[slot], now);
            else
                c->phase_open[open++] = v;
            c->phase_from[slot] = now;
            c->phase_label[slot] = m->label;
        }
    }
}

static void chrome_counter(Chrome *c, guint s, Tick now, int64_t value)
{
    const Trace *t = c->t;
    guint nl = c->links->len;
    const char *key = "busy channels";
    g_autofree char *name = NULL;
    if (s < nl) {
        char link[TOPOLOGY_LINK_NAME_MAX];
        trace_link_name(t, g_array_index(c->links, uint32_t, s), link,
                        sizeof link);
        name = g_strdup_printf("link %s", link);
    } else {
        MessageClass cls = (MessageClass)((s - nl) % CLASS_COUNT);
        gboolean flight = s - nl >= CLASS_COUNT;
        name = g_strdup_printf("class %s%s", message_class_name(cls),
                               flight ? " messages" : "");
        if (flight)
            key = "in flight";
    }
    fprintf(c->out, "%s{\"name\":", chrome_sep(c));
    trace_json_string(c->out, name);
    fprintf(c->out, ",\"ph\":\"C\",\"ts\":%" G_GINT64_FORMAT ",\"pid\":%u,"
            "\"tid\":%" G_GUINT64_FORMAT ",\"args\":{\"%s\":%" G_GINT64_FORMAT
            "}}", (gint64)now, c->machine,
            (guint64)chrome_phase_tid(c, trace_nodes(t)), key, (gint64)value);
}

/* The counters: every series that changes at all, at ts 0 and then at
 * each tick where its value changes (the changes come sorted by time and
 * series, so this costs what they do). */
static void chrome_counters(Chrome *c)
{
    guint ns = c->links->len + 2 * CLASS_COUNT;
    const ChromeCount *e = c->counts;
    gsize n = c->ncounts, k = 0;
    for (gsize i = 0; i < n; i++)
        c->active[e[i].series] = 1;
    for (; k < n && e[k].time <= 0; k++)
        c->value[e[k].series] += e[k].delta;
    for (guint s = 0; s < ns; s++)
        if (c->active[s])
            chrome_counter(c, s, 0, c->value[s]);
    while (k < n) {
        Tick now = e[k].time;
        uint32_t s = e[k].series;
        int64_t before = c->value[s];
        for (; k < n && e[k].time == now && e[k].series == s; k++)
            c->value[s] += e[k].delta;
        if (c->value[s] != before)
            chrome_counter(c, s, now, c->value[s]);
    }
}

static gboolean export_chrome(const Trace *t, FILE *out, GError **error)
{
    Chrome c = { .t = t, .out = out, .first = TRUE,
                 .nch = t->channels->len, .machine = trace_nodes(t) };
    NodeRuns processes = { NULL, 0 };
    if (!chrome_prepare(&c, error)
        || !nodes_named(t, NAMES_CHROME, c.receives, &processes, error)) {
        chrome_free(&c);
        return FALSE;
    }
    gboolean all_marks = FALSE;
    for (guint i = 0; i < t->marks->len; i++)
        all_marks |= g_array_index(t->marks, TraceMark, i).nodes == trace_nodes(t);
    chrome_metadata(t, out);
    chrome_names(&c, &processes, all_marks);
    g_free(processes.run);
    chrome_busy(&c);
    /* Before the flows: a flow's "f" at the ts its receive slice begins
     * binds to it only if Perfetto has begun the slice. */
    chrome_receives(&c);
    chrome_flows(&c);
    chrome_startups(&c);
    chrome_marks(&c);
    chrome_phases(&c);
    chrome_counters(&c);
    chrome_faults(&c);
    fputs("\n]}\n", out);
    chrome_free(&c);
    return TRUE;
}

/* ---- Paje --------------------------------------------------------------- */

/* Event numbers of the header below. */
enum {
    PAJE_DEFINE_CONTAINER_TYPE, PAJE_DEFINE_STATE_TYPE, PAJE_DEFINE_EVENT_TYPE,
    PAJE_DEFINE_LINK_TYPE, PAJE_DEFINE_ENTITY_VALUE, PAJE_CREATE_CONTAINER,
    PAJE_DESTROY_CONTAINER, PAJE_SET_STATE, PAJE_NEW_EVENT, PAJE_START_LINK,
    PAJE_END_LINK, PAJE_DEFINE_VARIABLE_TYPE, PAJE_SET_VARIABLE,
    PAJE_ADD_VARIABLE, PAJE_SUB_VARIABLE
};

static const char paje_header[] =
    "%EventDef PajeDefineContainerType 0\n"
    "% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
    "%EventDef PajeDefineStateType 1\n"
    "% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
    "%EventDef PajeDefineEventType 2\n"
    "% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
    "%EventDef PajeDefineLinkType 3\n"
    "% Alias string\n% Type string\n% StartContainerType string\n"
    "% EndContainerType string\n% Name string\n%EndEventDef\n"
    "%EventDef PajeDefineEntityValue 4\n"
    "% Alias string\n% Type string\n% Name string\n% Color color\n%EndEventDef\n"
    "%EventDef PajeCreateContainer 5\n"
    "% Time date\n% Alias string\n% Type string\n% Container string\n"
    "% Name string\n%EndEventDef\n"
    "%EventDef PajeDestroyContainer 6\n"
    "% Time date\n% Type string\n% Name string\n%EndEventDef\n"
    "%EventDef PajeSetState 7\n"
    "% Time date\n% Type string\n% Container string\n% Value string\n%EndEventDef\n"
    "%EventDef PajeNewEvent 8\n"
    "% Time date\n% Type string\n% Container string\n% Value string\n%EndEventDef\n"
    "%EventDef PajeStartLink 9\n"
    "% Time date\n% Type string\n% Container string\n% Value string\n"
    "% StartContainer string\n% Key string\n%EndEventDef\n"
    "%EventDef PajeEndLink 10\n"
    "% Time date\n% Type string\n% Container string\n% Value string\n"
    "% EndContainer string\n% Key string\n%EndEventDef\n"
    "%EventDef PajeDefineVariableType 11\n"
    "% Alias string\n% Type string\n% Name string\n% Color color\n%EndEventDef\n"
    "%EventDef PajeSetVariable 12\n"
    "% Time date\n% Type string\n% Container string\n% Value double\n%EndEventDef\n"
    "%EventDef PajeAddVariable 13\n"
    "% Time date\n% Type string\n% Container string\n% Value double\n%EndEventDef\n"
    "%EventDef PajeSubVariable 14\n"
    "% Time date\n% Type string\n% Container string\n% Value double\n%EndEventDef\n";

/* Paje wants events in time order; at one time, a channel goes idle
 * before the next record makes it busy, a startup ends before the next
 * begins, and a link starts before it ends. A fault's container has its
 * own state, so where its events fall among the others at one time does
 * not matter. */
typedef enum { PE_MARK, PE_IDLE, PE_BUSY, PE_STARTUP_END, PE_STARTUP,
               PE_LINK_START, PE_LINK_END, PE_FAULT_UP, PE_FAULT_DOWN } PajeKind;

typedef struct {
    Tick time;
    PajeKind kind;
    uint32_t a, b;                /* channel or message or mark or fault;
                                   * node */
} PajeEvent;

static int paje_compare(const void *pa, const void *pb)
{
    const PajeEvent *x = pa, *y = pb;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    return x->b < y->b ? -1 : x->b > y->b;
}

/* A name as a Paje string: in double quotes, so no double quote or line
 * break in it; and no comma, which pj_dump's CSV (", " between fields)
 * would take for a separator. Edits `name` in place. */
static char *paje_name(char *name)
{
    g_strdelimit(name, "\"", '\'');
    g_strdelimit(name, "\n\r", ' ');
    g_strdelimit(name, ",", ';');
    return name;
}

/* Does the export mark faults: the trace has some, or a message that
 * went around one? Only then are the fault types defined, so that a
 * fault-free trace's export is what it was before faults. */
static gboolean paje_faulty(const Trace *t)
{
    if (t->faults->len)
        return TRUE;
    for (guint m = 0; m < t->messages->len; m++)
        if (g_array_index(t->messages, TraceMessage, m).detoured)
            return TRUE;
    return FALSE;
}

/* The faults, as Chrome has them (a track per entry in the machine's
 * process): a container per fault entry in the machine, named as
 * Chrome's track ("down: node 5 +x", "dead: node 7"), whose state is
 * down (a channel) or dead (a node) over the ticks it lasts within the
 * run and up before and after; and a detoured message's link of a type
 * of its own. Down and dead in the viewer's fault red, up in the idle
 * channel's grey. */
static void paje_fault_types(FILE *out)
{
    fprintf(out, "%d CT_Fault CT_Machine \"Fault\"\n", PAJE_DEFINE_CONTAINER_TYPE);
    fprintf(out, "%d ST_Fault CT_Fault \"Fault state\"\n", PAJE_DEFINE_STATE_TYPE);
    fprintf(out, "%d LT_Detour CT_Machine CT_Node CT_Node \"Detoured message\"\n",
            PAJE_DEFINE_LINK_TYPE);
    fprintf(out, "%d V_down ST_Fault \"down\" \"1.0 0.18 0.18\"\n",
            PAJE_DEFINE_ENTITY_VALUE);
    fprintf(out, "%d V_dead ST_Fault \"dead\" \"1.0 0.18 0.18\"\n",
            PAJE_DEFINE_ENTITY_VALUE);
    fprintf(out, "%d V_up ST_Fault \"up\" \"0.8 0.8 0.8\"\n", PAJE_DEFINE_ENTITY_VALUE);
}

static void paje_fault_containers(const Trace *t, FILE *out)
{
    for (guint i = 0; i < t->faults->len; i++) {
        const FaultEntry *e = &g_array_index(t->faults, FaultEntry, i);
        g_autofree char *name = export_fault_name(t, i);
        fprintf(out, "%d 0 C_F%u CT_Fault C_M \"%s\"\n", PAJE_CREATE_CONTAINER,
                i, paje_name(name));
        if (e->from > 0)
            fprintf(out, "%d 0 ST_Fault C_F%u V_up\n", PAJE_SET_STATE, i);
    }
}

/* `nodes`: the nodes the records name (nodes_named), the only ones with
 * a container. */
static void paje_containers(const Trace *t, FILE *out, const NodeRuns *nodes)
{
    fputs(paje_header, out);
    fprintf(out, "%d CT_Machine 0 \"Machine\"\n", PAJE_DEFINE_CONTAINER_TYPE);
    fprintf(out, "%d CT_Node CT_Machine \"Node\"\n", PAJE_DEFINE_CONTAINER_TYPE);
    fprintf(out, "%d CT_Channel CT_Node \"Channel\"\n", PAJE_DEFINE_CONTAINER_TYPE);
    fprintf(out, "%d ST_Channel CT_Channel \"Channel state\"\n", PAJE_DEFINE_STATE_TYPE);
    fprintf(out, "%d ET_Mark CT_Node \"Mark\"\n", PAJE_DEFINE_EVENT_TYPE);
    fprintf(out, "%d LT_Message CT_Machine CT_Node CT_Node \"Message\"\n",
            PAJE_DEFINE_LINK_TYPE);
    fprintf(out, "%d V_busy ST_Channel \"busy\" \"1.0 0.55 0.1\"\n", PAJE_DEFINE_ENTITY_VALUE);
    fprintf(out, "%d V_idle ST_Channel \"idle\" \"0.8 0.8 0.8\"\n", PAJE_DEFINE_ENTITY_VALUE);
    fprintf(out, "%d VT_Startups CT_Node \"Startups holding a port\" \"0.35 0.7 1.0\"\n",
            PAJE_DEFINE_VARIABLE_TYPE);
    gboolean faulty = paje_faulty(t);
    if (faulty)
        paje_fault_types(out);
    g_autofree char *title = trace_title(t);
    fprintf(out, "%d 0 C_M CT_Machine 0 \"%s\"\n", PAJE_CREATE_CONTAINER,
            paje_name(title));
    FOR_NODES(nodes, v)
        fprintf(out, "%d 0 C_N%u CT_Node C_M \"node %u\"\n",
                PAJE_CREATE_CONTAINER, v, v);
    char name[TRACE_CHANNEL_NAME_MAX];
    for (guint c = 0; c < t->channels->len; c++) {
        const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, c);
        trace_channel_name(t, ch->source, ch->link, name, sizeof name);
        fprintf(out, "%d 0 C_C%u CT_Channel C_N%u \"%s\"\n",
                PAJE_CREATE_CONTAINER, c, ch->source, paje_name(name));
        fprintf(out, "%d 0 ST_Channel C_C%u V_idle\n", PAJE_SET_STATE, c);
    }
    if (t->startups->len)
        FOR_NODES(nodes, v)
            fprintf(out, "%d 0 VT_Startups C_N%u 0\n", PAJE_SET_VARIABLE, v);
    if (faulty)
        paje_fault_containers(t, out);
}

/* Every Paje event in time order, or NULL with *error if the table
 * cannot be allocated. */
static GArray *paje_events(const Trace *t, GError **error)
{
    guint nm = t->messages->len;
    uint64_t events = 2 * (uint64_t)t->busy->len + 2 * (uint64_t)t->startups->len
                      + 2 * (uint64_t)nm + 2 * (uint64_t)t->faults->len;
    for (guint i = 0; i < t->marks->len; i++)
        events += g_array_index(t->marks, TraceMark, i).nodes;
    /* Reserved whole, tried first at the size GLib will ask (a power of
     * two): the appends below then never grow it. */
    uint64_t bytes = 16;
    while (bytes < MAX(events, 1) * sizeof(PajeEvent) && bytes < G_MAXSIZE / 2)
        bytes <<= 1;
    void *room = events <= G_MAXUINT / 2 ? g_try_malloc((gsize)bytes) : NULL;
    Tick *link_start = try_table(nm, sizeof(Tick));
    Tick *link_end = try_table(nm, sizeof(Tick));
    if (!room || !link_start || !link_end) {
        g_free(room);
        g_free(link_start);
        g_free(link_end);
        no_room(error, bytes + 2 * ((uint64_t)nm + 1) * sizeof(Tick),
                "the Paje export's events");
        return NULL;
    }
    g_free(room);
    GArray *ev = g_array_sized_new(FALSE, FALSE, sizeof(PajeEvent),
                                   (guint)events);
    for (guint m = 0; m < nm; m++) {
        link_start[m] = G_MAXINT64;
        link_end[m] = -1;
    }
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        Tick end = trace_busy_end(t, b);
        PajeEvent busy = { b->start, PE_BUSY, b->channel, 0 };
        PajeEvent idle = { end, PE_IDLE, b->channel, 0 };
        g_array_append_val(ev, busy);
        g_array_append_val(ev, idle);
        link_start[b->message] = MIN(link_start[b->message], b->start);
        link_end[b->message] = MAX(link_end[b->message], end);
    }
    for (guint i = 0; i < t->startups->len; i++) {
        const TraceStartup *s = &g_array_index(t->startups, TraceStartup, i);
        uint32_t node = g_array_index(t->messages, TraceMessage, s->message).source;
        PajeEvent begin = { s->start, PE_STARTUP, s->message, node };
        PajeEvent end = { s->start + s->duration, PE_STARTUP_END, s->message, node };
        g_array_append_val(ev, begin);
        g_array_append_val(ev, end);
    }
    for (guint m = 0; m < nm; m++) {
        if (link_end[m] < 0)
            continue;
        PajeEvent s = { link_start[m], PE_LINK_START, m, 0 };
        PajeEvent e = { link_end[m], PE_LINK_END, m, 0 };
        g_array_append_val(ev, s);
        g_array_append_val(ev, e);
    }
    for (guint i = 0; i < t->marks->len; i++) {
        const TraceMark *mk = &g_array_index(t->marks, TraceMark, i);
        for (uint32_t v = mk->node; v - mk->node < mk->nodes; v++) {
            PajeEvent e = { mk->time, PE_MARK, i, v };
            g_array_append_val(ev, e);
        }
    }
    /* A fault goes down where it begins and up where it ends, within the
     * run (the containers end with it). */
    for (guint i = 0; i < t->faults->len; i++) {
        const FaultEntry *f = &g_array_index(t->faults, FaultEntry, i);
        if (f->from >= t->cycles)
            continue;
        PajeEvent down = { f->from, PE_FAULT_DOWN, i, 0 };
        g_array_append_val(ev, down);
        if (f->until < t->cycles) {
            PajeEvent up = { f->until, PE_FAULT_UP, i, 0 };
            g_array_append_val(ev, up);
        }
    }
    if (ev->len > 1)
        qsort(ev->data, ev->len, sizeof(PajeEvent), paje_compare);
    g_free(link_start);
    g_free(link_end);
    return ev;
}

static gboolean export_paje(const Trace *t, FILE *out, GError **error)
{
    TimeUnit u = time_unit(t, EXPORT_PAJE_UNITS_PER_SECOND);
    char time[G_ASCII_DTOSTR_BUF_SIZE];
    NodeRuns nodes;
    if (!nodes_named(t, NAMES_PAJE, NULL, &nodes, error))
        return FALSE;
    GArray *ev = paje_events(t, error);
    if (!ev) {
        g_free(nodes.run);
        return FALSE;
    }
    paje_containers(t, out, &nodes);
    for (guint i = 0; i < ev->len; i++) {
        const PajeEvent *e = &g_array_index(ev, PajeEvent, i);
        time_text(&u, e->time, time);
        switch (e->kind) {
        case PE_BUSY:
        case PE_IDLE:
            fprintf(out, "%d %s ST_Channel C_C%u %s\n", PAJE_SET_STATE, time,
                    e->a, e->kind == PE_BUSY ? "V_busy" : "V_idle");
            break;
        case PE_STARTUP:
        case PE_STARTUP_END:
            fprintf(out, "%d %s VT_Startups C_N%u 1\n",
                    e->kind == PE_STARTUP ? PAJE_ADD_VARIABLE : PAJE_SUB_VARIABLE,
                    time, e->b);
            break;
        case PE_LINK_START:
        case PE_LINK_END: {
            const TraceMessage *m = &g_array_index(t->messages, TraceMessage, e->a);
            fprintf(out, "%d %s %s C_M \"message %u\" C_N%u m%u\n",
                    e->kind == PE_LINK_START ? PAJE_START_LINK : PAJE_END_LINK,
                    time, m->detoured ? "LT_Detour" : "LT_Message", e->a,
                    e->kind == PE_LINK_START ? m->source : m->dest, e->a);
            break;
        }
        case PE_FAULT_UP:
        case PE_FAULT_DOWN: {
            const FaultEntry *f = &g_array_index(t->faults, FaultEntry, e->a);
            fprintf(out, "%d %s ST_Fault C_F%u %s\n", PAJE_SET_STATE, time,
                    e->a, e->kind == PE_FAULT_UP ? "V_up"
                          : f->link < 0 ? "V_dead" : "V_down");
            break;
        }
        case PE_MARK: {
            const TraceMark *mk = &g_array_index(t->marks, TraceMark, e->a);
            g_autofree char *label = g_strdup(t->labels->pdata[mk->label]);
            fprintf(out, "%d %s ET_Mark C_N%u \"%s\"\n", PAJE_NEW_EVENT, time,
                    e->b, paje_name(label));
            break;
        }
        }
    }
    time_text(&u, t->cycles, time);
    for (guint c = 0; c < t->channels->len; c++)
        fprintf(out, "%d %s CT_Channel C_C%u\n", PAJE_DESTROY_CONTAINER, time, c);
    FOR_NODES(&nodes, v)
        fprintf(out, "%d %s CT_Node C_N%u\n", PAJE_DESTROY_CONTAINER, time, v);
    for (guint i = 0; i < t->faults->len; i++)
        fprintf(out, "%d %s CT_Fault C_F%u\n", PAJE_DESTROY_CONTAINER, time, i);
    fprintf(out, "%d %s CT_Machine C_M\n", PAJE_DESTROY_CONTAINER, time);
    g_array_unref(ev);
    g_free(nodes.run);
    return TRUE;
}

/* ---- CSV ---------------------------------------------------------------- */

/* ceil(cycles / window), for any window >= 1 (--window may be as large
 * as a Tick holds, so cycles + window - 1 could overflow). */
static Tick csv_rows(const Trace *t, Tick window)
{
    return t->cycles / window + (t->cycles % window != 0);
}

/* The CSV's links, in order: every link of the machine, or where links
 * are as many as nodes (the complete graph's, sparse_links), those that
 * carried something (used_links). */
static GArray *csv_links(const Trace *t)
{
    if (t->topology.ops->sparse_links)
        return used_links(t);
    GArray *links = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    for (int l = 0; l < t->topology.links; l++) {
        uint32_t link = (uint32_t)l;
        g_array_append_val(links, link);
    }
    return links;
}

/* How many columns csv_links gives, without building them where that is
 * every link. */
static Tick csv_link_count(const Trace *t)
{
    if (!t->topology.ops->sparse_links)
        return t->topology.links;
    g_autoptr(GArray) links = csv_links(t);
    return links->len;
}

/* Rows a CSV may have before its rows x links counters pass
 * TRACE_CSV_CELL_LIMIT (at least one, however many links). */
static Tick csv_max_rows(const Trace *t)
{
    Tick links = MAX(csv_link_count(t), 1);
    return MIN(MAX(TRACE_CSV_CELL_LIMIT / links, 1), TRACE_CSV_ROW_LIMIT);
}

Tick trace_export_default_window(const Trace *t)
{
    Tick rows = MIN(csv_max_rows(t), TRACE_CSV_MAX_ROWS);
    return MAX(trace_min_element_time(t), (t->cycles + rows - 1) / rows);
}

/* Elements of b that start crossing within [w0, w1): element i starts at
 * start + i * tau. */
static uint64_t elements_starting(const TraceBusy *b, Tick tau,
                                  Tick w0, Tick w1)
{
    Tick lo = w0 <= b->start ? 0 : (w0 - b->start + tau - 1) / tau;
    Tick hi = w1 <= b->start ? 0 : (w1 - b->start + tau - 1) / tau;
    lo = MIN(lo, (Tick)b->count);
    hi = MIN(hi, (Tick)b->count);
    return hi > lo ? (uint64_t)(hi - lo) : 0;
}

static void csv_header(const Trace *t, const GArray *links, FILE *out)
{
    char link[TOPOLOGY_LINK_NAME_MAX];
    fputs("window_start,window_end", out);
    if (t->tick_seconds > 0)
        fputs(",window_start_seconds,window_end_seconds", out);
    for (int pass = 0; pass < 2; pass++)
        for (guint k = 0; k < links->len; k++) {
            trace_link_name(t, g_array_index(links, uint32_t, k), link,
                            sizeof link);
            fprintf(out, ",%s %s", link, pass ? "utilisation" : "elements");
        }
    fputs(",elements,utilisation\n", out);
}

static gboolean export_csv(const Trace *t, Tick window, FILE *out,
                           GError **error)
{
    GArray *links = csv_links(t);
    Tick rows = csv_rows(t, window);
    /* One pass over the records, spreading each over the windows it
     * touches: rows x columns counters (at most TRACE_CSV_CELL_LIMIT, or
     * a row's worth). */
    gsize nl = links->len;
    gsize cells = rows > 0 ? (gsize)rows * nl : 0;
    uint64_t *elements = try_table(cells, sizeof(uint64_t));
    Tick *busy = try_table(cells, sizeof(Tick));
    if (!elements || !busy) {
        g_free(elements);
        g_free(busy);
        g_array_unref(links);
        return no_room(error, 2 * (uint64_t)MAX(cells, 1) * sizeof(uint64_t),
                       "the CSV's counters");
    }
    csv_header(t, links, out);
    if (rows <= 0) {
        g_free(elements);
        g_free(busy);
        g_array_unref(links);
        return TRUE;
    }
    /* Every channel of the machine, for the utilisation of all (counted
     * by the topology, in time independent of its links). */
    uint64_t channels = topology_links_channels(&t->topology, 0,
                                                t->topology.links);
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        gsize l = link_column(links,
                             g_array_index(t->channels, TraceChannel,
                                           b->channel).link);
        Tick tau = g_array_index(t->messages, TraceMessage, b->message).element_time;
        Tick end = trace_busy_end(t, b);
        for (Tick r = b->start / window; r < rows && r * window < end; r++) {
            Tick w0 = r * window, w1 = MIN(w0 + window, t->cycles);
            elements[(gsize)r * nl + l] += elements_starting(b, tau, w0, w1);
            busy[(gsize)r * nl + l] += MIN(end, w1) - MAX(b->start, w0);
        }
    }
    char s0[G_ASCII_DTOSTR_BUF_SIZE], s1[G_ASCII_DTOSTR_BUF_SIZE];
    for (Tick r = 0; r < rows; r++) {
        Tick w0 = r * window, w1 = MIN(w0 + window, t->cycles);
        double span = (double)(w1 - w0);
        fprintf(out, "%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT, (gint64)w0,
                (gint64)w1);
        if (t->tick_seconds > 0)
            fprintf(out, ",%s,%s",
                    g_ascii_formatd(s0, sizeof s0, EXPORT_TIME_FORMAT,
                                    trace_seconds(t, w0)),
                    g_ascii_formatd(s1, sizeof s1, EXPORT_TIME_FORMAT,
                                    trace_seconds(t, w1)));
        uint64_t all_elements = 0;
        Tick all_busy = 0;
        for (gsize l = 0; l < nl; l++) {
            all_elements += elements[(gsize)r * nl + l];
            fprintf(out, ",%" G_GUINT64_FORMAT, (guint64)elements[(gsize)r * nl + l]);
        }
        for (gsize l = 0; l < nl; l++) {
            uint32_t size = topology_link_channels(
                &t->topology, (int)g_array_index(links, uint32_t, l));
            all_busy += busy[(gsize)r * nl + l];
            fprintf(out, ",%.6g", size ? (double)busy[(gsize)r * nl + l]
                                         / (span * size) : 0.0);
        }
        fprintf(out, ",%" G_GUINT64_FORMAT ",%.6g\n", (guint64)all_elements,
                channels ? (double)all_busy / (span * (double)channels) : 0.0);
    }
    g_free(elements);
    g_free(busy);
    g_array_unref(links);
    return TRUE;
}

/* The CSV's window: at most TRACE_CSV_ROW_LIMIT rows, and rows x links
 * at most TRACE_CSV_CELL_LIMIT. */
static gboolean csv_check_window(const Trace *t, Tick window, GError **error)
{
    Tick rows = csv_rows(t, window);
    if (rows > TRACE_CSV_ROW_LIMIT) {
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_INPUT,
                    "--window %" G_GINT64_FORMAT ": %" G_GINT64_FORMAT
                    " cycles would be more than %d rows; use a wider "
                    "window", (gint64)window, (gint64)t->cycles,
                    TRACE_CSV_ROW_LIMIT);
        return FALSE;
    }
    if (rows > csv_max_rows(t)) {
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_INPUT,
                    "--window %" G_GINT64_FORMAT ": %" G_GINT64_FORMAT
                    " rows of %" G_GINT64_FORMAT " links would be more "
                    "than %d cells; use a wider window", (gint64)window,
                    (gint64)rows, (gint64)csv_link_count(t),
                    TRACE_CSV_CELL_LIMIT);
        return FALSE;
    }
    return TRUE;
}

static gboolean write_chrome(const Trace *t, Tick window, FILE *out,
                             GError **error)
{
    (void)window;
    return export_chrome(t, out, error);
}

static gboolean write_paje(const Trace *t, Tick window, FILE *out,
                           GError **error)
{
    (void)window;
    return export_paje(t, out, error);
}

static gboolean write_csv(const Trace *t, Tick window, FILE *out,
                          GError **error)
{
    return export_csv(t, window > 0 ? window : trace_export_default_window(t),
                      out, error);
}

/* The formats, in the order the command line lists them. Perfetto reads
 * Chrome's JSON. */
const TraceExportFormatSpec trace_export_formats[] = {
    [TRACE_EXPORT_CHROME] = {
        .name = "chrome",
        .aliases = (const char *const[]){ "perfetto", NULL },
        .extensions = (const char *const[]){ ".json", NULL },
        .description = "the same JSON",
        .marks = TRACE_EXPORT_MARKS_PARTIAL,
        .write = write_chrome,
    },
    [TRACE_EXPORT_PAJE] = {
        .name = "paje",
        .extensions = (const char *const[]){ ".paje", NULL },
        .description = "ViTE",
        .marks = TRACE_EXPORT_MARKS_PER_NODE,
        .write = write_paje,
    },
    [TRACE_EXPORT_CSV] = {
        .name = "csv",
        .extensions = (const char *const[]){ ".csv", NULL },
        .windowed = TRUE,
        .marks = TRACE_EXPORT_MARKS_NONE,
        .check_window = csv_check_window,
        .write = write_csv,
    },
    [TRACE_EXPORT_COUNT] = { .name = NULL },
};

gboolean trace_export(const Trace *t, TraceExportFormat format,
                      Tick window, FILE *out, const char *name,
                      GError **error)
{
    const TraceExportFormatSpec *x = &trace_export_formats[format];
    errno = 0;
    if (window > 0 && x->check_window && !x->check_window(t, window, error))
        return FALSE;
    if (!export_bounded(t, x->marks, name, error))
        return FALSE;
    gboolean ok = x->write(t, window, out, error);
    if (!ok)
        return FALSE;
    if (fflush(out) != 0 || ferror(out)) {
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO,
                    "%s: cannot write: %s", name,
                    g_strerror(errno ? errno : EIO));
        return FALSE;
    }
    return TRUE;
}
