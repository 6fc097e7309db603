/* view_check.c -- a helper for tests/traces.sh that knows the renderer's
 * layout, so the script can check what `cubemu view` wrote without a
 * display. It links SDL, so it is not one of the Check suites (those link
 * only libcubemu-emu.a, the emulator's library).
 *
 *   view_check busy-idle TRACE PNG VIEW WxH CYCLE WINDOW
 *       PNG has size WxH; a channel busy for the whole window ending at
 *       CYCLE shows the heat colour of 1 at its place in VIEW (graph or
 *       matrix), and an idle channel the colour of 0.
 *   view_check fault TRACE PNG VIEW WxH CYCLE WINDOW NODE LINK down|up
 *       PNG, the frame at CYCLE, draws the channel leaving NODE on link
 *       number LINK in the fault colour at its place in VIEW (down), or
 *       not (up: a timed fault before or after its interval); LINK "node"
 *       checks NODE's ring (graph: four points around it, all in the
 *       fault colour for down, none for up) or its row (matrix: each
 *       column's cell, all in it for down, not all for up) as a dead
 *       node's.
 *   view_check gif GIF WxH MIN_FRAMES
 *       GIF has the size and at least MIN_FRAMES frames.
 *   view_check legible TRACE PNG VIEW WxH CYCLE WINDOW [fill=F] [labels=L]
 *       PNG, the frame at CYCLE, is legible: in the graph view nothing is
 *       drawn outside the panel or on its border, the drawing fills its
 *       limiting side (and at least F of the other), every node's circle
 *       stands apart and holds only its fill and its whole label (labels
 *       yes: every node has one; no: none has), and no line crosses it;
 *       on the timeline every run of ticks at one load draws flat, and no
 *       two labelled phases in a row say the same.
 *   view_check phases TRACE WxH [CYCLE...]
 *       print the timeline's phases and the header's phase text at each
 *       CYCLE.
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
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static int usage(void)
{
    fprintf(stderr, "usage: view_check busy-idle TRACE PNG VIEW WxH CYCLE WINDOW\n"
                    "       view_check fault TRACE PNG VIEW WxH CYCLE WINDOW NODE "
                    "LINK|node down|up\n"
                    "       view_check gif GIF WxH MIN_FRAMES\n"
                    "       view_check png-size PNG WxH\n"
                    "       view_check legible TRACE PNG VIEW WxH CYCLE WINDOW "
                    "[fill=F] [labels=yes|no|any]\n"
                    "       view_check phases TRACE WxH [CYCLE...]\n"
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

/* Where a fault shows: the channel's middle; a dead node's ring (graph:
 * its top, bottom, left and right, inside the ring) or its row (matrix:
 * the middle of each column's cell, the row drawn whole). An array of
 * FaultPoint. */
typedef struct {
    int x, y;
} FaultPoint;

static void fault_point_add(GArray *p, int x, int y)
{
    FaultPoint f = { x, y };
    g_array_append_val(p, f);
}

static gboolean fault_points(Render *r, const Trace *t, ViewKind kind,
                             uint32_t node, const char *link, GArray *p)
{
    int x, y;
    if (strcmp(link, "node")) {
        if (!render_channel_point(r, kind, node, (uint32_t)atol(link), &x, &y))
            return FALSE;
        fault_point_add(p, x, y);
        return TRUE;
    }
    if (kind == VIEW_GRAPH) {
        double cx, cy, radius, ring;
        SDL_Rect label;
        if (!render_node(r, node, &cx, &cy, &radius, &ring, &label))
            return FALSE;
        double in = radius - ring / 2;   /* the ring's middle */
        fault_point_add(p, (int)floor(cx), (int)floor(cy - in));
        fault_point_add(p, (int)floor(cx), (int)floor(cy + in));
        fault_point_add(p, (int)floor(cx - in), (int)floor(cy));
        fault_point_add(p, (int)floor(cx + in), (int)floor(cy));
        return TRUE;
    }
    /* the node's row: every column, by the links it shows */
    for (int l = 0; l < t->topology.links; l++)
        if (render_channel_point(r, kind, node, (uint32_t)l, &x, &y))
            fault_point_add(p, x, y);
    return p->len > 0;
}

/* Down: every point in the fault colour. Up: none of them, but for a
 * node's row in the matrix, which may hold the cell of a channel down
 * while the node lives: not all of them. */
static int fault_check(char **argv)
{
    int w, h;
    ViewKind kind = !strcmp(argv[3], "graph") ? VIEW_GRAPH : VIEW_MATRIX;
    if (!parse_size(argv[4], &w, &h))
        return usage();
    Tick cycle = atoll(argv[5]);
    uint32_t node = (uint32_t)atol(argv[7]);
    gboolean down = !strcmp(argv[9], "down");
    gboolean row = kind == VIEW_MATRIX && !strcmp(argv[8], "node");
    GError *e = NULL;
    g_autoptr(Trace) t = trace_load(argv[1], &e);
    g_autoptr(Render) r = t ? render_new(t, w, h, &e) : NULL;
    if (!r) {
        printf("FAIL %s\n", e->message);
        g_error_free(e);
        return 1;
    }
    g_autoptr(GArray) pts = g_array_new(FALSE, FALSE, sizeof(FaultPoint));
    if (!fault_points(r, t, kind, node, argv[8], pts)) {
        printf("FAIL %s: node %u link %s is not drawn\n", argv[1], node,
               argv[8]);
        return 1;
    }
    SDL_Surface *png = load_png(argv[2], w, h);
    if (!png)
        return 1;
    Color fault = render_color(RENDER_COLOR_FAULT);
    guint faulty = 0, shown = 0;
    gboolean found = FALSE;
    for (guint i = 0; i < pts->len; i++) {
        const FaultPoint *f = &g_array_index(pts, FaultPoint, i);
        gboolean is = surface_pixel(png, f->x, f->y) == fault;
        faulty += is;
        if (!found && is != down) {
            shown = i;            /* the first point against the check */
            found = TRUE;
        }
    }
    gboolean holds = down ? faulty == pts->len : row ? faulty < pts->len
                                                     : faulty == 0;
    if (holds)
        shown = 0;
    const FaultPoint *at = &g_array_index(pts, FaultPoint, shown);
    Color p = surface_pixel(png, at->x, at->y);
    SDL_FreeSurface(png);
    g_autofree char *share = pts->len > 1
        ? g_strdup_printf("%u of its %u points in the fault colour", faulty,
                          pts->len)
        : NULL;
    if (!holds) {
        printf("FAIL %s: node %u link %s at (%d,%d) is %06x at cycle %"
               G_GINT64_FORMAT " (want %s %06x%s%s)\n", argv[2], node, argv[8],
               at->x, at->y, p, (gint64)cycle, down ? "" : "other than", fault,
               share ? "; " : "", share ? share : "");
        return 1;
    }
    /* The hover text over it, drawn too (and run under the sanitizers). */
    ViewState s = { .cycle = cycle, .window = atoll(argv[6]), .kind = kind,
                    .mouse_x = at->x, .mouse_y = at->y };
    render_frame(r, &s);
    printf("ok %s: node %u link %s at (%d,%d) %06x (%s%s%s)\n", argv[2], node,
           argv[8], at->x, at->y, p, down ? "down" : "up", share ? ": " : "",
           share ? share : "");
    return 0;
}

/* ---- legibility ----------------------------------------------------------- */

/* A text pixel over a node is the node's colour mixed with the text's (the
 * font's antialiasing): each channel within this of the mix at its
 * share. */
#define LEGIBLE_BLEND_SLACK 2
/* The drawing fills its limiting side of the panel to this share at
 * least (nothing but a few pixels' margin beside it). */
#define LEGIBLE_FILL_LIMITING 0.95

typedef struct {
    int failures;
    GString *first;               /* the first few problems */
} Findings;

/* The timeline's check holds a number per tick of the run. */
#define LEGIBLE_MAX_TICKS 100000000
/* Problems past this many are counted, not described. */
#define LEGIBLE_REPORTED 6

static void finding(Findings *f, const char *format, ...) G_GNUC_PRINTF(2, 3);
static void finding(Findings *f, const char *format, ...)
{
    if (f->failures++ < LEGIBLE_REPORTED) {
        va_list ap;
        va_start(ap, format);
        g_string_append(f->first, f->first->len ? "; " : "");
        g_string_append_vprintf(f->first, format, ap);
        va_end(ap);
    }
}

static gboolean in_rect(const SDL_Rect *r, int x, int y)
{
    return x >= r->x && y >= r->y && x < r->x + r->w && y < r->y + r->h;
}

/* Is c the node's colour with some share of the text's over it? */
static gboolean text_over_node(Color c, Color node, Color text, double *share)
{
    int dr = (int)((text >> 16) & 0xff) - (int)((node >> 16) & 0xff);
    double t = dr ? (((int)((c >> 16) & 0xff) - (int)((node >> 16) & 0xff)) / (double)dr)
                  : 0;
    t = CLAMP(t, 0.0, 1.0);
    Color want = draw_mix(node, text, t);
    for (int shift = 0; shift <= 16; shift += 8)
        if (abs((int)((c >> shift) & 0xff) - (int)((want >> shift) & 0xff))
            > LEGIBLE_BLEND_SLACK)
            return FALSE;
    *share = t;
    return TRUE;
}

/* The graph: nothing outside the panel or on its border (so nothing was
 * cut there); the drawing filling its limiting side and at least
 * `fill` of the other; every node's circle apart from the others, holding
 * nothing but its fill and its label, the label's whole ink inside it. */
static void legible_graph(Render *r, const Trace *t, SDL_Surface *png,
                          double fill, const char *labels, Findings *f)
{
    RenderRegions g;
    render_regions(r, &g);
    Color bg = render_color(RENDER_COLOR_BACKGROUND);
    Color node = render_color(RENDER_COLOR_NODE), text = render_color(RENDER_COLOR_TEXT);
    SDL_Rect inner = { g.main.x + 1, g.main.y + 1, g.main.w - 2, g.main.h - 2 };
    int x0 = png->w, x1 = -1, y0 = png->h, y1 = -1;
    for (int y = 0; y < png->h; y++)
        for (int x = 0; x < png->w; x++) {
            if (in_rect(&g.header, x, y) || in_rect(&g.side, x, y)
                || in_rect(&g.status, x, y) || in_rect(&g.timeline, x, y))
                continue;
            Color c = surface_pixel(png, x, y);
            if (!in_rect(&inner, x, y)) {
                if (c != bg)
                    finding(f, "(%d,%d) is %06x outside the panel or on its "
                            "border", x, y, c);
            } else if (c != bg) {
                x0 = MIN(x0, x); x1 = MAX(x1, x);
                y0 = MIN(y0, y); y1 = MAX(y1, y);
            }
        }
    double fx = (x1 - x0 + 1.0) / g.main.w, fy = (y1 - y0 + 1.0) / g.main.h;
    if (MAX(fx, fy) < LEGIBLE_FILL_LIMITING || MIN(fx, fy) < fill)
        finding(f, "the drawing fills %.0f%% x %.0f%% of the %dx%d panel "
                "(want %.0f%% of one side, %.0f%% of the other)", 100 * fx,
                100 * fy, g.main.w, g.main.h, 100 * LEGIBLE_FILL_LIMITING,
                100 * fill);
    uint32_t nodes = trace_nodes(t);
    for (uint32_t v = 0; v < nodes; v++) {
        double cx, cy, rad, ring;
        SDL_Rect box;
        if (!render_node(r, v, &cx, &cy, &rad, &ring, &box))
            return;
        for (uint32_t u = v + 1; u < nodes; u++) {
            double ux, uy, ur, uring;
            SDL_Rect ub;
            render_node(r, u, &ux, &uy, &ur, &uring, &ub);
            if (hypot(ux - cx, uy - cy) < rad + ur + 1)
                finding(f, "the circles of nodes %u and %u overlap", v, u);
        }
        char name[64];
        render_node_label(r, v, name, sizeof name);
        if (!strcmp(labels, "yes") && box.w == 0)
            finding(f, "node %u (%s) has no label", v, name);
        if (!strcmp(labels, "no") && box.w != 0)
            finding(f, "node %u (%s) has a label", v, name);
        /* Inside the ring (a pixel is drawn when its centre is in the
         * disc): only the fill and the label. */
        double in = rad - ring - 1;
        double strongest = 0;
        for (int y = (int)floor(cy - in); y <= (int)ceil(cy + in); y++)
            for (int x = (int)floor(cx - in); x <= (int)ceil(cx + in); x++) {
                if (hypot(x + 0.5 - cx, y + 0.5 - cy) > in || x < 0 || y < 0
                    || x >= png->w || y >= png->h)
                    continue;
                Color c = surface_pixel(png, x, y);
                double share;
                if (!text_over_node(c, node, text, &share))
                    finding(f, "node %u (%s): (%d,%d) inside its circle is "
                            "%06x, neither its fill nor its label", v, name, x,
                            y, c);
                else if (in_rect(&box, x, y))
                    strongest = MAX(strongest, share);
                else if (share > 0)
                    finding(f, "node %u (%s): text at (%d,%d) outside its "
                            "label", v, name, x, y);
            }
        if (!box.w)
            continue;
        /* The label's whole ink: as large as the font draws it, every
         * corner inside the ring, and drawn. */
        SDL_Rect ink;
        draw_text_ink(render_canvas(r), FONT_SMALL, name, &ink);
        if (ink.w != box.w || ink.h != box.h)
            finding(f, "node %u (%s): label %dx%d, its ink is %dx%d", v, name,
                    box.w, box.h, ink.w, ink.h);
        for (int k = 0; k < 4; k++) {
            double kx = box.x + (k & 1 ? box.w : 0), ky = box.y + (k & 2 ? box.h : 0);
            if (hypot(kx - cx, ky - cy) > rad - ring)
                finding(f, "node %u (%s): its label reaches (%.0f,%.0f), "
                        "outside its circle (radius %.1f at (%.1f,%.1f))", v,
                        name, kx, ky, rad, cx, cy);
        }
        if (strongest < 0.5)
            finding(f, "node %u (%s): no label drawn in its box", v, name);
    }
}

/* The timeline: over every run of ticks at the same utilisation, the
 * plot columns wholly inside it stand equally tall (a flat series draws
 * flat, without teeth), and a higher load never stands lower; no two
 * labelled phases in a row say the same. */
static void legible_timeline(Render *r, const Trace *t, SDL_Surface *png,
                             Findings *f)
{
    RenderRegions g;
    render_regions(r, &g);
    const SDL_Rect *p = &g.plot;
    Tick cycles = t->cycles;
    if (cycles > LEGIBLE_MAX_TICKS) {
        finding(f, "timeline: %" G_GINT64_FORMAT " cycles, more than this "
                "check measures tick by tick", (gint64)cycles);
        return;
    }
    double channels = (double)topology_links_channels(&t->topology, 0,
                                                      t->topology.links);
    /* Busy channels per tick: +1 where a record starts, -1 where it ends. */
    g_autofree double *u = g_new0(double, cycles + 1);
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        u[b->start] += 1;
        u[MIN(trace_busy_end(t, b), cycles)] -= 1;
    }
    for (Tick k = 1; k <= cycles; k++)
        u[k] += u[k - 1];
    for (Tick k = 0; k < cycles; k++)
        u[k] /= channels;
    Color accent = render_color(RENDER_COLOR_ACCENT);
    Color grid = render_color(RENDER_COLOR_GRID), hover = render_color(RENDER_COLOR_HOVER);
    g_autofree int *height = g_new(int, p->w);
    for (int x = 0; x < p->w; x++) {
        height[x] = 0;
        for (int y = p->y; y < p->y + p->h; y++) {
            Color c = surface_pixel(png, p->x + x, y);
            if (c == grid || c == hover)
                height[x] = -1;   /* a phase's tick or the cursor */
            if (height[x] >= 0 && c == accent)
                height[x]++;
        }
    }
    /* Per column wholly inside a run of ticks at one load: that load. */
    g_autofree double *load = g_new(double, p->w);
    for (int x = 0; x < p->w; x++)
        load[x] = -1;
    for (Tick a = 0; a < cycles;) {
        Tick b = a + 1;
        while (b < cycles && u[b] == u[a])
            b++;
        /* Columns [x * cycles / w, (x + 1) * cycles / w) inside [a, b). */
        int want = -1, want_x = -1;
        for (int x = 0; x < p->w; x++) {
            double lo = (double)x * cycles / p->w, hi = (double)(x + 1) * cycles / p->w;
            if (floor(lo) < a || ceil(hi) > b || height[x] < 0)
                continue;
            load[x] = u[a];
            if (want < 0) {
                want = height[x];
                want_x = x;
            } else if (height[x] != want) {
                finding(f, "timeline: ticks %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT
                        " are all %.4f busy, but column %d stands %d px, column "
                        "%d %d px", (gint64)a, (gint64)b - 1, u[a], want_x, want,
                        x, height[x]);
                break;
            }
        }
        a = b;
    }
    /* A higher load never stands lower. */
    for (int x = 0; x < p->w; x++)
        for (int y = 0; load[x] >= 0 && y < p->w; y++)
            if (load[y] > load[x] && height[y] < height[x]) {
                finding(f, "timeline: column %d (%.4f busy) stands %d px, "
                        "column %d (%.4f) %d px", x, load[x], height[x], y,
                        load[y], height[y]);
                x = p->w;
                break;
            }
    const char *previous = NULL;
    for (guint i = 0; i < render_timeline_phases(r); i++) {
        Tick time;
        const char *label;
        gboolean labelled;
        render_timeline_phase(r, i, &time, &label, &labelled);
        if (!labelled)
            continue;
        if (previous && !strcmp(previous, label))
            finding(f, "timeline: \"%s\" twice in a row (at %" G_GINT64_FORMAT ")",
                    label, (gint64)time);
        previous = label;
    }
}

/* legible TRACE PNG VIEW WxH CYCLE WINDOW [fill=F] [labels=yes|no|any] */
static int legible(int argc, char **argv)
{
    int w, h;
    if (!parse_size(argv[4], &w, &h))
        return usage();
    ViewKind kind = !strcmp(argv[3], "graph") ? VIEW_GRAPH : VIEW_MATRIX;
    Tick cycle = atoll(argv[5]), window = atoll(argv[6]);
    double fill = 0;
    const char *labels = "any";
    for (int i = 7; i < argc; i++) {
        if (g_str_has_prefix(argv[i], "fill="))
            fill = g_ascii_strtod(argv[i] + 5, NULL);
        else if (g_str_has_prefix(argv[i], "labels="))
            labels = argv[i] + 7;
        else
            return usage();
    }
    GError *e = NULL;
    g_autoptr(Trace) t = trace_load(argv[1], &e);
    g_autoptr(Render) r = t ? render_new(t, w, h, &e) : NULL;
    if (!r) {
        printf("FAIL %s\n", e->message);
        g_error_free(e);
        return 1;
    }
    ViewState s = { .cycle = cycle, .window = window, .kind = kind,
                    .mouse_x = -1, .mouse_y = -1 };
    render_frame(r, &s);
    SDL_Surface *png = load_png(argv[2], w, h);
    if (!png)
        return 1;
    Findings f = { 0, g_string_new(NULL) };
    if (kind == VIEW_GRAPH)
        legible_graph(r, t, png, fill, labels, &f);
    legible_timeline(r, t, png, &f);
    SDL_FreeSurface(png);
    int rc = f.failures ? 1 : 0;
    if (f.failures)
        printf("FAIL %s: %d problem(s): %s%s\n", argv[2], f.failures, f.first->str,
               f.failures > LEGIBLE_REPORTED ? "; ..." : "");
    else
        printf("ok %s: legible\n", argv[2]);
    g_string_free(f.first, TRUE);
    return rc;
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

/* The timeline's phases, a line each ("TIME LABEL", with " (unlabelled)"
 * where the label does not fit), then the header's phase at each cycle
 * given ("at CYCLE: TEXT"). */
static int phases(int argc, char **argv)
{
    int w, h;
    if (!parse_size(argv[2], &w, &h))
        return usage();
    GError *e = NULL;
    g_autoptr(Trace) t = trace_load(argv[1], &e);
    g_autoptr(Render) r = t ? render_new(t, w, h, &e) : NULL;
    if (!r) {
        printf("FAIL %s\n", e->message);
        g_error_free(e);
        return 1;
    }
    for (guint i = 0; i < render_timeline_phases(r); i++) {
        Tick time;
        const char *label;
        gboolean labelled;
        render_timeline_phase(r, i, &time, &label, &labelled);
        printf("%" G_GINT64_FORMAT " %s%s\n", (gint64)time, label,
               labelled ? "" : " (unlabelled)");
    }
    for (int i = 3; i < argc; i++) {
        g_autofree char *text = render_phase_text(r, atoll(argv[i]));
        printf("at %s: %s\n", argv[i], text);
    }
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
    else if (!strcmp(cmd, "fault") && argc == 11)
        rc = fault_check(argv + 1);
    else if (!strcmp(cmd, "gif") && argc == 5)
        rc = gif_check(argv + 1);
    else if (!strcmp(cmd, "png-size") && argc == 4)
        rc = png_size(argv + 1);
    else if (!strcmp(cmd, "legible") && argc >= 8)
        rc = legible(argc - 1, argv + 1);
    else if (!strcmp(cmd, "phases") && argc >= 4)
        rc = phases(argc - 1, argv + 1);
    else if (!strcmp(cmd, "record") && argc >= 4)
        rc = record(argc - 1, argv + 1);
    else
        rc = usage();
    draw_stop();
    return rc;
}
