/* expect.h -- a scenario's [expect] evaluated on a run's report, and the
 * outcome of each scenario of a check as people and CI tools read it: one
 * line, TAP version 13, JUnit XML. Shared by `cubemu check` (the
 * emulator's reports) and `cubemu-mpi check` (real runs), so that both
 * judge and print alike.
 */
#ifndef CUBE_EXPECT_H
#define CUBE_EXPECT_H

#include <glib.h>
#include <stdio.h>
#include "report.h"
#include "scenario.h"

/* The first of EXPECTS (Expectation *) that R fails, as text ("FILE:LINE:
 * expected cycles <= 64, measured 70"), or NULL if none does. An
 * expectation on a field R's backend does not measure
 * (report_field_unmeasured: cycles on MPI) is not evaluated, and its field
 * is added to UNEVALUATED (a GPtrArray of g_strdup'd text with g_free, or
 * NULL on a report that measures every field); so is "N bounds on what
 * only the emulator measures" for bounds = hold when an MPI report left
 * such bounds out (ReportMpi.bounds_emulator_only) while the bounds it
 * carries are evaluated. *evaluated (if not NULL) is the number of
 * expectations evaluated, in part or whole. */
char *expect_evaluate(const Report *r, GPtrArray *expects,
                      GPtrArray *unevaluated, unsigned *evaluated);

/* One scenario's outcome in a check. */
typedef enum { EXPECT_PASS, EXPECT_FAIL, EXPECT_ERROR } ExpectStatus;
typedef struct {
    char *path;
    ExpectStatus status;
    char *message;          /* FAIL, ERROR: the text printed after "FAIL" */
    char *summary;          /* PASS: what its line shows, "cycles 123" */
    double seconds;
} ExpectResult;

ExpectResult *expect_result_new(const char *path);
void expect_result_free(gpointer result);
/* "ok   PATH (SUMMARY)" or "FAIL PATH: MESSAGE", and a newline. */
void expect_print_line(FILE *out, const ExpectResult *c);
/* Test N's line of TAP 13 ("ok N - PATH # SUMMARY"), with a YAML
 * diagnostic block when it failed. */
void expect_print_tap(FILE *out, unsigned n, const ExpectResult *c);
/* JUnit XML as Jenkins, GitLab and GitHub's test reporters read it: one
 * test suite named SUITE ("cubemu check"; its test cases' class name is
 * SUITE with '.' for ' '), a test case per result. */
void expect_write_junit(FILE *out, const char *suite, GPtrArray *results,
                        unsigned failures, unsigned errors, double seconds);

#endif
