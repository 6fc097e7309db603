/* record.c -- the trace recorder: a SimObserver that keeps every busy
 * interval and mark of a run, and turns them into a Trace at the end.
 *
 * Invariants while recording:
 *  - messages holds one entry per message that used a channel, appended
 *    when its first interval arrives (the engine reserves a message's
 *    whole route in one go, so its intervals arrive together);
 *  - busy[i].channel is a raw key node * TOPOLOGY_CUBE_MAX_DIMENSIONS + dimension
 *    until finish, when it becomes an index into the channel table;
 *  - marks are already merged where consecutive calls gave the same
 *    (time, label) for consecutive nodes, so a 2^16-node step costs one
 *    record, not 2^16; finish sorts and merges the rest.
 * The observer only reads what the engine hands it, so recording cannot
 * change a simulated result.
 */
#include "trace.h"

#include <stdlib.h>
#include <string.h>

#ifndef CUBEMU_VERSION
#define CUBEMU_VERSION "0.1.0"
#endif

/* Labels are stored with a 16-bit length; a longer one is cut at a UTF-8
 * character boundary (no node program needs a phase name this long). */
#define TRACE_MAX_LABEL 65535

struct TraceRecorder {
    GArray *messages;             /* TraceMessage */
    GArray *busy;                 /* TraceBusy, raw channel keys */
    gboolean have_message;
    uint64_t last_id;             /* id of messages[len-1] */
    uint32_t last_channel;        /* raw key of that message's latest hop */
    GHashTable *label_index;      /* label -> index + 1 */
    GPtrArray *labels;
    GArray *marks;                /* TraceMark */
};

TraceRecorder *trace_recorder_new(void)
{
    TraceRecorder *r = g_new0(TraceRecorder, 1);
    r->messages = g_array_new(FALSE, FALSE, sizeof(TraceMessage));
    r->busy = g_array_new(FALSE, FALSE, sizeof(TraceBusy));
    r->label_index = g_hash_table_new(g_str_hash, g_str_equal);
    r->labels = g_ptr_array_new_with_free_func(g_free);
    r->marks = g_array_new(FALSE, FALSE, sizeof(TraceMark));
    return r;
}

void trace_recorder_free(TraceRecorder *r)
{
    if (!r)
        return;
    g_array_unref(r->messages);
    g_array_unref(r->busy);
    g_hash_table_unref(r->label_index);
    g_ptr_array_unref(r->labels);
    g_array_unref(r->marks);
    g_free(r);
}

static void recorder_channel_busy(void *data, const SimMessage *m,
                                  uint32_t node, int dimension, uint64_t first,
                                  uint64_t count, Tick start)
{
    TraceRecorder *r = data;
    uint32_t raw = node * TOPOLOGY_CUBE_MAX_DIMENSIONS + (uint32_t)dimension;  /* cube only for now */
    if (!r->have_message || m->id != r->last_id) {
        TraceMessage tm = { m->id, m->count, m->posted, m->source, m->dest,
                            m->tag, 0 };
        g_array_append_val(r->messages, tm);
        r->have_message = TRUE;
        r->last_id = m->id;
        r->last_channel = UINT32_MAX;
    }
    TraceMessage *tm = &g_array_index(r->messages, TraceMessage,
                                      r->messages->len - 1);
    if (raw != r->last_channel) {
        tm->hops++;
        r->last_channel = raw;
    }
    /* Busy records name their message by a 32-bit index (FORMAT.md); a
     * GArray's length is a guint, so the index always fits. */
    TraceBusy b = { start, first, count, raw,
                    (uint32_t)(r->messages->len - 1) };
    g_array_append_val(r->busy, b);
}

static uint32_t recorder_label(TraceRecorder *r, const char *label)
{
    if (r->labels->len) {
        const char *last = r->labels->pdata[r->labels->len - 1];
        if (!strcmp(last, label))
            return r->labels->len - 1;
    }
    gpointer found = g_hash_table_lookup(r->label_index, label);
    if (found)
        return GPOINTER_TO_UINT(found) - 1;
    char *copy;
    if (strlen(label) > TRACE_MAX_LABEL) {
        const char *end = g_utf8_find_prev_char(label, label + TRACE_MAX_LABEL + 1);
        copy = g_strndup(label, (gsize)(end - label));
    } else {
        copy = g_strdup(label);
    }
    g_ptr_array_add(r->labels, copy);
    g_hash_table_insert(r->label_index, copy, GUINT_TO_POINTER(r->labels->len));
    return r->labels->len - 1;
}

static void recorder_mark(void *data, uint32_t node, Tick time,
                          const char *label)
{
    TraceRecorder *r = data;
    uint32_t l = recorder_label(r, label);
    if (r->marks->len) {
        TraceMark *last = &g_array_index(r->marks, TraceMark, r->marks->len - 1);
        if (last->time == time && last->label == l
            && last->node + last->nodes == node) {
            last->nodes++;
            return;
        }
    }
    TraceMark m = { time, l, node, 1 };
    g_array_append_val(r->marks, m);
}

const SimObserver *trace_recorder_observer(void)
{
    static const SimObserver observer = {
        .channel_busy = recorder_channel_busy,
        .mark = recorder_mark,
    };
    return &observer;
}

static int mark_compare(const void *a, const void *b)
{
    const TraceMark *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    if (x->label != y->label)
        return x->label < y->label ? -1 : 1;
    return x->node < y->node ? -1 : x->node > y->node;
}

static int busy_start_compare(const void *a, const void *b)
{
    const TraceBusy *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Sort by channel with a counting sort (stable, linear), then by start
 * within a channel; records usually arrive in start order per channel, so
 * qsort runs only where a later message filled an earlier gap. Returns the
 * sorted array; `busy` is freed. */
static GArray *recorder_sort_busy(GArray *busy, guint channels)
{
    guint *first = g_new0(guint, (gsize)channels + 1);
    for (guint i = 0; i < busy->len; i++)
        first[g_array_index(busy, TraceBusy, i).channel + 1]++;
    for (guint c = 0; c < channels; c++)
        first[c + 1] += first[c];
    GArray *sorted = g_array_sized_new(FALSE, FALSE, sizeof(TraceBusy), busy->len);
    g_array_set_size(sorted, busy->len);
    TraceBusy *all = (TraceBusy *)(void *)sorted->data;
    for (guint i = 0; i < busy->len; i++) {
        const TraceBusy *b = &g_array_index(busy, TraceBusy, i);
        all[first[b->channel]++] = *b;
    }
    g_array_unref(busy);
    guint lo = 0;
    for (guint i = 1; i <= sorted->len; i++) {
        if (i < sorted->len && all[i].channel == all[lo].channel)
            continue;
        for (guint j = lo + 1; j < i; j++)
            if (all[j].start < all[j - 1].start) {
                qsort(all + lo, i - lo, sizeof(TraceBusy), busy_start_compare);
                break;
            }
        lo = i;
    }
    g_free(first);
    return sorted;
}

static void recorder_merge_marks(GArray *marks)
{
    if (!marks->len)
        return;
    qsort(marks->data, marks->len, sizeof(TraceMark), mark_compare);
    TraceMark *m = (TraceMark *)(void *)marks->data;
    guint out = 0;
    for (guint i = 1; i < marks->len; i++) {
        if (m[i].time == m[out].time && m[i].label == m[out].label
            && m[out].node + m[out].nodes == m[i].node)
            m[out].nodes += m[i].nodes;
        else
            m[++out] = m[i];
    }
    g_array_set_size(marks, out + 1);
}

static char *recorder_parameters(const Report *report)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < report->params->len; i++) {
        const ParamValue *v = &g_array_index(report->params, ParamValue, i);
        g_string_append_printf(s, "%s%s = %s", i ? ", " : "", v->key, v->text);
    }
    return g_string_free(s, FALSE);
}

Trace *trace_recorder_finish(TraceRecorder *r, const Report *report,
                             GError **error)
{
    const Machine *m = &report->machine;
    g_autoptr(Trace) t = trace_new();
    if (!trace_channel_table(m, t->channels, error))
        return NULL;
    t->nodes = machine_nodes(m);
    t->dimensions = (uint32_t)m->topology.axes;
    t->ports = m->ports;
    t->element_time = m->price[CLASS_NEIGHBOUR].element_time;
    t->startup = m->price[CLASS_NEIGHBOUR].startup;
    t->cycles = report->cycles;
    t->element_transfers = report->element_transfers;
    trace_set_info(t, "topology", machine_topology_name(m));
    trace_set_info(t, "machine", m->name);
    trace_set_info(t, "scenario", report->scenario);
    trace_set_info(t, "algorithm", report->algorithm);
    trace_set_info(t, "method", report->method);
    g_autofree char *params = recorder_parameters(report);
    trace_set_info(t, "parameters", params);
    trace_set_info(t, "cubemu", CUBEMU_VERSION);

    /* Raw keys to table indices: the cube table is node-major. */
    for (guint i = 0; i < r->busy->len; i++) {
        TraceBusy *b = &g_array_index(r->busy, TraceBusy, i);
        uint32_t node = b->channel / TOPOLOGY_CUBE_MAX_DIMENSIONS;
        uint32_t dim = b->channel % TOPOLOGY_CUBE_MAX_DIMENSIONS;
        b->channel = node * (uint32_t)m->topology.axes + dim;
    }
    r->busy = recorder_sort_busy(r->busy, t->channels->len);
    recorder_merge_marks(r->marks);

    g_array_unref(t->messages);
    t->messages = g_steal_pointer(&r->messages);
    g_array_unref(t->busy);
    t->busy = g_steal_pointer(&r->busy);
    g_array_unref(t->marks);
    t->marks = g_steal_pointer(&r->marks);
    g_hash_table_remove_all(r->label_index);
    g_ptr_array_unref(t->labels);
    t->labels = g_steal_pointer(&r->labels);

    r->messages = g_array_new(FALSE, FALSE, sizeof(TraceMessage));
    r->busy = g_array_new(FALSE, FALSE, sizeof(TraceBusy));
    r->labels = g_ptr_array_new_with_free_func(g_free);
    r->marks = g_array_new(FALSE, FALSE, sizeof(TraceMark));
    r->have_message = FALSE;
    return g_steal_pointer(&t);
}
