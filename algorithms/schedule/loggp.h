/* loggp.h -- a schedule timed in the LogGP model as LogGOPSim times it
 * (T. Hoefler, T. Schneider and A. Lumsdaine, "LogGOPSim: Simulating
 * Large-Scale Applications in the LogGOPS Model", HPDC 2010, LSAP
 * workshop): the machine model `loggp` (machines/machine.h) prices a
 * schedule replay with it, and docs/machine-model.md says the rules.
 */
#ifndef CUBE_SCHEDULE_LOGGP_H
#define CUBE_SCHEDULE_LOGGP_H

#include <glib.h>
#include <stdint.h>

#include "machine.h"
#include "schedule.h"

/* Time the schedule: finish[r] (room for its ranks) is when rank r's
 * processors were last busy (LogGOPSim's per-host time), in ticks of one
 * nanosecond each; *events counts the events handled. FALSE with *error
 * (SCHEDULE_ERROR_INPUT) when a message or a receive is left unmatched. */
gboolean loggp_time(const Schedule *s, const MachineLoggp *p,
                    uint64_t *finish, uint64_t *events, GError **error);

#endif
