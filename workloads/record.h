/* record.h -- a run recorded as a message schedule (schedule.h): the
 * schedule recorder, an observer (emu/observer.h, SimObserver's `op`)
 * that turns every operation the node programs post into a Schedule of
 * one rank a node (rank r is node r), which any writable format
 * (format.h) then writes: `cubemu run --schedule-out FILE`.
 *
 * What a schedule says (docs/schedules.md, "Recording a run"): each
 * node's operations in its program's order, with the dependencies its
 * steps imply:
 *  - a send requires the local work (node_busy, node_compute,
 *    node_kernel, node_idle) its step posted before it, if any: the
 *    engine starts it when the node's clock has passed that work;
 *  - local work requires the step's local work before it;
 *  - a receive requires nothing within its step: the engine posts it at
 *    the call;
 *  - between two steps that posted operations stands a boundary, a calc of
 *    no time that requires every operation of the step before and that
 *    every operation of the next step requires (n + m dependencies, not
 *    n x m); the replay completes such a calc in the call that posts it,
 *    so that the next step starts at the point of the order of events at
 *    which the program of steps started it. A step that posted nothing
 *    adds no boundary: one of no time is the same as two.
 * A send of m elements is m x 8 bytes (the replay's element-bytes) and
 * local work of t ticks a calc of t ticks in nanoseconds where the
 * machine's tick is a whole number of them (the replay's default
 * time-unit), else in ticks with the time-unit to replay them with; the
 * schedule's first comment lines say which, and what else the replay needs
 * to give the run's cycles, messages and element transfers again (its
 * `route`), or why it cannot (the sends it would send another way).
 *
 * Memory: the Schedule, about 32 bytes an operation and 4 a dependency,
 * and 48 bytes a node. A recorder's tables start at the per-node part,
 * which run/run.c counts in the run's estimate
 * (schedule_recorder_bytes_for), and grow by doubling within a budget, as
 * the trace recorder's do (traces/record.h): a growth that would pass it,
 * or that cannot be allocated, stops the recorder, and
 * schedule_recorder_check then fails the run.
 */
#ifndef CUBE_SCHEDULE_RECORD_H
#define CUBE_SCHEDULE_RECORD_H

#include <glib.h>

#include "machine.h"
#include "observer.h"
#include "schedule.h"

/* Bytes of the recorded element: the replay's default element-bytes,
 * whatever the element's width (a channel moves one element per
 * element-time, a complex double's two words as one). */
#define RECORD_ELEMENT_BYTES 8

/* No budget: only what can be allocated limits the recorder. */
#define RECORD_NO_BUDGET UINT64_MAX

typedef struct ScheduleRecorder ScheduleRecorder;

/* A recorder; nothing is allocated until schedule_recorder_begin. */
ScheduleRecorder *schedule_recorder_new(void);
void schedule_recorder_free(ScheduleRecorder *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ScheduleRecorder, schedule_recorder_free)

/* The observer to run with (its data is the recorder): `op` alone. */
const SimObserver *schedule_recorder_observer(void);

/* What schedule_recorder_begin allocates for a machine of NODES nodes,
 * in bytes. */
uint64_t schedule_recorder_bytes_for(uint32_t nodes);

/* Before the run: record a run on machine M (copied), of SOURCE
 * ("scenarios/x.ini: algorithm exchange"), by a program that is called
 * at the operation level (EACH: its calls follow completions, not steps,
 * so its steps imply no dependencies and the schedule cannot be exact);
 * NAME names the schedule in messages (the file it goes to). Anything
 * recorded before is dropped. FALSE with *error (SCHEDULE_ERROR) if the
 * per-node tables cannot be allocated. */
gboolean schedule_recorder_begin(ScheduleRecorder *r, const Machine *m,
                                 const char *source, gboolean each,
                                 const char *name, GError **error);

/* The recorder's tables now, and their growth from now on, in bytes. */
uint64_t schedule_recorder_bytes(const ScheduleRecorder *r);
void schedule_recorder_set_budget(ScheduleRecorder *r, uint64_t bytes);

/* After the run: FALSE with *error (SCHEDULE_ERROR) if the recorder
 * stopped: its budget, an allocation, or an operation a schedule cannot
 * hold (a negative tag, a message beyond SCHEDULE_MAX_BYTES, a rank's
 * operations beyond SCHEDULE_MAX_OPS), named with its node and step. */
gboolean schedule_recorder_check(const ScheduleRecorder *r, GError **error);

/* How the run replays, from what was recorded (the header says the same
 * in words). */
typedef struct {
    gboolean router;              /* replay with route = router */
    gboolean exact;               /* the replay gives the run's cycles,
                                   * messages and element transfers */
    double time_unit;             /* seconds of a calc's unit */
    gboolean time_unit_default;   /* the replay's default time-unit reads
                                   * it so (nanoseconds, or a tick where
                                   * the machine gives no tick-seconds) */
    uint64_t sends;
    /* Sends the replay, with its route, sends along another path or in
     * another class (none when exact), by reason: */
    uint64_t off_route;           /* along an explicit path of several
                                   * links that is not the default route */
    uint64_t other_link;          /* over one link that is not the first
                                   * of the node's links to that neighbour */
    uint64_t other_class;         /* routed to a neighbour beside one-link
                                   * sends to neighbours: mixed classes */
} ScheduleRecording;

/* After a successful check: the schedule (the caller's, with its comment
 * lines and time unit set; the recorder holds nothing more), and how it
 * replays in *how if HOW is given. */
Schedule *schedule_recorder_finish(ScheduleRecorder *r,
                                   ScheduleRecording *how);

#endif
