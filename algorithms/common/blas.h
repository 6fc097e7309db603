/* blas.h -- CBLAS for the node programs' local kernels, loaded when an
 * algorithm that uses it is prepared.
 *
 * Linking OpenBLAS into cubemu would slow every start (the library,
 * libgfortran and libquadmath, bound at load, and OpenBLAS's constructor),
 * although only the matrix multiplications and the distributed BLAS call
 * it (docs/performance.md, "Start-up"). So cubemu does not link it:
 * blas_load() opens the system's CBLAS (libblas.so.3, OpenBLAS on Debian
 * through alternatives) the first time, tells OpenBLAS to use one thread
 * (a run is one thread; see run.c), and the cblas_* names below call
 * through the table it fills. A prepare that needs BLAS calls blas_load()
 * first and fails with its message if the library is missing. */
#ifndef CUBE_BLAS_H
#define CUBE_BLAS_H

#include <cblas.h>
#include <glib.h>

#define BLAS_FUNCTIONS(X) \
    X(cblas_dgemm) X(cblas_dgemv) X(cblas_dger) \
    X(cblas_zgemm) X(cblas_zgemv) X(cblas_zgeru)

typedef struct {
#define BLAS_MEMBER(f) __typeof__(f) *f;
    BLAS_FUNCTIONS(BLAS_MEMBER)
#undef BLAS_MEMBER
} BlasApi;

extern BlasApi blas_api;

/* Load CBLAS once; FALSE (with the reason) if it cannot be loaded. */
gboolean blas_load(GError **error);

/* C = A B + beta C, column-major, no transposes: cblas_dgemm, except
 * that a product of at most BLAS_SMALL multiply-adds is a loop of its
 * own. OpenBLAS packs both operands into buffers on every call, which
 * for the blocks of a few elements a big machine's nodes hold costs
 * several times the product itself. The loop sums each element in k
 * order; the matrix programs' values are small integers, whose sums are
 * exact in any order, so the results are the same bits either way. */
#define BLAS_SMALL 4096
void blas_dgemm_nn(int m, int n, int k, const double *a, int lda,
                   const double *b, int ldb, double beta, double *c, int ldc);

#ifndef CUBE_BLAS_IMPLEMENTATION
#define cblas_dgemm (blas_api.cblas_dgemm)
#define cblas_dgemv (blas_api.cblas_dgemv)
#define cblas_dger (blas_api.cblas_dger)
#define cblas_zgemm (blas_api.cblas_zgemm)
#define cblas_zgemv (blas_api.cblas_zgemv)
#define cblas_zgeru (blas_api.cblas_zgeru)
#endif

#endif
