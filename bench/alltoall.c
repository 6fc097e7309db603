/* alltoall.c -- the external check of the transposes (issue #12): one
 * MPI_Alltoall of P blocks of `block` 8-byte elements per rank, run under
 * SimGrid's SMPI (smpicc/smpirun) with the alltoall algorithm chosen by
 * --cfg=smpi/alltoall:NAME. Prints the simulated seconds from the last
 * rank's start to the last rank's end, after checking that every block arrived where it belongs.
 * Usage: alltoall BLOCK_ELEMENTS
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    long block = argc > 1 ? atol(argv[1]) : 1;
    if (block < 1) {
        if (rank == 0)
            fprintf(stderr, "alltoall: BLOCK_ELEMENTS must be >= 1\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    double *send = malloc(sizeof(double) * (size_t)(block * p));
    double *recv = malloc(sizeof(double) * (size_t)(block * p));
    /* element e of the block for rank j: (rank, j, e), made one number */
    for (long j = 0; j < p; j++)
        for (long e = 0; e < block; e++)
            send[j * block + e] = (double)((rank * p + j) * block + e);
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    MPI_Alltoall(send, (int)block, MPI_DOUBLE, recv, (int)block, MPI_DOUBLE,
                 MPI_COMM_WORLD);
    double end = MPI_Wtime(), last_start = 0, last_end = 0;
    int wrong = 0, any_wrong = 0;
    for (long s = 0; s < p; s++)
        for (long e = 0; e < block; e++)
            wrong |= recv[s * block + e] != (double)((s * p + rank) * block + e);
    /* Simulated clocks are global: time from the last rank's start (ranks
     * leave the barrier up to a latency apart) to the last rank's end. */
    MPI_Reduce(&start, &last_start, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&end, &last_end, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&wrong, &any_wrong, 1, MPI_INT, MPI_LOR, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%.9g %s\n", last_end - last_start, any_wrong ? "wrong" : "correct");
    free(send);
    free(recv);
    MPI_Finalize();
    return any_wrong ? 1 : 0;
}
