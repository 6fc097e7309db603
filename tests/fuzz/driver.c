/* driver.c -- a main() for the fuzz harnesses without libFuzzer: feeds each
 * file named on the command line to LLVMFuzzerTestOneInput once, so the
 * seed corpora and the regressions run with any compiler in `make check`
 * and under ASan/UBSan in `make sanitize` (tests/fuzz.sh).
 *
 * Prints "ok FILE" per input and ends with "N passed, N failed"; a crash
 * is the sanitizer's report and a non-zero exit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    for (int i = 1; i < argc; i++) {
        gchar *data = NULL;
        gsize len = 0;
        GError *e = NULL;
        if (!g_file_get_contents(argv[i], &data, &len, &e)) {
            fprintf(stderr, "FAIL %s: %s\n", argv[i], e->message);
            g_error_free(e);
            failed++;
            continue;
        }
        /* An exact-size copy, as libFuzzer gives, so that reading one
         * byte past the input is caught. */
        uint8_t *exact = malloc(len ? len : 1);
        memcpy(exact, data, len);
        g_free(data);
        LLVMFuzzerTestOneInput(exact, len);
        free(exact);
        printf("ok %s\n", argv[i]);
        passed++;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
