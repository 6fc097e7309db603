/* fuzz_setup.c -- machine and algorithm parameter parsing: the input is a
 * scenario file; its [machine] is read by prepare_machine (presets
 * and kernel tables from the source tree's machines/), then run_setup
 * builds the machine again, resolves [algorithm] into parameters and calls
 * the algorithm's prepare, and everything is released. An [algorithm]
 * program key is dropped first: it would load any shared object named.
 *
 * What prepare accepts must run: a small accepted scenario (at most
 * FUZZ_RUN_NODES nodes of FUZZ_RUN_ELEMENTS words) is then run by
 * run_scenario, and an engine error (a node program that misuses the API
 * or deadlocks) or a report whose data is not correct is a finding, as a
 * crash is. Bad input refused by run_scenario (the memory limit, set low
 * here) is not.
 *
 * Bounded: a machine of more than FUZZ_MAX_NODES nodes stops after
 * prepare_machine. Such machines are valid, and an algorithm's prepare
 * may size tables by the node count, so fuzzing them would only measure
 * the host's memory; the size limits themselves are checked by
 * prepare_machine, which still runs. `make fuzz` also caps each
 * allocation and the process's memory (-malloc_limit_mb, -rss_limit_mb in
 * tests/fuzz/run.sh), so a prepare that sizes memory by an unchecked
 * parameter is reported as a finding rather than swapping.
 */
#include "fuzz.h"
#include "machine.h"
#include "prepare.h"
#include "scenario.h"

#define FUZZ_MAX_NODES 4096u
#define FUZZ_RUN_NODES 64u
#define FUZZ_RUN_ELEMENTS 4096u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_init();
    char *text = g_strndup((const char *)data, size);
    GError *e = NULL;
    Scenario *s = scenario_load_data("fuzz.ini", text, &e);
    g_free(text);
    if (!s) {
        fuzz_check_error(&e);
        return 0;
    }
    /* A program key would load whatever shared object the input names:
     * running code is not what this harness fuzzes (tests/sdk.sh checks
     * the loader's refusals). */
    scenario_remove_key(s, "algorithm", "program");
    Machine m;
    gboolean small = TRUE;
    if (prepare_machine(s, &m, &e)) {
        small = machine_nodes(&m) <= FUZZ_MAX_NODES;
        machine_clear(&m);
    } else {
        fuzz_check_error(&e);
    }
    if (small) {
        RunSetup setup;
        if (run_setup(s, &setup, &e)) {
            gboolean tiny = machine_nodes(&setup.machine) <= FUZZ_RUN_NODES
                && setup.layout.memory_elements <= FUZZ_RUN_ELEMENTS;
            run_setup_release(&setup, TRUE);
            if (tiny)
                fuzz_run(s);
        } else {
            fuzz_check_error(&e);
        }
    }
    scenario_free(s);
    return 0;
}
