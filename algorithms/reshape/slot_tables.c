/* slot_tables.c -- slot patterns for two-path reshaping (slot_tables.h).
 *
 * Each table is a solution of the integer program tests/thm3-patterns.py
 * writes (algorithms/reshape/README.md, "Slot patterns"): every row uses its group's
 * eight channels at most once per cycle, and one arrival profile per step
 * and element index bounds every row and is waited for by the next step of
 * every row. So a table is a schedule at Theorem 3's K/2 + 1 cycles on
 * every shape with its delta and K = 4 delta whose groups' types all have
 * rows (the delta = 4 table has every row). check_reshape compares each
 * with its file under tests/data/reshape/, which the Python tools read. */
#include "slot_tables.h"

#include <glib.h>

/* delta 4, K 16: tests/thm3-patterns.py lp 4 16, solved by CBC: every row. */
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

/* delta 8, K 32: tests/thm3-patterns.py rows 8 32 PROFILE, each row alone
 * under one fixed arrival profile (CBC, all 128 rows). The program for
 * all types at once (profile free) did not solve, and under this profile,
 * the best a search found, 24 types have no row (NULL): a shape whose
 * groups need one of them in both set orders tries the second table below,
 * and runs the timetable's windows where that fails too. */
static const char *const rows_d8_k32[] = {
    /* SSSSSSS */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 7h 6h 5e | 4e 10h 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 9h | 14h 16e 13h 12h",
    /* SSSSSSH */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 7h 6h 5e | 4e 10h 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 9h | 15e 16e 13e 14e",
    /* SSSSSHS */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 7h 6h 5e | 4e 10h 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 10e | 14h 16e 14e 13e",
    /* SSSSSHH */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 7h 6h 5e | 4e 12e 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11e 15e 12e 10e | 15e 16e 13h 12h",
    /* SSSSHSS */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 8e 6h 5e | 4e 11e 9e 6e | "
    "5h 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 10e | 14h 16e 13e 13h",
    /* SSSSHSH */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 8e 6h 5e | 4e 11e 9e 6e | "
    "5h 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 10e | 14e 16e 15e 12h",
    /* SSSSHHS */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 8e 6h 5e | 4e 11e 9e 6e | "
    "5h 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 14h 16e 14e 12h",
    NULL,                                           /* SSSSHHH */
    /* SSSHSSS */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 7e 8e 5e | 4e 11e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 14h 16e 13h 12h",
    /* SSSHSSH */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 8e 7e 5e | 4e 11e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 15e 16e 14e 13e",
    /* SSSHSHS */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 11e | 14h 16e 13e 14e",
    /* SSSHSHH */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 7e 8e 5e | 4e 11e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 13e 15e 12e 10e | 15e 16e 13h 12e",
    /* SSSHHSS */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 7h 7e 5e | 4e 10h 9e 6e | "
    "6e 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 10e | 14h 16e 13e 13h",
    /* SSSHHSH */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 7h 7e 5e | 4e 10h 9e 6e | "
    "6e 13e 10e 7e | 8h 14e 11e 8e | 13e 15e 12e 10e | 15e 16e 14e 12e",
    /* SSSHHHS */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 7h 7e 5e | 4e 12e 9e 6e | "
    "6e 13e 10e 7e | 10e 14e 11e 8e | 11e 15e 12e 9e | 14e 16e 14h 12h",
    /* SSSHHHH */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 7h 7e 5e | 4e 12e 9e 6e | "
    "6e 13e 10e 7e | 10e 14e 11e 8e | 11e 15e 12e 9e | 15e 16e 13h 13e",
    /* SSHSSSS */
    "1e 1h 0h 0e | 2e 6e 4e 2h | 3e 7e 8e 5e | 4e 10h 9e 6e | "
    "5e 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 9h | 14h 16e 13h 12h",
    /* SSHSSSH */
    "1e 1h 0h 0e | 2e 6e 4e 2h | 3e 7e 8e 5e | 4e 10h 9e 6e | "
    "5e 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 9h | 15e 16e 13e 14e",
    /* SSHSSHS */
    "1e 1h 0h 0e | 2e 4h 4e 2h | 3e 7e 8e 5e | 4e 12e 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11e 15e 12e 10e | 14e 16e 14h 13e",
    /* SSHSSHH */
    "1e 1h 0h 0e | 2e 6e 4e 2h | 3e 7e 8e 5e | 4e 12e 9e 6e | "
    "5e 13e 10e 7e | 8h 14e 11e 8e | 11e 15e 12e 10e | 15e 16e 13h 12h",
    /* SSHSHSS */
    "1e 1h 0h 0e | 2e 6e 4e 2h | 3e 7h 7e 5e | 4e 11e 9e 6e | "
    "5e 13e 10e 7e | 10e 14e 11e 8e | 11h 15e 12e 9e | 14h 16e 13e 13h",
    /* SSHSHSH */
    "1e 1h 0h 0e | 2e 6e 4e 2h | 3e 7h 7e 5e | 4e 11e 9e 6e | "
    "5e 13e 10e 7e | 10e 14e 11e 8e | 11h 15e 12e 9e | 15e 16e 14e 12h",
    NULL,                                           /* SSHSHHS */
    NULL,                                           /* SSHSHHH */
    /* SSHHSSS */
    "1e 1h 0h 0e | 2e 4h 4e 2h | 3e 7h 6h 5e | 4e 11e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 14h 16e 13h 12h",
    /* SSHHSSH */
    "1e 1h 0h 0e | 2e 4h 4e 2h | 3e 7h 6h 5e | 4e 11e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 15e 16e 14e 13e",
    /* SSHHSHS */
    "1e 1h 0h 0e | 2e 4h 4e 2h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 11e | 14e 16e 14h 13e",
    /* SSHHSHH */
    "1e 1h 0h 0e | 2e 4h 4e 2h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 13e 15e 12e 11e | 15e 16e 13h 12e",
    NULL,                                           /* SSHHHSS */
    NULL,                                           /* SSHHHSH */
    /* SSHHHHS */
    "1e 1h 0h 0e | 2e 4h 4e 2h | 3e 8e 6h 5e | 4e 12e 9e 6e | "
    "6e 13e 10e 7e | 10e 14e 11e 8e | 11e 15e 12e 9e | 14h 16e 14e 12h",
    /* SSHHHHH */
    "1e 1h 0h 0e | 2e 4h 4e 2h | 3e 8e 6h 5e | 4e 12e 9e 6e | "
    "6e 13e 10e 7e | 10e 14e 11e 8e | 11e 15e 12e 9e | 15e 16e 13h 13e",
    /* SHSSSSS */
    "1e 3e 0h 0e | 2e 5e 4e 1h | 3e 7h 6h 5e | 4e 10h 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 9h | 14h 16e 13h 12h",
    /* SHSSSSH */
    "1e 3e 0h 0e | 2e 5e 4e 1h | 3e 7h 6h 5e | 4e 10h 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 9h | 15e 16e 14e 13e",
    /* SHSSSHS */
    "1e 1h 0h 0e | 2e 5e 4e 3e | 3e 7h 6h 5e | 4e 12e 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11e 15e 12e 10e | 14h 16e 14e 13e",
    /* SHSSSHH */
    "1e 3e 0h 0e | 2e 5e 4e 1h | 3e 7h 6h 5e | 4e 12e 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11e 15e 12e 10e | 15e 16e 13h 12h",
    /* SHSSHSS */
    "1e 3e 0h 0e | 2e 4e 5e 1h | 3e 8e 6h 5e | 4e 11e 9e 6e | "
    "5h 13e 10e 7e | 10e 14e 11e 8e | 11h 15e 12e 9e | 14h 16e 13e 13h",
    /* SHSSHSH */
    "1e 3e 0h 0e | 2e 5e 4e 1h | 3e 8e 6h 5e | 4e 11e 9e 6e | "
    "5h 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 10e | 14e 16e 15e 12h",
    /* SHSSHHS */
    "1e 3e 0h 0e | 2e 5e 4e 1h | 3e 8e 6h 5e | 4e 11e 9e 6e | "
    "5h 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 14e 16e 14h 12h",
    NULL,                                           /* SHSSHHH */
    /* SHSHSSS */
    "1e 1h 0h 0e | 2e 6e 3e 4e | 3e 8e 7e 5e | 4e 11e 9e 6e | "
    "5e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 14h 16e 13h 12h",
    /* SHSHSSH */
    "1e 3e 0h 0e | 2e 5e 4e 1h | 3e 7e 8e 5e | 4e 11e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 15e 16e 14e 13e",
    /* SHSHSHS */
    "1e 1h 0h 0e | 2e 6e 4e 3e | 3e 7e 8e 5e | 4e 11e 9e 6e | "
    "5e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 10e | 14h 16e 13e 14e",
    /* SHSHSHH */
    "1e 1h 0h 0e | 2e 6e 3e 4e | 3e 8e 7e 5e | 4e 10e 9e 6e | "
    "5e 13e 10e 7e | 9e 14e 11e 8e | 13e 15e 12e 11e | 15e 16e 13h 12e",
    /* SHSHHSS */
    "1e 1h 0h 0e | 2e 6e 4e 3e | 3e 7h 7e 5e | 4e 10h 9e 6e | "
    "5e 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 10e | 14h 16e 13h 13e",
    /* SHSHHSH */
    "1e 3e 0h 0e | 2e 4e 5e 1h | 3e 7h 7e 5e | 4e 10h 9e 6e | "
    "6e 13e 10e 7e | 8h 14e 11e 8e | 13e 15e 12e 10e | 14e 16e 15e 12e",
    /* SHSHHHS */
    "1e 3e 0h 0e | 2e 4e 5e 1h | 3e 7h 7e 5e | 4e 12e 9e 6e | "
    "6e 13e 10e 7e | 10e 14e 11e 8e | 11e 15e 12e 9e | 14e 16e 14h 12h",
    /* SHSHHHH */
    "1e 1h 0h 0e | 2e 6e 4e 3e | 3e 7h 7e 5e | 4e 12e 9e 6e | "
    "5e 13e 10e 7e | 10e 14e 11e 8e | 11e 15e 12e 9e | 15e 16e 13e 13h",
    /* SHHSSSS */
    "1e 3e 0h 0e | 2e 5e 3h 1h | 3e 7e 8e 5e | 4e 10h 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 9h | 14h 16e 13h 12h",
    /* SHHSSSH */
    "1e 3e 0h 0e | 2e 5e 3h 1h | 3e 7e 8e 5e | 4e 10h 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 9h | 15e 16e 14e 13e",
    /* SHHSSHS */
    "1e 3e 0h 0e | 2e 5e 3h 1h | 3e 8e 7e 5e | 4e 12e 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11e 15e 12e 10e | 14e 16e 14h 13e",
    /* SHHSSHH */
    "1e 3e 0h 0e | 2e 5e 3h 1h | 3e 7e 8e 5e | 4e 12e 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11e 15e 12e 10e | 15e 16e 13h 12h",
    NULL,                                           /* SHHSHSS */
    NULL,                                           /* SHHSHSH */
    NULL,                                           /* SHHSHHS */
    NULL,                                           /* SHHSHHH */
    /* SHHHSSS */
    "1e 3e 0h 0e | 2e 5e 3h 1h | 3e 7h 6h 5e | 4e 11e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 14h 16e 13h 12h",
    /* SHHHSSH */
    "1e 3e 0h 0e | 2e 5e 3h 1h | 3e 7h 6h 5e | 4e 11e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 15e 16e 14e 13e",
    /* SHHHSHS */
    "1e 3e 0h 0e | 2e 5e 3h 1h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 11e | 14h 16e 14e 13e",
    /* SHHHSHH */
    "1e 3e 0h 0e | 2e 5e 3h 1h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 13e 15e 12e 11e | 15e 16e 13h 12e",
    NULL,                                           /* SHHHHSS */
    NULL,                                           /* SHHHHSH */
    /* SHHHHHS */
    "1e 3e 0h 0e | 2e 5e 3h 1h | 3e 8e 6h 5e | 4e 12e 9e 6e | "
    "6e 13e 10e 7e | 10e 14e 11e 8e | 11e 15e 12e 9e | 14h 16e 14e 12h",
    /* SHHHHHH */
    "1e 3e 0h 0e | 2e 5e 3h 1h | 3e 8e 6h 5e | 4e 12e 9e 6e | "
    "6e 13e 10e 7e | 10e 14e 11e 8e | 11e 15e 12e 9e | 15e 16e 13e 13h",
    /* HSSSSSS */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7h 6h 5e | 4e 10h 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 9h | 14h 16e 13h 12h",
    /* HSSSSSH */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7h 6h 5e | 4e 10h 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 9h | 15e 16e 14e 13e",
    /* HSSSSHS */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7h 6h 5e | 4e 12e 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11e 15e 12e 10e | 14e 16e 13e 14h",
    /* HSSSSHH */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7h 6h 5e | 4e 12e 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11e 15e 12e 10e | 15e 16e 13h 12h",
    /* HSSSHSS */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 8e 6h 5e | 4e 11e 9e 6e | "
    "5h 13e 10e 7e | 10e 14e 11e 8e | 11h 15e 12e 9e | 14h 16e 13h 13e",
    /* HSSSHSH */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 8e 6h 5e | 4e 11e 9e 6e | "
    "5h 13e 10e 7e | 10e 14e 11e 8e | 11h 15e 12e 9e | 15e 16e 14e 12h",
    /* HSSSHHS */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 8e 6h 5e | 4e 11e 9e 6e | "
    "5h 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 14e 16e 14h 12h",
    NULL,                                           /* HSSSHHH */
    /* HSSHSSS */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7e 8e 5e | 4e 11e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 14h 16e 13h 12h",
    /* HSSHSSH */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7e 8e 5e | 4e 11e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 15e 16e 13e 14e",
    /* HSSHSHS */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 11e | 14h 16e 14e 13e",
    /* HSSHSHH */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 13e 15e 12e 11e | 15e 16e 13h 12e",
    /* HSSHHSS */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7h 7e 5e | 4e 10h 9e 6e | "
    "6e 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 10e | 14h 16e 13e 13h",
    /* HSSHHSH */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7h 7e 5e | 4e 10h 9e 6e | "
    "6e 13e 10e 7e | 8h 14e 11e 8e | 13e 15e 12e 10e | 14e 16e 15e 12e",
    /* HSSHHHS */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7h 7e 5e | 4e 12e 9e 6e | "
    "6e 13e 10e 7e | 10e 14e 11e 8e | 11e 15e 12e 9e | 14e 16e 14h 12h",
    /* HSSHHHH */
    "1e 3e 0h 0e | 2e 4h 3h 1h | 3e 7h 7e 5e | 4e 12e 9e 6e | "
    "6e 13e 10e 7e | 10e 14e 11e 8e | 11e 15e 12e 9e | 15e 16e 13h 13e",
    /* HSHSSSS */
    "1e 3e 2e 0e | 2e 4h 4e 1e | 3e 7e 8e 5e | 4e 10h 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 9h | 14h 16e 13h 12h",
    /* HSHSSSH */
    "1e 3e 2e 0e | 2e 4h 4e 1e | 3e 7e 8e 5e | 4e 10h 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 9h | 14e 16e 15e 13e",
    /* HSHSSHS */
    "1e 3e 2e 0e | 2e 4h 4e 1e | 3e 7e 8e 5e | 4e 12e 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11e 15e 12e 10e | 14h 16e 14e 13e",
    /* HSHSSHH */
    "1e 3e 2e 0e | 2e 4h 4e 1e | 3e 7e 8e 5e | 4e 10h 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 13e 15e 12e 10e | 15e 16e 13h 12e",
    /* HSHSHSS */
    "1e 3e 2e 0e | 2e 6e 4e 1e | 3e 7h 7e 5e | 4e 11e 9e 6e | "
    "5e 13e 10e 7e | 10e 14e 11e 8e | 11h 15e 12e 9e | 14h 16e 13e 13h",
    /* HSHSHSH */
    "1e 3e 2e 0e | 2e 6e 4e 1e | 3e 7h 7e 5e | 4e 11e 9e 6e | "
    "5e 13e 10e 7e | 10e 14e 11e 8e | 11h 15e 12e 9e | 14e 16e 15e 12h",
    NULL,                                           /* HSHSHHS */
    NULL,                                           /* HSHSHHH */
    /* HSHHSSS */
    "1e 3e 2e 0e | 2e 4h 4e 1e | 3e 7h 6h 5e | 4e 11e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 14h 16e 13h 12h",
    /* HSHHSSH */
    "1e 3e 2e 0e | 2e 4h 4e 1e | 3e 7h 6h 5e | 4e 11e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 14e 16e 15e 13e",
    /* HSHHSHS */
    "1e 3e 2e 0e | 2e 4h 4e 1e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 11e | 14e 16e 13e 14h",
    /* HSHHSHH */
    "1e 3e 0h 0e | 2e 4h 4e 1h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 13e 15e 12e 11e | 15e 16e 13h 12e",
    NULL,                                           /* HSHHHSS */
    NULL,                                           /* HSHHHSH */
    /* HSHHHHS */
    "1e 3e 2e 0e | 2e 4h 4e 1e | 3e 8e 6h 5e | 4e 12e 9e 6e | "
    "6e 13e 10e 7e | 10e 14e 11e 8e | 11e 15e 12e 9e | 14e 16e 14h 12h",
    /* HSHHHHH */
    "1e 3e 2e 0e | 2e 4h 4e 1e | 3e 8e 6h 5e | 4e 12e 9e 6e | "
    "6e 13e 10e 7e | 10e 14e 11e 8e | 11e 15e 12e 9e | 15e 16e 13e 13h",
    /* HHSSSSS */
    "1e 2e 0h 0e | 2e 5e 3e 4e | 3e 7h 6h 5e | 4e 10h 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 9h | 14h 16e 13h 12h",
    /* HHSSSSH */
    "1e 2e 0h 0e | 2e 5e 3e 4e | 3e 7h 6h 5e | 4e 10h 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 9h | 15e 16e 14e 13e",
    /* HHSSSHS */
    "1e 2e 0h 0e | 2e 5e 3e 4e | 3e 7h 6h 5e | 4e 12e 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11e 15e 12e 10e | 14h 16e 14e 13e",
    /* HHSSSHH */
    "1e 2e 0h 0e | 2e 5e 3e 4e | 3e 7h 6h 5e | 4e 12e 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11e 15e 12e 10e | 15e 16e 13h 12h",
    /* HHSSHSS */
    "1e 2e 0h 0e | 2e 4e 5e 3e | 3e 8e 6h 5e | 4e 11e 9e 6e | "
    "5h 13e 10e 7e | 10e 14e 11e 8e | 11h 15e 12e 9e | 14h 16e 13h 13e",
    /* HHSSHSH */
    "1e 2e 0h 0e | 2e 5e 4e 3e | 3e 8e 6h 5e | 4e 11e 9e 6e | "
    "5h 13e 10e 7e | 9e 14e 11e 8e | 13e 15e 12e 10e | 14e 16e 15e 12e",
    /* HHSSHHS */
    "1e 2e 0h 0e | 2e 5e 3e 4e | 3e 8e 6h 5e | 4e 11e 9e 6e | "
    "5h 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 14e 16e 14h 12h",
    NULL,                                           /* HHSSHHH */
    /* HHSHSSS */
    "1e 2e 0h 0e | 2e 6e 4e 3e | 3e 8e 7e 5e | 4e 11e 9e 6e | "
    "5e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 14h 16e 13h 12h",
    /* HHSHSSH */
    "1e 2e 0h 0e | 2e 5e 3e 4e | 3e 7e 8e 5e | 4e 11e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 15e 16e 14e 13e",
    /* HHSHSHS */
    "1e 0h 2e 0e | 2e 6e 4e 3e | 3e 7e 8e 5e | 4e 11e 9e 6e | "
    "5e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 10e | 14h 16e 13e 14e",
    /* HHSHSHH */
    "1e 2e 0h 0e | 2e 6e 3e 4e | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "5e 13e 10e 7e | 9e 14e 11e 8e | 13e 15e 12e 11e | 15e 16e 13h 12e",
    /* HHSHHSS */
    "1e 2e 0h 0e | 2e 4e 5e 3e | 3e 7h 7e 5e | 4e 10h 9e 6e | "
    "6e 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 10e | 14h 16e 13e 13h",
    /* HHSHHSH */
    "1e 2e 0h 0e | 2e 6e 3e 4e | 3e 7h 7e 5e | 4e 10h 9e 6e | "
    "5e 13e 10e 7e | 8h 14e 11e 8e | 13e 15e 12e 10e | 14e 16e 15e 12e",
    /* HHSHHHS */
    "1e 2e 0h 0e | 2e 4e 5e 3e | 3e 7h 7e 5e | 4e 10e 9e 6e | "
    "6e 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 11e | 14e 16e 14h 12h",
    /* HHSHHHH */
    "1e 2e 0h 0e | 2e 6e 3e 4e | 3e 7h 7e 5e | 4e 12e 9e 6e | "
    "5e 13e 10e 7e | 10e 14e 11e 8e | 11e 15e 12e 9e | 15e 16e 13h 13e",
    /* HHHSSSS */
    "1e 2e 0h 0e | 2e 5e 3h 3e | 3e 7e 8e 5e | 4e 10h 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 9h | 14h 16e 13h 12h",
    /* HHHSSSH */
    "1e 2e 0h 0e | 2e 5e 3h 3e | 3e 7e 8e 5e | 4e 10h 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11h 15e 12e 9h | 15e 16e 13e 14e",
    /* HHHSSHS */
    "1e 2e 0h 0e | 2e 5e 3h 3e | 3e 7e 8e 5e | 4e 12e 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 11e 15e 12e 10e | 14e 16e 14h 13e",
    /* HHHSSHH */
    "1e 2e 0h 0e | 2e 5e 3h 3e | 3e 7e 8e 5e | 4e 10h 9e 6e | "
    "5h 13e 10e 7e | 8h 14e 11e 8e | 13e 15e 12e 10e | 15e 16e 13h 12e",
    NULL,                                           /* HHHSHSS */
    NULL,                                           /* HHHSHSH */
    NULL,                                           /* HHHSHHS */
    NULL,                                           /* HHHSHHH */
    /* HHHHSSS */
    "1e 2e 0h 0e | 2e 5e 3h 3e | 3e 7h 6h 5e | 4e 11e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 14h 16e 13h 12h",
    /* HHHHSSH */
    "1e 2e 0h 0e | 2e 5e 3h 3e | 3e 7h 6h 5e | 4e 11e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 9h | 15e 16e 14e 13e",
    /* HHHHSHS */
    "1e 2e 0h 0e | 2e 5e 3h 3e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 11h 15e 12e 11e | 14e 16e 14h 13e",
    /* HHHHSHH */
    "1e 2e 0h 0e | 2e 5e 3h 3e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 13e 10e 7e | 9e 14e 11e 8e | 13e 15e 12e 11e | 15e 16e 13h 12e",
    NULL,                                           /* HHHHHSS */
    NULL,                                           /* HHHHHSH */
    /* HHHHHHS */
    "1e 2e 0h 0e | 2e 5e 3h 3e | 3e 8e 6h 5e | 4e 12e 9e 6e | "
    "6e 13e 10e 7e | 10e 14e 11e 8e | 11e 15e 12e 9e | 14h 16e 14e 12h",
    /* HHHHHHH */
    "1e 2e 0h 0e | 2e 5e 3h 3e | 3e 8e 6h 5e | 4e 12e 9e 6e | "
    "6e 13e 10e 7e | 10e 14e 11e 8e | 11e 15e 12e 9e | 15e 16e 13e 13h",
};

/* delta 8, K 32, the second table (theorem3-patterns-d8-k32-b.txt): its
 * profile solved with the eight types SSSS??? (which the first table lacks
 * SSSSHHH of), then each type alone under it; 92 rows. prepare tries it
 * after the first table, in both set orders. */
static const char *const rows_d8_k32_b[] = {
    /* SSSSSSS */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 11h 13h 14e 9h | 14h 16e 15e 12h",
    /* SSSSSSH */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 11h 15e 14e 9h | 14e 16e 15e 13e",
    /* SSSSSHS */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 12e 13h 14e 10e | 14h 16e 15e 13e",
    /* SSSSSHH */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 12e 15e 14e 10e | 14e 16e 15e 12h",
    /* SSSSHSS */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 8e 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 12e 7e | 9e 12e 13e 8e | 11e 13h 14e 10e | 14h 16e 15e 12h",
    /* SSSSHSH */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 8e 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 12e 7e | 10e 12e 13e 8e | 11e 13h 14e 9e | 14h 16e 15e 13e",
    /* SSSSHHS */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 8e 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 9e 12e 13e 8e | 13e 13h 14e 9h | 14h 16e 15e 12e",
    /* SSSSHHH */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 8e 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 9e 12e 13e 8e | 12e 13e 14e 9h | 14e 16e 15e 14h",
    /* SSSHSSS */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 8e 7e 5e | 4e 10e 9e 6e | "
    "6e 11e 10h 7e | 10e 12e 13e 8e | 11h 13h 14e 9e | 14h 16e 15e 12h",
    /* SSSHSSH */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 8e 7e 5e | 4e 10e 9e 6e | "
    "6e 11e 10h 7e | 10e 12e 13e 8e | 11h 13h 14e 9e | 14h 16e 15e 13e",
    /* SSSHSHS */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 8e 7e 5e | 4e 10e 9e 6e | "
    "6e 11e 10h 7e | 9e 12e 13e 8e | 12e 13e 14e 9h | 14h 16e 15e 13h",
    /* SSSHSHH */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "6e 11e 10h 7e | 9e 12e 13e 8e | 12e 13e 14e 9h | 14e 16e 15e 14h",
    /* SSSHHSS */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 7h 7e 5e | 4e 10e 9e 6e | "
    "6e 11e 10e 7e | 8h 12e 13e 8e | 11h 13h 14e 11e | 14h 16e 15e 12h",
    /* SSSHHSH */
    "1e 1h 0h 0e | 2e 4h 3h 2h | 3e 7h 7e 5e | 4e 10e 9e 6e | "
    "6e 11e 12e 7e | 8h 12e 13e 8e | 11e 13h 14e 9h | 14h 16e 15e 13e",
    NULL,                                           /* SSSHHHS */
    NULL,                                           /* SSSHHHH */
    /* SSHSSSS */
    "1e 1h 0h 0e | 2e 6e 4e 2h | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "5e 11e 10h 7e | 8h 12e 13e 8e | 11h 13h 14e 9h | 14h 16e 15e 12h",
    /* SSHSSSH */
    "1e 1h 0h 0e | 2e 4h 4e 2h | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 11h 13h 14e 9h | 14h 16e 15e 13e",
    /* SSHSSHS */
    "1e 1h 0h 0e | 2e 4h 4e 2h | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 12e 13h 14e 10e | 14h 16e 15e 13e",
    /* SSHSSHH */
    "1e 1h 0h 0e | 2e 6e 4e 2h | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "5e 11e 10h 7e | 8h 12e 13e 8e | 12e 15e 14e 10e | 14e 16e 15e 12h",
    /* SSHSHSS */
    "1e 1h 0h 0e | 2e 6e 4e 2h | 3e 7h 7e 5e | 4e 10e 9e 6e | "
    "5e 11e 12e 7e | 10e 12e 13e 8e | 11e 13h 14e 9e | 14h 16e 15e 12h",
    /* SSHSHSH */
    "1e 1h 0h 0e | 2e 6e 4e 2h | 3e 7h 7e 5e | 4e 10e 9e 6e | "
    "5e 11e 12e 7e | 9e 12e 13e 8e | 11e 13h 14e 10e | 14h 16e 15e 13e",
    NULL,                                           /* SSHSHHS */
    NULL,                                           /* SSHSHHH */
    /* SSHHSSS */
    "1e 1h 0h 0e | 2e 4h 4e 2h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 11e 10h 7e | 9e 12e 13e 8e | 11h 13h 14e 10e | 14h 16e 15e 12h",
    /* SSHHSSH */
    "1e 1h 0h 0e | 2e 4h 4e 2h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 11e 10h 7e | 9e 12e 13e 8e | 11h 13h 14e 10e | 14h 16e 15e 13e",
    /* SSHHSHS */
    "1e 1h 0h 0e | 2e 4h 4e 2h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 11e 10e 7e | 9e 12e 13e 8e | 12e 13e 14e 11e | 14h 16e 15e 13h",
    /* SSHHSHH */
    "1e 1h 0h 0e | 2e 4h 4e 2h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 11e 10e 7e | 9e 12e 13e 8e | 12e 13e 14e 11e | 14e 16e 15e 14h",
    NULL,                                           /* SSHHHSS */
    NULL,                                           /* SSHHHSH */
    NULL,                                           /* SSHHHHS */
    NULL,                                           /* SSHHHHH */
    /* SHSSSSS */
    "1e 1h 0h 0e | 2e 5e 4e 3e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 11h 13h 14e 9h | 14h 16e 15e 12h",
    /* SHSSSSH */
    "1e 3e 0h 0e | 2e 5e 4e 1h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 11h 15e 14e 9h | 14e 16e 15e 13e",
    /* SHSSSHS */
    "1e 1h 0h 0e | 2e 5e 4e 3e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 13e 13h 14e 10e | 14h 16e 15e 12e",
    /* SHSSSHH */
    "1e 1h 0h 0e | 2e 4e 5e 3e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 12e 13e 14e 10e | 14h 16e 15e 14e",
    /* SHSSHSS */
    "1e 3e 0h 0e | 2e 5e 4e 1h | 3e 8e 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 12e 7e | 9e 12e 13e 8e | 11e 13h 14e 10e | 14h 16e 15e 12h",
    /* SHSSHSH */
    "1e 1h 0h 0e | 2e 5e 4e 3e | 3e 8e 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 10e 12e 13e 8e | 11h 13h 14e 9e | 14h 16e 15e 13e",
    /* SHSSHHS */
    "1e 1h 0h 0e | 2e 4e 5e 3e | 3e 8e 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 9e 12e 13e 8e | 12e 13e 14e 9h | 14h 16e 15e 13h",
    /* SHSSHHH */
    "1e 1h 0h 0e | 2e 5e 3e 4e | 3e 8e 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 9e 12e 13e 8e | 12e 13e 14e 9h | 14e 16e 15e 14h",
    /* SHSHSSS */
    "1e 3e 0h 0e | 2e 4e 5e 1h | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "6e 11e 10h 7e | 9e 12e 13e 8e | 11h 13h 14e 10e | 14h 16e 15e 12h",
    /* SHSHSSH */
    "1e 1h 0h 0e | 2e 6e 3e 4e | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "5e 11e 10h 7e | 9e 12e 13e 8e | 11h 15e 14e 10e | 14e 16e 15e 13e",
    /* SHSHSHS */
    "1e 1h 0h 0e | 2e 6e 4e 3e | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "5e 11e 10h 7e | 9e 12e 13e 8e | 13e 13h 14e 9h | 14h 16e 15e 12e",
    /* SHSHSHH */
    "1e 1h 0h 0e | 2e 6e 3e 4e | 3e 8e 7e 5e | 4e 10e 9e 6e | "
    "5e 11e 10h 7e | 9e 12e 13e 8e | 12e 13e 14e 9h | 14e 16e 15e 14h",
    /* SHSHHSS */
    "1e 3e 0h 0e | 2e 4e 5e 1h | 3e 7h 7e 5e | 4e 10e 9e 6e | "
    "6e 11e 12e 7e | 8h 12e 13e 8e | 11e 13h 14e 9h | 14h 16e 15e 12h",
    /* SHSHHSH */
    "1e 1h 0h 0e | 2e 5e 4e 3e | 3e 7h 7e 5e | 4e 10e 9e 6e | "
    "6e 11e 10e 7e | 8h 12e 13e 8e | 11h 13h 14e 11e | 14h 16e 15e 13e",
    NULL,                                           /* SHSHHHS */
    NULL,                                           /* SHSHHHH */
    /* SHHSSSS */
    "1e 3e 0h 0e | 2e 5e 3h 1h | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 11h 13h 14e 9h | 14h 16e 15e 12h",
    /* SHHSSSH */
    "1e 3e 0h 0e | 2e 5e 3h 1h | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 11h 13h 14e 9h | 14h 16e 15e 13e",
    /* SHHSSHS */
    "1e 3e 0h 0e | 2e 5e 3h 1h | 3e 8e 7e 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 12e 13e 14e 10e | 14h 16e 15e 13h",
    /* SHHSSHH */
    "1e 3e 0h 0e | 2e 5e 3h 1h | 3e 8e 7e 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 12e 13e 14e 10e | 14h 16e 15e 14e",
    NULL,                                           /* SHHSHSS */
    NULL,                                           /* SHHSHSH */
    NULL,                                           /* SHHSHHS */
    NULL,                                           /* SHHSHHH */
    /* SHHHSSS */
    "1e 3e 0h 0e | 2e 5e 3h 1h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 11e 10h 7e | 10e 12e 13e 8e | 11h 13h 14e 9e | 14h 16e 15e 12h",
    /* SHHHSSH */
    "1e 3e 0h 0e | 2e 5e 3h 1h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 11e 10h 7e | 10e 12e 13e 8e | 11h 13h 14e 9e | 14h 16e 15e 13e",
    /* SHHHSHS */
    "1e 3e 0h 0e | 2e 5e 3h 1h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 11e 10e 7e | 9e 12e 13e 8e | 12e 13e 14e 11e | 14h 16e 15e 13h",
    /* SHHHSHH */
    "1e 3e 0h 0e | 2e 5e 3h 1h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 11e 10e 7e | 9e 12e 13e 8e | 12e 15e 14e 11e | 14e 16e 15e 12h",
    NULL,                                           /* SHHHHSS */
    NULL,                                           /* SHHHHSH */
    NULL,                                           /* SHHHHHS */
    NULL,                                           /* SHHHHHH */
    /* HSSSSSS */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 11h 13h 14e 9h | 14h 16e 15e 12h",
    /* HSSSSSH */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 11h 13h 14e 9h | 14h 16e 15e 13e",
    /* HSSSSHS */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 12e 13e 14e 10e | 14h 16e 15e 13h",
    /* HSSSSHH */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 12e 13e 14e 10e | 14h 16e 15e 14e",
    /* HSSSHSS */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 8e 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 12e 7e | 10e 12e 13e 8e | 11e 13h 14e 9e | 14h 16e 15e 12h",
    /* HSSSHSH */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 8e 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 10e 12e 13e 8e | 11h 13h 14e 9e | 14h 16e 15e 13e",
    /* HSSSHHS */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 8e 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 9e 12e 13e 8e | 13e 13h 14e 9h | 14h 16e 15e 12e",
    /* HSSSHHH */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 8e 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 9e 12e 13e 8e | 12e 13e 14e 9h | 14e 16e 15e 14h",
    /* HSSHSSS */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 8e 7e 5e | 4e 10e 9e 6e | "
    "6e 11e 10h 7e | 10e 12e 13e 8e | 11h 13h 14e 9e | 14h 16e 15e 12h",
    /* HSSHSSH */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "6e 11e 10h 7e | 10e 12e 13e 8e | 11h 13h 14e 9e | 14h 16e 15e 13e",
    /* HSSHSHS */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 8e 7e 5e | 4e 10e 9e 6e | "
    "6e 11e 10h 7e | 9e 12e 13e 8e | 12e 13h 14e 9h | 14h 16e 15e 13e",
    /* HSSHSHH */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "6e 11e 10h 7e | 9e 12e 13e 8e | 12e 13e 14e 9h | 14e 16e 15e 14h",
    /* HSSHHSS */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7h 7e 5e | 4e 10e 9e 6e | "
    "6e 11e 12e 7e | 8h 12e 13e 8e | 11e 13h 14e 9h | 14h 16e 15e 12h",
    /* HSSHHSH */
    "1e 3e 2e 0e | 2e 4h 3h 1e | 3e 7h 7e 5e | 4e 10e 9e 6e | "
    "6e 11e 12e 7e | 8h 12e 13e 8e | 11e 15e 14e 9h | 14e 16e 15e 13e",
    NULL,                                           /* HSSHHHS */
    NULL,                                           /* HSSHHHH */
    /* HSHSSSS */
    "1e 3e 2e 0e | 2e 4h 4e 1e | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 11h 13h 14e 9h | 14h 16e 15e 12h",
    /* HSHSSSH */
    "1e 3e 2e 0e | 2e 4h 4e 1e | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 11h 15e 14e 9h | 14e 16e 15e 13e",
    /* HSHSSHS */
    "1e 3e 2e 0e | 2e 4h 4e 1e | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 12e 13e 14e 10e | 14h 16e 15e 13h",
    /* HSHSSHH */
    "1e 3e 2e 0e | 2e 4h 4e 1e | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 12e 13e 14e 10e | 14h 16e 15e 14e",
    /* HSHSHSS */
    "1e 3e 2e 0e | 2e 6e 4e 1e | 3e 7h 7e 5e | 4e 10e 9e 6e | "
    "5e 11e 12e 7e | 10e 12e 13e 8e | 11e 13h 14e 9e | 14h 16e 15e 12h",
    /* HSHSHSH */
    "1e 3e 2e 0e | 2e 6e 4e 1e | 3e 7h 7e 5e | 4e 10e 9e 6e | "
    "5e 11e 10h 7e | 9e 12e 13e 8e | 11h 13h 14e 10e | 14h 16e 15e 13e",
    NULL,                                           /* HSHSHHS */
    NULL,                                           /* HSHSHHH */
    /* HSHHSSS */
    "1e 3e 2e 0e | 2e 4h 4e 1e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 11e 10h 7e | 10e 12e 13e 8e | 11h 13h 14e 9e | 14h 16e 15e 12h",
    /* HSHHSSH */
    "1e 3e 2e 0e | 2e 4h 4e 1e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 11e 10h 7e | 9e 12e 13e 8e | 11h 13h 14e 10e | 14h 16e 15e 13e",
    /* HSHHSHS */
    "1e 3e 0h 0e | 2e 4h 4e 1h | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 11e 10e 7e | 9e 12e 13e 8e | 12e 13h 14e 11e | 14h 16e 15e 13e",
    /* HSHHSHH */
    "1e 3e 2e 0e | 2e 4h 4e 1e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 11e 10e 7e | 9e 12e 13e 8e | 12e 13e 14e 11e | 14h 16e 15e 14e",
    NULL,                                           /* HSHHHSS */
    NULL,                                           /* HSHHHSH */
    NULL,                                           /* HSHHHHS */
    NULL,                                           /* HSHHHHH */
    /* HHSSSSS */
    "1e 2e 0h 0e | 2e 4e 5e 3e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 11h 13h 14e 9h | 14h 16e 15e 12h",
    /* HHSSSSH */
    "1e 2e 0h 0e | 2e 5e 4e 3e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 11h 13h 14e 9h | 14h 16e 15e 13e",
    /* HHSSSHS */
    "1e 2e 0h 0e | 2e 4e 5e 3e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 12e 13h 14e 10e | 14h 16e 15e 13e",
    /* HHSSSHH */
    "1e 2e 0h 0e | 2e 5e 3e 4e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 12e 13e 14e 10e | 14e 16e 15e 14h",
    /* HHSSHSS */
    "1e 2e 0h 0e | 2e 4e 5e 3e | 3e 8e 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 12e 7e | 9e 12e 13e 8e | 11e 13h 14e 10e | 14h 16e 15e 12h",
    /* HHSSHSH */
    "1e 2e 0h 0e | 2e 5e 4e 3e | 3e 8e 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 10e 12e 13e 8e | 11h 15e 14e 9e | 14e 16e 15e 13e",
    /* HHSSHHS */
    "1e 2e 0h 0e | 2e 4e 5e 3e | 3e 8e 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 9e 12e 13e 8e | 12e 13e 14e 9h | 14h 16e 15e 13h",
    /* HHSSHHH */
    "1e 2e 0h 0e | 2e 5e 3e 4e | 3e 8e 6h 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 9e 12e 13e 8e | 12e 13e 14e 9h | 14e 16e 15e 14h",
    /* HHSHSSS */
    "1e 2e 0h 0e | 2e 6e 3e 4e | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "5e 11e 10h 7e | 9e 12e 13e 8e | 11h 13h 14e 10e | 14h 16e 15e 12h",
    /* HHSHSSH */
    "1e 2e 0h 0e | 2e 6e 3e 4e | 3e 8e 7e 5e | 4e 10e 9e 6e | "
    "5e 11e 10h 7e | 10e 12e 13e 8e | 11h 13h 14e 9e | 14h 16e 15e 13e",
    /* HHSHSHS */
    "1e 0h 2e 0e | 2e 6e 3e 4e | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "5e 11e 10h 7e | 9e 12e 13e 8e | 12e 13e 14e 9h | 14h 16e 15e 13h",
    /* HHSHSHH */
    "1e 2e 0h 0e | 2e 4e 5e 3e | 3e 8e 7e 5e | 4e 10e 9e 6e | "
    "6e 11e 10h 7e | 9e 12e 13e 8e | 12e 13e 14e 9h | 14h 16e 15e 14e",
    /* HHSHHSS */
    "1e 0h 2e 0e | 2e 6e 3e 4e | 3e 7h 7e 5e | 4e 10e 9e 6e | "
    "5e 11e 12e 7e | 8h 12e 13e 8e | 11e 13h 14e 9h | 14h 16e 15e 12h",
    /* HHSHHSH */
    "1e 2e 0h 0e | 2e 4e 5e 3e | 3e 7h 7e 5e | 4e 10e 9e 6e | "
    "6e 11e 10e 7e | 8h 12e 13e 8e | 11h 13h 14e 11e | 14h 16e 15e 13e",
    NULL,                                           /* HHSHHHS */
    NULL,                                           /* HHSHHHH */
    /* HHHSSSS */
    "1e 2e 0h 0e | 2e 5e 3h 3e | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 11h 13h 14e 9h | 14h 16e 15e 12h",
    /* HHHSSSH */
    "1e 2e 0h 0e | 2e 5e 3h 3e | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 11h 13h 14e 9h | 14h 16e 15e 13e",
    /* HHHSSHS */
    "1e 0h 2e 0e | 2e 5e 3h 3e | 3e 8e 7e 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 12e 13h 14e 10e | 14h 16e 15e 13e",
    /* HHHSSHH */
    "1e 2e 0h 0e | 2e 5e 3h 3e | 3e 7e 8e 5e | 4e 10e 9e 6e | "
    "5h 11e 10h 7e | 8h 12e 13e 8e | 12e 15e 14e 10e | 14e 16e 15e 12h",
    NULL,                                           /* HHHSHSS */
    NULL,                                           /* HHHSHSH */
    NULL,                                           /* HHHSHHS */
    NULL,                                           /* HHHSHHH */
    /* HHHHSSS */
    "1e 2e 0h 0e | 2e 5e 3h 3e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 11e 10h 7e | 10e 12e 13e 8e | 11h 13h 14e 9e | 14h 16e 15e 12h",
    /* HHHHSSH */
    "1e 2e 0h 0e | 2e 5e 3h 3e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 11e 10h 7e | 10e 12e 13e 8e | 11h 13h 14e 9e | 14h 16e 15e 13e",
    /* HHHHSHS */
    "1e 2e 0h 0e | 2e 5e 3h 3e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 11e 10e 7e | 9e 12e 13e 8e | 12e 13h 14e 11e | 14h 16e 15e 13e",
    /* HHHHSHH */
    "1e 2e 0h 0e | 2e 5e 3h 3e | 3e 7h 6h 5e | 4e 10e 9e 6e | "
    "6e 11e 10e 7e | 9e 12e 13e 8e | 12e 13e 14e 11e | 14h 16e 15e 14e",
    NULL,                                           /* HHHHHSS */
    NULL,                                           /* HHHHHSH */
    NULL,                                           /* HHHHHHS */
    NULL,                                           /* HHHHHHH */
};

static const SlotTable tables[] = {
    { 4, 16, rows_d4_k16, "theorem3-patterns-d4-k16.txt", "slot patterns" },
    { 8, 32, rows_d8_k32, "theorem3-patterns-d8-k32.txt", "slot patterns" },
    { 8, 32, rows_d8_k32_b, "theorem3-patterns-d8-k32-b.txt",
      "slot patterns, second table" },
};

const SlotTable *slot_table_find(int delta, uint64_t k, const SlotTable *after)
{
    size_t i = after ? (size_t)(after - tables) + 1 : 0;
    for (; i < G_N_ELEMENTS(tables); i++)
        if (tables[i].delta == delta && tables[i].k == k)
            return &tables[i];
    return NULL;
}

const SlotTable *slot_tables(size_t *count)
{
    *count = G_N_ELEMENTS(tables);
    return tables;
}
