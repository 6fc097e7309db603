/* gf2.h -- bit matrices over GF(2) with at most 64 rows and 64 columns.
 *
 * Representation (Cormen 1997, Section 2, "Representation"): a matrix is an
 * array of columns, each column packed into one 64-bit word with row 0 (the
 * top row, the least significant index bit) as the least significant bit of
 * the word. Column j of A is A.col[j]; entry a_ij is bit i of A.col[j].
 * Arithmetic is modulo 2: multiplication is AND, addition is XOR.
 *
 * Invariant of every Gf2Matrix produced by this module:
 *   0 <= rows <= GF2_MAX_DIM, 0 <= cols <= GF2_MAX_DIM,
 *   bits at or above `rows` in every column are 0,
 *   col[j] == 0 for every j >= cols.
 * so two matrices are equal exactly when their sizes and words are equal.
 *
 * The type is transparent on purpose: a matrix is a small value (the paper's
 * n + 1 words), the bmmc module and the node program read columns directly,
 * and there is nothing to allocate or free. Programming errors (sizes that do
 * not match) are caught by assert(); nothing here fails on valid input.
 *
 * Plain C11, standard library only, no global state: randomness comes from a
 * caller-owned Gf2Rng.
 */
#ifndef GF2_H
#define GF2_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

/* One column is one uint64_t word, so a matrix has at most 64 rows; the
 * matrices of a BMMC permutation on N = 2^n elements are n x n, and an index
 * of a permutation we can store is at most 64 bits, so at most 64 columns. */
#define GF2_MAX_DIM 64

typedef struct Gf2Matrix {
    int rows;
    int cols;
    uint64_t col[GF2_MAX_DIM];
} Gf2Matrix;

/* splitmix64 state: a small deterministic generator owned by the caller. */
typedef struct Gf2Rng {
    uint64_t state;
} Gf2Rng;

/* The word with bits 0 .. bits-1 set (bits in 0..64). Inline: the layout
 * and Gray-code helpers call it for every element. */
static inline uint64_t gf2_mask(int bits)
{
    assert(bits >= 0 && bits <= GF2_MAX_DIM);
    /* A shift by 64 is undefined in C, hence the special case. */
    return bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
}
/* Position of the least significant 1 of a nonzero word (Appendix A,
 * line 7: "the minimum row number such that a_ij = 1"); -1 for 0. */
int gf2_lowest_bit(uint64_t w);
/* Number of 1 bits. */
int gf2_popcount(uint64_t w);

void gf2_zero(Gf2Matrix *m, int rows, int cols);
void gf2_identity(Gf2Matrix *m, int n);
void gf2_copy(Gf2Matrix *dst, const Gf2Matrix *src);
bool gf2_equal(const Gf2Matrix *a, const Gf2Matrix *b);
int gf2_get(const Gf2Matrix *m, int i, int j);
void gf2_set(Gf2Matrix *m, int i, int j, int value);

/* out = a * b; a->cols must equal b->rows. out may alias a or b. */
void gf2_mul(Gf2Matrix *out, const Gf2Matrix *a, const Gf2Matrix *b);
/* a x, x a word of a->cols bits: the XOR of the columns A_j with x_j = 1,
 * as in the O(n) loop of Section 2. Bits of x at or above a->cols are
 * ignored. */
uint64_t gf2_mul_vec(const Gf2Matrix *a, uint64_t x);

/* a x for one matrix and many x: the same product as gf2_mul_vec, one
 * lookup per byte of x instead of one step per bit.
 *
 * Why it is right: x -> a x is linear over GF(2), so splitting x into its
 * bytes, x = XOR over b of (x_b << 8b), gives a x = XOR over b of
 * a (x_b << 8b), and a (v << 8b) for a byte v is the XOR of the columns
 * A_{8b+i} with bit i of v set. byte[b][v] holds that word for all 256 v
 * of each byte b that holds a column index (b < ceil(cols / 8)); entries
 * that name columns at or above cols take them as 0, which they are (the
 * Gf2Matrix invariant). The product first clears the bits of x at or above
 * cols (mask), as gf2_mul_vec ignores them, so it reads only rows that
 * were written, and it stops at the last nonzero byte, as the rest add 0.
 *
 * A table is a value (16 KiB), built once per matrix by gf2_table_init and
 * never changed; nothing to free. */
#define GF2_TABLE_BYTES (GF2_MAX_DIM / 8)

typedef struct Gf2Table {
    uint64_t mask;   /* gf2_mask(cols) */
    uint64_t byte[GF2_TABLE_BYTES][256];
} Gf2Table;

void gf2_table_init(Gf2Table *t, const Gf2Matrix *a);

/* Inline: callers apply it to every element or every round. */
static inline uint64_t gf2_table_mul_vec(const Gf2Table *t, uint64_t x)
{
    uint64_t y = 0;
    x &= t->mask;
    for (const uint64_t *row = t->byte[0]; x != 0; x >>= 8, row += 256)
        y ^= row[x & 0xff];
    return y;
}
/* out = a^T. out may alias a. */
void gf2_transpose(Gf2Matrix *out, const Gf2Matrix *a);
int gf2_rank(const Gf2Matrix *a);
bool gf2_is_nonsingular(const Gf2Matrix *a);
/* out = a^-1 and true if a is square and nonsingular; false (out untouched)
 * otherwise. out may alias a. */
bool gf2_inverse(Gf2Matrix *out, const Gf2Matrix *a);

/* Column basis and column dependencies by the method of Appendix A, which
 * scans columns from right to left and so prefers rightmost columns.
 * Returns rank a. *basis gets bit j set iff column j is in the basis S.
 * deps (may be NULL) becomes the a->cols x a->cols matrix D with d_ij = 1
 * iff i != j and the non-basis column A_j includes basis column A_i in its
 * combination, so A_j = XOR of A_i over the 1s of D_j; D_j = 0 for basis
 * columns. (The appendix prints "d_ij = 0 if ... A_j depends on A_i"; its
 * own pseudocode, line 12, sets those entries to 1.) */
int gf2_column_basis(const Gf2Matrix *a, uint64_t *basis, Gf2Matrix *deps);

/* out = rows row_lo..row_hi and columns col_lo..col_hi of a, both ranges
 * inclusive as in the paper's x_{n-p..n-1}; hi == lo - 1 gives an empty
 * range (so the p x 0 block gamma'' when rank gamma = 0 is expressible). */
void gf2_submatrix(Gf2Matrix *out, const Gf2Matrix *a,
                   int row_lo, int row_hi, int col_lo, int col_hi);

void gf2_rng_init(Gf2Rng *rng, uint64_t seed);
uint64_t gf2_rng_next(Gf2Rng *rng);
/* Uniformly random word below 2^bits. */
uint64_t gf2_rng_bits(Gf2Rng *rng, int bits);
/* Uniformly random rows x cols matrix. */
void gf2_random(Gf2Matrix *out, int rows, int cols, Gf2Rng *rng);
/* Uniformly random nonsingular n x n matrix (rejection: a random GF(2)
 * matrix is nonsingular with probability above 0.288, so few tries). */
void gf2_random_nonsingular(Gf2Matrix *out, int n, Gf2Rng *rng);

#endif
