/* axistree.h -- spread and reduce along one axis of a processor array
 * (procgrid.h), the broadcast and the summation the level-2 distributed
 * BLAS of Mathur & Johnsson (1992, Section 3) and CMSSL's nonsystolic
 * matrix products (Section 4.1) run between their alignments.
 *
 * A spread copies memory[off, off + count) from the node at coordinate 0
 * of the axis to every node of its line; a reduce sums every node's
 * memory[off, off + count) into coordinate 0's, the additions done for
 * real and charged with node_compute (one flop per word). Both take
 * log2 S steps for an axis of S = 2^bits processors: a node program calls
 * axistree_spread for step 0 .. bits - 1 and axistree_reduce for step
 * 0 .. bits (the last only adds), one step per node step, every node of
 * the machine with the same step.
 *
 * On a cube the segment is cut into min(bits, count) parts that follow
 * the rotated spanning binomial trees of Johnsson & Ho (the paper's ref.
 * [14]): all parts move at once on different channels, one hop each, so a
 * spread costs about count element times instead of bits count (the proof
 * is in axistree.c). On a torus one binomial tree runs over the ring
 * positions, step b's partner 2^b positions away: one hop for b = 0, a
 * router message otherwise.
 */
#ifndef CUBE_AXISTREE_H
#define CUBE_AXISTREE_H

#include "node.h"
#include "procgrid.h"

typedef struct {
    const ProcGrid *grid;
    gboolean cube;                /* all-port trees (a cube) or one tree */
    unsigned cbits;               /* log2 N_c: the cube's column bits */
    size_t words;                 /* words per element */
} AxisTree;

/* Spread step k (0 .. bits - 1) of memory[off, off + count) from
 * coordinate 0 along axis, an axis of 2^bits processors. */
void axistree_spread(Node *node, const AxisTree *t, ProcGridAxis axis,
                     unsigned bits, unsigned k, size_t off, size_t count,
                     int tag);

/* Reduce step k (0 .. bits) into coordinate 0: first add what step k - 1
 * received into memory[buf, buf + count), then send or receive; step bits
 * only adds. */
void axistree_reduce(Node *node, const AxisTree *t, ProcGridAxis axis,
                     unsigned bits, unsigned k, size_t off, size_t buf,
                     size_t count, int tag);

/* How many parts a segment of count elements is cut into on the cube. */
unsigned axistree_parts(unsigned bits, size_t count);

/* Messages and elements of one spread or reduce over an axis of 2^bits
 * processors in each of `lines` lines, a segment of count elements, added
 * to msgs[class] and elems[class] (counted from the trees' definition,
 * independently of the node program). */
void axistree_count(const AxisTree *t, unsigned bits, uint32_t lines,
                    size_t count, uint64_t msgs[CLASS_COUNT],
                    uint64_t elems[CLASS_COUNT]);

#endif
