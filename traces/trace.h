/* trace.h -- channel traces: what every directed channel carried and when,
 * the startups that held a port, and the phase marks node programs emit.
 * traces/FORMAT.md is the byte layout; this is the in-memory form, the
 * recorder and the reader.
 *
 * Invariants of a Trace (the reader refuses a file that breaks one, the
 * recorder produces only traces that keep them):
 *  - topology is the machine's (machines/topology.h), rebuilt from the
 *    header's kind, shape, wrap and processor count; it names every link
 *    and gives every channel's far end, so idle channels need no entry;
 *  - channels lists exactly the directed channels that carried at least
 *    one element, sorted by (source, link), each a link its source has;
 *    dest and direction are derived from the topology;
 *  - busy is sorted by (channel, start) and the records of one channel do
 *    not overlap: record b occupies [b.start, trace_busy_end(t, b)), all
 *    within [0, cycles]; elements [first, first + count) belong to
 *    messages[message], which crosses every channel at its own element
 *    time (the price of its class);
 *  - startups are sorted by (start, message); each lasts its message's
 *    class startup, within [0, cycles], and exists only when the machine's
 *    startups hold a port;
 *  - marks are sorted by (time, label, node) and each covers the nodes
 *    [node, node + nodes) that emitted the same label at the same time;
 *  - the counts of all busy records add up to element_transfers;
 *  - faults lists the machine's faults (machines/faults.h's entries: a
 *    channel (node, link) down over [from, until), until FAULTS_FOREVER
 *    for good, or a dead node, link -1), sorted by (node, link, from),
 *    each naming a node and a link it has; empty for a fault-free run and
 *    for every trace before version 2.2. A message that went around one
 *    has `detoured` set.
 * No SDL here: the engine, the exporters and the tests link this alone.
 */
#ifndef CUBE_TRACE_H
#define CUBE_TRACE_H

#include <glib.h>
#include <stdio.h>
#include "machine.h"
#include "observer.h"
#include "report.h"
#include "topology.h"

/* Format version. A reader accepts any minor version of its major one
 * (minor versions only append what old readers may skip) and refuses
 * another major version. 2.0: the topology in the header, channels named
 * by link, per-message class and element time, startup records. 2.1:
 * memory paths. 2.2: the faults, and which messages went around them. */
#define TRACE_VERSION_MAJOR 2
#define TRACE_VERSION_MINOR 2

typedef struct {
    uint32_t source;
    uint32_t link;                /* the topology's link index */
    uint32_t dest;                /* derived: the node across the link */
    int direction;                /* derived: +1 up, -1 down (topology.h) */
} TraceChannel;

typedef struct {
    uint64_t id;                  /* posting order = arbitration priority */
    uint64_t count;               /* elements */
    Tick posted;
    Tick element_time;            /* ticks per element on every channel */
    uint32_t source, dest;
    int32_t tag;
    uint32_t hops;                /* channels crossed */
    MessageClass cls;             /* its price: neighbour or router */
    gboolean detoured;            /* went around a fault: not the route
                                   * asked (2.2; FALSE in older traces) */
} TraceMessage;

typedef struct {
    Tick start;
    uint64_t first, count;        /* elements [first, first+count) */
    uint32_t channel, message;    /* indices into channels, messages */
} TraceBusy;

/* A startup that held a port of the message's source (with ports = all:
 * its first channel) during [start, start + duration). */
typedef struct {
    Tick start, duration;
    uint32_t message;             /* index into messages */
    uint32_t link;                /* the first link of the message's route */
} TraceStartup;

typedef struct {
    Tick time;
    uint32_t label;               /* index into labels */
    uint32_t node, nodes;         /* nodes [node, node + nodes) */
} TraceMark;

typedef struct {
    char *key, *value;
} TraceInfo;

/* A trace's run lasts at most 2^62 ticks (the reader refuses more, the
 * writer will not write more): every time in a trace is then at most
 * this, so a time plus another time or an element time, as the index,
 * the exports and the viewer compute, stays within Tick. No run comes
 * near it: at the longest element time, 10^9 ticks, it is 2^32 elements
 * crossing one after another. */
#define TRACE_MAX_CYCLES (INT64_C(1) << 62)

typedef struct {
    unsigned version_major, version_minor;
    Topology topology;
    int ports;                    /* MACHINE_PORTS_ALL or k */
    gboolean startup_holds_port;
    MachinePrice price[CLASS_COUNT];
    double tick_seconds;          /* 0: ticks only */
    Tick cycles;                  /* 0..TRACE_MAX_CYCLES */
    uint64_t element_transfers;
    GArray *info;                 /* TraceInfo: machine, algorithm, ... */
    GArray *channels;             /* TraceChannel */
    GArray *messages;             /* TraceMessage */
    GArray *busy;                 /* TraceBusy */
    GArray *startups;             /* TraceStartup */
    GPtrArray *labels;            /* char * */
    GArray *marks;                /* TraceMark */
    GArray *faults;               /* FaultEntry (machines/faults.h) */
} Trace;

/* An empty trace of a one-dimensional cube (two nodes), for the reader
 * and for tests to fill. */
Trace *trace_new(void);
void trace_free(Trace *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Trace, trace_free)

static inline uint32_t trace_nodes(const Trace *t)
{
    return t->topology.nodes;
}

/* When busy record b's last element has crossed. */
static inline Tick trace_busy_end(const Trace *t, const TraceBusy *b)
{
    return b->start + (Tick)b->count
                      * g_array_index(t->messages, TraceMessage,
                                      b->message).element_time;
}

/* The smallest element time of the machine's classes: the viewer's step
 * and the CSV's default window. */
Tick trace_min_element_time(const Trace *t);

/* Header strings: "machine", "scenario", "algorithm", "method",
 * "parameters", "cubemu". NULL when absent. */
const char *trace_info(const Trace *t, const char *key);
void trace_set_info(Trace *t, const char *key, const char *value);
/* "cube, 256 nodes", "torus 4x4, 16 nodes", "complete, 8 nodes"; free
 * with g_free. */
char *trace_topology_text(const Trace *t);
/* "gray-to-binary, method concurrent, elements-per-node = 1024 on
 * cm200-8k (cube, 256 nodes)"; free with g_free. */
char *trace_title(const Trace *t);
/* "+x", "dimension 3", "to 5" (topology_link_name), in a caller buffer of
 * TOPOLOGY_LINK_NAME_MAX bytes. */
void trace_link_name(const Trace *t, uint32_t link, char *buf, gsize size);
/* "node 5 +x", "node 3 to 7": how exports and the viewer name channel c;
 * at most TRACE_CHANNEL_NAME_MAX bytes with the terminator. */
#define TRACE_CHANNEL_NAME_MAX (TOPOLOGY_LINK_NAME_MAX + 16)
void trace_channel_name(const Trace *t, uint32_t node, uint32_t link,
                        char *buf, gsize size);
/* Ticks in seconds, and "1.23 ms"; 0 and NULL without tick_seconds. */
double trace_seconds(const Trace *t, Tick ticks);
char *trace_seconds_text(const Trace *t, Tick ticks);

/* Faults (t->faults). Is node v dead? Is the channel leaving `node` on
 * `link` down at tick `at`? Is it down at some tick of the whole run
 * (from 0 up to cycles, or at 0 in a run of no cycles)? And the channel's
 * first entry, for naming it: FALSE if it has none. Each is a binary
 * search. A channel into a dead node is not itself down: ask
 * trace_node_dead of its far end. */
gboolean trace_node_dead(const Trace *t, uint32_t v);
gboolean trace_channel_down(const Trace *t, uint32_t node, uint32_t link,
                            Tick at);
gboolean trace_channel_faulty(const Trace *t, uint32_t node, uint32_t link);
gboolean trace_channel_fault(const Trace *t, uint32_t node, uint32_t link,
                             FaultEntry *e);
/* "for good" or "from tick 10 until 20" (or "from 10 on"), for a fault
 * entry's interval; free with g_free. */
char *trace_fault_interval_text(const FaultEntry *e);

/* ---- recording -------------------------------------------------------- */

typedef struct TraceRecorder TraceRecorder;

TraceRecorder *trace_recorder_new(void);
void trace_recorder_free(TraceRecorder *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(TraceRecorder, trace_recorder_free)
/* Pass these to run_scenario through RunOptions (or to sim_set_observer). */
const SimObserver *trace_recorder_observer(void);
/* The recorded run as a Trace, its header taken from the run's report
 * (machine, cycles, element transfers, names). The recorder is emptied. */
Trace *trace_recorder_finish(TraceRecorder *r, const Report *report);

/* ---- files ------------------------------------------------------------ */

#define TRACE_ERROR (trace_error_quark())
GQuark trace_error_quark(void);
enum {
    TRACE_ERROR_INPUT = 1,   /* not a trace, truncated, corrupt */
    TRACE_ERROR_VERSION,     /* another major version */
    TRACE_ERROR_IO           /* cannot read or write the file */
};

/* Messages name the file: "PATH: reason". trace_save writes through
 * output.h (the previous file survives any failure; write errors are
 * OUTPUT_ERROR); trace_write writes to a stream the caller owns. */
gboolean trace_save(const Trace *t, const char *path, GError **error);
gboolean trace_write(const Trace *t, FILE *out, const char *name,
                     GError **error);
Trace *trace_load(const char *path, GError **error);
Trace *trace_parse(const char *name, const guint8 *data, gsize len,
                   GError **error);
/* Does data begin like a trace file? (at least one byte of the magic) */
gboolean trace_looks_like_trace(const guint8 *data, gsize len);

/* ---- queries ---------------------------------------------------------- */

/* Per-channel busy time with prefix sums, for time-window questions.
 * Built once per trace; every query is O(log records of the channel). */
typedef struct TraceIndex TraceIndex;

TraceIndex *trace_index_new(const Trace *t);
void trace_index_free(TraceIndex *x);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(TraceIndex, trace_index_free)
/* Ticks channel c was busy within [from, to). */
Tick trace_index_busy(const TraceIndex *x, uint32_t channel,
                      Tick from, Tick to);
/* The record occupying channel c at tick t, or NULL. */
const TraceBusy *trace_index_at(const TraceIndex *x, uint32_t channel,
                                Tick t);
/* Elements and messages channel c carried over the whole run. */
uint64_t trace_index_elements(const TraceIndex *x, uint32_t channel);
uint64_t trace_index_messages(const TraceIndex *x, uint32_t channel);
/* The channel leaving node on link, as an index into t->channels, or -1
 * when it carried nothing (or does not exist). O(log links). */
int64_t trace_index_find(const TraceIndex *x, uint32_t node, uint32_t link);
/* Channels leaving / entering node v that carried something: indices
 * into t->channels, the outgoing ones in link order. */
const uint32_t *trace_index_out(const TraceIndex *x, uint32_t node,
                                guint *count);
const uint32_t *trace_index_in(const TraceIndex *x, uint32_t node,
                               guint *count);
/* The phase at tick t: every node is in the phase it marked last (at or
 * before t); this is the phase the most nodes are in, *nodes of them.
 * NULL before the first mark. */
const char *trace_index_phase(const TraceIndex *x, Tick t,
                              uint32_t *nodes);
/* Of the labels marked at exactly tick t, the one the most nodes gave
 * (NULL if none): what began then, for a timeline. */
const char *trace_index_phase_begun(const TraceIndex *x, Tick t,
                                    uint32_t *nodes);
/* How many nodes are in each phase at a tick: a replay of the marks
 * that goes on from where the last question left it, so that asking
 * about later and later ticks costs the marks between them (asking about
 * an earlier tick replays from the first mark). */
typedef struct TracePhaseCount TracePhaseCount;
TracePhaseCount *trace_phase_count_new(const Trace *t);
void trace_phase_count_free(TracePhaseCount *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(TracePhaseCount, trace_phase_count_free)
/* Nodes per label (in t->labels' order) at tick t: each node in the
 * label it marked last at or before t; nodes that have not marked yet
 * are in none. Valid until the next call. */
const uint32_t *trace_phase_count_at(TracePhaseCount *p, Tick t);
/* Node v's label (an index into t->labels) at the tick last asked
 * about, or UINT32_MAX if it had marked none. O(log runs of nodes). */
uint32_t trace_phase_count_node(const TracePhaseCount *p, uint32_t node);
/* The latest label node v gave at or before t, or NULL. */
const char *trace_index_node_phase(const TraceIndex *x, uint32_t node,
                                   Tick t);

#endif
