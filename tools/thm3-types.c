/* tools/thm3-types.c -- which delta = 8 group types the shapes need, and
 * whether the slot tables serve every shape: on the 16-cube by
 * enumerating its nodes, on every cube by linearity (below, "the same
 * types by linearity").
 *
 *     make build/tools/thm3-types
 *     build/tools/thm3-types [FIRST LAST]     16-cube shapes, every node
 *     build/tools/thm3-types --linear-check [FIRST LAST]   both ways, compared
 *     build/tools/thm3-types --linear [FIRST LAST]         by linearity
 *     build/tools/thm3-types --all            every class of every cube
 *     build/tools/thm3-types --classes-check COUNT SEED    the reduction, tested
 *     build/tools/thm3-types --lines < SHAPES  "N FROM TO" a line
 *
 * tests/thm3.sh runs all but --all and the full enumerations. The rest of
 * this comment is about the enumeration of the 16-cube.
 *
 * Two-path with schedule = slots (algorithms/reshape/README.md, "delta = 8, K = 32")
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
 * tools/thm3-patterns.py and algorithms/reshape/reshape.c (pt_row) define
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

/* tops over `bits` address bits, as cubemu writes the shape */
static void shape_text64(uint64_t tops, int bits, char *out, size_t size)
{
    int width[64], n = 0;
    for (int k = 0, lo = 0; k < bits; k++)
        if ((tops >> k) & 1) {
            width[n++] = k - lo + 1;
            lo = k + 1;
        }
    size_t at = 0;
    for (int j = n - 1; j >= 0 && at < size; j--)
        at += (size_t)snprintf(out + at, size - at, "%s%llu",
                               j == n - 1 ? "" : "x", 1ULL << width[j]);
}

static void shape_text(uint32_t tops, char *out, size_t size)
{
    shape_text64(tops, BITS, out, size);
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

/* ---- the same types by linearity, on any cube ---------------------------
 *
 * Gray decoding and encoding are linear over GF(2), and so is everything
 * above. Bit j of a node's element moves (z_j = 1) iff j is the top of an
 * axis in one shape only (a D bit), and then z_j is the parity of the
 * element address over (j, e], e the first top of the from shape above
 * j: for a from top, the next from axis whole; for a to top, the rest of
 * its own from axis. So need_i(o) = parity(o & R_i), R_i the node bits
 * (d_i, e_i]. Where set m's element from origin o is in step t is a
 * linear function of o (x = o ^ sum over u < t of need_{i_u}(o) d_{i_u}),
 * and so is whether it crosses d_i there: x's origin solves a t x t system
 * (I + A) c = b, A[v][u] = [d_{i_u} in R_{i_v}], b_v = parity(x & R_{i_v}),
 * and it crosses iff parity(x & w_t) = 1 for one mask w_t. In a group of
 * 2-cube i (d_i, r_i = d_i + 1 free, the rest its base) that is one edge,
 * the one with r_i = 1 ^ parity(base & w_t), where w_t has r_i and not
 * d_i, and none where w_t = 0; anything else would be two edges of one
 * group exchanging, which group_types refuses too. So each boundary bit of
 * a group's type is an affine function of its base, and the types a
 * 2-cube needs are an affine subspace of the 2^7: its constant and the
 * span of one column per base bit. That costs a few thousand operations a
 * shape whatever n is, and base bits in the same ranges give the same
 * column, which is what makes every cube's shapes countable (--all). */
typedef struct {
    int n;                      /* node bits */
    int d[DELTA];               /* the D bits, ascending; relays d + 1 */
    uint32_t range[DELTA];      /* R_i */
} Lin;

static int parity32(uint32_t x) { return __builtin_parity(x); }

/* The D bits (a mask of node bits) and the from shape's tops among the
 * node bits (bit n - 1 among them): FALSE if they are not eight with
 * their relays below n, no two adjacent. */
static int lin_init(Lin *s, int n, uint32_t dmask, uint32_t from_tops)
{
    s->n = n;
    if (__builtin_popcount(dmask) != DELTA || (dmask & (dmask >> 1))
        || (dmask >> (n - 1)) || !((from_tops >> (n - 1)) & 1))
        return 0;
    for (int i = 0, k = 0; k < n; k++)
        if ((dmask >> k) & 1) {
            int e = k + 1;
            while (!((from_tops >> e) & 1))
                e++;
            s->d[i] = k;
            s->range[i++] = (uint32_t)((2ULL << e) - 1) & ~(uint32_t)((2ULL << k) - 1);
        }
    return 1;
}

/* Bit (7 - 1 - u) of a type: boundary u. Sets used[] as group_types does;
 * -1 where two edges of a group would exchange or the origins are not a
 * permutation. */
static int lin_types(const Lin *s, int turn, uint8_t used[TYPES])
{
    memset(used, 0, TYPES);
    for (int i = 0; i < DELTA; i++) {
        uint32_t dbit = 1u << s->d[i], rbit = dbit << 1;
        /* cur[u] = k[u] ^ parity(base & a[u]) */
        int k[DELTA];
        uint32_t a[DELTA];
        for (int t = 0; t < DELTA; t++) {
            int m = ((i - turn * t) % DELTA + DELTA) % DELTA;
            int iu[DELTA];
            for (int u = 0; u <= t; u++)
                iu[u] = ((m + turn * u) % DELTA + DELTA) % DELTA;
            /* (I + A) c = b: rows as bit vectors over u < t, solved for
             * each c_v as a combination of the b_w (Gauss-Jordan) */
            uint32_t row[DELTA], comb[DELTA];
            for (int v = 0; v < t; v++) {
                row[v] = 1u << v;
                for (int u = 0; u < t; u++)
                    if ((s->range[iu[v]] >> s->d[iu[u]]) & 1)
                        row[v] ^= 1u << u;
                comb[v] = 1u << v;
            }
            for (int col = 0; col < t; col++) {
                int piv = -1;
                for (int v = col; v < t && piv < 0; v++)
                    if ((row[v] >> col) & 1)
                        piv = v;
                if (piv < 0)
                    return -1;
                uint32_t tr = row[piv], tc = comb[piv];
                row[piv] = row[col]; comb[piv] = comb[col];
                row[col] = tr; comb[col] = tc;
                for (int v = 0; v < t; v++)
                    if (v != col && ((row[v] >> col) & 1)) {
                        row[v] ^= row[col];
                        comb[v] ^= comb[col];
                    }
            }
            /* c_u(x) = parity(x & C_u); w = R_i ^ the C_u of the d_{i_u}
             * in R_i */
            uint32_t w = s->range[i];
            for (int u = 0; u < t; u++) {
                if (!((s->range[i] >> s->d[iu[u]]) & 1))
                    continue;
                uint32_t cu = 0;
                for (int v = 0; v < t; v++)
                    if ((comb[u] >> v) & 1)
                        cu ^= s->range[iu[v]];
                w ^= cu;
            }
            if (w == 0) {                           /* idle: as before */
                k[t] = t ? k[t - 1] : 0;
                a[t] = t ? a[t - 1] : 0;
            } else if ((w & rbit) && !(w & dbit)) {
                k[t] = 1;
                a[t] = w & ~(dbit | rbit);
            } else {
                return -1;
            }
        }
        /* boundary u: k[u] ^ k[u+1] ^ parity(base & (a[u] ^ a[u+1])) */
        int k0 = 0;
        uint32_t bnd[DELTA - 1];
        for (int u = 0; u + 1 < DELTA; u++) {
            k0 = (k0 << 1) | (k[u] ^ k[u + 1]);
            bnd[u] = a[u] ^ a[u + 1];
        }
        /* the span of the columns, one per base bit, as a basis */
        int basis[DELTA - 1], nb = 0;
        for (int b = 0; b < s->n; b++) {
            if ((1u << b) & (dbit | rbit))
                continue;
            int col = 0;
            for (int u = 0; u + 1 < DELTA; u++)
                col = (col << 1) | (int)((bnd[u] >> b) & 1);
            for (int j = 0; j < nb; j++)
                if ((col ^ basis[j]) < col)
                    col ^= basis[j];
            if (col) {
                basis[nb++] = col;
                for (int j = nb - 1; j > 0 && basis[j] > basis[j - 1]; j--) {
                    int tmp = basis[j];
                    basis[j] = basis[j - 1];
                    basis[j - 1] = tmp;
                }
            }
        }
        for (int sub = 0; sub < (1 << nb); sub++) {
            int g = k0;
            for (int j = 0; j < nb; j++)
                if ((sub >> j) & 1)
                    g ^= basis[j];
            used[g] = 1;
        }
    }
    return 0;
}

/* Both orders' types of a shape (lin_init's arguments) into used[0]
 * (ascending) and used[1] (descending), its ranges into *lin: 1; 0 where
 * it is not eight D bits with their relays; -1 where lin_types refuses. */
static int lin_shape_types(Lin *lin, int n, uint32_t dmask, uint32_t from_tops,
                           uint8_t used[2][TYPES])
{
    if (!lin_init(lin, n, dmask, from_tops))
        return 0;
    if (lin_types(lin, 1, used[0]) < 0 || lin_types(lin, -1, used[1]) < 0)
        return -1;
    return 1;
}

enum { MAX_TABLES = 4 };
static const SlotTable *table[MAX_TABLES];
static int ntables;

/* The first (table, order) in prepare's order whose rows cover the types:
 * 2 * table + (1 descending), or -1. */
static int pick_table(uint8_t used[2][TYPES])
{
    for (int f = 0; f < ntables; f++)
        for (int s = 0; s < 2; s++) {
            int ok = 1;
            for (int g = 0; g < TYPES; g++)
                ok &= !(used[s][g] && table[f]->rows[g] == NULL);
            if (ok)
                return 2 * f + s;
        }
    return -1;
}

static void print_counts(long shapes, const long *count)
{
    printf("%ld shapes:", shapes);
    for (int f = 0; f < ntables; f++)
        printf(" %s ascending %ld, descending %ld;", table[f]->data,
               count[2 * f + 1], count[2 * f + 2]);
    printf(" none %ld\n", count[0]);
}

/* The 16-cube's shape c (above) as tops of the 21-bit element address. */
static void shape16(long c, uint32_t *from, uint32_t *to)
{
    *from = *to = 1u << 20;
    for (int i = 0; i < DELTA; i++)
        if ((c >> i) & 1)
            *from |= 1u << (OFFSET + 2 * i);
        else
            *to |= 1u << (OFFSET + 2 * i);
    for (int i = 0; i + 1 < DELTA; i++)
        if ((c >> (DELTA + i)) & 1) {
            *from |= 1u << (OFFSET + 1 + 2 * i);
            *to |= 1u << (OFFSET + 1 + 2 * i);
        }
}

/* Every 16-cube shape in [first, last]: by enumerating its nodes, and with
 * `check` by linearity too, which must give the same types under both
 * orders and the same need on every node; or (`linear`) by linearity
 * alone. */
static int run16(long first, long last, int check, int linear)
{
    long count[2 * MAX_TABLES + 1] = { 0 }, shapes = 0, agreed = 0;
    for (long c = first; c <= last; c++) {
        uint32_t from, to;
        shape16(c, &from, &to);
        char a[128], b[128];
        shape_text(from, a, sizeof a);
        shape_text(to, b, sizeof b);
        uint8_t used[2][TYPES], lused[2][TYPES];
        Lin lin;
        if ((check || linear)
            && lin_shape_types(&lin, 16, 0x5555u, from >> OFFSET, lused) < 1) {
            printf("%ld %s -> %s: no linear types\n", c, a, b);
            return 1;
        }
        if (linear) {
            memcpy(used, lused, sizeof used);
        } else {
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
                if (check)
                    for (int i = 0; i < DELTA; i++)
                        if (((nd >> i) & 1) != parity32(x & lin.range[i])) {
                            printf("%ld %s -> %s: node %#x, D bit %d: need %d, "
                                   "its range's parity not\n", c, a, b, x, i,
                                   (nd >> i) & 1);
                            return 1;
                        }
            }
            if (moved != 0x5555u) {     /* by construction it cannot differ */
                printf("%ld %s -> %s: crosses %#x, not D_paddr\n", c, a, b, moved);
                return 1;
            }
            for (int s = 0; s < 2; s++)
                if (group_types(s ? -1 : 1, used[s]) < 0) {
                    printf("%ld %s -> %s: two edges of a group exchange\n", c, a, b);
                    return 1;
                }
            if (check) {
                if (memcmp(used, lused, sizeof used) != 0) {
                    printf("%ld %s -> %s: the linear types differ\n", c, a, b);
                    return 1;
                }
                agreed++;
            }
        }
        shapes++;
        int pick = pick_table(used);
        count[pick + 1]++;
        if (pick < 0)
            printf("%ld %s -> %s: NO TABLE\n", c, a, b);
        else if (pick >= 2)     /* not the first table */
            printf("%ld %s -> %s: %s, %s\n", c, a, b, table[pick / 2]->data,
                   pick % 2 ? "descending" : "ascending");
    }
    if (check)
        printf("linear types identical on %ld shapes, both orders\n", agreed);
    print_counts(shapes, count);
    return count[0] ? 1 : 0;
}

/* Tops (bit k: address bit k the top of an axis) of a shape as cubemu
 * writes it, most significant axis first: FALSE if it is not sizes of
 * powers of two over `bits` bits. */
static int parse_shape(const char *text, int bits, uint64_t *tops)
{
    int width[64], n = 0;
    const char *p = text;
    while (*p) {
        char *end;
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p || v < 2 || (v & (v - 1)) || n == 64)
            return 0;
        width[n++] = __builtin_ctzll(v);
        p = end;
        if (*p == 'x')
            p++;
        else if (*p)
            return 0;
    }
    *tops = 0;
    for (int j = n - 1, k = 0; j >= 0; j--) {
        k += width[j];
        if (k > bits)
            return 0;
        *tops |= 1ULL << (k - 1);
    }
    return *tops >> (bits - 1) == 1;
}

/* Shapes from stdin, one a line: "N FROM TO" (an N-cube, K = 32), for
 * comparing with what prepare chose (tools/thm3-sample.c prints it):
 * prints the line and the table and order that serve, by linearity. */
static int run_lines(void)
{
    char line[512];
    int bad = 0;
    while (fgets(line, sizeof line, stdin)) {
        int n;
        char fa[200], ta[200];
        uint64_t from, to;
        if (sscanf(line, "%d %199s %199s", &n, fa, ta) != 3 || n < 2 || n > 26
            || !parse_shape(fa, n + OFFSET, &from) || !parse_shape(ta, n + OFFSET, &to)) {
            printf("bad line: %s", line);
            bad = 1;
            continue;
        }
        uint32_t dmask = (uint32_t)((from ^ to) >> OFFSET);
        Lin lin;
        uint8_t used[2][TYPES];
        int got = lin_shape_types(&lin, n, dmask, (uint32_t)(from >> OFFSET), used);
        if (got == 0) {
            printf("%d %s %s: not delta = 8 with relays\n", n, fa, ta);
            continue;
        }
        if (got < 0) {
            printf("%d %s %s: no linear types\n", n, fa, ta);
            bad = 1;
            continue;
        }
        int pick = pick_table(used);
        if (pick < 0)
            printf("%d %s %s: NO TABLE\n", n, fa, ta);
        else
            printf("%d %s %s: %s %s\n", n, fa, ta, table[pick / 2]->data,
                   pick % 2 ? "descending" : "ascending");
    }
    return bad;
}

#define CLASSES (1L << (DELTA + 2 * (DELTA - 1) + 1))

/* Class c's smallest shape (run_all): its node bits n, D bits, D bits the
 * from shape has the top of, and bits both shapes have the top of. */
static int class_shape(long c, uint32_t *dmask, uint32_t *ftops, uint32_t *both)
{
    int owner = (int)(c & 0xff);
    long gaps = c >> DELTA;
    int k = 0;
    *dmask = *ftops = *both = 0;
    for (int i = 0; i < DELTA; i++) {
        int g = i + 1 < DELTA ? (int)((gaps >> (2 * i)) & 3)
                              : (int)((gaps >> (2 * i)) & 1);
        *dmask |= 1u << k;
        if ((owner >> i) & 1)
            *ftops |= 1u << k;
        int r = k + 1;
        switch (g) {
        case 0: *both |= 1u << r; k = r + 1; break;                 /* (a) */
        case 1: *both |= 1u << (r + 1); k = r + 2; break;           /* (b) */
        case 2: k = r + 2; break;                                   /* (c1) */
        default: k = r + 1; break;                                  /* (c0) */
        }
    }
    return k;                   /* the last gap's top is bit k - 1 */
}

/* The class of a shape on n node bits: D bits dmask, the from shape's
 * tops ftops, both shapes' tops both (bit n - 1 among them). */
static long class_of(int n, uint32_t dmask, uint32_t ftops, uint32_t both)
{
    long c = 0;
    int i = 0;
    for (int k = 0; k < n; k++) {
        if (!((dmask >> k) & 1))
            continue;
        if ((ftops >> k) & 1)
            c |= 1L << i;
        int r = k + 1, next = r + 1;
        while (next < n && !((dmask >> next) & 1))
            next++;
        int g;
        if ((both >> r) & 1) {
            g = 0;                                  /* (a) */
        } else {
            g = r + 1 < next ? 2 : 3;               /* free bits, or none */
            for (int f = r + 1; f < next; f++)
                if ((both >> f) & 1) {
                    g = 1;                          /* (b) */
                    break;
                }
        }
        c |= (long)g << (DELTA + 2 * i);
        i++;
    }
    return c;
}

/* The reduction to classes, tested: COUNT random shapes of 17- to
 * 26-cubes drawn as tools/thm3-sample.c draws them (eight D bits of
 * 0..n-2, no two adjacent, each the top of one shape; every other node
 * bit the top of both with probability 0.3), each typed by linearity as
 * it is and as its class's smallest shape: the types must be the same,
 * under both orders. */
static int run_classes_check(long count, unsigned seed)
{
    srand(seed);
    long same = 0;
    for (long j = 0; j < count; j++) {
        int n = 17 + rand() % 10;
        uint32_t dmask = 0;
        do {
            dmask = 0;
            for (int got = 0; got < DELTA;) {
                int b = rand() % (n - 1);
                if (!((dmask >> b) & 1)) {
                    dmask |= 1u << b;
                    got++;
                }
            }
        } while (dmask & (dmask >> 1));
        uint32_t ftops = 0, both = 1u << (n - 1);
        for (int k = 0; k + 1 < n; k++)
            if ((dmask >> k) & 1) {
                if (rand() & 1)
                    ftops |= 1u << k;
            } else if (rand() % 10 < 3) {
                both |= 1u << k;
            }
        Lin a, b;
        uint8_t ua[2][TYPES], ub[2][TYPES];
        long c = class_of(n, dmask, ftops, both);
        uint32_t cd, cf, cb;
        int cn = class_shape(c, &cd, &cf, &cb);
        if (lin_shape_types(&a, n, dmask, ftops | both, ua) < 1
            || lin_shape_types(&b, cn, cd, cf | cb, ub) < 1) {
            printf("shape %ld (n = %d, D %#x): no linear types\n", j, n, dmask);
            return 1;
        }
        if (memcmp(ua, ub, sizeof ua) != 0) {
            printf("shape %ld (n = %d, D %#x, from %#x, both %#x): class %ld "
                   "types differ\n", j, n, dmask, ftops, both, c);
            return 1;
        }
        same++;
    }
    printf("%ld random shapes of 17- to 26-cubes: the same types as their "
           "classes' smallest shapes, both orders\n", same);
    return 0;
}

/* Every delta = 8, K = 32 shape of every cube, by classes. Only these
 * matter to the types: which shape has the top at each D bit (2^8), and
 * per gap above a D bit, up to the next (the top, above the last), which
 * of four it is: (a) the relay the top of both shapes, which closes every
 * range open through it; (b) the relay not a top, a free bit (neither D
 * nor relay) above it the top of both, closing the ranges there with
 * free bits in them; (c1) no top of the from shape in the gap, free bits
 * in it; (c0) no top in it, no free bits (the 16-cube's gaps are (a) or
 * (c0)). Free bits in one gap under the same ranges give one column of
 * the same value, so one stands for any number of them; bits outside
 * every range (below d_0, above a gap's first both-top, the offset bits)
 * give a zero column. The last gap is (a) or (b): the top closes it. So
 * 2^8 4^7 2 = 8,388,608 classes, each built as its smallest shape (n = 16
 * to 24) and typed by linearity. */
static int run_all(void)
{
    long count[2 * MAX_TABLES + 1] = { 0 }, shapes = 0;
    long by_n[32] = { 0 }, beyond[32] = { 0 };
    for (long c = 0; c < CLASSES; c++) {
        uint32_t dmask, ftops, both;
        int n = class_shape(c, &dmask, &ftops, &both);
        Lin lin;
        uint8_t used[2][TYPES];
        if (lin_shape_types(&lin, n, dmask, ftops | both, used) < 1) {
            printf("class %ld (n = %d): no linear types\n", c, n);
            return 1;
        }
        shapes++;
        by_n[n]++;
        int pick = pick_table(used);
        count[pick + 1]++;
        /* every class no table serves (the first 20), and the first two
         * of each cube size that the first table does not */
        if ((pick < 0 && count[0] <= 20) || (pick >= 2 && ++beyond[n] <= 2)) {
            uint64_t from = ((uint64_t)(ftops | both) << OFFSET),
                     to = ((uint64_t)((dmask & ~ftops) | both) << OFFSET);
            char a[256], b[256];
            shape_text64(from, n + OFFSET, a, sizeof a);
            shape_text64(to, n + OFFSET, b, sizeof b);
            if (pick < 0)
                printf("class %ld: %d %s %s: NO TABLE\n", c, n, a, b);
            else
                printf("class %ld: %d %s %s: %s %s\n", c, n, a, b,
                       table[pick / 2]->data, pick % 2 ? "descending" : "ascending");
        }
    }
    printf("classes by smallest cube:");
    for (int n = 0; n < 32; n++)
        if (by_n[n])
            printf(" n = %d: %ld;", n, by_n[n]);
    printf("\n");
    print_counts(shapes, count);
    return count[0] ? 1 : 0;
}

int main(int argc, char **argv)
{
    for (const SlotTable *tb = slot_table_find(DELTA, 32, NULL);
         tb && ntables < MAX_TABLES; tb = slot_table_find(DELTA, 32, tb))
        table[ntables++] = tb;
    int check = 0, linear = 0;
    if (argc >= 2 && strcmp(argv[1], "--all") == 0 && argc == 2)
        return run_all();
    if (argc >= 2 && strcmp(argv[1], "--lines") == 0 && argc == 2)
        return run_lines();
    if (argc == 4 && strcmp(argv[1], "--classes-check") == 0) {
        char *end1, *end2;
        long count = strtol(argv[2], &end1, 10);
        unsigned long seed = strtoul(argv[3], &end2, 10);
        if (*end1 || *end2 || count < 1) {
            fprintf(stderr, "thm3-types --classes-check COUNT SEED: COUNT a "
                            "number of shapes from 1, SEED a number\n");
            return 2;
        }
        return run_classes_check(count, (unsigned)seed);
    }
    if (argc >= 2 && strcmp(argv[1], "--linear-check") == 0) {
        check = 1;
        argc--, argv++;
    } else if (argc >= 2 && strcmp(argv[1], "--linear") == 0) {
        linear = 1;
        argc--, argv++;
    }
    long first = 0, last = (1L << 15) - 1;
    if (argc == 3) {
        first = strtol(argv[1], NULL, 10);
        last = strtol(argv[2], NULL, 10);
    }
    if ((argc != 1 && argc != 3) || first < 0 || last >= (1L << 15)
        || first > last) {
        fprintf(stderr, "usage: thm3-types [--linear-check | --linear] [FIRST LAST] "
                        "(0 <= FIRST <= LAST <= 32767), thm3-types --all, "
                        "thm3-types --lines, thm3-types --classes-check COUNT SEED\n");
        return 2;
    }
    return run16(first, last, check, linear);
}
