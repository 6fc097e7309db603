/* nonsystolic.c -- CMSSL's matrix products with A or B stationary (Mathur
 * & Johnsson 1992, Section 4.1: "In the Connection Machine Scientific
 * Software Library (CMSSL) nonsystolic algorithms are used for the cases
 * with A and B stationary"; Section 5, Table 6: "When P/R >= 8, a
 * matrix-vector type algorithm is used with a block size of min(R, 64)
 * (A is stationary). When R/P >= 16, a vector-matrix algorithm is used
 * ... The block size is min(P, 32)"), as a node program: the level-2
 * DBLAS of Section 3 called on blocks of vectors (method `cmssl`).
 *
 * A stationary, for each block J of the columns of B and C (`block` of
 * them, the last block nb <= block):
 *   align   X = B(:, J) through the router onto processor row 0: node
 *           (0, m) receives X(A's column segment m, J), qa x nb,
 *           column-major (Section 3.1, step 1; one message per source and
 *           destination);
 *   spread  X down every processor column from row 0 (axistree.h: the
 *           all-port rotated binomial trees on a cube), log2 N_r steps
 *           (step 2);
 *   local   acc = A_home X, alpha x nb: nb matrix-vector products of the
 *           alpha x qa block; CBLAS does them as one dgemm, the time is nb
 *           calls of the "matvec" kernel (Table 2's rate for alpha x qa),
 *           as a level-2 code calls it (step 3);
 *   reduce  acc summed along every processor row into column 0 (the trees
 *           backwards, the additions real), log2 N_c steps (step 4);
 *   store   node (l, 0)'s alpha x nb sums through the router to C's home
 *           blocks, a local copy where the home is node (l, 0) itself
 *           (step 5).
 * B stationary is the transpose: blocks I of the rows of A and C, X =
 * A(I, :) onto processor column 0 (node (l, 0) holding nb x qb, the rows
 * of B's segment l, column-major), spread along every processor row,
 * nb vector-matrix products of the qb x gamma block ("vecmat" kernel),
 * reduce down every processor column into row 0, store.
 *
 * The block is not padded and every node holds the whole of X after the
 * spread: the temporary storage is qa b elements (Section 4.1), against
 * stationary.c's systolic generalisation, which pads the block to a
 * multiple of max(N_r, N_c) and moves pieces of it by cyclic shifts.
 *
 * Node steps of block j: 0 the alignment (after unpacking block j - 1's
 * C), 1 .. sb the spread (the root unpacks X first), sb + 1 the local
 * products and reduce step 0, sb + 1 + k reduce step k for k = 1 .. sr
 * (the last only adds; then the store is posted): sb + sr + 2 steps. One
 * more step after the last block unpacks its C.
 */
#include "matmul.h"
#include "axistree.h"

#include "blas.h"
#include <string.h>

typedef struct {
    gboolean a;                   /* A stationary */
    uint32_t l, m, addr;
    ProcGridAxis spread_axis, reduce_axis;
    unsigned sb, sr;              /* log2 of the spread and reduce axes */
    gboolean root;                /* holds X after the alignment */
    gboolean sink;                /* holds the sums after the reduction */
} NsView;

static NsView ns_view(const MatmulConfig *c, uint32_t addr)
{
    NsView w;
    w.a = c->stationary == MATMUL_A;
    w.addr = addr;
    procgrid_coords(&c->grid, addr, &w.l, &w.m);
    w.spread_axis = w.a ? PROCGRID_ROWS : PROCGRID_COLS;
    w.reduce_axis = w.a ? PROCGRID_COLS : PROCGRID_ROWS;
    w.sb = w.a ? c->rbits : c->cbits;
    w.sr = w.a ? c->cbits : c->rbits;
    w.root = w.a ? w.l == 0 : w.m == 0;
    w.sink = w.a ? w.m == 0 : w.l == 0;
    return w;
}

/* Block j's first free index (a column of B and C for A stationary, a row
 * of A and C for B) and width. */
static uint64_t ns_first(const MatmulConfig *c, uint64_t j)
{
    return j * c->block;
}

uint64_t matmul_nonsystolic_width(const MatmulConfig *c, uint64_t j)
{
    uint64_t ext = c->stationary == MATMUL_A ? c->r : c->p;
    return MIN(c->block, ext - ns_first(c, j));
}

/* Elements of X and of the partial sums on every node for a block of nb. */
static size_t x_count(const MatmulConfig *c, uint64_t nb)
{
    return (size_t)((c->stationary == MATMUL_A ? c->qa : c->qb) * nb);
}

static size_t acc_count(const MatmulConfig *c, uint64_t nb)
{
    return (size_t)((c->stationary == MATMUL_A ? c->alpha : c->gamma) * nb);
}

/* Where X(k, f) lands on the root that receives it: inner index k, free
 * index f of block j. */
static MatmulPlace x_root_place(const MatmulConfig *c, uint64_t j, uint64_t k,
                                uint64_t f)
{
    uint64_t nb = matmul_nonsystolic_width(c, j), fl = f - ns_first(c, j);
    if (c->stationary == MATMUL_A)
        return (MatmulPlace){ procgrid_node(&c->grid, 0, (uint32_t)(k / c->qa)),
                              c->off_x + fl * c->qa + k % c->qa };
    return (MatmulPlace){ procgrid_node(&c->grid, (uint32_t)(k / c->qb), 0),
                          c->off_x + (k % c->qb) * nb + fl };
}

/* The home of the moving operand's element (k, f): B(k, f) or A(f, k). */
static MatmulPlace moving_home(const MatmulConfig *c, uint64_t k, uint64_t f)
{
    return c->stationary == MATMUL_A ? matmul_home(c, OPERAND_B, k, f)
                                     : matmul_home(c, OPERAND_A, f, k);
}

/* This node's home block of the moving operand, as ranges of inner and
 * free indices, clipped to block j. FALSE when empty. */
static gboolean moving_ranges(const MatmulConfig *c, uint32_t l, uint32_t m,
                              uint64_t j, uint64_t *k0, uint64_t *k1,
                              uint64_t *f0, uint64_t *f1)
{
    if (c->stationary == MATMUL_A) {
        *k0 = l * c->qb, *k1 = MIN(*k0 + c->qb, c->q);
        *f0 = m * c->gamma, *f1 = MIN(*f0 + c->gamma, c->r);
    } else {
        *f0 = l * c->alpha, *f1 = MIN(*f0 + c->alpha, c->p);
        *k0 = m * c->qa, *k1 = MIN(*k0 + c->qa, c->q);
    }
    uint64_t b0 = ns_first(c, j), b1 = b0 + matmul_nonsystolic_width(c, j);
    *f0 = MAX(*f0, b0);
    *f1 = MIN(*f1, b1);
    return *k0 < *k1 && *f0 < *f1;
}

/* The alignment's sends from this node, sorted by (destination, offset);
 * elements whose root is this node are copied in place instead
 * (matmul_settle_moves). */
static MatmulMove *align_sends(Node *node, const MatmulConfig *c,
                               const NsView *w, uint64_t j, size_t *n)
{
    uint64_t k0, k1, f0, f1;
    *n = 0;
    if (!moving_ranges(c, w->l, w->m, j, &k0, &k1, &f0, &f1))
        return g_new(MatmulMove, 1);
    MatmulMove *mv = g_new(MatmulMove, (k1 - k0) * (f1 - f0));
    for (uint64_t f = f0; f < f1; f++)
        for (uint64_t k = k0; k < k1; k++) {
            MatmulPlace to = x_root_place(c, j, k, f);
            mv[(*n)++] = (MatmulMove){ to.node, to.offset,
                                       moving_home(c, k, f).offset };
        }
    matmul_settle_moves(node, c, mv, n);
    return mv;
}

/* What a root receives of block j, sorted by (source, offset). */
static MatmulMove *align_recvs(const MatmulConfig *c, const NsView *w,
                               uint64_t j, size_t *n)
{
    uint64_t nb = matmul_nonsystolic_width(c, j);
    uint64_t seg = w->a ? c->qa : c->qb, at = w->a ? w->m : w->l;
    MatmulMove *mv = g_new(MatmulMove, seg * nb + 1);
    size_t count = 0;
    for (uint64_t f = ns_first(c, j); f < ns_first(c, j) + nb; f++)
        for (uint64_t k = at * seg; k < MIN((at + 1) * seg, c->q); k++) {
            uint32_t src = moving_home(c, k, f).node;
            if (src != w->addr)
                mv[count++] = (MatmulMove){ src,
                                            x_root_place(c, j, k, f).offset,
                                            0 };
        }
    matmul_sort_moves(mv, count);
    *n = count;
    return mv;
}

/* The home of C(i, f-or-column): node and offset. */
static MatmulPlace c_home(const MatmulConfig *c, uint64_t i, uint64_t col)
{
    return (MatmulPlace){ procgrid_node(&c->grid, (uint32_t)(i / c->alpha),
                                        (uint32_t)(col / c->gamma)),
                          (col % c->gamma) * c->alpha + i % c->alpha };
}

/* Offset in the accumulator of C(i, col) on the sink that holds it. */
static size_t acc_offset(const MatmulConfig *c, uint64_t j, uint64_t i,
                         uint64_t col)
{
    if (c->stationary == MATMUL_A)
        return c->off_acc + (col - ns_first(c, j)) * c->alpha + i % c->alpha;
    uint64_t nb = matmul_nonsystolic_width(c, j);
    return c->off_acc + (col % c->gamma) * nb + (i - ns_first(c, j));
}

/* C's elements of block j a sink holds, as ranges of rows and columns. */
static gboolean sink_ranges(const MatmulConfig *c, uint32_t l, uint32_t m,
                            uint64_t j, uint64_t *i0, uint64_t *i1,
                            uint64_t *c0, uint64_t *c1)
{
    uint64_t b0 = ns_first(c, j), b1 = b0 + matmul_nonsystolic_width(c, j);
    if (c->stationary == MATMUL_A) {
        *i0 = l * c->alpha, *i1 = MIN(*i0 + c->alpha, c->p);
        *c0 = b0, *c1 = b1;
    } else {
        *i0 = b0, *i1 = b1;
        *c0 = m * c->gamma, *c1 = MIN(*c0 + c->gamma, c->r);
    }
    return *i0 < *i1 && *c0 < *c1;
}

/* The store's sends from a sink, sorted by (destination, offset); its own
 * elements are copied home at once. */
static MatmulMove *store_sends(Node *node, const MatmulConfig *c,
                               const NsView *w, uint64_t j, size_t *n)
{
    uint64_t i0, i1, c0, c1;
    *n = 0;
    if (!w->sink || !sink_ranges(c, w->l, w->m, j, &i0, &i1, &c0, &c1))
        return g_new(MatmulMove, 1);
    MatmulMove *mv = g_new(MatmulMove, (i1 - i0) * (c1 - c0));
    for (uint64_t col = c0; col < c1; col++)
        for (uint64_t i = i0; i < i1; i++) {
            MatmulPlace to = c_home(c, i, col);
            mv[(*n)++] = (MatmulMove){ to.node, to.offset,
                                       acc_offset(c, j, i, col) };
        }
    matmul_settle_moves(node, c, mv, n);
    return mv;
}

/* What this node's C block receives of block j, sorted by (source,
 * offset). */
static MatmulMove *store_recvs(const MatmulConfig *c, const NsView *w,
                               uint64_t j, size_t *n)
{
    uint64_t b0 = ns_first(c, j), b1 = b0 + matmul_nonsystolic_width(c, j);
    uint64_t i0 = w->l * c->alpha, i1 = MIN(i0 + c->alpha, c->p);
    uint64_t c0 = w->m * c->gamma, c1 = MIN(c0 + c->gamma, c->r);
    if (c->stationary == MATMUL_A)
        c0 = MAX(c0, b0), c1 = MIN(c1, b1);
    else
        i0 = MAX(i0, b0), i1 = MIN(i1, b1);
    MatmulMove *mv = g_new(MatmulMove, 1 + (i0 < i1 && c0 < c1
                                            ? (i1 - i0) * (c1 - c0) : 0));
    size_t count = 0;
    for (uint64_t col = c0; col < c1; col++)
        for (uint64_t i = i0; i < i1; i++) {
            uint32_t src = c->stationary == MATMUL_A
                ? procgrid_node(&c->grid, (uint32_t)(i / c->alpha), 0)
                : procgrid_node(&c->grid, 0, (uint32_t)(col / c->gamma));
            if (src != w->addr)
                mv[count++] = (MatmulMove){ src, c_home(c, i, col).offset, 0 };
        }
    matmul_sort_moves(mv, count);
    *n = count;
    return mv;
}

/* The nb level-2 products of block j: one dgemm for the values, nb kernel
 * calls for the time. */
static void local_products(Node *node, const MatmulConfig *c,
                           const NsView *w, uint64_t nb)
{
    Word *mem = node_memory(node);
    size_t ws = matmul_words(c);
    int mm, nn, kk, lda, ldb, ldc;
    void *a, *b, *acc = mem + c->off_acc * ws;
    uint64_t shape[3] = { 0, 0, 0 };
    if (w->a) {
        mm = (int)c->alpha, nn = (int)nb, kk = (int)c->qa;
        a = mem + c->off_a * ws, lda = mm;
        b = mem + c->off_x * ws, ldb = kk;
        ldc = mm;
        shape[0] = c->alpha, shape[1] = c->qa;
    } else {
        mm = (int)nb, nn = (int)c->gamma, kk = (int)c->qb;
        a = mem + c->off_x * ws, lda = mm;
        b = mem + c->off_b * ws, ldb = kk;
        ldc = mm;
        shape[0] = c->qb, shape[1] = c->gamma;
    }
    if (c->is_complex) {
        static const double one[2] = { 1, 0 }, zero[2] = { 0, 0 };
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, mm, nn, kk,
                    one, a, lda, b, ldb, zero, acc, ldc);
    } else {
        blas_dgemm_nn(mm, nn, kk, a, lda, b, ldb, 0.0, acc, ldc);
    }
    uint64_t flops = (c->is_complex ? 8 : 2) * shape[0] * shape[1];
    for (uint64_t v = 0; v < nb; v++)
        node_kernel(node, w->a ? "matvec" : "vecmat", shape, flops);
}

unsigned matmul_nonsystolic_block_steps(const MatmulConfig *c)
{
    return c->rbits + c->cbits + 2;
}

static void unpack_store(Node *node, const MatmulConfig *c, const NsView *w,
                         uint64_t j)
{
    size_t n;
    g_autofree MatmulMove *in = store_recvs(c, w, j, &n);
    matmul_unpack_moves(node, c, in, n, c->off_cbuf);
}

/* The spread and reduce trees of c's array. */
static AxisTree ns_trees(const MatmulConfig *c)
{
    return (AxisTree){ &c->grid, c->cube, c->cbits, matmul_words(c) };
}

NodeStatus matmul_nonsystolic_step(Node *node, const MatmulConfig *c)
{
    NsView w = ns_view(c, node_address(node));
    AxisTree trees = ns_trees(c);
    unsigned step = node_step(node), per = matmul_nonsystolic_block_steps(c);
    uint64_t j = step / per;
    unsigned t = step % per;
    if (t == 0) {
        if (j > 0)
            unpack_store(node, c, &w, j - 1);
        if (j == c->nblocks)
            return NODE_DONE;
        node_mark(node, "block %" G_GUINT64_FORMAT, j);
        memset(node_memory(node) + c->off_x * matmul_words(c), 0,
               x_count(c, c->block) * matmul_words(c) * sizeof(Word));
        size_t n;
        g_autofree MatmulMove *out = align_sends(node, c, &w, j, &n);
        matmul_send_moves(node, c, out, n, c->off_send, MATMUL_TAG_ALIGN_X);
        if (w.root) {
            g_autofree MatmulMove *in = align_recvs(c, &w, j, &n);
            matmul_recv_moves(node, in, n, c->off_recv, MATMUL_TAG_ALIGN_X);
        }
        return NODE_CONTINUE;
    }
    if (step == 1)
        node_phase(node, MATMUL_PHASE_MULTIPLY);
    uint64_t nb = matmul_nonsystolic_width(c, j);
    if (t == 1 && w.root) {
        size_t n;
        g_autofree MatmulMove *in = align_recvs(c, &w, j, &n);
        matmul_unpack_moves(node, c, in, n, c->off_recv);
    }
    if (t <= w.sb) {
        axistree_spread(node, &trees, w.spread_axis, w.sb, t - 1, c->off_x,
                        x_count(c, nb), MATMUL_TAG_BCAST);
        return NODE_CONTINUE;
    }
    unsigned k = t - 1 - w.sb;                /* reduce step 0 .. sr */
    if (k == 0)
        local_products(node, c, &w, nb);
    axistree_reduce(node, &trees, w.reduce_axis, w.sr, k, c->off_acc,
                    c->off_rbuf, acc_count(c, nb), MATMUL_TAG_REDUCE);
    if (k == w.sr) {
        size_t n;
        g_autofree MatmulMove *out = store_sends(node, c, &w, j, &n);
        matmul_send_moves(node, c, out, n, c->off_send, MATMUL_TAG_ALIGN_C);
        g_autofree MatmulMove *in = store_recvs(c, &w, j, &n);
        matmul_recv_moves(node, in, n, c->off_cbuf, MATMUL_TAG_ALIGN_C);
    }
    return NODE_CONTINUE;
}

/* ---- counts, from the layouts ------------------------------------------ */

/* The router's messages and elements of every block's alignment and store
 * (pairs of nodes whose index ranges overlap, the same node excluded), by
 * ranges rather than by elements. */
void matmul_nonsystolic_router(const MatmulConfig *c, uint64_t *msgs,
                               uint64_t *elems)
{
    gboolean a = c->stationary == MATMUL_A;
    uint32_t nr = c->nr, nc = c->nc;
    uint64_t seg = a ? c->qa : c->qb;         /* the root's inner segment */
    *msgs = *elems = 0;
    for (uint64_t j = 0; j < c->nblocks; j++) {
        /* Alignment: source (l, m)'s home block against root r's segment. */
        for (uint32_t l = 0; l < nr; l++)
            for (uint32_t m = 0; m < nc; m++) {
                uint64_t k0, k1, f0, f1;
                if (!moving_ranges(c, l, m, j, &k0, &k1, &f0, &f1))
                    continue;
                uint32_t src = procgrid_node(&c->grid, l, m);
                for (uint64_t r = k0 / seg; r * seg < k1; r++) {
                    uint32_t dst = a ? procgrid_node(&c->grid, 0, (uint32_t)r)
                                     : procgrid_node(&c->grid, (uint32_t)r, 0);
                    uint64_t lo = MAX(k0, r * seg), hi = MIN(k1, (r + 1) * seg);
                    if (dst != src && lo < hi) {
                        (*msgs)++;
                        *elems += (hi - lo) * (f1 - f0);
                    }
                }
            }
        /* Store: sink s's sums against C's home blocks. */
        uint32_t sinks = a ? nr : nc;
        for (uint32_t s = 0; s < sinks; s++) {
            uint32_t src = a ? procgrid_node(&c->grid, s, 0)
                             : procgrid_node(&c->grid, 0, s);
            uint64_t i0, i1, c0, c1;
            if (!sink_ranges(c, a ? s : 0, a ? 0 : s, j, &i0, &i1, &c0, &c1))
                continue;
            if (a) {
                for (uint64_t h = c0 / c->gamma; h * c->gamma < c1; h++) {
                    uint64_t lo = MAX(c0, h * c->gamma);
                    uint64_t hi = MIN(c1, (h + 1) * c->gamma);
                    uint32_t dst = procgrid_node(&c->grid, s, (uint32_t)h);
                    if (dst != src && lo < hi) {
                        (*msgs)++;
                        *elems += (hi - lo) * (i1 - i0);
                    }
                }
            } else {
                for (uint64_t h = i0 / c->alpha; h * c->alpha < i1; h++) {
                    uint64_t lo = MAX(i0, h * c->alpha);
                    uint64_t hi = MIN(i1, (h + 1) * c->alpha);
                    uint32_t dst = procgrid_node(&c->grid, (uint32_t)h, s);
                    if (dst != src && lo < hi) {
                        (*msgs)++;
                        *elems += (hi - lo) * (c1 - c0);
                    }
                }
            }
        }
    }
}

/* The spreads' and reductions' neighbour (and on a torus router)
 * messages and elements, from the trees' definition. */
void matmul_nonsystolic_trees(const MatmulConfig *c, uint64_t msgs[CLASS_COUNT],
                              uint64_t elems[CLASS_COUNT])
{
    gboolean a = c->stationary == MATMUL_A;
    AxisTree t = ns_trees(c);
    unsigned sb = a ? c->rbits : c->cbits, sr = a ? c->cbits : c->rbits;
    uint32_t slines = a ? c->nc : c->nr, rlines = a ? c->nr : c->nc;
    for (uint64_t j = 0; j < c->nblocks; j++) {
        uint64_t nb = matmul_nonsystolic_width(c, j);
        axistree_count(&t, sb, slines, x_count(c, nb), msgs, elems);
        axistree_count(&t, sr, rlines, acc_count(c, nb), msgs, elems);
    }
}
