/* stop.c -- a wall-clock limit's timer and its SIGALRM handler (stop.h).
 *
 * The handler may only do async-signal-safe work (read and write
 * sig_atomic_t flags, unlink, write, _exit), so what it writes is made
 * when the limit is armed, and the flags it reads are the engine's
 * StopFlags, published through a volatile pointer that is cleared before
 * the timer is stopped.
 */
#include "stop.h"
#include "output.h"
#include "progress.h"

#include <errno.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* The armed limit's flags, or NULL. */
static StopFlags *volatile armed;
/* Firings since the limit was armed. */
static volatile sig_atomic_t firings;
/* The process's CPU time at the first firing, when the engine was asked
 * to stop (the handler's own: only it reads and writes it). */
static struct timespec asked_cpu;
static gboolean asked_cpu_known;
static char message[1024];
static int exit_status;

/* Seconds of CPU time the process has used since the engine was asked
 * to stop; where the clock cannot be read, the firings' seconds.
 * clock_gettime is async-signal-safe. */
static double cpu_since_asked(int n)
{
    struct timespec now;
    if (!asked_cpu_known
        || clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now) != 0)
        return (n - 1) * STOP_GRACE;
    return (double)(now.tv_sec - asked_cpu.tv_sec)
           + (double)(now.tv_nsec - asked_cpu.tv_nsec) / 1e9;
}

static void say(const char *s)
{
    ssize_t r = write(STDERR_FILENO, s, strlen(s));
    (void)r;
}

/* End the process: the temporary files, one line, _exit. */
static G_GNUC_NORETURN void stop_now(const char *where)
{
    int removed = output_remove_temporaries();
    progress_clear();           /* the line below starts at column 0 */
    say(message);
    say(where);
    if (removed > 0)
        say("; files being written were removed, existing files are "
            "untouched");
    say("\n");
    _exit(exit_status);
}

#define OUTSIDE_TEXT " outside the engine's event loop, while the run " \
                     "was being prepared or verified"

static void on_alarm(int sig)
{
    (void)sig;
    int saved = errno;
    StopFlags *f = armed;
    if (!f || f->stop == STOP_SEEN) {   /* none, or the run is stopping */
        errno = saved;
        return;
    }
    int n = ++firings;
    sig_atomic_t where = f->where;
    if (where == STOP_OUTSIDE)
        stop_now(OUTSIDE_TEXT);
    if (n == 1) {                       /* the engine's turn */
        asked_cpu_known =
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &asked_cpu) == 0;
        f->stop = STOP_ASKED;
        errno = saved;
        return;
    }
    /* Not seen yet. The engine looks every SIM_STOP_POLL events, far
     * less than STOP_GRACE of CPU time; counted in CPU time, not in
     * firings, so that a process that was not running (a loaded
     * machine) is not taken for a step that never returns. */
    double cpu = cpu_since_asked(n);
    if (where == STOP_STEP && cpu >= STOP_GRACE)
        stop_now(" inside a node program's step (a step that never "
                 "returns?)");
    if (cpu >= STOP_GIVE_UP)
        stop_now(" and the engine did not stop within "
                 G_STRINGIFY(STOP_GIVE_UP) " s");
    errno = saved;
}

static struct timeval seconds_tv(double s)
{
    if (s > 1e9)
        s = 1e9;
    long long us = (long long)(s * 1e6);
    if (us < 1)
        us = 1;
    return (struct timeval){ (time_t)(us / 1000000),
                             (suseconds_t)(us % 1000000) };
}

gboolean stop_timer_arm(StopFlags *flags, double seconds, const char *what,
                        int status, GError **error)
{
    stop_timer_disarm();
    flags->where = STOP_OUTSIDE;
    flags->stop = STOP_NONE;
    g_strlcpy(message, what, sizeof message);
    exit_status = status;
    firings = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;   /* the run's own calls go on as before */
    sigfillset(&sa.sa_mask);
    struct itimerval it = { .it_interval = seconds_tv(STOP_GRACE),
                            .it_value = seconds_tv(seconds) };
    if (sigaction(SIGALRM, &sa, NULL) != 0) {
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
                    "cannot set the timer: %s", g_strerror(errno));
        return FALSE;
    }
    armed = flags;
    if (setitimer(ITIMER_REAL, &it, NULL) != 0) {
        int why = errno;
        armed = NULL;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(why),
                    "cannot set the timer: %s", g_strerror(why));
        return FALSE;
    }
    return TRUE;
}

void stop_timer_disarm(void)
{
    if (!armed)
        return;
    armed = NULL;
    struct itimerval none;
    memset(&none, 0, sizeof none);
    setitimer(ITIMER_REAL, &none, NULL);
}
