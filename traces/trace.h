/* trace.h -- channel traces: what every directed channel carried and when,
 * plus the phase marks node programs emit. traces/FORMAT.md is the byte
 * layout; this is the in-memory form, the recorder and the reader.
 *
 * Invariants of a Trace (the reader refuses a file that breaks one, the
 * recorder produces only traces that keep them):
 *  - channels[c] is one directed channel; busy records name it by index, so
 *    a topology other than the cube only writes a different table;
 *  - busy is sorted by (channel, start) and the records of one channel do
 *    not overlap: record b occupies [b.start, b.start + b.count *
 *    element_time), all within [0, cycles];
 *  - elements [first, first + count) of busy[i] belong to messages[message];
 *  - marks are sorted by (time, label, node) and each covers the nodes
 *    [node, node + nodes) that emitted the same label at the same time;
 *  - the counts of all busy records add up to element_transfers.
 * No SDL here: the engine, the exporters and the tests link this alone.
 */
#ifndef CUBE_TRACE_H
#define CUBE_TRACE_H

#include <glib.h>
#include <stdio.h>
#include "report.h"
#include "sim.h"

/* Format version. A reader accepts any minor version of its major one
 * (minor versions only append what old readers may skip) and refuses
 * another major version. */
#define TRACE_VERSION_MAJOR 1
#define TRACE_VERSION_MINOR 0

typedef struct {
    uint32_t source, dest;
    uint16_t dimension;
    int8_t direction;             /* +1 up (bit/coordinate grows), -1 down */
} TraceChannel;

typedef struct {
    uint64_t id;                  /* posting order = arbitration priority */
    uint64_t count;               /* elements */
    Tick posted;
    uint32_t source, dest;
    int32_t tag;
    uint32_t hops;                /* channels crossed */
} TraceMessage;

typedef struct {
    Tick start;
    uint64_t first, count;        /* elements [first, first+count) */
    uint32_t channel, message;    /* indices into channels, messages */
} TraceBusy;

typedef struct {
    Tick time;
    uint32_t label;               /* index into labels */
    uint32_t node, nodes;         /* nodes [node, node + nodes) */
} TraceMark;

typedef struct {
    char *key, *value;
} TraceInfo;

typedef struct {
    unsigned version_major, version_minor;
    uint32_t nodes;
    uint32_t dimensions;
    int ports;                    /* MACHINE_PORTS_ALL or k */
    Tick element_time, startup, cycles;
    uint64_t element_transfers;
    GArray *info;                 /* TraceInfo: topology, machine, ... */
    GArray *channels;             /* TraceChannel */
    GArray *messages;             /* TraceMessage */
    GArray *busy;                 /* TraceBusy */
    GPtrArray *labels;            /* char * */
    GArray *marks;                /* TraceMark */
} Trace;

Trace *trace_new(void);
void trace_free(Trace *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Trace, trace_free)

/* Header strings: "topology" (always present), "machine", "scenario",
 * "algorithm", "method", "parameters", "cubemu". NULL when absent. */
const char *trace_info(const Trace *t, const char *key);
void trace_set_info(Trace *t, const char *key, const char *value);
/* "gray-to-binary, method concurrent, elements-per-node = 1024 on
 * cm200-8k (cube, 256 nodes)"; free with g_free. */
char *trace_title(const Trace *t);
/* "up"/"down": the name of a channel's direction. */
const char *trace_direction_name(int direction);

/* ---- recording -------------------------------------------------------- */

typedef struct TraceRecorder TraceRecorder;

TraceRecorder *trace_recorder_new(void);
void trace_recorder_free(TraceRecorder *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(TraceRecorder, trace_recorder_free)
/* Pass these to run_scenario through RunOptions. */
const SimObserver *trace_recorder_observer(void);
/* The recorded run as a Trace, its header taken from the run's report.
 * The recorder is emptied. NULL with *error set when the machine's
 * topology has no channel table. */
Trace *trace_recorder_finish(TraceRecorder *r, const Report *report,
                             GError **error);

/* The directed channels of a machine, in the order busy records index
 * them; FALSE with *error for a topology without a table. */
gboolean trace_channel_table(const Machine *m, GArray *channels,
                             GError **error);

/* ---- files ------------------------------------------------------------ */

#define TRACE_ERROR (trace_error_quark())
GQuark trace_error_quark(void);
enum {
    TRACE_ERROR_INPUT = 1,   /* not a trace, truncated, corrupt */
    TRACE_ERROR_VERSION,     /* another major version */
    TRACE_ERROR_IO           /* cannot read or write the file */
};

/* Messages name the file: "PATH: reason". */
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
/* Cycles channel c was busy within [from, to). */
Tick trace_index_busy(const TraceIndex *x, uint32_t channel,
                          Tick from, Tick to);
/* The record occupying channel c at cycle t, or NULL. */
const TraceBusy *trace_index_at(const TraceIndex *x, uint32_t channel,
                                Tick t);
/* Elements and messages channel c carried over the whole run. */
uint64_t trace_index_elements(const TraceIndex *x, uint32_t channel);
uint64_t trace_index_messages(const TraceIndex *x, uint32_t channel);
/* Channels leaving / entering node v: indices into t->channels. */
const uint32_t *trace_index_out(const TraceIndex *x, uint32_t node,
                                guint *count);
const uint32_t *trace_index_in(const TraceIndex *x, uint32_t node,
                               guint *count);
/* Groups of channels with one (dimension, direction), in order of
 * dimension then up before down; each channel belongs to exactly one. */
guint trace_index_groups(const TraceIndex *x);
void trace_index_group(const TraceIndex *x, guint g, int *dimension,
                       int *direction, guint *channels);
guint trace_index_group_of(const TraceIndex *x, uint32_t channel);
/* The phase at cycle t: every node is in the phase it marked last (at or
 * before t); this is the phase the most nodes are in, *nodes of them.
 * NULL before the first mark. */
const char *trace_index_phase(const TraceIndex *x, Tick t,
                              uint32_t *nodes);
/* Of the labels marked at exactly cycle t, the one the most nodes gave
 * (NULL if none): what began then, for a timeline. */
const char *trace_index_phase_begun(const TraceIndex *x, Tick t,
                                    uint32_t *nodes);
/* The latest label node v gave at or before t, or NULL. */
const char *trace_index_node_phase(const TraceIndex *x, uint32_t node,
                                   Tick t);

#endif
