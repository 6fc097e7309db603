/* check_run.h -- what the suites that run scenarios share: asserting that a
 * scenario is refused, and with which message.
 *
 * A refusal is bad input: run_scenario returns NULL with
 * SCENARIO_ERROR_INPUT (exit status 2 on the command line) before anything
 * runs. ck_refused compares the whole message; ck_refused_with looks for
 * fragments of it, where the rest (a file:line, a value) is not the point;
 * ck_tally_refused is ck_refused for loops (check_main.h, CkTally).
 */
#ifndef CUBE_CHECK_RUN_H
#define CUBE_CHECK_RUN_H

#include <check.h>
#include <stdarg.h>
#include <string.h>
#include "check_main.h"
#include "run.h"

/* Runs s; it must be refused (expected: what the refusal should say), or
 * the test stops. The error (g_error_free it). */
static inline GError *ck_refusal(const Scenario *s, const char *expected)
{
    GError *e = NULL;
    Report *r = run_scenario(s, NULL, &e);
    if (r != NULL)
        ck_abort_msg("not refused (expected \"%s\")", expected);
    ck_assert_ptr_nonnull(e);
    return e;
}

/* s is refused as bad input with exactly message. */
static inline void ck_refused(const Scenario *s, const char *message)
{
    GError *e = ck_refusal(s, message);
    ck_assert_int_eq(e->code, SCENARIO_ERROR_INPUT);
    ck_assert_str_eq(e->message, message);
    g_error_free(e);
}

/* s is refused as bad input with every one of the NULL-terminated
 * fragments in its message. */
G_GNUC_NULL_TERMINATED
static inline void ck_refused_with(const Scenario *s, const char *fragment,
                                   ...)
{
    GError *e = ck_refusal(s, fragment);
    ck_assert_int_eq(e->code, SCENARIO_ERROR_INPUT);
    va_list ap;
    va_start(ap, fragment);
    for (const char *f = fragment; f; f = va_arg(ap, const char *))
        ck_assert_msg(strstr(e->message, f), "'%s' not in: %s", f,
                      e->message);
    va_end(ap);
    g_error_free(e);
}

/* ck_refused into t, for a loop; a run that is not refused stops the test
 * at once. */
static inline void ck_tally_refused(CkTally *t, const Scenario *s,
                                    const char *message)
{
    GError *e = ck_refusal(s, message);
    ck_tally_int(t, SCENARIO_ERROR_INPUT, e->code, "refusal code");
    ck_tally_str(t, message, e->message, "refusal (in full \"%s\")",
                 e->message);
    g_error_free(e);
}

#endif
