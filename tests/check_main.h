/* check_main.h -- what every Check suite shares: the main() that runs one
 * suite in Check's default fork mode (a crash counts as a failed test) and
 * exits nonzero if anything failed (CUBE_CHECK_MAIN(name_suite) at the end
 * of a suite file), ck_tcase, which makes every test case and gives it its
 * timeout, ck_add_tcase, which makes a test case of a table of tests, and
 * CkTally, the way to assert over many values.
 *
 * Why every case comes from ck_tcase: the margin check (tests/margins.sh,
 * tests/margins.py) holds each test to half of its effective timeout (the
 * case's, times CK_TIMEOUT_MULTIPLIER, which make sets to the build's
 * timeout factor), and reads the timeouts from the table ck_tcase keeps;
 * a case made with tcase_create alone has no row there, and the check
 * fails it. With CUBEMU_CHECK_TIMINGS=DIR (tests/run-all.sh sets it), a
 * suite writes that table to DIR/PROGRAM.timeouts and Check's XML log,
 * every test's duration, to DIR/PROGRAM.xml.
 *
 * Why a tally: Check reports the location of every assertion that passes,
 * with one write(2) to its result pipe (fork and no-fork mode alike), and
 * the sanitizers intercept each one; an assertion inside a loop over nodes,
 * elements or messages costs far more than the comparison it makes. A loop
 * therefore compares in plain C into a CkTally and asserts once after it:
 *
 *     CkTally t = CK_TALLY_INIT;
 *     for (x = 0; x < nodes; x++)
 *         for (j = 0; j < k; j++)
 *             ck_tally_uint(&t, want[x][j], got[x][j],
 *                           "node %u element %d", x, j);
 *     ck_tally_assert(&t, "%s: memories", what);
 *
 * fails with "WHAT: 3 of 4096 compared differ; first: node 5 element 7:
 * expected 12, got 13". Each ck_tally_* compares exactly as the Check macro
 * of the same name does (ck_tally_uint as ck_assert_uint_eq: both sides
 * converted to uintmax_t; ck_tally_int to intmax_t; ck_tally_double with ==;
 * ck_tally_ptr; ck_tally_str with strcmp; ck_tally_true any condition), so
 * moving an assertion into a tally loses nothing. The location text is
 * formatted only for the first difference. */
#ifndef CUBE_CHECK_MAIN_H
#define CUBE_CHECK_MAIN_H

#include <check.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "machine.h"
#include "output.h"

/* A row of a case's table of tests (ck_add_tcase): START_TEST's name and
 * 0, or for a loop test the number of its runs (_i = 0 .. loops - 1);
 * { NULL, 0 } ends the table. */
typedef struct {
    const TTest *test;
    int loops;
} CkTest;

/* Check's timeout of a case that sets none, where CK_DEFAULT_TIMEOUT does
 * not give another (Check's DEFAULT_TIMEOUT, which check.h does not
 * export). */
#define CK_CHECK_DEFAULT_TIMEOUT 4.0

/* Environment variable NAME read as Check reads CK_DEFAULT_TIMEOUT and
 * CK_TIMEOUT_MULTIPLIER: the whole value a number >= 0; else FALLBACK. */
static inline double ck_env_seconds(const char *name, double fallback)
{
    const char *value = getenv(name);
    if (value == NULL)
        return fallback;
    char *end = NULL;
    double x = strtod(value, &end);
    return x >= 0 && end != value && *end == '\0' ? x : fallback;
}

/* The timeouts of the cases ck_tcase made, a line each, "CASE<tab>TIMEOUT
 * <tab>MULTIPLIER" (seconds, and the factor Check multiplies them by):
 * what CUBE_CHECK_MAIN writes to DIR/PROGRAM.timeouts. */
static GString *ck_timeout_table;

/* Adds to S the test case NAME with TIMEOUT seconds (0: Check's default,
 * CK_DEFAULT_TIMEOUT or 4 s), which Check multiplies by
 * CK_TIMEOUT_MULTIPLIER, and notes both in ck_timeout_table; the case.
 * A timeout other than the default says why next to it. */
static inline TCase *ck_tcase(Suite *s, const char *name, double timeout)
{
    double base = timeout > 0 ? timeout
                              : ck_env_seconds("CK_DEFAULT_TIMEOUT",
                                               CK_CHECK_DEFAULT_TIMEOUT);
    TCase *tc = tcase_create(name);
    /* set even where it is the default, so that the table holds the
     * timeout Check's timer is given rather than a copy of its reading */
    tcase_set_timeout(tc, base);
    if (ck_timeout_table == NULL)
        ck_timeout_table = g_string_new(NULL);
    g_string_append_printf(ck_timeout_table, "%s\t%g\t%g\n", name, base,
                           ck_env_seconds("CK_TIMEOUT_MULTIPLIER", 1));
    suite_add_tcase(s, tc);
    return tc;
}

/* Adds to S the test case NAME with the TESTS in their order, each given
 * TIMEOUT seconds (0: Check's default), as ck_tcase; the case. */
static inline TCase *ck_add_tcase(Suite *s, const char *name, double timeout,
                                  const CkTest *tests)
{
    TCase *tc = ck_tcase(s, name, timeout);
    for (; tests->test != NULL; tests++) {
        if (tests->loops > 0)
            tcase_add_loop_test(tc, tests->test, 0, tests->loops);
        else
            tcase_add_test(tc, tests->test);
    }
    return tc;
}

static inline gboolean ck_timeouts_write(FILE *out, const char *path,
                                         void *data, GError **error)
{
    (void)path;
    (void)error;
    const GString *table = data;
    fwrite(table->str, 1, table->len, out);  /* output_commit checks it */
    return TRUE;
}

/* With CUBEMU_CHECK_TIMINGS=DIR: writes DIR/PROGRAM.timeouts (PROGRAM:
 * PATH's last part) and has Check log to DIR/PROGRAM.xml; *XML is that
 * path, which must outlive the run (g_free it after srunner_free). FALSE,
 * with a message, if the table cannot be written. */
static inline gboolean ck_timings_start(SRunner *sr, const char *path,
                                        char **xml)
{
    const char *dir = getenv("CUBEMU_CHECK_TIMINGS");
    *xml = NULL;
    if (dir == NULL || *dir == '\0')
        return TRUE;
    g_autofree char *program = g_path_get_basename(path);
    g_autofree char *name = g_strconcat(program, ".timeouts", NULL);
    g_autofree char *table = g_build_filename(dir, name, NULL);
    if (ck_timeout_table == NULL)             /* a suite without cases */
        ck_timeout_table = g_string_new(NULL);
    GError *e = NULL;
    if (!output_write_file(table, ck_timeouts_write, ck_timeout_table, &e)) {
        fprintf(stderr, "%s: %s\n", program, e->message);
        g_error_free(e);
        return FALSE;
    }
    g_autofree char *log = g_strconcat(program, ".xml", NULL);
    *xml = g_build_filename(dir, log, NULL);
    srunner_set_xml(sr, *xml);
    return TRUE;
}

#define CUBE_CHECK_MAIN(suite_fn)                          \
    int main(int argc, char **argv)                        \
    {                                                      \
        (void)argc;                                        \
        machine_set_program_path(argv[0]);                 \
        SRunner *sr = srunner_create(suite_fn());          \
        char *xml;                                         \
        if (!ck_timings_start(sr, argv[0], &xml)) {        \
            srunner_free(sr);                              \
            return 1;                                      \
        }                                                  \
        srunner_run_all(sr, CK_NORMAL);                    \
        int failed = srunner_ntests_failed(sr);            \
        srunner_free(sr);                                  \
        g_free(xml);                                       \
        return failed ? 1 : 0;                             \
    }

typedef struct CkTally {
    unsigned long long compared;    /* comparisons made */
    unsigned long long differ;      /* of which failed */
    char first[384];                /* the first failure: where, and what */
} CkTally;

#define CK_TALLY_INIT { 0, 0, "" }

/* Records a failed comparison: the first one's location (printf-style
 * WHERE and AP) and VALUES, the count of every one. */
static inline void ck_tally_failed(CkTally *t, const char *values,
                                   const char *where, va_list ap)
{
    if (t->differ++ > 0)
        return;
    int k = vsnprintf(t->first, sizeof t->first, where, ap);
    if (k < 0)
        k = 0;
    if ((size_t)k < sizeof t->first)
        snprintf(t->first + k, sizeof t->first - (size_t)k, "%s", values);
}

#define CK_TALLY_RECORD(t, ok, values_fmt, ...)                          \
    do {                                                                 \
        (t)->compared++;                                                 \
        if (!(ok)) {                                                     \
            char values_[160];                                           \
            snprintf(values_, sizeof values_, values_fmt, __VA_ARGS__);  \
            va_list ap_;                                                 \
            va_start(ap_, where);                                        \
            ck_tally_failed((t), values_, where, ap_);                   \
            va_end(ap_);                                                 \
        }                                                                \
    } while (0)

__attribute__((format(printf, 4, 5)))
static inline void ck_tally_uint(CkTally *t, uintmax_t want, uintmax_t got,
                                 const char *where, ...)
{
    CK_TALLY_RECORD(t, want == got, ": expected %ju, got %ju", want, got);
}

__attribute__((format(printf, 4, 5)))
static inline void ck_tally_int(CkTally *t, intmax_t want, intmax_t got,
                                const char *where, ...)
{
    CK_TALLY_RECORD(t, want == got, ": expected %jd, got %jd", want, got);
}

__attribute__((format(printf, 4, 5)))
static inline void ck_tally_double(CkTally *t, double want, double got,
                                   const char *where, ...)
{
    CK_TALLY_RECORD(t, want == got, ": expected %.17g, got %.17g", want, got);
}

__attribute__((format(printf, 4, 5)))
static inline void ck_tally_ptr(CkTally *t, const void *want, const void *got,
                                const char *where, ...)
{
    CK_TALLY_RECORD(t, want == got, ": expected %p, got %p", want, got);
}

__attribute__((format(printf, 4, 5)))
static inline void ck_tally_str(CkTally *t, const char *want, const char *got,
                                const char *where, ...)
{
    CK_TALLY_RECORD(t, want && got && strcmp(want, got) == 0,
                    ": expected \"%.60s\", got \"%.60s\"",
                    want ? want : "(null)", got ? got : "(null)");
}

/* Any condition: WHERE says what should have held ("address %u hit once"). */
__attribute__((format(printf, 3, 4)))
static inline void ck_tally_true(CkTally *t, int ok, const char *where, ...)
{
    CK_TALLY_RECORD(t, ok, "%s", ": does not hold");
}

/* The one assertion: every comparison of T held. WHAT (printf-style) names
 * what was compared. */
#define ck_tally_assert(t, ...)                                          \
    do {                                                                 \
        char what_[256];                                                 \
        snprintf(what_, sizeof what_, __VA_ARGS__);                      \
        ck_assert_msg((t)->differ == 0,                                  \
                      "%s: %llu of %llu compared differ; first: %s",     \
                      what_, (t)->differ, (t)->compared, (t)->first);    \
    } while (0)

/* Two arrays of N integers, element by element as ck_assert_uint_eq (or
 * ck_assert_int_eq) would, in one assertion. */
#define ck_assert_uint_array_eq(want, got, n, ...)                       \
    do {                                                                 \
        CkTally at_ = CK_TALLY_INIT;                                     \
        for (size_t ai_ = 0; ai_ < (size_t)(n); ai_++)                   \
            ck_tally_uint(&at_, (want)[ai_], (got)[ai_], "index %zu", ai_); \
        ck_tally_assert(&at_, __VA_ARGS__);                              \
    } while (0)

#define ck_assert_int_array_eq(want, got, n, ...)                        \
    do {                                                                 \
        CkTally at_ = CK_TALLY_INIT;                                     \
        for (size_t ai_ = 0; ai_ < (size_t)(n); ai_++)                   \
            ck_tally_int(&at_, (want)[ai_], (got)[ai_], "index %zu", ai_); \
        ck_tally_assert(&at_, __VA_ARGS__);                              \
    } while (0)

#endif
