/* scenario_default.h -- the scenario a run uses when given none, and how a
 * command builds its scenario from a file, or from the default filled in
 * around the --set values (docs/running.md). Shared by cubemu (cli/) and
 * cubemu-mpi (mpi/), so that both run the same default.
 */
#ifndef CUBE_SCENARIO_DEFAULT_H
#define CUBE_SCENARIO_DEFAULT_H

#include "scenario.h"

/* The embedded default scenario's text. */
extern const char scenario_default_text[];

/* Load PATH (or, with path NULL, the default filled in around the --set
 * values: a user who names another algorithm or machine, or who sets any
 * [machine] or [algorithm] key, gets the default's other groups but not its
 * [expect]) and apply SETS, then the `cubemu run --compare` assignments
 * COMPARE (each NULL-ended, or NULL) in order. NULL with *error on bad
 * input. */
Scenario *scenario_default_build(const char *path, char **sets,
                                 char **compare, GError **error);

#endif
