/* gf2.c -- bit matrices over GF(2), one column per word.
 *
 * Invariant (see gf2.h): rows, cols in 0..64; no bit at or above `rows` in
 * any column; columns at or above `cols` are 0. Every function here keeps it,
 * which is why gf2_equal may compare words and gf2_mul_vec may XOR whole
 * columns. Column operations (XOR one column into another, swap two) are one
 * word operation each, so elimination works on columns, not rows.
 */
#include "gf2.h"

#include "bits.h"
#include <assert.h>
#include <string.h>

int gf2_lowest_bit(uint64_t w)
{
    if (w == 0)
        return -1;
    int i = 0;
    while ((w & 0xff) == 0) {
        w >>= 8;
        i += 8;
    }
    while ((w & 1) == 0) {
        w >>= 1;
        i++;
    }
    return i;
}

int gf2_popcount(uint64_t w)
{
    int count = 0;
    while (w != 0) {
        w &= w - 1;
        count++;
    }
    return count;
}

void gf2_zero(Gf2Matrix *m, int rows, int cols)
{
    assert(rows >= 0 && rows <= GF2_MAX_DIM && cols >= 0 && cols <= GF2_MAX_DIM);
    memset(m, 0, sizeof *m);
    m->rows = rows;
    m->cols = cols;
}

void gf2_identity(Gf2Matrix *m, int n)
{
    gf2_zero(m, n, n);
    for (int j = 0; j < n; j++)
        m->col[j] = UINT64_C(1) << j;
}

void gf2_copy(Gf2Matrix *dst, const Gf2Matrix *src)
{
    *dst = *src;
}

bool gf2_equal(const Gf2Matrix *a, const Gf2Matrix *b)
{
    if (a->rows != b->rows || a->cols != b->cols)
        return false;
    for (int j = 0; j < a->cols; j++)
        if (a->col[j] != b->col[j])
            return false;
    return true;
}

int gf2_get(const Gf2Matrix *m, int i, int j)
{
    assert(i >= 0 && i < m->rows && j >= 0 && j < m->cols);
    return (int)((m->col[j] >> i) & 1);
}

void gf2_set(Gf2Matrix *m, int i, int j, int value)
{
    assert(i >= 0 && i < m->rows && j >= 0 && j < m->cols);
    uint64_t bit = UINT64_C(1) << i;
    if (value)
        m->col[j] |= bit;
    else
        m->col[j] &= ~bit;
}

uint64_t gf2_mul_vec(const Gf2Matrix *a, uint64_t x)
{
    /* Section 2: y <- 0; for each j with x_j = 1, y <- y XOR A_j, visiting
     * only the 1s of x (lowest first; XOR commutes, so the order does not
     * matter). */
    uint64_t y = 0;
    for (x &= gf2_mask(a->cols); x != 0; x &= x - 1)
        y ^= a->col[__builtin_ctzll(x)];
    return y;
}

void gf2_table_init(Gf2Table *t, const Gf2Matrix *a)
{
    t->mask = gf2_mask(a->cols);
    for (int b = 0; 8 * b < a->cols; b++) {
        uint64_t *row = t->byte[b];
        const uint64_t *col = a->col + 8 * b;
        /* v and v & (v - 1) differ only in v's lowest 1, bit i, so by
         * linearity a (v << 8b) = a ((v & (v - 1)) << 8b) XOR A_{8b+i},
         * and the smaller index is already filled. 8b + i <= 63, and a
         * column at or above cols is 0. */
        row[0] = 0;
        for (unsigned v = 1; v < 256; v++)
            row[v] = row[v & (v - 1)] ^ col[__builtin_ctz(v)];
    }
}

void gf2_mul(Gf2Matrix *out, const Gf2Matrix *a, const Gf2Matrix *b)
{
    assert(a->cols == b->rows);
    Gf2Matrix r;
    gf2_zero(&r, a->rows, b->cols);
    /* Column j of A B is A times column j of B. */
    for (int j = 0; j < b->cols; j++)
        r.col[j] = gf2_mul_vec(a, b->col[j]);
    *out = r;
}

void gf2_transpose(Gf2Matrix *out, const Gf2Matrix *a)
{
    Gf2Matrix t;
    gf2_zero(&t, a->cols, a->rows);
    for (int j = 0; j < a->cols; j++)
        for (int i = 0; i < a->rows; i++)
            if ((a->col[j] >> i) & 1)
                t.col[i] |= UINT64_C(1) << j;
    *out = t;
}

int gf2_rank(const Gf2Matrix *a)
{
    /* pivot[b] is a reduced column whose lowest 1 is in row b; reducing a
     * column by it clears row b and touches only rows above b. */
    uint64_t pivot[GF2_MAX_DIM] = {0};
    int rank = 0;
    for (int j = 0; j < a->cols; j++) {
        uint64_t v = a->col[j];
        while (v != 0) {
            int b = gf2_lowest_bit(v);
            if (pivot[b] == 0) {
                pivot[b] = v;
                rank++;
                break;
            }
            v ^= pivot[b];
        }
    }
    return rank;
}

bool gf2_is_nonsingular(const Gf2Matrix *a)
{
    return a->rows == a->cols && gf2_rank(a) == a->rows;
}

bool gf2_inverse(Gf2Matrix *out, const Gf2Matrix *a)
{
    if (a->rows != a->cols)
        return false;
    int n = a->rows;
    /* Gauss-Jordan by column operations: each operation right-multiplies
     * both w and e by the same elementary matrix, keeping w = a e. When w
     * reaches I, e = a^-1. */
    Gf2Matrix w = *a;
    Gf2Matrix e;
    gf2_identity(&e, n);
    for (int i = 0; i < n; i++) {
        uint64_t bit = UINT64_C(1) << i;
        int j = i;
        while (j < n && (w.col[j] & bit) == 0)
            j++;
        if (j == n)
            return false;
        if (j != i) {
            uint64_t t = w.col[i]; w.col[i] = w.col[j]; w.col[j] = t;
            t = e.col[i]; e.col[i] = e.col[j]; e.col[j] = t;
        }
        for (int k = 0; k < n; k++) {
            if (k != i && (w.col[k] & bit) != 0) {
                w.col[k] ^= w.col[i];
                e.col[k] ^= e.col[i];
            }
        }
    }
    *out = e;
    return true;
}

int gf2_column_basis(const Gf2Matrix *a, uint64_t *basis, Gf2Matrix *deps)
{
    /* Appendix A, lines 1-13, on a copy of a (the method destroys it). */
    Gf2Matrix w = *a;
    Gf2Matrix d;
    gf2_zero(&d, a->cols, a->cols);
    uint64_t s = 0;
    int rank = 0;
    for (int j = a->cols - 1; j >= 0; j--) {
        if (w.col[j] == 0)
            continue;
        s |= UINT64_C(1) << j;
        rank++;
        uint64_t row = UINT64_C(1) << gf2_lowest_bit(w.col[j]);
        for (int k = 0; k < j; k++) {
            if (w.col[k] & row) {
                w.col[k] ^= w.col[j];
                d.col[k] ^= d.col[j];
                d.col[k] ^= UINT64_C(1) << j;
            }
        }
        d.col[j] = 0;
    }
    *basis = s;
    if (deps != NULL)
        *deps = d;
    return rank;
}

void gf2_submatrix(Gf2Matrix *out, const Gf2Matrix *a,
                   int row_lo, int row_hi, int col_lo, int col_hi)
{
    assert(row_lo >= 0 && row_hi >= row_lo - 1 && row_hi < a->rows);
    assert(col_lo >= 0 && col_hi >= col_lo - 1 && col_hi < a->cols);
    int rows = row_hi - row_lo + 1;
    int cols = col_hi - col_lo + 1;
    Gf2Matrix r;
    gf2_zero(&r, rows, cols);
    if (rows > 0)
        for (int j = 0; j < cols; j++)
            r.col[j] = (a->col[col_lo + j] >> row_lo) & gf2_mask(rows);
    *out = r;
}

void gf2_rng_init(Gf2Rng *rng, uint64_t seed)
{
    rng->state = seed;
}

uint64_t gf2_rng_next(Gf2Rng *rng)
{
    return bits_splitmix64_next(&rng->state);
}

uint64_t gf2_rng_bits(Gf2Rng *rng, int bits)
{
    return gf2_rng_next(rng) & gf2_mask(bits);
}

void gf2_random(Gf2Matrix *out, int rows, int cols, Gf2Rng *rng)
{
    gf2_zero(out, rows, cols);
    for (int j = 0; j < cols; j++)
        out->col[j] = gf2_rng_bits(rng, rows);
}

void gf2_random_nonsingular(Gf2Matrix *out, int n, Gf2Rng *rng)
{
    do
        gf2_random(out, n, n, rng);
    while (!gf2_is_nonsingular(out));
}
