/* sim.h -- the discrete-event engine that runs node programs on an
 * emulated machine (the backend behind node.h).
 *
 * Machine model (README "The machine model" is the long form):
 *  - time in integer ticks; every link is a pair of directed channels, and
 *    a channel carries one element per element-time of the message's class;
 *  - a message of m elements over h links pays its class's startup once at
 *    its source, then moves element by element, an element arriving at a
 *    node in tick t leaving it at t + element-time at the earliest:
 *    uncontended it takes startup + (m + h - 1) * element-time ticks;
 *  - with startup-holds-port the startup occupies a sending port of the
 *    source (with ports = all: the message's first channel) for its whole
 *    duration, so messages that share a port pay their startups in turn;
 *    without it a startup only delays its message;
 *  - ports: with a limit k each node sends at most k and receives at most k
 *    elements at once (forwarded elements count too);
 *  - arbitration: oldest message first. Messages are ordered by the tick
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
#include "machine.h"
#include "node.h"
#include "observer.h"
#include "stats.h"
#include "stop.h"

typedef struct Sim Sim;

typedef NodeStatus (*NodeStepFn)(Node *node, const void *config);

typedef struct {
    size_t memory_elements;       /* per node */
    size_t element_words;         /* 64-bit words per element, >= 1 */
    size_t local_size;            /* bytes of private state per node */
    unsigned phases;              /* phases the program declares, 0 or
                                   * 1..SIM_MAX_PHASES */
    gboolean each;                /* an operation-level program (node.h):
                                   * called at each completion, not once
                                   * a step */
} SimLayout;

/* Bytes the engine will allocate for this machine; callers refuse a run
 * that would not fit before calling sim_new. */
uint64_t sim_bytes_needed(const Machine *m, const SimLayout *layout);

/* The machine is copied. Memory and local state start zeroed. */
Sim *sim_new(const Machine *m, const SimLayout *layout);
void sim_free(Sim *sim);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Sim, sim_free)

/* Node x's memory: valid until the run goes on (node_memory). */
Word *sim_node_memory(Sim *sim, uint32_t node);
void sim_set_observer(Sim *sim, const SimObserver *observer, void *data);

/* The program's peek (node.h, NodePeekFn), or NULL, the default: the
 * read ahead then guesses from the links the last steps used. Before
 * sim_run, which gives the peek its own config. */
void sim_set_peek(Sim *sim, NodePeekFn peek);

/* Run every node's program to completion. FALSE with *error set when a node
 * program misused the API or the run deadlocked (receives never matched,
 * messages never received); the message names the node and step. */
gboolean sim_run(Sim *sim, NodeStepFn step, const void *config, GError **error);

const SimStats *sim_stats(const Sim *sim);
/* Elements carried by the directed channel leaving `node` on `link`. */
uint64_t sim_channel_elements(const Sim *sim, uint32_t node, int link);

/* The order a tick's events run in. SIM_ORDER_CONTRACT: the order they
 * were scheduled in, which the arbitration contract defines (README, "The
 * machine model"); it defines every run's results, and it is the order a
 * new Sim runs in until sim_set_order. SIM_ORDER_LOCALITY: the order of
 * their nodes' addresses, which reads a big machine's state in streams,
 * wherever that gives the contract's run: the engine checks, as it runs,
 * that no two events of a tick depend on each other's order
 * (sim_order.c), and where two might it stops with SIM_ERROR_ORDER, and
 * the run must be made again in the contract's order. Which order a
 * run uses by default is stated once, in run/run.h (RunOrder: the
 * locality order, and the contract's where it stops).
 * Cycles, counts, times and memory are the contract's either way; message
 * ids are not, so a run with an observer that sees messages (channel_busy,
 * startup or mark) keeps the contract's order. Before sim_run. */
typedef enum { SIM_ORDER_CONTRACT, SIM_ORDER_LOCALITY } SimOrder;
void sim_set_order(Sim *sim, SimOrder order);
/* Threads (sim_parallel.c): in the locality order, a tick of at least
 * min_events events runs split among `threads` threads by ranges of
 * node addresses, with results identical to one thread's whatever the
 * number. Runs that cannot split (an observer, faults, an operation-level
 * program, ports, memory paths, channels outside link arrays) keep one.
 * Before sim_run. */
#define SIM_MAX_THREADS 256
void sim_set_threads(Sim *sim, int threads, size_t min_events);
/* The threads the run used: 1, or sim_set_threads' where it split. */
int sim_threads(const Sim *sim);
/* What the threads did: ticks offered to them (the locality order's),
 * ticks split and the items they ran, the sends and steps' matchings the
 * shards put off to the commit, and the split ticks after which the next
 * were kept whole because too much was put off (sim_parallel.c). */
typedef struct {
    uint64_t ticks, ticks_split, events_split;
    uint64_t sends_put_off, matches_put_off;
    uint64_t ticks_backed_off;    /* split ticks that put off too much */
} SimParCounts;
SimParCounts sim_par_counts(const Sim *sim);
/* The contract's order up to tick `from`, the locality order from it on
 * (0: SIM_ORDER_LOCALITY): a run the locality order stopped at tick c
 * runs again with from = c + 1, and the ticks it runs in the contract's
 * order are the contract's, and so are the rest as long as the checks
 * find nothing (sim_order.c says why the switch may come at any tick).
 * Before sim_run. */
void sim_set_order_from(Sim *sim, Tick from);
/* TRUE if the run is in the locality order: from its start, or from the
 * tick sim_set_order_from named on, once it got there. */
gboolean sim_order_locality(const Sim *sim);
/* The tick at which the locality order stopped the run (SIM_ERROR_ORDER),
 * or -1; *on_channel, whether two events reserved one channel there (not
 * a port or a memory path, not overlapping receives). */
Tick sim_order_stopped_at(const Sim *sim, gboolean *on_channel);
/* The survey: in the contract's order, the locality order's checks run
 * and count, tick by tick, where they find two events that depend on
 * their order, instead of stopping the run: what share of a run that
 * leaves the locality order could run in it (and so split among
 * threads) tick by tick. It changes nothing the run reports. Before
 * sim_run; ignored in the locality order, whose first conflict stops. */
void sim_set_survey(Sim *sim, gboolean on);
typedef struct {
    uint64_t ticks;               /* ticks at which events ran */
    uint64_t ticks_conflicted;    /* of which with a conflict */
    uint64_t events;              /* events run */
    uint64_t events_conflicted;   /* of which in ticks with a conflict */
    uint64_t conflicts;           /* reservations and receives found */
    Tick first;                   /* the first tick with one, or -1 */
} SimSurveyCounts;
SimSurveyCounts sim_survey_counts(const Sim *sim);

/* Progress, for a line that shows a long run going on (util/progress.h,
 * run/run.c). Once at least `first` events have run, and then each time
 * at least as many more as the last call returned, sim_run calls fn,
 * before it runs an event, with where the run is; fn returns the events
 * until its next call (0: call it no more). It must only read: nothing
 * it does can change the run. The engine pays for it one comparison an
 * event, with or without fn (none is set by default). Before sim_run; fn
 * NULL removes it. */
typedef struct {
    Tick now;                     /* the tick of the event running */
    uint64_t events;              /* events run so far, that one included */
    uint32_t nodes;
    uint32_t nodes_done;          /* nodes whose program has finished */
} SimProgress;
typedef uint64_t (*SimProgressFn)(void *data, const SimProgress *where);
void sim_set_progress(Sim *sim, SimProgressFn fn, void *data, uint64_t first);

/* Limits that stop a run whose node programs never finish (a node
 * program that loops is its author's bug; these are the protection):
 *  - ticks: the run fails before it runs an event past tick `ticks`, and
 *    at its end if a node finished after it (0: no limit). A program
 *    that steps forever without advancing time (a step that returns
 *    NODE_CONTINUE and posts nothing runs again at the same tick) is
 *    beyond it: `stop` catches that.
 *  - stop: a wall-clock limit's flags (util/stop.h), or NULL. The engine
 *    writes where it is into them (in its loop, in a step, outside), and
 *    once their stop is STOP_ASKED it answers STOP_SEEN within
 *    SIM_STOP_POLL events and fails the run. The engine pays for it two
 *    stores a step and nothing an event (the progress check's compare,
 *    sim_set_progress, is made to come at least every SIM_STOP_POLL
 *    events).
 * Either fails with SIM_ERROR_LIMIT: "the run passed NAME at tick T with
 * U of N nodes unfinished (a node program that never finishes?)", NAME
 * being ticks_name or stop_name ("--tick-limit 1000", "--wall-limit 2";
 * NULL: "the tick limit 1000", "its wall-clock limit"), T the limit (or
 * the tick it was stopped at) and U the nodes whose programs had not
 * finished by then. Nothing else of a run changes. The names are copied;
 * the flags are not. Before sim_run. */
typedef struct {
    Tick ticks;
    const char *ticks_name;
    StopFlags *stop;
    const char *stop_name;
} SimLimits;
#define SIM_STOP_POLL 1024
void sim_set_limits(Sim *sim, const SimLimits *limits);

#define SIM_ERROR (sim_error_quark())
GQuark sim_error_quark(void);
/* SIM_ERROR_ORDER: the locality order met events that depend on their
 * order (sim_set_order); the run must be made again in the contract's.
 * SIM_ERROR_LIMIT: a limit of sim_set_limits stopped the run. */
enum { SIM_ERROR_PROGRAM = 1, SIM_ERROR_DEADLOCK, SIM_ERROR_ORDER,
       SIM_ERROR_LIMIT };

#endif
