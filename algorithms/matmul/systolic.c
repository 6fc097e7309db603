/* systolic.c -- the systolic matrix multiplication with C stationary
 * (Mathur & Johnsson 1992, Section 4.2 and the Appendix's Algorithm AM),
 * as a node program. The layouts are in matmul.h.
 *
 *   step 0      alignment: every element of A and B goes from its home
 *               place to its working place through the router, one message
 *               per (source, destination) pair, elements in the order of
 *               their destination offsets;
 *   step 1      unpack what arrived, then multiplication step t = 0;
 *   step 1 + t  local multiply of step t (both halves, Remarks 2 and 6),
 *               then the cyclic shifts that step t + 1 needs: A's halves
 *               one hop left and right along the row when
 *               (t + 1) mod a_slots = 0, B's halves up and down the column
 *               when (t + 1) mod b_slots = 0, concurrently.
 * L = max(N_r, N_c) multiplication steps in all, N_c - 1 shifts of A and
 * N_r - 1 of B (the Appendix's counts; ERRATA.md). With c-home = default
 * on an array other than C's default one (matmul.h), two more:
 *   step 1 + L  reconfiguration: the product's elements go from the
 *               working block to C's home block through the router, one
 *               message per destination node (a node's own elements are
 *               copied at once);
 *   step 2 + L  unpack what arrived.
 */
#include "matmul.h"

#include "blas.h"
#include <stdlib.h>
#include <string.h>

static size_t region_offset(const MatmulConfig *c, MatmulOperand op)
{
    return op == OPERAND_A ? c->off_a : c->off_b;
}

static size_t region_size(const MatmulConfig *c, MatmulOperand op)
{
    return op == OPERAND_A ? c->region_a : c->region_b;
}

/* The elements this node's home block sends, sorted by (destination,
 * destination offset). */
static MatmulMove *align_sends(const MatmulConfig *c, MatmulOperand op, uint32_t l,
                         uint32_t m, size_t *n)
{
    uint64_t r0, r1, c0, c1;
    if (op == OPERAND_A) {
        r0 = l * c->alpha, r1 = MIN(r0 + c->alpha, c->p);
        c0 = m * c->qa, c1 = MIN(c0 + c->qa, c->q);
    } else {
        r0 = l * c->qb, r1 = MIN(r0 + c->qb, c->q);
        c0 = m * c->gamma, c1 = MIN(c0 + c->gamma, c->r);
    }
    size_t count = r0 < r1 && c0 < c1 ? (size_t)((r1 - r0) * (c1 - c0)) : 0;
    MatmulMove *mv = g_new(MatmulMove, count ? count : 1);
    size_t i = 0;
    for (uint64_t col = c0; col < c1; col++)
        for (uint64_t row = r0; row < r1; row++) {
            MatmulPlace to = matmul_work(c, op, row, col);
            MatmulPlace from = matmul_home(c, op, row, col);
            mv[i++] = (MatmulMove){ to.node, to.offset, from.offset };
        }
    matmul_sort_moves(mv, count);
    *n = count;
    return mv;
}

/* The elements this node's working region receives, sorted by (source,
 * offset): the order in which each source's message carries them. */
static MatmulMove *align_recvs(const MatmulConfig *c, MatmulOperand op, uint32_t l,
                         uint32_t m, size_t *n)
{
    size_t size = region_size(c, op), base = region_offset(c, op), count = 0;
    MatmulMove *mv = g_new(MatmulMove, size ? size : 1);
    for (size_t off = 0; off < size; off++) {
        uint64_t row, col;
        if (!matmul_work_element(c, op, l, m, off, &row, &col))
            continue;
        mv[count++] = (MatmulMove){ matmul_home(c, op, row, col).node, base + off,
                              0 };
    }
    matmul_sort_moves(mv, count);
    *n = count;
    return mv;
}

static void align_post(Node *node, const MatmulConfig *c, uint32_t l,
                       uint32_t m)
{
    size_t send = c->off_send, recv = c->off_recv;
    for (MatmulOperand op = OPERAND_A; op <= OPERAND_B; op++) {
        int tag = op == OPERAND_A ? MATMUL_TAG_ALIGN_A : MATMUL_TAG_ALIGN_B;
        size_t n;
        g_autofree MatmulMove *out = align_sends(c, op, l, m, &n);
        send = matmul_send_moves(node, c, out, n, send, tag);
        g_autofree MatmulMove *in = align_recvs(c, op, l, m, &n);
        recv = matmul_recv_moves(node, in, n, recv, tag);
    }
}

/* Unpack the alignment's messages into the working regions (padding
 * becomes zero), in the order align_post received them. */
static void align_unpack(Node *node, const MatmulConfig *c, uint32_t l,
                         uint32_t m)
{
    Word *mem = node_memory(node);
    size_t w = matmul_words(c);
    size_t recv = c->off_recv;
    for (MatmulOperand op = OPERAND_A; op <= OPERAND_B; op++) {
        size_t n;
        g_autofree MatmulMove *in = align_recvs(c, op, l, m, &n);
        memset(mem + region_offset(c, op) * w, 0,
               region_size(c, op) * w * sizeof(Word));
        matmul_unpack_moves(node, c, in, n, recv);
        recv += n;
    }
}

/* The reconfiguration's moves of this node (address `self`): sends, the
 * product's elements of the working block (l, m) of the shared array that
 * live elsewhere, by (destination, destination offset), after copying the
 * others home; receives, the elements of C's home block that come from
 * another node, by (source, offset). */
static MatmulMove *reconfigure_sends(Node *node, const MatmulConfig *c,
                                     uint32_t l, uint32_t m, size_t *n)
{
    uint64_t r0 = l * c->alpha, r1 = MIN(r0 + c->alpha, c->p);
    uint64_t c0 = m * c->gamma, c1 = MIN(c0 + c->gamma, c->r);
    size_t cap = r0 < r1 && c0 < c1 ? (size_t)((r1 - r0) * (c1 - c0)) : 0;
    MatmulMove *mv = g_new(MatmulMove, cap ? cap : 1);
    *n = 0;
    for (uint64_t col = c0; col < c1; col++)
        for (uint64_t row = r0; row < r1; row++) {
            MatmulPlace to = matmul_home_c(c, row, col);
            mv[(*n)++] = (MatmulMove){
                to.node, to.offset,
                c->off_c + (col - c0) * c->alpha + (row - r0) };
        }
    matmul_settle_moves(node, c, mv, n);
    return mv;
}

static MatmulMove *reconfigure_recvs(const MatmulConfig *c, uint32_t self,
                                     size_t *n)
{
    uint32_t hl, hm;
    procgrid_coords(&c->home, self, &hl, &hm);
    uint64_t r0 = hl * c->halpha, r1 = MIN(r0 + c->halpha, c->p);
    uint64_t c0 = hm * c->hgamma, c1 = MIN(c0 + c->hgamma, c->r);
    size_t cap = r0 < r1 && c0 < c1 ? (size_t)((r1 - r0) * (c1 - c0)) : 0;
    MatmulMove *mv = g_new(MatmulMove, cap ? cap : 1);
    size_t count = 0;
    for (uint64_t col = c0; col < c1; col++)
        for (uint64_t row = r0; row < r1; row++) {
            uint32_t from = procgrid_node(&c->grid, (uint32_t)(row / c->alpha),
                                          (uint32_t)(col / c->gamma));
            if (from != self)
                mv[count++] = (MatmulMove){
                    from, (col - c0) * c->halpha + (row - r0), 0 };
        }
    matmul_sort_moves(mv, count);
    *n = count;
    return mv;
}

static void reconfigure_post(Node *node, const MatmulConfig *c, uint32_t l,
                             uint32_t m)
{
    size_t n;
    g_autofree MatmulMove *out = reconfigure_sends(node, c, l, m, &n);
    matmul_send_moves(node, c, out, n, c->off_send, MATMUL_TAG_RECONFIGURE);
    g_autofree MatmulMove *in = reconfigure_recvs(c, node_address(node), &n);
    matmul_recv_moves(node, in, n, c->off_recv, MATMUL_TAG_RECONFIGURE);
}

static void reconfigure_unpack(Node *node, const MatmulConfig *c)
{
    size_t n;
    g_autofree MatmulMove *in = reconfigure_recvs(c, node_address(node), &n);
    matmul_unpack_moves(node, c, in, n, c->off_recv);
}

/* Offset of slot `slot` of set d of an operand's working region. */
static size_t slot_offset(const MatmulConfig *c, MatmulOperand op, int d,
                          uint64_t slot)
{
    if (op == OPERAND_A)
        return c->off_a + (d ? c->a_slots * c->alpha * c->h[0] : 0)
               + slot * c->alpha * c->h[d];
    return c->off_b + (d ? c->b_slots * c->h[0] * c->gamma : 0)
           + slot * c->h[d] * c->gamma;
}

/* C += A_d[t mod a_slots] B_d[t mod b_slots] for both sets: the rank-bv
 * update of step t, through CBLAS. */
static void multiply(Node *node, const MatmulConfig *c, uint64_t t)
{
    Word *mem = node_memory(node);
    size_t w = matmul_words(c);
    Word *cw = mem + c->off_c * w;            /* the working C block */
    int mm = (int)c->alpha, nn = (int)c->gamma;
    for (int d = 0; d < 2; d++) {
        if (!c->h[d])
            continue;
        int kk = (int)c->h[d];
        void *a = mem + slot_offset(c, OPERAND_A, d, t % c->a_slots) * w;
        void *b = mem + slot_offset(c, OPERAND_B, d, t % c->b_slots) * w;
        if (c->is_complex) {
            static const double one[2] = { 1, 0 };
            cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, mm, nn, kk,
                        one, a, mm, b, kk, one, cw, mm);
        } else {
            blas_dgemm_nn(mm, nn, kk, a, mm, b, kk, 1.0, (double *)cw, mm);
        }
    }
    uint64_t shape[3] = { c->alpha, c->bv, c->gamma };
    uint64_t flops = (c->is_complex ? 8 : 2) * c->alpha * c->bv * c->gamma;
    node_kernel(node, "matvec", shape, flops);
}

/* Both halves of an operand one hop along its axis: set 0 towards lower
 * indices, set 1 towards higher ones; each node receives from the other
 * side into the same offsets (the send has already copied them). */
static void shift(Node *node, const MatmulConfig *c, MatmulOperand op,
                  uint32_t l, uint32_t m)
{
    ProcGridAxis axis = op == OPERAND_A ? PROCGRID_COLS : PROCGRID_ROWS;
    uint64_t slots = op == OPERAND_A ? c->a_slots : c->b_slots;
    uint64_t per_slot_other = op == OPERAND_A ? c->alpha : c->gamma;
    int tag0 = op == OPERAND_A ? MATMUL_TAG_SHIFT_A : MATMUL_TAG_SHIFT_B;
    for (int d = 0; d < 2; d++) {
        if (!c->h[d])
            continue;
        int to = d ? +1 : -1;
        int link = procgrid_link(&c->grid, l, m, axis, to);
        uint32_t from = procgrid_step(&c->grid, l, m, axis, -to);
        size_t off = slot_offset(c, op, d, 0);
        size_t count = slots * c->h[d] * per_slot_other;
        node_send(node, &link, 1, off, count, tag0 + d);
        node_recv(node, from, tag0 + d, off, count);
    }
}

NodeStatus matmul_systolic_step(Node *node, const MatmulConfig *c)
{
    uint32_t l, m;
    procgrid_coords(&c->grid, node_address(node), &l, &m);
    unsigned step = node_step(node);
    if (step == 0) {
        align_post(node, c, l, m);
        return NODE_CONTINUE;
    }
    uint64_t t = step - 1;
    if (t == c->l) {
        node_phase(node, MATMUL_PHASE_RECONFIGURE);
        reconfigure_post(node, c, l, m);
        return NODE_CONTINUE;
    }
    if (t == c->l + 1) {
        reconfigure_unpack(node, c);
        return NODE_DONE;
    }
    if (t == 0) {
        align_unpack(node, c, l, m);
        node_phase(node, MATMUL_PHASE_MULTIPLY);
    }
    multiply(node, c, t);
    if (t + 1 == c->l)
        return c->reconfigure ? NODE_CONTINUE : NODE_DONE;
    if ((t + 1) % c->a_slots == 0)
        shift(node, c, OPERAND_A, l, m);
    if ((t + 1) % c->b_slots == 0)
        shift(node, c, OPERAND_B, l, m);
    return NODE_CONTINUE;
}
