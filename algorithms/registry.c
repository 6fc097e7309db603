/* registry.c -- every algorithm cubemu knows, one line each.
 * To add one: write algorithms/NAME/NAME.c defining a Algorithm and add
 * its line to ALGORITHM_LIST (the Makefile finds the folder by itself).
 */
#include "algorithm.h"

#define ALGORITHM_LIST(X)                  \
    X(algorithm_gray_to_binary)        \
    X(algorithm_binary_to_gray)        \
    X(algorithm_exchange)              \
    X(algorithm_bmmc)                  \
    X(algorithm_reshape)                   \
    X(algorithm_shift)                  \
    X(algorithm_fft)                    \
    X(algorithm_fft_broadcast)          \
    X(algorithm_transpose)              \
    X(algorithm_matmul)                 \
    X(algorithm_matvec)                 \
    X(algorithm_vecmat)                 \
    X(algorithm_rank1)

#define ALGORITHM_DECLARE(a) extern const Algorithm a;
ALGORITHM_LIST(ALGORITHM_DECLARE)

#define ALGORITHM_ENTRY(a) &a,
const Algorithm *const algorithm_registry[] = { ALGORITHM_LIST(ALGORITHM_ENTRY) NULL };
