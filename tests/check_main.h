/* check_main.h -- what every Check suite shares: the main() that runs one
 * suite in Check's default fork mode (a crash counts as a failed test) and
 * exits nonzero if anything failed (CUBE_CHECK_MAIN(name_suite) at the end
 * of a suite file), ck_add_tcase, which makes a test case of a table of
 * tests, and CkTally, the way to assert over many values.
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
#include <string.h>
#include "machine.h"

/* A row of a case's table of tests (ck_add_tcase): START_TEST's name and
 * 0, or for a loop test the number of its runs (_i = 0 .. loops - 1);
 * { NULL, 0 } ends the table. */
typedef struct {
    const TTest *test;
    int loops;
} CkTest;

/* Adds to S the test case NAME with the TESTS in their order, each given
 * TIMEOUT seconds (0: Check's default); the case. */
static inline TCase *ck_add_tcase(Suite *s, const char *name, double timeout,
                                  const CkTest *tests)
{
    TCase *tc = tcase_create(name);
    if (timeout > 0)
        tcase_set_timeout(tc, timeout);
    for (; tests->test != NULL; tests++) {
        if (tests->loops > 0)
            tcase_add_loop_test(tc, tests->test, 0, tests->loops);
        else
            tcase_add_test(tc, tests->test);
    }
    suite_add_tcase(s, tc);
    return tc;
}

#define CUBE_CHECK_MAIN(suite_fn)                          \
    int main(int argc, char **argv)                        \
    {                                                      \
        (void)argc;                                        \
        machine_set_program_path(argv[0]);                 \
        SRunner *sr = srunner_create(suite_fn());          \
        srunner_run_all(sr, CK_NORMAL);                    \
        int failed = srunner_ntests_failed(sr);            \
        srunner_free(sr);                                  \
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
