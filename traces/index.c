/* index.c -- time-window queries over a Trace, for the viewer and tests.
 *
 * Invariant: the records of channel c are busy[first[c] .. first[c+1]),
 * sorted by start and disjoint (trace.h), and prefix[i] is the busy time
 * of records first[c] .. i-1 of that channel. So the busy time before any
 * tick is one binary search plus one partial record, and a window is the
 * difference of two such values. out[out_first[v] .. out_first[v+1]) are
 * the channels leaving v in link order (the table's order), so finding
 * (node, link) is a binary search among them. phase_*[k] is the majority
 * phase from phase_time[k] until the next distinct mark time.
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
    guint *out_first, *in_first;  /* nodes + 1 */
    uint32_t *out, *in;           /* channel indices */
    guint phases;
    Tick *phase_time;         /* distinct mark times, increasing */
    uint32_t *phase_label, *phase_nodes;
};

static Tick busy_duration(const TraceIndex *x, const TraceBusy *b)
{
    return trace_busy_end(x->trace, b) - b->start;
}

/* Adjacency in compressed rows: the channels of node v are
 * list[row[v] .. row[v+1]), in table order. */
static void index_adjacency(const Trace *t, gboolean outgoing, guint **row,
                            uint32_t **list)
{
    guint nch = t->channels->len;
    uint32_t nodes = trace_nodes(t);
    *row = g_new0(guint, (gsize)nodes + 1);
    *list = g_new(uint32_t, nch ? nch : 1);
    for (guint c = 0; c < nch; c++) {
        const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, c);
        (*row)[(outgoing ? ch->source : ch->dest) + 1]++;
    }
    for (uint32_t v = 0; v < nodes; v++)
        (*row)[v + 1] += (*row)[v];
    guint *fill = g_memdup2(*row, sizeof(guint) * ((gsize)nodes + 1));
    for (guint c = 0; c < nch; c++) {
        const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, c);
        (*list)[fill[outgoing ? ch->source : ch->dest]++] = c;
    }
    g_free(fill);
}

static guint marks_until(const Trace *t, Tick time);

/* Replay the marks in time order, keeping every node's current label and
 * how many nodes each label has; after each distinct time, the label with
 * the most nodes is the phase. */
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
    uint32_t nodes = trace_nodes(t);
    uint32_t *current = g_new(uint32_t, nodes);
    uint32_t *count = g_new0(uint32_t, nl + 1);
    for (uint32_t v = 0; v < nodes; v++)
        current[v] = UINT32_MAX;
    guint i = 0;
    while (i < nm) {
        Tick time = g_array_index(t->marks, TraceMark, i).time;
        for (; i < nm && g_array_index(t->marks, TraceMark, i).time == time; i++) {
            const TraceMark *m = &g_array_index(t->marks, TraceMark, i);
            for (uint32_t v = m->node; v - m->node < m->nodes; v++) {
                if (current[v] != UINT32_MAX)
                    count[current[v]]--;
                current[v] = m->label;
                count[m->label]++;
            }
        }
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
    g_free(current);
    g_free(count);
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
    index_adjacency(t, TRUE, &x->out_first, &x->out);
    index_adjacency(t, FALSE, &x->in_first, &x->in);
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
    g_free(x->out_first);
    g_free(x->in_first);
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
    *count = node < trace_nodes(x->trace)
                 ? x->out_first[node + 1] - x->out_first[node] : 0;
    return *count ? x->out + x->out_first[node] : NULL;
}

const uint32_t *trace_index_in(const TraceIndex *x, uint32_t node,
                               guint *count)
{
    *count = node < trace_nodes(x->trace)
                 ? x->in_first[node + 1] - x->in_first[node] : 0;
    return *count ? x->in + x->in_first[node] : NULL;
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
