/* plot.h -- line plots for `cubemu sweep`, drawn with cairo as PNG, SVG or
 * PDF: measured values as solid lines with markers, bounds as dashed lines,
 * axes with ticks and labels, a legend, a title and a subtitle.
 *
 * No cairo types here, so callers compile without cairo's flags.
 */
#ifndef CUBE_PLOT_H
#define CUBE_PLOT_H

#include <glib.h>

typedef struct {
    char *name;
    gboolean dashed;              /* bounds: dashed, no markers */
    GArray *x, *y;                /* double */
} PlotSeries;

typedef struct {
    char *title, *subtitle, *xlabel, *ylabel;
    gboolean log_x, log_y;
    GPtrArray *series;            /* PlotSeries */
    GPtrArray *x_names;           /* optional: x = 0, 1, ... named so */
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
void plot_series_add(PlotSeries *s, double x, double y);

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

#define PLOT_ERROR (plot_error_quark())
GQuark plot_error_quark(void);
enum { PLOT_ERROR_FORMAT = 1, PLOT_ERROR_WRITE };

#endif
