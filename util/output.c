/* output.c -- writing a file so that the previous one survives any failure
 * (output.h says what each kind of target gets).
 *
 * The temporary files still open are kept in a fixed table that the signal
 * handler reads: it may only call async-signal-safe functions (unlink,
 * write, signal, raise), so the table holds ready paths, and an entry is
 * cleared before its memory is freed.
 */
#define _GNU_SOURCE   /* __fpending */
#include "output.h"
#include "progress.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

G_DEFINE_QUARK(cubemu-output-error-quark, output_error)

struct Output {
    char *path;       /* as given */
    char *target;     /* the file replaced: PATH, or where its link points */
    char *temp;       /* the temporary file, NULL when written in place */
    FILE *stream;
    int slot;         /* in pending[], or -1 */
    int errnum;       /* a failure the stream does not show (set_errno) */
};

/* Temporary files to remove on a signal. */
#define OUTPUT_PENDING_MAX 64
static char *volatile pending[OUTPUT_PENDING_MAX];

/* What the process is doing, for the signal's one line. */
#define OUTPUT_WHAT_MAX 512
static char signal_what[OUTPUT_WHAT_MAX] = "cubemu";

static int pending_add(char *temp)
{
    for (int i = 0; i < OUTPUT_PENDING_MAX; i++)
        if (!pending[i]) {
            pending[i] = temp;
            return i;
        }
    return -1;   /* still written safely; only a signal would leave it */
}

static void pending_clear(Output *o)
{
    if (o->slot >= 0)
        pending[o->slot] = NULL;
    o->slot = -1;
}

/* The reason for ERRNUM; 0 is a write that failed earlier, whose errno
 * the stream did not keep. */
static const char *reason(int errnum)
{
    return errnum ? g_strerror(errnum) : "a write failed";
}

static gboolean fail(GError **error, const char *path, int errnum)
{
    g_set_error(error, OUTPUT_ERROR, OUTPUT_ERROR_WRITE, "%s: cannot write: %s",
                path, reason(errnum));
    return FALSE;
}

static void output_free(Output *o)
{
    pending_clear(o);
    g_free(o->path);
    g_free(o->target);
    g_free(o->temp);
    g_free(o);
}

static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

Output *output_open(const char *path, GError **error)
{
    g_return_val_if_fail(path != NULL, NULL);
    Output *o = g_new0(Output, 1);
    o->path = g_strdup(path);
    o->slot = -1;
    if (!strcmp(path, "-")) {
        o->stream = stdout;
        return o;
    }
    struct stat st;
    mode_t mode;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            fail(error, path, EISDIR);
            output_free(o);
            return NULL;
        }
        if (!S_ISREG(st.st_mode)) {
            /* A device or a FIFO: written in place, never removed. */
            o->stream = fopen(path, "wb");
            if (!o->stream) {
                fail(error, path, errno);
                output_free(o);
                return NULL;
            }
            return o;
        }
        mode = st.st_mode & 07777;
        o->target = realpath(path, NULL);
        if (!o->target) {
            fail(error, path, errno);
            output_free(o);
            return NULL;
        }
    } else if (errno == ENOENT) {
        mode = new_file_mode();
        o->target = g_strdup(path);
    } else {
        fail(error, path, errno);
        output_free(o);
        return NULL;
    }
    g_autofree char *dir = g_path_get_dirname(o->target);
    g_autofree char *base = g_path_get_basename(o->target);
    g_autofree char *name = g_strdup_printf(".%s.tmp-XXXXXX", base);
    o->temp = g_build_filename(dir, name, NULL);
    int fd = g_mkstemp_full(o->temp, O_WRONLY | O_CLOEXEC, 0600);
    if (fd < 0) {
        int why = errno;
        g_clear_pointer(&o->temp, g_free);
        fail(error, path, why);
        output_free(o);
        return NULL;
    }
    o->slot = pending_add(o->temp);
    if (fchmod(fd, mode) != 0 || !(o->stream = fdopen(fd, "wb"))) {
        int why = errno;
        close(fd);
        g_unlink(o->temp);
        fail(error, path, why);
        output_free(o);
        return NULL;
    }
    return o;
}

FILE *output_stream(Output *o)
{
    return o->stream;
}

const char *output_path(const Output *o)
{
    return o->path;
}

void output_set_errno(Output *o, int errnum)
{
    if (!o->errnum)
        o->errnum = errnum ? errnum : -1;
}

/* Flush and check the stream; the first failure's errno, or 0. */
static int stream_flush(Output *o)
{
    if (fflush(o->stream) != 0)
        return errno ? errno : -1;
    if (o->errnum)
        return o->errnum;
    /* A write failed earlier and the flush had nothing left to retry:
     * the stream no longer knows why. */
    return ferror(o->stream) ? -1 : 0;
}

gboolean output_commit(Output *o, GError **error)
{
    g_return_val_if_fail(o != NULL, FALSE);
    int why = stream_flush(o);
    if (o->stream == stdout) {
        output_free(o);
        return why ? fail(error, "standard output", why < 0 ? 0 : why) : TRUE;
    }
    if (!why && o->temp && fsync(fileno(o->stream)) != 0)
        why = errno;
    if (fclose(o->stream) != 0 && !why)
        why = errno ? errno : -1;
    o->stream = NULL;
    if (!why && o->temp && rename(o->temp, o->target) != 0)
        why = errno;
    if (why && o->temp)
        g_unlink(o->temp);
    gboolean ok = why ? fail(error, o->path, why < 0 ? 0 : why) : TRUE;
    output_free(o);
    return ok;
}

void output_abort(Output *o)
{
    if (!o)
        return;
    if (o->stream && o->stream != stdout)
        fclose(o->stream);
    else if (o->stream)
        fflush(o->stream);
    if (o->temp)
        g_unlink(o->temp);
    output_free(o);
}

gboolean output_write_file(const char *path,
                           gboolean (*write)(FILE *out, const char *path,
                                             void *data, GError **error),
                           void *data, GError **error)
{
    Output *o = output_open(path, error);
    if (!o)
        return FALSE;
    if (!write(o->stream, path, data, error)) {
        output_abort(o);
        return FALSE;
    }
    return output_commit(o, error);
}

/* ---- signals ------------------------------------------------------------ */

static void say(const char *s)
{
    ssize_t r = write(STDERR_FILENO, s, strlen(s));
    (void)r;
}

int output_remove_temporaries(void)
{
    int removed = 0;
    for (int i = 0; i < OUTPUT_PENDING_MAX; i++) {
        char *temp = pending[i];
        if (temp && unlink(temp) == 0)
            removed++;
    }
    return removed;
}

static void on_signal(int sig)
{
    progress_clear();           /* the line below starts at column 0 */
    output_remove_temporaries();
    if (sig != SIGPIPE) {
        const char *name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM"
                           : sig == SIGHUP ? "SIGHUP" : "a signal";
        say(signal_what);
        say(": interrupted by ");
        say(name);
        say("; files being written were removed, existing files are "
            "untouched\n");
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void output_signals_describe(const char *what)
{
    /* Signals wait while the text changes. */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    g_strlcpy(signal_what, what ? what : "cubemu", sizeof signal_what);
    sigprocmask(SIG_SETMASK, &old, NULL);
}

/* A process that exits without committing (exit(2) from an allocation
 * that failed deep in the engine) leaves no temporary file either. */
static void remove_pending(void)
{
    output_remove_temporaries();
}

void output_signals_install(const char *what)
{
    static gboolean at_exit;
    if (!at_exit && atexit(remove_pending) == 0)
        at_exit = TRUE;
    output_signals_describe(what);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigfillset(&sa.sa_mask);
    const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
    for (size_t i = 0; i < G_N_ELEMENTS(sigs); i++) {
        /* A signal ignored by whoever started us (nohup) stays ignored. */
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(sigs[i], &sa, NULL);
    }
    signal(SIGXFSZ, SIG_IGN);
}

gboolean output_close_stdout(const char *program)
{
    gboolean pending_bytes = __fpending(stdout) != 0;
    gboolean failed_before = ferror(stdout) != 0;
    int why = 0;
    if (fclose(stdout) != 0)
        why = errno;
    /* Closing a standard output that was already closed, with nothing
     * written to it, is no error (coreutils' close_stream). */
    if (!failed_before && !pending_bytes && why == EBADF)
        return TRUE;
    if (!failed_before && !why)
        return TRUE;
    fprintf(stderr, "%s: standard output: cannot write: %s\n", program,
            reason(why));
    return FALSE;
}
