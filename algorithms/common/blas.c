/* blas.c -- loading CBLAS on first use (blas.h). */
#define CUBE_BLAS_IMPLEMENTATION
#include "blas.h"

#include <dlfcn.h>

BlasApi blas_api;

static const char *const blas_libraries[] = { "libblas.so.3",
                                              "libopenblas.so.0",
                                              "libcblas.so.3" };

gboolean blas_load(GError **error)
{
    static void *handle;
    static char *failed;
    if (handle)
        return TRUE;
    if (failed) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "%s", failed);
        return FALSE;
    }
    const char *why = NULL;
    void *h = NULL;
    for (size_t i = 0; i < G_N_ELEMENTS(blas_libraries) && !h; i++) {
        h = dlopen(blas_libraries[i], RTLD_NOW | RTLD_LOCAL);
        if (!h && !why)
            why = dlerror();
    }
    if (!h) {
        failed = g_strdup_printf("cannot load CBLAS (libblas.so.3: %s); "
                                 "make deps installs libopenblas-dev",
                                 why ? why : "not found");
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "%s", failed);
        return FALSE;
    }
    BlasApi api;
#define BLAS_FIND(f)                                                      \
    *(void **)&api.f = dlsym(h, #f);                                       \
    if (!api.f) {                                                         \
        failed = g_strdup_printf("the CBLAS library has no " #f);         \
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "%s", failed); \
        dlclose(h);                                                       \
        return FALSE;                                                     \
    }
    BLAS_FUNCTIONS(BLAS_FIND)
#undef BLAS_FIND
    blas_api = api;
    handle = h;
    /* OpenBLAS's threaded build starts a thread per core when it is
     * loaded, spinning for a tenth of a second before they sleep; a run is
     * one thread (node programs' kernels run one node at a time). Both
     * entry points are OpenBLAS's own; another CBLAS lacks them. */
    void (*set_threads)(int), (*shutdown)(void);
    *(void **)&set_threads = dlsym(h, "openblas_set_num_threads");
    *(void **)&shutdown = dlsym(h, "blas_thread_shutdown_");
    if (set_threads)
        set_threads(1);
    if (shutdown)
        shutdown();
    return TRUE;
}
