/* cmd_check.c -- `cubemu check SCENARIO... [--set S.K=V]... [--junit FILE] [--tap] [--tick-limit TICKS] [--wall-limit SECONDS] [--progress | --quiet]`: run scenarios and evaluate their [expect]. */
#include "cli.h"
#include "algorithm.h"
#include "expect.h"
#include "run.h"
#include "output.h"
#include "progress.h"

#include <string.h>

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
    g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func(expect_result_free);
    if (tap)
        printf("TAP version 13\n1..%u\n", g_strv_length(files));
    unsigned passed = 0, failed = 0, errors = 0;
    gint64 start = g_get_monotonic_time();
    unsigned total = g_strv_length(files);
    for (char **f = files; *f; f++) {
        gint64 t0 = g_get_monotonic_time();
        progress_set_prefix("scenario %u of %u", (unsigned)(f - files) + 1,
                            total);
        ExpectResult *c = expect_result_new(*f);
        g_autoptr(Scenario) s = cli_build_scenario(*f, sets, &e);
        /* run_scenario checks [expect] with every other key (run_setup),
         * so that all of a file's problems are reported together. */
        RunOptions options = { 0 };
        if (s && !cli_limits_begin("check", &limits, s, &options, &e)) {
            cli_print_error("check", e);
            g_error_free(e);
            expect_result_free(c);
            return EXIT_INPUT;
        }
        g_autoptr(Report) r = s ? run_scenario(s, &options, &e) : NULL;
        cli_limits_end(&limits);
        g_autoptr(GPtrArray) expects = r ? scenario_expectations(s, &e) : NULL;
        if (!expects) {
            c->status = EXPECT_ERROR;
            c->message = g_strdup(e->message);
            g_clear_error(&e);
            errors++;
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
        if (c->status == EXPECT_PASS)
            passed++;
        else
            failed++;
        if (tap)
            expect_print_tap(stdout, results->len + 1, c);
        else
            expect_print_line(text, c);
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
        expect_write_junit(output_stream(xml), "cubemu check", results,
                           failed - errors, errors,
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
