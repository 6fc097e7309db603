/* gif.c -- animated GIF writer (gif.h) over Debian's giflib.
 *
 * Invariants: palette index GIF_TRANSPARENT is never the colour of a
 * pixel, only "unchanged since the previous frame"; `previous` always
 * holds the indexed pixels the viewer shows after the last frame written.
 */
#include "gif.h"
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <gif_lib.h>
#include <string.h>
#include <unistd.h>

/* A GIF palette has 256 entries; the last one means transparent. */
#define GIF_COLORS 256
#define GIF_TRANSPARENT (GIF_COLORS - 1)
/* Levels per channel of the colour cube filling the free entries. */
#define GIF_CUBE_LEVELS 6
/* Nearest-colour lookup over 5 bits per channel: 32 KiB, built once. */
#define GIF_LUT_BITS 5

struct GifOut {
    GifFileType *gif;
    Output *out;                  /* the file, replaced only when complete */
    int errnum;                   /* errno of the first failed write, or 0 */
    char *path;
    int width, height, delay;
    GifColorType palette[GIF_COLORS];
    int palette_size;             /* entries in use, without transparent */
    guint8 lut[1 << (3 * GIF_LUT_BITS)];
    guint8 *current, *previous;
    int frames;
};

static gboolean gif_fail(GifOut *g, int code, GError **error)
{
    if (g->errnum)
        g_set_error(error, DRAW_ERROR, DRAW_ERROR_FAILED,
                    "%s: cannot write: %s", g->path, g_strerror(g->errnum));
    else
        g_set_error(error, DRAW_ERROR, DRAW_ERROR_FAILED,
                    "%s: cannot write the GIF: %s", g->path, GifErrorString(code));
    return FALSE;
}

static void gif_palette(GifOut *g, const Color *colors, int ncolors)
{
    int n = 0;
    for (int i = 0; i < ncolors && n < GIF_TRANSPARENT; i++) {
        g->palette[n].Red = (GifByteType)(colors[i] >> 16);
        g->palette[n].Green = (GifByteType)(colors[i] >> 8);
        g->palette[n].Blue = (GifByteType)colors[i];
        n++;
    }
    for (int r = 0; r < GIF_CUBE_LEVELS; r++)
        for (int gr = 0; gr < GIF_CUBE_LEVELS; gr++)
            for (int b = 0; b < GIF_CUBE_LEVELS && n < GIF_TRANSPARENT; b++) {
                g->palette[n].Red = (GifByteType)(r * 255 / (GIF_CUBE_LEVELS - 1));
                g->palette[n].Green = (GifByteType)(gr * 255 / (GIF_CUBE_LEVELS - 1));
                g->palette[n].Blue = (GifByteType)(b * 255 / (GIF_CUBE_LEVELS - 1));
                n++;
            }
    g->palette_size = n;
    for (int i = n; i < GIF_COLORS; i++)
        g->palette[i] = (GifColorType){ 0, 0, 0 };
    /* Nearest entry for the centre of every 5-bit cell. */
    int levels = 1 << GIF_LUT_BITS, shift = 8 - GIF_LUT_BITS;
    for (int r = 0; r < levels; r++)
        for (int gr = 0; gr < levels; gr++)
            for (int b = 0; b < levels; b++) {
                int cr = (r << shift) + (1 << (shift - 1));
                int cg = (gr << shift) + (1 << (shift - 1));
                int cb = (b << shift) + (1 << (shift - 1));
                int best = 0, best_d = G_MAXINT;
                for (int i = 0; i < n; i++) {
                    int dr = cr - g->palette[i].Red, dg = cg - g->palette[i].Green,
                        db = cb - g->palette[i].Blue;
                    int d = dr * dr + dg * dg + db * db;
                    if (d < best_d) {
                        best_d = d;
                        best = i;
                    }
                }
                g->lut[(r << (2 * GIF_LUT_BITS)) | (gr << GIF_LUT_BITS) | b] = (guint8)best;
            }
}

/* Exact palette colours map to themselves; others through the table. */
static guint8 gif_index(const GifOut *g, Color c, GHashTable *exact)
{
    gpointer hit = g_hash_table_lookup(exact, GUINT_TO_POINTER(c | 0x1000000u));
    if (hit)
        return (guint8)(GPOINTER_TO_UINT(hit) - 1);
    int shift = 8 - GIF_LUT_BITS;
    int r = (int)((c >> 16) & 0xff) >> shift, gr = (int)((c >> 8) & 0xff) >> shift,
        b = (int)(c & 0xff) >> shift;
    return g->lut[(r << (2 * GIF_LUT_BITS)) | (gr << GIF_LUT_BITS) | b];
}

/* giflib's output function: into the Output, a short count on failure
 * (giflib then reports E_GIF_ERR_WRITE_FAILED; the Output keeps errno). */
static int gif_write(GifFileType *gif, const GifByteType *data, int len)
{
    GifOut *g = gif->UserData;
    size_t n = fwrite(data, 1, (size_t)len, output_stream(g->out));
    if (n != (size_t)len && !g->errnum)
        g->errnum = errno ? errno : EIO;
    return (int)n;
}

GifOut *gif_out_open(const char *path, int width, int height, int delay,
                     const Color *colors, int ncolors, GError **error)
{
    GifOut *g = g_new0(GifOut, 1);
    g->path = g_strdup(path);
    g->width = width;
    g->height = height;
    g->delay = delay;
    gif_palette(g, colors, ncolors);
    int code = 0;
    /* Written through output.h (giflib's own file handling would truncate
     * the previous file first). */
    g->out = output_open(path, error);
    if (!g->out) {
        g_free(g->path);
        g_free(g);
        return NULL;
    }
    g->gif = EGifOpen(g, gif_write, &code);
    if (!g->gif) {
        output_abort(g->out);
        g_set_error(error, DRAW_ERROR, DRAW_ERROR_FAILED,
                    "%s: cannot write: %s", path, GifErrorString(code));
        g_free(g->path);
        g_free(g);
        return NULL;
    }
    EGifSetGifVersion(g->gif, true);
    ColorMapObject *map = GifMakeMapObject(GIF_COLORS, g->palette);
    gboolean ok = EGifPutScreenDesc(g->gif, width, height, 8, 0, map) == GIF_OK;
    GifFreeMapObject(map);
    /* The NETSCAPE2.0 application block: loop forever. */
    static const GifByteType loop[3] = { 1, 0, 0 };
    ok = ok && EGifPutExtensionLeader(g->gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK
         && EGifPutExtensionBlock(g->gif, 11, "NETSCAPE2.0") == GIF_OK
         && EGifPutExtensionBlock(g->gif, 3, loop) == GIF_OK
         && EGifPutExtensionTrailer(g->gif) == GIF_OK;
    g->current = g_malloc((gsize)width * height);
    g->previous = g_malloc((gsize)width * height);
    if (!ok) {
        gif_fail(g, g->gif->Error, error);
        gif_out_abort(g);
        return NULL;
    }
    return g;
}

gboolean gif_out_add(GifOut *g, const Canvas *frame, GError **error)
{
    g_return_val_if_fail(frame->surface->w == g->width
                         && frame->surface->h == g->height, FALSE);
    g_autoptr(GHashTable) exact = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (int i = g->palette_size - 1; i >= 0; i--) {
        Color c = ((Color)g->palette[i].Red << 16) | ((Color)g->palette[i].Green << 8)
                  | g->palette[i].Blue;
        g_hash_table_insert(exact, GUINT_TO_POINTER(c | 0x1000000u),
                            GUINT_TO_POINTER((guint)i + 1));
    }
    /* Index the frame; cache the last colour, runs are long. */
    Color last = 0xffffffffu;
    guint8 last_index = 0;
    for (int y = 0; y < g->height; y++)
        for (int x = 0; x < g->width; x++) {
            Color c = draw_pixel(frame, x, y);
            if (c != last) {
                last = c;
                last_index = gif_index(g, c, exact);
            }
            g->current[(gsize)y * g->width + x] = last_index;
        }
    /* The box of changed pixels (all of the first frame). */
    int x0 = 0, y0 = 0, x1 = g->width - 1, y1 = g->height - 1;
    if (g->frames > 0) {
        x0 = g->width;
        y0 = g->height;
        x1 = y1 = -1;
        for (int y = 0; y < g->height; y++)
            for (int x = 0; x < g->width; x++) {
                gsize i = (gsize)y * g->width + x;
                if (g->current[i] != g->previous[i]) {
                    x0 = MIN(x0, x);
                    x1 = MAX(x1, x);
                    y0 = MIN(y0, y);
                    y1 = MAX(y1, y);
                }
            }
        if (x1 < 0)                /* nothing changed: one transparent pixel */
            x0 = x1 = y0 = y1 = 0;
    }
    GraphicsControlBlock gcb = {
        .DisposalMode = DISPOSE_DO_NOT,
        .UserInputFlag = false,
        .DelayTime = g->delay,
        .TransparentColor = g->frames > 0 ? GIF_TRANSPARENT : NO_TRANSPARENT_COLOR,
    };
    GifByteType ext[4];
    EGifGCBToExtension(&gcb, ext);
    int w = x1 - x0 + 1;
    guint8 *line = g_malloc((gsize)w);
    gboolean ok = EGifPutExtension(g->gif, GRAPHICS_EXT_FUNC_CODE, 4, ext) == GIF_OK
                  && EGifPutImageDesc(g->gif, x0, y0, w, y1 - y0 + 1, false, NULL) == GIF_OK;
    for (int y = y0; ok && y <= y1; y++) {
        for (int x = x0; x <= x1; x++) {
            gsize i = (gsize)y * g->width + x;
            line[x - x0] = g->frames > 0 && g->current[i] == g->previous[i]
                           ? GIF_TRANSPARENT : g->current[i];
        }
        ok = EGifPutLine(g->gif, line, w) == GIF_OK;
    }
    g_free(line);
    if (!ok)
        return gif_fail(g, g->gif->Error, error);
    guint8 *swap = g->previous;
    g->previous = g->current;
    g->current = swap;
    g->frames++;
    return TRUE;
}

/* Ends the GIF and frees G; COMMIT says whether its file replaces the
 * target (output.h) or is dropped. */
static gboolean gif_out_end(GifOut *g, gboolean commit, GError **error)
{
    int code = 0;
    gboolean ok = EGifCloseFile(g->gif, &code) == GIF_OK;
    if (!ok && commit)
        gif_fail(g, code, error);
    if (ok && commit)
        ok = output_commit(g->out, error);
    else
        output_abort(g->out);
    g_free(g->current);
    g_free(g->previous);
    g_free(g->path);
    g_free(g);
    return ok && commit;
}

gboolean gif_out_close(GifOut *g, GError **error)
{
    return gif_out_end(g, TRUE, error);
}

void gif_out_abort(GifOut *g)
{
    if (g)
        gif_out_end(g, FALSE, NULL);
}
