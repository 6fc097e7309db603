/* slot_tables.c -- slot patterns for two-path reshaping (slot_tables.h).
 *
 * Each table is a solution of the integer program tests/thm3-patterns.py
 * writes (README, Reshape, "Slot patterns"): every row uses its group's
 * eight channels at most once per cycle, and one arrival profile per step
 * and element index bounds every row and is waited for by the next step of
 * every row. So a table is a schedule at Theorem 3's K/2 + 1 cycles on
 * every shape with its delta and K = 4 delta. check_reshape compares each
 * with its file under tests/data/reshape/, which the Python tools read. */
#include "slot_tables.h"

#include <glib.h>

/* delta 4, K 16: tests/thm3-patterns.py lp 4 16, CBC (12 s) */
static const char *const rows_d4_k16[] = {
    "0e 1h 0h 1e | 2e 4h 3e 2h | 3h 7e 4e 5e | 6e 8e 5h 6h",    /* SSS */
    "0e 1h 0h 1e | 2e 6e 3e 2h | 3h 7e 4e 5e | 6e 8e 5e 7e",    /* SSH */
    "0e 1h 0h 1e | 2e 5e 3e 4e | 3e 7e 4e 5e | 6e 8e 5h 6h",    /* SHS */
    "0e 1h 0h 1e | 2e 5e 3e 4e | 3e 7e 4e 5e | 6e 8e 5h 7e",    /* SHH */
    "0e 3e 2e 1e | 1e 4h 3e 2e | 3h 7e 4e 5e | 6e 8e 5h 6h",    /* HSS */
    "0e 3e 2e 1e | 1e 6e 3e 2e | 3h 7e 4e 5e | 6e 8e 5e 7e",    /* HSH */
    "0e 1h 2e 1e | 1e 5e 3e 4e | 3e 7e 4e 5e | 6e 8e 5h 6h",    /* HHS */
    "0e 0h 2e 1e | 2e 5e 3e 4e | 3e 7e 4e 5e | 6e 8e 5h 7e",    /* HHH */
};

static const SlotTable tables[] = {
    { 4, 16, rows_d4_k16, "theorem3-patterns-d4-k16.txt" },
};

const SlotTable *slot_table_find(int delta, uint64_t k)
{
    for (size_t i = 0; i < G_N_ELEMENTS(tables); i++)
        if (tables[i].delta == delta && tables[i].k == k)
            return &tables[i];
    return NULL;
}

const SlotTable *slot_tables(size_t *count)
{
    *count = G_N_ELEMENTS(tables);
    return tables;
}
