/* matmul.h -- what the matrix multiplication programs share: the
 * configuration prepare builds, the matrices' values, and where each
 * element lives (Mathur & Johnsson 1992).
 *
 * C = A B with A P x Q, B Q x R, on a processor array N_r x N_c
 * (procgrid.h). Elements are doubles or complex doubles.
 *
 * Home layout (Section 2, the consecutive allocation CMSSL uses): node
 * (l, m) holds the block of A with rows [alpha l, alpha l + alpha) and
 * columns [qa m, qa m + qa), alpha = ceil(P/N_r), qa = ceil(Q/N_c); B's
 * block rows [qb l, ...), columns [gamma m, ...), qb = ceil(Q/N_r),
 * gamma = ceil(R/N_c); C's block alpha x gamma. Blocks are column-major and
 * padded with zeros past the matrix.
 *
 * Working layout of the systolic algorithm with C stationary (Section
 * 4.2, Algorithm AM). The inner axis is cut into L = lcm(N_r, N_c) =
 * max(N_r, N_c) virtual blocks of bv = ceil(Q/L) indices (Q padded to
 * Q' = L bv: the inner blocking this implementation chooses when Q is not a
 * multiple of L). Node (l, m) starts at virtual block
 * s = (m a_slots + l b_slots) mod L, a_slots = L/N_c, b_slots = L/N_r
 * (Claim 1: A is skewed as if the array were square of the shorter side,
 * B as if of the longer); A holds a_slots consecutive virtual blocks, B
 * b_slots. As on the CM-200 (Remarks 2 and 6) each virtual block is split
 * in two halves: set 0 (the first h0 = ceil(bv/2) indices) walks the
 * virtual blocks upwards, A moving to column m - 1 and B to row l - 1; set
 * 1 (the other h1 = floor(bv/2)) walks them downwards, A moving to m + 1
 * and B to l + 1. Step t multiplies, for both sets, A's slot t mod a_slots
 * by B's slot t mod b_slots; A shifts before steps t with
 * t mod a_slots = 0 (N_c - 1 times), B before t mod b_slots = 0
 * (N_r - 1 times).
 *
 * Node memory: [C alpha x gamma | A region | B region | scratch]. The A
 * region holds A's home block at the start and the working blocks after
 * the alignment (set 0's a_slots slots of alpha x h0, then set 1's), the B
 * region likewise (slots of h_d x gamma, column-major). memory[0, K) with
 * K = C + A + B regions is verified: C by value (computed), A and B by
 * placement and conservation.
 *
 * C's home (c-home, C stationary only). `shared` (the default): C lives
 * in its blocks on the array the multiplication runs on, as above.
 * `default`: C lives on the CM compilers' default array for C's own shape
 * (Section 2, the consecutive allocation with the smallest faces; see
 * matmul.c's default_array), H_r x H_c, in blocks of ceil(P/H_r) x
 * ceil(R/H_c) column-major (the same Gray-coded embedding, of H_r x H_c).
 * When that array is the shared one nothing changes. Otherwise
 * (`reconfigure`) the product is computed in a working block alpha x gamma
 * past the verified part (off_c) and, after the multiplication, moved to
 * C's home block through the router (Section 5: "one extra route
 * operation to reconfigure the product matrix"), one message per
 * (source, destination) pair of distinct nodes, in its own phase. Memory
 * is then [C home | A region | B region | C work | send | receive].
 *
 * With A or B stationary (Section 4.1, stationary.c) A and B stay in their
 * home blocks: the A region is alpha x qa, the B region qb x gamma, and
 * the scratch beyond K holds a send buffer, the alignment's receive
 * buffer, the X piece, the accumulator (alpha x bpad for A, bpad x gamma
 * for B), the reduction's receive buffer and the C store's receive
 * buffer (off_send, off_recv, off_x, off_acc, off_rbuf, off_cbuf).
 */
#ifndef CUBE_MATMUL_H
#define CUBE_MATMUL_H

#include "algorithm.h"
#include "procgrid.h"

typedef enum { MATMUL_C = 0, MATMUL_A, MATMUL_B, MATMUL_AUTO } MatmulStationary;
typedef enum { OPERAND_A = 0, OPERAND_B = 1 } MatmulOperand;

/* Where an element lives: a node and an offset in its memory. */
typedef struct {
    uint32_t node;
    size_t offset;
} MatmulPlace;

typedef struct {
    ProcGrid grid;
    uint64_t p, q, r;             /* A is p x q, B q x r */
    uint32_t nr, nc;
    gboolean is_complex;          /* two words per element */
    uint64_t seed;
    MatmulStationary stationary;  /* which ran (never AUTO) */

    /* C's home (c-home): the array and block C lives on before and after
     * the call: the shared grid, alpha and gamma unless reconfigure. */
    gboolean c_default;           /* c-home = default */
    gboolean reconfigure;         /* C's home array is not the shared one */
    ProcGrid home;
    uint32_t hr, hc;
    uint64_t halpha, hgamma;
    size_t off_c;                 /* the working C block (0 unless reconfigure) */

    /* Home blocks. */
    uint64_t alpha, gamma, qa, qb;
    /* Systolic working layout. */
    uint64_t l, a_slots, b_slots, bv, h[2], qpad;
    uint64_t beta_a, beta_b;      /* qpad / N_c, qpad / N_r */

    size_t off_a, off_b, off_send, off_recv;
    size_t region_a, region_b;
    size_t k;                     /* verified elements per node */

    /* A or B stationary (stationary.c): the free axis (columns of B and
     * C for A, rows of A and C for B) in blocks of `block`, padded to
     * bpad = a multiple of max(N_r, N_c); a block is broadcast in nbc parts
     * of pb along the broadcast axis and reduced in nred parts of rb. */
    uint64_t block, bpad, nblocks, pb, rb;
    uint32_t nbc, nred;
    size_t off_x, off_acc, off_rbuf, off_cbuf;

    /* Method cmssl with A or B stationary (nonsystolic.c): blocks of
     * `block` are not padded; the trees run over the array's axes. */
    gboolean nonsystolic;
    gboolean cube;                /* all-port trees (cube) or one (torus) */
    unsigned rbits, cbits;        /* log2 N_r, log2 N_c */

    gboolean sample;              /* verify = sample:K */
    uint64_t samples;

    /* Predictions for the report (ports = all): ticks. */
    Tick kernel_ticks;            /* one local multiply */
    Tick shift_ticks;             /* all shifts of the multiplication phase */
    gboolean predicted;           /* shift_ticks is exact for this machine */
} MatmulConfig;

/* Phases every matrix program enters (Algorithm.phases). */
enum { MATMUL_PHASE_ALIGN = 0, MATMUL_PHASE_MULTIPLY = 1,
       MATMUL_PHASE_RECONFIGURE = 2 };

/* Tags. */
enum { MATMUL_TAG_ALIGN_A = 1, MATMUL_TAG_ALIGN_B = 2,
       MATMUL_TAG_SHIFT_A = 10, MATMUL_TAG_SHIFT_B = 20,
       MATMUL_TAG_ALIGN_X = 30, MATMUL_TAG_BCAST = 31,
       MATMUL_TAG_REDUCE = 32, MATMUL_TAG_ALIGN_C = 33,
       MATMUL_TAG_RECONFIGURE = 34 };

static inline size_t matmul_words(const MatmulConfig *c)
{
    return c->is_complex ? 2 : 1;
}

/* The value of A(i, k) (op A) or B(k, j) (op B), part 0 (real) or 1
 * (imaginary): a small nonzero integer in -4..4 from the seed, so every
 * product and sum is exact in doubles. */
double matmul_value(const MatmulConfig *c, MatmulOperand op, uint64_t row,
                    uint64_t col, int part);

/* Home place of A(row, col) / B(row, col) (real elements only). */
MatmulPlace matmul_home(const MatmulConfig *c, MatmulOperand op,
                        uint64_t row, uint64_t col);
/* Home place of C(row, col) on C's home array (c-home). */
MatmulPlace matmul_home_c(const MatmulConfig *c, uint64_t row, uint64_t col);
/* Working place after the alignment. */
MatmulPlace matmul_work(const MatmulConfig *c, MatmulOperand op,
                        uint64_t row, uint64_t col);
/* Which element the working layout puts at offset `off` of the operand's
 * region on node (l, m): FALSE for padding. */
gboolean matmul_work_element(const MatmulConfig *c, MatmulOperand op,
                             uint32_t l, uint32_t m, size_t off,
                             uint64_t *row, uint64_t *col);

/* One element of a redistribution through the router: where it goes (or
 * comes from) and its offsets. */
typedef struct {
    uint32_t peer;                /* destination (sending) or source */
    size_t off;                   /* offset at the destination */
    size_t src;                   /* offset at the source (sending only) */
} MatmulMove;

/* Sort by (peer, off): the order in which a message between two nodes
 * carries its elements. Few peers and runs mostly in order are the common
 * case, sorted in linear time; anything else falls back to qsort. */
void matmul_sort_moves(MatmulMove *mv, size_t n);

/* Sends that a node builds from its own elements: the moves whose peer is
 * the node itself are local copies (memory[off] = memory[src]), done here
 * and dropped; the rest are sorted as matmul_sort_moves sorts them. *n is
 * the number left. */
void matmul_settle_moves(Node *node, const MatmulConfig *c, MatmulMove *mv,
                         size_t *n);

/* A redistribution's messages: send packs each peer's elements (sorted
 * moves) into memory from offset buf and sends them as one router message;
 * recv posts one receive per peer into memory from buf; unpack copies what
 * arrived to the moves' offsets. Send and recv return the offset after
 * what they used. */
size_t matmul_send_moves(Node *node, const MatmulConfig *c,
                         const MatmulMove *out, size_t n, size_t buf, int tag);
size_t matmul_recv_moves(Node *node, const MatmulMove *in, size_t n,
                         size_t buf, int tag);
void matmul_unpack_moves(Node *node, const MatmulConfig *c,
                         const MatmulMove *in, size_t n, size_t buf);

/* The systolic C-stationary node program (systolic.c). */
NodeStatus matmul_systolic_step(Node *node, const MatmulConfig *c);

/* The A- and B-stationary node programs (stationary.c): node steps per
 * block, and the program. */
unsigned matmul_stationary_block_steps(const MatmulConfig *c);
NodeStatus matmul_stationary_step(Node *node, const MatmulConfig *c);

/* CMSSL's nonsystolic A- and B-stationary program (nonsystolic.c): node
 * steps per block, the width of block j, the program, and its message
 * counts from the layouts (router: the alignments and stores; trees: the
 * spreads and reductions, added to msgs and elems by class). */
unsigned matmul_nonsystolic_block_steps(const MatmulConfig *c);
uint64_t matmul_nonsystolic_width(const MatmulConfig *c, uint64_t j);
NodeStatus matmul_nonsystolic_step(Node *node, const MatmulConfig *c);
void matmul_nonsystolic_router(const MatmulConfig *c, uint64_t *msgs,
                               uint64_t *elems);
void matmul_nonsystolic_trees(const MatmulConfig *c,
                              uint64_t msgs[CLASS_COUNT],
                              uint64_t elems[CLASS_COUNT]);

#endif
