/* bmmc.h -- BMMC permutations y = A x XOR c on N = 2^n elements over
 * P = 2^p processors, performed by the two-phase method of Cormen 1997
 * (the algorithm of libbmmc_mpi).
 *
 * A characteristic matrix is passed as in libbmmc_mpi's bit_matrix: an array
 * of n column words, column j's row i in bit i (Section 2, "Representation").
 * A complement vector or an index is one word, bit i = bit i of the index.
 *
 * The factor info is the opaque BmmcPlan (libbmmc_mpi's
 * BMMC_MPI_factor_info, Section 7): bmmc_plan_new factors A once
 * (Sections 4 and 6), and the plan then drives any number of runs on any
 * data. Functions that can fail on caller input return 0 or a negative
 * BmmcError; bmmc_strerror gives the message.
 *
 * Processor and offset. Under layout f (Section 6, Figure 1) element index x
 * lives on processor x_{f..f+p-1} at the offset made of the low f bits of x
 * followed by its bits f+p..n-1. Each processor's local array holds its
 * N/P elements by offset. The plan numbers processors and offsets this way;
 * internally it works in processor-major terms (location = Q x) on
 * Q A Q^-1 and Q c.
 *
 * The node program's use of a plan, for processor k:
 *     bmmc_plan_intraprocessor(plan, k, data, temp);            phase 1 (W)
 *     for b in 0 .. bmmc_plan_rounds(plan) - 1:                   phase 2 (V)
 *         exchange bmmc_plan_elements_per_message(plan) words at
 *         temp + bmmc_plan_message_offset(plan, b): send them to
 *         bmmc_plan_target_proc(plan, k, b), and overwrite them with the
 *         ones from bmmc_plan_source_proc(plan, k, b);
 *         bmmc_plan_place_received(plan, k, b, temp, data);
 * after which data holds processor k's share of the permuted array.
 */
#ifndef BMMC_H
#define BMMC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gf2.h"

/* An index is one word (Section 2 assumes the word has at least n bits). */
#define BMMC_MAX_N GF2_MAX_DIM
/* bmmc_plan_perform_local holds every processor's data and temp arrays
 * (two copies of all 2^n words, plus inboxes of up to one more) besides the
 * caller's src and dst: at 2^24 words a copy is 128 MiB, as much as a test
 * run should ask of one address space. */
#define BMMC_LOCAL_MAX_N 24

typedef enum BmmcError {
    BMMC_EINVAL = -1,      /* NULL where an array or result is required */
    BMMC_EN = -2,          /* n outside 0..BMMC_MAX_N */
    BMMC_EP = -3,          /* p outside 0..n */
    BMMC_ELAYOUT = -4,     /* f outside 0..n-p */
    BMMC_EMATRIX = -5,     /* a column of A has a 1 in a row >= n */
    BMMC_ECOMPLEMENT = -6, /* c has a 1 at a position >= n */
    BMMC_ESINGULAR = -7,   /* A is singular over GF(2) */
    BMMC_ENOMEM = -8,
    BMMC_ELOCAL = -9,      /* n > BMMC_LOCAL_MAX_N for perform_local */
    BMMC_EINTERNAL = -10   /* perform_local caught the rounds disagreeing */
} BmmcError;

/* Message for a return code; never NULL. */
const char *bmmc_strerror(int code);

/* ---- BMMC permutations as (A, c) pairs ---- */

/* Reference placement: A x XOR c computed directly (Section 2's loop),
 * independent of any factorisation. */
uint64_t bmmc_target_index(int n, const uint64_t *A, uint64_t c, uint64_t x);

/* Lemma 1, composition: performing (A1, c1) then (A2, c2) is the BMMC
 * permutation A2 A1, A2 c1 XOR c2. Outputs may alias inputs.
 * Returns 0, BMMC_EN or BMMC_EINVAL. */
int bmmc_compose(int n, const uint64_t *A1, uint64_t c1,
                 const uint64_t *A2, uint64_t c2,
                 uint64_t *A_out, uint64_t *c_out);
/* Lemma 1, inverse: A^-1, A^-1 c. Returns 0, BMMC_EN, BMMC_EINVAL or
 * BMMC_ESINGULAR. Outputs may alias inputs. */
int bmmc_inverse(int n, const uint64_t *A, uint64_t c,
                 uint64_t *A_out, uint64_t *c_out);

/* ---- Data layouts (Section 6) ---- */

/* Q, the n x n matrix taking an element's index under layout f to its
 * processor-major location (processor in the top p bits). The paper's text
 * calls Q the conversion "from processor-major to the actual layout"; as a
 * map of indices it goes from actual index to location, which is what makes
 * Q A Q^-1, Q c the permutation on locations. Returns 0, BMMC_EN, BMMC_EP or
 * BMMC_ELAYOUT. */
int bmmc_layout_matrix(int n, int p, int f, Gf2Matrix *Q);

/* Shifts that give 0 rather than undefined behaviour at 64. */
static inline uint64_t bmmc_shl(uint64_t x, int s)
{
    return s >= 64 ? 0 : x << s;
}

static inline uint64_t bmmc_shr(uint64_t x, int s)
{
    return s >= 64 ? 0 : x >> s;
}

/* Where element x lives under layout f (Figure 1); arguments must be valid
 * (0 <= p <= n <= BMMC_MAX_N, 0 <= f <= n - p). This and its inverse are
 * inline because node programs locate every element with them. */
static inline void bmmc_layout_locate(int n, int p, int f, uint64_t x,
                                      uint64_t *proc, uint64_t *offset)
{
    assert(n <= BMMC_MAX_N && p >= 0 && p <= n && f >= 0 && f <= n - p);
    (void)n;
    *proc = bmmc_shr(x, f) & gf2_mask(p);
    *offset = (x & gf2_mask(f)) | bmmc_shl(bmmc_shr(x, f + p), f);
}

/* Inverse of bmmc_layout_locate. */
static inline uint64_t bmmc_layout_index(int n, int p, int f, uint64_t proc,
                                         uint64_t offset)
{
    assert(n <= BMMC_MAX_N && p >= 0 && p <= n && f >= 0 && f <= n - p);
    (void)n;
    return (offset & gf2_mask(f)) | bmmc_shl(proc & gf2_mask(p), f)
           | bmmc_shl(bmmc_shr(offset, f), f + p);
}

/* ---- Gray-code order (Appendix B) ---- */

/* Position of the rightmost 1 of q > 0, by the nibble table of Appendix B. */
int bmmc_gray_flip_bit(uint64_t q);

/* Walks the 2^bits offsets in binary reflected Gray-code order: step s
 * visits offset s XOR (s >> 1), which differs from the previous offset in
 * bit `flip` = the rightmost 1 of s (flip = -1 at step 0). Both phases of
 * the plan copy elements in exactly this order. */
typedef struct BmmcGray {
    uint64_t offset;
    uint64_t step;
    uint64_t last;   /* 2^bits - 1 */
    int flip;
} BmmcGray;

void bmmc_gray_first(BmmcGray *g, int bits);
/* Advance to the next offset; false (g unchanged) after the last one. */
bool bmmc_gray_next(BmmcGray *g);

/* ---- The plan (factor info) ---- */

typedef struct BmmcPlan BmmcPlan;

/* Matrices a plan exposes. All are n x n except GAMMA (p x (n-p)). */
typedef enum BmmcMatrixId {
    BMMC_MATRIX_A,        /* the characteristic matrix as given */
    BMMC_MATRIX_Q,        /* Section 6 layout conversion for f */
    BMMC_MATRIX_ADJUSTED, /* Q A Q^-1: the matrix actually factored */
    BMMC_MATRIX_GAMMA,    /* lower-left p x (n-p) submatrix of ADJUSTED */
    BMMC_MATRIX_T,        /* trailer (Sections 3, 4) */
    BMMC_MATRIX_R,        /* reducer */
    BMMC_MATRIX_PI,       /* swapper */
    BMMC_MATRIX_V,        /* A T R Pi, of form (3) */
    BMMC_MATRIX_W         /* (T R Pi)^-1; ADJUSTED = V W */
} BmmcMatrixId;

/* Factor the permutation A x XOR c on 2^n elements, 2^p processors, layout
 * f (f = n-p processor-major, f = 0 processor-minor). On success *plan is a
 * new plan owned by the caller (free with bmmc_plan_free) and 0 is
 * returned; otherwise *plan is NULL and the code says why. */
int bmmc_plan_new(int n, int p, const uint64_t *A, uint64_t c, int f,
                  BmmcPlan **plan);
void bmmc_plan_free(BmmcPlan *plan);

int bmmc_plan_n(const BmmcPlan *plan);
int bmmc_plan_p(const BmmcPlan *plan);
int bmmc_plan_layout_f(const BmmcPlan *plan);
const Gf2Matrix *bmmc_plan_matrix(const BmmcPlan *plan, BmmcMatrixId id);
uint64_t bmmc_plan_complement(const BmmcPlan *plan);  /* Q c */
int bmmc_plan_rank_gamma(const BmmcPlan *plan);
uint64_t bmmc_plan_rounds(const BmmcPlan *plan);      /* 2^rank gamma */
/* N/P, and N/(2^rank gamma P) (Lemma 3); 0 if the count is 2^64 (only for
 * n = 64 with p = 0). */
uint64_t bmmc_plan_local_elements(const BmmcPlan *plan);
uint64_t bmmc_plan_elements_per_message(const BmmcPlan *plan);
/* Offset in temp of the message of round b: b N/(2^rank gamma P). */
uint64_t bmmc_plan_message_offset(const BmmcPlan *plan, uint64_t round);
/* Section 5, pseudocode lines 3 and 4: the processor that processor `proc`
 * sends to, and the one it receives from, in round `round`. Preconditions:
 * proc < 2^p, round < bmmc_plan_rounds(plan). */
uint64_t bmmc_plan_target_proc(const BmmcPlan *plan, uint64_t proc, uint64_t round);
uint64_t bmmc_plan_source_proc(const BmmcPlan *plan, uint64_t proc, uint64_t round);

/* Phase 1 on one processor (Section 5, "Performing the intraprocessor
 * permutation", in Gray-code order): temp[W' x ^ W'' proc] = data[x] for
 * every offset x. proc < 2^p; data and temp hold N/P words and must not
 * overlap. O(1) word operations per element. */
void bmmc_plan_intraprocessor(const BmmcPlan *plan, uint64_t proc,
                              const uint64_t *data, uint64_t *temp);
/* Phase 2 placement on one processor after round `round`'s exchange
 * (Section 5 pseudocode lines 6-8, in Gray-code order): the elements
 * received from bmmc_plan_source_proc(plan, proc, round), found at
 * temp + bmmc_plan_message_offset(plan, round), are copied to their final
 * offsets in data. proc < 2^p, round < bmmc_plan_rounds(plan); data and
 * temp hold N/P words and must not overlap. */
void bmmc_plan_place_received(const BmmcPlan *plan, uint64_t proc, uint64_t round,
                              const uint64_t *temp, uint64_t *data);

/* The same two for elements of w words each (data, temp and the offsets
 * count elements; element e occupies words e w .. e w + w - 1). */
void bmmc_plan_intraprocessor_w(const BmmcPlan *plan, uint64_t proc,
                                const uint64_t *data, uint64_t *temp, size_t w);
void bmmc_plan_place_received_w(const BmmcPlan *plan, uint64_t proc,
                                uint64_t round, const uint64_t *temp,
                                uint64_t *data, size_t w);

/* Perform the plan's permutation on src, the 2^n elements indexed by
 * element index, into dst (dst[A x ^ c] = src[x]; dst may be src), the way
 * the distributed program does it: distribute src to 2^p local arrays by
 * the layout, phase 1 on each, 2^rank gamma rounds in which every processor
 * sends one message of N/(2^rank gamma P) elements to its target and takes
 * one from its source, placement after each round, then gather. Returns 0,
 * BMMC_ELOCAL, BMMC_ENOMEM, BMMC_EINVAL, or BMMC_EINTERNAL if two
 * processors target one processor in a round or a message arrives from
 * another processor than line 4 names. */
int bmmc_plan_perform_local(const BmmcPlan *plan, const uint64_t *src, uint64_t *dst);

/* Called once per message, in send order. */
typedef void (*BmmcMessageFn)(void *user, uint64_t round, uint64_t from,
                              uint64_t to, uint64_t count);
/* bmmc_plan_perform_local, reporting every message to on_message. */
int bmmc_plan_perform_local_traced(const BmmcPlan *plan, const uint64_t *src,
                                   uint64_t *dst, BmmcMessageFn on_message,
                                   void *user);

/* One call: plan, perform_local, free (libbmmc_mpi's BMMC_MPI()). */
int bmmc_permute(int n, int p, const uint64_t *A, uint64_t c, int f,
                 const uint64_t *src, uint64_t *dst);

#endif
