/* algorithm.h -- what an algorithm provides to the runner.
 *
 * An algorithm is one folder in algorithms/ that defines one Algorithm
 * (filled by field name) and is listed once in algorithms/registry.c; or
 * one written against the node-program SDK (sdk/cubemu/program.h), which
 * sdk/program.c makes into an Algorithm, as it does a loaded program.
 * It knows nothing of the engine's internals: its node program talks only
 * through node.h, and the rest are plain functions of its configuration:
 *
 *   prepare  validate parameters against the machine, build the read-only
 *            configuration every node shares, and say how much memory a
 *            node needs (MemoryLayout);
 *   init     fill one node's memory before the run (memory_elements x
 *            element_words words);
 *   step     the node program (node.h);
 *   peek     optional: where a step will send first, so that the engine
 *            can read the route's lines ahead (node.h, NodePeekFn);
 *   expect   the result one node must hold in memory[0, K) (K elements,
 *            K x element_words words), computed independently of the
 *            node program (expect_element: one computed element, for
 *            sampled verification);
 *   report   bounds and details for the measured run.
 *
 * init and expect see one node at a time, so on MPI each rank can set up
 * and verify its own memory.
 */
#ifndef CUBE_ALGORITHM_H
#define CUBE_ALGORITHM_H

#include <glib.h>
#include "node.h"
#include "machine.h"
#include "report.h"
#include "cubemu/program.h"

/* Parameters and methods are the node-program SDK's own types
 * (sdk/cubemu/program.h), so that a built-in algorithm and a loaded
 * program declare them alike. PARAM_TEXT is taken as written; with
 * fallback "" it is optional (params_text gives NULL when absent). */
typedef cubemu_param ParamSpec;
typedef cubemu_method AlgorithmMethod;
enum {
    PARAM_INT = CUBEMU_PARAM_INT,
    PARAM_CHOICE = CUBEMU_PARAM_CHOICE,
    PARAM_TEXT = CUBEMU_PARAM_TEXT
};

/* An integer parameter whose fallback is "auto" also accepts the word auto,
 * read back as PARAM_AUTO: the algorithm picks the value and says which
 * in its details. */
#define PARAM_AUTO CUBEMU_AUTO

typedef struct {
    size_t memory_elements;       /* elements of memory per node */
    size_t elements_per_node;     /* K: memory[0, K) is verified */
    size_t local_size;            /* bytes of private state per node */
    ElementType element;
    /* Results computed from the data rather than moved (an FFT's values, a
     * broadcast's copies): conservation does not apply and is not checked.
     * With tolerance > 0 (ELEMENT_COMPLEX) an element matches its reference
     * when |held - reference| <= tolerance x the largest |reference| of
     * the run, the usual measure of an FFT's error. */
    gboolean computed;
    double tolerance;
    /* A run that both computes and moves (a matrix product C = A B, with A
     * and B shifted around): the first computed_elements of memory[0, K)
     * are computed results, compared with the reference but left out of
     * the conservation check, which covers the rest of [0, K). Doubles are
     * compared by value there (0.0 equals -0.0). */
    size_t computed_elements;
    /* sample > 0: of the computed part, compare only `sample` elements
     * chosen at random over all nodes (from sample_seed), each through the
     * algorithm's expect_element; expect() then fills only
     * [computed_elements, K). For results too costly to compute whole. */
    uint64_t sample;
    uint64_t sample_seed;
    /* An operation-level program (node.h): called at each completion of
     * one of its operations, not once a step (the workload replay). */
    gboolean each;
} MemoryLayout;


/* The resolved [algorithm] values, each with its location. */
typedef struct Params Params;

typedef struct Algorithm {
    const char *name;
    const char *summary;
    const char *source;           /* paper and section */
    /* The structures it relies on (TopologyTrait bits): it runs on a
     * topology that has any of them; 0: on every topology (the default
     * route is all it uses). */
    unsigned needs;
    /* It times itself on a machine of model = loggp (machine.h): only the
     * schedule replay does; every other algorithm is refused there. */
    gboolean times_loggp;
    /* It runs on a machine with dead nodes (machines/faults.h): its
     * placement leaves them out. Every other algorithm needs every node
     * and is refused there. */
    gboolean dead_nodes;
    /* Its step is not known to be reentrant: it runs in one thread
     * (emu/sim_parallel.c runs a tick's steps on several at once). Every
     * built-in step is reentrant; an SDK program says so with
     * CUBEMU_RUNS_IN_THREADS. */
    gboolean one_thread;
    const AlgorithmMethod *methods;    /* {NULL}-terminated; the first is default */
    const ParamSpec *params;  /* {NULL}-terminated; "method" is implicit */
    /* Names of the phases node_phase enters (NULL-terminated, at most
     * SIM_MAX_PHASES), or NULL: the program has no phases. */
    const char *const *phases;
    void *(*prepare)(const Machine *machine, const Params *params,
                     MemoryLayout *layout, GError **error);
    void (*release)(void *config);
    void (*init)(const void *config, uint32_t address, Word *memory);
    NodeStatus (*step)(Node *node, const void *config);
    /* Optional: what a step will send first (node.h, NodePeekFn), or
     * NULL. */
    NodePeekFn peek;
    void (*expect)(const void *config, uint32_t address, Word *expected);
    /* One element of the computed part (MemoryLayout.sample), or NULL. */
    void (*expect_element)(const void *config, uint32_t address,
                           size_t offset, Word *expected);
    void (*report)(const void *config, Report *report);
    /* Optional, for a workload that can be wrong (a schedule whose
     * receive nobody sends): whether it could not finish, and on what,
     * appended to `why` (lines of text). Called when the engine found
     * the run deadlocked (no event left, a receive waiting), with `why`
     * holding the engine's message, and after a run the engine finished,
     * with `why` empty (a workload timed by its own model, LogGP, may
     * deadlock where the engine's run did not). TRUE: the run failed,
     * exit status 1, not bad input. */
    gboolean (*stuck)(const void *config, GString *why);
    /* The SDK descriptor this algorithm runs through (sdk/program.c fills
     * every field above from it), or NULL for one written against this
     * header directly. */
    const cubemu_program *program;
    /* Loaded from a shared object: the path as the scenario gave it. */
    const char *program_path;
} Algorithm;

static inline unsigned algorithm_phase_count(const Algorithm *a)
{
    unsigned n = 0;
    while (a->phases && a->phases[n])
        n++;
    return n;
}

/* The built-in algorithms (algorithms/registry.c), NULL-terminated, in
 * the registry's order. */
const Algorithm *const *algorithm_list(void);
const Algorithm *algorithm_find(const char *name);

/* Parameter access for prepare. Keys must be declared in params. */
long long params_int(const Params *p, const char *key);
int params_choice(const Params *p, const char *key);
const char *params_text(const Params *p, const char *key);
/* A text parameter that names a file: relative to the scenario file's
 * folder when the file gave it, as written when --set did (or NULL for
 * an optional one absent). */
const char *params_path(const Params *p, const char *key);
/* Whether the scenario gave the key (rather than the default applying). */
gboolean params_given(const Params *p, const char *key);
/* Index of the method in the algorithm's methods. */
int params_method(const Params *p);
/* The algorithm the parameters are for. */
const Algorithm *params_algorithm(const Params *p);
/* Fail the whole [algorithm] group: "WHERE: message", WHERE the program
 * key if given, else the group. Returns NULL for prepare. */
void *params_fail_group(const Params *p, GError **error, const char *fmt,
                        ...) G_GNUC_PRINTF(3, 4);
/* Fail a parameter: "WHERE: KEY: message". Returns NULL for prepare. */
void *params_fail(const Params *p, GError **error, const char *key,
                       const char *fmt, ...) G_GNUC_PRINTF(4, 5);

#endif
