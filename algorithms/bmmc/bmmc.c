/* bmmc.c -- factoring and performing BMMC permutations (Cormen 1997).
 *
 * Invariant of a BmmcPlan, established once by bmmc_plan_new and never
 * changed (so one plan may drive any number of runs, Section 7):
 *   adjusted = Q a Q^-1 and c_pm = Q c (Section 6);
 *   adjusted = v w, w = (t r pi)^-1, v = adjusted t r pi (Section 4);
 *   t, r, pi have the trailer, reducer and swapper forms of Section 3, so
 *   the bottom p rows of w are [0 | I] (phase 1 never leaves a processor);
 *   v has form (3): its bottom-left p x (m - rank_gamma) block is 0, the
 *   next p x rank_gamma block (gamma2) has full column rank, and the
 *   bottom-right p x p block (delta) is nonsingular;
 *   the blocks alpha1, alpha2, beta, gamma2, delta, delta_inv, w_left,
 *   w_right are cut from v and w and only used to perform, and the byte
 *   tables of six of them are built from those blocks, so a lookup gives
 *   the block's product exactly.
 * Here m = n - p is the number of offset bits. Every run derives its
 * processor numbers from these blocks alone, as a processor of the
 * distributed program would.
 */
#include "bmmc.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

struct BmmcPlan {
    int n, p, f;
    int m;                /* n - p */
    int rank_gamma;
    Gf2Matrix a;          /* as given */
    uint64_t c;
    Gf2Matrix q;
    Gf2Matrix adjusted;   /* Q A Q^-1 */
    uint64_t c_pm;        /* Q c */
    Gf2Matrix gamma;
    Gf2Matrix t, r, pi, v, w;
    Gf2Matrix alpha1;     /* V rows 0..m-1, cols 0..m-r-1:   alpha-hat'  */
    Gf2Matrix alpha2;     /* V rows 0..m-1, cols m-r..m-1:   alpha-hat'' */
    Gf2Matrix beta;       /* V rows 0..m-1, cols m..n-1:     beta-hat    */
    Gf2Matrix gamma2;     /* V rows m..n-1, cols m-r..m-1:   gamma-hat'' */
    Gf2Matrix delta;      /* V rows m..n-1, cols m..n-1:     delta-hat   */
    Gf2Matrix delta_inv;
    Gf2Matrix w_left;     /* W rows 0..m-1, cols 0..m-1:     W'  */
    Gf2Matrix w_right;    /* W rows 0..m-1, cols m..n-1:     W'' */
    uint64_t c_lo;        /* c_{0..n-p-1} */
    uint64_t c_hi;        /* c_{n-p..n-1} */
    /* Byte tables (gf2.h) of the blocks every round or every node applies
     * to a processor number or a round number, built once from the blocks
     * above, so each product costs a lookup per byte. */
    Gf2Table gamma2_tab, delta_tab, delta_inv_tab, alpha2_tab, beta_tab,
             w_right_tab;
};

const char *bmmc_strerror(int code)
{
    switch (code) {
    case 0: return "success";
    case BMMC_EINVAL: return "invalid argument: NULL array or result pointer";
    case BMMC_EN: return "n (lg of the number of elements) must be between 0 and 64";
    case BMMC_EP: return "p (lg of the number of processors) must be between 0 and n";
    case BMMC_ELAYOUT: return "layout f (position of the lowest processor bit) must be between 0 and n - p";
    case BMMC_EMATRIX: return "characteristic matrix has a 1 in a row at or above n";
    case BMMC_ECOMPLEMENT: return "complement vector has a 1 at a position at or above n";
    case BMMC_ESINGULAR: return "characteristic matrix is singular over GF(2)";
    case BMMC_ENOMEM: return "out of memory";
    case BMMC_ELOCAL: return "too many elements to perform in one address space (n > BMMC_LOCAL_MAX_N)";
    case BMMC_EINTERNAL: return "internal error: the rounds of the factored permutation disagree";
    default: return "unknown error";
    }
}

/* ---- (A, c) pairs ---- */

uint64_t bmmc_target_index(int n, const uint64_t *A, uint64_t c, uint64_t x)
{
    /* XOR of the columns A_j with x_j = 1, j < n, visiting only the 1s. */
    uint64_t y = 0;
    for (x &= gf2_mask(n); x != 0; x &= x - 1)
        y ^= A[__builtin_ctzll(x)];
    return y ^ c;
}

static void bmmc_load(Gf2Matrix *m, int n, const uint64_t *A)
{
    gf2_zero(m, n, n);
    for (int j = 0; j < n; j++)
        m->col[j] = A[j] & gf2_mask(n);
}

int bmmc_compose(int n, const uint64_t *A1, uint64_t c1,
                 const uint64_t *A2, uint64_t c2,
                 uint64_t *A_out, uint64_t *c_out)
{
    if (n < 0 || n > BMMC_MAX_N)
        return BMMC_EN;
    if (A1 == NULL || A2 == NULL || A_out == NULL || c_out == NULL)
        return BMMC_EINVAL;
    Gf2Matrix a1, a2, prod;
    bmmc_load(&a1, n, A1);
    bmmc_load(&a2, n, A2);
    gf2_mul(&prod, &a2, &a1);
    uint64_t c = gf2_mul_vec(&a2, c1) ^ c2;
    memcpy(A_out, prod.col, (size_t)n * sizeof *A_out);
    *c_out = c;
    return 0;
}

int bmmc_inverse(int n, const uint64_t *A, uint64_t c,
                 uint64_t *A_out, uint64_t *c_out)
{
    if (n < 0 || n > BMMC_MAX_N)
        return BMMC_EN;
    if (A == NULL || A_out == NULL || c_out == NULL)
        return BMMC_EINVAL;
    Gf2Matrix a, inv;
    bmmc_load(&a, n, A);
    if (!gf2_inverse(&inv, &a))
        return BMMC_ESINGULAR;
    uint64_t ci = gf2_mul_vec(&inv, c);
    memcpy(A_out, inv.col, (size_t)n * sizeof *A_out);
    *c_out = ci;
    return 0;
}

/* ---- Layouts (Section 6) ---- */

static int bmmc_check_sizes(int n, int p, int f)
{
    if (n < 0 || n > BMMC_MAX_N)
        return BMMC_EN;
    if (p < 0 || p > n)
        return BMMC_EP;
    if (f < 0 || f > n - p)
        return BMMC_ELAYOUT;
    return 0;
}

int bmmc_layout_matrix(int n, int p, int f, Gf2Matrix *Q)
{
    int err = bmmc_check_sizes(n, p, f);
    if (err < 0)
        return err;
    if (Q == NULL)
        return BMMC_EINVAL;
    /* Column blocks f, p, n-p-f of the index go to row blocks f, (top p),
     * n-p-f (the block form of Q in Section 6). */
    gf2_zero(Q, n, n);
    for (int j = 0; j < n; j++) {
        int row;
        if (j < f)
            row = j;
        else if (j < f + p)
            row = n - p + (j - f);
        else
            row = j - p;
        Q->col[j] = UINT64_C(1) << row;
    }
    return 0;
}


/* ---- Gray-code order (Appendix B) ---- */

/* flips[j] = position of the rightmost 1 of j, for j = 1..15. */
static const signed char bmmc_flips[16] = {
    -1, 0, 1, 0, 2, 0, 1, 0, 3, 0, 1, 0, 2, 0, 1, 0
};

int bmmc_gray_flip_bit(uint64_t q)
{
    if (q == 0)
        return -1;
    /* Appendix B, lines 1-8: a nibble at a time; the loop body runs one
     * time in 16. */
    int i = 0;
    unsigned nibble = (unsigned)(q & 0xf);
    while (nibble == 0) {
        q >>= 4;
        i += 4;
        nibble = (unsigned)(q & 0xf);
    }
    return i + bmmc_flips[nibble];
}

void bmmc_gray_first(BmmcGray *g, int bits)
{
    g->offset = 0;
    g->step = 0;
    g->last = gf2_mask(bits);
    g->flip = -1;
}

bool bmmc_gray_next(BmmcGray *g)
{
    if (g->step == g->last)
        return false;
    /* The j-th and (j+1)-st Gray codes differ in the rightmost 1 of j+1. */
    g->step++;
    g->flip = bmmc_gray_flip_bit(g->step);
    g->offset ^= UINT64_C(1) << g->flip;
    return true;
}

/* ---- Factoring (Section 4) ---- */

/* T: pair the columns Z of gamma in the bottom-section basis with the
 * columns Y-bar of delta outside it, adding each into its partner, so that
 * the trailing p x p submatrix of A T is nonsingular. Appendix A scans
 * right to left, so the basis holds a basis Y of delta (rank delta columns)
 * and p - rank delta columns Z of gamma. */
static void bmmc_make_trailer(const Gf2Matrix *a, int n, int p, Gf2Matrix *t)
{
    int m = n - p;
    gf2_identity(t, n);
    Gf2Matrix bottom;
    gf2_submatrix(&bottom, a, m, n - 1, 0, n - 1);
    uint64_t basis;
    gf2_column_basis(&bottom, &basis, NULL);
    uint64_t z = basis & gf2_mask(m);
    uint64_t ybar = ~basis & gf2_mask(n) & ~gf2_mask(m);
    assert(gf2_popcount(z) == gf2_popcount(ybar));
    while (z != 0) {
        int from = gf2_lowest_bit(z);
        int into = gf2_lowest_bit(ybar);
        t->col[into] |= UINT64_C(1) << from;   /* t_{from,into} = 1 */
        z &= z - 1;
        ybar &= ybar - 1;
    }
}

/* R: add into each non-basis column of gamma the basis columns it depends
 * on (Appendix A's D), zeroing it: gamma becomes reduced. Returns the basis
 * (bit j = column j) through *basis and rank gamma as the result. */
static int bmmc_make_reducer(const Gf2Matrix *a1, int n, int p, Gf2Matrix *r,
                             Gf2Matrix *gamma, uint64_t *basis)
{
    int m = n - p;
    gf2_submatrix(gamma, a1, m, n - 1, 0, m - 1);
    Gf2Matrix deps;
    int rank = gf2_column_basis(gamma, basis, &deps);
    gf2_identity(r, n);
    for (int j = 0; j < m; j++)
        if (((*basis >> j) & 1) == 0)
            r->col[j] |= deps.col[j];
    return rank;
}

/* Pi: exchange pairs of left-section columns so that the rank gamma basis
 * columns occupy positions m - rank .. m - 1 ("Gathering basis columns").
 * Columns already in place stay, so Pi is a product of disjoint swaps. */
static void bmmc_make_swapper(int n, int m, int rank, uint64_t basis, Gf2Matrix *pi)
{
    int perm[GF2_MAX_DIM];
    for (int j = 0; j < n; j++)
        perm[j] = j;
    uint64_t window = gf2_mask(m) & ~gf2_mask(m - rank);
    uint64_t misplaced = basis & gf2_mask(m - rank);
    uint64_t holes = ~basis & window;
    assert(gf2_popcount(misplaced) == gf2_popcount(holes));
    while (misplaced != 0) {
        int i = gf2_lowest_bit(misplaced);
        int j = gf2_lowest_bit(holes);
        perm[i] = j;
        perm[j] = i;
        misplaced &= misplaced - 1;
        holes &= holes - 1;
    }
    gf2_zero(pi, n, n);
    for (int j = 0; j < n; j++)
        pi->col[j] = UINT64_C(1) << perm[j];   /* (A Pi)_j = A_perm[j] */
}

static void bmmc_factor(BmmcPlan *pl)
{
    int n = pl->n, p = pl->p, m = pl->m;
    uint64_t basis;
    Gf2Matrix a1, a2, trp;

    bmmc_make_trailer(&pl->adjusted, n, p, &pl->t);
    gf2_mul(&a1, &pl->adjusted, &pl->t);                  /* A' = A T */
    pl->rank_gamma = bmmc_make_reducer(&a1, n, p, &pl->r, &pl->gamma, &basis);
    gf2_mul(&a2, &a1, &pl->r);                            /* A'' = A' R */
    bmmc_make_swapper(n, m, pl->rank_gamma, basis, &pl->pi);
    gf2_mul(&pl->v, &a2, &pl->pi);                        /* V = A'' Pi */
    gf2_mul(&trp, &pl->t, &pl->r);
    gf2_mul(&trp, &trp, &pl->pi);
    bool ok = gf2_inverse(&pl->w, &trp);                  /* W = (T R Pi)^-1 */
    assert(ok);

    int r = pl->rank_gamma;
    gf2_submatrix(&pl->alpha1, &pl->v, 0, m - 1, 0, m - r - 1);
    gf2_submatrix(&pl->alpha2, &pl->v, 0, m - 1, m - r, m - 1);
    gf2_submatrix(&pl->beta, &pl->v, 0, m - 1, m, n - 1);
    gf2_submatrix(&pl->gamma2, &pl->v, m, n - 1, m - r, m - 1);
    gf2_submatrix(&pl->delta, &pl->v, m, n - 1, m, n - 1);
    ok = gf2_inverse(&pl->delta_inv, &pl->delta);
    assert(ok);
    (void)ok;
    gf2_submatrix(&pl->w_left, &pl->w, 0, m - 1, 0, m - 1);
    gf2_submatrix(&pl->w_right, &pl->w, 0, m - 1, m, n - 1);
    pl->c_lo = pl->c_pm & gf2_mask(m);
    pl->c_hi = bmmc_shr(pl->c_pm, m);
    gf2_table_init(&pl->gamma2_tab, &pl->gamma2);
    gf2_table_init(&pl->delta_tab, &pl->delta);
    gf2_table_init(&pl->delta_inv_tab, &pl->delta_inv);
    gf2_table_init(&pl->alpha2_tab, &pl->alpha2);
    gf2_table_init(&pl->beta_tab, &pl->beta);
    gf2_table_init(&pl->w_right_tab, &pl->w_right);
}

int bmmc_plan_new(int n, int p, const uint64_t *A, uint64_t c, int f,
                  BmmcPlan **plan)
{
    if (plan == NULL)
        return BMMC_EINVAL;
    *plan = NULL;
    int err = bmmc_check_sizes(n, p, f);
    if (err < 0)
        return err;
    if (A == NULL)
        return BMMC_EINVAL;
    for (int j = 0; j < n; j++)
        if (A[j] & ~gf2_mask(n))
            return BMMC_EMATRIX;
    if (c & ~gf2_mask(n))
        return BMMC_ECOMPLEMENT;

    BmmcPlan *pl = calloc(1, sizeof *pl);
    if (pl == NULL)
        return BMMC_ENOMEM;
    pl->n = n;
    pl->p = p;
    pl->f = f;
    pl->m = n - p;
    pl->c = c;
    bmmc_load(&pl->a, n, A);
    if (!gf2_is_nonsingular(&pl->a)) {
        free(pl);
        return BMMC_ESINGULAR;
    }
    /* Section 6: perform Q A Q^-1 with complement Q c on locations. */
    Gf2Matrix q_inv;
    bmmc_layout_matrix(n, p, f, &pl->q);
    gf2_inverse(&q_inv, &pl->q);
    gf2_mul(&pl->adjusted, &pl->q, &pl->a);
    gf2_mul(&pl->adjusted, &pl->adjusted, &q_inv);
    pl->c_pm = gf2_mul_vec(&pl->q, c);

    bmmc_factor(pl);
    *plan = pl;
    return 0;
}

void bmmc_plan_free(BmmcPlan *plan)
{
    free(plan);
}

int bmmc_plan_n(const BmmcPlan *plan) { return plan->n; }
int bmmc_plan_p(const BmmcPlan *plan) { return plan->p; }
int bmmc_plan_layout_f(const BmmcPlan *plan) { return plan->f; }
uint64_t bmmc_plan_complement(const BmmcPlan *plan) { return plan->c_pm; }
int bmmc_plan_rank_gamma(const BmmcPlan *plan) { return plan->rank_gamma; }

const Gf2Matrix *bmmc_plan_matrix(const BmmcPlan *plan, BmmcMatrixId id)
{
    switch (id) {
    case BMMC_MATRIX_A: return &plan->a;
    case BMMC_MATRIX_Q: return &plan->q;
    case BMMC_MATRIX_ADJUSTED: return &plan->adjusted;
    case BMMC_MATRIX_GAMMA: return &plan->gamma;
    case BMMC_MATRIX_T: return &plan->t;
    case BMMC_MATRIX_R: return &plan->r;
    case BMMC_MATRIX_PI: return &plan->pi;
    case BMMC_MATRIX_V: return &plan->v;
    case BMMC_MATRIX_W: return &plan->w;
    }
    return NULL;
}

uint64_t bmmc_plan_rounds(const BmmcPlan *plan)
{
    return UINT64_C(1) << plan->rank_gamma;   /* rank gamma <= min(p, n-p) <= 32 */
}

uint64_t bmmc_plan_local_elements(const BmmcPlan *plan)
{
    return bmmc_shl(1, plan->m);
}

uint64_t bmmc_plan_elements_per_message(const BmmcPlan *plan)
{
    return bmmc_shl(1, plan->m - plan->rank_gamma);
}

uint64_t bmmc_plan_message_offset(const BmmcPlan *plan, uint64_t round)
{
    return bmmc_shl(round, plan->m - plan->rank_gamma);
}

uint64_t bmmc_plan_target_proc(const BmmcPlan *plan, uint64_t proc, uint64_t round)
{
    assert((proc & ~gf2_mask(plan->p)) == 0 && round < bmmc_plan_rounds(plan));
    /* Line 3, from equation (4). */
    return gf2_table_mul_vec(&plan->gamma2_tab, round)
           ^ gf2_table_mul_vec(&plan->delta_tab, proc) ^ plan->c_hi;
}

uint64_t bmmc_plan_source_proc(const BmmcPlan *plan, uint64_t proc, uint64_t round)
{
    assert((proc & ~gf2_mask(plan->p)) == 0 && round < bmmc_plan_rounds(plan));
    /* Line 4, from equation (5). */
    return gf2_table_mul_vec(&plan->delta_inv_tab,
                             proc ^ gf2_table_mul_vec(&plan->gamma2_tab, round)
                             ^ plan->c_hi);
}

/* ---- Performing (Section 5) ---- */

/* Copy element `from` of src to element `to` of dst, w words each. */
static inline void copy_element(uint64_t *dst, uint64_t to, const uint64_t *src,
                                uint64_t from, size_t w)
{
    if (w == 1)
        dst[to] = src[from];
    else
        memcpy(dst + to * w, src + from * w, w * sizeof(uint64_t));
}

void bmmc_plan_intraprocessor_w(const BmmcPlan *plan, uint64_t proc,
                                const uint64_t *data, uint64_t *temp, size_t w)
{
    /* x' = W x with x_{n-p..n-1} = proc: x'_{0..n-p-1} = W' x_{0..n-p-1}
     * XOR z, z = W'' proc; in Gray-code order each step is one XOR of a
     * column of W' (Appendix B). */
    BmmcGray g;
    uint64_t t = gf2_table_mul_vec(&plan->w_right_tab, proc);
    bmmc_gray_first(&g, plan->m);
    copy_element(temp, t, data, g.offset, w);
    while (bmmc_gray_next(&g)) {
        t ^= plan->w_left.col[g.flip];
        copy_element(temp, t, data, g.offset, w);
    }
}

void bmmc_plan_intraprocessor(const BmmcPlan *plan, uint64_t proc,
                              const uint64_t *data, uint64_t *temp)
{
    bmmc_plan_intraprocessor_w(plan, proc, data, temp, 1);
}

void bmmc_plan_place_received_w(const BmmcPlan *plan, uint64_t proc,
                                uint64_t round, const uint64_t *temp,
                                uint64_t *data, size_t w)
{
    /* Lines 6-8: received element j has source index with non-basis bits j,
     * basis bits `round` and processor bits `source`, so its target offset
     * is alpha' j XOR alpha'' b XOR beta source XOR c_{0..n-p-1}. The
     * paper's line 8 reads temp[j]; the message was received at
     * temp[b N/(2^rank gamma P)] (line 5), so element j is temp[base + j]. */
    uint64_t source = bmmc_plan_source_proc(plan, proc, round);
    const uint64_t *msg = temp + bmmc_plan_message_offset(plan, round) * w;
    BmmcGray g;
    uint64_t t = gf2_table_mul_vec(&plan->alpha2_tab, round)
                 ^ gf2_table_mul_vec(&plan->beta_tab, source) ^ plan->c_lo;
    bmmc_gray_first(&g, plan->m - plan->rank_gamma);
    copy_element(data, t, msg, g.offset, w);
    while (bmmc_gray_next(&g)) {
        t ^= plan->alpha1.col[g.flip];
        copy_element(data, t, msg, g.offset, w);
    }
}

void bmmc_plan_place_received(const BmmcPlan *plan, uint64_t proc, uint64_t round,
                              const uint64_t *temp, uint64_t *data)
{
    bmmc_plan_place_received_w(plan, proc, round, temp, data, 1);
}

/* One emulated processor: its own memory and the message it is handed in
 * the current round. */
typedef struct BmmcLocalProc {
    uint64_t *data;
    uint64_t *temp;
    uint64_t *inbox;
    uint64_t inbox_from;
} BmmcLocalProc;

#define BMMC_NO_SENDER UINT64_MAX

static void bmmc_local_free(BmmcLocalProc *procs, uint64_t count)
{
    if (procs == NULL)
        return;
    for (uint64_t k = 0; k < count; k++) {
        free(procs[k].data);
        free(procs[k].temp);
        free(procs[k].inbox);
    }
    free(procs);
}

static BmmcLocalProc *bmmc_local_alloc(uint64_t count, size_t local, size_t message)
{
    BmmcLocalProc *procs = calloc(count, sizeof *procs);
    if (procs == NULL)
        return NULL;
    for (uint64_t k = 0; k < count; k++) {
        procs[k].data = malloc(local * sizeof(uint64_t));
        procs[k].temp = malloc(local * sizeof(uint64_t));
        procs[k].inbox = malloc(message * sizeof(uint64_t));
        if (procs[k].data == NULL || procs[k].temp == NULL || procs[k].inbox == NULL) {
            bmmc_local_free(procs, count);
            return NULL;
        }
    }
    return procs;
}

/* Phase 2's rounds: in round b every processor sends its chunk b of temp to
 * line 3's target, and every processor takes its message, checks that it
 * came from line 4's source, overwrites chunk b with it
 * (MPI_Sendrecv_replace) and places it. */
static int bmmc_local_rounds(const BmmcPlan *plan, BmmcLocalProc *procs,
                             BmmcMessageFn on_message, void *user)
{
    uint64_t nprocs = UINT64_C(1) << plan->p;
    uint64_t count = bmmc_plan_elements_per_message(plan);
    size_t bytes = (size_t)count * sizeof(uint64_t);
    for (uint64_t b = 0; b < bmmc_plan_rounds(plan); b++) {
        uint64_t base = bmmc_plan_message_offset(plan, b);
        for (uint64_t k = 0; k < nprocs; k++)
            procs[k].inbox_from = BMMC_NO_SENDER;
        for (uint64_t k = 0; k < nprocs; k++) {
            uint64_t to = bmmc_plan_target_proc(plan, k, b);
            if (to >= nprocs || procs[to].inbox_from != BMMC_NO_SENDER)
                return BMMC_EINTERNAL;
            memcpy(procs[to].inbox, procs[k].temp + base, bytes);
            procs[to].inbox_from = k;
            if (on_message != NULL)
                on_message(user, b, k, to, count);
        }
        for (uint64_t k = 0; k < nprocs; k++) {
            if (procs[k].inbox_from != bmmc_plan_source_proc(plan, k, b))
                return BMMC_EINTERNAL;
            memcpy(procs[k].temp + base, procs[k].inbox, bytes);
            bmmc_plan_place_received(plan, k, b, procs[k].temp, procs[k].data);
        }
    }
    return 0;
}

int bmmc_plan_perform_local_traced(const BmmcPlan *plan, const uint64_t *src,
                                   uint64_t *dst, BmmcMessageFn on_message,
                                   void *user)
{
    if (plan == NULL || src == NULL || dst == NULL)
        return BMMC_EINVAL;
    if (plan->n > BMMC_LOCAL_MAX_N)
        return BMMC_ELOCAL;
    int n = plan->n, p = plan->p, f = plan->f;
    uint64_t nprocs = UINT64_C(1) << p;
    uint64_t elements = UINT64_C(1) << n;
    BmmcLocalProc *procs = bmmc_local_alloc(nprocs, (size_t)bmmc_plan_local_elements(plan),
                                            (size_t)bmmc_plan_elements_per_message(plan));
    if (procs == NULL)
        return BMMC_ENOMEM;

    for (uint64_t x = 0; x < elements; x++) {
        uint64_t k, off;
        bmmc_layout_locate(n, p, f, x, &k, &off);
        procs[k].data[off] = src[x];
    }
    for (uint64_t k = 0; k < nprocs; k++)
        bmmc_plan_intraprocessor(plan, k, procs[k].data, procs[k].temp);
    int err = bmmc_local_rounds(plan, procs, on_message, user);
    if (err == 0) {
        for (uint64_t x = 0; x < elements; x++) {
            uint64_t k, off;
            bmmc_layout_locate(n, p, f, x, &k, &off);
            dst[x] = procs[k].data[off];
        }
    }
    bmmc_local_free(procs, nprocs);
    return err;
}

int bmmc_plan_perform_local(const BmmcPlan *plan, const uint64_t *src, uint64_t *dst)
{
    return bmmc_plan_perform_local_traced(plan, src, dst, NULL, NULL);
}

int bmmc_permute(int n, int p, const uint64_t *A, uint64_t c, int f,
                 const uint64_t *src, uint64_t *dst)
{
    BmmcPlan *plan;
    int err = bmmc_plan_new(n, p, A, c, f, &plan);
    if (err < 0)
        return err;
    err = bmmc_plan_perform_local(plan, src, dst);
    bmmc_plan_free(plan);
    return err;
}
