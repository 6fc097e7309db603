/* render.h -- one frame of the channel-utilisation animation, drawn on a
 * software canvas: header, graph or matrix view, per-dimension bars, the
 * timeline with its cursor and a status line.
 *
 * The renderer knows no algorithm, and the machine only through the
 * trace's topology (machines/topology.h): the graph view draws a cube by
 * the classic drawing of its address bits, a 2-d mesh as a grid (a
 * torus's wrap-around as stubs at the border), a 3-d mesh as grids side by
 * side (the third axis as stubs towards the next layer), a complete graph
 * as a circle of nodes with chords; larger machines fall back to the
 * matrix view, a row per node and a column per link, which works for all.
 * The window of a frame is the `window` cycles ending with `cycle`: a
 * channel's colour is the share of those cycles it was busy.
 *
 * Faults (a 2.2 trace of a machine with faults): a channel down at the
 * window's last cycle is drawn in the fault colour over everything else,
 * in both views, and only while it is down; a dead node's circle (graph)
 * or row (matrix) likewise. A busy channel whose element at that cycle
 * belongs to a message that went around a fault has a thin line of the
 * detour colour along it, so the way around a dead link shows. The hover
 * names both, and the side panel gives the legend.
 */
#ifndef CUBE_RENDER_H
#define CUBE_RENDER_H

#include "draw.h"
#include "trace.h"

typedef enum { VIEW_GRAPH, VIEW_MATRIX } ViewKind;

typedef struct {
    Tick cycle;               /* the last cycle of the window */
    Tick window;              /* cycles in the window, >= 1 */
    ViewKind kind;
    gboolean playing;
    double speed;                 /* cycles per second, for the header */
    int mouse_x, mouse_y;         /* -1 when outside the window */
    const char *notice;           /* a passing message, or NULL */
} ViewState;

/* Smallest canvas the layout fits in. */
#define RENDER_MIN_WIDTH 640
#define RENDER_MIN_HEIGHT 420

typedef struct Render Render;

/* The trace must outlive the renderer. */
Render *render_new(const Trace *t, int width, int height, GError **error);
void render_free(Render *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Render, render_free)
gboolean render_resize(Render *r, int width, int height, GError **error);
Canvas *render_canvas(Render *r);
void render_frame(Render *r, const ViewState *s);

/* Can this trace be drawn as a graph? If not, *why says why. */
gboolean render_graph_available(const Render *r, const char **why);
/* A pixel at the middle of the drawing of the channel leaving node on
 * link (its first stroke, for one drawn as two stubs) in the given view;
 * FALSE if the view does not show it or the node has no such link. */
gboolean render_channel_point(Render *r, ViewKind kind, uint32_t node,
                              uint32_t link, int *x, int *y);
/* The header's account of the phases at `cycle`: "phase: step 2 (all
 * nodes)", or how many nodes are in each ("nodes in each phase: step 1
 * (40), step 2 (118), step 3 (98) of 256"), or "phase: -" before any
 * mark. Free with g_free. */
char *render_phase_text(Render *r, Tick cycle);
/* The timeline's ticks: where its phase changes. The previous (direction
 * < 0) or next such tick from `cycle`, else the run's first or last
 * cycle. */
Tick render_phase_step(const Render *r, Tick cycle, int direction);
/* The timeline's phase i (i < the count returned): from *time the run
 * is in *label (the phase whose nodes' channels are busiest, render.c's
 * timeline_marks); *labelled: its label is drawn (it fits before the
 * next one). */
guint render_timeline_phases(const Render *r);
void render_timeline_phase(const Render *r, guint i, Tick *time,
                           const char **label, gboolean *labelled);
/* The cycle under a point of the timeline, FALSE if (x, y) is not on it. */
gboolean render_timeline_cycle(Render *r, int x, int y, Tick *cycle);
/* The last cycle the cursor can reach. */
Tick render_last_cycle(const Trace *t);
/* The window when none is given: one fortieth of the run, at least one
 * element-time. */
Tick render_default_window(const Trace *t);

/* ---- the layout, for the tests ---- */

typedef struct {
    SDL_Rect header, main, side, status, timeline;
    SDL_Rect plot;                /* the timeline's histogram */
} RenderRegions;
void render_regions(const Render *r, RenderRegions *out);
/* Node v in the graph view: its centre, its circle's radius and ring's
 * width, and its label's ink on the canvas (w = 0 when the graph has no
 * labels at this size). FALSE without a graph view or such a node. */
gboolean render_node(const Render *r, uint32_t node, double *x, double *y,
                     double *radius, double *ring, SDL_Rect *label);
/* The text of node v's label. */
void render_node_label(const Render *r, uint32_t node, char *buf, gsize size);
typedef enum {
    RENDER_COLOR_BACKGROUND, RENDER_COLOR_NODE, RENDER_COLOR_TEXT,
    RENDER_COLOR_ACCENT, RENDER_COLOR_GRID, RENDER_COLOR_HOVER,
    RENDER_COLOR_FAULT, RENDER_COLOR_DETOUR
} RenderColor;
Color render_color(RenderColor which);

/* The colour of a channel busy this share (0..1) of the window. */
Color render_heat(double fraction);
/* Every flat colour the renderer uses, heat scale first (for the GIF
 * palette); returns how many were written, at most max. */
int render_palette(Color *colors, int max);

#endif
