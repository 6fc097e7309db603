/* dblas.c -- the level-2 Distributed BLAS of Mathur & Johnsson (1992),
 * Section 3: matrix-vector y = A x (matvec), vector-matrix y^T = x^T A
 * (vecmat) and the rank-1 update A = A + x y^T (rank1, ERRATA), for a
 * P x Q matrix A of doubles or complex doubles on an N_r x N_c processor
 * array (procgrid.h: Gray-coded axes on a cube, the torus itself on a mesh).
 *
 * Layout (the CM compilers' consecutive allocation, Section 2):
 *   A      blocks of bp x bq = ceil(P/N_r) x ceil(Q/N_c): node (l, m) holds
 *          rows l bp .. l bp + bp - 1 and columns m bq .. m bq + bq - 1,
 *          row-major, zero where they pass P or Q;
 *   vector of length n: a one-dimensional array over all N nodes in
 *          consecutive blocks of ceil(n/N) elements, block h on node
 *          procgrid_node(h / N_c, h % N_c) (row-major over the array),
 *          zero past n; a vector may be shorter than N (empty blocks).
 * Values are small integers in {-4..-1, 1..4} from a splitmix64 hash of
 * (seed, operand, i, j, part), so every product and sum is exact.
 *
 * Memory of a node, in elements:
 *   matvec, vecmat  [0, vy) y's home block (computed), then A's block
 *                   (unchanged), then x's home block (unchanged): K; then
 *                   scratch: x's segment, y's partial sums, a receive buffer;
 *   rank1           [0, bp bq) A's block (updated, computed), x's and y's
 *                   home blocks (unchanged): K; then x's and y's segments.
 *
 * Phases, as Section 3 lists the steps (matvec; vecmat swaps the axes):
 *   align-x   x's home blocks go to the root row of the array, node (0, m)
 *             receiving the segment for column block m (router messages);
 *   spread-x  down each processor column from row 0 (cube: all-port trees,
 *             torus: one binomial tree);
 *   matvec    the local y_l = A_lm x_m (node_kernel "matvec" and
 *             cblas_dgemv / zgemv);
 *   reduce-y  the trees backwards, summing y_l over m into column 0;
 *   align-y   node (l, 0) sends the segment of row block l home.
 * rank1: align-x (x's segments to column 0, one per row block), align-y
 * (y's to row 0), spread-x (along the rows), spread-y (down the columns),
 * rank1 (node_kernel "rank1", cblas_dger / zgeru). Method combined does
 * the alignment and the spread as one router operation and the reduction
 * and the alignment as another (Section 3; "method combined" below).
 *
 * Spread and reduce: log2 of the axis steps. On the cube they use all
 * ports: the segment is cut into min(k, count) parts that follow the k
 * rotated spanning binomial trees of Johnsson & Ho (the paper's ref. [14];
 * ../common/axistree.c, with the proof), every part one hop
 * per step over the axis's Gray-code bits of the address, the parts of a
 * step on different channels: k steps of about count / k elements instead
 * of k steps of count. The reduce runs the same trees backwards, adding on
 * arrival. This is a cube construction (it needs the k edge-disjoint
 * dimensions of each node). On the torus one binomial tree runs over the
 * ring positions: in step b the partner is 2^b positions along the ring,
 * one hop for b = 0 and a router message (node_send_to) otherwise: log2 S
 * startups against S/2 for a ring pipeline, at the price of S - 1 - log2 S
 * extra element hops, and the whole segment in every step.
 */
#include "algorithm.h"
#include "bits.h"
#include "procgrid.h"
#include "axistree.h"
#include "shape.h"
#include "kernel.h"
#include "variant.h"

#include "blas.h"
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum { DB_MATVEC, DB_VECMAT, DB_RANK1 } DbRoutine;

enum { OP_A = 0, OP_X = 1, OP_Y = 2 };

typedef struct {
    DbRoutine routine;
    ProcGrid grid;
    gboolean cube;
    uint32_t nr, nc, n;
    unsigned rbits, cbits;        /* log2 N_r, log2 N_c */
    uint64_t p, q, seed;
    gboolean complex_;
    size_t w;                     /* words per element */
    size_t bp, bq;                /* A's block */
    uint64_t nx, ny;              /* vector lengths */
    size_t vx, vy;                /* home block sizes */
    /* offsets, elements */
    size_t off_a, off_x, off_y, off_xs, off_ys, off_buf;
    size_t k, memory;
    gboolean auto_array;
    gboolean combined;            /* method combined */
    size_t off_sum;               /* combined: the reduction's receives */
    uint64_t samples;             /* verify = sample:K; 0 = full */
} DbConfig;

static const char *const db_elements[] = { "double", "complex", NULL };

static const AlgorithmMethod db_methods[] = {
    { "tree", "align, spread (cube: all-port rotated binomial trees), local "
              "BLAS, reduce (the trees backwards), align" },
    { "combined", "align and spread in one router operation, local BLAS, "
                  "reduce and align in one (Section 3: Steps 1-2 and 4-5 "
                  "combined)" },
    { NULL, NULL }
};

/* A rank-1 update reduces nothing: it ends with the local ger. */
static const AlgorithmMethod rank1_methods[] = {
    { "tree", "align x and y, spread both (cube: all-port rotated binomial "
              "trees), local BLAS" },
    { "combined", "align and spread x and y in one router operation, local "
                  "BLAS (Section 3.2: Steps 1 and 3, 2 and 4 combined)" },
    { NULL, NULL }
};

static const ParamSpec db_params[] = {
    { .key = "shape", .type = PARAM_TEXT, .fallback = NULL,
      .help = "PxQ, the matrix A" },
    { .key = "processors", .type = PARAM_TEXT, .fallback = "auto",
      .help = "RxC, the processor array N_r x N_c, or auto" },
    { .key = "seed", .type = PARAM_INT, .fallback = "1", .min = 0,
      .max = INT64_MAX, .help = "seed of the operands' values" },
    { .key = "element", .type = PARAM_CHOICE, .fallback = "double",
      .choices = db_elements, .help = "double or complex" },
    { .key = "verify", .type = PARAM_TEXT, .fallback = "auto",
      .help = "full, sample:K or auto (full: a level-2 reference costs "
              "what the routine does)" },
    { .key = NULL }
};

static const char *const matvec_phases[] = {
    "align-x", "spread-x", "matvec", "reduce-y", "align-y", NULL };
static const char *const vecmat_phases[] = {
    "align-x", "spread-x", "vecmat", "reduce-y", "align-y", NULL };
static const char *const rank1_phases[] = {
    "align-x", "align-y", "spread-x", "spread-y", "rank1", NULL };

/* ---- values ---------------------------------------------------------- */

/* A value in {-4..-1, 1..4}: operand op, index (i, j), part 0 real, 1
 * imaginary. */
static double db_value(uint64_t seed, int op, uint64_t i, uint64_t j,
                       int part)
{
    uint64_t h = bits_splitmix64(seed);
    h = bits_splitmix64(h ^ (uint64_t)op);
    h = bits_splitmix64(h ^ i);
    h = bits_splitmix64(h ^ j);
    h = bits_splitmix64(h ^ (uint64_t)part);
    double v = (double)((h & 3) + 1);
    return (h >> 2) & 1 ? -v : v;
}

static void put(const DbConfig *c, Word *mem, size_t at, double re,
                double im)
{
    memcpy(mem + at * c->w, &re, sizeof re);
    if (c->complex_)
        memcpy(mem + at * c->w + 1, &im, sizeof im);
}

static double complex operand(const DbConfig *c, int op, uint64_t i,
                              uint64_t j)
{
    double re = db_value(c->seed, op, i, j, 0);
    double im = c->complex_ ? db_value(c->seed, op, i, j, 1) : 0;
    return re + I * im;
}

/* ---- the two one-dimensional layouts of a vector ---------------------- */

/* HOME: block h on node procgrid_node(h / N_c, h % N_c), every node one.
 * ROWS: block l (of bp) on node (l, 0); COLS: block m (of bq) on (0, m). */
typedef enum { LAY_HOME, LAY_ROWS, LAY_COLS } DbLayoutKind;

typedef struct {
    DbLayoutKind kind;
    size_t block;
} DbLayout;

static uint32_t lay_blocks(const DbConfig *c, DbLayout L)
{
    return L.kind == LAY_HOME ? c->n : L.kind == LAY_ROWS ? c->nr : c->nc;
}

static uint32_t lay_node(const DbConfig *c, DbLayout L, uint32_t b)
{
    switch (L.kind) {
    case LAY_HOME:
        return procgrid_node(&c->grid, b / c->nc, b % c->nc);
    case LAY_ROWS:
        return procgrid_node(&c->grid, b, 0);
    default:
        return procgrid_node(&c->grid, 0, b);
    }
}

/* The block node (l, m) holds, or -1. */
static int64_t lay_block_of(const DbConfig *c, DbLayout L, uint32_t l,
                            uint32_t m)
{
    switch (L.kind) {
    case LAY_HOME:
        return (int64_t)l * c->nc + m;
    case LAY_ROWS:
        return m == 0 ? (int64_t)l : -1;
    default:
        return l == 0 ? (int64_t)m : -1;
    }
}

/* Move a vector of len elements from layout S (at offset so) to layout T
 * (at offset to): one message per pair of overlapping blocks on different
 * nodes, a local copy on the same node. */
static void redistribute(Node *node, const DbConfig *c, uint64_t len,
                         DbLayout S, size_t so, DbLayout T, size_t to,
                         int tag)
{
    uint32_t me = node_address(node), l, m;
    procgrid_coords(&c->grid, me, &l, &m);
    Word *mem = node_memory(node);
    int64_t s = lay_block_of(c, S, l, m);
    if (s >= 0) {
        uint64_t a0 = (uint64_t)s * S.block;
        uint64_t a1 = MIN(a0 + S.block, len);
        for (uint64_t a = a0; a < a1;) {
            uint64_t t = a / T.block;
            uint64_t b = MIN(a1, (t + 1) * T.block);
            uint32_t dest = lay_node(c, T, (uint32_t)t);
            size_t from = so + (size_t)(a - a0);
            if (dest == me)
                memcpy(mem + (to + (size_t)(a - t * T.block)) * c->w,
                       mem + from * c->w, (size_t)(b - a) * c->w * sizeof(Word));
            else
                node_send_to(node, dest, from, (size_t)(b - a), tag);
            a = b;
        }
    }
    int64_t t = lay_block_of(c, T, l, m);
    if (t >= 0) {
        uint64_t a0 = (uint64_t)t * T.block;
        uint64_t a1 = MIN(a0 + T.block, len);
        for (uint64_t a = a0; a < a1;) {
            uint64_t sb = a / S.block;
            uint64_t b = MIN(a1, (sb + 1) * S.block);
            uint32_t src = lay_node(c, S, (uint32_t)sb);
            if (src != me)
                node_recv(node, src, tag, to + (size_t)(a - a0),
                          (size_t)(b - a));
            a = b;
        }
    }
}

/* Messages and elements of redistribute, counted over the blocks. */
static void redistribute_count(const DbConfig *c, uint64_t len, DbLayout S,
                               DbLayout T, uint64_t *msgs, uint64_t *elems)
{
    for (uint32_t s = 0; s < lay_blocks(c, S); s++) {
        uint64_t a0 = (uint64_t)s * S.block, a1 = MIN(a0 + S.block, len);
        for (uint32_t t = 0; t < lay_blocks(c, T) && a0 < a1; t++) {
            uint64_t b0 = MAX(a0, (uint64_t)t * T.block);
            uint64_t b1 = MIN(a1, ((uint64_t)t + 1) * T.block);
            if (b0 < b1 && lay_node(c, S, s) != lay_node(c, T, t)) {
                (*msgs)++;
                *elems += b1 - b0;
            }
        }
    }
}

/* ---- trees along an axis ---------------------------------------------- */

/* The trees along an axis (axistree.h) of this routine's array. */
static AxisTree db_trees(const DbConfig *c)
{
    return (AxisTree){ &c->grid, c->cube, c->cbits, c->w };
}

static void spread_step(Node *node, const DbConfig *c, ProcGridAxis axis,
                        unsigned bits, unsigned k, size_t off, size_t count,
                        int tag)
{
    AxisTree t = db_trees(c);
    axistree_spread(node, &t, axis, bits, k, off, count, tag);
}

static void reduce_step(Node *node, const DbConfig *c, ProcGridAxis axis,
                        unsigned bits, unsigned k, size_t off, size_t buf,
                        size_t count, int tag)
{
    AxisTree t = db_trees(c);
    axistree_reduce(node, &t, axis, bits, k, off, buf, count, tag);
}

/* ---- local BLAS -------------------------------------------------------- */

static void local_kernel(Node *node, const DbConfig *c)
{
    Word *mem = node_memory(node);
    void *A = mem + c->off_a * c->w;
    int bp = (int)c->bp, bq = (int)c->bq;
    uint64_t shape[3] = { c->bp, c->bq, 0 };
    uint64_t flops = 2 * (uint64_t)c->bp * c->bq * (c->complex_ ? 4 : 1);
    const double complex one = 1, zero = 0;
    switch (c->routine) {
    case DB_MATVEC:
    case DB_VECMAT: {
        gboolean mv = c->routine == DB_MATVEC;
        void *x = mem + c->off_xs * c->w, *y = mem + c->off_ys * c->w;
        CBLAS_TRANSPOSE tr = mv ? CblasNoTrans : CblasTrans;
        if (c->complex_)
            cblas_zgemv(CblasRowMajor, tr, bp, bq, &one, A, bq, x, 1, &zero,
                        y, 1);
        else
            cblas_dgemv(CblasRowMajor, tr, bp, bq, 1.0, A, bq, x, 1, 0.0, y, 1);
        node_kernel(node, mv ? "matvec" : "vecmat", shape, flops);
        break;
    }
    case DB_RANK1: {
        void *x = mem + c->off_xs * c->w, *y = mem + c->off_ys * c->w;
        if (c->complex_)
            cblas_zgeru(CblasRowMajor, bp, bq, &one, x, 1, y, 1, A, bq);
        else
            cblas_dger(CblasRowMajor, bp, bq, 1.0, x, 1, y, 1, A, bq);
        node_kernel(node, "rank1", shape, flops);
        break;
    }
    }
}

/* ---- the node program -------------------------------------------------- */

static DbLayout home_x(const DbConfig *c)
{
    return (DbLayout){ LAY_HOME, c->vx };
}

static DbLayout home_y(const DbConfig *c)
{
    return (DbLayout){ LAY_HOME, c->vy };
}

static DbLayout rows_of(const DbConfig *c)
{
    return (DbLayout){ LAY_ROWS, c->bp };
}

static DbLayout cols_of(const DbConfig *c)
{
    return (DbLayout){ LAY_COLS, c->bq };
}

/* matvec and vecmat: steps 0 align-x; 1..s spread; s+1 local; s+2 ..
 * s+2+t reduce (t sends, one last add); s+t+3 align-y. matvec spreads
 * along the rows axis (down each column, s = log2 N_r) and reduces along
 * the columns axis; vecmat the other way round. */
static NodeStatus step_mv(Node *node, const DbConfig *c)
{
    unsigned st = node_step(node);
    gboolean mv = c->routine == DB_MATVEC;
    ProcGridAxis sa = mv ? PROCGRID_ROWS : PROCGRID_COLS;
    ProcGridAxis ra = mv ? PROCGRID_COLS : PROCGRID_ROWS;
    unsigned s = mv ? c->rbits : c->cbits, t = mv ? c->cbits : c->rbits;
    DbLayout seg_x = mv ? cols_of(c) : rows_of(c);
    DbLayout seg_y = mv ? rows_of(c) : cols_of(c);
    if (st == 0) {
        node_phase(node, 0);
        node_mark(node, "align x");
        redistribute(node, c, c->nx, home_x(c), c->off_x, seg_x, c->off_xs, 0);
        return NODE_CONTINUE;
    }
    if (st <= s) {
        if (st == 1)
            node_phase(node, 1);
        node_mark(node, "spread x %u", st - 1);
        spread_step(node, c, sa, s, st - 1, c->off_xs, seg_x.block,
                    (int)st);
        return NODE_CONTINUE;
    }
    if (st == s + 1) {
        node_phase(node, 2);
        node_mark(node, "local");
        local_kernel(node, c);
        return NODE_CONTINUE;
    }
    if (st <= s + 2 + t) {
        unsigned k = st - (s + 2);
        if (k == 0)
            node_phase(node, 3);
        node_mark(node, "reduce y %u", k);
        reduce_step(node, c, ra, t, k, c->off_ys, c->off_buf, seg_y.block,
                    (int)st);
        return NODE_CONTINUE;
    }
    node_phase(node, 4);
    node_mark(node, "align y");
    redistribute(node, c, c->ny, seg_y, c->off_ys, home_y(c), 0, (int)st);
    return NODE_DONE;
}

/* rank1: 0 align-x, 1 align-y, 2.. spread-x (log2 N_c steps along the
 * columns axis), then spread-y (log2 N_r steps), then the update. */
static NodeStatus step_rank1(Node *node, const DbConfig *c)
{
    unsigned st = node_step(node);
    if (st == 0) {
        node_phase(node, 0);
        node_mark(node, "align x");
        redistribute(node, c, c->nx, home_x(c), c->off_x, rows_of(c),
                     c->off_xs, 0);
        return NODE_CONTINUE;
    }
    if (st == 1) {
        node_phase(node, 1);
        node_mark(node, "align y");
        redistribute(node, c, c->ny, home_y(c), c->off_y, cols_of(c),
                     c->off_ys, 1);
        return NODE_CONTINUE;
    }
    unsigned k = st - 2;
    if (k < c->cbits) {
        if (k == 0)
            node_phase(node, 2);
        node_mark(node, "spread x %u", k);
        spread_step(node, c, PROCGRID_COLS, c->cbits, k, c->off_xs, c->bp,
                    (int)st);
        return NODE_CONTINUE;
    }
    k -= c->cbits;
    if (k < c->rbits) {
        if (k == 0)
            node_phase(node, 3);
        node_mark(node, "spread y %u", k);
        spread_step(node, c, PROCGRID_ROWS, c->rbits, k, c->off_ys, c->bq,
                    (int)st);
        return NODE_CONTINUE;
    }
    node_phase(node, 4);
    node_mark(node, "rank-1 update");
    local_kernel(node, c);
    return NODE_DONE;
}

/* ---- method combined (Section 3) --------------------------------------- */

/* Section 3.1: "The communication efficiency can be improved further by
 * combining the alignment and spread operations (Steps 1 and 2), and the
 * reduction and alignment operations (Steps 4 and 5)"; Section 3.2 for the
 * rank-1 update (Steps 1 and 3, 2 and 4). Combined, every element goes
 * through the router once, straight from where it is to every node that
 * needs it:
 *
 *   align-spread  a vector of len elements in the home layout (blocks of
 *                 vb) to every node of the array, node (l, m) receiving
 *                 segment t = m (seg = bq, `by` = PROCGRID_COLS) or t = l
 *                 (seg = bp, PROCGRID_ROWS): each home block sends its
 *                 overlap with segment t to every node of t's line, one
 *                 router message per (source, destination) pair, a local
 *                 copy where the two are one node;
 *   reduce-align  every node's partial sums of segment t to the home blocks
 *                 that overlap it, one message per pair; a home node adds
 *                 the contributions of the whole line (its own included)
 *                 into its block, the additions real and charged as flops.
 */

/* The node of line t's i-th member: segment t of `by` is column t (nodes
 * (i, t)) or row t (nodes (t, i)). */
static uint32_t line_node(const DbConfig *c, ProcGridAxis by, uint32_t t,
                          uint32_t i)
{
    return by == PROCGRID_COLS ? procgrid_node(&c->grid, i, t)
                               : procgrid_node(&c->grid, t, i);
}

static uint32_t line_size(const DbConfig *c, ProcGridAxis by)
{
    return by == PROCGRID_COLS ? c->nr : c->nc;
}

static void align_spread(Node *node, const DbConfig *c, uint64_t len,
                         size_t vb, size_t so, ProcGridAxis by, size_t seg,
                         size_t to, int tag)
{
    uint32_t me = node_address(node), l, m;
    procgrid_coords(&c->grid, me, &l, &m);
    Word *mem = node_memory(node);
    uint64_t h = (uint64_t)l * c->nc + m;
    uint64_t a0 = h * vb, a1 = MIN(a0 + vb, len);
    for (uint64_t a = a0; a < a1;) {
        uint64_t t = a / seg, b = MIN(a1, (t + 1) * seg);
        for (uint32_t i = 0; i < line_size(c, by); i++) {
            uint32_t dest = line_node(c, by, (uint32_t)t, i);
            if (dest == me)
                memcpy(mem + (to + (size_t)(a - t * seg)) * c->w,
                       mem + (so + (size_t)(a - a0)) * c->w,
                       (size_t)(b - a) * c->w * sizeof(Word));
            else
                node_send_to(node, dest, so + (size_t)(a - a0),
                             (size_t)(b - a), tag);
        }
        a = b;
    }
    uint64_t t = by == PROCGRID_COLS ? m : l;
    uint64_t s0 = t * seg, s1 = MIN(s0 + seg, len);
    for (uint64_t a = s0; a < s1;) {
        uint64_t hb = a / vb, b = MIN(s1, (hb + 1) * vb);
        uint32_t src = lay_node(c, (DbLayout){ LAY_HOME, vb }, (uint32_t)hb);
        if (src != me)
            node_recv(node, src, tag, to + (size_t)(a - s0), (size_t)(b - a));
        a = b;
    }
}

/* The contributions a home block receives, in the order of its receives:
 * from every node of every line whose segment overlaps the block. */
typedef struct {
    uint32_t src;
    uint64_t lo, hi;              /* global indices */
} DbPiece;

static DbPiece *reduce_pieces(const DbConfig *c, uint64_t len, size_t vb,
                              ProcGridAxis by, size_t seg, uint32_t me,
                              size_t *n)
{
    uint32_t l, m;
    procgrid_coords(&c->grid, me, &l, &m);
    uint64_t h = (uint64_t)l * c->nc + m;
    uint64_t a0 = h * vb, a1 = MIN(a0 + vb, len);
    size_t cap = 1, count = 0;
    if (a0 < a1)
        cap = (size_t)((a1 - 1) / seg - a0 / seg + 1) * line_size(c, by);
    DbPiece *pc = g_new(DbPiece, cap);
    for (uint64_t a = a0; a < a1;) {
        uint64_t t = a / seg, b = MIN(a1, (t + 1) * seg);
        for (uint32_t i = 0; i < line_size(c, by); i++)
            pc[count++] = (DbPiece){ line_node(c, by, (uint32_t)t, i), a, b };
        a = b;
    }
    *n = count;
    return pc;
}

/* Post the reduction: this node's partial sums of segment t (at so) to
 * the home blocks of the result (blocks of vb, at offset 0 of a home
 * node), and the receives of this node's home block into off_sum. */
static void reduce_align_post(Node *node, const DbConfig *c, uint64_t len,
                              size_t vb, ProcGridAxis by, size_t seg,
                              size_t so, int tag)
{
    uint32_t me = node_address(node), l, m;
    procgrid_coords(&c->grid, me, &l, &m);
    uint64_t t = by == PROCGRID_COLS ? m : l;
    uint64_t s0 = t * seg, s1 = MIN(s0 + seg, len);
    for (uint64_t a = s0; a < s1;) {
        uint64_t hb = a / vb, b = MIN(s1, (hb + 1) * vb);
        uint32_t dest = lay_node(c, (DbLayout){ LAY_HOME, vb }, (uint32_t)hb);
        if (dest != me)
            node_send_to(node, dest, so + (size_t)(a - s0), (size_t)(b - a),
                         tag);
        a = b;
    }
    size_t n, at = c->off_sum;
    g_autofree DbPiece *pc = reduce_pieces(c, len, vb, by, seg, me, &n);
    for (size_t i = 0; i < n; i++)
        if (pc[i].src != me) {
            node_recv(node, pc[i].src, tag, at, (size_t)(pc[i].hi - pc[i].lo));
            at += (size_t)(pc[i].hi - pc[i].lo);
        }
}

/* Sum the contributions into the home block (offset 0): the received
 * ones from off_sum, this node's own from its partial sums at so. */
static void reduce_align_add(Node *node, const DbConfig *c, uint64_t len,
                             size_t vb, ProcGridAxis by, size_t seg,
                             size_t so)
{
    uint32_t me = node_address(node), l, m;
    procgrid_coords(&c->grid, me, &l, &m);
    uint64_t mine = by == PROCGRID_COLS ? m : l;
    uint64_t a0 = ((uint64_t)l * c->nc + m) * vb;
    double *mem = (double *)(void *)node_memory(node);
    memset(mem, 0, vb * c->w * sizeof(double));
    size_t n, at = c->off_sum, words = 0;
    g_autofree DbPiece *pc = reduce_pieces(c, len, vb, by, seg, me, &n);
    for (size_t i = 0; i < n; i++) {
        size_t count = (size_t)(pc[i].hi - pc[i].lo);
        const double *from = pc[i].src == me
            ? mem + (so + (size_t)(pc[i].lo - mine * seg)) * c->w
            : mem + at * c->w;
        double *into = mem + (size_t)(pc[i].lo - a0) * c->w;
        for (size_t e = 0; e < count * c->w; e++)
            into[e] += from[e];
        words += count * c->w;
        if (pc[i].src != me)
            at += count;
    }
    node_compute(node, words);
}

/* matvec and vecmat, combined: 0 align-spread x; 1 local, then post
 * reduce-align y; 2 add. Phases: align-x holds the spread, align-y the
 * reduction (spread-x and reduce-y stay empty). */
static NodeStatus step_mv_combined(Node *node, const DbConfig *c)
{
    unsigned st = node_step(node);
    gboolean mv = c->routine == DB_MATVEC;
    ProcGridAxis xby = mv ? PROCGRID_COLS : PROCGRID_ROWS;
    ProcGridAxis yby = mv ? PROCGRID_ROWS : PROCGRID_COLS;
    size_t sx = mv ? c->bq : c->bp, sy = mv ? c->bp : c->bq;
    if (st == 0) {
        node_phase(node, 0);
        node_mark(node, "align and spread x");
        align_spread(node, c, c->nx, c->vx, c->off_x, xby, sx, c->off_xs, 0);
        return NODE_CONTINUE;
    }
    if (st == 1) {
        node_phase(node, 2);
        node_mark(node, "local");
        local_kernel(node, c);
        node_phase(node, 4);
        node_mark(node, "reduce and align y");
        reduce_align_post(node, c, c->ny, c->vy, yby, sy, c->off_ys, 1);
        return NODE_CONTINUE;
    }
    reduce_align_add(node, c, c->ny, c->vy, yby, sy, c->off_ys);
    return NODE_DONE;
}

/* rank1, combined: 0 align-spread x and y at once; 1 the update. */
static NodeStatus step_rank1_combined(Node *node, const DbConfig *c)
{
    if (node_step(node) == 0) {
        node_phase(node, 0);
        node_mark(node, "align and spread x and y");
        align_spread(node, c, c->nx, c->vx, c->off_x, PROCGRID_ROWS, c->bp,
                     c->off_xs, 0);
        align_spread(node, c, c->ny, c->vy, c->off_y, PROCGRID_COLS, c->bq,
                     c->off_ys, 1);
        return NODE_CONTINUE;
    }
    node_phase(node, 4);
    node_mark(node, "rank-1 update");
    local_kernel(node, c);
    return NODE_DONE;
}

static NodeStatus db_step(Node *node, const void *config)
{
    const DbConfig *c = config;
    if (c->combined)
        return c->routine == DB_RANK1 ? step_rank1_combined(node, c)
                                      : step_mv_combined(node, c);
    return c->routine == DB_RANK1 ? step_rank1(node, c) : step_mv(node, c);
}

/* ---- prepare ----------------------------------------------------------- */

/* shape = PxQ, the matrix's rows and columns. */
static const ShapeSpec db_shape = {
    .form = "PxQ (say 512x512; both extents 1..2^26)",
    .min_extents = 2, .max_extents = 2, .min = 1, .max = UINT64_C(1) << 26,
};

/* The array N_r x N_c = N whose aspect ratio is closest to P/Q (in log),
 * ties to more rows, among those with N_r <= P and N_c <= Q. */
static gboolean auto_array(uint64_t p, uint64_t q, uint32_t n, uint32_t *rows,
                           uint32_t *cols)
{
    double want = log2((double)p / (double)q), best = 1e300;
    gboolean found = FALSE;
    unsigned bits = bits_log2_floor(n);
    for (unsigned rb = 0; rb <= bits; rb++) {
        uint32_t r = 1u << rb, cc = n >> rb;
        if (r > p || cc > q)
            continue;
        double d = fabs((double)rb - (double)(bits - rb) - want);
        if (d <= best + 1e-12) {          /* later = more rows wins ties */
            best = d;
            *rows = r;
            *cols = cc;
            found = TRUE;
        }
    }
    return found;
}

static void *db_prepare_routine(const Machine *mach, const Params *prm,
                                MemoryLayout *layout, DbRoutine routine,
                                GError **error)
{
    if (!blas_load(error))
        return NULL;
    g_autofree DbConfig *c = g_new0(DbConfig, 1);
    c->routine = routine;
    const char *shape = params_text(prm, "shape");
    uint64_t pq[2];
    g_autofree char *shape_why = NULL;
    if (!shape_parse(shape, &db_shape, pq, NULL, NULL, &shape_why))
        return params_fail(prm, error, "shape", "%s", shape_why);
    c->p = pq[0];
    c->q = pq[1];
    c->seed = (uint64_t)params_int(prm, "seed");
    c->complex_ = params_choice(prm, "element") == 1;
    c->w = c->complex_ ? 2 : 1;
    const Topology *t = &mach->topology;
    c->cube = topology_has(t, TOPOLOGY_DIMENSIONS);
    uint32_t rows = 0, cols = 0;
    const char *proc = params_text(prm, "processors");
    if (!strcmp(proc, "auto")) {
        c->auto_array = TRUE;
        if (topology_has(t, TOPOLOGY_AXES)) {
            rows = t->axes == 2 ? t->side[1] : 1;
            cols = t->side[0];
        } else if (!auto_array(c->p, c->q, t->nodes, &rows, &cols)) {
            return params_fail(prm, error, "shape", "%llux%llu fits no "
                               "processor array of the %u nodes (auto needs "
                               "N_r <= P and N_c <= Q)",
                               (unsigned long long)c->p,
                               (unsigned long long)c->q, t->nodes);
        }
    } else {
        g_autofree char *why = NULL;
        if (!procgrid_parse(proc, &rows, &cols, &why))
            return params_fail(prm, error, "processors", "%s", why);
    }
    g_autofree char *why = NULL;
    if (!procgrid_init(&c->grid, mach, rows, cols, &why))
        return params_fail(prm, error, "processors", "%s", why);
    c->nr = rows;
    c->nc = cols;
    c->n = rows * cols;
    c->rbits = bits_log2_floor(rows);
    c->cbits = bits_log2_floor(cols);
    if (c->p < c->nr)
        return params_fail(prm, error, "shape", "P = %llu is less than the "
                           "N_r = %u processor rows (every processor needs a "
                           "block of A)", (unsigned long long)c->p, c->nr);
    if (c->q < c->nc)
        return params_fail(prm, error, "shape", "Q = %llu is less than the "
                           "N_c = %u processor columns (every processor needs "
                           "a block of A)", (unsigned long long)c->q, c->nc);
    c->bp = (size_t)((c->p + c->nr - 1) / c->nr);
    c->bq = (size_t)((c->q + c->nc - 1) / c->nc);
    c->nx = routine == DB_MATVEC ? c->q : c->p;
    c->ny = routine == DB_MATVEC ? c->p : c->q;
    c->vx = (size_t)((c->nx + c->n - 1) / c->n);
    c->vy = (size_t)((c->ny + c->n - 1) / c->n);
    size_t ab = c->bp * c->bq;
    if (routine == DB_RANK1) {
        c->off_a = 0;
        c->off_x = ab;
        c->off_y = ab + c->vx;
        c->k = ab + c->vx + c->vy;
        c->off_xs = c->k;
        c->off_ys = c->k + c->bp;
        c->memory = c->off_ys + c->bq;
        c->combined = params_method(prm) == 1;
        layout->computed_elements = ab;
    } else {
        size_t sx = routine == DB_MATVEC ? c->bq : c->bp;
        size_t sy = routine == DB_MATVEC ? c->bp : c->bq;
        c->off_y = 0;
        c->off_a = c->vy;
        c->off_x = c->vy + ab;
        c->k = c->off_x + c->vx;
        c->off_xs = c->k;
        c->off_ys = c->off_xs + sx;
        c->off_buf = c->off_ys + sy;
        c->memory = c->off_buf + sy;
        c->combined = params_method(prm) == 1;
        if (c->combined) {
            /* The reduction's receives: every element of the home block
             * from each node of a line, at most one line's nodes. */
            size_t line = routine == DB_MATVEC ? c->nc : c->nr;
            c->off_sum = c->memory;
            c->memory = c->off_sum + line * c->vy;
        }
        layout->computed_elements = c->vy;
    }
    const char *verify = params_text(prm, "verify");
    if (g_str_has_prefix(verify, "sample:")) {
        char *end;
        const char *n = verify + strlen("sample:");
        unsigned long long k = strtoull(n, &end, 10);
        if (*n < '0' || *n > '9' || *end || k == 0 || k > (1ULL << 32))
            return params_fail(prm, error, "verify", "'%s': sample:K needs K "
                               "between 1 and 2^32", verify);
        c->samples = k;
    } else if (strcmp(verify, "full") && strcmp(verify, "auto")) {
        return params_fail(prm, error, "verify", "'%s' (valid: full, "
                           "sample:K, auto)", verify);
    }
    layout->sample = c->samples;
    layout->sample_seed = c->seed ^ 0x5eed5eedULL;
    layout->memory_elements = c->memory;
    layout->elements_per_node = c->k;
    layout->local_size = 0;
    layout->element = c->complex_ ? ELEMENT_COMPLEX : ELEMENT_DOUBLE;
    layout->computed = FALSE;
    layout->tolerance = 0;
    return g_steal_pointer(&c);
}

ALGORITHM_PREPARE_VARIANT(matvec_prepare, db_prepare_routine, DB_MATVEC)
ALGORITHM_PREPARE_VARIANT(vecmat_prepare, db_prepare_routine, DB_VECMAT)
ALGORITHM_PREPARE_VARIANT(rank1_prepare, db_prepare_routine, DB_RANK1)

/* ---- init and expect --------------------------------------------------- */

/* A's block and the home blocks of x and y (rank1) or x (the others):
 * [0, K) as it is before the run, y's home block zero. */
static void fill_inputs(const DbConfig *c, uint32_t addr, Word *mem)
{
    uint32_t l, m;
    procgrid_coords(&c->grid, addr, &l, &m);
    for (size_t a = 0; a < c->bp; a++)
        for (size_t b = 0; b < c->bq; b++) {
            uint64_t i = (uint64_t)l * c->bp + a, j = (uint64_t)m * c->bq + b;
            if (i < c->p && j < c->q)
                put(c, mem, c->off_a + a * c->bq + b,
                    db_value(c->seed, OP_A, i, j, 0),
                    c->complex_ ? db_value(c->seed, OP_A, i, j, 1) : 0);
        }
    uint64_t h = (uint64_t)l * c->nc + m;
    for (size_t e = 0; e < c->vx; e++) {
        uint64_t i = h * c->vx + e;
        if (i < c->nx)
            put(c, mem, c->off_x + e, db_value(c->seed, OP_X, i, 0, 0),
                c->complex_ ? db_value(c->seed, OP_X, i, 0, 1) : 0);
    }
    if (c->routine == DB_RANK1)
        for (size_t e = 0; e < c->vy; e++) {
            uint64_t j = h * c->vy + e;
            if (j < c->ny)
                put(c, mem, c->off_y + e, db_value(c->seed, OP_Y, j, 0, 0),
                    c->complex_ ? db_value(c->seed, OP_Y, j, 0, 1) : 0);
        }
}

static void db_init(const void *config, uint32_t addr, Word *memory)
{
    const DbConfig *c = config;
    memset(memory, 0, c->memory * c->w * sizeof(Word));
    fill_inputs(c, addr, memory);
}

/* The reference by plain loops over global indices: y_i = sum_j A(i,j)
 * x_j (matvec), y_j = sum_i x_i A(i,j) (vecmat), A(i,j) + x_i y_j
 * (rank1). */
/* One computed element: offset `off` of node addr's computed part, by its
 * own sum over global indices. */
static void db_expect_element(const void *config, uint32_t addr, size_t off,
                              Word *expected)
{
    const DbConfig *c = config;
    uint32_t l, m;
    procgrid_coords(&c->grid, addr, &l, &m);
    double complex v = 0;
    if (c->routine == DB_RANK1) {
        uint64_t i = (uint64_t)l * c->bp + (off - c->off_a) / c->bq;
        uint64_t j = (uint64_t)m * c->bq + (off - c->off_a) % c->bq;
        if (i < c->p && j < c->q)
            v = operand(c, OP_A, i, j) + operand(c, OP_X, i, 0)
                                         * operand(c, OP_Y, j, 0);
    } else {
        uint64_t o = ((uint64_t)l * c->nc + m) * c->vy + off;
        if (o < c->ny && c->routine == DB_MATVEC)
            for (uint64_t j = 0; j < c->q; j++)
                v += operand(c, OP_A, o, j) * operand(c, OP_X, j, 0);
        else if (o < c->ny)
            for (uint64_t i = 0; i < c->p; i++)
                v += operand(c, OP_X, i, 0) * operand(c, OP_A, i, o);
    }
    memset(expected, 0, c->w * sizeof(Word));
    put(c, expected, 0, creal(v), cimag(v));
}

static void db_expect(const void *config, uint32_t addr, Word *expected)
{
    const DbConfig *c = config;
    memset(expected, 0, c->k * c->w * sizeof(Word));
    fill_inputs(c, addr, expected);
    if (c->samples)
        return;                   /* the computed part is sampled */
    size_t computed = c->routine == DB_RANK1 ? c->bp * c->bq : c->vy;
    for (size_t off = 0; off < computed; off++)
        db_expect_element(config, addr, off, expected + off * c->w);
}

/* ---- report ------------------------------------------------------------ */

typedef struct {
    uint64_t msgs[CLASS_COUNT], elems[CLASS_COUNT];
} DbCounts;

static void tree_count(const DbConfig *c, unsigned bits, uint32_t lines,
                       size_t count, DbCounts *k)
{
    AxisTree t = db_trees(c);
    axistree_count(&t, bits, lines, count, k->msgs, k->elems);
}

/* Method combined: the align-spread of a vector of len (home blocks of
 * vb) onto the lines of segments of seg (`by`) sends, per home block and
 * segment it overlaps, one message to every node of the segment's line but
 * the block's own; the reduce-align pairs the same nodes the other way. */
static void combined_count(const DbConfig *c, uint64_t len, size_t vb,
                           ProcGridAxis by, size_t seg, uint64_t *msgs,
                           uint64_t *elems)
{
    for (uint64_t h = 0; h < c->n; h++) {
        uint64_t a0 = h * vb, a1 = MIN(a0 + vb, len);
        uint32_t home = procgrid_node(&c->grid, (uint32_t)(h / c->nc),
                                      (uint32_t)(h % c->nc));
        for (uint64_t a = a0; a < a1;) {
            uint64_t t = a / seg, b = MIN(a1, (t + 1) * seg);
            for (uint32_t i = 0; i < line_size(c, by); i++)
                if (line_node(c, by, (uint32_t)t, i) != home) {
                    (*msgs)++;
                    *elems += b - a;
                }
            a = b;
        }
    }
}

static void db_counts(const DbConfig *c, DbCounts *k)
{
    memset(k, 0, sizeof *k);
    uint64_t *rm = &k->msgs[CLASS_ROUTER], *re = &k->elems[CLASS_ROUTER];
    if (c->combined) {
        gboolean mv = c->routine == DB_MATVEC;
        combined_count(c, c->nx, c->vx, mv ? PROCGRID_COLS : PROCGRID_ROWS,
                       mv ? c->bq : c->bp, rm, re);
        combined_count(c, c->ny, c->vy, mv ? PROCGRID_ROWS : PROCGRID_COLS,
                       mv ? c->bp : c->bq, rm, re);
        return;
    }
    switch (c->routine) {
    case DB_MATVEC:
        redistribute_count(c, c->nx, home_x(c), cols_of(c), rm, re);
        tree_count(c, c->rbits, c->nc, c->bq, k);
        tree_count(c, c->cbits, c->nr, c->bp, k);
        redistribute_count(c, c->ny, rows_of(c), home_y(c), rm, re);
        break;
    case DB_VECMAT:
        redistribute_count(c, c->nx, home_x(c), rows_of(c), rm, re);
        tree_count(c, c->cbits, c->nr, c->bp, k);
        tree_count(c, c->rbits, c->nc, c->bq, k);
        redistribute_count(c, c->ny, cols_of(c), home_y(c), rm, re);
        break;
    case DB_RANK1:
        redistribute_count(c, c->nx, home_x(c), rows_of(c), rm, re);
        redistribute_count(c, c->ny, home_y(c), cols_of(c), rm, re);
        tree_count(c, c->cbits, c->nr, c->bp, k);
        tree_count(c, c->rbits, c->nc, c->bq, k);
        break;
    }
}

static void db_report_common(const DbConfig *c, Report *r)
{
    const Machine *m = &r->machine;
    const char *kname = c->routine == DB_MATVEC ? "matvec"
                        : c->routine == DB_VECMAT ? "vecmat" : "rank1";
    report_detail_text(r, "routine", kname);
    g_autofree char *pa = g_strdup_printf("%ux%u", c->nr, c->nc);
    report_detail_text(r, "processors", pa);
    report_detail_text(r, "processors_chosen", c->auto_array ? "auto" : "given");
    report_detail_int(r, "block_rows", (long long)c->bp);
    report_detail_int(r, "block_cols", (long long)c->bq);
    report_detail_int(r, "x_block", (long long)c->vx);
    report_detail_int(r, "y_block", (long long)c->vy);
    for (unsigned i = 0; i < r->nphases; i++) {
        g_autofree char *key = g_strdup_printf("phase_%s_cycles",
                                               r->phase_name[i]);
        for (char *q = key; *q; q++)
            if (*q == '-')
                *q = '_';
        report_detail_int(r, key, (long long)r->phase[i].time_max);
    }
    double flops = 2.0 * (double)c->p * (double)c->q * (c->complex_ ? 4 : 1);
    report_detail_double(r, "flops", flops);
    if (m->tick_seconds > 0 && r->cycles > 0)
        report_detail_double(r, "mflops", flops / ((double)r->cycles
                                                   * m->tick_seconds) / 1e6);
}


static void db_report(const void *config, Report *r)
{
    const DbConfig *c = config;
    const Machine *m = &r->machine;
    DbCounts k;
    db_counts(c, &k);
    for (int cl = 0; cl < CLASS_COUNT; cl++) {
        if (!topology_has_class(m->topology.ops, cl))
            continue;
        g_autofree char *nm = g_strdup_printf("per_class.%s.messages",
                                              message_class_name(cl));
        g_autofree char *ne = g_strdup_printf("per_class.%s.elements",
                                              message_class_name(cl));
        report_bound(r, nm, nm, BOUND_EXACT, (double)k.msgs[cl],
                     c->combined ? "one message per home block, segment it "
                                   "overlaps and other node of that "
                                   "segment's line, each way"
                     : "align: one message per pair of overlapping blocks on "
                       "two nodes; trees: 2^s - 1 per line (on the cube "
                       "per part)");
        report_bound(r, ne, ne, BOUND_EXACT, (double)k.elems[cl],
                     c->combined ? "the overlaps"
                     : "the overlaps; trees: one segment (cube: part) per "
                       "message");
    }
    if (c->combined) {
        db_report_common(c, r);
        return;
    }
    /* The spread and reduce steps: s = log2 of the axis. A critical path
     * runs through both trees and the local kernel: on the cube the largest
     * part, ceil(seg / min(s, seg)) elements, crosses s one-hop links one
     * after another (Ts + part Tw each), and in the reduce it is added on
     * every node of its path (the leaf's parent .. the root: s additions). */
    gboolean mv = c->routine != DB_RANK1;
    unsigned s1, s2;
    size_t n1, n2;
    switch (c->routine) {
    case DB_MATVEC:
        s1 = c->rbits, n1 = c->bq, s2 = c->cbits, n2 = c->bp;
        break;
    case DB_VECMAT:
        s1 = c->cbits, n1 = c->bp, s2 = c->rbits, n2 = c->bq;
        break;
    default:
        s1 = c->cbits, n1 = c->bp, s2 = c->rbits, n2 = c->bq;
        break;
    }
    report_detail_int(r, mv ? "spread_steps" : "spread_x_steps", s1);
    report_detail_int(r, mv ? "reduce_steps" : "spread_y_steps", s2);
    const MachinePrice *nb = machine_price(m, CLASS_NEIGHBOUR);
    uint64_t shape[3] = { c->bp, c->bq, 0 };
    uint64_t local_flops = 2 * (uint64_t)c->bp * c->bq * (c->complex_ ? 4 : 1);
    const char *kname = c->routine == DB_MATVEC ? "matvec"
                        : c->routine == DB_VECMAT ? "vecmat" : "rank1";
    Tick kt = kernel_ticks(m, kname, shape, local_flops);
    if (c->cube) {
        unsigned p1 = axistree_parts(s1, n1), p2 = axistree_parts(s2, n2);
        size_t m1 = p1 ? (n1 + p1 - 1) / p1 : 0;
        size_t m2 = p2 ? (n2 + p2 - 1) / p2 : 0;
        report_detail_int(r, mv ? "spread_parts" : "spread_x_parts", p1);
        report_detail_int(r, mv ? "reduce_parts" : "spread_y_parts", p2);
        double t1 = s1 * ((double)nb->startup + (double)m1 * nb->element_time);
        double t2 = s2 * ((double)nb->startup + (double)m2 * nb->element_time);
        if (mv)
            t2 += s2 * (double)m2 * c->w * (double)m->flop_time;
        report_cycle_bound(r, mv ? "s (Ts + part Tw) + kernel + t (Ts + part Tw)"
                              : "s_x (Ts + part_x Tw) + s_y (Ts + part_y Tw) "
                                "+ kernel",
                           BOUND_LOWER, t1 + t2 + (double)kt,
                           "the trees' critical path: the largest part, one "
                           "hop per step, the local kernel between (matvec, "
                           "vecmat) or after (rank1)");
        /* The first tree phase: its root sends the largest part in each of
         * s steps, one step after another. */
        if (r->nphases >= 3)
            report_bound(r, "phases.spread-x.cycles", "phases.spread-x.cycles",
                         BOUND_LOWER, t1, "the root's s steps, each sending the largest "
                         "part");
    }
    db_report_common(c, r);
}

#define DB_NEEDS (TOPOLOGY_DIMENSIONS | TOPOLOGY_AXES)
#define DB_SOURCE "Mathur & Johnsson 1992 (TR-01-92), Section 3; Table 1"

const Algorithm algorithm_matvec = {
    .name = "matvec",
    .summary = "level-2 DBLAS y = A x: align, spread, local gemv, reduce, align",
    .source = DB_SOURCE,
    .needs = DB_NEEDS,
    .methods = db_methods,
    .params = db_params,
    .phases = matvec_phases,
    .prepare = matvec_prepare,
    .release = g_free,
    .init = db_init,
    .step = db_step,
    .expect = db_expect,
    .expect_element = db_expect_element,
    .report = db_report,
};

const Algorithm algorithm_vecmat = {
    .name = "vecmat",
    .summary = "level-2 DBLAS y^T = x^T A: align, spread, local gemv, reduce, "
               "align",
    .source = DB_SOURCE,
    .needs = DB_NEEDS,
    .methods = db_methods,
    .params = db_params,
    .phases = vecmat_phases,
    .prepare = vecmat_prepare,
    .release = g_free,
    .init = db_init,
    .step = db_step,
    .expect = db_expect,
    .expect_element = db_expect_element,
    .report = db_report,
};

const Algorithm algorithm_rank1 = {
    .name = "rank1",
    .summary = "level-2 DBLAS A = A + x y^T: align x and y, spread both, local "
               "ger",
    .source = DB_SOURCE,
    .needs = DB_NEEDS,
    .methods = rank1_methods,
    .params = db_params,
    .phases = rank1_phases,
    .prepare = rank1_prepare,
    .release = g_free,
    .init = db_init,
    .step = db_step,
    .expect = db_expect,
    .expect_element = db_expect_element,
    .report = db_report,
};
