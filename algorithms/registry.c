/* registry.c -- every algorithm cubemu knows, one line each.
 * To add one: write algorithms/NAME/NAME.c and add its line to
 * ALGORITHM_LIST (the Makefile finds the folder by itself): ALGORITHM for
 * one that defines an Algorithm (algorithm.h), PROGRAM for one written
 * against the node-program SDK (sdk/cubemu/program.h), exactly as a user's
 * loaded program is.
 */
#include "algorithm.h"
#include "sdk.h"

#define ALGORITHM_LIST(ALGORITHM, PROGRAM) \
    ALGORITHM(algorithm_gray_to_binary)    \
    ALGORITHM(algorithm_binary_to_gray)    \
    ALGORITHM(algorithm_exchange)          \
    ALGORITHM(algorithm_bmmc)              \
    ALGORITHM(algorithm_reshape)           \
    PROGRAM(program_shift)                 \
    ALGORITHM(algorithm_fft)               \
    ALGORITHM(algorithm_fft_broadcast)     \
    ALGORITHM(algorithm_transpose)         \
    ALGORITHM(algorithm_matmul)            \
    ALGORITHM(algorithm_matvec)            \
    ALGORITHM(algorithm_vecmat)            \
    ALGORITHM(algorithm_rank1)             \
    ALGORITHM(algorithm_schedule)

#define DECLARE_ALGORITHM(a) extern const Algorithm a;
#define DECLARE_PROGRAM(p) extern const cubemu_program p;
ALGORITHM_LIST(DECLARE_ALGORITHM, DECLARE_PROGRAM)

#define ENTRY_ALGORITHM(a) { &a, NULL },
#define ENTRY_PROGRAM(p) { NULL, &p },
static const struct {
    const Algorithm *algorithm;
    const cubemu_program *program;
} registry[] = { ALGORITHM_LIST(ENTRY_ALGORITHM, ENTRY_PROGRAM) };

/* Built once: a program's Algorithm is made from its descriptor
 * (sdk_algorithm), which checks the descriptor as it checks a loaded
 * one's, and kept for the life of the process. */
const Algorithm *const *algorithm_list(void)
{
    static const Algorithm *list[G_N_ELEMENTS(registry) + 1];
    static gsize done = 0;
    if (g_once_init_enter(&done)) {
        for (size_t i = 0; i < G_N_ELEMENTS(registry); i++) {
            if (registry[i].algorithm) {
                list[i] = registry[i].algorithm;
                continue;
            }
            g_autoptr(GError) e = NULL;
            list[i] = sdk_algorithm(registry[i].program, NULL, &e);
            if (!list[i])
                g_error("built-in program: %s", e->message);
        }
        g_once_init_leave(&done, 1);
    }
    return list;
}
