/* output.h -- the one way cubemu writes a file.
 *
 * Every output (traces, exports, CSV, plots, PNG, GIF, frames) goes through
 * an Output, so that a failure, a full disk, a file size limit or a signal
 * never destroys what the path held before:
 *
 *   - a regular file, or a path that does not exist yet, is written to a
 *     temporary file in the same folder (".NAME.tmp-XXXXXX"), flushed,
 *     synced and renamed over the target by output_commit(); on failure,
 *     output_abort() or a signal, only the temporary file is removed;
 *   - a target that exists and is not a regular file (a device such as
 *     /dev/null or /dev/full, a FIFO) is written in place and never removed;
 *   - "-" is standard output, written in place;
 *   - a symbolic link is followed: the file it names is replaced, the link
 *     stays.
 *
 * Every write, flush, sync, close and rename is checked; a failure is
 * "PATH: cannot write: REASON" in OUTPUT_ERROR, which the command line
 * reports with exit status 2. A replaced file keeps its permissions; a new
 * one gets 0666 less the umask, as fopen() would give it.
 *
 * Signals (output_signals_install): SIGINT, SIGTERM, SIGHUP and SIGPIPE
 * remove every temporary file still open, print one line saying what was
 * interrupted (not for SIGPIPE) and end the process by the same signal, so
 * that the shell sees 128 + the signal (130 for SIGINT, 143 for SIGTERM)
 * and a script's loop stops as it would for any other program. SIGXFSZ is
 * ignored, so a file size limit is a write error (EFBIG) rather than a
 * kill; and a process that exits before committing removes its temporary
 * files at exit.
 */
#ifndef CUBE_OUTPUT_H
#define CUBE_OUTPUT_H

#include <glib.h>
#include <stdio.h>

#define OUTPUT_ERROR (output_error_quark())
GQuark output_error_quark(void);
enum { OUTPUT_ERROR_WRITE };

typedef struct Output Output;

/* Opens PATH for writing, as above; NULL and "PATH: cannot write: ..." if
 * the folder is missing or not writable, or PATH is a folder. Opening before
 * a long run checks the path before the work is done. */
Output *output_open(const char *path, GError **error);

/* The stream to write to (binary). Writes to it need no checking one by
 * one: output_commit() sees any failure through ferror(). */
FILE *output_stream(Output *o);

/* The path as the user gave it, for messages. */
const char *output_path(const Output *o);

/* Notes that a write failed with errno ERRNUM, for writers whose library
 * reports a failure without leaving it in the stream (a callback that
 * returned an error). output_commit() then fails with that reason. */
void output_set_errno(Output *o, int errnum);

/* Flushes, syncs, closes and renames over the target; frees O. On any
 * failure the previous file is left as it was. */
gboolean output_commit(Output *o, GError **error);

/* Gives up: closes and removes the temporary file, never the target;
 * frees O. NULL is ignored. */
void output_abort(Output *o);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(Output, output_abort)

/* One call, for writers that produce a file from start to end: open PATH,
 * call WRITE(stream, data, error), commit or abort. */
gboolean output_write_file(const char *path,
                           gboolean (*write)(FILE *out, const char *path,
                                             void *data, GError **error),
                           void *data, GError **error);

/* Installs the signal handling described above. WHAT says what the
 * process is doing ("cubemu run scenarios/x.ini"); it is copied, and
 * output_signals_describe() changes it later. */
void output_signals_install(const char *what);
void output_signals_describe(const char *what);

/* Removes every temporary file still open (what a signal does to them)
 * and returns how many it removed: async-signal-safe, for another signal
 * handler that ends the process (util/stop.c). */
int output_remove_temporaries(void);

/* Checks that standard output took everything written to it (as coreutils'
 * close_stdout does): flushes and closes it; on failure prints "PROGRAM:
 * standard output: cannot write: REASON" and returns FALSE. */
gboolean output_close_stdout(const char *program);

#endif
