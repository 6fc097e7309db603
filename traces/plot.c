/* plot.c -- line plots drawn with cairo (plot.h).
 *
 * Invariant: the axis ranges enclose every finite point of every series
 * (positive points only on a log axis) and both ends of an axis are ticks,
 * so nothing is drawn outside the frame and each end can be read off.
 *
 * One drawing serves every format: the layout is computed from cairo's
 * text extents with hinted metrics off, so PNG, SVG and PDF place every
 * line and label at the same coordinates. Units are pixels in PNG and SVG
 * and points in PDF, x right, y down.
 */
#include "plot.h"
#include "number.h"
#include "output.h"

#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <json-glib/json-glib.h>
#include <dlfcn.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* cairo is loaded when the first plot is saved, not linked: with the
 * libraries it brings (X11, fontconfig, freetype, pixman, png) it would
 * slow every start of cubemu, and only sweep's plots draw. The cairo_*
 * names below call through the table cairo_load() fills. */
#define CAIRO_FUNCTIONS(X) \
    X(cairo_arc) X(cairo_close_path) X(cairo_create) X(cairo_destroy) \
    X(cairo_fill) X(cairo_font_extents) X(cairo_font_options_create) \
    X(cairo_font_options_destroy) X(cairo_font_options_set_antialias) \
    X(cairo_font_options_set_hint_metrics) \
    X(cairo_font_options_set_hint_style) X(cairo_image_surface_create) \
    X(cairo_line_to) X(cairo_move_to) X(cairo_new_path) X(cairo_paint) \
    X(cairo_pdf_surface_create_for_stream) \
    X(cairo_pdf_surface_set_metadata) X(cairo_rectangle) X(cairo_restore) \
    X(cairo_rotate) X(cairo_save) X(cairo_select_font_face) \
    X(cairo_set_dash) X(cairo_set_font_options) X(cairo_set_font_size) \
    X(cairo_set_line_join) X(cairo_set_line_width) X(cairo_set_source_rgb) \
    X(cairo_show_text) X(cairo_status) X(cairo_status_to_string) \
    X(cairo_stroke) X(cairo_stroke_preserve) X(cairo_surface_destroy) X(cairo_surface_finish) \
    X(cairo_surface_status) X(cairo_surface_write_to_png_stream) \
    X(cairo_svg_surface_create_for_stream) \
    X(cairo_svg_surface_set_document_unit) X(cairo_text_extents) \
    X(cairo_translate)

static struct {
#define CAIRO_MEMBER(f) __typeof__(f) *f;
    CAIRO_FUNCTIONS(CAIRO_MEMBER)
#undef CAIRO_MEMBER
} cairo_api;

static gboolean cairo_load(const char *path, GError **error)
{
    static void *handle;
    if (handle)
        return TRUE;
    void *h = dlopen("libcairo.so.2", RTLD_NOW | RTLD_LOCAL);
    const char *missing = NULL;
    if (h) {
#define CAIRO_FIND(f)                                     \
        *(void **)&cairo_api.f = dlsym(h, #f);            \
        if (!cairo_api.f && !missing)                     \
            missing = #f;
        CAIRO_FUNCTIONS(CAIRO_FIND)
#undef CAIRO_FIND
    }
    if (!h || missing) {
        g_set_error(error, PLOT_ERROR, PLOT_ERROR_WRITE, "%s: cannot load "
                    "cairo (libcairo.so.2: %s); make deps installs "
                    "libcairo2-dev", path, h ? missing : dlerror());
        if (h)
            dlclose(h);
        return FALSE;
    }
    handle = h;
    return TRUE;
}

#define CAIRO_CALL(f) (cairo_api.f)
#define cairo_arc CAIRO_CALL(cairo_arc)
#define cairo_close_path CAIRO_CALL(cairo_close_path)
#define cairo_create CAIRO_CALL(cairo_create)
#define cairo_destroy CAIRO_CALL(cairo_destroy)
#define cairo_fill CAIRO_CALL(cairo_fill)
#define cairo_font_extents CAIRO_CALL(cairo_font_extents)
#define cairo_font_options_create CAIRO_CALL(cairo_font_options_create)
#define cairo_font_options_destroy CAIRO_CALL(cairo_font_options_destroy)
#define cairo_font_options_set_antialias CAIRO_CALL(cairo_font_options_set_antialias)
#define cairo_font_options_set_hint_metrics CAIRO_CALL(cairo_font_options_set_hint_metrics)
#define cairo_font_options_set_hint_style CAIRO_CALL(cairo_font_options_set_hint_style)
#define cairo_image_surface_create CAIRO_CALL(cairo_image_surface_create)
#define cairo_line_to CAIRO_CALL(cairo_line_to)
#define cairo_move_to CAIRO_CALL(cairo_move_to)
#define cairo_new_path CAIRO_CALL(cairo_new_path)
#define cairo_paint CAIRO_CALL(cairo_paint)
#define cairo_pdf_surface_create_for_stream CAIRO_CALL(cairo_pdf_surface_create_for_stream)
#define cairo_pdf_surface_set_metadata CAIRO_CALL(cairo_pdf_surface_set_metadata)
#define cairo_rectangle CAIRO_CALL(cairo_rectangle)
#define cairo_restore CAIRO_CALL(cairo_restore)
#define cairo_rotate CAIRO_CALL(cairo_rotate)
#define cairo_save CAIRO_CALL(cairo_save)
#define cairo_select_font_face CAIRO_CALL(cairo_select_font_face)
#define cairo_set_dash CAIRO_CALL(cairo_set_dash)
#define cairo_set_font_options CAIRO_CALL(cairo_set_font_options)
#define cairo_set_font_size CAIRO_CALL(cairo_set_font_size)
#define cairo_set_line_join CAIRO_CALL(cairo_set_line_join)
#define cairo_set_line_width CAIRO_CALL(cairo_set_line_width)
#define cairo_set_source_rgb CAIRO_CALL(cairo_set_source_rgb)
#define cairo_show_text CAIRO_CALL(cairo_show_text)
#define cairo_status CAIRO_CALL(cairo_status)
#define cairo_status_to_string CAIRO_CALL(cairo_status_to_string)
#define cairo_stroke CAIRO_CALL(cairo_stroke)
#define cairo_stroke_preserve CAIRO_CALL(cairo_stroke_preserve)
#define cairo_surface_destroy CAIRO_CALL(cairo_surface_destroy)
#define cairo_surface_finish CAIRO_CALL(cairo_surface_finish)
#define cairo_surface_status CAIRO_CALL(cairo_surface_status)
#define cairo_surface_write_to_png_stream CAIRO_CALL(cairo_surface_write_to_png_stream)
#define cairo_svg_surface_create_for_stream CAIRO_CALL(cairo_svg_surface_create_for_stream)
#define cairo_svg_surface_set_document_unit CAIRO_CALL(cairo_svg_surface_set_document_unit)
#define cairo_text_extents CAIRO_CALL(cairo_text_extents)
#define cairo_translate CAIRO_CALL(cairo_translate)

/* About this many ticks per axis; log axes thin powers of two to at most
 * PLOT_MAX_LOG_TICKS, and switch to decades beyond PLOT_LOG2_SPAN. */
#define PLOT_TICKS 6
#define PLOT_MAX_LOG_TICKS 10
#define PLOT_LOG2_SPAN 16
/* The legend takes at most this share of the width. */
#define PLOT_LEGEND_SHARE 0.3
/* Around the figure, and between the titles and the frame. */
#define PLOT_MARGIN 16
/* Between a tick, a line sample or a frame and its text. */
#define PLOT_PAD 6
#define PLOT_TICK 5
/* Below the title, so that its descenders clear the subtitle. */
#define PLOT_TITLE_GAP 2
/* A legend entry's line sample, its distance from the legend's left
 * edge, and the space above the first entry and below the last. */
#define PLOT_LEGEND_SAMPLE 28
#define PLOT_LEGEND_INSET 8
#define PLOT_LEGEND_PAD 5
/* The frame never shrinks below this, however long the labels. */
#define PLOT_MIN_AREA 10
/* A tick label's number (number_text): whole numbers in full up to seven
 * digits, else three significant digits, short enough beside an axis. */
#define PLOT_TICK_DIGITS 3
#define PLOT_TICK_WHOLE_BELOW 1e7
/* Room for a tick label: a number as above, or a category name (cut). */
#define PLOT_LABEL_MAX 64
/* Offset of a pixel's centre from its corner. */
#define PLOT_PIXEL_CENTRE 0.5
/* Marker radius; line widths, dash lengths. Bounds are thinner than the
 * measured lines and drawn after them, so a bound a method meets exactly
 * shows as dashes on its line, the line's colour at their edges. */
#define PLOT_MARKER 4.5
#define PLOT_MEASURED_WIDTH 2.5
#define PLOT_BOUND_WIDTH 2.0
#define PLOT_THIN_WIDTH 1.0
#define PLOT_DASH 7.0
#define PLOT_LEGEND_DASH 5.0
/* The ring around a point where a bound equals the measurement: radius in
 * units of PLOT_MARKER, and its line width. */
#define PLOT_RING 1.9
#define PLOT_RING_WIDTH 1.5
/* The background-coloured edge on each side of a bound's dashes. */
#define PLOT_BOUND_EDGE 1.0
/* Legend notes wrap at the entries' width, or this if that is less. */
#define PLOT_NOTE_WIDTH 240
/* A legend entry's name takes at most this many lines. */
#define PLOT_LEGEND_LINES 3
/* Categories: a category's share that its series' markers spread over,
 * at most this much per series, and a bound's bar a share of that. */
#define PLOT_CATEGORY_SPREAD 0.8
#define PLOT_CATEGORY_SLOT 0.3
#define PLOT_CATEGORY_BAR 0.4
/* Category names wider than their share of the axis go on two rows,
 * alternating; wider still, they are cut. */
#define PLOT_CATEGORY_ROWS 2

/* Text: DejaVu Sans (fonts-dejavu-core), found through fontconfig by
 * cairo's text API. Sizes, in pixels (points in a PDF), are the smallest
 * DejaVu Sans keeps legible on screen and in a scaled-down PNG. */
#define PLOT_FONT_FAMILY "DejaVu Sans"
typedef enum { FONT_SMALL, FONT_NORMAL, FONT_LARGE, PLOT_FONTS } PlotFont;
static const double font_sizes[PLOT_FONTS] = { 11, 13, 17 };
typedef enum { ALIGN_LEFT, ALIGN_CENTER, ALIGN_RIGHT } Align;

/* cairo's PDF surface stamps the time of the run as the creation date; a
 * fixed date (the Unix epoch, the usual "no date") keeps two runs' PDFs
 * byte-identical, as the PNG and SVG are. */
#define PLOT_PDF_DATE "1970-01-01T00:00:00Z"

typedef guint32 Color;             /* 0xRRGGBB */
#define P_BACKGROUND 0xffffffu
#define P_FRAME 0x333333u
#define P_GRID 0xe3e3e3u
#define P_TEXT 0x111111u
#define P_TEXT_DIM 0x555555u

/* Measured lines in strong hues; a bound of a measured series in the
 * series' own colour (its dashes tell it from the line); a bound of no
 * series in hues no measured line uses. */
static const Color measured_colors[] = { 0x1f5fbfu, 0xd9480fu, 0x2b8a3eu,
                                         0x862e9cu, 0xc2255cu, 0x0b7285u,
                                         0x5c940du, 0x495057u };
static const Color bound_colors[] = { 0x868e96u, 0xf59f00u, 0x1098adu,
                                      0xe64980u, 0x82c91eu, 0x8d6e63u,
                                      0x343a40u };
/* The k-th bound of a series: dash patterns (on, off, ...) that stay
 * distinct in a legend sample of PLOT_LEGEND_SAMPLE. */
static const double bound_dashes[][4] = { { 7, 4 }, { 2, 3 }, { 10, 3, 2, 3 },
                                          { 4, 6 } };
static const int bound_dash_counts[] = { 2, 2, 4, 2 };

/* Marker outlines in units of PLOT_MARKER, x and y alternating: the
 * triangle and the diamond reach a little further than the disc and the
 * square so that all four look about the same size. */
static const double marker_triangle[] = { 0, -1.2, 1.1, 0.8, -1.1, 0.8 };
static const double marker_diamond[] = { 0, -1.3, 1.3, 0, 0, 1.3, -1.3, 0 };
enum { MARKER_DISC, MARKER_SQUARE, MARKER_TRIANGLE, MARKER_DIAMOND, MARKERS };

G_DEFINE_QUARK(plot-error-quark, plot_error)

Plot *plot_new(void)
{
    Plot *p = g_new0(Plot, 1);
    p->series = g_ptr_array_new();
    return p;
}

void plot_free(Plot *p)
{
    if (!p)
        return;
    for (guint i = 0; i < p->series->len; i++) {
        PlotSeries *s = p->series->pdata[i];
        g_free(s->name);
        g_array_unref(s->x);
        g_array_unref(s->y);
        g_free(s);
    }
    g_ptr_array_unref(p->series);
    if (p->x_names)
        g_ptr_array_unref(p->x_names);
    if (p->notes)
        g_ptr_array_unref(p->notes);
    g_free(p->title);
    g_free(p->subtitle);
    g_free(p->xlabel);
    g_free(p->ylabel);
    g_free(p);
}

PlotSeries *plot_add_series(Plot *p, const char *name, gboolean dashed)
{
    PlotSeries *s = g_new0(PlotSeries, 1);
    s->name = g_strdup(name);
    s->dashed = dashed;
    s->x = g_array_new(FALSE, FALSE, sizeof(double));
    s->y = g_array_new(FALSE, FALSE, sizeof(double));
    g_ptr_array_add(p->series, s);
    return s;
}

PlotSeries *plot_add_bound(Plot *p, const char *name, const PlotSeries *of)
{
    PlotSeries *s = plot_add_series(p, name, TRUE);
    s->bounds = of;
    return s;
}

void plot_series_add(PlotSeries *s, double x, double y)
{
    g_array_append_val(s->x, x);
    g_array_append_val(s->y, y);
}

void plot_add_note(Plot *p, const char *text)
{
    if (!p->notes)
        p->notes = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(p->notes, g_strdup(text));
}

PlotFormat plot_format_of(const char *path)
{
    static const struct {
        const char *extension;
        PlotFormat format;
    } formats[] = {
        { ".png", PLOT_FORMAT_PNG },
        { ".svg", PLOT_FORMAT_SVG },
        { ".pdf", PLOT_FORMAT_PDF },
    };
    const char *dot = path ? strrchr(path, '.') : NULL;
    for (guint i = 0; dot && i < G_N_ELEMENTS(formats); i++)
        if (!g_ascii_strcasecmp(dot, formats[i].extension))
            return formats[i].format;
    return PLOT_FORMAT_UNKNOWN;
}

/* ---- axes -------------------------------------------------------------- */

typedef struct {
    gboolean log;
    double lo, hi;                /* data units */
    GArray *ticks;                /* double */
    int pixel0, pixels;           /* first pixel and length on the page */
    gboolean flip;                /* y grows upwards */
} Axis;

static double axis_f(const Axis *a, double v)
{
    return a->log ? log2(v) : v;
}

/* Where V lies on the page. The ends of the axis are the centres of its
 * first and last pixel, where the frame's thin lines are drawn, so that
 * data at either end sits exactly on the frame. */
static double axis_pixel(const Axis *a, double v)
{
    double t = (axis_f(a, v) - axis_f(a, a->lo)) / (axis_f(a, a->hi) - axis_f(a, a->lo));
    return a->pixel0 + PLOT_PIXEL_CENTRE + (a->flip ? 1 - t : t) * a->pixels;
}

static void axis_range(Axis *a, double lo, double hi, gboolean from_zero)
{
    a->ticks = g_array_new(FALSE, FALSE, sizeof(double));
    if (a->log) {
        double e0 = floor(log2(lo)), e1 = ceil(log2(hi));
        if (e1 <= e0)
            e1 = e0 + 1;
        if (e1 - e0 > PLOT_LOG2_SPAN) {
            /* decades */
            double d0 = floor(log10(lo)), d1 = ceil(log10(hi));
            if (d1 <= d0)
                d1 = d0 + 1;
            double step = ceil((d1 - d0) / PLOT_MAX_LOG_TICKS);
            double top = d0 + step * ceil((d1 - d0) / step);
            for (double d = d0; d <= top + 1e-9; d += step) {
                double v = pow(10, d);
                g_array_append_val(a->ticks, v);
            }
            a->lo = pow(10, d0);
            a->hi = pow(10, top);
        } else {
            double step = ceil((e1 - e0) / PLOT_MAX_LOG_TICKS);
            double top = e0 + step * ceil((e1 - e0) / step);
            for (double e = e0; e <= top + 1e-9; e += step) {
                double v = exp2(e);
                g_array_append_val(a->ticks, v);
            }
            a->lo = exp2(e0);
            a->hi = exp2(top);
        }
        return;
    }
    if (from_zero && lo > 0)
        lo = 0;
    if (hi <= lo)
        hi = lo + 1;
    double raw = (hi - lo) / PLOT_TICKS;
    double p = pow(10, floor(log10(raw)));
    double m = raw / p;
    double step = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
    a->lo = floor(lo / step) * step;
    a->hi = ceil(hi / step) * step;
    for (double v = a->lo; v <= a->hi + step * 1e-6; v += step) {
        double t = fabs(v) < step * 1e-9 ? 0 : v;
        g_array_append_val(a->ticks, t);
    }
}

static gboolean finite_for(const Axis *a, double v)
{
    return isfinite(v) && (!a->log || v > 0);
}

/* Both axes over every point: categories when x values are named, else
 * from the data; y starts at zero when linear. */
static void axes_range(const Plot *p, Axis *ax, Axis *ay)
{
    double x0 = G_MAXDOUBLE, x1 = -G_MAXDOUBLE, y0 = G_MAXDOUBLE, y1 = -G_MAXDOUBLE;
    for (guint i = 0; i < p->series->len; i++) {
        const PlotSeries *s = p->series->pdata[i];
        for (guint k = 0; k < s->x->len; k++) {
            double vx = g_array_index(s->x, double, k), vy = g_array_index(s->y, double, k);
            if (!finite_for(ax, vx) || !finite_for(ay, vy))
                continue;
            x0 = MIN(x0, vx); x1 = MAX(x1, vx);
            y0 = MIN(y0, vy); y1 = MAX(y1, vy);
        }
    }
    if (x0 > x1) {
        x0 = y0 = 1;
        x1 = y1 = 2;
    }
    if (p->x_names) {
        ax->log = FALSE;
        ax->lo = -0.5;
        ax->hi = p->x_names->len - 0.5;
        ax->ticks = g_array_new(FALSE, FALSE, sizeof(double));
        for (guint i = 0; i < p->x_names->len; i++) {
            double v = i;
            g_array_append_val(ax->ticks, v);
        }
    } else {
        axis_range(ax, x0, x1, FALSE);
    }
    axis_range(ay, y0, y1, TRUE);
}

/* ---- what is drawn: styles and the legend, without cairo ---------------- */

/* How one series is drawn. */
typedef struct {
    Color color;
    int shape;                    /* measured: its marker */
    const double *dashes;         /* bounds: the dash pattern */
    int ndashes;
    double offset;                /* categories: x offset, in categories */
    double bar;                   /* categories: a bound's half-width */
    guint drawn;                  /* points the axes show */
    guint met;                    /* a bound's drawn points equal to its
                                   * series' value at the same x */
} SeriesStyle;

/* Everything placed before drawing: the axes' ranges and ticks, each
 * series' style, and the legend's entries (series indices, in order). */
typedef struct {
    Axis ax, ay;
    SeriesStyle *style;
    GArray *legend;               /* guint */
} Layout;

static const double orphan_dash[] = { PLOT_DASH };

static gboolean point_drawn(const Layout *l, const PlotSeries *s, guint k)
{
    return finite_for(&l->ax, g_array_index(s->x, double, k))
           && finite_for(&l->ay, g_array_index(s->y, double, k));
}

/* Equal up to rounding: a bound computed in doubles against a count. */
static gboolean same_value(double a, double b)
{
    return a == b || fabs(a - b) <= 1e-9 * MAX(fabs(a), fabs(b));
}

/* Does point K of bound S equal its series' value at the same x? */
static gboolean bound_met(const Layout *l, const PlotSeries *s, guint k)
{
    const PlotSeries *of = s->bounds;
    if (!of || !point_drawn(l, s, k))
        return FALSE;
    double x = g_array_index(s->x, double, k), y = g_array_index(s->y, double, k);
    for (guint j = 0; j < of->x->len; j++)
        if (g_array_index(of->x, double, j) == x && point_drawn(l, of, j))
            return same_value(g_array_index(of->y, double, j), y);
    return FALSE;
}

static int series_index(const Plot *p, const PlotSeries *s)
{
    for (guint i = 0; s && i < p->series->len; i++)
        if (p->series->pdata[i] == s)
            return (int)i;
    return -1;
}

static void layout_plot(const Plot *p, Layout *l)
{
    l->ax = (Axis){ .log = p->log_x };
    l->ay = (Axis){ .log = p->log_y, .flip = TRUE };
    axes_range(p, &l->ax, &l->ay);
    guint n = p->series->len;
    l->style = g_new0(SeriesStyle, n ? n : 1);
    l->legend = g_array_new(FALSE, FALSE, sizeof(guint));
    guint measured = 0, orphans = 0, shown = 0;
    for (guint i = 0; i < n; i++) {
        const PlotSeries *s = p->series->pdata[i];
        SeriesStyle *st = &l->style[i];
        for (guint k = 0; k < s->x->len; k++)
            st->drawn += point_drawn(l, s, k);
        if (!s->dashed) {
            st->color = measured_colors[measured % G_N_ELEMENTS(measured_colors)];
            st->shape = (int)measured++;
            shown += st->drawn > 0;
        }
    }
    /* Categories: the measured series drawn side by side in each. */
    double slot = shown ? MIN(PLOT_CATEGORY_SPREAD / shown, PLOT_CATEGORY_SLOT)
                        : PLOT_CATEGORY_SLOT;
    guint place = 0;
    for (guint i = 0; i < n; i++) {
        const PlotSeries *s = p->series->pdata[i];
        if (!s->dashed && l->style[i].drawn && p->x_names)
            l->style[i].offset = (place++ - (shown - 1) / 2.0) * slot;
    }
    for (guint i = 0; i < n; i++) {
        const PlotSeries *s = p->series->pdata[i];
        SeriesStyle *st = &l->style[i];
        if (!s->dashed)
            continue;
        int of = series_index(p, s->bounds);
        if (of < 0 || ((const PlotSeries *)p->series->pdata[of])->dashed) {
            st->color = bound_colors[orphans++ % G_N_ELEMENTS(bound_colors)];
            st->dashes = orphan_dash;
            st->ndashes = G_N_ELEMENTS(orphan_dash);
        } else {
            guint k = 0;
            for (guint j = 0; j < i; j++)
                k += ((const PlotSeries *)p->series->pdata[j])->bounds == s->bounds;
            st->color = l->style[of].color;
            st->dashes = bound_dashes[k % G_N_ELEMENTS(bound_dashes)];
            st->ndashes = bound_dash_counts[k % G_N_ELEMENTS(bound_dashes)];
            st->offset = l->style[of].offset;
        }
        st->bar = PLOT_CATEGORY_BAR * slot;
        for (guint k = 0; k < s->x->len; k++)
            st->met += bound_met(l, s, k);
    }
    /* The legend: each measured series, then its bounds; then bounds of
     * no series. Only what is drawn. */
    for (guint i = 0; i < n; i++) {
        const PlotSeries *s = p->series->pdata[i];
        if (s->dashed)
            continue;
        if (l->style[i].drawn)
            g_array_append_val(l->legend, i);
        for (guint j = 0; j < n; j++)
            if (((const PlotSeries *)p->series->pdata[j])->dashed
                && ((const PlotSeries *)p->series->pdata[j])->bounds == s
                && l->style[j].drawn)
                g_array_append_val(l->legend, j);
    }
    for (guint j = 0; j < n; j++) {
        const PlotSeries *s = p->series->pdata[j];
        int of = series_index(p, s->bounds);
        if (s->dashed && l->style[j].drawn
            && (of < 0 || ((const PlotSeries *)p->series->pdata[of])->dashed))
            g_array_append_val(l->legend, j);
    }
}

static void layout_clear(Layout *l)
{
    g_array_unref(l->ax.ticks);
    g_array_unref(l->ay.ticks);
    g_free(l->style);
    g_array_unref(l->legend);
}

/* A legend entry's text: the series' name, and for a bound that equals
 * the measurement where it is drawn, "= measured" (ringed points). */
static char *legend_text(const Plot *p, const Layout *l, guint i)
{
    const PlotSeries *s = p->series->pdata[i];
    const SeriesStyle *st = &l->style[i];
    if (!s->dashed || !st->met)
        return g_strdup(s->name);
    if (st->met == st->drawn)
        return g_strdup_printf("%s (= measured)", s->name);
    return g_strdup_printf("%s (= measured at %u of %u)", s->name, st->met, st->drawn);
}

/* Where point K of series I is drawn on x: its category's slot. */
static double point_x(const Layout *l, const PlotSeries *s, guint i, guint k)
{
    return g_array_index(s->x, double, k) + l->style[i].offset;
}

/* ---- pen: colours, lines and text on a cairo context ------------------- */

static void pen_color(cairo_t *cr, Color c)
{
    cairo_set_source_rgb(cr, ((c >> 16) & 0xff) / 255.0, ((c >> 8) & 0xff) / 255.0,
                         (c & 0xff) / 255.0);
}

/* The centre of the pixel V falls in: a one-unit line there covers that
 * pixel column or row exactly (not half of two), so thin lines stay sharp
 * in the PNG. */
static double pen_snap(double v)
{
    return floor(v) + PLOT_PIXEL_CENTRE;
}

/* Solid with no dashes, else the pattern (on, off, ...) along the path. */
static void pen_dashes(cairo_t *cr, double width, const double *dashes, int n)
{
    cairo_set_line_width(cr, width);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_dash(cr, dashes, dashes ? n : 0, 0);
}

/* Solid with dash 0, else dash on, dash off along the path. */
static void pen_stroke_style(cairo_t *cr, double width, double dash)
{
    pen_dashes(cr, width, &dash, dash > 0 ? 1 : 0);
}

static void pen_line(cairo_t *cr, double x0, double y0, double x1, double y1,
                     Color color)
{
    cairo_move_to(cr, x0, y0);
    cairo_line_to(cr, x1, y1);
    pen_stroke_style(cr, PLOT_THIN_WIDTH, 0);
    pen_color(cr, color);
    cairo_stroke(cr);
}

/* The outline of a W x H box whose top left pixel is (x, y). */
static void pen_frame(cairo_t *cr, int x, int y, int w, int h, Color color)
{
    cairo_rectangle(cr, pen_snap(x), pen_snap(y), w - 1, h - 1);
    pen_stroke_style(cr, PLOT_THIN_WIDTH, 0);
    pen_color(cr, color);
    cairo_stroke(cr);
}

static void pen_font(cairo_t *cr, PlotFont f)
{
    cairo_set_font_size(cr, font_sizes[f]);
}

static double pen_text_width(cairo_t *cr, PlotFont f, const char *text)
{
    cairo_text_extents_t e;
    pen_font(cr, f);
    cairo_text_extents(cr, text, &e);
    return e.x_advance;
}

/* Ascent plus descent: the height of a line of text without its gap. */
static double pen_font_height(cairo_t *cr, PlotFont f)
{
    cairo_font_extents_t e;
    pen_font(cr, f);
    cairo_font_extents(cr, &e);
    return e.ascent + e.descent;
}

/* Text with its top at y, aligned at x. */
static void pen_text(cairo_t *cr, PlotFont f, double x, double y, Align align,
                     Color color, const char *text)
{
    double w = pen_text_width(cr, f, text);
    cairo_font_extents_t e;
    cairo_font_extents(cr, &e);
    cairo_move_to(cr, align == ALIGN_LEFT ? x : align == ALIGN_CENTER ? x - w / 2 : x - w,
                  y + e.ascent);
    pen_color(cr, color);
    cairo_show_text(cr, text);
    cairo_new_path(cr);
}

/* Text turned a quarter counter-clockwise, centred on (x, y). */
static void pen_text_vertical(cairo_t *cr, PlotFont f, double x, double y,
                              Color color, const char *text)
{
    double w = pen_text_width(cr, f, text), h = pen_font_height(cr, f);
    cairo_save(cr);
    cairo_translate(cr, x, y);
    cairo_rotate(cr, -G_PI / 2);
    pen_text(cr, f, -w / 2, -h / 2, ALIGN_LEFT, color, text);
    cairo_restore(cr);
}

/* Text cut to WIDTH with an ellipsis where it does not fit. */
static void pen_text_cut(cairo_t *cr, PlotFont f, double x, double y, double width,
                         Color color, const char *text)
{
    g_autoptr(GString) s = g_string_new(text);
    for (glong n = g_utf8_strlen(text, -1) - 1;
         n > 0 && pen_text_width(cr, f, s->str) > width; n--) {
        g_string_truncate(s, 0);
        g_string_append_len(s, text, g_utf8_offset_to_pointer(text, n) - text);
        g_string_append(s, "…");
    }
    pen_text(cr, f, x, y, ALIGN_LEFT, color, s->str);
}

/* A centred line of text, cut at the margins if too wide; returns the
 * y below it. */
static double pen_heading(cairo_t *cr, PlotFont f, int W, double y, Color color,
                          const char *text)
{
    if (pen_text_width(cr, f, text) <= W - 2 * PLOT_MARGIN)
        pen_text(cr, f, W / 2.0, y, ALIGN_CENTER, color, text);
    else
        pen_text_cut(cr, f, PLOT_MARGIN, y, W - 2 * PLOT_MARGIN, color, text);
    return y + pen_font_height(cr, f);
}

/* A closed outline of POINTS (x, y) pairs in units of PLOT_MARKER. */
static void pen_outline(cairo_t *cr, double x, double y, const double *outline,
                        guint points)
{
    cairo_move_to(cr, x + PLOT_MARKER * outline[0], y + PLOT_MARKER * outline[1]);
    for (guint i = 1; i < points; i++)
        cairo_line_to(cr, x + PLOT_MARKER * outline[2 * i], y + PLOT_MARKER * outline[2 * i + 1]);
    cairo_close_path(cr);
}

static void pen_marker(cairo_t *cr, int shape, double x, double y, Color color)
{
    double r = PLOT_MARKER;
    cairo_new_path(cr);
    switch (shape % MARKERS) {
    case MARKER_DISC:
        cairo_arc(cr, x, y, r, 0, 2 * G_PI);
        break;
    case MARKER_SQUARE:
        cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r);
        break;
    case MARKER_TRIANGLE:
        pen_outline(cr, x, y, marker_triangle, G_N_ELEMENTS(marker_triangle) / 2);
        break;
    default:
        pen_outline(cr, x, y, marker_diamond, G_N_ELEMENTS(marker_diamond) / 2);
        break;
    }
    pen_color(cr, color);
    cairo_fill(cr);
}

/* ---- the plot ---------------------------------------------------------- */

/* Title and subtitle; returns the y where the frame may start. */
static double draw_titles(const Plot *p, cairo_t *cr, int W)
{
    double y = PLOT_MARGIN / 2.0;
    if (p->title)
        y = pen_heading(cr, FONT_LARGE, W, y, P_TEXT, p->title) + PLOT_TITLE_GAP;
    if (p->subtitle)
        y = pen_heading(cr, FONT_NORMAL, W, y, P_TEXT_DIM, p->subtitle);
    return y + PLOT_MARGIN;
}

/* The legend's width: its longest entry and a line sample, within its
 * share of the figure; notes wrap at that width, or PLOT_NOTE_WIDTH if
 * that is less. */
static int legend_width(const Plot *p, const Layout *l, cairo_t *cr, int W)
{
    double text = 0, note = 0, share = floor(W * PLOT_LEGEND_SHARE);
    for (guint e = 0; e < l->legend->len; e++) {
        g_autofree char *t = legend_text(p, l, g_array_index(l->legend, guint, e));
        text = MAX(text, pen_text_width(cr, FONT_SMALL, t));
    }
    for (guint i = 0; p->notes && i < p->notes->len; i++)
        note = MAX(note, pen_text_width(cr, FONT_SMALL, p->notes->pdata[i]));
    double w = 0;
    if (l->legend->len)
        w = MIN(PLOT_LEGEND_INSET + PLOT_LEGEND_SAMPLE + PLOT_PAD + text + PLOT_PAD, share);
    if (note > 0)
        w = MAX(w, MIN(PLOT_LEGEND_INSET + note + PLOT_PAD, MIN(MAX(w, PLOT_NOTE_WIDTH), share)));
    return (int)ceil(w);
}

static gboolean has_alnum(const char *s)
{
    for (; *s; s++)
        if (g_ascii_isalnum(*s))
            return TRUE;
    return FALSE;
}

/* TEXT broken at spaces into lines of at most WIDTH (a word wider than
 * that is a line of its own, cut when drawn); a word of signs alone, as
 * "(=", stays with the next. */
static GPtrArray *wrap_text(cairo_t *cr, PlotFont f, const char *text, double width)
{
    GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
    g_auto(GStrv) words = g_strsplit(text, " ", -1);
    GString *line = g_string_new(NULL);
    for (char **w = words; *w; w++) {
        if (!**w)
            continue;
        g_autoptr(GString) word = g_string_new(*w);
        while (!has_alnum(word->str) && w[1])
            g_string_append_printf(word, " %s", *++w);
        g_autofree char *longer = line->len ? g_strdup_printf("%s %s", line->str, word->str)
                                            : g_strdup(word->str);
        if (line->len && pen_text_width(cr, f, longer) > width) {
            g_ptr_array_add(lines, g_strdup(line->str));
            g_string_assign(line, word->str);
        } else {
            g_string_assign(line, longer);
        }
    }
    if (line->len)
        g_ptr_array_add(lines, g_string_free(line, FALSE));
    else
        g_string_free(line, TRUE);
    return lines;
}

/* Category names: on one row if each fits its share of the axis, else on
 * PLOT_CATEGORY_ROWS rows, alternating, each cut to the room that gives. */
static int category_rows(const Plot *p, cairo_t *cr, const Axis *ax, double *room)
{
    guint n = p->x_names ? p->x_names->len : 0;
    double share = n ? (double)ax->pixels / n : ax->pixels, widest = 0;
    for (guint i = 0; i < n; i++)
        widest = MAX(widest, pen_text_width(cr, FONT_SMALL, p->x_names->pdata[i]));
    int rows = widest <= share - PLOT_PAD ? 1 : PLOT_CATEGORY_ROWS;
    *room = rows * share - PLOT_PAD;
    return rows;
}

/* Grid, ticks, tick labels, frame and axis labels. */
static void draw_axes(const Plot *p, cairo_t *cr, const Axis *ax, const Axis *ay)
{
    char text[PLOT_LABEL_MAX];
    double fs = pen_font_height(cr, FONT_SMALL);
    int left = ax->pixel0, top = ay->pixel0, bottom = top + ay->pixels;
    double room;
    int rows = p->x_names ? category_rows(p, cr, ax, &room) : 1;
    for (guint i = 0; i < ax->ticks->len; i++) {
        double v = g_array_index(ax->ticks, double, i);
        double px = pen_snap(axis_pixel(ax, v));
        pen_line(cr, px, top, px, bottom, P_GRID);
        int row = (int)(i % (guint)rows);
        pen_line(cr, px, bottom, px, bottom + PLOT_TICK + row * fs, P_FRAME);
        double ty = bottom + PLOT_PAD + row * fs;
        if (p->x_names) {
            const char *name = p->x_names->pdata[i];
            double w = pen_text_width(cr, FONT_SMALL, name);
            if (w <= room)
                pen_text(cr, FONT_SMALL, px, ty, ALIGN_CENTER, P_TEXT, name);
            else
                pen_text_cut(cr, FONT_SMALL, px - room / 2, ty, room, P_TEXT, name);
        } else {
            number_text(text, sizeof text, v, PLOT_TICK_DIGITS,
                        PLOT_TICK_WHOLE_BELOW);
            pen_text(cr, FONT_SMALL, px, ty, ALIGN_CENTER, P_TEXT, text);
        }
    }
    for (guint i = 0; i < ay->ticks->len; i++) {
        double v = g_array_index(ay->ticks, double, i);
        double py = pen_snap(axis_pixel(ay, v));
        pen_line(cr, left, py, left + ax->pixels, py, P_GRID);
        pen_line(cr, left - PLOT_TICK, py, left, py, P_FRAME);
        number_text(text, sizeof text, v, PLOT_TICK_DIGITS,
                    PLOT_TICK_WHOLE_BELOW);
        pen_text(cr, FONT_SMALL, left - PLOT_TICK - PLOT_PAD / 2.0, py - fs / 2,
                 ALIGN_RIGHT, P_TEXT, text);
    }
    pen_frame(cr, left, top, ax->pixels + 1, ay->pixels + 1, P_FRAME);
    if (p->xlabel)
        pen_text(cr, FONT_NORMAL, left + ax->pixels / 2.0,
                 bottom + PLOT_PAD + rows * fs + PLOT_TICK, ALIGN_CENTER, P_TEXT, p->xlabel);
    if (p->ylabel)
        pen_text_vertical(cr, FONT_NORMAL, PLOT_MARGIN + pen_font_height(cr, FONT_NORMAL) / 2,
                          top + ay->pixels / 2.0, P_TEXT, p->ylabel);
}

/* Stroke the current path as series ST: solid, or its dashes over the
 * same dashes a little wider in the background colour, so that a bound
 * over its own series' line (the same colour) shows as edged dashes. */
static void pen_bound_stroke(cairo_t *cr, gboolean dashed, double width,
                             const SeriesStyle *st)
{
    if (dashed) {
        pen_dashes(cr, width + 2 * PLOT_BOUND_EDGE, st->dashes, st->ndashes);
        pen_color(cr, P_BACKGROUND);
        cairo_stroke_preserve(cr);
    }
    pen_dashes(cr, width, st->dashes, st->ndashes);
    pen_color(cr, st->color);
    cairo_stroke(cr);
}

static void pen_ring(cairo_t *cr, double x, double y, Color color)
{
    cairo_new_path(cr);
    cairo_arc(cr, x, y, PLOT_RING * PLOT_MARKER, 0, 2 * G_PI);
    pen_dashes(cr, PLOT_RING_WIDTH, NULL, 0);
    pen_color(cr, color);
    cairo_stroke(cr);
}

/* One series. Numeric x: its runs of plottable points as one line each
 * (a point off a log axis breaks the line), in the order given, then
 * markers unless it is a bound. Categories: markers only, and a bound as
 * a short bar across its series' marker. A bound's points equal to the
 * measurement get a ring. */
static void draw_series(const Plot *p, const Layout *l, guint i, cairo_t *cr)
{
    const PlotSeries *s = p->series->pdata[i];
    const SeriesStyle *st = &l->style[i];
    const Axis *ax = &l->ax, *ay = &l->ay;
    double width = s->dashed ? PLOT_BOUND_WIDTH : PLOT_MEASURED_WIDTH;
    if (!p->x_names) {
        gboolean pen_down = FALSE;
        for (guint k = 0; k < s->x->len; k++) {
            if (!point_drawn(l, s, k)) {
                pen_down = FALSE;
                continue;
            }
            double x = axis_pixel(ax, point_x(l, s, i, k));
            double y = axis_pixel(ay, g_array_index(s->y, double, k));
            if (pen_down)
                cairo_line_to(cr, x, y);
            else
                cairo_move_to(cr, x, y);
            pen_down = TRUE;
        }
        pen_bound_stroke(cr, s->dashed, width, st);
    } else if (s->dashed) {
        for (guint k = 0; k < s->x->len; k++) {
            if (!point_drawn(l, s, k))
                continue;
            double x = point_x(l, s, i, k), y = axis_pixel(ay, g_array_index(s->y, double, k));
            cairo_move_to(cr, axis_pixel(ax, x - st->bar), y);
            cairo_line_to(cr, axis_pixel(ax, x + st->bar), y);
        }
        pen_bound_stroke(cr, TRUE, width, st);
    }
    for (guint k = 0; k < s->x->len; k++) {
        if (!point_drawn(l, s, k))
            continue;
        double x = axis_pixel(ax, point_x(l, s, i, k));
        double y = axis_pixel(ay, g_array_index(s->y, double, k));
        if (!s->dashed)
            pen_marker(cr, st->shape, x, y, st->color);
        else if (bound_met(l, s, k))
            pen_ring(cr, x, y, st->color);
    }
}

/* Legend at (x, y), W wide: its entries (a name too long for one line
 * on up to PLOT_LEGEND_LINES), then the notes, wrapped. */
static void draw_legend(const Plot *p, const Layout *l, cairo_t *cr, int x, int y, int w)
{
    double fs = pen_font_height(cr, FONT_SMALL);
    int row = (int)ceil(fs) + PLOT_PAD;
    double sample = x + PLOT_LEGEND_INSET, text = sample + PLOT_LEGEND_SAMPLE + PLOT_PAD;
    g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
    g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
    guint lines = 0;
    for (guint e = 0; e < l->legend->len; e++) {
        g_autofree char *t = legend_text(p, l, g_array_index(l->legend, guint, e));
        GPtrArray *wrapped = wrap_text(cr, FONT_SMALL, t, x + w - PLOT_PAD - text);
        while (wrapped->len > PLOT_LEGEND_LINES) {
            /* The rest joins the last line, which is then cut. */
            char *more = g_strdup_printf("%s %s", (char *)wrapped->pdata[PLOT_LEGEND_LINES - 1],
                                         (char *)wrapped->pdata[PLOT_LEGEND_LINES]);
            g_free(wrapped->pdata[PLOT_LEGEND_LINES - 1]);
            wrapped->pdata[PLOT_LEGEND_LINES - 1] = more;
            g_ptr_array_remove_index(wrapped, PLOT_LEGEND_LINES);
        }
        lines += MAX(wrapped->len, 1);
        g_ptr_array_add(entries, wrapped);
    }
    for (guint i = 0; p->notes && i < p->notes->len; i++) {
        GPtrArray *wrapped = wrap_text(cr, FONT_SMALL, p->notes->pdata[i],
                                       w - PLOT_LEGEND_INSET - PLOT_PAD);
        lines += wrapped->len;
        g_ptr_array_add(notes, wrapped);
    }
    if (!lines)
        return;
    int h = (int)lines * row + 2 * PLOT_LEGEND_PAD;
    cairo_rectangle(cr, x, y, w, h);
    pen_color(cr, P_BACKGROUND);
    cairo_fill(cr);
    pen_frame(cr, x, y, w, h, P_GRID);
    double ly = y + PLOT_LEGEND_PAD;
    for (guint e = 0; e < l->legend->len; e++) {
        guint i = g_array_index(l->legend, guint, e);
        const PlotSeries *s = p->series->pdata[i];
        const SeriesStyle *st = &l->style[i];
        double mid = ly + row / 2.0;
        /* As drawn: categories' measured values are markers alone. */
        if (s->dashed || !p->x_names) {
            cairo_move_to(cr, sample, mid);
            cairo_line_to(cr, sample + PLOT_LEGEND_SAMPLE, mid);
            pen_bound_stroke(cr, s->dashed,
                             s->dashed ? PLOT_BOUND_WIDTH : PLOT_MEASURED_WIDTH, st);
        }
        if (!s->dashed)
            pen_marker(cr, st->shape, sample + PLOT_LEGEND_SAMPLE / 2.0, mid, st->color);
        else if (st->met)
            pen_ring(cr, sample + PLOT_LEGEND_SAMPLE / 2.0, mid, st->color);
        GPtrArray *wrapped = entries->pdata[e];
        for (guint j = 0; j < MAX(wrapped->len, 1); j++) {
            pen_text_cut(cr, FONT_SMALL, text, ly + (row - fs) / 2, x + w - PLOT_PAD - text,
                         P_TEXT, j < wrapped->len ? wrapped->pdata[j] : "");
            ly += row;
        }
    }
    for (guint i = 0; i < notes->len; i++) {
        GPtrArray *wrapped = notes->pdata[i];
        for (guint j = 0; j < wrapped->len; j++) {
            pen_text_cut(cr, FONT_SMALL, sample, ly + (row - fs) / 2,
                         x + w - PLOT_PAD - sample, P_TEXT_DIM, wrapped->pdata[j]);
            ly += row;
        }
    }
}

static void plot_draw(const Plot *p, cairo_t *cr, int W, int H)
{
    cairo_select_font_face(cr, PLOT_FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL,
                           CAIRO_FONT_WEIGHT_NORMAL);
    /* Unhinted metrics: text widths, hence the layout, do not depend on
     * the surface; greyscale antialiasing whatever fontconfig's user
     * settings say, so the PNG is the same on every machine with the
     * same fonts. */
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_SLIGHT);
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    cairo_set_font_options(cr, fo);
    cairo_font_options_destroy(fo);

    pen_color(cr, P_BACKGROUND);
    cairo_paint(cr);
    int top = (int)ceil(draw_titles(p, cr, W));

    Layout l;
    layout_plot(p, &l);
    int legend_w = legend_width(p, &l, cr, W);
    char text[PLOT_LABEL_MAX];
    double tick_w = 0;
    for (guint i = 0; i < l.ay.ticks->len; i++) {
        number_text(text, sizeof text, g_array_index(l.ay.ticks, double, i),
                    PLOT_TICK_DIGITS, PLOT_TICK_WHOLE_BELOW);
        tick_w = MAX(tick_w, pen_text_width(cr, FONT_SMALL, text));
    }
    double fs = pen_font_height(cr, FONT_SMALL), fn = pen_font_height(cr, FONT_NORMAL);
    /* Left of the frame: the y label, the tick labels, the ticks; below
     * it: ticks, tick labels (one row, or two for long category names),
     * the x label; right: the legend. */
    int left = (int)ceil(PLOT_MARGIN + fn + PLOT_PAD + tick_w + PLOT_PAD / 2.0 + PLOT_TICK);
    int right = W - PLOT_MARGIN - legend_w - PLOT_MARGIN;
    l.ax.pixel0 = left;
    l.ax.pixels = MAX(right - left, PLOT_MIN_AREA);
    double room;
    int rows = p->x_names ? category_rows(p, cr, &l.ax, &room) : 1;
    int bottom = (int)floor(H - PLOT_MARGIN - fn - rows * fs - PLOT_PAD - PLOT_TICK);
    l.ay.pixel0 = top;
    l.ay.pixels = MAX(bottom - top, PLOT_MIN_AREA);

    draw_axes(p, cr, &l.ax, &l.ay);
    /* Measured lines first, then the dashed bounds over them, so a bound
     * a method meets exactly still shows (dashes on the line, and a ring
     * around each point where they are equal). */
    for (int pass = 0; pass < 2; pass++)
        for (guint i = 0; i < p->series->len; i++)
            if (((PlotSeries *)p->series->pdata[i])->dashed == (pass == 1))
                draw_series(p, &l, i, cr);
    draw_legend(p, &l, cr, W - PLOT_MARGIN - legend_w, top, legend_w);
    layout_clear(&l);
}

/* ---- files ------------------------------------------------------------- */

/* Where cairo's stream writers put their bytes: our own FILE, so that a
 * failure reports errno's reason rather than cairo's generic one. */
typedef struct {
    FILE *file;
    int error_number;             /* errno of the first failed write, or 0 */
} PlotOutput;

static cairo_status_t output_write(void *closure, const unsigned char *data,
                                   unsigned int length)
{
    PlotOutput *out = closure;
    if (fwrite(data, 1, length, out->file) == length)
        return CAIRO_STATUS_SUCCESS;
    if (!out->error_number)
        out->error_number = errno ? errno : EIO;
    return CAIRO_STATUS_WRITE_ERROR;
}

static cairo_surface_t *plot_surface(const Plot *p, PlotFormat format, PlotOutput *out,
                                     int width, int height)
{
    cairo_surface_t *s;
    switch (format) {
    case PLOT_FORMAT_SVG:
        s = cairo_svg_surface_create_for_stream(output_write, out, width, height);
        /* Pixels, like the PNG, rather than cairo's default points. */
        cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PX);
        return s;
    case PLOT_FORMAT_PDF:
        s = cairo_pdf_surface_create_for_stream(output_write, out, width, height);
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, PLOT_PDF_DATE);
        if (p->title)
            cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, p->title);
        return s;
    default:
        /* Opaque: the PNG has no alpha channel to confuse a viewer. */
        return cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    }
}

/* Draw on a surface of FORMAT and finish it into OUT. */
static cairo_status_t plot_render(const Plot *p, PlotFormat format, PlotOutput *out,
                                  int width, int height)
{
    cairo_surface_t *s = plot_surface(p, format, out, width, height);
    cairo_t *cr = cairo_create(s);
    plot_draw(p, cr, width, height);
    cairo_status_t status = cairo_status(cr);
    cairo_destroy(cr);
    if (status == CAIRO_STATUS_SUCCESS && format == PLOT_FORMAT_PNG)
        status = cairo_surface_write_to_png_stream(s, output_write, out);
    /* Vector surfaces write the rest of the document here. */
    cairo_surface_finish(s);
    if (status == CAIRO_STATUS_SUCCESS)
        status = cairo_surface_status(s);
    cairo_surface_destroy(s);
    return status;
}

gboolean plot_save(const Plot *p, const char *path, int width, int height,
                   GError **error)
{
    g_return_val_if_fail(p && path && width > 0 && height > 0, FALSE);
    PlotFormat format = plot_format_of(path);
    if (format == PLOT_FORMAT_UNKNOWN) {
        g_set_error(error, PLOT_ERROR, PLOT_ERROR_FORMAT,
                    "%s: unknown plot format (valid extensions: %s)", path, PLOT_EXTENSIONS);
        return FALSE;
    }
    if (!cairo_load(path, error))
        return FALSE;
    g_autoptr(Output) o = output_open(path, error);
    if (!o)
        return FALSE;
    PlotOutput out = { .file = output_stream(o) };
    cairo_status_t status = plot_render(p, format, &out, width, height);
    if (out.error_number)
        output_set_errno(o, out.error_number);
    else if (status != CAIRO_STATUS_SUCCESS) {
        g_set_error(error, PLOT_ERROR, PLOT_ERROR_WRITE, "%s: cannot draw: %s",
                    path, cairo_status_to_string(status));
        return FALSE;
    }
    return output_commit(g_steal_pointer(&o), error);
}

/* ---- what is drawn, as JSON ---------------------------------------------- */

static void json_number(JsonBuilder *b, double v)
{
    if (!isfinite(v))
        json_builder_add_null_value(b);
    else if (v == floor(v) && fabs(v) < 9007199254740992.0)
        json_builder_add_int_value(b, (gint64)v);
    else
        json_builder_add_double_value(b, v);
}

static void json_text(JsonBuilder *b, const char *member, const char *text)
{
    json_builder_set_member_name(b, member);
    if (text)
        json_builder_add_string_value(b, text);
    else
        json_builder_add_null_value(b);
}

static void json_color(JsonBuilder *b, Color c)
{
    char text[8];
    g_snprintf(text, sizeof text, "#%06x", (unsigned)c);
    json_text(b, "color", text);
}

static void json_ticks(JsonBuilder *b, const char *member, const Axis *a,
                       const GPtrArray *names)
{
    json_builder_set_member_name(b, member);
    json_builder_begin_array(b);
    for (guint i = 0; i < a->ticks->len; i++)
        if (names)
            json_builder_add_string_value(b, names->pdata[i]);
        else
            json_number(b, g_array_index(a->ticks, double, i));
    json_builder_end_array(b);
}

static void json_point(JsonBuilder *b, const PlotSeries *s, guint k)
{
    json_builder_begin_array(b);
    json_number(b, g_array_index(s->x, double, k));
    json_number(b, g_array_index(s->y, double, k));
    json_builder_end_array(b);
}

static JsonNode *plot_json(const Plot *p)
{
    static const char *const markers[MARKERS] = { "disc", "square", "triangle", "diamond" };
    Layout l;
    layout_plot(p, &l);
    g_autoptr(JsonBuilder) b = json_builder_new();
    json_builder_begin_object(b);
    json_text(b, "title", p->title);
    json_text(b, "subtitle", p->subtitle);
    json_text(b, "xlabel", p->xlabel);
    json_text(b, "ylabel", p->ylabel);
    json_builder_set_member_name(b, "log_x");
    json_builder_add_boolean_value(b, l.ax.log);
    json_builder_set_member_name(b, "log_y");
    json_builder_add_boolean_value(b, l.ay.log);
    json_ticks(b, "x_ticks", &l.ax, p->x_names);
    json_ticks(b, "y_ticks", &l.ay, NULL);
    json_builder_set_member_name(b, "series");
    json_builder_begin_array(b);
    for (guint i = 0; i < p->series->len; i++) {
        const PlotSeries *s = p->series->pdata[i];
        const SeriesStyle *st = &l.style[i];
        json_builder_begin_object(b);
        json_text(b, "name", s->name);
        json_text(b, "kind", s->dashed ? "bound" : "measured");
        json_color(b, st->color);
        if (s->dashed) {
            json_text(b, "bounds", s->bounds ? s->bounds->name : NULL);
            json_builder_set_member_name(b, "dash");
            json_builder_begin_array(b);
            for (int d = 0; d < st->ndashes; d++)
                json_number(b, st->dashes[d]);
            json_builder_end_array(b);
        } else {
            json_text(b, "marker", markers[st->shape % MARKERS]);
        }
        json_builder_set_member_name(b, "points");
        json_builder_begin_array(b);
        for (guint k = 0; k < s->x->len; k++)
            json_point(b, s, k);
        json_builder_end_array(b);
        json_builder_set_member_name(b, "drawn");
        json_builder_add_int_value(b, st->drawn);
        if (s->dashed) {
            json_builder_set_member_name(b, "equal_to_measured");
            json_builder_begin_array(b);
            for (guint k = 0; k < s->x->len; k++)
                if (bound_met(&l, s, k))
                    json_point(b, s, k);
            json_builder_end_array(b);
        }
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "legend");
    json_builder_begin_array(b);
    for (guint e = 0; e < l.legend->len; e++) {
        guint i = g_array_index(l.legend, guint, e);
        const PlotSeries *s = p->series->pdata[i];
        g_autofree char *t = legend_text(p, &l, i);
        json_builder_begin_object(b);
        json_text(b, "text", t);
        json_text(b, "kind", s->dashed ? "bound" : "measured");
        json_color(b, l.style[i].color);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "notes");
    json_builder_begin_array(b);
    for (guint i = 0; p->notes && i < p->notes->len; i++)
        json_builder_add_string_value(b, p->notes->pdata[i]);
    json_builder_end_array(b);
    json_builder_end_object(b);
    layout_clear(&l);
    return json_builder_get_root(b);
}

static gboolean write_plot_json(FILE *out, const char *path, void *data, GError **error)
{
    (void)path;
    (void)error;
    JsonNode *root = plot_json(data);
    g_autoptr(JsonGenerator) g = json_generator_new();
    json_generator_set_root(g, root);
    json_generator_set_pretty(g, TRUE);
    g_autofree char *text = json_generator_to_data(g, NULL);
    json_node_unref(root);
    fputs(text, out);
    fputc('\n', out);
    return TRUE;
}

gboolean plot_save_data(const Plot *p, const char *path, GError **error)
{
    g_return_val_if_fail(p && path, FALSE);
    return output_write_file(path, write_plot_json, (void *)p, error);
}
