/* slot_tables.h -- the tables of slot patterns two-path's schedule = slots
 * runs (reshape.c, "schedule = slots"). */
#ifndef CUBE_SLOT_TABLES_H
#define CUBE_SLOT_TABLES_H

#include <stddef.h>
#include <stdint.h>

/* One table serves every shape with this delta and K (K/delta elements a
 * set). Row g is the group type whose step boundary u is a hand-over iff
 * bit delta - 2 - u of g is set; a row is delta steps separated by '|',
 * each K/delta slots "CYCLEe" (over the edge) or "CYCLEh" (on the detour),
 * element k of the set in slot k; NULL where the table has no row for the
 * type (a shape whose groups need it cannot use the table). */
typedef struct {
    int delta;
    uint64_t k;
    const char *const *rows;    /* 2^(delta-1) of them */
    const char *data;           /* the file under tests/data/reshape/ */
    const char *kind;           /* details.timetable_kind when it runs */
} SlotTable;

/* The first table for delta and K after `after` (NULL: the first of all),
 * or NULL. Tables are tried in this order. */
const SlotTable *slot_table_find(int delta, uint64_t k, const SlotTable *after);

/* All tables, for the tests: *count of them. */
const SlotTable *slot_tables(size_t *count);

#endif
