/* progress.h -- one progress line on standard error while a long run goes
 * on, erased when it ends.
 *
 *   [0:04] scenario 3 of 12, default: tick 2,013,440, 4.2 M events at 1.3 M/s
 *
 * Who prints it: the command line decides (progress_configure) from
 * --progress, --quiet and the terminal: by default (PROGRESS_AUTO) only
 * when standard error is a terminal and $TERM is not "dumb". Until
 * progress_configure is called the line is off, so a library user, a test
 * or the viewer never sees one. It never goes to standard output, and
 * nothing it does changes a result: the engine only counts events to
 * know when to look at the clock (sim.h, sim_set_progress).
 *
 * When: only once a run (progress_begin) has lasted PROGRESS_DELAY (1 s;
 * $CUBEMU_PROGRESS_DELAY in seconds, a test hook, 0 shows it from the
 * first update), and then at most PROGRESS_HZ (10) times a second. While a
 * prefix is set (a sweep's or a check's "run 3 of 12"), the delay counts
 * from when the prefix was first set, so that a series of short runs
 * that lasts more than a second shows which run it is at too. Not while
 * the process is in the background of its terminal (`cubemu run &`).
 *
 * Erasing: the line is drawn as "\r" TEXT "\033[K" and erased with
 * "\r\033[K" (progress_end, progress_clear), so that whatever is printed
 * next starts at column 0 on a clean line; on a terminal it is cut to
 * the terminal's width, so that it never wraps (a wrapped line could not
 * be erased). Anything printed to the terminal while the line is shown
 * must call progress_clear first; the next update draws it again.
 *
 * ETA: a run of the engine has no sound one. The simulated time it will
 * end at is what is being measured (an algorithm's exact bound, where it
 * has one, comes from its report after the run, and a bound is what the
 * run is there to test), the events it will run are not known before it
 * ends (a node program decides as it goes), and the nodes that have
 * finished say nothing of the time left (in most programs they all
 * finish in the last ticks). So a run's line shows the simulated tick
 * reached, the events run, their rate, the nodes finished (once any have)
 * and the time elapsed, and no ETA. Where the work is known in advance it
 * has one: preparing and verifying the nodes' memories (run/run.c) are
 * the same work for every node, so "node i of n" there comes with an ETA
 * (progress_eta), as would any series of like items a caller counts.
 * A run that the engine starts again in the contract's order (run/run.h,
 * RunOrder) says "again in the contract order" where its first try was
 * on the screen, and the tick and events start again from 0.
 *
 * A command that runs scenarios (run/run.c's run_scenario begins and ends
 * the line itself):
 *
 *   ProgressMode mode;
 *   if (!progress_mode_from_flags(progress, quiet, &mode))
 *       return cli_fail(...);           (both flags given)
 *   progress_configure(mode);
 *   for (i = 0; i < n; i++) {
 *       progress_set_prefix("run %u of %u", i + 1, n);
 *       r = run_scenario(s[i], NULL, &e);
 *       ... print what the run gave (the line is erased by then) ...
 *   }
 *   progress_set_prefix(NULL);
 */
#ifndef CUBE_PROGRESS_H
#define CUBE_PROGRESS_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

#define PROGRESS_DELAY 1.0            /* seconds before the line shows */
#define PROGRESS_HZ 10                /* most updates a second */

typedef enum {
    PROGRESS_OFF,                     /* never (--quiet; the default until
                                       * progress_configure is called) */
    PROGRESS_AUTO,                    /* standard error a terminal and
                                       * $TERM not "dumb" (unset is not) */
    PROGRESS_ON,                      /* always, into a file or pipe too
                                       * (--progress) */
} ProgressMode;

/* Decides whether the line is shown; reads $CUBEMU_PROGRESS_DELAY. */
void progress_configure(ProgressMode mode);
/* The mode of --progress and --quiet: PROGRESS_ON, PROGRESS_OFF, else
 * PROGRESS_AUTO; FALSE if both are given (the caller reports it). */
gboolean progress_mode_from_flags(gboolean progress, gboolean quiet,
                                  ProgressMode *mode);
/* Whether a line may be shown at all: callers skip work for it if not. */
gboolean progress_enabled(void);

/* Text before the label, as "run 3 of 12" (printf-like); NULL clears it.
 * Setting one where there was none starts the delay's clock (above). */
void progress_set_prefix(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

/* A run starts: LABEL (a scenario's name) is shown after the prefix. The
 * clock of the delay starts unless a prefix has started it. */
void progress_begin(const char *label);
/* TRUE when an update now would be drawn: enabled, begun, past the delay
 * and 1/PROGRESS_HZ after the last. Reads the clock (no system call). */
gboolean progress_due(void);
/* If progress_due, draws "[ELAPSED] PREFIX, LABEL: TEXT" (printf-like),
 * the label cut to its last path component, then the whole line cut, to
 * fit a terminal. */
void progress_update(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
/* Whether the line has been drawn since progress_begin (a run that
 * starts over says so only if its first try was seen). */
gboolean progress_drawn(void);
/* The run ended: the line, if shown, is erased. */
void progress_end(void);

/* Erases the line if it is shown, with one write(2) and no locks or
 * allocation, so that a signal handler may call it before it prints. The
 * next progress_update draws it again. */
void progress_clear(void);

/* Seconds since progress_begin. */
double progress_elapsed(void);
/* "1:05" or "2:03:07": SECONDS as the line shows durations. */
void progress_duration_text(char *buf, size_t size, double seconds);
/* ", ETA 0:12" for DONE of TOTAL like items done in SECONDS, or "" when
 * none is sound yet (nothing done, or total unknown: 0). */
void progress_eta(char *buf, size_t size, uint64_t done, uint64_t total,
                  double seconds);
/* "2,013,440". */
void progress_count_text(char *buf, size_t size, uint64_t value);
/* "4.2 M", "950", "1.3 G": a rate or a count, to 2 or 3 digits. */
void progress_rate_text(char *buf, size_t size, double value);

#endif
