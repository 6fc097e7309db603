/* cubemu.h -- libcubemu: cubemu's communication algorithms for MPI programs.
 *
 * The functions below run, on the ranks of a communicator the caller
 * gives, the very node programs that cubemu emulates (algorithms/), through
 * cubemu's MPI backend of the node-program API: one rank is one node.
 *
 *   BMMC permutations   Cormen 1997 (Sections 5-7): factor y = A x XOR c
 *                       once (cubemu_bmmc_factor), perform it on any data
 *                       as many times as needed (cubemu_bmmc_perform), or
 *                       both in one call (cubemu_bmmc); 2^p ranks.
 *   Gray <-> binary     Johnsson & Ho 1990 (Section 4, Theorem 5): move
 *                       rank G(i)'s block to rank i, or back; 2^p ranks.
 *   Transposes          Al Na'mneh, Pan & Yoo 2006: a side x side matrix
 *                       distributed by block rows becomes its transpose,
 *                       by pairwise exchange, butterfly, Bruck's index
 *                       algorithm with radix r, or the adaptive radix;
 *                       any number of ranks (butterfly: a power of two).
 *
 * Rules.
 *  - The library never calls MPI_Init or MPI_Finalize and never touches
 *    MPI_COMM_WORLD: it communicates on a duplicate of the communicator it
 *    is given (MPI_Comm_dup), so its messages never meet the caller's.
 *  - Every function is collective over its communicator: every rank calls
 *    it with the same arguments (its own data aside). Arguments are checked
 *    on every rank and then agreed on collectively before any data moves:
 *    a call that is wrong on one rank, or whose arguments differ between
 *    ranks, returns the same error code on every rank (ranks that disagree:
 *    CUBEMU_ERR_MISMATCH), and leaves the destination untouched.
 *  - Errors are negative return codes; cubemu_strerror names them. Nothing
 *    in the library aborts or exits the caller's program on bad input.
 *    Failures of MPI itself follow the communicator's error handler, which
 *    the duplicate inherits.
 *  - Elements are opaque blocks of element_size bytes (any size from 1);
 *    only those bytes travel. Local arrays hold their elements contiguously
 *    in the order the function describes.
 */
#ifndef CUBEMU_H
#define CUBEMU_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CUBEMU_VERSION_MAJOR 0
#define CUBEMU_VERSION_MINOR 1
#define CUBEMU_VERSION_PATCH 0

/* Return codes: 0 on success, one of these (negative) on failure. */
enum {
    CUBEMU_SUCCESS = 0,
    CUBEMU_ERR_ARG = -1,          /* a NULL pointer where data or a result
                                     is required, or element_size 0 */
    CUBEMU_ERR_COMM = -2,         /* MPI_COMM_NULL, an intercommunicator,
                                     or MPI not initialized / finalized */
    CUBEMU_ERR_COMM_SIZE = -3,    /* the communicator's size is not what
                                     the algorithm needs (a power of two) */
    CUBEMU_ERR_N = -4,            /* BMMC: n outside p..40 */
    CUBEMU_ERR_LAYOUT = -5,       /* BMMC: layout outside 0..n-p */
    CUBEMU_ERR_MATRIX = -6,       /* BMMC: a column has a 1 in a row >= n */
    CUBEMU_ERR_COMPLEMENT = -7,   /* BMMC: c has a 1 at a bit >= n */
    CUBEMU_ERR_SINGULAR = -8,     /* BMMC: A is singular over GF(2) */
    CUBEMU_ERR_METHOD = -9,       /* transpose: unknown method, a radix
                                     outside 2..P, or butterfly on P not a
                                     power of two */
    CUBEMU_ERR_SIZE = -10,        /* a count or matrix side the algorithm
                                     cannot take (side not a multiple of P,
                                     above the limit, or a message above
                                     MPI's int count of bytes) */
    CUBEMU_ERR_MISMATCH = -11,    /* ranks called with different arguments */
    CUBEMU_ERR_NOMEM = -12,
    CUBEMU_ERR_INTERNAL = -13     /* a node program failed: a bug; please
                                     report it with the message printed */
};

/* The message for a return code; never NULL ("unknown error code" for a
 * code that is not one of the above). */
const char *cubemu_strerror(int code);

/* ---- BMMC permutations (Cormen 1997) --------------------------------- */

/* The permutation takes the element with index x (0 <= x < N = 2^n) to
 * index A x XOR c, A an n x n matrix over GF(2) given by its n columns
 * (column j is columns[j], row i of it in bit i), c the complement vector.
 *
 * Layout f (Section 6, Figure 1): with P = 2^p ranks, index x lives on the
 * rank made of its bits f .. f+p-1, at the local offset made of its low f
 * bits followed by its bits f+p .. n-1; each rank's local array holds its
 * N/P elements by offset. f = n-p is processor-major (rank = the top p
 * bits: block distribution), f = 0 processor-minor (cyclic). */
#define CUBEMU_LAYOUT_PROCESSOR_MAJOR (-1)   /* f = n - p */
#define CUBEMU_LAYOUT_PROCESSOR_MINOR 0      /* f = 0 */

typedef struct cubemu_bmmc_plan cubemu_bmmc_plan;

/* Factor the permutation for the 2^p ranks of comm (Sections 4 and 6).
 * On success *plan is a new plan for cubemu_bmmc_perform. Collective. */
int cubemu_bmmc_factor(MPI_Comm comm, int n, const uint64_t *columns,
                       uint64_t complement, int layout,
                       cubemu_bmmc_plan **plan);

/* Perform the plan's permutation: src holds this rank's N/P elements of
 * element_size bytes under the layout, dst receives its N/P elements of
 * the permuted array (dst may equal src; otherwise they must not
 * overlap). Phase 1 permutes locally, phase 2 runs 2^rank(gamma) rounds
 * of one message per rank (Section 5). Collective. */
int cubemu_bmmc_perform(cubemu_bmmc_plan *plan, const void *src, void *dst,
                        size_t element_size);

/* Rounds of phase 2, and elements per message (Lemma 3), or 0 for NULL. */
uint64_t cubemu_bmmc_rounds(const cubemu_bmmc_plan *plan);
uint64_t cubemu_bmmc_elements_per_message(const cubemu_bmmc_plan *plan);

/* Free a plan (collective: it frees the plan's communicator). *plan
 * becomes NULL; a NULL plan is ignored. */
void cubemu_bmmc_free(cubemu_bmmc_plan **plan);

/* Factor, perform and free in one call (libbmmc_mpi's BMMC_MPI()). */
int cubemu_bmmc(MPI_Comm comm, int n, const uint64_t *columns,
                uint64_t complement, int layout, const void *src, void *dst,
                size_t element_size);

/* ---- Gray code <-> binary code (Johnsson & Ho 1990) ------------------- */

/* Every rank holds count elements. Gray to binary: afterwards rank i holds
 * the block rank G(i) = i XOR (i >> 1) held. Binary to Gray: rank G(i)
 * holds the block rank i held. The concurrent algorithm of Theorem 5
 * (n-1 parts, every dimension busy in every step). dst may equal src.
 * 2^p ranks. Collective. */
int cubemu_gray_to_binary(MPI_Comm comm, const void *src, void *dst,
                          size_t count, size_t element_size);
int cubemu_binary_to_gray(MPI_Comm comm, const void *src, void *dst,
                          size_t count, size_t element_size);

/* ---- Matrix transposes (Al Na'mneh, Pan & Yoo 2006) ------------------ */

typedef enum {
    CUBEMU_TRANSPOSE_PAIRWISE = 0,   /* Fig. 4: P - 1 steps */
    CUBEMU_TRANSPOSE_BUTTERFLY = 1,  /* Section 4.1: log2 P phases */
    CUBEMU_TRANSPOSE_BRUCK = 2,      /* Sections 3.2, 5: radix r */
    CUBEMU_TRANSPOSE_ADAPTIVE = 3,   /* Section 5: bruck with the radix of
                                        least modelled cost */
    CUBEMU_TRANSPOSE_MPICH = 4       /* Fig. 2: all sends posted at once */
} cubemu_transpose_method;

/* The matrix is side x side elements, distributed by block rows: rank i
 * holds rows i b .. i b + b - 1 (b = side / P), row-major, side x b
 * elements, in src; dst receives the same rows of the transpose. radix:
 * the radix of BRUCK (2..P); ignored otherwise. ADAPTIVE takes the radix
 * that cubemu_transpose_radix gives for the paper's SMP (Ts = 300 Tw,
 * Tw = one 8-byte element's time, Section 6), scaled to element_size.
 * side must be a multiple of P and at most 16384; dst must not overlap
 * src. Collective. */
int cubemu_transpose(MPI_Comm comm, cubemu_transpose_method method,
                     int radix, size_t side, const void *src, void *dst,
                     size_t element_size);

/* The radix of least cost by Section 5's model H(N, P) for P ranks, an
 * N = side^2 element matrix, a message startup of ts and a transfer time
 * of tw per element (any unit, the same for both); 2 when P <= 2, or a
 * negative code (CUBEMU_ERR_ARG for P < 1, side 0, or ts, tw negative). */
int cubemu_transpose_radix(int P, size_t side, double ts, double tw);

#ifdef __cplusplus
}
#endif

#endif
