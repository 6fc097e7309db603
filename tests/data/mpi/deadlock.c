/* deadlock.c -- a node program that deadlocks, for cubemu-mpi's wait limit
 * (tests/mpi.sh builds it as deadlock.so; no algorithm of the registry
 * deadlocks). On a 2-cube: in its one step every node receives 4 elements
 * from its neighbour across dimension 0 with tag 7, but only nodes 0 and
 * 1 send them, so nodes 2 and 3 wait for each other forever while 0 and 1
 * finish. cubemu-mpi must end the job (exit status 1) with each node's
 * state: nodes 0 and 1 finished, nodes 2 and 3 waiting for that receive.
 * Rank 0 is among the finished, so the report comes from a stalled rank
 * through rank 0's termination barrier (tests/mpi_wait.c has rank 0
 * stall itself).
 */
#include <cubemu/program.h>

#include <stdlib.h>

static const cubemu_method deadlock_methods[] = {
    { "half", "nodes 0 and 1 send across dimension 0; every node receives" },
    { NULL, NULL }
};

enum { K = 4, TAG = 7 };

static int deadlock_step(cubemu_node *node, const void *config)
{
    (void)config;
    uint32_t x = cubemu_address(node);
    int link = 0;
    if (x < 2)
        cubemu_send(node, &link, 1, 0, K, TAG);
    cubemu_recv(node, x ^ 1u, TAG, K, K);
    return CUBEMU_DONE;
}

static void *deadlock_prepare(const cubemu_machine *m, cubemu_params *params,
                              cubemu_layout *layout)
{
    (void)m;
    (void)params;
    layout->memory_elements = 2 * K;
    layout->elements_per_node = K;
    layout->element = CUBEMU_WORD;
    return malloc(1);
}

static void deadlock_init(const void *config, uint32_t x, cubemu_word *memory)
{
    (void)config;
    for (int j = 0; j < K; j++)
        memory[j] = 100 * (cubemu_word)x + (cubemu_word)j;
}

static void deadlock_expect(const void *config, uint32_t x,
                            cubemu_word *expected)
{
    deadlock_init(config, x, expected);
}

CUBEMU_PROGRAM(.name = "deadlock",
               .summary = "half the nodes never send what the others wait for",
               .source = "tests/mpi.sh: cubemu-mpi's wait limit",
               .needs = CUBEMU_NEEDS_DIMENSIONS,
               .methods = deadlock_methods,
               .prepare = deadlock_prepare,
               .release = free,
               .init = deadlock_init,
               .step = deadlock_step,
               .expect = deadlock_expect);
