/* draw.c -- the software canvas of draw.h.
 *
 * Invariant: the canvas surface is always ARGB8888 with every pixel opaque,
 * so a pixel is one 32-bit word and reading it back gives what was drawn.
 * Shapes are scan-converted here with pixel-centre sampling; SDL only
 * provides the surface, the fonts and the PNG encoder.
 */
#include "draw.h"
#include "output.h"

#include <SDL_image.h>
#include <math.h>
#include <string.h>

/* Point sizes of FONT_SMALL, FONT_NORMAL, FONT_LARGE: the smallest that
 * DejaVu Sans keeps legible on screen and in a scaled-down PNG. */
static const int font_points[CANVAS_FONTS] = { 11, 13, 17 };

/* Where Debian's fonts-dejavu-core puts the font, and how deep to look
 * under /usr/share/fonts if another package moved it. */
#define FONT_FILE "DejaVuSans.ttf"
#define FONT_DEFAULT_PATH "/usr/share/fonts/truetype/dejavu/" FONT_FILE
#define FONT_ROOT "/usr/share/fonts"
#define FONT_SEARCH_DEPTH 4

/* Vertices a polygon may have: discs use this many, and lines four. */
#define DRAW_MAX_POINTS 64

G_DEFINE_QUARK(draw-error-quark, draw_error)

static gboolean draw_fail(GError **error, const char *what)
{
    g_set_error(error, DRAW_ERROR, DRAW_ERROR_FAILED, "%s: %s",
                what, SDL_GetError());
    return FALSE;
}

gboolean draw_start(gboolean headless, GError **error)
{
    if (headless)
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "dummy");
    if (SDL_Init(0) != 0)
        return draw_fail(error, "cannot start SDL");
    if (TTF_Init() != 0) {
        SDL_Quit();
        g_set_error(error, DRAW_ERROR, DRAW_ERROR_FAILED,
                    "cannot start SDL_ttf: %s", TTF_GetError());
        return FALSE;
    }
    return TRUE;
}

void draw_stop(void)
{
    TTF_Quit();
    IMG_Quit();
    SDL_Quit();
}

static char *font_search(const char *dir, int depth)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    if (!d)
        return NULL;
    char *found = NULL;
    const char *name;
    while (!found && (name = g_dir_read_name(d))) {
        g_autofree char *path = g_build_filename(dir, name, NULL);
        if (!strcmp(name, FONT_FILE) && g_file_test(path, G_FILE_TEST_IS_REGULAR))
            found = g_steal_pointer(&path);
        else if (depth > 0 && g_file_test(path, G_FILE_TEST_IS_DIR))
            found = font_search(path, depth - 1);
    }
    g_dir_close(d);
    return found;
}

char *draw_font_path(GError **error)
{
    const char *env = g_getenv("CUBEMU_FONT");
    if (env && *env) {
        if (g_file_test(env, G_FILE_TEST_IS_REGULAR))
            return g_strdup(env);
        g_set_error(error, DRAW_ERROR, DRAW_ERROR_FAILED,
                    "CUBEMU_FONT=%s: no such font file", env);
        return NULL;
    }
    if (g_file_test(FONT_DEFAULT_PATH, G_FILE_TEST_IS_REGULAR))
        return g_strdup(FONT_DEFAULT_PATH);
    char *found = font_search(FONT_ROOT, FONT_SEARCH_DEPTH);
    if (!found)
        g_set_error(error, DRAW_ERROR, DRAW_ERROR_FAILED,
                    "no font: %s not found under %s (install fonts-dejavu-core, "
                    "e.g. with make deps, or set CUBEMU_FONT to a .ttf file)",
                    FONT_FILE, FONT_ROOT);
    return found;
}

gboolean canvas_init(Canvas *c, int width, int height, GError **error)
{
    memset(c, 0, sizeof *c);
    g_autofree char *font = draw_font_path(error);
    if (!font)
        return FALSE;
    for (int i = 0; i < CANVAS_FONTS; i++) {
        c->font[i] = TTF_OpenFont(font, font_points[i]);
        if (!c->font[i]) {
            g_set_error(error, DRAW_ERROR, DRAW_ERROR_FAILED,
                        "%s: cannot load font: %s", font, TTF_GetError());
            canvas_clear(c);
            return FALSE;
        }
    }
    if (!canvas_resize(c, width, height, error)) {
        canvas_clear(c);
        return FALSE;
    }
    return TRUE;
}

void canvas_clear(Canvas *c)
{
    for (int i = 0; i < CANVAS_FONTS; i++)
        if (c->font[i])
            TTF_CloseFont(c->font[i]);
    if (c->surface)
        SDL_FreeSurface(c->surface);
    memset(c, 0, sizeof *c);
}

gboolean canvas_resize(Canvas *c, int width, int height, GError **error)
{
    if (c->surface && c->surface->w == width && c->surface->h == height)
        return TRUE;
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, width, height, 32,
                                                    SDL_PIXELFORMAT_ARGB8888);
    if (!s)
        return draw_fail(error, "cannot create a drawing surface");
    if (c->surface)
        SDL_FreeSurface(c->surface);
    c->surface = s;
    return TRUE;
}

gboolean canvas_save_png(const Canvas *c, const char *path, GError **error)
{
    /* Through output.h, into a stream SDL does not close: the PNG replaces
     * the target only once it is whole, and every write is checked. */
    g_autoptr(Output) o = output_open(path, error);
    if (!o)
        return FALSE;
    SDL_RWops *rw = SDL_RWFromFP(output_stream(o), SDL_FALSE);
    int status = rw ? IMG_SavePNG_RW(c->surface, rw, 1) : -1;
    if (status != 0) {
        if (ferror(output_stream(o)))
            return output_commit(g_steal_pointer(&o), error);  /* says why */
        g_set_error(error, DRAW_ERROR, DRAW_ERROR_FAILED,
                    "%s: cannot write: %s", path, IMG_GetError());
        return FALSE;
    }
    return output_commit(g_steal_pointer(&o), error);
}

static inline uint32_t *row(const Canvas *c, int y)
{
    return (uint32_t *)(void *)((uint8_t *)c->surface->pixels
                                + (size_t)y * (size_t)c->surface->pitch);
}

/* Fill pixels [x0, x1) of row y; clipped. */
static inline void span(Canvas *c, int y, int x0, int x1, Color color)
{
    if (y < 0 || y >= c->surface->h)
        return;
    x0 = MAX(x0, 0);
    x1 = MIN(x1, c->surface->w);
    uint32_t *p = row(c, y);
    for (int x = x0; x < x1; x++)
        p[x] = 0xff000000u | color;
}

Color draw_pixel(const Canvas *c, int x, int y)
{
    if (x < 0 || y < 0 || x >= c->surface->w || y >= c->surface->h)
        return 0;
    return row(c, y)[x] & 0xffffffu;
}

void draw_fill(Canvas *c, Color color)
{
    for (int y = 0; y < c->surface->h; y++)
        span(c, y, 0, c->surface->w, color);
}

void draw_rect(Canvas *c, int x, int y, int w, int h, Color color)
{
    for (int j = MAX(y, 0); j < y + h && j < c->surface->h; j++)
        span(c, j, x, x + w, color);
}

void draw_frame(Canvas *c, int x, int y, int w, int h, Color color)
{
    draw_rect(c, x, y, w, 1, color);
    draw_rect(c, x, y + h - 1, w, 1, color);
    draw_rect(c, x, y, 1, h, color);
    draw_rect(c, x + w - 1, y, 1, h, color);
}

static int double_compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void draw_polygon(Canvas *c, const double *xy, int points, Color color)
{
    if (points < 3 || points > DRAW_MAX_POINTS)
        return;
    double ymin = xy[1], ymax = xy[1];
    for (int i = 1; i < points; i++) {
        ymin = MIN(ymin, xy[2 * i + 1]);
        ymax = MAX(ymax, xy[2 * i + 1]);
    }
    int y0 = MAX((int)floor(ymin), 0);
    int y1 = MIN((int)ceil(ymax), c->surface->h - 1);
    double cross[DRAW_MAX_POINTS];
    for (int y = y0; y <= y1; y++) {
        double sy = y + 0.5;
        int n = 0;
        for (int i = 0; i < points; i++) {
            double ax = xy[2 * i], ay = xy[2 * i + 1];
            double bx = xy[2 * ((i + 1) % points)], by = xy[2 * ((i + 1) % points) + 1];
            if ((ay <= sy && by > sy) || (by <= sy && ay > sy))
                cross[n++] = ax + (sy - ay) * (bx - ax) / (by - ay);
        }
        qsort(cross, (size_t)n, sizeof(double), double_compare);
        /* Pixel x is inside when its centre x + 0.5 lies in [a, b). */
        for (int i = 0; i + 1 < n; i += 2)
            span(c, y, (int)ceil(cross[i] - 0.5), (int)ceil(cross[i + 1] - 0.5),
                 color);
    }
}

void draw_line(Canvas *c, double x0, double y0, double x1, double y1,
               double width, Color color)
{
    double dx = x1 - x0, dy = y1 - y0, len = hypot(dx, dy);
    if (len < 1e-9)
        return;
    double nx = -dy / len * width / 2, ny = dx / len * width / 2;
    double q[8] = { x0 + nx, y0 + ny, x1 + nx, y1 + ny,
                    x1 - nx, y1 - ny, x0 - nx, y0 - ny };
    draw_polygon(c, q, 4, color);
}

void draw_disc(Canvas *c, double cx, double cy, double r, Color color)
{
    int n = r < 4 ? 12 : r < 12 ? 24 : DRAW_MAX_POINTS;
    double p[2 * DRAW_MAX_POINTS];
    for (int i = 0; i < n; i++) {
        double a = 2 * G_PI * i / n;
        p[2 * i] = cx + r * cos(a);
        p[2 * i + 1] = cy + r * sin(a);
    }
    draw_polygon(c, p, n, color);
}

void draw_polyline(Canvas *c, const double *xy, int points, double width,
                   double dash, Color color)
{
    double along = 0;              /* path length so far, for dashes */
    for (int i = 0; i + 1 < points; i++) {
        double ax = xy[2 * i], ay = xy[2 * i + 1];
        double bx = xy[2 * i + 2], by = xy[2 * i + 3];
        double len = hypot(bx - ax, by - ay);
        if (dash <= 0) {
            draw_line(c, ax, ay, bx, by, width, color);
            if (width > 2 && i > 0)
                draw_disc(c, ax, ay, width / 2, color);
            continue;
        }
        double s = 0;
        while (s < len) {
            double phase = fmod(along + s, 2 * dash);
            double step = MIN(len - s, phase < dash ? dash - phase : 2 * dash - phase);
            if (phase < dash) {
                double t0 = s / len, t1 = (s + step) / len;
                draw_line(c, ax + (bx - ax) * t0, ay + (by - ay) * t0,
                          ax + (bx - ax) * t1, ay + (by - ay) * t1, width, color);
            }
            s += step;
        }
        along += len;
    }
}

int draw_font_height(Canvas *c, FontSize size)
{
    return TTF_FontHeight(c->font[size]);
}

int draw_text_width(Canvas *c, FontSize size, const char *text)
{
    int w = 0, h = 0;
    if (!text || !*text || TTF_SizeUTF8(c->font[size], text, &w, &h) != 0)
        return 0;
    return w;
}

/* Any colour: only the alpha of the rendered text is read. */
#define C_INK_PROBE 0xffffffu

static SDL_Surface *text_surface(Canvas *c, FontSize size, Color color,
                                 const char *text)
{
    if (!text || !*text)
        return NULL;
    SDL_Color fg = { (Uint8)(color >> 16), (Uint8)(color >> 8), (Uint8)color, 255 };
    return TTF_RenderUTF8_Blended(c->font[size], text, fg);
}

int draw_text(Canvas *c, FontSize size, int x, int y, Align align,
              Color color, const char *text)
{
    SDL_Surface *s = text_surface(c, size, color, text);
    if (!s)
        return 0;
    int w = s->w;
    SDL_Rect dst = { align == ALIGN_LEFT ? x : align == ALIGN_CENTER ? x - w / 2
                                                                    : x - w,
                     y, s->w, s->h };
    SDL_BlitSurface(s, NULL, c->surface, &dst);
    SDL_FreeSurface(s);
    return w;
}

void draw_text_ink(Canvas *c, FontSize size, const char *text, SDL_Rect *ink)
{
    *ink = (SDL_Rect){ 0, 0, 0, 0 };
    SDL_Surface *s = text_surface(c, size, C_INK_PROBE, text);
    if (!s)
        return;
    /* TTF_RenderUTF8_Blended gives 32-bit pixels with alpha. */
    int x0 = s->w, y0 = s->h, x1 = -1, y1 = -1;
    SDL_LockSurface(s);
    for (int y = 0; y < s->h; y++) {
        const uint32_t *p = (const uint32_t *)(const void *)((const uint8_t *)s->pixels
                                                             + (size_t)y * (size_t)s->pitch);
        for (int x = 0; x < s->w; x++) {
            Uint8 r, g, b, a;
            SDL_GetRGBA(p[x], s->format, &r, &g, &b, &a);
            if (a) {
                x0 = MIN(x0, x);
                x1 = MAX(x1, x);
                y0 = MIN(y0, y);
                y1 = MAX(y1, y);
            }
        }
    }
    SDL_UnlockSurface(s);
    SDL_FreeSurface(s);
    if (x1 >= 0)
        *ink = (SDL_Rect){ x0, y0, x1 - x0 + 1, y1 - y0 + 1 };
}

Color draw_mix(Color a, Color b, double t)
{
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    Color out = 0;
    for (int shift = 0; shift <= 16; shift += 8) {
        double x = ((a >> shift) & 0xff) * (1 - t) + ((b >> shift) & 0xff) * t;
        out |= (Color)lround(x) << shift;
    }
    return out;
}
