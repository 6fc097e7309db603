/* workers.h -- tasks run N at once, each in a process of its own: the pool
 * behind `cubemu sweep -j N` (a run per combination) and `cubemu check -j
 * N` (a run per scenario), and their -j flag.
 *
 * Why processes, not threads: run_scenario is not safe to run twice at
 * once in one process. The engine ends the process (exit 2) when an
 * allocation fails deep inside a run (emu/oom.c) and a broken invariant
 * is a g_error (run/report.c, run/prepare.c): in a thread either would end
 * the command, in a process it is that task's failure. CBLAS and FFTW are
 * loaded on first use without a lock (algorithms/common/blas.c, fft.c),
 * FFTW's planner is not thread-safe, and a run's memory admission reads
 * the process's own use (run.h, "memory"), which other runs in the same
 * process would change: a run admitted alone could be refused beside
 * another, so results would depend on -j. A fork costs about a
 * millisecond.
 *
 * Each task's process sends its result back through a pipe (a GVariant of
 * the caller's type, its size first) and its standard output and error
 * through another. Its progress line is off (the parent draws the
 * command's own), the signals that end the command end it by default (the
 * command says what was interrupted), and it is killed when the command
 * ends (PR_SET_PDEATHSIG) or stops the pool. A process that cannot be
 * started, is killed, or ends without a complete result is that task's
 * failure, naming how it ended and the last line it wrote ("out of memory
 * (the run's process ended with exit status 2)").
 *
 * No Output (util/output.h) may be open while the pool runs: a task's
 * process inherits the list of temporary files, and a limit or an exit
 * that ends it (util/stop.h, emu/oom.c) would remove the parent's.
 */
#ifndef CUBE_WORKERS_H
#define CUBE_WORKERS_H

#include <glib.h>

/* Tasks at once (-j): more than any machine this runs on has cores. */
#define WORKERS_MAX_JOBS 256

typedef struct {
    guint count;                  /* tasks 0 .. count - 1, started in order */
    guint jobs;                   /* processes at once, 1 .. WORKERS_MAX_JOBS */
    const char *type;             /* the GVariant type of a task's result */
    /* In the task's process: task K's result, of TYPE (a floating one is
     * sunk). Whatever it writes to standard output or error goes to the
     * parent (OUTPUT below). */
    GVariant *(*run)(guint k, gpointer data);
    /* In the parent, once per task as it ends: RESULT (of TYPE), or NULL
     * and FAILURE, why there is none; OUTPUT, what its process wrote ("" if
     * nothing); SECONDS from its start to its end. */
    void (*done)(guint k, GVariant *result, const char *failure,
                 const char *output, double seconds, gpointer data);
    /* In the parent, after tasks have ended, and when DUE says so while
     * none does: FALSE with *error stops the pool. NULL: none. */
    gboolean (*release)(gpointer data, GError **error);
    /* Microseconds until RELEASE is due though no task ends (0 now), or -1
     * for never. NULL: never. */
    gint64 (*due)(gpointer data);
    /* The progress line: DONE tasks ended and STARTED started of COUNT.
     * Called when a task ends and whenever the parent wakes (at most
     * PROGRESS_HZ times a second while the line is enabled). NULL: none. */
    void (*progress)(guint done, guint started, guint count, gpointer data);
    gpointer data;
} WorkersSpec;

/* Runs every task of SPEC; FALSE with *error if the pool had to stop (a
 * RELEASE that failed, or poll(2)): the processes still going are then
 * killed and their tasks never reach DONE. */
gboolean workers_run(const WorkersSpec *spec, GError **error);

/* The -j row of a command's GOptionEntry table: HELP says what runs at
 * once ("Runs at once, each in a process of its own (default 1)"). */
#define WORKERS_JOBS_ENTRY(jobs, help) \
    { "jobs", 'j', 0, G_OPTION_ARG_INT, (jobs), help, "N" }

/* A command's arguments with -j's value joined to it ("-j4", as make takes
 * it) split in two, since GOption reads a short option's value only from
 * the next argument: workers_args_init(&a, argc, argv), then parse
 * &a.argc, &a.argv (GOption rearranges that array; the strings stay
 * owned here). */
typedef struct {
    GPtrArray *strings;           /* every argument, owned */
    char **argv;                  /* a copy of the pointers, for GOption */
    int argc;
} WorkersArgs;
void workers_args_init(WorkersArgs *a, int argc, char **argv);
void workers_args_clear(WorkersArgs *a);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(WorkersArgs, workers_args_clear)

/* JOBS as -j gave it, within 1 .. WORKERS_MAX_JOBS; otherwise prints
 * "cubemu COMMAND: -j 0: expected 1..256 WHAT at once" (WHAT: "runs") and
 * returns FALSE. */
gboolean workers_jobs_check(const char *command, int jobs, const char *what);

#endif
