/* render.c -- one frame of the animation (render.h).
 *
 * Invariants: the layout (regions, node pixels, strokes, matrix cells,
 * side bars, timeline histogram) is a function of the trace and the canvas
 * size only, recomputed on resize; a frame is a function of the layout and
 * the ViewState only. So a headless frame at cycle t is the same pixels as
 * the window shows at t, and the tests can locate a channel by asking the
 * layout where it is.
 *
 * Every channel the topology has is drawn, not only those in the trace's
 * table: the graph's strokes and the matrix's cells are enumerated from
 * the topology (machines/topology.h), and a channel missing from the table
 * is one that carried nothing, so it is drawn idle. Per frame, only the
 * trace's channels are measured.
 *
 * Size: beyond the trace's records, what a layout costs is bounded by
 * the canvas (cells, columns, bars), never by the machine's nodes or
 * links: the graph view draws only small machines, and the matrix counts
 * the channels a cell covers by arithmetic on runs of nodes and links
 * where enumerating them would pass MATRIX_COUNT_BUDGET. A header may
 * name 2^26 nodes over a handful of records.
 */
#include "render.h"

#include <math.h>
#include <string.h>

/* ---- limits of the views ------------------------------------------------ */

/* Which machines the graph view draws, and how (node positions, each
 * channel a whole edge or two stubs), is the topology's: its ops' view
 * (machines/topology.h). */
/* Segments per channel curve: enough for the arcs of dimensions 3..5. */
#define CURVE_SEGMENTS 16
#define CURVE_POINTS (CURVE_SEGMENTS + 1)
/* Matrix cells: at least this wide to see a colour, and the layout
 * prefers cells about this many times wider than tall (one node per
 * row, its channels side by side). */
#define MATRIX_MIN_CELL_WIDTH 5
#define MATRIX_CELL_ASPECT 3.0
#define MATRIX_MAX_BLOCKS 16
#define MATRIX_BLOCK_GAP 10
/* Gaps between matrix columns: wider between axes than within one. */
#define MATRIX_AXIS_GAP 3
#define MATRIX_LINK_GAP 1
/* Rows at least this many pixels tall get a one-pixel gap between nodes. */
#define MATRIX_ROW_GAP_FROM 6.0
/* Narrow columns are labelled at round link numbers about this many
 * pixels apart. */
#define MATRIX_LABEL_SPACING 60
/* A matrix cell shows the mean over the channels it covers; counting
 * which (node, link) pairs exist costs nodes x links neighbour calls.
 * Beyond this many, every pair counts as a channel (only the complete
 * graph gets there, and there one pair in P is missing). */
#define MATRIX_COUNT_BUDGET (1 << 24)
/* Side bars: rows between these heights; more links than fit with a
 * legible label each (a font height and SIDE_LABEL_GAP) are binned. */
#define SIDE_MIN_ROW 9
#define SIDE_MAX_ROW 30
#define SIDE_LABEL_GAP 3
/* A phase's label starts this far right of its tick, and the next one
 * this far after it. */
#define PHASE_LABEL_INDENT 2
#define PHASE_LABEL_GAP 8
/* The timeline's phases measure every channel (and count every label) at
 * every distinct mark time, up to this many steps in all (timeline_marks):
 * a second or so. */
#define TIMELINE_PHASE_BUDGET 10000000.0
/* The timeline's full height stands for at least this utilisation. */
#define TIMELINE_MIN_TOP 0.01
/* Window divisions for the default window. */
#define RENDER_WINDOW_DIVISIONS 40

/* ---- fixed layout sizes, in pixels ------------------------------------- */

/* The graph: nothing comes nearer the panel's sides than GRAPH_EDGE, so
 * nothing is cut there; a drawing is never scaled below GRAPH_MIN_SCALE
 * pixels per unit. */
#define GRAPH_EDGE 3.0
#define GRAPH_MIN_SCALE 1.0
/* Nodes: a ring NODE_RING wide around a disc; without a label, about
 * NODE_RADIUS_SHARE of the distance between neighbours, within
 * [NODE_MIN_RADIUS, NODE_MAX_RADIUS]; with one, large enough that the
 * label's ink keeps NODE_LABEL_PAD from the ring. Two circles stay
 * NODE_MIN_APART apart, room for a channel's arrowhead between them, and
 * a stub shows STUB_MIN_VISIBLE beyond its node's circle; where labels
 * would need larger circles, the nodes go without (the hover names them). */
#define NODE_RING 1.5
#define NODE_LABEL_PAD 2.0
#define NODE_RADIUS_SHARE 0.15
#define NODE_MIN_RADIUS 4.0
#define NODE_MAX_RADIUS 20.0
#define NODE_MIN_APART 16.0
#define STUB_MIN_VISIBLE 8.0
/* A node's label: its address in binary for up to 6 dimensions, "w.i",
 * or a decimal number. */
#define NODE_NAME_MAX 40
/* Busy channels are drawn this much wider, their arrowheads this much
 * larger; an arrowhead's base is this share of its length either side. */
#define BUSY_EXTRA_WIDTH 1.5
#define BUSY_ARROW 1.25
#define ARROW_BASE 0.6
/* Captions (a 3-d mesh's "z = 1") stand this far below what is above. */
#define CAPTION_GAP 4
/* Halvings that place a line's end on a circle to well under a pixel. */
#define BEZIER_BISECTIONS 30

#define HEADER_HEIGHT 56
#define SIDE_WIDTH 250
#define STATUS_HEIGHT 22
#define TIMELINE_HEIGHT 92
#define MARGIN 12
/* Room around the graph for the outer nodes and their labels. */
#define GRAPH_PAD 34

/* The side panel's fault legend: its lines, with a trace of faults. */
#define FAULT_LEGEND_LINES 2
/* A dead channel is drawn this much wider than an idle one. */
#define FAULT_EXTRA_WIDTH 1.0

/* ---- colours ----------------------------------------------------------- */

#define C_BACKGROUND 0x14161bu
#define C_PANEL 0x1d2027u
#define C_GRID 0x343a46u
#define C_TEXT 0xe6e8ecu
#define C_TEXT_DIM 0x9aa1adu
#define C_ACCENT 0x5ab0ffu
#define C_NODE 0x2b3040u
#define C_NODE_RING 0xc9ced8u
#define C_HOVER 0xffffffu
#define C_WINDOW 0x2a3a52u
/* Faults: a red no heat colour comes near, and a cyan for detours that
 * stands apart from both the heat scale and the red. */
#define C_FAULT 0xff2d2du
#define C_DETOUR 0x3ee6e0u

/* The heat scale: idle slate through violet and orange to yellow. */
static const struct { double at; Color color; } heat_stops[] = {
    { 0.00, 0x394150u }, { 0.25, 0x5b3d99u }, { 0.50, 0xb8407au },
    { 0.75, 0xf07b32u }, { 1.00, 0xfce34au },
};

Color render_heat(double f)
{
    if (!(f > 0))
        return heat_stops[0].color;
    if (f >= 1)
        return heat_stops[G_N_ELEMENTS(heat_stops) - 1].color;
    guint i = 1;
    while (heat_stops[i].at < f)
        i++;
    double t = (f - heat_stops[i - 1].at) / (heat_stops[i].at - heat_stops[i - 1].at);
    return draw_mix(heat_stops[i - 1].color, heat_stops[i].color, t);
}

/* Heat samples in the GIF palette. */
#define PALETTE_HEAT_STEPS 32

int render_palette(Color *colors, int max)
{
    static const Color flat[] = { C_BACKGROUND, C_PANEL, C_GRID, C_TEXT,
                                  C_TEXT_DIM, C_ACCENT, C_NODE, C_NODE_RING,
                                  C_HOVER, C_WINDOW, C_FAULT, C_DETOUR };
    int n = 0;
    for (int i = 0; i < PALETTE_HEAT_STEPS && n < max; i++)
        colors[n++] = render_heat((double)i / (PALETTE_HEAT_STEPS - 1));
    for (guint i = 0; i < G_N_ELEMENTS(flat) && n < max; i++)
        colors[n++] = flat[i];
    return n;
}

/* ---- state ------------------------------------------------------------- */

/* How a stroke draws its channel: the whole edge between the two nodes,
 * or a stub leaving the source / entering the destination (a channel
 * drawn as two stubs has one stroke for each). */
typedef enum { STROKE_WHOLE, STROKE_LEAVING, STROKE_ENTERING } StrokeKind;

typedef struct {
    uint32_t source, dest, link;
    int64_t channel;              /* index into the trace's channels, or -1 */
    StrokeKind kind;
    double bulge;                 /* whole: arc height / chord */
    double dx, dy;                /* stubs: the abstract direction of travel */
} Stroke;

/* A phase on the timeline: from `time` the run is in `label` (a trace
 * label; timeline_marks says which); its tick at x, its label `width`
 * wide, drawn if it fits. */
typedef struct {
    Tick time;
    const char *label;
    int x, width;
    gboolean labelled;
} TimelinePhase;

/* One half of a side-bar row: the channels of links [link0, link1)
 * going `direction` (0: either way). */
typedef struct {
    uint32_t link0, link1;
    int direction;
    double channels;              /* how many there are */
    double sum;                   /* per frame: their busy shares */
} BarHalf;

typedef struct {
    char label[TOPOLOGY_LINK_NAME_MAX * 2];
    guint first, halves;          /* into bar_halves */
} BarRow;

struct Render {
    const Trace *trace;
    const Topology *topology;
    TraceIndex *index;
    Canvas canvas;
    int width, height;
    SDL_Rect header, main, side, status, timeline;
    char *title;
    const TopologyView *view;     /* how the topology is drawn */
    uint64_t total_channels;      /* in the topology */

    /* graph */
    gboolean graph_ok;
    const char *graph_why;
    double *ax, *ay;              /* abstract node positions */
    GArray *strokes;              /* Stroke, source-major, link order */
    double *nx, *ny;              /* pixel node positions */
    double sx, sy, ox, oy;        /* pixel = o + abstract position x s */
    double node_r, channel_gap, line_width, arrow;
    double stub_below;            /* how far a stub reaches below its node */
    SDL_Rect *label_ink;          /* per node: its label's ink, relative
                                   * to where draw_text puts the text */
    int *label_x, *label_y;       /* per node: where its label is drawn */
    double label_r;               /* the radius the widest label needs */
    gboolean labels_shown;        /* they fit at this size */
    gboolean has_captions;
    double *curve;                /* per stroke CURVE_POINTS (x, y) */
    gboolean node_labels;         /* the view's node_label names nodes */

    /* matrix */
    guint columns;                /* per link, or bins of links */
    uint32_t *column_link;        /* columns + 1: column k is links
                                   * [column_link[k], column_link[k+1]) */
    guint blocks, rows;           /* rows = nodes per block */
    guint row_bins;               /* per block: rows, or pixel rows */
    gboolean tall;                /* a row bin per node */
    int block_x0, block_w, matrix_y0, matrix_h;
    int *col_x, *col_w;           /* per column, relative to a block */
    double *cell_channels;        /* per cell: channels it covers */
    double *cell_sum;             /* per cell, per frame */
    uint32_t *cell_of_channel;    /* per trace channel */

    /* side bars */
    GArray *bar_rows;             /* BarRow */
    GArray *bar_halves;           /* BarHalf */
    uint32_t *bar_of_channel;     /* per trace channel: its half */
    int bar_row_h, bar_label_w;
    const char *bar_legend;

    /* timeline */
    SDL_Rect plot;                /* the histogram inside the timeline */
    double *histogram;            /* per plot column: utilisation */
    double plot_top;              /* the utilisation at the plot's top */
    char plot_top_text[48];
    TimelinePhase *phases;        /* where the timeline's phase changes */
    guint phase_count;
    TracePhaseCount *phase_nodes; /* nodes per phase, for the header */

    /* per frame */
    double *util;                 /* per trace channel, in the window */
};

Tick render_last_cycle(const Trace *t)
{
    return t->cycles > 0 ? t->cycles - 1 : 0;
}

Tick render_default_window(const Trace *t)
{
    Tick w = (t->cycles + RENDER_WINDOW_DIVISIONS - 1) / RENDER_WINDOW_DIVISIONS;
    return MAX(w, trace_min_element_time(t));
}

static double stroke_util(const Render *r, const Stroke *s)
{
    return s->channel >= 0 ? r->util[s->channel] : 0.0;
}

/* ---- node placement ---------------------------------------------------- */

/* The view's label of a node, else its address in decimal. */
static void node_name(const Render *r, uint32_t v, char *buf, gsize size)
{
    if (r->node_labels)
        r->view->node_label(r->topology, v, buf, size);
    else
        g_snprintf(buf, size, "%u", v);
}

static void caption_count(void *ctx, uint32_t node, const char *text)
{
    (void)node;
    (void)text;
    *(gboolean *)ctx = TRUE;
}

static void add_stroke(Render *r, uint32_t v, uint32_t link, uint32_t u,
                       StrokeKind kind, double bulge, double dx, double dy)
{
    Stroke s = { v, u, link, trace_index_find(r->index, v, link), kind,
                 bulge, dx, dy };
    g_array_append_val(r->strokes, s);
}

/* Nodes where the topology's view places them; a stroke for every channel
 * (source-major, link order): the whole edge, or a stub out of the source
 * and one into the destination. Each label's ink is measured once: the
 * font does not change with the canvas. */
static void graph_place(Render *r)
{
    const Topology *tp = r->topology;
    r->graph_why = r->view->graph_refusal(tp);
    if (r->graph_why)
        return;
    r->graph_ok = TRUE;
    r->ax = g_new0(double, tp->nodes);
    r->ay = g_new0(double, tp->nodes);
    r->nx = g_new0(double, tp->nodes);
    r->ny = g_new0(double, tp->nodes);
    r->label_ink = g_new0(SDL_Rect, tp->nodes);
    r->label_x = g_new0(int, tp->nodes);
    r->label_y = g_new0(int, tp->nodes);
    r->strokes = g_array_new(FALSE, FALSE, sizeof(Stroke));
    for (uint32_t v = 0; v < tp->nodes; v++)
        r->view->place(tp, v, &r->ax[v], &r->ay[v]);
    for (uint32_t v = 0; v < tp->nodes; v++)
        for (int l = 0; l < tp->links; l++) {
            uint32_t u = topology_neighbour(tp, v, l);
            if (u == TOPOLOGY_NONE)
                continue;
            TopologyStroke ts;
            r->view->stroke(tp, v, l, &ts);
            if (!ts.stubs) {
                add_stroke(r, v, (uint32_t)l, u, STROKE_WHOLE, ts.bulge, 0, 0);
                continue;
            }
            add_stroke(r, v, (uint32_t)l, u, STROKE_LEAVING, 0, ts.dx, ts.dy);
            add_stroke(r, v, (uint32_t)l, u, STROKE_ENTERING, 0, ts.dx, ts.dy);
        }
    r->curve = g_new0(double, (gsize)(r->strokes->len + 1) * CURVE_POINTS * 2);
    r->node_labels = r->view->node_label != NULL;
    /* The circle a label needs: its ink's corners inside the ring. */
    char name[NODE_NAME_MAX];
    for (uint32_t v = 0; v < tp->nodes; v++) {
        node_name(r, v, name, sizeof name);
        draw_text_ink(&r->canvas, FONT_SMALL, name, &r->label_ink[v]);
        const SDL_Rect *k = &r->label_ink[v];
        r->label_r = MAX(r->label_r, hypot(k->w / 2.0 + NODE_LABEL_PAD,
                                           k->h / 2.0 + NODE_LABEL_PAD)
                                     + NODE_RING);
    }
    if (r->view->captions)
        r->view->captions(tp, caption_count, &r->has_captions);
}

/* A stroke's ends and the control point of its quadratic arc, in the
 * drawing's units (an arc bulges `bulge` x its chord to the left of the
 * lower address's way to the higher); a stub is straight. *forward: the
 * channel runs from a to b (the downward channel of an edge shares the
 * upward one's arc, reversed). */
static void stroke_abstract(const Render *r, const Stroke *s, double *a,
                            double *m, double *b, gboolean *forward)
{
    *forward = TRUE;
    if (s->kind == STROKE_WHOLE) {
        *forward = s->source < s->dest;
        uint32_t lo = *forward ? s->source : s->dest;
        uint32_t hi = *forward ? s->dest : s->source;
        a[0] = r->ax[lo], a[1] = r->ay[lo], b[0] = r->ax[hi], b[1] = r->ay[hi];
    } else if (s->kind == STROKE_LEAVING) {
        a[0] = r->ax[s->source], a[1] = r->ay[s->source];
        b[0] = a[0] + s->dx, b[1] = a[1] + s->dy;
    } else {
        b[0] = r->ax[s->dest], b[1] = r->ay[s->dest];
        a[0] = b[0] - s->dx, a[1] = b[1] - s->dy;
    }
    m[0] = (a[0] + b[0]) / 2 + (b[1] - a[1]) * s->bulge * 2;
    m[1] = (a[1] + b[1]) / 2 - (b[0] - a[0]) * s->bulge * 2;
}

static void bezier(const double *a, const double *m, const double *b,
                   double f, double *out)
{
    for (int i = 0; i < 2; i++)
        out[i] = (1 - f) * (1 - f) * a[i] + 2 * f * (1 - f) * m[i] + f * f * b[i];
}

/* The parameter in [lo, hi] where the arc, leaving `from` (at lo's end
 * when `rising`), gets `radius` away from it: bisection, the distance
 * growing along the arc near its end. */
static double bezier_leave(const double *a, const double *m, const double *b,
                           const double *from, double radius, double lo,
                           double hi, gboolean rising)
{
    for (int i = 0; i < BEZIER_BISECTIONS; i++) {
        double mid = (lo + hi) / 2, p[2];
        bezier(a, m, b, mid, p);
        gboolean outside = hypot(p[0] - from[0], p[1] - from[1]) >= radius;
        if (outside == rising)
            hi = mid;
        else
            lo = mid;
    }
    return (lo + hi) / 2;
}

static void to_pixels(const Render *r, const double *in, double *out)
{
    out[0] = r->ox + in[0] * r->sx;
    out[1] = r->oy + in[1] * r->sy;
}

/* A stroke's centre line in pixels, in travel order, between the circles
 * of its nodes (a line stops where a circle begins, so nothing crosses a
 * node or its label, and the arrowhead sits on what shows). */
static void stroke_centre(const Render *r, const Stroke *s,
                          double pts[CURVE_POINTS][2], gboolean *forward)
{
    double qa[2], qm[2], qb[2], a[2], m[2], b[2];
    stroke_abstract(r, s, qa, qm, qb, forward);
    to_pixels(r, qa, a);
    to_pixels(r, qm, m);
    to_pixels(r, qb, b);
    /* Tucked under the ring, so the line meets the circle. */
    double trim = MAX(r->node_r - NODE_RING, 0.0);
    double f0 = 0, f1 = 1;
    gboolean node_a = s->kind != STROKE_ENTERING, node_b = s->kind != STROKE_LEAVING;
    if (node_a)
        f0 = bezier_leave(a, m, b, a, trim, 0, node_b ? 0.5 : 1, TRUE);
    if (node_b)
        f1 = bezier_leave(a, m, b, b, trim, node_a ? 0.5 : f0, 1, FALSE);
    for (int k = 0; k < CURVE_POINTS; k++)
        bezier(a, m, b, f0 + (f1 - f0) * k / CURVE_SEGMENTS, pts[k]);
}

/* The smallest distance between two nodes, in pixels. */
static double graph_min_distance(const Render *r, double sx, double sy)
{
    double best = G_MAXDOUBLE;
    for (uint32_t v = 0; v < r->topology->nodes; v++)
        for (uint32_t u = v + 1; u < r->topology->nodes; u++)
            best = MIN(best, hypot((r->ax[u] - r->ax[v]) * sx,
                                   (r->ay[u] - r->ay[v]) * sy));
    return best;
}

/* The scales that fit the drawing's extent (bw x bh units), kept `pad`
 * pixels from the panel's sides (and `below` more from its bottom), each
 * axis at most the view's stretch times the other. */
static void graph_scales(const Render *r, double bw, double bh, double pad,
                         double below, double *sx, double *sy)
{
    double stretch = MAX(r->view->stretch, 1.0);
    *sx = MAX((r->main.w - 2 * pad) / bw, GRAPH_MIN_SCALE);
    *sy = MAX((r->main.h - 2 * pad - below) / bh, GRAPH_MIN_SCALE);
    *sx = MIN(*sx, *sy * stretch);
    *sy = MIN(*sy, *sx * stretch);
}

/* Fit the drawing into the main region: as large as the panel allows
 * (stretched within the view's limit), every node's circle big enough for
 * its label where the nodes stand far enough apart for that (else no
 * labels: the hover names a node), and each stroke's polyline: its centre
 * line offset to the right of the direction of travel, so the two
 * channels of an edge run side by side. */
static void graph_layout(Render *r)
{
    if (!r->graph_ok)
        return;
    const Topology *tp = r->topology;
    double x0 = G_MAXDOUBLE, x1 = -G_MAXDOUBLE, y0 = G_MAXDOUBLE, y1 = -G_MAXDOUBLE;
    for (uint32_t v = 0; v < tp->nodes; v++) {
        x0 = MIN(x0, r->ax[v]); x1 = MAX(x1, r->ax[v]);
        y0 = MIN(y0, r->ay[v]); y1 = MAX(y1, r->ay[v]);
    }
    /* Arcs bulge, and stubs reach, beyond the nodes. */
    double stub_down = 0;
    for (guint i = 0; i < r->strokes->len; i++) {
        const Stroke *s = &g_array_index(r->strokes, Stroke, i);
        double a[2], m[2], b[2], p[2];
        gboolean forward;
        stroke_abstract(r, s, a, m, b, &forward);
        for (int k = 0; k <= CURVE_SEGMENTS; k++) {
            bezier(a, m, b, (double)k / CURVE_SEGMENTS, p);
            x0 = MIN(x0, p[0]); x1 = MAX(x1, p[0]);
            y0 = MIN(y0, p[1]); y1 = MAX(y1, p[1]);
        }
        if (s->kind != STROKE_WHOLE)
            stub_down = MAX(stub_down, fabs(s->dy));
    }
    /* The view's unit, or the nearest pair of nodes, sets the line sizes. */
    double unit = r->view->unit > 0 ? r->view->unit : 1.0;
    if (!(r->view->unit > 0) && r->strokes->len) {
        unit = G_MAXDOUBLE;
        for (guint i = 0; i < r->strokes->len; i++) {
            const Stroke *s = &g_array_index(r->strokes, Stroke, i);
            if (s->kind != STROKE_WHOLE)
                continue;
            double d = hypot(r->ax[s->dest] - r->ax[s->source],
                             r->ay[s->dest] - r->ay[s->source]);
            if (d > 1e-9)
                unit = MIN(unit, d);
        }
        if (unit == G_MAXDOUBLE)
            unit = 1.0;
    }
    double bw = MAX(x1 - x0, unit), bh = MAX(y1 - y0, unit);
    int fh = draw_font_height(&r->canvas, FONT_SMALL);
    double below = r->has_captions ? fh + CAPTION_GAP : 0;
    /* First with room for the largest circle; the circles chosen then
     * are no larger, so the final drawing is no smaller. */
    double sx, sy;
    double widest = MAX(r->node_labels ? r->label_r : 0, NODE_MAX_RADIUS);
    graph_scales(r, bw, bh, widest + GRAPH_EDGE, below, &sx, &sy);
    double apart = tp->nodes > 1 ? graph_min_distance(r, sx, sy) : G_MAXDOUBLE;
    double px = unit * MIN(sx, sy);         /* pixels between neighbours */
    /* A stub must show beyond its node's circle. */
    double stub_min = r->view->stub_length > 0
        ? r->view->stub_length * MIN(sx, sy) - STUB_MIN_VISIBLE : G_MAXDOUBLE;
    double room = MIN((apart - NODE_MIN_APART) / 2, stub_min);
    r->labels_shown = r->label_r <= room;
    double base = CLAMP(NODE_RADIUS_SHARE * px, NODE_MIN_RADIUS, NODE_MAX_RADIUS);
    r->node_r = r->labels_shown ? CLAMP(base, r->label_r, room)
                                : MIN(base, MAX(room, NODE_MIN_RADIUS));
    r->channel_gap = CLAMP(0.05 * px, 2.2, 6.0);
    r->line_width = CLAMP(0.032 * px, 2.0, 3.5);
    r->arrow = CLAMP(r->channel_gap * 1.6, 3.5, 8.0);
    /* Now the pad for the circles and lines as drawn. */
    double line = r->channel_gap + MAX(r->line_width + BUSY_EXTRA_WIDTH,
                                       2 * ARROW_BASE * BUSY_ARROW * r->arrow) / 2;
    graph_scales(r, bw, bh, MAX(r->node_r, line) + GRAPH_EDGE, below, &sx, &sy);
    r->sx = sx;
    r->sy = sy;
    r->stub_below = stub_down * sy + line;
    r->ox = r->main.x + r->main.w / 2.0 - (x0 + x1) / 2 * sx;
    r->oy = r->main.y + (r->main.h - below) / 2.0 - (y0 + y1) / 2 * sy;
    for (uint32_t v = 0; v < tp->nodes; v++) {
        r->nx[v] = r->ox + r->ax[v] * sx;
        r->ny[v] = r->oy + r->ay[v] * sy;
        /* The ink's centre on the node's. */
        const SDL_Rect *k = &r->label_ink[v];
        r->label_x[v] = (int)lround(r->nx[v] - k->x - k->w / 2.0);
        r->label_y[v] = (int)lround(r->ny[v] - k->y - k->h / 2.0);
    }
    for (guint i = 0; i < r->strokes->len; i++) {
        const Stroke *s = &g_array_index(r->strokes, Stroke, i);
        double pts[CURVE_POINTS][2];
        gboolean forward;
        stroke_centre(r, s, pts, &forward);
        double len = hypot(pts[CURVE_SEGMENTS][0] - pts[0][0],
                           pts[CURVE_SEGMENTS][1] - pts[0][1]);
        double *p = &r->curve[(gsize)i * CURVE_POINTS * 2];
        for (int k = 0; k < CURVE_POINTS; k++) {
            int kk = forward ? k : CURVE_SEGMENTS - k;   /* travel order */
            int k0 = MAX(kk - 1, 0), k1 = MIN(kk + 1, CURVE_SEGMENTS);
            double tx = pts[k1][0] - pts[k0][0], ty = pts[k1][1] - pts[k0][1];
            if (!forward) {
                tx = -tx;
                ty = -ty;
            }
            double tl = hypot(tx, ty);
            if (tl < 1e-9 || len < 1e-9)
                tl = 1, tx = 1, ty = 0;
            /* right of travel, with y pointing down: (-ty, tx) */
            p[2 * k] = pts[kk][0] - ty / tl * r->channel_gap;
            p[2 * k + 1] = pts[kk][1] + tx / tl * r->channel_gap;
        }
    }
}

/* ---- matrix layout ----------------------------------------------------- */

/* Columns of one axis stand closer together than columns of two (the
 * topology's view says which links share one). */
static int link_axis(const Render *r, uint32_t link)
{
    return r->view->link_axis(r->topology, (int)link);
}

/* What stands over a column: the link's name ("+x") where the view asks
 * for it, else its number (a cube's dimension, a complete graph's
 * destination). */
static void column_label(const Render *r, guint k, char *buf, gsize size)
{
    uint32_t link = r->column_link[k];
    if (r->view->column_names)
        trace_link_name(r->trace, link, buf, size);
    else
        g_snprintf(buf, size, "%u", link);
}

/* Columns: one per link where they fit at MATRIX_MIN_CELL_WIDTH with
 * their gaps, else the links in equal runs, one run per pixel column or
 * fewer, without gaps. */
static void matrix_columns(Render *r)
{
    uint32_t links = (uint32_t)r->topology->links;
    /* The gaps matter only where every link could have its column. */
    int gaps = 0;
    if ((int64_t)links * MATRIX_MIN_CELL_WIDTH <= r->block_w)
        for (uint32_t l = 0; l + 1 < links; l++)
            gaps += link_axis(r, l) != link_axis(r, l + 1) ? MATRIX_AXIS_GAP
                                                            : MATRIX_LINK_GAP;
    gboolean per_link = (int64_t)links * MATRIX_MIN_CELL_WIDTH + gaps
                        <= r->block_w;
    r->columns = per_link ? links : MIN(links, (uint32_t)MAX(r->block_w, 1));
    guint cols = MAX(r->columns, 1u);
    g_free(r->column_link);
    g_free(r->col_x);
    g_free(r->col_w);
    r->column_link = g_new(uint32_t, cols + 1);
    r->col_x = g_new0(int, cols);
    r->col_w = g_new0(int, cols);
    for (guint k = 0; k <= r->columns; k++)
        r->column_link[k] = (uint32_t)((uint64_t)k * links / MAX(r->columns, 1u));
    if (!per_link) {
        for (guint k = 0; k < r->columns; k++) {
            r->col_x[k] = (int)((int64_t)k * r->block_w / r->columns);
            r->col_w[k] = MAX((int)((int64_t)(k + 1) * r->block_w / r->columns)
                              - r->col_x[k], 1);
        }
        return;
    }
    double cw = MAX((double)(r->block_w - gaps) / cols, 1.0);
    double x = 0;
    for (guint k = 0; k < r->columns; k++) {
        r->col_x[k] = (int)lround(x);
        r->col_w[k] = MAX((int)lround(x + cw) - r->col_x[k], 1);
        x += cw;
        if (k + 1 < r->columns)
            x += link_axis(r, k) != link_axis(r, k + 1) ? MATRIX_AXIS_GAP
                                                        : MATRIX_LINK_GAP;
    }
}

/* The column of link l: the k with column_link[k] <= l < column_link[k+1]
 * (a binary search: the columns are at most the block's pixels). */
static guint column_of_link(const Render *r, uint32_t link)
{
    guint lo = 0, hi = MAX(r->columns, 1u);
    while (hi - lo > 1) {
        guint mid = lo + (hi - lo) / 2;
        if (r->column_link[mid] <= link)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The row bin of row i of a block: the node itself when rows are tall,
 * else the pixel row whose nodes [i0, i1) include it. */
static guint matrix_row_bin_of(const Render *r, guint i)
{
    if (r->tall)
        return i;
    /* The last pixel row py with floor(py * rows / h) <= i. */
    uint64_t py = ((uint64_t)(i + 1) * (uint64_t)r->matrix_h + r->rows - 1)
                  / r->rows - 1;
    return (guint)MIN(py, (uint64_t)r->matrix_h - 1);
}

static guint matrix_row_bin(const Render *r, uint32_t v)
{
    return matrix_row_bin_of(r, v % r->rows);
}

static gsize matrix_cell(const Render *r, uint32_t v, guint column)
{
    return ((gsize)(v / r->rows) * r->row_bins + matrix_row_bin(r, v))
           * r->columns + column;
}

/* Every (node, link) pair counted as a channel, by runs: the rows of a
 * bin are a run of nodes (matrix_row_bin_of never decreases), found by
 * binary search, and a column a run of links. Exact on the cube, where
 * every pair is a channel. */
static void matrix_cells_by_runs(Render *r)
{
    uint32_t nodes = r->topology->nodes;
    for (guint b = 0; b < r->blocks; b++) {
        uint64_t first = (uint64_t)b * r->rows;
        if (first >= nodes)
            break;
        guint in_block = (guint)MIN((uint64_t)r->rows, nodes - first);
        guint i = 0;
        while (i < in_block) {
            guint bin = matrix_row_bin_of(r, i);
            /* The first row of the next bin. */
            guint lo = i + 1, hi = in_block;
            while (lo < hi) {
                guint mid = lo + (hi - lo) / 2;
                if (matrix_row_bin_of(r, mid) == bin)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            double count = lo - i;
            gsize row = ((gsize)b * r->row_bins + bin) * r->columns;
            for (guint k = 0; k < r->columns; k++)
                r->cell_channels[row + k]
                    += count * (r->column_link[k + 1] - r->column_link[k]);
            i = lo;
        }
    }
}

/* How many channels each cell covers, and which cell each of the trace's
 * channels falls in. */
static void matrix_cells(Render *r)
{
    const Topology *tp = r->topology;
    gsize cells = (gsize)r->blocks * r->row_bins * MAX(r->columns, 1u);
    g_free(r->cell_channels);
    g_free(r->cell_sum);
    r->cell_channels = g_new0(double, cells);
    r->cell_sum = g_new0(double, cells);
    if ((uint64_t)tp->nodes * (uint64_t)tp->links <= MATRIX_COUNT_BUDGET) {
        for (uint32_t v = 0; v < tp->nodes; v++)
            for (int l = 0; l < tp->links; l++)
                if (topology_neighbour(tp, v, l) != TOPOLOGY_NONE)
                    r->cell_channels[matrix_cell(r, v, column_of_link(r, (uint32_t)l))]++;
    } else {
        matrix_cells_by_runs(r);
    }
    const GArray *chs = r->trace->channels;
    for (guint c = 0; c < chs->len; c++) {
        const TraceChannel *ch = &g_array_index(chs, TraceChannel, c);
        r->cell_of_channel[c] = (uint32_t)matrix_cell(r, ch->source,
                                                      column_of_link(r, ch->link));
    }
}

/* Nodes run down the rows of up to MATRIX_MAX_BLOCKS blocks side by side;
 * choose the number of blocks that gives the tallest rows while cells
 * stay at least MATRIX_MIN_CELL_WIDTH wide and near MATRIX_CELL_ASPECT. */
static void matrix_layout(Render *r)
{
    uint32_t nodes = r->topology->nodes;
    int header = 2 * draw_font_height(&r->canvas, FONT_SMALL) + 6;
    r->matrix_y0 = r->main.y + header;
    r->matrix_h = MAX(r->main.h - header, 1);
    guint g = MAX((guint)r->topology->links, 1u);
    double best = -1;
    r->blocks = 1;
    for (guint b = 1; b <= MATRIX_MAX_BLOCKS && b <= nodes; b++) {
        double bw = (r->main.w - (double)(b - 1) * MATRIX_BLOCK_GAP) / b;
        double cell_w = bw / g;
        if (cell_w < MATRIX_MIN_CELL_WIDTH && b > 1)
            break;
        guint rows = (nodes + b - 1) / b;
        double cell_h = (double)r->matrix_h / rows;
        double score = MIN(cell_h, cell_w / MATRIX_CELL_ASPECT);
        if (score > best + 1e-9) {
            best = score;
            r->blocks = b;
        }
    }
    r->rows = (nodes + r->blocks - 1) / r->blocks;
    r->block_w = (r->main.w - (int)(r->blocks - 1) * MATRIX_BLOCK_GAP) / (int)r->blocks;
    r->block_x0 = r->main.x;
    r->tall = r->rows <= (guint)r->matrix_h;
    r->row_bins = r->tall ? r->rows : (guint)r->matrix_h;
    matrix_columns(r);
    matrix_cells(r);
}

/* Pixel rows [y0, y1) of node v's row in its block. */
static void matrix_node_rows(const Render *r, uint32_t v, int *x, int *y0, int *y1)
{
    guint b = v / r->rows, i = v % r->rows;
    *x = r->block_x0 + (int)b * (r->block_w + MATRIX_BLOCK_GAP);
    *y0 = r->matrix_y0 + (int)((double)i * r->matrix_h / r->rows);
    *y1 = r->matrix_y0 + (int)((double)(i + 1) * r->matrix_h / r->rows);
}

/* ---- side bars ----------------------------------------------------------- */

/* The channels of links [l0, l1), counted by the topology without a
 * pass over them (the complete graph's links are as many as its
 * processors). */
static double links_channels(const Topology *tp, uint32_t l0, uint32_t l1)
{
    return (double)topology_links_channels(tp, (int)l0, (int)l1);
}

static void bar_add(Render *r, BarRow *row, uint32_t link0, uint32_t link1,
                    int direction, double channels)
{
    BarHalf h = { link0, link1, direction, channels, 0 };
    g_array_append_val(r->bar_halves, h);
    row->halves++;
}

/* A row per link whose channels go up and down (a cube's dimension: up,
 * then down), per pair of links (a mesh's axis: +, then -), or per link
 * ("to 5": the channels into node 5), as the topology's view says, in runs
 * of links when there are more than fit. */
static void bars_layout(Render *r, int avail)
{
    const Topology *tp = r->topology;
    uint32_t links = (uint32_t)tp->links;
    g_array_set_size(r->bar_rows, 0);
    g_array_set_size(r->bar_halves, 0);
    TopologyBars bars = r->view->bars;
    uint32_t per_row = bars == TOPOLOGY_BARS_PAIRS ? 2 : 1;
    uint32_t rows = (links + per_row - 1) / per_row;
    int fh = draw_font_height(&r->canvas, FONT_SMALL);
    uint32_t fit = (uint32_t)MAX(avail / MAX(fh + SIDE_LABEL_GAP, SIDE_MIN_ROW) - 1, 1);
    if (rows > fit)
        per_row = (links + fit - 1) / fit;
    char name[TOPOLOGY_LINK_NAME_MAX];
    for (uint32_t l = 0; l < links; l += per_row) {
        BarRow row = { .first = r->bar_halves->len };
        uint32_t end = MIN(l + per_row, links);
        if (bars == TOPOLOGY_BARS_UP_DOWN && per_row == 1) {
            double half = topology_link_channels(tp, (int)l) / 2.0;
            r->view->bar_label(tp, (int)l, row.label, sizeof row.label);
            bar_add(r, &row, l, l + 1, 1, half);
            bar_add(r, &row, l, l + 1, -1, half);
        } else if (bars == TOPOLOGY_BARS_PAIRS && per_row == 2) {
            r->view->bar_label(tp, (int)l, row.label, sizeof row.label);
            bar_add(r, &row, l, l + 1, 0, topology_link_channels(tp, (int)l));
            bar_add(r, &row, l + 1, l + 2, 0, topology_link_channels(tp, (int)l + 1));
        } else {
            double channels = links_channels(tp, l, end);
            trace_link_name(r->trace, l, name, sizeof name);
            if (end - l == 1)
                g_strlcpy(row.label, name, sizeof row.label);
            else
                g_snprintf(row.label, sizeof row.label, "%s-%u", name, end - 1);
            bar_add(r, &row, l, end, 0, channels);
        }
        g_array_append_val(r->bar_rows, row);
    }
    const GArray *chs = r->trace->channels;
    for (guint c = 0; c < chs->len; c++) {
        const TraceChannel *tc = &g_array_index(chs, TraceChannel, c);
        for (guint i = 0; i < r->bar_halves->len; i++) {
            const BarHalf *hb = &g_array_index(r->bar_halves, BarHalf, i);
            if (tc->link >= hb->link0 && tc->link < hb->link1
                && (hb->direction == 0 || hb->direction == tc->direction)) {
                r->bar_of_channel[c] = i;
                break;
            }
        }
    }
    guint n = r->bar_rows->len;
    r->bar_row_h = n ? CLAMP(avail / (int)n, SIDE_MIN_ROW, SIDE_MAX_ROW) : 0;
    r->bar_label_w = draw_text_width(&r->canvas, FONT_SMALL, "d00 ");
    for (guint i = 0; i < n; i++) {
        g_autofree char *spaced = g_strdup_printf(
            "%s ", g_array_index(r->bar_rows, BarRow, i).label);
        r->bar_label_w = MAX(r->bar_label_w,
                             draw_text_width(&r->canvas, FONT_SMALL, spaced));
    }
    r->bar_legend = bars == TOPOLOGY_BARS_UP_DOWN ? "(bars: up, down)"
                    : bars == TOPOLOGY_BARS_PAIRS ? "(bars: +, -)"
                                                  : "(bars: per link)";
}

/* Keys and legend take the bottom of the side panel; the bars share the
 * rest. */
static int side_legend_height(Render *r)
{
    int lines = 7 + (r->trace->faults->len ? FAULT_LEGEND_LINES : 0);
    return lines * draw_font_height(&r->canvas, FONT_SMALL) + 40;
}

static int side_bars_top(Render *r)
{
    return r->side.y + 8 + draw_font_height(&r->canvas, FONT_NORMAL) + 4;
}

/* ---- timeline ---------------------------------------------------------- */

/* Plot column c shows ticks [timeline_column_tick(c), the next column's):
 * floor(c x cycles / w), exact; a run shorter than the plot shows each
 * tick over several columns (a column then starts at the tick it shows). */
static Tick timeline_column_tick(const Render *r, int c)
{
    Tick cycles = r->trace->cycles, w = MAX(r->plot.w, 1);
    return cycles / w * c + cycles % w * c / w;
}

static Tick timeline_column_end(const Render *r, int c)
{
    Tick t = timeline_column_tick(r, c);
    return MAX(timeline_column_tick(r, c + 1), t + 1);
}

/* Utilisation of all channels per plot column, in one pass over the
 * records: busy channel-ticks over the column's whole ticks, added as
 * integers, so two columns over the same load draw the same height (a
 * flat series stays flat). */
static void timeline_histogram(Render *r)
{
    const Trace *t = r->trace;
    int w = MAX(r->plot.w, 1);
    g_free(r->histogram);
    r->histogram = g_new0(double, w);
    if (t->cycles <= 0 || !r->total_channels)
        return;
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        Tick s = b->start, e = trace_busy_end(t, b);
        /* The first column that ends after s: near s x w / cycles. */
        int c = (int)CLAMP((double)s * w / (double)t->cycles, 0.0, w - 1.0);
        while (c > 0 && timeline_column_end(r, c - 1) > s)
            c--;
        while (c < w - 1 && timeline_column_end(r, c) <= s)
            c++;
        for (; c < w && timeline_column_tick(r, c) < e; c++) {
            Tick lo = MAX(s, timeline_column_tick(r, c));
            Tick hi = MIN(e, timeline_column_end(r, c));
            if (hi > lo)
                r->histogram[c] += (double)(hi - lo);
        }
    }
    for (int c = 0; c < w; c++) {
        Tick ticks = timeline_column_end(r, c) - timeline_column_tick(r, c);
        r->histogram[c] /= (double)ticks * (double)r->total_channels;
    }
}

static int timeline_x(const Render *r, Tick cycle)
{
    Tick span = MAX(r->trace->cycles, 1);
    return r->plot.x + (int)((double)cycle * r->plot.w / span);
}

/* The timeline's phases: a tick where the phase changes, labelled with
 * it where the label fits before the next (and the scale's label). */
static void timeline_phases(Render *r)
{
    int end = -1;
    int right = r->plot.x + r->plot.w
                - draw_text_width(&r->canvas, FONT_SMALL, r->plot_top_text)
                - PHASE_LABEL_GAP;
    for (guint i = 0; i < r->phase_count; i++) {
        TimelinePhase *ph = &r->phases[i];
        ph->x = timeline_x(r, ph->time);
        ph->width = draw_text_width(&r->canvas, FONT_SMALL, ph->label);
        ph->labelled = ph->x > end
                       && ph->x + PHASE_LABEL_INDENT + ph->width <= right;
        if (ph->labelled)
            end = ph->x + PHASE_LABEL_INDENT + ph->width + PHASE_LABEL_GAP;
    }
}

static void timeline_layout(Render *r)
{
    int label_h = draw_font_height(&r->canvas, FONT_SMALL);
    r->plot = (SDL_Rect){ r->timeline.x + MARGIN, r->timeline.y + label_h + 6,
                          r->timeline.w - 2 * MARGIN,
                          r->timeline.h - 2 * label_h - 14 };
    timeline_histogram(r);
    /* The plot's full height: the run's peak rounded up to 1, 2 or 5
     * times a power of ten, so that a lightly loaded run still shows its
     * shape; the label says what the top is. */
    double peak = TIMELINE_MIN_TOP;
    for (int c = 0; c < MAX(r->plot.w, 1); c++)
        peak = MAX(peak, r->histogram[c]);
    double p10 = pow(10, floor(log10(peak)));
    double m = peak / p10;
    r->plot_top = MIN((m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p10, 1.0);
    g_snprintf(r->plot_top_text, sizeof r->plot_top_text, "full height: %g%% busy",
               100 * r->plot_top);
    timeline_phases(r);
}

/* The label (an index) the most of `weight` falls on, or -1 if none has
 * any: on a tie, `current` if it is one of those, else the first. */
static int64_t heaviest(const double *weight, guint labels, int64_t current)
{
    int64_t best = -1;
    for (guint l = 0; l < labels; l++)
        if (weight[l] > 0 && (best < 0 || weight[l] > weight[best]))
            best = l;
    if (best >= 0 && current >= 0 && weight[current] == weight[best])
        best = current;
    return best;
}

/* The timeline's phases. The nodes of a machine may be in different
 * phases at once: a pipelined algorithm's nodes each in a step of its
 * own, or a sequential one's with nothing to do in a step already
 * waiting in the next. The timeline names what the picture shows, so
 * the phase of a stretch between two mark times is the one its traffic
 * belongs to: the phase whose nodes' channels were busy the most cycles
 * in it (where nothing moves, the phase the most nodes are in). Where
 * the nodes are spread over several steps, that can go back and forth
 * between two of them; so a phase the timeline has left comes back only
 * when more than half the nodes are in it (where all nodes go together,
 * as through a loop's phases, they are). Beyond TIMELINE_PHASE_BUDGET
 * channels (or labels) x mark times, the phase the most nodes are in
 * (trace_index_phase) names each stretch. */
static void timeline_marks(Render *r)
{
    const Trace *t = r->trace;
    guint nm = t->marks->len, nl = t->labels->len, distinct = 0;
    for (guint i = 0; i < nm; i++)
        distinct += !i || g_array_index(t->marks, TraceMark, i - 1).time
                              != g_array_index(t->marks, TraceMark, i).time;
    gboolean scan = (double)distinct * MAX(t->channels->len, nl)
                    <= TIMELINE_PHASE_BUDGET;
    r->phases = g_new0(TimelinePhase, nm + 1);
    g_autofree double *weight = g_new0(double, nl + 1);
    g_autofree gboolean *left = g_new0(gboolean, nl + 1);
    int64_t last = -1;
    for (guint i = 0; i < nm; i++) {
        Tick time = g_array_index(t->marks, TraceMark, i).time;
        if (i + 1 < nm && g_array_index(t->marks, TraceMark, i + 1).time == time)
            continue;
        Tick end = i + 1 < nm ? g_array_index(t->marks, TraceMark, i + 1).time
                              : t->cycles;
        int64_t phase = -1;
        uint32_t nodes = 0;
        if (scan) {
            const uint32_t *count = trace_phase_count_at(r->phase_nodes, time);
            memset(weight, 0, sizeof(double) * nl);
            for (guint c = 0; c < t->channels->len; c++) {
                Tick busy = trace_index_busy(r->index, c, time, end);
                uint32_t l = busy ? trace_phase_count_node(
                    r->phase_nodes,
                    g_array_index(t->channels, TraceChannel, c).source)
                                  : UINT32_MAX;
                if (l != UINT32_MAX)
                    weight[l] += (double)busy;
            }
            phase = heaviest(weight, nl, last);
            for (guint l = 0; l < nl; l++)
                weight[l] = count[l];
            if (phase < 0)
                phase = heaviest(weight, nl, last);
            nodes = phase >= 0 ? count[phase] : 0;
        } else {
            const char *label = trace_index_phase(r->index, time, &nodes);
            for (guint l = 0; label && l < nl; l++)
                if (t->labels->pdata[l] == label)
                    phase = l;
        }
        if (phase < 0 || phase == last
            || (left[phase] && 2 * (uint64_t)nodes <= trace_nodes(t)))
            continue;
        if (last >= 0)
            left[last] = TRUE;
        r->phases[r->phase_count++] = (TimelinePhase){
            .time = time, .label = t->labels->pdata[phase] };
        last = phase;
    }
}

gboolean render_timeline_cycle(Render *r, int x, int y, Tick *cycle)
{
    if (y < r->timeline.y || y >= r->timeline.y + r->timeline.h
        || x < r->plot.x - MARGIN || x >= r->plot.x + r->plot.w + MARGIN)
        return FALSE;
    double f = (double)(x - r->plot.x) / MAX(r->plot.w, 1);
    Tick c = (Tick)floor(f * (double)r->trace->cycles);
    *cycle = CLAMP(c, 0, render_last_cycle(r->trace));
    return TRUE;
}

/* ---- setup ------------------------------------------------------------- */

static void layout(Render *r)
{
    int w = r->width, h = r->height;
    r->header = (SDL_Rect){ 0, 0, w, HEADER_HEIGHT };
    r->timeline = (SDL_Rect){ 0, h - TIMELINE_HEIGHT, w, TIMELINE_HEIGHT };
    r->status = (SDL_Rect){ 0, r->timeline.y - STATUS_HEIGHT, w, STATUS_HEIGHT };
    r->side = (SDL_Rect){ w - SIDE_WIDTH, HEADER_HEIGHT, SIDE_WIDTH,
                          r->status.y - HEADER_HEIGHT };
    r->main = (SDL_Rect){ MARGIN, HEADER_HEIGHT + 4, w - SIDE_WIDTH - 2 * MARGIN,
                          r->status.y - HEADER_HEIGHT - 8 };
    graph_layout(r);
    matrix_layout(r);
    bars_layout(r, r->side.y + r->side.h - side_legend_height(r) - side_bars_top(r));
    timeline_layout(r);
}

Render *render_new(const Trace *t, int width, int height, GError **error)
{
    Render *r = g_new0(Render, 1);
    r->trace = t;
    r->topology = &t->topology;
    r->view = &t->topology.ops->view;
    r->width = MAX(width, RENDER_MIN_WIDTH);
    r->height = MAX(height, RENDER_MIN_HEIGHT);
    if (!canvas_init(&r->canvas, r->width, r->height, error)) {
        g_free(r);
        return NULL;
    }
    r->total_channels = (uint64_t)links_channels(&t->topology, 0,
                                                 (uint32_t)t->topology.links);
    /* The index and the per-channel tables grow with the trace, which may
     * be larger than the memory left: tried in one block first (if it
     * fits, its parts do), so that running out is an error, not GLib's
     * abort. */
    uint64_t nch64 = t->channels->len, nb = t->busy->len, nm = t->marks->len;
    uint64_t need = nb * sizeof(Tick) + nch64 * (sizeof(guint) + 2 * sizeof(uint64_t)
                                                 + 2 * sizeof(uint32_t) + sizeof(uint64_t)
                                                 + sizeof(double) + 2 * sizeof(uint32_t))
                    + nm * (sizeof(TimelinePhase) + 2 * sizeof(uint32_t) + 64)
                    + (uint64_t)t->labels->len * (2 * sizeof(uint32_t) + sizeof(double)
                                                  + sizeof(gboolean));
    void *probe = need <= G_MAXSIZE ? g_try_malloc((gsize)MAX(need, 1)) : NULL;
    if (!probe) {
        g_autofree char *iec = g_format_size_full(need, G_FORMAT_SIZE_IEC_UNITS);
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO, "cannot allocate %"
                    G_GUINT64_FORMAT " bytes (%s) for the viewer's index of "
                    "the trace", (guint64)need, iec);
        canvas_clear(&r->canvas);
        g_free(r);
        return NULL;
    }
    g_free(probe);
    r->index = trace_index_new(t);
    r->title = trace_title(t);
    guint nch = t->channels->len;
    r->util = g_new0(double, nch + 1);
    r->cell_of_channel = g_new0(uint32_t, nch + 1);
    r->bar_of_channel = g_new0(uint32_t, nch + 1);
    r->bar_rows = g_array_new(FALSE, FALSE, sizeof(BarRow));
    r->bar_halves = g_array_new(FALSE, FALSE, sizeof(BarHalf));
    graph_place(r);
    r->phase_nodes = trace_phase_count_new(t);
    timeline_marks(r);
    layout(r);
    return r;
}

void render_free(Render *r)
{
    if (!r)
        return;
    canvas_clear(&r->canvas);
    trace_index_free(r->index);
    g_free(r->title);
    g_free(r->ax);
    g_free(r->ay);
    if (r->strokes)
        g_array_unref(r->strokes);
    g_free(r->nx);
    g_free(r->ny);
    g_free(r->label_ink);
    g_free(r->label_x);
    g_free(r->label_y);
    g_free(r->curve);
    g_free(r->column_link);
    g_free(r->col_x);
    g_free(r->col_w);
    g_free(r->cell_channels);
    g_free(r->cell_sum);
    g_free(r->cell_of_channel);
    g_free(r->bar_of_channel);
    g_array_unref(r->bar_rows);
    g_array_unref(r->bar_halves);
    g_free(r->histogram);
    g_free(r->phases);
    trace_phase_count_free(r->phase_nodes);
    g_free(r->util);
    g_free(r);
}

gboolean render_resize(Render *r, int width, int height, GError **error)
{
    width = MAX(width, RENDER_MIN_WIDTH);
    height = MAX(height, RENDER_MIN_HEIGHT);
    if (width == r->width && height == r->height)
        return TRUE;
    if (!canvas_resize(&r->canvas, width, height, error))
        return FALSE;
    r->width = width;
    r->height = height;
    layout(r);
    return TRUE;
}

Canvas *render_canvas(Render *r)
{
    return &r->canvas;
}

gboolean render_graph_available(const Render *r, const char **why)
{
    if (why)
        *why = r->graph_why;
    return r->graph_ok;
}

gboolean render_channel_point(Render *r, ViewKind kind, uint32_t node,
                              uint32_t link, int *x, int *y)
{
    const Topology *tp = r->topology;
    if (node >= tp->nodes || link >= (uint32_t)tp->links
        || topology_neighbour(tp, node, (int)link) == TOPOLOGY_NONE)
        return FALSE;
    if (kind == VIEW_GRAPH) {
        if (!r->graph_ok)
            return FALSE;
        for (guint i = 0; i < r->strokes->len; i++) {
            const Stroke *s = &g_array_index(r->strokes, Stroke, i);
            if (s->source != node || s->link != link)
                continue;
            const double *p = &r->curve[(gsize)i * CURVE_POINTS * 2];
            *x = (int)floor(p[CURVE_SEGMENTS]);      /* point k = SEGMENTS/2 */
            *y = (int)floor(p[CURVE_SEGMENTS + 1]);
            return TRUE;
        }
        return FALSE;
    }
    guint k = column_of_link(r, link);
    int bx, y0, y1;
    matrix_node_rows(r, node, &bx, &y0, &y1);
    if (y1 <= y0)
        return FALSE;
    *x = bx + r->col_x[k] + r->col_w[k] / 2;
    *y = (y0 + y1 - 1) / 2;
    return TRUE;
}

void render_regions(const Render *r, RenderRegions *out)
{
    *out = (RenderRegions){ r->header, r->main, r->side, r->status,
                            r->timeline, r->plot };
}

gboolean render_node(const Render *r, uint32_t node, double *x, double *y,
                     double *radius, double *ring, SDL_Rect *label)
{
    if (!r->graph_ok || node >= r->topology->nodes)
        return FALSE;
    *x = r->nx[node];
    *y = r->ny[node];
    *radius = r->node_r;
    *ring = NODE_RING;
    *label = (SDL_Rect){ 0, 0, 0, 0 };
    if (r->labels_shown)
        *label = (SDL_Rect){ r->label_x[node] + r->label_ink[node].x,
                             r->label_y[node] + r->label_ink[node].y,
                             r->label_ink[node].w, r->label_ink[node].h };
    return TRUE;
}

void render_node_label(const Render *r, uint32_t node, char *buf, gsize size)
{
    node_name(r, node, buf, size);
}

Color render_color(RenderColor which)
{
    static const Color colors[] = {
        [RENDER_COLOR_BACKGROUND] = C_BACKGROUND, [RENDER_COLOR_NODE] = C_NODE,
        [RENDER_COLOR_TEXT] = C_TEXT, [RENDER_COLOR_ACCENT] = C_ACCENT,
        [RENDER_COLOR_GRID] = C_GRID, [RENDER_COLOR_HOVER] = C_HOVER,
        [RENDER_COLOR_FAULT] = C_FAULT, [RENDER_COLOR_DETOUR] = C_DETOUR,
    };
    return colors[which];
}

/* ---- hover ------------------------------------------------------------- */

typedef struct {
    int64_t node;                 /* -1 if none */
    int64_t link;                 /* -1 if none; with a node: its channel */
    int64_t link_end;             /* a matrix column's links [link, link_end) */
    int64_t stroke;               /* the graph's stroke, or -1 */
} Hover;

static double segment_distance(double px, double py, const double *a)
{
    double dx = a[2] - a[0], dy = a[3] - a[1];
    double l2 = dx * dx + dy * dy;
    double s = l2 > 0 ? ((px - a[0]) * dx + (py - a[1]) * dy) / l2 : 0;
    s = CLAMP(s, 0.0, 1.0);
    return hypot(px - (a[0] + s * dx), py - (a[1] + s * dy));
}

static Hover hover_graph(const Render *r, int mx, int my)
{
    Hover h = { -1, -1, -1, -1 };
    double best = r->node_r + 2;
    for (uint32_t v = 0; v < r->topology->nodes; v++) {
        double d = hypot(mx - r->nx[v], my - r->ny[v]);
        if (d <= best) {
            best = d;
            h.node = v;
        }
    }
    if (h.node >= 0)
        return h;
    best = r->channel_gap + 1;
    for (guint i = 0; i < r->strokes->len; i++) {
        const double *p = &r->curve[(gsize)i * CURVE_POINTS * 2];
        for (int k = 0; k < CURVE_SEGMENTS; k++) {
            double d = segment_distance(mx, my, p + 2 * k);
            if (d < best) {
                best = d;
                h.stroke = i;
            }
        }
    }
    if (h.stroke >= 0) {
        const Stroke *s = &g_array_index(r->strokes, Stroke, h.stroke);
        h.node = s->source;
        h.link = s->link;
        h.link_end = s->link + 1;
    }
    return h;
}

static Hover hover_find(const Render *r, const ViewState *s)
{
    Hover h = { -1, -1, -1, -1 };
    int mx = s->mouse_x, my = s->mouse_y;
    if (mx < r->main.x || my < r->main.y || mx >= r->main.x + r->main.w
        || my >= r->main.y + r->main.h)
        return h;
    if (s->kind == VIEW_GRAPH && r->graph_ok)
        return hover_graph(r, mx, my);
    if (s->kind == VIEW_MATRIX && my >= r->matrix_y0) {
        int rel = mx - r->block_x0;
        int b = rel / (r->block_w + MATRIX_BLOCK_GAP);
        int in = rel - b * (r->block_w + MATRIX_BLOCK_GAP);
        if (b < 0 || (guint)b >= r->blocks || in >= r->block_w)
            return h;
        guint row = (guint)((double)(my - r->matrix_y0) * r->rows / r->matrix_h);
        uint64_t v = (uint64_t)b * r->rows + MIN(row, r->rows - 1);
        if (v >= r->topology->nodes)
            return h;
        h.node = (int64_t)v;
        for (guint k = 0; k < r->columns; k++)
            if (in >= r->col_x[k] && in < r->col_x[k] + r->col_w[k]) {
                h.link = r->column_link[k];
                h.link_end = r->column_link[k + 1];
            }
    }
    return h;
}

/* Node v's channels that exist: its links with a far end. */
static uint32_t node_channels(const Render *r, uint32_t v)
{
    uint32_t n = 0;
    for (int l = 0; l < r->topology->links; l++)
        n += topology_neighbour(r->topology, v, l) != TOPOLOGY_NONE;
    return n;
}

/* "DOWN (dead link, for good); " and the like: what the channel's faults
 * are at the cursor, or "" where it has none; free with g_free. */
static char *hover_fault_text(const Render *r, const ViewState *s,
                              uint32_t v, uint32_t link, uint32_t u)
{
    const Trace *t = r->trace;
    FaultEntry e;
    gboolean faulty = trace_channel_fault(t, v, link, &e);
    gboolean down = faulty && trace_channel_down(t, v, link, s->cycle);
    const char *dead = trace_node_dead(t, v) ? "from a dead node; "
                       : trace_node_dead(t, u) ? "into a dead node; " : "";
    if (!faulty)
        return g_strdup(dead);
    g_autofree char *when = trace_fault_interval_text(&e);
    return g_strdup_printf("%s%s (faulty channel, %s%s); ", dead,
                           down ? "DOWN now" : "up now", when,
                           trace_channel_faulty(t, v, link) ? "" : ", not in this run");
}

static char *hover_channel_text(const Render *r, const ViewState *s,
                                uint32_t v, uint32_t link, Tick from, Tick to)
{
    const Trace *t = r->trace;
    char name[TOPOLOGY_LINK_NAME_MAX];
    trace_link_name(t, link, name, sizeof name);
    uint32_t u = topology_neighbour(r->topology, v, (int)link);
    if (u == TOPOLOGY_NONE)
        return g_strdup_printf("node %u has no link %s", v, name);
    int64_t c = trace_index_find(r->index, v, link);
    /* Where a link's channels go up and down (the side bars say so too),
     * which way this one goes. */
    const char *dir = r->view->bars == TOPOLOGY_BARS_UP_DOWN
        ? (topology_direction(r->topology, v, (int)link) > 0 ? " up" : " down")
        : "";
    g_autofree char *fault = hover_fault_text(r, s, v, link, u);
    if (c < 0)
        return g_strdup_printf("channel %u -> %u (%s%s): %sidle all run", v, u,
                               name, dir, fault);
    const TraceBusy *b = trace_index_at(r->index, (uint32_t)c, s->cycle);
    GString *g = g_string_new(NULL);
    g_string_append_printf(g, "channel %u -> %u (%s%s): %sbusy %" G_GINT64_FORMAT
                           " of %" G_GINT64_FORMAT " cycles in the window; whole "
                           "run: %" G_GUINT64_FORMAT " elements, %" G_GUINT64_FORMAT
                           " message(s)", v, u, name, dir, fault,
                           (gint64)trace_index_busy(r->index, (uint32_t)c, from, to),
                           (gint64)(to - from),
                           (guint64)trace_index_elements(r->index, (uint32_t)c),
                           (guint64)trace_index_messages(r->index, (uint32_t)c));
    if (b) {
        const TraceMessage *m = &g_array_index(t->messages, TraceMessage, b->message);
        g_string_append_printf(g, "; now message %u (%u -> %u, tag %d, "
                               "element %" G_GUINT64_FORMAT " of %"
                               G_GUINT64_FORMAT "%s)", b->message, m->source,
                               m->dest, m->tag,
                               (guint64)(b->first + (uint64_t)((s->cycle - b->start)
                                                               / m->element_time)),
                               (guint64)m->count,
                               m->detoured ? ", detoured around a fault" : "");
    }
    return g_string_free(g, FALSE);
}

static char *hover_text(const Render *r, const ViewState *s, Hover h,
                        Tick from, Tick to)
{
    if (h.node < 0)
        return NULL;
    uint32_t v = (uint32_t)h.node;
    if (h.link >= 0 && h.link_end == h.link + 1)
        return hover_channel_text(r, s, v, (uint32_t)h.link, from, to);
    if (h.link >= 0) {
        /* A matrix column of several links: their mean. */
        double sum = 0;
        uint32_t n = 0;
        for (int64_t l = h.link; l < h.link_end; l++) {
            if (topology_neighbour(r->topology, v, (int)l) == TOPOLOGY_NONE)
                continue;
            int64_t c = trace_index_find(r->index, v, (uint32_t)l);
            sum += c >= 0 ? r->util[c] : 0;
            n++;
        }
        return g_strdup_printf("node %u, links %" G_GINT64_FORMAT "..%"
                               G_GINT64_FORMAT ": %u channels, %.0f%% busy in "
                               "the window on average", v, h.link,
                               h.link_end - 1, n, n ? 100 * sum / n : 0.0);
    }
    guint nout, nin;
    const uint32_t *out = trace_index_out(r->index, v, &nout);
    const uint32_t *in = trace_index_in(r->index, v, &nin);
    uint64_t sent = 0, received = 0;
    Tick busy_out = 0;
    for (guint i = 0; i < nout; i++) {
        sent += trace_index_elements(r->index, out[i]);
        busy_out += trace_index_busy(r->index, out[i], from, to);
    }
    for (guint i = 0; i < nin; i++)
        received += trace_index_elements(r->index, in[i]);
    uint32_t channels = node_channels(r, v);
    char name[NODE_NAME_MAX];
    node_name(r, v, name, sizeof name);
    const char *phase = trace_index_node_phase(r->index, v, s->cycle);
    if (trace_node_dead(r->trace, v))
        return g_strdup_printf("node %u (%s): DEAD (machine.faults): it runs "
                               "no program and forwards nothing", v, name);
    return g_strdup_printf("node %u (%s): sent %" G_GUINT64_FORMAT
                           ", received %" G_GUINT64_FORMAT " elements over "
                           "the run; outgoing channels %.0f%% busy in the "
                           "window; phase: %s", v, name, (guint64)sent,
                           (guint64)received,
                           channels && to > from
                               ? 100.0 * busy_out / ((double)channels * (to - from))
                               : 0.0,
                           phase ? phase : "-");
}

/* ---- drawing ----------------------------------------------------------- */

/* Cut text to fit width, with an ellipsis. */
static void text_fit(Render *r, FontSize size, int x, int y, int width,
                     Color color, const char *text)
{
    if (draw_text_width(&r->canvas, size, text) <= width) {
        draw_text(&r->canvas, size, x, y, ALIGN_LEFT, color, text);
        return;
    }
    g_autoptr(GString) s = g_string_new(NULL);
    for (glong n = g_utf8_strlen(text, -1) - 1; n > 0; n--) {
        g_string_truncate(s, 0);
        g_string_append_len(s, text, g_utf8_offset_to_pointer(text, n) - text);
        g_string_append(s, "…");
        if (draw_text_width(&r->canvas, size, s->str) <= width)
            break;
    }
    draw_text(&r->canvas, size, x, y, ALIGN_LEFT, color, s->str);
}

/* What the nodes are doing at `cycle`: their phase, if they are all in
 * one; else how many are in each phase, in the order the run first named
 * them, and how many have named none yet. */
char *render_phase_text(Render *r, Tick cycle)
{
    const Trace *t = r->trace;
    const uint32_t *count = trace_phase_count_at(r->phase_nodes, cycle);
    guint labels = t->labels->len;
    uint32_t nodes = trace_nodes(t);
    uint64_t marked = 0;
    for (guint l = 0; l < labels; l++) {
        if (count[l] == nodes)
            return g_strdup_printf("phase: %s (all nodes)",
                                   (const char *)t->labels->pdata[l]);
        marked += count[l];
    }
    if (!marked)
        return g_strdup("phase: -");
    GString *g = g_string_new("nodes in each phase: ");
    const char *sep = "";
    for (guint l = 0; l < labels; l++)
        if (count[l]) {
            g_string_append_printf(g, "%s%s (%u)", sep,
                                   (const char *)t->labels->pdata[l], count[l]);
            sep = ", ";
        }
    if (marked < nodes)
        g_string_append_printf(g, ", none yet (%" G_GUINT64_FORMAT ")",
                               (guint64)(nodes - marked));
    g_string_append_printf(g, " of %u", nodes);
    return g_string_free(g, FALSE);
}

guint render_timeline_phases(const Render *r)
{
    return r->phase_count;
}

void render_timeline_phase(const Render *r, guint i, Tick *time,
                           const char **label, gboolean *labelled)
{
    static const TimelinePhase none = { 0 };
    const TimelinePhase *ph = i < r->phase_count ? &r->phases[i] : &none;
    *time = ph->time;
    *label = ph->label;
    *labelled = ph->labelled;
}

Tick render_phase_step(const Render *r, Tick cycle, int direction)
{
    /* The first phase after `cycle`. */
    guint lo = 0, hi = r->phase_count;
    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        if (r->phases[mid].time <= cycle)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (direction > 0)
        return lo < r->phase_count ? r->phases[lo].time : render_last_cycle(r->trace);
    /* Before `cycle`: skip the one at it. */
    while (lo > 0 && r->phases[lo - 1].time >= cycle)
        lo--;
    return lo > 0 ? r->phases[lo - 1].time : 0;
}

static void draw_header(Render *r, const ViewState *s, Tick from, Tick to)
{
    Canvas *c = &r->canvas;
    const Trace *t = r->trace;
    draw_rect(c, 0, 0, r->width, HEADER_HEIGHT, C_PANEL);
    text_fit(r, FONT_LARGE, MARGIN, 6, r->width - 2 * MARGIN, C_TEXT, r->title);
    g_autofree char *phase_text = render_phase_text(r, s->cycle);
    /* With a tick length, where the cursor is in physical time too. */
    g_autofree char *now = trace_seconds_text(t, s->cycle);
    g_autofree char *end = trace_seconds_text(t, t->cycles);
    g_autofree char *seconds = now ? g_strdup_printf(" (%s of %s)", now, end)
                                   : g_strdup("");
    g_autofree char *line = g_strdup_printf(
        "cycle %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT "%s    window %"
        G_GINT64_FORMAT "..%" G_GINT64_FORMAT "    %s",
        (gint64)s->cycle, (gint64)t->cycles, seconds, (gint64)from,
        (gint64)(to - 1), phase_text);
    /* Only the window plays; a rendered frame has no speed. */
    g_autofree char *playing = g_strdup_printf("%s    %s, %.4g cycles/s", line,
                                               s->playing ? "playing" : "paused",
                                               s->speed);
    text_fit(r, FONT_NORMAL, MARGIN, 32, r->width - 2 * MARGIN, C_TEXT_DIM,
             s->speed > 0 ? playing : line);
}

static void draw_arrow(Canvas *c, const double *p, double size, Color color)
{
    /* At 5/8 of the way: tip ahead along the tangent, base behind it,
     * ARROW_BASE of its length either side. */
    int k = CURVE_SEGMENTS * 5 / 8;
    double x = p[2 * k], y = p[2 * k + 1];
    double tx = p[2 * k + 2] - p[2 * k - 2], ty = p[2 * k + 3] - p[2 * k - 1];
    double l = hypot(tx, ty);
    if (l < 1e-9)
        return;
    tx /= l;
    ty /= l;
    double b = size * ARROW_BASE;
    double tri[6] = { x + tx * size, y + ty * size,
                      x - tx * b - ty * b, y - ty * b + tx * b,
                      x - tx * b + ty * b, y - ty * b - tx * b };
    draw_polygon(c, tri, 3, color);
}

/* One caption of the topology's view (a 3-d mesh's "z = 1" under each
 * layer), below its node and the stubs leaving it downwards. */
static void draw_caption(void *ctx, uint32_t node, const char *text)
{
    Render *r = ctx;
    double below = MAX(r->node_r, r->stub_below) + CAPTION_GAP / 2.0;
    draw_text(&r->canvas, FONT_SMALL, (int)lround(r->nx[node] - r->node_r),
              (int)lround(r->ny[node] + below), ALIGN_LEFT, C_TEXT_DIM, text);
}

static void draw_layer_labels(Render *r)
{
    if (r->view->captions)
        r->view->captions(r->topology, draw_caption, r);
}

/* Over the heat: channels down at `cycle` in the fault colour, and
 * along each busy channel whose element then is a detoured message's, a
 * thin detour line. */
static void draw_graph_faults(Render *r, Tick cycle, double busy_width)
{
    const Trace *t = r->trace;
    if (!t->faults->len)
        return;
    Canvas *c = &r->canvas;
    for (guint i = 0; i < r->strokes->len; i++) {
        const Stroke *s = &g_array_index(r->strokes, Stroke, i);
        const double *p = &r->curve[(gsize)i * CURVE_POINTS * 2];
        if (trace_channel_down(t, s->source, s->link, cycle)) {
            draw_polyline(c, p, CURVE_POINTS,
                          r->line_width + FAULT_EXTRA_WIDTH, 0, C_FAULT);
            draw_arrow(c, p, r->arrow, C_FAULT);
            continue;
        }
        if (s->channel < 0 || r->util[s->channel] <= 0)
            continue;
        const TraceBusy *b = trace_index_at(r->index, (uint32_t)s->channel,
                                            cycle);
        if (b && g_array_index(t->messages, TraceMessage, b->message).detoured)
            draw_polyline(c, p, CURVE_POINTS, MAX(busy_width / 3, 1.0), 0,
                          C_DETOUR);
    }
}

static void draw_graph(Render *r, Hover h, Tick cycle)
{
    Canvas *c = &r->canvas;
    /* Busy channels are drawn wider, so activity stands out even where
     * colours are hard to tell apart. */
    double busy_width = r->line_width + BUSY_EXTRA_WIDTH;
    /* Idle channels first, busy ones over them. */
    for (int pass = 0; pass < 2; pass++)
        for (guint i = 0; i < r->strokes->len; i++) {
            double u = stroke_util(r, &g_array_index(r->strokes, Stroke, i));
            gboolean busy = u > 0;
            if (busy != (pass == 1))
                continue;
            const double *p = &r->curve[(gsize)i * CURVE_POINTS * 2];
            Color col = render_heat(u);
            draw_polyline(c, p, CURVE_POINTS, busy ? busy_width : r->line_width,
                          0, col);
            draw_arrow(c, p, busy ? r->arrow * BUSY_ARROW : r->arrow, col);
        }
    draw_graph_faults(r, cycle, busy_width);
    if (h.stroke >= 0) {
        /* Both strokes of a channel drawn as two stubs. */
        const Stroke *hs = &g_array_index(r->strokes, Stroke, h.stroke);
        for (guint i = 0; i < r->strokes->len; i++) {
            const Stroke *s = &g_array_index(r->strokes, Stroke, i);
            if (s->source == hs->source && s->link == hs->link)
                draw_polyline(c, &r->curve[(gsize)i * CURVE_POINTS * 2],
                              CURVE_POINTS, 1.0, 0, C_HOVER);
        }
    }
    draw_layer_labels(r);
    /* Circles over the lines' ends, each label inside its circle. */
    char name[NODE_NAME_MAX];
    for (uint32_t v = 0; v < r->topology->nodes; v++) {
        gboolean hot = h.stroke < 0 && h.node == (int64_t)v;
        Color ring = hot ? C_HOVER
                     : trace_node_dead(r->trace, v) ? C_FAULT : C_NODE_RING;
        draw_disc(c, r->nx[v], r->ny[v], r->node_r, ring);
        draw_disc(c, r->nx[v], r->ny[v], r->node_r - NODE_RING, C_NODE);
        if (!r->labels_shown)
            continue;
        node_name(r, v, name, sizeof name);
        draw_text(c, FONT_SMALL, r->label_x[v], r->label_y[v], ALIGN_LEFT,
                  C_TEXT, name);
    }
}

/* Round step for about `want` ticks over span: 1, 2 or 5 times 10^k. */
static Tick nice_step(Tick span, int want)
{
    double raw = (double)MAX(span, 1) / MAX(want, 1);
    double p = pow(10, floor(log10(raw)));
    double m = raw / p;
    double step = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
    return MAX((Tick)step, 1);
}

/* Block b's header: its nodes, and over the columns what they show, where
 * the labels fit; columns of several links are labelled at round link
 * numbers, about one per MATRIX_LABEL_SPACING pixels. */
static void draw_matrix_header(Render *r, int bx, uint32_t first)
{
    Canvas *c = &r->canvas;
    int fh = draw_font_height(c, FONT_SMALL);
    char label[64];
    uint32_t last = MIN(first + r->rows, r->topology->nodes) - 1;
    g_snprintf(label, sizeof label, "nodes %u..%u", first, last);
    if (draw_text_width(c, FONT_SMALL, label) > r->block_w)
        g_snprintf(label, sizeof label, "%u..%u", first, last);
    text_fit(r, FONT_SMALL, bx, r->main.y, r->block_w, C_TEXT_DIM, label);
    gboolean runs = r->columns < (guint)r->topology->links
                    || r->col_w[0] < MATRIX_MIN_CELL_WIDTH;
    Tick step = runs ? nice_step(r->topology->links,
                                 MAX(r->block_w / MATRIX_LABEL_SPACING, 1)) : 1;
    int next_free = bx;
    for (guint k = 0; k < r->columns; k++) {
        /* The round link number within this column, if any. */
        Tick round = ((Tick)r->column_link[k] + step - 1) / step * step;
        if (round >= (Tick)MAX(r->column_link[k + 1], r->column_link[k] + 1))
            continue;
        if (runs)
            g_snprintf(label, sizeof label, "%" G_GINT64_FORMAT, (gint64)round);
        else
            column_label(r, k, label, sizeof label);
        int w = draw_text_width(c, FONT_SMALL, label);
        int cx = bx + r->col_x[k] + r->col_w[k] / 2;
        if (cx - w / 2 >= next_free) {
            draw_text(c, FONT_SMALL, cx, r->main.y + fh + 2, ALIGN_CENTER,
                      C_TEXT_DIM, label);
            next_free = cx + w / 2 + 4;
        }
    }
}

/* Over the heat: the cell of each channel down at `cycle`, and a dead
 * node's row, in the fault colour (at least a pixel row where many nodes
 * share one). */
static void draw_matrix_faults(Render *r, Tick cycle)
{
    const Trace *t = r->trace;
    Canvas *c = &r->canvas;
    for (guint i = 0; i < t->faults->len; i++) {
        const FaultEntry *e = &g_array_index(t->faults, FaultEntry, i);
        if (e->link >= 0 && !(e->from <= cycle && cycle < e->until))
            continue;
        int x, y0, y1;
        matrix_node_rows(r, e->node, &x, &y0, &y1);
        int hgt = MAX(y1 - y0, 1);
        if (e->link < 0) {
            draw_rect(c, x, y0, r->block_w, hgt, C_FAULT);
            continue;
        }
        guint k = column_of_link(r, (uint32_t)e->link);
        draw_rect(c, x + r->col_x[k], y0, r->col_w[k], hgt, C_FAULT);
    }
}

static void draw_matrix(Render *r, Hover h, Tick cycle)
{
    const Trace *t = r->trace;
    Canvas *c = &r->canvas;
    uint32_t nodes = r->topology->nodes;
    gsize cells = (gsize)r->blocks * r->row_bins * MAX(r->columns, 1u);
    memset(r->cell_sum, 0, sizeof(double) * cells);
    for (guint ch = 0; ch < t->channels->len; ch++)
        r->cell_sum[r->cell_of_channel[ch]] += r->util[ch];
    for (guint b = 0; b < r->blocks; b++) {
        int bx = r->block_x0 + (int)b * (r->block_w + MATRIX_BLOCK_GAP);
        uint32_t first = b * r->rows;
        if (first >= nodes)
            break;
        draw_matrix_header(r, bx, first);
        /* Pixel rows: one node's (tall rows keep a dark line between
         * nodes), or the mean of the nodes a row covers. */
        gboolean separate = (double)r->matrix_h / r->rows >= MATRIX_ROW_GAP_FROM;
        for (int py = 0; py < r->matrix_h; py++) {
            guint bin = (guint)py;
            if (r->tall) {
                guint i0 = (guint)((double)py * r->rows / r->matrix_h);
                guint i1 = (guint)((double)(py + 1) * r->rows / r->matrix_h);
                if ((separate && i1 > i0) || first + i0 >= nodes)
                    continue;
                bin = i0;
            }
            gsize row = ((gsize)b * r->row_bins + bin) * r->columns;
            for (guint k = 0; k < r->columns; k++)
                if (r->cell_channels[row + k])
                    draw_rect(c, bx + r->col_x[k], r->matrix_y0 + py, r->col_w[k],
                              1, render_heat(r->cell_sum[row + k]
                                             / r->cell_channels[row + k]));
        }
    }
    draw_matrix_faults(r, cycle);
    if (h.node >= 0) {
        int x, y0, y1;
        matrix_node_rows(r, (uint32_t)h.node, &x, &y0, &y1);
        draw_frame(c, x - 2, y0 - 1, r->block_w + 4, MAX(y1 - y0, 1) + 2, C_HOVER);
    }
}

/* "down: 2 channels; dead: 1 node": the fault legend's line (channel
 * entries: one channel down twice counts twice). */
static char *side_fault_text(const Trace *t)
{
    uint32_t channels = 0, nodes = 0;
    for (guint i = 0; i < t->faults->len; i++) {
        const FaultEntry *e = &g_array_index(t->faults, FaultEntry, i);
        if (e->link < 0)
            nodes++;
        else
            channels++;
    }
    return g_strdup_printf("down: %u channel%s; dead: %u node%s", channels,
                           channels == 1 ? "" : "s", nodes,
                           nodes == 1 ? "" : "s");
}

/* `keys`: the keyboard help under the legend, for the interactive window
 * only (a rendered frame has no keys). */
static void draw_side(Render *r, gboolean keys)
{
    Canvas *c = &r->canvas;
    const SDL_Rect *s = &r->side;
    const Trace *t = r->trace;
    draw_rect(c, s->x, s->y, s->w, s->h, C_PANEL);
    int x = s->x + MARGIN, y = s->y + 8, w = s->w - 2 * MARGIN;
    int fh = draw_font_height(c, FONT_SMALL);
    draw_text(c, FONT_NORMAL, x, y, ALIGN_LEFT, C_TEXT, "utilisation in the window");
    y = side_bars_top(r);

    /* Per bar: busy channel-cycles / (channels x window). */
    double total = 0;
    for (guint i = 0; i < r->bar_halves->len; i++)
        g_array_index(r->bar_halves, BarHalf, i).sum = 0;
    for (guint ch = 0; ch < t->channels->len; ch++) {
        total += r->util[ch];
        g_array_index(r->bar_halves, BarHalf, r->bar_of_channel[ch]).sum
            += r->util[ch];
    }
    int legend_h = side_legend_height(r);
    int avail = s->y + s->h - legend_h - y;
    int row_h = r->bar_row_h;
    int pct_w = draw_text_width(c, FONT_SMALL, "100%");
    int bar_w = w - r->bar_label_w - pct_w - 6;
    char text[64];
    for (guint i = 0; i < r->bar_rows->len && ((int)i + 1) * row_h <= avail; i++) {
        const BarRow *row = &g_array_index(r->bar_rows, BarRow, i);
        int ry = y + (int)i * row_h;
        draw_text(c, FONT_SMALL, x, ry + (row_h - fh) / 2, ALIGN_LEFT,
                  C_TEXT_DIM, row->label);
        for (guint k = 0; k < row->halves; k++) {
            const BarHalf *hb = &g_array_index(r->bar_halves, BarHalf, row->first + k);
            double u = hb->channels > 0 ? hb->sum / hb->channels : 0;
            int half = MAX((row_h - 4) / 2, 2);
            int by = ry + 1 + (k == 0 ? 0 : half + 1);
            draw_rect(c, x + r->bar_label_w, by, bar_w, half, C_BACKGROUND);
            draw_rect(c, x + r->bar_label_w, by, (int)lround(u * bar_w), half,
                      render_heat(u));
            if (row_h >= 16 || k == 0) {
                g_snprintf(text, sizeof text, "%.0f%%", 100 * u);
                draw_text(c, FONT_SMALL, x + w, by + half / 2 - fh / 2, ALIGN_RIGHT,
                          C_TEXT_DIM, text);
            }
        }
    }
    y = s->y + s->h - legend_h + 6;
    g_snprintf(text, sizeof text, "all channels %.1f%%  %s",
               r->total_channels ? 100 * total / (double)r->total_channels : 0.0,
               r->bar_legend);
    draw_text(c, FONT_SMALL, x, y, ALIGN_LEFT, C_TEXT, text);
    y += fh + 6;
    for (int i = 0; i < w; i++)
        draw_rect(c, x + i, y, 1, 10, render_heat((double)i / (w - 1)));
    y += 12;
    draw_text(c, FONT_SMALL, x, y, ALIGN_LEFT, C_TEXT_DIM, "idle");
    draw_text(c, FONT_SMALL, x + w, y, ALIGN_RIGHT, C_TEXT_DIM, "busy all window");
    y += fh + 6;
    if (t->faults->len) {
        g_autofree char *faults = side_fault_text(t);
        draw_rect(c, x, y + fh / 4, 14, MAX(fh / 2, 2), C_FAULT);
        text_fit(r, FONT_SMALL, x + 20, y, w - 20, C_TEXT, faults);
        y += fh;
        draw_rect(c, x, y + fh / 2 - 1, 14, 2, C_DETOUR);
        draw_text(c, FONT_SMALL, x + 20, y, ALIGN_LEFT, C_TEXT_DIM,
                  "detoured message on a channel");
        y += fh + 6;
    }
    if (!keys)
        return;
    static const char *const help[] = {
        "space play/pause   left/right step",
        "+/- speed   [ ] window   Home/End",
        "g graph   m matrix   q quit",
        "click the timeline to jump",
    };
    for (guint i = 0; i < G_N_ELEMENTS(help); i++) {
        draw_text(c, FONT_SMALL, x, y, ALIGN_LEFT, C_TEXT_DIM, help[i]);
        y += fh;
    }
}

static void draw_timeline(Render *r, const ViewState *s, Tick from, Tick to)
{
    Canvas *c = &r->canvas;
    const Trace *t = r->trace;
    const SDL_Rect *p = &r->plot;
    draw_rect(c, r->timeline.x, r->timeline.y, r->timeline.w, r->timeline.h, C_PANEL);
    draw_rect(c, p->x, p->y, p->w, p->h, C_BACKGROUND);
    /* The window, then the utilisation of every plot column. */
    int wx0 = timeline_x(r, from), wx1 = MAX(timeline_x(r, to), wx0 + 1);
    draw_rect(c, wx0, p->y, wx1 - wx0, p->h, C_WINDOW);
    for (int i = 0; i < p->w; i++) {
        int bh = (int)lround(MIN(r->histogram[i] / r->plot_top, 1.0) * (p->h - 2));
        if (bh > 0)
            draw_rect(c, p->x + i, p->y + p->h - bh, 1, bh, C_ACCENT);
    }
    draw_text(c, FONT_SMALL, p->x + p->w, r->timeline.y + 3, ALIGN_RIGHT,
              C_TEXT_DIM, r->plot_top_text);
    /* A tick where the phase changes, its label where it fits. */
    for (guint i = 0; i < r->phase_count; i++) {
        const TimelinePhase *ph = &r->phases[i];
        draw_rect(c, ph->x, p->y, 1, p->h, C_GRID);
        if (ph->labelled)
            draw_text(c, FONT_SMALL, ph->x + PHASE_LABEL_INDENT, r->timeline.y + 3,
                      ALIGN_LEFT, C_TEXT_DIM, ph->label);
    }
    /* Cycle ticks. */
    Tick step = nice_step(t->cycles, MAX(p->w / 90, 2));
    char text[32];
    for (Tick k = 0; k <= t->cycles; k += step) {
        int x = timeline_x(r, k);
        draw_rect(c, x, p->y + p->h, 1, 4, C_TEXT_DIM);
        g_snprintf(text, sizeof text, "%" G_GINT64_FORMAT, (gint64)k);
        draw_text(c, FONT_SMALL, x, p->y + p->h + 4, ALIGN_CENTER, C_TEXT_DIM, text);
    }
    int cx = timeline_x(r, s->cycle);
    draw_rect(c, cx, p->y - 3, 2, p->h + 6, C_HOVER);
}

/* The status line's explanation of the view, when nothing is hovered. */
static const char *view_legend(const Render *r, ViewKind kind)
{
    if (kind == VIEW_GRAPH) {
        const char *own = r->view->graph_legend
                              ? r->view->graph_legend(r->topology) : NULL;
        return own ? own
            : "graph: every directed channel drawn to the right of its direction, "
              "coloured by its share of busy cycles in the window; hover for counts";
    }
    if (r->columns < (guint)r->topology->links)
        return "matrix: a row per node, columns of links in runs (each pixel the "
               "mean of the channels it covers), coloured by busy share in the "
               "window; hover for counts";
    return r->view->matrix_legend;
}

void render_frame(Render *r, const ViewState *s)
{
    const Trace *t = r->trace;
    Canvas *c = &r->canvas;
    Tick window = MAX(s->window, 1);
    Tick to = MIN(s->cycle + 1, MAX(t->cycles, 1));
    Tick from = MAX(to - window, 0);
    double span = (double)MAX(to - from, 1);
    for (guint ch = 0; ch < t->channels->len; ch++)
        r->util[ch] = trace_index_busy(r->index, ch, from, to) / span;

    draw_fill(c, C_BACKGROUND);
    ViewState vs = *s;
    if (vs.kind == VIEW_GRAPH && !r->graph_ok)
        vs.kind = VIEW_MATRIX;
    Hover h = hover_find(r, &vs);
    if (vs.kind == VIEW_GRAPH)
        draw_graph(r, h, s->cycle);
    else
        draw_matrix(r, h, s->cycle);
    draw_header(r, &vs, from, to);
    /* Only the window has a speed (view.c): a frame rendered to a file
     * has neither speed nor keys. */
    draw_side(r, s->speed > 0);
    draw_rect(c, 0, r->status.y, r->width, r->status.h, C_BACKGROUND);
    g_autofree char *hover = hover_text(r, &vs, h, from, to);
    const char *status = hover ? hover : s->notice ? s->notice
                                                   : view_legend(r, vs.kind);
    text_fit(r, FONT_SMALL, MARGIN, r->status.y + 4, r->width - 2 * MARGIN,
             hover ? C_TEXT : C_TEXT_DIM, status);
    draw_timeline(r, &vs, from, to);
}
