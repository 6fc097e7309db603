/* view_check.c -- a helper for tests/traces.sh that knows the renderer's
 * layout, so the script can check what `cubemu view` wrote without a
 * display. It links SDL, so it is not one of the Check suites (those link
 * only libcubemu-emu.a, the emulator's library).
 *
 *   view_check busy-idle TRACE PNG VIEW WxH CYCLE WINDOW
 *       PNG has size WxH; a channel busy for the whole window ending at
 *       CYCLE shows the heat colour of 1 at its place in VIEW (graph or
 *       matrix), and an idle channel the colour of 0.
 *   view_check gif GIF WxH MIN_FRAMES
 *       GIF has the size and at least MIN_FRAMES frames.
 *   view_check png-size PNG WxH
 *   view_check record OUT KEY=VALUE...
 *       run tests/traffic.h's program (every node sends across each link,
 *       then to the node half the machine away) on the machine whose
 *       [machine] keys are given ("topology=mesh" "shape=4x4" "wrap=yes")
 *       and write its trace: mesh, torus and complete-graph traces while
 *       no algorithm runs there.
 *
 * Prints one line and exits 0 when the check holds, 1 when it does not,
 * 2 on bad arguments.
 */
#include "sdl/render.h"
#include "trace.h"
#include "traffic.h"

#include <SDL_image.h>
#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

static int usage(void)
{
    fprintf(stderr, "usage: view_check busy-idle TRACE PNG VIEW WxH CYCLE WINDOW\n"
                    "       view_check gif GIF WxH MIN_FRAMES\n"
                    "       view_check png-size PNG WxH\n"
                    "       view_check record OUT KEY=VALUE...\n");
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

/* A channel of the topology (in the trace's table or idle all run) that
 * was busy the whole window, or not at all, and whose drawn middle shows
 * that colour in our own rendering of the frame (so nothing else is drawn
 * over it there). */
static gboolean find_channel(Render *r, const Trace *t, ViewKind kind,
                             Tick from, Tick to, gboolean busy,
                             uint32_t *node, uint32_t *link, int *x, int *y)
{
    g_autoptr(TraceIndex) ix = trace_index_new(t);
    Color want = render_heat(busy ? 1.0 : 0.0);
    for (uint32_t v = 0; v < trace_nodes(t); v++)
        for (uint32_t l = 0; l < (uint32_t)t->topology.links; l++) {
            int64_t c = trace_index_find(ix, v, l);
            Tick b = c >= 0 ? trace_index_busy(ix, (uint32_t)c, from, to) : 0;
            if (busy ? b != to - from : b != 0)
                continue;
            if (render_channel_point(r, kind, v, l, x, y)
                && draw_pixel(render_canvas(r), *x, *y) == want) {
                *node = v;
                *link = l;
                return TRUE;
            }
        }
    return FALSE;
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
    uint32_t bv, bl, iv, il;
    gboolean busy = find_channel(r, t, kind, from, to, TRUE, &bv, &bl, &bx, &by);
    gboolean idle = find_channel(r, t, kind, from, to, FALSE, &iv, &il, &ix, &iy);
    if (!busy || !idle) {
        printf("FAIL %s: no %s channel visible at cycle %" G_GINT64_FORMAT "\n",
               argv[1], !busy ? "busy" : "idle", (gint64)cycle);
        return 1;
    }
    SDL_Surface *png = load_png(argv[2], w, h);
    if (!png)
        return 1;
    Color pb = surface_pixel(png, bx, by), pi = surface_pixel(png, ix, iy);
    SDL_FreeSurface(png);
    char bn[TRACE_CHANNEL_NAME_MAX], in[TRACE_CHANNEL_NAME_MAX];
    trace_channel_name(t, bv, bl, bn, sizeof bn);
    trace_channel_name(t, iv, il, in, sizeof in);
    if (pb != render_heat(1.0) || pi != render_heat(0.0) || pb == pi) {
        printf("FAIL %s: busy channel %s at (%d,%d) is %06x (want %06x), idle "
               "channel %s at (%d,%d) is %06x (want %06x)\n", argv[2], bn, bx,
               by, pb, render_heat(1.0), in, ix, iy, pi, render_heat(0.0));
        return 1;
    }
    /* The hover texts are drawn too (and run under the sanitizers with
     * make sanitize): over the busy channel, then the idle one. */
    s.mouse_x = bx;
    s.mouse_y = by;
    render_frame(r, &s);
    s.mouse_x = ix;
    s.mouse_y = iy;
    render_frame(r, &s);
    printf("ok %s: busy channel %s at (%d,%d) %06x, idle channel %s at (%d,%d) "
           "%06x\n", argv[2], bn, bx, by, pb, in, ix, iy, pi);
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

static int record(int argc, char **argv)
{
    g_autoptr(GString) text = g_string_new("[machine]\n");
    for (int i = 2; i < argc; i++)
        g_string_append_printf(text, "%s\n", argv[i]);
    GError *e = NULL;
    Trace *t = NULL;
    g_autoptr(Report) r = traffic_record(text->str, &t, &e);
    if (!r || !trace_save(t, argv[1], &e)) {
        printf("FAIL %s\n", e->message);
        g_error_free(e);
        trace_free(t);
        return 1;
    }
    g_autofree char *what = trace_topology_text(t);
    printf("ok %s: %s, %u channels used\n", argv[1], what, t->channels->len);
    trace_free(t);
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
    else if (!strcmp(cmd, "record") && argc >= 4)
        rc = record(argc - 1, argv + 1);
    else
        rc = usage();
    draw_stop();
    return rc;
}
