/* draw.h -- a software canvas: an ARGB8888 SDL_Surface, filled polygons,
 * thick and dashed lines, discs and text (SDL2_ttf, DejaVu Sans).
 *
 * Everything is drawn without antialiasing (text excepted): a pixel is
 * covered when its centre lies inside the shape, so a line's own colour
 * sits exactly at its centre and the tests can read it back from a PNG.
 * Coordinates are pixels, x right, y down; colours are 0xRRGGBB.
 */
#ifndef CUBE_DRAW_H
#define CUBE_DRAW_H

#include <SDL.h>
#include <SDL_ttf.h>
#include <glib.h>

typedef uint32_t Color;

typedef enum { FONT_SMALL, FONT_NORMAL, FONT_LARGE, CANVAS_FONTS } FontSize;
typedef enum { ALIGN_LEFT, ALIGN_CENTER, ALIGN_RIGHT } Align;

typedef struct {
    SDL_Surface *surface;
    TTF_Font *font[CANVAS_FONTS];
} Canvas;

/* Start and stop the parts of SDL every canvas needs (SDL_ttf). With
 * headless TRUE no display is touched: SDL's dummy video driver is
 * selected before anything starts. */
gboolean draw_start(gboolean headless, GError **error);
void draw_stop(void);

/* DejaVuSans.ttf: $CUBEMU_FONT if set, else found under /usr/share/fonts
 * (Debian's fonts-dejavu-core). NULL with a message naming the package. */
char *draw_font_path(GError **error);

gboolean canvas_init(Canvas *c, int width, int height, GError **error);
void canvas_clear(Canvas *c);
gboolean canvas_resize(Canvas *c, int width, int height, GError **error);
gboolean canvas_save_png(const Canvas *c, const char *path, GError **error);

void draw_fill(Canvas *c, Color color);
void draw_rect(Canvas *c, int x, int y, int w, int h, Color color);
void draw_frame(Canvas *c, int x, int y, int w, int h, Color color);
/* A filled polygon (even-odd rule), points as x0, y0, x1, y1, ... */
void draw_polygon(Canvas *c, const double *xy, int points, Color color);
void draw_line(Canvas *c, double x0, double y0, double x1, double y1,
               double width, Color color);
/* Joined thick segments; dash > 0 draws dash, skips dash, along the path. */
void draw_polyline(Canvas *c, const double *xy, int points, double width,
                   double dash, Color color);
void draw_disc(Canvas *c, double cx, double cy, double r, Color color);
/* Text with its top at y, aligned at x; returns its width in pixels. */
int draw_text(Canvas *c, FontSize size, int x, int y, Align align,
              Color color, const char *text);
int draw_text_width(Canvas *c, FontSize size, const char *text);
/* The box of the pixels draw_text covers (any alpha) when it draws text
 * left-aligned with its top-left at (0, 0); empty (w = 0) for no ink. */
void draw_text_ink(Canvas *c, FontSize size, const char *text, SDL_Rect *ink);
int draw_font_height(Canvas *c, FontSize size);

Color draw_mix(Color a, Color b, double t);
Color draw_pixel(const Canvas *c, int x, int y);

#define DRAW_ERROR (draw_error_quark())
GQuark draw_error_quark(void);
enum { DRAW_ERROR_FAILED = 1 };

#endif
