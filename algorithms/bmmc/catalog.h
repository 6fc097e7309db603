/* catalog.h -- named BMMC permutations (Cormen 1997, Section 1 and
 * Appendix C) and the text forms that name or spell out a permutation.
 *
 * Every function builds a characteristic matrix A (n x n, Gf2Matrix, pass
 * A.col to bmmc_plan_new) and, where it says so, a complement vector c.
 * Failures are recoverable input errors reported through GError in the
 * BMMC_CATALOG_ERROR domain; the message says what was wrong and what would
 * be valid. On failure the outputs are left untouched.
 *
 * Names, for N = 2^n elements with index bits x_0 (least significant) ..
 * x_{n-1}:
 *   identity         y = x
 *   bit-reversal     y_i = x_{n-1-i}                  (antidiagonal A)
 *   vector-reversal  y = N - 1 - x: A = I, c = all ones
 *   gray             y_i = x_i XOR x_{i+1}, x_n = 0    (matrix (6))
 *   gray-inverse     y_i = x_i XOR x_{i+1} XOR .. XOR x_{n-1} (inverse of gray)
 *   shuffle          y = x rotated left one bit (perfect shuffle: element x
 *                    of the first half goes to 2x, of the second half to
 *                    2(x - N/2) + 1) = transpose:2x(N/2)
 *   unshuffle        y = x rotated right one bit = transpose:(N/2)x2
 *   transpose:QxR    transpose of a Q x R matrix (Q rows, R columns, powers
 *                    of two, Q R = N) stored in row-major order: element
 *                    (i, j) has index i R + j, so the row bits are the most
 *                    significant lg Q bits (positions lg R .. n-1) and the
 *                    column bits the least significant lg R bits; it moves to
 *                    (j, i) of the R x Q result, index j Q + i.
 * All have c = 0 except vector-reversal.
 */
#ifndef BMMC_CATALOG_H
#define BMMC_CATALOG_H

#include <glib.h>
#include <stdint.h>

#include "gf2.h"

#define BMMC_CATALOG_ERROR (bmmc_catalog_error_quark())
GQuark bmmc_catalog_error_quark(void);

typedef enum BmmcCatalogError {
    BMMC_CATALOG_ERROR_UNKNOWN,     /* unknown permutation name or key */
    BMMC_CATALOG_ERROR_SIZE,        /* n out of range, bad transpose sizes */
    BMMC_CATALOG_ERROR_COLUMNS,     /* wrong count, bad word, row >= n */
    BMMC_CATALOG_ERROR_SINGULAR,    /* columns given are dependent */
    BMMC_CATALOG_ERROR_COMPLEMENT,  /* bad word, bit >= n */
    BMMC_CATALOG_ERROR_SYNTAX       /* a line of bmmc_catalog_parse text */
} BmmcCatalogError;

/* The fixed names above, then "transpose:QxR"; NULL-terminated. */
const char *const *bmmc_catalog_names(void);

/* Build the named permutation (a name above or transpose:QxR) on 2^n
 * elements. */
gboolean bmmc_catalog_named(const char *name, int n, Gf2Matrix *A, uint64_t *c,
                            GError **error);

/* A = the transpose of a 2^lg_rows x 2^lg_cols row-major matrix
 * (Appendix C), n = lg_rows + lg_cols <= 64. */
void bmmc_catalog_transpose(int lg_rows, int lg_cols, Gf2Matrix *A);

/* value = "c0,c1,...,c{n-1}": exactly n columns, each a decimal or
 * 0x-prefixed hex word below 2^n, column j giving rows of A_j; the matrix
 * must be nonsingular (the message names a dependent column). */
gboolean bmmc_catalog_parse_columns(const char *value, int n, Gf2Matrix *A,
                                    GError **error);
/* value = one decimal or 0x-prefixed hex word below 2^n. */
gboolean bmmc_catalog_parse_complement(const char *value, int n, uint64_t *c,
                                       GError **error);

/* A whole specification, one "key = value" per line; blank lines and lines
 * starting with '#' are skipped. Keys: permutation (a name), columns,
 * complement. Exactly one of permutation and columns; complement, if given,
 * replaces the permutation's complement vector. All errors are collected,
 * one per line of the message, each as "line N: ...". */
gboolean bmmc_catalog_parse(const char *text, int n, Gf2Matrix *A, uint64_t *c,
                            GError **error);

#endif
