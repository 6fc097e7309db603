/* view_check.c -- a helper for tests/traces.sh that knows the renderer's
 * layout, so the script can check what `cubemu view` wrote without a
 * display. It links SDL, so it is not one of the Check suites (those link
 * only libcubemu).
 *
 *   view_check busy-idle TRACE PNG VIEW WxH CYCLE WINDOW
 *       PNG has size WxH; a channel busy for the whole window ending at
 *       CYCLE shows the heat colour of 1 at its place in VIEW (graph or
 *       matrix), and an idle channel the colour of 0.
 *   view_check gif GIF WxH MIN_FRAMES
 *       GIF has the size and at least MIN_FRAMES frames.
 *   view_check png-size PNG WxH
 *   view_check make-mesh OUT SIDE
 *       write a trace of a SIDE x SIDE mesh (topology "mesh", a channel
 *       table the viewer has never seen) with one busy channel per node.
 *
 * Prints one line and exits 0 when the check holds, 1 when it does not,
 * 2 on bad arguments.
 */
#include "sdl/render.h"
#include "trace.h"

#include <SDL_image.h>
#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

static int usage(void)
{
    fprintf(stderr, "usage: view_check busy-idle TRACE PNG VIEW WxH CYCLE WINDOW\n"
                    "       view_check gif GIF WxH MIN_FRAMES\n"
                    "       view_check png-size PNG WxH\n"
                    "       view_check make-mesh OUT SIDE\n");
    return 2;
}

static gboolean parse_size(const char *s, int *w, int *h)
{
    return sscanf(s, "%dx%d", w, h) == 2 && *w > 0 && *h > 0;
}

static SDL_Surface *load_png(const char *path, int w, int h)
{
    SDL_Surface *raw = IMG_Load(path);
    if (!raw) {
        printf("FAIL %s: cannot load: %s\n", path, IMG_GetError());
        return NULL;
    }
    SDL_Surface *s = SDL_ConvertSurfaceFormat(raw, SDL_PIXELFORMAT_ARGB8888, 0);
    SDL_FreeSurface(raw);
    if (s->w != w || s->h != h) {
        printf("FAIL %s: %dx%d, expected %dx%d\n", path, s->w, s->h, w, h);
        SDL_FreeSurface(s);
        return NULL;
    }
    return s;
}

static Color surface_pixel(SDL_Surface *s, int x, int y)
{
    const uint32_t *row = (const uint32_t *)(void *)((uint8_t *)s->pixels
                                                     + (size_t)y * (size_t)s->pitch);
    return row[x] & 0xffffffu;
}

/* A channel whose drawn middle shows `want` in our own rendering of the
 * frame (so nothing else is drawn over it there). */
static int64_t find_channel(Render *r, const Trace *t, ViewKind kind,
                            Tick from, Tick to, gboolean busy,
                            int *x, int *y)
{
    g_autoptr(TraceIndex) ix = trace_index_new(t);
    Color want = render_heat(busy ? 1.0 : 0.0);
    for (guint c = 0; c < t->channels->len; c++) {
        Tick b = trace_index_busy(ix, c, from, to);
        if (busy ? b != to - from : b != 0)
            continue;
        if (render_channel_point(r, kind, c, x, y)
            && draw_pixel(render_canvas(r), *x, *y) == want)
            return c;
    }
    return -1;
}

static int busy_idle(char **argv)
{
    int w, h;
    ViewKind kind = !strcmp(argv[3], "graph") ? VIEW_GRAPH : VIEW_MATRIX;
    if (!parse_size(argv[4], &w, &h))
        return usage();
    Tick cycle = atoll(argv[5]), window = atoll(argv[6]);
    GError *e = NULL;
    g_autoptr(Trace) t = trace_load(argv[1], &e);
    if (!t) {
        printf("FAIL %s\n", e->message);
        g_error_free(e);
        return 1;
    }
    g_autoptr(Render) r = render_new(t, w, h, &e);
    if (!r) {
        printf("FAIL %s\n", e->message);
        g_error_free(e);
        return 1;
    }
    ViewState s = { .cycle = cycle, .window = window, .kind = kind,
                    .mouse_x = -1, .mouse_y = -1 };
    render_frame(r, &s);
    Tick to = MIN(cycle + 1, MAX(t->cycles, 1)), from = MAX(to - window, 0);
    int bx, by, ix, iy;
    int64_t busy = find_channel(r, t, kind, from, to, TRUE, &bx, &by);
    int64_t idle = find_channel(r, t, kind, from, to, FALSE, &ix, &iy);
    if (busy < 0 || idle < 0) {
        printf("FAIL %s: no %s channel visible at cycle %" G_GINT64_FORMAT "\n",
               argv[1], busy < 0 ? "busy" : "idle", (gint64)cycle);
        return 1;
    }
    SDL_Surface *png = load_png(argv[2], w, h);
    if (!png)
        return 1;
    Color pb = surface_pixel(png, bx, by), pi = surface_pixel(png, ix, iy);
    SDL_FreeSurface(png);
    if (pb != render_heat(1.0) || pi != render_heat(0.0) || pb == pi) {
        printf("FAIL %s: busy channel %" G_GINT64_FORMAT " at (%d,%d) is %06x "
               "(want %06x), idle channel %" G_GINT64_FORMAT " at (%d,%d) is %06x "
               "(want %06x)\n", argv[2], (gint64)busy, bx, by, pb, render_heat(1.0),
               (gint64)idle, ix, iy, pi, render_heat(0.0));
        return 1;
    }
    printf("ok %s: busy channel %" G_GINT64_FORMAT " at (%d,%d) %06x, idle channel %"
           G_GINT64_FORMAT " at (%d,%d) %06x\n", argv[2], (gint64)busy, bx, by, pb,
           (gint64)idle, ix, iy, pi);
    return 0;
}

static int gif_check(char **argv)
{
    int w, h, code = 0;
    if (!parse_size(argv[2], &w, &h))
        return usage();
    int min_frames = atoi(argv[3]);
    GifFileType *g = DGifOpenFileName(argv[1], &code);
    if (!g) {
        printf("FAIL %s: %s\n", argv[1], GifErrorString(code));
        return 1;
    }
    int ok = DGifSlurp(g) == GIF_OK;
    int frames = g->ImageCount, gw = g->SWidth, gh = g->SHeight;
    DGifCloseFile(g, &code);
    if (!ok || gw != w || gh != h || frames < min_frames) {
        printf("FAIL %s: %dx%d with %d frames, expected %dx%d with at least %d\n",
               argv[1], gw, gh, frames, w, h, min_frames);
        return 1;
    }
    printf("ok %s: %dx%d, %d frames\n", argv[1], gw, gh, frames);
    return 0;
}

static int png_size(char **argv)
{
    int w, h;
    if (!parse_size(argv[2], &w, &h))
        return usage();
    SDL_Surface *s = load_png(argv[1], w, h);
    if (!s)
        return 1;
    SDL_FreeSurface(s);
    printf("ok %s: %dx%d\n", argv[1], w, h);
    return 0;
}

/* A SIDE x SIDE mesh: node (i, j) = i + SIDE j; dimension 0 along i,
 * 1 along j. Every node sends one 4-element message to its +i neighbour
 * (the last column to its -i neighbour) in cycles [0, 4). */
static int make_mesh(char **argv)
{
    uint32_t side = (uint32_t)atoi(argv[2]);
    if (side < 2 || side > 64)
        return usage();
    g_autoptr(Trace) t = trace_new();
    t->nodes = side * side;
    t->dimensions = 2;
    t->cycles = 8;
    trace_set_info(t, "topology", "mesh");
    trace_set_info(t, "machine", "test mesh");
    trace_set_info(t, "algorithm", "shift");
    for (uint32_t v = 0; v < t->nodes; v++) {
        uint32_t i = v % side, j = v / side;
        int coords[2] = { (int)i, (int)j };
        for (int d = 0; d < 2; d++)
            for (int dir = 1; dir >= -1; dir -= 2) {
                int c = coords[d] + dir;
                if (c < 0 || c >= (int)side)
                    continue;
                uint32_t u = d == 0 ? (uint32_t)c + side * j : i + side * (uint32_t)c;
                TraceChannel ch = { v, u, (uint16_t)d, (int8_t)dir };
                g_array_append_val(t->channels, ch);
            }
    }
    for (uint32_t v = 0; v < t->nodes; v++) {
        uint32_t i = v % side;
        uint32_t dest = i + 1 < side ? v + 1 : v - 1;
        TraceMessage m = { v, 4, 0, v, dest, 0, 1 };
        g_array_append_val(t->messages, m);
        for (guint c = 0; c < t->channels->len; c++) {
            const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, c);
            if (ch->source == v && ch->dest == dest) {
                TraceBusy b = { 0, 0, 4, c, v };
                g_array_append_val(t->busy, b);
            }
        }
        t->element_transfers += 4;
    }
    g_ptr_array_add(t->labels, g_strdup("shift"));
    TraceMark mk = { 0, 0, 0, t->nodes };
    g_array_append_val(t->marks, mk);
    /* The table is node-major and records were added node by node, so
     * they are already in channel order, as the format requires. */
    GError *e = NULL;
    if (!trace_save(t, argv[1], &e)) {
        printf("FAIL %s\n", e->message);
        g_error_free(e);
        return 1;
    }
    printf("ok %s: %u-node mesh\n", argv[1], t->nodes);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    const char *cmd = argv[1];
    GError *e = NULL;
    if (!draw_start(TRUE, &e)) {
        printf("FAIL %s\n", e->message);
        g_error_free(e);
        return 1;
    }
    int rc;
    if (!strcmp(cmd, "busy-idle") && argc == 8)
        rc = busy_idle(argv + 1);
    else if (!strcmp(cmd, "gif") && argc == 5)
        rc = gif_check(argv + 1);
    else if (!strcmp(cmd, "png-size") && argc == 4)
        rc = png_size(argv + 1);
    else if (!strcmp(cmd, "make-mesh") && argc == 4)
        rc = make_mesh(argv + 1);
    else
        rc = usage();
    draw_stop();
    return rc;
}
