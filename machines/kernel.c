/* kernel.c -- the rates a machine may bind to a named kernel (kernel.h).
 * To add one: write its parse and ticks functions (and copy/free if parse
 * keeps data) and add a line to kernel_rates.
 *
 * Rates:
 *   per-flop:T          T ticks per flop, whatever the shape.
 *   table:FILE[:SCALE]  flops / (rate(rows, cols) x 1e6 x SCALE) seconds,
 *                       rate in Mflop/s from FILE, rows = shape[0],
 *                       cols = shape[1] (shape[2] is not used: callers pass
 *                       the call's total flops); ticks = ceil(seconds /
 *                       tick-seconds), so the machine needs tick-seconds.
 *                       SCALE > 0, default 1.
 *
 * A table FILE is a bare file name looked up like a preset (machine.h:
 * $CUBEMU_MACHINES, then the machines/ folders); no folders in it. Format:
 *
 *   # comments (from '#' to the end of the line) and blank lines ignored
 *   rows\cols  2     3     4     ...      first data line: column extents,
 *   2          0.64  0.89  1.10  ...      increasing; then one line per row
 *   4          1.13  1.54  -     ...      extent, increasing, with one rate
 *                                         per column, in Mflop/s (> 0), or
 *                                         '-' for no cell
 *
 * Every row has one cell per column, and the first is present; '-' cells
 * may only end a row (the paper's tables leave out the large shapes). A
 * missing cell takes the value of the last present cell of its row: a
 * kernel's rate saturates as the column count grows, so that is the
 * nearest honest guess and keeps the surface monotone along the row.
 *
 * rate(r, c) interpolates bilinearly in (log2 r, log2 c) between the
 * surrounding rows and columns (the tables are sampled at powers of two, and
 * rates grow roughly with the logarithm of the extent); an extent outside
 * the table is clamped to its first or last row or column.
 */
#include "kernel.h"

#include <math.h>
#include <string.h>

/* ---- per-flop ---------------------------------------------------------- */

static gboolean per_flop_parse(const char *args, MachineKernel *k, char **why)
{
    k->data = NULL;
    if (!args) {
        *why = g_strdup("rate 'per-flop' needs a number (NAME:NUMBER)");
        return FALSE;
    }
    char *end;
    k->arg = g_ascii_strtod(args, &end);
    if (end == args || *end || !isfinite(k->arg) || k->arg < 0) {
        *why = g_strdup_printf("'%s' is not a non-negative number", args);
        return FALSE;
    }
    return TRUE;
}

static Tick per_flop_ticks(const Machine *m, const MachineKernel *k,
                           const uint64_t shape[KERNEL_SHAPE], uint64_t flops)
{
    (void)m;
    (void)shape;
    return (Tick)ceil(k->arg * (double)flops);
}

static const KernelRate kernel_per_flop = {
    .name = "per-flop",
    .summary = "per-flop:T, T ticks per flop",
    .parse = per_flop_parse,
    .ticks = per_flop_ticks,
};

/* ---- table ------------------------------------------------------------- */

/* One allocation, so a copy is one g_memdup2: v holds the rows' log2
 * extents, then the columns', then the rates row by row, missing cells
 * already filled. */
typedef struct {
    size_t bytes;
    int nrows, ncols;
    double v[];
} KernelTable;

static const double *table_rows(const KernelTable *t) { return t->v; }
static const double *table_cols(const KernelTable *t) { return t->v + t->nrows; }
static const double *table_rates(const KernelTable *t)
{
    return t->v + t->nrows + t->ncols;
}

/* A row or column extent: a whole number >= 1. */
static gboolean table_extent(const char *s, double *log_extent)
{
    guint64 e;
    if (!g_ascii_string_to_unsigned(s, 10, 1, G_MAXUINT64, &e, NULL))
        return FALSE;
    *log_extent = log2((double)e);
    return TRUE;
}

/* The fields of one line without its comment; NULL-terminated. */
static char **table_fields(const char *line)
{
    g_autofree char *text = g_strdup(line);
    char *hash = strchr(text, '#');
    if (hash)
        *hash = '\0';
    char **raw = g_strsplit_set(text, " \t\r", -1);
    GPtrArray *out = g_ptr_array_new();
    for (char **f = raw; *f; f++)
        if (**f)
            g_ptr_array_add(out, g_strdup(*f));
    g_strfreev(raw);
    g_ptr_array_add(out, NULL);
    return (char **)g_ptr_array_free(out, FALSE);
}

/* The header: "rows\cols C1 C2 ..." into cols (log2 extents). */
static gboolean table_header(char **f, GArray *cols, GString *err)
{
    if (strcmp(f[0], "rows\\cols")) {
        g_string_printf(err, "the first line must be 'rows\\cols C1 C2 ...', "
                        "not '%s ...'", f[0]);
        return FALSE;
    }
    if (!f[1]) {
        g_string_printf(err, "the header names no columns");
        return FALSE;
    }
    for (int i = 1; f[i]; i++) {
        double c;
        if (!table_extent(f[i], &c)) {
            g_string_printf(err, "column '%s' is not a whole number >= 1", f[i]);
            return FALSE;
        }
        if (cols->len && c <= g_array_index(cols, double, cols->len - 1)) {
            g_string_printf(err, "column %s does not increase", f[i]);
            return FALSE;
        }
        g_array_append_val(cols, c);
    }
    return TRUE;
}

/* One row "R V1 V2 ...": its log2 extent into rows and its rates, missing
 * cells filled from the left, into rates. */
static gboolean table_row(char **f, guint ncols, GArray *rows, GArray *rates,
                          GString *err)
{
    double r;
    if (!table_extent(f[0], &r)) {
        g_string_printf(err, "row '%s' is not a whole number >= 1", f[0]);
        return FALSE;
    }
    if (rows->len && r <= g_array_index(rows, double, rows->len - 1)) {
        g_string_printf(err, "row %s does not increase", f[0]);
        return FALSE;
    }
    guint n = g_strv_length(f) - 1;
    if (n != ncols) {
        g_string_printf(err, "row %s has %u cells, the header %u columns "
                        "(write '-' for a missing cell)", f[0], n, ncols);
        return FALSE;
    }
    double last = 0;
    for (guint i = 1; i <= n; i++) {
        if (!strcmp(f[i], "-")) {
            if (i == 1) {
                g_string_printf(err, "row %s has no rate in its first cell",
                                f[0]);
                return FALSE;
            }
        } else {
            char *end;
            double v = g_ascii_strtod(f[i], &end);
            if (end == f[i] || *end || !isfinite(v) || v <= 0) {
                g_string_printf(err, "'%s' is not a rate (a number of Mflop/s "
                                "> 0, or '-')", f[i]);
                return FALSE;
            }
            if (i > 1 && !strcmp(f[i - 1], "-")) {
                g_string_printf(err, "row %s: a rate after a '-' cell (only "
                                "'-' cells may end a row)", f[0]);
                return FALSE;
            }
            last = v;
        }
        g_array_append_val(rates, last);
    }
    g_array_append_val(rows, r);
    return TRUE;
}

static KernelTable *table_build(GArray *rows, GArray *cols, GArray *rates)
{
    size_t nv = rows->len + cols->len + rates->len;
    size_t bytes = sizeof(KernelTable) + nv * sizeof(double);
    KernelTable *t = g_malloc(bytes);
    t->bytes = bytes;
    t->nrows = (int)rows->len;
    t->ncols = (int)cols->len;
    memcpy(t->v, rows->data, rows->len * sizeof(double));
    memcpy(t->v + rows->len, cols->data, cols->len * sizeof(double));
    memcpy(t->v + rows->len + cols->len, rates->data,
           rates->len * sizeof(double));
    return t;
}

/* Read and check the table at path; NULL with *why naming path and line. */
static KernelTable *table_load(const char *path, char **why)
{
    g_autofree char *text = NULL;
    GError *e = NULL;
    if (!g_file_get_contents(path, &text, NULL, &e)) {
        *why = g_strdup_printf("%s: %s", path, e->message);
        g_error_free(e);
        return NULL;
    }
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    g_autoptr(GArray) rows = g_array_new(FALSE, FALSE, sizeof(double));
    g_autoptr(GArray) cols = g_array_new(FALSE, FALSE, sizeof(double));
    g_autoptr(GArray) rates = g_array_new(FALSE, FALSE, sizeof(double));
    g_autoptr(GString) err = g_string_new(NULL);
    gboolean have_header = FALSE;
    for (int i = 0; lines[i]; i++) {
        g_auto(GStrv) f = table_fields(lines[i]);
        if (!f[0])
            continue;
        gboolean ok = have_header ? table_row(f, cols->len, rows, rates, err)
                                  : table_header(f, cols, err);
        if (!ok) {
            *why = g_strdup_printf("%s:%d: %s", path, i + 1, err->str);
            return NULL;
        }
        have_header = TRUE;
    }
    if (!rows->len) {
        *why = g_strdup_printf("%s: %s", path, have_header
                               ? "the table has no rows"
                               : "no table (expected 'rows\\cols C1 C2 ...')");
        return NULL;
    }
    return table_build(rows, cols, rates);
}

/* Where x falls on axis (n increasing values): the two neighbours i0, i1
 * and the weight t of i1; outside the axis, its end with weight 0. */
static void table_bracket(const double *axis, int n, double x, int *i0,
                          int *i1, double *t)
{
    *t = 0;
    if (x <= axis[0]) {
        *i0 = *i1 = 0;
        return;
    }
    if (x >= axis[n - 1]) {
        *i0 = *i1 = n - 1;
        return;
    }
    int j = 0;
    while (axis[j + 1] < x)
        j++;
    *i0 = j;
    *i1 = j + 1;
    *t = (x - axis[j]) / (axis[j + 1] - axis[j]);
}

static double table_rate(const KernelTable *t, uint64_t rows, uint64_t cols)
{
    /* An unused extent (0) is taken as 1: the table's first row or column. */
    double x = log2((double)(rows ? rows : 1));
    double y = log2((double)(cols ? cols : 1));
    int r0, r1, c0, c1;
    double tr, tc;
    table_bracket(table_rows(t), t->nrows, x, &r0, &r1, &tr);
    table_bracket(table_cols(t), t->ncols, y, &c0, &c1, &tc);
    const double *v = table_rates(t);
    double lo = (1 - tc) * v[r0 * t->ncols + c0] + tc * v[r0 * t->ncols + c1];
    double hi = (1 - tc) * v[r1 * t->ncols + c0] + tc * v[r1 * t->ncols + c1];
    return (1 - tr) * lo + tr * hi;
}

static gboolean table_parse(const char *args, MachineKernel *k, char **why)
{
    k->data = NULL;
    k->arg = 1;
    if (!args || !*args) {
        *why = g_strdup("rate 'table' needs a file (table:FILE or "
                        "table:FILE:SCALE)");
        return FALSE;
    }
    const char *colon = strchr(args, ':');
    g_autofree char *name = colon ? g_strndup(args, (gsize)(colon - args))
                                  : g_strdup(args);
    if (colon) {
        char *end;
        k->arg = g_ascii_strtod(colon + 1, &end);
        if (end == colon + 1 || *end || !isfinite(k->arg) || k->arg <= 0) {
            *why = g_strdup_printf("table scale '%s' is not a number > 0",
                                   colon + 1);
            return FALSE;
        }
    }
    g_autofree char *path = machine_data_file(name, why);
    if (!path)
        return FALSE;
    k->data = table_load(path, why);
    return k->data != NULL;
}

/* A time that is a whole number of ticks in decimal (1024 flops at 8
 * Mflop/s, 1 us ticks: 128) can come out a hair above it in binary; this
 * much relative slack keeps it from costing one tick more. */
#define KERNEL_TICK_SLACK 1e-9

/* Far beyond any run, and far from overflow when the engine adds to it. */
#define KERNEL_MAX_TICKS ((Tick)1 << 62)

static Tick table_ticks(const Machine *m, const MachineKernel *k,
                        const uint64_t shape[KERNEL_SHAPE], uint64_t flops)
{
    /* Machine parsing refuses a table rate without tick-seconds; a machine
     * built by hand without one pays as for an unbound kernel. */
    if (!(m->tick_seconds > 0) || !k->data)
        return (Tick)flops * m->flop_time;
    double rate = table_rate(k->data, shape[0], shape[1]) * 1e6 * k->arg;
    double ticks = (double)flops / rate / m->tick_seconds;
    ticks = ceil(ticks * (1 - KERNEL_TICK_SLACK));
    return ticks < (double)KERNEL_MAX_TICKS ? (Tick)ticks : KERNEL_MAX_TICKS;
}

static void *table_copy(const void *data)
{
    const KernelTable *t = data;
    return g_memdup2(t, t->bytes);
}

static const KernelRate kernel_table = {
    .name = "table",
    .summary = "table:FILE or table:FILE:SCALE, Mflop/s by rows x columns",
    .parse = table_parse,
    .ticks = table_ticks,
    .needs_tick_seconds = TRUE,
    .copy_data = table_copy,
    .free_data = g_free,
};

double kernel_table_rate(const MachineKernel *k, uint64_t rows, uint64_t cols)
{
    if (k->rate != &kernel_table || !k->data)
        return 0;
    return table_rate(k->data, rows, cols);
}

/* ---- the list and the lookups ------------------------------------------ */

const KernelRate *const kernel_rates[] = {
    &kernel_per_flop,
    &kernel_table,
    NULL
};

gboolean kernel_parse(const char *text, MachineKernel *k, char **why)
{
    const char *colon = strchr(text, ':');
    size_t len = colon ? (size_t)(colon - text) : strlen(text);
    GString *valid = g_string_new(NULL);
    for (const KernelRate *const *r = kernel_rates; *r; r++) {
        g_string_append_printf(valid, "%s%s", valid->len ? "; " : "",
                               (*r)->summary);
        if (strlen((*r)->name) != len || strncmp((*r)->name, text, len))
            continue;
        g_string_free(valid, TRUE);
        k->rate = *r;
        k->arg = 0;
        k->data = NULL;
        return (*r)->parse(colon ? colon + 1 : NULL, k, why);
    }
    *why = g_strdup_printf("unknown kernel rate '%s' (valid: %s)", text,
                           valid->str);
    g_string_free(valid, TRUE);
    return FALSE;
}

gboolean kernel_rate_parse(const char *text, const KernelRate **rate,
                           double *arg, char **why)
{
    MachineKernel k = { 0 };
    if (!kernel_parse(text, &k, why))
        return FALSE;
    if (k.data) {
        kernel_data_free(&k);
        *why = g_strdup_printf("rate '%s' keeps more than a number "
                               "(use kernel_parse)", k.rate->name);
        return FALSE;
    }
    *rate = k.rate;
    *arg = k.arg;
    return TRUE;
}

void *kernel_data_copy(const MachineKernel *k)
{
    return k->data && k->rate->copy_data ? k->rate->copy_data(k->data) : NULL;
}

void kernel_data_free(MachineKernel *k)
{
    if (k->data && k->rate->free_data)
        k->rate->free_data(k->data);
    k->data = NULL;
}

Tick kernel_ticks(const Machine *m, const char *name,
                  const uint64_t shape[KERNEL_SHAPE], uint64_t flops)
{
    const MachineKernel *k = machine_kernel(m, name);
    if (!k)
        return (Tick)flops * m->flop_time;
    return k->rate->ticks(m, k, shape, flops);
}
