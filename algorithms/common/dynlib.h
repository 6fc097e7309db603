/* dynlib.h -- a library opened the first time an algorithm needs it.
 *
 * cubemu links neither CBLAS nor FFTW: each would add to every start the
 * dynamic loader's work on it (OpenBLAS the most, with libgfortran),
 * although only matmul and DBLAS call BLAS and only the FFT reference
 * above 1024 points calls FFTW (docs/performance.md, "Start-up"). A
 * DynLib names the library's sonames and remembers the outcome: opened
 * once, and a failure's message (which says how to install it) is given
 * again to every later caller. */
#ifndef CUBE_DYNLIB_H
#define CUBE_DYNLIB_H

#include <glib.h>

typedef struct {
    const char *what;           /* "CBLAS", in messages */
    const char *hint;           /* how to get it, in messages */
    const char *const *names;   /* sonames to try in order, NULL-ended */
    void *handle;               /* once opened */
    const char *opened;         /* the soname that opened */
    char *failed;               /* once failed: why */
} DynLib;

/* Open the library (once); FALSE with the reason if it cannot be. */
gboolean dynlib_open(DynLib *lib, GError **error);

/* Look up `symbol` into *slot; if it is missing the library counts as
 * failed from then on (closed, and the message kept). */
gboolean dynlib_find(DynLib *lib, void **slot, const char *symbol,
                     GError **error);

/* The optional form: NULL if the library lacks it. */
void *dynlib_optional(DynLib *lib, const char *symbol);

#endif
