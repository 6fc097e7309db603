/* transpose.c -- libcubemu in an MPI program: transpose a distributed
 * matrix with a BMMC permutation, and check it against MPI_Alltoall.
 *
 * Build (after make install PREFIX=...; PKG_CONFIG_PATH=PREFIX/lib/pkgconfig):
 *     mpicc -std=c11 transpose.c -o transpose $(pkg-config --cflags --libs cubemu)
 * Run:
 *     mpirun -np 8 ./transpose [ROW_BITS COLUMN_BITS [RUNS]]
 *
 * The matrix has R = 2^r rows and C = 2^c columns of doubles, distributed
 * by blocks of rows over P = 2^p ranks (rank k holds rows k R/P ..), each
 * row-major: element (i, j) has index x = i C + j, and the distribution is
 * Cormen's processor-major layout (rank = the top p bits of x). Its
 * transpose, C x R distributed the same way, holds (i, j) at index
 * j R + i: the BMMC permutation whose matrix sends bit b of x to bit
 * b + r for the column bits and bit b - c for the row bits (a rotation of
 * the index by r bits, Cormen 1997 Section 2's transpose). The plan is
 * factored once and performed RUNS times.
 *
 * The reference does what an MPI program does without the library: pack
 * the C/P-column slab for every rank, MPI_Alltoall, and transpose the
 * received blocks locally. Both results must be equal, byte for byte; the
 * program prints both times and exits 1 if they differ.
 */
#include <cubemu.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double value(uint64_t i, uint64_t j)
{
    return (double)i * 1e6 + (double)j + 0.25;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int r = argc > 2 ? atoi(argv[1]) : 10, c = argc > 2 ? atoi(argv[2]) : 9;
    int runs = argc > 3 ? atoi(argv[3]) : 3;
    int p = 0;
    while ((1 << p) < size)
        p++;
    if ((1 << p) != size || r < p || c < p || r + c > 40 || runs < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np 2^p transpose [ROW_BITS "
                    "COLUMN_BITS [RUNS]] with ROW_BITS, COLUMN_BITS >= p, "
                    "their sum <= 40\n");
        MPI_Finalize();
        return 2;
    }
    int n = r + c;
    uint64_t R = 1ULL << r, C = 1ULL << c, P = (uint64_t)size;
    uint64_t rows = R / P, cols = C / P;       /* mine before and after */
    size_t local = (size_t)(rows * C);
    double *a = malloc(local * sizeof *a), *t1 = malloc(local * sizeof *a);
    double *t2 = malloc(local * sizeof *a), *pack = malloc(local * sizeof *a);
    for (uint64_t i = 0; i < rows; i++)
        for (uint64_t j = 0; j < C; j++)
            a[i * C + j] = value(rank * rows + i, j);

    /* The transpose as a BMMC permutation: column bits 0..c-1 go to bits
     * r..r+c-1, row bits c..n-1 go to bits 0..r-1. */
    uint64_t A[64];
    for (int b = 0; b < c; b++)
        A[b] = 1ULL << (b + r);
    for (int b = 0; b < r; b++)
        A[c + b] = 1ULL << b;
    cubemu_bmmc_plan *plan;
    int code = cubemu_bmmc_factor(MPI_COMM_WORLD, n, A, 0,
                                  CUBEMU_LAYOUT_PROCESSOR_MAJOR, &plan);
    if (code != CUBEMU_SUCCESS) {
        if (rank == 0)
            fprintf(stderr, "cubemu_bmmc_factor: %s\n", cubemu_strerror(code));
        MPI_Finalize();
        return 1;
    }
    double best_bmmc = 1e30, best_a2a = 1e30;
    for (int run = 0; run < runs; run++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        code = cubemu_bmmc_perform(plan, a, t1, sizeof(double));
        double t = MPI_Wtime() - t0, worst;
        MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (worst < best_bmmc)
            best_bmmc = worst;
        if (code != CUBEMU_SUCCESS) {
            if (rank == 0)
                fprintf(stderr, "cubemu_bmmc_perform: %s\n", cubemu_strerror(code));
            MPI_Finalize();
            return 1;
        }

        /* The reference: slab k = my rows x columns k C/P .., to rank k. */
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (uint64_t k = 0; k < P; k++)
            for (uint64_t i = 0; i < rows; i++)
                memcpy(pack + (k * rows + i) * cols, a + i * C + k * cols,
                       cols * sizeof *a);
        MPI_Alltoall(pack, (int)(rows * cols), MPI_DOUBLE, t2,
                     (int)(rows * cols), MPI_DOUBLE, MPI_COMM_WORLD);
        /* From rank k: rows k R/P + i, my columns; transposed into my rows
         * of the transpose (its row j = column rank cols + j). */
        for (uint64_t k = 0; k < P; k++)
            for (uint64_t i = 0; i < rows; i++)
                for (uint64_t j = 0; j < cols; j++)
                    pack[j * R + k * rows + i] = t2[(k * rows + i) * cols + j];
        t = MPI_Wtime() - t0;
        MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (worst < best_a2a)
            best_a2a = worst;
    }
    int same = memcmp(t1, pack, local * sizeof *a) == 0, all;
    MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (rank == 0)
        printf("transpose %llu x %llu doubles on %d ranks: libcubemu BMMC "
               "%.6f s (%llu rounds), MPI_Alltoall %.6f s; results %s\n",
               (unsigned long long)R, (unsigned long long)C, size, best_bmmc,
               (unsigned long long)cubemu_bmmc_rounds(plan), best_a2a,
               all ? "equal" : "DIFFER");
    cubemu_bmmc_free(&plan);
    free(a);
    free(t1);
    free(t2);
    free(pack);
    MPI_Finalize();
    return all ? 0 : 1;
}
