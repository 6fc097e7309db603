/* format.h -- the table of schedule formats: the files a Schedule
 * (schedule.h) is read from and written to. A format is one file in
 * workloads/ that defines `const ScheduleFormat schedule_format_NAME` and
 * one line in format.c's table; a format that cannot be read (or written)
 * has NULL there. Messages that name formats list them from the table.
 */
#ifndef CUBE_FORMAT_H
#define CUBE_FORMAT_H

#include <glib.h>

#include "schedule.h"

typedef struct {
    const char *name;             /* "goal" */
    const char *extension;        /* of its files, with the dot: ".goal" */
    const char *summary;          /* one line, for lists and --help */
    /* PATH into a schedule named PATH; NULL and *error (SCHEDULE_ERROR:
     * "PATH:LINE: ..." for bad input, "PATH: cannot read: ..." for a file
     * that cannot be opened or read). */
    Schedule *(*read)(const char *path, GError **error);
    /* S to PATH through util/output.h (the previous file survives any
     * failure); FALSE and *error (SCHEDULE_ERROR for a schedule the
     * format cannot hold, OUTPUT_ERROR for a failed write). */
    gboolean (*write)(const Schedule *s, const char *path, GError **error);
} ScheduleFormat;

/* The formats, in the order lists show them; NULL-terminated. */
extern const ScheduleFormat *const schedule_formats[];

/* The format called NAME; NULL and *error "unknown schedule format 'NAME'
 * (valid: ...)", with "did you mean" for a slip. */
const ScheduleFormat *schedule_format_find(const char *name, GError **error);

/* The format whose extension PATH ends with (in any case); NULL and
 * *error "PATH: unknown schedule format (valid extensions: ...)". */
const ScheduleFormat *schedule_format_of_path(const char *path,
                                              GError **error);

/* "goal, ..." (the names) or ".goal, ..." (the extensions); g_free. */
char *schedule_format_names(void);
char *schedule_format_extensions(void);

/* PATH read in the format called FORMAT, or when FORMAT is NULL the one
 * its extension names; a format that cannot be read is refused, naming
 * those that can. */
Schedule *schedule_format_read(const char *path, const char *format,
                               GError **error);

/* S written to PATH in the format called FORMAT, or when FORMAT is NULL
 * the one its extension names; a format that cannot be written is
 * refused, naming those that can. */
gboolean schedule_format_write(const Schedule *s, const char *path,
                               const char *format, GError **error);

#endif
