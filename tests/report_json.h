/* report_json.h -- a run's JSON report with the one field that may differ
 * between identical runs (stats.wall_seconds) zeroed, for tests that
 * compare reports byte for byte. Header-only; needs check.h and report.h. */
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
    char *w = strstr(buf, "\"wall_seconds\":");
    ck_assert(w != NULL);
    w += strlen("\"wall_seconds\":");
    char *end = strchr(w, '}');
    ck_assert(end != NULL);
    *w = '0';                           /* the number becomes "0" */
    memmove(w + 1, end, strlen(end) + 1);
    return buf;
}

#endif
