/* trace.c -- the in-memory Trace: creation, header strings, titles and the
 * channel tables of the topologies cubemu knows.
 *
 * Invariant: a Trace owns everything it points to; `info` holds each key at
 * most once and always a "topology" once a table has been made for it.
 */
#include "trace.h"

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
    t->element_time = 1;
    t->info = g_array_new(FALSE, TRUE, sizeof(TraceInfo));
    g_array_set_clear_func(t->info, info_clear);
    t->channels = g_array_new(FALSE, TRUE, sizeof(TraceChannel));
    t->messages = g_array_new(FALSE, TRUE, sizeof(TraceMessage));
    t->busy = g_array_new(FALSE, TRUE, sizeof(TraceBusy));
    t->labels = g_ptr_array_new_with_free_func(g_free);
    t->marks = g_array_new(FALSE, TRUE, sizeof(TraceMark));
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
    g_ptr_array_unref(t->labels);
    g_array_unref(t->marks);
    g_free(t);
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

char *trace_title(const Trace *t)
{
    GString *s = g_string_new(NULL);
    const char *alg = trace_info(t, "algorithm");
    const char *method = trace_info(t, "method");
    const char *params = trace_info(t, "parameters");
    const char *machine = trace_info(t, "machine");
    const char *topology = trace_info(t, "topology");
    g_string_append(s, alg && *alg ? alg : "trace");
    if (method && *method)
        g_string_append_printf(s, ", method %s", method);
    if (params && *params)
        g_string_append_printf(s, ", %s", params);
    g_string_append(s, " on ");
    if (machine && *machine)
        g_string_append_printf(s, "%s (", machine);
    g_string_append_printf(s, "%s, %u nodes", topology ? topology : "?",
                           t->nodes);
    if (machine && *machine)
        g_string_append_c(s, ')');
    return g_string_free(s, FALSE);
}

const char *trace_direction_name(int direction)
{
    return direction > 0 ? "up" : "down";
}

/* The cube: channel node * n + d leaves node across dimension d, so the
 * recorder finds a channel's index from what the engine reports. */
static void cube_channels(const Machine *m, GArray *channels)
{
    uint32_t nodes = machine_nodes(m);
    g_array_set_size(channels, 0);
    for (uint32_t x = 0; x < nodes; x++)
        for (int d = 0; d < m->topology.axes; d++) {
            TraceChannel c = { x, x ^ ((uint32_t)1 << d), (uint16_t)d,
                               (int8_t)(((x >> d) & 1) ? -1 : 1) };
            g_array_append_val(channels, c);
        }
}

gboolean trace_channel_table(const Machine *m, GArray *channels,
                             GError **error)
{
    if (m->topology.ops->kind == TOPOLOGY_CUBE) {
        cube_channels(m, channels);
        return TRUE;
    }
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_INPUT,
                "topology '%s' has no channel table for traces (valid: cube)",
                machine_topology_name(m));
    return FALSE;
}

G_DEFINE_QUARK(trace-error-quark, trace_error)
