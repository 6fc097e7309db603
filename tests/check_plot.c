/* check_plot.c -- sweep plots (traces/plot.h) through cairo.
 *
 * Asserted: the format follows the extension in any case and nothing else
 * is accepted; a refused or unwritable path is an error naming the path,
 * with no file left behind; a PNG has the requested size, a white
 * background and the title's glyphs in it; every format gives the same
 * bytes on a second run (but for the SVG surface id plot.h names: across
 * processes tests/traces.sh compares whole files); plots with nothing to draw, gaps, categories and
 * titles too long for the width are drawn without error in every format.
 */
#include "plot.h"
#include "output.h"

#include <cairo.h>
#include <check.h>
#include "check_main.h"
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static const char *const extensions[] = { "png", "svg", "pdf" };

/* The smallest and the default size cubemu sweep draws. */
#define SMALL_SIZE 320
#define WIDTH 1000
#define HEIGHT 620
/* The title is centred in the band above this row (margin, large font). */
#define TITLE_BAND 30
/* A channel below this is ink, not background or antialiased fringe. */
#define INK_LEVEL 0x80

/* A measured line over K = 4..64 and a bound under it, on log axes. */
static Plot *sample_plot(void)
{
    Plot *p = plot_new();
    p->title = g_strdup("Theorem 5 against the measured cycles");
    p->subtitle = g_strdup("gray-to-binary on a 4-cube");
    p->xlabel = g_strdup("elements-per-node");
    p->ylabel = g_strdup("cycles");
    p->log_x = p->log_y = TRUE;
    PlotSeries *m = plot_add_series(p, "concurrent", FALSE);
    PlotSeries *b = plot_add_series(p, "Theorem 5", TRUE);
    for (int k = 4; k <= 64; k *= 2) {
        plot_series_add(m, k, 3 * ((k + 2) / 3));
        plot_series_add(b, k, 3 * ((k + 2) / 3) - 1);
    }
    return p;
}

typedef struct {
    char *dir;
} TmpDir;

static char *tmp_path(TmpDir *t, const char *name)
{
    if (!t->dir)
        t->dir = g_dir_make_tmp("cubemu-plot-XXXXXX", NULL);
    ck_assert_ptr_nonnull(t->dir);
    return g_build_filename(t->dir, name, NULL);
}

static void tmp_clear(TmpDir *t)
{
    if (!t->dir)
        return;
    GDir *d = g_dir_open(t->dir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
        g_autofree char *path = g_build_filename(t->dir, name, NULL);
        g_unlink(path);
    }
    if (d)
        g_dir_close(d);
    g_rmdir(t->dir);
    g_free(t->dir);
}

static void save_ok(const Plot *p, const char *path, int width, int height)
{
    GError *e = NULL;
    gboolean ok = plot_save(p, path, width, height, &e);
    ck_assert_msg(ok, "%s", e ? e->message : "");
    ck_assert_ptr_null(e);
}

START_TEST(format_by_extension)
{
    ck_assert_int_eq(plot_format_of("k.png"), PLOT_FORMAT_PNG);
    ck_assert_int_eq(plot_format_of("docs/sweep.PNG"), PLOT_FORMAT_PNG);
    ck_assert_int_eq(plot_format_of("k.svg"), PLOT_FORMAT_SVG);
    ck_assert_int_eq(plot_format_of("paper/fig.3.Pdf"), PLOT_FORMAT_PDF);
    ck_assert_int_eq(plot_format_of("k.gif"), PLOT_FORMAT_UNKNOWN);
    ck_assert_int_eq(plot_format_of("k.png.bak"), PLOT_FORMAT_UNKNOWN);
    ck_assert_int_eq(plot_format_of("png"), PLOT_FORMAT_UNKNOWN);
    ck_assert_int_eq(plot_format_of("out.svgz"), PLOT_FORMAT_UNKNOWN);
    ck_assert_int_eq(plot_format_of(NULL), PLOT_FORMAT_UNKNOWN);
}
END_TEST

START_TEST(unknown_format_refused)
{
    TmpDir t = { 0 };
    g_autoptr(Plot) p = sample_plot();
    g_autofree char *path = tmp_path(&t, "k.gif");
    g_autofree char *want = g_strdup_printf("%s: unknown plot format (valid extensions: "
                                            ".png, .svg, .pdf)", path);
    GError *e = NULL;
    ck_assert(!plot_save(p, path, WIDTH, HEIGHT, &e));
    ck_assert(g_error_matches(e, PLOT_ERROR, PLOT_ERROR_FORMAT));
    ck_assert_str_eq(e->message, want);
    ck_assert(!g_file_test(path, G_FILE_TEST_EXISTS));
    g_error_free(e);
    tmp_clear(&t);
}
END_TEST

START_TEST(unwritable_path_named)
{
    g_autoptr(Plot) p = sample_plot();
    g_autofree char *path = g_strdup_printf("/nonexistent/k.%s", extensions[_i]);
    g_autofree char *want = g_strdup_printf("%s: cannot write: No such file or directory", path);
    GError *e = NULL;
    ck_assert(!plot_save(p, path, WIDTH, HEIGHT, &e));
    ck_assert(g_error_matches(e, OUTPUT_ERROR, OUTPUT_ERROR_WRITE));
    ck_assert_str_eq(e->message, want);
    g_error_free(e);
}
END_TEST

static gboolean is_ink(guint32 pixel)
{
    return ((pixel >> 16) & 0xff) < INK_LEVEL && ((pixel >> 8) & 0xff) < INK_LEVEL
           && (pixel & 0xff) < INK_LEVEL;
}

START_TEST(png_size_background_and_title)
{
    TmpDir t = { 0 };
    g_autoptr(Plot) p = sample_plot();
    g_autofree char *path = tmp_path(&t, "k.png");
    save_ok(p, path, WIDTH, HEIGHT);
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    ck_assert_int_eq(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    ck_assert_int_eq(cairo_image_surface_get_width(s), WIDTH);
    ck_assert_int_eq(cairo_image_surface_get_height(s), HEIGHT);
    const unsigned char *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    const guint32 *corner = (const guint32 *)(const void *)data;
    ck_assert_uint_eq(corner[0] & 0xffffffu, 0xffffffu);
    guint ink = 0;
    for (int y = 0; y < TITLE_BAND; y++) {
        const guint32 *row = (const guint32 *)(const void *)(data + (size_t)y * (size_t)stride);
        for (int x = 0; x < WIDTH; x++)
            ink += is_ink(row[x]);
    }
    ck_assert_msg(ink > 0, "no glyph of the title in the top %d rows", TITLE_BAND);
    cairo_surface_destroy(s);
    tmp_clear(&t);
}
END_TEST

/* TEXT with cairo's process-wide SVG surface numbers (plot.h) blanked. */
static char *without_surface_ids(const char *text)
{
    g_autoptr(GRegex) id = g_regex_new("id=\"surface[0-9]+\"", 0, 0, NULL);
    return g_regex_replace_literal(id, text, -1, 0, "id=\"surface\"", 0, NULL);
}

START_TEST(same_bytes_every_run)
{
    TmpDir t = { 0 };
    g_autoptr(Plot) p = sample_plot();
    g_autofree char *name1 = g_strdup_printf("one.%s", extensions[_i]);
    g_autofree char *name2 = g_strdup_printf("two.%s", extensions[_i]);
    g_autofree char *path1 = tmp_path(&t, name1), *path2 = tmp_path(&t, name2);
    save_ok(p, path1, WIDTH, HEIGHT);
    save_ok(p, path2, WIDTH, HEIGHT);
    g_autofree char *a = NULL, *b = NULL;
    gsize na, nb;
    ck_assert(g_file_get_contents(path1, &a, &na, NULL));
    ck_assert(g_file_get_contents(path2, &b, &nb, NULL));
    ck_assert_uint_gt(na, 0);
    if (!strcmp(extensions[_i], "svg")) {
        g_autofree char *sa = without_surface_ids(a), *sb = without_surface_ids(b);
        ck_assert_str_eq(sa, sb);
    } else {
        ck_assert_uint_eq(na, nb);
        ck_assert(memcmp(a, b, na) == 0);
    }
    tmp_clear(&t);
}
END_TEST

START_TEST(odd_plots_drawn)
{
    TmpDir t = { 0 };
    g_autofree char *name = g_strdup_printf("odd.%s", extensions[_i]);
    g_autofree char *path = tmp_path(&t, name);

    /* Nothing to draw. */
    g_autoptr(Plot) empty = plot_new();
    save_ok(empty, path, SMALL_SIZE, SMALL_SIZE);

    /* Points a log axis cannot show break the line; a title and legend
     * names wider than the figure are cut. */
    g_autoptr(Plot) gaps = sample_plot();
    g_free(gaps->title);
    gaps->title = g_strnfill(200, 'T');
    PlotSeries *s = plot_add_series(gaps, "a legend name far too long for a third of "
                                    "a small figure", FALSE);
    plot_series_add(s, 4, 10);
    plot_series_add(s, 8, 0);
    plot_series_add(s, 16, NAN);
    plot_series_add(s, -32, 40);
    plot_series_add(s, 64, 80);
    save_ok(gaps, path, SMALL_SIZE, SMALL_SIZE);

    /* Named x values, and a series of one point. */
    g_autoptr(Plot) cats = plot_new();
    cats->x_names = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(cats->x_names, g_strdup("concurrent"));
    g_ptr_array_add(cats->x_names, g_strdup("sequential"));
    PlotSeries *c = plot_add_series(cats, "K=8", FALSE);
    plot_series_add(c, 0, 8);
    plot_series_add(c, 1, 24);
    plot_series_add(plot_add_series(cats, "K=16", FALSE), 1, 48);
    save_ok(cats, path, WIDTH, HEIGHT);
    tmp_clear(&t);
}
END_TEST

static Suite *plot_suite(void)
{
    Suite *s = suite_create("plot");
    TCase *t = ck_tcase(s, "plot", 0);
    tcase_add_test(t, format_by_extension);
    tcase_add_test(t, unknown_format_refused);
    tcase_add_loop_test(t, unwritable_path_named, 0, G_N_ELEMENTS(extensions));
    tcase_add_test(t, png_size_background_and_title);
    tcase_add_loop_test(t, same_bytes_every_run, 0, G_N_ELEMENTS(extensions));
    tcase_add_loop_test(t, odd_plots_drawn, 0, G_N_ELEMENTS(extensions));
    return s;
}

CUBE_CHECK_MAIN(plot_suite)
