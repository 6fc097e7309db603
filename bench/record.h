/* record.h -- the benchmark's results as data: rows appended to the file
 * $BENCH_DATA names (bench/results.tsv under make bench), one measured
 * figure a row, so that the history of every figure is the file's, not
 * prose's. Columns, tab-separated (bench/run.sh writes the header):
 *
 *   date  commit  machine  case  metric  value  unit
 *
 * date, commit and machine are the run's, from $BENCH_DATE, $BENCH_COMMIT
 * and $BENCH_MACHINE (bench/run.sh sets them once, so that every row of
 * one `make bench` carries the same three); bench/report.py prints the
 * table. Header-only: the bench program is one file. */
#ifndef CUBE_BENCH_RECORD_H
#define CUBE_BENCH_RECORD_H

#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const char *metric;
    double value;
    const char *unit;
} BenchRow;

/* A field may hold no tab or line break: the file is one row a line. */
static inline const char *bench_field(const char *v)
{
    return v && !strpbrk(v, "\t\n") ? v : "?";
}

/* Append ROWS of CASE; TRUE with nothing to do when $BENCH_DATA is unset.
 * A failed write is reported on standard error and FALSE. */
static inline gboolean bench_record(const char *name, const BenchRow *rows,
                                    size_t n)
{
    const char *path = g_getenv("BENCH_DATA");
    if (!path || !*path)
        return TRUE;
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(stderr, "bench: %s: cannot append: %s\n", path,
                g_strerror(errno));
        return FALSE;
    }
    gboolean ok = TRUE;
    for (size_t i = 0; i < n; i++)
        ok &= fprintf(f, "%s\t%s\t%s\t%s\t%s\t%.15g\t%s\n",
                      bench_field(g_getenv("BENCH_DATE")),
                      bench_field(g_getenv("BENCH_COMMIT")),
                      bench_field(g_getenv("BENCH_MACHINE")),
                      bench_field(name), bench_field(rows[i].metric),
                      rows[i].value, bench_field(rows[i].unit)) > 0;
    ok &= fclose(f) == 0;
    if (!ok)
        fprintf(stderr, "bench: %s: cannot append: %s\n", path,
                g_strerror(errno));
    return ok;
}

#endif
