/* node_mpi.h -- the node-program API (emu/node.h) over MPI: one rank is one
 * node. See node_mpi.c for the design (matching, forwarding, termination).
 */
#ifndef CUBE_NODE_MPI_H
#define CUBE_NODE_MPI_H

#include <glib.h>
#include <mpi.h>
#include "machine.h"
#include "node.h"
#include "sim.h"                  /* NodeStepFn, SIM_MAX_PHASES (no code) */

#define MPI_NODE_ERROR (mpi_node_error_quark())
GQuark mpi_node_error_quark(void);

typedef struct {
    uint64_t messages;            /* sends the program posted (self included) */
    uint64_t bytes;               /* their payload bytes */
    uint64_t forwards;            /* packets this rank passed on for others */
    double seconds;               /* from the start to this node's last step */
    unsigned phases;
    double phase_seconds[SIM_MAX_PHASES];
    gboolean phase_visited[SIM_MAX_PHASES];
} MpiNodeStats;

/* The node of this rank: address = rank in comm, whose size must be the
 * machine's node count. Memory and local state are zeroed. */
Node *mpi_node_new(const Machine *machine, MPI_Comm comm,
                   size_t memory_elements, size_t element_words,
                   size_t local_size, unsigned phases);
void mpi_node_free(Node *node);

/* Collective: run the program to NODE_DONE on every rank, then until every
 * message is delivered. FALSE with *error on a program error of this rank
 * (the caller should MPI_Abort: other ranks may wait for it forever). */
gboolean mpi_node_run(Node *node, NodeStepFn step, const void *config,
                      GError **error);

const MpiNodeStats *mpi_node_stats(const Node *node);

#endif
