/* report_json.h -- what the test suites read from a run's report: its JSON,
 * for tests that compare reports byte for byte (since schema 4 nothing in
 * it depends on the clock: the wall time is only behind --timing), and a
 * detail by key. Header-only; needs check.h and report.h. */
#ifndef CUBE_TEST_REPORT_JSON_H
#define CUBE_TEST_REPORT_JSON_H

#include <check.h>
#include <stdio.h>
#include <string.h>
#include "report.h"

static inline char *json_without_wall(const Report *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    report_print_json(r, f);
    fclose(f);
    ck_assert(strstr(buf, "wall_seconds") == NULL);
    return buf;
}

/* The detail `key` of a report; the test fails if there is none, before
 * the caller dereferences it. Suites call this in loops over steps and
 * trials, so the check is made in plain C and ck_abort_msg runs only when
 * it fails: a ck_assert_msg would cost one write to Check's pipe for every
 * detail found (see check_main.h). */
static inline const Detail *detail(const Report *r, const char *key)
{
    const Detail *d = report_find_detail(r, key);
    if (d == NULL)
        ck_abort_msg("no detail %s", key);
    return d;
}

#endif
