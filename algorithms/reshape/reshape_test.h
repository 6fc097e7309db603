/* reshape_test.h -- reshape.c's hook for its tests (tests/check_reshape.c):
 * a switch that forces a path prepare takes only on large cubes. A run is
 * the same with or without it; nothing but a test includes this header.
 */
#ifndef CUBE_RESHAPE_TEST_H
#define CUBE_RESHAPE_TEST_H

#include <stddef.h>

/* The largest plan table two-path reshaping builds (reshape.c,
 * tp_tabulate); only cubes far beyond the tests' need more. */
#define RESHAPE_PLAN_TABLE_ENTRIES ((size_t)1 << 20)

/* For tests, before a run is prepared: two-path reshaping tabulates its
 * plans by class of node only where the table has at most `entries`
 * entries (normally RESHAPE_PLAN_TABLE_ENTRIES); 0 makes every step call
 * compute its plans, as a run too large for the table does. */
void reshape_set_plan_table_limit(size_t entries);

#endif
