/* render.c -- one frame of the animation (render.h).
 *
 * Invariants: the layout (regions, node pixels, channel polylines, matrix
 * cells, timeline histogram) is a function of the trace and the canvas size
 * only, recomputed on resize; a frame is a function of the layout and the
 * ViewState only. So a headless frame at cycle t is the same pixels as the
 * window shows at t, and the tests can locate a channel by asking the
 * layout where it is.
 */
#include "render.h"

#include <math.h>
#include <string.h>

/* ---- limits of the views ------------------------------------------------ */

/* The classic cube drawing stays readable up to the 6-cube (64 nodes,
 * 384 channels); beyond, the matrix view is the one that scales. */
#define GRAPH_MAX_CUBE_DIMENSIONS 6
/* Other topologies are drawn as graphs up to a few hundred nodes. */
#define GRAPH_MAX_NODES 512
/* Copies of a 2-d mesh for its third axis stand this far apart (in
 * neighbour distances), side by side. */
#define GRAPH_LAYER_GAP 1.5
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
/* Rows at least this many pixels tall get a one-pixel gap between nodes. */
#define MATRIX_ROW_GAP_FROM 6.0
/* Window divisions for the default window. */
#define RENDER_WINDOW_DIVISIONS 40

/* ---- fixed layout sizes, in pixels ------------------------------------- */

#define HEADER_HEIGHT 56
#define SIDE_WIDTH 250
#define STATUS_HEIGHT 22
#define TIMELINE_HEIGHT 92
#define MARGIN 12
/* Room around the graph for the outer nodes and their labels. */
#define GRAPH_PAD 34

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
                                  C_HOVER, C_WINDOW };
    int n = 0;
    for (int i = 0; i < PALETTE_HEAT_STEPS && n < max; i++)
        colors[n++] = render_heat((double)i / (PALETTE_HEAT_STEPS - 1));
    for (guint i = 0; i < G_N_ELEMENTS(flat) && n < max; i++)
        colors[n++] = flat[i];
    return n;
}

/* ---- state ------------------------------------------------------------- */

struct Render {
    const Trace *trace;
    TraceIndex *index;
    Canvas canvas;
    int width, height;
    SDL_Rect header, main, side, status, timeline;
    char *title;
    gboolean is_cube;

    /* graph */
    gboolean graph_ok;
    const char *graph_why;
    double *ax, *ay;              /* abstract node positions */
    double *bulge;                /* per channel: arc height / chord */
    double *nx, *ny;              /* pixel node positions */
    double node_r, channel_gap, line_width;
    double *curve;                /* per channel CURVE_POINTS (x, y) */
    gboolean labels_binary;

    /* matrix */
    guint groups;                 /* (dimension, direction) pairs */
    guint columns;                /* matrix columns */
    int *column_dimension;
    guint *column_of;             /* per channel */
    int32_t *cell_channel;        /* node * columns + k -> channel or -1 */
    guint blocks, rows;           /* rows = nodes per block */
    int block_x0, block_w, matrix_y0, matrix_h;
    int *col_x, *col_w;           /* per group, relative to a block */

    /* timeline */
    SDL_Rect plot;                /* the histogram inside the timeline */
    double *histogram;            /* per plot column: utilisation */
    Tick *mark_times;         /* distinct, sorted */
    guint mark_time_count;

    /* per frame */
    double *util;                 /* per channel, in the window */
};

Tick render_last_cycle(const Trace *t)
{
    return t->cycles > 0 ? t->cycles - 1 : 0;
}

Tick render_default_window(const Trace *t)
{
    Tick w = (t->cycles + RENDER_WINDOW_DIVISIONS - 1) / RENDER_WINDOW_DIVISIONS;
    return MAX(w, t->element_time);
}

/* ---- node placement ---------------------------------------------------- */

/* The classic drawing: dimensions 0 and 1 a square, 2 the depth of a
 * cube drawn in oblique projection, 3 and 4 copies of that cube side by
 * side and below, 5 a copy of the four. Long edges (3..5) are arcs so
 * they do not run through the nodes between their ends. */
static const double cube_axis[GRAPH_MAX_CUBE_DIMENSIONS][2] = {
    { 1.0, 0.0 }, { 0.0, 1.0 }, { 0.42, -0.34 },
    { 2.1, 0.0 }, { 0.0, 2.15 }, { 4.4, 0.0 },
};
static const double cube_bulge[GRAPH_MAX_CUBE_DIMENSIONS] = {
    0, 0, 0, 0.16, 0.14, 0.09
};

static void place_cube(Render *r)
{
    const Trace *t = r->trace;
    for (uint32_t v = 0; v < t->nodes; v++) {
        r->ax[v] = r->ay[v] = 0;
        for (uint32_t d = 0; d < t->dimensions; d++)
            if ((v >> d) & 1) {
                r->ax[v] += cube_axis[d][0];
                r->ay[v] += cube_axis[d][1];
            }
    }
    for (guint c = 0; c < t->channels->len; c++) {
        const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, c);
        r->bulge[c] = cube_bulge[ch->dimension];
    }
}

/* Coordinates from the channel table: crossing dimension d upwards adds
 * one on axis d. FALSE if that is inconsistent (a torus's wrap-around),
 * the graph is disconnected or has more than three axes. Axis 2 places
 * copies of the 2-d picture side by side. */
static gboolean place_by_coordinates(Render *r)
{
    const Trace *t = r->trace;
    if (t->dimensions > 3 || t->dimensions == 0)
        return FALSE;
    guint axes = t->dimensions;
    int *coord = g_new0(int, (gsize)t->nodes * axes);
    gboolean *seen = g_new0(gboolean, t->nodes);
    uint32_t *queue = g_new(uint32_t, t->nodes);
    guint head = 0, tail = 0;
    gboolean ok = TRUE;
    queue[tail++] = 0;
    seen[0] = TRUE;
    while (ok && head < tail) {
        uint32_t v = queue[head++];
        guint n;
        const uint32_t *out = trace_index_out(r->index, v, &n);
        for (guint i = 0; i < n && ok; i++) {
            const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, out[i]);
            int want[3] = { 0, 0, 0 };
            for (guint a = 0; a < axes; a++)
                want[a] = coord[(gsize)v * axes + a];
            want[ch->dimension] += ch->direction;
            if (!seen[ch->dest]) {
                seen[ch->dest] = TRUE;
                memcpy(&coord[(gsize)ch->dest * axes], want, sizeof(int) * axes);
                queue[tail++] = ch->dest;
            } else {
                for (guint a = 0; a < axes; a++)
                    ok &= coord[(gsize)ch->dest * axes + a] == want[a];
            }
        }
    }
    ok &= tail == t->nodes;
    if (ok) {
        int lo[3] = { 0, 0, 0 }, hi[3] = { 0, 0, 0 };
        for (uint32_t v = 0; v < t->nodes; v++)
            for (guint a = 0; a < axes; a++) {
                lo[a] = MIN(lo[a], coord[(gsize)v * axes + a]);
                hi[a] = MAX(hi[a], coord[(gsize)v * axes + a]);
            }
        for (uint32_t v = 0; v < t->nodes; v++) {
            int c[3] = { 0, 0, 0 };
            for (guint a = 0; a < axes; a++)
                c[a] = coord[(gsize)v * axes + a] - lo[a];
            r->ax[v] = c[0] + c[2] * (hi[0] - lo[0] + GRAPH_LAYER_GAP);
            r->ay[v] = c[1];
        }
    }
    g_free(coord);
    g_free(seen);
    g_free(queue);
    return ok;
}

static void place_circle(Render *r)
{
    const Trace *t = r->trace;
    for (uint32_t v = 0; v < t->nodes; v++) {
        double a = 2 * G_PI * v / t->nodes - G_PI / 2;
        r->ax[v] = cos(a) * t->nodes / (2 * G_PI);
        r->ay[v] = sin(a) * t->nodes / (2 * G_PI);
    }
}

static void graph_place(Render *r)
{
    const Trace *t = r->trace;
    r->is_cube = !g_strcmp0(trace_info(t, "topology"), "cube");
    if (r->is_cube && t->dimensions > GRAPH_MAX_CUBE_DIMENSIONS) {
        r->graph_why = "the graph view draws cubes up to 6 dimensions "
                       "(64 nodes); this is the matrix view";
        return;
    }
    if (!r->is_cube && t->nodes > GRAPH_MAX_NODES) {
        r->graph_why = "the graph view draws up to 512 nodes; this is the "
                       "matrix view";
        return;
    }
    r->graph_ok = TRUE;
    r->ax = g_new0(double, t->nodes);
    r->ay = g_new0(double, t->nodes);
    r->bulge = g_new0(double, t->channels->len + 1);
    r->nx = g_new0(double, t->nodes);
    r->ny = g_new0(double, t->nodes);
    r->curve = g_new0(double, (gsize)(t->channels->len + 1) * CURVE_POINTS * 2);
    if (r->is_cube)
        place_cube(r);
    else if (!place_by_coordinates(r))
        place_circle(r);
    r->labels_binary = r->is_cube;
}

/* Fit the abstract drawing into the main region and build each channel's
 * polyline: the shared centre curve of its edge (a straight line or a
 * quadratic arc), offset to the right of the direction of travel, so the
 * two channels of an edge run side by side. */
static void graph_layout(Render *r)
{
    if (!r->graph_ok)
        return;
    const Trace *t = r->trace;
    double x0 = G_MAXDOUBLE, x1 = -G_MAXDOUBLE, y0 = G_MAXDOUBLE, y1 = -G_MAXDOUBLE;
    for (uint32_t v = 0; v < t->nodes; v++) {
        x0 = MIN(x0, r->ax[v]); x1 = MAX(x1, r->ax[v]);
        y0 = MIN(y0, r->ay[v]); y1 = MAX(y1, r->ay[v]);
    }
    /* The nearest pair of nodes sets the node size. */
    double unit = 1.0;
    if (!r->is_cube && t->channels->len) {
        unit = G_MAXDOUBLE;
        for (guint c = 0; c < t->channels->len; c++) {
            const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, c);
            double d = hypot(r->ax[ch->dest] - r->ax[ch->source],
                             r->ay[ch->dest] - r->ay[ch->source]);
            if (d > 1e-9)
                unit = MIN(unit, d);
        }
        if (unit == G_MAXDOUBLE)
            unit = 1.0;
    }
    double bw = MAX(x1 - x0, unit), bh = MAX(y1 - y0, unit);
    double scale = MIN((r->main.w - 2 * GRAPH_PAD) / bw, (r->main.h - 2 * GRAPH_PAD) / bh);
    double px = unit * scale;     /* pixels between neighbours */
    /* Sizes in proportion to that distance, within what stays legible
     * (node labels, two channels side by side) and what stays tidy. */
    r->node_r = CLAMP(0.15 * px, 4.0, 20.0);
    r->channel_gap = CLAMP(0.05 * px, 2.2, 6.0);
    r->line_width = CLAMP(0.032 * px, 2.0, 3.5);
    double cx = r->main.x + r->main.w / 2.0 - (x0 + x1) / 2 * scale;
    double cy = r->main.y + r->main.h / 2.0 - (y0 + y1) / 2 * scale;
    for (uint32_t v = 0; v < t->nodes; v++) {
        r->nx[v] = cx + r->ax[v] * scale;
        r->ny[v] = cy + r->ay[v] * scale;
    }
    for (guint c = 0; c < t->channels->len; c++) {
        const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, c);
        /* The edge's curve goes from the lower address to the higher, the
         * same for both channels of the edge. */
        gboolean forward = ch->source < ch->dest;
        uint32_t a = forward ? ch->source : ch->dest;
        uint32_t b = forward ? ch->dest : ch->source;
        double ax = r->nx[a], ay = r->ny[a], bx = r->nx[b], by = r->ny[b];
        double len = hypot(bx - ax, by - ay);
        double mx = (ax + bx) / 2 + (by - ay) * r->bulge[c] * 2;
        double my = (ay + by) / 2 - (bx - ax) * r->bulge[c] * 2;
        double *p = &r->curve[(gsize)c * CURVE_POINTS * 2];
        double pts[CURVE_POINTS][2];
        for (int k = 0; k < CURVE_POINTS; k++) {
            double s = (double)k / CURVE_SEGMENTS;
            pts[k][0] = (1 - s) * (1 - s) * ax + 2 * s * (1 - s) * mx + s * s * bx;
            pts[k][1] = (1 - s) * (1 - s) * ay + 2 * s * (1 - s) * my + s * s * by;
        }
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

/* Columns: one per dimension when no node has two outgoing channels in
 * one dimension (the cube: a node's channel in dimension d goes up or
 * down by its bit d), so no cell is empty; else one per (dimension,
 * direction), as for meshes. */
static void matrix_cells(Render *r)
{
    const Trace *t = r->trace;
    guint nch = t->channels->len;
    r->groups = trace_index_groups(r->index);
    guint dims = 0;
    for (guint g = 0; g < r->groups; g++) {
        int d;
        trace_index_group(r->index, g, &d, NULL, NULL);
        dims = MAX(dims, (guint)d + 1);
    }
    gboolean per_dimension = TRUE;
    g_autoptr(GHashTable) seen = g_hash_table_new(g_int64_hash, g_int64_equal);
    gint64 *keys = g_new(gint64, nch ? nch : 1);
    for (guint c = 0; c < nch && per_dimension; c++) {
        const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, c);
        keys[c] = (gint64)ch->source * (dims + 1) + ch->dimension;
        per_dimension = g_hash_table_add(seen, &keys[c]);
    }
    r->columns = per_dimension ? dims : r->groups;
    guint cols = MAX(r->columns, 1u);
    r->column_dimension = g_new0(int, cols);
    for (guint k = 0; k < r->columns; k++) {
        if (per_dimension)
            r->column_dimension[k] = (int)k;
        else
            trace_index_group(r->index, k, &r->column_dimension[k], NULL, NULL);
    }
    r->column_of = g_new0(guint, nch ? nch : 1);
    gsize cells = (gsize)t->nodes * cols;
    r->cell_channel = g_new(int32_t, cells);
    for (gsize i = 0; i < cells; i++)
        r->cell_channel[i] = -1;
    for (guint c = 0; c < nch; c++) {
        const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, c);
        r->column_of[c] = per_dimension ? ch->dimension
                                        : trace_index_group_of(r->index, c);
        gsize i = (gsize)ch->source * cols + r->column_of[c];
        if (r->cell_channel[i] < 0)
            r->cell_channel[i] = (int32_t)c;
    }
    g_free(keys);
    r->col_x = g_new0(int, cols);
    r->col_w = g_new0(int, cols);
}

/* Nodes run down the rows of up to MATRIX_MAX_BLOCKS blocks side by side;
 * choose the number of blocks that gives the tallest rows while cells
 * stay at least MATRIX_MIN_CELL_WIDTH wide and near MATRIX_CELL_ASPECT. */
static void matrix_layout(Render *r)
{
    const Trace *t = r->trace;
    int header = 2 * draw_font_height(&r->canvas, FONT_SMALL) + 6;
    r->matrix_y0 = r->main.y + header;
    r->matrix_h = MAX(r->main.h - header, 1);
    guint g = MAX(r->columns, 1u);
    double best = -1;
    r->blocks = 1;
    for (guint b = 1; b <= MATRIX_MAX_BLOCKS && b <= t->nodes; b++) {
        double bw = (r->main.w - (double)(b - 1) * MATRIX_BLOCK_GAP) / b;
        double cell_w = bw / g;
        if (cell_w < MATRIX_MIN_CELL_WIDTH && b > 1)
            break;
        guint rows = (t->nodes + b - 1) / b;
        double cell_h = (double)r->matrix_h / rows;
        double score = MIN(cell_h, cell_w / MATRIX_CELL_ASPECT);
        if (score > best + 1e-9) {
            best = score;
            r->blocks = b;
        }
    }
    r->rows = (t->nodes + r->blocks - 1) / r->blocks;
    r->block_w = (r->main.w - (int)(r->blocks - 1) * MATRIX_BLOCK_GAP) / (int)r->blocks;
    r->block_x0 = r->main.x;
    /* A wider gap between dimensions than between the two directions of
     * one. */
    int gaps = 0;
    for (guint k = 0; k + 1 < r->columns; k++)
        gaps += r->column_dimension[k] != r->column_dimension[k + 1] ? 3 : 1;
    double cw = MAX((double)(r->block_w - gaps) / g, 1.0);
    double x = 0;
    for (guint k = 0; k < r->columns; k++) {
        r->col_x[k] = (int)lround(x);
        r->col_w[k] = MAX((int)lround(x + cw) - r->col_x[k], 1);
        x += cw;
        if (k + 1 < r->columns)
            x += r->column_dimension[k] != r->column_dimension[k + 1] ? 3 : 1;
    }
}

/* Pixel rows [y0, y1) of node v's row in its block. */
static void matrix_node_rows(const Render *r, uint32_t v, int *x, int *y0, int *y1)
{
    guint b = v / r->rows, i = v % r->rows;
    *x = r->block_x0 + (int)b * (r->block_w + MATRIX_BLOCK_GAP);
    *y0 = r->matrix_y0 + (int)((double)i * r->matrix_h / r->rows);
    *y1 = r->matrix_y0 + (int)((double)(i + 1) * r->matrix_h / r->rows);
}

/* ---- timeline ---------------------------------------------------------- */

/* Utilisation of all channels per plot column, in one pass over the
 * records. */
static void timeline_layout(Render *r)
{
    const Trace *t = r->trace;
    int label_h = draw_font_height(&r->canvas, FONT_SMALL);
    r->plot = (SDL_Rect){ r->timeline.x + MARGIN, r->timeline.y + label_h + 6,
                          r->timeline.w - 2 * MARGIN,
                          r->timeline.h - 2 * label_h - 14 };
    g_free(r->histogram);
    int w = MAX(r->plot.w, 1);
    r->histogram = g_new0(double, w);
    if (t->cycles <= 0 || !t->channels->len)
        return;
    double per_col = (double)t->cycles / w;
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        double s = (double)b->start, e = s + (double)b->count * t->element_time;
        int c0 = (int)(s / per_col), c1 = MIN((int)(e / per_col), w - 1);
        for (int c = c0; c <= c1; c++) {
            double lo = MAX(s, c * per_col), hi = MIN(e, (c + 1) * per_col);
            if (hi > lo)
                r->histogram[c] += hi - lo;
        }
    }
    for (int c = 0; c < w; c++)
        r->histogram[c] /= per_col * t->channels->len;
}

static void timeline_marks(Render *r)
{
    const Trace *t = r->trace;
    r->mark_times = g_new(Tick, t->marks->len + 1);
    for (guint i = 0; i < t->marks->len; i++) {
        Tick time = g_array_index(t->marks, TraceMark, i).time;
        if (!r->mark_time_count || r->mark_times[r->mark_time_count - 1] != time)
            r->mark_times[r->mark_time_count++] = time;
    }
}

static int timeline_x(const Render *r, Tick cycle)
{
    Tick span = MAX(r->trace->cycles, 1);
    return r->plot.x + (int)((double)cycle * r->plot.w / span);
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
    timeline_layout(r);
}

Render *render_new(const Trace *t, int width, int height, GError **error)
{
    Render *r = g_new0(Render, 1);
    r->trace = t;
    r->width = MAX(width, RENDER_MIN_WIDTH);
    r->height = MAX(height, RENDER_MIN_HEIGHT);
    if (!canvas_init(&r->canvas, r->width, r->height, error)) {
        g_free(r);
        return NULL;
    }
    r->index = trace_index_new(t);
    r->title = trace_title(t);
    r->util = g_new0(double, t->channels->len + 1);
    graph_place(r);
    matrix_cells(r);
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
    g_free(r->bulge);
    g_free(r->nx);
    g_free(r->ny);
    g_free(r->curve);
    g_free(r->cell_channel);
    g_free(r->column_dimension);
    g_free(r->column_of);
    g_free(r->col_x);
    g_free(r->col_w);
    g_free(r->histogram);
    g_free(r->mark_times);
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

gboolean render_channel_point(Render *r, ViewKind kind, uint32_t channel,
                              int *x, int *y)
{
    const Trace *t = r->trace;
    if (channel >= t->channels->len)
        return FALSE;
    if (kind == VIEW_GRAPH) {
        if (!r->graph_ok)
            return FALSE;
        const double *p = &r->curve[(gsize)channel * CURVE_POINTS * 2];
        *x = (int)floor(p[CURVE_SEGMENTS]);          /* point k = SEGMENTS/2 */
        *y = (int)floor(p[CURVE_SEGMENTS + 1]);
        return TRUE;
    }
    const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, channel);
    guint g = r->column_of[channel];
    int bx, y0, y1;
    matrix_node_rows(r, ch->source, &bx, &y0, &y1);
    if (y1 <= y0)
        return FALSE;
    *x = bx + r->col_x[g] + r->col_w[g] / 2;
    *y = (y0 + y1 - 1) / 2;
    return TRUE;
}

/* ---- hover ------------------------------------------------------------- */

typedef struct {
    int64_t node;                 /* -1 if none */
    int64_t channel;              /* -1 if none */
} Hover;

static double segment_distance(double px, double py, const double *a)
{
    double dx = a[2] - a[0], dy = a[3] - a[1];
    double l2 = dx * dx + dy * dy;
    double s = l2 > 0 ? ((px - a[0]) * dx + (py - a[1]) * dy) / l2 : 0;
    s = CLAMP(s, 0.0, 1.0);
    return hypot(px - (a[0] + s * dx), py - (a[1] + s * dy));
}

static Hover hover_find(const Render *r, const ViewState *s)
{
    Hover h = { -1, -1 };
    const Trace *t = r->trace;
    int mx = s->mouse_x, my = s->mouse_y;
    if (mx < r->main.x || my < r->main.y || mx >= r->main.x + r->main.w
        || my >= r->main.y + r->main.h)
        return h;
    if (s->kind == VIEW_GRAPH && r->graph_ok) {
        double best = r->node_r + 2;
        for (uint32_t v = 0; v < t->nodes; v++) {
            double d = hypot(mx - r->nx[v], my - r->ny[v]);
            if (d <= best) {
                best = d;
                h.node = v;
            }
        }
        if (h.node >= 0)
            return h;
        best = r->channel_gap + 1;
        for (guint c = 0; c < t->channels->len; c++) {
            const double *p = &r->curve[(gsize)c * CURVE_POINTS * 2];
            for (int k = 0; k < CURVE_SEGMENTS; k++) {
                double d = segment_distance(mx, my, p + 2 * k);
                if (d < best) {
                    best = d;
                    h.channel = c;
                }
            }
        }
        return h;
    }
    if (s->kind == VIEW_MATRIX && my >= r->matrix_y0) {
        int rel = mx - r->block_x0;
        int b = rel / (r->block_w + MATRIX_BLOCK_GAP);
        int in = rel - b * (r->block_w + MATRIX_BLOCK_GAP);
        if (b < 0 || (guint)b >= r->blocks || in >= r->block_w)
            return h;
        guint row = (guint)((double)(my - r->matrix_y0) * r->rows / r->matrix_h);
        uint64_t v = (uint64_t)b * r->rows + MIN(row, r->rows - 1);
        if (v >= t->nodes)
            return h;
        h.node = (int64_t)v;
        for (guint k = 0; k < r->columns; k++)
            if (in >= r->col_x[k] && in < r->col_x[k] + r->col_w[k])
                h.channel = r->cell_channel[v * r->columns + k];
    }
    return h;
}

static void node_name(const Render *r, uint32_t v, char *buf, gsize size)
{
    if (r->labels_binary && r->trace->dimensions > 0) {
        guint n = r->trace->dimensions;
        for (guint i = 0; i < n && i + 1 < size; i++)
            buf[i] = ((v >> (n - 1 - i)) & 1) ? '1' : '0';
        buf[MIN(n, size - 1)] = '\0';
    } else {
        g_snprintf(buf, size, "%u", v);
    }
}

static char *hover_text(const Render *r, const ViewState *s, Hover h,
                        Tick from, Tick to)
{
    const Trace *t = r->trace;
    char name[40];
    if (h.channel >= 0) {
        uint32_t c = (uint32_t)h.channel;
        const TraceChannel *ch = &g_array_index(t->channels, TraceChannel, c);
        const TraceBusy *b = trace_index_at(r->index, c, s->cycle);
        GString *g = g_string_new(NULL);
        g_string_append_printf(g, "channel %u -> %u (dimension %u %s): busy %"
                               G_GINT64_FORMAT " of %" G_GINT64_FORMAT
                               " cycles in the window; whole run: %" G_GUINT64_FORMAT
                               " elements, %" G_GUINT64_FORMAT " message(s)",
                               ch->source, ch->dest, ch->dimension,
                               trace_direction_name(ch->direction),
                               (gint64)trace_index_busy(r->index, c, from, to),
                               (gint64)(to - from),
                               (guint64)trace_index_elements(r->index, c),
                               (guint64)trace_index_messages(r->index, c));
        if (b) {
            const TraceMessage *m = &g_array_index(t->messages, TraceMessage, b->message);
            g_string_append_printf(g, "; now message %u (%u -> %u, tag %d, "
                                   "element %" G_GUINT64_FORMAT " of %"
                                   G_GUINT64_FORMAT ")", b->message, m->source,
                                   m->dest, m->tag,
                                   (guint64)(b->first + (uint64_t)((s->cycle - b->start)
                                                                   / t->element_time)),
                                   (guint64)m->count);
        }
        return g_string_free(g, FALSE);
    }
    if (h.node >= 0) {
        uint32_t v = (uint32_t)h.node;
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
        node_name(r, v, name, sizeof name);
        const char *phase = trace_index_node_phase(r->index, v, s->cycle);
        return g_strdup_printf("node %u (%s): sent %" G_GUINT64_FORMAT
                               ", received %" G_GUINT64_FORMAT " elements over "
                               "the run; outgoing channels %.0f%% busy in the "
                               "window; phase: %s", v, name, (guint64)sent,
                               (guint64)received,
                               nout && to > from
                                   ? 100.0 * busy_out / ((double)nout * (to - from))
                                   : 0.0,
                               phase ? phase : "-");
    }
    return NULL;
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

static void draw_header(Render *r, const ViewState *s, Tick from, Tick to)
{
    Canvas *c = &r->canvas;
    draw_rect(c, 0, 0, r->width, HEADER_HEIGHT, C_PANEL);
    text_fit(r, FONT_LARGE, MARGIN, 6, r->width - 2 * MARGIN, C_TEXT, r->title);
    uint32_t nodes = 0;
    const char *phase = trace_index_phase(r->index, s->cycle, &nodes);
    g_autofree char *phase_text = phase
        ? (nodes == r->trace->nodes ? g_strdup_printf("%s (all nodes)", phase)
                                    : g_strdup_printf("%s (%u of %u nodes)", phase,
                                                      nodes, r->trace->nodes))
        : g_strdup("-");
    g_autofree char *line = g_strdup_printf(
        "cycle %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT "    window %"
        G_GINT64_FORMAT "..%" G_GINT64_FORMAT "    phase: %s",
        (gint64)s->cycle, (gint64)r->trace->cycles, (gint64)from,
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
    /* At 5/8 of the way: tip ahead along the tangent, base behind it. */
    int k = CURVE_SEGMENTS * 5 / 8;
    double x = p[2 * k], y = p[2 * k + 1];
    double tx = p[2 * k + 2] - p[2 * k - 2], ty = p[2 * k + 3] - p[2 * k - 1];
    double l = hypot(tx, ty);
    if (l < 1e-9)
        return;
    tx /= l;
    ty /= l;
    double tri[6] = { x + tx * size, y + ty * size,
                      x - tx * size * 0.6 - ty * size * 0.6,
                      y - ty * size * 0.6 + tx * size * 0.6,
                      x - tx * size * 0.6 + ty * size * 0.6,
                      y - ty * size * 0.6 - tx * size * 0.6 };
    draw_polygon(c, tri, 3, color);
}

static void draw_graph(Render *r, Hover h)
{
    const Trace *t = r->trace;
    Canvas *c = &r->canvas;
    /* Busy channels are drawn wider, so activity stands out even where
     * colours are hard to tell apart. */
    double busy_width = r->line_width + 1.5;
    double arrow = CLAMP(r->channel_gap * 1.6, 3.5, 8.0);
    /* Idle channels first, busy ones over them. */
    for (int pass = 0; pass < 2; pass++)
        for (guint ch = 0; ch < t->channels->len; ch++) {
            gboolean busy = r->util[ch] > 0;
            if (busy != (pass == 1))
                continue;
            const double *p = &r->curve[(gsize)ch * CURVE_POINTS * 2];
            Color col = render_heat(r->util[ch]);
            draw_polyline(c, p, CURVE_POINTS, busy ? busy_width : r->line_width,
                          0, col);
            draw_arrow(c, p, busy ? arrow * 1.25 : arrow, col);
        }
    if (h.channel >= 0) {
        const double *p = &r->curve[(gsize)h.channel * CURVE_POINTS * 2];
        draw_polyline(c, p, CURVE_POINTS, 1.0, 0, C_HOVER);
    }
    char name[40];
    for (uint32_t v = 0; v < t->nodes; v++) {
        gboolean hot = h.node == (int64_t)v;
        draw_disc(c, r->nx[v], r->ny[v], r->node_r, hot ? C_HOVER : C_NODE_RING);
        draw_disc(c, r->nx[v], r->ny[v], r->node_r - 1.5, C_NODE);
        node_name(r, v, name, sizeof name);
        int w = draw_text_width(c, FONT_SMALL, name);
        int fh = draw_font_height(c, FONT_SMALL);
        if (w <= 2 * r->node_r - 3)
            draw_text(c, FONT_SMALL, (int)lround(r->nx[v]),
                      (int)lround(r->ny[v] - fh / 2.0), ALIGN_CENTER, C_TEXT, name);
        else
            draw_text(c, FONT_SMALL, (int)lround(r->nx[v]),
                      (int)lround(r->ny[v] + r->node_r + 1), ALIGN_CENTER,
                      C_TEXT, name);
    }
}

static void draw_matrix(Render *r, Hover h)
{
    const Trace *t = r->trace;
    Canvas *c = &r->canvas;
    int fh = draw_font_height(c, FONT_SMALL);
    char label[64];
    for (guint b = 0; b < r->blocks; b++) {
        int bx = r->block_x0 + (int)b * (r->block_w + MATRIX_BLOCK_GAP);
        uint32_t first = b * r->rows;
        if (first >= t->nodes)
            break;
        uint32_t last = MIN(first + r->rows, t->nodes) - 1;
        g_snprintf(label, sizeof label, "nodes %u..%u", first, last);
        if (draw_text_width(c, FONT_SMALL, label) > r->block_w)
            g_snprintf(label, sizeof label, "%u..%u", first, last);
        text_fit(r, FONT_SMALL, bx, r->main.y, r->block_w, C_TEXT_DIM, label);
        /* Dimension numbers over their columns, where they fit. */
        int next_free = bx;
        for (guint k = 0; k < r->columns; k++) {
            int d = r->column_dimension[k];
            if (k > 0 && r->column_dimension[k - 1] == d)
                continue;
            int x0 = bx + r->col_x[k], x1 = x0 + r->col_w[k];
            if (k + 1 < r->columns && r->column_dimension[k + 1] == d)
                x1 = bx + r->col_x[k + 1] + r->col_w[k + 1];
            g_snprintf(label, sizeof label, "%d", d);
            int w = draw_text_width(c, FONT_SMALL, label);
            int cx = (x0 + x1) / 2;
            if (cx - w / 2 >= next_free) {
                draw_text(c, FONT_SMALL, cx, r->main.y + fh + 2, ALIGN_CENTER,
                          C_TEXT_DIM, label);
                next_free = cx + w / 2 + 4;
            }
        }
        /* Rows of pixels: the nodes a row covers, their mean utilisation
         * per column (one node per row whenever the space allows; tall
         * rows keep a dark line between nodes). */
        gboolean separate = (double)r->matrix_h / r->rows >= MATRIX_ROW_GAP_FROM;
        for (int py = 0; py < r->matrix_h; py++) {
            guint i0 = (guint)((double)py * r->rows / r->matrix_h);
            guint i1 = (guint)((double)(py + 1) * r->rows / r->matrix_h);
            if (separate && i1 > i0)
                continue;
            i1 = MAX(i1, i0 + 1);
            for (guint k = 0; k < r->columns; k++) {
                double sum = 0;
                guint n = 0;
                for (guint i = i0; i < i1; i++) {
                    uint64_t v = (uint64_t)first + i;
                    if (i >= r->rows || v >= t->nodes)
                        break;
                    int32_t ch = r->cell_channel[v * r->columns + k];
                    if (ch >= 0) {
                        sum += r->util[ch];
                        n++;
                    }
                }
                if (n)
                    draw_rect(c, bx + r->col_x[k], r->matrix_y0 + py, r->col_w[k],
                              1, render_heat(sum / n));
            }
        }
    }
    if (h.node >= 0) {
        int x, y0, y1;
        matrix_node_rows(r, (uint32_t)h.node, &x, &y0, &y1);
        draw_frame(c, x - 2, y0 - 1, r->block_w + 4, MAX(y1 - y0, 1) + 2, C_HOVER);
    }
}

static void draw_side(Render *r)
{
    Canvas *c = &r->canvas;
    const SDL_Rect *s = &r->side;
    draw_rect(c, s->x, s->y, s->w, s->h, C_PANEL);
    int x = s->x + MARGIN, y = s->y + 8, w = s->w - 2 * MARGIN;
    int fh = draw_font_height(c, FONT_SMALL);
    draw_text(c, FONT_NORMAL, x, y, ALIGN_LEFT, C_TEXT, "utilisation in the window");
    y += draw_font_height(c, FONT_NORMAL) + 4;

    /* Per (dimension, direction): busy channel-cycles / (channels x window). */
    guint ng = r->groups;
    double *sum = g_new0(double, MAX(ng, 1u));
    double total = 0;
    for (guint ch = 0; ch < r->trace->channels->len; ch++) {
        sum[trace_index_group_of(r->index, ch)] += r->util[ch];
        total += r->util[ch];
    }
    int dims = 0, last = -1;
    for (guint g = 0; g < ng; g++) {
        int d;
        trace_index_group(r->index, g, &d, NULL, NULL);
        dims += d != last;
        last = d;
    }
    /* Keys and legend take the bottom; the bars share the rest. */
    int legend_h = 7 * fh + 40;
    int avail = s->y + s->h - legend_h - y;
    int row_h = dims ? CLAMP(avail / dims, 9, 30) : 0;
    int label_w = draw_text_width(c, FONT_SMALL, "d00 ");
    int pct_w = draw_text_width(c, FONT_SMALL, "100%");
    int bar_w = w - label_w - pct_w - 6;
    char text[64];
    last = -1;
    int row = -1;
    for (guint g = 0; g < ng && (row + 2) * row_h <= avail; g++) {
        int d, dir;
        guint size;
        trace_index_group(r->index, g, &d, &dir, &size);
        if (d != last) {
            row++;
            last = d;
            g_snprintf(text, sizeof text, "d%d", d);
            draw_text(c, FONT_SMALL, x, y + row * row_h + (row_h - fh) / 2,
                      ALIGN_LEFT, C_TEXT_DIM, text);
        }
        double u = size ? sum[g] / size : 0;
        int half = MAX((row_h - 4) / 2, 2);
        int by = y + row * row_h + 1 + (dir > 0 ? 0 : half + 1);
        draw_rect(c, x + label_w, by, bar_w, half, C_BACKGROUND);
        draw_rect(c, x + label_w, by, (int)lround(u * bar_w), half, render_heat(u));
        if (row_h >= 16 || dir > 0) {
            g_snprintf(text, sizeof text, "%.0f%%", 100 * u);
            draw_text(c, FONT_SMALL, x + w, by + half / 2 - fh / 2, ALIGN_RIGHT,
                      C_TEXT_DIM, text);
        }
    }
    y = s->y + s->h - legend_h + 6;
    guint nch = r->trace->channels->len;
    g_snprintf(text, sizeof text, "all channels %.1f%%  (bars: up, down)",
               nch ? 100 * total / nch : 0.0);
    draw_text(c, FONT_SMALL, x, y, ALIGN_LEFT, C_TEXT, text);
    y += fh + 6;
    for (int i = 0; i < w; i++)
        draw_rect(c, x + i, y, 1, 10, render_heat((double)i / (w - 1)));
    y += 12;
    draw_text(c, FONT_SMALL, x, y, ALIGN_LEFT, C_TEXT_DIM, "idle");
    draw_text(c, FONT_SMALL, x + w, y, ALIGN_RIGHT, C_TEXT_DIM, "busy all window");
    y += fh + 6;
    static const char *const keys[] = {
        "space play/pause   left/right step",
        "+/- speed   [ ] window   Home/End",
        "g graph   m matrix   q quit",
        "click the timeline to jump",
    };
    for (guint i = 0; i < G_N_ELEMENTS(keys); i++) {
        draw_text(c, FONT_SMALL, x, y, ALIGN_LEFT, C_TEXT_DIM, keys[i]);
        y += fh;
    }
    g_free(sum);
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
        int bh = (int)lround(MIN(r->histogram[i], 1.0) * (p->h - 2));
        if (bh > 0)
            draw_rect(c, p->x + i, p->y + p->h - bh, 1, bh, C_ACCENT);
    }
    /* Marks: a tick at each time a phase began, its label where there is
     * room. */
    int label_end = -1;
    for (guint i = 0; i < r->mark_time_count; i++) {
        int x = timeline_x(r, r->mark_times[i]);
        draw_rect(c, x, p->y, 1, p->h, C_GRID);
        const char *label = trace_index_phase_begun(r->index, r->mark_times[i], NULL);
        int w = draw_text_width(c, FONT_SMALL, label);
        if (label && x > label_end && x + w < p->x + p->w) {
            draw_text(c, FONT_SMALL, x + 2, r->timeline.y + 3, ALIGN_LEFT,
                      C_TEXT_DIM, label);
            label_end = x + w + 8;
        }
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
        draw_graph(r, h);
    else
        draw_matrix(r, h);
    draw_header(r, &vs, from, to);
    draw_side(r);
    draw_rect(c, 0, r->status.y, r->width, r->status.h, C_BACKGROUND);
    g_autofree char *hover = hover_text(r, &vs, h, from, to);
    const char *status = hover ? hover : s->notice ? s->notice
        : vs.kind == VIEW_GRAPH
            ? "graph: every directed channel drawn to the right of its direction, "
              "coloured by its share of busy cycles in the window; hover for counts"
            : r->columns < r->groups
                ? "matrix: a row per node, a column per dimension (the node's "
                  "channel across it), coloured by busy share in the window; "
                  "hover for counts"
                : "matrix: a row per node, a column per dimension and direction "
                  "(up, down), coloured by busy share in the window; hover for counts";
    text_fit(r, FONT_SMALL, MARGIN, r->status.y + 4, r->width - 2 * MARGIN,
             hover ? C_TEXT : C_TEXT_DIM, status);
    draw_timeline(r, &vs, from, to);
}
