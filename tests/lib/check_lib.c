/* check_lib.c -- libcubemu's tests, an MPI program built against the
 * installed library through pkg-config (tests/lib-mpi.sh runs it under
 * mpirun -np 1, 2, 4, 8 and 6).
 *
 * Every expected result is computed here, from the definitions in
 * cubemu.h, independently of the library and of cubemu's sources:
 *   - BMMC (Cormen 1997, Section 2; layouts of Section 6, Figure 1):
 *     random nonsingular matrices (inverted here by Gaussian elimination
 *     to prove it), random complements, every layout f = 0..n-p, element
 *     sizes 1 to 24 bytes; a plan factored once performs three times on
 *     different data, in place and not. Each rank checks that each of its
 *     N/P destination slots holds the one element whose A x XOR c lands
 *     there, byte for byte: nothing lost, nothing duplicated.
 *   - Gray <-> binary (Johnsson & Ho 1990, Section 4): rank i ends with
 *     rank G(i)'s block, and back.
 *   - Transposes (Al Na'mneh, Pan & Yoo 2006): every method, sides of
 *     1 to 4 blocks a rank, element sizes 1 to 24 bytes, against
 *     element (r, c) moving to (c, r).
 *   - Error paths: a communicator of 3 ranks, a singular matrix, ranks
 *     disagreeing on the element size or the matrix, NULL data on one
 *     rank, every range check: each returns the same code on every rank,
 *     and a correct call afterwards still works.
 *   - Isolation: a receive the caller posted on its own communicator for
 *     any source and tag is not matched by the library's messages.
 */
#include <cubemu.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures, checks;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        checks++;                                                            \
        if (!(cond)) {                                                       \
            failures++;                                                      \
            fprintf(stderr, "rank %d: %s:%d: ", rank, __FILE__, __LINE__);   \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
        }                                                                    \
    } while (0)

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

/* The same stream on every rank (arguments must agree). */
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Byte b of the element with global identity id, under data seed s. */
static unsigned char content(uint64_t id, size_t b, uint64_t s)
{
    uint64_t x = (id + 1) * 0x9e3779b97f4a7c15ULL ^ (b + 1) * 0xc2b2ae3d27d4eb4fULL ^ s;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 32;
    return (unsigned char)x;
}

static void fill(unsigned char *e, uint64_t id, size_t es, uint64_t s)
{
    for (size_t b = 0; b < es; b++)
        e[b] = content(id, b, s);
}

static int holds(const unsigned char *e, uint64_t id, size_t es, uint64_t s)
{
    for (size_t b = 0; b < es; b++)
        if (e[b] != content(id, b, s))
            return 0;
    return 1;
}

/* ---- GF(2) and layouts, from the definitions ---- */

static uint64_t mul(int n, const uint64_t *cols, uint64_t x)
{
    uint64_t y = 0;
    for (int j = 0; j < n; j++)
        if (x >> j & 1)
            y ^= cols[j];
    return y;
}

/* Invertible? Gaussian elimination on a copy of the columns. */
static int invertible(int n, const uint64_t *cols)
{
    uint64_t c[64];
    memcpy(c, cols, (size_t)n * sizeof *c);
    for (int row = 0; row < n; row++) {
        int piv = -1;
        for (int j = row; j < n; j++)
            if (c[j] >> row & 1) {
                piv = j;
                break;
            }
        if (piv < 0)
            return 0;
        uint64_t t = c[piv];
        c[piv] = c[row];
        c[row] = t;
        for (int j = 0; j < n; j++)
            if (j != row && (c[j] >> row & 1))
                c[j] ^= c[row];
    }
    return 1;
}

static void random_matrix(int n, uint64_t *cols)
{
    uint64_t mask = n == 64 ? ~0ULL : (1ULL << n) - 1;
    do
        for (int j = 0; j < n; j++)
            cols[j] = next() & mask;
    while (!invertible(n, cols));
}

/* Figure 1: the rank of index x is bits f..f+p-1; its offset is the low f
 * bits followed by bits f+p..n-1. */
static void locate(int n, int p, int f, uint64_t x, uint64_t *proc,
                   uint64_t *off)
{
    (void)n;
    uint64_t low = x & ((1ULL << f) - 1);
    *proc = (x >> f) & ((1ULL << p) - 1);
    *off = low | (x >> (f + p)) << f;
}

static uint64_t index_of(int p, int f, uint64_t proc, uint64_t off)
{
    uint64_t low = off & ((1ULL << f) - 1);
    return low | proc << f | (off >> f) << (f + p);
}

/* ---- BMMC ---- */

static void test_bmmc_case(int n, int p, int f, size_t es, int in_place)
{
    uint64_t cols[64], c = next() & ((1ULL << n) - 1);
    random_matrix(n, cols);
    uint64_t m = 1ULL << (n - p);
    unsigned char *src = malloc(m * es), *dst = malloc(m * es);
    int layout = f;
    if (f == n - p && (next() & 1))
        layout = CUBEMU_LAYOUT_PROCESSOR_MAJOR;
    cubemu_bmmc_plan *plan = NULL;
    int code = cubemu_bmmc_factor(MPI_COMM_WORLD, n, cols, c, layout, &plan);
    CHECK(code == 0, "factor n=%d f=%d: %s", n, f, cubemu_strerror(code));
    if (code) {
        free(src);
        free(dst);
        return;
    }
    for (uint64_t s = 1; s <= 3; s++) {
        for (uint64_t o = 0; o < m; o++)
            fill(src + o * es, index_of(p, f, (uint64_t)rank, o), es, s);
        unsigned char *out = in_place ? src : dst;
        memset(dst, 0xa5, m * es);
        code = cubemu_bmmc_perform(plan, src, out, es);
        CHECK(code == 0, "perform: %s", cubemu_strerror(code));
        /* Every source x lands at A x ^ c: check the ones landing here,
         * and that they fill every slot exactly once. */
        uint64_t landed = 0, wrong = 0;
        for (uint64_t x = 0; x < 1ULL << n; x++) {
            uint64_t proc, off;
            locate(n, p, f, mul(n, cols, x) ^ c, &proc, &off);
            if (proc != (uint64_t)rank)
                continue;
            landed++;
            if (!holds(out + off * es, x, es, s))
                wrong++;
        }
        CHECK(landed == m && wrong == 0, "bmmc n=%d p=%d f=%d es=%zu run %llu%s: "
              "%llu of %llu landed here, %llu wrong", n, p, f, es,
              (unsigned long long)s, in_place ? " in place" : "",
              (unsigned long long)landed, (unsigned long long)m,
              (unsigned long long)wrong);
    }
    CHECK(cubemu_bmmc_rounds(plan) >= 1
          && cubemu_bmmc_rounds(plan) * cubemu_bmmc_elements_per_message(plan) == m,
          "rounds x elements per message = N/P (Lemma 3)");
    cubemu_bmmc_free(&plan);
    CHECK(plan == NULL, "free clears the plan");
    free(src);
    free(dst);
}

static void test_bmmc(int p)
{
    static const size_t sizes[] = { 8, 1, 3, 12, 16, 24 };
    int cases = 0;
    for (int n = p; n <= p + 6; n++)
        for (int f = 0; f <= n - p; f++) {
            size_t es = sizes[cases % 6];
            test_bmmc_case(n, p, f, es, cases % 3 == 2);
            cases++;
        }
    /* The one-call form: bit reversal on 2^(p+4) 8-byte elements. */
    int n = p + 4;
    uint64_t cols[64];
    for (int j = 0; j < n; j++)
        cols[j] = 1ULL << (n - 1 - j);
    uint64_t m = 1ULL << 4;
    uint64_t src[16], dst[16];
    for (uint64_t o = 0; o < m; o++)
        src[o] = ((uint64_t)rank << 4) | o;      /* processor-major index */
    int code = cubemu_bmmc(MPI_COMM_WORLD, n, cols, 0,
                           CUBEMU_LAYOUT_PROCESSOR_MAJOR, src, dst, 8);
    CHECK(code == 0, "one call: %s", cubemu_strerror(code));
    int ok = 1;
    for (uint64_t o = 0; o < m; o++) {
        uint64_t y = ((uint64_t)rank << 4) | o, x = 0;
        for (int b = 0; b < n; b++)
            x |= (y >> b & 1) << (n - 1 - b);
        ok &= dst[o] == x;
    }
    CHECK(ok, "one-call bit reversal");
}

/* ---- Gray <-> binary ---- */

static uint64_t gray(uint64_t i)
{
    return i ^ (i >> 1);
}

static void test_gray(void)
{
    static const size_t counts[] = { 1, 5, 64, 1000 };
    static const size_t sizes[] = { 8, 1, 12, 24 };
    for (int t = 0; t < 4; t++) {
        size_t k = counts[t], es = sizes[t];
        unsigned char *a = malloc(k * es), *b = malloc(k * es);
        for (size_t j = 0; j < k; j++)
            fill(a + j * es, (uint64_t)rank * k + j, es, 7);
        int code = cubemu_gray_to_binary(MPI_COMM_WORLD, a, b, k, es);
        CHECK(code == 0, "gray-to-binary: %s", cubemu_strerror(code));
        int ok = 1;
        for (size_t j = 0; j < k; j++)
            ok &= holds(b + j * es, gray((uint64_t)rank) * k + j, es, 7);
        CHECK(ok, "gray-to-binary K=%zu es=%zu: rank %d holds rank G(%d)'s "
              "block", k, es, rank, rank);
        code = cubemu_binary_to_gray(MPI_COMM_WORLD, b, b, k, es);
        CHECK(code == 0, "binary-to-gray: %s", cubemu_strerror(code));
        CHECK(memcmp(a, b, k * es) == 0, "binary-to-gray undoes it (in place)");
        free(a);
        free(b);
    }
}

/* ---- transposes ---- */

static void test_transpose(MPI_Comm comm)
{
    int me, P;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &P);
    static const size_t sizes[] = { 8, 1, 3, 16, 24 };
    int pow2 = !(P & (P - 1));
    for (int method = 0; method <= CUBEMU_TRANSPOSE_MPICH; method++) {
        if (method == CUBEMU_TRANSPOSE_BUTTERFLY && !pow2)
            continue;
        for (int blocks = 1; blocks <= 4; blocks++) {
            size_t side = (size_t)P * blocks, b = side / P;
            size_t es = sizes[(method + blocks) % 5];
            int radix = 2 + (blocks % (P > 2 ? P - 1 : 1));
            unsigned char *src = malloc(b * side * es), *dst = malloc(b * side * es);
            for (size_t l = 0; l < b; l++)
                for (size_t cc = 0; cc < side; cc++)
                    fill(src + (l * side + cc) * es, (me * b + l) * side + cc, es, 3);
            int code = cubemu_transpose(comm, (cubemu_transpose_method)method,
                                        radix, side, src, dst, es);
            CHECK(code == 0, "transpose method %d: %s", method,
                  cubemu_strerror(code));
            int ok = 1;
            for (size_t l = 0; l < b; l++)
                for (size_t s = 0; s < side; s++)
                    ok &= holds(dst + (l * side + s) * es, s * side + me * b + l, es, 3);
            CHECK(ok, "transpose method %d P=%d side=%zu es=%zu radix %d", method,
                  P, side, es, radix);
            free(src);
            free(dst);
        }
    }
    int r = cubemu_transpose_radix(P, 64, 300, 1);
    CHECK(r >= 2 && r <= (P > 2 ? P : 2), "adaptive radix %d in 2..P", r);
}

/* ---- error paths ---- */

static void expect_code(int got, int want, const char *what)
{
    /* Every rank must see the same code. */
    int lo, hi;
    MPI_Allreduce(&got, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&got, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECK(got == want && lo == hi, "%s: got %d (%s), want %d (%s); ranks "
          "saw %d..%d", what, got, cubemu_strerror(got), want,
          cubemu_strerror(want), lo, hi);
}

static void test_errors(int p)
{
    int n = p + 3;
    uint64_t id[64], sing[64], buf[64] = { 0 }, out[64];
    for (int j = 0; j < n; j++)
        id[j] = 1ULL << j;
    memcpy(sing, id, sizeof id);
    sing[n - 1] = sing[0] ^ (n > 1 ? sing[1] : 0);
    cubemu_bmmc_plan *plan = (cubemu_bmmc_plan *)&plan;
    expect_code(cubemu_bmmc_factor(MPI_COMM_WORLD, n, sing, 0, 0, &plan),
                CUBEMU_ERR_SINGULAR, "singular matrix");
    CHECK(plan == NULL, "a failed factor leaves *plan NULL");
    expect_code(cubemu_bmmc(MPI_COMM_WORLD, n, sing, 0, 0, buf, out, 8),
                CUBEMU_ERR_SINGULAR, "singular matrix, one call");
    expect_code(cubemu_bmmc(MPI_COMM_WORLD, p - 1, id, 0, 0, buf, out, 8),
                CUBEMU_ERR_N, "n < p");
    expect_code(cubemu_bmmc(MPI_COMM_WORLD, 41, id, 0, 0, buf, out, 8),
                CUBEMU_ERR_N, "n > 40");
    expect_code(cubemu_bmmc(MPI_COMM_WORLD, n, id, 0, n - p + 1, buf, out, 8),
                CUBEMU_ERR_LAYOUT, "layout beyond n-p");
    uint64_t wide[64];
    memcpy(wide, id, sizeof id);
    wide[0] |= 1ULL << n;
    expect_code(cubemu_bmmc(MPI_COMM_WORLD, n, wide, 0, 0, buf, out, 8),
                CUBEMU_ERR_MATRIX, "matrix bit beyond n");
    expect_code(cubemu_bmmc(MPI_COMM_WORLD, n, id, 1ULL << n, 0, buf, out, 8),
                CUBEMU_ERR_COMPLEMENT, "complement bit beyond n");
    expect_code(cubemu_bmmc(MPI_COMM_WORLD, n, id, 0, 0, buf, out, 0),
                CUBEMU_ERR_ARG, "element size 0");
    expect_code(cubemu_bmmc(MPI_COMM_WORLD, n, id, 0, 0,
                            rank == size - 1 ? NULL : buf, out, 8),
                CUBEMU_ERR_ARG, "NULL src on the last rank only");
    expect_code(cubemu_bmmc(MPI_COMM_WORLD, n, id, 0, 0, buf, out,
                            rank == 0 ? 8 : 4),
                size > 1 ? CUBEMU_ERR_MISMATCH : 0,
                "rank 0 with another element size");
    uint64_t other[64];
    memcpy(other, id, sizeof id);
    if (rank == size - 1 && n >= 2) {
        other[0] = id[1];
        other[1] = id[0];
    }
    expect_code(cubemu_bmmc(MPI_COMM_WORLD, n, other, 0, 0, buf, out, 8),
                size > 1 && n >= 2 ? CUBEMU_ERR_MISMATCH : 0,
                "the last rank with another matrix");
    expect_code(cubemu_gray_to_binary(MPI_COMM_WORLD, buf, out, 4,
                                      rank == 0 ? 8 : 16),
                size > 1 ? CUBEMU_ERR_MISMATCH : 0, "gray, element sizes differ");
    expect_code(cubemu_gray_to_binary(MPI_COMM_WORLD, buf, out, 0, 8),
                CUBEMU_ERR_SIZE, "gray, count 0");
    expect_code(cubemu_transpose(MPI_COMM_WORLD, CUBEMU_TRANSPOSE_BRUCK, 1,
                                 (size_t)size, buf, out, 8),
                CUBEMU_ERR_METHOD, "bruck radix 1");
    expect_code(cubemu_transpose(MPI_COMM_WORLD, (cubemu_transpose_method)9, 2,
                                 (size_t)size, buf, out, 8),
                CUBEMU_ERR_METHOD, "unknown method");
    expect_code(cubemu_transpose(MPI_COMM_WORLD, CUBEMU_TRANSPOSE_PAIRWISE, 2,
                                 (size_t)size + 1, buf, out, 8),
                size > 1 ? CUBEMU_ERR_SIZE : 0, "side not a multiple of P");
    expect_code(cubemu_transpose(MPI_COMM_WORLD, CUBEMU_TRANSPOSE_PAIRWISE, 2,
                                 16384 + (size_t)size, buf, out, 8),
                CUBEMU_ERR_SIZE, "side above 16384");
    CHECK(cubemu_bmmc_factor(MPI_COMM_NULL, n, id, 0, 0, &plan)
          == CUBEMU_ERR_COMM, "MPI_COMM_NULL");
    CHECK(cubemu_transpose_radix(0, 8, 1, 1) == CUBEMU_ERR_ARG, "radix of P = 0");

    /* A communicator of 3 ranks (when there are that many). */
    if (size >= 3) {
        MPI_Comm three;
        MPI_Comm_split(MPI_COMM_WORLD, rank < 3, rank, &three);
        if (rank < 3) {
            int c1 = cubemu_bmmc_factor(three, 4, id, 0, 0, &plan);
            CHECK(c1 == CUBEMU_ERR_COMM_SIZE, "bmmc on 3 ranks: %d", c1);
            int c2 = cubemu_gray_to_binary(three, buf, out, 4, 8);
            CHECK(c2 == CUBEMU_ERR_COMM_SIZE, "gray on 3 ranks: %d", c2);
            int c3 = cubemu_transpose(three, CUBEMU_TRANSPOSE_BUTTERFLY, 2, 6,
                                      buf, out, 8);
            CHECK(c3 == CUBEMU_ERR_METHOD, "butterfly on 3 ranks: %d", c3);
            test_transpose(three);     /* the others work on 3 ranks */
        }
        MPI_Comm_free(&three);
    }
    for (int code = 0; code >= CUBEMU_ERR_INTERNAL; code--)
        CHECK(cubemu_strerror(code) && strlen(cubemu_strerror(code)) > 4
              && strcmp(cubemu_strerror(code), "unknown error code"),
              "strerror(%d)", code);
    CHECK(!strcmp(cubemu_strerror(-99), "unknown error code"), "strerror(-99)");
}

/* The library's traffic must not meet the caller's. */
static void test_isolation(int p)
{
    int token = -1;
    MPI_Request req;
    MPI_Irecv(&token, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
    int n = p + 5;
    uint64_t cols[64];
    random_matrix(n, cols);
    uint64_t m = 1ULL << 5, src[32], dst[32];
    for (uint64_t o = 0; o < m; o++)
        src[o] = o;
    int code = cubemu_bmmc(MPI_COMM_WORLD, n, cols, 0, 0, src, dst, 8);
    CHECK(code == 0, "bmmc with a pending receive: %s", cubemu_strerror(code));
    code = cubemu_gray_to_binary(MPI_COMM_WORLD, src, dst, m, 8);
    CHECK(code == 0, "gray with a pending receive: %s", cubemu_strerror(code));
    int done = 0;
    MPI_Status st;
    MPI_Test(&req, &done, &st);
    CHECK(!done, "the caller's receive was matched by the library (source "
          "%d, tag %d)", done ? st.MPI_SOURCE : -1, done ? st.MPI_TAG : -1);
    MPI_Barrier(MPI_COMM_WORLD);         /* every rank has tested */
    int mine = 1000 + rank;
    MPI_Send(&mine, 1, MPI_INT, (rank + 1) % size, 5, MPI_COMM_WORLD);
    if (!done)
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(token == 1000 + (rank + size - 1) % size, "the caller's own message "
          "arrives: %d", token);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int p = 0;
    while ((1 << p) < size)
        p++;
    if (1 << p == size) {
        test_bmmc(p);
        test_gray();
        test_errors(p);
        test_isolation(p);
    } else {
        uint64_t id[8] = { 1, 2, 4, 8 }, buf[8];
        cubemu_bmmc_plan *plan;
        expect_code(cubemu_bmmc_factor(MPI_COMM_WORLD, 4, id, 0, 0, &plan),
                    CUBEMU_ERR_COMM_SIZE, "bmmc on a communicator not 2^p");
        expect_code(cubemu_binary_to_gray(MPI_COMM_WORLD, buf, buf, 1, 8),
                    CUBEMU_ERR_COMM_SIZE, "gray on a communicator not 2^p");
    }
    test_transpose(MPI_COMM_WORLD);
    int all_failures, all_checks;
    MPI_Reduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&checks, &all_checks, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("check_lib on %d ranks: %d checks, %d failed\n", size,
               all_checks, all_failures);
    MPI_Finalize();
    return rank == 0 && all_failures ? 1 : 0;
}
