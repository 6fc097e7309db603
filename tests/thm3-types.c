/* tests/thm3-types.c -- which delta = 8 group types the 16-cube's shapes
 * need, and whether the slot tables serve every shape.
 *
 *     make build/tests/thm3-types
 *     build/tests/thm3-types [FIRST LAST]
 *
 * Two-path with schedule = slots (README, Reshape, "delta = 8, K = 32")
 * runs a table row per group type: the type of a 4-node group of 2-cube i
 * is, for each of the seven step boundaries, whether the edge its
 * exchanging pair uses changes (H) or stays (S). On a 16-cube with delta =
 * 8 and K = 32 the processor dimensions of D_paddr are 0, 2, ..., 14 and
 * their relays 1, 3, ..., 15 (address bits 5, 7, ..., 19 and 6, ..., 20 of
 * the 21-bit element address; bits 0..4 are the local offset). A bit needs
 * communication iff it is the top of an axis in exactly one of the two
 * shapes, so every such shape is given by: for each D bit, which shape has
 * a top there (2^8), and for each relay bit below 20, whether both or
 * neither have one (2^7); bit 20 is the top of both. Boundaries among the
 * offset bits do not change where a node's elements go. That is 2^15
 * boundary structures, shape numbers 0 .. 32767 (bit i < 8: the from shape
 * has the top at D bit i; bit 8 + i: both have one at relay bit i).
 *
 * For each, the program computes the crossings the proof's routing makes
 * (set m crosses d_{(m + turn t) mod 8} in step t where the node needs it,
 * turn = 1 ascending, -1 descending), every group's type as
 * tests/thm3-patterns.py and algorithms/reshape/reshape.c (pt_row) define
 * it, and the first of (table, order) in the order prepare tries them
 * (first table ascending, descending, second table ascending, descending)
 * under which every type needed has a row. It prints the shapes no pair
 * serves and a count per pair. The tables are slot_tables.c's, taken in
 * slot_table_find's order (check_reshape compares them with their files
 * under tests/data/reshape/). The check it makes is
 * necessary for the tables to run, not sufficient (prepare also checks
 * channels and arrivals on the shape); scenarios and check_reshape run the
 * shapes this found. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graycode.h"
#include "slot_tables.h"

#define BITS 21         /* element address: 16 node bits above 5 offset bits */
#define OFFSET 5
#define NODES (1u << 16)
#define DELTA 8
#define TYPES (1 << (DELTA - 1))

/* tops: bit k set when address bit k is the top of an axis */
static uint32_t index_of(uint32_t a, uint32_t tops)
{
    uint32_t i = 0;
    for (int k = 0, lo = 0; k < BITS; k++)
        if ((tops >> k) & 1) {
            i |= (uint32_t)gray_decode((a >> lo) & ((1u << (k - lo + 1)) - 1)) << lo;
            lo = k + 1;
        }
    return i;
}

static uint32_t address_of(uint32_t i, uint32_t tops)
{
    uint32_t a = 0;
    for (int k = 0, lo = 0; k < BITS; k++)
        if ((tops >> k) & 1) {
            a |= (uint32_t)gray_encode((i >> lo) & ((1u << (k - lo + 1)) - 1)) << lo;
            lo = k + 1;
        }
    return a;
}

static void shape_text(uint32_t tops, char *out, size_t size)
{
    int width[BITS], n = 0;
    for (int k = 0, lo = 0; k < BITS; k++)
        if ((tops >> k) & 1) {
            width[n++] = k - lo + 1;
            lo = k + 1;
        }
    size_t at = 0;
    for (int j = n - 1; j >= 0; j--)
        at += (size_t)snprintf(out + at, size - at, "%s%u",
                               j == n - 1 ? "" : "x", 1u << width[j]);
}

static uint8_t need[NODES];                 /* bit i: the node crosses d_i */
static int8_t edge[DELTA][DELTA][NODES];    /* 2-cube i, step t, group base */

/* The types the groups need under this order (bit g of used[]), or -1
 * where two edges of one group would exchange in one step. */
static int group_types(int turn, uint8_t used[TYPES])
{
    memset(edge, -1, sizeof edge);
    memset(used, 0, TYPES);
    for (uint32_t o = 0; o < NODES; o++)
        for (int m = 0; m < DELTA; m++) {
            uint32_t x = o;
            for (int t = 0; t < DELTA; t++) {
                int i = ((m + turn * t) % DELTA + DELTA) % DELTA;
                if (!((need[o] >> i) & 1))
                    continue;
                uint32_t base = x & ~(3u << (2 * i));
                int e = (int)((x >> (2 * i + 1)) & 1);
                if (edge[i][t][base] >= 0 && edge[i][t][base] != e)
                    return -1;
                edge[i][t][base] = (int8_t)e;
                x ^= 1u << (2 * i);
            }
        }
    for (int i = 0; i < DELTA; i++)
        for (uint32_t base = 0; base < NODES; base++) {
            if (base & (3u << (2 * i)))
                continue;
            int cur[DELTA], g = 0;
            for (int u = 0; u < DELTA; u++)
                cur[u] = edge[i][u][base] >= 0 ? edge[i][u][base]
                                               : (u ? cur[u - 1] : 0);
            for (int u = 0; u + 1 < DELTA; u++)
                g = (g << 1) | (cur[u] != cur[u + 1]);
            used[g] = 1;
        }
    return 0;
}

int main(int argc, char **argv)
{
    enum { MAX_TABLES = 4 };
    const SlotTable *table[MAX_TABLES];
    int ntables = 0;
    for (const SlotTable *tb = slot_table_find(DELTA, 32, NULL);
         tb && ntables < MAX_TABLES; tb = slot_table_find(DELTA, 32, tb))
        table[ntables++] = tb;
    long first = 0, last = (1L << 15) - 1;
    if (argc == 3) {
        first = strtol(argv[1], NULL, 10);
        last = strtol(argv[2], NULL, 10);
    }
    if ((argc != 1 && argc != 3) || first < 0 || last >= (1L << 15)
        || first > last) {
        fprintf(stderr, "usage: thm3-types [FIRST LAST] (0 <= FIRST <= LAST "
                        "<= 32767)\n");
        return 2;
    }
    long count[2 * MAX_TABLES + 1] = { 0 }, shapes = 0;
    for (long c = first; c <= last; c++) {
        uint32_t from = 1u << 20, to = 1u << 20;
        for (int i = 0; i < DELTA; i++)
            if ((c >> i) & 1)
                from |= 1u << (OFFSET + 2 * i);
            else
                to |= 1u << (OFFSET + 2 * i);
        for (int i = 0; i + 1 < DELTA; i++)
            if ((c >> (DELTA + i)) & 1) {
                from |= 1u << (OFFSET + 1 + 2 * i);
                to |= 1u << (OFFSET + 1 + 2 * i);
            }
        uint32_t dest[16], moved = 0;
        for (int k = 0; k < 16; k++)
            dest[k] = address_of(index_of((1u << k) << OFFSET, from), to) >> OFFSET;
        for (uint32_t x = 0; x < NODES; x++) {
            uint32_t d = 0;
            for (int k = 0; k < 16; k++)
                if ((x >> k) & 1)
                    d ^= dest[k];
            uint32_t z = x ^ d;
            moved |= z;
            uint8_t nd = 0;
            for (int i = 0; i < DELTA; i++)
                nd |= (uint8_t)(((z >> (2 * i)) & 1) << i);
            need[x] = nd;
        }
        char a[128], b[128];
        shape_text(from, a, sizeof a);
        shape_text(to, b, sizeof b);
        if (moved != 0x5555u) {     /* by construction it cannot differ */
            printf("%ld %s -> %s: crosses %#x, not D_paddr\n", c, a, b, moved);
            return 1;
        }
        shapes++;
        uint8_t used[2][TYPES];
        for (int s = 0; s < 2; s++)
            if (group_types(s ? -1 : 1, used[s]) < 0) {
                printf("%ld %s -> %s: two edges of a group exchange\n", c, a, b);
                return 1;
            }
        int pick = -1;
        for (int f = 0; f < ntables && pick < 0; f++)
            for (int s = 0; s < 2 && pick < 0; s++) {
                int ok = 1;
                for (int g = 0; g < TYPES; g++)
                    ok &= !(used[s][g] && table[f]->rows[g] == NULL);
                if (ok)
                    pick = 2 * f + s;
            }
        count[pick + 1]++;
        if (pick < 0)
            printf("%ld %s -> %s: NO TABLE\n", c, a, b);
        else if (pick >= 2)     /* not the first table */
            printf("%ld %s -> %s: %s, %s\n", c, a, b, table[pick / 2]->data,
                   pick % 2 ? "descending" : "ascending");
    }
    printf("%ld shapes:", shapes);
    for (int f = 0; f < ntables; f++)
        printf(" %s ascending %ld, descending %ld;", table[f]->data,
               count[2 * f + 1], count[2 * f + 2]);
    printf(" none %ld\n", count[0]);
    return count[0] ? 1 : 0;
}
