/* check_run.h -- what the suites that run scenarios share: building a
 * scenario from a table of keys, running one in a loop, and asserting
 * that a scenario is refused, and with which message.
 *
 * ck_scenario puts every key where "test", the name the suites' expected
 * refusals start with ("test: shape: ..."). ck_tally_run is run_scenario
 * for loops over cases: a run that fails goes into a CkTally
 * (check_main.h), and the loop skips the case.
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

/* A scenario named "test" of the {group, key, value} ROWS up to a {NULL}
 * row, put in that order, each where "test"; a row whose value is NULL is
 * left out (a key a case does not set). Free it with scenario_free. */
static inline Scenario *ck_scenario(const char *const (*rows)[3])
{
    Scenario *s = scenario_new("test");
    for (; (*rows)[0] != NULL; rows++)
        if ((*rows)[2] != NULL)
            scenario_put(s, (*rows)[0], (*rows)[1], (*rows)[2], "test");
    return s;
}

/* Runs s with options (or NULL): its report, or NULL where it did not
 * run, tallied into t as "WHERE: runs: the error" (WHERE printf-style). */
__attribute__((format(printf, 4, 5)))
static inline Report *ck_tally_run(CkTally *t, const Scenario *s,
                                   const RunOptions *options,
                                   const char *where, ...)
{
    GError *e = NULL;
    Report *r = run_scenario(s, options, &e);
    if (r != NULL) {
        ck_tally_true(t, TRUE, "runs");
        return r;
    }
    va_list ap;
    va_start(ap, where);
    char *w = g_strdup_vprintf(where, ap);
    va_end(ap);
    ck_tally_true(t, FALSE, "%s: runs: %s", w, e ? e->message : "");
    g_free(w);
    g_clear_error(&e);
    return NULL;
}

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
