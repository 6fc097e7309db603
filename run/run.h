/* run.h -- run one scenario: machine, algorithm, engine, verification.
 *
 * Errors: bad input of any kind (scenario keys, parameters, a machine too
 * large for memory) comes back in SCENARIO_ERROR and means exit
 * status 2; a node program that misuses the API or deadlocks comes back in
 * SIM_ERROR. Either way no report is produced.
 */
#ifndef CUBE_RUN_H
#define CUBE_RUN_H

#include "report.h"
#include "scenario.h"
#include "sim.h"
/* The schedule recorder: by its path, as traces/record.h takes the name. */
#include "../workloads/record.h"

/* The order the engine runs each tick's events in (sim.h, SimOrder,
 * defines both). The default order of a run is stated here and only
 * here: RUN_ORDER_DEFAULT is $CUBEMU_ORDER ("contract", "locality" or
 * "survey"), else RUN_ORDER_LOCALITY on a machine without faults and
 * RUN_ORDER_CONTRACT on one with faults, where a message going around a
 * fault soon reserves a channel that another node of its tick reserves
 * too, and the locality order would stop and start over, with the
 * memories set up again, for nothing.
 *
 * RUN_ORDER_LOCALITY runs in the locality order. Where that stops at
 * tick 0 because two events reserved one channel (a skew, a routed first
 * step), the run starts again in the contract's order for tick 0 and the
 * locality order from tick 1 on (sim_set_order_from), which such a run
 * spends mostly in the locality order. Where it stops later, or on a
 * port or a memory path, or stops again, or the run fails, it runs again
 * in the contract's order throughout, so that results, and errors, are
 * always the contract's. The retry is a bet that later ticks do not
 * contend, and a lost bet costs the second run's work up to its stop: a
 * run that stopped late would risk most of a run, and one that contends
 * for a node's port or memory path at tick 0 contends for it whenever
 * two messages meet at a node, which the DBLAS and matmul on cm200-8k
 * do step after step.
 *
 * RUN_ORDER_CONTRACT runs in the contract's order only. RUN_ORDER_SURVEY
 * runs in it and counts the ticks where the locality order would stop
 * (sim_set_survey; the counts go to the debug log), for
 * bench/frontier.sh. */
typedef enum {
    RUN_ORDER_DEFAULT = 0,
    RUN_ORDER_CONTRACT,
    RUN_ORDER_LOCALITY,
    RUN_ORDER_SURVEY,
} RunOrder;

typedef struct {
    gboolean dump_memory;         /* keep the final memory in the report */
    const SimObserver *observer;  /* traces; may be NULL */
    void *observer_data;
    /* Records the run as a schedule (workloads/record.h; --schedule-out),
     * beside the observer if there is one; may be NULL. run_scenario
     * begins it with the run's machine and checks it after the run. */
    ScheduleRecorder *schedule;
    RunOrder order;               /* zero: RUN_ORDER_DEFAULT */
    /* The engine's limits (sim.h, SimLimits: --tick-limit, --wall-limit),
     * or NULL. A run they stop fails with SIM_ERROR_LIMIT, its message
     * prefixed with the scenario's name ("x.ini: the run passed ..."),
     * and is not made again in the contract's order: where the locality
     * order reaches the tick limit, the contract's reaches it alike
     * (every event up to it ran, in an order that no event depended on),
     * and where a wall-clock limit stops a run depends on the clock
     * anyway. */
    const SimLimits *limits;
    /* Threads for the engine's ticks (--threads; sim.h, sim_set_threads):
     * 0 for the default, $CUBEMU_THREADS or else run_threads_default. No
     * result depends on it. */
    int threads;
} RunOptions;

/* The threads a run uses by default on a machine of `nodes` nodes: the
 * processors this process may use, on machines of RUN_THREADS_MIN_NODES
 * nodes or more; one below that, where starting threads costs more than
 * it gains. Whatever the count, a tick splits where it has
 * RUN_THREADS_MIN_EVENTS events or more ($CUBEMU_THREADS_MIN_EVENTS: the
 * tests' lower bound). */
#define RUN_THREADS_MIN_NODES ((uint32_t)1 << 15)
#define RUN_THREADS_MIN_EVENTS ((size_t)1 << 13)
int run_threads_default(uint32_t nodes);
/* --threads' and $CUBEMU_THREADS' text: a count from 1 to RUN_THREADS_MAX,
 * or "auto" (0); FALSE if neither. */
#define RUN_THREADS_MAX SIM_MAX_THREADS
gboolean run_threads_parse(const char *text, int *threads);

/* Errors of a run that are neither bad input nor the engine's own
 * (sim.h, SIM_ERROR; scenario.h, SCENARIO_ERROR). RUN_ERROR_STUCK: the
 * workload deadlocked, and its algorithm says on what (Algorithm.stuck):
 * a wrong run, exit status 1, like wrong data. */
#define RUN_ERROR (run_error_quark())
GQuark run_error_quark(void);
enum { RUN_ERROR_STUCK = 1 };

Report *run_scenario(const Scenario *s, const RunOptions *options,
                     GError **error);

/* ---- memory ------------------------------------------------------------
 *
 * run_scenario refuses, before it allocates the engine, a run whose
 * estimate (sim_bytes_needed, the verifier's buffer, the dumped memory, a
 * trace recorder's tables, a schedule recorder's per-node tables) exceeds
 * the smallest of the limits this process has; a trace recorder passed as
 * the observer (trace_recorder_observer) and a schedule recorder are then
 * held to what is left (traces/record.h, workloads/record.h), half each
 * where there are both, and a trace or schedule that outgrows it fails the
 * run, never the process. */

/* Which limit bounds a run. */
typedef enum {
    RUN_LIMIT_NONE = 0,           /* nothing is known: no limit */
    RUN_LIMIT_PHYSICAL,           /* RUN_MEMORY_SHARE of physical memory */
    RUN_LIMIT_AS,                 /* RLIMIT_AS less the address space in use */
    RUN_LIMIT_DATA,               /* RLIMIT_DATA less the data in use */
    RUN_LIMIT_CGROUP,             /* the cgroup's limit less its usage */
    RUN_LIMIT_ENV,                /* $CUBEMU_MEMORY_LIMIT */
} RunLimitKind;

/* Share of physical memory a run may plan to use: the rest is for the
 * system. */
#define RUN_MEMORY_SHARE 0.8
/* No limit, in RunMemoryCandidates. */
#define RUN_NO_LIMIT UINT64_MAX

/* What the limits are made of, in bytes; RUN_NO_LIMIT where there is
 * none, 0 where an amount in use is unknown. */
typedef struct {
    uint64_t physical;            /* physical memory (0: unknown) */
    uint64_t rlimit_as;           /* RLIMIT_AS (soft) */
    uint64_t vm_size;             /* address space in use (VmSize) */
    uint64_t rlimit_data;         /* RLIMIT_DATA (soft) */
    uint64_t vm_data;             /* data in use (VmData) */
    uint64_t cgroup;              /* the tightest cgroup's memory.max */
    uint64_t cgroup_used;         /* that cgroup's usage, page cache not
                                   * counted (it is reclaimed first) */
    uint64_t env;                 /* $CUBEMU_MEMORY_LIMIT */
} RunMemoryCandidates;

typedef struct {
    uint64_t bytes;               /* what a run may add */
    RunLimitKind kind;
    /* The limit in words: "the RLIMIT_AS of 200 MiB less 30.1 MiB in
     * use", "80% of physical memory (23.5 GiB)". */
    char text[192];
} RunMemoryLimit;

/* The smallest of the candidates, each less what is in use where the
 * limit covers what is in use too (0 if more is in use than the limit);
 * ties go to CUBEMU_MEMORY_LIMIT, then RLIMIT_AS, RLIMIT_DATA, the cgroup
 * and physical memory, in that order. A pure function, for the tests. */
void run_memory_choose(const RunMemoryCandidates *c, RunMemoryLimit *out);
/* This process's candidates (getrlimit, /proc/self/status, the cgroup
 * files, sysconf, the environment). */
void run_memory_candidates(RunMemoryCandidates *c);
/* run_memory_choose of run_memory_candidates. */
void run_memory_find(RunMemoryLimit *out);
/* Bytes a run may use now: run_memory_find's. */
uint64_t run_memory_limit(void);

/* Parsers of what run_memory_candidates reads, for the tests. A cgroup's
 * limit file (v2 memory.max, v1 memory.limit_in_bytes): "max" or a v1
 * value of 2^62 or more is RUN_NO_LIMIT; FALSE if it is neither a number
 * nor "max". */
gboolean run_cgroup_parse_limit(const char *text, uint64_t *bytes);
/* The value of `key` in "key value" lines (memory.stat), or of "key:
 * N kB" lines (/proc/self/status, in bytes then); FALSE if absent. */
gboolean run_parse_field(const char *text, const char *key, uint64_t *value);
/* The cgroup path of the memory controller in /proc/self/cgroup's text:
 * the "0::PATH" line (unified, v2) or the line whose controllers include
 * "memory" (v1); NULL if there is none. g_free it. */
char *run_cgroup_path(const char *proc_self_cgroup, gboolean unified);

#endif
