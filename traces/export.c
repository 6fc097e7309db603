/* export.c -- Chrome JSON, Paje and CSV from a Trace (see export.h).
 *
 * Invariant: every exporter writes each busy record exactly once (as one
 * slice, one busy state, or its elements spread over the CSV windows), so
 * counts in the output can be checked against the trace.
 */
#include "export.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *const trace_export_format_names[] = { "chrome", "paje", "csv", NULL };

static void json_text(FILE *out, const char *s)
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

static void channel_name(const Trace *t, uint32_t c, char *buf, gsize size)
{
    const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, c);
    g_snprintf(buf, size, "dim %u %s -> node %u", ch->dimension,
               trace_direction_name(ch->direction), ch->dest);
}

/* ---- Chrome trace events ---------------------------------------------- */

static void export_chrome(const Trace *t, FILE *out)
{
    g_autofree char *title = trace_title(t);
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"title\":", out);
    json_text(out, title);
    fputs(",\"time_unit\":\"1 us = 1 cycle\"", out);
    for (guint i = 0; i < t->info->len; i++) {
        const TraceInfo *in = &g_array_index(t->info, TraceInfo, i);
        fputc(',', out);
        json_text(out, in->key);
        fputc(':', out);
        json_text(out, in->value);
    }
    fprintf(out, ",\"cycles\":\"%" G_GINT64_FORMAT "\"},\n\"traceEvents\":[\n",
            (gint64)t->cycles);
    gboolean first = TRUE;
#define SEP() (first ? (first = FALSE, "") : ",\n")
    for (uint32_t v = 0; v < t->nodes; v++) {
        fprintf(out, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,"
                "\"args\":{\"name\":\"node %u\"}}", SEP(), v, v);
        fprintf(out, ",\n{\"name\":\"process_sort_index\",\"ph\":\"M\","
                "\"pid\":%u,\"args\":{\"sort_index\":%u}}", v, v);
    }
    char name[96];
    for (guint c = 0; c < t->channels->len; c++) {
        const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, c);
        channel_name(t, c, name, sizeof name);
        fprintf(out, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,"
                "\"tid\":%u,\"args\":{\"name\":\"%s\"}}", ch->source, c, name);
    }
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, b->channel);
        const TraceMessage *m = &g_array_index(t->messages, TraceMessage, b->message);
        fprintf(out, "%s{\"name\":\"message %u: %u -> %u\",\"cat\":\"message\","
                "\"ph\":\"X\",\"ts\":%" G_GINT64_FORMAT ",\"dur\":%"
                G_GINT64_FORMAT ",\"pid\":%u,\"tid\":%u,\"args\":{\"message\":%"
                G_GUINT64_FORMAT ",\"source\":%u,\"dest\":%u,\"tag\":%d,"
                "\"first\":%" G_GUINT64_FORMAT ",\"elements\":%" G_GUINT64_FORMAT
                ",\"message_elements\":%" G_GUINT64_FORMAT ",\"posted\":%"
                G_GINT64_FORMAT ",\"hops\":%u}}", SEP(), b->message, m->source,
                m->dest, (gint64)b->start,
                (gint64)((Tick)b->count * t->element_time), ch->source,
                b->channel, (guint64)m->id, m->source, m->dest, m->tag,
                (guint64)b->first, (guint64)b->count, (guint64)m->count,
                (gint64)m->posted, m->hops);
    }
    for (guint i = 0; i < t->marks->len; i++) {
        const TraceMark *m = &g_array_index(t->marks, TraceMark, i);
        const char *label = t->labels->pdata[m->label];
        if (m->nodes == t->nodes) {
            /* Every node at once: one global instant, not one per node. */
            fprintf(out, "%s{\"name\":", SEP());
            json_text(out, label);
            fprintf(out, ",\"cat\":\"mark\",\"ph\":\"i\",\"s\":\"g\",\"ts\":%"
                    G_GINT64_FORMAT ",\"pid\":0,\"tid\":0,\"args\":{\"nodes\":%u}}",
                    (gint64)m->time, m->nodes);
            continue;
        }
        for (uint32_t v = m->node; v - m->node < m->nodes; v++) {
            fprintf(out, "%s{\"name\":", SEP());
            json_text(out, label);
            fprintf(out, ",\"cat\":\"mark\",\"ph\":\"i\",\"s\":\"p\",\"ts\":%"
                    G_GINT64_FORMAT ",\"pid\":%u,\"tid\":0}", (gint64)m->time, v);
        }
    }
#undef SEP
    fputs("\n]}\n", out);
}

/* ---- Paje --------------------------------------------------------------- */

/* Event numbers of the header below. */
enum {
    PAJE_DEFINE_CONTAINER_TYPE, PAJE_DEFINE_STATE_TYPE, PAJE_DEFINE_EVENT_TYPE,
    PAJE_DEFINE_LINK_TYPE, PAJE_DEFINE_ENTITY_VALUE, PAJE_CREATE_CONTAINER,
    PAJE_DESTROY_CONTAINER, PAJE_SET_STATE, PAJE_NEW_EVENT, PAJE_START_LINK,
    PAJE_END_LINK
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
    "% EndContainer string\n% Key string\n%EndEventDef\n";

/* Paje wants events in time order; at one time, a channel goes idle
 * before the next record makes it busy, and a link starts before it
 * ends. */
typedef enum { PE_MARK, PE_IDLE, PE_BUSY, PE_LINK_START, PE_LINK_END } PajeKind;

typedef struct {
    Tick time;
    PajeKind kind;
    uint32_t a, b;                /* channel or message or mark; node */
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

static void export_paje(const Trace *t, FILE *out)
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
    g_autofree char *title = trace_title(t);
    g_strdelimit(title, "\"", '\'');
    fprintf(out, "%d 0 C_M CT_Machine 0 \"%s\"\n", PAJE_CREATE_CONTAINER, title);
    for (uint32_t v = 0; v < t->nodes; v++)
        fprintf(out, "%d 0 C_N%u CT_Node C_M \"node %u\"\n",
                PAJE_CREATE_CONTAINER, v, v);
    char name[96];
    for (guint c = 0; c < t->channels->len; c++) {
        const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, c);
        channel_name(t, c, name, sizeof name);
        fprintf(out, "%d 0 C_C%u CT_Channel C_N%u \"%s\"\n",
                PAJE_CREATE_CONTAINER, c, ch->source, name);
        fprintf(out, "%d 0 ST_Channel C_C%u V_idle\n", PAJE_SET_STATE, c);
    }

    GArray *ev = g_array_new(FALSE, FALSE, sizeof(PajeEvent));
    guint nm = t->messages->len;
    Tick *link_start = g_new(Tick, nm ? nm : 1);
    Tick *link_end = g_new(Tick, nm ? nm : 1);
    for (guint m = 0; m < nm; m++) {
        link_start[m] = G_MAXINT64;
        link_end[m] = -1;
    }
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        Tick end = b->start + (Tick)b->count * t->element_time;
        PajeEvent busy = { b->start, PE_BUSY, b->channel, 0 };
        PajeEvent idle = { end, PE_IDLE, b->channel, 0 };
        g_array_append_val(ev, busy);
        g_array_append_val(ev, idle);
        link_start[b->message] = MIN(link_start[b->message], b->start);
        link_end[b->message] = MAX(link_end[b->message], end);
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
    qsort(ev->data, ev->len, sizeof(PajeEvent), paje_compare);
    for (guint i = 0; i < ev->len; i++) {
        const PajeEvent *e = &g_array_index(ev, PajeEvent, i);
        gint64 time = (gint64)e->time;
        switch (e->kind) {
        case PE_BUSY:
        case PE_IDLE:
            fprintf(out, "%d %" G_GINT64_FORMAT " ST_Channel C_C%u %s\n",
                    PAJE_SET_STATE, time, e->a,
                    e->kind == PE_BUSY ? "V_busy" : "V_idle");
            break;
        case PE_LINK_START:
        case PE_LINK_END: {
            const TraceMessage *m = &g_array_index(t->messages, TraceMessage, e->a);
            fprintf(out, "%d %" G_GINT64_FORMAT " LT_Message C_M \"message %u\""
                    " C_N%u m%u\n", e->kind == PE_LINK_START ? PAJE_START_LINK
                                                              : PAJE_END_LINK,
                    time, e->a, e->kind == PE_LINK_START ? m->source : m->dest,
                    e->a);
            break;
        }
        case PE_MARK: {
            const TraceMark *mk = &g_array_index(t->marks, TraceMark, e->a);
            g_autofree char *label = g_strdup(t->labels->pdata[mk->label]);
            g_strdelimit(label, "\"\n", '\'');
            fprintf(out, "%d %" G_GINT64_FORMAT " ET_Mark C_N%u \"%s\"\n",
                    PAJE_NEW_EVENT, time, e->b, label);
            break;
        }
        }
    }
    gint64 end = (gint64)t->cycles;
    for (guint c = 0; c < t->channels->len; c++)
        fprintf(out, "%d %" G_GINT64_FORMAT " CT_Channel C_C%u\n",
                PAJE_DESTROY_CONTAINER, end, c);
    for (uint32_t v = 0; v < t->nodes; v++)
        fprintf(out, "%d %" G_GINT64_FORMAT " CT_Node C_N%u\n",
                PAJE_DESTROY_CONTAINER, end, v);
    fprintf(out, "%d %" G_GINT64_FORMAT " CT_Machine C_M\n",
            PAJE_DESTROY_CONTAINER, end);
    g_array_unref(ev);
    g_free(link_start);
    g_free(link_end);
}

/* ---- CSV ---------------------------------------------------------------- */

Tick trace_export_default_window(const Trace *t)
{
    Tick w = t->element_time;
    Tick rows_cap = (t->cycles + TRACE_CSV_MAX_ROWS - 1) / TRACE_CSV_MAX_ROWS;
    return MAX(w, rows_cap);
}

/* Elements of b that start crossing within [w0, w1): element i starts at
 * start + i * element_time. */
static uint64_t elements_starting(const TraceBusy *b, Tick tau,
                                  Tick w0, Tick w1)
{
    Tick lo = w0 <= b->start ? 0 : (w0 - b->start + tau - 1) / tau;
    Tick hi = w1 <= b->start ? 0 : (w1 - b->start + tau - 1) / tau;
    lo = MIN(lo, (Tick)b->count);
    hi = MIN(hi, (Tick)b->count);
    return hi > lo ? (uint64_t)(hi - lo) : 0;
}

static void export_csv(const Trace *t, Tick window, FILE *out)
{
    g_autoptr(TraceIndex) x = trace_index_new(t);
    guint ng = trace_index_groups(x);
    Tick rows = (t->cycles + window - 1) / window;
    fputs("window_start,window_end", out);
    for (guint g = 0; g < ng; g++) {
        int d, dir;
        trace_index_group(x, g, &d, &dir, NULL);
        fprintf(out, ",d%d_%s_elements", d, trace_direction_name(dir));
    }
    for (guint g = 0; g < ng; g++) {
        int d, dir;
        trace_index_group(x, g, &d, &dir, NULL);
        fprintf(out, ",d%d_%s_utilisation", d, trace_direction_name(dir));
    }
    fputs(",elements,utilisation\n", out);
    if (rows <= 0)
        return;

    /* One pass over the records, spreading each over the windows it
     * touches: rows x groups counters. */
    gsize cells = (gsize)rows * ng;
    uint64_t *elements = g_new0(uint64_t, cells ? cells : 1);
    Tick *busy = g_new0(Tick, cells ? cells : 1);
    Tick tau = t->element_time;
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        guint g = trace_index_group_of(x, b->channel);
        Tick end = b->start + (Tick)b->count * tau;
        for (Tick r = b->start / window; r < rows && r * window < end; r++) {
            Tick w0 = r * window, w1 = MIN(w0 + window, t->cycles);
            elements[(gsize)r * ng + g] += elements_starting(b, tau, w0, w1);
            busy[(gsize)r * ng + g] += MIN(end, w1) - MAX(b->start, w0);
        }
    }
    for (Tick r = 0; r < rows; r++) {
        Tick w0 = r * window, w1 = MIN(w0 + window, t->cycles);
        fprintf(out, "%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT, (gint64)w0,
                (gint64)w1);
        uint64_t all_elements = 0;
        Tick all_busy = 0;
        for (guint g = 0; g < ng; g++) {
            all_elements += elements[(gsize)r * ng + g];
            fprintf(out, ",%" G_GUINT64_FORMAT, (guint64)elements[(gsize)r * ng + g]);
        }
        for (guint g = 0; g < ng; g++) {
            guint size;
            trace_index_group(x, g, NULL, NULL, &size);
            all_busy += busy[(gsize)r * ng + g];
            fprintf(out, ",%.6g", (double)busy[(gsize)r * ng + g]
                                  / ((double)(w1 - w0) * size));
        }
        fprintf(out, ",%" G_GUINT64_FORMAT ",%.6g\n", (guint64)all_elements,
                t->channels->len ? (double)all_busy
                                   / ((double)(w1 - w0) * t->channels->len)
                                 : 0.0);
    }
    g_free(elements);
    g_free(busy);
}

gboolean trace_export(const Trace *t, TraceExportFormat format,
                      Tick window, FILE *out, const char *name,
                      GError **error)
{
    errno = 0;
    if (format == TRACE_EXPORT_CSV && window > 0
        && (t->cycles + window - 1) / window > TRACE_CSV_ROW_LIMIT) {
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_INPUT,
                    "--window %" G_GINT64_FORMAT ": %" G_GINT64_FORMAT
                    " cycles would be more than %d rows; use a wider window",
                    (gint64)window, (gint64)t->cycles, TRACE_CSV_ROW_LIMIT);
        return FALSE;
    }
    switch (format) {
    case TRACE_EXPORT_CHROME: export_chrome(t, out); break;
    case TRACE_EXPORT_PAJE: export_paje(t, out); break;
    case TRACE_EXPORT_CSV:
        export_csv(t, window > 0 ? window : trace_export_default_window(t), out);
        break;
    }
    if (fflush(out) != 0 || ferror(out)) {
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO,
                    "%s: cannot write: %s", name,
                    g_strerror(errno ? errno : EIO));
        return FALSE;
    }
    return TRUE;
}
