/* report.c -- run results: builders, field lookup, table and JSON output.
 *
 * The JSON object has exactly the keys documented in docs/report.md
 * (schema REPORT_SCHEMA), written with util/json_writer.h; algorithm-
 * specific values go under "details" only. Keys keep insertion order, so
 * the same run prints the same bytes.
 */
#include "report.h"

#include "json_writer.h"
#include "number.h"

#include <math.h>
#include <string.h>

#ifndef CUBEMU_VERSION
#define CUBEMU_VERSION "0.1.0"
#endif

static void bound_clear(gpointer p)
{
    Bound *b = p;
    g_free(b->name);
    g_free(b->field);
    g_free(b->source);
    g_free(b->reason);
}

static void detail_clear(gpointer p)
{
    Detail *d = p;
    g_free(d->key);
    g_free(d->text);
    if (d->list)
        g_array_unref(d->list);
    g_strfreev(d->columns);
    if (d->values)
        g_array_unref(d->values);
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
    g_free(r->link_up);
    g_free(r->link_down);
    g_free(r->link_busy);
    g_free(r->data_problem);
    for (unsigned i = 0; i < r->nphases; i++)
        g_free(r->phase_name[i]);
    g_array_unref(r->bounds);
    g_array_unref(r->details);
    g_free(r->memory);
    report_free(r->compared);
    g_strfreev(r->compared_set);
    g_strfreev(r->mpi.details_emulator_only);
    g_free(r);
}

void report_set_compared(Report *r, Report *other, char *const *set)
{
    report_free(r->compared);
    g_strfreev(r->compared_set);
    r->compared = other;
    r->compared_set = g_strdupv((char **)set);
}

gboolean report_compared_faultless(const Report *r)
{
    if (!r->compared || !r->machine.faults || r->compared->machine.faults)
        return FALSE;
    for (char **a = r->compared_set; a && *a; a++)
        if (!g_str_has_prefix(*a, "machine.faults="))
            return FALSE;
    return TRUE;
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

/* A bound's measured value: its field's. A bound on a field the report
 * does not carry is the algorithm's mistake, not the user's: it would
 * print a measurement nobody made. */
static double bound_measured(const Report *r, const char *field,
                             const char *name)
{
    double measured = 0;
    if (!report_lookup(r, field, &measured))
        g_error("bound '%s': the report has no field '%s'", name, field);
    return measured;
}

/* Field names compare with '-' and '_' alike: scenario keys are written
 * "elements-per-node", JSON keys "elements_per_node", and a user may type
 * either. */
static char field_char(char c)
{
    return c == '-' ? '_' : c;
}

static gboolean field_starts(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (field_char(a[i]) != field_char(b[i]))
            return FALSE;
        if (!a[i])
            return TRUE;
    }
    return TRUE;
}

static gboolean field_is(const char *a, const char *b)
{
    size_t n = strlen(a);
    return strlen(b) == n && field_starts(a, b, n);
}

static gboolean field_prefix(const char *s, const char *prefix)
{
    size_t n = strlen(prefix);
    return strlen(s) >= n && field_starts(s, prefix, n);
}

/* A field that holds a time messages take part in: the run's, its
 * communication's, or a phase's. (A detail is its algorithm's to judge:
 * matmul's local work is compute alone.) */
static gboolean field_is_communication_time(const char *field)
{
    if (field_is(field, "cycles") || field_is(field, "seconds")
        || field_prefix(field, "time.communication."))
        return TRUE;
    if (!field_prefix(field, "phases."))
        return FALSE;
    const char *what = strrchr(field, '.');
    return field_is(what + 1, "cycles") || field_is(what + 1, "communication");
}

/* The engine's counts of what the faults did (report.h). */
static const char *const faults_measured[] = {
    "detoured", "extra_links", "extra_links_max", "routes_given_up", NULL
};

gboolean report_field_emulator_only(const char *field)
{
    if (field_is(field, "cycles") || field_is(field, "seconds")
        || field_is(field, "stats.events") || field_prefix(field, "time.")
        || field_prefix(field, "phases."))
        return TRUE;
    if (field_prefix(field, "faults.")) {
        for (const char *const *f = faults_measured; *f; f++)
            if (field_is(field + strlen("faults."), *f))
                return TRUE;
        return FALSE;
    }
    if (!field_prefix(field, "per_link."))
        return FALSE;
    const char *what = strrchr(field, '.');
    return field_is(what + 1, "utilisation");
}

/* A bound on a field the report's backend does not measure: left out, and
 * counted (report.h). TRUE if it was. */
static gboolean bound_unmeasured(Report *r, const char *field)
{
    if (r->backend != REPORT_BACKEND_MPI || !report_field_emulator_only(field))
        return FALSE;
    r->mpi.bounds_emulator_only++;
    return TRUE;
}

gboolean report_field_unmeasured(const Report *r, const char *field)
{
    if (r->backend != REPORT_BACKEND_MPI)
        return FALSE;
    if (report_field_emulator_only(field))
        return TRUE;
    if (!field_prefix(field, "details."))
        return FALSE;
    const char *key = field + strlen("details.");
    for (char **d = r->mpi.details_emulator_only; d && *d; d++) {
        size_t len = strlen(*d);
        if (field_is(key, *d) || (field_starts(key, *d, len)
                                  && key[len] == '.'))
            return TRUE;
    }
    return FALSE;
}

/* Whether class c (or, with c < 0, any class) is priced on memory paths
 * and carried elements in this run (a class that carried none delayed
 * nothing). */
static gboolean paths_carried(const Report *r, int c)
{
    for (int k = 0; k < CLASS_COUNT; k++)
        if ((c < 0 || k == c) && r->machine.price[k].memory_path
            && r->class_elements[k] > 0)
            return TRUE;
    return FALSE;
}

/* The papers' bounds on time count element-times on the channels. A
 * class priced on the nodes' memory paths too (machine-model.md, "Memory
 * paths") adds resources an element waits for, which only delay it:
 * where such a class carried elements, a lower bound on a communication
 * time still holds, an upper or exact one is not this machine's, and is
 * reported n/a, with the reason, rather than as broken. TRUE if it was. */
static gboolean time_bound_na(Report *r, int c, const char *field,
                              const char *name, BoundKind kind,
                              const char *source)
{
    if (kind == BOUND_LOWER || !paths_carried(r, c))
        return FALSE;
    report_bound_na(r, field, name, kind,
                    "the machine prices memory paths, which the bound's "
                    "model of channels alone leaves out", source);
    return TRUE;
}

gboolean report_field_faults_change(const char *field)
{
    if (field_is_communication_time(field)
        || field_is(field, "element_transfers")
        || field_is(field, "max_channel_elements")
        || field_is(field, "stats.events") || field_prefix(field, "per_link."))
        return TRUE;
    if (!field_prefix(field, "per_class."))
        return FALSE;
    const char *what = strrchr(field, '.');
    return field_is(what + 1, "element_transfers");
}

/* On a machine with faults, a bound the fault-free machine's model gives
 * (report.h, report_field_faults_change; every bound on a time ALWAYS):
 * listed n/a with the faults as the reason. TRUE if it was. */
static gboolean faults_bound_na(Report *r, gboolean always, const char *field,
                                const char *name, BoundKind kind,
                                const char *source)
{
    if (!r->machine.faults || !(always || report_field_faults_change(field)))
        return FALSE;
    /* One reason for every fault set, so that a sweep over faults
     * groups the runs it leaves out under it; the faults themselves are
     * on the report's machine line and in its faults. */
    report_bound_na(r, field, name, kind, "the machine has faults: the "
                    "bound is the fault-free machine's", source);
    return TRUE;
}

void report_class_time_bound(Report *r, MessageClass c, const char *field,
                             const char *name, BoundKind kind, double value,
                             const char *source)
{
    if (bound_unmeasured(r, field)
        || faults_bound_na(r, TRUE, field, name, kind, source))
        return;
    if (!time_bound_na(r, (int)c, field, name, kind, source))
        report_bound(r, field, name, kind, value, source);
}

/* A bound that applies, evaluated against its field's measured value. */
static void bound_add(Report *r, const char *field, const char *name,
                      BoundKind kind, double value, const char *source)
{
    double measured = bound_measured(r, field, name);
    Bound b = { g_strdup(name), g_strdup(field), kind, value, measured,
                TRUE, FALSE, g_strdup(source), NULL };
    switch (kind) {
    case BOUND_UPPER: b.holds = measured <= value; break;
    case BOUND_LOWER: b.holds = measured >= value; break;
    case BOUND_EXACT: b.holds = measured == value; break;
    }
    g_array_append_val(r->bounds, b);
}

void report_bound(Report *r, const char *field, const char *name,
                  BoundKind kind, double value, const char *source)
{
    if (bound_unmeasured(r, field)
        || faults_bound_na(r, FALSE, field, name, kind, source))
        return;
    if (field_is_communication_time(field)
        && time_bound_na(r, -1, field, name, kind, source))
        return;
    bound_add(r, field, name, kind, value, source);
}

void report_cycle_bound(Report *r, const char *name,
                             BoundKind kind, double value,
                             const char *source)
{
    report_bound(r, "cycles", name, kind, value, source);
}

/* The route guarantee of the cube's scheme (faults.h): a route the scheme
 * finds is at most H + 2 links, H the Hamming distance, and a path asked
 * is at least H long, so no message takes more than this many links
 * beyond the path it asked for, unless the scheme gave up on its route. */
#define REPORT_SCHEME_EXTRA_LINKS 2

#define ROUTE_BOUND "route length: links beyond the path asked, one message"
#define ROUTE_SOURCE "Lee & Hayes, IEEE Trans. Computers 41(10), 1992: the " \
    "scheme's route is at most the Hamming distance + 2 links, which no " \
    "path asked is shorter than"

static void faults_route_bound(Report *r)
{
    const Faults *f = r->machine.faults;
    if (!f || r->backend != REPORT_BACKEND_EMULATOR)
        return;
    if (!faults_have_scheme(f)) {
        report_bound_na(r, "faults.extra_links_max", ROUTE_BOUND, BOUND_UPPER,
                        "the topology has no fault-tolerant scheme: its "
                        "routes around faults are the shortest surviving "
                        "paths, which no bound ties to the path asked",
                        ROUTE_SOURCE);
    } else if (r->routes_given_up > 0) {
        g_autofree char *reason = g_strdup_printf(
            "the scheme gave up on %" G_GUINT64_FORMAT " route%s for the "
            "shortest surviving path (faults.routes_given_up: its condition "
            "failed, or a one-way fault it does not model)",
            r->routes_given_up, r->routes_given_up == 1 ? "" : "s");
        report_bound_na(r, "faults.extra_links_max", ROUTE_BOUND, BOUND_UPPER,
                        reason, ROUTE_SOURCE);
    } else {
        bound_add(r, "faults.extra_links_max", ROUTE_BOUND, BOUND_UPPER,
                  REPORT_SCHEME_EXTRA_LINKS, ROUTE_SOURCE);
    }
}

/* Both are measured in this run, on this machine: neither is the
 * fault-free machine's, so faults leave them standing. */
void report_machine_bounds(Report *r)
{
    faults_route_bound(r);
    if (!paths_carried(r, -1))
        return;
    g_autofree char *source = g_strdup_printf(
        "each node's one memory path carries every element it sends and "
        "receives, one at a time (machine model, \"Memory paths\"): node "
        "%u's is busiest", (unsigned)r->path_busiest);
    if (!bound_unmeasured(r, "cycles"))
        bound_add(r, "cycles", "memory paths: the busiest node's path",
                  BOUND_LOWER, (double)r->path_busy_max, source);
}

void report_bound_na(Report *r, const char *field, const char *name,
                     BoundKind kind, const char *reason, const char *source)
{
    if (bound_unmeasured(r, field))
        return;
    Bound b = { g_strdup(name), g_strdup(field), kind, NAN,
                bound_measured(r, field, name),
                FALSE, FALSE, g_strdup(source), g_strdup(reason) };
    g_array_append_val(r->bounds, b);
}

static Detail *report_detail(Report *r, const char *key,
                                 DetailType type)
{
    Detail d = { g_strdup(key), type, 0, 0, NULL, NULL, NULL, NULL };
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

void report_detail_rows(Report *r, const char *key,
                        const char *const *columns, const long long *v,
                        size_t rows)
{
    size_t n = rows * g_strv_length((char **)columns);
    report_detail_list(r, key, v, n);
    Detail *d = &g_array_index(r->details, Detail, r->details->len - 1);
    d->type = DETAIL_ROWS;
    d->columns = g_strdupv((char **)columns);
}

void report_detail_object(Report *r, const char *key,
                          const char *const *names, const double *v)
{
    guint n = g_strv_length((char **)names);
    Detail *d = report_detail(r, key, DETAIL_OBJECT);
    d->columns = g_strdupv((char **)names);
    d->values = g_array_sized_new(FALSE, FALSE, sizeof(double), n);
    g_array_append_vals(d->values, v, n);
}

gboolean report_bounds_hold(const Report *r)
{
    for (guint i = 0; i < r->bounds->len; i++) {
        const Bound *b = &g_array_index(r->bounds, Bound, i);
        if (b->applies && !b->holds)
            return FALSE;
    }
    return TRUE;
}

const char *element_type_name(ElementType type)
{
    switch (type) {
    case ELEMENT_WORD: return "word";
    case ELEMENT_DOUBLE: return "double";
    case ELEMENT_COMPLEX: return "complex";
    }
    return "?";
}

static double word_double(Word w)
{
    double d;
    memcpy(&d, &w, sizeof d);
    return d;
}

char *element_text(ElementType type, const Word *words)
{
    char re[G_ASCII_DTOSTR_BUF_SIZE], im[G_ASCII_DTOSTR_BUF_SIZE];
    switch (type) {
    case ELEMENT_WORD:
        return g_strdup_printf("%" G_GUINT64_FORMAT, (guint64)words[0]);
    case ELEMENT_DOUBLE:
        return g_strdup(g_ascii_formatd(re, sizeof re, "%.17g",
                                        word_double(words[0])));
    case ELEMENT_COMPLEX: {
        double b = word_double(words[1]);
        g_ascii_formatd(re, sizeof re, "%.17g", word_double(words[0]));
        g_ascii_formatd(im, sizeof im, "%.17g", fabs(b));
        return g_strdup_printf("%s%s%si", re, signbit(b) ? "-" : "+", im);
    }
    }
    return g_strdup("?");
}

void report_take_stats(Report *r, const SimStats *st,
                       const char *const *phase_names)
{
    int links = r->machine.topology.links;
    uint32_t nodes = machine_nodes(&r->machine);
    r->cycles = st->cycles;
    r->element_transfers = st->element_transfers;
    r->messages = st->messages;
    r->elements_sent = st->elements_sent;
    r->max_channel_elements = st->max_channel_elements;
    r->events = st->events;
    r->path_busy_max = st->path_busy_max;
    r->path_busiest = st->path_busiest;
    r->detoured = st->detoured;
    r->extra_links = st->extra_hops;
    r->extra_links_max = st->extra_hops_max;
    r->routes_given_up = st->routes_given_up;
    memcpy(r->class_messages, st->class_messages, sizeof r->class_messages);
    memcpy(r->class_elements, st->class_elements, sizeof r->class_elements);
    memcpy(r->class_transfers, st->class_transfers, sizeof r->class_transfers);
    r->link_up = g_memdup2(st->link_up, sizeof(uint64_t) * (size_t)links);
    r->link_down = g_memdup2(st->link_down, sizeof(uint64_t) * (size_t)links);
    r->link_busy = g_memdup2(st->link_busy, sizeof(uint64_t) * (size_t)links);
    double compute = 0, comm = 0;
    for (uint32_t x = 0; x < nodes; x++) {
        Tick c = st->compute[x], w = st->finished[x] - st->compute[x];
        compute += (double)c;
        comm += (double)w;
        r->compute_max = MAX(r->compute_max, c);
        r->communication_max = MAX(r->communication_max, w);
    }
    r->compute_mean = compute / nodes;
    r->communication_mean = comm / nodes;
    r->nphases = st->phases;
    for (unsigned p = 0; p < st->phases; p++) {
        r->phase_name[p] = g_strdup(phase_names[p]);
        r->phase[p] = st->phase[p];
    }
}

double report_utilisation(const Report *r, int link)
{
    double capacity = (double)r->cycles
                      * (double)topology_link_channels(&r->machine.topology, link);
    if (capacity <= 0)
        return 0;
    return (double)r->link_busy[link] / capacity;
}

double report_seconds(const Report *r, Tick ticks)
{
    return (double)ticks * r->machine.tick_seconds;
}

const Detail *report_find_detail(const Report *r, const char *key)
{
    for (guint i = 0; i < r->details->len; i++) {
        const Detail *d = &g_array_index(r->details, Detail, i);
        if (!strcmp(d->key, key))
            return d;
    }
    return NULL;
}


/* The faults' fields, in output order (the JSON's "faults"): what was
 * broken, then what the engine counted (faults_measured). */
const char *const report_faults_fields[] = {
    "links", "channels", "timed", "dead_nodes", "detoured", "extra_links",
    "extra_links_max", "routes_given_up", NULL
};

/* faults.NAME: 0 on a machine without faults (none named, none
 * detoured), so that an [expect] may say so and a sweep from
 * faults = none up has a number in every row. */
static gboolean faults_lookup(const Report *r, const char *name,
                              double *value)
{
    FaultCounts c = { 0 };
    if (r->machine.faults)
        c = faults_counts(r->machine.faults);
    const double v[] = {
        c.links, c.channels, c.timed, c.nodes, (double)r->detoured,
        (double)r->extra_links, (double)r->extra_links_max,
        (double)r->routes_given_up,
    };
    G_STATIC_ASSERT(G_N_ELEMENTS(v) + 1 == G_N_ELEMENTS(report_faults_fields));
    for (size_t i = 0; report_faults_fields[i]; i++)
        if (field_is(name, report_faults_fields[i])) {
            *value = v[i];
            return TRUE;
        }
    return FALSE;
}

gboolean report_lookup(const Report *r, const char *field, double *value)
{
    const Machine *m = &r->machine;
    if (r->backend == REPORT_BACKEND_MPI && report_field_emulator_only(field))
        return FALSE;
    struct { const char *name; double v; gboolean present; } top[] = {
        { "cycles", (double)r->cycles, TRUE },
        { "seconds", report_seconds(r, r->cycles), m->tick_seconds > 0 },
        { "element_transfers", (double)r->element_transfers, TRUE },
        { "messages", (double)r->messages, TRUE },
        { "max_channel_elements", (double)r->max_channel_elements, TRUE },
        { "elements_per_node", (double)r->elements_per_node, TRUE },
        { "machine.nodes", (double)machine_nodes(m), TRUE },
        { "machine.diameter", m->topology.diameter, TRUE },
        { "machine.startup", (double)m->price[CLASS_NEIGHBOUR].startup, TRUE },
        { "machine.element_time",
          (double)m->price[CLASS_NEIGHBOUR].element_time, TRUE },
        { "stats.events", (double)r->events, TRUE },
        { "time.compute.max", (double)r->compute_max, TRUE },
        { "time.compute.mean", r->compute_mean, TRUE },
        { "time.communication.max", (double)r->communication_max, TRUE },
        { "time.communication.mean", r->communication_mean, TRUE },
    };
    for (size_t i = 0; i < G_N_ELEMENTS(top); i++)
        if (field_is(field, top[i].name)) {
            *value = top[i].v;
            return top[i].present;
        }
    if (field_prefix(field, "faults."))
        return faults_lookup(r, field + strlen("faults."), value);
    if (field_prefix(field, "machine.")) {
        /* The topology's own numbers (a cube's dimensions). */
        const Topology *t = &m->topology;
        const char *name;
        double v;
        for (int i = 0; t->ops->number && t->ops->number(t, i, &name, &v); i++)
            if (field_is(field + strlen("machine."), name)) {
                *value = v;
                return TRUE;
            }
        return FALSE;
    }
    if (field_prefix(field, "details.")) {
        const char *key = field + strlen("details.");
        for (guint i = 0; i < r->details->len; i++) {
            const Detail *d = &g_array_index(r->details, Detail, i);
            size_t len = strlen(d->key);
            if (d->type == DETAIL_OBJECT && field_starts(d->key, key, len)
                && key[len] == '.') {
                for (guint j = 0; j < d->values->len; j++)
                    if (field_is(d->columns[j], key + len + 1)) {
                        *value = g_array_index(d->values, double, j);
                        return TRUE;
                    }
                return FALSE;
            }
            if (!field_is(d->key, key))
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
    if (field_prefix(field, "phases.")) {
        const char *p = field + strlen("phases.");
        for (unsigned i = 0; i < r->nphases; i++) {
            size_t len = strlen(r->phase_name[i]);
            if (!field_starts(p, r->phase_name[i], len) || p[len] != '.')
                continue;
            const char *what = p + len + 1;
            const SimPhase *ph = &r->phase[i];
            if (field_is(what, "cycles"))
                *value = (double)ph->time_max;
            else if (field_is(what, "compute"))
                *value = (double)ph->compute_max;
            else if (field_is(what, "communication"))
                *value = (double)ph->communication_max;
            else if (field_is(what, "seconds") && m->tick_seconds > 0)
                *value = report_seconds(r, ph->time_max);
            else
                return FALSE;
            return TRUE;
        }
        return FALSE;
    }
    if (field_prefix(field, "per_class.")) {
        const char *p = field + strlen("per_class.");
        for (MessageClass c = 0; c < CLASS_COUNT; c++) {
            const char *name = message_class_name(c);
            size_t len = strlen(name);
            if (!field_starts(p, name, len) || p[len] != '.'
                || !topology_has_class(m->topology.ops, c))
                continue;
            const char *what = p + len + 1;
            if (field_is(what, "messages"))
                *value = (double)r->class_messages[c];
            else if (field_is(what, "elements"))
                *value = (double)r->class_elements[c];
            else if (field_is(what, "element_transfers"))
                *value = (double)r->class_transfers[c];
            else
                return FALSE;
            return TRUE;
        }
        return FALSE;
    }
    if (field_prefix(field, "per_link.")) {
        const char *p = field + strlen("per_link.");
        char *end;
        long l = strtol(p, &end, 10);
        if (end == p || *end != '.' || l < 0 || l >= m->topology.links)
            return FALSE;
        if (field_is(end, ".elements_up"))
            *value = (double)r->link_up[l];
        else if (field_is(end, ".elements_down"))
            *value = (double)r->link_down[l];
        else if (field_is(end, ".utilisation"))
            *value = report_utilisation(r, (int)l);
        else
            return FALSE;
        return TRUE;
    }
    return FALSE;
}

/* Per-link columns only up to this many links: a sweep over a large
 * complete graph would otherwise get P columns per run. */
#define REPORT_FIELDS_MAX_LINKS 64

char **report_fields(const Report *r)
{
    static const char *const top[] = {
        "cycles", "seconds", "element_transfers", "messages",
        "max_channel_elements", "elements_per_node", "machine.nodes", NULL
    };
    static const char *const after[] = {
        "machine.diameter", "machine.startup",
        "machine.element_time", "stats.events", "time.compute.max",
        "time.compute.mean", "time.communication.max",
        "time.communication.mean", NULL
    };
    GPtrArray *f = g_ptr_array_new();
    double v;
    for (const char *const *t = top; *t; t++)
        if (report_lookup(r, *t, &v))
            g_ptr_array_add(f, g_strdup(*t));
    /* The topology's own numbers follow the node count. */
    const Topology *tp = &r->machine.topology;
    const char *name;
    for (int i = 0; tp->ops->number && tp->ops->number(tp, i, &name, &v); i++)
        g_ptr_array_add(f, g_strdup_printf("machine.%s", name));
    for (const char *const *t = after; *t; t++)
        if (report_lookup(r, *t, &v))
            g_ptr_array_add(f, g_strdup(*t));
    for (const char *const *t = report_faults_fields; *t; t++) {
        char *name = g_strdup_printf("faults.%s", *t);
        if (report_lookup(r, name, &v))
            g_ptr_array_add(f, name);
        else
            g_free(name);
    }
    for (MessageClass c = 0; c < CLASS_COUNT; c++) {
        if (!topology_has_class(r->machine.topology.ops, c))
            continue;
        static const char *const parts[] = { "messages", "elements",
                                             "element_transfers" };
        for (size_t i = 0; i < G_N_ELEMENTS(parts); i++)
            g_ptr_array_add(f, g_strdup_printf("per_class.%s.%s",
                                               message_class_name(c), parts[i]));
    }
    for (unsigned i = 0; i < r->nphases; i++) {
        static const char *const parts[] = { "cycles", "compute",
                                             "communication", "seconds" };
        for (size_t j = 0; j < G_N_ELEMENTS(parts); j++) {
            char *name = g_strdup_printf("phases.%s.%s", r->phase_name[i],
                                         parts[j]);
            if (report_lookup(r, name, &v))
                g_ptr_array_add(f, name);
            else
                g_free(name);
        }
    }
    int links = r->machine.topology.links;
    for (int l = 0; l < links && links <= REPORT_FIELDS_MAX_LINKS; l++) {
        static const char *const parts[] = { "elements_up", "elements_down",
                                             "utilisation" };
        for (size_t i = 0; i < G_N_ELEMENTS(parts); i++) {
            char *name = g_strdup_printf("per_link.%d.%s", l, parts[i]);
            if (report_lookup(r, name, &v))
                g_ptr_array_add(f, name);
            else
                g_free(name);
        }
    }
    for (guint i = 0; i < r->details->len; i++) {
        const Detail *d = &g_array_index(r->details, Detail, i);
        if (d->type == DETAIL_INT || d->type == DETAIL_DOUBLE)
            g_ptr_array_add(f, g_strdup_printf("details.%s", d->key));
        for (guint j = 0; d->type == DETAIL_OBJECT && j < d->values->len; j++)
            g_ptr_array_add(f, g_strdup_printf("details.%s.%s", d->key,
                                               d->columns[j]));
    }
    for (guint i = 0; i < r->bounds->len; i++)
        g_ptr_array_add(f, g_strdup_printf("bound.%s",
                        g_array_index(r->bounds, Bound, i).name));
    g_ptr_array_add(f, NULL);
    return (char **)g_ptr_array_free(f, FALSE);
}

/* ---- JSON ------------------------------------------------------------ */

/* Written with util/json_writer.h: keys in the documented order, numbers in
 * their shortest exact form, so the same run prints the same bytes. The
 * wall-clock fields, the only ones that differ between identical runs,
 * are printed only under "timing" (REPORT_JSON_TIMING). */

/* "elements-per-node" -> "elements_per_node": JSON keys use underscores. */
static void json_key(JsonWriter *w, const char *key)
{
    g_autofree char *k = g_strdup(key);
    g_strdelimit(k, "-", '_');
    json_writer_key(w, k);
}

/* An integral double prints as an integer, anything else in its shortest
 * exact form, NaN and infinities as null (json_format_double). */
static void json_number(JsonWriter *w, const char *key, double v)
{
    json_writer_key(w, key);
    json_writer_double(w, v);
}

static void json_int(JsonWriter *w, const char *key, gint64 v)
{
    json_writer_key(w, key);
    json_writer_int(w, v);
}

static void json_uint(JsonWriter *w, const char *key, guint64 v)
{
    json_writer_key(w, key);
    json_writer_uint(w, v);
}

static void json_text(JsonWriter *w, const char *key, const char *v)
{
    json_writer_key(w, key);
    json_writer_string(w, v);
}

static void json_bool(JsonWriter *w, const char *key, gboolean v)
{
    json_writer_key(w, key);
    json_writer_bool(w, v);
}

/* {"max": max, "mean": mean} */
static void json_max_mean(JsonWriter *w, const char *key, double max,
                          double mean)
{
    json_writer_key(w, key);
    json_writer_begin_object(w);
    json_number(w, "max", max);
    json_number(w, "mean", mean);
    json_writer_end_object(w);
}

static const char *json_backend_name(ReportBackend backend)
{
    return backend == REPORT_BACKEND_MPI ? "mpi" : "emulator";
}

static void json_machine(JsonWriter *w, const Machine *m)
{
    const Topology *t = &m->topology;
    char ports[16];
    json_writer_key(w, "machine");
    json_writer_begin_object(w);
    json_text(w, "name", m->name);
    json_text(w, "topology", t->ops->name);
    t->ops->describe_json(t, w);
    json_int(w, "nodes", t->nodes);
    json_int(w, "links", t->links);
    json_int(w, "diameter", t->diameter);
    json_writer_key(w, "ports");
    if (m->ports == MACHINE_PORTS_ALL)
        json_writer_string(w, machine_ports_text(m, ports));
    else
        json_writer_int(w, m->ports);
    json_int(w, "startup", m->price[CLASS_NEIGHBOUR].startup);
    json_int(w, "element_time", m->price[CLASS_NEIGHBOUR].element_time);
    json_writer_key(w, "pricing");
    json_writer_begin_object(w);
    for (MessageClass c = 0; c < CLASS_COUNT; c++) {
        if (!topology_has_class(t->ops, c))
            continue;
        json_writer_key(w, message_class_name(c));
        json_writer_begin_object(w);
        json_int(w, "startup", m->price[c].startup);
        json_int(w, "element_time", m->price[c].element_time);
        json_bool(w, "memory_path", m->price[c].memory_path);
        json_writer_end_object(w);
    }
    json_writer_end_object(w);
    json_bool(w, "startup_holds_port", m->startup_holds_port);
    json_int(w, "flop_time", m->flop_time);
    if (m->tick_seconds > 0)
        json_number(w, "tick_seconds", m->tick_seconds);
    if (m->model == MACHINE_MODEL_LOGGP) {
        json_writer_key(w, "loggp");
        json_writer_begin_object(w);
        json_int(w, "L", (long long)m->loggp.L);
        json_int(w, "o", (long long)m->loggp.o);
        json_int(w, "g", (long long)m->loggp.g);
        json_int(w, "G", (long long)m->loggp.G);
        json_int(w, "O", (long long)m->loggp.O);
        json_int(w, "S", (long long)m->loggp.S);
        json_writer_end_object(w);
    }
    json_writer_end_object(w);
}

static void json_algorithm(JsonWriter *w, const Report *r)
{
    json_writer_key(w, "algorithm");
    json_writer_begin_object(w);
    json_text(w, "name", r->algorithm);
    json_text(w, "method", r->method);
    for (guint i = 0; i < r->params->len; i++) {
        const ParamValue *v = &g_array_index(r->params, ParamValue, i);
        json_key(w, v->key);
        if (v->is_int)
            json_writer_int(w, v->value);
        else
            json_writer_string(w, v->text);
    }
    json_writer_end_object(w);
}

/* A bound that does not apply carries no value and is never evaluated:
 * value and holds are null. */
static void json_bounds(JsonWriter *w, const Report *r)
{
    json_writer_key(w, "bounds");
    json_writer_begin_array(w);
    for (guint i = 0; i < r->bounds->len; i++) {
        const Bound *bd = &g_array_index(r->bounds, Bound, i);
        json_writer_begin_object(w);
        json_text(w, "name", bd->name);
        json_text(w, "field", bd->field);
        json_text(w, "kind", bound_kind_text(bd->kind));
        json_writer_key(w, "value");
        if (bd->applies)
            json_writer_double(w, bd->value);
        else
            json_writer_null(w);
        json_number(w, "measured", bd->measured);
        json_bool(w, "applies", bd->applies);
        json_writer_key(w, "holds");
        if (bd->applies)
            json_writer_bool(w, bd->holds);
        else
            json_writer_null(w);
        json_text(w, "source", bd->source);
        json_writer_key(w, "reason");
        if (bd->applies)
            json_writer_null(w);
        else
            json_writer_string(w, bd->reason);
        json_writer_end_object(w);
    }
    json_writer_end_array(w);
}

static void json_per_class(JsonWriter *w, const Report *r)
{
    json_writer_key(w, "per_class");
    json_writer_begin_array(w);
    for (MessageClass c = 0; c < CLASS_COUNT; c++) {
        if (!topology_has_class(r->machine.topology.ops, c))
            continue;
        json_writer_begin_object(w);
        json_text(w, "class", message_class_name(c));
        json_uint(w, "messages", r->class_messages[c]);
        json_uint(w, "elements", r->class_elements[c]);
        json_uint(w, "element_transfers", r->class_transfers[c]);
        json_writer_end_object(w);
    }
    json_writer_end_array(w);
}

/* The utilisation is the emulator's: it divides by the cycles. */
static void json_per_link(JsonWriter *w, const Report *r)
{
    const Topology *t = &r->machine.topology;
    json_writer_key(w, "per_link");
    json_writer_begin_array(w);
    for (int l = 0; l < t->links; l++) {
        char name[TOPOLOGY_LINK_NAME_MAX];
        topology_link_name(t, l, name, sizeof name);
        json_writer_begin_object(w);
        json_int(w, "link", l);
        json_text(w, "name", name);
        json_uint(w, "elements_up", r->link_up[l]);
        json_uint(w, "elements_down", r->link_down[l]);
        if (r->backend == REPORT_BACKEND_EMULATOR)
            json_number(w, "utilisation", report_utilisation(r, l));
        json_writer_end_object(w);
    }
    json_writer_end_array(w);
}

static void json_time(JsonWriter *w, const Report *r)
{
    json_writer_key(w, "time");
    json_writer_begin_object(w);
    json_max_mean(w, "compute", (double)r->compute_max, r->compute_mean);
    json_max_mean(w, "communication", (double)r->communication_max,
                  r->communication_mean);
    json_writer_end_object(w);
}

static void json_phases(JsonWriter *w, const Report *r)
{
    json_writer_key(w, "phases");
    json_writer_begin_array(w);
    for (unsigned i = 0; i < r->nphases; i++) {
        const SimPhase *ph = &r->phase[i];
        double n = ph->nodes ? (double)ph->nodes : 1;
        json_writer_begin_object(w);
        json_text(w, "name", r->phase_name[i]);
        json_uint(w, "nodes", ph->nodes);
        json_max_mean(w, "cycles", (double)ph->time_max, ph->time_sum / n);
        json_max_mean(w, "compute", (double)ph->compute_max,
                      ph->compute_sum / n);
        json_max_mean(w, "communication", (double)ph->communication_max,
                      ph->communication_sum / n);
        if (r->machine.tick_seconds > 0)
            json_number(w, "seconds", report_seconds(r, ph->time_max));
        json_writer_end_object(w);
    }
    json_writer_end_array(w);
}

static void json_details(JsonWriter *w, const Report *r)
{
    json_writer_key(w, "details");
    json_writer_begin_object(w);
    for (guint i = 0; i < r->details->len; i++) {
        const Detail *d = &g_array_index(r->details, Detail, i);
        json_key(w, d->key);
        switch (d->type) {
        case DETAIL_INT: json_writer_int(w, d->i); break;
        case DETAIL_DOUBLE: json_writer_double(w, d->d); break;
        case DETAIL_TEXT: json_writer_string(w, d->text); break;
        case DETAIL_INT_LIST:
            json_writer_begin_array(w);
            for (guint j = 0; j < d->list->len; j++)
                json_writer_int(w, g_array_index(d->list, long long, j));
            json_writer_end_array(w);
            break;
        case DETAIL_OBJECT:
            json_writer_begin_object(w);
            for (guint j = 0; j < d->values->len; j++) {
                json_key(w, d->columns[j]);
                json_writer_double(w, g_array_index(d->values, double, j));
            }
            json_writer_end_object(w);
            break;
        case DETAIL_ROWS: {
            guint cols = g_strv_length(d->columns);
            json_writer_begin_array(w);
            for (guint j = 0; cols && j < d->list->len; j += cols) {
                json_writer_begin_object(w);
                for (guint c = 0; c < cols; c++) {
                    json_key(w, d->columns[c]);
                    json_writer_int(w, g_array_index(d->list, long long,
                                                     j + c));
                }
                json_writer_end_object(w);
            }
            json_writer_end_array(w);
            break;
        }
        }
    }
    json_writer_end_object(w);
}

/* The backend's own counters: the engine's events, or the MPI ranks'
 * traffic. Nothing here depends on the clock. */
static void json_stats(JsonWriter *w, const Report *r)
{
    json_writer_key(w, "stats");
    json_writer_begin_object(w);
    if (r->backend == REPORT_BACKEND_MPI) {
        const ReportMpi *mpi = &r->mpi;
        json_int(w, "ranks", mpi->ranks);
        json_uint(w, "forwards", mpi->forwards);
        json_max_mean(w, "messages_per_rank", mpi->messages_per_rank_max,
                      mpi->messages_per_rank_mean);
        json_max_mean(w, "bytes_per_rank", mpi->bytes_per_rank_max,
                      mpi->bytes_per_rank_mean);
    } else {
        json_uint(w, "events", r->events);
    }
    json_writer_end_object(w);
}

/* The wall-clock fields (REPORT_JSON_TIMING): the emulator's run (every
 * attempt, run.h's RunOrder), or the slowest rank's from the barrier to
 * its last step and MPI_Wtime per phase. */
static void json_timing(JsonWriter *w, const Report *r)
{
    json_writer_key(w, "timing");
    json_writer_begin_object(w);
    json_number(w, "wall_seconds", r->wall_seconds);
    if (r->backend == REPORT_BACKEND_MPI) {
        const ReportMpi *mpi = &r->mpi;
        json_writer_key(w, "phases");
        json_writer_begin_array(w);
        for (unsigned i = 0; i < mpi->phases; i++) {
            json_writer_begin_object(w);
            json_text(w, "name", mpi->phase_name[i]);
            json_int(w, "nodes", mpi->phase_nodes[i]);
            json_max_mean(w, "seconds", mpi->phase_seconds_max[i],
                          mpi->phase_seconds_mean[i]);
            json_writer_end_object(w);
        }
        json_writer_end_array(w);
    }
    json_writer_end_object(w);
}

static void json_element(JsonWriter *w, ElementType type, const Word *v)
{
    switch (type) {
    case ELEMENT_WORD:
        json_writer_int(w, (gint64)v[0]);
        break;
    case ELEMENT_DOUBLE:
        json_writer_double(w, word_double(v[0]));
        break;
    case ELEMENT_COMPLEX:
        json_writer_begin_array(w);
        json_writer_double(w, word_double(v[0]));
        json_writer_double(w, word_double(v[1]));
        json_writer_end_array(w);
        break;
    }
}

static void json_memory(JsonWriter *w, const Report *r)
{
    size_t words = element_words(r->element);
    uint32_t nodes = machine_nodes(&r->machine);
    json_writer_key(w, "memory");
    json_writer_begin_array(w);
    for (uint32_t x = 0; x < nodes; x++) {
        json_writer_begin_array(w);
        for (uint64_t j = 0; j < r->elements_per_node; j++)
            json_element(w, r->element,
                         r->memory + (x * r->elements_per_node + j) * words);
        json_writer_end_array(w);
    }
    json_writer_end_array(w);
}

/* What the faults cost against the same run without them
 * (report_compared_faultless): the extra cycles, and them in percent of
 * the faultless run's (NAN when that took no cycles). */
static void faults_cost(const Report *r, long long *extra, double *percent)
{
    Tick without = r->compared->cycles;
    *extra = (long long)r->cycles - (long long)without;
    *percent = without > 0 ? 100.0 * (double)*extra / (double)without : NAN;
}

/* "faults": what was broken, and (emulator) what the engine did about it;
 * absent on a machine without faults. */
static void json_faults(JsonWriter *w, const Report *r)
{
    const Faults *f = r->machine.faults;
    FaultCounts c = faults_counts(f);
    g_autofree char *list = faults_text(f);
    json_writer_key(w, "faults");
    json_writer_begin_object(w);
    json_text(w, "spec", faults_spec(f));
    json_text(w, "list", list);
    json_uint(w, "links", c.links);
    json_uint(w, "channels", c.channels);
    json_uint(w, "timed", c.timed);
    json_uint(w, "dead_nodes", c.nodes);
    json_text(w, "policy", machine_fault_policy_name(r->machine.fault_policy));
    if (r->backend == REPORT_BACKEND_EMULATOR) {
        json_uint(w, "detoured", r->detoured);
        json_uint(w, "extra_links", r->extra_links);
        json_uint(w, "extra_links_max", r->extra_links_max);
        json_uint(w, "routes_given_up", r->routes_given_up);
    }
    if (report_compared_faultless(r)) {
        long long extra;
        double percent;
        faults_cost(r, &extra, &percent);
        json_writer_key(w, "faultless");
        json_writer_begin_object(w);
        json_int(w, "cycles", r->compared->cycles);
        json_int(w, "extra_cycles", extra);
        if (!isnan(percent))
            json_number(w, "extra_percent", percent);
        json_writer_end_object(w);
    }
    json_writer_end_object(w);
}

/* "compared": what the run with the --compare assignments gave. */
static void json_compared(JsonWriter *w, const Report *r)
{
    const Report *c = r->compared;
    json_writer_key(w, "compared");
    json_writer_begin_object(w);
    json_writer_key(w, "set");
    json_writer_begin_array(w);
    for (char **a = r->compared_set; *a; a++)
        json_writer_string(w, *a);
    json_writer_end_array(w);
    json_int(w, "cycles", c->cycles);
    if (c->machine.tick_seconds > 0)
        json_number(w, "seconds", report_seconds(c, c->cycles));
    json_uint(w, "element_transfers", c->element_transfers);
    json_uint(w, "messages", c->messages);
    json_bool(w, "data_correct", c->data_correct);
    json_bool(w, "bounds_hold", report_bounds_hold(c));
    json_writer_end_object(w);
}

/* The keys, in order (docs/report.md); the emulator's measurements of
 * simulated time are absent from an MPI report rather than zero, and the
 * counts both backends measure are in both. */
void report_write_json(const Report *r, FILE *out, ReportJsonFlags flags)
{
    const Machine *m = &r->machine;
    gboolean emulator = r->backend == REPORT_BACKEND_EMULATOR;
    JsonWriter *w = json_writer_new(out, (flags & REPORT_JSON_PRETTY) != 0);
    json_writer_begin_object(w);
    json_text(w, "cubemu", CUBEMU_VERSION);
    json_int(w, "schema", REPORT_SCHEMA);
    json_text(w, "backend", json_backend_name(r->backend));
    json_text(w, "scenario", r->scenario);
    json_machine(w, m);
    json_algorithm(w, r);
    json_text(w, "element", element_type_name(r->element));
    json_uint(w, "elements_per_node", r->elements_per_node);
    if (emulator) {
        json_int(w, "cycles", r->cycles);
        if (m->tick_seconds > 0)
            json_number(w, "seconds", report_seconds(r, r->cycles));
    }
    json_uint(w, "element_transfers", r->element_transfers);
    json_uint(w, "messages", r->messages);
    json_uint(w, "max_channel_elements", r->max_channel_elements);
    json_bool(w, "data_correct", r->data_correct);
    if (!r->data_correct && r->data_problem)
        json_text(w, "data_problem", r->data_problem);
    if (m->faults)
        json_faults(w, r);
    if (r->compared)
        json_compared(w, r);
    json_bounds(w, r);
    json_per_class(w, r);
    json_per_link(w, r);
    if (emulator) {
        json_time(w, r);
        json_phases(w, r);
    }
    json_details(w, r);
    json_stats(w, r);
    if (flags & REPORT_JSON_TIMING)
        json_timing(w, r);
    if (r->memory)
        json_memory(w, r);
    json_writer_end_object(w);
    json_writer_finish(w);
}

void report_print_json(const Report *r, FILE *out)
{
    report_write_json(r, out, 0);
}

/* ---- table ----------------------------------------------------------- */

/* A figure in the table (number_text): whole numbers (cycle counts) in
 * full below 10^18, else four significant digits; TABLE_NUMBER_MAX holds
 * either with its NUL. */
#define TABLE_DIGITS 4
#define TABLE_WHOLE_BELOW 1e18
#define TABLE_NUMBER_MAX 32

static const char *table_number(char buf[TABLE_NUMBER_MAX], double v)
{
    return number_text(buf, TABLE_NUMBER_MAX, v, TABLE_DIGITS,
                       TABLE_WHOLE_BELOW);
}

char *report_duration_text(double s)
{
    static const struct { double scale; const char *unit; } units[] = {
        { 1, "s" }, { 1e-3, "ms" }, { 1e-6, "us" }, { 1e-9, "ns" },
    };
    size_t u = 0;
    while (u + 1 < G_N_ELEMENTS(units) && fabs(s) < units[u].scale && s != 0)
        u++;
    return g_strdup_printf("%.4g %s", s / units[u].scale, units[u].unit);
}

/* " (1.23 ms)" for a machine with tick-seconds, else "". */
static char *seconds_text(const Report *r, double ticks)
{
    if (r->machine.tick_seconds <= 0)
        return g_strdup("");
    g_autofree char *d = report_duration_text(ticks * r->machine.tick_seconds);
    return g_strdup_printf(" (%s)", d);
}

static void print_machine(const Report *r, FILE *out)
{
    const Machine *m = &r->machine;
    const Topology *t = &m->topology;
    char ports[16];
    g_autoptr(GString) described = g_string_new(NULL);
    t->ops->describe_text(t, described);
    fprintf(out, "machine       %s: %s%s", m->name, t->ops->name, described->str);
    fprintf(out, " (%u nodes, diameter %u), ports = %s", t->nodes, t->diameter,
            machine_ports_text(m, ports));
    if (m->model == MACHINE_MODEL_LOGGP)
        /* the model's prices are the run's time; the engine's unit
         * prices only carried the payloads it verified */
        fprintf(out, ", LogGP L = %" G_GUINT64_FORMAT ", o = %" G_GUINT64_FORMAT
                ", g = %" G_GUINT64_FORMAT ", G = %" G_GUINT64_FORMAT
                ", O = %" G_GUINT64_FORMAT ", S = %" G_GUINT64_FORMAT " bytes",
                m->loggp.L, m->loggp.o, m->loggp.g, m->loggp.G, m->loggp.O,
                m->loggp.S);
    else if (machine_uniform_price(m) || !topology_has_class(t->ops, CLASS_ROUTER))
        fprintf(out, ", startup = %lld, element-time = %lld",
                (long long)m->price[0].startup, (long long)m->price[0].element_time);
    else
        for (MessageClass c = 0; c < CLASS_COUNT; c++)
            fprintf(out, ", %s startup = %lld, element-time = %lld",
                    message_class_name(c), (long long)m->price[c].startup,
                    (long long)m->price[c].element_time);
    for (MessageClass c = 0; c < CLASS_COUNT; c++)
        if (m->price[c].memory_path && topology_has_class(t->ops, c))
            fprintf(out, ", %s memory paths", message_class_name(c));
    if (m->price[0].startup > 0 || m->price[1].startup > 0)
        fprintf(out, m->startup_holds_port ? ", startups hold a port"
                                           : ", startups only delay");
    if (m->tick_seconds > 0)
        fprintf(out, ", tick = %g s", m->tick_seconds);
    if (m->faults)
        fprintf(out, ", faults = %s (%s)", faults_spec(m->faults),
                machine_fault_policy_name(m->fault_policy));
    fputc('\n', out);
}

/* "1 link" or "3 links". */
static void print_count(FILE *out, const char *sep, uint64_t n,
                        const char *one, const char *many)
{
    fprintf(out, "%s%" G_GUINT64_FORMAT " %s", sep, n, n == 1 ? one : many);
}

/* The faults (canonical list, counts, policy) and what the engine did
 * about them: two lines under the data. */
static void print_faults(const Report *r, FILE *out)
{
    const Faults *f = r->machine.faults;
    FaultCounts c = faults_counts(f);
    g_autofree char *list = faults_text(f);
    fprintf(out, "  faults                ");
    if (strcmp(list, faults_spec(f)))
        fprintf(out, "%s = ", faults_spec(f));
    fprintf(out, "%s:", list);
    print_count(out, " ", c.links, "link", "links");
    print_count(out, ", ", c.channels, "one-way channel", "one-way channels");
    print_count(out, ", ", c.timed, "timed", "timed");
    print_count(out, ", ", c.nodes, "dead node", "dead nodes");
    fprintf(out, "; fault-policy = %s\n",
            machine_fault_policy_name(r->machine.fault_policy));
    if (r->backend != REPORT_BACKEND_EMULATOR)
        return;
    fprintf(out, "  detoured              ");
    print_count(out, "", r->detoured, "message", "messages");
    print_count(out, ", ", r->extra_links, "extra link", "extra links");
    fprintf(out, " (at most %" G_GUINT64_FORMAT " for one message)",
            r->extra_links_max);
    if (faults_have_scheme(f))
        fprintf(out, "; the scheme gave up on %" G_GUINT64_FORMAT " route%s\n",
                r->routes_given_up, r->routes_given_up == 1 ? "" : "s");
    else
        fprintf(out, "; no fault-tolerant scheme on this topology: shortest "
                "surviving paths\n");
}

/* "  faults: +4 cycles (+50%) against the same run without them; 2
 * messages detoured, 4 extra links": report_compared_faultless. */
static void print_faults_cost(const Report *r, FILE *out)
{
    long long extra;
    double percent;
    faults_cost(r, &extra, &percent);
    fprintf(out, "  faults: %+lld cycles", extra);
    if (!isnan(percent)) {
        char p[TABLE_NUMBER_MAX];
        number_text(p, sizeof p, percent, 3, TABLE_WHOLE_BELOW);
        fprintf(out, " (%s%s%%)", percent >= 0 ? "+" : "", p);
    }
    fprintf(out, " against the same run without them; ");
    print_count(out, "", r->detoured, "message", "messages");
    print_count(out, " detoured, ", r->extra_links, "extra link",
                "extra links");
    fputc('\n', out);
}

/* "  compared              machine.memory-path=yes: 833700 cycles (83.37
 * ms), 13.5x this run; data correct, bounds hold": the --compare run. */
static void print_compared(const Report *r, FILE *out)
{
    const Report *c = r->compared;
    g_autofree char *set = g_strjoinv(" ", r->compared_set);
    g_autofree char *secs = seconds_text(c, (double)c->cycles);
    fprintf(out, "  compared              %s: %lld cycles%s", set,
            (long long)c->cycles, secs);
    if (r->cycles > 0) {
        char ratio[TABLE_NUMBER_MAX];
        number_text(ratio, sizeof ratio, (double)c->cycles / (double)r->cycles,
                    3, 0);
        fprintf(out, ", %sx this run", ratio);
    }
    fprintf(out, "; data %s, bounds %s\n", c->data_correct ? "correct" : "WRONG",
            report_bounds_hold(c) ? "hold" : "DO NOT HOLD");
}

void report_print_table(const Report *r, FILE *out)
{
    const Machine *m = &r->machine;
    fprintf(out, "scenario      %s\n", r->scenario);
    print_machine(r, out);
    fprintf(out, "algorithm     %s, method %s", r->algorithm, r->method);
    for (guint i = 0; i < r->params->len; i++) {
        const ParamValue *v = &g_array_index(r->params, ParamValue, i);
        fprintf(out, ", %s = %s", v->key, v->text);
    }
    fprintf(out, "\n\n");
    g_autofree char *secs = seconds_text(r, (double)r->cycles);
    fprintf(out, "  cycles                %lld%s\n", (long long)r->cycles, secs);
    fprintf(out, "  element transfers     %" G_GUINT64_FORMAT "\n",
            r->element_transfers);
    fprintf(out, "  messages              %" G_GUINT64_FORMAT "\n", r->messages);
    fprintf(out, "  max channel elements  %" G_GUINT64_FORMAT "\n",
            r->max_channel_elements);
    g_autofree char *cs = seconds_text(r, (double)r->compute_max);
    g_autofree char *ws = seconds_text(r, (double)r->communication_max);
    fprintf(out, "  compute (max node)    %lld%s\n", (long long)r->compute_max, cs);
    fprintf(out, "  communication (max)   %lld%s\n",
            (long long)r->communication_max, ws);
    for (unsigned i = 0; i < r->nphases; i++) {
        const SimPhase *ph = &r->phase[i];
        g_autofree char *ps = seconds_text(r, (double)ph->time_max);
        fprintf(out, "  phase %-15s %lld%s (compute %lld, communication "
                "%lld; max node)\n", r->phase_name[i],
                (long long)ph->time_max, ps, (long long)ph->compute_max,
                (long long)ph->communication_max);
    }
    if (r->data_correct && r->computed && r->tolerance > 0)
        fprintf(out, "  data                  correct (every value within %g x "
                "the largest reference magnitude)\n", r->tolerance);
    else if (r->data_correct && r->computed_elements && r->sampled)
        fprintf(out, "  data                  correct (%" G_GUINT64_FORMAT
                " results sampled and verified; moved elements placed and "
                "present once)\n", r->sampled);
    else if (r->data_correct && r->computed_elements)
        fprintf(out, "  data                  correct (every result verified; "
                "moved elements placed and present once)\n");
    else if (r->data_correct && r->computed)
        fprintf(out, "  data                  correct (every value verified; "
                "computed or copied, so no conservation check)\n");
    else
        fprintf(out, "  data                  %s\n",
                r->data_correct ? "correct (placement verified, every element "
                                  "present once)"
                                : r->data_problem ? r->data_problem : "WRONG");
    if (m->faults)
        print_faults(r, out);
    if (report_compared_faultless(r))
        print_faults_cost(r, out);
    else if (r->compared)
        print_compared(r, out);
    if (r->bounds->len) {
        fprintf(out, "\n  %-60s %-6s %12s %12s  %s\n", "bound", "kind", "value",
                "measured", "holds");
        for (guint i = 0; i < r->bounds->len; i++) {
            const Bound *b = &g_array_index(r->bounds, Bound, i);
            fprintf(out, "  %-60s %-6s ", b->name, bound_kind_text(b->kind));
            char v[TABLE_NUMBER_MAX], mv[TABLE_NUMBER_MAX];
            if (b->applies)
                fprintf(out, "%12s %12s  %s\n", table_number(v, b->value),
                        table_number(mv, b->measured),
                        b->holds ? "yes" : "NO");
            else
                fprintf(out, "%12s %12s  %s\n", "-",
                        table_number(mv, b->measured), "n/a");
            fprintf(out, "      on %s: %s\n", b->field, b->source);
            if (!b->applies)
                fprintf(out, "      n/a: %s\n", b->reason);
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
                char v[TABLE_NUMBER_MAX];
                fputs(table_number(v, d->d), out);
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
            case DETAIL_OBJECT:
                for (guint j = 0; j < d->values->len; j++) {
                    char v[TABLE_NUMBER_MAX];
                    double x = g_array_index(d->values, double, j);
                    fprintf(out, "%s%s %s", j ? ", " : "", d->columns[j],
                            table_number(v, x));
                }
                break;
            case DETAIL_ROWS: {
                guint cols = g_strv_length(d->columns);
                for (guint c = 0; c < cols; c++)
                    fprintf(out, "%s%s", c ? " " : "", d->columns[c]);
                for (guint j = 0; cols && j < d->list->len; j += cols) {
                    fprintf(out, "\n    %-22s ", "");
                    for (guint c = 0; c < cols; c++)
                        fprintf(out, "%s%*lld", c ? " " : "",
                                (int)strlen(d->columns[c]),
                                g_array_index(d->list, long long, j + c));
                }
                break;
            }
            }
            fputc('\n', out);
        }
    }
    if (topology_has_class(m->topology.ops, CLASS_ROUTER)) {
        fprintf(out, "\n  %-9s %14s %14s %17s\n", "class", "messages",
                "elements", "element transfers");
        for (MessageClass c = 0; c < CLASS_COUNT; c++)
            fprintf(out, "  %-9s %14" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT
                    " %17" G_GUINT64_FORMAT "\n", message_class_name(c),
                    r->class_messages[c], r->class_elements[c],
                    r->class_transfers[c]);
    }
    /* A large complete graph has a link per node: show the busy ones. */
    gboolean busy_only = m->topology.links > REPORT_FIELDS_MAX_LINKS;
    fprintf(out, "\n  %-12s %14s %14s %11s%s\n", "link", "elements up",
            "elements down", "utilisation",
            busy_only ? "   (links that carried nothing are not shown)" : "");
    for (int l = 0; l < m->topology.links; l++) {
        if (busy_only && r->link_up[l] + r->link_down[l] == 0)
            continue;
        char name[TOPOLOGY_LINK_NAME_MAX];
        topology_link_name(&m->topology, l, name, sizeof name);
        fprintf(out, "  %-12s %14" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT
                " %11.4f\n", name, r->link_up[l], r->link_down[l],
                report_utilisation(r, l));
    }
    fprintf(out, "\n  events %" G_GUINT64_FORMAT ", wall %.3f s\n", r->events,
            r->wall_seconds);
    if (r->memory) {
        size_t w = element_words(r->element);
        fprintf(out, "\n  memory (node: elements in offset order)\n");
        uint32_t nodes = machine_nodes(m);
        for (uint32_t x = 0; x < nodes; x++) {
            fprintf(out, "    %u:", x);
            for (uint64_t j = 0; j < r->elements_per_node; j++) {
                g_autofree char *e = element_text(
                    r->element, r->memory + (x * r->elements_per_node + j) * w);
                fprintf(out, " %s", e);
            }
            fputc('\n', out);
        }
    }
}
