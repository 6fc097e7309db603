/* cmd_sweep.c -- `cubemu sweep [SCENARIO] --vary SECTION.KEY=V1,V2,...
 * [--vary ...] [--set ...] [--csv OUT.csv] [--plot OUT.png|svg|pdf]`: run a
 * scenario for every combination of the varied values, write every numeric
 * output field of every run as CSV, and plot a measured field (cycles)
 * against the first numeric varied key, one line per value of the others
 * (e.g. per method), with the reported bounds dashed.
 *
 * Runs go in the order of the --vary flags, the first varying slowest.
 * Bad input names the flag or the combination: "cubemu sweep: WHAT:
 * reason", exit 2; a run whose data is wrong makes the exit status 1.
 */
#include "cli.h"
#include "output.h"
#include "run.h"
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Runs in one sweep: beyond this a typo in a value list is likelier than
 * intent, and the plot would be unreadable anyway. */
#define SWEEP_MAX_RUNS 10000
/* A plot title longer than this is cut at a word. */
#define SWEEP_TITLE_MAX 90
#define SWEEP_DEFAULT_WIDTH 1000
#define SWEEP_DEFAULT_HEIGHT 620
#define SWEEP_MIN_SIZE 320
#define SWEEP_MAX_SIZE 8192
/* Automatic log axes: x when its values span this factor, y this one. */
#define SWEEP_LOG_X_RATIO 8.0
#define SWEEP_LOG_Y_RATIO 100.0

typedef struct {
    char *key;                    /* "algorithm.elements-per-node" */
    char **values;
    gboolean numeric;
} Vary;

typedef struct {
    guint *choice;                /* per Vary: index into its values */
    Report *report;
} Run;

static gboolean number_value(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = g_ascii_strtod(s, &end);
    return end != s && !*end && errno == 0 && isfinite(*v);
}

/* The key that varies the whole scenario file: --vary scenario=A.ini,B.ini
 * runs each file (with the other --vary and --set values on top), so that
 * algorithms with different keys can be compared in one sweep. */
#define SWEEP_SCENARIO_KEY "scenario"

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
    Vary v = { g_strndup(text, (gsize)(eq - text)), g_strsplit(eq + 1, ",", -1), TRUE };
    for (guint i = 0; i < varies->len; i++)
        if (!strcmp(g_array_index(varies, Vary, i).key, v.key)) {
            g_string_printf(problem, "--vary %s: given twice; list all its "
                            "values in one --vary", v.key);
            g_free(v.key);
            g_strfreev(v.values);
            return FALSE;
        }
    for (char **s = v.values; *s; s++) {
        g_strstrip(*s);
        double d;
        if (!**s) {
            g_string_printf(problem, "--vary '%s': empty value in the list", text);
            g_free(v.key);
            g_strfreev(v.values);
            return FALSE;
        }
        v.numeric &= number_value(*s, &d);
    }
    g_array_append_val(varies, v);
    return TRUE;
}

static void vary_clear(gpointer p)
{
    Vary *v = p;
    g_free(v->key);
    g_strfreev(v->values);
}

/* "elements-per-node" from "algorithm.elements-per-node". */
static const char *short_key(const char *key)
{
    const char *dot = strchr(key, '.');
    return dot ? dot + 1 : key;
}

static char *run_label(const GArray *varies, const Run *run, int skip_a, int skip_b)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < varies->len; i++) {
        if ((int)i == skip_a || (int)i == skip_b)
            continue;
        const Vary *v = &g_array_index(varies, Vary, i);
        g_string_append_printf(s, "%s%s=%s", s->len ? ", " : "", v->key,
                               v->values[run->choice[i]]);
    }
    return g_string_free(s, FALSE);
}

/* ---- CSV ---------------------------------------------------------------- */

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

static void add_column(GPtrArray *columns, GHashTable *seen, const char *name)
{
    if (g_hash_table_contains(seen, name))
        return;
    char *copy = g_strdup(name);
    g_ptr_array_add(columns, copy);
    g_hash_table_add(seen, copy);
}

/* Every numeric output field of every run, in order of first appearance. */
static GPtrArray *csv_columns(const Run *runs, guint nruns)
{
    GPtrArray *columns = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
    for (guint k = 0; k < nruns; k++) {
        g_auto(GStrv) fields = report_fields(runs[k].report);
        for (char **f = fields; *f; f++)
            add_column(columns, seen, *f);
    }
    return columns;
}

static gboolean field_value(const Report *r, const char *field, double *v)
{
    if (g_str_has_prefix(field, "bound.")) {
        for (guint i = 0; i < r->bounds->len; i++) {
            const Bound *b = &g_array_index(r->bounds, Bound, i);
            if (!strcmp(b->name, field + strlen("bound."))) {
                *v = b->value;
                return TRUE;
            }
        }
        return FALSE;
    }
    return report_lookup(r, field, v);
}

static void csv_number(FILE *out, double v)
{
    if (v == floor(v) && fabs(v) < 9007199254740992.0)
        fprintf(out, "%.0f", v);
    else
        fprintf(out, "%.17g", v);
}

static gboolean write_csv(const char *path, const GArray *varies,
                          const Run *runs, guint nruns, GError **error)
{
    g_autoptr(Output) o = output_open(path, error);
    if (!o)
        return FALSE;
    FILE *out = output_stream(o);
    g_autoptr(GPtrArray) columns = csv_columns(runs, nruns);
    for (guint i = 0; i < varies->len; i++) {
        csv_text(out, g_array_index(varies, Vary, i).key);
        fputc(',', out);
    }
    fputs("data_correct", out);
    for (guint c = 0; c < columns->len; c++) {
        fputc(',', out);
        csv_text(out, columns->pdata[c]);
    }
    fputc('\n', out);
    for (guint k = 0; k < nruns; k++) {
        for (guint i = 0; i < varies->len; i++) {
            const Vary *v = &g_array_index(varies, Vary, i);
            csv_text(out, v->values[runs[k].choice[i]]);
            fputc(',', out);
        }
        fputs(runs[k].report->data_correct ? "1" : "0", out);
        for (guint c = 0; c < columns->len; c++) {
            double v;
            fputc(',', out);
            if (field_value(runs[k].report, columns->pdata[c], &v))
                csv_number(out, v);
        }
        fputc('\n', out);
    }
    return output_commit(g_steal_pointer(&o), error);
}

/* ---- plot --------------------------------------------------------------- */

/* The scenario's first comment sentence: its own title. */
static char *scenario_title(const char *path)
{
    g_autofree char *text = NULL;
    if (!path || !g_file_get_contents(path, &text, NULL, NULL))
        return NULL;
    GString *s = g_string_new(NULL);
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++) {
        char *line = g_strstrip(*l);
        if (line[0] != '#' && line[0] != ';')
            break;
        line = g_strstrip(line + 1);
        if (!*line)
            break;
        g_string_append_printf(s, "%s%s", s->len ? " " : "", line);
    }
    /* Up to the first ':' or '. ' -- the subject, not the details. */
    for (gsize i = 0; i < s->len; i++)
        if (s->str[i] == ':' || (s->str[i] == '.' && (i + 1 == s->len || s->str[i + 1] == ' '))) {
            g_string_truncate(s, i);
            break;
        }
    if (s->len > SWEEP_TITLE_MAX) {
        g_string_truncate(s, SWEEP_TITLE_MAX);
        char *space = strrchr(s->str, ' ');
        if (space)
            g_string_truncate(s, (gsize)(space - s->str));
        g_string_append(s, "…");
    }
    if (!s->len) {
        g_string_free(s, TRUE);
        return NULL;
    }
    return g_string_free(s, FALSE);
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

static PlotSeries *series_for(Plot *p, GHashTable *by_name, const char *name,
                              gboolean dashed)
{
    PlotSeries *s = g_hash_table_lookup(by_name, name);
    if (!s) {
        s = plot_add_series(p, name, dashed);
        g_hash_table_insert(by_name, g_strdup(name), s);
    }
    return s;
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

typedef struct {
    const char *path, *out, *y_field, *x_key;
    int width, height;
    gboolean log_x, log_y, linear;
} PlotRequest;

static gboolean write_plot(const PlotRequest *q, const GArray *varies,
                           const Run *runs, guint nruns, GError **error)
{
    /* x: the named key, else the first numeric varied key that is not the
     * method; else the first varied key as categories. */
    int xi = -1, mi = -1;
    for (guint i = 0; i < varies->len; i++) {
        const Vary *v = &g_array_index(varies, Vary, i);
        if (!strcmp(v->key, "algorithm.method"))
            mi = (int)i;
        if (q->x_key && !strcmp(v->key, q->x_key))
            xi = (int)i;
    }
    if (q->x_key && xi < 0) {
        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                    "--x %s: not a varied key", q->x_key);
        return FALSE;
    }
    for (guint i = 0; xi < 0 && i < varies->len; i++)
        if (g_array_index(varies, Vary, i).numeric && (int)i != mi)
            xi = (int)i;
    gboolean categories = xi < 0 || !g_array_index(varies, Vary, xi).numeric;
    if (xi < 0)
        xi = 0;
    const Vary *xv = &g_array_index(varies, Vary, xi);

    g_autoptr(Plot) p = plot_new();
    if (categories) {
        p->x_names = g_ptr_array_new();
        for (char **s = xv->values; *s; s++)
            g_ptr_array_add(p->x_names, *s);
    }
    const Report *first = runs[0].report;
    g_autofree char *title = scenario_title(q->path);
    p->title = title ? g_strdup(title)
                     : g_strdup_printf("%s, %s", first->algorithm, first->machine.name);
    p->xlabel = g_strdup(short_key(xv->key));
    p->ylabel = g_strdup(q->y_field);
    gboolean bounds = !strcmp(q->y_field, "cycles");
    p->subtitle = g_strdup_printf("%s on %s (%u nodes): measured %s%s", first->algorithm,
                                  first->machine.name, machine_nodes(&first->machine),
                                  q->y_field, bounds ? " (solid) and the reported bounds "
                                                       "(dashed)" : "");

    g_autoptr(GHashTable) by_name = g_hash_table_new_full(g_str_hash, g_str_equal,
                                                          g_free, NULL);
    for (guint k = 0; k < nruns; k++) {
        const Run *run = &runs[k];
        const Report *r = run->report;
        double x = categories ? (double)run->choice[xi] : 0;
        if (!categories)
            number_value(xv->values[run->choice[xi]], &x);
        double y;
        g_autofree char *group = run_label(varies, run, xi, -1);
        /* With one other varied key, its values alone name the lines. */
        g_autofree char *name = NULL;
        if (varies->len == 2)
            name = g_strdup(g_array_index(varies, Vary, xi == 0 ? 1 : 0)
                                .values[run->choice[xi == 0 ? 1 : 0]]);
        else
            name = g_strdup(*group ? group : "measured");
        if (field_value(r, q->y_field, &y))
            plot_series_add(series_for(p, by_name, name, FALSE), x, y);
        if (!bounds)
            continue;
        /* Bounds do not depend on the method; they are one line per value
         * of the other keys. */
        g_autofree char *others = run_label(varies, run, xi, mi);
        for (guint i = 0; i < r->bounds->len; i++) {
            const Bound *b = &g_array_index(r->bounds, Bound, i);
            g_autofree char *bname = *others ? g_strdup_printf("%s [%s]", b->name, others)
                                             : g_strdup(b->name);
            PlotSeries *s = series_for(p, by_name, bname, TRUE);
            gboolean have = FALSE;
            for (guint j = 0; j < s->x->len; j++)
                have |= g_array_index(s->x, double, j) == x;
            if (!have)
                plot_series_add(s, x, b->value);
        }
    }
    guint measured = 0;
    for (guint i = 0; i < p->series->len; i++) {
        PlotSeries *s = p->series->pdata[i];
        series_sort(s);
        measured += s->dashed ? 0 : s->x->len;
    }
    if (!measured) {
        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                    "--y %s: no run has this numeric output field (e.g. cycles, "
                    "element_transfers, messages, details.KEY)", q->y_field);
        return FALSE;
    }
    /* A bound that coincides with another bound everywhere is drawn once. */
    for (guint i = 0; i < p->series->len; i++) {
        PlotSeries *s = p->series->pdata[i];
        for (guint j = i + 1; s->dashed && j < p->series->len; j++) {
            PlotSeries *t = p->series->pdata[j];
            if (t->dashed && series_equal(s, t)) {
                g_free(t->name);
                g_array_unref(t->x);
                g_array_unref(t->y);
                g_free(t);
                g_ptr_array_remove_index(p->series, j--);
            }
        }
    }
    double lo, hi;
    ratio_of(p, TRUE, &lo, &hi);
    p->log_x = q->log_x || (!q->linear && !categories && lo > 0
                            && hi / lo >= SWEEP_LOG_X_RATIO);
    ratio_of(p, FALSE, &lo, &hi);
    p->log_y = q->log_y || (!q->linear && lo > 0 && hi / lo >= SWEEP_LOG_Y_RATIO);
    if (categories)
        p->log_x = FALSE;
    return plot_save(p, q->out, q->width, q->height, error);
}

/* ---- the command -------------------------------------------------------- */

static int cmd_sweep(int argc, char **argv)
{
    g_auto(GStrv) vary_flags = NULL, sets = NULL, rest = NULL;
    g_autofree char *csv = NULL, *plot = NULL, *png = NULL, *size = NULL,
                    *y_field = NULL, *x_key = NULL;
    gboolean log_x = FALSE, log_y = FALSE, linear = FALSE;
    GOptionEntry entries[] = {
        { "vary", 0, 0, G_OPTION_ARG_STRING_ARRAY, &vary_flags,
          "Values to run a key with; several --vary run every combination",
          "SECTION.KEY=V1,V2,..." },
        { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
          "Override or add a scenario key for every run", "SECTION.KEY=VALUE" },
        { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv,
          "One row per run: the varied keys, then every numeric output field",
          "OUT.csv" },
        { "plot", 0, 0, G_OPTION_ARG_FILENAME, &plot,
          "Plot the measured field and the bounds, as PNG, SVG or PDF by the "
          "extension", "OUT.png|svg|pdf" },
        { "png", 0, 0, G_OPTION_ARG_FILENAME, &png,
          "Same as --plot, for a .png file", "OUT.png" },
        { "y", 0, 0, G_OPTION_ARG_STRING, &y_field,
          "Field to plot (default cycles; bounds are drawn for cycles)", "FIELD" },
        { "x", 0, 0, G_OPTION_ARG_STRING, &x_key,
          "Varied key for the x axis (default: the first numeric one)", "KEY" },
        { "size", 0, 0, G_OPTION_ARG_STRING, &size,
          "Plot size in pixels, points for PDF (default 1000x620)", "WxH" },
        { "log-x", 0, 0, G_OPTION_ARG_NONE, &log_x, "Logarithmic x axis", NULL },
        { "log-y", 0, 0, G_OPTION_ARG_NONE, &log_y, "Logarithmic y axis", NULL },
        { "linear", 0, 0, G_OPTION_ARG_NONE, &linear,
          "Linear axes (default: log when values span a wide range)", NULL },
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL,
          "[SCENARIO]" },
        { .long_name = NULL }
    };
    g_autoptr(GOptionContext) ctx = g_option_context_new("- run a scenario over a range of values");
    g_option_context_add_main_entries(ctx, entries, NULL);
    g_option_context_set_description(ctx,
        "Example: cubemu sweep --vary algorithm.elements-per-node=16,32,64,128 \\\n"
        "           --vary algorithm.method=concurrent,sequential --csv k.csv --plot k.svg");
    static const char *const once[] = { "--csv", "--plot", "--png", "--y", "--x", "--size", NULL };
    if (!cli_refuse_repeated("sweep", argc, argv, once))
        return EXIT_INPUT;
    if (!cli_parse(ctx, "sweep", &argc, &argv))
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
    PlotRequest q = { .path = rest ? rest[0] : NULL, .out = plot ? plot : png,
                      .y_field = y_field ? y_field : "cycles", .x_key = x_key,
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

    g_autoptr(GArray) varies = g_array_new(FALSE, FALSE, sizeof(Vary));
    g_array_set_clear_func(varies, vary_clear);
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

    guint nv = varies->len, nruns = (guint)total;
    Run *runs = g_new0(Run, nruns);
    int status = EXIT_OK;
    for (guint k = 0; k < nruns; k++) {
        Run *run = &runs[k];
        run->choice = g_new0(guint, nv);
        /* Mixed radix, the last --vary fastest. */
        guint rem = k;
        for (guint i = nv; i-- > 0;) {
            guint n = g_strv_length(g_array_index(varies, Vary, i).values);
            run->choice[i] = rem % n;
            rem /= n;
        }
        g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func(g_free);
        for (char **s = sets; s && *s; s++)
            g_ptr_array_add(all, g_strdup(*s));
        const char *path = q.path;
        for (guint i = 0; i < nv; i++) {
            const Vary *v = &g_array_index(varies, Vary, i);
            if (!strcmp(v->key, SWEEP_SCENARIO_KEY))
                path = v->values[run->choice[i]];
            else
                g_ptr_array_add(all, g_strdup_printf("%s=%s", v->key,
                                                     v->values[run->choice[i]]));
        }
        g_ptr_array_add(all, NULL);
        g_autofree char *label = run_label(varies, run, -1, -1);
        GError *e = NULL;
        g_autoptr(Scenario) s = cli_build_scenario(path, (char **)all->pdata, &e);
        if (s)
            run->report = run_scenario(s, NULL, &e);
        if (!run->report) {
            fprintf(stderr, "cubemu sweep: %s: %s\n", label, e->message);
            g_error_free(e);
            status = EXIT_INPUT;
            break;
        }
        printf("%s: cycles %" G_GINT64_FORMAT ", data %s\n", label,
               (gint64)run->report->cycles,
               run->report->data_correct ? "correct" : "WRONG");
        if (!run->report->data_correct)
            status = EXIT_FAILED;
    }
    if (status != EXIT_INPUT) {
        GError *e = NULL;
        gboolean ok = (!csv || write_csv(csv, varies, runs, nruns, &e))
                      && (!q.out || write_plot(&q, varies, runs, nruns, &e));
        if (!ok) {
            cli_print_error("sweep", e);
            g_error_free(e);
            status = EXIT_INPUT;
        }
    }
    for (guint k = 0; k < nruns; k++) {
        g_free(runs[k].choice);
        report_free(runs[k].report);
    }
    g_free(runs);
    return status;
}

const CliCommand cli_command_sweep = {
    .name = "sweep",
    .usage = "sweep [SCENARIO] --vary SECTION.KEY=V1,V2,... [--vary ...] "
             "[--set SECTION.KEY=VALUE]... [--csv OUT.csv] [--plot OUT.png|svg|pdf]",
    .run = cmd_sweep,
};
