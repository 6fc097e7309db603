/* main.c -- cubemu's entry point: find the command and run it.
 * A command is one file (cmd_*.c) exporting a CliCommand, listed here once.
 */
#include "cli.h"
#include "machine.h"
#include "output.h"

#include <string.h>

#define CLI_COMMANDS(X) \
    X(cli_command_run)  \
    X(cli_command_check) \
    X(cli_command_list) \
    X(cli_command_trace) \
    X(cli_command_view) \
    X(cli_command_sweep) \
    X(cli_command_machine)

#define CLI_DECLARE(c) extern const CliCommand c;
CLI_COMMANDS(CLI_DECLARE)
#define CLI_ENTRY(c) &c,
static const CliCommand *const commands[] = { CLI_COMMANDS(CLI_ENTRY) NULL };

/* The usage, its format names filled in from the exporters' table. */
static const char usage_text[] =
    "Usage:\n"
    "  cubemu run [SCENARIO] [--set SECTION.KEY=VALUE]... [--json] [--dump-memory]\n"
    "             [--trace FILE] [--schedule-out FILE] [--tick-limit TICKS]\n"
    "             [--wall-limit SECONDS]\n"
    "  cubemu check SCENARIO... [--set SECTION.KEY=VALUE]... [-j N] [--junit FILE]\n"
    "               [--tap] [--tick-limit TICKS] [--wall-limit SECONDS]\n"
    "  cubemu list [--json]\n"
    "  cubemu trace export TRACE [--format %s] [-o OUT] [--window CYCLES]\n"
    "  cubemu trace info TRACE\n"
    "  cubemu view [TRACE|SCENARIO] [--view graph|matrix] [--at CYCLE] [--window CYCLES]\n"
    "              [--size WxH] [--png OUT.png] [--gif OUT.gif] [--frames DIR]\n"
    "              [--tick-limit TICKS] [--wall-limit SECONDS]\n"
    "  cubemu sweep [SCENARIO] --vary SECTION.KEY=V1,V2,... [--vary ...]\n"
    "               [--set SECTION.KEY=VALUE]... [--csv OUT.csv] [--plot OUT.png|svg|pdf]\n"
    "               [--tick-limit TICKS] [--wall-limit SECONDS]\n"
    "  cubemu machine export --simgrid [SCENARIO] [--set SECTION.KEY=VALUE]...\n"
    "                        [-o FILE] [--hostfile FILE]\n"
    "  cubemu --help | --version\n"
    "\n"
    "run    runs one scenario and prints a table (or JSON with --json).\n"
    "       Without SCENARIO it runs the embedded default: gray-to-binary,\n"
    "       method concurrent, K = 1024 on the cm200-8k preset (256 nodes).\n"
    "       --set overrides or adds any scenario key; with no SCENARIO the\n"
    "       default fills in only what is not given (a --set algorithm.name\n"
    "       drops the default's other [algorithm] keys, a --set machine.preset\n"
    "       or machine.topology drops its [machine]).\n"
    "       With --trace FILE it records every channel's busy intervals and\n"
    "       the programs' phase marks (traces/FORMAT.md). With --schedule-out\n"
    "       FILE it records what every node posted as a message schedule:\n"
    "       FILE.goal (GOAL, which the schedule algorithm replays) or FILE.tit\n"
    "       (SimGrid's time-independent trace, for smpirun -replay).\n"
    "       --tick-limit TICKS fails a run once simulated time would pass\n"
    "       TICKS, --wall-limit SECONDS once it has taken SECONDS of real time\n"
    "       (even inside a step that never returns): a node program that loops\n"
    "       is its author's bug, and these stop it (check and sweep take them\n"
    "       too, for each run, and view when it runs a scenario).\n"
    "check  runs each scenario and evaluates its [expect]; prints one line per\n"
    "       scenario and 'N passed, N failed'; exit status 1 if any failed.\n"
    "       --junit FILE also writes JUnit XML (a failed expectation is a\n"
    "       <failure>, a scenario that cannot be run an <error>); with\n"
    "       --junit - the XML goes to standard output and the usual lines to\n"
    "       standard error. --tap prints TAP version 13 instead of the lines.\n"
    "       -j N runs N scenarios at once, each in a process of its own, and\n"
    "       prints the same.\n"
    "list   algorithms, their methods and parameters, and machine presets;\n"
    "       --json: all of it, and the trace export formats, as one object.\n"
    "trace  converts a trace to %s;\n"
    "       without --format, -o's extension (%s) names it.\n"
    "view   plays a trace, or runs a scenario and plays it, in a window:\n"
    "       space play/pause, left/right step, +/- speed, Home/End, g/m\n"
    "       graph/matrix view, q quit. --png/--gif/--frames need no display.\n"
    "sweep  runs a scenario for every combination of --vary values; writes a\n"
    "       CSV of every numeric field and plots cycles against the bounds.\n"
    "machine  export --simgrid writes the machine of a scenario (or of --set\n"
    "       machine.* keys) as a SimGrid platform, with --hostfile SMPI's\n"
    "       hostfile, for smpirun -replay of a --schedule-out FILE.tit.\n"
    "\n"
    "Exit status: 0 ok, 1 a check or the data verification failed, 2 bad input,\n"
    "a node program's error or deadlock, or a run stopped by a limit.\n";

static void print_usage(FILE *out)
{
    g_autofree char *choices = cli_export_format_choices(TRUE);
    g_autofree char *help = cli_export_format_help();
    g_autofree char *extensions = cli_export_extensions();
    fprintf(out, usage_text, choices, help, extensions);
}

/* "cubemu run x.ini --trace t" for the line a signal prints, cut short. */
static char *command_line(int argc, char **argv)
{
    GString *s = g_string_new("cubemu");
    for (int i = 1; i < argc && s->len < 200; i++)
        g_string_append_printf(s, " %s", argv[i]);
    return g_string_free(s, FALSE);
}

int main(int argc, char **argv)
{
    machine_set_program_path(argv[0]);
    /* GLib's debug and info messages (G_MESSAGES_DEBUG=all: run/run.c
     * says when a run leaves the locality order) go to stderr, never into
     * the JSON on stdout. */
    g_log_writer_default_set_use_stderr(TRUE);
    if (argc < 2) {
        print_usage(stderr);
        return EXIT_INPUT;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        print_usage(stdout);
        return output_close_stdout("cubemu") ? EXIT_OK : EXIT_INPUT;
    }
    if (!strcmp(cmd, "--version")) {
        printf("cubemu %s\n", CUBEMU_VERSION);
        return output_close_stdout("cubemu") ? EXIT_OK : EXIT_INPUT;
    }
    GString *valid = g_string_new(NULL);
    for (const CliCommand *const *c = commands; *c; c++) {
        if (!strcmp(cmd, (*c)->name)) {
            g_string_free(valid, TRUE);
            g_autofree char *what = command_line(argc, argv);
            output_signals_install(what);
            int status = (*c)->run(argc - 1, argv + 1);
            /* Output that standard output did not take is an error too. */
            if (!output_close_stdout("cubemu"))
                status = EXIT_INPUT;
            return status;
        }
        g_string_append_printf(valid, "%s%s", valid->len ? ", " : "", (*c)->name);
    }
    fprintf(stderr, "cubemu: unknown command '%s' (valid: %s; see cubemu "
            "--help)\n", cmd, valid->str);
    g_string_free(valid, TRUE);
    return EXIT_INPUT;
}
