/* procgrid.c -- the processor array of the matrix algorithms (procgrid.h). */
#include "procgrid.h"

#include <stdlib.h>
#include <string.h>
#include "bits.h"
#include "graycode.h"
#include "shape.h"

gboolean procgrid_parse(const char *text, uint32_t *rows, uint32_t *cols,
                        char **why)
{
    static const ShapeSpec spec = {
        .form = "RxC (say 16x16 or auto)",
        .min_extents = 2, .max_extents = 2, .min = 1, .max = TOPOLOGY_MAX_NODES,
    };
    uint64_t rc[2];
    ShapeFailure fault;
    g_autofree char *not_rxc = NULL;
    /* Out of range is said below, with the powers of two. */
    if (!shape_parse(text, &spec, rc, NULL, &fault, &not_rxc)
        && fault.fault != SHAPE_RANGE) {
        *why = g_steal_pointer(&not_rxc);
        return FALSE;
    }
    if (!bits_is_pow2(rc[0]) || !bits_is_pow2(rc[1])
        || rc[0] > TOPOLOGY_MAX_NODES || rc[1] > TOPOLOGY_MAX_NODES) {
        *why = g_strdup_printf("%" G_GUINT64_FORMAT "x%" G_GUINT64_FORMAT
                               ": both extents must be powers of two (1, 2, "
                               "4, ...)", rc[0], rc[1]);
        return FALSE;
    }
    *rows = (uint32_t)rc[0];
    *cols = (uint32_t)rc[1];
    return TRUE;
}

gboolean procgrid_init(ProcGrid *g, const Machine *m, uint32_t rows,
                       uint32_t cols, char **why)
{
    const Topology *t = &m->topology;
    memset(g, 0, sizeof *g);
    g->topology = *t;
    g->rows = rows;
    g->cols = cols;
    if (!bits_is_pow2(rows) || !bits_is_pow2(cols)) {
        *why = g_strdup_printf("processor array %ux%u: both extents must be "
                               "powers of two", rows, cols);
        return FALSE;
    }
    if ((uint64_t)rows * cols != t->nodes) {
        *why = g_strdup_printf("processor array %ux%u has %llu processors; "
                               "the machine has %u nodes", rows, cols,
                               (unsigned long long)rows * cols, t->nodes);
        return FALSE;
    }
    if (topology_has(t, TOPOLOGY_DIMENSIONS)) {
        g->col_bits = bits_log2_floor(cols);
        return TRUE;
    }
    if (topology_has(t, TOPOLOGY_AXES)) {
        gboolean fits = t->axes == 2 ? t->side[1] == rows && t->side[0] == cols
                        : t->axes == 1 && rows == 1 && t->side[0] == cols;
        if (!fits) {
            *why = g_strdup_printf("processor array %ux%u does not match the "
                                   "mesh (its shape is the array: say "
                                   "processors = %ux%u)", rows, cols,
                                   t->axes == 2 ? t->side[1] : 1, t->side[0]);
            return FALSE;
        }
        for (int i = 0; i < t->axes; i++)
            if (!t->wrap && t->side[i] > 2) {
                *why = g_strdup("the mesh has no wrap-around: the cyclic "
                                "shifts need a torus (wrap = yes)");
                return FALSE;
            }
        return TRUE;
    }
    *why = g_strdup_printf("topology '%s' has no processor array (use a "
                           "cube or a torus)", t->ops->name);
    return FALSE;
}

uint32_t procgrid_node(const ProcGrid *g, uint32_t l, uint32_t m)
{
    if (topology_has(&g->topology, TOPOLOGY_DIMENSIONS))
        return (uint32_t)(gray_encode(l) << g->col_bits | gray_encode(m));
    return l * g->cols + m;
}

void procgrid_coords(const ProcGrid *g, uint32_t node, uint32_t *l,
                     uint32_t *m)
{
    if (topology_has(&g->topology, TOPOLOGY_DIMENSIONS)) {
        *l = (uint32_t)gray_decode(node >> g->col_bits);
        *m = (uint32_t)gray_decode(node & ((1u << g->col_bits) - 1));
        return;
    }
    *l = node / g->cols;
    *m = node % g->cols;
}

/* On the cube, the address bit that a step along `axis` flips: the axis's
 * coordinates are Gray-coded, and G(x) and G(x + 1) differ in bit ctz(x +
 * 1), G(n - 1) and G(0) in the top bit (n = 2^k > 1). */
static int cube_step_bit(const ProcGrid *g, uint32_t l, uint32_t m,
                         ProcGridAxis axis, int dir)
{
    uint32_t n = axis == PROCGRID_ROWS ? g->rows : g->cols;
    uint32_t x = axis == PROCGRID_ROWS ? l : m;
    int offset = axis == PROCGRID_ROWS ? g->col_bits : 0;
    uint32_t up = dir > 0 ? x + 1 : x;     /* the higher of the two */
    int bit = up == n || up == 0 ? __builtin_ctz(n) - 1 : __builtin_ctz(up);
    return offset + bit;
}

uint32_t procgrid_step(const ProcGrid *g, uint32_t l, uint32_t m,
                       ProcGridAxis axis, int dir)
{
    uint32_t n = axis == PROCGRID_ROWS ? g->rows : g->cols;
    if (topology_has(&g->topology, TOPOLOGY_DIMENSIONS))
        return n == 1 ? procgrid_node(g, l, m)
                      : procgrid_node(g, l, m)
                        ^ (uint32_t)1 << cube_step_bit(g, l, m, axis, dir);
    uint32_t step = dir > 0 ? 1 : n - 1;
    if (axis == PROCGRID_ROWS)
        return procgrid_node(g, (l + step) % n, m);
    return procgrid_node(g, l, (m + step) % n);
}

int procgrid_link(const ProcGrid *g, uint32_t l, uint32_t m,
                  ProcGridAxis axis, int dir)
{
    if ((axis == PROCGRID_ROWS ? g->rows : g->cols) == 1)
        return -1;
    const Topology *t = &g->topology;
    if (topology_has(t, TOPOLOGY_DIMENSIONS))
        return cube_step_bit(g, l, m, axis, dir);
    uint32_t from = procgrid_node(g, l, m);
    uint32_t to = procgrid_step(g, l, m, axis, dir);
    /* Mesh: the axis's links in the asked direction first (on a side of
     * two the single edge may be either). */
    int mesh_axis = axis == PROCGRID_COLS ? 0 : 1;
    int first = 2 * mesh_axis + (dir > 0 ? 0 : 1);
    int candidates[2] = { first, first ^ 1 };
    for (int i = 0; i < 2; i++)
        if (topology_neighbour(t, from, candidates[i]) == to)
            return candidates[i];
    return -1;
}
