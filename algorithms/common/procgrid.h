/* procgrid.h -- a two-dimensional processor array N_r x N_c on the machine,
 * as the matrix algorithms see it (Mathur & Johnsson, Sections 2 and 4.2):
 *
 *   cube   N_r N_c = 2^n, both powers of two; each axis is embedded with
 *          a binary-reflected Gray code, rows in the high address bits:
 *          node (l, m) = G(l) 2^c + G(m) with N_c = 2^c, so that
 *          neighbours along an axis, wrap-around included, are cube
 *          neighbours and every cyclic shift is one hop;
 *   mesh   a torus (wrap = yes) whose shape is N_r x N_c (axis 1 the rows,
 *          axis 0 the columns; a 1-axis torus of side S is 1 x S): the
 *          array is the mesh itself.
 *
 * Prepare builds it from the machine; node programs only ask which node
 * holds (l, m) and which link leads one step along an axis, so they never
 * see a topology's internals.
 */
#ifndef CUBE_PROCGRID_H
#define CUBE_PROCGRID_H

#include <glib.h>
#include <stdint.h>
#include "machine.h"

typedef enum { PROCGRID_ROWS = 0, PROCGRID_COLS = 1 } ProcGridAxis;

typedef struct {
    Topology topology;            /* a copy of the machine's */
    uint32_t rows, cols;          /* N_r, N_c */
    unsigned col_bits;            /* cube: log2 N_c */
} ProcGrid;

/* Parse "RxC" (both powers of two). FALSE with *why (g_free). */
gboolean procgrid_parse(const char *text, uint32_t *rows, uint32_t *cols,
                        char **why);

/* The array rows x cols on machine m: FALSE with *why (g_free) when the
 * machine cannot hold it (not a cube or a torus, another node count or
 * shape, not powers of two). */
gboolean procgrid_init(ProcGrid *g, const Machine *m, uint32_t rows,
                       uint32_t cols, char **why);

uint32_t procgrid_node(const ProcGrid *g, uint32_t l, uint32_t m);
void procgrid_coords(const ProcGrid *g, uint32_t node, uint32_t *l,
                     uint32_t *m);

/* The node one step along `axis` from (l, m), cyclically: dir = +1 to
 * l + 1 (rows) or m + 1 (columns), -1 back. */
uint32_t procgrid_step(const ProcGrid *g, uint32_t l, uint32_t m,
                       ProcGridAxis axis, int dir);
/* The link from (l, m) to procgrid_step(...), or -1 when the axis has a
 * single processor (no step to take). */
int procgrid_link(const ProcGrid *g, uint32_t l, uint32_t m,
                  ProcGridAxis axis, int dir);

#endif
