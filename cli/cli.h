/* cli.h -- the command line's shared pieces. Each command is one file
 * (cmd_*.c) exporting one CliCommand, listed once in main.c.
 *
 * Exit status: 0 success; 1 a run finished but its data or an expectation
 * failed; 2 bad input (a flag, a scenario file, a parameter, a machine too
 * large) or a node program error. Every error message names the flag or
 * the file and line.
 */
#ifndef CUBE_CLI_H
#define CUBE_CLI_H

#include <glib.h>
#include <stdio.h>
#include "run.h"
#include "scenario.h"
#include "scenario_default.h"
#include "stop.h"

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_INPUT = 2 };

#ifndef CUBEMU_VERSION
#define CUBEMU_VERSION "0.1.0"
#endif

typedef struct {
    const char *name;
    const char *usage;                  /* one line, after "cubemu " */
    int (*run)(int argc, char **argv);  /* argv[0] is the command name */
} CliCommand;

/* The --compare assignments `cubemu run` makes for the default scenario
 * (NULL-terminated). */
extern const char *const cli_default_compare[];
/* Whether any of the --set assignments SETS (NULL-terminated, or NULL)
 * names a [machine] key. */
gboolean cli_sets_machine(char *const *sets);

/* Load SCENARIO (or, with path NULL, the default filled in around the
 * --set values as docs/running.md says) and apply the --set values:
 * scenario_default_build (run/scenario_default.h), which cubemu-mpi calls
 * too. */
Scenario *cli_build_scenario(const char *path, char **sets, GError **error);
/* cli_build_scenario, then the --compare assignments COMPARE on top of the
 * --set ones: the scenario `cubemu run --compare` runs second. */
Scenario *cli_build_compared(const char *path, char **sets, char **compare,
                             GError **error);
void cli_print_error(const char *command, const GError *e);
/* Print "cubemu COMMAND: message" and return EXIT_INPUT. */
int cli_fail(const char *command, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* How every command reads its flags: ENTRIES, with SUMMARY ("- run one
 * scenario") and DESCRIPTION (or NULL) in its --help. GOption keeps the
 * last of a repeated flag; a flag of ONCE (NULL-ended, "--plot", "-o"; or
 * NULL) given twice is refused instead: "cubemu COMMAND: --plot given
 * twice: it takes one value". On any failure the message is printed as
 * "cubemu COMMAND: message" and the result is FALSE. */
gboolean cli_parse_options(const char *command, const GOptionEntry *entries,
                           const char *summary, const char *description,
                           const char *const *once, int *argc, char ***argv);
/* The --progress and --quiet rows of a command's GOptionEntry table, the
 * flags cli_progress reads, worded alike in every command: COUNTED is what
 * the line counts (" (run i of n)", or "" for one run), STILL what is
 * printed without it ("errors", "errors and results"); both literals. */
#define CLI_PROGRESS_ENTRIES(progress, quiet, counted, still)              \
    { "progress", 0, 0, G_OPTION_ARG_NONE, (progress),                     \
      "Show the progress line" counted " on standard error even when it "  \
      "is not a terminal", NULL },                                         \
    { "quiet", 0, 0, G_OPTION_ARG_NONE, (quiet),                           \
      "No progress line (" still " are still printed)", NULL }
/* Configure the progress line (util/progress.h) from --progress and
 * --quiet; both given: "cubemu COMMAND: --progress and --quiet contradict
 * each other: give one" and FALSE. */
gboolean cli_progress(const char *command, gboolean progress, gboolean quiet);

/* --tick-limit TICKS and --wall-limit SECONDS, alike in every command
 * that runs scenarios (run, check, sweep; docs/running.md, "Limits"):
 * the rows of its GOptionEntry table, then cli_limits_check once, and
 * around each run_scenario cli_limits_begin and cli_limits_end. A limit
 * that stops a run fails it like a program error (exit status 2 from run
 * and check, a failed row of a sweep). */
typedef struct {
    char *tick_text, *wall_text;  /* as given, or NULL */
    Tick ticks;                   /* 0: none */
    double seconds;               /* 0: none */
    char *tick_name, *wall_name;  /* "--tick-limit 1000", "--wall-limit 2" */
    SimLimits sim;                /* what RunOptions.limits points to */
    StopFlags stop;
    /* --threads N, with them for want of a better home: every command
     * that runs scenarios takes it (RunOptions.threads; 0: auto) */
    char *threads_text;
    int threads;
} CliLimits;
#define CLI_LIMIT_ENTRIES(l)                                               \
    { "tick-limit", 0, 0, G_OPTION_ARG_STRING, &(l)->tick_text,            \
      "Fail a run whose simulated time would pass TICKS (it stops node "  \
      "programs that never finish)", "TICKS" },                            \
    { "wall-limit", 0, 0, G_OPTION_ARG_STRING, &(l)->wall_text,            \
      "Fail a run once it has taken SECONDS of wall-clock time, stopping " \
      "it even inside a node program's step", "SECONDS" },                \
    { "threads", 0, 0, G_OPTION_ARG_STRING, &(l)->threads_text,            \
      "Threads for the engine's ticks (default: auto, the processors on " \
      "machines of 2^15 nodes on; the results are the same)", "N" }
/* Parses the values: a bad one is "cubemu COMMAND: --tick-limit: 'x' is
 * not a number of ticks (valid: a whole number from 1 to 2^63 - 1)" (or
 * "--wall-limit: 'x' is not a number of seconds (valid: a number above
 * 0)", finite) and FALSE. */
gboolean cli_limits_check(const char *command, CliLimits *l);
/* Sets options->limits and arms the wall-clock limit for scenario S; the
 * line its handler writes starts "cubemu COMMAND: SCENARIO: " (without
 * "cubemu COMMAND: " if COMMAND is NULL). FALSE with *error ("--wall-limit:
 * cannot set the timer: ...") if the timer cannot be set. */
gboolean cli_limits_begin(const char *command, CliLimits *l, const Scenario *s,
                          RunOptions *options, GError **error);
void cli_limits_end(CliLimits *l);
void cli_limits_clear(CliLimits *l);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(CliLimits, cli_limits_clear)

/* The trace export formats, from their one table (traces/export.h), for
 * help texts (cmd_trace.c); free each with g_free. "chrome|paje|csv"
 * (with aliases: "chrome|perfetto|paje|csv"); "chrome or perfetto (the
 * same JSON), paje (ViTE) or csv"; ".json, .paje, .csv". */
char *cli_export_format_choices(gboolean aliases);
char *cli_export_format_help(void);
char *cli_export_extensions(void);

#endif
