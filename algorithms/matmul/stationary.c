/* stationary.c -- matrix multiplication with A or B stationary (Mathur &
 * Johnsson 1992, Section 4.1: the level-2 based algorithms), as a node
 * program. The layouts are in matmul.h; A, B and C keep their home layout.
 *
 * A stationary: the columns of B and C are taken in blocks J of `block`
 * columns (padded to bpad, a multiple of max(N_r, N_c)). For each block:
 *
 *   align    X = B(:, J) goes through the router so that node (l, m) holds
 *            X(A's column segment of m, part l of J), part = pb = bpad/N_r
 *            columns, column-major qa x pb;
 *   multiply N_r local products acc(:, part) = A_home X_part (CBLAS, the
 *            "matvec" kernel alpha x qa x pb), the X piece moving one hop
 *            to l + 1 between them (N_r - 1 cyclic shifts along the
 *            processor column: the stepwise all-to-all broadcast);
 *   reduce   the alpha x bpad accumulator in N_c parts of rb = bpad/N_c
 *            columns, a ring reduce-scatter along the processor row:
 *            N_c - 1 shifts one hop to m + 1, each receiver adding its own
 *            partial (real additions, timed with node_compute: one flop per
 *            real word added) - node (l, m) ends with part m summed;
 *   store    that part goes through the router to C's home blocks (row
 *            block l stays the same: only the column block changes).
 *
 * B stationary is the transpose: blocks of rows of A and C, Y = A(I, :)
 * laid out as part m of I (pb = bpad/N_c rows) by B's row segment of l,
 * broadcast along the processor row (to m + 1), products
 * acc(part, :) = Y_part B_home, reduced along the processor column (to
 * l + 1) in N_r parts of rows, stored to C's home blocks in column m.
 *
 * Node steps of one block: 1 (post the alignment; unpack the previous
 * block's C) + nbc (multiplies, each posting the next shift) + nred - 1
 * (additions, each posting the next reduction shift), then one final step
 * that unpacks the last block's C.
 */
#include "matmul.h"

#include "blas.h"
#include <stdlib.h>
#include <string.h>

/* The coordinates and sizes of one node's view. */
typedef struct {
    gboolean a;                   /* A stationary */
    uint32_t l, m;
    uint32_t u;                   /* coordinate along the broadcast axis */
    uint32_t v;                   /* the other (the reduction axis) */
    ProcGridAxis bc_axis, red_axis;
    uint64_t qi;                  /* inner segment of the stationary block */
    uint64_t free_ext;            /* R (A) or P (B) */
    uint64_t other;               /* alpha (A) or gamma (B) */
} View;

static View view_of(const MatmulConfig *c, uint32_t address)
{
    View w;
    w.a = c->stationary == MATMUL_A;
    procgrid_coords(&c->grid, address, &w.l, &w.m);
    w.u = w.a ? w.l : w.m;
    w.v = w.a ? w.m : w.l;
    w.bc_axis = w.a ? PROCGRID_ROWS : PROCGRID_COLS;
    w.red_axis = w.a ? PROCGRID_COLS : PROCGRID_ROWS;
    w.qi = w.a ? c->qa : c->qb;
    w.free_ext = w.a ? c->r : c->p;
    w.other = w.a ? c->alpha : c->gamma;
    return w;
}

static uint32_t node_at(const MatmulConfig *c, const View *w, uint32_t u,
                        uint32_t v)
{
    return w->a ? procgrid_node(&c->grid, u, v) : procgrid_node(&c->grid, v, u);
}

static uint64_t block_end(const MatmulConfig *c, const View *w, uint64_t j)
{
    return MIN((j + 1) * c->block, w->free_ext);
}

/* Where X(k, f) (inner index k, free index f of block j) lives. */
static MatmulPlace x_place(const MatmulConfig *c, const View *w, uint64_t j,
                           uint64_t k, uint64_t f)
{
    uint64_t rel = f - j * c->block;
    uint32_t pu = (uint32_t)(rel / c->pb), pv = (uint32_t)(k / w->qi);
    uint64_t fl = rel % c->pb, kl = k % w->qi;
    return (MatmulPlace){ node_at(c, w, pu, pv),
                          c->off_x + (w->a ? fl * c->qa + kl
                                           : kl * c->pb + fl) };
}

static MatmulPlace moving_home(const MatmulConfig *c, const View *w,
                               uint64_t k, uint64_t f)
{
    return w->a ? matmul_home(c, OPERAND_B, k, f)
                : matmul_home(c, OPERAND_A, f, k);
}

/* The alignment of block j's X: this node's sends (from its home block of
 * the moving operand), sorted by (destination, destination offset). */
static MatmulMove *x_sends(const MatmulConfig *c, const View *w, uint64_t j,
                     size_t *n)
{
    uint64_t k0, k1, f0, f1;
    if (w->a) {
        k0 = w->l * c->qb, k1 = MIN(k0 + c->qb, c->q);
        f0 = w->m * c->gamma, f1 = MIN(f0 + c->gamma, c->r);
    } else {
        f0 = w->l * c->alpha, f1 = MIN(f0 + c->alpha, c->p);
        k0 = w->m * c->qa, k1 = MIN(k0 + c->qa, c->q);
    }
    f0 = MAX(f0, j * c->block);
    f1 = MIN(f1, block_end(c, w, j));
    size_t count = k0 < k1 && f0 < f1 ? (size_t)((k1 - k0) * (f1 - f0)) : 0;
    MatmulMove *mv = g_new(MatmulMove, count ? count : 1);
    size_t i = 0;
    for (uint64_t f = f0; f < f1; f++)
        for (uint64_t k = k0; k < k1; k++) {
            MatmulPlace to = x_place(c, w, j, k, f);
            mv[i++] = (MatmulMove){ to.node, to.offset,
                              moving_home(c, w, k, f).offset };
        }
    matmul_sort_moves(mv, count);
    *n = count;
    return mv;
}

/* What offset `off` of a piece moves, or FALSE where it moves nothing
 * (outside block j, or past the matrix). */
typedef gboolean (*MoveAt)(const MatmulConfig *c, const View *w, uint64_t j,
                           size_t off, MatmulMove *move);

/* The moves of a piece of `size` elements, one offset at a time, sorted by
 * (peer, offset) as their messages carry them: X's receives and C's sends
 * and receives differ only in what one offset moves. */
static MatmulMove *collect_moves(const MatmulConfig *c, const View *w,
                                 uint64_t j, size_t size, MoveAt move_at,
                                 size_t *n)
{
    MatmulMove *mv = g_new(MatmulMove, size ? size : 1);
    size_t count = 0;
    for (size_t off = 0; off < size; off++)
        if (move_at(c, w, j, off, &mv[count]))
            count++;
    matmul_sort_moves(mv, count);
    *n = count;
    return mv;
}

static gboolean x_recv_at(const MatmulConfig *c, const View *w, uint64_t j,
                          size_t off, MatmulMove *move)
{
    uint64_t fl = w->a ? off / c->qa : off % c->pb;
    uint64_t kl = w->a ? off % c->qa : off / c->pb;
    uint64_t k = w->v * w->qi + kl;
    uint64_t f = j * c->block + (uint64_t)w->u * c->pb + fl;
    if (k >= c->q || f >= block_end(c, w, j))
        return FALSE;
    *move = (MatmulMove){ moving_home(c, w, k, f).node, c->off_x + off, 0 };
    return TRUE;
}

/* What this node's X piece receives, sorted by (source, offset). */
static MatmulMove *x_recvs(const MatmulConfig *c, const View *w, uint64_t j,
                           size_t *n)
{
    return collect_moves(c, w, j, w->qi * c->pb, x_recv_at, n);
}

/* Offset in the accumulator of element e of reduction part k: e runs
 * over the part column-major (alpha x rb for A, rb x gamma for B). */
static size_t acc_offset(const MatmulConfig *c, const View *w, uint32_t k,
                         uint64_t e)
{
    if (w->a)
        return c->off_acc + (size_t)k * c->rb * c->alpha + e;
    uint64_t r = e % c->rb, col = e / c->rb;
    return c->off_acc + col * c->bpad + (uint64_t)k * c->rb + r;
}

static gboolean c_send_at(const MatmulConfig *c, const View *w, uint64_t j,
                          size_t e, MatmulMove *move)
{
    uint64_t fl = w->a ? e / c->alpha : e % c->rb;
    uint64_t o = w->a ? e % c->alpha : e / c->rb;
    uint64_t f = j * c->block + (uint64_t)w->v * c->rb + fl;
    if (f >= block_end(c, w, j) || (w->a ? w->l * c->alpha + o >= c->p
                                         : w->m * c->gamma + o >= c->r))
        return FALSE;
    MatmulPlace to;
    if (w->a)
        to = (MatmulPlace){ procgrid_node(&c->grid, w->l,
                                          (uint32_t)(f / c->gamma)),
                            (f % c->gamma) * c->alpha + o };
    else
        to = (MatmulPlace){ procgrid_node(&c->grid,
                                          (uint32_t)(f / c->alpha), w->m),
                            o * c->alpha + f % c->alpha };
    *move = (MatmulMove){ to.node, to.offset, acc_offset(c, w, w->v, e) };
    return TRUE;
}

/* The store of block j: this node's summed part v (its reduction
 * coordinate) to C's home blocks; sends sorted by (destination, offset). */
static MatmulMove *c_sends(const MatmulConfig *c, const View *w, uint64_t j,
                           size_t *n)
{
    return collect_moves(c, w, j, c->rb * w->other, c_send_at, n);
}

static gboolean c_recv_at(const MatmulConfig *c, const View *w, uint64_t j,
                          size_t off, MatmulMove *move)
{
    uint64_t start = j * c->block;
    uint64_t i = w->l * c->alpha + off % c->alpha;
    uint64_t col = w->m * c->gamma + off / c->alpha;
    uint64_t f = w->a ? col : i;
    if (f < start || f >= block_end(c, w, j) || i >= c->p || col >= c->r)
        return FALSE;
    uint32_t part = (uint32_t)((f - start) / c->rb);
    uint32_t src = w->a ? procgrid_node(&c->grid, w->l, part)
                        : procgrid_node(&c->grid, part, w->m);
    *move = (MatmulMove){ src, off, 0 };
    return TRUE;
}

/* What this node's C block receives of block j, sorted by (source,
 * offset). */
static MatmulMove *c_recvs(const MatmulConfig *c, const View *w, uint64_t j,
                           size_t *n)
{
    return collect_moves(c, w, j, c->alpha * c->gamma, c_recv_at, n);
}

/* Local product of broadcast part p: acc(part p) = stationary block times
 * the X piece, through CBLAS. */
static void multiply(Node *node, const MatmulConfig *c, const View *w,
                     uint32_t p)
{
    Word *mem = node_memory(node);
    size_t ws = matmul_words(c);
    int mm, nn, kk, lda, ldb, ldc;
    void *a, *b, *acc;
    if (w->a) {
        mm = (int)c->alpha, nn = (int)c->pb, kk = (int)c->qa;
        a = mem + c->off_a * ws, lda = mm;
        b = mem + c->off_x * ws, ldb = kk;
        acc = mem + (c->off_acc + (size_t)p * c->pb * c->alpha) * ws;
        ldc = mm;
    } else {
        mm = (int)c->pb, nn = (int)c->gamma, kk = (int)c->qb;
        a = mem + c->off_x * ws, lda = mm;
        b = mem + c->off_b * ws, ldb = kk;
        acc = mem + (c->off_acc + (size_t)p * c->pb) * ws;
        ldc = (int)c->bpad;
    }
    if (c->is_complex) {
        static const double one[2] = { 1, 0 }, zero[2] = { 0, 0 };
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, mm, nn, kk,
                    one, a, lda, b, ldb, zero, acc, ldc);
    } else {
        blas_dgemm_nn(mm, nn, kk, a, lda, b, ldb, 0.0, acc, ldc);
    }
    uint64_t shape[3] = { (uint64_t)mm, (uint64_t)kk, (uint64_t)nn };
    node_kernel(node, "matvec", shape,
                (c->is_complex ? 8 : 2) * (uint64_t)mm * kk * nn);
}

/* One step of a cyclic shift along axis, the same for the broadcast and
 * the reduction: memory[from, from + size) one hop to the next node (+1),
 * and as many elements from the previous one (-1) into memory[into, ...). */
static void shift_post(Node *node, const MatmulConfig *c, const View *w,
                       ProcGridAxis axis, size_t from, size_t into,
                       size_t size, int tag)
{
    int link = procgrid_link(&c->grid, w->l, w->m, axis, +1);
    uint32_t prev = procgrid_step(&c->grid, w->l, w->m, axis, -1);
    node_send(node, &link, 1, from, size, tag);
    node_recv(node, prev, tag, into, size);
}

/* Reduction shift: reduction part k one hop to v + 1, receiving v - 1's
 * running sum into the reduction buffer. */
static void reduce_post(Node *node, const MatmulConfig *c, const View *w,
                        uint32_t k)
{
    Word *mem = node_memory(node);
    size_t ws = matmul_words(c), size = c->rb * w->other;
    for (uint64_t e = 0; e < size; e++)
        memcpy(mem + (c->off_send + e) * ws, mem + acc_offset(c, w, k, e) * ws,
               ws * sizeof(Word));
    shift_post(node, c, w, w->red_axis, c->off_send, c->off_rbuf, size,
               MATMUL_TAG_REDUCE);
}

/* Add the received running sum to this node's partial of part k. */
static void reduce_add(Node *node, const MatmulConfig *c, const View *w,
                       uint32_t k)
{
    double *mem = (double *)node_memory(node);
    size_t ws = matmul_words(c), size = c->rb * w->other;
    for (uint64_t e = 0; e < size; e++) {
        double *dst = mem + acc_offset(c, w, k, e) * ws;
        const double *src = mem + (c->off_rbuf + e) * ws;
        for (size_t x = 0; x < ws; x++)
            dst[x] += src[x];
    }
    node_compute(node, size * ws);
}

/* The broadcast shift: the X piece one hop to u + 1, u - 1's in its
 * place. */
static void bcast_post(Node *node, const MatmulConfig *c, const View *w)
{
    shift_post(node, c, w, w->bc_axis, c->off_x, c->off_x, w->qi * c->pb,
               MATMUL_TAG_BCAST);
}

static void store_post(Node *node, const MatmulConfig *c, const View *w,
                       uint64_t j)
{
    size_t n;
    g_autofree MatmulMove *out = c_sends(c, w, j, &n);
    matmul_send_moves(node, c, out, n, c->off_send, MATMUL_TAG_ALIGN_C);
    g_autofree MatmulMove *in = c_recvs(c, w, j, &n);
    matmul_recv_moves(node, in, n, c->off_cbuf, MATMUL_TAG_ALIGN_C);
}

static void store_unpack(Node *node, const MatmulConfig *c, const View *w,
                         uint64_t j)
{
    size_t n;
    g_autofree MatmulMove *in = c_recvs(c, w, j, &n);
    matmul_unpack_moves(node, c, in, n, c->off_cbuf);
}

unsigned matmul_stationary_block_steps(const MatmulConfig *c)
{
    return 1 + c->nbc + c->nred - 1;
}

NodeStatus matmul_stationary_step(Node *node, const MatmulConfig *c)
{
    View w = view_of(c, node_address(node));
    unsigned step = node_step(node), per = matmul_stationary_block_steps(c);
    uint64_t j = step / per;
    unsigned t = step % per;
    if (t == 0) {
        if (j > 0)
            store_unpack(node, c, &w, j - 1);
        if (j == c->nblocks)
            return NODE_DONE;
        node_mark(node, "block %" G_GUINT64_FORMAT, j);
        Word *mem = node_memory(node);
        memset(mem + c->off_x * matmul_words(c), 0,
               w.qi * c->pb * matmul_words(c) * sizeof(Word));
        size_t n;
        g_autofree MatmulMove *out = x_sends(c, &w, j, &n);
        matmul_send_moves(node, c, out, n, c->off_send, MATMUL_TAG_ALIGN_X);
        g_autofree MatmulMove *in = x_recvs(c, &w, j, &n);
        matmul_recv_moves(node, in, n, c->off_recv, MATMUL_TAG_ALIGN_X);
        return NODE_CONTINUE;
    }
    if (step == 1)
        node_phase(node, MATMUL_PHASE_MULTIPLY);
    if (t <= c->nbc) {
        unsigned s = t - 1;
        if (s == 0) {
            size_t n;
            g_autofree MatmulMove *in = x_recvs(c, &w, j, &n);
            matmul_unpack_moves(node, c, in, n, c->off_recv);
        }
        multiply(node, c, &w, (w.u + c->nbc - s) % c->nbc);
        if (s + 1 < c->nbc)
            bcast_post(node, c, &w);
        else if (c->nred > 1)
            reduce_post(node, c, &w, (w.v + c->nred - 1) % c->nred);
        else
            store_post(node, c, &w, j);
        return NODE_CONTINUE;
    }
    unsigned r = t - c->nbc;                  /* 1 .. nred - 1 */
    reduce_add(node, c, &w, (w.v + 2 * c->nred - r - 1) % c->nred);
    if (r + 1 < c->nred)
        reduce_post(node, c, &w, (w.v + 2 * c->nred - r - 1) % c->nred);
    else
        store_post(node, c, &w, j);
    return NODE_CONTINUE;
}
