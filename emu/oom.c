/* oom.c -- the engine's allocations that scale with a run (oom.h). */
#ifndef _DEFAULT_SOURCE      /* MAP_ANONYMOUS, MADV_HUGEPAGE, mincore */
#define _DEFAULT_SOURCE
#endif
#include "oom.h"

#include <stdatomic.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <time.h>

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
 * On huge pages (2 MiB) or small ones, decided once a process, by the
 * first such array (emu_set_pages: auto, the default, or either). Huge
 * pages reach far more of a big run's memory from the TLB and take a
 * fault a 2 MiB block instead of 512, and a run whose arrays are on them
 * is faster, as long as the blocks are warm. On a virtual machine that
 * gives free memory back to its host (free page reporting, which reports
 * whole free 2 MiB blocks a second or two after they are freed), a huge
 * page first touched after a pause costs several times what its 512
 * small pages cost, since the host must back the whole block again,
 * while small pages cost about the same paused or not (`bench
 * --first-touch` measures both). So the first array is mapped for huge
 * pages and its first block touched at once, timed: warm (a run right
 * after another freed its memory), the process keeps to huge pages; cold,
 * or not huge at all (transparent huge pages off), the rest of the array
 * and every later one is on small pages, and the cold block is the only
 * one the run pays for. make bench-against holds the choice to 7befd67's
 * build (all huge) back to back and after pauses (docs/performance.md,
 * "Page faults and the TLB"). */
#define BIG_MIN_BYTES ((size_t)1 << 20)
#define BIG_ALIGN 64
#define HUGE_BYTES ((size_t)2 << 20)
#define SMALL_BYTES ((size_t)4 << 10)

/* A huge block first touched in at most this long was warm: a warm one
 * costs about a fifth of this on the machines measured, a cold one two or
 * three times it, and 512 small pages about half of it. */
#define HUGE_WARM_NS 1000000

static EmuPages pages_asked = EMU_PAGES_AUTO;
/* decided: 1 huge, 0 small; -1 not yet. Atomic: the engine's threads map
 * their first slabs at once (emu/sim_parallel.c), and the first to decide
 * decides for all. */
static _Atomic int pages_huge = -1;

void emu_set_pages(EmuPages pages)
{
    pages_asked = pages;
    pages_huge = pages == EMU_PAGES_HUGE ? 1 : pages == EMU_PAGES_SMALL ? 0 : -1;
}

int emu_pages_huge(void)
{
    return pages_huge;
}

#ifndef EMU_BIG_MALLOC   /* helpers of the mapped path only */
static size_t big_length(size_t bytes)
{
    return (bytes + HUGE_BYTES - 1) & ~(HUGE_BYTES - 1);
}

static gint64 now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (gint64)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* LEN bytes (a multiple of HUGE_BYTES) mapped at a HUGE_BYTES boundary,
 * so that every block of it can be a huge page; NULL if not mapped. */
static char *map_aligned(size_t len)
{
    size_t ask = len + HUGE_BYTES;
    char *p = mmap(NULL, ask, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    uintptr_t at = ((uintptr_t)p + HUGE_BYTES - 1) & ~(uintptr_t)(HUGE_BYTES - 1);
    char *a = (char *)at;
    if (a > p)
        munmap(p, (size_t)(a - p));
    size_t tail = (size_t)(p + ask - (a + len));
    if (tail)
        munmap(a + len, tail);
    return a;
}

/* Whether the block at p (mapped for huge pages) was warm: touch it, and
 * time it; a block the kernel did not make huge (its pages come one at a
 * time) counts as cold. */
static gboolean block_warm(char *p)
{
    gint64 t0 = now_ns();
    *(volatile char *)p = 0;
    gint64 t = now_ns() - t0;
    unsigned char resident[HUGE_BYTES / SMALL_BYTES];
    if (mincore(p, HUGE_BYTES, resident) != 0)
        return FALSE;
    for (size_t i = 0; i < sizeof resident; i++)
        if (!(resident[i] & 1))
            return FALSE;
    return t <= HUGE_WARM_NS;
}
#endif

void *emu_big_new0(size_t bytes, const char *what)
{
#ifndef EMU_BIG_MALLOC
    if (bytes >= BIG_MIN_BYTES) {
        size_t len = big_length(bytes);
        int huge = pages_huge;
        char *p = huge == 0 ? mmap(NULL, len, PROT_READ | PROT_WRITE,
                                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                            : map_aligned(len);
        if (p == MAP_FAILED || p == NULL)
            emu_out_of_memory(bytes, what);
        if (huge != 0) {
            madvise(p, len, MADV_HUGEPAGE);
            if (huge < 0) {
                int warm = block_warm(p), undecided = -1;
                atomic_compare_exchange_strong(&pages_huge, &undecided, warm);
                if (!warm && len > HUGE_BYTES)
                    madvise(p + HUGE_BYTES, len - HUGE_BYTES, MADV_NOHUGEPAGE);
            }
        }
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
    /* From BIG_MIN_BYTES on, mapped as emu_big_new0 maps (huge pages,
     * where the process keeps to them, need no populating: a block is one
     * fault), and so freed. */
    if (bytes >= BIG_MIN_BYTES && pages_huge == 1)
        return emu_big_new0(bytes, what);
    if (bytes >= POPULATED_MIN_BYTES) {
        size_t len = bytes >= BIG_MIN_BYTES ? big_length(bytes) : bytes;
        char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            emu_out_of_memory(bytes, what);
#ifdef MADV_POPULATE_WRITE
        if (madvise(p, bytes, MADV_POPULATE_WRITE) == 0)
            return p;
#endif
        for (size_t i = 0; i < bytes; i += SMALL_BYTES)
            p[i] = 0;
        return p;
    }
#endif
    return emu_big_new0(bytes, what);
}

void emu_big_free_populated(void *p, size_t bytes)
{
#ifndef EMU_BIG_MALLOC
    if (p && bytes >= BIG_MIN_BYTES) {
        munmap(p, big_length(bytes));
        return;
    }
    if (p && bytes >= POPULATED_MIN_BYTES) {
        munmap(p, bytes);
        return;
    }
#endif
    emu_big_free(p, bytes);
}
