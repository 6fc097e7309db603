/* sim.h -- the discrete-event engine that runs node programs on an
 * emulated Boolean cube (the backend behind node.h).
 *
 * Machine model (README "The machine model" is the long form):
 *  - time in integer cycles; a directed channel carries one element per
 *    element-time; two directed channels per cube edge;
 *  - a message of m elements over h hops pays `startup` once at its source,
 *    then moves element by element, an element arriving at a node in cycle
 *    t leaving it at t+1 at the earliest: uncontended it takes
 *    startup + (m + h - 1) * element-time cycles;
 *  - ports: with a limit k each node sends at most k and receives at most k
 *    elements per element-time (forwarded elements count too);
 *  - arbitration: oldest message first. Messages are ordered by the cycle
 *    they were posted and then by a global posting sequence number; an
 *    element never waits for a younger message's element. Within a message
 *    elements keep their order. Losers wait in the node's buffer (unbounded).
 *
 * Because an element only ever waits for older messages, and older messages
 * are posted earlier, the engine reserves each message's whole route the
 * moment it is posted (per-channel and per-port timelines): its cost is one
 * reservation per hop per uninterrupted run of elements.
 */
#ifndef CUBE_SIM_H
#define CUBE_SIM_H

#include <glib.h>
#include "node.h"
#include "machine.h"

typedef struct Sim Sim;

typedef NodeStatus (*NodeStepFn)(Node *node, const void *config);

typedef struct {
    Tick cycles;              /* when the last node finished */
    uint64_t element_transfers;   /* element-hops over all channels */
    uint64_t messages;
    uint64_t elements_sent;       /* sum of message sizes */
    uint64_t max_channel_elements;
    uint64_t events;              /* node steps, deferred posts, matches */
    uint64_t *elements_up;        /* per dimension: bit 0 -> bit 1 */
    uint64_t *elements_down;      /* per dimension: bit 1 -> bit 0 */
} SimStats;

/* Observer for traces: called for every run of elements reserved on a
 * channel and for every mark. Optional; NULL fields are skipped. */
typedef struct {
    uint64_t id;                  /* posting order = arbitration priority */
    uint32_t source, dest;
    int tag;
    uint64_t count;
    Tick posted;
} SimMessage;

typedef struct {
    /* Elements [first, first+count) of message m cross the channel leaving
     * `node` across `dimension` during [start, start + count*element-time). */
    void (*channel_busy)(void *data, const SimMessage *m, uint32_t node,
                         int dimension, uint64_t first, uint64_t count,
                         Tick start);
    void (*mark)(void *data, uint32_t node, Tick time, const char *label);
} SimObserver;

/* Bytes the engine will allocate for this machine; callers refuse a run
 * that would not fit before calling sim_new. */
uint64_t sim_bytes_needed(const Machine *m, size_t memory_words,
                          size_t local_size);

/* The machine is copied. Memory and local state start zeroed. */
Sim *sim_new(const Machine *m, size_t memory_words, size_t local_size);
void sim_free(Sim *sim);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Sim, sim_free)

Word *sim_node_memory(Sim *sim, uint32_t node);
void sim_set_observer(Sim *sim, const SimObserver *observer, void *data);

/* Run every node's program to completion. FALSE with *error set when a node
 * program misused the API or the run deadlocked (receives never matched,
 * messages never received); the message names the node and step. */
gboolean sim_run(Sim *sim, NodeStepFn step, const void *config, GError **error);

const SimStats *sim_stats(const Sim *sim);
/* Elements carried by the directed channel leaving `node` across `dim`. */
uint64_t sim_channel_elements(const Sim *sim, uint32_t node, int dim);

#define SIM_ERROR (sim_error_quark())
GQuark sim_error_quark(void);
enum { SIM_ERROR_PROGRAM = 1, SIM_ERROR_DEADLOCK };

#endif
