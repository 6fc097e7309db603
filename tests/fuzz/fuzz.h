/* fuzz.h -- what the fuzz harnesses share (tests/fuzz/fuzz_*.c).
 *
 * Each harness is one LLVMFuzzerTestOneInput: linked with libFuzzer by
 * `make fuzz` (clang, build-fuzz/), or with tests/fuzz/driver.c, which
 * feeds it the files named on its command line, by `make check` and `make
 * sanitize` (gcc) over the seed corpora and the regressions.
 *
 * A harness owns what it allocates and frees all of it (LeakSanitizer is
 * on), never prints, and treats a GLib critical or warning as a crash: a
 * g_return_if_fail reached from input is a bug like any other.
 */
#ifndef CUBE_FUZZ_H
#define CUBE_FUZZ_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* CUBEMU_MEMORY_LIMIT for the runs of fuzz_run: 64 MiB. */
#define FUZZ_RUN_MEMORY "67108864"

/* GLib criticals and warnings abort, so the fuzzer reports them. */
static inline void fuzz_init(void)
{
    static gboolean done;
    if (done)
        return;
    done = TRUE;
    setenv("CUBEMU_MEMORY_LIMIT", FUZZ_RUN_MEMORY, 1);
    g_log_set_always_fatal(G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL
                           | G_LOG_LEVEL_WARNING);
}

/* Every error the code under test returns must say something. */
static inline void fuzz_check_error(GError **e)
{
    if (*e == NULL || (*e)->message == NULL || (*e)->message[0] == '\0')
        g_error("fuzz: failure without a message");
    g_clear_error(e);
}

/* Run a scenario that run_setup accepted: what run_scenario refuses must be
 * bad input (SCENARIO_ERROR: the memory limit); an engine error (a node
 * program that misuses the API or deadlocks) or a report whose data is not
 * correct is a finding, as a crash is. */
static inline void fuzz_run(const Scenario *s)
{
    GError *e = NULL;
    Report *r = run_scenario(s, NULL, &e);
    if (!r) {
        if (e->domain != SCENARIO_ERROR)
            g_error("fuzz: accepted scenario failed to run: %s", e->message);
        fuzz_check_error(&e);
        return;
    }
    if (!r->data_correct)
        g_error("fuzz: accepted scenario gave wrong data: %s",
                r->data_problem ? r->data_problem : "?");
    report_free(r);
}

#endif
