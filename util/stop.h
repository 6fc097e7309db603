/* stop.h -- a wall-clock limit on a run (cubemu run --wall-limit): a
 * timer whose SIGALRM handler asks the engine to stop, and ends the
 * process itself where the engine cannot stop (a node program's step
 * that never returns).
 *
 * The engine (sim.h, SimLimits) and the handler share a StopFlags. The
 * engine writes where it is: in its event loop, inside a node program's
 * step, or outside (the run is being prepared or verified). When the
 * limit expires, the handler asks it to stop (stop = STOP_ASKED); the
 * engine looks every SIM_STOP_POLL events, answers STOP_SEEN and fails
 * the run with SIM_ERROR_LIMIT, the ordinary error path. The timer then
 * fires every STOP_GRACE seconds until it is disarmed. Where the request
 * cannot be seen -- the run is outside the loop when the limit expires,
 * or inside a step at a later firing with the process having used
 * STOP_GRACE seconds of CPU time since it was asked (CPU time, so that a
 * process a loaded machine did not run is not taken for a step that
 * never returns), or the loop has not looked for STOP_GIVE_UP seconds of
 * it -- the handler ends the process as
 * output.c's handler does for a signal: it removes every temporary file
 * (so no output is left half written and no previous file is replaced),
 * erases the progress line, writes one line (MESSAGE, where the run was,
 * and whether files were removed) and calls _exit(STATUS). It does only
 * async-signal-safe work.
 */
#ifndef CUBE_STOP_H
#define CUBE_STOP_H

#include <glib.h>
#include <signal.h>

/* StopFlags.where, written by the engine. */
enum { STOP_OUTSIDE = 0, STOP_LOOP, STOP_STEP };
/* StopFlags.stop: STOP_ASKED by the handler, then STOP_SEEN by the
 * engine. */
enum { STOP_NONE = 0, STOP_ASKED, STOP_SEEN };

typedef struct {
    volatile sig_atomic_t where;
    volatile sig_atomic_t stop;
} StopFlags;

/* Seconds between the timer's firings after the limit, and of CPU time
 * a step may go on after it before the handler ends the process. */
#define STOP_GRACE 0.25
/* Seconds of CPU time after the limit at which the handler ends the
 * process even while the engine is in its loop (it has not looked). */
#define STOP_GIVE_UP 5

/* Arms the limit: SECONDS (above 0; at least a microsecond, at most
 * 10^9 s are timed) from now. FLAGS (reset to STOP_NONE) must live until
 * stop_timer_disarm. MESSAGE is copied: the line the handler writes
 * starts with it ("cubemu run: x.ini: the run passed --wall-limit 2").
 * One limit at a time; FALSE with *error if the timer cannot be set. */
gboolean stop_timer_arm(StopFlags *flags, double seconds, const char *message,
                        int status, GError **error);
/* Disarms it (nothing if none is armed). */
void stop_timer_disarm(void);

#endif
