/* transpose.c -- transposing a sqrt(N) x sqrt(N) matrix distributed by
 * blocks of rows (Al Na'mneh, Pan & Yoo 2006): an all-to-all exchange of
 * (sqrt(N)/P) x (sqrt(N)/P) blocks, five ways.
 *
 * Element (r, c) of the matrix has payload r sqrt(N) + c. Processor i
 * starts with rows i b .. i b + b - 1 (b = sqrt(N)/P), that is blocks
 * (i, 0..P-1), and ends with the same rows of the transpose, row-major in
 * memory[0, N/P). Memory after that: S, the P blocks packed one after
 * another (block j = the one for processor j), R, P more blocks, and the
 * pack and unpack buffers of a message. Packing, unpacking, rotations and
 * the transposition of each block are local copies and cost nothing; each
 * block is transposed once, when the final rows are written (Section 2's
 * hierarchical transpose: the blocks move, then each is transposed), but
 * in the butterfly's first phase, as Section 4.1 has it.
 *
 *   mpich      Section 3.1, Fig. 2: every receive and send posted at once,
 *              sends to 0, 1, ..., P-1 in that order;
 *   pairwise   Section 3.3, Fig. 4: P - 1 steps, partner rank XOR step
 *              when P is a power of two, else send to rank + step and
 *              receive from rank - step (mod P) (Fig. 4's labels swapped,
 *              ERRATA);
 *   butterfly  Section 4.1: log2 P phases; in phase k swap the half of the
 *              blocks whose current bit k-1 differs from the rank's with
 *              rank XOR 2^(k-1) (ERRATA); P a power of two;
 *   bruck      Section 3.2 and 5: the index algorithm with radix r: rotate
 *              up by the rank, w = ceil(log_r P) sub-phases of up to r - 1
 *              steps, step z of sub-phase x sending the blocks whose digit
 *              x is z a distance z r^x to the right, and rotate back;
 *   adaptive   Section 5: bruck with the radix of least H(N, P) (model.c).
 */
#include "algorithm.h"
#include "model.h"

#include <math.h>
#include <string.h>

/* Limits that keep N/P and the five regions of memory within reason. */
#define TP_MAX_SIZE (1 << 14)
#define TP_REGIONS 5                  /* final rows, S, R, pack, unpack */
/* Runs of at most this many words are copied without a call to memcpy. */
#define TP_SHORT_RUN 15

typedef struct {
    uint32_t dist;                    /* processors to the right */
    unsigned digit;                   /* x */
    uint32_t value;                   /* z */
    uint32_t span;                    /* radix^x: digit x of a slot is
                                       * slot / span % radix */
} TpRound;

typedef struct {
    TpMethod method;
    uint32_t p, size, b, radix;       /* radix: bruck and adaptive */
    uint64_t block, k;                /* b^2 and N/P = b size */
    unsigned rounds;                  /* communication steps */
    TpRound *plan;                    /* bruck: one per step */
    uint32_t runner_up;               /* adaptive */
    double runner_up_cost;
    gboolean power_of_two;
} TpConfig;

static const AlgorithmMethod tp_methods[] = {
    { "mpich", "MPICH 1.2.4: all receives and sends posted at once (Fig. 2)" },
    { "pairwise", "P - 1 steps, one block to one partner each (Fig. 4)" },
    { "butterfly", "log2 P phases, half the data each (Section 4.1)" },
    { "bruck", "Bruck's index algorithm with radix r (Sections 3.2, 5)" },
    { "adaptive", "bruck with the radix the cost model finds cheapest" },
    { NULL, NULL }
};

static const ParamSpec tp_params[] = {
    { .key = "size", .type = PARAM_INT, .fallback = "64", .min = 1,
      .max = TP_MAX_SIZE, .help = "sqrt(N), the matrix side, a multiple of P" },
    /* At most P, which divides size: TP_MAX_SIZE bounds it (tp_prepare
     * checks against P itself). */
    { .key = "radix", .type = PARAM_INT, .fallback = "2", .min = 2,
      .max = TP_MAX_SIZE, .help = "bruck: the radix r, 2..P" },
    { .key = NULL }
};

enum { TP_FINAL = 0, TP_SEND, TP_RECV, TP_PACK, TP_UNPACK };

static size_t region(const TpConfig *c, int which)
{
    return (size_t)which * (size_t)c->k;
}

/* Element e of memory: elements are w words (one in the emulator's runs;
 * libcubemu's elements of any size), offsets count elements. */
static Word *el(Word *mem, size_t w, size_t e)
{
    return mem + e * w;
}

/* N words from `from` to `to`, places that do not overlap. The local
 * copies are mostly runs of a word or a few (one-element blocks, the single
 * slots of a step's early digits), for which a call to memcpy would cost
 * more than the copy. A short run is copied in pieces of 8, 4, 2 and 1
 * words, as its bits say: memcpy of a constant size compiles to moves,
 * where the compilers would turn a loop of assignments back into a call. */
static inline void copy_words(Word *restrict to, const Word *restrict from,
                              size_t n)
{
    if (n > TP_SHORT_RUN) {
        memcpy(to, from, n * sizeof(Word));
        return;
    }
    if (n & 8) {
        memcpy(to, from, 8 * sizeof(Word));
        to += 8;
        from += 8;
    }
    if (n & 4) {
        memcpy(to, from, 4 * sizeof(Word));
        to += 4;
        from += 4;
    }
    if (n & 2) {
        memcpy(to, from, 2 * sizeof(Word));
        to += 2;
        from += 2;
    }
    if (n & 1)
        *to = *from;
}

/* N elements from element `from` on to element `to` on. */
static void copy_els(Word *mem, size_t w, size_t to, size_t from, size_t n)
{
    copy_words(el(mem, w, to), el(mem, w, from), n * w);
}

static void copy_el(Word *mem, size_t w, size_t to, size_t from)
{
    if (w == 1)
        mem[to] = mem[from];
    else
        copy_words(el(mem, w, to), el(mem, w, from), w);
}

static void copy_block(Word *mem, size_t w, const TpConfig *c, size_t to,
                       size_t from)
{
    copy_els(mem, w, to, from, c->block);
}

/* N elements `stride` apart from element `from` on (a column of a block)
 * to consecutive ones from `to` on (a row). */
static void copy_column(Word *mem, size_t w, size_t to, size_t from,
                        size_t n, size_t stride)
{
    if (w == 1) {
        Word *restrict d = mem + to;
        const Word *restrict s = mem + from;
        for (size_t i = 0; i < n; i++)
            d[i] = s[i * stride];
    } else {
        for (size_t i = 0; i < n; i++)
            copy_words(el(mem, w, to + i), el(mem, w, from + i * stride), w);
    }
}

/* S[j] = block (i, j) as it sits in the rows, row-major b x b: row a of
 * block j is the b elements from (a, j b) on. With b = 1 the one row is S
 * already, its P one-element blocks in order. */
static void pack_rows(Word *mem, size_t w, const TpConfig *c)
{
    size_t send = region(c, TP_SEND);
    if (c->b == 1) {
        copy_els(mem, w, send, 0, c->size);
        return;
    }
    for (uint32_t a = 0; a < c->b; a++)
        for (uint32_t j = 0; j < c->p; j++)
            copy_els(mem, w, send + j * c->block + (size_t)a * c->b,
                     (size_t)a * c->size + (size_t)j * c->b, c->b);
}

/* The final rows from blocks indexed by their source, at `from`: element
 * (l, s b + m) of this processor's rows is element (m, l) of block s, or
 * (l, m) if the block was transposed already (the butterfly's phase 1):
 * the b elements of row l from s b on are column l of block s, or its row
 * l. With b = 1 the one row is the P one-element blocks in order. */
static void unpack_rows(Word *mem, size_t w, const TpConfig *c, size_t from,
                        gboolean transposed)
{
    if (c->b == 1) {
        copy_els(mem, w, 0, from, c->p);
        return;
    }
    for (uint32_t s = 0; s < c->p; s++)
        for (uint32_t l = 0; l < c->b; l++) {
            size_t to = (size_t)l * c->size + (size_t)s * c->b;
            size_t block = from + s * c->block;
            if (transposed)
                copy_els(mem, w, to, block + (size_t)l * c->b, c->b);
            else
                copy_column(mem, w, to, block + l, c->b, c->b);
        }
}

static void unpack_transposed(Word *mem, size_t w, const TpConfig *c,
                              size_t from)
{
    unpack_rows(mem, w, c, from, FALSE);
}

/* Block at `from` transposed into `to` (distinct places): row m of the
 * result is column m of the block. A 1 x 1 block is its own transpose. */
static void transpose_block(Word *mem, size_t w, const TpConfig *c,
                            size_t to, size_t from)
{
    if (c->b == 1) {
        copy_el(mem, w, to, from);
        return;
    }
    for (uint32_t m = 0; m < c->b; m++)
        copy_column(mem, w, to + (size_t)m * c->b, from + m, c->b, c->b);
}

/* The butterfly's first phase transposes in place the blocks that stay,
 * the slots whose bit 0 is the rank's, each through the pack buffer. A
 * 1 x 1 block is its own transpose. */
static void transpose_staying(Word *mem, size_t w, const TpConfig *c,
                              size_t work, uint32_t me)
{
    if (c->b == 1)
        return;
    for (uint32_t s = me & 1; s < c->p; s += 2) {
        copy_block(mem, w, c, region(c, TP_PACK), work + s * c->block);
        transpose_block(mem, w, c, work + s * c->block, region(c, TP_PACK));
    }
}

/* Bruck's phase 1: slot k of the work array at `to` is S[(k + me) % P],
 * the blocks from me on, then those before it. */
static void rotate_up(Word *mem, size_t w, const TpConfig *c, size_t to,
                      size_t from, uint32_t me)
{
    size_t tail = c->p - me;                  /* blocks me .. P - 1 */
    copy_els(mem, w, to, from + me * c->block, tail * c->block);
    copy_els(mem, w, to + tail * c->block, from, (size_t)me * c->block);
}

/* Bruck's phase 3: slot k holds the block from rank me - k, so S[s] at
 * `to` is slot (me - s) mod P of the work array at `from`: slots me down
 * to 0, then P - 1 down to me + 1. */
static void rotate_back(Word *mem, size_t w, const TpConfig *c, size_t to,
                        size_t from, uint32_t me)
{
    if (c->block == 1 && w == 1) {
        Word *restrict d = mem + to;
        const Word *restrict s = mem + from;
        for (uint32_t k = 0; k <= me; k++)
            d[k] = s[me - k];
        for (uint32_t k = me + 1; k < c->p; k++)
            d[k] = s[c->p + me - k];
        return;
    }
    for (uint32_t k = 0; k < c->p; k++)
        copy_block(mem, w, c, to + k * c->block,
                   from + (me + c->p - k) % c->p * c->block);
}

/* Step t's moving slots: those whose digit of weight `span` (in base r)
 * is z, the butterfly's step t's bit t differing from the rank's (r = 2,
 * span = 2^t), bruck's digit x equal to z (span = radix^x; z span < P for
 * every step of tp_prepare's plan). Slot by slot: the butterfly's step t
 * moves the slots with (slot ^ rank) >> t & 1, bruck's those with
 * slot / span % radix == z. */
static void moving_slots(const TpConfig *c, uint32_t me, unsigned t,
                         uint64_t *span, uint64_t *r, uint64_t *z)
{
    if (c->method == TP_BUTTERFLY) {
        *span = (uint64_t)1 << t;
        *r = 2;
        *z = ((me >> t) & 1) ^ 1;
    } else {
        *span = c->plan[t].span;
        *r = c->radix;
        *z = c->plan[t].value;
    }
}

/* Step t's moving slots when they are one run, slots *first on (the run
 * of span slots from z span on is the only one below P: every step of
 * the adaptive choice's radix P, the last step of the butterfly and of
 * bruck), and the step's blocks arrive as they are (not the butterfly's
 * first phase, which scatters transposing, but for 1 x 1 blocks): their
 * count, else 0. Such a step sends the run from the work array itself
 * and receives into it: a send copies its elements when it is posted and
 * a receive writes its own when it completes (node.h), so packing and
 * unpacking the run would only copy it twice more. */
static size_t moving_run(const TpConfig *c, uint32_t me, unsigned t,
                         uint64_t *first)
{
    uint64_t span, r, z;
    moving_slots(c, me, t, &span, &r, &z);
    if (c->method == TP_BUTTERFLY && t == 0 && c->b > 1)
        return 0;
    if (z * span + span * r < c->p)
        return 0;
    *first = z * span;
    return (size_t)MIN(span, c->p - z * span);
}

/* Gather the moving slots of work array `work` in slot order into the pack
 * buffer (pack) or scatter the unpack buffer back into them, a run of
 * consecutive slots at a time, consecutive in the buffer too. They are
 * enumerated in runs of span slots, every span r slots from z span on, so
 * that a step costs its moving slots, not all P: with radix P (the
 * adaptive choice on small messages) a step moves one slot of P, and
 * testing every slot made the run quadratic in P. The butterfly's first
 * phase scatters transposing, block by block (but 1 x 1 blocks, which are
 * their own transposes). */
static size_t gather(Word *mem, size_t w, const TpConfig *c, size_t work,
                     uint32_t me,
                     unsigned t, gboolean pack, gboolean transpose)
{
    uint64_t span, r, z;
    moving_slots(c, me, t, &span, &r, &z);
    size_t buf = pack ? region(c, TP_PACK) : region(c, TP_UNPACK);
    size_t n = 0;
    if (transpose && c->b > 1) {    /* 1 x 1 blocks are their transposes */
        for (uint64_t base = z * span; base < c->p; base += span * r)
            for (uint64_t s = base; s < base + span && s < c->p; s++, n++)
                transpose_block(mem, w, c, work + s * c->block,
                                buf + n * c->block);
        return n;
    }
    /* In words, from slot z span on: runs of span slots, span r apart, the
     * last one cut short at slot P. Runs of one word (single one-element
     * slots) are assigned in a loop of their own. */
    size_t slot_words = (size_t)c->block * w;
    size_t run = (size_t)span * slot_words, gap = run * (size_t)r;
    size_t end = (size_t)c->p * slot_words, done = 0;
    Word *slots = el(mem, w, work), *at = el(mem, w, buf);
    if (run == 1 && pack)
        for (size_t o = z; o < end; o += gap)
            at[done++] = slots[o];
    else if (run == 1)
        for (size_t o = z; o < end; o += gap)
            slots[o] = at[done++];
    else
        for (size_t o = (size_t)z * run; o < end; o += gap) {
            size_t words = MIN(run, end - o);
            if (pack)
                copy_words(at + done, slots + o, words);
            else
                copy_words(slots + o, at + done, words);
            done += words;
        }
    return done / slot_words;
}

static NodeStatus step_mpich(Node *node, const TpConfig *c, uint32_t me,
                             Word *mem, size_t w, unsigned t)
{
    if (t == 1) {
        unpack_transposed(mem, w, c, region(c, TP_RECV));
        return NODE_DONE;
    }
    pack_rows(mem, w, c);
    copy_block(mem, w, c, region(c, TP_RECV) + me * c->block,
               region(c, TP_SEND) + me * c->block);
    node_mark(node, "all-to-all");
    for (uint32_t i = 0; i < c->p; i++) {
        if (i == me)
            continue;
        node_recv(node, i, 0, region(c, TP_RECV) + i * c->block, c->block);
        node_send_to(node, i, region(c, TP_SEND) + i * c->block, c->block, 0);
    }
    return NODE_CONTINUE;
}

static NodeStatus step_pairwise(Node *node, const TpConfig *c, uint32_t me,
                                Word *mem, size_t w, unsigned t)
{
    if (t == 0) {
        pack_rows(mem, w, c);
        copy_block(mem, w, c, region(c, TP_RECV) + me * c->block,
                   region(c, TP_SEND) + me * c->block);
    }
    if (t + 1 == c->p) {
        unpack_transposed(mem, w, c, region(c, TP_RECV));
        return NODE_DONE;
    }
    uint32_t s = t + 1;
    uint32_t to = c->power_of_two ? me ^ s : (me + s) % c->p;
    uint32_t from = c->power_of_two ? me ^ s : (me + c->p - s) % c->p;
    node_mark(node, "step %u", s);
    node_recv(node, from, (int)s, region(c, TP_RECV) + from * c->block,
              c->block);
    node_send_to(node, to, region(c, TP_SEND) + to * c->block, c->block,
                 (int)s);
    return NODE_CONTINUE;
}

/* Butterfly and bruck: a work array of P slots, one message per step. */
static NodeStatus step_slots(Node *node, const TpConfig *c, uint32_t me,
                             Word *mem, size_t w, unsigned t)
{
    gboolean bruck = c->method != TP_BUTTERFLY;
    /* Bruck works on the rotated copy in R, butterfly in S itself. */
    size_t work = region(c, bruck ? TP_RECV : TP_SEND);
    if (t == 0) {
        pack_rows(mem, w, c);
        if (bruck)                      /* phase 1: rotate up by the rank */
            rotate_up(mem, w, c, work, region(c, TP_SEND), me);
    } else {
        /* Section 4.1: every block is transposed in the butterfly's first
         * phase, received column-wise if it moved, in place if not; later
         * phases move blocks as they are. Bruck transposes at the end. */
        gboolean first = !bruck && t == 1;
        uint64_t slot;
        if (!moving_run(c, me, t - 1, &slot))
            gather(mem, w, c, work, me, t - 1, FALSE, first);
        if (first)
            transpose_staying(mem, w, c, work, me);
    }
    if (t == c->rounds) {
        if (bruck)      /* phase 3: rotate back and reverse, so that
                         * S[s] is the block from s */
            rotate_back(mem, w, c, region(c, TP_SEND), work, me);
        unpack_rows(mem, w, c, region(c, TP_SEND), !bruck);
        return NODE_DONE;
    }
    uint32_t to, from;
    if (bruck) {
        to = (me + c->plan[t].dist) % c->p;
        from = (me + c->p - c->plan[t].dist) % c->p;
        node_mark(node, "sub-phase %u step %u", c->plan[t].digit,
                  c->plan[t].value);
    } else {
        to = from = me ^ (1u << t);
        node_mark(node, "phase %u", t + 1);
    }
    uint64_t slot;
    size_t n = moving_run(c, me, t, &slot);
    if (n) {
        size_t at = work + slot * c->block;
        node_recv(node, from, (int)t, at, n * c->block);
        node_send_to(node, to, at, n * c->block, (int)t);
        return NODE_CONTINUE;
    }
    n = gather(mem, w, c, work, me, t, TRUE, FALSE);
    node_recv(node, from, (int)t, region(c, TP_UNPACK), n * c->block);
    node_send_to(node, to, region(c, TP_PACK), n * c->block, (int)t);
    return NODE_CONTINUE;
}

static NodeStatus tp_step(Node *node, const void *config)
{
    const TpConfig *c = config;
    uint32_t me = node_address(node);
    Word *mem = node_memory(node);
    size_t w = node_element_words(node);
    unsigned t = node_step(node);
    if (c->p == 1) {                    /* one processor: local only */
        pack_rows(mem, w, c);
        unpack_transposed(mem, w, c, region(c, TP_SEND));
        return NODE_DONE;
    }
    switch (c->method) {
    case TP_MPICH:
        return step_mpich(node, c, me, mem, w, t);
    case TP_PAIRWISE:
        return step_pairwise(node, c, me, mem, w, t);
    default:
        return step_slots(node, c, me, mem, w, t);
    }
}

static void tp_release(void *config)
{
    TpConfig *c = config;
    if (c)
        g_free(c->plan);
    g_free(c);
}

static void *tp_prepare(const Machine *m, const Params *p,
                        MemoryLayout *layout, GError **error)
{
    g_autofree TpConfig *c = g_new0(TpConfig, 1);
    c->method = (TpMethod)params_method(p);
    c->p = machine_nodes(m);
    c->size = (uint32_t)params_int(p, "size");
    c->power_of_two = !(c->p & (c->p - 1));
    if (c->size % c->p)
        return params_fail(p, error, "size", "%u is not a multiple of the "
                           "%u processors (valid: P, 2P, 3P, ... up to %d)",
                           c->size, c->p, TP_MAX_SIZE);
    c->b = c->size / c->p;
    c->block = (uint64_t)c->b * c->b;
    c->k = (uint64_t)c->b * c->size;
    long long radix = params_int(p, "radix");
    gboolean bruck = c->method == TP_BRUCK;
    if (params_given(p, "radix") && !bruck)
        return params_fail(p, error, "radix", "applies to method bruck%s",
                           c->method == TP_ADAPTIVE
                               ? " (adaptive chooses the radix)" : "");
    if (bruck && (radix < 2 || radix > c->p))
        return params_fail(p, error, "radix", "%lld is outside 2..P "
                           "(valid: 2..%u)", radix, c->p);
    if (c->method == TP_BUTTERFLY && !c->power_of_two)
        return params_fail(p, error, "method", "butterfly needs P a power "
                           "of two, and P = %u is not (valid for any P: "
                           "mpich, pairwise, bruck, adaptive)", c->p);
    const MachinePrice *price = machine_price(m, CLASS_NEIGHBOUR);
    double n = (double)c->size * c->size;
    if (bruck)
        c->radix = (uint32_t)radix;
    else if (c->method == TP_ADAPTIVE && c->p >= 2)
        c->radix = tp_adaptive_radix(n, c->p, (double)price->startup,
                                     (double)price->element_time,
                                     &c->runner_up, &c->runner_up_cost);
    switch (c->method) {
    case TP_MPICH:
        c->rounds = 1;
        break;
    case TP_PAIRWISE:
        c->rounds = c->p - 1;
        break;
    case TP_BUTTERFLY:
        c->rounds = (unsigned)__builtin_ctz(c->p);
        break;
    default: {
        /* The index algorithm's phase 2, step by step. */
        GArray *plan = g_array_new(FALSE, FALSE, sizeof(TpRound));
        uint64_t span = 1;
        for (unsigned x = 0; span < c->p; x++, span *= c->radix)
            for (uint32_t z = 1; z < c->radix && z * span < c->p; z++) {
                TpRound round = { (uint32_t)(z * span), x, z, (uint32_t)span };
                g_array_append_val(plan, round);
            }
        c->rounds = plan->len;
        c->plan = (TpRound *)(void *)g_array_free(plan, FALSE);
        break;
    }
    }
    layout->memory_elements = (size_t)c->k * TP_REGIONS;
    layout->elements_per_node = (size_t)c->k;
    layout->local_size = 0;
    layout->element = ELEMENT_WORD;
    return g_steal_pointer(&c);
}

static void tp_init(const void *config, uint32_t i, Word *memory)
{
    const TpConfig *c = config;
    memset(memory, 0, (size_t)c->k * TP_REGIONS * sizeof(Word));
    for (uint32_t a = 0; a < c->b; a++)
        for (uint32_t col = 0; col < c->size; col++)
            memory[(size_t)a * c->size + col] =
                (uint64_t)(i * c->b + a) * c->size + col;
}

/* Row i b + l of the transpose is column i b + l of the matrix: its
 * element s is M(s, i b + l), payload s sqrt(N) + i b + l. */
static void tp_expect(const void *config, uint32_t i, Word *expected)
{
    const TpConfig *c = config;
    for (uint32_t l = 0; l < c->b; l++)
        for (uint32_t s = 0; s < c->size; s++)
            expected[(size_t)l * c->size + s] =
                (uint64_t)s * c->size + (uint64_t)i * c->b + l;
}

static void tp_report(const void *config, Report *r)
{
    const TpConfig *c = config;
    const Machine *m = &r->machine;
    const MachinePrice *price = machine_price(m, CLASS_NEIGHBOUR);
    double ts = (double)price->startup, tw = (double)price->element_time;
    double n = (double)c->size * c->size;
    TpMethod shape_of = c->method == TP_ADAPTIVE ? TP_BRUCK : c->method;
    TpShape s = tp_shape(shape_of, c->p, c->radix);
    double model = c->p > 1 ? tp_model(shape_of, n, c->p, c->radix, ts, tw)
                            : 0;
    /* Exact on the complete graph with one port whose startup holds it:
     * every step is one message out and one in per processor, the same
     * size everywhere, so steps follow one another in lock-step. mpich
     * posts P - 1 messages at once; the sending port still pays each in
     * turn, so eq. 1 bounds it from below. */
    gboolean smp = topology_has(&m->topology, TOPOLOGY_DIRECT)
                   && machine_port_limit(m) == 1 && m->startup_holds_port;
    static const char *const equation[] = {
        "eq. 1: (Ts + N/P^2 Tw)(P - 1)", "eq. 1: (Ts + N/P^2 Tw)(P - 1)",
        "eq. 2: (Ts + N/(2P) Tw) log2 P",
        "eqs. 6-16 corrected: sum over steps of Ts + blocks N/P^2 Tw",
        "eqs. 6-16 corrected: sum over steps of Ts + blocks N/P^2 Tw" };
    if (smp && c->p > 1)
        report_cycle_bound(r, "H(N, P)",
                           c->method == TP_MPICH ? BOUND_LOWER : BOUND_EXACT,
                           model, equation[c->method]);
    /* On every topology: the processors of one half of a balanced cut
     * (TopologyOps.bisection, B channels each way) send (P/2)^2 blocks to
     * the other half, N/4 elements that cross it, so one of its channels
     * carries at least ceil(N/(4B)) of them, none before a startup ends. */
    uint64_t cut = m->topology.ops->bisection(&m->topology);
    if (cut && c->p > 1) {
        double ts = INFINITY, tw = INFINITY;
        for (MessageClass k = 0; k < CLASS_COUNT; k++)
            if (topology_has_class(m->topology.ops, k)) {
                ts = MIN(ts, (double)machine_price(m, k)->startup);
                tw = MIN(tw, (double)machine_price(m, k)->element_time);
            }
        uint64_t cross = (uint64_t)(c->p / 2) * (c->p / 2) * c->block;
        report_cycle_bound(r, "bisection: Ts + ceil(N/(4B)) Tw", BOUND_LOWER,
                           ts + (double)((cross + cut - 1) / cut) * tw,
                           "a balanced cut of B channels each way: (P/2)^2 "
                           "blocks of N/P^2 elements cross it each way");
        report_detail_int(r, "bisection_channels", (long long)cut);
    }
    report_detail_int(r, "steps", c->p > 1 ? s.steps : 0);
    report_detail_int(r, "max_message_elements",
                      (long long)(s.max_message_blocks * c->block));
    report_detail_int(r, "buffer_elements",
                      (long long)(s.buffer_blocks * c->block));
    report_detail_int(r, "model_cycles", (long long)model);
    if (c->method == TP_BRUCK || c->method == TP_ADAPTIVE)
        report_detail_int(r, "radix", c->radix);
    if (c->method == TP_ADAPTIVE) {
        report_detail_int(r, "runner_up_radix", c->runner_up);
        report_detail_int(r, "runner_up_cycles", (long long)c->runner_up_cost);
    }
    if (c->method == TP_MPICH && topology_has(&m->topology, TOPOLOGY_DIRECT)
        && r->link_busy) {
        /* On the complete graph link l of every node leads to node l, so
         * link l's busy ticks are what node l's receiving port took in:
         * the busiest of them against the run (Section 3.1's single-node
         * bottleneck). */
        uint64_t busiest = 0;
        for (uint32_t l = 0; l < c->p; l++)
            busiest = MAX(busiest, r->link_busy[l]);
        report_detail_int(r, "receive_port_cycles", (long long)busiest);
        report_detail_double(r, "receive_port_share",
                             r->cycles ? (double)busiest / (double)r->cycles
                                       : 0);
    }
}

const Algorithm algorithm_transpose = {
    .name = "transpose",
    .summary = "matrix transpose by all-to-all exchange of blocks",
    .source = "Al Na'mneh, Pan & Yoo 2006 (Informatica 17(4)), Sections 3-5",
    .methods = tp_methods,
    .params = tp_params,
    .prepare = tp_prepare,
    .release = tp_release,
    .init = tp_init,
    .step = tp_step,
    .expect = tp_expect,
    .report = tp_report,
};
