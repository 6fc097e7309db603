/* oom.h -- the engine's allocations that scale with a run.
 *
 * run/run.c refuses, before the engine is built, a run whose estimate
 * (sim_bytes_needed) does not fit the memory the process may use, and asks
 * the kernel for that much address space first. What the engine
 * allocates as a run goes (message buffers, channel timelines that hold
 * more spans than the estimate counts, queue buckets, put-off
 * deliveries) is allocated deep in its event loop, where returning an
 * error would cost every event a test; these allocations go through the
 * functions below, which, where the memory is not there, end the process
 * with exit status 2 (bad input: a machine too large for memory) and one
 * line giving the size asked and what for -- never GLib's abort and its
 * core dump. Nothing here runs unless an allocation is made.
 */
#ifndef CUBE_EMU_OOM_H
#define CUBE_EMU_OOM_H

#include <glib.h>

/* Print "cubemu: cannot allocate N bytes (X MiB) for WHAT ..." and exit
 * with status 2. */
G_GNUC_NORETURN void emu_out_of_memory(size_t bytes, const char *what);

/* g_malloc, g_malloc0 and g_realloc of n elements of `size` bytes, or
 * emu_out_of_memory(what). */
void *emu_alloc(size_t n, size_t size, const char *what);
void *emu_alloc0(size_t n, size_t size, const char *what);
void *emu_realloc(void *p, size_t n, size_t size, const char *what);

/* `bytes` (rounded up to a multiple of `align`, a power of two) aligned
 * to `align`, freed with free(), or emu_out_of_memory(what). */
void *emu_aligned_alloc(size_t align, size_t bytes, const char *what);

/* `bytes` zeroed and aligned to a cache line, from 1 MiB on mapped on
 * their own and zeroed by the kernel as first touched, on huge pages or
 * small ones as the process decided (oom.c says how): the arrays a run
 * reads at random (memories, nodes, channels, the match table). Freed
 * with emu_big_free and the same `bytes`. */
void *emu_big_new0(size_t bytes, const char *what);

/* Which pages the big arrays are mapped on: EMU_PAGES_AUTO (the default)
 * decides once, from the first big array (oom.c); the others force the
 * choice (CUBEMU_PAGES, run/run.c, for measuring). Results never depend
 * on it, only the time. */
typedef enum { EMU_PAGES_AUTO, EMU_PAGES_SMALL, EMU_PAGES_HUGE } EmuPages;
void emu_set_pages(EmuPages pages);
/* 1 huge pages, 0 small, -1 not decided yet (no big array so far). */
int emu_pages_huge(void);
void emu_big_free(void *p, size_t bytes);

/* The same for an array the caller will touch whole at once: from 64 KiB
 * on, every page mapped and zeroed at the call (oom.c). Freed with
 * emu_big_free_populated and the same `bytes`. */
void *emu_big_new0_populated(size_t bytes, const char *what);
void emu_big_free_populated(void *p, size_t bytes);

/* Under AddressSanitizer every one of them is a heap block of its own,
 * so that ASan keeps its red zones around it. */
#if defined(__SANITIZE_ADDRESS__)
#define EMU_BIG_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EMU_BIG_MALLOC 1
#endif
#endif

#define EMU_NEW(type, n, what) ((type *)emu_alloc((n), sizeof(type), (what)))
#define EMU_NEW0(type, n, what) ((type *)emu_alloc0((n), sizeof(type), (what)))
#define EMU_RENEW(type, p, n, what) \
    ((type *)emu_realloc((p), (n), sizeof(type), (what)))

#endif
