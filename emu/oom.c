/* oom.c -- the engine's allocations that scale with a run (oom.h). */
#ifndef _DEFAULT_SOURCE      /* MAP_ANONYMOUS */
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
 * from 1 MiB on mapped on their own, zeroed by the kernel page by page
 * as they are first touched (no memset, and a page never touched costs
 * nothing), and given back whole; below that, malloc's, which reuses
 * what earlier arrays freed.
 *
 * They are not advised as transparent huge pages. On a virtual machine
 * that gives free memory back to its host (free page reporting, which
 * reports whole free 2 MiB blocks), a huge page first touched after a
 * pause of a few seconds costs several times what its 512 small pages
 * cost, and those stay cheap whether the machine paused or not (`bench
 * --first-touch` measures both; make bench records them): the host must
 * back the whole block again. Every run would pay that for its memories
 * at set-up and for the arrays the engine takes while it runs (a link's
 * channels, the match table, the message slabs), and the huge pages'
 * reach in the TLB was worth less than that on every workload measured
 * but the largest exchange's node memories (docs/performance.md, "Page
 * faults and the TLB"). Where the system makes every mapping huge
 * (transparent huge pages "always"), it still does. */
#define BIG_MIN_BYTES ((size_t)1 << 20)
#define BIG_ALIGN 64

void *emu_big_new0(size_t bytes, const char *what)
{
#ifndef EMU_BIG_MALLOC
    if (bytes >= BIG_MIN_BYTES) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            emu_out_of_memory(bytes, what);
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
        munmap(p, bytes);
        return;
    }
#endif
    free(p);
}

/* Arrays the engine takes while it runs and then touches whole (the
 * match table, grown where its keys hash to; a link's channels on a
 * small machine, sim_channels.c): from POPULATED_MIN_BYTES on, mapped
 * with MAP_POPULATE, so that the kernel zeroes and maps every page in
 * one call instead of taking a fault for each as it is first touched,
 * which on this kind of virtual machine costs most of the zeroing again.
 * Below that, and under AddressSanitizer, emu_big_new0's. */
#define POPULATED_MIN_BYTES ((size_t)64 << 10)

void *emu_big_new0_populated(size_t bytes, const char *what)
{
#ifndef EMU_BIG_MALLOC
    if (bytes >= POPULATED_MIN_BYTES) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
        if (p == MAP_FAILED)
            emu_out_of_memory(bytes, what);
        return p;
    }
#endif
    return emu_big_new0(bytes, what);
}

void emu_big_free_populated(void *p, size_t bytes)
{
#ifndef EMU_BIG_MALLOC
    if (p && bytes >= POPULATED_MIN_BYTES) {
        munmap(p, bytes);
        return;
    }
#endif
    emu_big_free(p, bytes);
}
