/* workers.c -- tasks run N at once, each in a process of its own
 * (workers.h).
 */
#include "workers.h"
#include "cli.h"
#include "progress.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* A task's result from its process: this many bytes of length first. */
#define WORKERS_RESULT_HEADER 8
/* Bytes read from a pipe at a time. */
#define WORKERS_READ_SIZE 65536

/* A task's process, as the parent sees it. */
typedef struct {
    pid_t pid;
    guint k;
    int fd[2];                    /* result, standard error; -1 at the end */
    GByteArray *data[2];
    gint64 start;                 /* microseconds, monotonic */
} Worker;

static void workers_write_all(int fd, const void *data, size_t size)
{
    const char *p = data;
    while (size) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            _exit(EXIT_INPUT);
        p += n;
        size -= (size_t)n;
    }
}

/* Task K's process: never returns. Signals that end the command end it
 * quietly (the command says what was interrupted), and so does the
 * command's end: it is killed if the command is. */
static G_GNUC_NORETURN void workers_child(const WorkersSpec *spec, guint k, pid_t parent,
                                          int result_fd, int err_fd)
{
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != parent)
        _exit(EXIT_INPUT);
    const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
    for (size_t i = 0; i < G_N_ELEMENTS(sigs); i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            signal(sigs[i], SIG_DFL);
    }
    dup2(err_fd, STDOUT_FILENO);
    dup2(err_fd, STDERR_FILENO);
    close(err_fd);
    /* The parent draws the command's line; a run's own would go into the
     * pipe and come out among its messages. */
    progress_configure(PROGRESS_OFF);
    GVariant *v = g_variant_ref_sink(spec->run(k, spec->data));
    guint64 size = g_variant_get_size(v);
    workers_write_all(result_fd, &size, sizeof size);
    workers_write_all(result_fd, g_variant_get_data(v), size);
    fflush(NULL);
    _exit(EXIT_OK);
}

static void workers_close(Worker *w)
{
    for (int i = 0; i < 2; i++) {
        if (w->fd[i] >= 0)
            close(w->fd[i]);
        w->fd[i] = -1;
        if (w->data[i])
            g_byte_array_unref(w->data[i]);
        w->data[i] = NULL;
    }
}

/* Task K's process could not be started: it failed. */
static void workers_cannot_start(const WorkersSpec *spec, guint k, int errnum)
{
    g_autofree char *failure = g_strdup_printf("cannot start the run's process: %s",
                                               g_strerror(errnum));
    spec->done(k, NULL, failure, "", 0.0, spec->data);
}

/* Start task K in a process of its own; FALSE (the task failed, DONE
 * called) if no process could be started. */
static gboolean workers_start(const WorkersSpec *spec, guint k, GArray *workers)
{
    int rp[2], ep[2];
    if (pipe(rp) != 0) {
        workers_cannot_start(spec, k, errno);
        return FALSE;
    }
    if (pipe(ep) != 0) {
        int errnum = errno;
        close(rp[0]);
        close(rp[1]);
        workers_cannot_start(spec, k, errnum);
        return FALSE;
    }
    /* Nothing buffered may be written twice, by the child too. */
    fflush(NULL);
    pid_t parent = getpid();
    gint64 start = g_get_monotonic_time();
    pid_t pid = fork();
    if (pid < 0) {
        int errnum = errno;
        close(rp[0]);
        close(rp[1]);
        close(ep[0]);
        close(ep[1]);
        workers_cannot_start(spec, k, errnum);
        return FALSE;
    }
    if (pid == 0) {
        close(rp[0]);
        close(ep[0]);
        for (guint i = 0; i < workers->len; i++)
            for (int j = 0; j < 2; j++)
                if (g_array_index(workers, Worker, i).fd[j] >= 0)
                    close(g_array_index(workers, Worker, i).fd[j]);
        workers_child(spec, k, parent, rp[1], ep[1]);
    }
    close(rp[1]);
    close(ep[1]);
    Worker w = { .pid = pid, .k = k, .fd = { rp[0], ep[0] },
                 .data = { g_byte_array_new(), g_byte_array_new() }, .start = start };
    g_array_append_val(workers, w);
    return TRUE;
}

/* The last line of TEXT that says something, for a failed task's reason. */
static char *workers_last_line(const char *text)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (guint n = g_strv_length(lines); n-- > 0;) {
        g_strstrip(lines[n]);
        if (*lines[n])
            return g_strdup(lines[n]);
    }
    return NULL;
}

/* Both pipes of W are at their end: collect the process and its result. */
static void workers_finish(const WorkersSpec *spec, Worker *w)
{
    int status = 0;
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    double seconds = (g_get_monotonic_time() - w->start) / 1e6;
    GByteArray *data = w->data[0];
    g_byte_array_append(w->data[1], (const guint8 *)"", 1);
    const char *err = (const char *)w->data[1]->data;
    guint64 size = 0;
    if (data->len >= WORKERS_RESULT_HEADER)
        memcpy(&size, data->data, sizeof size);
    gboolean complete = data->len >= WORKERS_RESULT_HEADER
                        && size == data->len - WORKERS_RESULT_HEADER;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && complete) {
        g_autoptr(GBytes) bytes = g_bytes_new(data->data + WORKERS_RESULT_HEADER, size);
        g_autoptr(GVariant) v = g_variant_ref_sink(
            g_variant_new_from_bytes(G_VARIANT_TYPE(spec->type), bytes, FALSE));
        spec->done(w->k, v, NULL, err, seconds, spec->data);
    } else {
        g_autofree char *said = workers_last_line(err);
        g_autofree char *how = WIFSIGNALED(status)
            ? g_strdup_printf("killed by signal %d (%s)", WTERMSIG(status),
                              g_strsignal(WTERMSIG(status)))
            : g_strdup_printf("exit status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        g_autofree char *failure = said
            ? g_strdup_printf("%s (the run's process ended with %s)", said, how)
            : g_strdup_printf("the run's process ended with %s and no result", how);
        spec->done(w->k, NULL, failure, err, seconds, spec->data);
    }
    workers_close(w);
}

static gboolean workers_release(const WorkersSpec *spec, GError **error)
{
    return !spec->release || spec->release(spec->data, error);
}

static gint64 workers_due(const WorkersSpec *spec)
{
    return spec->due ? spec->due(spec->data) : -1;
}

static void workers_progress(const WorkersSpec *spec, guint done, guint started)
{
    if (spec->progress)
        spec->progress(done, started, spec->count, spec->data);
}

gboolean workers_run(const WorkersSpec *spec, GError **error)
{
    g_autoptr(GArray) workers = g_array_new(FALSE, TRUE, sizeof(Worker));
    guint next = 0, done = 0;
    gboolean ok = TRUE;
    while (done < spec->count && ok) {
        while (workers->len < spec->jobs && next < spec->count) {
            guint k = next++;
            if (!workers_start(spec, k, workers)) {
                workers_progress(spec, ++done, next);
                ok = workers_release(spec, error);
            }
        }
        if (!workers->len || !ok)
            continue;
        g_autofree struct pollfd *fds = g_new0(struct pollfd, 2 * workers->len);
        guint nfds = 0;
        for (guint i = 0; i < workers->len; i++)
            for (int j = 0; j < 2; j++)
                if (g_array_index(workers, Worker, i).fd[j] >= 0)
                    fds[nfds++] = (struct pollfd){ .fd = g_array_index(workers, Worker, i).fd[j],
                                                   .events = POLLIN };
        gint64 due = workers_due(spec);
        int timeout = due < 0 ? -1 : (int)MIN((due + 999) / 1000, G_MAXINT);
        /* Wake for the progress line too (at most PROGRESS_HZ a second). */
        if (spec->progress && progress_enabled()
            && (timeout < 0 || timeout > 1000 / PROGRESS_HZ))
            timeout = 1000 / PROGRESS_HZ;
        workers_progress(spec, done, next);
        int n = poll(fds, nfds, timeout);
        if (n < 0 && errno != EINTR) {
            g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT, "poll: %s",
                        g_strerror(errno));
            ok = FALSE;
            break;
        }
        if (n == 0) {
            /* A timeout: RELEASE's, or only the progress line's. */
            if (workers_due(spec) == 0)
                ok = workers_release(spec, error);
            continue;
        }
        for (guint i = 0; i < workers->len; i++) {
            Worker *w = &g_array_index(workers, Worker, i);
            for (int j = 0; j < 2; j++) {
                if (w->fd[j] < 0)
                    continue;
                gboolean ready = FALSE;
                for (guint f = 0; f < nfds; f++)
                    ready |= fds[f].fd == w->fd[j] && fds[f].revents;
                if (!ready)
                    continue;
                guint8 buf[WORKERS_READ_SIZE];
                ssize_t got = read(w->fd[j], buf, sizeof buf);
                if (got > 0)
                    g_byte_array_append(w->data[j], buf, (guint)got);
                else if (got == 0 || errno != EINTR) {
                    close(w->fd[j]);
                    w->fd[j] = -1;
                }
            }
            if (w->fd[0] < 0 && w->fd[1] < 0) {
                workers_finish(spec, w);
                g_array_remove_index(workers, i--);
                workers_progress(spec, ++done, next);
            }
        }
        ok = workers_release(spec, error);
    }
    /* Stopped early: end the processes this pool started. */
    for (guint i = 0; i < workers->len; i++) {
        Worker *w = &g_array_index(workers, Worker, i);
        kill(w->pid, SIGKILL);
        while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
            ;
        workers_close(w);
    }
    return ok;
}

void workers_args_init(WorkersArgs *a, int argc, char **argv)
{
    a->strings = g_ptr_array_new_with_free_func(g_free);
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        if (i > 0 && g_str_has_prefix(s, "-j") && s[2]
            && strspn(s + 2, "0123456789") == strlen(s + 2)) {
            g_ptr_array_add(a->strings, g_strdup("-j"));
            g_ptr_array_add(a->strings, g_strdup(s + 2));
        } else {
            g_ptr_array_add(a->strings, g_strdup(s));
        }
    }
    g_ptr_array_add(a->strings, NULL);
    a->argc = (int)a->strings->len - 1;
    a->argv = g_memdup2(a->strings->pdata, a->strings->len * sizeof(char *));
}

void workers_args_clear(WorkersArgs *a)
{
    g_clear_pointer(&a->argv, g_free);
    if (a->strings)
        g_ptr_array_unref(a->strings);
    a->strings = NULL;
    a->argc = 0;
}

gboolean workers_jobs_check(const char *command, int jobs, const char *what)
{
    if (jobs >= 1 && jobs <= WORKERS_MAX_JOBS)
        return TRUE;
    cli_fail(command, "-j %d: expected 1..%d %s at once", jobs, WORKERS_MAX_JOBS, what);
    return FALSE;
}
