/* goal.h -- LogGOPSim's GOAL text: the language and how cubemu's reader
 * differs from LogGOPSim's txt2bin are in docs/schedules.md. The format's
 * reader and writer of files are reached through the table (format.h:
 * "goal"); these read text held in memory and write to a stream, for
 * tests and the fuzzer.
 */
#ifndef CUBE_GOAL_H
#define CUBE_GOAL_H

#include <stddef.h>
#include <stdio.h>

#include "schedule.h"

/* LEN bytes of GOAL text, read as goal's reader reads a file: NAME stands
 * for the file in messages. NULL and *error (SCHEDULE_ERROR_INPUT) on bad
 * input. */
Schedule *goal_read_data(const char *name, const char *text, size_t len,
                         GError **error);

/* S as GOAL text to OUT, as the format's writer writes a file; NAME in
 * messages. FALSE and *error (SCHEDULE_ERROR_INPUT) for a schedule GOAL
 * cannot hold, before anything is written; the caller checks OUT. */
gboolean goal_write_stream(const Schedule *s, FILE *out, const char *name,
                           GError **error);

#endif
