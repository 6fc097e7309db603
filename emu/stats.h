/* stats.h -- what the engine measures in one run, as plain data: the
 * statistics sim_stats returns (sim.h) and the report copies
 * (run/report.h, report_take_stats). Nothing of the engine's internals:
 * a reader of a report needs these types, not the engine.
 */
#ifndef CUBE_STATS_H
#define CUBE_STATS_H

#include <stdint.h>
#include "node.h"
#include "topology.h"

/* At most this many phases per program (node_phase). */
#define SIM_MAX_PHASES 8

/* One phase over all nodes that entered it: per-node elapsed ticks, the
 * local work among them, and the rest (communication and waiting); and the
 * latest tick at which a node entered it (0 for phase 0), so that a
 * program's last phase can be measured as on a machine whose phases are
 * global: the run's end minus enter_max. */
typedef struct {
    uint64_t nodes;               /* nodes that entered the phase */
    Tick time_max, compute_max, communication_max;
    Tick enter_max;
    double time_sum, compute_sum, communication_sum;
} SimPhase;

typedef struct {
    Tick cycles;                  /* when the last node finished */
    uint64_t element_transfers;   /* element-hops over all channels */
    uint64_t messages;
    uint64_t elements_sent;       /* sum of message sizes */
    uint64_t max_channel_elements;
    uint64_t events;              /* node steps, deferred posts, matches */
    /* Per message class: messages, elements sent, element-hops. */
    uint64_t class_messages[CLASS_COUNT];
    uint64_t class_elements[CLASS_COUNT];
    uint64_t class_transfers[CLASS_COUNT];
    /* Per link index (topology.h), over all nodes: elements that crossed
     * going up / down, and the ticks its channels were busy carrying them. */
    uint64_t *link_up, *link_down;
    uint64_t *link_busy;
    /* On a machine with memory paths (machine.h, memory_path): the most
     * ticks one node's path carried elements, sending and receiving, and
     * that node (the lowest address of those with the most); 0 and 0
     * without paths. No run can end before its busiest path is done. */
    Tick path_busy_max;
    uint32_t path_busiest;
    /* On a machine with faults (machines/faults.h): messages whose path
     * is not the one asked (an explicit path that crossed a fault, or a
     * route other than the fault-free default), the links they took
     * beyond it, the most one message took beyond it, and routes on which
     * the cube's scheme gave up for the shortest surviving path. */
    uint64_t detoured, extra_hops, extra_hops_max, routes_given_up;
    /* Per node: ticks of local work, and when its program finished. */
    Tick *compute;
    Tick *finished;
    /* Per declared phase (SimLayout.phases of them, sim.h). */
    unsigned phases;
    SimPhase phase[SIM_MAX_PHASES];
} SimStats;

#endif
