/* bench_lib.c -- libcubemu's transposes against MPI_Alltoall (make
 * bench-mpi runs it on 8 ranks through tests/bench-mpi.sh).
 *
 *     mpirun -np P bench_lib SIDE [RUNS]
 *
 * An SIDE x SIDE matrix of doubles distributed by block rows (rank i holds
 * rows i SIDE/P ..) is transposed by
 *   alltoall   pack a block for every rank, MPI_Alltoall, transpose the
 *              received blocks locally (what an MPI program writes), and
 *              the MPI_Alltoall call alone (not a transpose: not checked);
 *   bmmc       libcubemu's BMMC transpose (a plan factored once);
 *   pairwise, butterfly, bruck r=2, bruck r=P, adaptive, mpich
 *              cubemu_transpose's methods.
 * Each is run RUNS times (default 5) after one warm-up; the time of a run
 * is the slowest rank's, and the best run is reported, with the ratio to
 * alltoall's. Every result is compared with alltoall's, byte for byte.
 */
#include <cubemu.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;
static size_t S, b, local;
static double *src, *ref, *out, *pack;

static void alltoall(double *dst)
{
    for (size_t k = 0; k < (size_t)size; k++)
        for (size_t i = 0; i < b; i++)
            memcpy(pack + (k * b + i) * b, src + i * S + k * b, b * sizeof *src);
    MPI_Alltoall(pack, (int)(b * b), MPI_DOUBLE, out, (int)(b * b), MPI_DOUBLE,
                 MPI_COMM_WORLD);
    for (size_t k = 0; k < (size_t)size; k++)
        for (size_t i = 0; i < b; i++)
            for (size_t j = 0; j < b; j++)
                dst[j * S + k * b + i] = out[(k * b + i) * b + j];
}

typedef struct {
    const char *name;
    int method;                   /* -1 alltoall, -2 bmmc, -3 the MPI_Alltoall
                                     call alone, else cubemu_transpose */
    int radix;
} Case;

static cubemu_bmmc_plan *plan;

static int run(const Case *c, double *dst)
{
    if (c->method == -1) {
        alltoall(dst);
        return 0;
    }
    if (c->method == -2)
        return cubemu_bmmc_perform(plan, src, dst, sizeof(double));
    if (c->method == -3)
        return MPI_Alltoall(pack, (int)(b * b), MPI_DOUBLE, dst, (int)(b * b),
                            MPI_DOUBLE, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -1;
    return cubemu_transpose(MPI_COMM_WORLD, (cubemu_transpose_method)c->method,
                            c->radix, S, src, dst, sizeof(double));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    S = argc > 1 ? strtoull(argv[1], NULL, 10) : 256;
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    int s = 0;
    while (((size_t)1 << s) < S)
        s++;
    if (S == 0 || ((size_t)1 << s) != S || S % (size_t)size || (size & (size - 1))
        || runs < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np 2^p bench_lib SIDE [RUNS] (SIDE a "
                    "power of two, a multiple of the ranks)\n");
        MPI_Finalize();
        return 2;
    }
    b = S / (size_t)size;
    local = b * S;
    src = malloc(local * sizeof *src);
    ref = malloc(local * sizeof *src);
    out = malloc(local * sizeof *src);
    pack = malloc(local * sizeof *src);
    double *dst = malloc(local * sizeof *src);
    for (size_t i = 0; i < b; i++)
        for (size_t j = 0; j < S; j++)
            src[i * S + j] = (double)((rank * b + i) * S + j);
    alltoall(ref);

    uint64_t A[64];
    for (int k = 0; k < s; k++) {
        A[k] = 1ULL << (k + s);
        A[s + k] = 1ULL << k;
    }
    int code = cubemu_bmmc_factor(MPI_COMM_WORLD, 2 * s, A, 0,
                                  CUBEMU_LAYOUT_PROCESSOR_MAJOR, &plan);
    if (code) {
        if (rank == 0)
            fprintf(stderr, "factor: %s\n", cubemu_strerror(code));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    const Case cases[] = {
        { "MPI_Alltoall", -1, 0 },
        { "(its call alone)", -3, 0 },
        { "libcubemu bmmc", -2, 0 },
        { "pairwise", CUBEMU_TRANSPOSE_PAIRWISE, 0 },
        { "butterfly", CUBEMU_TRANSPOSE_BUTTERFLY, 0 },
        { "bruck r=2", CUBEMU_TRANSPOSE_BRUCK, 2 },
        { "bruck r=P", CUBEMU_TRANSPOSE_BRUCK, size > 2 ? size : 2 },
        { "adaptive", CUBEMU_TRANSPOSE_ADAPTIVE, 0 },
        { "mpich", CUBEMU_TRANSPOSE_MPICH, 0 },
    };
    double base = 0;
    int bad = 0;
    if (rank == 0)
        printf("transpose %zu x %zu doubles (%.1f MiB) on %d ranks, best of %d:\n",
               S, S, (double)S * S * 8 / 1048576, size, runs);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        double best = 1e30;
        for (int r = 0; r <= runs; r++) {
            memset(dst, 0, local * sizeof *dst);
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            code = run(&cases[c], dst);
            double t = MPI_Wtime() - t0, worst;
            MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            if (r > 0 && worst < best)
                best = worst;
            int same = code == 0 && (cases[c].method == -3
                                     || !memcmp(dst, ref, local * sizeof *dst));
            int all;
            MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
            if (!all) {
                if (rank == 0)
                    printf("  %-16s WRONG RESULT (%s)\n", cases[c].name,
                           cubemu_strerror(code));
                bad = 1;
                break;
            }
        }
        if (c == 0)
            base = best;
        if (rank == 0)
            printf("  %-16s %10.6f s  %8.1f MB/s  %6.2fx MPI_Alltoall's time\n",
                   cases[c].name, best, (double)S * S * 8 / best / 1e6,
                   best / base);
    }
    cubemu_bmmc_free(&plan);
    free(src);
    free(ref);
    free(out);
    free(pack);
    free(dst);
    MPI_Finalize();
    return bad;
}
