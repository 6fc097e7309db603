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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* GLib criticals and warnings abort, so the fuzzer reports them. */
static inline void fuzz_init(void)
{
    static gboolean done;
    if (done)
        return;
    done = TRUE;
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

#endif
