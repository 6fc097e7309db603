/* mpi_wait.c -- MpiNodeOptions.wait_limit under mpirun -np 2 (tests/mpi.sh).
 *
 * Two node programs on a 1-cube, each run with a wait limit of 1 s:
 *   deadlock   node 0 receives from node 1, which never sends: node 0
 *              must fail within the limit with an error naming the
 *              receive; no algorithm of the registry can deadlock, so the
 *              program is here;
 *   slow       node 1 sleeps 0.6 s before each of three sends, node 0
 *              receives them: 1.8 s in all, but the limit counts from the
 *              last packet, so a slow run that keeps moving must not be
 *              cut short, and must end correct.
 * Prints one line on rank 0: "wait: OK <what>" or "wait: FAIL <why>",
 * and exits 0 when the case behaved (the deadlock's failing node ends the
 * job with MPI_Abort, whose status mpirun returns: 3 means the expected
 * error was seen), 1 otherwise.
 */
#include "node_mpi.h"
#include "scenario.h"
#include "prepare.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define LIMIT 1.0

static NodeStatus deadlock_step(Node *node, const void *config)
{
    (void)config;
    if (node_address(node) == 0)
        node_recv(node, 1, 7, 0, 4);
    return NODE_DONE;
}

static NodeStatus slow_step(Node *node, const void *config)
{
    (void)config;
    unsigned t = node_step(node);
    if (node_address(node) == 1) {
        struct timespec ts = { 0, 600000000 };
        nanosleep(&ts, NULL);
        node_send_to(node, 0, 0, 4, (int)t);
    } else {
        node_recv(node, 1, (int)t, 4 * t, 4);
    }
    return t == 2 ? NODE_DONE : NODE_CONTINUE;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    gboolean slow = argc > 1 && !strcmp(argv[1], "slow");
    if (size != 2 || (argc > 1 && !slow && strcmp(argv[1], "deadlock"))) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np 2 mpi_wait [deadlock|slow]\n");
        MPI_Finalize();
        return 2;
    }
    GError *e = NULL;
    g_autoptr(Scenario) s = scenario_load_data(
        "mpi_wait", "[machine]\ntopology = cube\ndimensions = 1\n", &e);
    Machine m;
    if (!s || !prepare_machine(s, &m, &e))
        g_error("mpi_wait: %s", e->message);
    MpiNodeOptions options = { .wait_limit = LIMIT };
    Node *node = mpi_node_new(&m, MPI_COMM_WORLD, 12, 1, 0, 1, &options);
    for (size_t j = 0; j < 12; j++)
        node_memory(node)[j] = 100 * (Word)rank + j;
    double t0 = MPI_Wtime();
    gboolean ok = mpi_node_run(node, slow ? slow_step : deadlock_step, NULL,
                               &e);
    double took = MPI_Wtime() - t0;
    int status = 0;
    if (slow) {
        /* Node 0 holds node 1's elements 0..3 three times over. */
        gboolean right = ok;
        for (size_t j = 0; right && rank == 0 && j < 12; j++)
            right = node_memory(node)[j] == 100 + j % 4;
        if (!ok)
            fprintf(stderr, "wait: FAIL slow: node %d stopped: %s\n", rank,
                    e->message);
        else if (!right)
            fprintf(stderr, "wait: FAIL slow: wrong data on node 0\n");
        else if (rank == 0)
            printf("wait: OK slow run of %.1f s, past the %.1f s limit\n",
                   took, LIMIT);
        status = right ? 0 : 1;
    } else if (rank == 0) {
        const char *want = "node program error at node 0, step 0: no "
                           "message arrived for 1 s while 1 receives waited, "
                           "the oldest for 4 elements from node 1 with tag 7";
        if (ok) {
            fprintf(stderr, "wait: FAIL deadlock: the run completed\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (!g_str_has_prefix(e->message, want) || took > 10 * LIMIT) {
            fprintf(stderr, "wait: FAIL deadlock after %.1f s: %s\n", took,
                    e->message);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        printf("wait: OK deadlock reported after %.1f s: %s\n", took,
               e->message);
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    /* Node 1 of the deadlock finished its program and waits in the
     * termination barrier until node 0's abort ends the job. */
    if (e)
        g_error_free(e);
    mpi_node_free(node);
    machine_clear(&m);
    MPI_Finalize();
    return status;
}
