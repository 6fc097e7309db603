/* index.c -- time-window queries over a Trace, for the viewer and tests.
 *
 * Invariant: the records of channel c are busy[first[c] .. first[c+1]),
 * sorted by start and disjoint (trace.h), and prefix[i] is the busy time
 * of records first[c] .. i-1 of that channel. So the busy time before any
 * tick is one binary search plus one partial record, and a window is the
 * difference of two such values. The channels leaving v are a run of the
 * table (sorted by source, then link), found by a binary search on the
 * source; in[] holds the channel indices sorted by destination, then
 * table order, so the channels entering v are a run of it, found the same
 * way. phase_*[k] is the majority phase from phase_time[k] until the next
 * distinct mark time.
 *
 * Size: everything here is in proportion to the trace's records, never
 * to the machine's nodes (a header may name 2^26 nodes over a handful of
 * records): no table is per node.
 */
#include "trace.h"

#include <string.h>

/* Finding the majority phase scans every label at every distinct mark
 * time; beyond this many steps the index falls back to the phase that
 * began at that time (trace_index_phase_begun). */
#define TRACE_PHASE_BUDGET 50000000.0

struct TraceIndex {
    const Trace *trace;
    guint *first;                 /* channels + 1 */
    Tick *prefix;             /* per busy record */
    uint64_t *elements;           /* per channel */
    uint64_t *messages;           /* per channel */
    uint32_t *out;                /* 0, 1, ...: the table's own order */
    uint32_t *in;                 /* channel indices by destination */
    guint phases;
    Tick *phase_time;         /* distinct mark times, increasing */
    uint32_t *phase_label, *phase_nodes;
};

static Tick busy_duration(const TraceIndex *x, const TraceBusy *b)
{
    return trace_busy_end(x->trace, b) - b->start;
}

static int u64_compare(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void index_adjacency(TraceIndex *x)
{
    const Trace *t = x->trace;
    guint nch = t->channels->len;
    x->out = g_new(uint32_t, nch ? nch : 1);
    x->in = g_new(uint32_t, nch ? nch : 1);
    /* (destination, index) in one word, sorted. */
    uint64_t *by_dest = g_new(uint64_t, nch ? nch : 1);
    for (guint c = 0; c < nch; c++) {
        x->out[c] = c;
        by_dest[c] = (uint64_t)g_array_index(t->channels, TraceChannel,
                                             c).dest << 32 | c;
    }
    if (nch > 1)
        qsort(by_dest, nch, sizeof(uint64_t), u64_compare);
    for (guint c = 0; c < nch; c++)
        x->in[c] = (uint32_t)by_dest[c];
    g_free(by_dest);
}

/* The run of list[0, n) whose channels' source (outgoing) or destination
 * is `node`: [*lo, *hi). */
static void adjacency_run(const TraceIndex *x, const uint32_t *list,
                          gboolean outgoing, uint32_t node, guint *lo,
                          guint *hi)
{
    const GArray *chs = x->trace->channels;
    guint n = chs->len;
    for (int pass = 0; pass < 2; pass++) {
        /* pass 0: the first entry at `node` or beyond; 1: beyond it */
        guint a = 0, b = n;
        while (a < b) {
            guint mid = a + (b - a) / 2;
            const TraceChannel *ch = &g_array_index(chs, TraceChannel,
                                                    list[mid]);
            uint32_t v = outgoing ? ch->source : ch->dest;
            if (v < node || (pass && v == node))
                a = mid + 1;
            else
                b = mid;
        }
        *(pass ? hi : lo) = a;
    }
}

static guint marks_until(const Trace *t, Tick time);

/* Nodes [start, end) whose current label is `label`: the phases' replay
 * keeps the nodes in such runs, disjoint, in a tree by start, so that a
 * mark of a range of nodes costs the runs it overwrites, not its nodes. */
typedef struct {
    uint32_t start, end, label;
} LabelRun;

static gint label_run_compare(gconstpointer a, gconstpointer b,
                              gpointer data)
{
    (void)data;
    uint32_t x = ((const LabelRun *)a)->start, y = ((const LabelRun *)b)->start;
    return x < y ? -1 : x > y;
}

static void label_run_insert(GTree *runs, uint32_t start, uint32_t end,
                             uint32_t label)
{
    LabelRun *r = g_new(LabelRun, 1);
    *r = (LabelRun){ start, end, label };
    g_tree_insert(runs, r, r);
}

/* Split the run holding node `at` (if one does, and `at` is not its
 * start) in two at `at`. */
static void label_runs_split(GTree *runs, uint32_t at)
{
    LabelRun key = { at, at, 0 };
    GTreeNode *n = g_tree_upper_bound(runs, &key);     /* start > at */
    n = n ? g_tree_node_previous(n) : g_tree_node_last(runs);
    if (!n)
        return;
    LabelRun *r = g_tree_node_key(n);
    if (r->start < at && at < r->end) {
        uint32_t end = r->end;
        r->end = at;
        label_run_insert(runs, at, end, r->label);
    }
}

/* Nodes [start, end) now have `label`; count[] follows. */
static void label_runs_assign(GTree *runs, uint32_t *count, uint32_t start,
                              uint32_t end, uint32_t label)
{
    label_runs_split(runs, start);
    label_runs_split(runs, end);
    LabelRun key = { start, start, 0 };
    for (;;) {
        GTreeNode *n = g_tree_lower_bound(runs, &key);  /* start >= start */
        if (!n)
            break;
        LabelRun *r = g_tree_node_key(n);
        if (r->start >= end)
            break;
        count[r->label] -= r->end - r->start;
        g_tree_remove(runs, r);
    }
    label_run_insert(runs, start, end, label);
    count[label] += end - start;
}

/* A replay of the marks in time order, keeping every node's current label
 * (in runs of nodes) and how many nodes each label has. */
struct TracePhaseCount {
    const Trace *trace;
    GTree *runs;                  /* LabelRun, by start */
    uint32_t *count;              /* per label */
    guint next;                   /* the first mark not replayed */
};

TracePhaseCount *trace_phase_count_new(const Trace *t)
{
    TracePhaseCount *p = g_new0(TracePhaseCount, 1);
    p->trace = t;
    p->runs = g_tree_new_full(label_run_compare, NULL, g_free, NULL);
    p->count = g_new0(uint32_t, t->labels->len + 1);
    return p;
}

void trace_phase_count_free(TracePhaseCount *p)
{
    if (!p)
        return;
    g_tree_destroy(p->runs);
    g_free(p->count);
    g_free(p);
}

const uint32_t *trace_phase_count_at(TracePhaseCount *p, Tick t)
{
    const Trace *tr = p->trace;
    if (p->next > 0
        && g_array_index(tr->marks, TraceMark, p->next - 1).time > t) {
        /* Backwards: from the first mark again. */
        g_tree_destroy(p->runs);
        p->runs = g_tree_new_full(label_run_compare, NULL, g_free, NULL);
        memset(p->count, 0, sizeof(uint32_t) * (tr->labels->len + 1));
        p->next = 0;
    }
    for (; p->next < tr->marks->len
           && g_array_index(tr->marks, TraceMark, p->next).time <= t; p->next++) {
        const TraceMark *m = &g_array_index(tr->marks, TraceMark, p->next);
        label_runs_assign(p->runs, p->count, m->node, m->node + m->nodes,
                          m->label);
    }
    return p->count;
}

uint32_t trace_phase_count_node(const TracePhaseCount *p, uint32_t node)
{
    LabelRun key = { node, node, 0 };
    GTreeNode *n = g_tree_upper_bound(p->runs, &key);   /* start > node */
    n = n ? g_tree_node_previous(n) : g_tree_node_last(p->runs);
    if (!n)
        return UINT32_MAX;
    const LabelRun *r = g_tree_node_key(n);
    return node >= r->start && node < r->end ? r->label : UINT32_MAX;
}

/* After each distinct mark time, the label with the most nodes is the
 * phase. */
static void index_phases(TraceIndex *x)
{
    const Trace *t = x->trace;
    guint nm = t->marks->len, nl = t->labels->len;
    x->phase_time = g_new(Tick, nm + 1);
    x->phase_label = g_new(uint32_t, nm + 1);
    x->phase_nodes = g_new(uint32_t, nm + 1);
    guint distinct = 0;
    for (guint i = 0; i < nm; i++)
        distinct += !i || g_array_index(t->marks, TraceMark, i - 1).time
                              != g_array_index(t->marks, TraceMark, i).time;
    gboolean scan = (double)distinct * nl <= TRACE_PHASE_BUDGET;
    g_autoptr(TracePhaseCount) replay = trace_phase_count_new(t);
    guint i = 0;
    while (i < nm) {
        Tick time = g_array_index(t->marks, TraceMark, i).time;
        while (i < nm && g_array_index(t->marks, TraceMark, i).time == time)
            i++;
        const uint32_t *count = trace_phase_count_at(replay, time);
        uint32_t best = 0, best_label = 0;
        if (scan) {
            for (uint32_t l = 0; l < nl; l++)
                if (count[l] > best) {
                    best = count[l];
                    best_label = l;
                }
        } else {
            const char *label = trace_index_phase_begun(x, time, &best);
            for (uint32_t l = 0; l < nl; l++)
                if (t->labels->pdata[l] == label)
                    best_label = l;
        }
        x->phase_time[x->phases] = time;
        x->phase_label[x->phases] = best_label;
        x->phase_nodes[x->phases] = best;
        x->phases++;
    }
}

TraceIndex *trace_index_new(const Trace *t)
{
    TraceIndex *x = g_new0(TraceIndex, 1);
    x->trace = t;
    guint nch = t->channels->len, nb = t->busy->len;
    x->first = g_new0(guint, (gsize)nch + 1);
    x->prefix = g_new(Tick, nb ? nb : 1);
    x->elements = g_new0(uint64_t, nch ? nch : 1);
    x->messages = g_new0(uint64_t, nch ? nch : 1);
    for (guint i = 0; i < nb; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        x->first[b->channel + 1]++;
    }
    for (guint c = 0; c < nch; c++)
        x->first[c + 1] += x->first[c];
    for (guint c = 0; c < nch; c++) {
        Tick sum = 0;
        for (guint i = x->first[c]; i < x->first[c + 1]; i++) {
            const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
            x->prefix[i] = sum;
            sum += busy_duration(x, b);
            x->elements[c] += b->count;
            if (i == x->first[c]
                || g_array_index(t->busy, TraceBusy, i - 1).message != b->message)
                x->messages[c]++;
        }
    }
    index_adjacency(x);
    index_phases(x);
    return x;
}

void trace_index_free(TraceIndex *x)
{
    if (!x)
        return;
    g_free(x->first);
    g_free(x->prefix);
    g_free(x->elements);
    g_free(x->messages);
    g_free(x->out);
    g_free(x->in);
    g_free(x->phase_time);
    g_free(x->phase_label);
    g_free(x->phase_nodes);
    g_free(x);
}

/* Number of records of channel c that start before t. */
static guint records_before(const TraceIndex *x, uint32_t c, Tick t)
{
    guint lo = x->first[c], hi = x->first[c + 1];
    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        if (g_array_index(x->trace->busy, TraceBusy, mid).start < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - x->first[c];
}

/* Busy cycles of channel c before cycle t. */
static Tick busy_before(const TraceIndex *x, uint32_t c, Tick t)
{
    guint k = records_before(x, c, t);
    if (!k)
        return 0;
    guint i = x->first[c] + k - 1;
    const TraceBusy *b = &g_array_index(x->trace->busy, TraceBusy, i);
    return x->prefix[i] + MIN(t - b->start, busy_duration(x, b));
}

Tick trace_index_busy(const TraceIndex *x, uint32_t channel,
                          Tick from, Tick to)
{
    if (channel >= x->trace->channels->len || to <= from)
        return 0;
    return busy_before(x, channel, to) - busy_before(x, channel, from);
}

const TraceBusy *trace_index_at(const TraceIndex *x, uint32_t channel,
                                Tick t)
{
    if (channel >= x->trace->channels->len)
        return NULL;
    guint k = records_before(x, channel, t + 1);
    if (!k)
        return NULL;
    const TraceBusy *b = &g_array_index(x->trace->busy, TraceBusy,
                                        x->first[channel] + k - 1);
    return t < b->start + busy_duration(x, b) ? b : NULL;
}

uint64_t trace_index_elements(const TraceIndex *x, uint32_t channel)
{
    return channel < x->trace->channels->len ? x->elements[channel] : 0;
}

uint64_t trace_index_messages(const TraceIndex *x, uint32_t channel)
{
    return channel < x->trace->channels->len ? x->messages[channel] : 0;
}

const uint32_t *trace_index_out(const TraceIndex *x, uint32_t node,
                                guint *count)
{
    guint lo, hi;
    adjacency_run(x, x->out, TRUE, node, &lo, &hi);
    *count = hi - lo;
    return *count ? x->out + lo : NULL;
}

const uint32_t *trace_index_in(const TraceIndex *x, uint32_t node,
                               guint *count)
{
    guint lo, hi;
    adjacency_run(x, x->in, FALSE, node, &lo, &hi);
    *count = hi - lo;
    return *count ? x->in + lo : NULL;
}

int64_t trace_index_find(const TraceIndex *x, uint32_t node, uint32_t link)
{
    guint n;
    const uint32_t *out = trace_index_out(x, node, &n);
    guint lo = 0, hi = n;
    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        if (g_array_index(x->trace->channels, TraceChannel, out[mid]).link < link)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < n && g_array_index(x->trace->channels, TraceChannel, out[lo]).link == link)
        return out[lo];
    return -1;
}

/* Number of marks at or before t. */
static guint marks_until(const Trace *t, Tick time)
{
    guint lo = 0, hi = t->marks->len;
    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        if (g_array_index(t->marks, TraceMark, mid).time <= time)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const char *trace_index_phase(const TraceIndex *x, Tick t,
                              uint32_t *nodes)
{
    guint lo = 0, hi = x->phases;
    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        if (x->phase_time[mid] <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (nodes)
        *nodes = lo ? x->phase_nodes[lo - 1] : 0;
    return lo ? x->trace->labels->pdata[x->phase_label[lo - 1]] : NULL;
}

const char *trace_index_phase_begun(const TraceIndex *x, Tick t,
                                    uint32_t *nodes)
{
    const Trace *tr = x->trace;
    guint end = marks_until(tr, t);
    if (nodes)
        *nodes = 0;
    if (!end || g_array_index(tr->marks, TraceMark, end - 1).time != t)
        return NULL;
    Tick when = t;
    guint begin = end - 1;
    while (begin > 0 && g_array_index(tr->marks, TraceMark, begin - 1).time == when)
        begin--;
    /* Within one time the marks are sorted by label: add up each run. */
    uint32_t best_label = 0, best = 0, run = 0;
    for (guint i = begin; i < end; i++) {
        const TraceMark *m = &g_array_index(tr->marks, TraceMark, i);
        if (i > begin && m->label != g_array_index(tr->marks, TraceMark, i - 1).label)
            run = 0;
        run += m->nodes;
        if (run > best) {
            best = run;
            best_label = m->label;
        }
    }
    if (nodes)
        *nodes = best;
    return tr->labels->pdata[best_label];
}

const char *trace_index_node_phase(const TraceIndex *x, uint32_t node,
                                   Tick t)
{
    const Trace *tr = x->trace;
    for (guint i = marks_until(tr, t); i > 0; i--) {
        const TraceMark *m = &g_array_index(tr->marks, TraceMark, i - 1);
        if (node >= m->node && node - m->node < m->nodes)
            return tr->labels->pdata[m->label];
    }
    return NULL;
}
