/* cmd_run.c -- `cubemu run [SCENARIO] [--set S.K=V]... [--compare S.K=V]... [--compare-faultless] [--json [--pretty] [--timing]] [--dump-memory] [--trace FILE] [--schedule-out FILE [--schedule-format NAME]] [--tick-limit TICKS] [--wall-limit SECONDS] [--progress | --quiet]`: run one scenario and print a table or JSON. */
#include "cli.h"
#include "algorithm.h"
#include "run.h"
#include "prepare.h"
#include "trace.h"
#include "output.h"
#include "format.h"

#include <string.h>

/* --schedule-out PATH (in FORMAT, or by its extension): a format that
 * can be written, and a path that can; else the message, and FALSE. */
static gboolean schedule_out_check(const char *path, const char *format)
{
    GError *e = NULL;
    const ScheduleFormat *f = format ? schedule_format_find(format, &e)
                                     : schedule_format_of_path(path, &e);
    if (f && !f->write) {
        g_set_error(&e, SCHEDULE_ERROR, SCHEDULE_ERROR_INPUT, "%s: schedule "
                    "format '%s' is read, not written", path, f->name);
        f = NULL;
    }
    Output *o = f ? output_open(path, &e) : NULL;
    if (!o) {
        g_prefix_error(&e, "--schedule-out: ");
        cli_print_error("run", e);
        g_error_free(e);
        return FALSE;
    }
    output_abort(o);
    return TRUE;
}

/* --compare-faultless is --compare with this assignment: the same run
 * on the same machine without its faults. */
static const char *const compare_faultless[] = { "machine.faults=none",
                                                 NULL };

/* Does scenario s's machine have faults? A machine that does not build is
 * left for the run to refuse, with its own message. */
static gboolean scenario_has_faults(const Scenario *s)
{
    Machine m = { 0 };
    GError *e = NULL;
    if (!prepare_machine(s, &m, &e)) {
        g_error_free(e);
        return TRUE;
    }
    gboolean faults = m.faults != NULL;
    machine_clear(&m);
    return faults;
}

static int cmd_run(int argc, char **argv)
{
    g_auto(GStrv) sets = NULL;
    g_auto(GStrv) compare = NULL;
    g_auto(GStrv) rest = NULL;
    g_autofree char *trace_path = NULL;
    g_autofree char *schedule_path = NULL, *schedule_format = NULL;
    gboolean json = FALSE, dump = FALSE, progress = FALSE, quiet = FALSE;
    gboolean pretty = FALSE, timing = FALSE, faultless = FALSE;
    g_auto(CliLimits) limits = { 0 };
    GOptionEntry entries[] = {
        { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
          "Override or add a scenario key", "SECTION.KEY=VALUE" },
        { "compare", 0, 0, G_OPTION_ARG_STRING_ARRAY, &compare,
          "Run the scenario again with this key changed too, and print its "
          "cycles beside this run's", "SECTION.KEY=VALUE" },
        { "compare-faultless", 0, 0, G_OPTION_ARG_NONE, &faultless,
          "On a machine with faults: run the scenario again without them, "
          "and print what the faults cost (--compare machine.faults=none)",
          NULL },
        { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print one JSON object", NULL },
        { "pretty", 0, 0, G_OPTION_ARG_NONE, &pretty,
          "With --json: indented, one key a line", NULL },
        { "timing", 0, 0, G_OPTION_ARG_NONE, &timing,
          "With --json: add \"timing\", the wall-clock fields (without it "
          "identical runs print identical bytes)", NULL },
        { "dump-memory", 0, 0, G_OPTION_ARG_NONE, &dump,
          "Include every node's final memory", NULL },
        { "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace_path,
          "Record every channel's busy intervals and the marks (traces/FORMAT.md)",
          "FILE" },
        { "schedule-out", 0, 0, G_OPTION_ARG_FILENAME, &schedule_path,
          "Record what the run did as a message schedule, in the format its "
          "extension names (.goal: GOAL, which the schedule algorithm "
          "replays; .tit: SimGrid's time-independent trace, an index and a "
          "file a rank)", "FILE" },
        { "schedule-format", 0, 0, G_OPTION_ARG_STRING, &schedule_format,
          "With --schedule-out: the format by name (goal, simgrid), "
          "whatever the extension", "NAME" },
        CLI_LIMIT_ENTRIES(&limits),
        CLI_PROGRESS_ENTRIES(&progress, &quiet, "", "errors"),
        { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL,
          "[SCENARIO]" },
        { .long_name = NULL }
    };
    static const char description[] = "Without SCENARIO: the embedded "
        "default (gray-to-binary, concurrent, K = 1024, on cm200-8k's channels "
        "alone), compared with the CM-200's memory paths.\n"
        "On a terminal, a run longer than a second shows a progress line on "
        "standard error, erased when it ends.";
    GError *e = NULL;
    static const char *const once[] = { "--trace", "--schedule-out",
                                        "--schedule-format", "--tick-limit",
                                        "--wall-limit", "--threads", NULL };
    if (!cli_parse_options("run", entries, "- run one scenario", description,
                           once, &argc, &argv)
        || !cli_progress("run", progress, quiet)
        || !cli_limits_check("run", &limits))
        return EXIT_INPUT;
    if ((pretty || timing) && !json)
        return cli_fail("run", "%s shapes the JSON report: give --json too",
                        pretty ? "--pretty" : "--timing");
    if (faultless && compare)
        return cli_fail("run", "--compare-faultless is --compare "
                        "machine.faults=none: give one of them");
    if (schedule_format && !schedule_path)
        return cli_fail("run", "--schedule-format names --schedule-out's "
                        "format: give --schedule-out too");
    /* The schedule's format, and that its file can be written, before
     * the run. */
    if (schedule_path && !schedule_out_check(schedule_path, schedule_format))
        return EXIT_INPUT;
    if (rest && g_strv_length(rest) > 1) {
        fprintf(stderr, "cubemu run: one scenario at a time ('%s' is extra); "
                "use cubemu check for several\n", rest[1]);
        return EXIT_INPUT;
    }
    g_autoptr(Scenario) s = cli_build_scenario(rest ? rest[0] : NULL, sets, &e);
    if (!s) {
        cli_print_error("run", e);
        g_error_free(e);
        return EXIT_INPUT;
    }
    /* The default compares itself with the CM-200 as built, unless the
     * user chose what to compare or changed the machine. The compared
     * scenario is built before either run, so that a bad --compare is
     * refused before the work. */
    char **changes = compare;
    if (faultless) {
        if (!scenario_has_faults(s))
            return cli_fail("run", "--compare-faultless: %s's machine has no "
                            "faults (machine.faults): nothing to compare",
                            scenario_name(s));
        changes = (char **)compare_faultless;
    }
    if (!changes && !rest && !cli_sets_machine(sets))
        changes = (char **)cli_default_compare;
    g_autoptr(Scenario) s2 = NULL;
    if (changes && !(s2 = cli_build_compared(rest ? rest[0] : NULL, sets,
                                              changes, &e))) {
        cli_print_error("run", e);
        g_error_free(e);
        return EXIT_INPUT;
    }
    /* The trace's file is opened before the run, so that a path that
     * cannot be written is refused before the work, not after it. */
    g_autoptr(Output) trace_out = NULL;
    if (trace_path && !(trace_out = output_open(trace_path, &e))) {
        cli_print_error("run", e);
        g_error_free(e);
        return EXIT_INPUT;
    }
    g_autoptr(TraceRecorder) recorder = trace_path ? trace_recorder_new() : NULL;
    g_autoptr(ScheduleRecorder) schedule = schedule_path
                                               ? schedule_recorder_new() : NULL;
    RunOptions options = {
        .dump_memory = dump,
        .observer = recorder ? trace_recorder_observer() : NULL,
        .observer_data = recorder,
        .schedule = schedule,
    };
    if (!cli_limits_begin("run", &limits, s, &options, &e)) {
        cli_print_error("run", e);
        g_error_free(e);
        return EXIT_INPUT;
    }
    g_autoptr(Report) r = run_scenario(s, &options, &e);
    cli_limits_end(&limits);
    if (!r) {
        cli_print_error("run", e);
        int status = g_error_matches(e, RUN_ERROR, RUN_ERROR_STUCK)
                         ? EXIT_FAILED : EXIT_INPUT;
        g_error_free(e);
        return status;
    }
    if (recorder) {
        g_autoptr(Trace) t = trace_recorder_finish(recorder, r);
        if (!trace_write(t, output_stream(trace_out), trace_path, &e)
            || !output_commit(g_steal_pointer(&trace_out), &e)) {
            cli_print_error("run", e);
            g_error_free(e);
            return EXIT_INPUT;
        }
    }
    if (schedule) {
        g_autoptr(Schedule) recorded = schedule_recorder_finish(schedule, NULL);
        if (!schedule_format_write(recorded, schedule_path, schedule_format,
                                   &e)) {
            cli_print_error("run", e);
            g_error_free(e);
            return EXIT_INPUT;
        }
    }
    if (s2) {
        RunOptions plain = { .dump_memory = FALSE };
        Report *r2 = cli_limits_begin("run", &limits, s2, &plain, &e)
                         ? run_scenario(s2, &plain, &e) : NULL;
        cli_limits_end(&limits);
        if (!r2) {
            if (!g_str_has_prefix(e->message, "--compare"))
                g_prefix_error(&e, faultless ? "--compare-faultless: "
                                             : "--compare: ");
            cli_print_error("run", e);
            g_error_free(e);
            return EXIT_INPUT;
        }
        report_set_compared(r, r2, changes);
    }
    if (json)
        report_write_json(r, stdout, (pretty ? REPORT_JSON_PRETTY : 0)
                                     | (timing ? REPORT_JSON_TIMING : 0));
    else
        report_print_table(r, stdout);
    if (!r->data_correct) {
        fprintf(stderr, "cubemu run: %s: the final memory is wrong: %s\n",
                r->scenario, r->data_problem);
        return EXIT_FAILED;
    }
    if (r->compared && !r->compared->data_correct) {
        fprintf(stderr, "cubemu run: %s: with %s: the final memory is "
                "wrong: %s\n", r->scenario,
                faultless ? "--compare-faultless" : "--compare",
                r->compared->data_problem);
        return EXIT_FAILED;
    }
    return EXIT_OK;
}


const CliCommand cli_command_run = {
    .name = "run",
    .usage = "run [SCENARIO] [--set SECTION.KEY=VALUE]... [--compare SECTION.KEY=VALUE]... [--compare-faultless] [--json [--pretty] [--timing]] [--dump-memory] [--trace FILE] [--schedule-out FILE [--schedule-format NAME]] [--tick-limit TICKS] [--wall-limit SECONDS] [--progress | --quiet]",
    .run = cmd_run,
};
