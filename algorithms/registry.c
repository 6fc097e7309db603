/* registry.c -- every algorithm cubemu knows, one line each.
 * To add one: write algorithms/NAME/NAME.c defining a CubeAlgorithm and add
 * its line to CUBE_ALGORITHMS (the Makefile finds the folder by itself).
 */
#include "algorithm.h"

#define CUBE_ALGORITHMS(X)                  \
    X(cube_algorithm_gray_to_binary)        \
    X(cube_algorithm_binary_to_gray)        \
    X(cube_algorithm_exchange)              \
    X(cube_algorithm_bmmc)                  \
    X(cube_algorithm_reshape)

#define CUBE_DECLARE(a) extern const CubeAlgorithm a;
CUBE_ALGORITHMS(CUBE_DECLARE)

#define CUBE_ENTRY(a) &a,
const CubeAlgorithm *const cube_algorithms[] = { CUBE_ALGORITHMS(CUBE_ENTRY) NULL };
