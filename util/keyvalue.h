/* keyvalue.h -- typed values read from text that was written somewhere
 * ("file:line", "--set group.key=value"), and the one way a reader of
 * such input collects its problems: every problem, one line each, before
 * it fails. run/scenario.h (scenario_parse_*) and machines/machine.c read
 * through these, so a bad value reads the same wherever it is found.
 */
#ifndef CUBE_KEYVALUE_H
#define CUBE_KEYVALUE_H

#include <glib.h>

/* Append one line to `problems` (the caller turns them into one error). */
void keyvalue_problem(GString *problems, const char *fmt, ...)
    G_GNUC_PRINTF(2, 3);
void keyvalue_problem_v(GString *problems, const char *fmt, va_list ap)
    G_GNUC_PRINTF(2, 0);

/* Typed reading through a location. Each fails, returning FALSE, with
 * *why (g_free) "WHERE: KEY: reason (valid: ...)" ("KEY: ..." when where
 * is NULL). An integer is [+-] and decimal digits, or 0x and hex digits;
 * a choice is one of the NULL-terminated choices, exactly. */
gboolean keyvalue_parse_int(const char *text, const char *where,
                            const char *key, long long min, long long max,
                            long long *out, char **why);
gboolean keyvalue_parse_choice(const char *text, const char *where,
                               const char *key, const char *const *choices,
                               int *out, char **why);

#endif
