/* record.h -- the trace recorder's memory (the recorder itself is in
 * trace.h): what the runner (run/run.c) needs to count it in a run's
 * estimate and to hold it to what the run's limit leaves.
 *
 * The recorder cannot know before a run how many messages it will see, so
 * it accounts for its tables as they grow: every growth of a table (a
 * doubling, so a few dozen in a run) first checks that the recorder's
 * projected peak -- the tables' allocations plus what
 * trace_recorder_finish will allocate to sort them -- stays within its
 * budget, and that the grown table can be allocated at all (g_try_malloc).
 * Where either fails the recorder stops recording and remembers why; the
 * run goes on to its end (an observer cannot stop the engine) and
 * trace_recorder_check reports it. Nothing here runs per event beyond
 * the test of a table's length that appending did anyway.
 */
#ifndef CUBE_TRACE_RECORD_H
#define CUBE_TRACE_RECORD_H

#include "trace.h"

/* No budget: only what can be allocated limits the recorder. */
#define TRACE_RECORDER_NO_BUDGET UINT64_MAX

/* The recorder's projected peak in bytes: its tables as allocated now and
 * what finishing them will add (the sorted copy of the busy records, the
 * channel table). An upper bound of what it holds at any time. */
uint64_t trace_recorder_bytes(const TraceRecorder *r);
/* Hold the projected peak within `bytes` from now on. */
void trace_recorder_set_budget(TraceRecorder *r, uint64_t bytes);
/* After the run: FALSE with *error (TRACE_ERROR_IO) if the recorder
 * stopped (its budget, or an allocation it could not make: the message
 * gives the size asked and what for), or if what trace_recorder_finish
 * will allocate cannot be allocated now. */
gboolean trace_recorder_check(TraceRecorder *r, GError **error);
/* Is this observer the trace recorder's (trace_recorder_observer)? */
gboolean trace_recorder_observes(const SimObserver *observer);

#endif
