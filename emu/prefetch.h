/* prefetch.h -- asking for a cache line before the engine reads it.
 *
 * EMU_PREFETCH(p) starts loading the line holding address p into every
 * level of the cache and returns at once; p may be any address (one past
 * an array, memory not yet mapped), since a prefetch never faults.
 *
 * Not __builtin_prefetch: GCC 12 at -O2 drops some of its calls without a
 * word. match_prefetch's, in sim_send, never reached the binary, and
 * eight written in a row in sim_prefetch_bytes came to none, so the read
 * ahead they stand for was undone while the source said otherwise. An
 * asm statement is kept. Its operand is the address in a register, not
 * the byte behind it: a memory operand would tell the compiler that p
 * can be dereferenced (so not NULL) and make the sanitizer builds check
 * a read that never happens.
 */
#ifndef CUBE_PREFETCH_H
#define CUBE_PREFETCH_H

#if defined(__x86_64__) || defined(__i386__)
#define EMU_PREFETCH(p) __asm__ volatile("prefetcht0 (%0)" : : "r"(p))
#else
#define EMU_PREFETCH(p) __builtin_prefetch((p), 1)
#endif

/* And no other way in the engine: a file that includes this header and
 * calls the builtin itself does not compile (the macro above, defined
 * before, still may). */
#if defined(__GNUC__)
#pragma GCC poison __builtin_prefetch
#endif

#endif
