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
    /* With MpiNodeOptions.count_traffic, what the emulator counts of the
     * same sends (emu/stats.h), each send counted by its sender along the
     * path the emulator charges it (node_send_to: the topology's route,
     * which MPI's transport does not take): summed over the ranks they
     * are the emulator's counts. Element-hops; per message class the
     * messages, elements and element-hops; per link index the elements
     * that crossed it up and down; per directed channel (node x links +
     * link) the elements it carried. Zero, and the arrays NULL, without
     * the option. */
    uint64_t element_transfers;
    uint64_t class_messages[CLASS_COUNT];
    uint64_t class_elements[CLASS_COUNT];
    uint64_t class_transfers[CLASS_COUNT];
    uint64_t *link_up, *link_down;        /* links entries */
    uint64_t *channel;                    /* nodes x links entries */
} MpiNodeStats;

/* How messages travel. */
typedef struct {
    /* Bytes of an element on the wire, 1..8 x element_words (0: all of
     * them). An element of E bytes occupies ceil(E/8) words of memory;
     * only its first E bytes are sent, and a receive writes only those. */
    size_t element_bytes;
    /* A node_send whose path has several links goes straight to its
     * destination, MPI's transport playing the router, instead of hop by
     * hop through the intermediate ranks (libcubemu's choice; cubemu-mpi
     * forwards, as the emulated machine does). */
    gboolean direct;
    /* Seconds a node may wait for its step's receives with no packet
     * arriving before it gives up with an error that names the receive
     * (a deadlock, or a rank that stopped); 0: wait forever, as MPI does.
     * Counted from the last packet this rank received, so a slow run that
     * is still moving is not cut short. With a limit, rank 0 ends such a
     * deadlock with the state of every rank (node_mpi.c, "Deadlocks"). */
    double wait_limit;
    /* Count the emulator's traffic statistics (MpiNodeStats; cubemu-mpi's
     * report), at the cost of walking every send's path and of a counter
     * per directed channel of the machine on every rank. */
    gboolean count_traffic;
    /* An operation-level program (emu/node.h, MemoryLayout.each): called
     * again as soon as one of its operations completes, not once a step.
     * Here a send completes when posted (its packet holds its elements),
     * local work at once, a receive when its packet is delivered. */
    gboolean each;
} MpiNodeOptions;

/* Whether the machine can run for real: FALSE with *error (SCENARIO_ERROR,
 * exit status 2) when its faults name any dead link or node: a real run
 * on MPI cannot break a link or kill a node, and one that pretended to
 * would time the whole machine. `where` is where the faults were
 * set (scenario_where), `program` the caller's name. cubemu-mpi and
 * libcubemu call it before making any node. */
gboolean mpi_machine_runs_for_real(const Machine *machine, const char *where,
                                   const char *program, GError **error);

/* The node of this rank: address = rank in comm, whose size must be the
 * machine's node count. Memory and local state are zeroed. options may be
 * NULL (whole elements, hop by hop). */
Node *mpi_node_new(const Machine *machine, MPI_Comm comm,
                   size_t memory_elements, size_t element_words,
                   size_t local_size, unsigned phases,
                   const MpiNodeOptions *options);
/* The same, or NULL if the node's memory cannot be allocated. */
Node *mpi_node_try_new(const Machine *machine, MPI_Comm comm,
                       size_t memory_elements, size_t element_words,
                       size_t local_size, unsigned phases,
                       const MpiNodeOptions *options);
void mpi_node_free(Node *node);
/* memory[0, count) from, or to, count elements of element_bytes each laid
 * end to end (a caller's array; MpiNodeOptions.element_bytes). */
void mpi_node_load(Node *node, const void *src, size_t count);
void mpi_node_store(const Node *node, void *dst, size_t count);

/* Ready the node for another run after a successful one: step 0, phase 0,
 * statistics, sequence numbers, local state and memory zeroed, as new,
 * keeping its allocations (memory, packet buffers). Every rank of the
 * communicator must reset before the next mpi_node_run. */
void mpi_node_reset(Node *node);

/* Collective: run the program to NODE_DONE on every rank, then until every
 * message is delivered. FALSE with *error on a program error of this rank
 * (other ranks may then wait for it forever: cubemu-mpi aborts the job;
 * libcubemu validates everything a program could trip on before it runs
 * one, collectively, so that it never gets here). */
gboolean mpi_node_run(Node *node, NodeStepFn step, const void *config,
                      GError **error);

const MpiNodeStats *mpi_node_stats(const Node *node);

#endif
