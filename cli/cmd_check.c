/* cmd_check.c -- `cubemu check SCENARIO... [--set S.K=V]... [-j N] [--junit
 * FILE] [--tap] [--tick-limit TICKS] [--wall-limit SECONDS] [--progress |
 * --quiet]`: run scenarios and evaluate their [expect].
 *
 * -j 1 (the default) runs them one after the other in this process. -j N
 * runs N at once, each in a process of its own (cli/workers.h), and prints
 * the same bytes: each scenario's line is released in the order the
 * scenarios were given, whatever order they finish in, with what its
 * process wrote to standard error before it; TAP and JUnit XML are the
 * same but for the seconds measured, and so is the exit status. The
 * default stays 1, since nothing else is sure to be idle (make -j and CI
 * runners start checks side by side). Where a run ends its process (a
 * --wall-limit that the engine cannot see, memory exhausted, a crash), one
 * at a time ends the check as it always has, and -j N reports that
 * scenario as an error, naming how its process ended and its last line,
 * and goes on.
 */
#include "cli.h"
#include "algorithm.h"
#include "expect.h"
#include "run.h"
#include "output.h"
#include "progress.h"
#include "workers.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a scenario's process sends back (check_child): its ExpectResult's
 * status, message (or none), summary (or none) and seconds. */
#define CHECK_RESULT_TYPE "(umsmsd)"

/* Scenario PATH built with SETS, run under LIMITS (COMMAND names it in the
 * line a --wall-limit that ends the process writes: NULL in a scenario's
 * process of its own, whose line becomes its error) and its [expect]
 * evaluated. NULL and *error only if the --wall-limit's timer could not be
 * set, which ends the check. */
static ExpectResult *check_scenario(const char *path, char **sets, CliLimits *limits,
                                    const char *command, GError **error)
{
    gint64 t0 = g_get_monotonic_time();
    GError *e = NULL;
    ExpectResult *c = expect_result_new(path);
    g_autoptr(Scenario) s = cli_build_scenario(path, sets, &e);
    /* run_scenario checks [expect] with every other key (run_setup),
     * so that all of a file's problems are reported together. */
    RunOptions options = { 0 };
    if (s && !cli_limits_begin(command, limits, s, &options, error)) {
        expect_result_free(c);
        return NULL;
    }
    g_autoptr(Report) r = s ? run_scenario(s, &options, &e) : NULL;
    cli_limits_end(limits);
    g_autoptr(GPtrArray) expects = r ? scenario_expectations(s, &e) : NULL;
    if (!expects) {
        c->status = EXPECT_ERROR;
        c->message = g_strdup(e->message);
        g_clear_error(&e);
    } else if (expects->len == 0) {
        c->status = EXPECT_FAIL;
        c->message = g_strdup("no [expect] entries to check");
    } else if ((c->message = expect_evaluate(r, expects, NULL, NULL))) {
        c->status = EXPECT_FAIL;
    } else {
        c->status = EXPECT_PASS;
        c->summary = g_strdup_printf("cycles %lld", (long long)r->cycles);
    }
    c->seconds = (g_get_monotonic_time() - t0) / 1e6;
    return c;
}

/* A check: its scenarios, how it prints, and what it has printed. */
typedef struct {
    char **files;
    guint total;
    char **sets;
    CliLimits *limits;
    gboolean tap;
    FILE *text;                   /* the usual lines, unless --tap */
    GPtrArray *results;           /* ExpectResult, printed, in order */
    unsigned passed, failed, errors;
    /* -j N: results not yet printed, by scenario, and what each one's
     * process wrote to standard error. */
    ExpectResult **ended;
    char **output;
} Check;

/* Print C, the next scenario's result, count it and keep it for the
 * JUnit XML. */
static void check_print(Check *ck, ExpectResult *c)
{
    if (c->status == EXPECT_PASS)
        ck->passed++;
    else
        ck->failed++;
    if (c->status == EXPECT_ERROR)
        ck->errors++;
    if (ck->tap)
        expect_print_tap(stdout, ck->results->len + 1, c);
    else
        expect_print_line(ck->text, c);
    /* Out before the next run: a --wall-limit that ends the process
     * (util/stop.h) loses no line of the runs before. */
    fflush(stdout);
    fflush(ck->text);
    g_ptr_array_add(ck->results, c);
}

/* -j 1: one scenario after the other, in this process. FALSE if the
 * check must end (the error printed). */
static gboolean check_in_turn(Check *ck)
{
    for (guint k = 0; k < ck->total; k++) {
        progress_set_prefix("scenario %u of %u", k + 1, ck->total);
        GError *e = NULL;
        ExpectResult *c = check_scenario(ck->files[k], ck->sets, ck->limits, "check", &e);
        if (!c) {
            cli_print_error("check", e);
            g_error_free(e);
            return FALSE;
        }
        check_print(ck, c);
    }
    progress_set_prefix(NULL);
    return TRUE;
}

/* ---- -j N: each scenario in a process of its own ------------------------- */

/* In scenario K's process. */
static GVariant *check_child(guint k, gpointer data)
{
    Check *ck = data;
    GError *e = NULL;
    ExpectResult *c = check_scenario(ck->files[k], ck->sets, ck->limits, NULL, &e);
    if (!c) {
        /* As one at a time would say it; the parent reports the scenario
         * as an error with this line. */
        cli_print_error("check", e);
        fflush(NULL);
        _exit(EXIT_INPUT);
    }
    GVariant *v = g_variant_new(CHECK_RESULT_TYPE, (guint32)c->status, c->message,
                                c->summary, c->seconds);
    expect_result_free(c);
    return v;
}

/* Scenario K's process ended, with its result or FAILURE (then an error
 * of the scenario). */
static void check_done(guint k, GVariant *result, const char *failure, const char *output,
                       double seconds, gpointer data)
{
    Check *ck = data;
    ExpectResult *c = expect_result_new(ck->files[k]);
    if (result) {
        guint32 status;
        g_variant_get(result, CHECK_RESULT_TYPE, &status, &c->message, &c->summary,
                      &c->seconds);
        c->status = (ExpectStatus)status;
    } else {
        c->status = EXPECT_ERROR;
        c->message = g_strdup(failure);
        c->seconds = seconds;
    }
    ck->ended[k] = c;
    ck->output[k] = g_strdup(output);
}

/* Print every ended scenario that all earlier ones precede. */
static gboolean check_release(gpointer data, GError **error)
{
    (void)error;
    Check *ck = data;
    while (ck->results->len < ck->total && ck->ended[ck->results->len]) {
        guint k = ck->results->len;
        progress_clear();            /* the line is drawn again later */
        if (*ck->output[k]) {
            fputs(ck->output[k], stderr);
            fflush(stderr);
        }
        g_clear_pointer(&ck->output[k], g_free);
        check_print(ck, g_steal_pointer(&ck->ended[k]));
    }
    return TRUE;
}

/* The check's progress line, drawn by this process: the scenarios ended,
 * and how many are running. */
static void check_progress(guint done, guint started, guint total, gpointer data)
{
    (void)data;
    if (!progress_enabled())
        return;
    if (started > done)
        progress_update("scenario %u of %u done, %u running", done, total,
                        started - done);
    else
        progress_update("scenario %u of %u done", done, total);
}

/* -j JOBS: FALSE if the check must end (the error printed). */
static gboolean check_at_once(Check *ck, int jobs)
{
    ck->ended = g_new0(ExpectResult *, ck->total);
    ck->output = g_new0(char *, ck->total);
    WorkersSpec spec = { .count = ck->total, .jobs = MIN((guint)jobs, ck->total),
                         .type = CHECK_RESULT_TYPE, .run = check_child,
                         .done = check_done, .release = check_release,
                         .progress = check_progress, .data = ck };
    GError *e = NULL;
    progress_begin("check");
    gboolean ok = workers_run(&spec, &e);
    progress_end();
    for (guint k = 0; k < ck->total; k++) {
        expect_result_free(ck->ended[k]);
        g_free(ck->output[k]);
    }
    g_clear_pointer(&ck->ended, g_free);
    g_clear_pointer(&ck->output, g_free);
    if (!ok) {
        cli_print_error("check", e);
        g_error_free(e);
    }
    return ok;
}

/* Whether output_open(PATH) writes a temporary file: a regular file, or a
 * path that does not exist yet (util/output.h), not standard output, a
 * device or a FIFO, which are written in place. */
static gboolean check_has_temporary(const char *path)
{
    struct stat st;
    return strcmp(path, "-") && (stat(path, &st) != 0 || S_ISREG(st.st_mode));
}

static int cmd_check(int argc, char **argv)
{
    g_auto(GStrv) sets = NULL;
    g_auto(GStrv) files = NULL;
    g_autofree char *junit = NULL;
    gboolean tap = FALSE, progress = FALSE, quiet = FALSE;
    int jobs = 1;
    g_auto(CliLimits) limits = { 0 };
    GOptionEntry entries[] = {
        { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
          "Override or add a key in every scenario", "SECTION.KEY=VALUE" },
        WORKERS_JOBS_ENTRY(&jobs, "Scenarios at once, each in a process of its own "
                           "(default 1: one after the other in this process); "
                           "the output is the same"),
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
                                        "--wall-limit", "--threads", "--jobs", "-j", NULL };
    g_auto(WorkersArgs) args = { 0 };
    workers_args_init(&args, argc, argv);
    if (!cli_parse_options("check", entries, "- check scenarios' [expect]",
                           NULL, once, &args.argc, &args.argv)
        || !cli_progress("check", progress, quiet)
        || !cli_limits_check("check", &limits)
        || !workers_jobs_check("check", jobs, "scenarios"))
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
    /* With -j N a temporary file may not be open while the scenarios'
     * processes run (workers.h): it is given up, and opened again once
     * they are over. */
    if (jobs > 1 && xml && check_has_temporary(junit))
        g_clear_pointer(&xml, output_abort);
    g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func(expect_result_free);
    Check ck = { .files = files, .total = g_strv_length(files), .sets = sets,
                 .limits = &limits, .tap = tap, .text = text, .results = results };
    if (tap)
        printf("TAP version 13\n1..%u\n", ck.total);
    gint64 start = g_get_monotonic_time();
    if (!(jobs > 1 ? check_at_once(&ck, jobs) : check_in_turn(&ck)))
        return EXIT_INPUT;
    if (tap)
        printf("# %u passed, %u failed\n", ck.passed, ck.failed);
    else
        fprintf(text, "%u passed, %u failed\n", ck.passed, ck.failed);
    if (junit && !xml && !(xml = output_open(junit, &e))) {
        cli_print_error("check", e);
        g_error_free(e);
        return EXIT_INPUT;
    }
    if (xml) {
        expect_write_junit(output_stream(xml), "cubemu check", results,
                           ck.failed - ck.errors, ck.errors,
                           (g_get_monotonic_time() - start) / 1e6);
        Output *o = g_steal_pointer(&xml);
        if (!output_commit(o, &e)) {
            cli_print_error("check", e);
            g_error_free(e);
            return EXIT_INPUT;
        }
    }
    return ck.errors ? EXIT_INPUT : ck.failed ? EXIT_FAILED : EXIT_OK;
}


const CliCommand cli_command_check = {
    .name = "check",
    .usage = "check SCENARIO... [--set SECTION.KEY=VALUE]... [-j N] [--junit FILE] [--tap] [--tick-limit TICKS] [--wall-limit SECONDS] [--progress | --quiet]",
    .run = cmd_check,
};
