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

/* The order the engine runs each tick's events in (sim.h, SimOrder).
 * RUN_ORDER_LOCALITY runs in the locality order and, where that stops
 * (two events of a tick depend on their order), or the run fails, runs
 * again from the start in the contract's order, so that results, and
 * errors, are always the contract's. RUN_ORDER_DEFAULT is
 * $CUBEMU_ORDER ("contract" or "locality"), else locality. */
typedef enum {
    RUN_ORDER_DEFAULT = 0,
    RUN_ORDER_CONTRACT,
    RUN_ORDER_LOCALITY,
} RunOrder;

typedef struct {
    gboolean dump_memory;         /* keep the final memory in the report */
    const SimObserver *observer;  /* traces; may be NULL */
    void *observer_data;
    RunOrder order;               /* zero: RUN_ORDER_DEFAULT */
} RunOptions;

Report *run_scenario(const Scenario *s, const RunOptions *options,
                     GError **error);

/* Bytes this process may use: $CUBEMU_MEMORY_LIMIT (bytes) if set, else
 * 80% of physical memory. */
uint64_t run_memory_limit(void);

#endif
