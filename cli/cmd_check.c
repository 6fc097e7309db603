/* cmd_check.c -- `cubemu check SCENARIO... [--set S.K=V]... [--junit FILE] [--tap] [--tick-limit TICKS] [--wall-limit SECONDS] [--progress | --quiet]`: run scenarios and evaluate their [expect]. */
#include "cli.h"
#include "algorithm.h"
#include "run.h"
#include "output.h"
#include "progress.h"

#include <string.h>

/* The first failed expectation as text, or NULL if all hold. */
static char *evaluate(const Report *r, GPtrArray *expects)
{
    for (guint i = 0; i < expects->len; i++) {
        const Expectation *x = expects->pdata[i];
        switch (x->kind) {
        case EXPECT_DATA_CORRECT:
            if (!r->data_correct)
                return g_strdup_printf("%s: data = correct, measured: %s",
                                       x->where, r->data_problem);
            break;
        case EXPECT_BOUNDS_HOLD:
            for (guint b = 0; b < r->bounds->len; b++) {
                const Bound *bd = &g_array_index(r->bounds, Bound, b);
                if (bd->applies && !bd->holds)
                    return g_strdup_printf("%s: bounds = hold, but %s bound "
                                           "'%s' on %s = %.17g does not hold "
                                           "(measured %.17g)", x->where,
                                           bound_kind_text(bd->kind),
                                           bd->name, bd->field, bd->value,
                                           bd->measured);
            }
            break;
        case EXPECT_NUMERIC: {
            double v;
            if (!report_lookup(r, x->field, &v))
                return g_strdup_printf("%s: %s: no such numeric output field",
                                       x->where, x->field);
            if (!expect_op_holds(x->op, v, x->value))
                return g_strdup_printf("%s: expected %s %s %.17g, measured "
                                       "%.17g", x->where, x->field,
                                       expect_op_text(x->op), x->value, v);
            break;
        }
        }
    }
    return NULL;
}

/* One scenario's outcome, for --junit and --tap. */
typedef enum { CHECK_PASS, CHECK_FAIL, CHECK_ERROR } CheckStatus;
typedef struct {
    char *path;
    CheckStatus status;
    char *message;          /* FAIL/ERROR: the text printed after "FAIL" */
    long long cycles;       /* PASS */
    double seconds;
} CheckResult;

static void check_result_free(gpointer p)
{
    CheckResult *c = p;
    g_free(c->path);
    g_free(c->message);
    g_free(c);
}

/* Text for an XML attribute: escaped, and line breaks kept as &#10; (a
 * parser turns a literal one into a space). */
static char *xml_attr(const char *text)
{
    g_autofree char *esc = g_markup_escape_text(text, -1);
    g_auto(GStrv) lines = g_strsplit(esc, "\n", -1);
    return g_strjoinv("&#10;", lines);
}

static void seconds_text(char buf[G_ASCII_DTOSTR_BUF_SIZE], double seconds)
{
    g_ascii_formatd(buf, G_ASCII_DTOSTR_BUF_SIZE, "%.3f", seconds);
}

/* JUnit XML as Jenkins, GitLab and GitHub's test reporters read it. */
static void write_junit(FILE *out, GPtrArray *results, unsigned failures,
                        unsigned errors, double seconds)
{
    char t[G_ASCII_DTOSTR_BUF_SIZE];
    seconds_text(t, seconds);
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(out, "<testsuites name=\"cubemu check\" tests=\"%u\" failures=\"%u\" "
            "errors=\"%u\" time=\"%s\">\n", results->len, failures, errors, t);
    fprintf(out, "  <testsuite name=\"cubemu check\" tests=\"%u\" failures=\"%u\" "
            "errors=\"%u\" skipped=\"0\" time=\"%s\">\n", results->len,
            failures, errors, t);
    for (guint i = 0; i < results->len; i++) {
        const CheckResult *c = results->pdata[i];
        g_autofree char *name = xml_attr(c->path);
        seconds_text(t, c->seconds);
        fprintf(out, "    <testcase classname=\"cubemu.check\" name=\"%s\" "
                "time=\"%s\"", name, t);
        if (c->status == CHECK_PASS) {
            fprintf(out, "/>\n");
            continue;
        }
        const char *tag = c->status == CHECK_FAIL ? "failure" : "error";
        g_autofree char *msg = xml_attr(c->message);
        g_autofree char *body = g_markup_escape_text(c->message, -1);
        fprintf(out, ">\n      <%s message=\"%s\">%s</%s>\n    </testcase>\n",
                tag, msg, body, tag);
    }
    fprintf(out, "  </testsuite>\n</testsuites>\n");
}

/* A YAML double-quoted scalar. */
static char *yaml_quote(const char *text)
{
    GString *s = g_string_new("\"");
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '"' || *p == '\\')
            g_string_append_printf(s, "\\%c", *p);
        else if (*p == '\n')
            g_string_append(s, "\\n");
        else if (*p == '\t')
            g_string_append(s, "\\t");
        else if (*p < 0x20 || *p == 0x7f)
            g_string_append_printf(s, "\\x%02x", *p);
        else
            g_string_append_c(s, *p);
    }
    g_string_append_c(s, '"');
    return g_string_free(s, FALSE);
}

/* One TAP 13 test line, with a YAML diagnostic block when it failed. */
static void print_tap(unsigned n, const CheckResult *c)
{
    if (c->status == CHECK_PASS) {
        printf("ok %u - %s # cycles %lld\n", n, c->path, c->cycles);
        return;
    }
    g_autofree char *msg = yaml_quote(c->message);
    g_autofree char *file = yaml_quote(c->path);
    char t[G_ASCII_DTOSTR_BUF_SIZE];
    seconds_text(t, c->seconds);
    printf("not ok %u - %s\n  ---\n  message: %s\n  severity: %s\n"
           "  file: %s\n  duration_seconds: %s\n  ...\n", n, c->path, msg,
           c->status == CHECK_FAIL ? "fail" : "error", file, t);
}

static int cmd_check(int argc, char **argv)
{
    g_auto(GStrv) sets = NULL;
    g_auto(GStrv) files = NULL;
    g_autofree char *junit = NULL;
    gboolean tap = FALSE, progress = FALSE, quiet = FALSE;
    g_auto(CliLimits) limits = { 0 };
    GOptionEntry entries[] = {
        { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
          "Override or add a key in every scenario", "SECTION.KEY=VALUE" },
        { "junit", 0, 0, G_OPTION_ARG_FILENAME, &junit,
          "Also write JUnit XML to FILE (- for standard output; the usual "
          "lines then go to standard error)", "FILE" },
        { "tap", 0, 0, G_OPTION_ARG_NONE, &tap,
          "Print TAP version 13 instead of the usual lines", NULL },
        CLI_LIMIT_ENTRIES(&limits),
        CLI_PROGRESS_ENTRIES(&progress, &quiet, " (scenario i of n)",
                             "errors and results"),
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL,
          "SCENARIO..." },
        { .long_name = NULL }
    };
    GError *e = NULL;
    static const char *const once[] = { "--junit", "--tick-limit",
                                        "--wall-limit", NULL };
    if (!cli_parse_options("check", entries, "- check scenarios' [expect]",
                           NULL, once, &argc, &argv)
        || !cli_progress("check", progress, quiet)
        || !cli_limits_check("check", &limits))
        return EXIT_INPUT;
    if (!files || !files[0]) {
        fprintf(stderr, "cubemu check: no SCENARIO given (e.g. cubemu check "
                "scenarios/paper/*.ini)\n");
        return EXIT_INPUT;
    }
    if (tap && junit && !strcmp(junit, "-"))
        return cli_fail("check", "--tap and --junit - both write to standard "
                        "output: give --junit a FILE");
    /* Opened before any run: a bad path is refused before the work. */
    g_autoptr(Output) xml = NULL;
    if (junit && !(xml = output_open(junit, &e))) {
        cli_print_error("check", e);
        g_error_free(e);
        return EXIT_INPUT;
    }
    /* The usual lines: standard output, or standard error when the XML
     * goes there; none with --tap. */
    FILE *text = xml && !strcmp(junit, "-") ? stderr : stdout;
    g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func(check_result_free);
    if (tap)
        printf("TAP version 13\n1..%u\n", g_strv_length(files));
    unsigned passed = 0, failed = 0, errors = 0;
    gint64 start = g_get_monotonic_time();
    unsigned total = g_strv_length(files);
    for (char **f = files; *f; f++) {
        gint64 t0 = g_get_monotonic_time();
        progress_set_prefix("scenario %u of %u", (unsigned)(f - files) + 1,
                            total);
        CheckResult *c = g_new0(CheckResult, 1);
        c->path = g_strdup(*f);
        g_autoptr(Scenario) s = cli_build_scenario(*f, sets, &e);
        /* run_scenario checks [expect] with every other key (run_setup),
         * so that all of a file's problems are reported together. */
        RunOptions options = { 0 };
        if (s && !cli_limits_begin("check", &limits, s, &options, &e)) {
            cli_print_error("check", e);
            g_error_free(e);
            check_result_free(c);
            return EXIT_INPUT;
        }
        g_autoptr(Report) r = s ? run_scenario(s, &options, &e) : NULL;
        cli_limits_end(&limits);
        g_autoptr(GPtrArray) expects = r ? scenario_expectations(s, &e) : NULL;
        if (!expects) {
            c->status = CHECK_ERROR;
            c->message = g_strdup(e->message);
            g_clear_error(&e);
            errors++;
        } else if (expects->len == 0) {
            c->status = CHECK_FAIL;
            c->message = g_strdup("no [expect] entries to check");
        } else if ((c->message = evaluate(r, expects))) {
            c->status = CHECK_FAIL;
        } else {
            c->status = CHECK_PASS;
            c->cycles = (long long)r->cycles;
        }
        c->seconds = (g_get_monotonic_time() - t0) / 1e6;
        if (c->status == CHECK_PASS)
            passed++;
        else
            failed++;
        if (tap)
            print_tap(results->len + 1, c);
        else if (c->status == CHECK_PASS)
            fprintf(text, "ok   %s (cycles %lld)\n", *f, c->cycles);
        else
            fprintf(text, "FAIL %s: %s\n", *f, c->message);
        /* Out before the next run: a --wall-limit that ends the process
         * (util/stop.h) loses no line of the runs before. */
        fflush(stdout);
        fflush(text);
        g_ptr_array_add(results, c);
    }
    progress_set_prefix(NULL);
    if (tap)
        printf("# %u passed, %u failed\n", passed, failed);
    else
        fprintf(text, "%u passed, %u failed\n", passed, failed);
    if (xml) {
        write_junit(output_stream(xml), results, failed - errors, errors,
                    (g_get_monotonic_time() - start) / 1e6);
        Output *o = g_steal_pointer(&xml);
        if (!output_commit(o, &e)) {
            cli_print_error("check", e);
            g_error_free(e);
            return EXIT_INPUT;
        }
    }
    return errors ? EXIT_INPUT : failed ? EXIT_FAILED : EXIT_OK;
}


const CliCommand cli_command_check = {
    .name = "check",
    .usage = "check SCENARIO... [--set SECTION.KEY=VALUE]... [--junit FILE] [--tap] [--tick-limit TICKS] [--wall-limit SECONDS] [--progress | --quiet]",
    .run = cmd_check,
};
