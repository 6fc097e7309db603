/* observer.h -- what the engine tells an observer (traces/record.c,
 * workloads/record.c) about a run: every run of elements reserved on a
 * channel, every startup that holds a port, every phase mark, the end of
 * every tick, and every operation a node's program posts. This is the
 * whole interface between the engine and the traces and schedules; an
 * observer only reads, so it cannot change a simulated result.
 */
#ifndef CUBE_OBSERVER_H
#define CUBE_OBSERVER_H

#include <stdint.h>
#include "node.h"
#include "topology.h"

typedef struct {
    uint64_t id;                  /* posting order = arbitration priority */
    uint32_t source, dest;
    int tag;
    uint64_t count;               /* elements */
    Tick posted;
    MessageClass cls;             /* how it was sent: its price */
    Tick element_time;            /* ticks per element, from its class */
    gboolean detoured;            /* went around a fault: its route is not
                                   * the one asked (machines/faults.h) */
} SimMessage;

/* An operation a node's program posted (SimObserver.op). */
typedef enum {
    SIM_OP_SEND,                  /* to `peer` */
    SIM_OP_RECV,                  /* from `peer` */
    SIM_OP_WORK,                  /* local work: node_busy, node_compute,
                                   * node_kernel */
    SIM_OP_IDLE                   /* node_idle */
} SimOpKind;

typedef struct {
    SimOpKind kind;
    uint32_t node;
    unsigned step;                /* the node's step (or call) that posted it */
    uint32_t peer;                /* send: destination; receive: source */
    int tag;
    uint64_t count;               /* elements (send, receive) */
    Tick ticks;                   /* work, idle */
    /* A send's path: `hops` links from the node (node_send, and
     * node_exchange's one link), or -1 for the default route
     * (node_send_to), path then NULL. */
    int hops;
    const int *path;
} SimOp;

typedef struct {
    /* Elements [first, first+count) of message m cross the channel leaving
     * `node` on `link` during [start, start + count * m->element_time). */
    void (*channel_busy)(void *data, const SimMessage *m, uint32_t node,
                         int link, uint64_t first, uint64_t count, Tick start);
    /* Message m's startup holds a sending port of its source (or, with
     * ports = all, its first channel, on `link`) during [start, start +
     * duration). Only when the machine's startups hold ports. */
    void (*startup)(void *data, const SimMessage *m, int link, Tick start,
                    Tick duration);
    void (*mark)(void *data, uint32_t node, Tick time, const char *label);
    /* Every event at tick `tick` and before has run, the deliveries put
     * off included; `events` counts the run's events so far. Once for
     * every tick that had events, in order, the last when the run ends
     * (not after a node-program error). For timing a run tick by tick
     * (bench/bench.c --steps); a time change costs one test. The only
     * callback a run in the locality order makes (sim.h, SimOrder); where
     * such a run stops, run/run.c starts it again, and the ticks start
     * again from 0. */
    void (*tick_done)(void *data, Tick tick, uint64_t events);
    /* The running node's program posted an operation, in its program's
     * order (a send deferred by local work is told when posted, after the
     * work): what a schedule records (workloads/record.h). An observer
     * with it runs in the contract's order, so that no run is started
     * again and no operation told twice. */
    void (*op)(void *data, const SimOp *op);
} SimObserver;

#endif
