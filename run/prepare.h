/* prepare.h -- the parts of a run that do not need the engine, shared by
 * the emulator's runner (run.c) and the MPI program (mpi/cubemu_mpi.c).
 *
 * run_setup does everything before the engine starts: checks the
 * scenario's groups and its [expect] entries, builds the machine, resolves
 * [algorithm] into parameters, checks the topology and calls the
 * algorithm's prepare, and reports every problem it finds in one error. The
 * rest are the per-node pieces of verification, so that each MPI rank can
 * verify its own memory exactly as run.c verifies every node.
 */
#ifndef CUBE_PREPARE_H
#define CUBE_PREPARE_H

#include "algorithm.h"
#include "report.h"
#include "scenario.h"

typedef struct {
    Machine machine;
    Params *params;
    const Algorithm *algorithm;
    void *config;                 /* the algorithm's prepared configuration */
    MemoryLayout layout;
} RunSetup;

/* Read the [machine] group of s and its preset's file (machines/, found by
 * machine_preset_path) and build the machine from their keys
 * (machine_from_keys): the INI reading is here, the machine's meaning in
 * machines/. FALSE with *error (SCENARIO_ERROR) naming every problem. */
gboolean prepare_machine(const Scenario *s, Machine *m, GError **error);
/* Load preset `name`'s file as a scenario (for `cubemu list`). */
Scenario *prepare_preset(const char *name, GError **error);

/* FALSE with *error set (SCENARIO_ERROR for bad input, or the algorithm's
 * prepare error) and nothing to release. */
gboolean run_setup(const Scenario *s, RunSetup *setup, GError **error);
/* Release the configuration and parameters, and the machine too unless a
 * report has taken it. */
void run_setup_release(RunSetup *setup, gboolean clear_machine);
/* The numeric output fields a run of this setup reports (report_fields of
 * its report), known before the run: for checking [expect] entries and a
 * sweep's --y early. NULL-terminated; free with g_strfreev. */
char **run_setup_fields(const RunSetup *setup);
/* The report of a run that did nothing: every count zero, the algorithm's
 * details and bounds as its report callback gives them for this setup
 * (what a plan promises, before any run); free with report_free. */
Report *run_setup_report(const RunSetup *setup);
/* Fill the report's algorithm, method and params. */
void run_report_algorithm(Report *r, const RunSetup *setup);

/* Two additive multiset hashes of elements; sums, so they add up across
 * nodes (and across MPI ranks) in any order. */
typedef struct { uint64_t a, b; } Fingerprint;
void run_fingerprint_add(Fingerprint *f, const Word *mem, size_t from,
                         size_t k, size_t w);

/* Largest |reference| of node x's [0, k) (complex elements); `expected`
 * has room for k elements and is overwritten. */
double run_reference_scale(const Algorithm *alg, const void *config,
                           uint32_t x, size_t k, Word *expected);
/* Does a held element match the reference (MemoryLayout's rules)? */
gboolean run_element_matches(const Word *held, const Word *want,
                             ElementType type, size_t j, size_t computed,
                             gboolean tolerant, double limit);
/* The next (node, offset) of the sampled verification's stream. */
void run_sample_pick(uint64_t *state, uint32_t nodes, size_t computed,
                     uint32_t *x, size_t *j);

/* Node x's memory against the reference (MemoryLayout's rules): its
 * [0, K), or [computed, K) when the computed part is sampled; `expected`
 * has room for K elements and is overwritten; `limit` is the tolerance of
 * complex results (tolerance x the run's largest |reference|). The first
 * mismatch as "WRONG: node X offset J holds ..., the reference says ...",
 * or NULL (g_free the text). */
char *run_check_node(const RunSetup *setup, uint32_t x, const Word *mem,
                     Word *expected, double limit);

/* The sampled elements of the computed part (MemoryLayout.sample) on
 * `nodes` nodes: memory_of(data, x) is node x's memory, or NULL for a node
 * the caller does not hold (an MPI rank holds its own), which is skipped.
 * The first mismatch as run_check_node says it, or NULL. */
typedef const Word *(*RunMemoryFn)(void *data, uint32_t x);
char *run_check_samples(const RunSetup *setup, uint32_t nodes,
                        RunMemoryFn memory_of, void *data);

#endif
