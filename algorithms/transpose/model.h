/* model.h -- the cost model H(N, P) of the transposes of Al Na'mneh, Pan &
 * Yoo (2006), with the corrections docs/papers.md gives.
 *
 * Pure functions of N (elements of the whole matrix), P (processors), the
 * radix r (Bruck) and the machine's Ts and Tw (ticks): no engine, no node
 * program. A block is (sqrt(N)/P) x (sqrt(N)/P) = N/P^2 elements.
 */
#ifndef CUBE_TRANSPOSE_MODEL_H
#define CUBE_TRANSPOSE_MODEL_H

#include <stdint.h>

typedef enum {
    TP_MPICH = 0,
    TP_PAIRWISE,
    TP_BUTTERFLY,
    TP_BRUCK,
    TP_ADAPTIVE
} TpMethod;

/* What one method costs and needs; message sizes in blocks of N/P^2. */
typedef struct {
    unsigned steps;               /* messages each processor sends */
    uint64_t max_message_blocks;  /* the largest of them */
    uint64_t sent_blocks;         /* all of them together */
    uint64_t buffer_blocks;       /* temporary memory, Table 1 */
} TpShape;

/* Blocks k in [0, P) whose digit x in radix r is z: the blocks Bruck's
 * phase 2 sends in step z of sub-phase x (Section 5). Closed form. */
uint64_t tp_bruck_digit_count(uint32_t p, uint32_t r, unsigned x, uint32_t z);

/* Sub-phases w = ceil(log_r P). */
unsigned tp_bruck_subphases(uint32_t p, uint32_t r);

/* Steps, sizes and memory of a method (radix only for TP_BRUCK). */
TpShape tp_shape(TpMethod method, uint32_t p, uint32_t radix);

/* H(N, P) in ticks: Ts per message and Tw per element, messages one
 * after another (one port, startup holding it). */
double tp_model(TpMethod method, double n, uint32_t p, uint32_t radix,
                double ts, double tw);

/* Adaptive (Section 5): the radix in 2..P of least H, ties to the larger
 * radix; the runner-up is the best of the others (same tie rule). P >= 3
 * has a runner-up; for P = 2 it is reported as radix 0, cost 0. */
uint32_t tp_adaptive_radix(double n, uint32_t p, double ts, double tw,
                           uint32_t *runner_up, double *runner_up_cost);

#endif
