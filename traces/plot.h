/* plot.h -- line plots for `cubemu sweep`, drawn with cairo as PNG, SVG or
 * PDF: measured values as solid lines with markers, bounds as dashed lines,
 * axes with ticks and labels, a legend, a title and a subtitle.
 *
 * A bound may belong to a measured series (PlotSeries.bounds): it is then
 * drawn in that series' colour, each bound of a series with its own dash
 * pattern, and wherever it equals the series' value at the same x a ring
 * is drawn around the marker and its legend entry says "= measured". With
 * named x values (Plot.x_names, categories) nothing is joined by a line:
 * measured values are markers, side by side where several series share a
 * category, and bounds short dashed bars across their marker. The legend
 * lists only what is drawn (a series with no point on the axes has no
 * entry), each measured series followed by its bounds, then Plot.notes.
 *
 * No cairo types here, so callers compile without cairo's flags.
 */
#ifndef CUBE_PLOT_H
#define CUBE_PLOT_H

#include <glib.h>

typedef struct PlotSeries PlotSeries;
struct PlotSeries {
    char *name;
    gboolean dashed;              /* bounds: dashed, no markers */
    GArray *x, *y;                /* double */
    /* A bound's measured series (plot_add_bound): drawn in its colour and
     * listed after it; NULL for a bound of no series (its own colour). */
    const PlotSeries *bounds;
};

typedef struct {
    char *title, *subtitle, *xlabel, *ylabel;
    gboolean log_x, log_y;
    GPtrArray *series;            /* PlotSeries */
    GPtrArray *x_names;           /* optional: x = 0, 1, ... named so */
    GPtrArray *notes;             /* char *, owned: lines at the legend's end */
} Plot;

/* The file formats, chosen by the file name's extension. */
typedef enum {
    PLOT_FORMAT_UNKNOWN,
    PLOT_FORMAT_PNG,
    PLOT_FORMAT_SVG,
    PLOT_FORMAT_PDF,
} PlotFormat;

/* The valid extensions, for messages. */
#define PLOT_EXTENSIONS ".png, .svg, .pdf"

Plot *plot_new(void);
void plot_free(Plot *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Plot, plot_free)
PlotSeries *plot_add_series(Plot *p, const char *name, gboolean dashed);
/* A dashed series bounding the measured series OF (a series of P). */
PlotSeries *plot_add_bound(Plot *p, const char *name, const PlotSeries *of);
void plot_series_add(PlotSeries *s, double x, double y);
/* A line of text for the end of the legend (why something is not drawn). */
void plot_add_note(Plot *p, const char *text);

/* PATH's format by its extension, in any case; PLOT_FORMAT_UNKNOWN for
 * any other extension or none. */
PlotFormat plot_format_of(const char *path);

/* Draw P and write it to PATH in the format its extension names; WIDTH x
 * HEIGHT are pixels for PNG and SVG, points (1/72 inch) for PDF. The same
 * plot gives the same bytes on every run, with one exception: cairo numbers
 * SVG surfaces across the process, so a second SVG drawn by one process
 * differs from the first in its id="surfaceN". Written through output.h:
 * on failure, FALSE with "PATH: reason" (PLOT_ERROR_FORMAT, PLOT_ERROR_WRITE
 * for a plot cairo cannot draw, OUTPUT_ERROR for a file it cannot write),
 * and the file PATH held before is left as it was. */
gboolean plot_save(const Plot *p, const char *path, int width, int height,
                   GError **error);

/* What plot_save would draw, as JSON, written to PATH through output.h
 * (scripts, tests and other plotting tools read it): the titles and axis
 * labels, whether each axis is logarithmic, the x ticks' labels, every
 * series with its points (null where the axes cannot show one), colour
 * ("#rrggbb"), dash pattern, marker, the measured series a bound belongs
 * to and the points where it equals the measurement, and the legend's
 * entries and notes exactly as drawn. The same plot gives the same bytes. */
gboolean plot_save_data(const Plot *p, const char *path, GError **error);

#define PLOT_ERROR (plot_error_quark())
GQuark plot_error_quark(void);
enum { PLOT_ERROR_FORMAT = 1, PLOT_ERROR_WRITE };

#endif
