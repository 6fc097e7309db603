/* oom.c -- the engine's allocations that scale with a run (oom.h). */
#ifndef _DEFAULT_SOURCE      /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#define _DEFAULT_SOURCE
#endif
#include "oom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/* The big zeroed arrays (memories, channels, nodes, the match table):
 * mapped directly and offered to the kernel for transparent huge pages,
 * so that first touching them costs one fault per 2 MiB instead of per
 * 4 KiB, and an array read at random costs no page walk per read. On a
 * virtual machine a fault is a trap to the hypervisor, so the 512 faults
 * of 4 KiB pages cost far more than the one of a huge page
 * (docs/performance.md, "Page faults and the TLB"). So from 1 MiB on the
 * length is rounded up to whole huge pages (at most doubling an array of
 * 1 to 2 MiB, the 14-cube's nodes); below that, malloc's own mapping.
 * Not lower: a host may take back free
 * 2 MiB blocks soon after a process frees them (free page reporting),
 * and a huge page from such a block costs its whole 2 MiB cold, so
 * rounding the small per-link arrays up makes runs after a pause slower.
 * Where huge pages are off, madvise is a hint that does nothing. */
#define BIG_MIN_BYTES ((size_t)1 << 20)
#define BIG_PAGE_BYTES ((size_t)2 << 20)
#define BIG_ALIGN 64

#ifndef EMU_BIG_MALLOC
static size_t big_length(size_t bytes)
{
    return (bytes + BIG_PAGE_BYTES - 1) & ~(BIG_PAGE_BYTES - 1);
}
#endif

void *emu_big_new0(size_t bytes, const char *what)
{
#ifndef EMU_BIG_MALLOC
    if (bytes >= BIG_MIN_BYTES) {
        size_t len = big_length(bytes);
        void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            emu_out_of_memory(len, what);
#ifdef MADV_HUGEPAGE
        madvise(p, len, MADV_HUGEPAGE);
#endif
        return p;
    }
#endif
    /* Aligned to a cache line, which a Node requires (_Alignas); one
     * allocator for all of them. Unlike calloc, this zeroes with memset
     * pages the kernel has zeroed already (as g_aligned_alloc0 did, which
     * aborts where posix_memalign can fail softly): a small cost, paid
     * only below BIG_MIN_BYTES, since larger arrays are mapped whole
     * above. */
    void *p = NULL;
    if (posix_memalign(&p, BIG_ALIGN, bytes ? bytes : 1) != 0)
        emu_out_of_memory(bytes, what);
    return memset(p, 0, bytes ? bytes : 1);
}

void emu_big_free(void *p, size_t bytes)
{
    if (!p)
        return;
#ifdef EMU_BIG_MALLOC
    (void)bytes;
#else
    if (bytes >= BIG_MIN_BYTES) {
        munmap(p, big_length(bytes));
        return;
    }
#endif
    free(p);
}
