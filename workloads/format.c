/* format.c -- the table of schedule formats and finding one (format.h).
 * One line per format in SCHEDULE_FORMATS; each is its own file.
 */
#include "format.h"
#include "suggest.h"

#include <string.h>

/* The table: X(name) for the ScheduleFormat schedule_format_<name> defined
 * in workloads/<name>.c. Adding a format is that file and one line here;
 * the order is the one lists show. */
#define SCHEDULE_FORMATS(X) \
    X(goal)                 \
    X(simgrid)              \
    /* the end of the table: a new line goes above */

#define SCHEDULE_FORMAT_DECLARE(name) \
    extern const ScheduleFormat schedule_format_##name;
#define SCHEDULE_FORMAT_ENTRY(name) &schedule_format_##name,
SCHEDULE_FORMATS(SCHEDULE_FORMAT_DECLARE)

const ScheduleFormat *const schedule_formats[] = {
    SCHEDULE_FORMATS(SCHEDULE_FORMAT_ENTRY)
    NULL
};

/* The names or extensions of the formats that can be read (READ), written
 * (WRITE), or all (neither), joined with ", ". */
static char *listed(gboolean extensions, gboolean read, gboolean write)
{
    GString *s = g_string_new(NULL);
    for (const ScheduleFormat *const *f = schedule_formats; *f; f++) {
        if ((read && !(*f)->read) || (write && !(*f)->write))
            continue;
        g_string_append_printf(s, "%s%s", s->len ? ", " : "",
                               extensions ? (*f)->extension : (*f)->name);
    }
    return g_string_free(s, FALSE);
}

char *schedule_format_names(void)
{
    return listed(FALSE, FALSE, FALSE);
}

char *schedule_format_extensions(void)
{
    return listed(TRUE, FALSE, FALSE);
}

const ScheduleFormat *schedule_format_find(const char *name, GError **error)
{
    g_return_val_if_fail(name != NULL, NULL);
    const char *names[G_N_ELEMENTS(schedule_formats)];
    size_t n = 0;
    for (const ScheduleFormat *const *f = schedule_formats; *f; f++) {
        if (!strcmp((*f)->name, name))
            return *f;
        names[n++] = (*f)->name;
    }
    names[n] = NULL;
    g_autofree char *hint = suggest_text(name, names);
    g_autofree char *valid = schedule_format_names();
    g_set_error(error, SCHEDULE_ERROR, SCHEDULE_ERROR_INPUT,
                "unknown schedule format '%s'%s (valid: %s)", name, hint,
                valid);
    return NULL;
}

const ScheduleFormat *schedule_format_of_path(const char *path,
                                              GError **error)
{
    g_return_val_if_fail(path != NULL, NULL);
    size_t len = strlen(path);
    for (const ScheduleFormat *const *f = schedule_formats; *f; f++) {
        size_t n = strlen((*f)->extension);
        if (len > n && !g_ascii_strcasecmp(path + len - n, (*f)->extension))
            return *f;
    }
    g_autofree char *valid = schedule_format_extensions();
    g_set_error(error, SCHEDULE_ERROR, SCHEDULE_ERROR_INPUT,
                "%s: unknown schedule format (valid extensions: %s)", path,
                valid);
    return NULL;
}

/* The format to read or write PATH in: FORMAT by name, else by PATH. */
static const ScheduleFormat *pick(const char *path, const char *format,
                                  GError **error)
{
    return format ? schedule_format_find(format, error)
                  : schedule_format_of_path(path, error);
}

Schedule *schedule_format_read(const char *path, const char *format,
                               GError **error)
{
    g_return_val_if_fail(path != NULL, NULL);
    const ScheduleFormat *f = pick(path, format, error);
    if (!f)
        return NULL;
    if (!f->read) {
        g_autofree char *valid = listed(FALSE, TRUE, FALSE);
        g_set_error(error, SCHEDULE_ERROR, SCHEDULE_ERROR_INPUT,
                    "%s: schedule format '%s' is written, not read (read: "
                    "%s)", path, f->name, valid);
        return NULL;
    }
    return f->read(path, error);
}

gboolean schedule_format_write(const Schedule *s, const char *path,
                               const char *format, GError **error)
{
    g_return_val_if_fail(s != NULL && path != NULL, FALSE);
    const ScheduleFormat *f = pick(path, format, error);
    if (!f)
        return FALSE;
    if (!f->write) {
        g_autofree char *valid = listed(FALSE, FALSE, TRUE);
        g_set_error(error, SCHEDULE_ERROR, SCHEDULE_ERROR_INPUT,
                    "%s: schedule format '%s' is read, not written (written: "
                    "%s)", path, f->name, valid);
        return FALSE;
    }
    return f->write(s, path, error);
}
