/* schedule.h -- a message schedule: what each rank of a workload sends,
 * receives and computes, and in what order, as data. A schedule knows no
 * machine: ranks, peers, bytes and time units only. The formats that read
 * and write it (GOAL, SimGrid's time-independent traces) are in
 * workloads/ (format.h), and the `schedule` algorithm replays one on any
 * machine (algorithms/schedule/).
 *
 * Invariants of a Schedule built by a reader (schedule_check holds them):
 *  - ranks[r].ops[0 .. nops) are rank r's operations in the order the file
 *    gave them, which is also the order a rank posts operations that
 *    become ready at the same time;
 *  - an operation's dependencies name earlier or later operations of the
 *    same rank only (deps[first .. first + ndeps)), never itself, and the
 *    dependency graph of each rank has no cycle;
 *  - every peer is a rank of the schedule (0 .. nranks-1), a send's size
 *    and a receive's size are in bytes, a calc's in time units.
 * Memory: about 32 bytes an operation plus 4 a dependency, in two arrays a
 * rank; nothing is kept of the text it was read from.
 */
#ifndef CUBE_SCHEDULE_H
#define CUBE_SCHEDULE_H

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

/* Limits, each with its reason (the readers refuse more, naming them). */
#define SCHEDULE_MAX_RANKS ((uint32_t)1 << 26)   /* the largest machine */
#define SCHEDULE_MAX_OPS ((uint32_t)1 << 30)     /* a rank's operation index
                                                  * fits a SchedDep's 31 bits */
#define SCHEDULE_MAX_BYTES ((uint64_t)1 << 40)   /* a message: 1 TiB */
#define SCHEDULE_MAX_TIME ((uint64_t)1 << 50)    /* a calc, in time units:
                                                  * exact in a double */
#define SCHEDULE_MAX_TAG INT32_MAX               /* node.h's tag is an int */
#define SCHEDULE_MAX_UNITS 255                   /* cpu and nic numbers */
#define SCHEDULE_MAX_DEPS UINT32_MAX              /* a rank's dependencies:
                                                  * dep_first is 32 bits */

/* Bad input (a file, or a schedule a format cannot hold): exit status 2.
 * Messages name the file, and the line where there is one. */
#define SCHEDULE_ERROR (schedule_error_quark())
GQuark schedule_error_quark(void);
enum { SCHEDULE_ERROR_INPUT = 1 };

typedef enum {
    SCHED_SEND = 0,               /* `peer` is the destination */
    SCHED_RECV = 1,               /* `peer` is the source */
    SCHED_CALC = 2                /* local work of `size` time units */
} SchedKind;

/* One operation of a rank. */
typedef struct {
    uint64_t size;                /* bytes (send, recv) or time units (calc) */
    uint32_t peer;                /* the other rank (send, recv); 0 for calc */
    int32_t tag;                  /* 0 for calc */
    uint32_t dep_first;           /* its dependencies: deps[dep_first ..] */
    uint32_t ndeps;
    uint32_t line;                /* where the reader found it (1-based), or 0 */
    uint8_t kind;                 /* SchedKind */
    uint8_t cpu, nic;             /* the units it runs on (GOAL's cpu, nic) */
} SchedOp;

/* A dependency of an operation on operation `op` of the same rank:
 * requires (the operation may start once `op` has completed) or
 * irequires (once `op` has started). */
typedef struct {
    uint32_t op : 31;
    uint32_t started : 1;         /* 1: irequires; 0: requires */
} SchedDep;

typedef struct {
    SchedOp *ops;
    SchedDep *deps;
    uint32_t nops, ndeps;
    uint32_t ops_room, deps_room; /* allocated, for schedule_add_*: a reader
                                   * that fills the arrays itself sets them
                                   * to what it allocated */
} SchedRank;

typedef struct Schedule {
    char *name;                   /* the file it came from, for messages */
    uint32_t nranks;
    SchedRank *ranks;             /* nranks of them */
    /* What a writer puts before the schedule, as comment lines of its
     * format, one a line of this text (no comment markers); NULL: none.
     * Readers keep no comment (workloads/record.c writes one). */
    char *comment;
    /* Seconds a calc's time unit stands for, where the schedule's source
     * says (a recorded run: workloads/record.h); 0 where it does not,
     * and then a unit is LogGOPSim's nanosecond. For writers of formats
     * that give seconds (SimGrid's). */
    double time_unit;
} Schedule;

/* An empty schedule of NRANKS ranks (1 .. SCHEDULE_MAX_RANKS), named
 * NAME; free with schedule_free. */
Schedule *schedule_new(const char *name, uint32_t nranks);
void schedule_free(Schedule *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Schedule, schedule_free)

/* Append an operation to rank r (its index is returned), with no
 * dependencies yet (its dep_first and ndeps are set); then
 * schedule_add_dep adds one to the rank's last operation. For readers and
 * recorders; the caller keeps to the limits. The arrays grow by doubling
 * (ops_room, deps_room). */
uint32_t schedule_add_op(Schedule *s, uint32_t r, const SchedOp *op);
void schedule_add_dep(Schedule *s, uint32_t r, uint32_t on, gboolean started);

/* Hold the invariants above: every peer a rank, no operation depending on
 * itself or on one the rank does not have, no cycle; and every kind one of
 * the three, sizes and tags within the limits, a calc's peer and tag 0,
 * each operation's dependencies within its rank's. FALSE with *error
 * (SCHEDULE_ERROR_INPUT) naming the rank, the operation and its line where
 * one does not hold ("NAME:LINE: rank R: ...", or "NAME: rank R, operation
 * I: ..." for an operation of no line); a cycle is named by its
 * operations. */
gboolean schedule_check(const Schedule *s, GError **error);

/* S's comment (Schedule.comment) to OUT, each of its lines after MARKER
 * and a space ("// ", "# "), or MARKER alone for an empty line; nothing
 * when it has none. For writers; the caller checks OUT. */
void schedule_write_comment(const Schedule *s, FILE *out, const char *marker);

/* Totals, for reports and bounds: operations of each kind and their sizes
 * over all ranks. */
typedef struct {
    uint64_t ops[3];              /* by SchedKind */
    uint64_t size[3];             /* bytes sent, bytes received, time units */
} ScheduleTotals;
void schedule_totals(const Schedule *s, ScheduleTotals *out);

/* The flag on a dependent (schedule_rank_dependents) that needs the
 * operation started (irequires) rather than completed (requires); an
 * operation's index fits the other 31 bits (SCHEDULE_MAX_OPS). */
#define SCHEDULE_ON_START 0x80000000u

/* Ranks a deadlocked run's report lists, whichever model timed it; the
 * rest are counted. */
#define SCHEDULE_STUCK_RANKS_SHOWN 16

/* Rank SR's dependents, for whoever runs it (a replay, a model, a
 * writer), in compressed rows: the operations that depend on operation i
 * are dependent[after[i] .. after[i + 1]), each with SCHEDULE_ON_START
 * where it irequires i, in the order of the operations that depend and,
 * within one, of its dependencies: txt2bin's order, which LogGOPSim
 * releases them in. AFTER has sr->nops + 1 entries, DEPENDENT sr->ndeps. */
void schedule_rank_dependents(const SchedRank *sr, uint32_t *after,
                              uint32_t *dependent);

#endif
