/* cubemu.c -- libcubemu (cubemu.h): the algorithms' node programs run on
 * the caller's communicator through the MPI backend (mpi/node_mpi.c).
 *
 * Each call describes its run as a scenario held in memory (a cube of 2^p
 * nodes, or the complete graph of P, and the algorithm's [algorithm]
 * keys), resolved by the same run_setup as `cubemu run`, so the library
 * runs exactly the configuration and the node program the emulator runs.
 * The caller's elements are copied into the node's memory (an element of
 * E bytes takes ceil(E/8) words; the backend sends only its E bytes),
 * the program runs, and [0, K) is copied out.
 *
 * Collective agreement. Every entry point checks its arguments locally,
 * then one MPI_Allreduce (MPI_MIN over {code, h, -h}, h a hash of the
 * arguments every rank must share) makes every rank return the same code:
 * the most negative local one, or CUBEMU_ERR_MISMATCH when the hashes
 * differ. Node memory is allocated before a second agreement, so a rank
 * that cannot allocate makes every rank return CUBEMU_ERR_NOMEM. Only then
 * does data move; the node programs cannot fail on agreed, valid input.
 *
 * Communicators. A plan owns a duplicate of the caller's communicator. The
 * one-call functions use one duplicate per caller communicator, cached on
 * it as an attribute and freed when the caller frees the communicator (or
 * at MPI_Finalize for MPI_COMM_WORLD), so that repeated calls do not pay
 * MPI_Comm_dup each time.
 *
 * A communicator of one rank needs no messages: the same plan functions
 * run locally (BMMC), or the data is copied (Gray) or transposed in place
 * of the program (transposes).
 */
#include "cubemu.h"

#include "bits.h"
#include "bmmc.h"
#include "graycode.h"
#include "model.h"
#include "node_mpi.h"
#include "prepare.h"

#include <limits.h>
#include <string.h>

#define API __attribute__((visibility("default")))

/* Largest message a run may post: MPI counts bytes in an int. */
#define MESSAGE_LIMIT ((uint64_t)INT_MAX - 4096)
#define TRANSPOSE_MAX_SIDE 16384      /* algorithms/transpose: TP_MAX_SIZE */
#define BMMC_LIB_MAX_N 40             /* algorithms/bmmc: elements <= 2^40 */

API const char *cubemu_strerror(int code)
{
    switch (code) {
    case CUBEMU_SUCCESS: return "success";
    case CUBEMU_ERR_ARG: return "invalid argument: a NULL array or result, or element size 0";
    case CUBEMU_ERR_COMM: return "invalid communicator (MPI_COMM_NULL or an intercommunicator), or MPI is not initialized";
    case CUBEMU_ERR_COMM_SIZE: return "the communicator's size is not a power of two";
    case CUBEMU_ERR_N: return "n is outside p..40 (2^n elements, at least one a rank)";
    case CUBEMU_ERR_LAYOUT: return "layout f is outside 0..n-p";
    case CUBEMU_ERR_MATRIX: return "a column of the matrix has a 1 in a row >= n";
    case CUBEMU_ERR_COMPLEMENT: return "the complement vector has a 1 at a bit >= n";
    case CUBEMU_ERR_SINGULAR: return "the characteristic matrix is singular over GF(2)";
    case CUBEMU_ERR_METHOD: return "unknown transpose method, radix outside 2..P, or butterfly on a number of ranks that is not a power of two";
    case CUBEMU_ERR_SIZE: return "size not supported: a matrix side that is 0, not a multiple of the ranks or above 16384, a count of 0, or a message above 2^31 bytes";
    case CUBEMU_ERR_MISMATCH: return "the ranks called with different arguments";
    case CUBEMU_ERR_NOMEM: return "out of memory";
    case CUBEMU_ERR_INTERNAL: return "internal error: a node program failed";
    default: return "unknown error code";
    }
}

/* ---- agreement -------------------------------------------------------- */

typedef struct { uint64_t h; } Hash;

static void hash_bytes(Hash *x, const void *data, size_t n)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < n; i++)
        x->h = (x->h ^ b[i]) * 0x100000001b3ULL;
}

static void hash_u64(Hash *x, uint64_t v)
{
    hash_bytes(x, &v, sizeof v);
}

/* Every rank's code and argument hash in; the same code out everywhere. */
static int agree(MPI_Comm comm, int code, const Hash *x)
{
    long long h = (long long)(x->h >> 2);
    long long mine[3] = { code, h, -h }, all[3];
    MPI_Allreduce(mine, all, 3, MPI_LONG_LONG, MPI_MIN, comm);
    if (all[0] < 0)
        return (int)all[0];
    return all[1] != -all[2] ? CUBEMU_ERR_MISMATCH : CUBEMU_SUCCESS;
}

/* MPI usable and comm an intracommunicator; its size in *size. Local: a
 * bad communicator cannot be agreed on. */
static int check_comm(MPI_Comm comm, int *size)
{
    int up = 0, down = 0, inter = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (!up || down || comm == MPI_COMM_NULL)
        return CUBEMU_ERR_COMM;
    MPI_Comm_test_inter(comm, &inter);
    if (inter)
        return CUBEMU_ERR_COMM;
    MPI_Comm_size(comm, size);
    return CUBEMU_SUCCESS;
}

/* log2 of a communicator's size when it is a power of two, else -1. */
static int size_log2(int size)
{
    return size > 0 ? bits_log2_exact((uint64_t)size) : -1;
}

/* check_comm for the cube algorithms: 2^p ranks, p in *p. */
static int check_cube_comm(MPI_Comm comm, int *p)
{
    int size = 0;
    int code = check_comm(comm, &size);
    if (code < 0)
        return code;
    *p = size_log2(size);
    return *p < 0 ? CUBEMU_ERR_COMM_SIZE : CUBEMU_SUCCESS;
}

/* ---- the cached duplicate -------------------------------------------- */

/* What the library keeps on a caller's communicator: its duplicate, and
 * the last one-call run's setup and node, reused when the next call on
 * the communicator has the same arguments (transposing many matrices of
 * one size pays for the setup and the node's memory once). */
typedef struct {
    MPI_Comm comm;
    char *key;                    /* the arguments of the kept run */
    RunSetup setup;
    Node *node;
    size_t node_element_size;
} Inner;

static int inner_keyval = MPI_KEYVAL_INVALID;

static void inner_forget(Inner *in)
{
    mpi_node_free(in->node);
    in->node = NULL;
    if (in->key)
        run_setup_release(&in->setup, TRUE);
    g_free(in->key);
    in->key = NULL;
}

static int inner_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    Inner *in = value;
    inner_forget(in);
    int code = MPI_Comm_free(&in->comm);
    g_free(in);
    return code;
}

/* The library's state on comm (collective on first use). */
static Inner *inner_of(MPI_Comm comm)
{
    if (inner_keyval == MPI_KEYVAL_INVALID)
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, inner_delete,
                               &inner_keyval, NULL);
    void *value = NULL;
    int found = 0;
    MPI_Comm_get_attr(comm, inner_keyval, &value, &found);
    if (found)
        return value;
    Inner *in = g_new0(Inner, 1);
    MPI_Comm_dup(comm, &in->comm);
    MPI_Comm_set_attr(comm, inner_keyval, in);
    return in;
}

/* ---- running a node program ------------------------------------------ */

static size_t words_of(size_t element_size)
{
    return (element_size + sizeof(Word) - 1) / sizeof(Word);
}

/* The run a call describes, as the emulator would read it from a file. */
static int setup_run(RunSetup *setup, const char *machine_topology,
                     const char *machine_key, int machine_value,
                     const char *const *algorithm_keys)
{
    g_autoptr(Scenario) s = scenario_new("libcubemu");
    char number[32];
    g_snprintf(number, sizeof number, "%d", machine_value);
    scenario_put(s, "machine", "topology", machine_topology, "libcubemu");
    scenario_put(s, "machine", machine_key, number, "libcubemu");
    for (int i = 0; algorithm_keys[i]; i += 2)
        scenario_put(s, "algorithm", algorithm_keys[i], algorithm_keys[i + 1],
                     "libcubemu");
    GError *e = NULL;
    if (!run_setup(s, setup, &e)) {
        g_printerr("libcubemu: %s\n", e->message);
        g_error_free(e);
        return CUBEMU_ERR_INTERNAL;
    }
    /* The machine is built from the call alone, so it has no faults today;
     * should a preset or a key ever bring them, the refusal is
     * cubemu-mpi's. */
    if (!mpi_machine_runs_for_real(&setup->machine,
                                   scenario_where(s, "machine", "faults"),
                                   "libcubemu", &e)) {
        g_printerr("libcubemu: %s\n", e->message);
        g_error_free(e);
        run_setup_release(setup, TRUE);
        return CUBEMU_ERR_INTERNAL;
    }
    return CUBEMU_SUCCESS;
}

/* Collective on comm (the library's own): run the prepared program with
 * the caller's count elements of src as memory[0, count), and copy
 * memory[0, count) to dst. With cache, the node of an earlier run of the
 * same setup is reset and reused when its element size matches (a plan's
 * performs), and the node is kept there afterwards. */
static int run_program(MPI_Comm comm, const RunSetup *setup, const void *src,
                       void *dst, size_t count, size_t element_size,
                       Node **cache, size_t *cache_size)
{
    size_t w = words_of(element_size);
    const MemoryLayout *layout = &setup->layout;
    Node *node = NULL;
    if (cache && *cache && *cache_size == element_size) {
        node = *cache;
        mpi_node_reset(node);
    } else {
        if (cache && *cache) {
            mpi_node_free(*cache);
            *cache = NULL;
        }
        MpiNodeOptions options = { .element_bytes = element_size,
                                   .direct = TRUE };
        node = mpi_node_try_new(&setup->machine, comm,
                                layout->memory_elements, w,
                                layout->local_size,
                                algorithm_phase_count(setup->algorithm),
                                &options);
    }
    if (cache)
        *cache = NULL;
    Hash none = { 0 };
    int code = agree(comm, node ? CUBEMU_SUCCESS : CUBEMU_ERR_NOMEM, &none);
    if (code < 0) {
        mpi_node_free(node);
        return code;
    }
    mpi_node_load(node, src, count);
    GError *error = NULL;
    if (!mpi_node_run(node, setup->algorithm->step, setup->config, &error)) {
        g_printerr("libcubemu: %s\n", error->message);
        g_error_free(error);
        mpi_node_free(node);
        return CUBEMU_ERR_INTERNAL;
    }
    mpi_node_store(node, dst, count);
    if (cache) {
        *cache = node;
        *cache_size = element_size;
    } else {
        mpi_node_free(node);
    }
    return CUBEMU_SUCCESS;
}

/* A one-call run on the communicator's Inner: the kept setup and node if
 * the key matches, else new ones (kept for the next call). */
static int run_cached(Inner *in, const char *key, const char *topology,
                      const char *machine_key, int machine_value,
                      const char *const *algorithm_keys, const void *src,
                      void *dst, size_t count, size_t element_size)
{
    if (!in->key || strcmp(in->key, key)) {
        inner_forget(in);
        int code = setup_run(&in->setup, topology, machine_key, machine_value,
                             algorithm_keys);
        if (code < 0)
            return code;
        in->key = g_strdup(key);
    }
    return run_program(in->comm, &in->setup, src, dst, count, element_size,
                       &in->node, &in->node_element_size);
}

/* ---- BMMC ------------------------------------------------------------- */

struct cubemu_bmmc_plan {
    MPI_Comm comm;                /* our duplicate */
    BmmcPlan *plan;               /* for P = 1, rounds and message sizes */
    RunSetup setup;               /* P > 1: the bmmc program's */
    gboolean has_setup;
    Node *node;                   /* the last perform's, reused */
    size_t node_element_size;
};

static int bmmc_code(int e)
{
    switch (e) {
    case 0: return CUBEMU_SUCCESS;
    case BMMC_EN: return CUBEMU_ERR_N;
    case BMMC_EP: return CUBEMU_ERR_N;
    case BMMC_ELAYOUT: return CUBEMU_ERR_LAYOUT;
    case BMMC_EMATRIX: return CUBEMU_ERR_MATRIX;
    case BMMC_ECOMPLEMENT: return CUBEMU_ERR_COMPLEMENT;
    case BMMC_ESINGULAR: return CUBEMU_ERR_SINGULAR;
    case BMMC_ENOMEM: return CUBEMU_ERR_NOMEM;
    case BMMC_EINVAL: return CUBEMU_ERR_ARG;
    default: return CUBEMU_ERR_INTERNAL;
    }
}

API int cubemu_bmmc_factor(MPI_Comm comm, int n, const uint64_t *columns,
                           uint64_t complement, int layout,
                           cubemu_bmmc_plan **plan)
{
    int p = 0;
    int code = check_cube_comm(comm, &p);
    if (code < 0)
        return code;
    if (plan)
        *plan = NULL;
    int f = layout == CUBEMU_LAYOUT_PROCESSOR_MAJOR ? n - p : layout;
    Hash x = { 0xcbf29ce484222325ULL };
    hash_u64(&x, (uint64_t)n);
    hash_u64(&x, (uint64_t)f);
    hash_u64(&x, complement);
    BmmcPlan *bp = NULL;
    if (!plan || !columns)
        code = CUBEMU_ERR_ARG;
    else if (n < p || n > BMMC_LIB_MAX_N)
        code = CUBEMU_ERR_N;
    else if (f < 0 || f > n - p)
        code = CUBEMU_ERR_LAYOUT;
    else {
        hash_bytes(&x, columns, (size_t)n * sizeof *columns);
        code = bmmc_code(bmmc_plan_new(n, p, columns, complement, f, &bp));
    }
    code = agree(comm, code, &x);
    if (code < 0) {
        bmmc_plan_free(bp);
        return code;
    }
    cubemu_bmmc_plan *c = g_new0(cubemu_bmmc_plan, 1);
    c->plan = bp;
    if (p > 0) {
        GString *cols = g_string_new(NULL);
        for (int j = 0; j < n; j++)
            g_string_append_printf(cols, "%s0x%" G_GINT64_MODIFIER "x",
                                   j ? "," : "", columns[j]);
        char elements[32], comp[32], lay[32];
        g_snprintf(elements, sizeof elements, "%" G_GUINT64_FORMAT,
                   (guint64)1 << n);
        g_snprintf(comp, sizeof comp, "0x%" G_GINT64_MODIFIER "x", complement);
        g_snprintf(lay, sizeof lay, "f:%d", f);
        const char *keys[] = { "name", "bmmc", "elements", elements,
                               "columns", cols->str, "complement", comp,
                               "layout", lay, NULL };
        code = setup_run(&c->setup, "cube", "dimensions", p, keys);
        g_string_free(cols, TRUE);
        c->has_setup = code == CUBEMU_SUCCESS;
    }
    if (code == CUBEMU_SUCCESS)
        MPI_Comm_dup(comm, &c->comm);
    else
        c->comm = MPI_COMM_NULL;
    if (code < 0) {
        cubemu_bmmc_free(&c);
        return code;
    }
    *plan = c;
    return CUBEMU_SUCCESS;
}

API uint64_t cubemu_bmmc_rounds(const cubemu_bmmc_plan *plan)
{
    return plan ? bmmc_plan_rounds(plan->plan) : 0;
}

API uint64_t cubemu_bmmc_elements_per_message(const cubemu_bmmc_plan *plan)
{
    return plan ? bmmc_plan_elements_per_message(plan->plan) : 0;
}

/* One rank: phase 1, then every round's message is to itself, so its
 * placement reads the elements where phase 1 left them. */
static int bmmc_alone(const cubemu_bmmc_plan *c, const void *src, void *dst,
                      size_t element_size)
{
    size_t w = words_of(element_size);
    uint64_t m = bmmc_plan_local_elements(c->plan);
    Word *data = g_try_malloc0_n((gsize)m * 2, w * sizeof(Word));
    if (!data)
        return CUBEMU_ERR_NOMEM;
    Word *temp = data + m * w;
    for (uint64_t e = 0; e < m; e++)
        memcpy(data + e * w, (const char *)src + e * element_size, element_size);
    bmmc_plan_intraprocessor_w(c->plan, 0, data, temp, w);
    for (uint64_t b = 0; b < bmmc_plan_rounds(c->plan); b++)
        bmmc_plan_place_received_w(c->plan, 0, b, temp, data, w);
    for (uint64_t e = 0; e < m; e++)
        memcpy((char *)dst + e * element_size, data + e * w, element_size);
    g_free(data);
    return CUBEMU_SUCCESS;
}

API int cubemu_bmmc_perform(cubemu_bmmc_plan *plan, const void *src,
                            void *dst, size_t element_size)
{
    if (!plan)
        return CUBEMU_ERR_ARG;
    int size;
    int code = check_comm(plan->comm, &size);
    if (code < 0)
        return code;
    uint64_t m = bmmc_plan_local_elements(plan->plan);
    Hash x = { 0x84222325cbf29ce4ULL };
    hash_u64(&x, element_size);
    if (!src || !dst || element_size == 0)
        code = CUBEMU_ERR_ARG;
    else if (bmmc_plan_elements_per_message(plan->plan) > MESSAGE_LIMIT / element_size
             || m > SIZE_MAX / 2 / words_of(element_size) / sizeof(Word))
        code = CUBEMU_ERR_SIZE;
    code = agree(plan->comm, code, &x);
    if (code < 0)
        return code;
    if (bmmc_plan_p(plan->plan) == 0)
        return bmmc_alone(plan, src, dst, element_size);
    return run_program(plan->comm, &plan->setup, src, dst, (size_t)m,
                       element_size, &plan->node, &plan->node_element_size);
}

API void cubemu_bmmc_free(cubemu_bmmc_plan **plan)
{
    if (!plan || !*plan)
        return;
    cubemu_bmmc_plan *c = *plan;
    mpi_node_free(c->node);
    if (c->has_setup)
        run_setup_release(&c->setup, TRUE);
    bmmc_plan_free(c->plan);
    int down = 0;
    MPI_Finalized(&down);
    if (c->comm != MPI_COMM_NULL && !down)
        MPI_Comm_free(&c->comm);
    g_free(c);
    *plan = NULL;
}

API int cubemu_bmmc(MPI_Comm comm, int n, const uint64_t *columns,
                    uint64_t complement, int layout, const void *src,
                    void *dst, size_t element_size)
{
    cubemu_bmmc_plan *plan = NULL;
    int code = cubemu_bmmc_factor(comm, n, columns, complement, layout, &plan);
    if (code < 0)
        return code;
    code = cubemu_bmmc_perform(plan, src, dst, element_size);
    cubemu_bmmc_free(&plan);
    return code;
}

/* ---- Gray <-> binary -------------------------------------------------- */

static int gray_convert(MPI_Comm comm, const char *algorithm, const void *src,
                        void *dst, size_t count, size_t element_size)
{
    int p = 0;
    int code = check_cube_comm(comm, &p);
    if (code < 0)
        return code;
    Hash x = { 0x9e3779b97f4a7c15ULL };
    hash_bytes(&x, algorithm, strlen(algorithm));
    hash_u64(&x, count);
    hash_u64(&x, element_size);
    if (!src || !dst || element_size == 0)
        code = CUBEMU_ERR_ARG;
    else if (count == 0 || count > UINT32_MAX
             || count > MESSAGE_LIMIT / element_size)
        code = CUBEMU_ERR_SIZE;
    Inner *in = inner_of(comm);
    code = agree(in->comm, code, &x);
    if (code < 0)
        return code;
    if (p == 0) {
        memmove(dst, src, count * element_size);
        return CUBEMU_SUCCESS;
    }
    char k[32];
    g_snprintf(k, sizeof k, "%zu", count);
    const char *keys[] = { "name", algorithm, "elements-per-node", k, NULL };
    g_autofree char *key = g_strdup_printf("%s %zu", algorithm, count);
    return run_cached(in, key, "cube", "dimensions", p, keys, src, dst, count,
                      element_size);
}

API int cubemu_gray_to_binary(MPI_Comm comm, const void *src, void *dst,
                              size_t count, size_t element_size)
{
    return gray_convert(comm, "gray-to-binary", src, dst, count, element_size);
}

API int cubemu_binary_to_gray(MPI_Comm comm, const void *src, void *dst,
                              size_t count, size_t element_size)
{
    return gray_convert(comm, "binary-to-gray", src, dst, count, element_size);
}

/* ---- transposes ------------------------------------------------------- */

API int cubemu_transpose_radix(int P, size_t side, double ts, double tw)
{
    if (P < 1 || side == 0 || !(ts >= 0) || !(tw >= 0))
        return CUBEMU_ERR_ARG;
    if (P <= 2)
        return 2;
    uint32_t runner_up;
    double runner_up_cost;
    return (int)tp_adaptive_radix((double)side * (double)side, (uint32_t)P,
                                  ts, tw, &runner_up, &runner_up_cost);
}

/* The paper's SMP (machines/smp-8.ini): Ts = 300 Tw, Tw per 8 bytes. */
#define SMP_TS 300.0
#define SMP_TW_BYTE (1.0 / 8.0)

API int cubemu_transpose(MPI_Comm comm, cubemu_transpose_method method,
                         int radix, size_t side, const void *src, void *dst,
                         size_t element_size)
{
    int size = 0;
    int code = check_comm(comm, &size);
    if (code < 0)
        return code;
    Hash x = { 0x2545f4914f6cdd1dULL };
    hash_u64(&x, (uint64_t)method);
    hash_u64(&x, side);
    hash_u64(&x, element_size);
    if (method == CUBEMU_TRANSPOSE_BRUCK)
        hash_u64(&x, (uint64_t)(int64_t)radix);
    uint64_t k = side ? (uint64_t)side * (side / (size_t)size) : 0;
    if (!src || !dst || element_size == 0)
        code = CUBEMU_ERR_ARG;
    else if ((unsigned)method > CUBEMU_TRANSPOSE_MPICH
             || (method == CUBEMU_TRANSPOSE_BRUCK
                 && (radix < 2 || radix > (size > 2 ? size : 2)))
             || (method == CUBEMU_TRANSPOSE_BUTTERFLY && size_log2(size) < 0))
        code = CUBEMU_ERR_METHOD;
    else if (side == 0 || side % (size_t)size || side > TRANSPOSE_MAX_SIDE
             || k > MESSAGE_LIMIT / element_size)
        code = CUBEMU_ERR_SIZE;
    else if ((const char *)src < (const char *)dst + k * element_size
             && (const char *)dst < (const char *)src + k * element_size)
        code = CUBEMU_ERR_ARG;
    Inner *in = inner_of(comm);
    code = agree(in->comm, code, &x);
    if (code < 0)
        return code;
    size_t b = side / (size_t)size;
    if (size == 1) {
        for (size_t r = 0; r < side; r++)
            for (size_t c = 0; c < side; c++)
                memcpy((char *)dst + (r * side + c) * element_size,
                       (const char *)src + (c * side + r) * element_size,
                       element_size);
        return CUBEMU_SUCCESS;
    }
    static const char *const names[] = { "pairwise", "butterfly", "bruck",
                                         "bruck", "mpich" };
    char side_text[32], radix_text[32];
    g_snprintf(side_text, sizeof side_text, "%zu", side);
    int r = radix;
    if (method == CUBEMU_TRANSPOSE_ADAPTIVE)
        r = cubemu_transpose_radix(size, side, SMP_TS,
                                   SMP_TW_BYTE * (double)element_size);
    g_snprintf(radix_text, sizeof radix_text, "%d", r);
    gboolean bruck = method == CUBEMU_TRANSPOSE_BRUCK
                     || method == CUBEMU_TRANSPOSE_ADAPTIVE;
    /* The radix key ends the list for the other methods. */
    const char *keys[] = { "name", "transpose", "method", names[method],
                           "size", side_text,
                           bruck ? "radix" : NULL, radix_text, NULL };
    g_autofree char *key = g_strdup_printf("transpose %s %zu %d",
                                           names[method], side, bruck ? r : 0);
    return run_cached(in, key, "complete", "processors", size, keys, src, dst,
                      b * side, element_size);
}
