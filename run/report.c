/* report.c -- run results: builders, field lookup, table and JSON output.
 *
 * The JSON object has exactly the keys documented in README "JSON output";
 * algorithm-specific values go under "details" only.
 */
#include "report.h"

#include <math.h>
#include <string.h>

#ifndef CUBEMU_VERSION
#define CUBEMU_VERSION "0.1.0"
#endif

static void bound_clear(gpointer p)
{
    Bound *b = p;
    g_free(b->name);
    g_free(b->source);
}

static void detail_clear(gpointer p)
{
    Detail *d = p;
    g_free(d->key);
    g_free(d->text);
    if (d->list)
        g_array_unref(d->list);
}

static void param_clear(gpointer p)
{
    ParamValue *v = p;
    g_free(v->key);
    g_free(v->text);
}

Report *report_new(void)
{
    Report *r = g_new0(Report, 1);
    r->params = g_array_new(FALSE, TRUE, sizeof(ParamValue));
    g_array_set_clear_func(r->params, param_clear);
    r->bounds = g_array_new(FALSE, TRUE, sizeof(Bound));
    g_array_set_clear_func(r->bounds, bound_clear);
    r->details = g_array_new(FALSE, TRUE, sizeof(Detail));
    g_array_set_clear_func(r->details, detail_clear);
    return r;
}

void report_free(Report *r)
{
    if (!r)
        return;
    g_free(r->scenario);
    machine_clear(&r->machine);
    g_free(r->algorithm);
    g_free(r->method);
    g_array_unref(r->params);
    g_free(r->elements_up);
    g_free(r->elements_down);
    g_free(r->data_problem);
    g_array_unref(r->bounds);
    g_array_unref(r->details);
    g_free(r->memory);
    g_free(r);
}

const char *bound_kind_text(BoundKind kind)
{
    switch (kind) {
    case BOUND_UPPER: return "upper";
    case BOUND_LOWER: return "lower";
    case BOUND_EXACT: return "exact";
    }
    return "?";
}

void report_bound(Report *r, const char *name, BoundKind kind,
                       double value, double measured, const char *source)
{
    Bound b = { g_strdup(name), kind, value, measured, FALSE,
                    g_strdup(source) };
    switch (kind) {
    case BOUND_UPPER: b.holds = measured <= value; break;
    case BOUND_LOWER: b.holds = measured >= value; break;
    case BOUND_EXACT: b.holds = measured == value; break;
    }
    g_array_append_val(r->bounds, b);
}

void report_cycle_bound(Report *r, const char *name,
                             BoundKind kind, double value,
                             const char *source)
{
    report_bound(r, name, kind, value, (double)r->cycles, source);
}

static Detail *report_detail(Report *r, const char *key,
                                 DetailType type)
{
    Detail d = { g_strdup(key), type, 0, 0, NULL, NULL };
    g_array_append_val(r->details, d);
    return &g_array_index(r->details, Detail, r->details->len - 1);
}

void report_detail_int(Report *r, const char *key, long long v)
{
    report_detail(r, key, DETAIL_INT)->i = v;
}

void report_detail_double(Report *r, const char *key, double v)
{
    report_detail(r, key, DETAIL_DOUBLE)->d = v;
}

void report_detail_text(Report *r, const char *key, const char *v)
{
    report_detail(r, key, DETAIL_TEXT)->text = g_strdup(v);
}

void report_detail_list(Report *r, const char *key,
                             const long long *v, size_t n)
{
    Detail *d = report_detail(r, key, DETAIL_INT_LIST);
    d->list = g_array_sized_new(FALSE, FALSE, sizeof(long long), (guint)n);
    g_array_append_vals(d->list, v, (guint)n);
}

gboolean report_bounds_hold(const Report *r)
{
    for (guint i = 0; i < r->bounds->len; i++)
        if (!g_array_index(r->bounds, Bound, i).holds)
            return FALSE;
    return TRUE;
}

/* Elements carried / (cycles x channels of the dimension): each dimension
 * has 2^n directed channels (2^(n-1) edges, two directions). */
double report_utilisation(const Report *r, int dim)
{
    double capacity = (double)r->cycles * (double)machine_nodes(&r->machine);
    if (capacity <= 0)
        return 0;
    return (double)(r->elements_up[dim] + r->elements_down[dim])
           * (double)r->machine.element_time / capacity;
}

gboolean report_lookup(const Report *r, const char *field,
                            double *value)
{
    struct { const char *name; double v; } top[] = {
        { "cycles", (double)r->cycles },
        { "element_transfers", (double)r->element_transfers },
        { "messages", (double)r->messages },
        { "max_channel_elements", (double)r->max_channel_elements },
        { "elements_per_node", (double)r->elements_per_node },
        { "machine.nodes", (double)machine_nodes(&r->machine) },
        { "machine.dimensions", r->machine.dimensions },
        { "machine.startup", (double)r->machine.startup },
        { "machine.element_time", (double)r->machine.element_time },
        { "stats.events", (double)r->events },
    };
    for (size_t i = 0; i < G_N_ELEMENTS(top); i++)
        if (!strcmp(field, top[i].name)) {
            *value = top[i].v;
            return TRUE;
        }
    if (g_str_has_prefix(field, "details.")) {
        const char *key = field + strlen("details.");
        for (guint i = 0; i < r->details->len; i++) {
            const Detail *d = &g_array_index(r->details, Detail, i);
            if (strcmp(d->key, key))
                continue;
            if (d->type == DETAIL_INT)
                *value = (double)d->i;
            else if (d->type == DETAIL_DOUBLE)
                *value = d->d;
            else
                return FALSE;
            return TRUE;
        }
        return FALSE;
    }
    if (g_str_has_prefix(field, "per_dimension.")) {
        const char *p = field + strlen("per_dimension.");
        char *end;
        long d = strtol(p, &end, 10);
        if (end == p || *end != '.' || d < 0 || d >= r->machine.dimensions)
            return FALSE;
        if (!strcmp(end, ".elements_up"))
            *value = (double)r->elements_up[d];
        else if (!strcmp(end, ".elements_down"))
            *value = (double)r->elements_down[d];
        else if (!strcmp(end, ".utilisation"))
            *value = report_utilisation(r, (int)d);
        else
            return FALSE;
        return TRUE;
    }
    return FALSE;
}

/* ---- JSON ------------------------------------------------------------ */

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\t': fputs("\\t", out); break;
        case '\r': fputs("\\r", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

static void json_number(FILE *out, double v)
{
    if (!isfinite(v))
        fputs("null", out);
    else if (v == floor(v) && fabs(v) < 9007199254740992.0)
        fprintf(out, "%.0f", v);
    else
        fprintf(out, "%.17g", v);
}

/* "elements-per-node" -> "elements_per_node": JSON keys use underscores. */
static void json_key(FILE *out, const char *key)
{
    g_autofree char *k = g_strdup(key);
    g_strdelimit(k, "-", '_');
    json_string(out, k);
    fputc(':', out);
}

static void json_details(const Report *r, FILE *out)
{
    fputc('{', out);
    for (guint i = 0; i < r->details->len; i++) {
        const Detail *d = &g_array_index(r->details, Detail, i);
        if (i)
            fputc(',', out);
        json_key(out, d->key);
        switch (d->type) {
        case DETAIL_INT: fprintf(out, "%lld", d->i); break;
        case DETAIL_DOUBLE: json_number(out, d->d); break;
        case DETAIL_TEXT: json_string(out, d->text); break;
        case DETAIL_INT_LIST:
            fputc('[', out);
            for (guint j = 0; j < d->list->len; j++)
                fprintf(out, "%s%lld", j ? "," : "",
                        g_array_index(d->list, long long, j));
            fputc(']', out);
            break;
        }
    }
    fputc('}', out);
}

void report_print_json(const Report *r, FILE *out)
{
    char ports[16];
    const Machine *m = &r->machine;
    fputs("{\"cubemu\":", out);
    json_string(out, CUBEMU_VERSION);
    fputs(",\"scenario\":", out);
    json_string(out, r->scenario);
    fputs(",\"machine\":{\"name\":", out);
    json_string(out, m->name);
    fputs(",\"topology\":", out);
    json_string(out, m->topology);
    fprintf(out, ",\"dimensions\":%d,\"nodes\":%u,\"ports\":", m->dimensions,
            machine_nodes(m));
    if (m->ports == MACHINE_PORTS_ALL)
        json_string(out, machine_ports_text(m, ports));
    else
        fprintf(out, "%d", m->ports);
    fprintf(out, ",\"startup\":%lld,\"element_time\":%lld},",
            (long long)m->startup, (long long)m->element_time);

    fputs("\"algorithm\":{\"name\":", out);
    json_string(out, r->algorithm);
    fputs(",\"method\":", out);
    json_string(out, r->method);
    for (guint i = 0; i < r->params->len; i++) {
        const ParamValue *v = &g_array_index(r->params, ParamValue, i);
        fputc(',', out);
        json_key(out, v->key);
        if (v->is_int)
            fprintf(out, "%lld", v->value);
        else
            json_string(out, v->text);
    }
    fputs("},", out);

    fprintf(out, "\"elements_per_node\":%" G_GUINT64_FORMAT ",\"cycles\":%lld,"
            "\"element_transfers\":%" G_GUINT64_FORMAT ",\"messages\":%"
            G_GUINT64_FORMAT ",\"max_channel_elements\":%" G_GUINT64_FORMAT
            ",\"data_correct\":%s,", r->elements_per_node,
            (long long)r->cycles, r->element_transfers, r->messages,
            r->max_channel_elements, r->data_correct ? "true" : "false");

    fputs("\"bounds\":[", out);
    for (guint i = 0; i < r->bounds->len; i++) {
        const Bound *b = &g_array_index(r->bounds, Bound, i);
        fputs(i ? ",{\"name\":" : "{\"name\":", out);
        json_string(out, b->name);
        fputs(",\"kind\":", out);
        json_string(out, bound_kind_text(b->kind));
        fputs(",\"value\":", out);
        json_number(out, b->value);
        fprintf(out, ",\"holds\":%s,\"source\":", b->holds ? "true" : "false");
        json_string(out, b->source);
        fputc('}', out);
    }
    fputs("],\"per_dimension\":[", out);
    for (int d = 0; d < m->dimensions; d++) {
        fprintf(out, "%s{\"dimension\":%d,\"elements_up\":%" G_GUINT64_FORMAT
                ",\"elements_down\":%" G_GUINT64_FORMAT ",\"utilisation\":",
                d ? "," : "", d, r->elements_up[d], r->elements_down[d]);
        json_number(out, report_utilisation(r, d));
        fputc('}', out);
    }
    fputs("],\"details\":", out);
    json_details(r, out);
    fprintf(out, ",\"stats\":{\"events\":%" G_GUINT64_FORMAT
            ",\"wall_seconds\":%.6f}", r->events, r->wall_seconds);
    if (r->memory) {
        fputs(",\"memory\":[", out);
        uint32_t nodes = machine_nodes(m);
        for (uint32_t x = 0; x < nodes; x++) {
            fputs(x ? ",[" : "[", out);
            for (uint64_t j = 0; j < r->elements_per_node; j++)
                fprintf(out, "%s%" G_GUINT64_FORMAT, j ? "," : "",
                        (guint64)r->memory[x * r->elements_per_node + j]);
            fputc(']', out);
        }
        fputc(']', out);
    }
    fputs("}\n", out);
}

/* ---- table ----------------------------------------------------------- */

static const char *number_text(char buf[32], double v)
{
    g_snprintf(buf, 32, v == floor(v) && fabs(v) < 1e18 ? "%.0f" : "%.4g", v);
    return buf;
}

void report_print_table(const Report *r, FILE *out)
{
    char ports[16];
    const Machine *m = &r->machine;
    fprintf(out, "scenario      %s\n", r->scenario);
    fprintf(out, "machine       %s: %s, n = %d (%u nodes), ports = %s, "
            "startup = %lld, element-time = %lld\n", m->name, m->topology,
            m->dimensions, machine_nodes(m), machine_ports_text(m, ports),
            (long long)m->startup, (long long)m->element_time);
    fprintf(out, "algorithm     %s, method %s", r->algorithm, r->method);
    for (guint i = 0; i < r->params->len; i++) {
        const ParamValue *v = &g_array_index(r->params, ParamValue, i);
        fprintf(out, ", %s = %s", v->key, v->text);
    }
    fprintf(out, "\n\n");
    fprintf(out, "  cycles                %lld\n", (long long)r->cycles);
    fprintf(out, "  element transfers     %" G_GUINT64_FORMAT "\n",
            r->element_transfers);
    fprintf(out, "  messages              %" G_GUINT64_FORMAT "\n", r->messages);
    fprintf(out, "  max channel elements  %" G_GUINT64_FORMAT "\n",
            r->max_channel_elements);
    fprintf(out, "  data                  %s\n",
            r->data_correct ? "correct (placement verified, every element "
                              "present once)"
                            : r->data_problem ? r->data_problem : "WRONG");
    if (r->bounds->len) {
        fprintf(out, "\n  %-60s %-6s %12s %12s  %s\n", "bound", "kind", "value",
                "measured", "holds");
        for (guint i = 0; i < r->bounds->len; i++) {
            const Bound *b = &g_array_index(r->bounds, Bound, i);
            fprintf(out, "  %-60s %-6s ", b->name, bound_kind_text(b->kind));
            char v[32], mv[32];
            fprintf(out, "%12s %12s  %s\n", number_text(v, b->value),
                    number_text(mv, b->measured), b->holds ? "yes" : "NO");
            fprintf(out, "      %s\n", b->source);
        }
    }
    if (r->details->len) {
        fprintf(out, "\n  details\n");
        for (guint i = 0; i < r->details->len; i++) {
            const Detail *d = &g_array_index(r->details, Detail, i);
            fprintf(out, "    %-22s ", d->key);
            switch (d->type) {
            case DETAIL_INT: fprintf(out, "%lld", d->i); break;
            case DETAIL_DOUBLE: {
                char v[32];
                fputs(number_text(v, d->d), out);
                break;
            }
            case DETAIL_TEXT: fputs(d->text, out); break;
            case DETAIL_INT_LIST:
                fputc('{', out);
                for (guint j = 0; j < d->list->len; j++)
                    fprintf(out, "%s%lld", j ? ", " : "",
                            g_array_index(d->list, long long, j));
                fputc('}', out);
                break;
            }
            fputc('\n', out);
        }
    }
    fprintf(out, "\n  %-9s %14s %14s %11s\n", "dimension", "elements up",
            "elements down", "utilisation");
    for (int d = 0; d < m->dimensions; d++)
        fprintf(out, "  %-9d %14" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT
                " %11.4f\n", d, r->elements_up[d], r->elements_down[d],
                report_utilisation(r, d));
    fprintf(out, "\n  events %" G_GUINT64_FORMAT ", wall %.3f s\n", r->events,
            r->wall_seconds);
    if (r->memory) {
        fprintf(out, "\n  memory (node: payloads in offset order)\n");
        uint32_t nodes = machine_nodes(m);
        for (uint32_t x = 0; x < nodes; x++) {
            fprintf(out, "    %u:", x);
            for (uint64_t j = 0; j < r->elements_per_node; j++)
                fprintf(out, " %" G_GUINT64_FORMAT,
                        (guint64)r->memory[x * r->elements_per_node + j]);
            fputc('\n', out);
        }
    }
}
