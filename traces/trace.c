/* trace.c -- the in-memory Trace: creation, header strings, and the names
 * and titles every reader of a trace shows (link names come from the
 * topology, never from a table of our own).
 *
 * Invariant: a Trace owns everything it points to; `info` holds each key at
 * most once; `topology` is always a valid configured topology.
 */
#include "trace.h"

#include <limits.h>
#include <string.h>

static void info_clear(gpointer p)
{
    TraceInfo *i = p;
    g_free(i->key);
    g_free(i->value);
}

Trace *trace_new(void)
{
    Trace *t = g_new0(Trace, 1);
    t->version_major = TRACE_VERSION_MAJOR;
    t->version_minor = TRACE_VERSION_MINOR;
    char *why = NULL;
    if (!topology_cube_init(&t->topology, 1, &why))
        g_error("trace_new: %s", why);        /* a 1-cube always exists */
    for (MessageClass c = 0; c < CLASS_COUNT; c++)
        t->price[c].element_time = 1;
    t->info = g_array_new(FALSE, TRUE, sizeof(TraceInfo));
    g_array_set_clear_func(t->info, info_clear);
    t->channels = g_array_new(FALSE, TRUE, sizeof(TraceChannel));
    t->messages = g_array_new(FALSE, TRUE, sizeof(TraceMessage));
    t->busy = g_array_new(FALSE, TRUE, sizeof(TraceBusy));
    t->startups = g_array_new(FALSE, TRUE, sizeof(TraceStartup));
    t->labels = g_ptr_array_new_with_free_func(g_free);
    t->marks = g_array_new(FALSE, TRUE, sizeof(TraceMark));
    t->faults = g_array_new(FALSE, TRUE, sizeof(FaultEntry));
    return t;
}

void trace_free(Trace *t)
{
    if (!t)
        return;
    g_array_unref(t->info);
    g_array_unref(t->channels);
    g_array_unref(t->messages);
    g_array_unref(t->busy);
    g_array_unref(t->startups);
    g_ptr_array_unref(t->labels);
    g_array_unref(t->marks);
    g_array_unref(t->faults);
    g_free(t);
}

Tick trace_min_element_time(const Trace *t)
{
    Tick tau = t->price[0].element_time;
    for (MessageClass c = 1; c < CLASS_COUNT; c++)
        if (topology_has_class(t->topology.ops, c))
            tau = MIN(tau, t->price[c].element_time);
    return MAX(tau, 1);
}

const char *trace_info(const Trace *t, const char *key)
{
    for (guint i = 0; i < t->info->len; i++) {
        const TraceInfo *in = &g_array_index(t->info, TraceInfo, i);
        if (!strcmp(in->key, key))
            return in->value;
    }
    return NULL;
}

void trace_set_info(Trace *t, const char *key, const char *value)
{
    for (guint i = 0; i < t->info->len; i++) {
        TraceInfo *in = &g_array_index(t->info, TraceInfo, i);
        if (!strcmp(in->key, key)) {
            g_free(in->value);
            in->value = g_strdup(value);
            return;
        }
    }
    TraceInfo in = { g_strdup(key), g_strdup(value) };
    g_array_append_val(t->info, in);
}

char *trace_topology_text(const Trace *t)
{
    const Topology *tp = &t->topology;
    g_autofree char *title = tp->ops->title(tp);
    return g_strdup_printf("%s, %u nodes", title, tp->nodes);
}

char *trace_title(const Trace *t)
{
    GString *s = g_string_new(NULL);
    const char *alg = trace_info(t, "algorithm");
    const char *method = trace_info(t, "method");
    const char *params = trace_info(t, "parameters");
    const char *machine = trace_info(t, "machine");
    g_autofree char *topology = trace_topology_text(t);
    g_string_append(s, alg && *alg ? alg : "trace");
    if (method && *method)
        g_string_append_printf(s, ", method %s", method);
    if (params && *params)
        g_string_append_printf(s, ", %s", params);
    if (machine && *machine)
        g_string_append_printf(s, " on %s (%s)", machine, topology);
    else
        g_string_append_printf(s, " on %s", topology);
    return g_string_free(s, FALSE);
}

void trace_link_name(const Trace *t, uint32_t link, char *buf, gsize size)
{
    topology_link_name(&t->topology, (int)link, buf, size);
}

void trace_channel_name(const Trace *t, uint32_t node, uint32_t link,
                        char *buf, gsize size)
{
    char name[TOPOLOGY_LINK_NAME_MAX];
    trace_link_name(t, link, name, sizeof name);
    g_snprintf(buf, size, "node %u %s", node, name);
}

double trace_seconds(const Trace *t, Tick ticks)
{
    return (double)ticks * t->tick_seconds;
}

char *trace_seconds_text(const Trace *t, Tick ticks)
{
    return t->tick_seconds > 0 ? report_duration_text(trace_seconds(t, ticks))
                               : NULL;
}

G_DEFINE_QUARK(trace-error-quark, trace_error)

/* ---- faults ----------------------------------------------------------- */

/* The index of the first entry at or after (node, link) in the sorted
 * list (a dead node's entry has link -1, before its channels). */
static guint fault_lower(const Trace *t, uint32_t node, int link)
{
    guint lo = 0, hi = t->faults->len;
    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        const FaultEntry *e = &g_array_index(t->faults, FaultEntry, mid);
        if (e->node < node || (e->node == node && e->link < link))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

gboolean trace_node_dead(const Trace *t, uint32_t v)
{
    guint i = fault_lower(t, v, -1);
    if (i >= t->faults->len)
        return FALSE;
    const FaultEntry *e = &g_array_index(t->faults, FaultEntry, i);
    return e->node == v && e->link < 0;
}

/* Does some entry of the channel overlap [from, to)? */
static gboolean channel_down_within(const Trace *t, uint32_t node,
                                    uint32_t link, Tick from, Tick to)
{
    if (link > (uint32_t)INT_MAX)
        return FALSE;
    for (guint i = fault_lower(t, node, (int)link); i < t->faults->len; i++) {
        const FaultEntry *e = &g_array_index(t->faults, FaultEntry, i);
        if (e->node != node || e->link != (int)link || e->from >= to)
            return FALSE;       /* sorted by from: none later overlaps */
        if (e->until > from)
            return TRUE;
    }
    return FALSE;
}

gboolean trace_channel_down(const Trace *t, uint32_t node, uint32_t link,
                            Tick at)
{
    return at < FAULTS_FOREVER && channel_down_within(t, node, link, at, at + 1);
}

gboolean trace_channel_faulty(const Trace *t, uint32_t node, uint32_t link)
{
    return channel_down_within(t, node, link, 0, MAX(t->cycles, 1));
}

gboolean trace_channel_fault(const Trace *t, uint32_t node, uint32_t link,
                             FaultEntry *e)
{
    if (link > (uint32_t)INT_MAX)
        return FALSE;
    guint i = fault_lower(t, node, (int)link);
    if (i >= t->faults->len)
        return FALSE;
    *e = g_array_index(t->faults, FaultEntry, i);
    return e->node == node && e->link == (int)link;
}

char *trace_fault_interval_text(const FaultEntry *e)
{
    if (e->from == 0 && e->until == FAULTS_FOREVER)
        return g_strdup("for good");
    if (e->until == FAULTS_FOREVER)
        return g_strdup_printf("from tick %" G_GINT64_FORMAT " on",
                               (gint64)e->from);
    return g_strdup_printf("from tick %" G_GINT64_FORMAT " until %"
                           G_GINT64_FORMAT, (gint64)e->from,
                           (gint64)e->until);
}
