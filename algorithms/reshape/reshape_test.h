/* reshape_test.h -- reshape.c's hook for its tests (tests/check_reshape.c):
 * a switch that forces a path prepare takes only on large cubes. A run is
 * the same with or without it; nothing but a test includes this header.
 */
#ifndef CUBE_RESHAPE_TEST_H
#define CUBE_RESHAPE_TEST_H

#include <stddef.h>

/* For tests, before a run is prepared: two-path reshaping tabulates its
 * plans by class of node (reshape.c, tp_tabulate) only where the table
 * has at most `entries` entries (normally 2^20, which only cubes far
 * beyond the tests' exceed); 0 makes every step call compute its plans,
 * as a run too large for the table does. */
void reshape_set_plan_table_limit(size_t entries);

#endif
