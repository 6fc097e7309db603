/* plot.h -- line plots as PNG for `cubemu sweep`: measured values as solid
 * lines with markers, bounds as dashed lines, axes with ticks and labels,
 * a legend and a title.
 *
 * No SDL types here, so the command line compiles without SDL's flags.
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

Plot *plot_new(void);
void plot_free(Plot *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Plot, plot_free)
PlotSeries *plot_add_series(Plot *p, const char *name, gboolean dashed);
void plot_series_add(PlotSeries *s, double x, double y);

/* Draw and write a PNG (SDL2_image). FALSE with "PATH: reason". */
gboolean plot_save_png(const Plot *p, const char *path, int width,
                       int height, GError **error);

#endif
