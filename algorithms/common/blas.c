/* blas.c -- loading CBLAS on first use (blas.h). */
#define CUBE_BLAS_IMPLEMENTATION
#include "blas.h"

#include "dynlib.h"

BlasApi blas_api;

static const char *const blas_libraries[] = { "libblas.so.3",
                                              "libopenblas.so.0",
                                              "libcblas.so.3", NULL };

static DynLib blas_lib = { .what = "CBLAS",
                           .hint = "make deps installs libopenblas-dev",
                           .names = blas_libraries };

gboolean blas_load(GError **error)
{
    static gboolean loaded;
    if (loaded)
        return TRUE;
    BlasApi api;
#define BLAS_FIND(f)                                                \
    if (!dynlib_find(&blas_lib, (void **)&api.f, #f, error))        \
        return FALSE;
    BLAS_FUNCTIONS(BLAS_FIND)
#undef BLAS_FIND
    blas_api = api;
    loaded = TRUE;
    /* OpenBLAS's threaded build starts a thread per core when it is
     * loaded, spinning for a while before they sleep; a run is
     * one thread (node programs' kernels run one node at a time). Both
     * entry points are OpenBLAS's own; another CBLAS lacks them. */
    void (*set_threads)(int), (*shutdown)(void);
    *(void **)&set_threads = dynlib_optional(&blas_lib,
                                             "openblas_set_num_threads");
    *(void **)&shutdown = dynlib_optional(&blas_lib, "blas_thread_shutdown_");
    if (set_threads)
        set_threads(1);
    if (shutdown)
        shutdown();
    return TRUE;
}

void blas_dgemm_nn(int m, int n, int k, const double *a, int lda,
                   const double *b, int ldb, double beta, double *c, int ldc)
{
    if ((int64_t)m * n * k > BLAS_SMALL) {
        blas_api.cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n,
                             k, 1.0, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    /* Four rows of C's column at a time, held in registers while A's
     * columns add in: each element starts from C (0 when beta is 0, for C
     * is not read then, as in BLAS; beta C otherwise) and gets its k
     * products added in k order, as a dot product would, so the bits do
     * not depend on the blocking. */
    for (int j = 0; j < n; j++) {
        double *cj = c + (size_t)j * ldc;
        const double *bj = b + (size_t)j * ldb;
        int i = 0;
        for (; i + 4 <= m; i += 4) {
            double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
            if (beta != 0.0) {
                s0 = beta * cj[i];
                s1 = beta * cj[i + 1];
                s2 = beta * cj[i + 2];
                s3 = beta * cj[i + 3];
            }
            const double *ap = a + i;
            for (int p = 0; p < k; p++, ap += lda) {
                double bpj = bj[p];
                s0 += ap[0] * bpj;
                s1 += ap[1] * bpj;
                s2 += ap[2] * bpj;
                s3 += ap[3] * bpj;
            }
            cj[i] = s0;
            cj[i + 1] = s1;
            cj[i + 2] = s2;
            cj[i + 3] = s3;
        }
        for (; i < m; i++) {
            double s = beta == 0.0 ? 0.0 : beta * cj[i];
            for (int p = 0; p < k; p++)
                s += a[i + (size_t)p * lda] * bj[p];
            cj[i] = s;
        }
    }
}
