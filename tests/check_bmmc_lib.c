/* check_bmmc_lib.c -- tests of the GF(2) / BMMC library (algorithms/bmmc)
 * against Cormen 1997, "Performing BMMC permutations efficiently on
 * distributed-memory multiprocessors with MPI".
 *
 * Ground truth is always computed independently of the code under test:
 * entries by definition (sum of a_ij x_j), placements by
 * bmmc_target_index (A x XOR c, Section 2), layouts by Figure 1, named
 * permutations by their definitions in Appendix C. Loops compare into a
 * CkTally (check_main.h) and assert once, since every passing ck_assert
 * costs a message to the parent process (and a sanitizer-intercepted
 * write). What a later step cannot do without (a plan, an inverse, a
 * catalog matrix, dimensions that bound a loop) is checked with
 * if (!ok) ck_abort_msg(...): it stops the test before the bad access, as
 * ck_assert would, but writes nothing when it holds.
 *
 * Sample counts are chosen so the suite runs in a few seconds without
 * sanitizers, and under valgrind (CK_FORK=no) in a few minutes.
 */
#include <check.h>
#include "check_main.h"
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmmc.h"
#include "catalog.h"
#include "gf2.h"

/* Random characteristic matrices per (n, p) shape in the factoring tests. */
#define FACTOR_SAMPLES 8
/* Largest n and p of the factoring sweep (the brief: n <= 24, p <= 11). */
#define FACTOR_MAX_N 24
#define FACTOR_MAX_P 11
/* Largest n of the perform sweep: 2^16 elements, up to 2^11 processors. */
#define PERFORM_MAX_N 16
/* Random matrices per (shape, layout, kind) in the perform sweep. */
#define PERFORM_SAMPLES 3
/* Per-test time limit in fork mode: far above the fraction of a second a
 * test takes natively, so that sanitizer and valgrind runs do not trip it. */
#define TEST_TIMEOUT_SECONDS 300
/* An odd multiplier makes x -> x * K + salt a bijection on words, so every
 * element of a test array is distinct and a misplacement cannot hide. */
#define DISTINCT_K UINT64_C(0x9e3779b97f4a7c15)

/* ---- helpers ---- */

static uint64_t element_value(uint64_t x, uint64_t salt)
{
    return x * DISTINCT_K + salt;
}

/* COUNT distinct elements, element_value(x, SALT) at x (free them). */
static uint64_t *distinct_elements(size_t count, uint64_t salt)
{
    uint64_t *v = malloc(count * sizeof *v);
    if (v == NULL)
        ck_abort_msg("out of memory for %zu elements", count);
    for (size_t x = 0; x < count; x++)
        v[x] = element_value(x, salt);
    return v;
}

/* A random matrix dimension, 1..64. */
static int random_dim(Gf2Rng *rng)
{
    return 1 + (int)(gf2_rng_next(rng) % 64);
}

/* Nonsingular block upper triangular for the split (m | n - m): bottom-left
 * block 0, diagonal blocks random nonsingular, top-right random. */
static void random_block_upper(Gf2Matrix *s, int n, int m, Gf2Rng *rng)
{
    Gf2Matrix s1, s4;
    gf2_random_nonsingular(&s1, m, rng);
    gf2_random_nonsingular(&s4, n - m, rng);
    gf2_zero(s, n, n);
    for (int j = 0; j < m; j++)
        s->col[j] = s1.col[j];
    for (int j = m; j < n; j++)
        s->col[j] = gf2_rng_bits(rng, m) | (s4.col[j - m] << m);
}

/* Random nonsingular A whose lower-left p x (n-p) block gamma has rank
 * exactly r. Start from the permutation matrix that swaps offset bits
 * m-1-i with processor bits m+i for i < r (gamma has r ones in distinct
 * rows and columns), then take S E U with S, U block upper triangular: the
 * lower-left block becomes s4 gamma u1, of the same rank (Lemma 3's
 * rank gamma is what is being controlled). */
static void random_with_rank_gamma(Gf2Matrix *a, int n, int p, int r, Gf2Rng *rng)
{
    int m = n - p;
    Gf2Matrix e, s, u;
    gf2_identity(&e, n);
    for (int i = 0; i < r; i++) {
        e.col[m - 1 - i] = UINT64_C(1) << (m + i);
        e.col[m + i] = UINT64_C(1) << (m - 1 - i);
    }
    random_block_upper(&s, n, m, rng);
    random_block_upper(&u, n, m, rng);
    gf2_mul(a, &s, &e);
    gf2_mul(a, a, &u);
}

/* A random bit permutation (BPC matrix, Appendix C's examples are such). */
static void random_permutation_matrix(Gf2Matrix *a, int n, Gf2Rng *rng)
{
    int perm[GF2_MAX_DIM];
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(gf2_rng_next(rng) % (uint64_t)(i + 1));
        int t = perm[i]; perm[i] = perm[j]; perm[j] = t;
    }
    gf2_zero(a, n, n);
    for (int j = 0; j < n; j++)
        a->col[j] = UINT64_C(1) << perm[j];
}

/* Kind 0 uniform, 1 bit permutation, 2 chosen rank gamma (random r). */
static void random_kind(Gf2Matrix *a, int n, int p, int kind, Gf2Rng *rng)
{
    int m = n - p;
    int max_r = m < p ? m : p;
    switch (kind % 3) {
    case 0: gf2_random_nonsingular(a, n, rng); break;
    case 1: random_permutation_matrix(a, n, rng); break;
    default:
        random_with_rank_gamma(a, n, p, (int)(gf2_rng_next(rng) % (uint64_t)(max_r + 1)), rng);
        break;
    }
}

static bool block_is_zero(const Gf2Matrix *a, int r0, int r1, int c0, int c1)
{
    Gf2Matrix b;
    gf2_submatrix(&b, a, r0, r1, c0, c1);
    for (int j = 0; j < b.cols; j++)
        if (b.col[j] != 0)
            return false;
    return true;
}

static bool block_is_identity(const Gf2Matrix *a, int r0, int r1, int c0, int c1)
{
    Gf2Matrix b, id;
    gf2_submatrix(&b, a, r0, r1, c0, c1);
    if (b.rows != b.cols)
        return false;
    gf2_identity(&id, b.rows);
    return gf2_equal(&b, &id);
}

static Gf2Matrix block(const Gf2Matrix *a, int r0, int r1, int c0, int c1)
{
    Gf2Matrix b;
    gf2_submatrix(&b, a, r0, r1, c0, c1);
    return b;
}

static bool is_permutation_matrix(const Gf2Matrix *a)
{
    if (a->rows != a->cols)
        return false;
    uint64_t rows_seen = 0;
    for (int j = 0; j < a->cols; j++) {
        if (gf2_popcount(a->col[j]) != 1 || (rows_seen & a->col[j]))
            return false;
        rows_seen |= a->col[j];
    }
    return true;
}

/* The plan every later check reads: a failure stops the test at once (there
 * is no plan to check), a success writes nothing. */
static BmmcPlan *plan_or_stop(int n, int p, const uint64_t *a, uint64_t c, int f)
{
    BmmcPlan *plan = NULL;
    int err = bmmc_plan_new(n, p, a, c, f, &plan);
    if (err != 0)
        ck_abort_msg("bmmc_plan_new(n=%d, p=%d, f=%d) returned %d: %s", n, p, f, err,
                     bmmc_strerror(err));
    return plan;
}

/* A random BMMC permutation of n bits: a nonsingular matrix, left in *A,
 * and the complement it returns. */
static uint64_t random_bmmc(Gf2Matrix *a, int n, Gf2Rng *rng)
{
    gf2_random_nonsingular(a, n, rng);
    return gf2_rng_bits(rng, n);
}

/* A plan for a random matrix of KIND (random_kind), left in *A, and a
 * random complement, left in *C; the layout f. */
static BmmcPlan *random_plan(int n, int p, int kind, int f, Gf2Rng *rng, Gf2Matrix *a,
                             uint64_t *c)
{
    random_kind(a, n, p, kind, rng);
    *c = gf2_rng_bits(rng, n);
    return plan_or_stop(n, p, a->col, *c, f);
}

/* ==== GF(2) ==== */

START_TEST(test_gf2_identity_zero_get_set)
{
    Gf2Matrix m, z;
    gf2_identity(&m, 64);
    CkTally t = CK_TALLY_INIT;
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++)
            ck_tally_int(&t, i == j, gf2_get(&m, i, j), "I_64 entry (%d,%d)", i, j);
    ck_tally_assert(&t, "gf2_identity(64)");
    gf2_zero(&z, 5, 7);
    ck_assert_int_eq(z.rows, 5);
    ck_assert_int_eq(z.cols, 7);
    gf2_set(&z, 4, 6, 1);
    gf2_set(&z, 0, 0, 1);
    ck_assert_uint_eq(z.col[6], UINT64_C(1) << 4);
    ck_assert_uint_eq(z.col[0], 1);
    gf2_set(&z, 4, 6, 0);
    ck_assert_uint_eq(z.col[6], 0);
    Gf2Matrix c;
    gf2_copy(&c, &z);
    ck_assert(gf2_equal(&c, &z));
    gf2_set(&c, 2, 3, 1);
    ck_assert(!gf2_equal(&c, &z));
    Gf2Matrix other;
    gf2_zero(&other, 7, 5);
    ck_assert(!gf2_equal(&other, &z));   /* sizes differ */
}
END_TEST

/* Section 2: y_i = XOR_j a_ij x_j, entry by entry, against the column-word
 * loop. */
START_TEST(test_gf2_mul_vec_section2_definition)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 11);
    int bad = 0;
    for (int trial = 0; trial < 200; trial++) {
        int rows = random_dim(&rng), cols = random_dim(&rng);
        Gf2Matrix a;
        gf2_random(&a, rows, cols, &rng);
        uint64_t x = gf2_rng_bits(&rng, cols);
        uint64_t y = gf2_mul_vec(&a, x);
        for (int i = 0; i < rows; i++) {
            int sum = 0;
            for (int j = 0; j < cols; j++)
                sum ^= gf2_get(&a, i, j) & (int)((x >> j) & 1);
            bad += sum != (int)((y >> i) & 1);
        }
        bad += (y >> (rows - 1) >> 1) != 0;   /* no bits below the matrix */
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* The byte table gives gf2_mul_vec's product for every number of columns
 * 0..64 (a partly used last byte, a full 64-bit word, no columns at all),
 * including x with bits at or above cols, which both ignore. */
START_TEST(test_gf2_table_matches_mul_vec)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 13);
    CkTally t = CK_TALLY_INIT;
    Gf2Table *tab = g_new(Gf2Table, 1);
    for (int cols = 0; cols <= GF2_MAX_DIM; cols++) {
        Gf2Matrix a;
        gf2_random(&a, random_dim(&rng), cols, &rng);
        gf2_table_init(tab, &a);
        for (int trial = 0; trial < 200; trial++) {
            uint64_t x = trial == 0 ? ~UINT64_C(0)
                         : trial <= 64 ? UINT64_C(1) << (trial - 1)
                         : gf2_rng_next(&rng);
            uint64_t want = gf2_mul_vec(&a, x & gf2_mask(cols));
            ck_tally_uint(&t, want, gf2_mul_vec(&a, x), "cols=%d x=0x%llx: mul_vec",
                          cols, (unsigned long long)x);
            ck_tally_uint(&t, want, gf2_table_mul_vec(tab, x), "cols=%d x=0x%llx: table",
                          cols, (unsigned long long)x);
        }
    }
    g_free(tab);
    ck_tally_assert(&t, "byte tables");
}
END_TEST

START_TEST(test_gf2_mul_associative_and_transpose_rule)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 12);
    CkTally tl = CK_TALLY_INIT;
    for (int trial = 0; trial < 100; trial++) {
        int d[4];
        for (int k = 0; k < 4; k++)
            d[k] = random_dim(&rng);
        Gf2Matrix a, b, c, ab, bc, ab_c, a_bc;
        gf2_random(&a, d[0], d[1], &rng);
        gf2_random(&b, d[1], d[2], &rng);
        gf2_random(&c, d[2], d[3], &rng);
        gf2_mul(&ab, &a, &b);
        gf2_mul(&bc, &b, &c);
        gf2_mul(&ab_c, &ab, &c);
        gf2_mul(&a_bc, &a, &bc);
        ck_tally_true(&tl, gf2_equal(&ab_c, &a_bc), "trial %d: (AB)C == A(BC) for %dx%dx%dx%d",
                      trial, d[0], d[1], d[2], d[3]);
        /* (AB)^T = B^T A^T */
        Gf2Matrix abt, at, bt, btat;
        gf2_transpose(&abt, &ab);
        gf2_transpose(&at, &a);
        gf2_transpose(&bt, &b);
        gf2_mul(&btat, &bt, &at);
        ck_tally_true(&tl, gf2_equal(&abt, &btat), "trial %d: (AB)^T == B^T A^T for %dx%dx%d",
                      trial, d[0], d[1], d[2]);
        /* I A = A = A I */
        Gf2Matrix il, ir, t;
        gf2_identity(&il, d[0]);
        gf2_identity(&ir, d[1]);
        gf2_mul(&t, &il, &a);
        ck_tally_true(&tl, gf2_equal(&t, &a), "trial %d: I A == A for %dx%d", trial, d[0], d[1]);
        gf2_mul(&t, &a, &ir);
        ck_tally_true(&tl, gf2_equal(&t, &a), "trial %d: A I == A for %dx%d", trial, d[0], d[1]);
    }
    ck_tally_assert(&tl, "associativity, transpose rule, identities");
}
END_TEST

START_TEST(test_gf2_transpose_twice_is_identity)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 13);
    CkTally tl = CK_TALLY_INIT;
    for (int trial = 0; trial < 100; trial++) {
        int rows = random_dim(&rng), cols = random_dim(&rng);
        Gf2Matrix a, t, tt;
        gf2_random(&a, rows, cols, &rng);
        gf2_transpose(&t, &a);
        ck_tally_int(&tl, cols, t.rows, "trial %d %dx%d: transpose rows", trial, rows, cols);
        ck_tally_int(&tl, rows, t.cols, "trial %d %dx%d: transpose cols", trial, rows, cols);
        if (t.rows != cols || t.cols != rows)
            continue;   /* the entries below would be read out of range */
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++)
                ck_tally_int(&tl, gf2_get(&a, i, j), gf2_get(&t, j, i),
                             "trial %d: transpose entry (%d,%d)", trial, i, j);
        gf2_transpose(&tt, &t);
        ck_tally_true(&tl, gf2_equal(&tt, &a), "trial %d %dx%d: (A^T)^T == A", trial, rows, cols);
        /* Theorem 2: row rank = column rank. */
        ck_tally_int(&tl, gf2_rank(&a), gf2_rank(&t), "trial %d %dx%d: rank A^T", trial, rows,
                     cols);
    }
    ck_tally_assert(&tl, "gf2_transpose");
}
END_TEST

START_TEST(test_gf2_inverse_random_nonsingular_up_to_64)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 14);
    CkTally t = CK_TALLY_INIT;
    for (int n = 1; n <= 64; n++) {
        for (int trial = 0; trial < 3; trial++) {
            Gf2Matrix a, inv, prod, id;
            gf2_random_nonsingular(&a, n, &rng);
            ck_tally_true(&t, gf2_is_nonsingular(&a), "n = %d trial %d: A nonsingular", n, trial);
            ck_tally_int(&t, n, gf2_rank(&a), "n = %d trial %d: rank A", n, trial);
            /* Without an inverse inv is unset and the products read garbage. */
            if (!gf2_inverse(&inv, &a))
                ck_abort_msg("n = %d trial %d: gf2_inverse failed on a nonsingular A", n, trial);
            gf2_identity(&id, n);
            gf2_mul(&prod, &inv, &a);
            ck_tally_true(&t, gf2_equal(&prod, &id), "A^-1 A == I for n = %d trial %d", n, trial);
            gf2_mul(&prod, &a, &inv);
            ck_tally_true(&t, gf2_equal(&prod, &id), "A A^-1 == I for n = %d trial %d", n, trial);
            Gf2Matrix same = a;     /* aliasing out = a */
            ck_tally_true(&t, gf2_inverse(&same, &same), "n = %d trial %d: in-place inverse",
                          n, trial);
            ck_tally_true(&t, gf2_equal(&same, &inv), "n = %d trial %d: in-place inverse == A^-1",
                          n, trial);
        }
    }
    ck_tally_assert(&t, "gf2_inverse of random nonsingular matrices");
}
END_TEST

START_TEST(test_gf2_inverse_rejects_singular)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 15);
    CkTally t = CK_TALLY_INIT;
    for (int n = 2; n <= 64; n += 7) {
        Gf2Matrix a, out, before;
        gf2_random_nonsingular(&a, n, &rng);
        a.col[n - 1] = a.col[0] ^ (n > 2 ? a.col[1] : 0);   /* a dependent column */
        gf2_identity(&out, 3);
        before = out;
        ck_tally_true(&t, !gf2_is_nonsingular(&a), "n = %d: singular A is not nonsingular", n);
        ck_tally_true(&t, !gf2_inverse(&out, &a), "n = %d: singular A has no inverse", n);
        ck_tally_true(&t, gf2_equal(&out, &before), "n = %d: out untouched", n);
        ck_tally_int(&t, n - 1, gf2_rank(&a), "n = %d: rank", n);
    }
    ck_tally_assert(&t, "singular matrices");
    Gf2Matrix rect;
    gf2_random(&rect, 3, 4, &rng);
    Gf2Matrix out;
    ck_assert(!gf2_inverse(&out, &rect));
    ck_assert(!gf2_is_nonsingular(&rect));
}
END_TEST

/* Section 3's worked example of a column-addition matrix: A M = A', with
 * A'_1 = A_0 + A_1 + A_3 and A'_2 = A_0 + A_2. Rows are typed as printed,
 * converted here to column words (row 0 = bit 0). */
static void matrix_from_rows(Gf2Matrix *m, int n, const int rows[][4])
{
    gf2_zero(m, n, n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            gf2_set(m, i, j, rows[i][j]);
}

START_TEST(test_gf2_section3_column_addition_example)
{
    static const int a_rows[4][4] = {{1,0,1,1},{0,1,1,0},{1,1,0,0},{0,1,0,1}};
    static const int m_rows[4][4] = {{1,1,1,0},{0,1,0,0},{0,0,1,0},{0,1,0,1}};
    static const int ap_rows[4][4] = {{1,0,0,1},{0,1,1,0},{1,0,1,0},{0,0,0,1}};
    Gf2Matrix a, m, ap, prod;
    matrix_from_rows(&a, 4, a_rows);
    matrix_from_rows(&m, 4, m_rows);
    matrix_from_rows(&ap, 4, ap_rows);
    gf2_mul(&prod, &a, &m);
    ck_assert(gf2_equal(&prod, &ap));
    ck_assert_uint_eq(ap.col[1], a.col[0] ^ a.col[1] ^ a.col[3]);
    ck_assert_uint_eq(ap.col[2], a.col[0] ^ a.col[2]);
    /* With the dependency restriction a column-addition matrix is
     * nonsingular [CSW94], so multiplying by it keeps the rank. */
    ck_assert(gf2_is_nonsingular(&m));
    ck_assert_int_eq(gf2_rank(&a), gf2_rank(&ap));
}
END_TEST

START_TEST(test_gf2_rank_known_matrices)
{
    Gf2Matrix m;
    CkTally t = CK_TALLY_INIT;
    for (int n = 0; n <= 64; n += 8) {
        gf2_identity(&m, n);
        ck_tally_int(&t, n, gf2_rank(&m), "rank I_%d", n);
        gf2_zero(&m, n, n);
        ck_tally_int(&t, 0, gf2_rank(&m), "rank of the %d x %d zero matrix", n, n);
    }
    ck_tally_assert(&t, "ranks of I and 0");
    /* All ones: every column equal, rank 1. */
    gf2_zero(&m, 64, 64);
    for (int j = 0; j < 64; j++)
        m.col[j] = ~UINT64_C(0);
    ck_assert_int_eq(gf2_rank(&m), 1);
    /* Rows r0, r1, r0 + r1 of a 3 x 6 matrix: rank 2. */
    gf2_zero(&m, 3, 6);
    static const int r0[6] = {1,0,1,1,0,0}, r1[6] = {0,1,1,0,1,0};
    for (int j = 0; j < 6; j++) {
        gf2_set(&m, 0, j, r0[j]);
        gf2_set(&m, 1, j, r1[j]);
        gf2_set(&m, 2, j, r0[j] ^ r1[j]);
    }
    ck_assert_int_eq(gf2_rank(&m), 2);
    /* Upper triangular with unit diagonal: nonsingular. */
    gf2_zero(&m, 10, 10);
    for (int j = 0; j < 10; j++)
        m.col[j] = gf2_mask(j + 1);
    ck_assert_int_eq(gf2_rank(&m), 10);
    /* Strictly upper triangular: rank n - 1. */
    for (int j = 0; j < 10; j++)
        m.col[j] = gf2_mask(j);
    ck_assert_int_eq(gf2_rank(&m), 9);
}
END_TEST

/* Appendix A: S is a column basis, D reconstructs every dependent column
 * from basis columns, and the right-to-left scan makes column j a basis
 * column exactly when it is independent of all columns to its right (the
 * property Section 4 uses to keep a basis of delta). */
START_TEST(test_gf2_column_basis_appendix_a)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 16);
    CkTally t = CK_TALLY_INIT;
    for (int trial = 0; trial < 300; trial++) {
        int rows = random_dim(&rng), cols = random_dim(&rng);
        int k = (int)(gf2_rng_next(&rng) % 9);   /* low rank products */
        Gf2Matrix a, x, y;
        if (k == 0) {
            gf2_random(&a, rows, cols, &rng);
        } else {
            gf2_random(&x, rows, k, &rng);
            gf2_random(&y, k, cols, &rng);
            gf2_mul(&a, &x, &y);
        }
        if (trial % 5 == 0)
            a.col[gf2_rng_next(&rng) % (uint64_t)cols] = 0;   /* a zero column */
        uint64_t basis;
        Gf2Matrix deps;
        int rank = gf2_column_basis(&a, &basis, &deps);
        int want_rank = gf2_rank(&a);
        ck_tally_int(&t, want_rank, rank, "trial %d %dx%d: rank", trial, rows, cols);
        ck_tally_int(&t, rank, gf2_popcount(basis), "trial %d: basis columns", trial);
        ck_tally_uint(&t, 0, basis & ~gf2_mask(cols), "trial %d: basis bits beyond %d columns",
                      trial, cols);
        ck_tally_int(&t, cols, deps.rows, "trial %d: D rows", trial);
        ck_tally_int(&t, cols, deps.cols, "trial %d: D cols", trial);
        /* B below is rank columns wide and gets popcount(basis) columns:
         * with either wrong the checks below have no meaning (and a rank
         * outside 0..64 trips gf2_zero's assert). */
        if (rank != want_rank || gf2_popcount(basis) != rank)
            continue;
        /* The basis columns are independent. */
        Gf2Matrix b;
        gf2_zero(&b, rows, rank);
        int bi = 0;
        for (int j = 0; j < cols; j++)
            if ((basis >> j) & 1)
                b.col[bi++] = a.col[j];
        ck_tally_int(&t, rank, gf2_rank(&b), "trial %d: rank of the basis columns", trial);
        for (int j = 0; j < cols; j++) {
            if ((basis >> j) & 1) {
                ck_tally_uint(&t, 0, deps.col[j], "trial %d: D column %d of a basis column",
                              trial, j);
                continue;
            }
            ck_tally_uint(&t, 0, deps.col[j] & ~basis,   /* only basis columns */
                          "trial %d: D column %d outside the basis", trial, j);
            uint64_t sum = 0;
            for (int i = 0; i < cols; i++)
                if ((deps.col[j] >> i) & 1)
                    sum ^= a.col[i];
            ck_tally_uint(&t, a.col[j], sum, "trial %d: column %d rebuilt from D", trial, j);
        }
        /* Right-to-left preference. */
        for (int j = 0; j < cols; j++) {
            Gf2Matrix right, with;
            gf2_submatrix(&right, &a, 0, rows - 1, j + 1, cols - 1);
            gf2_submatrix(&with, &a, 0, rows - 1, j, cols - 1);
            int independent = gf2_rank(&with) > gf2_rank(&right);
            ck_tally_int(&t, independent, (int)((basis >> j) & 1),
                         "trial %d: column %d in the basis iff independent of those right of it",
                         trial, j);
        }
    }
    ck_tally_assert(&t, "gf2_column_basis");

    /* Columns e0, e0, e1: the scan keeps columns 2 and 1, and column 0 is
     * column 1. */
    Gf2Matrix m;
    gf2_zero(&m, 2, 3);
    m.col[0] = 1;
    m.col[1] = 1;
    m.col[2] = 2;
    uint64_t basis;
    Gf2Matrix deps;
    ck_assert_int_eq(gf2_column_basis(&m, &basis, &deps), 2);
    ck_assert_uint_eq(basis, 6);
    ck_assert_uint_eq(deps.col[0], 2);
}
END_TEST

START_TEST(test_gf2_submatrix)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 17);
    Gf2Matrix a, s;
    gf2_random(&a, 64, 64, &rng);
    CkTally t = CK_TALLY_INIT;
    for (int trial = 0; trial < 200; trial++) {
        int r0 = (int)(gf2_rng_next(&rng) % 64), c0 = (int)(gf2_rng_next(&rng) % 64);
        int r1 = r0 - 1 + (int)(gf2_rng_next(&rng) % (uint64_t)(65 - r0));
        int c1 = c0 - 1 + (int)(gf2_rng_next(&rng) % (uint64_t)(65 - c0));
        gf2_submatrix(&s, &a, r0, r1, c0, c1);
        ck_tally_int(&t, r1 - r0 + 1, s.rows, "trial %d rows %d..%d: submatrix rows", trial, r0, r1);
        ck_tally_int(&t, c1 - c0 + 1, s.cols, "trial %d cols %d..%d: submatrix cols", trial, c0, c1);
        if (s.rows != r1 - r0 + 1 || s.cols != c1 - c0 + 1)
            continue;   /* the loops below would read A out of range */
        for (int i = 0; i < s.rows; i++)
            for (int j = 0; j < s.cols; j++)
                ck_tally_int(&t, gf2_get(&a, r0 + i, c0 + j), gf2_get(&s, i, j),
                             "trial %d: submatrix entry (%d,%d)", trial, i, j);
        for (int j = 0; j < s.cols; j++)
            ck_tally_uint(&t, 0, s.col[j] & ~gf2_mask(s.rows),
                          "trial %d: bits below row %d of column %d", trial, s.rows, j);
    }
    ck_tally_assert(&t, "gf2_submatrix");
    gf2_submatrix(&s, &a, 5, 4, 0, 63);   /* empty row range */
    ck_assert_int_eq(s.rows, 0);
    ck_assert_int_eq(gf2_rank(&s), 0);
}
END_TEST

START_TEST(test_gf2_random_is_deterministic)
{
    Gf2Rng r1, r2, r3;
    gf2_rng_init(&r1, 99);
    gf2_rng_init(&r2, 99);
    gf2_rng_init(&r3, 100);
    Gf2Matrix a, b, c;
    gf2_random_nonsingular(&a, 40, &r1);
    gf2_random_nonsingular(&b, 40, &r2);
    gf2_random_nonsingular(&c, 40, &r3);
    ck_assert(gf2_equal(&a, &b));
    ck_assert(!gf2_equal(&a, &c));
    ck_assert(gf2_is_nonsingular(&a));
    ck_assert_uint_eq(gf2_rng_bits(&r1, 5) >> 5, 0);
}
END_TEST

/* ==== Factoring (Sections 3, 4, 6) ==== */

/* Every block-form promise of Sections 3 and 4 for one plan, into T (the
 * callers check thousands of plans and assert once). */
static void check_factor_forms(CkTally *t, const BmmcPlan *plan, const char *what)
{
    int n = bmmc_plan_n(plan), p = bmmc_plan_p(plan), m = n - p;
    int r = bmmc_plan_rank_gamma(plan);
    const Gf2Matrix *a = bmmc_plan_matrix(plan, BMMC_MATRIX_ADJUSTED);
    const Gf2Matrix *tr = bmmc_plan_matrix(plan, BMMC_MATRIX_T);
    const Gf2Matrix *rr = bmmc_plan_matrix(plan, BMMC_MATRIX_R);
    const Gf2Matrix *pi = bmmc_plan_matrix(plan, BMMC_MATRIX_PI);
    const Gf2Matrix *v = bmmc_plan_matrix(plan, BMMC_MATRIX_V);
    const Gf2Matrix *w = bmmc_plan_matrix(plan, BMMC_MATRIX_W);
    const Gf2Matrix *gamma = bmmc_plan_matrix(plan, BMMC_MATRIX_GAMMA);

    /* Section 4, "Factorization": A = V W exactly. */
    Gf2Matrix vw;
    gf2_mul(&vw, v, w);
    ck_tally_true(t, gf2_equal(&vw, a), "%s: V W == A", what);

    /* Section 4: gamma is the lower-left p x (n-p) submatrix; Lemma 3's
     * rank gamma is its rank. */
    Gf2Matrix g = block(a, m, n - 1, 0, m - 1);
    ck_tally_true(t, gf2_equal(&g, gamma), "%s: gamma is A's lower-left block", what);
    /* r sizes the blocks and shifts below: a wrong one stops the test. */
    int rank_g = gf2_rank(&g);
    if (r != rank_g)
        ck_abort_msg("%s: rank gamma %d != rank %d", what, r, rank_g);
    ck_tally_uint(t, UINT64_C(1) << r, bmmc_plan_rounds(plan), "%s: rounds", what);

    /* Section 3, trailer T = [I *; 0 I]. */
    ck_tally_true(t, block_is_identity(tr, 0, m - 1, 0, m - 1) && block_is_zero(tr, m, n - 1, 0, m - 1)
                  && block_is_identity(tr, m, n - 1, m, n - 1), "%s: T a trailer", what);
    /* Section 4: A T has a nonsingular trailing p x p submatrix delta-hat. */
    Gf2Matrix at, atr;
    gf2_mul(&at, a, tr);
    Gf2Matrix delta_hat = block(&at, m, n - 1, m, n - 1);
    ck_tally_true(t, gf2_is_nonsingular(&delta_hat), "%s: delta-hat of A T nonsingular", what);

    /* Section 3, reducer R = [* 0; 0 I], a column-addition matrix obeying
     * the dependency restriction (m_ij = 1, i != j => row j is e_j). */
    ck_tally_true(t, block_is_zero(rr, 0, m - 1, m, n - 1) && block_is_zero(rr, m, n - 1, 0, m - 1)
                  && block_is_identity(rr, m, n - 1, m, n - 1), "%s: R a reducer", what);
    for (int j = 0; j < m; j++) {
        ck_tally_int(t, 1, gf2_get(rr, j, j), "%s: R diagonal entry %d", what, j);
        for (int i = 0; i < m; i++)
            if (i != j && gf2_get(rr, i, j))
                for (int k = 0; k < n; k++)
                    ck_tally_true(t, k == j || !gf2_get(rr, j, k),
                                  "%s: R obeys the dependency restriction (r_%d%d = 1, r_%d%d = 1)",
                                  what, i, j, j, k);
    }
    /* Section 4, "reduced form": in A T R the non-basis columns of gamma-hat
     * are 0, so exactly rank gamma columns of gamma-hat are nonzero. */
    gf2_mul(&atr, &at, rr);
    Gf2Matrix gamma_hat = block(&atr, m, n - 1, 0, m - 1);
    int nonzero = 0;
    for (int j = 0; j < gamma_hat.cols; j++)
        nonzero += gamma_hat.col[j] != 0;
    ck_tally_true(t, nonzero == r && gf2_rank(&gamma_hat) == r,
                  "%s: gamma-hat reduced (%d nonzero columns, rank gamma %d)", what, nonzero, r);

    /* Section 3, swapper Pi = [perm 0; 0 I]. */
    Gf2Matrix pi_tl = block(pi, 0, m - 1, 0, m - 1);
    ck_tally_true(t, is_permutation_matrix(&pi_tl) && block_is_zero(pi, 0, m - 1, m, n - 1)
                  && block_is_zero(pi, m, n - 1, 0, m - 1)
                  && block_is_identity(pi, m, n - 1, m, n - 1), "%s: Pi a swapper", what);

    /* Section 3, "Composition": T R Pi and its inverse W are intraprocessor,
     * bottom section [0 | I]. */
    ck_tally_true(t, block_is_zero(w, m, n - 1, 0, m - 1) && block_is_identity(w, m, n - 1, m, n - 1),
                  "%s: W bottom section [0 I]", what);

    /* Equation (3): V's bottom-left p x (n-p-rank gamma) block is 0, the
     * next p x rank gamma block gamma-hat'' holds the basis (rank r), and
     * delta-hat (bottom-right p x p) is nonsingular. */
    ck_tally_true(t, block_is_zero(v, m, n - 1, 0, m - r - 1), "%s: V lower-left 0", what);
    Gf2Matrix g2 = block(v, m, n - 1, m - r, m - 1);
    ck_tally_int(t, r, gf2_rank(&g2), "%s: gamma-hat'' rank", what);
    Gf2Matrix vd = block(v, m, n - 1, m, n - 1);
    ck_tally_true(t, gf2_is_nonsingular(&vd), "%s: V delta-hat nonsingular", what);
    ck_tally_true(t, gf2_is_nonsingular(v) && gf2_is_nonsingular(w), "%s: V and W nonsingular",
                  what);

    /* Lemma 3's counts as the plan reports them. */
    ck_tally_int(t, bmmc_plan_local_elements(plan),
                 bmmc_plan_elements_per_message(plan) * bmmc_plan_rounds(plan),
                 "%s: elements per message x rounds", what);
}

START_TEST(test_factor_forms_random_shapes)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 21);
    CkTally t = CK_TALLY_INIT;
    for (int n = 1; n <= FACTOR_MAX_N; n++) {
        for (int p = 0; p <= n && p <= FACTOR_MAX_P; p++) {
            for (int s = 0; s < FACTOR_SAMPLES * 3; s++) {
                Gf2Matrix a;
                uint64_t c;
                BmmcPlan *plan = random_plan(n, p, s, n - p, &rng, &a, &c);
                char what[64];
                snprintf(what, sizeof what, "n=%d p=%d sample %d", n, p, s);
                check_factor_forms(&t, plan, what);
                /* Processor-major: nothing is adjusted (Section 6, Q = I). */
                ck_tally_true(&t, gf2_equal(bmmc_plan_matrix(plan, BMMC_MATRIX_ADJUSTED), &a),
                              "%s: adjusted A == A", what);
                ck_tally_uint(&t, c, bmmc_plan_complement(plan), "%s: complement", what);
                bmmc_plan_free(plan);
            }
        }
    }
    ck_tally_assert(&t, "factor forms, n <= %d, p <= %d", FACTOR_MAX_N, FACTOR_MAX_P);
}
END_TEST

START_TEST(test_factor_forms_n64)
{
    static const int ps[] = {0, 1, 11, 32, 50, 63, 64};
    Gf2Rng rng;
    gf2_rng_init(&rng, 22);
    CkTally t = CK_TALLY_INIT;
    for (size_t i = 0; i < G_N_ELEMENTS(ps); i++) {
        for (int s = 0; s < 3 * FACTOR_SAMPLES; s++) {
            Gf2Matrix a;
            uint64_t c;
            int f = (64 - ps[i]) / 2;
            BmmcPlan *plan = random_plan(64, ps[i], s, f, &rng, &a, &c);
            char what[64];
            snprintf(what, sizeof what, "n=64 p=%d f=%d sample %d", ps[i], f, s);
            check_factor_forms(&t, plan, what);
            bmmc_plan_free(plan);
        }
    }
    ck_tally_assert(&t, "factor forms, n = 64");
}
END_TEST

/* Matrices built with a known rank gamma: the plan finds exactly it, and
 * so 2^r rounds of N/(2^r P) elements (Lemma 3, Section 5). */
START_TEST(test_factor_known_rank_gamma)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 23);
    CkTally t = CK_TALLY_INIT;
    for (int n = 2; n <= 20; n += 3) {
        for (int p = 1; p < n && p <= FACTOR_MAX_P; p += 2) {
            int m = n - p, max_r = m < p ? m : p;
            for (int r = 0; r <= max_r; r++) {
                Gf2Matrix a;
                random_with_rank_gamma(&a, n, p, r, &rng);
                BmmcPlan *plan = plan_or_stop(n, p, a.col, 0, n - p);
                ck_tally_int(&t, r, bmmc_plan_rank_gamma(plan), "n=%d p=%d: rank gamma, built %d",
                             n, p, r);
                ck_tally_uint(&t, UINT64_C(1) << r, bmmc_plan_rounds(plan), "n=%d p=%d r=%d: rounds",
                              n, p, r);
                ck_tally_uint(&t, UINT64_C(1) << (m - r), bmmc_plan_elements_per_message(plan),
                              "n=%d p=%d r=%d: elements per message", n, p, r);
                /* A wrong round count bounds the loop below: skip it (the
                 * tally already fails) rather than ask for rounds the plan
                 * does not have. */
                if (bmmc_plan_rounds(plan) == UINT64_C(1) << r)
                    for (uint64_t b = 0; b < bmmc_plan_rounds(plan); b++)
                        ck_tally_uint(&t, b << (m - r), bmmc_plan_message_offset(plan, b),
                                      "n=%d p=%d r=%d: offset of round %llu", n, p, r,
                                      (unsigned long long)b);
                bmmc_plan_free(plan);
            }
        }
    }
    ck_tally_assert(&t, "plans of a known rank gamma");
}
END_TEST

/* Figure 1: N = 32, P = 4, which element index sits at each (offset,
 * processor) for f = 3 (processor-major), 2, 1, 0 (processor-minor). */
static const int figure1[8][16] = {
    {0, 8, 16, 24,  0, 4, 8, 12,   0, 2, 4, 6,     0, 1, 2, 3},
    {1, 9, 17, 25,  1, 5, 9, 13,   1, 3, 5, 7,     4, 5, 6, 7},
    {2, 10, 18, 26, 2, 6, 10, 14,  8, 10, 12, 14,  8, 9, 10, 11},
    {3, 11, 19, 27, 3, 7, 11, 15,  9, 11, 13, 15,  12, 13, 14, 15},
    {4, 12, 20, 28, 16, 20, 24, 28, 16, 18, 20, 22, 16, 17, 18, 19},
    {5, 13, 21, 29, 17, 21, 25, 29, 17, 19, 21, 23, 20, 21, 22, 23},
    {6, 14, 22, 30, 18, 22, 26, 30, 24, 26, 28, 30, 24, 25, 26, 27},
    {7, 15, 23, 31, 19, 23, 27, 31, 25, 27, 29, 31, 28, 29, 30, 31},
};

START_TEST(test_layout_figure1)
{
    CkTally t = CK_TALLY_INIT;
    for (int li = 0; li < 4; li++) {
        int f = 3 - li;
        Gf2Matrix q;
        /* Q is used below: without it there is nothing to multiply by. */
        int err = bmmc_layout_matrix(5, 2, f, &q);
        if (err != 0)
            ck_abort_msg("bmmc_layout_matrix(5, 2, %d) returned %d", f, err);
        for (int k = 0; k < 4; k++) {
            for (int off = 0; off < 8; off++) {
                uint64_t x = (uint64_t)figure1[off][4 * li + k];
                ck_tally_uint(&t, x, bmmc_layout_index(5, 2, f, (uint64_t)k, (uint64_t)off),
                              "f=%d processor %d offset %d: index", f, k, off);
                uint64_t kk, oo;
                bmmc_layout_locate(5, 2, f, x, &kk, &oo);
                ck_tally_uint(&t, (uint64_t)k, kk, "f=%d index %llu: processor", f,
                              (unsigned long long)x);
                ck_tally_uint(&t, (uint64_t)off, oo, "f=%d index %llu: offset", f,
                              (unsigned long long)x);
                /* Section 6: Q takes the index to its processor-major
                 * location, processor in the top p bits. */
                ck_tally_uint(&t, ((uint64_t)k << 3) | (uint64_t)off, gf2_mul_vec(&q, x),
                              "f=%d index %llu: Q x", f, (unsigned long long)x);
            }
        }
    }
    ck_tally_assert(&t, "Figure 1 layouts");
}
END_TEST

/* Section 6: Q has the printed block form, Q = I for processor-major, and
 * the plan performs Q A Q^-1 with complement Q c. */
START_TEST(test_layout_section6_adjustment)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 24);
    CkTally t = CK_TALLY_INIT;
    for (int n = 1; n <= 20; n += 3) {
        for (int p = 0; p <= n && p <= FACTOR_MAX_P; p++) {
            for (int f = 0; f <= n - p; f++) {
                Gf2Matrix q, qi, a, expect;
                char what[64];
                snprintf(what, sizeof what, "n=%d p=%d f=%d", n, p, f);
                /* Q and its inverse are used below: without them there is
                 * nothing to check. */
                int err = bmmc_layout_matrix(n, p, f, &q);
                if (err != 0)
                    ck_abort_msg("%s: bmmc_layout_matrix returned %d", what, err);
                int m = n - p;
                /* rows f, n-p-f, p by columns f, p, n-p-f: [I 0 0; 0 0 I; 0 I 0] */
                ck_tally_true(&t, block_is_identity(&q, 0, f - 1, 0, f - 1), "%s: Q top-left I", what);
                ck_tally_true(&t, block_is_identity(&q, f, m - 1, f + p, n - 1), "%s: Q middle-right I",
                              what);
                ck_tally_true(&t, block_is_identity(&q, m, n - 1, f, f + p - 1), "%s: Q bottom-middle I",
                              what);
                ck_tally_true(&t, is_permutation_matrix(&q), "%s: Q a permutation matrix", what);
                if (f == m) {
                    Gf2Matrix id;
                    gf2_identity(&id, n);
                    ck_tally_true(&t, gf2_equal(&q, &id), "%s: processor-major Q == I", what);
                }
                gf2_random_nonsingular(&a, n, &rng);
                uint64_t c = gf2_rng_bits(&rng, n);
                BmmcPlan *plan = plan_or_stop(n, p, a.col, c, f);
                if (!gf2_inverse(&qi, &q))
                    ck_abort_msg("%s: Q has no inverse", what);
                gf2_mul(&expect, &q, &a);
                gf2_mul(&expect, &expect, &qi);
                ck_tally_true(&t, gf2_equal(bmmc_plan_matrix(plan, BMMC_MATRIX_ADJUSTED), &expect),
                              "%s: adjusted == Q A Q^-1", what);
                ck_tally_true(&t, gf2_equal(bmmc_plan_matrix(plan, BMMC_MATRIX_Q), &q),
                              "%s: the plan's Q", what);
                ck_tally_true(&t, gf2_equal(bmmc_plan_matrix(plan, BMMC_MATRIX_A), &a),
                              "%s: the plan's A", what);
                ck_tally_uint(&t, gf2_mul_vec(&q, c), bmmc_plan_complement(plan),
                              "%s: complement Q c", what);
                ck_tally_int(&t, f, bmmc_plan_layout_f(plan), "%s: layout f", what);
                check_factor_forms(&t, plan, what);
                bmmc_plan_free(plan);
            }
        }
    }
    ck_tally_assert(&t, "Section 6 adjustments");
}
END_TEST

/* ==== Performing (Section 5) ==== */

/* Run the plan through the two phases and compare every element with the
 * reference placement dst[A x ^ c] = src[x]. Returns mismatches. Called
 * from loops, so what must hold for the count to mean anything (the
 * buffers, a successful run) stops the test without a write when it
 * holds. */
static uint64_t perform_mismatches(const BmmcPlan *plan, const Gf2Matrix *a, uint64_t c,
                                   uint64_t salt)
{
    int n = bmmc_plan_n(plan);
    size_t count = (size_t)1 << n;
    uint64_t *src = distinct_elements(count, salt);
    uint64_t *dst = calloc(count, sizeof *dst);
    if (dst == NULL)
        ck_abort_msg("out of memory for 2^%d elements", n);
    int err = bmmc_plan_perform_local(plan, src, dst);
    if (err != 0)
        ck_abort_msg("perform_local: %s", bmmc_strerror(err));
    uint64_t bad = 0;
    for (uint64_t x = 0; x < count; x++)
        bad += dst[bmmc_target_index(n, a->col, c, x)] != src[x];
    free(src);
    free(dst);
    return bad;
}

/* The layouts every perform test uses: processor-minor, one in between,
 * processor-major. */
static int layouts_for(int n, int p, int out[3])
{
    int m = n - p, count = 0;
    int cand[3] = {0, m / 2, m};
    for (int i = 0; i < 3; i++) {
        bool dup = false;
        for (int k = 0; k < count; k++)
            dup |= out[k] == cand[i];
        if (!dup)
            out[count++] = cand[i];
    }
    return count;
}

static const int perform_shapes[][2] = {
    {0, 0}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, {2, 2}, {3, 1}, {3, 2}, {3, 3},
    {4, 1}, {4, 2}, {4, 3}, {5, 2}, {5, 4}, {6, 3}, {6, 5}, {7, 1}, {7, 4},
    {8, 3}, {8, 6}, {9, 6}, {10, 4}, {10, 9}, {11, 5}, {12, 6}, {13, 2},
    {14, 7}, {15, 11}, {PERFORM_MAX_N, 8}, {PERFORM_MAX_N, 11}
};

START_TEST(test_perform_matches_reference_all_layouts)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 31);
    CkTally t = CK_TALLY_INIT;
    for (size_t i = 0; i < G_N_ELEMENTS(perform_shapes); i++) {
        int n = perform_shapes[i][0], p = perform_shapes[i][1];
        int fs[3], nf = layouts_for(n, p, fs);
        for (int li = 0; li < nf; li++) {
            for (int kind = 0; kind < 3 * PERFORM_SAMPLES; kind++) {
                Gf2Matrix a;
                uint64_t c;
                BmmcPlan *plan = random_plan(n, p, kind, fs[li], &rng, &a, &c);
                uint64_t bad = perform_mismatches(plan, &a, c, gf2_rng_next(&rng));
                ck_tally_uint(&t, 0, bad, "n=%d p=%d f=%d kind %d: elements misplaced", n, p,
                              fs[li], kind);
                bmmc_plan_free(plan);
            }
        }
    }
    ck_tally_assert(&t, "performed permutations against the reference");
}
END_TEST

/* Section 7: one factoring serves several runs on different data. */
START_TEST(test_perform_same_plan_twice_different_data)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 32);
    int n = 12, p = 4;
    Gf2Matrix a;
    uint64_t c = random_bmmc(&a, n, &rng);
    BmmcPlan *plan;
    ck_assert_int_eq(bmmc_plan_new(n, p, a.col, c, 3, &plan), 0);
    size_t count = (size_t)1 << n;
    uint64_t *src1 = distinct_elements(count, 1), *dst1 = malloc(count * sizeof(uint64_t));
    uint64_t *src2 = distinct_elements(count, 777), *dst2 = malloc(count * sizeof(uint64_t));
    for (uint64_t x = 0; x < count; x++)
        src2[x] ^= UINT64_C(0xffff0000);
    ck_assert_int_eq(bmmc_plan_perform_local(plan, src1, dst1), 0);
    ck_assert_int_eq(bmmc_plan_perform_local(plan, src2, dst2), 0);
    /* Same placement: where src1[x] went, src2[x] went. */
    uint64_t bad = 0;
    for (uint64_t x = 0; x < count; x++) {
        uint64_t y = bmmc_target_index(n, a.col, c, x);
        bad += dst1[y] != src1[x] || dst2[y] != src2[x];
    }
    ck_assert_uint_eq(bad, 0);
    /* In place: dst may be src. */
    ck_assert_int_eq(bmmc_plan_perform_local(plan, src1, src1), 0);
    ck_assert_int_eq(memcmp(src1, dst1, count * sizeof(uint64_t)), 0);
    free(src1); free(dst1); free(src2); free(dst2);
    bmmc_plan_free(plan);
}
END_TEST

START_TEST(test_permute_one_call)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 33);
    int n = 10, p = 3;
    Gf2Matrix a;
    uint64_t c = random_bmmc(&a, n, &rng);
    size_t count = (size_t)1 << n;
    uint64_t *src = distinct_elements(count, 5), *dst = malloc(count * sizeof(uint64_t));
    CkTally t = CK_TALLY_INIT;
    for (int f = 0; f <= n - p; f++) {
        /* The count below is meaningless after a failed call (dst is
         * whatever the last call left), so that stops the test. */
        int err = bmmc_permute(n, p, a.col, c, f, src, dst);
        if (err != 0)
            ck_abort_msg("f=%d: bmmc_permute returned %d: %s", f, err, bmmc_strerror(err));
        uint64_t bad = 0;
        for (uint64_t x = 0; x < count; x++)
            bad += dst[bmmc_target_index(n, a.col, c, x)] != src[x];
        ck_tally_uint(&t, 0, bad, "f=%d: elements misplaced", f);
    }
    ck_tally_assert(&t, "bmmc_permute n=%d p=%d", n, p);
    a.col[2] = a.col[0];
    ck_assert_int_eq(bmmc_permute(n, p, a.col, c, 0, src, dst), BMMC_ESINGULAR);
    free(src);
    free(dst);
}
END_TEST

/* The catalog's permutations, each performed through the factorisation in
 * every layout. */
START_TEST(test_perform_catalog_permutations)
{
    const char *const *names = bmmc_catalog_names();
    static const int shapes[][2] = {{10, 3}, {9, 5}, {8, 0}, {8, 8}};
    int tested = 0;
    CkTally t = CK_TALLY_INIT;
    for (size_t si = 0; si < G_N_ELEMENTS(shapes); si++) {
        int n = shapes[si][0], p = shapes[si][1];
        for (int i = 0; names[i] != NULL; i++) {
            const char *name = names[i];
            char sized[64];
            if (strcmp(name, "transpose:QxR") == 0) {
                snprintf(sized, sizeof sized, "transpose:%dx%d", 1 << (n / 2 - 1), 1 << (n - n / 2 + 1));
                name = sized;
            }
            Gf2Matrix a;
            uint64_t c;
            GError *err = NULL;
            /* Without the matrix there is nothing to perform. */
            if (!bmmc_catalog_named(name, n, &a, &c, &err))
                ck_abort_msg("%s n=%d: %s", name, n, err ? err->message : "");
            int fs[3], nf = layouts_for(n, p, fs);
            for (int li = 0; li < nf; li++) {
                BmmcPlan *plan = plan_or_stop(n, p, a.col, c, fs[li]);
                uint64_t bad = perform_mismatches(plan, &a, c, (uint64_t)i);
                ck_tally_uint(&t, 0, bad, "%s n=%d p=%d f=%d: elements misplaced", name, n, p,
                              fs[li]);
                bmmc_plan_free(plan);
                tested++;
            }
        }
    }
    ck_tally_assert(&t, "catalog permutations performed");
    ck_assert_int_ge(tested, 8 * 4);
}
END_TEST

/* Lemma 3 against the reference: the elements of processor k go to exactly
 * 2^rank gamma processors, N/(2^rank gamma P) to each, and those are the
 * processors line 3 names over the rounds; line 4 inverts line 3. */
START_TEST(test_lemma3_counts_against_reference)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 34);
    static const int shapes[][2] = {{6, 3}, {8, 2}, {9, 4}, {10, 5}, {11, 7}, {12, 3}};
    uint64_t *hits = NULL;
    CkTally tl = CK_TALLY_INIT;
    for (size_t si = 0; si < G_N_ELEMENTS(shapes); si++) {
        int n = shapes[si][0], p = shapes[si][1];
        uint64_t nprocs = UINT64_C(1) << p, local = UINT64_C(1) << (n - p);
        hits = realloc(hits, nprocs * sizeof *hits);
        int fs[3], nf = layouts_for(n, p, fs);
        for (int li = 0; li < nf; li++) {
            for (int kind = 0; kind < 3; kind++) {
                Gf2Matrix a;
                uint64_t c;
                int f = fs[li];
                BmmcPlan *plan = random_plan(n, p, kind, f, &rng, &a, &c);
                int r = bmmc_plan_rank_gamma(plan);
                uint64_t per_target = local >> r;
                for (uint64_t k = 0; k < nprocs; k++) {
                    memset(hits, 0, nprocs * sizeof *hits);
                    for (uint64_t off = 0; off < local; off++) {
                        uint64_t x = bmmc_layout_index(n, p, f, k, off);
                        uint64_t tk, toff;
                        bmmc_layout_locate(n, p, f, bmmc_target_index(n, a.col, c, x), &tk, &toff);
                        hits[tk]++;
                    }
                    uint64_t distinct = 0, bad = 0;
                    for (uint64_t t = 0; t < nprocs; t++) {
                        if (hits[t] == 0)
                            continue;
                        distinct++;
                        bad += hits[t] != per_target;
                    }
                    bool counts_ok = distinct == bmmc_plan_rounds(plan) && bad == 0;
                    ck_tally_true(&tl, counts_ok,
                                  "n=%d p=%d f=%d proc %llu: %llu targets (expected 2^%d), "
                                  "%llu not sent %llu elements",
                                  n, p, f, (unsigned long long)k, (unsigned long long)distinct,
                                  r, (unsigned long long)bad, (unsigned long long)per_target);
                    /* The rounds below are bounded by the count just
                     * checked: with it wrong, skip them. */
                    if (!counts_ok)
                        continue;
                    for (uint64_t b = 0; b < bmmc_plan_rounds(plan); b++) {
                        uint64_t t = bmmc_plan_target_proc(plan, k, b);
                        /* hits[t] needs t < P */
                        ck_tally_true(&tl, t < nprocs, "n=%d p=%d f=%d proc %llu round %llu: "
                                      "target %llu < P", n, p, f, (unsigned long long)k,
                                      (unsigned long long)b, (unsigned long long)t);
                        if (t >= nprocs)
                            continue;
                        ck_tally_uint(&tl, per_target, hits[t],
                                      "n=%d p=%d f=%d proc %llu round %llu: elements to %llu",
                                      n, p, f, (unsigned long long)k, (unsigned long long)b,
                                      (unsigned long long)t);
                        hits[t] = 0;    /* each target named in one round only */
                        ck_tally_uint(&tl, k, bmmc_plan_source_proc(plan, t, b),
                                      "n=%d p=%d f=%d round %llu: source of %llu", n, p, f,
                                      (unsigned long long)b, (unsigned long long)t);
                    }
                }
                bmmc_plan_free(plan);
            }
        }
    }
    free(hits);
    ck_tally_assert(&tl, "Lemma 3's targets against the reference");
}
END_TEST

typedef struct MessageLog {
    uint64_t nprocs;
    uint64_t rounds;
    uint64_t expected_count;
    uint64_t messages;
    uint64_t bad;
    uint64_t current_round;
    uint64_t *sent_in_round;      /* per sender, messages this round */
    uint64_t *received_in_round;  /* per target */
    uint64_t *targets;            /* per sender: bitmask of rounds' targets, as a list */
} MessageLog;

static void on_message(void *user, uint64_t round, uint64_t from, uint64_t to, uint64_t count)
{
    MessageLog *log = user;
    if (round != log->current_round) {
        log->bad += round != log->current_round + 1;
        memset(log->sent_in_round, 0, log->nprocs * sizeof(uint64_t));
        memset(log->received_in_round, 0, log->nprocs * sizeof(uint64_t));
        log->current_round = round;
    }
    log->bad += count != log->expected_count;
    log->bad += from >= log->nprocs || to >= log->nprocs || round >= log->rounds;
    if (from < log->nprocs && to < log->nprocs && round < log->rounds) {
        log->bad += log->sent_in_round[from]++ != 0;
        log->bad += log->received_in_round[to]++ != 0;
        log->targets[from * log->rounds + round] = to;
    }
    log->messages++;
}

/* Section 5's rounds as they happen: every round every processor sends one
 * message of N/(2^rank gamma P) elements and every processor receives one
 * (the round is a permutation of processors), and over the 2^rank gamma
 * rounds a processor sends to 2^rank gamma different processors. */
START_TEST(test_rounds_traced)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 35);
    static const int shapes[][2] = {{7, 3}, {10, 4}, {12, 6}, {13, 9}};
    CkTally t = CK_TALLY_INIT;
    for (size_t si = 0; si < G_N_ELEMENTS(shapes); si++) {
        int n = shapes[si][0], p = shapes[si][1];
        for (int kind = 0; kind < 6; kind++) {
            Gf2Matrix a;
            uint64_t c;
            BmmcPlan *plan = random_plan(n, p, kind, (n - p) / 3, &rng, &a, &c);
            MessageLog log = {
                .nprocs = UINT64_C(1) << p,
                .rounds = bmmc_plan_rounds(plan),
                .expected_count = UINT64_C(1) << (n - p - bmmc_plan_rank_gamma(plan)),
            };
            log.sent_in_round = calloc(log.nprocs, sizeof(uint64_t));
            log.received_in_round = calloc(log.nprocs, sizeof(uint64_t));
            log.targets = calloc(log.nprocs * log.rounds, sizeof(uint64_t));
            size_t count = (size_t)1 << n;
            uint64_t *src = distinct_elements(count, 9), *dst = malloc(count * sizeof(uint64_t));
            int err = bmmc_plan_perform_local_traced(plan, src, dst, on_message, &log);
            if (err != 0)   /* no rounds to check */
                ck_abort_msg("n=%d p=%d kind %d: perform_local_traced: %s", n, p, kind,
                             bmmc_strerror(err));
            ck_tally_uint(&t, 0, log.bad, "n=%d p=%d kind %d: bad messages", n, p, kind);
            ck_tally_uint(&t, log.rounds * log.nprocs, log.messages, "n=%d p=%d kind %d: messages",
                          n, p, kind);
            ck_tally_uint(&t, log.rounds - 1, log.current_round, "n=%d p=%d kind %d: last round",
                          n, p, kind);
            for (uint64_t k = 0; k < log.nprocs; k++)
                for (uint64_t b = 0; b < log.rounds; b++)
                    for (uint64_t b2 = 0; b2 < b; b2++)
                        ck_tally_true(&t, log.targets[k * log.rounds + b]
                                          != log.targets[k * log.rounds + b2],
                                      "n=%d p=%d kind %d: processor %llu sends to one target in "
                                      "rounds %llu and %llu", n, p, kind, (unsigned long long)k,
                                      (unsigned long long)b2, (unsigned long long)b);
            uint64_t bad = 0;
            for (uint64_t x = 0; x < count; x++)
                bad += dst[bmmc_target_index(n, a.col, c, x)] != src[x];
            ck_tally_uint(&t, 0, bad, "n=%d p=%d kind %d: elements misplaced", n, p, kind);
            free(src); free(dst);
            free(log.sent_in_round); free(log.received_in_round); free(log.targets);
            bmmc_plan_free(plan);
        }
    }
    ck_tally_assert(&t, "traced rounds");
}
END_TEST

/* Phase 1 on one processor is x' = W x (equation (1)): the element at
 * offset x goes to the offset made of the low n-p bits of W (k, x), and the
 * processor bits of W (k, x) are k again (intraprocessor). */
START_TEST(test_intraprocessor_is_w)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 36);
    static const int shapes[][2] = {{6, 2}, {10, 3}, {11, 6}, {12, 0}, {5, 5}};
    CkTally t = CK_TALLY_INIT;
    for (size_t si = 0; si < G_N_ELEMENTS(shapes); si++) {
        int n = shapes[si][0], p = shapes[si][1], m = n - p;
        Gf2Matrix a;
        gf2_random_nonsingular(&a, n, &rng);
        BmmcPlan *plan = plan_or_stop(n, p, a.col, 0, m);
        const Gf2Matrix *w = bmmc_plan_matrix(plan, BMMC_MATRIX_W);
        size_t local = (size_t)1 << m;
        uint64_t *data = malloc(local * sizeof(uint64_t)), *temp = malloc(local * sizeof(uint64_t));
        uint64_t bad = 0;
        for (uint64_t k = 0; k < (UINT64_C(1) << p); k += 1 + (k % 3)) {
            for (uint64_t x = 0; x < local; x++)
                data[x] = element_value(x, k);
            bmmc_plan_intraprocessor(plan, k, data, temp);
            for (uint64_t x = 0; x < local; x++) {
                uint64_t xp = gf2_mul_vec(w, (k << m) | x);
                bad += (xp >> m) != k;
                bad += temp[xp & gf2_mask(m)] != data[x];
            }
        }
        ck_tally_uint(&t, 0, bad, "n=%d p=%d: elements not where W puts them", n, p);
        free(data);
        free(temp);
        bmmc_plan_free(plan);
    }
    ck_tally_assert(&t, "phase 1 against W");
}
END_TEST

/* Appendix B: the order visits every offset exactly once, the j-th offset
 * is the binary reflected Gray code j XOR (j >> 1), and consecutive
 * offsets differ in the rightmost 1 of j. */
START_TEST(test_gray_order_appendix_b)
{
    CkTally t = CK_TALLY_INIT;
    for (int bits = 0; bits <= 16; bits++) {
        uint64_t count = UINT64_C(1) << bits;
        unsigned char *seen = calloc(count, 1);
        BmmcGray g;
        bmmc_gray_first(&g, bits);
        uint64_t visits = 0, bad = 0, prev = 0;
        ck_tally_int(&t, -1, g.flip, "bits=%d: first flip", bits);
        do {
            bad += g.offset >= count;
            if (g.offset < count)
                bad += seen[g.offset]++ != 0;
            bad += g.offset != (g.step ^ (g.step >> 1));
            bad += g.step != visits;
            if (visits > 0)
                bad += gf2_popcount(g.offset ^ prev) != 1
                       || (g.offset ^ prev) != (UINT64_C(1) << g.flip);
            prev = g.offset;
            visits++;
        } while (bmmc_gray_next(&g));
        ck_tally_true(&t, visits == count && bad == 0, "bits=%d: %llu visits, %llu bad", bits,
                      (unsigned long long)visits, (unsigned long long)bad);
        ck_tally_true(&t, !bmmc_gray_next(&g), "bits=%d: stays finished", bits);
        free(seen);
    }
    ck_tally_assert(&t, "Gray order");
    /* The nibble method against a bit-at-a-time scan. */
    Gf2Rng rng;
    gf2_rng_init(&rng, 37);
    CkTally tf = CK_TALLY_INIT;
    for (int i = 0; i < 64; i++)
        ck_tally_int(&tf, i, bmmc_gray_flip_bit(UINT64_C(1) << i), "flip bit of 1 << %d", i);
    for (uint64_t q = 1; q < 5000; q++)
        ck_tally_int(&tf, gf2_lowest_bit(q), bmmc_gray_flip_bit(q), "flip bit of %llu",
                     (unsigned long long)q);
    for (int i = 0; i < 1000; i++) {
        uint64_t q = gf2_rng_next(&rng) << (gf2_rng_next(&rng) % 64);
        if (q != 0)
            ck_tally_int(&tf, gf2_lowest_bit(q), bmmc_gray_flip_bit(q), "flip bit of 0x%llx",
                         (unsigned long long)q);
    }
    ck_tally_assert(&tf, "bmmc_gray_flip_bit");
}
END_TEST

/* Lemma 1: composition and inverse are BMMC, with A'' = A' A,
 * c'' = A' c XOR c', and inverse A^-1, A^-1 c. */
START_TEST(test_lemma1_compose_and_inverse)
{
    Gf2Rng rng;
    gf2_rng_init(&rng, 38);
    CkTally t = CK_TALLY_INIT;
    for (int n = 1; n <= 64; n += 9) {
        Gf2Matrix a1, a2;
        gf2_random_nonsingular(&a1, n, &rng);
        gf2_random_nonsingular(&a2, n, &rng);
        uint64_t c1 = gf2_rng_bits(&rng, n), c2 = gf2_rng_bits(&rng, n);
        uint64_t ac[GF2_MAX_DIM], cc, ai[GF2_MAX_DIM], ci;
        /* Without the composition and the inverse their outputs are unset:
         * nothing to check. */
        int err = bmmc_compose(n, a1.col, c1, a2.col, c2, ac, &cc);
        if (err != 0)
            ck_abort_msg("n=%d: bmmc_compose returned %d", n, err);
        err = bmmc_inverse(n, a1.col, c1, ai, &ci);
        if (err != 0)
            ck_abort_msg("n=%d: bmmc_inverse returned %d", n, err);
        for (int i = 0; i < 200; i++) {
            uint64_t x = gf2_rng_bits(&rng, n);
            uint64_t y1 = bmmc_target_index(n, a1.col, c1, x);
            ck_tally_uint(&t, bmmc_target_index(n, a2.col, c2, y1), bmmc_target_index(n, ac, cc, x),
                          "n=%d x=0x%llx: composition", n, (unsigned long long)x);
            ck_tally_uint(&t, x, bmmc_target_index(n, ai, ci, y1), "n=%d y=0x%llx: inverse", n,
                          (unsigned long long)y1);
        }
    }
    ck_tally_assert(&t, "Lemma 1");
    uint64_t sing[3] = {1, 2, 3}, out[3], oc;
    ck_assert_int_eq(bmmc_inverse(3, sing, 0, out, &oc), BMMC_ESINGULAR);
    ck_assert_int_eq(bmmc_compose(65, sing, 0, sing, 0, out, &oc), BMMC_EN);
}
END_TEST

/* ==== Error codes ==== */

START_TEST(test_plan_errors)
{
    Gf2Matrix id;
    gf2_identity(&id, 8);
    static char sentinel;
    BmmcPlan *plan = (BmmcPlan *)(void *)&sentinel;   /* reset to NULL on error */
    ck_assert_int_eq(bmmc_plan_new(8, 9, id.col, 0, 0, &plan), BMMC_EP);
    ck_assert_ptr_null(plan);
    ck_assert_str_eq(bmmc_strerror(BMMC_EP), "p (lg of the number of processors) must be between 0 and n");
    ck_assert_int_eq(bmmc_plan_new(8, -1, id.col, 0, 0, &plan), BMMC_EP);

    Gf2Matrix sing = id;
    sing.col[5] = sing.col[2] ^ sing.col[7];
    ck_assert_int_eq(bmmc_plan_new(8, 3, sing.col, 0, 5, &plan), BMMC_ESINGULAR);
    ck_assert_ptr_null(plan);
    ck_assert_str_eq(bmmc_strerror(BMMC_ESINGULAR), "characteristic matrix is singular over GF(2)");

    uint64_t big[65] = {0};
    ck_assert_int_eq(bmmc_plan_new(65, 1, big, 0, 0, &plan), BMMC_EN);
    ck_assert_str_eq(bmmc_strerror(BMMC_EN), "n (lg of the number of elements) must be between 0 and 64");
    ck_assert_int_eq(bmmc_plan_new(8, 3, id.col, 0, 6, &plan), BMMC_ELAYOUT);
    ck_assert_int_eq(bmmc_plan_new(8, 3, id.col, 0, -1, &plan), BMMC_ELAYOUT);
    ck_assert_str_eq(bmmc_strerror(BMMC_ELAYOUT),
                     "layout f (position of the lowest processor bit) must be between 0 and n - p");
    Gf2Matrix wide = id;
    wide.col[3] |= UINT64_C(1) << 8;
    ck_assert_int_eq(bmmc_plan_new(8, 3, wide.col, 0, 0, &plan), BMMC_EMATRIX);
    ck_assert_int_eq(bmmc_plan_new(8, 3, id.col, 0x100, 0, &plan), BMMC_ECOMPLEMENT);
    ck_assert_int_eq(bmmc_plan_new(8, 3, NULL, 0, 0, &plan), BMMC_EINVAL);
    ck_assert_int_eq(bmmc_plan_new(8, 3, id.col, 0, 0, NULL), BMMC_EINVAL);
    ck_assert_str_eq(bmmc_strerror(12345), "unknown error");
    ck_assert_str_eq(bmmc_strerror(0), "success");

    /* Valid extremes: one processor, one element per processor. */
    ck_assert_int_eq(bmmc_plan_new(8, 0, id.col, 0, 0, &plan), 0);
    bmmc_plan_free(plan);
    ck_assert_int_eq(bmmc_plan_new(8, 8, id.col, 0, 0, &plan), 0);
    bmmc_plan_free(plan);

    /* Too large to perform in one address space, though it factors. */
    Gf2Matrix id25;
    gf2_identity(&id25, BMMC_LOCAL_MAX_N + 1);
    ck_assert_int_eq(bmmc_plan_new(BMMC_LOCAL_MAX_N + 1, 4, id25.col, 0, 0, &plan), 0);
    uint64_t word = 0;
    ck_assert_int_eq(bmmc_plan_perform_local(plan, &word, &word), BMMC_ELOCAL);
    bmmc_plan_free(plan);
}
END_TEST

/* ==== Catalog (Appendix C, Section 1) ==== */

static uint64_t reverse_bits(uint64_t x, int n)
{
    uint64_t y = 0;
    for (int i = 0; i < n; i++)
        y |= ((x >> (n - 1 - i)) & 1) << i;
    return y;
}

static uint64_t rotl(uint64_t x, int n)
{
    if (n == 0)
        return x;
    return ((x << 1) | (x >> (n - 1))) & gf2_mask(n);
}

static uint64_t rotr(uint64_t x, int n)
{
    if (n == 0)
        return x;
    return ((x >> 1) | ((x & 1) << (n - 1))) & gf2_mask(n);
}

/* Appendix C definitions, element by element, for n = 0..12. */
START_TEST(test_catalog_definitions)
{
    CkTally t = CK_TALLY_INIT;
    for (int n = 0; n <= 12; n++) {
        uint64_t count = UINT64_C(1) << n;
        Gf2Matrix a, g, gi;
        uint64_t c, gc, gic;
        GError *err = NULL;
        uint64_t bad = 0;

/* Without the matrix the loops below would read an unset one: stop. */
#define NAMED(name) do { \
        if (!bmmc_catalog_named(name, n, &a, &c, &err)) \
            ck_abort_msg("%s n=%d: %s", name, n, err ? err->message : ""); \
        ck_tally_true(&t, gf2_is_nonsingular(&a), "%s n=%d: nonsingular", name, n); } while (0)

        NAMED("identity");
        for (uint64_t x = 0; x < count; x++)
            bad += bmmc_target_index(n, a.col, c, x) != x;
        NAMED("bit-reversal");
        for (uint64_t x = 0; x < count; x++)
            bad += bmmc_target_index(n, a.col, c, x) != reverse_bits(x, n);
        NAMED("vector-reversal");   /* element i to N - i - 1 */
        for (uint64_t x = 0; x < count; x++)
            bad += bmmc_target_index(n, a.col, c, x) != count - x - 1;
        NAMED("gray");              /* y_i = x_i ^ x_{i+1} */
        for (uint64_t x = 0; x < count; x++)
            bad += bmmc_target_index(n, a.col, c, x) != (x ^ (x >> 1));
        NAMED("shuffle");
        for (uint64_t x = 0; x < count; x++)
            bad += bmmc_target_index(n, a.col, c, x) != rotl(x, n);
        if (n >= 1)                 /* first half x -> 2x, second half -> 2(x - N/2) + 1 */
            for (uint64_t x = 0; x < count; x++)
                bad += bmmc_target_index(n, a.col, c, x)
                       != (x < count / 2 ? 2 * x : 2 * (x - count / 2) + 1);
        NAMED("unshuffle");
        for (uint64_t x = 0; x < count; x++)
            bad += bmmc_target_index(n, a.col, c, x) != rotr(x, n);
        /* gray-inverse undoes gray, both ways. */
        if (!bmmc_catalog_named("gray", n, &g, &gc, NULL)
            || !bmmc_catalog_named("gray-inverse", n, &gi, &gic, NULL))
            ck_abort_msg("n=%d: no gray or gray-inverse", n);
        for (uint64_t x = 0; x < count; x++) {
            bad += bmmc_target_index(n, gi.col, gic, bmmc_target_index(n, g.col, gc, x)) != x;
            bad += bmmc_target_index(n, g.col, gc, bmmc_target_index(n, gi.col, gic, x)) != x;
        }
#undef NAMED
        ck_tally_uint(&t, 0, bad, "n=%d: elements wrong", n);
    }
    ck_tally_assert(&t, "Appendix C definitions");
}
END_TEST

/* Appendix C, matrix (6): the Gray-code characteristic matrix for N = 64. */
START_TEST(test_catalog_gray_matrix_6)
{
    static const int rows[6][6] = {
        {1, 1, 0, 0, 0, 0}, {0, 1, 1, 0, 0, 0}, {0, 0, 1, 1, 0, 0},
        {0, 0, 0, 1, 1, 0}, {0, 0, 0, 0, 1, 1}, {0, 0, 0, 0, 0, 1},
    };
    Gf2Matrix a, expect;
    uint64_t c;
    ck_assert(bmmc_catalog_named("gray", 6, &a, &c, NULL));
    gf2_zero(&expect, 6, 6);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            gf2_set(&expect, i, j, rows[i][j]);
    ck_assert(gf2_equal(&a, &expect));
    ck_assert_uint_eq(c, 0);
    /* bit-reversal: 1s on the antidiagonal; vector-reversal: I and all ones. */
    ck_assert(bmmc_catalog_named("bit-reversal", 6, &a, &c, NULL));
    CkTally t = CK_TALLY_INIT;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            ck_tally_int(&t, i + j == 5, gf2_get(&a, i, j), "bit-reversal entry (%d,%d)", i, j);
    ck_tally_assert(&t, "bit-reversal matrix, n = 6");
    ck_assert(bmmc_catalog_named("vector-reversal", 6, &a, &c, NULL));
    gf2_identity(&expect, 6);
    ck_assert(gf2_equal(&a, &expect));
    ck_assert_uint_eq(c, 63);
}
END_TEST

/* Appendix C: transpose:QxR takes entry (i, j) of the row-major Q x R
 * matrix (index i R + j) to entry (j, i) of the R x Q result (index
 * j Q + i); shuffle and unshuffle are the 2 x N/2 and N/2 x 2 cases. */
START_TEST(test_catalog_transpose_moves_ij_to_ji)
{
    CkTally t = CK_TALLY_INIT;
    for (int n = 0; n <= 12; n++) {
        for (int lq = 0; lq <= n; lq++) {
            uint64_t q = UINT64_C(1) << lq, r = UINT64_C(1) << (n - lq);
            char name[64];
            snprintf(name, sizeof name, "transpose:%llux%llu", (unsigned long long)q,
                     (unsigned long long)r);
            Gf2Matrix a;
            uint64_t c;
            GError *err = NULL;
            /* Without the matrix the checks below would read an unset one. */
            if (!bmmc_catalog_named(name, n, &a, &c, &err))
                ck_abort_msg("%s: %s", name, err ? err->message : "");
            ck_tally_uint(&t, 0, c, "%s: complement", name);
            uint64_t bad = 0;
            for (uint64_t i = 0; i < q; i++)
                for (uint64_t j = 0; j < r; j++)
                    bad += bmmc_target_index(n, a.col, c, i * r + j) != j * q + i;
            ck_tally_uint(&t, 0, bad, "%s: elements misplaced", name);
            /* Appendix C's block form [0 I; I 0]: the top lg Q rows take the
             * row bits (the top lg Q index bits). */
            ck_tally_true(&t, block_is_zero(&a, 0, lq - 1, 0, n - lq - 1), "%s: top-left 0", name);
            ck_tally_true(&t, block_is_identity(&a, 0, lq - 1, n - lq, n - 1), "%s: top-right I",
                          name);
            ck_tally_true(&t, block_is_identity(&a, lq, n - 1, 0, n - lq - 1), "%s: bottom-left I",
                          name);
            ck_tally_true(&t, block_is_zero(&a, lq, n - 1, n - lq, n - 1), "%s: bottom-right 0",
                          name);
            if (n >= 1 && (lq == 1 || lq == n - 1)) {
                const char *other = lq == 1 ? "shuffle" : "unshuffle";
                Gf2Matrix s;
                uint64_t sc;
                if (!bmmc_catalog_named(other, n, &s, &sc, NULL))
                    ck_abort_msg("%s n=%d: not in the catalog", other, n);
                ck_tally_true(&t, gf2_equal(&a, &s), "%s == %s", name, other);
            }
        }
    }
    ck_tally_assert(&t, "transpose:QxR for n <= 12");
    /* The introduction's matrix transpose, done through the factorisation:
     * transpose:16x64 on 2^10 elements over 8 processors. */
    Gf2Matrix a;
    uint64_t c;
    ck_assert(bmmc_catalog_named("transpose:16x64", 10, &a, &c, NULL));
    uint64_t src[1024], dst[1024];
    for (uint64_t x = 0; x < 1024; x++)
        src[x] = element_value(x, 3);
    CkTally tp = CK_TALLY_INIT;
    for (int f = 0; f <= 7; f += 7) {
        /* dst after a failed call holds nothing to compare */
        int err = bmmc_permute(10, 3, a.col, c, f, src, dst);
        if (err != 0)
            ck_abort_msg("transpose:16x64 f=%d: bmmc_permute returned %d", f, err);
        for (uint64_t i = 0; i < 16; i++)
            for (uint64_t j = 0; j < 64; j++)
                ck_tally_uint(&tp, src[i * 64 + j], dst[j * 16 + i],
                              "transpose:16x64 f=%d: (%llu,%llu)", f,
                              (unsigned long long)i, (unsigned long long)j);
    }
    ck_tally_assert(&tp, "transpose:16x64 performed");
}
END_TEST

/* The catalog's parsers, for the tables of calls that must fail. */
typedef enum {
    CATALOG_NAMED,          /* bmmc_catalog_named */
    CATALOG_COLUMNS,        /* bmmc_catalog_parse_columns */
    CATALOG_COMPLEMENT,     /* bmmc_catalog_parse_complement */
    CATALOG_PARSE,          /* bmmc_catalog_parse */
} CatalogCall;

/* CALL on TEXT for n = N fails with CODE and exactly MESSAGE. */
typedef struct {
    CatalogCall call;
    const char *text;
    int n;
    int code;
    const char *message;
} CatalogError;

/* Makes every call of CASES, each of which must fail with its error; A and
 * C are what the calls may write (the caller checks that they did not). */
static void expect_errors(const CatalogError *cases, size_t count,
                          Gf2Matrix *a, uint64_t *c)
{
    for (size_t i = 0; i < count; i++) {
        const CatalogError *x = &cases[i];
        GError *err = NULL;
        gboolean ok;
        switch (x->call) {
        case CATALOG_NAMED:
            ok = bmmc_catalog_named(x->text, x->n, a, c, &err);
            break;
        case CATALOG_COLUMNS:
            ok = bmmc_catalog_parse_columns(x->text, x->n, a, &err);
            break;
        case CATALOG_COMPLEMENT:
            ok = bmmc_catalog_parse_complement(x->text, x->n, c, &err);
            break;
        default:
            ok = bmmc_catalog_parse(x->text, x->n, a, c, &err);
            break;
        }
        ck_assert_msg(!ok, "'%s' (n = %d) accepted", x->text, x->n);
        ck_assert_ptr_nonnull(err);
        ck_assert(err->domain == BMMC_CATALOG_ERROR);
        ck_assert_msg(err->code == x->code, "'%s': error code %d, expected %d",
                      x->text, err->code, x->code);
        ck_assert_str_eq(err->message, x->message);
        g_clear_error(&err);
    }
}

static const CatalogError catalog_errors[] = {
    { CATALOG_NAMED, "bitreversal", 4, BMMC_CATALOG_ERROR_UNKNOWN,
      "unknown permutation 'bitreversal'; valid: identity, bit-reversal, "
      "vector-reversal, gray, gray-inverse, shuffle, unshuffle, transpose:QxR" },
    { CATALOG_NAMED, "transpose:16", 4, BMMC_CATALOG_ERROR_SIZE,
      "'transpose:16' is not of the form transpose:QxR (Q rows, R columns, "
      "decimal powers of two)" },
    { CATALOG_NAMED, "transpose:3x4", 4, BMMC_CATALOG_ERROR_SIZE,
      "transpose:3x4: 3 is not a power of two" },
    { CATALOG_NAMED, "transpose:4x0", 2, BMMC_CATALOG_ERROR_SIZE,
      "transpose:4x0: 0 is not a power of two" },
    { CATALOG_NAMED, "transpose:16x32", 8, BMMC_CATALOG_ERROR_SIZE,
      "transpose:16x32: Q x R = 2^9 elements, but n = 8 needs 2^8" },
    { CATALOG_NAMED, "gray", 65, BMMC_CATALOG_ERROR_SIZE,
      "n = 65 is out of range 0..64" },
    { CATALOG_COLUMNS, "1,2,4", 4, BMMC_CATALOG_ERROR_COLUMNS,
      "columns: expected 4 columns for n = 4, got 3" },
    { CATALOG_COLUMNS, "1, 2, 0xg, 8", 4, BMMC_CATALOG_ERROR_COLUMNS,
      "columns: column 2 '0xg' is not a decimal or 0x-prefixed hex word" },
    { CATALOG_COLUMNS, "1,2,-4,8", 4, BMMC_CATALOG_ERROR_COLUMNS,
      "columns: column 2 '-4' is not a decimal or 0x-prefixed hex word" },
    { CATALOG_COLUMNS, "1,2,4,0x10", 4, BMMC_CATALOG_ERROR_COLUMNS,
      "columns: column 3 = 0x10 has a 1 at or above row n = 4" },
    { CATALOG_COLUMNS, "0x3, 0x1, 0x2, 0x8", 4, BMMC_CATALOG_ERROR_SINGULAR,
      "columns: singular over GF(2), rank 3 of 4: column 0 = column 1 + column 2" },
    { CATALOG_COLUMNS, "1,0,4,8", 4, BMMC_CATALOG_ERROR_SINGULAR,
      "columns: singular over GF(2), rank 3 of 4: column 1 is zero" },
    { CATALOG_COMPLEMENT, "0x", 4, BMMC_CATALOG_ERROR_COMPLEMENT,
      "complement: '0x' is not a decimal or 0x-prefixed hex word" },
    { CATALOG_COMPLEMENT, "16", 4, BMMC_CATALOG_ERROR_COMPLEMENT,
      "complement: 0x10 has a 1 at or above position n = 4" },
    { CATALOG_COMPLEMENT, "99999999999999999999", 64, BMMC_CATALOG_ERROR_COMPLEMENT,
      "complement: '99999999999999999999' is not a decimal or 0x-prefixed hex word" },
};

START_TEST(test_catalog_errors_exact_messages)
{
    Gf2Matrix a, untouched;
    uint64_t c = 42;
    gf2_identity(&a, 2);
    untouched = a;
    expect_errors(catalog_errors, G_N_ELEMENTS(catalog_errors), &a, &c);
    /* Failures leave the outputs alone. */
    ck_assert(gf2_equal(&a, &untouched));
    ck_assert_uint_eq(c, 42);
}
END_TEST

/* Whole texts: all errors collected, each with its line. */
static const CatalogError parse_errors[] = {
    { CATALOG_PARSE, "permutation = grey\nsize 4\ncolums = 1\n"
                     "complement = 0x20\ncomplement = 1\n", 4,
      BMMC_CATALOG_ERROR_UNKNOWN,
      "line 1: unknown permutation 'grey'; valid: identity, bit-reversal, "
      "vector-reversal, gray, gray-inverse, shuffle, unshuffle, transpose:QxR\n"
      "line 2: expected 'key = value', got 'size 4'\n"
      "line 3: unknown key 'colums'; valid: permutation, columns, complement\n"
      "line 4: complement: 0x20 has a 1 at or above position n = 4\n"
      "line 5: 'complement' already given on line 4" },
    { CATALOG_PARSE, "permutation = gray\ncolumns = 1,2,4,8", 4,
      BMMC_CATALOG_ERROR_SYNTAX,
      "give one of 'permutation' (line 1) and 'columns' (line 2), not both" },
    { CATALOG_PARSE, "complement = 1", 4, BMMC_CATALOG_ERROR_SYNTAX,
      "no 'permutation' or 'columns' given" },
};

START_TEST(test_catalog_parse_text)
{
    Gf2Matrix a, expect;
    uint64_t c;
    GError *err = NULL;
    /* Hex and decimal words, blanks around them. */
    ck_assert(bmmc_catalog_parse_columns(" 0x2, 1 ,0X4,8 ", 4, &a, &err));
    gf2_identity(&expect, 4);
    expect.col[0] = 2;
    expect.col[1] = 1;
    ck_assert(gf2_equal(&a, &expect));
    ck_assert(bmmc_catalog_parse_complement(" 0xF ", 4, &c, &err));
    ck_assert_uint_eq(c, 15);
    ck_assert(bmmc_catalog_parse_complement("18446744073709551615", 64, &c, &err));
    ck_assert_uint_eq(c, UINT64_MAX);

    ck_assert(bmmc_catalog_parse("# a comment\ncolumns = 2,1,4,8\n\ncomplement = 5\n", 4,
                                 &a, &c, &err));
    ck_assert(gf2_equal(&a, &expect));
    ck_assert_uint_eq(c, 5);
    ck_assert(bmmc_catalog_parse("permutation = vector-reversal", 5, &a, &c, &err));
    gf2_identity(&expect, 5);
    ck_assert(gf2_equal(&a, &expect));
    ck_assert_uint_eq(c, 31);
    ck_assert(bmmc_catalog_parse("permutation = vector-reversal\ncomplement = 0", 5, &a, &c, &err));
    ck_assert_uint_eq(c, 0);
    ck_assert_ptr_null(err);
    expect_errors(parse_errors, G_N_ELEMENTS(parse_errors), &a, &c);
}
END_TEST

static Suite *bmmc_lib_suite(void)
{
    const CkTest gf2[] = {
        { test_gf2_identity_zero_get_set, 0 },
        { test_gf2_mul_vec_section2_definition, 0 },
        { test_gf2_table_matches_mul_vec, 0 },
        { test_gf2_mul_associative_and_transpose_rule, 0 },
        { test_gf2_transpose_twice_is_identity, 0 },
        { test_gf2_inverse_random_nonsingular_up_to_64, 0 },
        { test_gf2_inverse_rejects_singular, 0 },
        { test_gf2_section3_column_addition_example, 0 },
        { test_gf2_rank_known_matrices, 0 },
        { test_gf2_column_basis_appendix_a, 0 },
        { test_gf2_submatrix, 0 },
        { test_gf2_random_is_deterministic, 0 },
        { NULL, 0 },
    };
    const CkTest factor[] = {
        { test_factor_forms_random_shapes, 0 },
        { test_factor_forms_n64, 0 },
        { test_factor_known_rank_gamma, 0 },
        { test_layout_figure1, 0 },
        { test_layout_section6_adjustment, 0 },
        { test_lemma1_compose_and_inverse, 0 },
        { test_plan_errors, 0 },
        { NULL, 0 },
    };
    const CkTest perform[] = {
        { test_perform_matches_reference_all_layouts, 0 },
        { test_perform_same_plan_twice_different_data, 0 },
        { test_permute_one_call, 0 },
        { test_perform_catalog_permutations, 0 },
        { test_lemma3_counts_against_reference, 0 },
        { test_rounds_traced, 0 },
        { test_intraprocessor_is_w, 0 },
        { test_gray_order_appendix_b, 0 },
        { NULL, 0 },
    };
    const CkTest catalog[] = {
        { test_catalog_definitions, 0 },
        { test_catalog_gray_matrix_6, 0 },
        { test_catalog_transpose_moves_ij_to_ji, 0 },
        { test_catalog_errors_exact_messages, 0 },
        { test_catalog_parse_text, 0 },
        { NULL, 0 },
    };
    Suite *s = suite_create("bmmc_lib");
    ck_add_tcase(s, "gf2", TEST_TIMEOUT_SECONDS, gf2);
    ck_add_tcase(s, "factor", TEST_TIMEOUT_SECONDS, factor);
    ck_add_tcase(s, "perform", TEST_TIMEOUT_SECONDS, perform);
    ck_add_tcase(s, "catalog", TEST_TIMEOUT_SECONDS, catalog);
    return s;
}

CUBE_CHECK_MAIN(bmmc_lib_suite)
