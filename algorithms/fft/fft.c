/* fft.c -- m-dimensional FFT communication mapped onto a k-d mesh or the
 * cube (Mou & Wang, "Optimal mappings of m dimensional FFT communication
 * to k dimensional mesh"), and the broadcast built from it (Lemmas 3-5).
 *
 * Bit numbering, fixed once for the whole feature (Figure 3):
 *   index   the bits of i_0 are the least significant of the concatenated
 *           index, then those of i_1, ...; index bit x = off[p] + q for
 *           bit q of axis p;
 *   node    the mesh address likewise, mesh dimension 0 least significant:
 *           address bit y = moff[i] + j for bit j of coordinate i (on the
 *           cube, dimension d is bit d).
 * A mapping is a bit permutation: node-address bit y holds index bit
 * perm[y] (Algorithm 7's Pi: output bit y takes input bit p[y]). Then FFT
 * step C(p, q) flips index bit x = off[p] + q, hence address bit
 * y = inv[x], which is bit j of mesh dimension i: the single-dimension
 * uniform communication sd(i, 2^j) (Theorems 7, 11, 14 and 18's proof).
 * Every address bit is flipped once, so the cost, the sum of 2^j, is the
 * diameter of the mesh, the sum of (S_i - 1) (Theorems 8, 13, 16, 18).
 *
 * The node program: at FFT step s every node sends its element 2^j hops
 * along mesh dimension i to its partner (up if its bit j is 0, down if 1)
 * and receives the partner's; at the start of step s + 1 it combines the
 * two (compute = fft) or keeps its own (compute = none). Memory: element 0
 * the node's value, element 1 the partner's.
 *
 * fft-broadcast (Lemmas 3-5) runs the very same communication, every node
 * sending at every step as in the paper's SIMD sd(i, w) (footnote 2: the
 * unwanted messages are ignored on reception): a node without the value
 * takes its partner's. After the steps on a set of index bits, exactly the
 * nodes agreeing with the source on the other bits hold it, so after all
 * steps every node does. Sending only from the nodes that hold the value
 * is slower here, not faster: nodes with nothing to wait for run ahead
 * into later steps, and their messages meet the stragglers' on shared
 * channels (a corner source of the 16 x 16 x 16 mesh then takes 51 cycles
 * instead of 45).
 *
 * compute = fft: complex doubles from `seed`. Postmorphism steps run the
 * bits of each axis from the least significant up, a decimation-in-time
 * FFT: the node holding index v starts with the input at v with each
 * axis's bits reversed and ends with the transform at v. Premorphism runs
 * them from the most significant down, decimation in frequency: natural
 * input, output at the bit-reversed index. The reference is a direct DFT
 * up to FFT_DIRECT_MAX points and FFTW above.
 */
#include "algorithm.h"
#include "bits.h"
#include "dynlib.h"
#include "variant.h"

#include <complex.h>
#include <fftw3.h>
#include <math.h>
#include <string.h>

/* Up to this many points the reference is the direct m-d DFT (N^2 terms);
 * above it FFTW. */
#define FFT_DIRECT_MAX 1024
/* Largest error allowed against the reference, relative to the largest
 * reference magnitude: far above double rounding over log2 N butterflies,
 * far below any error in the data's placement. */
#define FFT_TOLERANCE 1e-9
/* Memory: the node's value and the partner's. */
#define FFT_VALUE 0
#define FFT_PARTNER 1
#define FFT_MEMORY 2
/* Broadcast: a node that has not received the value yet holds 0. */
#define FFT_NO_VALUE 0

typedef enum { FFT_MAP_IDENTICAL, FFT_MAP_SHUFFLE, FFT_MAP_PERMUTATION } FftMapKind;
typedef enum { FFT_ORDER_POST, FFT_ORDER_PRE } FftOrder;
typedef enum { FFT_COMPUTE_NONE, FFT_COMPUTE_FFT } FftCompute;

/* One FFT step C(p, q) as the mesh communication sd(mesh_dimension, distance). */
typedef struct {
    int axis, bit;                /* p, q */
    int mesh_dimension, mesh_bit; /* i, j */
    int address_bit;              /* y = moff[i] + j */
    uint32_t distance;            /* 2^j */
    int *up, *down;               /* paths of `distance` links */
} FftStep;

typedef struct {
    Topology topology;
    gboolean broadcast;
    int m;                        /* index axes */
    uint32_t shape[TOPOLOGY_MAX_AXES]; /* A_p, axis 0 first */
    int off[TOPOLOGY_MAX_AXES + 1];    /* first index bit of axis p */
    int moff[TOPOLOGY_MAX_AXES + 1];   /* first address bit of dimension i */
    int n;                        /* log2 N */
    int perm[TOPOLOGY_MAX_AXES];  /* address bit y holds index bit perm[y] */
    int inv[TOPOLOGY_MAX_AXES];   /* index bit x sits at address bit inv[x] */
    FftMapKind map;
    FftOrder order;
    FftCompute compute;
    uint64_t seed;
    uint32_t source;              /* broadcast: the source index */
    int steps;
    FftStep *step;
    uint64_t cost, diameter;
    double complex *reference;    /* compute = fft: the transform, natural order */
} FftConfig;

static const char *const fft_orders[] = { "post", "pre", NULL };
static const char *const fft_computes[] = { "none", "fft", NULL };

static const AlgorithmMethod fft_methods[] = {
    { "sd", "every FFT step as one single-dimension uniform communication" },
    { NULL, NULL }
};

/* The keys fft and fft-broadcast share: the index set, its mapping onto
 * the machine and the morphism order, read by the one prepare. */
#define FFT_MAPPING_PARAMS                                                  \
    { .key = "shape", .type = PARAM_TEXT, .fallback = NULL,                 \
      .help = "the index set A_{m-1}x...xA_0, powers of two, axis 0 last" }, \
    { .key = "mapping", .type = PARAM_TEXT, .fallback = "identical",        \
      .help = "identical, shuffle, or permutation:p_0,...,p_{n-1}" },       \
    { .key = "order", .type = PARAM_CHOICE, .fallback = "post",             \
      .choices = fft_orders, .help = "post(morphism) or pre(morphism)" }

static const ParamSpec fft_params[] = {
    FFT_MAPPING_PARAMS,
    { .key = "compute", .type = PARAM_CHOICE, .fallback = "none",
      .choices = fft_computes, .help = "none (placeholders) or fft" },
    { .key = "seed", .type = PARAM_INT, .fallback = "1", .min = 0,
      .max = G_MAXINT64, .help = "the input data of compute = fft" },
    { .key = NULL }
};

static const ParamSpec fft_broadcast_params[] = {
    FFT_MAPPING_PARAMS,
    { .key = "source", .type = PARAM_TEXT, .fallback = "",
      .help = "the source index i_{m-1},...,i_0 (default all 0)" },
    { .key = "seed", .type = PARAM_INT, .fallback = "1", .min = 0,
      .max = G_MAXINT64, .help = "the broadcast value" },
    { .key = NULL }
};

/* The m-k shuffle of Theorem 10 on n bits: y = S(x). */
static int fft_shuffle(int x, int n, int m, int k)
{
    int w1 = n / m, w2 = n / k;
    return (x % k) * w2 + ((x % w1) / k) * m + x / w1;
}

/* The node address holding index v: address bit y = index bit perm[y]. */
static uint32_t fft_place(const FftConfig *c, uint32_t v)
{
    uint32_t u = 0;
    for (int y = 0; y < c->n; y++)
        u |= ((v >> c->perm[y]) & 1u) << y;
    return u;
}

/* The index held by node u. */
static uint32_t fft_index(const FftConfig *c, uint32_t u)
{
    uint32_t v = 0;
    for (int y = 0; y < c->n; y++)
        v |= ((u >> y) & 1u) << c->perm[y];
    return v;
}

/* v with the bits of every index axis reversed within the axis. */
static uint32_t fft_reverse(const FftConfig *c, uint32_t v)
{
    uint32_t r = 0;
    for (int p = 0; p < c->m; p++) {
        int a = c->off[p + 1] - c->off[p];
        for (int q = 0; q < a; q++)
            r |= ((v >> (c->off[p] + q)) & 1u) << (c->off[p] + a - 1 - q);
    }
    return r;
}

/* The input value at natural index v: splitmix64 of (seed, v). */
static double complex fft_input(const FftConfig *c, uint32_t v)
{
    /* Real and imaginary parts uniform in [-1, 1): 53 random bits each. */
    const double unit = 0x1p-52;
    uint64_t at = c->seed * 2 * c->topology.nodes + 2 * (uint64_t)v;
    uint64_t re = bits_splitmix64(at);
    uint64_t im = bits_splitmix64(at + 1);
    return (double)(re >> 11) * unit - 1 + I * ((double)(im >> 11) * unit - 1);
}

static void complex_store(Word *w, double complex z)
{
    double v[2] = { creal(z), cimag(z) };
    memcpy(w, v, sizeof v);
}

static double complex complex_load(const Word *w)
{
    double v[2];
    memcpy(v, w, sizeof v);
    return v[0] + I * v[1];
}

/* The m-d DFT of the input, natural order, by its definition (N^2 terms;
 * each exponent reduced modulo A_p so the angles stay exact). */
static void fft_direct(const FftConfig *c, double complex *out)
{
    uint32_t nn = c->topology.nodes;
    for (uint32_t k = 0; k < nn; k++) {
        double complex sum = 0;
        for (uint32_t v = 0; v < nn; v++) {
            double turns = 0;
            for (int p = 0; p < c->m; p++) {
                uint64_t a = c->shape[p];
                uint64_t kp = (k >> c->off[p]) & (a - 1);
                uint64_t vp = (v >> c->off[p]) & (a - 1);
                turns += (double)(kp * vp % a) / (double)a;
            }
            sum += fft_input(c, v) * cexp(-2 * G_PI * I * turns);
        }
        out[k] = sum;
    }
}

/* FFTW, opened when a reference needs it (dynlib.h): linking it would
 * cost every start of cubemu the dynamic loader's work on it. */
#define FFTW_FUNCTIONS(X) \
    X(fftw_alloc_complex) X(fftw_plan_dft) X(fftw_execute) \
    X(fftw_destroy_plan) X(fftw_free)

static struct {
#define FFTW_MEMBER(f) __typeof__(f) *f;
    FFTW_FUNCTIONS(FFTW_MEMBER)
#undef FFTW_MEMBER
} fftw;

static const char *const fftw_libraries[] = { "libfftw3.so.3", NULL };
static DynLib fftw_lib = { .what = "FFTW",
                           .hint = "make deps installs libfftw3-dev",
                           .names = fftw_libraries };

static gboolean fftw_load(GError **error)
{
#define FFTW_FIND(f)                                            \
    if (!fftw.f && !dynlib_find(&fftw_lib, (void **)&fftw.f, #f, error)) \
        return FALSE;
    FFTW_FUNCTIONS(FFTW_FIND)
#undef FFTW_FIND
    return TRUE;
}

/* The same with FFTW (complex.h comes first, so fftw_complex is double
 * complex): a row-major array, axis m-1 slowest, which is the
 * concatenated index with axis 0 least significant. */
static gboolean fft_fftw(const FftConfig *c, double complex *out,
                         GError **error)
{
    if (!fftw_load(error))
        return FALSE;
    uint32_t nn = c->topology.nodes;
    int dims[TOPOLOGY_MAX_AXES];
    for (int p = 0; p < c->m; p++)
        dims[c->m - 1 - p] = (int)c->shape[p];
    fftw_complex *buf = fftw.fftw_alloc_complex(nn);
    fftw_plan plan = fftw.fftw_plan_dft(c->m, dims, buf, buf, FFTW_FORWARD,
                                        FFTW_ESTIMATE);
    for (uint32_t v = 0; v < nn; v++)
        buf[v] = fft_input(c, v);
    fftw.fftw_execute(plan);
    for (uint32_t v = 0; v < nn; v++)
        out[v] = buf[v];
    fftw.fftw_destroy_plan(plan);
    fftw.fftw_free(buf);
    return TRUE;
}

/* The butterfly of step s on node u holding `mine` and its partner's
 * `other` (Cooley-Tukey, span 2^q along axis p). */
static double complex fft_butterfly(const FftConfig *c, const FftStep *st,
                                    uint32_t u, double complex mine,
                                    double complex other)
{
    uint32_t v = fft_index(c, u);
    uint32_t pos = (v >> c->off[st->axis]) & (c->shape[st->axis] - 1);
    uint32_t half = 1u << st->bit;
    gboolean high = (pos >> st->bit) & 1;
    double complex tw = cexp(-G_PI * I * (double)(pos & (half - 1)) / half);
    if (c->order == FFT_ORDER_POST)        /* decimation in time */
        return high ? other - tw * mine : mine + tw * other;
    return high ? (other - mine) * tw : mine + other;   /* in frequency */
}

static NodeStatus fft_step(Node *node, const void *config)
{
    const FftConfig *c = config;
    uint32_t u = node_address(node);
    int s = (int)node_step(node);
    Word *mem = node_memory(node);
    if (s > 0 && c->broadcast && mem[FFT_VALUE] == FFT_NO_VALUE)
        mem[FFT_VALUE] = mem[FFT_PARTNER];
    if (s > 0 && c->compute == FFT_COMPUTE_FFT) {
        complex_store(mem + FFT_VALUE * 2,
                      fft_butterfly(c, &c->step[s - 1], u,
                                    complex_load(mem + FFT_VALUE * 2),
                                    complex_load(mem + FFT_PARTNER * 2)));
    }
    if (s == c->steps)
        return NODE_DONE;
    const FftStep *st = &c->step[s];
    gboolean high = (u >> st->address_bit) & 1;
    uint32_t partner = u ^ (1u << st->address_bit);
    node_mark(node, "C(%d, %d) sd(%d, %u)", st->axis, st->bit,
              st->mesh_dimension, st->distance);
    node_send(node, high ? st->down : st->up, (int)st->distance, FFT_VALUE,
              1, s);
    node_recv(node, partner, s, FFT_PARTNER, 1);
    return NODE_CONTINUE;
}

static void fft_release(void *config)
{
    FftConfig *c = config;
    if (!c)
        return;
    for (int s = 0; c->step && s < c->steps; s++) {
        g_free(c->step[s].up);
        g_free(c->step[s].down);
    }
    g_free(c->step);
    g_free(c->reference);
    g_free(c);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FftConfig, fft_release)

/* Parse "permutation:p_0,...,p_{n-1}" into perm; NULL or the reason. */
static char *fft_parse_permutation(const char *text, int n, int *perm)
{
    g_auto(GStrv) parts = g_strsplit(text, ",", -1);
    if ((int)g_strv_length(parts) != n)
        return g_strdup_printf("%u bits given, the index has n = %d",
                               g_strv_length(parts), n);
    uint32_t seen = 0;
    for (int y = 0; y < n; y++) {
        char *end;
        long v = strtol(parts[y], &end, 10);
        if (end == parts[y] || *end || v < 0 || v >= n)
            return g_strdup_printf("'%s' is not an index bit (valid: 0..%d)",
                                   parts[y], n - 1);
        if (seen & (1u << v))
            return g_strdup_printf("index bit %ld appears twice", v);
        seen |= 1u << v;
        perm[y] = (int)v;
    }
    return NULL;
}

static void *fft_prepare_common(const Machine *mach, const Params *p,
                                MemoryLayout *layout, gboolean broadcast,
                                GError **error)
{
    g_autoptr(FftConfig) c = g_new0(FftConfig, 1);
    c->topology = mach->topology;
    c->broadcast = broadcast;
    const Topology *t = &c->topology;

    /* The index set. */
    const char *shape = params_text(p, "shape");
    g_autofree char *why = NULL;
    if (!topology_parse_shape(shape, &c->m, c->shape, &why))
        return params_fail(p, error, "shape", "%s", why);
    for (int q = 0; q < c->m; q++) {
        int a = bits_log2_exact(c->shape[q]);
        if (a < 1)
            return params_fail(p, error, "shape", "side %u of axis %d is not "
                               "a power of two >= 2", c->shape[q], q);
        c->off[q + 1] = c->off[q] + a;
    }
    c->n = c->off[c->m];

    /* The mesh: sides powers of two, the same size. */
    for (int i = 0; i < t->axes; i++) {
        int s = bits_log2_exact(t->side[i]);
        if (s < 1)
            return params_fail(p, error, "shape", "the mesh's side %u (axis "
                               "%d) is not a power of two >= 2; the FFT maps "
                               "address bits onto mesh dimensions",
                               t->side[i], i);
        c->moff[i + 1] = c->moff[i] + s;
        c->diameter += t->side[i] - 1;
    }
    if (c->moff[t->axes] != c->n)
        return params_fail(p, error, "shape", "%s has 2^%d points, the "
                           "machine %u nodes (valid: an index set of exactly "
                           "one element per node)", shape, c->n, t->nodes);

    /* The mapping. */
    const char *map = params_text(p, "mapping");
    if (!strcmp(map, "identical")) {
        c->map = FFT_MAP_IDENTICAL;                  /* Algorithm 1 */
        for (int y = 0; y < c->n; y++)
            c->perm[y] = y;
    } else if (!strcmp(map, "shuffle")) {
        c->map = FFT_MAP_SHUFFLE;                    /* Algorithms 4-6 */
        int n = c->n, m = c->m, k = t->axes;
        for (int i = 1; i < k; i++)
            if (t->side[i] != t->side[0])
                return params_fail(p, error, "mapping", "shuffle needs a "
                                   "regular mesh (all sides equal; Theorem 10 "
                                   "and Algorithm 4); use permutation:... on "
                                   "this one");
        for (int q = 1; q < m; q++)
            if (c->shape[q] != c->shape[0])
                return params_fail(p, error, "mapping", "shuffle deals the "
                                   "n/m bits of each index axis, so the index "
                                   "set must be regular (all sides equal)");
        if (n % m || n % k || (n / m) % k)
            return params_fail(p, error, "mapping", "shuffle needs n a "
                               "multiple of m and of k and n/m a multiple of "
                               "k (Theorem 10); here n = %d, m = %d, k = %d",
                               n, m, k);
        for (int x = 0; x < n; x++)
            c->perm[fft_shuffle(x, n, m, k)] = x;
    } else if (g_str_has_prefix(map, "permutation:")) {
        c->map = FFT_MAP_PERMUTATION;                /* Algorithms 7, 8 */
        g_autofree char *bad = fft_parse_permutation(
            map + strlen("permutation:"), c->n, c->perm);
        if (bad)
            return params_fail(p, error, "mapping", "%s (valid: "
                               "permutation:p_0,...,p_%d, address bit y "
                               "holds index bit p_y)", bad, c->n - 1);
    } else {
        return params_fail(p, error, "mapping", "'%s' is not a mapping "
                           "(valid: identical, shuffle, permutation:p_0,...,"
                           "p_{n-1})", map);
    }
    for (int y = 0; y < c->n; y++)
        c->inv[c->perm[y]] = y;

    /* The steps, in execution order (Section 2.2). */
    c->order = params_choice(p, "order") == 0 ? FFT_ORDER_POST : FFT_ORDER_PRE;
    c->steps = c->n;
    c->step = g_new0(FftStep, c->steps);
    int s = 0;
    for (int ax = 0; ax < c->m; ax++) {
        int a = c->off[ax + 1] - c->off[ax];
        for (int r = 0; r < a; r++, s++) {
            FftStep *st = &c->step[s];
            st->axis = ax;
            st->bit = c->order == FFT_ORDER_POST ? r : a - 1 - r;
            st->address_bit = c->inv[c->off[ax] + st->bit];
            int i = 0;
            while (c->moff[i + 1] <= st->address_bit)
                i++;
            st->mesh_dimension = i;
            st->mesh_bit = st->address_bit - c->moff[i];
            st->distance = 1u << st->mesh_bit;
            st->up = g_new(int, st->distance);
            st->down = g_new(int, st->distance);
            gboolean cube = topology_has(t, TOPOLOGY_DIMENSIONS);
            for (uint32_t h = 0; h < st->distance; h++) {
                st->up[h] = cube ? i : topology_mesh_link(i, +1);
                st->down[h] = cube ? i : topology_mesh_link(i, -1);
            }
            c->cost += st->distance;
        }
    }

    c->seed = (uint64_t)params_int(p, "seed");
    layout->memory_elements = FFT_MEMORY;
    layout->elements_per_node = 1;
    layout->local_size = 0;
    layout->element = ELEMENT_WORD;
    if (broadcast) {
        /* source = i_{m-1},...,i_0 */
        const char *src = params_text(p, "source");
        if (src) {
            g_auto(GStrv) parts = g_strsplit(src, ",", -1);
            if ((int)g_strv_length(parts) != c->m)
                return params_fail(p, error, "source", "'%s' has %u "
                                   "coordinates, the index set %d (valid: "
                                   "i_{m-1},...,i_0)", src,
                                   g_strv_length(parts), c->m);
            for (int q = 0; q < c->m; q++) {
                const char *text = parts[c->m - 1 - q];
                char *end;
                long v = strtol(text, &end, 10);
                if (end == text || *end || v < 0 || v >= (long)c->shape[q])
                    return params_fail(p, error, "source", "'%s' is not a "
                                       "coordinate of axis %d (valid: 0..%u)",
                                       text, q, c->shape[q] - 1);
                c->source |= (uint32_t)v << c->off[q];
            }
        }
        layout->computed = TRUE;                 /* copies, by design */
        return g_steal_pointer(&c);
    }
    c->compute = params_choice(p, "compute") == 0 ? FFT_COMPUTE_NONE
                                                  : FFT_COMPUTE_FFT;
    if (c->compute == FFT_COMPUTE_FFT) {
        /* One point per node: the problem's size, so a machine too large
         * for memory is an error here, before the engine's estimate. */
        c->reference = g_try_new(double complex, t->nodes);
        if (!c->reference) {
            g_autofree char *iec = g_format_size_full(
                (guint64)t->nodes * sizeof(double complex),
                G_FORMAT_SIZE_IEC_UNITS);
            return params_fail(p, error, "compute", "cannot allocate %"
                               G_GUINT64_FORMAT " bytes (%s) for the FFT's "
                               "reference", (guint64)t->nodes
                                            * sizeof(double complex), iec);
        }
        if (t->nodes <= FFT_DIRECT_MAX)
            fft_direct(c, c->reference);
        else if (!fft_fftw(c, c->reference, error))
            return NULL;
        layout->element = ELEMENT_COMPLEX;
        layout->computed = TRUE;
        layout->tolerance = FFT_TOLERANCE;
    }
    return g_steal_pointer(&c);
}

ALGORITHM_PREPARE_VARIANT(fft_prepare, fft_prepare_common, FALSE)
ALGORITHM_PREPARE_VARIANT(fft_broadcast_prepare, fft_prepare_common, TRUE)

/* compute = none: the placeholder of node u is the index v it holds (one
 * word); every value moves out and back, so each node must end with its
 * own index again, and conservation checks that the mapping placed every
 * index once. */
static void fft_init(const void *config, uint32_t u, Word *memory)
{
    const FftConfig *c = config;
    uint32_t v = fft_index(c, u);
    if (c->compute == FFT_COMPUTE_FFT) {
        uint32_t from = c->order == FFT_ORDER_POST ? fft_reverse(c, v) : v;
        complex_store(memory, fft_input(c, from));
        complex_store(memory + 2 * FFT_PARTNER, 0);
    } else {
        memory[FFT_VALUE] = v;
        memory[FFT_PARTNER] = 0;
    }
}

static void fft_expect(const void *config, uint32_t u, Word *expected)
{
    const FftConfig *c = config;
    uint32_t v = fft_index(c, u);
    if (c->compute == FFT_COMPUTE_FFT) {
        uint32_t at = c->order == FFT_ORDER_POST ? v : fft_reverse(c, v);
        complex_store(expected, c->reference[at]);
    } else {
        expected[0] = v;
    }
}

/* The broadcast value: seed-derived, nonzero. */
static Word fft_broadcast_value(const FftConfig *c)
{
    return bits_splitmix64(c->seed) | 1;
}

static void fft_broadcast_init(const void *config, uint32_t u, Word *memory)
{
    const FftConfig *c = config;
    memory[FFT_VALUE] = u == fft_place(c, c->source) ? fft_broadcast_value(c)
                                                      : FFT_NO_VALUE;
    memory[FFT_PARTNER] = FFT_NO_VALUE;
}

static void fft_broadcast_expect(const void *config, uint32_t u,
                                 Word *expected)
{
    (void)u;
    expected[0] = fft_broadcast_value(config);
}

static void fft_report(const void *config, Report *r)
{
    const FftConfig *c = config;
    static const char *const columns[] = { "axis", "bit", "mesh_dimension",
                                           "distance", "cycles", NULL };
    enum { COLUMNS = 5 };
    g_autofree long long *rows = g_new(long long, (size_t)c->steps * COLUMNS);
    for (int s = 0; s < c->steps; s++) {
        const FftStep *st = &c->step[s];
        long long *row = rows + (size_t)s * COLUMNS;
        row[0] = st->axis;
        row[1] = st->bit;
        row[2] = st->mesh_dimension;
        row[3] = st->distance;
        /* sd(i, w) takes w cycles: the messages of a step share channels,
         * never in the same cycle (tests/check_fft.c times every step
         * through the engine's observer). */
        row[4] = st->distance;
    }
    report_detail_text(r, "mapping", c->map == FFT_MAP_IDENTICAL ? "identical"
                       : c->map == FFT_MAP_SHUFFLE ? "shuffle" : "permutation");
    long long perm[TOPOLOGY_MAX_AXES];
    for (int y = 0; y < c->n; y++)
        perm[y] = c->perm[y];
    report_detail_list(r, "permutation", perm, (size_t)c->n);
    report_detail_rows(r, "steps", columns, rows, (size_t)c->steps);
    report_detail_int(r, "cost", (long long)c->cost);
    /* The mesh's diameter, not the machine's: on a torus the wrap links
     * make the machine's smaller, and the mappings never take them. */
    report_detail_int(r, "mesh_diameter", (long long)c->diameter);
    report_bound(r, "details.cost", "cost = mesh diameter, sum of (S_i - 1)",
                 BOUND_EXACT, (double)c->diameter,
                 "Mou & Wang Theorems 6, 8, 13, 16, 18: every address bit "
                 "j of mesh dimension i is flipped by one step sd(i, 2^j)");
    /* Theorem 6 on the machine's own diameter: on a torus that is less
     * than the cost, since the mappings' paths never take the wrap links. */
    report_cycle_bound(r, "network diameter", BOUND_LOWER,
                       (double)c->topology.diameter,
                       "Theorem 6: the FFT communication broadcasts from a "
                       "corner to the opposite one");
}

const Algorithm algorithm_fft = {
    .name = "fft",
    .summary = "m-d FFT communication (and FFT) on a k-d mesh or the cube",
    .source = "Mou & Wang, optimal mappings of m-d FFT communication to k-d "
              "meshes (Algorithms 1, 4-8, Theorems 7-18)",
    .needs = TOPOLOGY_DIMENSIONS | TOPOLOGY_AXES,
    .methods = fft_methods,
    .params = fft_params,
    .prepare = fft_prepare,
    .release = fft_release,
    .init = fft_init,
    .step = fft_step,
    .expect = fft_expect,
    .report = fft_report,
};

const Algorithm algorithm_fft_broadcast = {
    .name = "fft-broadcast",
    .summary = "broadcast from any index over the FFT communication",
    .source = "Mou & Wang, Lemmas 3-5 and Theorem 6",
    .needs = TOPOLOGY_DIMENSIONS | TOPOLOGY_AXES,
    .methods = fft_methods,
    .params = fft_broadcast_params,
    .prepare = fft_broadcast_prepare,
    .release = fft_release,
    .init = fft_broadcast_init,
    .step = fft_step,
    .expect = fft_broadcast_expect,
    .report = fft_report,
};
