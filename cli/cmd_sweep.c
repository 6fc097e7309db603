/* cmd_sweep.c -- `cubemu sweep [SCENARIO] --vary SECTION.KEY=V1,V2,...
 * [--vary ...] [--set ...] [-j N] [--csv OUT.csv] [--plot OUT.png|svg|pdf]
 * [--plot-data OUT.json] [--tick-limit TICKS] [--wall-limit SECONDS]`: run
 * a scenario for every combination of the
 * varied values, write every numeric output field of every run as CSV,
 * and plot a measured field (cycles) against a varied key, one series per
 * value of the others, with the bounds on that field in the series' colour.
 *
 * Three stages:
 *
 *   1. Everything is checked before the first run, and every problem found
 *      is reported together (exit status 2, nothing run): the --vary
 *      values and ranges, each combination's scenario (run_setup, then
 *      released), the output paths, --x (a varied key) and --y (a field
 *      the runs report, run_setup_fields; with "did you mean").
 *   2. The runs, N at once with -j N, each in a process of its own (below).
 *      A run that fails is a row with status "failed" and its error, not
 *      the end of the sweep.
 *   3. Rows are released in the sweep's order whatever order runs finish
 *      in: each is printed, added to the CSV, and the CSV committed (see
 *      csv_commit_due); the plot is drawn at the end.
 *
 * Exit status: 0 every run correct; 1 a run failed or its data was wrong
 * (the failures are listed at the end); 2 bad input, before any run, or an
 * output that could not be written.
 *
 * Each run is in a process of its own, -j 1 too (cli/workers.h says why
 * processes, not threads): a run that ends its process is a failed row.
 * Its results come back as a GVariant (run_result), its standard error
 * with them.
 */
#include "cli.h"
#include "output.h"
#include "plot.h"
#include "prepare.h"
#include "progress.h"
#include "run.h"
#include "suggest.h"
#include "workers.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Runs in one sweep: beyond this a typo in a value list is likelier than
 * intent, and the plot would be unreadable anyway. */
#define SWEEP_MAX_RUNS 10000
/* Problems listed before "... and N more". */
#define SWEEP_MAX_PROBLEMS 12
/* Failed runs listed at the end before "... and N more". */
#define SWEEP_MAX_FAILURES 10
#define SWEEP_DEFAULT_WIDTH 1000
#define SWEEP_DEFAULT_HEIGHT 620
#define SWEEP_MIN_SIZE 320
#define SWEEP_MAX_SIZE 8192
/* Automatic log axes: x when its values span this factor, y this one. */
#define SWEEP_LOG_X_RATIO 8.0
#define SWEEP_LOG_Y_RATIO 100.0
/* The CSV is committed (rewritten, synced, renamed) after a row once the
 * time since the last commit is this many times what that commit took:
 * after every row when runs are slow, in batches when they are fast, so
 * that committing costs at most about 1/SWEEP_COMMIT_RATIO of the sweep. */
#define SWEEP_COMMIT_RATIO 10
/* What the run's process sends back (run_result): error, whether a
 * report came, data correct, data problem, algorithm, method, machine,
 * topology, nodes, tick seconds, cycles, the numeric fields, the bounds
 * (name, field, kind, value, measured, applies, holds). */
#define SWEEP_RESULT_TYPE "(sbbsssssudxa(sd)a(ssiddbbs))"

/* The key that varies the whole scenario file: --vary scenario=A.ini,B.ini
 * runs each file (with the other --vary and --set values on top), so that
 * algorithms with different keys can be compared in one sweep. */
#define SWEEP_SCENARIO_KEY "scenario"

typedef struct {
    char *key;                    /* "algorithm.elements-per-node" */
    char *flag;                   /* "--vary KEY=TEXT" as given */
    char **values;                /* ranges expanded */
    gboolean numeric;
} Vary;

typedef enum { RUN_PENDING, RUN_OK, RUN_WRONG, RUN_FAILED } RunStatus;

static const char *const status_names[] = { "pending", "ok", "wrong", "failed" };

typedef struct {
    char *name, *field;
    double value;
    gboolean applies;
    char *reason;                 /* why it does not apply, or NULL */
} RunBound;

/* One combination and what its run gave. */
typedef struct {
    guint *choice;                /* per Vary: index into its values */
    RunStatus status;
    char *error;                  /* failed: why; wrong: the data problem */
    char *output;                 /* what the run's process wrote to stderr */
    gboolean report;              /* the run produced a report */
    char *algorithm, *method, *machine, *topology;
    guint nodes;
    double tick_seconds;
    gint64 cycles;
    GPtrArray *fields;            /* char *, the report's numeric fields */
    GHashTable *values;           /* field -> double * */
    GArray *bounds;               /* RunBound */
} Run;

typedef struct {
    GArray *varies;               /* Vary */
    char **sets;
    const char *path;             /* the scenario, or NULL */
    guint nruns;
    Run *runs;
    int jobs;
    /* The CSV: columns known before the runs (every combination's
     * run_setup_fields), then any a run reported beyond them. */
    const char *csv;
    GPtrArray *columns;
    GHashTable *column_set;
    /* Every field some run will report (--y), in order. */
    GPtrArray *fields;
    GHashTable *field_set;
    guint released;               /* runs printed and in the CSV */
    guint committed;              /* rows in the CSV file */
    gint64 last_commit_end, last_commit_cost;   /* microseconds */
    CliLimits *limits;            /* each run's (--tick-limit, --wall-limit) */
} Sweep;

static gboolean number_value(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = g_ascii_strtod(s, &end);
    return end != s && !*end && errno == 0 && isfinite(*v);
}

/* ---- --vary: values and ranges ------------------------------------------ */

static gboolean range_int(const char *s, gint64 *v)
{
    return *s && g_ascii_string_to_signed(s, 10, G_MININT64 / 4, G_MAXINT64 / 4,
                                          v, NULL);
}

/* ITEM, one element of a --vary list, into VALUES: a value, or a range
 * FIRST..LAST or FIRST..LAST:STEP of integers (LAST included when the
 * steps reach it). */
static gboolean vary_item(const char *flag, const char *key, const char *item,
                          GPtrArray *values, GString *problem)
{
    const char *dots = strstr(item, "..");
    if (!dots || !strcmp(key, SWEEP_SCENARIO_KEY)) {
        g_ptr_array_add(values, g_strdup(item));
        return TRUE;
    }
    g_autofree char *first_text = g_strndup(item, (gsize)(dots - item));
    g_autofree char *rest = g_strdup(dots + 2);
    char *colon = strchr(rest, ':');
    if (colon)
        *colon++ = '\0';
    gint64 first, last, step = 1;
    if (!range_int(g_strstrip(first_text), &first) || !range_int(g_strstrip(rest), &last)
        || (colon && !range_int(g_strstrip(colon), &step))) {
        g_string_printf(problem, "--vary %s: %s: expected a value, or a range "
                        "FIRST..LAST or FIRST..LAST:STEP of integers (e.g. 4..12 "
                        "or 4..12:2)", flag, item);
        return FALSE;
    }
    if (step < 1) {
        g_string_printf(problem, "--vary %s: %s: the step must be at least 1",
                        flag, item);
        return FALSE;
    }
    if (last < first) {
        g_string_printf(problem, "--vary %s: %s: the range is empty (%" G_GINT64_FORMAT
                        " is above %" G_GINT64_FORMAT ")", flag, item, first, last);
        return FALSE;
    }
    if ((last - first) / step >= SWEEP_MAX_RUNS) {
        g_string_printf(problem, "--vary %s: %s: more than the %d values a "
                        "sweep may run", flag, item, SWEEP_MAX_RUNS);
        return FALSE;
    }
    for (gint64 v = first; v <= last; v += step)
        g_ptr_array_add(values, g_strdup_printf("%" G_GINT64_FORMAT, v));
    return TRUE;
}

static void vary_clear(gpointer p)
{
    Vary *v = p;
    g_free(v->key);
    g_free(v->flag);
    g_strfreev(v->values);
}

static gboolean vary_parse(const char *text, GArray *varies, GString *problem)
{
    const char *eq = strchr(text, '=');
    const char *dot = strchr(text, '.');
    gboolean whole = eq && (size_t)(eq - text) == strlen(SWEEP_SCENARIO_KEY)
                     && !strncmp(text, SWEEP_SCENARIO_KEY, (size_t)(eq - text));
    if (whole && eq[1]) {
        dot = eq;                 /* no SECTION.KEY: the scenario itself */
    } else if (!eq || !dot || dot > eq || dot == text || dot + 1 == eq || !eq[1]) {
        g_string_printf(problem, "--vary '%s': expected SECTION.KEY=V1,V2,..., "
                        "e.g. --vary algorithm.elements-per-node=16,32,64", text);
        return FALSE;
    }
    g_autofree char *key = g_strstrip(g_strndup(text, (gsize)(eq - text)));
    for (guint i = 0; i < varies->len; i++)
        if (!strcmp(g_array_index(varies, Vary, i).key, key)) {
            g_string_printf(problem, "--vary %s: given twice; list all its "
                            "values in one --vary", key);
            return FALSE;
        }
    g_auto(GStrv) items = g_strsplit(eq + 1, ",", -1);
    g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func(g_free);
    for (char **s = items; *s; s++) {
        g_strstrip(*s);
        if (!**s) {
            g_string_printf(problem, "--vary '%s': empty value in the list", text);
            return FALSE;
        }
        if (!vary_item(text, key, *s, values, problem))
            return FALSE;
        if (values->len > SWEEP_MAX_RUNS) {
            g_string_printf(problem, "--vary %s: more than the %d values a sweep "
                            "may run", key, SWEEP_MAX_RUNS);
            return FALSE;
        }
    }
    gboolean numeric = TRUE;
    for (guint i = 0; i < values->len; i++) {
        double d;
        numeric &= number_value(values->pdata[i], &d);
        for (guint j = 0; j < i; j++)
            if (!strcmp(values->pdata[i], values->pdata[j])) {
                g_string_printf(problem, "--vary %s: the value %s is given twice",
                                key, (char *)values->pdata[i]);
                return FALSE;
            }
    }
    g_ptr_array_add(values, NULL);
    Vary v = { g_steal_pointer(&key), g_strdup_printf("--vary %s", text),
               (char **)g_ptr_array_free(g_steal_pointer(&values), FALSE), numeric };
    g_array_append_val(varies, v);
    return TRUE;
}

static const Vary *vary_at(const Sweep *sw, guint i)
{
    return &g_array_index(sw->varies, Vary, i);
}

static const char *run_value(const Sweep *sw, const Run *run, guint i)
{
    return vary_at(sw, i)->values[run->choice[i]];
}

/* "elements-per-node" from "algorithm.elements-per-node". */
static const char *short_key(const char *key)
{
    const char *dot = strchr(key, '.');
    return dot ? dot + 1 : key;
}

/* A value as a plot shows it: a scenario by its file name, no ".ini". */
static char *short_value(const char *key, const char *value)
{
    if (strcmp(key, SWEEP_SCENARIO_KEY))
        return g_strdup(value);
    char *base = g_path_get_basename(value);
    if (g_str_has_suffix(base, ".ini") && strlen(base) > strlen(".ini"))
        base[strlen(base) - strlen(".ini")] = '\0';
    return base;
}

/* "machine.dimensions=4, algorithm.method=naive": every varied key but
 * SKIP; SHORT: short keys and values ("dimensions=4, method=naive"), and a
 * scenario by its name alone. */
static char *run_label(const Sweep *sw, const Run *run, int skip, gboolean short_form)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < sw->varies->len; i++) {
        if ((int)i == skip)
            continue;
        const Vary *v = vary_at(sw, i);
        if (s->len)
            g_string_append(s, ", ");
        if (!short_form) {
            g_string_append_printf(s, "%s=%s", v->key, run_value(sw, run, i));
            continue;
        }
        g_autofree char *value = short_value(v->key, run_value(sw, run, i));
        if (!strcmp(v->key, SWEEP_SCENARIO_KEY))
            g_string_append(s, value);
        else
            g_string_append_printf(s, "%s=%s", short_key(v->key), value);
    }
    return g_string_free(s, FALSE);
}

/* ---- a combination's scenario ------------------------------------------- */

/* Combination K's scenario: the file (or the default), the --set values,
 * the varied values on top, each located at its --vary flag so that a
 * problem with it names the flag ("--vary machine.dimensions=abc: ..."). */
static Scenario *run_scenario_of(const Sweep *sw, const Run *run, const char **path,
                                 GError **error)
{
    g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func(g_free);
    for (char **s = sw->sets; s && *s; s++)
        g_ptr_array_add(all, g_strdup(*s));
    *path = sw->path;
    for (guint i = 0; i < sw->varies->len; i++) {
        const Vary *v = vary_at(sw, i);
        if (!strcmp(v->key, SWEEP_SCENARIO_KEY))
            *path = run_value(sw, run, i);
        else
            g_ptr_array_add(all, g_strdup_printf("%s=%s", v->key, run_value(sw, run, i)));
    }
    g_ptr_array_add(all, NULL);
    Scenario *s = cli_build_scenario(*path, (char **)all->pdata, error);
    for (guint i = 0; s && i < sw->varies->len; i++) {
        const Vary *v = vary_at(sw, i);
        const char *dot = strchr(v->key, '.');
        if (!dot)
            continue;
        g_autofree char *group = g_strstrip(g_strndup(v->key, (gsize)(dot - v->key)));
        g_autofree char *key = g_strstrip(g_strdup(dot + 1));
        const char *value = run_value(sw, run, i);
        const char *now = scenario_get(s, group, key);
        if (now && !strcmp(now, value)) {
            g_autofree char *where = g_strdup_printf("--vary %s=%s", v->key, value);
            scenario_put(s, group, key, value, where);
        }
    }
    return s;
}

/* ---- problems before the runs ------------------------------------------- */

typedef struct {
    char *text;
    char *label;                  /* the first combination it was found in */
    guint count;                  /* combinations it was found in */
} Problem;

typedef struct {
    GPtrArray *list;              /* Problem, in order found */
    GHashTable *by_text;
} Problems;

static void problem_free(gpointer p)
{
    Problem *x = p;
    g_free(x->text);
    g_free(x->label);
    g_free(x);
}

/* TEXT (one line), found in the combination LABEL (NULL: a flag's). */
static void problems_add(Problems *ps, const char *label, const char *text)
{
    Problem *x = g_hash_table_lookup(ps->by_text, text);
    if (x) {
        x->count++;
        return;
    }
    x = g_new0(Problem, 1);
    x->text = g_strdup(text);
    x->label = g_strdup(label);
    x->count = 1;
    g_ptr_array_add(ps->list, x);
    g_hash_table_insert(ps->by_text, x->text, x);
}

/* Print them all, one line each, up to SWEEP_MAX_PROBLEMS. A combination's
 * problem is prefixed with the combination unless it names its own cause
 * (a --vary value, the scenario file) or every combination has it. */
static void problems_print(const Problems *ps, guint nruns)
{
    guint n = ps->list->len;
    for (guint i = 0; i < n && i < SWEEP_MAX_PROBLEMS; i++) {
        const Problem *x = ps->list->pdata[i];
        if (!x->label || x->count == nruns) {
            fprintf(stderr, "cubemu sweep: %s\n", x->text);
            continue;
        }
        fprintf(stderr, "cubemu sweep: %s: %s", x->label, x->text);
        if (x->count > 1)
            fprintf(stderr, " (and in %u other combinations)", x->count - 1);
        fputc('\n', stderr);
    }
    if (n > SWEEP_MAX_PROBLEMS)
        fprintf(stderr, "cubemu sweep: ... and %u more problems\n", n - SWEEP_MAX_PROBLEMS);
}

/* An output path: a file that can be created or replaced (output.h
 * creates its temporary file beside it, then removes it). */
static void check_output(Problems *ps, const char *path)
{
    GError *e = NULL;
    Output *o = output_open(path, &e);
    if (!o) {
        problems_add(ps, NULL, e->message);
        g_error_free(e);
        return;
    }
    output_abort(o);
}

static void add_column(GPtrArray *columns, GHashTable *seen, const char *name)
{
    if (g_hash_table_contains(seen, name))
        return;
    char *copy = g_strdup(name);
    g_ptr_array_add(columns, copy);
    g_hash_table_add(seen, copy);
}

/* Every combination's scenario through run_setup (released at once): its
 * problems into PS, the fields its run will report into the columns. */
static void check_combinations(Sweep *sw, Problems *ps)
{
    for (guint k = 0; k < sw->nruns; k++) {
        const Run *run = &sw->runs[k];
        g_autofree char *label = run_label(sw, run, -1, FALSE);
        GError *e = NULL;
        const char *path;
        g_autoptr(Scenario) s = run_scenario_of(sw, run, &path, &e);
        RunSetup setup;
        if (s && run_setup(s, &setup, &e)) {
            g_auto(GStrv) fields = run_setup_fields(&setup);
            for (char **f = fields; *f; f++) {
                add_column(sw->columns, sw->column_set, *f);
                add_column(sw->fields, sw->field_set, *f);
            }
            run_setup_release(&setup, TRUE);
            continue;
        }
        g_auto(GStrv) lines = g_strsplit(e->message, "\n", -1);
        for (char **l = lines; *l; l++) {
            if (!**l)
                continue;
            /* A problem that names its cause needs no combination. */
            gboolean own = strstr(*l, "--vary ") || (path && g_str_has_prefix(*l, path));
            problems_add(ps, own ? NULL : label, *l);
        }
        g_error_free(e);
    }
}

/* --y FIELD: a field some run will report (the CSV's columns). */
static void check_y(const Sweep *sw, Problems *ps, const char *y)
{
    if (!sw->fields->len || g_hash_table_contains(sw->field_set, y))
        return;
    /* Candidates: the fields, and seconds, which a machine with
     * tick-seconds would add. */
    gboolean seconds = g_hash_table_contains(sw->field_set, "seconds");
    g_autoptr(GPtrArray) names = g_ptr_array_new();
    for (guint i = 0; i < sw->fields->len; i++)
        g_ptr_array_add(names, sw->fields->pdata[i]);
    if (!seconds)
        g_ptr_array_add(names, "seconds");
    g_ptr_array_add(names, NULL);
    const char *closest = suggest_closest(y, (const char *const *)names->pdata);
    g_autofree char *hint = !closest ? g_strdup("")
                            : !seconds && !strcmp(closest, "seconds")
                            ? g_strdup("; did you mean 'seconds'? (it needs the machine's "
                                       "tick-seconds)")
                            : g_strdup_printf("; did you mean '%s'?", closest);
    /* A field named by its last part: "nodes" for machine.nodes. */
    const char *whole = NULL;
    guint matches = 0;
    for (guint i = 0; !*hint && i < sw->fields->len; i++) {
        const char *c = sw->fields->pdata[i], *dot = strrchr(c, '.');
        if (dot && !g_ascii_strcasecmp(dot + 1, y)) {
            whole = c;
            matches++;
        }
    }
    if (matches == 1) {
        g_free(hint);
        hint = g_strdup_printf("; did you mean '%s'?", whole);
    }
    const char *why = "";
    if (!strcmp(y, "seconds") || g_str_has_suffix(y, ".seconds"))
        why = " (seconds need the machine's tick-seconds)";
    g_autofree char *text = g_strdup_printf(
        "--y %s: no run has this numeric output field (e.g. cycles, element_transfers, "
        "messages, details.KEY)%s%s", y, why, hint);
    problems_add(ps, NULL, text);
}

/* --x KEY: a varied key, by its whole name or its short one if unique. */
static int check_x(const Sweep *sw, Problems *ps, const char *x)
{
    int found = -1, shorts = 0;
    for (guint i = 0; i < sw->varies->len; i++) {
        const Vary *v = vary_at(sw, i);
        if (!strcmp(v->key, x))
            return (int)i;
        if (!strcmp(short_key(v->key), x)) {
            found = (int)i;
            shorts++;
        }
    }
    if (shorts == 1)
        return found;
    GString *keys = g_string_new(NULL);
    for (guint i = 0; i < sw->varies->len; i++)
        g_string_append_printf(keys, "%s%s", i ? ", " : "", vary_at(sw, i)->key);
    g_autofree char *text = g_strdup_printf("--x %s: not a varied key (varied: %s)", x,
                                            keys->str);
    g_string_free(keys, TRUE);
    problems_add(ps, NULL, text);
    return -1;
}

/* The x axis without --x: the first numeric varied key that is not the
 * method, else the first varied key, as categories. */
static int default_x(const Sweep *sw)
{
    for (guint i = 0; i < sw->varies->len; i++) {
        const Vary *v = vary_at(sw, i);
        if (v->numeric && strcmp(v->key, "algorithm.method"))
            return (int)i;
    }
    return 0;
}

/* ---- a run, in a process of its own -------------------------------------- */

static gboolean field_value(const Report *r, const char *field, double *v)
{
    if (g_str_has_prefix(field, "bound.")) {
        for (guint i = 0; i < r->bounds->len; i++) {
            const Bound *b = &g_array_index(r->bounds, Bound, i);
            if (!strcmp(b->name, field + strlen("bound."))) {
                *v = b->applies ? b->value : NAN;
                return TRUE;
            }
        }
        return FALSE;
    }
    return report_lookup(r, field, v);
}

static GVariant *run_result(const Report *r, const GError *e)
{
    GVariantBuilder fields, bounds;
    g_variant_builder_init(&fields, G_VARIANT_TYPE("a(sd)"));
    g_variant_builder_init(&bounds, G_VARIANT_TYPE("a(ssiddbbs)"));
    if (r) {
        g_auto(GStrv) names = report_fields(r);
        for (char **f = names; *f; f++) {
            double v;
            if (field_value(r, *f, &v))
                g_variant_builder_add(&fields, "(sd)", *f, v);
        }
        for (guint i = 0; i < r->bounds->len; i++) {
            const Bound *b = &g_array_index(r->bounds, Bound, i);
            g_variant_builder_add(&bounds, "(ssiddbbs)", b->name, b->field ? b->field : "",
                                  (gint32)b->kind, b->value, b->measured, b->applies,
                                  b->holds, b->reason ? b->reason : "");
        }
    }
    return g_variant_new(SWEEP_RESULT_TYPE, e ? e->message : "", r != NULL,
                         r && r->data_correct,
                         r && r->data_problem ? r->data_problem : "",
                         r && r->algorithm ? r->algorithm : "",
                         r && r->method ? r->method : "",
                         r && r->machine.name ? r->machine.name : "",
                         r ? machine_topology_name(&r->machine) : "",
                         r ? machine_nodes(&r->machine) : 0,
                         r ? r->machine.tick_seconds : 0.0,
                         r ? (gint64)r->cycles : (gint64)0, &fields, &bounds);
}

static void run_fail(Run *run, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void run_fail(Run *run, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_free(run->error);
    run->error = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    run->status = RUN_FAILED;
}

static void run_take_result(Run *run, GVariant *v)
{
    const char *error, *problem, *algorithm, *method, *machine, *topology;
    gboolean report, correct;
    guint32 nodes;
    g_autoptr(GVariantIter) fields = NULL, bounds = NULL;
    g_variant_get(v, "(&sbb&s&s&s&s&sudxa(sd)a(ssiddbbs))", &error, &report, &correct, &problem, &algorithm,
                  &method, &machine, &topology, &nodes, &run->tick_seconds, &run->cycles,
                  &fields, &bounds);
    if (!report) {
        run_fail(run, "%s", *error ? error : "the run ended without a report");
        return;
    }
    run->report = TRUE;
    run->status = correct ? RUN_OK : RUN_WRONG;
    if (!correct)
        run->error = g_strdup(*problem ? problem : "the final memory is wrong");
    run->algorithm = g_strdup(algorithm);
    run->method = g_strdup(method);
    run->machine = g_strdup(machine);
    run->topology = g_strdup(topology);
    run->nodes = nodes;
    const char *name, *field, *reason;
    double value, measured;
    gint32 kind;
    gboolean applies, holds;
    while (g_variant_iter_next(fields, "(&sd)", &name, &value)) {
        char *copy = g_strdup(name);
        g_ptr_array_add(run->fields, copy);
        g_hash_table_insert(run->values, copy, g_memdup2(&value, sizeof value));
    }
    while (g_variant_iter_next(bounds, "(&s&siddbb&s)", &name, &field, &kind, &value,
                               &measured, &applies, &holds, &reason)) {
        RunBound b = { g_strdup(name), g_strdup(field), value, applies,
                       *reason ? g_strdup(reason) : NULL };
        g_array_append_val(run->bounds, b);
    }
}

/* In the run's process (workers.h): combination K's run, its result. A
 * --wall-limit that ends this process (util/stop.h) leaves its line on
 * standard error, which the row's error becomes (workers.h). */
static GVariant *run_child(guint k, gpointer data)
{
    const Sweep *sw = data;
    GError *e = NULL;
    const char *path;
    g_autoptr(Scenario) s = run_scenario_of(sw, &sw->runs[k], &path, &e);
    RunOptions options = { 0 };
    Report *r = s && cli_limits_begin(NULL, sw->limits, s, &options, &e)
                    ? run_scenario(s, &options, &e) : NULL;
    cli_limits_end(sw->limits);
    return run_result(r, e);
}

/* In the sweep: combination K's run ended, with RESULT or FAILURE. What
 * its process wrote is shown with a run that reported; a failed run's
 * error has the process's last line. */
static void run_done(guint k, GVariant *result, const char *failure, const char *output,
                     double seconds, gpointer data)
{
    (void)seconds;
    const Sweep *sw = data;
    Run *run = &sw->runs[k];
    if (!result) {
        run_fail(run, "%s", failure);
        return;
    }
    run_take_result(run, result);
    if (run->status != RUN_FAILED && *output)
        run->output = g_strdup(output);
}

/* ---- the CSV ------------------------------------------------------------ */

static void csv_text(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void csv_number(FILE *out, double v)
{
    if (!isfinite(v))
        return;
    if (v == floor(v) && fabs(v) < 9007199254740992.0)
        fprintf(out, "%.0f", v);
    else
        fprintf(out, "%.17g", v);
}

/* The whole file so far: the header and every row released, through
 * output.h (a temporary file renamed over the target). */
static gboolean csv_commit(Sweep *sw, GError **error)
{
    gint64 start = g_get_monotonic_time();
    g_autoptr(Output) o = output_open(sw->csv, error);
    if (!o)
        return FALSE;
    FILE *out = output_stream(o);
    for (guint i = 0; i < sw->varies->len; i++) {
        csv_text(out, vary_at(sw, i)->key);
        fputc(',', out);
    }
    fputs("status,data_correct", out);
    for (guint c = 0; c < sw->columns->len; c++) {
        fputc(',', out);
        csv_text(out, sw->columns->pdata[c]);
    }
    fputs(",error\n", out);
    for (guint k = 0; k < sw->released; k++) {
        const Run *run = &sw->runs[k];
        for (guint i = 0; i < sw->varies->len; i++) {
            csv_text(out, run_value(sw, run, i));
            fputc(',', out);
        }
        fputs(status_names[run->status], out);
        fputs(run->report ? run->status == RUN_OK ? ",1" : ",0" : ",", out);
        for (guint c = 0; c < sw->columns->len; c++) {
            fputc(',', out);
            const double *v = run->values ? g_hash_table_lookup(run->values,
                                                                sw->columns->pdata[c]) : NULL;
            if (v)
                csv_number(out, *v);
        }
        fputc(',', out);
        if (run->error)
            csv_text(out, run->error);
        fputc('\n', out);
    }
    if (!output_commit(g_steal_pointer(&o), error))
        return FALSE;
    sw->committed = sw->released;
    sw->last_commit_end = g_get_monotonic_time();
    sw->last_commit_cost = sw->last_commit_end - start;
    return TRUE;
}

/* Microseconds until the rows not yet in the file are due (0: now), or
 * -1 when there are none. */
static gint64 csv_commit_due(const Sweep *sw)
{
    if (!sw->csv || sw->committed == sw->released)
        return -1;
    gint64 due = sw->last_commit_end + SWEEP_COMMIT_RATIO * sw->last_commit_cost;
    return MAX(due - g_get_monotonic_time(), 0);
}

/* ---- releasing rows in order --------------------------------------------- */

/* The sweep's progress line (util/progress.h): drawn here, by the parent,
 * since each run's standard error is a pipe to it (workers.h turns the
 * runs' own lines off). Called when a run finishes and whenever the
 * parent wakes: which runs are going, of how many. */
static void sweep_progress(guint done, guint started, guint total)
{
    if (!progress_enabled())
        return;
    if (started > done + 1)
        progress_update("runs %u to %u of %u running, %u done", done + 1,
                        started, total, done);
    else if (started > done)
        progress_update("run %u of %u", started, total);
    else
        progress_update("%u of %u runs done", done, total);
}

static void run_print(const Sweep *sw, const Run *run)
{
    g_autofree char *label = run_label(sw, run, -1, FALSE);
    if (run->output)
        fputs(run->output, stderr);
    if (run->status == RUN_FAILED)
        printf("%s: FAILED: %s\n", label, run->error);
    else
        printf("%s: cycles %" G_GINT64_FORMAT ", data %s\n", label, run->cycles,
               run->status == RUN_OK ? "correct" : "WRONG");
    fflush(stdout);
}

/* Print and add to the CSV every finished run that all earlier runs
 * precede, then commit the CSV when due. */
static gboolean release_rows(Sweep *sw, GError **error)
{
    while (sw->released < sw->nruns && sw->runs[sw->released].status != RUN_PENDING) {
        const Run *run = &sw->runs[sw->released];
        progress_clear();            /* the line is drawn again later */
        run_print(sw, run);
        /* A field its setup did not announce still gets a column (the
         * file is rewritten whole at each commit). */
        for (guint i = 0; run->fields && i < run->fields->len; i++)
            add_column(sw->columns, sw->column_set, run->fields->pdata[i]);
        sw->released++;
    }
    if (csv_commit_due(sw) == 0)
        return csv_commit(sw, error);
    return TRUE;
}

static gboolean run_release(gpointer data, GError **error)
{
    return release_rows(data, error);
}

static gint64 run_due(gpointer data)
{
    return csv_commit_due(data);
}

static void run_progress(guint done, guint started, guint total, gpointer data)
{
    (void)data;
    sweep_progress(done, started, total);
}

/* Run every combination, -j at once (workers.h); FALSE if the CSV could
 * not be written (the runs still going are then stopped). */
static gboolean run_all(Sweep *sw, GError **error)
{
    WorkersSpec spec = { .count = sw->nruns, .jobs = (guint)sw->jobs,
                         .type = SWEEP_RESULT_TYPE, .run = run_child, .done = run_done,
                         .release = run_release, .due = run_due,
                         .progress = run_progress, .data = sw };
    return workers_run(&spec, error);
}

/* ---- the plot ----------------------------------------------------------- */

typedef struct {
    const char *out, *data, *y_field;
    int x;                        /* index of the x key in the varies */
    int width, height;
    gboolean log_x, log_y, linear;
} PlotRequest;

/* The unit of a field's values, or NULL where it is not known. */
static const char *field_unit(const char *field)
{
    static const struct {
        const char *suffix, *unit;
    } units[] = {
        { "seconds", "seconds" }, { "cycles", "cycles" }, { "compute", "cycles" },
        { "communication", "cycles" }, { "startup", "cycles" },
        { "element_time", "cycles" }, { "messages", "messages" },
        { "element_transfers", "elements" }, { "elements", "elements" },
        { "elements_up", "elements" }, { "elements_down", "elements" },
        { "max_channel_elements", "elements" }, { "elements_per_node", "elements" },
        { "utilisation", "share of the cycles busy" }, { "nodes", "nodes" },
        { "dimensions", "dimensions" }, { "diameter", "hops" }, { "events", "events" },
    };
    if (g_str_has_prefix(field, "details.") || g_str_has_prefix(field, "bound."))
        return NULL;
    if (g_str_has_prefix(field, "time."))
        return "cycles";
    const char *dot = strrchr(field, '.');
    const char *last = dot ? dot + 1 : field;
    for (size_t i = 0; i < G_N_ELEMENTS(units); i++)
        if (!strcmp(last, units[i].suffix))
            return units[i].unit;
    return NULL;
}

/* "cycles", "element_transfers (elements)", "details.rounds". */
static char *field_label(const char *field)
{
    const char *unit = field_unit(field);
    const char *dot = strrchr(field, '.');
    if (!unit || !strcmp(dot ? dot + 1 : field, unit))
        return g_strdup(field);
    return g_strdup_printf("%s (%s)", field, unit);
}

/* The field in cycles whose value in seconds FIELD is ("seconds" of
 * "cycles", "phases.P.seconds" of "phases.P.cycles"), or NULL. */
static char *cycles_field_of(const char *field)
{
    if (!strcmp(field, "seconds"))
        return g_strdup("cycles");
    if (g_str_has_suffix(field, ".seconds"))
        return g_strdup_printf("%.*s.cycles", (int)(strlen(field) - strlen(".seconds")),
                               field);
    return NULL;
}

static int point_compare(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Points of a series in x order. */
static void series_sort(PlotSeries *s)
{
    guint n = s->x->len;
    double *p = g_new(double, 2 * (gsize)n + 2);
    for (guint i = 0; i < n; i++) {
        p[2 * i] = g_array_index(s->x, double, i);
        p[2 * i + 1] = g_array_index(s->y, double, i);
    }
    qsort(p, n, 2 * sizeof(double), point_compare);
    for (guint i = 0; i < n; i++) {
        g_array_index(s->x, double, i) = p[2 * i];
        g_array_index(s->y, double, i) = p[2 * i + 1];
    }
    g_free(p);
}

static gboolean series_equal(const PlotSeries *a, const PlotSeries *b)
{
    if (a->x->len != b->x->len)
        return FALSE;
    for (guint i = 0; i < a->x->len; i++)
        if (g_array_index(a->x, double, i) != g_array_index(b->x, double, i)
            || g_array_index(a->y, double, i) != g_array_index(b->y, double, i))
            return FALSE;
    return TRUE;
}

static gboolean series_empty(const PlotSeries *s)
{
    for (guint i = 0; i < s->y->len; i++)
        if (isfinite(g_array_index(s->y, double, i)))
            return FALSE;
    return TRUE;
}

static void series_remove(Plot *p, guint i)
{
    PlotSeries *s = p->series->pdata[i];
    g_free(s->name);
    g_array_unref(s->x);
    g_array_unref(s->y);
    g_free(s);
    g_ptr_array_remove_index(p->series, i);
}

static void ratio_of(const Plot *p, gboolean want_x, double *lo, double *hi)
{
    *lo = G_MAXDOUBLE;
    *hi = -G_MAXDOUBLE;
    for (guint i = 0; i < p->series->len; i++) {
        const PlotSeries *s = p->series->pdata[i];
        const GArray *a = want_x ? s->x : s->y;
        for (guint k = 0; k < a->len; k++) {
            double v = g_array_index(a, double, k);
            if (isfinite(v)) {
                *lo = MIN(*lo, v);
                *hi = MAX(*hi, v);
            }
        }
    }
}

/* The distinct non-empty strings of TEXTS, in order (not copied). */
static GPtrArray *distinct(GPtrArray *texts)
{
    GPtrArray *seen = g_ptr_array_new();
    for (guint i = 0; i < texts->len; i++) {
        const char *t = texts->pdata[i];
        gboolean have = !t || !*t;
        for (guint j = 0; !have && j < seen->len; j++)
            have = !strcmp(seen->pdata[j], t);
        if (!have)
            g_ptr_array_add(seen, (gpointer)t);
    }
    return seen;
}

/* "a", "a and b", "a, b and c" of the distinct non-empty TEXTS. */
static char *join_distinct(GPtrArray *texts)
{
    g_autoptr(GPtrArray) seen = distinct(texts);
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < seen->len; i++)
        g_string_append_printf(s, "%s%s", i == 0 ? "" : i + 1 == seen->len ? " and " : ", ",
                               (const char *)seen->pdata[i]);
    return g_string_free(s, FALSE);
}

static guint distinct_count(GPtrArray *texts)
{
    g_autoptr(GPtrArray) seen = distinct(texts);
    return seen->len;
}

/* A measured series of failed runs only is not drawn, nor a bound of it. */
static void drop_empty_series(Plot *p)
{
    for (guint i = 0; i < p->series->len; i++) {
        PlotSeries *s = p->series->pdata[i];
        if (s->dashed || !series_empty(s))
            continue;
        for (guint j = 0; j < p->series->len; j++)
            if (((PlotSeries *)p->series->pdata[j])->bounds == s) {
                series_remove(p, j);
                i -= j < i;
                j--;
            }
        series_remove(p, i--);
    }
}

/* Bounds equal at every point are drawn once: two of one series as one
 * line named by both ("A = B"); one the same for several series (a bound
 * on the problem rather than the method, as Theorem 1 for every method),
 * which would hide under the last drawn, as a bound of no series that
 * names them. */
static void merge_equal_bounds(Plot *p)
{
    for (guint i = 0; i < p->series->len; i++) {
        PlotSeries *s = p->series->pdata[i];
        for (guint j = i + 1; s->dashed && j < p->series->len; j++) {
            PlotSeries *t = p->series->pdata[j];
            if (t->dashed && t->bounds == s->bounds && series_equal(s, t)) {
                char *both = g_strdup_printf("%s = %s", s->name, t->name);
                g_free(s->name);
                s->name = both;
                series_remove(p, j--);
            }
        }
    }
    guint nmeasured = 0;
    for (guint i = 0; i < p->series->len; i++)
        nmeasured += !((PlotSeries *)p->series->pdata[i])->dashed;
    for (guint i = 0; i < p->series->len; i++) {
        PlotSeries *s = p->series->pdata[i];
        if (!s->dashed || !s->bounds)
            continue;
        g_autoptr(GPtrArray) owners = g_ptr_array_new();
        g_ptr_array_add(owners, s->bounds->name);
        for (guint j = i + 1; j < p->series->len; j++) {
            PlotSeries *t = p->series->pdata[j];
            if (t->dashed && t->bounds && t->bounds != s->bounds
                && !strcmp(t->name, s->name) && series_equal(s, t)) {
                g_ptr_array_add(owners, t->bounds->name);
                series_remove(p, j--);
            }
        }
        if (owners->len == 1)
            continue;
        g_autofree char *who = owners->len == nmeasured ? g_strdup("every series")
                                                        : join_distinct(owners);
        char *name = g_strdup_printf("%s (%s)", s->name, who);
        g_free(s->name);
        s->name = name;
        s->bounds = NULL;
    }
}

/* Title: the algorithm(s), and the method when every run has the same.
 * Subtitle: the machine, the nodes (their range when it varies), what is
 * drawn. */
static void plot_titles(const Sweep *sw, const PlotRequest *q, Plot *p, gboolean bounds)
{
    g_autoptr(GPtrArray) algorithms = g_ptr_array_new(), methods = g_ptr_array_new(),
                         machines = g_ptr_array_new(), topologies = g_ptr_array_new();
    guint lo = G_MAXUINT, hi = 0;
    for (guint k = 0; k < sw->nruns; k++) {
        const Run *r = &sw->runs[k];
        if (!r->report)
            continue;
        g_ptr_array_add(algorithms, r->algorithm);
        g_ptr_array_add(methods, r->method);
        g_ptr_array_add(machines, r->machine);
        g_ptr_array_add(topologies, r->topology);
        lo = MIN(lo, r->nodes);
        hi = MAX(hi, r->nodes);
    }
    g_autofree char *algorithm = join_distinct(algorithms);
    g_autofree char *method = join_distinct(methods);
    gboolean one_method = distinct_count(methods) == 1 && distinct_count(algorithms) == 1;
    for (guint k = 0; one_method && k < sw->nruns; k++)
        one_method = !sw->runs[k].report || *sw->runs[k].method;
    if (!*algorithm)
        p->title = g_strdup("cubemu sweep");
    else if (one_method)
        p->title = g_strdup_printf("%s, %s", algorithm, method);
    else
        p->title = g_strdup(algorithm);
    g_autofree char *machine = join_distinct(machines);
    g_autofree char *topology = join_distinct(topologies);
    const char *on = distinct_count(machines) == 1 && strcmp(machine, "custom") ? machine
                     : distinct_count(topologies) == 1 ? topology : "several machines";
    g_autofree char *nodes = lo > hi ? g_strdup("")
                             : lo == hi ? g_strdup_printf(", %u nodes", lo)
                                        : g_strdup_printf(", %u..%u nodes", lo, hi);
    p->subtitle = g_strdup_printf("%s%s: measured %s%s", on, nodes, q->y_field,
                                  !bounds ? "" : p->x_names ? " (points) and bounds on it (dashed)"
                                                            : " (solid) and bounds on it (dashed)");
}

/* A bound on the plotted field that did not apply in some runs, for the
 * legend's notes: which bound, why, and in how many runs. */
typedef struct {
    char *name, *reason;
    guint runs;
} NotApplying;

static void not_applying_clear(void *p)
{
    NotApplying *na = p;
    g_free(na->name);
    g_free(na->reason);
}

/* Count bound B, which does not apply in a run, under its name and reason. */
static void count_not_applying(GArray *list, const RunBound *b)
{
    const char *reason = b->reason ? b->reason : "not this run's";
    for (guint i = 0; i < list->len; i++) {
        NotApplying *na = &g_array_index(list, NotApplying, i);
        if (!strcmp(na->name, b->name) && !strcmp(na->reason, reason)) {
            na->runs++;
            return;
        }
    }
    NotApplying na = { g_strdup(b->name), g_strdup(reason), 1 };
    g_array_append_val(list, na);
}

static gboolean write_plot(const Sweep *sw, const PlotRequest *q, GError **error)
{
    int xi = q->x;
    const Vary *xv = vary_at(sw, (guint)xi);
    gboolean categories = !xv->numeric;
    g_autoptr(Plot) p = plot_new();
    if (categories) {
        p->x_names = g_ptr_array_new_with_free_func(g_free);
        for (char **s = xv->values; *s; s++)
            g_ptr_array_add(p->x_names, short_value(xv->key, *s));
    }
    p->xlabel = g_strdup(short_key(xv->key));
    p->ylabel = field_label(q->y_field);
    g_autofree char *y_cycles = cycles_field_of(q->y_field);

    g_autoptr(GHashTable) measured = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_autoptr(GHashTable) bound_series = g_hash_table_new_full(g_str_hash, g_str_equal,
                                                               g_free, NULL);
    g_autoptr(GPtrArray) other_fields = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GArray) not_applying = g_array_new(FALSE, TRUE, sizeof(NotApplying));
    g_array_set_clear_func(not_applying, not_applying_clear);
    guint failed = 0, converted = 0;
    for (guint k = 0; k < sw->nruns; k++) {
        const Run *run = &sw->runs[k];
        double x = run->choice[xi];
        if (!categories)
            number_value(run_value(sw, run, (guint)xi), &x);
        g_autofree char *name = run_label(sw, run, xi, TRUE);
        if (!*name) {
            g_free(name);
            name = g_strdup("measured");
        }
        PlotSeries *s = g_hash_table_lookup(measured, name);
        if (!s) {
            s = plot_add_series(p, name, FALSE);
            g_hash_table_insert(measured, g_strdup(name), s);
        }
        const double *y = run->values ? g_hash_table_lookup(run->values, q->y_field) : NULL;
        plot_series_add(s, x, y ? *y : NAN);
        failed += !run->report;
        for (guint i = 0; run->bounds && i < run->bounds->len; i++) {
            const RunBound *b = &g_array_index(run->bounds, RunBound, i);
            if (!b->applies) {
                if (!strcmp(b->field, q->y_field)
                    || (y_cycles && !strcmp(b->field, y_cycles)))
                    count_not_applying(not_applying, b);
                continue;
            }
            double value = b->value;
            if (strcmp(b->field, q->y_field)) {
                if (y_cycles && !strcmp(b->field, y_cycles) && run->tick_seconds > 0) {
                    value *= run->tick_seconds;
                    converted++;
                } else {
                    gboolean have = FALSE;
                    for (guint j = 0; !have && j < other_fields->len; j++)
                        have = !strcmp(other_fields->pdata[j], b->field);
                    if (!have)
                        g_ptr_array_add(other_fields, g_strdup(b->field));
                    continue;
                }
            }
            g_autofree char *key = g_strdup_printf("%s\x1f%s", name, b->name);
            PlotSeries *bs = g_hash_table_lookup(bound_series, key);
            if (!bs) {
                bs = plot_add_bound(p, b->name, s);
                g_hash_table_insert(bound_series, g_steal_pointer(&key), bs);
            }
            plot_series_add(bs, x, value);
        }
    }
    drop_empty_series(p);
    gboolean bounds = FALSE;
    for (guint i = 0; i < p->series->len; i++) {
        PlotSeries *s = p->series->pdata[i];
        series_sort(s);
        bounds |= s->dashed;
    }
    merge_equal_bounds(p);
    plot_titles(sw, q, p, bounds);
    if (converted)
        plot_add_note(p, "bounds on cycles are drawn in seconds (times the machine's "
                         "tick-seconds)");
    if (other_fields->len) {
        GString *s = g_string_new("not drawn: bounds on ");
        for (guint i = 0; i < other_fields->len; i++)
            g_string_append_printf(s, "%s%s", i ? ", " : "", (char *)other_fields->pdata[i]);
        g_string_append(s, " (--y plots them)");
        plot_add_note(p, s->str);
        g_string_free(s, TRUE);
    }
    /* One note for the bounds left out of the same runs for the same
     * reason (a sweep over faults voids every fault-free bound at once),
     * their names in the order first met. */
    g_autofree gboolean *noted = g_new0(gboolean, not_applying->len + 1);
    for (guint i = 0; i < not_applying->len; i++) {
        if (noted[i])
            continue;
        const NotApplying *na = &g_array_index(not_applying, NotApplying, i);
        GString *names = g_string_new(na->name);
        for (guint j = i + 1; j < not_applying->len; j++) {
            const NotApplying *o = &g_array_index(not_applying, NotApplying, j);
            if (!noted[j] && o->runs == na->runs
                && !strcmp(o->reason, na->reason)) {
                g_string_append_printf(names, "; %s", o->name);
                noted[j] = TRUE;
            }
        }
        g_autofree char *note = g_strdup_printf(
            "not drawn in %u of %u run%s: %s (n/a: %s)", na->runs, sw->nruns,
            sw->nruns == 1 ? "" : "s", names->str, na->reason);
        g_string_free(names, TRUE);
        plot_add_note(p, note);
    }
    if (failed) {
        g_autofree char *note = g_strdup_printf("not drawn: %u failed run%s", failed,
                                                failed == 1 ? "" : "s");
        plot_add_note(p, note);
    }
    double lo, hi;
    ratio_of(p, TRUE, &lo, &hi);
    p->log_x = q->log_x || (!q->linear && !categories && lo > 0
                            && hi / lo >= SWEEP_LOG_X_RATIO);
    ratio_of(p, FALSE, &lo, &hi);
    p->log_y = q->log_y || (!q->linear && lo > 0 && hi / lo >= SWEEP_LOG_Y_RATIO);
    if (categories)
        p->log_x = FALSE;
    if (q->out && !plot_save(p, q->out, q->width, q->height, error))
        return FALSE;
    return !q->data || plot_save_data(p, q->data, error);
}

/* ---- the command -------------------------------------------------------- */

static void sweep_clear(Sweep *sw)
{
    for (guint k = 0; sw->runs && k < sw->nruns; k++) {
        Run *r = &sw->runs[k];
        g_free(r->choice);
        g_free(r->error);
        g_free(r->output);
        g_free(r->algorithm);
        g_free(r->method);
        g_free(r->machine);
        g_free(r->topology);
        if (r->fields)
            g_ptr_array_unref(r->fields);
        if (r->values)
            g_hash_table_unref(r->values);
        for (guint i = 0; r->bounds && i < r->bounds->len; i++) {
            g_free(g_array_index(r->bounds, RunBound, i).name);
            g_free(g_array_index(r->bounds, RunBound, i).field);
            g_free(g_array_index(r->bounds, RunBound, i).reason);
        }
        if (r->bounds)
            g_array_unref(r->bounds);
    }
    g_free(sw->runs);
    if (sw->columns)
        g_ptr_array_unref(sw->columns);
    if (sw->column_set)
        g_hash_table_unref(sw->column_set);
    if (sw->fields)
        g_ptr_array_unref(sw->fields);
    if (sw->field_set)
        g_hash_table_unref(sw->field_set);
}

/* The failed runs, listed once the sweep is over. */
static void print_failures(const Sweep *sw)
{
    guint n = 0;
    for (guint k = 0; k < sw->nruns; k++)
        n += sw->runs[k].status != RUN_OK;
    if (!n)
        return;
    fprintf(stderr, "cubemu sweep: %u of %u runs failed:\n", n, sw->nruns);
    guint shown = 0;
    for (guint k = 0; k < sw->nruns && shown < SWEEP_MAX_FAILURES; k++) {
        const Run *r = &sw->runs[k];
        if (r->status == RUN_OK)
            continue;
        g_autofree char *label = run_label(sw, r, -1, FALSE);
        fprintf(stderr, "  %s: %s%s\n", label, r->status == RUN_WRONG ? "data wrong: " : "",
                r->error ? r->error : "");
        shown++;
    }
    if (n > shown)
        fprintf(stderr, "  ... and %u more\n", n - shown);
}

static int cmd_sweep(int argc, char **argv)
{
    g_auto(GStrv) vary_flags = NULL, sets = NULL, rest = NULL;
    g_autofree char *csv = NULL, *plot = NULL, *png = NULL, *size = NULL,
                    *y_field = NULL, *x_key = NULL, *plot_data = NULL;
    gboolean log_x = FALSE, log_y = FALSE, linear = FALSE;
    gboolean progress = FALSE, quiet = FALSE;
    int jobs = 1;
    g_auto(CliLimits) limits = { 0 };
    GOptionEntry entries[] = {
        CLI_PROGRESS_ENTRIES(&progress, &quiet, " (run i of n)",
                             "errors and results"),
        { "vary", 0, 0, G_OPTION_ARG_STRING_ARRAY, &vary_flags,
          "Values to run a key with (V1,V2,... or ranges FIRST..LAST[:STEP]); "
          "several --vary run every combination", "SECTION.KEY=V1,V2,..." },
        { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
          "Override or add a scenario key for every run", "SECTION.KEY=VALUE" },
        WORKERS_JOBS_ENTRY(&jobs, "Runs at once, each in a process of its own (default 1)"),
        { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv,
          "One row per run, written as runs finish: the varied keys, status, "
          "data_correct, every numeric output field, error", "OUT.csv" },
        { "plot", 0, 0, G_OPTION_ARG_FILENAME, &plot,
          "Plot the measured field and its bounds, as PNG, SVG or PDF by the "
          "extension", "OUT.png|svg|pdf" },
        { "png", 0, 0, G_OPTION_ARG_FILENAME, &png,
          "Same as --plot, for a .png file", "OUT.png" },
        { "plot-data", 0, 0, G_OPTION_ARG_FILENAME, &plot_data,
          "What the plot draws, as JSON: titles, series, points, colours, legend",
          "OUT.json" },
        { "y", 0, 0, G_OPTION_ARG_STRING, &y_field,
          "Field to plot (default cycles), with the bounds on it", "FIELD" },
        { "x", 0, 0, G_OPTION_ARG_STRING, &x_key,
          "Varied key for the x axis (default: the first numeric one)", "KEY" },
        { "size", 0, 0, G_OPTION_ARG_STRING, &size,
          "Plot size in pixels, points for PDF (default 1000x620)", "WxH" },
        { "log-x", 0, 0, G_OPTION_ARG_NONE, &log_x, "Logarithmic x axis", NULL },
        { "log-y", 0, 0, G_OPTION_ARG_NONE, &log_y, "Logarithmic y axis", NULL },
        { "linear", 0, 0, G_OPTION_ARG_NONE, &linear,
          "Linear axes (default: log when values span a wide range)", NULL },
        CLI_LIMIT_ENTRIES(&limits),
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL,
          "[SCENARIO]" },
        { .long_name = NULL }
    };
    static const char description[] =
        "Example: cubemu sweep --vary algorithm.elements-per-node=16,32,64,128 \\\n"
        "           --vary algorithm.method=concurrent,sequential --csv k.csv --plot k.svg\n"
        "Exit status: 0 every run correct, 1 a run failed or its data was wrong,\n"
        "2 bad input (found before any run) or an output that cannot be written.";
    g_auto(WorkersArgs) args = { 0 };
    workers_args_init(&args, argc, argv);
    static const char *const once[] = { "--csv", "--plot", "--png", "--plot-data", "--y",
                                        "--x", "--size", "--jobs", "-j",
                                        "--tick-limit", "--wall-limit", "--threads", NULL };
    if (!cli_parse_options("sweep", entries,
                           "- run a scenario over a range of values",
                           description, once, &args.argc, &args.argv)
        || !cli_progress("sweep", progress, quiet)
        || !cli_limits_check("sweep", &limits))
        return EXIT_INPUT;
    if (rest && g_strv_length(rest) > 1)
        return cli_fail("sweep", "one scenario at a time ('%s' is extra)", rest[1]);
    if (!vary_flags)
        return cli_fail("sweep", "nothing to vary (e.g. --vary algorithm.elements-per-node=16,32,64)");
    if (png && plot)
        return cli_fail("sweep", "--png and --plot: give one (--png is --plot for a .png file)");
    if (png && plot_format_of(png) != PLOT_FORMAT_PNG)
        return cli_fail("sweep", "--png %s: expected a .png file (--plot also writes "
                        ".svg and .pdf)", png);
    if (plot && plot_format_of(plot) == PLOT_FORMAT_UNKNOWN)
        return cli_fail("sweep", "--plot %s: unknown plot format (valid extensions: %s)",
                        plot, PLOT_EXTENSIONS);
    if (!workers_jobs_check("sweep", jobs, "runs"))
        return EXIT_INPUT;
    PlotRequest q = { .out = plot ? plot : png, .data = plot_data,
                      .y_field = y_field ? y_field : "cycles",
                      .width = SWEEP_DEFAULT_WIDTH, .height = SWEEP_DEFAULT_HEIGHT,
                      .log_x = log_x, .log_y = log_y, .linear = linear };
    if (size) {
        char *end;
        long w = strtol(size, &end, 10), h = 0;
        if (*end == 'x' || *end == 'X') {
            const char *hs = end + 1;
            h = strtol(hs, &end, 10);
            if (end == hs)
                h = 0;
        }
        if (*end || w < SWEEP_MIN_SIZE || h < SWEEP_MIN_SIZE || w > SWEEP_MAX_SIZE
            || h > SWEEP_MAX_SIZE)
            return cli_fail("sweep", "--size %s: expected WIDTHxHEIGHT within %dx%d..%dx%d",
                              size, SWEEP_MIN_SIZE, SWEEP_MIN_SIZE, SWEEP_MAX_SIZE,
                              SWEEP_MAX_SIZE);
        q.width = (int)w;
        q.height = (int)h;
    }
    if (linear && (log_x || log_y))
        return cli_fail("sweep", "--linear contradicts --log-x/--log-y");

    Sweep sw = { .sets = sets, .path = rest ? rest[0] : NULL, .csv = csv,
                 .limits = &limits };
    g_autoptr(GArray) varies = g_array_new(FALSE, FALSE, sizeof(Vary));
    g_array_set_clear_func(varies, vary_clear);
    sw.varies = varies;
    g_autoptr(GString) problem = g_string_new(NULL);
    guint64 total = 1;
    for (char **f = vary_flags; *f; f++) {
        if (!vary_parse(*f, varies, problem))
            return cli_fail("sweep", "%s", problem->str);
        total *= g_strv_length(g_array_index(varies, Vary, varies->len - 1).values);
        if (total > SWEEP_MAX_RUNS)
            return cli_fail("sweep", "--vary: %" G_GUINT64_FORMAT "+ combinations, more "
                              "than the %d runs a sweep may make", (guint64)total,
                              SWEEP_MAX_RUNS);
    }
    sw.nruns = (guint)total;
    sw.jobs = MIN(jobs, (int)sw.nruns);
    sw.runs = g_new0(Run, sw.nruns);
    for (guint k = 0; k < sw.nruns; k++) {
        Run *run = &sw.runs[k];
        run->choice = g_new0(guint, varies->len);
        /* Mixed radix, the last --vary fastest. */
        guint rem = k;
        for (guint i = varies->len; i-- > 0;) {
            guint n = g_strv_length(g_array_index(varies, Vary, i).values);
            run->choice[i] = rem % n;
            rem /= n;
        }
        run->fields = g_ptr_array_new();
        run->values = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
        run->bounds = g_array_new(FALSE, FALSE, sizeof(RunBound));
    }
    sw.columns = g_ptr_array_new_with_free_func(g_free);
    sw.column_set = g_hash_table_new(g_str_hash, g_str_equal);
    sw.fields = g_ptr_array_new_with_free_func(g_free);
    sw.field_set = g_hash_table_new(g_str_hash, g_str_equal);
    /* One column per name: a field named as a varied key (machine.
     * dimensions is both) is the key's column. */
    static const char *const fixed[] = { "status", "data_correct", "error" };
    for (size_t i = 0; i < G_N_ELEMENTS(fixed); i++)
        g_hash_table_add(sw.column_set, (gpointer)fixed[i]);
    for (guint i = 0; i < varies->len; i++)
        g_hash_table_add(sw.column_set, g_array_index(varies, Vary, i).key);

    /* 1. Everything checked before the first run. */
    Problems ps = { g_ptr_array_new_with_free_func(problem_free),
                    g_hash_table_new(g_str_hash, g_str_equal) };
    const char *outputs[][2] = { { "--csv", csv }, { plot ? "--plot" : "--png", q.out },
                                 { "--plot-data", plot_data } };
    for (size_t i = 0; i < G_N_ELEMENTS(outputs); i++) {
        if (!outputs[i][1])
            continue;
        gboolean twice = FALSE;
        for (size_t j = 0; j < i; j++)
            if (outputs[j][1] && !strcmp(outputs[j][1], outputs[i][1])) {
                g_autofree char *text = g_strdup_printf("%s %s: also given to %s; give "
                                                        "each output its own file",
                                                        outputs[i][0], outputs[i][1],
                                                        outputs[j][0]);
                problems_add(&ps, NULL, text);
                twice = TRUE;
            }
        if (!twice)
            check_output(&ps, outputs[i][1]);
    }
    q.x = x_key ? check_x(&sw, &ps, x_key) : default_x(&sw);
    check_combinations(&sw, &ps);
    check_y(&sw, &ps, q.y_field);
    int status = EXIT_OK;
    if (ps.list->len) {
        problems_print(&ps, sw.nruns);
        status = EXIT_INPUT;
    }
    g_ptr_array_unref(ps.list);
    g_hash_table_unref(ps.by_text);
    if (status != EXIT_OK) {
        sweep_clear(&sw);
        return status;
    }

    /* 2, 3. The runs; rows released in order as they finish. */
    GError *e = NULL;
    progress_begin(rest ? rest[0] : "sweep");
    gboolean ok = run_all(&sw, &e);
    progress_end();
    ok = ok
                  && (!csv || (sw.committed == sw.released && sw.released) || csv_commit(&sw, &e))
                  && ((!q.out && !q.data) || write_plot(&sw, &q, &e));
    print_failures(&sw);
    for (guint k = 0; k < sw.nruns; k++)
        if (sw.runs[k].status != RUN_OK)
            status = EXIT_FAILED;
    if (!ok) {
        cli_print_error("sweep", e);
        g_error_free(e);
        status = EXIT_INPUT;
    }
    sweep_clear(&sw);
    return status;
}

const CliCommand cli_command_sweep = {
    .name = "sweep",
    .usage = "sweep [SCENARIO] --vary SECTION.KEY=V1,V2,... [--vary ...] "
             "[--set SECTION.KEY=VALUE]... [-j N] [--csv OUT.csv] [--plot OUT.png|svg|pdf] "
             "[--plot-data OUT.json] [--tick-limit TICKS] [--wall-limit SECONDS]",
    .run = cmd_sweep,
};
