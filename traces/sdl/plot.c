/* plot.c -- line plots drawn on a software canvas (plot.h).
 *
 * Invariant: the axis ranges enclose every finite point of every series
 * (positive points only on a log axis) and both ends of an axis are ticks,
 * so nothing is drawn outside the frame and each end can be read off.
 */
#include "plot.h"
#include "draw.h"

#include <math.h>
#include <string.h>

/* About this many ticks per axis; log axes thin powers of two to at most
 * PLOT_MAX_LOG_TICKS, and switch to decades beyond PLOT_LOG2_SPAN. */
#define PLOT_TICKS 6
#define PLOT_MAX_LOG_TICKS 10
#define PLOT_LOG2_SPAN 16
/* The legend takes at most this share of the width. */
#define PLOT_LEGEND_SHARE 0.4
#define PLOT_MARGIN 16
#define PLOT_MARKER 4.5
#define PLOT_DASH 7.0

#define P_BACKGROUND 0xffffffu
#define P_FRAME 0x333333u
#define P_GRID 0xe3e3e3u
#define P_TEXT 0x111111u
#define P_TEXT_DIM 0x555555u

/* Measured lines in strong hues, bounds in hues none of those use, so a
 * bound is never mistaken for a measurement. */
static const Color measured_colors[] = { 0x1f5fbfu, 0xd9480fu, 0x2b8a3eu,
                                         0x862e9cu };
static const Color bound_colors[] = { 0x868e96u, 0xf59f00u, 0x1098adu,
                                      0xe64980u, 0x82c91eu, 0x8d6e63u,
                                      0x343a40u };

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

void plot_series_add(PlotSeries *s, double x, double y)
{
    g_array_append_val(s->x, x);
    g_array_append_val(s->y, y);
}

/* ---- axes -------------------------------------------------------------- */

typedef struct {
    gboolean log;
    double lo, hi;                /* data units */
    GArray *ticks;                /* double */
    int pixel0, pixels;           /* screen start and length */
    gboolean flip;                /* y grows upwards */
} Axis;

static double axis_f(const Axis *a, double v)
{
    return a->log ? log2(v) : v;
}

static double axis_pixel(const Axis *a, double v)
{
    double t = (axis_f(a, v) - axis_f(a, a->lo)) / (axis_f(a, a->hi) - axis_f(a, a->lo));
    return a->flip ? a->pixel0 + a->pixels - t * a->pixels : a->pixel0 + t * a->pixels;
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

static void number_text(char *buf, gsize size, double v)
{
    if (v == floor(v) && fabs(v) < 1e7)
        g_snprintf(buf, size, "%.0f", v);
    else
        g_snprintf(buf, size, "%.3g", v);
}

static gboolean finite_for(const Axis *a, double v)
{
    return isfinite(v) && (!a->log || v > 0);
}

/* ---- drawing ----------------------------------------------------------- */

static void marker(Canvas *c, int shape, double x, double y, Color color)
{
    double r = PLOT_MARKER;
    switch (shape % 4) {
    case 0:
        draw_disc(c, x, y, r, color);
        break;
    case 1:
        draw_rect(c, (int)lround(x - r), (int)lround(y - r), (int)(2 * r), (int)(2 * r), color);
        break;
    case 2: {
        double t[6] = { x, y - r * 1.2, x + r * 1.1, y + r * 0.8, x - r * 1.1, y + r * 0.8 };
        draw_polygon(c, t, 3, color);
        break;
    }
    default: {
        double d[8] = { x, y - r * 1.3, x + r * 1.3, y, x, y + r * 1.3, x - r * 1.3, y };
        draw_polygon(c, d, 4, color);
        break;
    }
    }
}

static Color series_color(const Plot *p, guint i, int *shape)
{
    int measured = 0, bounds = 0;
    for (guint k = 0; k < i; k++)
        ((PlotSeries *)p->series->pdata[k])->dashed ? bounds++ : measured++;
    const PlotSeries *s = p->series->pdata[i];
    *shape = measured;
    return s->dashed ? bound_colors[bounds % G_N_ELEMENTS(bound_colors)]
                     : measured_colors[measured % G_N_ELEMENTS(measured_colors)];
}

static void text_cut(Canvas *c, FontSize size, int x, int y, int width,
                     Color color, const char *text)
{
    g_autoptr(GString) s = g_string_new(text);
    for (glong n = g_utf8_strlen(text, -1) - 1;
         n > 0 && draw_text_width(c, size, s->str) > width; n--) {
        g_string_truncate(s, 0);
        g_string_append_len(s, text, g_utf8_offset_to_pointer(text, n) - text);
        g_string_append(s, "…");
    }
    draw_text(c, size, x, y, ALIGN_LEFT, color, s->str);
}

static void plot_draw(const Plot *p, Canvas *c)
{
    int W = c->surface->w, H = c->surface->h;
    int fs = draw_font_height(c, FONT_SMALL), fn = draw_font_height(c, FONT_NORMAL);
    int fl = draw_font_height(c, FONT_LARGE);
    draw_fill(c, P_BACKGROUND);

    int y = PLOT_MARGIN / 2;
    if (p->title) {
        int w = draw_text_width(c, FONT_LARGE, p->title);
        if (w <= W - 2 * PLOT_MARGIN)
            draw_text(c, FONT_LARGE, W / 2, y, ALIGN_CENTER, P_TEXT, p->title);
        else
            text_cut(c, FONT_LARGE, PLOT_MARGIN, y, W - 2 * PLOT_MARGIN, P_TEXT, p->title);
        y += fl + 2;
    }
    if (p->subtitle) {
        int w = draw_text_width(c, FONT_NORMAL, p->subtitle);
        if (w <= W - 2 * PLOT_MARGIN)
            draw_text(c, FONT_NORMAL, W / 2, y, ALIGN_CENTER, P_TEXT_DIM, p->subtitle);
        else
            text_cut(c, FONT_NORMAL, PLOT_MARGIN, y, W - 2 * PLOT_MARGIN, P_TEXT_DIM,
                     p->subtitle);
        y += fn;
    }
    int top = y + PLOT_MARGIN;

    /* Ranges over every point. */
    Axis ax = { .log = p->log_x }, ay = { .log = p->log_y, .flip = TRUE };
    double x0 = G_MAXDOUBLE, x1 = -G_MAXDOUBLE, y0 = G_MAXDOUBLE, y1 = -G_MAXDOUBLE;
    for (guint i = 0; i < p->series->len; i++) {
        const PlotSeries *s = p->series->pdata[i];
        for (guint k = 0; k < s->x->len; k++) {
            double vx = g_array_index(s->x, double, k), vy = g_array_index(s->y, double, k);
            if (!finite_for(&ax, vx) || !finite_for(&ay, vy))
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
        ax.log = FALSE;
        ax.lo = -0.5;
        ax.hi = p->x_names->len - 0.5;
        ax.ticks = g_array_new(FALSE, FALSE, sizeof(double));
        for (guint i = 0; i < p->x_names->len; i++) {
            double v = i;
            g_array_append_val(ax.ticks, v);
        }
    } else {
        axis_range(&ax, x0, x1, FALSE);
    }
    axis_range(&ay, y0, y1, TRUE);

    /* Legend width from its texts. */
    int legend_w = 0;
    for (guint i = 0; i < p->series->len; i++)
        legend_w = MAX(legend_w, draw_text_width(c, FONT_SMALL,
                                                 ((PlotSeries *)p->series->pdata[i])->name));
    legend_w = MIN(legend_w + 48, (int)(W * PLOT_LEGEND_SHARE));

    char text[64];
    int tick_w = 0;
    for (guint i = 0; i < ay.ticks->len; i++) {
        number_text(text, sizeof text, g_array_index(ay.ticks, double, i));
        tick_w = MAX(tick_w, draw_text_width(c, FONT_SMALL, text));
    }
    int left = PLOT_MARGIN + fn + 8 + tick_w + 6;
    int right = W - PLOT_MARGIN - legend_w - PLOT_MARGIN;
    int bottom = H - PLOT_MARGIN - fn - fs - 10;
    ax.pixel0 = left;
    ax.pixels = MAX(right - left, 10);
    ay.pixel0 = top;
    ay.pixels = MAX(bottom - top, 10);

    /* Grid and ticks. */
    for (guint i = 0; i < ax.ticks->len; i++) {
        double v = g_array_index(ax.ticks, double, i);
        int px = (int)lround(axis_pixel(&ax, v));
        draw_rect(c, px, top, 1, ay.pixels, P_GRID);
        draw_rect(c, px, bottom, 1, 5, P_FRAME);
        if (p->x_names)
            g_strlcpy(text, p->x_names->pdata[i], sizeof text);
        else
            number_text(text, sizeof text, v);
        draw_text(c, FONT_SMALL, px, bottom + 6, ALIGN_CENTER, P_TEXT, text);
    }
    for (guint i = 0; i < ay.ticks->len; i++) {
        double v = g_array_index(ay.ticks, double, i);
        int py = (int)lround(axis_pixel(&ay, v));
        draw_rect(c, left, py, ax.pixels, 1, P_GRID);
        draw_rect(c, left - 5, py, 5, 1, P_FRAME);
        number_text(text, sizeof text, v);
        draw_text(c, FONT_SMALL, left - 7, py - fs / 2, ALIGN_RIGHT, P_TEXT, text);
    }
    draw_frame(c, left, top, ax.pixels + 1, ay.pixels + 1, P_FRAME);
    if (p->xlabel)
        draw_text(c, FONT_NORMAL, left + ax.pixels / 2, bottom + fs + 10,
                  ALIGN_CENTER, P_TEXT, p->xlabel);
    if (p->ylabel)
        draw_text_vertical(c, FONT_NORMAL, PLOT_MARGIN + fn / 2, top + ay.pixels / 2,
                           P_TEXT, p->ylabel);

    /* Series: measured lines with markers, then the dashed bounds over
     * them, so a bound a method meets exactly still shows (dashes on the
     * line). Points are joined in the order given. */
    for (int pass = 0; pass < 2; pass++)
        for (guint i = 0; i < p->series->len; i++) {
            const PlotSeries *s = p->series->pdata[i];
            if (s->dashed != (pass == 1))
                continue;
            int shape;
            Color col = series_color(p, i, &shape);
            GArray *pts = g_array_new(FALSE, FALSE, sizeof(double));
            for (guint k = 0; k <= s->x->len; k++) {
                gboolean ok = k < s->x->len
                              && finite_for(&ax, g_array_index(s->x, double, k))
                              && finite_for(&ay, g_array_index(s->y, double, k));
                if (ok) {
                    double px = axis_pixel(&ax, g_array_index(s->x, double, k));
                    double py = axis_pixel(&ay, g_array_index(s->y, double, k));
                    g_array_append_val(pts, px);
                    g_array_append_val(pts, py);
                    continue;
                }
                /* A gap (or the end): draw what was collected. */
                draw_polyline(c, (double *)(void *)pts->data, (int)(pts->len / 2),
                              s->dashed ? 2.0 : 2.5, s->dashed ? PLOT_DASH : 0, col);
                if (!s->dashed)
                    for (guint m = 0; m + 1 < pts->len; m += 2)
                        marker(c, shape, g_array_index(pts, double, m),
                               g_array_index(pts, double, m + 1), col);
                g_array_set_size(pts, 0);
            }
            g_array_unref(pts);
        }

    /* Legend: measured first, then bounds, as drawn. */
    int lx = W - PLOT_MARGIN - legend_w, ly = top;
    int row = fs + 6;
    draw_rect(c, lx, ly, legend_w, (int)p->series->len * row + 10, P_BACKGROUND);
    draw_frame(c, lx, ly, legend_w, (int)p->series->len * row + 10, P_GRID);
    ly += 5;
    for (int pass = 0; pass < 2; pass++)
        for (guint i = 0; i < p->series->len; i++) {
            const PlotSeries *s = p->series->pdata[i];
            if (s->dashed != (pass == 1))
                continue;
            int shape;
            Color col = series_color(p, i, &shape);
            double line[4] = { lx + 8, ly + row / 2.0, lx + 36, ly + row / 2.0 };
            draw_polyline(c, line, 2, s->dashed ? 2.0 : 2.5, s->dashed ? 5.0 : 0, col);
            if (!s->dashed)
                marker(c, shape, lx + 22, ly + row / 2.0, col);
            text_cut(c, FONT_SMALL, lx + 42, ly + (row - fs) / 2, legend_w - 46,
                     P_TEXT, s->name);
            ly += row;
        }
    g_array_unref(ax.ticks);
    g_array_unref(ay.ticks);
}

gboolean plot_save_png(const Plot *p, const char *path, int width, int height,
                       GError **error)
{
    if (!draw_start(TRUE, error))
        return FALSE;
    Canvas c;
    gboolean ok = canvas_init(&c, width, height, error);
    if (ok) {
        plot_draw(p, &c);
        ok = canvas_save_png(&c, path, error);
        canvas_clear(&c);
    }
    draw_stop();
    return ok;
}
