/* matmul.c -- matrix multiplication C = A B on a processor array (Mathur &
 * Johnsson 1992): parameters, the processor array (Claim 2), layouts,
 * values, the independent reference and the report. The node programs are
 * in systolic.c (C stationary, Section 4.2) and stationary.c (A or B
 * stationary, Section 4.1).
 */
#include "bits.h"
#include "blas.h"
#include "matmul.h"
#include "shape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "kernel.h"

/* verify = auto compares every element of C up to this many elements of C
 * and samples beyond. */
#define MATMUL_FULL_VERIFY (1u << 22)
#define MATMUL_DEFAULT_SAMPLES 4096

/* ---- values ----------------------------------------------------------- */

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

double matmul_value(const MatmulConfig *c, MatmulOperand op, uint64_t row,
                    uint64_t col, int part)
{
    uint64_t h = mix(mix(mix(c->seed * 4 + (uint64_t)op * 2 + (uint64_t)part)
                         ^ row) ^ (col << 1));
    int v = (int)(h % 8);                     /* -4..-1, 1..4 */
    return v < 4 ? v - 4 : v - 3;
}

/* ---- layouts (matmul.h) ----------------------------------------------- */

MatmulPlace matmul_home(const MatmulConfig *c, MatmulOperand op,
                        uint64_t row, uint64_t col)
{
    if (op == OPERAND_A)
        return (MatmulPlace){
            procgrid_node(&c->grid, (uint32_t)(row / c->alpha),
                          (uint32_t)(col / c->qa)),
            c->off_a + (col % c->qa) * c->alpha + row % c->alpha };
    return (MatmulPlace){
        procgrid_node(&c->grid, (uint32_t)(row / c->qb),
                      (uint32_t)(col / c->gamma)),
        c->off_b + (col % c->gamma) * c->qb + row % c->qb };
}

MatmulPlace matmul_home_c(const MatmulConfig *c, uint64_t row, uint64_t col)
{
    return (MatmulPlace){
        procgrid_node(&c->home, (uint32_t)(row / c->halpha),
                      (uint32_t)(col / c->hgamma)),
        (col % c->hgamma) * c->halpha + row % c->halpha };
}

/* Which processor along an axis of `n` holds virtual block position wv
 * (relative to the axis's skew) in set d, and in which slot: set 0 holds
 * windows [s, s + slots), set 1 windows (s - slots, s]. */
static void window_of(uint64_t wv, uint64_t slots, uint32_t n, int d,
                      uint32_t *who, uint64_t *slot)
{
    if (d == 0) {
        *who = (uint32_t)(wv / slots);
        *slot = wv % slots;
        return;
    }
    uint64_t cc = (wv + slots - 1) / slots;
    *who = (uint32_t)(cc % n);
    *slot = cc * slots - wv;
}

MatmulPlace matmul_work(const MatmulConfig *c, MatmulOperand op,
                        uint64_t row, uint64_t col)
{
    uint64_t k = op == OPERAND_A ? col : row;
    uint64_t v = k / c->bv, psi = k % c->bv;
    int d = psi >= c->h[0];
    uint64_t psid = psi - (d ? c->h[0] : 0);
    uint64_t slot;
    if (op == OPERAND_A) {
        uint32_t l = (uint32_t)(row / c->alpha), m;
        uint64_t phi = row % c->alpha;
        uint64_t wv = (v + c->l - (l * c->b_slots) % c->l) % c->l;
        window_of(wv, c->a_slots, c->nc, d, &m, &slot);
        return (MatmulPlace){ procgrid_node(&c->grid, l, m),
            c->off_a + (d ? c->a_slots * c->alpha * c->h[0] : 0)
            + slot * c->alpha * c->h[d] + psid * c->alpha + phi };
    }
    uint32_t m = (uint32_t)(col / c->gamma), l;
    uint64_t nu = col % c->gamma;
    uint64_t wv = (v + c->l - (m * c->a_slots) % c->l) % c->l;
    window_of(wv, c->b_slots, c->nr, d, &l, &slot);
    return (MatmulPlace){ procgrid_node(&c->grid, l, m),
        c->off_b + (d ? c->b_slots * c->h[0] * c->gamma : 0)
        + slot * c->h[d] * c->gamma + nu * c->h[d] + psid };
}

gboolean matmul_work_element(const MatmulConfig *c, MatmulOperand op,
                             uint32_t l, uint32_t m, size_t off,
                             uint64_t *row, uint64_t *col)
{
    uint64_t other = op == OPERAND_A ? c->alpha : c->gamma;
    uint64_t slots = op == OPERAND_A ? c->a_slots : c->b_slots;
    uint64_t set0 = slots * other * c->h[0];
    int d = off >= set0;
    uint64_t rel = off - (d ? set0 : 0);
    uint64_t per = other * c->h[d];
    if (!per)
        return FALSE;
    uint64_t slot = rel / per, rem = rel % per;
    uint64_t base = op == OPERAND_A ? (uint64_t)m * c->a_slots
                                    : (uint64_t)l * c->b_slots;
    uint64_t wv = d == 0 ? base + slot : (base + c->l - slot) % c->l;
    uint64_t skew = op == OPERAND_A ? (uint64_t)l * c->b_slots
                                    : (uint64_t)m * c->a_slots;
    uint64_t v = (wv + skew) % c->l;
    uint64_t psid, across;
    if (op == OPERAND_A) {
        psid = rem / c->alpha, across = rem % c->alpha;
        *row = l * c->alpha + across;
        *col = v * c->bv + (d ? c->h[0] : 0) + psid;
        return *row < c->p && *col < c->q;
    }
    across = rem / c->h[d], psid = rem % c->h[d];
    *row = v * c->bv + (d ? c->h[0] : 0) + psid;
    *col = m * c->gamma + across;
    return *row < c->q && *col < c->r;
}

/* ---- redistribution ----------------------------------------------------- */

static int move_cmp(const void *a, const void *b)
{
    const MatmulMove *x = a, *y = b;
    if (x->peer != y->peer)
        return x->peer < y->peer ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

static int peer_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

#define MATMUL_FEW_PEERS 64

void matmul_sort_moves(MatmulMove *mv, size_t n)
{
    uint32_t peers[MATMUL_FEW_PEERS];
    size_t count[MATMUL_FEW_PEERS] = { 0 }, np = 0;
    for (size_t i = 0; i < n; i++) {
        size_t p = 0;
        while (p < np && peers[p] != mv[i].peer)
            p++;
        if (p == np) {
            if (np == MATMUL_FEW_PEERS) {
                qsort(mv, n, sizeof *mv, move_cmp);
                return;
            }
            peers[np++] = mv[i].peer;
        }
    }
    qsort(peers, np, sizeof peers[0], peer_cmp);
    /* A stable bucket pass by peer, then each bucket by offset (usually
     * already in order: checked before sorting). */
    size_t start[MATMUL_FEW_PEERS + 1];
    for (size_t i = 0; i < n; i++) {
        size_t p = 0;
        while (peers[p] != mv[i].peer)
            p++;
        count[p]++;
    }
    start[0] = 0;
    for (size_t p = 0; p < np; p++)
        start[p + 1] = start[p] + count[p];
    MatmulMove *out = g_new(MatmulMove, n ? n : 1);
    size_t fill[MATMUL_FEW_PEERS];
    memcpy(fill, start, np * sizeof fill[0]);
    for (size_t i = 0; i < n; i++) {
        size_t p = 0;
        while (peers[p] != mv[i].peer)
            p++;
        out[fill[p]++] = mv[i];
    }
    for (size_t p = 0; p < np; p++) {
        MatmulMove *b = out + start[p];
        size_t len = count[p];
        for (size_t i = 1; i < len; i++)
            if (b[i].off < b[i - 1].off) {
                qsort(b, len, sizeof *b, move_cmp);
                break;
            }
    }
    memcpy(mv, out, n * sizeof *mv);
    g_free(out);
}

void matmul_settle_moves(Node *node, const MatmulConfig *c, MatmulMove *mv,
                         size_t *n)
{
    Word *mem = node_memory(node);
    size_t w = matmul_words(c), kept = 0;
    uint32_t self = node_address(node);
    for (size_t i = 0; i < *n; i++) {
        if (mv[i].peer == self)
            memcpy(mem + mv[i].off * w, mem + mv[i].src * w,
                   w * sizeof(Word));
        else
            mv[kept++] = mv[i];
    }
    matmul_sort_moves(mv, kept);
    *n = kept;
}

size_t matmul_send_moves(Node *node, const MatmulConfig *c,
                         const MatmulMove *out, size_t n, size_t buf, int tag)
{
    Word *mem = node_memory(node);
    size_t w = matmul_words(c);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        for (; j < n && out[j].peer == out[i].peer; j++)
            memcpy(mem + (buf + j - i) * w, mem + out[j].src * w,
                   w * sizeof(Word));
        node_send_to(node, out[i].peer, buf, j - i, tag);
        buf += j - i;
        i = j;
    }
    return buf;
}

size_t matmul_recv_moves(Node *node, const MatmulMove *in, size_t n,
                         size_t buf, int tag)
{
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && in[j].peer == in[i].peer)
            j++;
        node_recv(node, in[i].peer, tag, buf, j - i);
        buf += j - i;
        i = j;
    }
    return buf;
}

void matmul_unpack_moves(Node *node, const MatmulConfig *c,
                         const MatmulMove *in, size_t n, size_t buf)
{
    Word *mem = node_memory(node);
    size_t w = matmul_words(c);
    for (size_t i = 0; i < n; i++)
        memcpy(mem + in[i].off * w, mem + (buf + i) * w, w * sizeof(Word));
}

/* ---- parameters -------------------------------------------------------- */

static const char *const matmul_stationary_names[] = { "C", "A", "B", "auto",
                                                       NULL };
static const char *const matmul_elements[] = { "double", "complex", NULL };
static const char *const matmul_c_homes[] = { "shared", "default", NULL };

static const AlgorithmMethod matmul_methods[] = {
    { "systolic", "the systolic algorithms: C stationary (Section 4.2), A or "
                  "B by level-2 blocks with stepwise broadcast and reduction "
                  "(Section 4.1)" },
    { "cmssl", "what CMSSL ran for Table 6 (Sections 4.1 and 5): A or B "
               "stationary nonsystolic (level-2 blocks: align, spread, "
               "local level-2 BLAS, reduce, store), C systolic" },
    { NULL, NULL }
};

static const ParamSpec matmul_params[] = {
    { .key = "shape", .type = PARAM_TEXT, .fallback = NULL,
      .help = "PxQxR: A is P x Q, B is Q x R" },
    { .key = "stationary", .type = PARAM_CHOICE, .fallback = "C",
      .choices = matmul_stationary_names,
      .help = "the matrix that stays in place: C, A, B or auto (CMSSL's "
              "choice, Section 5)" },
    { .key = "processors", .type = PARAM_TEXT, .fallback = "auto",
      .help = "RxC processor array, or auto (Claim 2)" },
    { .key = "seed", .type = PARAM_INT, .fallback = "1", .min = 0,
      .max = 1LL << 62, .help = "the matrices' values" },
    { .key = "verify", .type = PARAM_TEXT, .fallback = "auto",
      .help = "full, sample:K or auto (full up to 4Mi elements of C)" },
    { .key = "block", .type = PARAM_INT, .fallback = "auto", .min = 1,
      .max = 1LL << 32,
      .help = "A or B stationary: columns (A) or rows (B) per block, or "
              "auto (min(R, 64) for A, min(P, 32) for B; Section 5)" },
    { .key = "element", .type = PARAM_CHOICE, .fallback = "double",
      .choices = matmul_elements, .help = "double or complex" },
    { .key = "c-home", .type = PARAM_CHOICE, .fallback = "shared",
      .choices = matmul_c_homes,
      .help = "C stationary: where C lives before and after the call: "
              "shared (on the array the multiplication runs on) or default "
              "(on the CM compilers' default array for C's shape, Section 2; "
              "the product is routed there when the arrays differ, Section "
              "5)" },
    { .key = NULL }
};

static const char *const matmul_phases[] = { "alignment", "multiplication",
                                             "reconfigure", NULL };

/* shape = PxQxR: A is P x Q, B is Q x R. */
static const ShapeSpec matmul_shape = {
    .form = "PxQxR (say 256x256x256)",
    .min_extents = 3, .max_extents = 3, .min = 1, .max = UINT64_C(1) << 32,
};

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

/* Claim 2: the array whose aspect ratio N_r/N_c is closest to the
 * stationary matrix's rows/columns, among those where every operand has an
 * element per node. Powers of two often leave two arrays equally close (C
 * of 2:1 between 1:1 and 4:1): then the squarer one, whose shifts along
 * both axes, N_r + N_c - 2, are fewer; then more rows. */
/* The paper's layout rule: the matrices an algorithm lays out on the
 * array have an element per node. C stationary lays out all three; A
 * stationary keeps A in place and streams blocks of B's columns and C's
 * (Table 6 runs R = 1 on 256 nodes), B stationary the transpose. */
static gboolean shape_fits(MatmulStationary st, const uint64_t pqr[3],
                           uint32_t nr, uint32_t nc)
{
    switch (st) {
    case MATMUL_A: return pqr[0] >= nr && pqr[1] >= nc;
    case MATMUL_B: return pqr[1] >= nr && pqr[2] >= nc;
    default: return pqr[0] >= nr && pqr[2] >= nc && pqr[1] >= MAX(nr, nc);
    }
}

static const char *shape_needs(MatmulStationary st)
{
    switch (st) {
    case MATMUL_A: return "A needs an element per node: P >= N_r, Q >= N_c";
    case MATMUL_B: return "B needs an element per node: Q >= N_r, R >= N_c";
    default: return "every operand needs an element per node: P >= N_r, "
                    "R >= N_c, Q >= max(N_r, N_c)";
    }
}

static gboolean auto_processors(const Machine *mach, MatmulStationary st,
                                uint64_t rows, uint64_t cols,
                                const uint64_t pqr[3], uint32_t *nr,
                                uint32_t *nc)
{
    const Topology *t = &mach->topology;
    if (topology_has(t, TOPOLOGY_AXES)) {
        *nr = t->axes == 2 ? t->side[1] : 1;
        *nc = t->side[0];
        return TRUE;
    }
    double want = log2((double)rows / (double)cols), best = INFINITY;
    gboolean found = FALSE;
    for (uint32_t r = t->nodes;; r /= 2) {
        uint32_t c = t->nodes / r;
        if (shape_fits(st, pqr, r, c)) {
            double miss = fabs(log2((double)r / (double)c) - want);
            gboolean tie = fabs(miss - best) <= 1e-9;
            if (miss < best - 1e-9
                || (tie && (uint64_t)r + c < (uint64_t)*nr + *nc)) {
                best = miss;
                *nr = r;
                *nc = c;
                found = TRUE;
            }
        }
        if (r == 1)
            break;
    }
    return found;
}

/* The CM compilers' default processor array for a rows x cols matrix
 * (Section 2: "the area of the faces for a subarray of a given size is
 * minimized"): among the arrays N_r x N_c of all nodes (powers of two),
 * the one whose consecutive blocks have the least ceil(rows/N_r) +
 * ceil(cols/N_c). For extents that are powers of two that is the array
 * whose aspect ratio is closest to the matrix's, Claim 2's array ("the
 * optimum two-dimensional processor array shape is the default processor
 * array shape for C").
 * Ties (a 2:1 matrix between 1:1 and 4:1 arrays; a square matrix on a
 * machine that cannot be square) go to fewer rows: Section 5 says the P x R
 * product with P < R runs best on the array of its own shape while P > R
 * needs "one extra route operation to reconfigure the product matrix",
 * which this orientation gives and the other does not. A torus holds one
 * array, its own. */
static void default_array(const Machine *mach, uint64_t rows, uint64_t cols,
                          uint32_t *nr, uint32_t *nc)
{
    const Topology *t = &mach->topology;
    if (topology_has(t, TOPOLOGY_AXES)) {
        *nr = t->axes == 2 ? t->side[1] : 1;
        *nc = t->side[0];
        return;
    }
    uint64_t best = UINT64_MAX;
    for (uint32_t r = 1; r <= t->nodes; r *= 2) {
        uint32_t c = t->nodes / r;
        uint64_t faces = ceil_div(rows, r) + ceil_div(cols, c);
        if (faces < best) {                   /* strict: ties keep fewer rows */
            best = faces;
            *nr = r;
            *nc = c;
        }
        if (r == t->nodes)
            break;
    }
}

/* Exact ticks of one shift step's messages on one channel. */
static Tick channel_ticks(const Machine *mach, const uint64_t *counts, int n)
{
    const MachinePrice *pr = machine_price(mach, CLASS_NEIGHBOUR);
    Tick t = 0;
    for (int i = 0; i < n; i++)
        t += (Tick)counts[i] * pr->element_time
             + (mach->startup_holds_port ? pr->startup : 0);
    return n && !mach->startup_holds_port ? t + pr->startup : t;
}

/* The multiplication phase's shifts with all ports: per step the slowest
 * channel; the two halves of an operand share a channel only when its axis
 * has two processors. */
static Tick predict_shifts(const Machine *mach, const MatmulConfig *c)
{
    Tick total = 0;
    uint64_t a[2], b[2];
    int na = 0, nb = 0;
    for (int d = 0; d < 2; d++) {
        if (c->h[d]) {
            a[na++] = c->a_slots * c->alpha * c->h[d];
            b[nb++] = c->b_slots * c->h[d] * c->gamma;
        }
    }
    Tick ta = 0, tb = 0;
    if (c->nc == 2)
        ta = channel_ticks(mach, a, na);
    else
        for (int i = 0; i < na; i++)
            ta = MAX(ta, channel_ticks(mach, &a[i], 1));
    if (c->nr == 2)
        tb = channel_ticks(mach, b, nb);
    else
        for (int i = 0; i < nb; i++)
            tb = MAX(tb, channel_ticks(mach, &b[i], 1));
    for (uint64_t t = 1; t < c->l; t++) {
        Tick step = 0;
        if (t % c->a_slots == 0)
            step = MAX(step, ta);
        if (t % c->b_slots == 0)
            step = MAX(step, tb);
        total += step;
    }
    return total;
}

static void *matmul_prepare(const Machine *mach, const Params *params,
                            MemoryLayout *layout, GError **error)
{
    if (!blas_load(error))
        return NULL;
    g_autofree MatmulConfig *c = g_new0(MatmulConfig, 1);
    char *why = NULL;
    const char *shape_text = params_text(params, "shape");
    uint64_t pqr[3];
    ShapeFailure fault;
    g_autofree char *shape_why = NULL;
    if (!shape_parse(shape_text, &matmul_shape, pqr, NULL, &fault,
                     &shape_why)) {
        if (fault.fault == SHAPE_RANGE)
            return params_fail(params, error, "shape", "'%s': every extent "
                               "must be between 1 and 2^32", shape_text);
        return params_fail(params, error, "shape", "%s", shape_why);
    }
    c->p = pqr[0], c->q = pqr[1], c->r = pqr[2];
    c->seed = (uint64_t)params_int(params, "seed");
    c->is_complex = params_choice(params, "element") == 1;
    int st = params_choice(params, "stationary");
    long long block = params_int(params, "block");
    if (block != PARAM_AUTO && st == MATMUL_C)
        return params_fail(params, error, "block", "applies to stationary "
                           "A or B (or auto, when it picks A or B)");
    if (st == MATMUL_AUTO) {
        /* Section 5 (Table 6): A stationary when P/R >= 8, B stationary
         * when R/P >= 16, C stationary otherwise. */
        st = c->p >= 8 * c->r ? MATMUL_A : c->r >= 16 * c->p ? MATMUL_B
                                                             : MATMUL_C;
    }
    c->stationary = (MatmulStationary)st;
    c->nonsystolic = params_method(params) == 1 && st != MATMUL_C;
    c->c_default = params_choice(params, "c-home") == 1;
    if (c->c_default && c->stationary != MATMUL_C)
        return params_fail(params, error, "c-home", "'default' applies to "
                           "stationary C (this run keeps %s stationary, and "
                           "C in its blocks on the shared array)",
                           c->stationary == MATMUL_A ? "A" : "B");
    uint32_t hr = 0, hc = 0;
    if (c->c_default)
        default_array(mach, c->p, c->r, &hr, &hc);

    const char *procs = params_text(params, "processors");
    uint32_t nr, nc;
    if (!strcmp(procs, "auto")) {
        /* Section 4.1 and Claim 2: the array is congruent to the
         * stationary matrix. */
        uint64_t rows = c->stationary == MATMUL_B ? c->q : c->p;
        uint64_t cols = c->stationary == MATMUL_A ? c->q : c->r;
        /* With C at home on its default array, Claim 2's note: that
         * array, when every operand has an element per node on it. */
        if (c->c_default && shape_fits(MATMUL_C, pqr, hr, hc)) {
            nr = hr;
            nc = hc;
        } else if (!auto_processors(mach, c->stationary, rows, cols, pqr,
                                    &nr, &nc))
            return params_fail(params, error, "processors", "no processor "
                               "array of %u nodes gives every operand of "
                               "%s an element per node",
                               machine_nodes(mach),
                               params_text(params, "shape"));
    } else if (!procgrid_parse(procs, &nr, &nc, &why)) {
        params_fail(params, error, "processors", "%s", why);
        g_free(why);
        return NULL;
    }
    if (!procgrid_init(&c->grid, mach, nr, nc, &why)) {
        params_fail(params, error, "processors", "%s", why);
        g_free(why);
        return NULL;
    }
    c->nr = nr, c->nc = nc;
    c->cube = topology_has(&mach->topology, TOPOLOGY_DIMENSIONS);
    c->rbits = bits_log2_floor(nr);
    c->cbits = bits_log2_floor(nc);
    c->home = c->grid;
    c->hr = nr, c->hc = nc;
    if (c->c_default && (hr != nr || hc != nc)) {
        if (!procgrid_init(&c->home, mach, hr, hc, &why)) {
            params_fail(params, error, "c-home", "C's default array: %s",
                        why);
            g_free(why);
            return NULL;
        }
        c->hr = hr, c->hc = hc;
        c->reconfigure = TRUE;
    }
    if (!shape_fits(c->stationary, pqr, nr, nc))
        return params_fail(params, error, "shape", "%s on a %ux%u array: "
                           "%s (Section 1)", params_text(params, "shape"),
                           nr, nc, shape_needs(c->stationary));

    c->alpha = ceil_div(c->p, nr);
    c->gamma = ceil_div(c->r, nc);
    c->qa = ceil_div(c->q, nc);
    c->qb = ceil_div(c->q, nr);
    c->l = MAX(nr, nc);                       /* lcm of powers of two */
    c->a_slots = c->l / nc;
    c->b_slots = c->l / nr;
    c->bv = ceil_div(c->q, c->l);
    c->h[0] = (c->bv + 1) / 2;
    c->h[1] = c->bv / 2;
    c->qpad = c->l * c->bv;
    c->beta_a = c->qpad / nc;
    c->beta_b = c->qpad / nr;

    if (c->stationary == MATMUL_C) {
        c->region_a = c->alpha * c->beta_a;
        c->region_b = c->beta_b * c->gamma;
    } else {
        /* A and B stay home. */
        c->region_a = c->alpha * c->qa;
        c->region_b = c->qb * c->gamma;
    }
    c->halpha = ceil_div(c->p, c->hr);
    c->hgamma = ceil_div(c->r, c->hc);
    size_t chome = c->halpha * c->hgamma;
    c->off_a = chome;
    c->off_b = c->off_a + c->region_a;
    c->k = c->off_b + c->region_b;
    c->off_c = c->reconfigure ? c->k : 0;
    c->off_send = c->reconfigure ? c->off_c + c->alpha * c->gamma : c->k;
    size_t memory = 0;
    if (c->stationary == MATMUL_C) {
        /* The send and receive buffers serve the alignment and then the
         * reconfiguration. */
        size_t ab = c->region_a + c->region_b;
        c->off_recv = c->off_send
                      + MAX(ab, c->reconfigure ? c->alpha * c->gamma : 0);
        memory = c->off_recv + MAX(ab, c->reconfigure ? chome : 0);
    } else {
        gboolean a = c->stationary == MATMUL_A;
        uint64_t free_ext = a ? c->r : c->p;
        c->block = block != PARAM_AUTO ? (uint64_t)block
                   : a ? MIN(c->r, 64) : MIN(c->p, 32);
        if (c->nonsystolic) {
            /* nonsystolic.c: X and the sums of a whole block on every
             * node, no padding. */
            c->block = MIN(c->block, free_ext);
            size_t xsz = (a ? c->qa : c->qb) * c->block;
            size_t accsz = (a ? c->alpha : c->gamma) * c->block;
            c->bpad = c->block;
            c->nblocks = ceil_div(free_ext, c->block);
            c->off_recv = c->off_send + MAX(MAX(c->region_a, c->region_b),
                                            accsz);
            c->off_x = c->off_recv + xsz;
            c->off_acc = c->off_x + xsz;
            c->off_rbuf = c->off_acc + accsz;
            c->off_cbuf = c->off_rbuf + accsz;
            memory = c->off_cbuf + c->alpha * c->gamma;
        } else {
            c->nbc = a ? nr : nc;
            c->nred = a ? nc : nr;
            c->bpad = ceil_div(c->block, c->l) * c->l;
            c->nblocks = ceil_div(free_ext, c->block);
            c->pb = c->bpad / c->nbc;
            c->rb = c->bpad / c->nred;
            size_t xsz = (a ? c->qa : c->qb) * c->pb;
            size_t accsz = (a ? c->alpha : c->gamma) * c->bpad;
            size_t sendsz = MAX(MAX(c->region_a, c->region_b), accsz);
            c->off_recv = c->off_send + sendsz;
            c->off_x = c->off_recv + xsz;
            c->off_acc = c->off_x + xsz;
            c->off_rbuf = c->off_acc + accsz;
            c->off_cbuf = c->off_rbuf + accsz / c->nred;
            memory = c->off_cbuf + c->alpha * c->gamma;
        }
    }

    const char *verify = params_text(params, "verify");
    if (!strcmp(verify, "full")) {
        c->sample = FALSE;
    } else if (!strcmp(verify, "auto")) {
        c->sample = c->p * c->r > MATMUL_FULL_VERIFY;
        c->samples = MATMUL_DEFAULT_SAMPLES;
    } else if (g_str_has_prefix(verify, "sample:")) {
        char *end;
        const char *n = verify + strlen("sample:");
        unsigned long long k = strtoull(n, &end, 10);
        if (*n < '0' || *n > '9' || *end || k == 0 || k > (1ULL << 32))
            return params_fail(params, error, "verify", "'%s': sample:K "
                               "needs K between 1 and 2^32", verify);
        c->sample = TRUE;
        c->samples = k;
    } else {
        return params_fail(params, error, "verify", "'%s' (valid: full, "
                           "sample:K, auto)", verify);
    }

    uint64_t shape[3] = { c->alpha, c->bv, c->gamma };
    c->kernel_ticks = kernel_ticks(mach, "matvec", shape,
                                   (c->is_complex ? 8 : 2) * c->alpha * c->bv
                                       * c->gamma);
    c->predicted = mach->ports == MACHINE_PORTS_ALL
                   || mach->ports >= machine_node_links(mach);
    c->shift_ticks = predict_shifts(mach, c);

    layout->memory_elements = memory;
    layout->elements_per_node = c->k;
    layout->element = c->is_complex ? ELEMENT_COMPLEX : ELEMENT_DOUBLE;
    layout->computed_elements = chome;
    layout->sample = c->sample ? c->samples : 0;
    layout->sample_seed = c->seed ^ 0x5eed5eedULL;
    return g_steal_pointer(&c);
}

static void matmul_release(void *config)
{
    g_free(config);
}

static void put(Word *dst, double re, double im, gboolean cplx)
{
    memcpy(dst, &re, sizeof re);
    if (cplx)
        memcpy(dst + 1, &im, sizeof im);
}

static void matmul_init(const void *config, uint32_t address, Word *memory)
{
    const MatmulConfig *c = config;
    size_t w = matmul_words(c);
    uint32_t l, m;
    procgrid_coords(&c->grid, address, &l, &m);
    /* Zero doubles are all-zero words, and memory starts zeroed. */
    for (uint64_t k = m * c->qa; k < MIN((m + 1) * c->qa, c->q); k++)
        for (uint64_t i = l * c->alpha; i < MIN((l + 1) * c->alpha, c->p); i++)
            put(memory + matmul_home(c, OPERAND_A, i, k).offset * w,
                matmul_value(c, OPERAND_A, i, k, 0),
                matmul_value(c, OPERAND_A, i, k, 1), c->is_complex);
    for (uint64_t j = m * c->gamma; j < MIN((m + 1) * c->gamma, c->r); j++)
        for (uint64_t k = l * c->qb; k < MIN((l + 1) * c->qb, c->q); k++)
            put(memory + matmul_home(c, OPERAND_B, k, j).offset * w,
                matmul_value(c, OPERAND_B, k, j, 0),
                matmul_value(c, OPERAND_B, k, j, 1), c->is_complex);
}

/* C(i, j) by its own dot product over the values (not the node program's
 * layouts): exact, the values being small integers. */
static void reference_element(const MatmulConfig *c, uint64_t i, uint64_t j,
                              double out[2])
{
    double re = 0, im = 0;
    for (uint64_t k = 0; k < c->q; k++) {
        double ar = matmul_value(c, OPERAND_A, i, k, 0);
        double br = matmul_value(c, OPERAND_B, k, j, 0);
        if (!c->is_complex) {
            re += ar * br;
            continue;
        }
        double ai = matmul_value(c, OPERAND_A, i, k, 1);
        double bi = matmul_value(c, OPERAND_B, k, j, 1);
        re += ar * br - ai * bi;
        im += ar * bi + ai * br;
    }
    out[0] = re;
    out[1] = im;
}

/* C's home block (l, m) on C's home array, every element: rows of A and
 * columns of B generated once, then plain dot products. */
static void reference_block(const MatmulConfig *c, uint32_t l, uint32_t m,
                            Word *out)
{
    size_t w = matmul_words(c);
    size_t q = (size_t)c->q;
    g_autofree double *a = g_new(double, q * w);
    g_autofree double *b = g_new0(double, (size_t)c->hgamma * q * w);
    for (uint64_t nu = 0; nu < c->hgamma; nu++) {
        uint64_t j = m * c->hgamma + nu;
        for (uint64_t k = 0; j < c->r && k < c->q; k++)
            for (size_t part = 0; part < w; part++)
                b[(nu * q + k) * w + part] =
                    matmul_value(c, OPERAND_B, k, j, (int)part);
    }
    for (uint64_t phi = 0; phi < c->halpha; phi++) {
        uint64_t i = l * c->halpha + phi;
        if (i >= c->p)
            break;                            /* padding rows stay zero */
        for (uint64_t k = 0; k < c->q; k++)
            for (size_t part = 0; part < w; part++)
                a[k * w + part] = matmul_value(c, OPERAND_A, i, k, (int)part);
        for (uint64_t nu = 0; nu < c->hgamma; nu++) {
            const double *bc = b + nu * q * w;
            double re = 0, im = 0;
            for (uint64_t k = 0; k < c->q; k++) {
                if (w == 1) {
                    re += a[k] * bc[k];
                } else {
                    re += a[2 * k] * bc[2 * k] - a[2 * k + 1] * bc[2 * k + 1];
                    im += a[2 * k] * bc[2 * k + 1] + a[2 * k + 1] * bc[2 * k];
                }
            }
            put(out + (nu * c->halpha + phi) * w, re, im, c->is_complex);
        }
    }
}

/* Where A and B end: after N_c - 1 shifts set 0 of A holds what (l, m - 1)
 * held after the alignment and set 1 what (l, m + 1) held; B likewise
 * along the column. */
static void expect_operand(const MatmulConfig *c, MatmulOperand op,
                           uint32_t l, uint32_t m, Word *expected)
{
    size_t w = matmul_words(c);
    uint64_t slots = op == OPERAND_A ? c->a_slots : c->b_slots;
    uint64_t other = op == OPERAND_A ? c->alpha : c->gamma;
    uint64_t shifts = (op == OPERAND_A ? c->nc : c->nr) - 1;
    size_t base = op == OPERAND_A ? c->off_a : c->off_b;
    size_t size = op == OPERAND_A ? c->region_a : c->region_b;
    uint64_t set0 = slots * other * c->h[0];
    ProcGridAxis axis = op == OPERAND_A ? PROCGRID_COLS : PROCGRID_ROWS;
    for (size_t off = 0; off < size; off++) {
        int d = off >= set0;
        /* Set 0 moved `shifts` times towards lower indices: its content
         * comes from `shifts` steps higher, i.e. one step lower. */
        uint32_t sl = l, sm = m;
        uint32_t n = axis == PROCGRID_COLS ? c->nc : c->nr;
        uint32_t back = (uint32_t)(shifts % n);
        uint32_t step = d == 0 ? back : (n - back) % n;
        if (axis == PROCGRID_COLS)
            sm = (m + step) % n;
        else
            sl = (l + step) % n;
        uint64_t row, col;
        Word *dst = expected + (base + off) * w;
        if (matmul_work_element(c, op, sl, sm, off, &row, &col))
            put(dst, matmul_value(c, op, row, col, 0),
                matmul_value(c, op, row, col, 1), c->is_complex);
        else
            memset(dst, 0, w * sizeof(Word));
    }
}

/* With A or B stationary both operands end where they started. */
static void expect_home(const MatmulConfig *c, MatmulOperand op, uint32_t l,
                        uint32_t m, Word *expected)
{
    size_t w = matmul_words(c);
    uint64_t rows = op == OPERAND_A ? c->alpha : c->qb;
    uint64_t cols = op == OPERAND_A ? c->qa : c->gamma;
    uint64_t pr = op == OPERAND_A ? c->p : c->q;
    uint64_t pc = op == OPERAND_A ? c->q : c->r;
    size_t base = op == OPERAND_A ? c->off_a : c->off_b;
    for (uint64_t jj = 0; jj < cols; jj++)
        for (uint64_t ii = 0; ii < rows; ii++) {
            uint64_t row = l * rows + ii, col = m * cols + jj;
            Word *dst = expected + (base + jj * rows + ii) * w;
            if (row < pr && col < pc)
                put(dst, matmul_value(c, op, row, col, 0),
                    matmul_value(c, op, row, col, 1), c->is_complex);
            else
                memset(dst, 0, w * sizeof(Word));
        }
}

static void matmul_expect(const void *config, uint32_t address,
                          Word *expected)
{
    const MatmulConfig *c = config;
    uint32_t l, m;
    procgrid_coords(&c->grid, address, &l, &m);
    memset(expected, 0, c->k * matmul_words(c) * sizeof(Word));
    uint32_t hl, hm;
    procgrid_coords(&c->home, address, &hl, &hm);
    if (!c->sample)
        reference_block(c, hl, hm, expected);
    if (c->stationary == MATMUL_C) {
        expect_operand(c, OPERAND_A, l, m, expected);
        expect_operand(c, OPERAND_B, l, m, expected);
    } else {
        expect_home(c, OPERAND_A, l, m, expected);
        expect_home(c, OPERAND_B, l, m, expected);
    }
}

static void matmul_expect_element(const void *config, uint32_t address,
                                  size_t offset, Word *expected)
{
    const MatmulConfig *c = config;
    uint32_t l, m;
    procgrid_coords(&c->home, address, &l, &m);
    uint64_t i = l * c->halpha + offset % c->halpha;
    uint64_t j = m * c->hgamma + offset / c->halpha;
    double v[2] = { 0, 0 };
    if (i < c->p && j < c->r)
        reference_element(c, i, j, v);
    put(expected, v[0], v[1], c->is_complex);
}

static NodeStatus matmul_step(Node *node, const void *config)
{
    const MatmulConfig *c = config;
    if (c->stationary == MATMUL_C)
        return matmul_systolic_step(node, c);
    if (c->nonsystolic)
        return matmul_nonsystolic_step(node, c);
    return matmul_stationary_step(node, c);
}

static void report_verify(const MatmulConfig *c, Report *r);

/* flops, verify, and with tick-seconds the seconds per phase and Mflop/s:
 * what every stationary choice reports alike. */
static void report_timing(const MatmulConfig *c, Report *r, Tick align,
                          Tick local, Tick shifts, Tick reconfigure)
{
    double flops = (c->is_complex ? 8.0 : 2.0) * (double)c->p * (double)c->q
                   * (double)c->r;
    report_detail_double(r, "flops", flops);
    report_verify(c, r);
    double ts = r->machine.tick_seconds;
    if (ts <= 0)
        return;
    static const char *const names[] = { "alignment", "local", "shifts",
                                         "total", NULL };
    /* With c-home = default, also the reconfiguration (0 when C's home
     * array is the shared one). */
    static const char *const names_c[] = { "alignment", "local", "shifts",
                                           "reconfigure", "total", NULL };
    double total = (double)r->cycles * ts;
    if (c->c_default) {
        double secs[5] = { (double)align * ts, (double)local * ts,
                           (double)shifts * ts, (double)reconfigure * ts,
                           total };
        report_detail_object(r, "seconds", names_c, secs);
    } else {
        double secs[4] = { (double)align * ts, (double)local * ts,
                           (double)shifts * ts, total };
        report_detail_object(r, "seconds", names, secs);
    }
    report_detail_double(r, "mflops", flops / total / 1e6);
}

/* Overlaps of two partitions of [0, n) into consecutive blocks, of a
 * (na blocks) and of b (nb blocks): pairs (i, j) with their length > 0.
 * At most na + nb. */
typedef struct {
    uint32_t i, j;
    uint64_t len;
} MatmulOverlap;

static size_t block_overlaps(uint64_t n, uint64_t a, uint32_t na, uint64_t b,
                             uint32_t nb, MatmulOverlap *out)
{
    size_t k = 0;
    for (uint32_t i = 0; i < na; i++) {
        uint64_t lo = (uint64_t)i * a, hi = MIN(lo + a, n);
        for (uint32_t j = (uint32_t)(lo / b); lo < hi && j < nb; j++) {
            uint64_t l2 = MAX(lo, (uint64_t)j * b);
            uint64_t h2 = MIN(hi, MIN((uint64_t)(j + 1) * b, n));
            if (l2 >= hi)
                break;
            if (l2 < h2)
                out[k++] = (MatmulOverlap){ i, j, h2 - l2 };
        }
    }
    return k;
}

/* The reconfiguration's router messages and elements, from the two block
 * layouts alone: a message for every pair of a block on the shared array
 * and one on C's home array that share an element and lie on different
 * nodes (a node's own elements are copied locally). */
static void reconfigure_counts(const MatmulConfig *c, uint64_t *messages,
                               uint64_t *elements)
{
    *messages = *elements = 0;
    if (!c->reconfigure)
        return;
    g_autofree MatmulOverlap *ro = g_new(MatmulOverlap, c->nr + c->hr);
    g_autofree MatmulOverlap *co = g_new(MatmulOverlap, c->nc + c->hc);
    size_t nro = block_overlaps(c->p, c->alpha, c->nr, c->halpha, c->hr, ro);
    size_t nco = block_overlaps(c->r, c->gamma, c->nc, c->hgamma, c->hc, co);
    for (size_t x = 0; x < nro; x++)
        for (size_t y = 0; y < nco; y++) {
            uint32_t src = procgrid_node(&c->grid, ro[x].i, co[y].i);
            uint32_t dst = procgrid_node(&c->home, ro[x].j, co[y].j);
            if (src == dst)
                continue;
            (*messages)++;
            *elements += ro[x].len * co[y].len;
        }
}

/* The alignment's router messages: one per (source, destination, operand)
 * with an element, a node's message to itself included (a local copy, which
 * the engine counts with the router's messages). */
static uint64_t alignment_messages(const MatmulConfig *c)
{
    uint32_t nodes = c->nr * c->nc, stamp = 0;
    g_autofree uint32_t *seen = g_new0(uint32_t, nodes);
    uint64_t count = 0;
    for (MatmulOperand op = OPERAND_A; op <= OPERAND_B; op++) {
        uint64_t rows = op == OPERAND_A ? c->alpha : c->qb;
        uint64_t cols = op == OPERAND_A ? c->qa : c->gamma;
        uint64_t pr = op == OPERAND_A ? c->p : c->q;
        uint64_t pc = op == OPERAND_A ? c->q : c->r;
        for (uint32_t l = 0; l < c->nr; l++)
            for (uint32_t m = 0; m < c->nc; m++) {
                stamp++;
                for (uint64_t j = m * cols; j < MIN((m + 1) * cols, pc); j++)
                    for (uint64_t i = l * rows; i < MIN((l + 1) * rows, pr);
                         i++) {
                        uint32_t d = matmul_work(c, op, i, j).node;
                        if (seen[d] != stamp) {
                            seen[d] = stamp;
                            count++;
                        }
                    }
            }
    }
    return count;
}

static void report_verify(const MatmulConfig *c, Report *r)
{
    char text[64];
    if (c->sample) {
        g_snprintf(text, sizeof text, "sample:%" G_GUINT64_FORMAT, c->samples);
        report_detail_text(r, "verify", text);
    } else {
        report_detail_text(r, "verify", "full");
    }
}

/* A or B stationary (stationary.c): every shift of the broadcast and of
 * the reduction is one neighbour message of a fixed size, and nothing else
 * goes to a neighbour (the alignments use the router). */
/* Method cmssl with A or B stationary (nonsystolic.c): the alignments and
 * stores go through the router, the spreads and reductions down the
 * trees; both counted from the layouts and the trees' definition. */
static void report_nonsystolic(const MatmulConfig *c, Report *r)
{
    gboolean a = c->stationary == MATMUL_A;
    report_detail_text(r, "stationary", a ? "A" : "B");
    report_detail_text(r, "schedule", "nonsystolic");
    report_detail_int(r, "block", (long long)c->block);
    report_detail_int(r, "blocks", (long long)c->nblocks);
    report_detail_int(r, "spread_steps", a ? c->rbits : c->cbits);
    report_detail_int(r, "reduce_steps", a ? c->cbits : c->rbits);
    const SimPhase *align = &r->phase[MATMUL_PHASE_ALIGN];
    Tick align_cycles = align->time_max;
    Tick mult_cycles = r->cycles - align_cycles;
    Tick local_cycles = r->phase[MATMUL_PHASE_MULTIPLY].compute_max;
    report_detail_int(r, "alignment_cycles", align_cycles);
    report_detail_int(r, "multiply_cycles", mult_cycles);
    report_detail_int(r, "local_cycles", local_cycles);
    /* The rest of the multiplication: the spreads, reductions, the other
     * blocks' alignments and the stores (and waiting for them). */
    report_detail_int(r, "communication_cycles", mult_cycles - local_cycles);
    report_timing(c, r, align_cycles, local_cycles, mult_cycles - local_cycles,
                  0);
    uint64_t msgs[CLASS_COUNT] = { 0 }, elems[CLASS_COUNT] = { 0 };
    uint64_t rm, re;
    matmul_nonsystolic_router(c, &rm, &re);
    msgs[CLASS_ROUTER] += rm;
    elems[CLASS_ROUTER] += re;
    matmul_nonsystolic_trees(c, msgs, elems);
    for (int cl = 0; cl < CLASS_COUNT; cl++) {
        if (!topology_has_class(r->machine.topology.ops, cl))
            continue;
        g_autofree char *nm = g_strdup_printf("per_class.%s.messages",
                                              message_class_name(cl));
        g_autofree char *ne = g_strdup_printf("per_class.%s.elements",
                                              message_class_name(cl));
        report_bound(r, nm, nm, BOUND_EXACT, (double)msgs[cl],
                     "Sections 3 and 4.1: an alignment or store message per "
                     "pair of nodes whose blocks overlap; a tree 2^s - 1 per "
                     "line (cube: per part)");
        report_bound(r, ne, ne, BOUND_EXACT, (double)elems[cl],
                     "Sections 3 and 4.1: the overlaps; a tree the segment "
                     "per line and node");
    }
    if (c->cube)
        report_bound(r, "per_class.neighbour.element_transfers",
                     "every tree step is one hop", BOUND_EXACT,
                     (double)r->class_elements[CLASS_NEIGHBOUR],
                     "Johnsson & Ho's rotated binomial trees (Gray code per "
                     "axis)");
}

static void report_stationary(const MatmulConfig *c, Report *r)
{
    if (c->nonsystolic) {
        report_nonsystolic(c, r);
        return;
    }
    gboolean a = c->stationary == MATMUL_A;
    double nodes = (double)c->nr * (double)c->nc;
    report_detail_text(r, "stationary", a ? "A" : "B");
    report_detail_int(r, "block", (long long)c->block);
    report_detail_int(r, "block_padded", (long long)c->bpad);
    report_detail_int(r, "blocks", (long long)c->nblocks);
    uint64_t sb = (c->nbc - 1) * c->nblocks, sr = (c->nred - 1) * c->nblocks;
    report_detail_int(r, "shifts_broadcast", (long long)sb);
    report_detail_int(r, "shifts_reduce", (long long)sr);
    uint64_t xpiece = (a ? c->qa : c->qb) * c->pb;
    uint64_t rpart = (a ? c->alpha : c->gamma) * c->rb;
    report_detail_int(r, "broadcast_piece", (long long)xpiece);
    report_detail_int(r, "reduce_part", (long long)rpart);
    const SimPhase *align = &r->phase[MATMUL_PHASE_ALIGN];
    Tick align_cycles = align->time_max;
    report_detail_int(r, "alignment_cycles", align_cycles);
    Tick mult_cycles = r->cycles - align_cycles;
    Tick local_cycles = r->phase[MATMUL_PHASE_MULTIPLY].compute_max;
    report_detail_int(r, "multiply_cycles", mult_cycles);
    report_detail_int(r, "local_cycles", local_cycles);
    /* The rest of the multiplication: shifts, the other blocks'
     * alignments and stores (and waiting for them). */
    report_detail_int(r, "communication_cycles", mult_cycles - local_cycles);
    /* "shifts" in seconds is all the multiplication phase's communication
     * here (communication_cycles). */
    report_timing(c, r, align_cycles, local_cycles, mult_cycles - local_cycles,
                  0);
    const char *src = "Mathur & Johnsson, Section 4.1";
    report_bound(r, "per_class.neighbour.messages",
                 "neighbour messages = N blocks (shifts per block)",
                 BOUND_EXACT, nodes * (double)(sb + sr), src);
    report_bound(r, "per_class.neighbour.elements",
                 "neighbour elements = N (broadcast + reduce shifts x size)",
                 BOUND_EXACT, nodes * ((double)sb * (double)xpiece
                                       + (double)sr * (double)rpart), src);
    report_bound(r, "per_class.neighbour.element_transfers",
                 "every cyclic shift is one hop", BOUND_EXACT,
                 (double)r->class_elements[CLASS_NEIGHBOUR],
                 "Section 4.2.1 (Gray code per axis)");
}

static void matmul_report(const void *config, Report *r)
{
    const MatmulConfig *c = config;
    uint32_t nodes = c->nr * c->nc;
    char text[64];
    g_snprintf(text, sizeof text, "%ux%u", c->nr, c->nc);
    report_detail_text(r, "processors", text);
    if (c->stationary != MATMUL_C) {
        report_stationary(c, r);
        return;
    }
    report_detail_text(r, "stationary", "C");
    uint64_t shifts_a = c->nc - 1, shifts_b = c->nr - 1;
    uint64_t moved_a = c->alpha * c->beta_a * shifts_a;
    uint64_t moved_b = c->beta_b * c->gamma * shifts_b;
    report_detail_int(r, "shifts_a", (long long)shifts_a);
    report_detail_int(r, "shifts_b", (long long)shifts_b);
    report_detail_int(r, "elements_moved_a", (long long)moved_a);
    report_detail_int(r, "elements_moved_b", (long long)moved_b);
    report_detail_int(r, "virtual_blocks", (long long)c->l);
    report_detail_int(r, "inner_padded", (long long)c->qpad);
    /* The CM-200 runs the phases in lockstep; here a node whose alignment
     * was local starts multiplying early and waits at its first shift. So
     * the alignment is measured to the last node's end of it (every node
     * starts at 0), and the multiplication is the rest of the run: its
     * local work is every node's (they are equal), its shifts the rest. */
    const SimPhase *align = &r->phase[MATMUL_PHASE_ALIGN];
    const SimPhase *mult = &r->phase[MATMUL_PHASE_MULTIPLY];
    /* The reconfiguration (c-home = default) is the last phase: every
     * node enters it after its last multiply, and, as on the SIMD CM-200,
     * it starts when the last node has finished multiplying. */
    const SimPhase *reconf = &r->phase[MATMUL_PHASE_RECONFIGURE];
    Tick reconf_cycles = reconf->nodes ? r->cycles - reconf->enter_max : 0;
    Tick align_cycles = align->time_max;
    Tick mult_cycles = r->cycles - align_cycles - reconf_cycles;
    Tick local_cycles = mult->compute_max;
    Tick shift_cycles = mult_cycles - local_cycles;
    report_detail_int(r, "alignment_cycles", align_cycles);
    report_detail_int(r, "multiply_cycles", mult_cycles);
    report_detail_int(r, "local_cycles", local_cycles);
    report_detail_int(r, "shift_cycles", shift_cycles);
    uint64_t reconf_msgs = 0, reconf_elems = 0;
    if (c->c_default) {
        g_snprintf(text, sizeof text, "%ux%u", c->hr, c->hc);
        report_detail_text(r, "c_home", "default");
        report_detail_text(r, "c_home_processors", text);
        reconfigure_counts(c, &reconf_msgs, &reconf_elems);
        report_detail_int(r, "reconfigure_messages", (long long)reconf_msgs);
        report_detail_int(r, "reconfigure_elements", (long long)reconf_elems);
        report_detail_int(r, "reconfigure_cycles", reconf_cycles);
    }
    report_timing(c, r, align_cycles, local_cycles, shift_cycles,
                  reconf_cycles);

    const char *src = "Mathur & Johnsson, Section 4.3";
    report_bound(r, "per_class.neighbour.elements",
                 "neighbour elements = N (moved_a + moved_b)", BOUND_EXACT,
                 (double)nodes * (double)(moved_a + moved_b), src);
    report_bound(r, "per_class.neighbour.element_transfers",
                 "every cyclic shift is one hop", BOUND_EXACT,
                 (double)r->class_elements[CLASS_NEIGHBOUR],
                 "Section 4.2.1 (Gray code per axis)");
    int sets = c->h[1] ? 2 : 1;
    report_bound(r, "per_class.neighbour.messages",
                 "neighbour messages = N sets (N_c - 1 + N_r - 1)",
                 BOUND_EXACT, (double)nodes * sets * (double)(shifts_a + shifts_b),
                 "Remarks 2 and 6 (two halves per operand)");
    report_bound(r, "details.local_cycles",
                 "local work = L multiplies of rank bv", BOUND_EXACT,
                 (double)(c->kernel_ticks * (Tick)c->l),
                 "Appendix, Algorithm AM");
    if (c->c_default
        && topology_has_class(c->grid.topology.ops, CLASS_ROUTER)) {
        /* The router carries the alignment (every element of A and B) and
         * the reconfiguration, nothing else. */
        const char *rsrc = "Section 5 (one extra route operation to "
                           "reconfigure the product matrix)";
        report_bound(r, "per_class.router.messages",
                     "router messages = alignment pairs + reconfiguration "
                     "pairs (from the layouts)", BOUND_EXACT,
                     (double)(alignment_messages(c) + reconf_msgs), rsrc);
        report_bound(r, "per_class.router.elements",
                     "router elements = P Q + Q R + the product's elements "
                     "that change node", BOUND_EXACT,
                     (double)c->p * (double)c->q + (double)c->q * (double)c->r
                         + (double)reconf_elems, rsrc);
    }
    /* With memory paths a node's four streams share its path, and a node
     * whose alignment ended early starts its shifts early: the channels
     * alone no longer predict the steps (machines/cm200-timing.md). */
    if (c->predicted)
        report_class_time_bound(r, CLASS_NEIGHBOUR, "details.shift_cycles",
                                "shift ticks = sum over steps of the "
                                "slowest channel", BOUND_EXACT,
                                (double)c->shift_ticks,
                                "Remarks 2 and 6 (halves in opposite "
                                "directions, A and B at once)");
}

const Algorithm algorithm_matmul = {
    .name = "matmul",
    .summary = "matrix multiplication C = A B on a processor array "
               "(systolic, C stationary; A or B stationary by level-2 "
               "blocks)",
    .source = "Mathur & Johnsson 1992, Section 4",
    .needs = TOPOLOGY_DIMENSIONS | TOPOLOGY_AXES,
    .methods = matmul_methods,
    .params = matmul_params,
    .phases = matmul_phases,
    .prepare = matmul_prepare,
    .release = matmul_release,
    .init = matmul_init,
    .step = matmul_step,
    .expect = matmul_expect,
    .expect_element = matmul_expect_element,
    .report = matmul_report,
};
