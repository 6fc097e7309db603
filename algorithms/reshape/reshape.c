/* reshape.c -- reshaping Gray-coded arrays on Boolean cubes (Johnsson & Ho
 * 1990, Sections 2-3, Theorems 1-4).
 *
 * An array of shape U = (U_{d-1}, ..., U_0), every U_m = 2^{u_m}, is stored
 * with each axis in binary-reflected Gray code: an element's address is the
 * concatenation of its per-axis Gray codes, axis d-1 most significant. The
 * top n address bits (or those listed in processor-bits) are the node, the
 * rest the offset in its memory. Reshaping to V keeps the element's
 * row-major index i (its payload) and changes its address.
 *
 * With b the binary digits of i, bit j of the address under U is
 * b_j ^ b_{j+1}, except at the most significant bit of an axis, where it is
 * b_j (Lemma 1). So U and V differ exactly in the bits j of
 * D = (U~ u V~) - (U~ n V~) (Definition 3), and there by b_{j+1}: element i
 * crosses dimension j iff b_{j+1} = 1 (Lemma 2), in any order. A node knows
 * which element it holds at any moment from its address and the dimensions
 * already done: held_index() below is Lemma 3 made computable.
 *
 * Methods (all node programs with node-local control):
 *   sequential  one dimension of D_paddr per step, all K elements;
 *   one-path    all K elements in one message along the dimensions they
 *               need, pipelined: K + delta - 1 ([6], the previous best);
 *   exchange    delta sets of ceil(K/delta), set m crossing d_{(m+t) mod
 *               delta} in step t (Theorem 2);
 *   two-path    the exchange schedule with every exchange split over the
 *               edge and the length-three detour through dimension j+1, and
 *               successive 2-cubes overlapped by two elements (Theorem 3).
 *               schedule = proof overlaps only at step boundaries where the
 *               relays agree, as the proof does; schedule = handover (the
 *               default) also where the next set exchanges on the other
 *               edge of the 2-cube, which meets Theorem 3 for delta <= 2;
 *               schedule = timetable posts every element at its exact
 *               cycle from one timetable all nodes compute, checked in
 *               prepare (Theorem 3 wherever no window had to grow);
 *   pipelined   half the data on the direct path, half on a path where each
 *               hop j is a detour through an unused more significant
 *               dimension (Theorem 4, the short/long variant after its proof);
 *   auto        the method with the smallest bound whose conditions hold.
 * Moves in D_maddr are local, done first, and cost no channel time.
 */
#include "algorithm.h"
#include "bits.h"
#include "graycode.h"
#include "routing.h"
#include "shape.h"
#include "reshape_test.h"
#include "slot_tables.h"

#include <math.h>
#include <string.h>

/* Axes a shape may have: one address bit each at the least. */
#define RESHAPE_MAX_AXES 64
/* Address bits: an element's address and its index are one word. */
#define RESHAPE_MAX_BITS 62

enum { M_SEQUENTIAL, M_ONE_PATH, M_EXCHANGE, M_TWO_PATH, M_PIPELINED, M_AUTO,
       M_COUNT };

static const AlgorithmMethod reshape_methods[] = {
    { "auto", "the method with the smallest bound whose conditions hold" },
    { "sequential", "one dimension of D_paddr per step, all K elements" },
    { "one-path", "one pipelined message along all needed dimensions: "
                  "K + delta - 1" },
    { "exchange", "delta sets in cyclic dimension orders: "
                  "delta ceil(K/delta) (Theorem 2)" },
    { "two-path", "exchange with each step over the edge and the length-three "
                  "path: delta ceil(K/(2 delta)) + 1 (Theorem 3)" },
    { "pipelined", "short and long (detoured) paths at once: "
                   "ceil(K/2) + 2 delta - 1 (Theorem 4)" },
    { NULL, NULL }
};
/* methods[] index -> M_* */
static const int method_of[] = { M_AUTO, M_SEQUENTIAL, M_ONE_PATH, M_EXCHANGE,
                                 M_TWO_PATH, M_PIPELINED };

static const char *const reshape_orders[] = { "descending", "ascending", NULL };

/* two-path's schedules: params_choice index */
enum { TP_HANDOVER, TP_PROOF, TP_TIMETABLE, TP_SLOTS };
static const char *const reshape_schedules[] = { "handover", "proof",
                                                 "timetable", "slots", NULL };

/* two-path: D_paddr's dimensions are non-adjacent, at most 13 of a
 * 26-cube */
#define TP_MAX_DELTA ((TOPOLOGY_CUBE_MAX_DIMENSIONS + 1) / 2)
/* slots: the largest table (delta 8, K 32: 2^7 rows of K slots) */
#define PT_MAX_DELTA 8
/* Sets and steps whose control bits are kept as masks (ctl_masks):
 * D_paddr holds at most every node dimension. */
#define CTL_MAX_DELTA TOPOLOGY_CUBE_MAX_DIMENSIONS
#define PT_MAX_K 32

static const ParamSpec reshape_params[] = {
    { .key = "from", .type = PARAM_TEXT, .fallback = NULL,
      .help = "shape U: axis lengths, powers of two, axis d-1 first "
              "(1x16, 32x4x16x8), or one number" },
    { .key = "to", .type = PARAM_TEXT, .fallback = NULL,
      .help = "shape V, same total size" },
    { .key = "processor-bits", .type = PARAM_TEXT, .fallback = "",
      .help = "address bits that form the node address, e.g. 7,6,5,4 "
              "(default: the top n)" },
    { .key = "order", .type = PARAM_CHOICE, .fallback = "descending",
      .choices = reshape_orders,
      .help = "sequential: order of the dimensions of D_paddr" },
    { .key = "schedule", .type = PARAM_CHOICE, .fallback = "handover",
      .choices = reshape_schedules,
      .help = "two-path: handover (where the next set exchanges on the "
              "other edge of a 2-cube, the two hand it over without a gap: "
              "Theorem 3's bound whenever delta <= 2), proof (the proof "
              "of Theorem 3: overlap only where successive 2-cubes share "
              "their relays) or timetable (every message posted at its "
              "exact cycle from one element-level timetable, checked in "
              "prepare: Theorem 3's bound wherever details.windows_extended "
              "is 0) or slots (the timetable, with a table of slot patterns "
              "where its windows are too short and a table exists: Theorem "
              "3's bound on every shape measured up to 12-cubes)" },
    { .key = NULL }
};

/* A control bit as a parity (ctl_masks): the element at offset q of node
 * x crosses iff parity(x & node) ^ parity(q & offset) is 1. */
typedef struct {
    uint64_t node, offset;
    uint64_t low;               /* bit i: parity(i & offset), i < 64, the
                                 * offset part within a block of 64
                                 * (ctl_bits) */
} CtlMask;

/* A function f of the address that is linear over GF(2), walked over a
 * node's offsets (walk_build, walk_start, walk_next): node[k] = f(combine(
 * 2^k, 0)), and step[c] = f(combine(0, 2^(c+1) - 1)), the change from
 * offset q to q + 1 when c = ctz(q + 1). */
typedef struct {
    uint64_t node[TOPOLOGY_CUBE_MAX_DIMENSIONS];
    uint64_t step[64];
} Walk;

typedef struct {
    int bits;                   /* B: address bits */
    int n;                      /* node dimensions */
    uint64_t k;                 /* elements per node */
    uint64_t top_u, top_v;      /* most significant bit of every axis */
    uint64_t D, Dp, Dm;         /* masks over address positions */
    int delta;
    int dp[RESHAPE_MAX_BITS];   /* D_paddr ascending: d_0 < d_1 < ... */
    int proc_pos[TOPOLOGY_CUBE_MAX_DIMENSIONS];  /* node dimension -> position */
    int mem_pos[RESHAPE_MAX_BITS];      /* offset bit -> position */
    int dim_of[RESHAPE_MAX_BITS];       /* position -> node dimension or -1 */
    int via[RESHAPE_MAX_BITS];  /* pipelined: unused dimension above j */
    gboolean uniform;           /* control bits the same for a node's K */
    uint64_t overlap;           /* two-path, proof: bit t, step t overlaps t+1 */
    int schedule;               /* two-path: TP_HANDOVER, TP_PROOF,
                                 * TP_TIMETABLE or TP_SLOTS */
    Tick tt_start[RESHAPE_MAX_BITS + 1];  /* timetable: window starts */
    int tt_extended;            /* timetable: cycles added to the windows */
    gboolean pt_on;             /* slots: the slot patterns run */
    const SlotTable *pt_table;  /* slots: the table that runs */
    uint8_t pt[((size_t)1 << (PT_MAX_DELTA - 1)) * PT_MAX_K];
    gboolean pt_has[(size_t)1 << (PT_MAX_DELTA - 1)];  /* the row exists */
                                /* slots: row g, step t, element k at
                                 * (g delta + t) K/delta + k: cycle * 2 +
                                 * detour */
    gboolean tt_fallback;       /* timetable found none: hand-over ran */
    gboolean relays_differ;     /* two-path: some set enters a 2-cube whose
                                 * relays differ from its predecessor's */
    int turn;                   /* exchange, two-path: set m crosses
                                 * d_{(m + turn t) mod delta} in step t */
    /* sequential, exchange, two-path: set m's control bits in step t per
     * order (turn 1, -1; sequential and exchange use the first) */
    CtlMask ctl[2][CTL_MAX_DELTA][CTL_MAX_DELTA];
    /* one-path, pipelined: bit dp[t] + 1 of the index a node's elements
     * hold before the first exchange (done = D_maddr) and after the last
     * (done = D), as a parity of the node address */
    uint64_t cross_first[CTL_MAX_DELTA], cross_last[CTL_MAX_DELTA];
    Walk walk_u, walk_v;        /* the index at an address under U, V */
    Walk walk_local;            /* the offset bits a local move flips */
    uint64_t local_run;         /* offsets a local move takes along whole */
    gboolean local_fixed;       /* a node's flip is the same at every offset */
    uint64_t set_start[CTL_MAX_DELTA + 1];  /* set_range's, delta sets */
    struct TpTable *tp_table;   /* two-path, hand-over and proof: the
                                 * step calls' plans by class, or NULL */
    int method;                 /* M_* actually run */
    gboolean descending;
    int u[RESHAPE_MAX_AXES], v[RESHAPE_MAX_AXES], du, dv;
    int conditions_fail[M_COUNT];  /* why a method cannot run, 0 if it can */
    uint64_t check_bytes;      /* pt_check could not allocate this many */
} Reshape;

/* Why a method's conditions fail, for messages. */
enum { OK = 0, NEED_UNIFORM, NEED_NONADJACENT, NEED_K_TWO_PATH,
       NEED_UNUSED_ABOVE, NEED_K_PIPELINED };

/* ---- addresses -------------------------------------------------------- */

static uint64_t combine(const Reshape *r, uint64_t node, uint64_t offset)
{
    uint64_t a = 0;
    for (int k = 0; k < r->n; k++)
        a |= ((node >> k) & 1) << r->proc_pos[k];
    for (int m = 0; m < r->bits - r->n; m++)
        a |= ((offset >> m) & 1) << r->mem_pos[m];
    return a;
}

static void split(const Reshape *r, uint64_t a, uint64_t *node, uint64_t *offset)
{
    *node = *offset = 0;
    for (int k = 0; k < r->n; k++)
        *node |= ((a >> r->proc_pos[k]) & 1) << k;
    for (int m = 0; m < r->bits - r->n; m++)
        *offset |= ((a >> r->mem_pos[m]) & 1) << m;
}

/* The index i held at address a once the dimensions in `done` (a subset
 * of D) have been exchanged, starting from shape `top` (U's axis tops):
 * a_j = b_j ^ b_{j+1} [j not an axis top] ^ b_{j+1} [j in done], solved
 * from the most significant bit down (Lemma 1, Lemma 3). */
static uint64_t held_index(const Reshape *r, uint64_t a, uint64_t top,
                           uint64_t done)
{
    int hi = r->bits - 1;
    uint64_t b = a & ((uint64_t)1 << hi);
    for (int j = hi - 1; j >= 0; j--) {
        uint64_t above = (b >> (j + 1)) & 1;
        int toggle = !((top >> j) & 1) ^ (int)((done >> j) & 1);
        b |= (((a >> j) & 1) ^ (toggle ? above : 0)) << j;
    }
    return b;
}

/* The row-major index of the element at address a under a shape: split
 * the address into its axes and decode each axis's Gray code on its own
 * (Definition 2) -- a reference that shares nothing with held_index(). */
static uint64_t index_at(uint64_t a, const int *e, int d)
{
    uint64_t i = 0;
    int lo = 0;
    for (int k = 0; k < d; k++) {
        uint64_t field = e[k] ? (a >> lo) & (((uint64_t)1 << e[k]) - 1) : 0;
        i |= gray_decode(field) << lo;
        lo += e[k];
    }
    return i;
}

/* ---- per element: parities and walks ---------------------------------- */

/* Everything the methods, init and expect compute per element is linear
 * over GF(2) in the element's address a: held_index solves a_j = b_j ^
 * (b_{j+1} or 0) from the top, so each bit of the index it returns is an
 * XOR of address bits; Gray decoding (index_at) is an XOR of the bits
 * above, axis by axis; combine only places the node's and the offset's
 * bits. So f(combine(x, q)) = f(combine(x, 0)) ^ f(combine(0, q)), and
 * the functions above, which go bit by bit, run only in prepare, on unit
 * addresses, never per node or per element:
 *
 *  - one bit of such a function (a control bit) is the parity of the
 *    address under a mask, whose bit p is the function's bit at the unit
 *    address 2^p; split into a node part and an offset part (CtlMask), it
 *    costs a node one parity of its address and an element one parity of
 *    its offset;
 *  - a whole word (an index, the offset bits a local move flips) is
 *    walked over q = 0, 1, ..., K-1 (Walk): q and q + 1 differ exactly in
 *    bits 0..c, c = ctz(q + 1), so f(combine(0, q + 1)) = f(combine(0,
 *    q)) ^ f(combine(0, 2^(c+1) - 1)), one XOR per element, from a
 *    node's f(combine(x, 0)), the XOR of f at the unit addresses of x's
 *    bits. */

/* The mask w with bit j of held_index(a, top_u, done) = parity(a & w). */
static uint64_t held_row(const Reshape *r, uint64_t done, int j)
{
    uint64_t w = 0;
    for (int p = 0; p < r->bits; p++)
        w |= ((held_index(r, (uint64_t)1 << p, r->top_u, done) >> j) & 1) << p;
    return w;
}

/* Does the element at (node, offset) cross position j, given `done`? Bit
 * j + 1 of the index it holds (Lemma 2), as a CtlMask. */
static CtlMask ctl_mask_of(const Reshape *r, uint64_t done, int j)
{
    CtlMask c = { 0 };
    split(r, held_row(r, done, j + 1), &c.node, &c.offset);
    for (uint64_t i = 0; i < 64; i++)
        c.low |= (uint64_t)__builtin_parityll(i & c.offset) << i;
    return c;
}

static int ctl_parity(const CtlMask *c, uint64_t x, uint64_t q)
{
    return __builtin_parityll((x & c->node) ^ (q & c->offset));
}

/* The control bits of node x's offsets q .. q + *n - 1 as a word, bit i for
 * offset q + i, *n = as many as lie below end within q's block of 64.
 * The parity is linear in the offset, so the block's bits are `low` with
 * all of them flipped by the parity at the block's start. */
static uint64_t ctl_bits(const CtlMask *c, uint64_t x, uint64_t q,
                         uint64_t end, uint64_t *n)
{
    uint64_t b = q & ~(uint64_t)63, at = q - b;
    uint64_t w = (c->low ^ -(uint64_t)ctl_parity(c, x, b)) >> at;
    *n = end - q < 64 - at ? end - q : 64 - at;
    return *n < 64 ? w & (((uint64_t)1 << *n) - 1) : w;
}

/* A walk of f from the unit addresses of the node and the offset bits. */
static void walk_build(Walk *w, const Reshape *r,
                       uint64_t (*f)(const Reshape *r, uint64_t a))
{
    for (int k = 0; k < r->n; k++)
        w->node[k] = f(r, combine(r, (uint64_t)1 << k, 0));
    uint64_t acc = 0;
    for (int c = 0; c < 64; c++) {
        if (c < r->bits - r->n)
            acc ^= f(r, combine(r, 0, (uint64_t)1 << c));
        w->step[c] = acc;
    }
}

/* f at node x's offset 0: the XOR of the columns of x's bits. */
static uint64_t walk_start(const Walk *w, uint64_t x)
{
    uint64_t f = 0;
    for (; x; x &= x - 1)
        f ^= w->node[__builtin_ctzll(x)];
    return f;
}

/* f at offset q + 1 of a node, from f at offset q. */
static inline uint64_t walk_next(const Walk *w, uint64_t q, uint64_t f)
{
    return f ^ w->step[__builtin_ctzll(q + 1)];
}

static uint64_t index_u(const Reshape *r, uint64_t a)
{
    return index_at(a, r->u, r->du);
}

static uint64_t index_v(const Reshape *r, uint64_t a)
{
    return index_at(a, r->v, r->dv);
}

/* The offset bits a local move flips for the element at address a: bit j
 * of D_maddr where it crosses j, b_{j+1} = 1 (Lemma 2). D_maddr's bits are
 * offset bits, so the node part is 0. */
static uint64_t local_flip(const Reshape *r, uint64_t a)
{
    uint64_t node, offset;
    split(r, (held_index(r, a, r->top_u, 0) >> 1) & r->Dm, &node, &offset);
    return offset;
}

/* ---- sets and sequences (sequential, exchange, two-path) ------------- */

static int sets_of(const Reshape *r)
{
    return r->method == M_SEQUENTIAL ? 1 : r->delta;
}

/* Set m's offsets [*o, *o + *s): sequential's one set is all K, the
 * others' delta sets split K as evenly as they can (set_starts). */
static void set_range(const Reshape *r, int m, uint64_t *o, uint64_t *s)
{
    if (sets_of(r) == 1) {
        *o = 0;
        *s = r->k;
        return;
    }
    *o = r->set_start[m];
    *s = r->set_start[m + 1] - *o;
}

/* set_range's starts for delta sets, the first K mod delta one larger,
 * once in prepare rather than two divisions on every call. */
static void set_starts(Reshape *r)
{
    uint64_t sets = (uint64_t)r->delta, q = sets ? r->k / sets : 0;
    uint64_t rem = sets ? r->k % sets : 0;
    for (uint64_t m = 0; m <= sets; m++)
        r->set_start[m] = q * m + (m < rem ? m : rem);
}

/* exchange, two-path: the index in D_paddr (dp) of the dimension set m
 * crosses in step t. */
static int seq_pos(const Reshape *r, int m, int t)
{
    /* (m + turn t) mod delta; m < delta and t <= delta, so a subtraction
     * or an addition or two, not a division, on the two-path's every
     * plan */
    int q = m + r->turn * t;
    while (q >= r->delta)
        q -= r->delta;
    while (q < 0)
        q += r->delta;
    return q;
}

/* The index of position j in D_paddr (dp). */
static int dp_index(const Reshape *r, int j)
{
    int i = 0;
    while (r->dp[i] != j)
        i++;
    return i;
}

/* Position crossed by set m in step t. */
static int seq_dim(const Reshape *r, int m, int t)
{
    if (r->method == M_SEQUENTIAL)
        return r->descending ? r->dp[r->delta - 1 - t] : r->dp[t];
    return r->dp[seq_pos(r, m, t)];
}

static uint64_t done_before(const Reshape *r, int m, int t)
{
    uint64_t done = r->Dm;
    for (int u = 0; u < t; u++)
        done |= (uint64_t)1 << seq_dim(r, m, u);
    return done;
}

/* The control masks of set m in step t under the current order. */
static const CtlMask *set_ctl(const Reshape *r, int m, int t)
{
    return &r->ctl[r->turn < 0][m][t];
}

/* Set the control masks of every set and step for r->method; two-path's
 * for both orders, which prepare tries. */
static void ctl_masks(Reshape *r)
{
    int keep = r->turn, orders = r->method == M_TWO_PATH ? 2 : 1;
    for (int o = 0; o < orders; o++) {
        r->turn = o ? -1 : 1;
        for (int m = 0; m < sets_of(r); m++)
            for (int t = 0; t < r->delta; t++)
                r->ctl[o][m][t] = ctl_mask_of(r, done_before(r, m, t),
                                              seq_dim(r, m, t));
    }
    r->turn = keep;
}

static int tag_of(const Reshape *r, int m, int t, int kind)
{
    return ((t * sets_of(r) + m) << 3) | kind;
}

/* sequential and exchange move set m's crossing elements in step t in
 * the set's own range [o, o + s) of memory, so a node needs no more
 * memory than its K elements. Where the control bit does not depend on
 * the offset (no offset bit in its mask: always where a node's elements
 * move together) the range moves whole or not at all. Elsewhere
 * subset_gather partitions the range, stably, into the crossing elements
 * and then the others, so that the crossing ones are exchanged as one
 * block [o, o + count) (the partner's block holds its crossing elements
 * in the same order of offsets, as before), and subset_scatter, in the
 * next step, puts the received ones at the crossing offsets and the
 * others back at theirs. */

/* How many of set m's elements at node x cross in step t. */
static inline uint64_t subset_count(const CtlMask *c, uint64_t x, uint64_t o,
                                    uint64_t s)
{
    if (!c->offset)
        return ctl_parity(c, x, 0) ? s : 0;
    uint64_t count = 0, n;
    for (uint64_t q = o; q < o + s; q += n)
        count += (uint64_t)__builtin_popcountll(ctl_bits(c, x, q, o + s, &n));
    return count;
}

/* subset_gather's and subset_scatter's buffer for the elements that stay:
 * on the stack for the sets of most runs, rather than a heap block per
 * set and step. */
#define SUBSET_STACK 512

/* subset_gather where the control bit depends on the offset: apart, so
 * that the range moving whole, the common case, costs no call and no
 * buffer. */
static G_GNUC_NO_INLINE uint64_t subset_partition(Word *mem, const CtlMask *c,
                                                  uint64_t x, uint64_t o,
                                                  uint64_t s)
{
    /* the crossing ones move down within the range (never past an
     * element not yet read); the others wait aside */
    Word buf[SUBSET_STACK];
    g_autofree Word *heap = s > SUBSET_STACK ? g_new(Word, s) : NULL;
    Word *stay = heap ? heap : buf;
    uint64_t count = 0, kept = 0, n;
    for (uint64_t q = o; q < o + s; q += n) {
        uint64_t w = ctl_bits(c, x, q, o + s, &n);
        for (uint64_t i = 0; i < n; i++) {
            Word v = mem[q + i];
            if ((w >> i) & 1)
                mem[o + count++] = v;
            else
                stay[kept++] = v;
        }
    }
    memcpy(mem + o + count, stay, kept * sizeof *mem);
    return count;
}

/* Partition [o, o + s): the crossing elements first, each part in the
 * order of offsets. Returns how many cross. */
static uint64_t subset_gather(Word *mem, const CtlMask *c, uint64_t x,
                              uint64_t o, uint64_t s)
{
    if (!c->offset || !s)
        return subset_count(c, x, o, s);
    return subset_partition(mem, c, x, o, s);
}

/* subset_scatter where the control bit depends on the offset. */
static G_GNUC_NO_INLINE void subset_unpartition(Word *mem, const CtlMask *c,
                                                uint64_t x, uint64_t o,
                                                uint64_t s)
{
    uint64_t count = subset_count(c, x, o, s), kept = s - count;
    Word buf[SUBSET_STACK];
    g_autofree Word *heap = kept > SUBSET_STACK ? g_new(Word, kept) : NULL;
    Word *stay = heap ? heap : buf;
    memcpy(stay, mem + o + count, kept * sizeof *mem);
    /* from the top down, a block of 64 offsets (or the range's part of
     * one) at a time: the crossing element for offset q is at o +
     * (crossing offsets below q) <= q, which the loop has not yet
     * overwritten */
    for (uint64_t end = o + s; end > o;) {
        uint64_t b = (end - 1) & ~(uint64_t)63, n;
        if (b < o)
            b = o;
        uint64_t w = ctl_bits(c, x, b, end, &n);
        for (uint64_t i = n; i-- > 0;)
            mem[b + i] = (w >> i) & 1 ? mem[o + --count] : stay[--kept];
        end = b;
    }
}

/* Undo subset_gather once the crossing block has been exchanged. */
static void subset_scatter(Word *mem, const CtlMask *c, uint64_t x,
                           uint64_t o, uint64_t s)
{
    if (c->offset && s)
        subset_unpartition(mem, c, x, o, s);
}

static void exchange_subset(Node *node, const Reshape *r, int m, int t)
{
    uint64_t o, s;
    set_range(r, m, &o, &s);
    int d = r->dim_of[seq_dim(r, m, t)];
    uint64_t count = subset_gather(node_memory(node), set_ctl(r, m, t),
                                   node_address(node), o, s);
    if (count)
        node_exchange(node, d, (size_t)o, (size_t)count, tag_of(r, m, t, 0));
}

static void scatter_subset(Node *node, const Reshape *r, int m, int t)
{
    uint64_t o, s;
    set_range(r, m, &o, &s);
    subset_scatter(node_memory(node), set_ctl(r, m, t), node_address(node),
                   o, s);
}

/* ---- two-path (Theorem 3) -------------------------------------------- */

/* The plan of set m at its holder h in step t: whether it moves (ctl),
 * how many of this step's detour elements the previous holder already sent
 * ahead (e_in), the direct and detour counts (x + y = set size), and how
 * many of the direct elements continue at once onto the next step's
 * detour (e_out). The detour's elements arrive two cycles after direct
 * ones would, so a step with e_in early elements is balanced when
 * y - e_in + 2 <= x, i.e. y = floor((S + e_in - 2) / 2): the first step
 * (e_in = 0) sends ceil(S/2) + 1 direct, later ones ceil(S/2), as in the
 * proof of Theorem 3. The e_out elements sit at direct positions
 * x-1-e_out .. x-2, so they reach h's partner in the last cycles of the
 * step and cross the next 2-cube's detour then ("two elements ... during
 * the last two cycles").
 *
 * The hand-over (schedule = handover). In a 2-cube {j, j+1} exactly one
 * of the two edges across j exchanges for a given set (b_{j+1} =
 * a_{j+1} ^ c, Lemmas 1 and 3); the other edge's ends are the relays. Where
 * the set A that uses the 2-cube in step t and the set B that uses it in
 * step t+1 exchange on the same edge, the proof's overlap applies. Where
 * they do not, B's exchanging edge is A's relay edge and B's detour crosses
 * A's edge; with K = 2 delta ceil(K/(2 delta)) every cycle of both edges
 * is needed (Theorem 3's bound leaves no slack: per direction the two
 * edges carry K elements in 2T - 2 usable slots). The hand-over packs them
 * so: A's detour stops crossing a cycle earlier than in the proof, B's two
 * early elements cross the freed relay edge directly in the last two
 * cycles of step t (M2 with the edge, not the detour, as its last hop),
 * B's detour starts with step t+1, and A's edge carries one element more,
 * the LATE one, in the first cycle of step t+1: its detour's last hop
 * (j+1) is then free for B's first hop. LATE is sent by A's holder in step
 * t+1 (a send in step t would end that node's step a cycle late) and goes
 * straight on through the partner over step t+1's 2-cube; it reaches the
 * end of the partner's detour stream (or edge stream), and since it comes
 * from another node posted in the same cycle, which slot of the stream it
 * takes depends on the order the engine runs the two; the stream's extent
 * does not, so M2 is never in a stream that a LATE joins.
 *
 * What is left open: a set that is idle at h in step t and hands over in
 * step t+1 (an "idle hand-over", possible from delta = 3 on) must put its
 * early elements on the relay edge exactly in the last two cycles, posted
 * by h at the start of step t while another node's detour stream uses that
 * edge until then; no order of posting guarantees that, so such a boundary
 * is not overlapped for any set (boundaries_without_overlap), and with
 * delta >= 3 the two-path report claims only the proof's bound before the
 * overlap (see algorithms/reshape/README.md). */
typedef struct {
    int ctl, self;              /* self: h sent its own early elements */
    int in_edge;                /* handover: the early elements crossed the
                                 * edge, not the detour (a hand-over entry) */
    int out_edge;               /* handover: e_out continue over the next
                                 * step's edge, not its detour */
    int handover;               /* handover: the next set takes this 2-cube
                                 * over on the other edge after this step */
    int late_detour;            /* handover: the late arrival rides the
                                 * detour (else the edge) */
    uint64_t e_in, x, y, e_out;
    uint64_t late_in, late_out; /* handover: the element that crosses after
                                 * the step's end (0 or 1 each) */
    uint64_t ein[2], m2[2], lin, lout;  /* offsets of early and late ones */
    uint64_t skip[6], nskip;    /* the offsets h does not send itself, those
                                 * four, ascending, distinct (TpRest) */
} TwoPath;
/* No padding (an even number of ints before the words), so that equal
 * plans are equal bytes: prepare merges equal TpPlans by their bytes. */
_Static_assert(sizeof(TwoPath) == 6 * sizeof(int) + 19 * sizeof(uint64_t),
               "TwoPath has padding");

static uint64_t detour_for(uint64_t s, uint64_t e)
{
    return s + e >= 2 ? (s + e - 2) / 2 : 0;
}

/* Early elements a set of s can send ahead, at most e: no more than the
 * next step's detour carries. */
static uint64_t early_fit(uint64_t s, uint64_t e)
{
    while (e > 0 && e > detour_for(s, e))
        e--;
    return e;
}

/* Step boundaries two-path cannot overlap (see tp_overlaps). */
static int tp_lost(const Reshape *r)
{
    return r->delta - 1 - __builtin_popcountll(r->overlap);
}

/* Does node h exchange set m in step t (two-path)? The timetable and the
 * slot tables ask this for every node of every group many times over, so
 * it is one parity of h (ctl_masks); two-path's control bits are the same
 * for a node's K elements. */
static int tp_ctl(const Reshape *r, int m, uint64_t h, int t)
{
    if (t >= r->delta)
        return 0;
    return __builtin_parityll(h & set_ctl(r, m, t)->node);
}

/* timetable and slots: the element-level timetable (slots may run its
 * slot patterns instead, pt_on). */
static gboolean timetabled(const Reshape *r)
{
    return r->schedule == TP_TIMETABLE || r->schedule == TP_SLOTS;
}

/* Does the schedule guarantee Theorem 3's bound? Where no set enters a
 * 2-cube whose relays differ from its predecessor's, both schedules are
 * the proof's, overlapped at every boundary. Where some do, the hand-over
 * schedule meets it with delta <= 2 (one boundary, which no set enters
 * idle); with delta >= 3 it is measured within the proof's bound before
 * the overlap (algorithms/reshape/README.md). */
static int tp_theorem3(const Reshape *r)
{
    if (timetabled(r))
        return r->tt_extended == 0;
    return tp_lost(r) == 0 && (!r->relays_differ
                               || (r->schedule == TP_HANDOVER && r->delta <= 2));
}

/* Do set m, entering its next 2-cube at holder g after step t, and the
 * set that uses that 2-cube during step t name the same pair of g's
 * 2-cube as the exchanging one? (The proof of Theorem 3 assumes so when it
 * says the early elements "will not interfere".) */
static int tp_relays_agree(const Reshape *r, int m, uint64_t g, int t)
{
    /* seq_dim(other, t) == seq_dim(m, t+1) */
    int other = (m + r->turn + r->delta) % r->delta;
    return tp_ctl(r, other, g, t);
}

static uint64_t tp_partner(const Reshape *r, int m, uint64_t h, int t)
{
    return h ^ ((uint64_t)1 << r->dim_of[seq_dim(r, m, t)]);
}

static int offset_in(uint64_t q, const uint64_t *list, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (list[i] == q)
            return 1;
    return 0;
}

/* Is offset q one that h does not hold at the start of the step (sent
 * ahead, or arriving late), or one already picked? */
static int tp_taken(const TwoPath *p, uint64_t q, uint64_t nm2, int with_out)
{
    return offset_in(q, p->ein, p->e_in) || (p->late_in && q == p->lin)
           || offset_in(q, p->m2, nm2) || (with_out && p->late_out && q == p->lout);
}

/* The set entering the 2-cube of set m's step t in step t+1 is m-1
 * (seq_dim(m-1, t+1) == seq_dim(m, t)); it hands over, i.e. exchanges on
 * the other edge of h's 2-cube, when h is not one of its exchanging
 * nodes (exactly one edge of a 2-cube exchanges for any set). */
static int tp_hands_over(const Reshape *r, int m, uint64_t h, int t)
{
    return r->schedule == TP_HANDOVER && t + 1 < r->delta
           && ((r->overlap >> t) & 1) && !tp_ctl(r, (m - r->turn + r->delta) % r->delta, h, t + 1);
}

/* Add offset q to p's skip list, kept ascending and distinct. */
static void tp_skip_add(TwoPath *p, uint64_t q)
{
    uint64_t i = p->nskip;
    for (uint64_t k = 0; k < p->nskip; k++)
        if (p->skip[k] == q)
            return;
    for (; i > 0 && p->skip[i - 1] > q; i--)
        p->skip[i] = p->skip[i - 1];
    p->skip[i] = q;
    p->nskip++;
}

/* p's skip list, once per plan rather than on every walk of its offsets. */
static void tp_skips(TwoPath *p)
{
    for (uint64_t i = 0; i < p->e_in; i++)
        tp_skip_add(p, p->ein[i]);
    if (p->late_in)
        tp_skip_add(p, p->lin);
    for (uint64_t i = 0; i < p->e_out; i++)
        tp_skip_add(p, p->m2[i]);
    if (p->late_out)
        tp_skip_add(p, p->lout);
}

static TwoPath tp_plan(const Reshape *r, int m, uint64_t h, int t);

/* tp_plan, given the plan of the holder the set crossed from into h: its
 * partner's in step t-1 where the set crossed then, else (the set idle at
 * h in step t-1) its partner's in step t-2 where it crossed then. NULL:
 * computed here. A node's step call has most of these at hand (TpPlans). */
static TwoPath tp_plan_from(const Reshape *r, int m, uint64_t h, int t,
                            const TwoPath *came)
{
    TwoPath p = { 0 };
    uint64_t o, s;
    set_range(r, m, &o, &s);
    p.ctl = tp_ctl(r, m, h, t);
    if (!p.ctl)
        return p;
    int ho = r->schedule == TP_HANDOVER;
    if (t > 0 && tp_ctl(r, m, h, t - 1)) {
        TwoPath computed;
        const TwoPath *prev = came;
        if (!prev) {
            computed = tp_plan(r, m, tp_partner(r, m, h, t - 1), t - 1);
            prev = &computed;
        }
        p.e_in = prev->e_out;
        p.in_edge = prev->out_edge;
        memcpy(p.ein, prev->m2, sizeof p.ein);
        p.late_in = prev->late_out;
        p.lin = prev->lout;
    } else if (t > 0 && ((r->overlap >> (t - 1)) & 1)) {
        /* the set stayed here in step t-1: h sends the early elements
         * itself, in the last cycles of step t-1 */
        p.in_edge = ho && !tp_relays_agree(r, m, h, t - 1);
        p.e_in = early_fit(s, 2);
        p.self = 1;
        /* not the late element of step t-2, which lands here only at the
         * end of step t-1 */
        uint64_t pending = s;
        if (t >= 2 && tp_ctl(r, m, h, t - 2)) {
            TwoPath computed;
            const TwoPath *pp = came;
            if (!pp) {
                computed = tp_plan(r, m, tp_partner(r, m, h, t - 2), t - 2);
                pp = &computed;
            }
            if (pp->late_out)
                pending = pp->lout - o;
        }
        for (uint64_t i = 0, q = o; i < p.e_in; q++)
            if (q - o != pending)
                p.ein[i++] = q;
    }
    p.handover = tp_hands_over(r, m, h, t);
    if (ho) {
        /* What is left to cross (the late arrival included) splits so
         * that the detour's arrivals, two cycles behind, end with the
         * edge's. Before a hand-over the detour stops a cycle earlier
         * still (the next set's early elements take the relays' edge in
         * the last two cycles) and one element crosses the edge in the
         * first cycle of the next step (LATE, sent then). A late arrival
         * rides the detour: it joins h's detour stream in the one free
         * slot it finds, which leaves the stream's extent, and all of the
         * edge's stream, the same whichever of the two is posted first. */
        uint64_t left = s - p.e_in, keep = p.handover ? 4 : 2;
        uint64_t nr = left > keep ? (left - keep) / 2 : 0;
        p.late_detour = p.late_in && nr >= 2;
        p.late_out = p.handover && left - nr >= 2;
        p.x = left - nr - p.late_out - (p.late_in && !p.late_detour);
        p.y = (p.in_edge ? 0 : p.e_in) + nr;
    } else {
        p.y = detour_for(s, p.e_in);
        p.x = s - p.y;
    }
    uint64_t g = tp_partner(r, m, h, t);
    if (t + 1 < r->delta && ((r->overlap >> t) & 1) && tp_ctl(r, m, g, t + 1)) {
        p.out_edge = ho && !tp_relays_agree(r, m, g, t);
        /* on the edge the late arrival's slot depends on who posted
         * first, and M2's with it: then no early elements */
        if (!p.late_in || p.late_detour)
            p.e_out = early_fit(s, p.x >= 3 ? 2 : p.x >= 2 ? 1 : 0);
    }
    /* the early elements of the next step: the first offsets of the set
     * that h holds; then the late one */
    uint64_t n = 0, q = o;
    for (; n < p.e_out; q++)
        if (!tp_taken(&p, q, n, 0))
            p.m2[n++] = q;
    if (p.late_out) {
        while (tp_taken(&p, q, p.e_out, 0))
            q++;
        p.lout = q;
    }
    tp_skips(&p);
    return p;
}

static TwoPath tp_plan(const Reshape *r, int m, uint64_t h, int t)
{
    return tp_plan_from(r, m, h, t, NULL);
}

/* The plans one step call t of node x needs for set m, each computed
 * once (tp_plans): the sends, the receives, the scatter and the late and
 * early elements each need one, and each plan needs the plan of the
 * holder its set came from, which is mostly one of the others. Only
 * those that apply are computed: the *_before where `before`, own and
 * from where `now`, ahead where neither `now` nor t + 1 = delta, and
 * late_next where its ctl says so. */
typedef struct TpPlans {
    int before, now;            /* the set crosses at x in step t-1, t */
    TwoPath own_before;         /* x's in step t-1: its late element */
    TwoPath from_before;        /* x's partner's in step t-1: the scatter */
    TwoPath late_next;          /* the partner's in step t, where x's late
                                 * element goes on from */
    TwoPath own;                /* x's in step t: its sends */
    TwoPath from;               /* x's partner's in step t: its receives */
    TwoPath ahead;              /* x's in step t+1 where x is idle in step t:
                                 * its early elements */
} TpPlans;
_Static_assert(sizeof(TpPlans) == 2 * sizeof(int) + 6 * sizeof(TwoPath),
               "TpPlans has padding");

/* The plans not computed stay zero, so that equal plans are equal bytes. */
static void tp_plans(const Reshape *r, int m, uint64_t x, int t, TpPlans *p)
{
    *p = (TpPlans){ 0 };
    p->before = t >= 1 && tp_ctl(r, m, x, t - 1);
    p->now = tp_ctl(r, m, x, t);
    /* the partners of a pair have the same control bits: it is the
     * dimension they cross that differs */
    uint64_t g = p->before ? tp_partner(r, m, x, t - 1) : 0;
    if (p->before) {
        p->own_before = tp_plan(r, m, x, t - 1);
        p->from_before = tp_plan(r, m, g, t - 1);
        if (p->own_before.late_out && tp_ctl(r, m, g, t))
            p->late_next = tp_plan_from(r, m, g, t, &p->own_before);
    }
    /* x's plans for steps t and t+1 came from the partner of step t-1 */
    const TwoPath *came = p->before ? &p->from_before : NULL;
    if (p->now) {
        p->own = tp_plan_from(r, m, x, t, came);
        p->from = tp_plan(r, m, tp_partner(r, m, x, t), t);
    } else if (t + 1 < r->delta) {
        p->ahead = tp_plan_from(r, m, x, t + 1, came);
    }
}

/* The plans of a step call in a table (two-path, hand-over and proof).
 * tp_plans reads the node x only through control bits: tp_ctl of x and
 * of nodes a fixed XOR away from it (its partners, their partners), each
 * a parity of x under a control mask, plus a constant. So its result is a
 * function of x's class: x's parities under a basis of the span of the
 * control masks (reduced, so that every basis mask has a pivot bit no
 * other one has). prepare computes tp_plans once per class, set and step
 * on a node of that class (the class's pivot bits), merges the equal ones,
 * and a step call looks them up by its class instead of computing the
 * plans and the chains of plans they depend on, on every call. The span
 * is at most n-dimensional, so the table holds at most one entry per node
 * and step call of a set; where it would be large the step calls compute
 * their plans as before. */
static size_t tp_table_limit = RESHAPE_PLAN_TABLE_ENTRIES;

void reshape_set_plan_table_limit(size_t entries)
{
    tp_table_limit = entries;
}

typedef struct TpTable {
    int rank;                   /* classes: 2^rank */
    uint64_t col[TOPOLOGY_CUBE_MAX_DIMENSIONS];  /* class of node dimension
                                                  * k's unit address */
    TpPlans *plans;             /* the distinct plans */
    uint32_t *index;            /* plans[index[(t delta + m) 2^rank +
                                 * class]]: set m at step call t */
} TpTable;

/* The class of node x: linear in x, the XOR of its bits' columns. */
static uint64_t tp_class(const TpTable *tb, uint64_t x)
{
    uint64_t c = 0;
    for (; x; x &= x - 1)
        c ^= tb->col[__builtin_ctzll(x)];
    return c;
}

static guint tp_plans_hash(gconstpointer key)
{
    const unsigned char *b = key;
    guint h = 2166136261u;
    for (size_t i = 0; i < sizeof(TpPlans); i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}

static gboolean tp_plans_equal(gconstpointer a, gconstpointer b)
{
    return memcmp(a, b, sizeof(TpPlans)) == 0;
}

/* Build r->tp_table, or leave it NULL where it would be too large. */
static void tp_tabulate(Reshape *r)
{
    uint64_t basis[TOPOLOGY_CUBE_MAX_DIMENSIONS];
    int pivot[TOPOLOGY_CUBE_MAX_DIMENSIONS], rank = 0;
    for (int m = 0; m < r->delta; m++)
        for (int t = 0; t < r->delta; t++) {
            uint64_t v = set_ctl(r, m, t)->node;
            for (int i = 0; i < rank; i++)
                if ((v >> pivot[i]) & 1)
                    v ^= basis[i];
            if (!v)
                continue;
            int p = __builtin_ctzll(v);
            for (int i = 0; i < rank; i++)
                if ((basis[i] >> p) & 1)
                    basis[i] ^= v;
            basis[rank] = v;
            pivot[rank++] = p;
        }
    size_t calls = (size_t)(r->delta + 1) * (size_t)r->delta;
    if (calls > tp_table_limit >> rank)
        return;
    size_t classes = (size_t)1 << rank;
    TpTable *tb = g_new0(TpTable, 1);
    tb->rank = rank;
    for (int k = 0; k < r->n; k++)
        for (int i = 0; i < rank; i++)
            tb->col[k] |= (uint64_t)((basis[i] >> k) & 1) << i;
    tb->index = g_new(uint32_t, calls * classes);
    /* distinct plans -> their number */
    GHashTable *seen = g_hash_table_new_full(tp_plans_hash, tp_plans_equal,
                                             g_free, NULL);
    GArray *plans = g_array_new(FALSE, FALSE, sizeof(TpPlans));
    TpPlans p;
    for (int t = 0; t <= r->delta; t++)
        for (int m = 0; m < r->delta; m++)
            for (size_t c = 0; c < classes; c++) {
                /* a node of class c: parity(x & basis[i]) = bit i of c */
                uint64_t x = 0;
                for (int i = 0; i < rank; i++)
                    x |= (uint64_t)((c >> i) & 1) << pivot[i];
                tp_plans(r, m, x, t, &p);
                gpointer at;
                if (!g_hash_table_lookup_extended(seen, &p, NULL, &at)) {
                    at = GUINT_TO_POINTER(plans->len);
                    g_hash_table_insert(seen, g_memdup2(&p, sizeof p), at);
                    g_array_append_val(plans, p);
                }
                tb->index[((size_t)(t * r->delta + m) << rank) | c]
                    = GPOINTER_TO_UINT(at);
            }
    g_hash_table_destroy(seen);
    tb->plans = (TpPlans *)(void *)g_array_free(plans, FALSE);
    r->tp_table = tb;
}

static void tp_table_free(TpTable *tb)
{
    if (!tb)
        return;
    g_free(tb->plans);
    g_free(tb->index);
    g_free(tb);
}

/* The plans of every set for node x's step call t: from the table, or
 * computed into `computed`. */
static void tp_plans_all(const Reshape *r, uint64_t x, int t,
                         TpPlans *computed, const TpPlans **plans)
{
    const TpTable *tb = r->tp_table;
    if (!tb) {
        for (int m = 0; m < r->delta; m++) {
            tp_plans(r, m, x, t, &computed[m]);
            plans[m] = &computed[m];
        }
        return;
    }
    const uint32_t *row = tb->index
                          + ((size_t)t * (size_t)r->delta << tb->rank)
                          + tp_class(tb, x);
    for (int m = 0; m < r->delta; m++)
        plans[m] = &tb->plans[row[(size_t)m << tb->rank]];
}

/* Detour elements h itself sends in the step (not sent ahead for it). */
static uint64_t tp_own_detour(const TwoPath *p)
{
    return (p->in_edge ? p->y : p->y - p->e_in) - (uint64_t)p->late_detour;
}

/* The offsets of set m at holder h in step t that h itself sends, in the
 * order detour R, direct M1, direct M3 (M2 is p.m2, LATE p.lout; E_in and
 * the late arrival are not at h): the set's range in increasing order
 * without the offsets tp_taken names. There are at most six of those,
 * sorted once per plan (p.skip), and the range is copied in the runs
 * between them (tp_rest_gather, tp_rest_scatter), instead of testing
 * tp_taken's six per offset. */
typedef struct {
    uint64_t q;                 /* the next offset to consider */
    const uint64_t *skip;       /* the plan's skip list */
    uint64_t nskip, at;         /* skip[at..] are all >= q */
} TpRest;

static void tp_rest_start(TpRest *it, const TwoPath *p, uint64_t o)
{
    *it = (TpRest){ .q = o, .skip = p->skip, .nskip = p->nskip };
}

/* Past the taken offsets at it->q: the length of the run of offsets
 * from it->q that h sends, at most n. */
static uint64_t tp_rest_run(TpRest *it, uint64_t n)
{
    while (it->at < it->nskip && it->skip[it->at] == it->q) {
        it->at++;
        it->q++;
    }
    if (it->at < it->nskip && it->skip[it->at] - it->q < n)
        return it->skip[it->at] - it->q;
    return n;
}

/* The next n offsets of the walk, from mem into dst. */
static void tp_rest_gather(TpRest *it, Word *dst, const Word *mem, uint64_t n)
{
    while (n) {
        uint64_t run = tp_rest_run(it, n);
        memcpy(dst, mem + it->q, run * sizeof *dst);
        dst += run;
        it->q += run;
        n -= run;
    }
}

/* The next n offsets of the walk, from src into mem. */
static void tp_rest_scatter(TpRest *it, Word *mem, const Word *src, uint64_t n)
{
    while (n) {
        uint64_t run = tp_rest_run(it, n);
        memcpy(mem + it->q, src, run * sizeof *src);
        src += run;
        it->q += run;
        n -= run;
    }
}

/* The next offset of the walk. */
static uint64_t tp_rest_next(TpRest *it)
{
    tp_rest_run(it, 1);
    return it->q++;
}

enum { TP_M1, TP_M2, TP_M3, TP_R, TP_LATE };

/* The path of an element that crosses position j of step t+1 straight on,
 * over the edge (edge) or the length-three detour: written after `at`
 * hops of path, returns the new length. */
static int tp_next_hops(const Reshape *r, int m, int t, int edge, int *path,
                        int at)
{
    int j = seq_dim(r, m, t + 1);
    if (edge) {
        path[at] = r->dim_of[j];
        return at + 1;
    }
    return at + route_detour(r->dim_of[j], r->dim_of[j + 1], path + at);
}

/* A set idle at h in step t that crosses in step t+1 sends its early
 * elements now, on the next step's detour (or, where the 2-cube is handed
 * over, its edge). Posted after every set's own messages, so they take the
 * last free cycles of step t. */
static void tp_send_ahead(Node *node, const Reshape *r, int m, int t,
                          const TpPlans *pl)
{
    if (t + 1 >= r->delta || pl->now)
        return;
    const TwoPath *nx = &pl->ahead;
    if (!nx->ctl || !nx->self || !nx->e_in)
        return;
    int path[3];
    int hops = tp_next_hops(r, m, t, nx->in_edge, path, 0);
    node_send(node, path, hops, (size_t)nx->ein[0], (size_t)nx->e_in,
              tag_of(r, m, t, TP_M2));
}

static void tp_send(Node *node, const Reshape *r, int m, int t,
                    const TpPlans *pl)
{
    if (!pl->now)
        return;
    const TwoPath *p = &pl->own;
    uint64_t o, s;
    set_range(r, m, &o, &s);
    int j = seq_dim(r, m, t), d = r->dim_of[j], via = r->dim_of[j + 1];
    Word *mem = node_memory(node), *scratch = mem + r->k + o;
    uint64_t nr = tp_own_detour(p), nm1 = p->x - 1 - p->e_out;
    /* scratch: [M1 | M2 | M3 | R], filled in tp_rest's order R, M1, M3 */
    Word *m3 = scratch + nm1 + p->e_out, *detour = m3 + 1;
    TpRest it;
    tp_rest_start(&it, p, o);
    tp_rest_gather(&it, detour, mem, nr);
    tp_rest_gather(&it, scratch, mem, nm1);
    for (uint64_t i = 0; i < p->e_out; i++)
        scratch[nm1 + i] = mem[p->m2[i]];
    *m3 = mem[tp_rest_next(&it)];
    g_assert(tp_rest_next(&it) == o + s);    /* every element h sends */
    size_t base = (size_t)(r->k + o);
    int path[4];
    if (nm1)
        node_send(node, &d, 1, base, (size_t)nm1, tag_of(r, m, t, TP_M1));
    if (p->e_out) {
        /* straight on through the partner onto the next 2-cube */
        path[0] = d;
        int hops = tp_next_hops(r, m, t, p->out_edge, path, 1);
        node_send(node, path, hops, base + (size_t)nm1, (size_t)p->e_out,
                  tag_of(r, m, t, TP_M2));
    }
    node_send(node, &d, 1, base + (size_t)(nm1 + p->e_out), 1,
              tag_of(r, m, t, TP_M3));
    if (nr)
        node_send(node, path, route_detour(d, via, path),
                  base + (size_t)(nm1 + p->e_out + 1), (size_t)nr,
                  tag_of(r, m, t, TP_R));
}

/* The late element of set m's step t-1 at h crosses the edge in the
 * first cycle of step t, and on over step t's edge if the set moves on
 * from the partner. Posted before the scatter, which may overwrite it. */
static void tp_send_late(Node *node, const Reshape *r, int m, int t,
                         const TpPlans *pl)
{
    if (!pl->before || !pl->own_before.late_out)
        return;
    int path[4] = { r->dim_of[seq_dim(r, m, t - 1)] };
    int hops = 1;
    if (pl->late_next.ctl)
        hops = tp_next_hops(r, m, t - 1, !pl->late_next.late_detour, path, 1);
    node_send(node, path, hops, (size_t)pl->own_before.lout, 1,
              tag_of(r, m, t - 1, TP_LATE));
}

/* Receives of node g for set m in step t: what its partner h sends, plus
 * the early and late elements h's previous holder sent on. Scratch layout
 * at g: [E_in | LATE_in | R | M1 | M3]. A set idle at g in step t may
 * still have its late element of step t-1 to come: it lands in place. */
static void tp_recv(Node *node, const Reshape *r, int m, int t,
                    const TpPlans *pl)
{
    uint64_t g = node_address(node);
    if (!pl->now) {
        if (pl->before && pl->from_before.late_out)
            node_recv(node, (uint32_t)tp_partner(r, m, g, t - 1),
                      tag_of(r, m, t - 1, TP_LATE),
                      (size_t)pl->from_before.lout, 1);
        return;
    }
    uint64_t h = tp_partner(r, m, g, t);
    const TwoPath *p = &pl->from;
    uint64_t o, s;
    set_range(r, m, &o, &s);
    uint64_t nr = tp_own_detour(p), nm1 = p->x - 1 - p->e_out;
    size_t base = (size_t)(r->k + o), at = (size_t)(p->e_in + p->late_in);
    if (p->e_in) {
        uint64_t prev = p->self ? h : tp_partner(r, m, h, t - 1);
        node_recv(node, (uint32_t)prev, tag_of(r, m, t - 1, TP_M2), base,
                  (size_t)p->e_in);
    }
    if (p->late_in)
        node_recv(node, (uint32_t)tp_partner(r, m, h, t - 1),
                  tag_of(r, m, t - 1, TP_LATE), base + (size_t)p->e_in, 1);
    if (nr)
        node_recv(node, (uint32_t)h, tag_of(r, m, t, TP_R), base + at,
                  (size_t)nr);
    if (nm1)
        node_recv(node, (uint32_t)h, tag_of(r, m, t, TP_M1),
                  base + at + (size_t)nr, (size_t)nm1);
    node_recv(node, (uint32_t)h, tag_of(r, m, t, TP_M3),
              base + at + (size_t)(nr + nm1), 1);
}

/* What node g received for set m in step t-1 (tp_recv), moved from the
 * scratch to its offsets, in the order received. */
static void tp_scatter(Node *node, const Reshape *r, int m, const TpPlans *pl)
{
    if (!pl->before)
        return;
    const TwoPath *p = &pl->from_before;
    uint64_t o, s;
    set_range(r, m, &o, &s);
    Word *mem = node_memory(node), *scratch = mem + r->k + o;
    uint64_t nr = tp_own_detour(p), nm1 = p->x - 1 - p->e_out, k = 0;
    for (uint64_t i = 0; i < p->e_in; i++)
        mem[p->ein[i]] = scratch[k++];
    if (p->late_in)
        mem[p->lin] = scratch[k++];
    TpRest it;
    tp_rest_start(&it, p, o);
    tp_rest_scatter(&it, mem, scratch + k, nr + nm1 + 1);
}

/* One step call of two-path with the hand-over or the proof's schedule:
 * the late elements of step t-1 leave first, before the scatter may
 * overwrite them; then every set's sends and receives of step t; then the
 * early elements of sets idle here in step t. The order of posting is the
 * engine's order of arbitration, so it is the same for every set. */
static NodeStatus tp_step(Node *node, const Reshape *r, int t)
{
    TpPlans computed[TP_MAX_DELTA];
    const TpPlans *plans[TP_MAX_DELTA];
    tp_plans_all(r, node_address(node), t, computed, plans);
    for (int m = 0; m < r->delta; m++)
        tp_send_late(node, r, m, t, plans[m]);
    for (int m = 0; m < r->delta; m++)
        tp_scatter(node, r, m, plans[m]);
    if (t == r->delta)
        return NODE_DONE;
    node_mark(node, "step %d", t);
    for (int m = 0; m < r->delta; m++) {
        tp_send(node, r, m, t, plans[m]);
        tp_recv(node, r, m, t, plans[m]);
    }
    for (int m = 0; m < r->delta; m++)
        tp_send_ahead(node, r, m, t, plans[m]);
    return NODE_CONTINUE;
}

/* ---- two-path, schedule = timetable ------------------------------------ */

/* Every node computes the same element-level timetable from the shapes
 * alone and posts each message at its exact cycle (node_idle moves its
 * clock there), so no two reservations ever want one channel in one cycle
 * and the order in which the engine runs nodes cannot matter.
 *
 * Time is cut into windows, one per step: s_0 = 0, s_t = t h + 1 for t >= 1
 * (h = ceil(K/(2 delta))), s_delta = delta h + 1, Theorem 3's figure. In
 * window t the set using a 2-cube {j, j+1} crosses j on one edge of each of
 * its 4-node groups (exactly one exchanges: b_{j+1} = a_{j+1} ^ c). Per
 * direction a sender has two first hops, the edge (D, one cycle) and the
 * detour (H, three), and each of the group's eight channels plays one role
 * per window. The roles of window t depend only on whether the group's
 * edge is the same as in window t-1 (in: first, same, hand-over) and in
 * window t+1 (out: last, same, hand-over):
 *
 *   D  departs in [s_t - 2 (in hand-over) or s_t, s_{t+1} + 1 (out
 *      hand-over, the LATE slot) or s_{t+1});
 *   H  departs in [s_t - 2 (in same) or s_t, s_{t+1} - 3 (out hand-over)
 *      or s_{t+1} - 2); window 0 starts both at 0.
 *
 * At a boundary with the same edge the next set's detour starts two cycles
 * early on the freed first hop (the proof's overlap); at a hand-over the
 * outgoing detour stops a cycle earlier, the next set's first two elements
 * cross the freed relay edge directly, and the outgoing edge carries one
 * element at s_{t+1} (LATE). Every channel is then used by one set per
 * cycle; per direction a window offers 2h first-hop slots, what a set of
 * 2h needs.
 *
 * A slot before s_t (early) needs an element that is at the sender then:
 * one the sender held since s_{t-1} (the set was idle there), or one that
 * arrives exactly then and goes straight on (a composite message, posted
 * by the element's earlier holder). An element arriving after s_t (LATE)
 * must go straight on too. Slots are filled latest arrival first, so the
 * last arrivals of a window are the ones a next window's early slots find.
 * prepare checks every group's timetable (all slots placed, no channel used
 * twice in a cycle); where a window cannot hold its set it is lengthened by
 * a cycle for all groups and the check repeats (windows_extended). */

enum { TT_FIRST, TT_SAME, TT_HO, TT_LAST };

typedef struct {
    uint64_t o, s;
    Tick *dep;                  /* per offset index: departure cycle */
    uint8_t *detour;            /* first hop: 0 the edge, 1 the detour */
    uint8_t *comp;              /* arrives at the sender exactly then and
                                 * goes on in the same message */
    int ok;                     /* every element in a template slot */
} TtPlan;

typedef GHashTable TtMemo;      /* (h, t, m) -> TtPlan* */

/* A plan and its three arrays are one allocation (tt_plan_new): prepare
 * builds millions of plans on a 17-cube, and with an allocation per
 * array and per temporary, malloc and free would take much of its time. */
static void tt_plan_free(gpointer p)
{
    g_free(p);
}

static TtPlan *tt_plan_new(const Reshape *r, int m)
{
    uint64_t o, s;
    set_range(r, m, &o, &s);
    TtPlan *p = g_malloc0(sizeof *p + s * (sizeof(Tick) + 2));
    p->o = o;
    p->s = s;
    p->dep = (Tick *)(p + 1);
    p->detour = (uint8_t *)(p->dep + s);
    p->comp = p->detour + s;
    return p;
}

static TtMemo *tt_memo_new(void)
{
    return g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
                                 tt_plan_free);
}

static Tick tt_s(const Reshape *r, int t)
{
    return r->tt_start[t];
}

static Tick tt_arrival(const TtPlan *p, uint64_t i)
{
    return p->dep[i] + (p->detour[i] ? 3 : 1);
}

/* The set that uses position j in step t. */
static int tt_set_on(const Reshape *r, int j, int t)
{
    return ((dp_index(r, j) - r->turn * t) % r->delta + r->delta) % r->delta;
}

/* The exchanging edge (a_{j+1}) of P's group of position j in step t. */
static int tt_edge(const Reshape *r, int t, int j, uint64_t p)
{
    uint64_t base = p & ~((uint64_t)1 << r->dim_of[j + 1]);
    return tp_ctl(r, tt_set_on(r, j, t), base, t) ? 0 : 1;
}

static int tt_in(const Reshape *r, int j, uint64_t p, int t)
{
    if (t == 0)
        return TT_FIRST;
    return tt_edge(r, t - 1, j, p) == tt_edge(r, t, j, p) ? TT_SAME : TT_HO;
}

static int tt_out(const Reshape *r, int j, uint64_t p, int t)
{
    if (t == r->delta - 1)
        return TT_LAST;
    return tt_edge(r, t + 1, j, p) == tt_edge(r, t, j, p) ? TT_SAME : TT_HO;
}

static uint64_t tt_bit(const Reshape *r, int m, int t)
{
    return (uint64_t)1 << r->dim_of[seq_dim(r, m, t)];
}

static const TtPlan *tt_plan(const Reshape *r, TtMemo *memo, int m,
                             uint64_t h, int t);

typedef struct {
    Tick dep;
    uint8_t detour, early, late;
} TtSlot;

static int tt_slot_cmp(const void *a, const void *b)
{
    const TtSlot *x = a, *y = b;
    /* latest arrival first, the edge before the detour on ties */
    Tick ax = x->dep + (x->detour ? 3 : 1), ay = y->dep + (y->detour ? 3 : 1);
    if (ax != ay)
        return ax < ay ? 1 : -1;
    return (int)x->detour - (int)y->detour;
}

/* The timetable of set m at sender h in step t (h exchanges in step t). */
static void tt_compute(const Reshape *r, TtMemo *memo, int m, uint64_t h,
                       int t, TtPlan *p)
{
    uint64_t s = p->s;     /* o and s: tt_plan_new */
    p->ok = 1;
    int j = seq_dim(r, m, t);
    Tick st = tt_s(r, t), sn = tt_s(r, t + 1);
    int in = tt_in(r, j, h, t), out = tt_out(r, j, h, t);
    /* when each element can leave h from memory, and when it arrives at h
     * (then it can go straight on), in one block */
    g_autofree Tick *avail = g_new(Tick, 2 * s);
    Tick *exact = avail + s;
    g_autofree uint8_t *done = g_new0(uint8_t, s);
    for (uint64_t i = 0; i < s; i++) {
        avail[i] = t == 0 ? 0 : tt_s(r, t - 1);
        exact[i] = -1;
    }
    if (t > 0 && tp_ctl(r, m, h, t - 1)) {
        const TtPlan *pr = tt_plan(r, memo, m, h ^ tt_bit(r, m, t - 1), t - 1);
        for (uint64_t i = 0; i < s; i++) {
            exact[i] = tt_arrival(pr, i);
            avail[i] = exact[i] <= st ? st : INT64_MAX;
        }
    } else if (t >= 2 && tp_ctl(r, m, h, t - 2)) {
        const TtPlan *pp = tt_plan(r, memo, m, h ^ tt_bit(r, m, t - 2), t - 2);
        for (uint64_t i = 0; i < s; i++)
            if (tt_arrival(pp, i) > tt_s(r, t - 1))
                avail[i] = st;
    }
    Tick d0 = t == 0 ? 0 : in == TT_HO ? st - 2 : st;
    Tick d1 = sn + (out == TT_HO);
    Tick h0 = t == 0 ? 0 : in == TT_SAME ? st - 2 : st;
    Tick h1 = sn - 2 - (out == TT_HO);
    /* a hand-over two windows back put its LATE on this edge at s_{t-1} */
    if (in == TT_HO && t >= 2 && st - tt_s(r, t - 1) == 2
        && tt_in(r, j, h, t - 1) == TT_HO)
        d0 = st - 1;
    size_t ncand = 0;
    g_autofree TtSlot *cand = g_new(TtSlot, (size_t)(d1 - d0 + (h1 > h0 ? h1 - h0 : 0)) + 1);
    for (Tick c = d0; c < d1; c++)
        cand[ncand++] = (TtSlot){ c, 0, c < st, c >= sn };
    for (Tick c = h0; c < h1; c++)
        cand[ncand++] = (TtSlot){ c, 1, c < st, 0 };
    g_autofree uint8_t *used = g_new0(uint8_t, ncand + 1);
    uint64_t placed = 0;
    /* elements that arrive after s_t go on at once */
    for (uint64_t i = 0; i < s; i++) {
        if (exact[i] <= st)
            continue;
        size_t k;
        for (k = 0; k < ncand; k++)
            if (!used[k] && cand[k].dep == exact[i])
                break;
        if (k == ncand)
            continue;
        used[k] = 1;
        done[i] = 1;
        p->dep[i] = cand[k].dep;
        p->detour[i] = cand[k].detour;
        p->comp[i] = 1;
        placed++;
    }
    /* the rest: normal slots latest arrival first, then the LATE slot, then
     * early slots, each only if an element can take it */
    qsort(cand, ncand, sizeof *cand, tt_slot_cmp);
    memset(used, 0, ncand + 1);
    for (uint64_t i = 0; i < s; i++)
        if (done[i])
            for (size_t k = 0; k < ncand; k++)
                if (!used[k] && cand[k].dep == p->dep[i]
                    && cand[k].detour == p->detour[i]) {
                    used[k] = 1;
                    break;
                }
    uint64_t need = s - placed, normal = 0;
    g_autofree size_t *take = g_new(size_t, ncand + 1);
    size_t ntake = 0;
    for (int pass = 0; pass < 3 && need > 0; pass++)
        for (size_t k = 0; k < ncand && need > 0; k++) {
            int cls = cand[k].early ? 2 : cand[k].late ? 1 : 0;
            if (used[k] || cls != pass)
                continue;
            if (cand[k].early) {
                /* an element at h then: arriving exactly then, or held */
                uint64_t pick = s;
                for (uint64_t i = 0; i < s && pick == s; i++)
                    if (!done[i] && exact[i] == cand[k].dep)
                        pick = i;
                for (uint64_t i = 0; i < s && pick == s; i++)
                    if (!done[i] && avail[i] <= cand[k].dep)
                        pick = i;
                if (pick == s)
                    continue;
                done[pick] = 1;
                p->dep[pick] = cand[k].dep;
                p->detour[pick] = cand[k].detour;
                p->comp[pick] = exact[pick] == cand[k].dep;
            } else {
                take[ntake++] = k;
                normal++;
            }
            used[k] = 1;
            need--;
        }
    /* the normal and LATE slots, in departure order, take the remaining
     * elements in offset order */
    for (size_t a = 1; a < ntake; a++)
        for (size_t b = a; b > 0 && cand[take[b]].dep < cand[take[b - 1]].dep; b--) {
            size_t x = take[b];
            take[b] = take[b - 1];
            take[b - 1] = x;
        }
    uint64_t i = 0;
    for (size_t a = 0; a < ntake; a++) {
        while (done[i])
            i++;
        done[i] = 1;
        p->dep[i] = cand[take[a]].dep;
        p->detour[i] = cand[take[a]].detour;
    }
    /* no room: the window is too short (prepare lengthens it) */
    Tick extra = d1;
    for (i = 0; i < s; i++)
        if (!done[i]) {
            p->ok = 0;
            p->dep[i] = extra++;
            p->detour[i] = 0;
        }
}

static const TtPlan *tt_plan(const Reshape *r, TtMemo *memo, int m,
                             uint64_t h, int t)
{
    uint64_t key = (h << 16) | ((uint64_t)t << 8) | (uint64_t)m;
    TtPlan *p = g_hash_table_lookup(memo, &key);
    if (p)
        return p;
    p = tt_plan_new(r, m);
    tt_compute(r, memo, m, h, t, p);
    uint64_t *k = g_new(uint64_t, 1);
    *k = key;
    g_hash_table_insert(memo, k, p);
    return p;
}

/* The node that posts the message carrying element i of set m, which h
 * sends in step t, and the step it posts it for. */
static uint64_t tt_head(const Reshape *r, TtMemo *memo, int m, uint64_t h,
                        int t, uint64_t i, int *th)
{
    while (tt_plan(r, memo, m, h, t)->comp[i]) {
        h ^= tt_bit(r, m, t - 1);
        t--;
    }
    *th = t;
    return h;
}

/* Does element i of set m, arriving at g in step t, go straight on? */
static int tt_passes(const Reshape *r, TtMemo *memo, int m, uint64_t g,
                     int t, uint64_t i)
{
    return t + 1 < r->delta && tp_ctl(r, m, g, t + 1)
           && tt_plan(r, memo, m, g, t + 1)->comp[i];
}

/* The path of the message h posts for element i of set m in step t: this
 * step's hops and every later step's it goes straight on through. */
static int tt_path(const Reshape *r, TtMemo *memo, int m, uint64_t h, int t,
                   uint64_t i, int *path, uint64_t *dest)
{
    int hops = 0;
    for (;;) {
        const TtPlan *p = tt_plan(r, memo, m, h, t);
        int j = seq_dim(r, m, t), d = r->dim_of[j];
        if (p->detour[i])
            hops += route_detour(d, r->dim_of[j + 1], path + hops);
        else
            path[hops++] = d;
        h ^= (uint64_t)1 << d;
        if (!tt_passes(r, memo, m, h, t, i))
            break;
        t++;
    }
    *dest = h;
    return hops;
}

/* The window an arrival at cycle a falls in: (s_w, s_{w+1}]. */
static int tt_window(const Reshape *r, Tick a)
{
    int w = 0;
    while (w + 1 < r->delta && tt_s(r, w + 1) < a)
        w++;
    return w;
}

static int tt_window_of_dep(const Reshape *r, Tick c)
{
    int w = 0;
    while (w + 1 < r->delta && tt_s(r, w + 1) <= c)
        w++;
    return w;
}

/* A 4-node group's eight channels over `span` cycles: grid[(y * 2 + link)
 * * span + c], y the node (bit 0 across j, bit 1 across j + 1), link 0 j
 * and 1 j + 1. Take the hops of one element that node y sends at cycle c,
 * over the edge or on the detour (j+1, j, j+1); FALSE if one is outside
 * the span or already taken. */
static gboolean group_take(uint8_t *grid, Tick span, int y, int detour, Tick c)
{
    int hop[3][2] = { { y, detour ? 1 : 0 }, { y ^ 2, 0 }, { y ^ 3, 1 } };
    for (int k = 0; k < (detour ? 3 : 1); k++) {
        size_t at = (size_t)(hop[k][0] * 2 + hop[k][1]) * (size_t)span
                    + (size_t)(c + k);
        if (c + k < 0 || c + k >= span || grid[at])
            return FALSE;
        grid[at] = 1;
    }
    return TRUE;
}

/* Check every group's timetable; returns -1, or a window too short. */
static int tt_verify(const Reshape *r)
{
    int worst = -1;
    Tick span = tt_s(r, r->delta) + 8;
    g_autofree uint8_t *grid = g_new(uint8_t, 8 * (size_t)span);
    uint64_t nodes = (uint64_t)1 << r->n;
    for (int q = 0; q < r->delta && worst < 0; q++) {
        int j = r->dp[q], dj = r->dim_of[j], du = r->dim_of[j + 1];
        uint64_t bj = (uint64_t)1 << dj, bu = (uint64_t)1 << du;
        for (uint64_t base = 0; base < nodes && worst < 0; base++) {
            if (base & (bj | bu))
                continue;
            TtMemo *memo = tt_memo_new();
            memset(grid, 0, 8 * (size_t)span);
            for (int t = 0; t < r->delta && worst < 0; t++) {
                int m = tt_set_on(r, j, t);
                for (int y = 0; y < 4 && worst < 0; y++) {
                    uint64_t h = base | ((y & 1) ? bj : 0) | ((y & 2) ? bu : 0);
                    if (!tp_ctl(r, m, h, t))
                        continue;
                    const TtPlan *p = tt_plan(r, memo, m, h, t);
                    if (!p->ok) {
                        worst = t;
                        break;
                    }
                    /* arrivals by the end of the next window (three
                     * receive regions), and by the end of the run */
                    Tick last = tt_s(r, t + 2 <= r->delta ? t + 2 : r->delta);
                    if (t == r->delta - 1)
                        last = tt_s(r, r->delta);
                    for (uint64_t i = 0; i < p->s && worst < 0; i++)
                        if (tt_arrival(p, i) > last)
                            worst = t;
                    if (worst >= 0)
                        break;
                    for (uint64_t i = 0; i < p->s && worst < 0; i++)
                        if (!group_take(grid, span, y, p->detour[i], p->dep[i]))
                            worst = tt_window_of_dep(r, p->dep[i]);
                }
            }
            g_hash_table_destroy(memo);
        }
    }
    return worst;
}

static void tt_windows(Reshape *r, const Tick *len)
{
    r->tt_start[0] = 0;
    for (int t = 0; t < r->delta; t++)
        r->tt_start[t + 1] = r->tt_start[t] + len[t];
}

/* Theorem 3's window lengths: h = ceil(K / (2 delta)) cycles a step, one
 * more in the first. */
static void tt_base_windows(const Reshape *r, Tick *len)
{
    Tick hh = (Tick)((r->k + 2 * (uint64_t)r->delta - 1) / (2 * (uint64_t)r->delta));
    for (int t = 0; t < r->delta; t++)
        len[t] = hh + (t == 0);
}

/* Set up the timetable for this turn: windows at Theorem 3's lengths,
 * lengthened where a group's check fails. Returns the cycles added, or -1
 * if it gives up. */
static int tt_try(Reshape *r)
{
    Tick len[RESHAPE_MAX_BITS];
    tt_base_windows(r, len);
    for (int added = 0; added <= 4 * r->delta; added++) {
        tt_windows(r, len);
        int bad = tt_verify(r);
        if (bad < 0)
            return added;
        len[bad]++;
    }
    return -1;
}

/* Do Theorem 3's windows hold, unlengthened, in either order (ascending
 * first)? If so the order is set and the windows are those tt_setup
 * would choose, and TRUE. schedule = slots needs only this: where they
 * do not hold a slot table runs if one serves, and tt_setup's lengthening
 * (a pass over the cube per cycle added, per order) is needed only where
 * none does. */
static gboolean tt_hold(Reshape *r)
{
    Tick len[RESHAPE_MAX_BITS];
    tt_base_windows(r, len);
    for (int turn = 1; turn >= -1; turn -= 2) {
        r->turn = turn;
        tt_windows(r, len);
        if (tt_verify(r) < 0) {
            r->tt_extended = 0;
            return TRUE;
        }
    }
    return FALSE;
}

/* Both cyclic orders; the one that needs fewer added cycles. */
static gboolean tt_setup(Reshape *r)
{
    r->turn = 1;
    int up = tt_try(r);
    if (up == 0) {
        r->tt_extended = 0;
        return TRUE;
    }
    Tick keep[RESHAPE_MAX_BITS + 1];
    memcpy(keep, r->tt_start, sizeof keep);
    r->turn = -1;
    int down = tt_try(r);
    if (down >= 0 && (up < 0 || down < up)) {
        r->tt_extended = down;
        return TRUE;
    }
    if (up < 0)
        return FALSE;
    r->turn = 1;
    memcpy(r->tt_start, keep, sizeof keep);
    r->tt_extended = up;
    return TRUE;
}

typedef struct {
    Tick next;                  /* when the node's next step starts */
} TtLocal;

typedef struct {
    Tick dep;
    int m, t;
    uint64_t i;
} TtSend;

static int tt_send_cmp(const void *a, const void *b)
{
    const TtSend *x = a, *y = b;
    return x->dep < y->dep ? -1 : x->dep > y->dep;
}

static void tt_post(Node *node, const Reshape *r, TtMemo *memo,
                    const TtSend *e, Tick *now, Tick *end)
{
    uint64_t x = node_address(node), dest;
    const TtPlan *p = tt_plan(r, memo, e->m, x, e->t);
    int path[3 * RESHAPE_MAX_BITS];
    int hops = tt_path(r, memo, e->m, x, e->t, e->i, path, &dest);
    if (e->dep > *now) {
        node_idle(node, e->dep - *now);
        *now = e->dep;
    }
    node_send(node, path, hops, (size_t)(p->o + e->i), 1,
              (int)((uint64_t)e->t * r->k + p->o + e->i));
    if (*now + 1 > *end)
        *end = *now + 1;
}

/* Receives of node g: elements of any step arriving in window w (post),
 * or those to move into place at the start of step w (scatter: arrived in
 * window v for step t, max(t, v) = w - 1). */
static void tt_recv(Node *node, const Reshape *r, TtMemo *memo, int w,
                    int post, Tick *end)
{
    uint64_t g = node_address(node);
    Word *mem = node_memory(node);
    for (int m = 0; m < r->delta; m++)
        for (int t = 0; t < r->delta; t++) {
            if (!tp_ctl(r, m, g, t))
                continue;
            uint64_t h = g ^ tt_bit(r, m, t);
            const TtPlan *p = tt_plan(r, memo, m, h, t);
            size_t region = (size_t)(r->k * (uint64_t)(1 + t % 3));
            for (uint64_t i = 0; i < p->s; i++) {
                if (tt_passes(r, memo, m, g, t, i))
                    continue;
                Tick a = tt_arrival(p, i);
                int v = tt_window(r, a);
                uint64_t q = p->o + i;
                if (post && v == w) {
                    int th;
                    uint64_t src = tt_head(r, memo, m, h, t, i, &th);
                    node_recv(node, (uint32_t)src,
                              (int)((uint64_t)th * r->k + q),
                              region + (size_t)q, 1);
                    if (a > *end)
                        *end = a;
                } else if (!post && (t > v ? t : v) == w - 1) {
                    mem[q] = mem[region + q];
                }
            }
        }
}

static NodeStatus tt_step(Node *node, const Reshape *r, int w)
{
    TtLocal *loc = node_local(node);
    uint64_t x = node_address(node);
    TtMemo *memo = tt_memo_new();
    Tick now = loc->next, end = now;
    GArray *pre = g_array_new(FALSE, FALSE, sizeof(TtSend));
    GArray *sends = g_array_new(FALSE, FALSE, sizeof(TtSend));
    for (int m = 0; m < r->delta; m++)
        for (int t = w - 1; t <= w + 1; t++) {
            if (t < 0 || t >= r->delta || !tp_ctl(r, m, x, t))
                continue;
            const TtPlan *p = tt_plan(r, memo, m, x, t);
            for (uint64_t i = 0; i < p->s; i++) {
                if (p->comp[i] || tt_window_of_dep(r, p->dep[i]) != w)
                    continue;
                TtSend e = { p->dep[i], m, t, i };
                g_array_append_val(t == w - 1 ? pre : sends, e);
            }
        }
    /* the LATE elements leave before the scatter overwrites them */
    g_array_sort(pre, tt_send_cmp);
    for (guint k = 0; k < pre->len; k++)
        tt_post(node, r, memo, &g_array_index(pre, TtSend, k), &now, &end);
    if (w > 0)
        tt_recv(node, r, memo, w, 0, &end);
    if (w == r->delta) {
        g_array_free(pre, TRUE);
        g_array_free(sends, TRUE);
        g_hash_table_destroy(memo);
        return NODE_DONE;
    }
    node_mark(node, "step %d", w);
    g_array_sort(sends, tt_send_cmp);
    for (guint k = 0; k < sends->len; k++)
        tt_post(node, r, memo, &g_array_index(sends, TtSend, k), &now, &end);
    tt_recv(node, r, memo, w, 1, &end);
    loc->next = end;
    g_array_free(pre, TRUE);
    g_array_free(sends, TRUE);
    g_hash_table_destroy(memo);
    return NODE_CONTINUE;
}

/* ---- two-path, schedule = slots: the timetable with slot patterns ------- */

/* Where the windows above are too short for a set (every shape measured
 * with h = 2 and K = 4 delta: no slot is spare, and a set that crossed in
 * window t-1 arrives too late for the detour slot at s_t - 2), schedule =
 * slots runs a table of slot patterns instead; elsewhere it is the
 * timetable above.
 *
 * In step t a 4-node group of a 2-cube carries one set, and its exchanging
 * pair sends element k of the set (offset o_m + k) in slot k of the row of
 * the group's type: over the edge at cycle c (arriving c + 1) or on the
 * detour at c (arriving c + 3). A group's type is its delta - 1 step
 * boundaries: whether its exchanging edge stays (S) or changes (H, the
 * pairs swap roles), every node computes it from the shapes (tt_edge). One
 * table serves every shape with that delta and K: an integer program
 * (tests/thm3-patterns.py lp, solved by CBC) asked for rows with every
 * group's eight channels used at most once per cycle whatever its type, and
 * one arrival profile per step and element index that bounds every type,
 * which the next step of every type waits for (and which only grows, so a
 * set that skipped a step is covered too). prepare checks the table on the
 * shape anyway (pt_check: every group's channels, every element's
 * arrivals, and a row for every group's type: the delta = 8 table has 104
 * of 128), and the timetable's windows run if it fails.
 *
 * A node runs one step call per cycle: it posts the elements that leave at
 * that cycle and the receives of those that arrive at the next. Step t's
 * arrivals land in region 1 + t of memory, so nothing is overwritten before
 * it leaves; the last step call moves every set home. */

/* Parse a row into dep[t * s + k] (cycle * 2 + detour); FALSE if it is not
 * delta steps of s slots. */
static gboolean pt_parse_row(const char *row, int delta, uint64_t s,
                             uint8_t *dep)
{
    const char *p = row;
    for (int t = 0; t < delta; t++) {
        for (uint64_t k = 0; k < s; k++) {
            char *end;
            while (*p == ' ')
                p++;
            unsigned long c = strtoul(p, &end, 10);
            if (end == p || (*end != 'e' && *end != 'h') || c > 120)
                return FALSE;
            dep[(uint64_t)t * s + k] = (uint8_t)(c * 2 + (*end == 'h'));
            p = end + 1;
        }
        while (*p == ' ')
            p++;
        if (*p != (t + 1 < delta ? '|' : '\0'))
            return FALSE;
        p++;
    }
    return TRUE;
}

/* The row of P's group of position j: its boundaries, the first most
 * significant. */
static unsigned pt_row(const Reshape *r, int j, uint64_t p)
{
    unsigned g = 0;
    for (int t = 0; t + 1 < r->delta; t++)
        g = (g << 1) | (unsigned)(tt_edge(r, t, j, p) != tt_edge(r, t + 1, j, p));
    return g;
}

/* The cycles a table's schedule takes: Theorem 3's delta h + 1 = K/2 + 1
 * (its tables have K = 4 delta). */
static Tick pt_cycles(const Reshape *r)
{
    return (Tick)(r->k / 2 + 1);
}

static uint8_t pt_slot(const Reshape *r, unsigned row, int t, uint64_t k)
{
    uint64_t s = r->k / (uint64_t)r->delta;
    return r->pt[((uint64_t)row * (uint64_t)r->delta + (uint64_t)t) * s + k];
}

/* Check the table on this shape: every group's channels at most once per
 * cycle, every element sent no earlier than it arrived, all done by
 * Theorem 3's delta h + 1. Rows are computed once per node and position. */
static gboolean pt_check(Reshape *r)
{
    uint64_t nodes = (uint64_t)1 << r->n, s = r->k / (uint64_t)r->delta;
    int dl = r->delta;
    Tick T = pt_cycles(r);
    /* A byte per node and group: the problem's size, so running out is
     * the prepare's error (check_bytes), not an abort. */
    g_autofree uint8_t *rows = g_try_new(uint8_t, nodes * (uint64_t)dl);
    if (!rows) {
        r->check_bytes = nodes * (uint64_t)dl;
        return FALSE;
    }
    for (uint64_t x = 0; x < nodes; x++)
        for (int q = 0; q < dl; q++) {
            uint64_t bu = (uint64_t)1 << r->dim_of[r->dp[q] + 1];
            /* one row per group: computed at its node with j, j+1 clear */
            uint64_t base = x & ~(bu | ((uint64_t)1 << r->dim_of[r->dp[q]]));
            rows[x * (uint64_t)dl + (uint64_t)q] = base == x
                ? (uint8_t)pt_row(r, r->dp[q], x) : rows[base * (uint64_t)dl + (uint64_t)q];
        }
    g_autofree uint8_t *grid = g_new(uint8_t, 8 * (size_t)T);
    for (int q = 0; q < dl; q++) {
        int j = r->dp[q];
        uint64_t bj = (uint64_t)1 << r->dim_of[j], bu = (uint64_t)1 << r->dim_of[j + 1];
        for (uint64_t base = 0; base < nodes; base++) {
            if (base & (bj | bu))
                continue;
            unsigned row = rows[base * (uint64_t)dl + (uint64_t)q];
            memset(grid, 0, 8 * (size_t)T);
            for (int t = 0; t < dl; t++) {
                int m = tt_set_on(r, j, t);
                for (int y = 0; y < 4; y++) {
                    uint64_t h = base | ((y & 1) ? bj : 0) | ((y & 2) ? bu : 0);
                    if (!tp_ctl(r, m, h, t))
                        continue;
                    if (!r->pt_has[row])
                        return FALSE;   /* the table has no row for it */
                    for (uint64_t k = 0; k < s; k++) {
                        uint8_t v = pt_slot(r, row, t, k);
                        if (!group_take(grid, T, y, v & 1, v >> 1))
                            return FALSE;
                    }
                }
            }
        }
    }
    /* a node's set m arrived by the slots of its own group's row, the
     * partner sending in the same row */
    Tick arr[PT_MAX_K];
    for (uint64_t x = 0; x < nodes; x++)
        for (int m = 0; m < dl; m++) {
            for (uint64_t k = 0; k < s; k++)
                arr[k] = 0;
            for (int t = 0; t < dl; t++) {
                if (!tp_ctl(r, m, x, t))
                    continue;
                unsigned row = rows[x * (uint64_t)dl + (uint64_t)seq_pos(r, m, t)];
                for (uint64_t k = 0; k < s; k++) {
                    uint8_t v = pt_slot(r, row, t, k);
                    if ((Tick)(v >> 1) < arr[k])
                        return FALSE;
                    arr[k] = (Tick)(v >> 1) + ((v & 1) ? 3 : 1);
                }
            }
        }
    return TRUE;
}

/* Load table tb's rows into r->pt and r->pt_has. */
static gboolean pt_load(Reshape *r, const SlotTable *tb)
{
    uint64_t s = r->k / (uint64_t)r->delta;
    for (size_t g = 0; g < (size_t)1 << (r->delta - 1); g++) {
        r->pt_has[g] = tb->rows[g] != NULL;
        if (r->pt_has[g]
            && !pt_parse_row(tb->rows[g], r->delta, s, r->pt + g * r->k))
            return FALSE;
    }
    return TRUE;
}

/* Use the first table for this delta and K that checks out on the shape,
 * in either cyclic order (the first table in both, then the next). */
static gboolean pt_setup(Reshape *r)
{
    if (r->delta > PT_MAX_DELTA || r->k > PT_MAX_K || r->k % (uint64_t)r->delta)
        return FALSE;
    for (const SlotTable *tb = slot_table_find(r->delta, r->k, NULL); tb;
         tb = slot_table_find(r->delta, r->k, tb)) {
        if (!pt_load(r, tb))
            continue;
        for (int turn = 1; turn >= -1; turn -= 2) {
            r->turn = turn;
            if (pt_check(r)) {
                r->pt_table = tb;
                return TRUE;
            }
            if (r->check_bytes)
                return FALSE;
        }
    }
    return FALSE;
}

typedef struct {
    uint8_t cross[PT_MAX_DELTA];    /* step t: bit m, this node exchanges set m */
    uint8_t row[PT_MAX_DELTA];      /* position q: its group's row */
} PtLocal;

/* Where set m is at this node before step t: region 1 + the last step it
 * arrived in, or 0. */
static size_t pt_region(const PtLocal *loc, int m, int t)
{
    while (--t >= 0)
        if ((loc->cross[t] >> m) & 1)
            return (size_t)t + 1;
    return 0;
}

static NodeStatus pt_step(Node *node, const Reshape *r, int c)
{
    PtLocal *loc = node_local(node);
    uint64_t x = node_address(node), s = r->k / (uint64_t)r->delta;
    if (c == 0)
        for (int t = 0; t < r->delta; t++) {
            loc->row[t] = (uint8_t)pt_row(r, r->dp[t], x);
            for (int m = 0; m < r->delta; m++)
                if (tp_ctl(r, m, x, t))
                    loc->cross[t] |= (uint8_t)(1u << m);
        }
    if (c == pt_cycles(r)) {
        Word *mem = node_memory(node);
        size_t w = node_element_words(node);
        for (int m = 0; m < r->delta; m++) {
            size_t from = pt_region(loc, m, r->delta);
            if (from)
                memcpy(mem + (size_t)m * s * w,
                       mem + (from * r->k + (uint64_t)m * s) * w, s * w * sizeof *mem);
        }
        return NODE_DONE;
    }
    node_mark(node, "cycle %d", c);
    for (int t = 0; t < r->delta; t++)
        for (int m = 0; m < r->delta; m++) {
            if (!((loc->cross[t] >> m) & 1))
                continue;
            int j = seq_dim(r, m, t), d = r->dim_of[j];
            unsigned row = loc->row[seq_pos(r, m, t)];
            size_t from = pt_region(loc, m, t);
            for (uint64_t k = 0; k < s; k++) {
                uint8_t v = pt_slot(r, row, t, k);
                Tick dep = v >> 1, arrive = dep + ((v & 1) ? 3 : 1);
                uint64_t q = (uint64_t)m * s + k;
                int tag = (int)((uint64_t)t * r->k + q);
                if (dep == c) {
                    int path[3];
                    int hops = (v & 1) ? route_detour(d, r->dim_of[j + 1], path)
                                       : (path[0] = d, 1);
                    node_send(node, path, hops, from * r->k + q, 1, tag);
                }
                if (arrive == c + 1)
                    node_recv(node, (uint32_t)(x ^ ((uint64_t)1 << d)), tag,
                              (size_t)(t + 1) * r->k + q, 1);
            }
        }
    node_idle(node, 1);
    return NODE_CONTINUE;
}

/* ---- the node program ------------------------------------------------- */

/* Where a node's flip is the same at every offset (the walk has no step:
 * the flips depend on node bits only), the move q -> q ^ flip is its own
 * inverse, so the runs swap in pairs, in place. */
static void local_swap_runs(Word *mem, uint64_t k, uint64_t run,
                            uint64_t flip)
{
    for (uint64_t q = 0; q < k; q += run) {
        if ((q ^ flip) < q)
            continue;           /* swapped with its partner already */
        Word *a = mem + q, *b = mem + (q ^ flip);
        for (uint64_t i = 0; i < run; i++) {
            Word v = a[i];
            a[i] = b[i];
            b[i] = v;
        }
    }
}

/* The moves in D_maddr: the element at offset q goes to offset q ^ flip,
 * flip the offset bits it crosses (local_flip), walked over the offsets
 * a run (local_run) at a time. Through a buffer of the node's own, freed
 * at once (a node's memory holds only its K elements where the method
 * needs no more), unless the flip is the node's alone. */
static void local_moves(Node *node, const Reshape *r)
{
    if (!r->Dm)
        return;
    Word *mem = node_memory(node);
    uint64_t flip = walk_start(&r->walk_local, node_address(node));
    uint64_t run = r->local_run;
    if (r->local_fixed) {
        if (flip)
            local_swap_runs(mem, r->k, run, flip);
        return;
    }
    g_autofree Word *moved = g_new(Word, r->k);
    for (uint64_t q = 0; q < r->k; q += run) {
        memcpy(moved + (q ^ flip), mem + q, run * sizeof *mem);
        flip = walk_next(&r->walk_local, q + run - 1, flip);
    }
    memcpy(mem, moved, r->k * sizeof *mem);
}

/* The length of the aligned runs of offsets that local moves take along
 * whole, 2^c: below c the walk's steps are 0, so every offset of a run
 * has the run's flip, and no bit of D_maddr lies below c, so the flip
 * keeps the run's order and alignment. */
static uint64_t local_run(const Reshape *r)
{
    uint64_t node, flips;
    split(r, r->Dm, &node, &flips);
    int c = 0;
    while (c < r->bits - r->n && !r->walk_local.step[c] && !((flips >> c) & 1))
        c++;
    return (uint64_t)1 << c;
}

/* Node mask of the dimensions the node's data crosses (uniform control),
 * from the control bits of its index at the start (cross_first) or the
 * end (cross_last). */
static uint64_t crossing_mask(const Reshape *r, uint64_t x, const uint64_t *cross)
{
    uint64_t mask = 0;
    for (int t = 0; t < r->delta; t++)
        mask |= (uint64_t)__builtin_parityll(x & cross[t]) << r->dim_of[r->dp[t]];
    return mask;
}

/* The node masks of crossing_mask (one-path, pipelined). */
static void crossing_masks(Reshape *r)
{
    for (int t = 0; t < r->delta; t++) {
        r->cross_first[t] = ctl_mask_of(r, r->Dm, r->dp[t]).node;
        r->cross_last[t] = ctl_mask_of(r, r->D, r->dp[t]).node;
    }
}

/* one-path and pipelined: every node's K elements go to one node. */
static void whole_send(Node *node, const Reshape *r)
{
    uint64_t x = node_address(node);
    uint64_t mask = crossing_mask(r, x, r->cross_first);
    /* our final data comes from the node the final holder's index names */
    uint64_t back = crossing_mask(r, x, r->cross_last);
    int shortp[TOPOLOGY_CUBE_MAX_DIMENSIONS], longp[3 * TOPOLOGY_CUBE_MAX_DIMENSIONS];
    int hs = 0, hl = 0;
    for (int t = r->delta - 1; t >= 0; t--) {
        int d = r->dim_of[r->dp[t]];
        if (!((mask >> d) & 1))
            continue;
        shortp[hs++] = d;
        if (r->method == M_PIPELINED)
            hl += route_detour(d, r->dim_of[r->via[r->dp[t]]], longp + hl);
    }
    uint64_t first = r->method == M_PIPELINED
                         ? (r->k + 1) / 2 + (uint64_t)r->delta : r->k;
    if (first > r->k)
        first = r->k;
    uint32_t from = (uint32_t)(x ^ back);
    if (mask == 0 && back == 0)
        return;
    node_send(node, shortp, hs, 0, (size_t)first, 0);
    node_recv(node, from, 0, 0, (size_t)first);
    if (first < r->k) {
        node_send(node, longp, hl, (size_t)first, (size_t)(r->k - first), 1);
        node_recv(node, from, 1, (size_t)first, (size_t)(r->k - first));
    }
}

static NodeStatus reshape_step(Node *node, const void *config)
{
    const Reshape *r = config;
    int t = (int)node_step(node);
    if (t == 0)
        local_moves(node, r);
    if (r->delta == 0)
        return NODE_DONE;
    if (r->method == M_ONE_PATH || r->method == M_PIPELINED) {
        if (t == 0) {
            node_mark(node, "%s", r->method == M_ONE_PATH ? "one path"
                                                           : "short and long paths");
            whole_send(node, r);
            return NODE_CONTINUE;
        }
        return NODE_DONE;
    }
    if (r->method == M_TWO_PATH && r->pt_on)
        return pt_step(node, r, t);
    if (r->method == M_TWO_PATH && timetabled(r))
        return tt_step(node, r, t);
    if (r->method == M_TWO_PATH)
        return tp_step(node, r, t);
    int sets = sets_of(r);
    for (int m = 0; m < sets && t > 0; m++)
        scatter_subset(node, r, m, t - 1);
    if (t == r->delta)
        return NODE_DONE;
    node_mark(node, "step %d", t);
    for (int m = 0; m < sets; m++)
        exchange_subset(node, r, m, t);
    return NODE_CONTINUE;
}

/* ---- bounds ---------------------------------------------------------- */

static double method_bound(const Reshape *r, int method, double ts)
{
    double k = (double)r->k, dl = r->delta;
    if (r->delta == 0)
        return 0;
    switch (method) {
    case M_SEQUENTIAL: return dl * (ts + k);
    case M_ONE_PATH: return ts + k + dl - 1;
    case M_EXCHANGE: return dl * (ts + ceil(k / dl));
    case M_TWO_PATH:
        /* Theorem 3 when every step boundary overlaps; else the bound its
         * proof gives before the overlap, delta (ceil(K/(2 delta)) + 1) */
        if (timetabled(r))
            return dl * (ts + ceil(k / (2 * dl))) + 1 + r->tt_extended;
        return !tp_theorem3(r) ? dl * (ts + ceil(k / (2 * dl)) + 1)
                             : dl * (ts + ceil(k / (2 * dl))) + 1;
    case M_PIPELINED: return ts + ceil(k / 2) + 2 * dl - 1;
    }
    return INFINITY;
}

static const char *const bound_name[] = {
    [M_SEQUENTIAL] = "sequential: delta (Ts + K)",
    [M_ONE_PATH] = "one-path: Ts + K + delta - 1",
    [M_EXCHANGE] = "Theorem 2: delta (Ts + ceil(K/delta))",
    [M_TWO_PATH] = "Theorem 3: delta (Ts + ceil(K/(2 delta))) + 1",
    [M_PIPELINED] = "Theorem 4: Ts + ceil(K/2) + 2 delta - 1",
};

static const char *const bound_source[] = {
    [M_SEQUENTIAL] = "one exchange of K elements per dimension of D_paddr",
    [M_ONE_PATH] = "Johnsson & Ho, Section 5: the previously best algorithm [6]",
    [M_EXCHANGE] = "Johnsson & Ho, Theorem 2",
    [M_TWO_PATH] = "Johnsson & Ho, Theorem 3",
    [M_PIPELINED] = "Johnsson & Ho, Theorem 4",
};

static const char *const condition_text[] = {
    [NEED_UNIFORM] = "every dimension above one requiring communication must "
                     "be a processor dimension (so a node's K elements move "
                     "together; give other processor-bits)",
    [NEED_NONADJACENT] = "no two elements of D_paddr may differ by one "
                         "(Theorem 3)",
    [NEED_K_TWO_PATH] = "K > 2 delta (Theorem 3)",
    [NEED_UNUSED_ABOVE] = "every dimension j requiring communication needs "
                          "its own more significant processor dimension u not "
                          "requiring communication, with no axis boundary "
                          "between j+1 and u (Theorem 4, through Lemma 4)",
    [NEED_K_PIPELINED] = "K >= 2 delta (Theorem 4)",
};

/* Theorem 3's overlap at the boundary between steps t and t+1 is safe
 * when every node g that holds a set m crossing in step t+1 is also in the
 * exchanging pair of the set that uses that 2-cube in step t: then the
 * early elements take the detour's last free cycles. The pairs differ
 * where the dimension set m crossed first (and the other set has not) lies
 * above the 2-cube with an unbroken chain down to it (Lemma 3), e.g. in
 * the lowest 2-cube whenever the chain from the others is unbroken; there
 * the early elements would cross the other set's direct stream. Decided
 * per boundary for all sets, so every step stays aligned: one whose
 * boundary is not overlapped pays the detour's latency again (+1). */
static int tp_relays_differ(const Reshape *r, int m, int t)
{
    for (uint64_t g = 0; g < ((uint64_t)1 << r->n); g++)
        if (tp_ctl(r, m, g, t + 1) && !tp_relays_agree(r, m, g, t)
            && (r->schedule == TP_PROOF || !tp_ctl(r, m, g, t)))
            return 1;
    return 0;
}

static void tp_overlaps(Reshape *r)
{
    r->overlap = 0;
    for (int t = 0; t + 1 < r->delta; t++) {
        int differ = 0;
        for (int m = 0; m < r->delta && !differ; m++)
            differ = tp_relays_differ(r, m, t);
        if (!differ)
            r->overlap |= (uint64_t)1 << t;
    }
}

/* The hand-over schedule takes the cyclic order, ascending or descending,
 * that leaves fewer boundaries unoverlapped (descending is the better one
 * far more often; ties keep ascending, Theorem 2's example order). */
static void tp_choose_turn(Reshape *r)
{
    r->turn = 1;
    int schedule = r->schedule;
    r->schedule = TP_PROOF;
    tp_overlaps(r);
    r->relays_differ = tp_lost(r) > 0;
    r->schedule = schedule;
    tp_overlaps(r);
    if (r->schedule != TP_HANDOVER || !tp_lost(r))
        return;
    uint64_t ascending = r->overlap;
    r->turn = -1;
    tp_overlaps(r);
    if (__builtin_popcountll(r->overlap) <= __builtin_popcountll(ascending)) {
        r->turn = 1;
        r->overlap = ascending;
    }
}

/* ---- setup ----------------------------------------------------------- */

/* A shape's axis lengths, powers of two up to 2^62, as their logarithms
 * e[0..*d-1]: axis 0 is written last. */
static gboolean parse_shape(const char *text, int *e, int *d)
{
    static const ShapeSpec spec = {
        .min_extents = 1, .max_extents = RESHAPE_MAX_AXES,
        .min = 1, .max = UINT64_C(1) << 62,
    };
    uint64_t len[RESHAPE_MAX_AXES];
    int n = 0;
    if (!shape_parse(text, &spec, len, &n, NULL, NULL))
        return FALSE;
    for (int i = 0; i < n; i++) {
        e[n - 1 - i] = bits_log2_exact(len[i]);
        if (e[n - 1 - i] < 0)
            return FALSE;
    }
    *d = n;
    return TRUE;
}

/* Most significant bit of every axis but the top one (U~ of Definition
 * 3), as a mask. Axes of length 1 own no bit; a top at B-1 (below a
 * length-1 top axis, as in 1x16) is the address's top bit, which is b_{B-1}
 * under every shape, so it is left out: no exchange is controlled by a bit
 * above the address. */
static uint64_t axis_tops(const int *e, int d)
{
    uint64_t mask = 0;
    int sum = 0, bits = 0;
    for (int k = 0; k < d; k++)
        bits += e[k];
    for (int k = 0; k < d - 1; k++) {
        sum += e[k];
        if (sum >= 1 && sum < bits)
            mask |= (uint64_t)1 << (sum - 1);
    }
    return mask;
}

static void conditions(Reshape *r)
{
    memset(r->conditions_fail, 0, sizeof r->conditions_fail);
    for (int mth = M_ONE_PATH; mth <= M_PIPELINED; mth++)
        if (mth != M_EXCHANGE && !r->uniform)
            r->conditions_fail[mth] = NEED_UNIFORM;
    for (int t = 0; t + 1 < r->delta; t++)
        if (r->dp[t + 1] == r->dp[t] + 1 && !r->conditions_fail[M_TWO_PATH])
            r->conditions_fail[M_TWO_PATH] = NEED_NONADJACENT;
    if (!r->conditions_fail[M_TWO_PATH] && r->delta > 0
        && !(r->k > 2 * (uint64_t)r->delta))
        r->conditions_fail[M_TWO_PATH] = NEED_K_TWO_PATH;
    /* Theorem 4 pairs every dimension j of D_paddr with its own unused
     * more significant dimension: the detours are "disjoint with all other
     * edges". One unused dimension shared by two of them would carry both
     * detours (twice each), more than K/2 per channel. Greedy from the top,
     * taking the lowest free dimension above j, finds such a matching
     * whenever one exists (the candidate sets are nested suffixes). */
    uint64_t taken = 0;
    for (int t = r->delta - 1; t >= 0 && !r->conditions_fail[M_PIPELINED]; t--) {
        int j = r->dp[t], found = -1;
        /* Lemma 4 (complementing u complements b_{j+1}) needs the chain
         * b_q = a_q ^ b_{q+1} unbroken for j < q < u at stage j, when the
         * dimensions of D_paddr above j are done (descending order). */
        uint64_t done = r->Dm;
        for (int h = t + 1; h < r->delta; h++)
            done |= (uint64_t)1 << r->dp[h];
        for (int u = j + 1; u < r->bits && found < 0; u++) {
            if (u > j + 1) {
                int q = u - 1;
                int toggle = !((r->top_u >> q) & 1) ^ (int)((done >> q) & 1);
                if (!toggle)
                    break;
            }
            if (r->dim_of[u] >= 0 && !((r->D >> u) & 1) && !((taken >> u) & 1))
                found = u;
        }
        if (found < 0) {
            r->conditions_fail[M_PIPELINED] = NEED_UNUSED_ABOVE;
        } else {
            r->via[j] = found;
            taken |= (uint64_t)1 << found;
        }
    }
    if (!r->conditions_fail[M_PIPELINED] && r->k < 2 * (uint64_t)r->delta)
        r->conditions_fail[M_PIPELINED] = NEED_K_PIPELINED;
}

static void *reshape_prepare(const Machine *m, const Params *p,
                             MemoryLayout *layout, GError **error)
{
    g_autofree Reshape *r = g_new0(Reshape, 1);
    const char *from = params_text(p, "from"), *to = params_text(p, "to");
    if (!parse_shape(from, r->u, &r->du))
        return params_fail(p, error, "from", "'%s' is not a shape (axis "
                                "lengths that are powers of two, axis d-1 "
                                "first, joined by x: 1x16, 32x4x16x8)", from);
    if (!parse_shape(to, r->v, &r->dv))
        return params_fail(p, error, "to", "'%s' is not a shape (axis "
                                "lengths that are powers of two, axis d-1 "
                                "first, joined by x: 4x4)", to);
    int bu = 0, bv = 0;
    for (int k = 0; k < r->du; k++)
        bu += r->u[k];
    for (int k = 0; k < r->dv; k++)
        bv += r->v[k];
    if (bu != bv)
        return params_fail(p, error, "to", "%s has 2^%d elements, %s has "
                                "2^%d: a reshape keeps the size", to, bv, from, bu);
    if (bu > RESHAPE_MAX_BITS)
        return params_fail(p, error, "from", "2^%d elements is more than "
                                "cubemu addresses (2^%d)", bu, RESHAPE_MAX_BITS);
    r->bits = bu;
    r->n = m->topology.axes;
    if (bu < r->n)
        return params_fail(p, error, "from", "%s has 2^%d elements, fewer "
                                "than the %u nodes", from, bu, 1u << r->n);
    r->k = (uint64_t)1 << (bu - r->n);

    /* processor positions */
    for (int j = 0; j < RESHAPE_MAX_BITS; j++)
        r->dim_of[j] = -1;
    const char *pbits = params_text(p, "processor-bits");
    uint64_t pmask = 0;
    if (pbits) {
        g_auto(GStrv) parts = g_strsplit(pbits, ",", -1);
        int count = 0;
        for (char **q = parts; *q; q++) {
            char *end;
            g_strstrip(*q);
            long v = strtol(*q, &end, 10);
            if (!**q || *end || v < 0 || v >= bu || ((pmask >> v) & 1))
                return params_fail(p, error, "processor-bits", "'%s' is "
                                        "not a list of %d distinct address "
                                        "bits in 0..%d", pbits, r->n, bu - 1);
            pmask |= (uint64_t)1 << v;
            count++;
        }
        if (count != r->n)
            return params_fail(p, error, "processor-bits", "lists %d bits; "
                                    "the machine has %d dimensions", count, r->n);
    } else {
        for (int k = 0; k < r->n; k++)
            pmask |= (uint64_t)1 << (bu - r->n + k);
    }
    int np = 0, nm = 0;
    for (int j = 0; j < bu; j++) {
        if ((pmask >> j) & 1) {
            r->dim_of[j] = np;
            r->proc_pos[np++] = j;
        } else {
            r->mem_pos[nm++] = j;
        }
    }

    uint64_t tu = axis_tops(r->u, r->du), tv = axis_tops(r->v, r->dv);
    uint64_t top_bit = (uint64_t)1 << (bu - 1);
    r->top_u = tu | top_bit;
    r->top_v = tv | top_bit;
    r->D = tu ^ tv;
    r->Dp = r->D & pmask;
    r->Dm = r->D & ~pmask;
    for (int j = 0; j < bu; j++)
        if ((r->Dp >> j) & 1)
            r->dp[r->delta++] = j;
    set_starts(r);
    int max_mem = nm ? r->mem_pos[nm - 1] : -1;
    r->uniform = r->delta == 0 || max_mem < r->dp[0];
    r->descending = params_choice(p, "order") == 0;
    r->schedule = params_choice(p, "schedule");
    conditions(r);
    r->turn = 1;
    if (!r->conditions_fail[M_TWO_PATH]) {
        r->method = M_TWO_PATH;     /* its sets and orders; chosen below */
        ctl_masks(r);
        tp_choose_turn(r);
    }

    int method = method_of[params_method(p)];
    double ts = (double)machine_price(m, CLASS_NEIGHBOUR)->startup;
    if (method == M_AUTO) {
        double best = INFINITY;
        for (int mth = M_SEQUENTIAL; mth <= M_PIPELINED; mth++)
            if (!r->conditions_fail[mth] && method_bound(r, mth, ts) < best) {
                best = method_bound(r, mth, ts);
                method = mth;
            }
    } else if (r->conditions_fail[method]) {
        return params_fail(p, error, "method", "%s cannot run for %s -> "
                                "%s: %s", reshape_methods[params_method(p)].name,
                                from, to, condition_text[r->conditions_fail[method]]);
    }
    if (params_given(p, "order") && method != M_SEQUENTIAL)
        return params_fail(p, error, "order", "applies to method "
                                "sequential only");
    if (params_given(p, "schedule") && method != M_TWO_PATH)
        return params_fail(p, error, "schedule", "applies to method "
                                "two-path only");
    r->method = method;
    if (method != M_TWO_PATH) {
        r->turn = 1;
        if (method == M_SEQUENTIAL || method == M_EXCHANGE)
            ctl_masks(r);
        else
            crossing_masks(r);
    }
    walk_build(&r->walk_u, r, index_u);
    walk_build(&r->walk_v, r, index_v);
    walk_build(&r->walk_local, r, local_flip);
    r->local_run = local_run(r);
    r->local_fixed = TRUE;
    for (int c = 0; c < 64; c++)
        r->local_fixed &= r->walk_local.step[c] == 0;
    layout->elements_per_node = (size_t)r->k;
    /* two-path gathers what it sends and receives into a second K */
    layout->memory_elements = (size_t)(method == M_TWO_PATH ? 2 * r->k : r->k);
    layout->local_size = 0;
    if (method == M_TWO_PATH && r->delta > 0 && timetabled(r)) {
        const char *name = reshape_schedules[r->schedule];
        /* exact cycles need Theorem 3's machine: Ts = 0, one cycle per
         * element and channel, every port free */
        const MachinePrice *nb = machine_price(m, CLASS_NEIGHBOUR);
        const MachinePrice *rt = machine_price(m, CLASS_ROUTER);
        if (nb->startup || rt->startup || nb->element_time != 1
            || rt->element_time != 1 || machine_ports_limited(m))
            return params_fail(p, error, "schedule", "%s needs "
                                    "startup = 0, element-time = 1 and all "
                                    "ports (Theorem 3's machine)", name);
        if ((uint64_t)r->delta * r->k >= ((uint64_t)1 << 30))
            return params_fail(p, error, "schedule", "%s tags one "
                                    "message per element and step: delta K "
                                    "must stay below 2^30", name);
        gboolean windows = r->schedule == TP_SLOTS && tt_hold(r);
        if (r->schedule == TP_SLOTS && !windows) {
            gboolean slots = pt_setup(r);
            if (r->check_bytes) {
                g_autofree char *iec = g_format_size_full(
                    r->check_bytes, G_FORMAT_SIZE_IEC_UNITS);
                return params_fail(p, error, "schedule", "cannot allocate %"
                                   G_GUINT64_FORMAT " bytes (%s) to check "
                                   "the slot table on this cube",
                                   (guint64)r->check_bytes, iec);
            }
            if (slots) {
                r->pt_on = TRUE;
                r->tt_extended = 0;
                r->overlap = ((uint64_t)1 << (r->delta - 1)) - 1;
                layout->memory_elements = (size_t)((uint64_t)(r->delta + 1) * r->k);
                layout->local_size = sizeof(PtLocal);
                return g_steal_pointer(&r);
            }
        }
        if (!windows)
            windows = tt_setup(r);
        if (windows) {
            r->overlap = ((uint64_t)1 << (r->delta - 1)) - 1;
            layout->memory_elements = (size_t)(4 * r->k);
            layout->local_size = sizeof(TtLocal);
        } else {
            /* no timetable found within the window lengths tried */
            r->tt_fallback = TRUE;
            r->schedule = TP_HANDOVER;
            tp_choose_turn(r);
        }
    }
    if (method == M_TWO_PATH && r->delta > 0 && !timetabled(r))
        tp_tabulate(r);
    return g_steal_pointer(&r);
}

static void reshape_release(void *config)
{
    Reshape *r = config;
    if (!r)
        return;
    tp_table_free(r->tp_table);
    g_free(r);
}

/* The index of every element of node x under a shape: index_at walked
 * over the node's offsets from its first one (index_at is linear in the
 * address). */
static void fill_indices(const Reshape *r, const Walk *w, uint64_t first,
                         Word *out)
{
    uint64_t i = first;
    for (uint64_t q = 0; q < r->k; q++) {
        out[q] = i;
        i = walk_next(w, q, i);
    }
}

static void reshape_init(const void *config, uint32_t x, Word *memory)
{
    const Reshape *r = config;
    fill_indices(r, &r->walk_u, walk_start(&r->walk_u, x), memory);
}

static void reshape_expect(const void *config, uint32_t x, Word *expected)
{
    const Reshape *r = config;
    fill_indices(r, &r->walk_v, walk_start(&r->walk_v, x), expected);
}

static void mask_list(const Reshape *r, uint64_t mask, long long *out, int *n)
{
    *n = 0;
    for (int j = r->bits - 1; j >= 0; j--)
        if ((mask >> j) & 1)
            out[(*n)++] = j;
}

static void reshape_report(const void *config, Report *rep)
{
    const Reshape *r = config;
    const MachinePrice *price = machine_price(&rep->machine, CLASS_NEIGHBOUR);
    double ts = (double)price->startup, tau = (double)price->element_time;
    long long list[RESHAPE_MAX_BITS];
    int n;
    mask_list(r, r->D, list, &n);
    report_detail_list(rep, "D", list, (size_t)n);
    mask_list(r, r->Dp, list, &n);
    report_detail_list(rep, "D_paddr", list, (size_t)n);
    mask_list(r, r->Dm, list, &n);
    report_detail_list(rep, "D_maddr", list, (size_t)n);
    report_detail_int(rep, "delta", r->delta);
    uint64_t total = (uint64_t)1 << r->bits;
    report_detail_int(rep, "local_moves",
                           (long long)((uint64_t)__builtin_popcountll(r->Dm) * total / 2));
    report_detail_int(rep, "total_exchanges",
                           (long long)((uint64_t)__builtin_popcountll(r->D) * total / 2));
    for (size_t i = 0; i < G_N_ELEMENTS(method_of); i++)
        if (method_of[i] == r->method)
            report_detail_text(rep, "chosen", reshape_methods[i].name);
    if (r->delta == 0) {
        report_cycle_bound(rep, "no processor dimension needs "
                                "communication", BOUND_EXACT, 0,
                                "Johnsson & Ho, Definition 3: D_paddr is empty");
        return;
    }
    report_cycle_bound(rep, "Theorem 1: Ts + ceil(K/2)", BOUND_LOWER,
                            ts + ceil((double)r->k / 2) * tau,
                            "Johnsson & Ho, Theorem 1 (lower bound K/2)");
    /* The paper counts element transfers; with element-time tau every
     * transfer term scales by tau. */
    double bound = method_bound(r, r->method, 0);
    double steps = r->method == M_SEQUENTIAL || r->method == M_EXCHANGE
                   || r->method == M_TWO_PATH ? r->delta : 1;
    if (r->method == M_TWO_PATH) {
        report_detail_text(rep, "schedule", reshape_schedules[r->schedule]);
        report_detail_text(rep, "set_order", r->turn > 0 ? "ascending"
                                                          : "descending");
        report_detail_int(rep, "boundaries_without_overlap", tp_lost(r));
        if (timetabled(r))
            report_detail_int(rep, "windows_extended", r->tt_extended);
        if (r->schedule == TP_SLOTS)
            report_detail_text(rep, "timetable_kind", r->pt_on ? r->pt_table->kind
                                                               : "windows");
        if (r->tt_fallback)
            report_detail_text(rep, "timetable", "none found: hand-over ran");
        if (timetabled(r) && r->tt_extended) {
            double k = (double)r->k, dl = r->delta;
            report_detail_int(rep, "theorem3_cycles", (long long)
                                   (steps * ts + (dl * ceil(k / (2 * dl)) + 1) * tau));
            report_cycle_bound(rep, "timetable: Theorem 3 + windows_extended",
                                    BOUND_UPPER, steps * ts + bound * tau,
                                    "Johnsson & Ho, Theorem 3, with the "
                                    "timetable's windows lengthened where "
                                    "a group's check failed (see algorithms/reshape/README.md)");
            return;
        }
        if (!tp_theorem3(r)) {
            /* Theorem 3's figure, which this schedule does not guarantee */
            double k = (double)r->k, dl = r->delta;
            report_detail_int(rep, "theorem3_cycles", (long long)
                                   (steps * ts + (dl * ceil(k / (2 * dl)) + 1) * tau));
            report_cycle_bound(rep, "Theorem 3 without the overlap: delta "
                                    "(Ts + ceil(K/(2 delta)) + 1)",
                                    BOUND_UPPER, steps * ts + bound * tau,
                                    r->schedule == TP_PROOF
                                    ? "Johnsson & Ho, proof of Theorem 3 (the "
                                      "overlap needs the same relays in "
                                      "successive 2-cubes; see algorithms/reshape/README.md)"
                                    : "Johnsson & Ho, proof of Theorem 3 (the "
                                      "hand-over schedule meets Theorem 3 "
                                      "for delta <= 2; see algorithms/reshape/README.md)");
            return;
        }
    }
    report_cycle_bound(rep, bound_name[r->method], BOUND_UPPER,
                            steps * ts + bound * tau, bound_source[r->method]);
}

const Algorithm algorithm_reshape = {
    .name = "reshape",
    .summary = "change the shape of a Gray-coded array, keeping bits in place",
    .source = "Johnsson & Ho 1990, Sections 2-3, Theorems 1-4",
    .needs = TOPOLOGY_DIMENSIONS,
    .methods = reshape_methods,
    .params = reshape_params,
    .prepare = reshape_prepare,
    .release = reshape_release,
    .init = reshape_init,
    .step = reshape_step,
    .expect = reshape_expect,
    .report = reshape_report,
};
