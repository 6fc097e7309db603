/* oom.c -- the engine's allocations that scale with a run (oom.h). */
#include "oom.h"

#include <stdio.h>
#include <stdlib.h>

void emu_out_of_memory(size_t bytes, const char *what)
{
    char *iec = g_format_size_full(bytes, G_FORMAT_SIZE_IEC_UNITS);
    /* Written in one call, so that it is one line whatever else writes. */
    fprintf(stderr, "cubemu: machine too large: cannot allocate %zu bytes "
            "(%s) for %s: the run outgrew the estimate it was admitted "
            "with; give the process more memory\n", bytes, iec ? iec : "?", what);
    fflush(stderr);
    exit(2);
}

/* n * size, or emu_out_of_memory where it overflows. */
static size_t product(size_t n, size_t size, const char *what)
{
    if (size && n > G_MAXSIZE / size)
        emu_out_of_memory(G_MAXSIZE, what);
    return n * size;
}

/* n * size bytes (at least one, so that NULL always means failure),
 * zeroed or not. */
static void *alloc(size_t n, size_t size, gboolean zero, const char *what)
{
    size_t bytes = product(n, size, what), ask = bytes ? bytes : 1;
    void *p = zero ? g_try_malloc0(ask) : g_try_malloc(ask);
    if (!p)
        emu_out_of_memory(bytes, what);
    return p;
}

void *emu_alloc(size_t n, size_t size, const char *what)
{
    return alloc(n, size, FALSE, what);
}

void *emu_alloc0(size_t n, size_t size, const char *what)
{
    return alloc(n, size, TRUE, what);
}

void *emu_realloc(void *p, size_t n, size_t size, const char *what)
{
    size_t bytes = product(n, size, what);
    void *q = g_try_realloc(p, bytes ? bytes : 1);
    if (!q)
        emu_out_of_memory(bytes, what);
    return q;
}

void *emu_aligned_alloc(size_t align, size_t bytes, const char *what)
{
    /* aligned_alloc wants a size that is a multiple of the alignment */
    size_t ask = bytes ? bytes : 1;
    if (ask > G_MAXSIZE - (align - 1))
        emu_out_of_memory(bytes, what);
    ask = (ask + align - 1) / align * align;
    void *p = aligned_alloc(align, ask);
    if (!p)
        emu_out_of_memory(bytes, what);
    return p;
}
