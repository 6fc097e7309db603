/* check_kernel.c -- kernel rates: per-flop as before, and table rates read
 * from a file of Mflop/s by rows x columns (machines/cm200-dgemv.tbl, Table
 * 2 of Mathur & Johnsson 1992): exact ticks at cells, interpolation in log
 * space, clamping, missing cells, SCALE, deep copies, and every refusal
 * naming its file and line. Expected values are worked out here from the
 * paper's numbers, not from the code under test.
 */
#include "dynlib.h"
#include "kernel.h"
#include "sim.h"
#include "prepare.h"

#include <check.h>
#include "check_main.h"
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <glib/gstdio.h>

/* A two-node machine with the given extra [machine] lines; NULL error on
 * success, else the message (g_free). */
static char *machine_with(const char *extra, Machine *m)
{
    g_autofree char *text = g_strdup_printf(
        "[machine]\ntopology = complete\nprocessors = 2\n%s", extra);
    GError *e = NULL;
    g_autoptr(Scenario) s = scenario_load_data("test.ini", text, &e);
    ck_assert_msg(s != NULL, "%s", e ? e->message : "");
    if (prepare_machine(s, m, &e))
        return NULL;
    char *why = g_strdup(e->message);
    g_error_free(e);
    return why;
}

/* The machine must parse. */
static Machine machine_ok(const char *extra)
{
    Machine m;
    char *why = machine_with(extra, &m);
    ck_assert_msg(why == NULL, "%s", why);
    return m;
}

/* The machine must be refused, with every one of the NULL-terminated
 * fragments in the message. */
static void machine_refused(const char *extra, ...)
{
    Machine m;
    char *why = machine_with(extra, &m);
    ck_assert_msg(why != NULL, "accepted: %s", extra);      /* read below */
    CkTally found = CK_TALLY_INIT;
    va_list ap;
    va_start(ap, extra);
    for (const char *frag; (frag = va_arg(ap, const char *));)
        ck_tally_true(&found, strstr(why, frag) != NULL, "'%s' not in: %s", frag, why);
    va_end(ap);
    ck_tally_assert(&found, "refusal of '%s'", extra);
    g_free(why);
}

static Tick matvec(const Machine *m, uint64_t rows, uint64_t cols,
                   uint64_t flops)
{
    uint64_t shape[KERNEL_SHAPE] = { rows, cols, 0 };
    return kernel_ticks(m, "matvec", shape, flops);
}

static double rate_at(const Machine *m, uint64_t rows, uint64_t cols)
{
    return kernel_table_rate(machine_kernel(m, "matvec"), rows, cols);
}

/* A cell of the matvec table and the rate m's table gives there. */
typedef struct {
    uint64_t rows, cols;
    double rate;
} RateAt;

/* Each rate as ck_assert_double_eq_tol(rate_at(...), rate, 1e-12) would
 * compare it, the failure naming the cell. */
static void assert_rates(const Machine *m, const RateAt *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double got = rate_at(m, want[i].rows, want[i].cols);
        ck_assert_msg(fabsl(want[i].rate - got) < 1e-12, "%llu x %llu: rate "
                      "%.17g, expected %.17g within 1e-12",
                      (unsigned long long)want[i].rows,
                      (unsigned long long)want[i].cols, got, want[i].rate);
    }
}

#define DGEMV "kernel.matvec = table:cm200-dgemv.tbl\n"
#define US "tick-seconds = 1e-6\n"

/* ---- Table 2 --------------------------------------------------------- */

START_TEST(table_cells_give_exact_ticks)
{
    Machine m = machine_ok(DGEMV US);
    /* 512 flops at 6.89 Mflop/s: 74.3 us, 75 ticks of 1 us. */
    ck_assert_int_eq(matvec(&m, 16, 16, 512), 75);
    /* 2 x 2 at 0.64: 64 flops take exactly 100 us, not a tick more. */
    ck_assert_int_eq(matvec(&m, 2, 2, 64), 100);
    /* The odd cell kept as printed: 2048 x 3 at 4.89, 489 flops, 100 us. */
    ck_assert_int_eq(matvec(&m, 2048, 3, 489), 100);
    /* 64 x 512 at 9.11: 2 * 64 * 512 = 65536 flops, 7193.85 us. */
    ck_assert_int_eq(matvec(&m, 64, 512, 65536), 7194);
    /* The corners and a few cells read back as printed. */
    static const RateAt printed[] = {
        { 2, 2, 0.64 }, { 2, 2048, 5.74 }, { 2048, 2, 3.49 },
        { 5, 3, 1.80 }, { 16, 2048, 8.97 }, { 2048, 16, 7.60 },
    };
    assert_rates(&m, printed, G_N_ELEMENTS(printed));
    /* No flops, no time. */
    ck_assert_int_eq(matvec(&m, 16, 16, 0), 0);
    /* A name the machine does not bind still costs flops x flop-time. */
    uint64_t shape[KERNEL_SHAPE] = { 16, 16, 0 };
    ck_assert_int_eq(kernel_ticks(&m, "fft", shape, 512), 0);
    machine_clear(&m);
}
END_TEST

START_TEST(table_interpolates_in_log_space)
{
    Machine m = machine_ok(DGEMV US);
    /* 256 rows lie halfway between 128 and 512 in log2: 16 columns give
     * (7.60 + 7.57) / 2. */
    ck_assert_double_eq_tol(rate_at(&m, 256, 16), 7.585, 1e-12);
    ck_assert_int_eq(matvec(&m, 256, 16, 7585), 1000);
    ck_assert_int_eq(matvec(&m, 256, 16, 7586), 1001);
    /* 256 columns halfway between 128 and 512: (8.93 + 9.11) / 2. */
    ck_assert_double_eq_tol(rate_at(&m, 64, 256), 9.02, 1e-12);
    /* Both at once, 48 columns a fraction log2(1.5) from 32 to 64:
     * 128 x 32 = 8.30, 128 x 64 = 8.70, 512 x 32 = 8.22, 512 x 64 = 8.60,
     * so (8.30 + 0.40 f + 8.22 + 0.38 f) / 2 = 8.26 + 0.39 f. */
    double f = log2(1.5);
    ck_assert_double_eq_tol(rate_at(&m, 256, 48), 8.26 + 0.39 * f, 1e-12);
    /* Not linear in the extents: 3 lies 0.585 of the way from 2 to 4 in
     * log2 (rows 2, 3, 4 are all cells, so take columns: 2 x 6 between
     * 2 x 5 = 1.29 and 2 x 8 = 2.03). */
    double g = (log2(6) - log2(5)) / (log2(8) - log2(5));
    ck_assert_double_eq_tol(rate_at(&m, 2, 6), 1.29 + 0.74 * g, 1e-12);
    /* 1e6 flops at 8.26 + 0.39 f = 8.488135 Mflop/s: 117811.7 us. */
    ck_assert_int_eq(matvec(&m, 256, 48, 1000000), 117812);
    machine_clear(&m);
}
END_TEST

START_TEST(table_clamps_beyond_its_edges)
{
    Machine m = machine_ok(DGEMV US);
    static const RateAt clamped[] = {
        { 1, 1, 0.64 },
        { 0, 0, 0.64 },                                      /* unused */
        { 3, 0, 0.91 },
        { 1 << 20, 1, 3.49 },
        { 1, 1 << 20, 5.74 },
        { 16, 1 << 20, 8.97 },
        /* Clamped to the last row, whose last present cell is 2048 x 16. */
        { UINT64_MAX, UINT64_MAX, 7.60 },
    };
    assert_rates(&m, clamped, G_N_ELEMENTS(clamped));
    /* 100 flops on a 1 x 1 matrix: at 0.64, 156.25 us. */
    ck_assert_int_eq(matvec(&m, 1, 1, 100), 157);
    machine_clear(&m);
}
END_TEST

START_TEST(table_fills_missing_cells_from_the_left)
{
    Machine m = machine_ok(DGEMV US);
    static const RateAt filled[] = {
        { 512, 2048, 8.60 }, { 512, 128, 8.60 }, { 32, 2048, 8.92 },
        { 2048, 32, 7.60 },
        /* Between a filled cell and a present one: 256 x 256 from 128 x
         * 128 = 8.92, 128 x 512 = (8.92), 512 x 128 = (8.60), 512 x 512 =
         * (8.60). */
        { 256, 256, 8.76 },
    };
    assert_rates(&m, filled, G_N_ELEMENTS(filled));
    /* 2 * 512 * 2048 = 2097152 flops at 8.60: 243854.9 us. */
    ck_assert_int_eq(matvec(&m, 512, 2048, 2097152), 243855);
    machine_clear(&m);
}
END_TEST

START_TEST(table_scale_and_tick_length)
{
    Machine m = machine_ok("kernel.matvec = table:cm200-dgemv.tbl:0.25\n" US);
    /* A quarter of 6.89: 512 flops take 297.2 us. */
    ck_assert_int_eq(matvec(&m, 16, 16, 512), 298);
    /* SCALE does not change the tabulated rate. */
    ck_assert_double_eq_tol(rate_at(&m, 16, 16), 6.89, 1e-12);
    machine_clear(&m);

    m = machine_ok("kernel.matvec = table:cm200-dgemv.tbl:2\n" US);
    ck_assert_int_eq(matvec(&m, 2, 2, 64), 50);          /* 1.28 Mflop/s */
    machine_clear(&m);

    /* Ticks of 100 ns: 74.3 us is 743.1 ticks. */
    m = machine_ok(DGEMV "tick-seconds = 1e-7\n");
    ck_assert_int_eq(matvec(&m, 16, 16, 512), 744);
    machine_clear(&m);
}
END_TEST

/* The engine charges the table's ticks as the node's compute time. */
static NodeStatus one_matvec(Node *node, const void *config)
{
    (void)config;
    uint64_t shape[KERNEL_SHAPE] = { 16, 16, 0 };
    if (node_address(node) == 0)
        node_kernel(node, "matvec", shape, 512);
    return NODE_DONE;
}

START_TEST(table_through_the_engine)
{
    Machine m = machine_ok(DGEMV US);
    SimLayout layout = { 8, 1, 0, 0, FALSE };
    Sim *sim = sim_new(&m, &layout);
    machine_clear(&m);                  /* the engine keeps its own copy */
    GError *e = NULL;
    ck_assert(sim_run(sim, one_matvec, NULL, &e));
    ck_assert_int_eq(sim_stats(sim)->compute[0], 75);
    ck_assert_int_eq(sim_stats(sim)->compute[1], 0);
    sim_free(sim);
}
END_TEST

START_TEST(copies_are_deep)
{
    Machine m = machine_ok(DGEMV US "kernel.mm = per-flop:2\n");
    Machine c;
    machine_copy(&c, &m);
    ck_assert_ptr_ne(c.kernel[0].data, m.kernel[0].data);
    machine_clear(&m);
    ck_assert_int_eq(matvec(&c, 16, 16, 512), 75);
    uint64_t shape[KERNEL_SHAPE] = { 0 };
    ck_assert_int_eq(kernel_ticks(&c, "mm", shape, 7), 14);
    machine_clear(&c);
}
END_TEST

/* ---- per-flop as before ---------------------------------------------- */

START_TEST(per_flop_unchanged)
{
    Machine m = machine_ok("kernel.matvec = per-flop:3\n");
    ck_assert_int_eq(matvec(&m, 16, 16, 10), 30);
    ck_assert_ptr_null(machine_kernel(&m, "matvec")->data);
    machine_clear(&m);
    m = machine_ok("kernel.matvec = per-flop:0.5\n");
    ck_assert_int_eq(matvec(&m, 1, 1, 3), 2);
    machine_clear(&m);

    const KernelRate *rate;
    double arg;
    char *why = NULL;
    ck_assert(kernel_rate_parse("per-flop:2", &rate, &arg, &why));
    ck_assert_str_eq(rate->name, "per-flop");
    ck_assert_double_eq(arg, 2);
    ck_assert(!kernel_rate_parse("per-flop", &rate, &arg, &why));
    ck_assert_str_eq(why, "rate 'per-flop' needs a number (NAME:NUMBER)");
    g_free(why);
    ck_assert(!kernel_rate_parse("per-flop:-1", &rate, &arg, &why));
    ck_assert_str_eq(why, "'-1' is not a non-negative number");
    g_free(why);
    /* The number-only form cannot hold a table. */
    ck_assert(!kernel_rate_parse("table:cm200-dgemv.tbl", &rate, &arg, &why));
    ck_assert_msg(strstr(why, "kernel_parse"), "%s", why);
    g_free(why);
    machine_refused("kernel.matvec = per-flop\n", "test.ini:4: kernel.matvec: "
                    "rate 'per-flop' needs a number", NULL);
    machine_refused("kernel.matvec = fast\n", "test.ini:4:",
                    "unknown kernel rate 'fast'", "table:FILE", NULL);
}
END_TEST

/* ---- refusals -------------------------------------------------------- */

START_TEST(table_needs_tick_seconds)
{
    machine_refused(DGEMV, "test.ini:4: kernel.matvec:", "tick-seconds", NULL);
    /* A refused tick-seconds is reported once, as itself. */
    Machine m;
    char *why = machine_with(DGEMV "tick-seconds = soon\n", &m);
    ck_assert_ptr_nonnull(why);
    ck_assert_msg(strstr(why, "test.ini:5: tick-seconds"), "%s", why);
    ck_assert_msg(!strstr(why, "kernel.matvec"), "%s", why);
    g_free(why);
}
END_TEST

START_TEST(table_refuses_bad_arguments)
{
    machine_refused("kernel.matvec = table\n" US, "test.ini:4:",
                    "needs a file", NULL);
    machine_refused("kernel.matvec = table:\n" US, "needs a file", NULL);
    machine_refused("kernel.matvec = table:nope.tbl\n" US,
                    "test.ini:4: kernel.matvec:", "no file 'nope.tbl'", NULL);
    machine_refused("kernel.matvec = table:../machines/cm200-dgemv.tbl\n" US,
                    "not a bare file name", NULL);
    machine_refused("kernel.matvec = table:/etc/passwd\n" US,
                    "not a bare file name", NULL);
    machine_refused("kernel.matvec = table:cm200-dgemv.tbl:0\n" US,
                    "scale '0'", NULL);
    machine_refused("kernel.matvec = table:cm200-dgemv.tbl:-1\n" US,
                    "scale '-1'", NULL);
    machine_refused("kernel.matvec = table:cm200-dgemv.tbl:x\n" US,
                    "scale 'x'", NULL);
}
END_TEST

/* A folder of small tables, first on the preset path. */
static char *table_dir(void)
{
    GError *e = NULL;
    char *dir = g_dir_make_tmp("check_kernel-XXXXXX", &e);
    ck_assert_msg(dir != NULL, "%s", e ? e->message : "");
    g_setenv("CUBEMU_MACHINES", dir, TRUE);
    return dir;
}

static void table_write(const char *dir, const char *name, const char *text)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    ck_assert(g_file_set_contents(path, text, -1, NULL));
}

static void table_dir_remove(char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *f;
    while (d && (f = g_dir_read_name(d))) {
        g_autofree char *path = g_build_filename(dir, f, NULL);
        g_remove(path);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(dir);
    g_free(dir);
    g_unsetenv("CUBEMU_MACHINES");
}

/* One bad table: refused with "NAME:LINE:" and the fragment. */
static void bad_table(const char *dir, const char *text, int line,
                      const char *fragment)
{
    table_write(dir, "bad.tbl", text);
    g_autofree char *where = g_strdup_printf("bad.tbl:%d: ", line);
    machine_refused("kernel.matvec = table:bad.tbl\n" US, "test.ini:4: "
                    "kernel.matvec: ", where, fragment, NULL);
}

/* bad_table with a header of columns 2 4 8 on line 3 and rows after it. */
static void bad_rows(const char *dir, const char *rows, int line,
                     const char *fragment)
{
    g_autofree char *text = g_strconcat("# a comment\n\nrows\\cols 2 4 8\n",
                                        rows, NULL);
    bad_table(dir, text, line, fragment);
}

START_TEST(table_file_errors_name_file_and_line)
{
    char *dir = table_dir();
    bad_rows(dir, "2 1 2 3\n4 1 x 3\n", 5, "'x' is not a rate");
    bad_rows(dir, "2 1 2 3\n4 1 0 3\n", 5, "'0' is not a rate");
    bad_rows(dir, "2 1 -2 3\n", 4, "'-2' is not a rate");
    bad_rows(dir, "2 1 2 3\n4 1 2\n", 5, "has 2 cells, the header 3 columns");
    bad_rows(dir, "2 1 2 3 4\n", 4, "has 4 cells");
    bad_rows(dir, "4 1 2 3\n2 1 2 3\n", 5, "row 2 does not increase");
    bad_rows(dir, "2 - - -\n", 4, "no rate in its first cell");
    bad_rows(dir, "2 1 - 3\n", 4, "a rate after a '-' cell");
    bad_rows(dir, "two 1 2 3\n", 4, "row 'two' is not a whole number");
    bad_rows(dir, "0 1 2 3\n", 4, "row '0'");
    bad_table(dir, "rows\\cols 2 8 4\n2 1 2 3\n", 1, "column 4 does not increase");
    bad_table(dir, "rows\\cols 2 x\n", 1, "column 'x'");
    bad_table(dir, "\n# only a header\nrows\\cols\n", 3, "no columns");
    bad_table(dir, "2 1 2 3\n", 1, "the first line must be 'rows\\cols");

    /* Errors without a line: an empty table, a header without rows. */
    table_write(dir, "bad.tbl", "# nothing\n");
    machine_refused("kernel.matvec = table:bad.tbl\n" US, "bad.tbl: ",
                    "no table", NULL);
    table_write(dir, "bad.tbl", "rows\\cols 2 4\n");
    machine_refused("kernel.matvec = table:bad.tbl\n" US, "bad.tbl: ",
                    "no rows", NULL);
    /* Not a file. */
    g_autofree char *sub = g_build_filename(dir, "sub.tbl", NULL);
    ck_assert_int_eq(g_mkdir(sub, 0700), 0);
    machine_refused("kernel.matvec = table:sub.tbl\n" US, "no file 'sub.tbl'",
                    NULL);
    g_rmdir(sub);
    table_dir_remove(dir);
}
END_TEST

START_TEST(small_tables)
{
    char *dir = table_dir();
    /* A rate that makes whole ticks: 1024 flops at 8 Mflop/s are 128 us. */
    table_write(dir, "flat.tbl", "rows\\cols 1\n1 8   # one cell\n");
    Machine m = machine_ok("kernel.matvec = table:flat.tbl\n" US);
    ck_assert_int_eq(matvec(&m, 100, 100, 1024), 128);
    ck_assert_int_eq(matvec(&m, 100, 100, 1025), 129);
    machine_clear(&m);
    /* Tabs, CRLF line ends and a trailing comment on the header. */
    table_write(dir, "crlf.tbl", "rows\\cols\t2\t4 # cols\r\n2\t1\t3\r\n"
                "8\t5\t-\r\n");
    m = machine_ok("kernel.matvec = table:crlf.tbl\n" US);
    ck_assert_double_eq_tol(rate_at(&m, 2, 2), 1, 1e-12);
    ck_assert_double_eq_tol(rate_at(&m, 4, 4), (3 + 5) / 2.0, 1e-12);
    ck_assert_double_eq_tol(rate_at(&m, 4, 2), (1 + 5) / 2.0, 1e-12);
    machine_clear(&m);
    table_dir_remove(dir);
}
END_TEST

/* A scenario's kernel key replaces its preset's: the preset's table (and
 * its need of tick-seconds) goes, freed. */
START_TEST(scenario_overrides_preset_kernel)
{
    char *dir = table_dir();
    table_write(dir, "flat.tbl", "rows\\cols 1\n1 8\n");
    table_write(dir, "p.ini", "[machine]\ntopology = complete\n"
                "processors = 2\nkernel.matvec = table:flat.tbl\n");
    GError *e = NULL;
    g_autoptr(Scenario) s = scenario_load_data("test.ini", "[machine]\n"
        "preset = p\nkernel.matvec = per-flop:1\n", &e);
    ck_assert(s != NULL);
    Machine m;
    ck_assert_msg(prepare_machine(s, &m, &e), "%s", e->message);
    ck_assert_int_eq(matvec(&m, 4, 4, 9), 9);
    machine_clear(&m);

    /* The preset's table rate alone needs tick-seconds: refused in p.ini. */
    g_autoptr(Scenario) s2 = scenario_load_data("test.ini", "[machine]\n"
        "preset = p\n", &e);
    ck_assert(!prepare_machine(s2, &m, &e));
    ck_assert_msg(strstr(e->message, "p.ini:4: kernel.matvec:"), "%s",
                  e->message);
    g_clear_error(&e);
    table_dir_remove(dir);
}
END_TEST

/* dynlib.h: a missing library fails with its name, the dlopen reason and
 * the hint, every time after; the second soname is tried when the first is
 * missing; a missing symbol fails the library from then on. */
START_TEST(dynlib_reports_missing_library)
{
    static const char *const names[] = { "libcubemu-none.so.7", NULL };
    DynLib lib = { .what = "Nothing", .hint = "install nothing",
                   .names = names };
    CkTally passes = CK_TALLY_INIT;
    for (int pass = 0; pass < 2; pass++) {
        GError *e = NULL;
        ck_tally_true(&passes, !dynlib_open(&lib, &e), "pass %d: the open fails", pass);
        /* The message is read only when there is one; none is tallied. */
        ck_tally_true(&passes, e && g_str_has_prefix(e->message, "cannot load Nothing "
                                                     "(libcubemu-none.so.7: ")
                               && g_str_has_suffix(e->message, "); install nothing"),
                      "pass %d: %s", pass, e ? e->message : "(no error)");
        g_clear_error(&e);
        ck_tally_ptr(&passes, NULL, lib.handle, "pass %d: handle", pass);
    }
    ck_tally_assert(&passes, "a missing library");
    g_free(lib.failed);
}
END_TEST

START_TEST(dynlib_finds_and_fails_symbols)
{
    static const char *const names[] = { "libcubemu-none.so.7", "libm.so.6",
                                         NULL };
    DynLib lib = { .what = "libm", .hint = "-", .names = names };
    double (*cosine)(double) = NULL;
    GError *e = NULL;
    ck_assert(dynlib_find(&lib, (void **)&cosine, "cos", &e));
    ck_assert_ptr_nonnull(cosine);
    ck_assert(cosine(0.0) == 1.0);
    ck_assert_ptr_nonnull(dynlib_optional(&lib, "sin"));
    ck_assert_ptr_null(dynlib_optional(&lib, "cubemu_no_such_function"));
    void *slot = &e;
    ck_assert(!dynlib_find(&lib, &slot, "cubemu_no_such_function", &e));
    ck_assert_ptr_null(slot);
    ck_assert_str_eq(e->message, "the libm library (libm.so.6) "
                                 "has no cubemu_no_such_function");
    g_clear_error(&e);
    ck_assert(!dynlib_open(&lib, &e));
    ck_assert_str_eq(e->message, "the libm library (libm.so.6) "
                                 "has no cubemu_no_such_function");
    g_clear_error(&e);
    ck_assert_ptr_null(dynlib_optional(&lib, "sin"));
    g_free(lib.failed);
}
END_TEST

static Suite *kernel_suite(void)
{
    Suite *s = suite_create("kernel");
    TCase *t = ck_tcase(s, "table", 0);
    tcase_add_test(t, table_cells_give_exact_ticks);
    tcase_add_test(t, table_interpolates_in_log_space);
    tcase_add_test(t, table_clamps_beyond_its_edges);
    tcase_add_test(t, table_fills_missing_cells_from_the_left);
    tcase_add_test(t, table_scale_and_tick_length);
    tcase_add_test(t, table_through_the_engine);
    tcase_add_test(t, copies_are_deep);
    tcase_add_test(t, per_flop_unchanged);
    tcase_add_test(t, table_needs_tick_seconds);
    tcase_add_test(t, table_refuses_bad_arguments);
    tcase_add_test(t, table_file_errors_name_file_and_line);
    tcase_add_test(t, small_tables);
    tcase_add_test(t, scenario_overrides_preset_kernel);
    TCase *d = ck_tcase(s, "dynlib", 0);
    tcase_add_test(d, dynlib_reports_missing_library);
    tcase_add_test(d, dynlib_finds_and_fails_symbols);
    return s;
}

CUBE_CHECK_MAIN(kernel_suite)
