/* algorithm.h -- what an algorithm provides to the runner.
 *
 * An algorithm is one folder in algorithms/ that defines one CubeAlgorithm
 * (filled by field name) and is listed once in algorithms/registry.c.
 * It knows nothing of the engine's internals: its node program talks only
 * through cube.h, and the rest are plain functions of its configuration:
 *
 *   prepare  validate parameters against the machine, build the read-only
 *            configuration every node shares, and say how much memory a
 *            node needs (CubeLayout);
 *   init     fill one node's memory before the run;
 *   step     the node program (cube.h);
 *   expect   the result one node must hold in memory[0, K), computed
 *            independently of the node program;
 *   report   bounds and details for the measured run.
 *
 * init and expect see one node at a time, so on MPI each rank can set up
 * and verify its own memory.
 */
#ifndef CUBE_ALGORITHM_H
#define CUBE_ALGORITHM_H

#include <glib.h>
#include "cube.h"
#include "machine.h"
#include "report.h"

/* CUBE_PARAM_TEXT is taken as written; with fallback "" it is optional
 * (cube_params_text gives NULL when absent). */
typedef enum { CUBE_PARAM_INT, CUBE_PARAM_CHOICE, CUBE_PARAM_TEXT } CubeParamType;

/* An integer parameter whose fallback is "auto" also accepts the word auto,
 * read back as CUBE_PARAM_AUTO: the algorithm picks the value and says which
 * in its details. */
#define CUBE_PARAM_AUTO (-1LL)

typedef struct {
    const char *key;              /* the key in [algorithm] */
    CubeParamType type;
    const char *fallback;         /* default, as text; NULL = required */
    long long min, max;           /* CUBE_PARAM_INT */
    const char *const *choices;   /* CUBE_PARAM_CHOICE, NULL-terminated */
    const char *help;
} CubeParamSpec;

typedef struct {
    const char *name;
    const char *summary;
} CubeMethod;

typedef struct {
    size_t memory_words;          /* words of memory per node */
    size_t elements_per_node;     /* K: memory[0, K) is verified */
    size_t local_size;            /* bytes of private state per node */
} CubeLayout;

/* The resolved [algorithm] values, each with its location. */
typedef struct CubeParams CubeParams;

typedef struct CubeAlgorithm {
    const char *name;
    const char *summary;
    const char *source;           /* paper and section */
    const CubeMethod *methods;    /* {NULL}-terminated; the first is default */
    const CubeParamSpec *params;  /* {NULL}-terminated; "method" is implicit */
    void *(*prepare)(const CubeMachine *machine, const CubeParams *params,
                     CubeLayout *layout, GError **error);
    void (*release)(void *config);
    void (*init)(const void *config, uint32_t address, CubeWord *memory);
    CubeStatus (*step)(CubeNode *node, const void *config);
    void (*expect)(const void *config, uint32_t address, CubeWord *expected);
    void (*report)(const void *config, CubeReport *report);
} CubeAlgorithm;

/* Registry (algorithms/registry.c): NULL-terminated. */
extern const CubeAlgorithm *const cube_algorithms[];
const CubeAlgorithm *cube_algorithm_find(const char *name);

/* Parameter access for prepare. Keys must be declared in params. */
long long cube_params_int(const CubeParams *p, const char *key);
int cube_params_choice(const CubeParams *p, const char *key);
const char *cube_params_text(const CubeParams *p, const char *key);
/* Whether the scenario gave the key (rather than the default applying). */
gboolean cube_params_given(const CubeParams *p, const char *key);
/* Index of the method in the algorithm's methods. */
int cube_params_method(const CubeParams *p);
/* Fail a parameter: "WHERE: KEY: message". Returns NULL for prepare. */
void *cube_params_fail(const CubeParams *p, GError **error, const char *key,
                       const char *fmt, ...) G_GNUC_PRINTF(4, 5);

#endif
