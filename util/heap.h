/* heap.h -- a binary min-heap in an array the caller owns: the ready
 * operations of a schedule's replay (algorithms/schedule/schedule.c) and
 * of its SimGrid writer (workloads/simgrid.c), the LogGP model's events
 * (algorithms/schedule/loggp.c), and the event queue's distinct times
 * (emu/queue.c).
 *
 * Written once, for any element type, by HEAP_DEFINE(name, Type, before),
 * which defines
 *
 *     void heap_NAME_push(Type *h, size_t n, const Type *v);
 *     Type heap_NAME_pop(Type *h, size_t n);
 *
 * over the heap's n elements at h: push adds a copy of *v (h has room for
 * n + 1; v, not in it, is read where it is, so that a struct is copied
 * once), pop removes and returns the first (n >= 1). The caller counts,
 * so that a heap keeps its count in whatever it has (a uint32_t, a
 * GArray's length) and its array in whatever holds it (a slab, a GArray),
 * and grows it as it likes. `before(const Type *a, const Type *b)` is a
 * strict order. The functions are static inline, each user's compiled for its
 * own type and order: a heap's elements are a word or a small struct, and
 * its operations stand in loops over operations and events, where a call
 * through a comparison function would cost more than the sifting.
 *
 * Among elements that neither is before the other, the order they come
 * out in is this heap's: pop moves the smaller child up (the left on a
 * tie) while it is before the element it places. Every user's keys are
 * distinct (an operation's index, a time, an event's (time, order)), so
 * that any correct heap gives its order; this one is also, element for
 * element, the one each user wrote before.
 */
#ifndef CUBE_HEAP_H
#define CUBE_HEAP_H

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

#define HEAP_DEFINE(name, Type, before)                                     \
    G_GNUC_UNUSED static inline void heap_##name##_push(Type *h, size_t n,  \
                                                        const Type *v)      \
    {                                                                       \
        size_t i = n;                                                       \
        while (i > 0) {                                                     \
            size_t up = (i - 1) / 2;                                        \
            if (!before(v, &h[up]))                                         \
                break;                                                      \
            h[i] = h[up];                                                   \
            i = up;                                                         \
        }                                                                   \
        h[i] = *v;                                                          \
    }                                                                       \
                                                                            \
    G_GNUC_UNUSED static inline Type heap_##name##_pop(Type *h, size_t n)   \
    {                                                                       \
        Type top = h[0], last = h[n - 1];                                   \
        size_t i = 0;                                                       \
        n--;                                                                \
        for (;;) {                                                          \
            size_t c = 2 * i + 1;                                           \
            if (c >= n)                                                     \
                break;                                                      \
            if (c + 1 < n && before(&h[c + 1], &h[c]))                      \
                c++;                                                        \
            if (!before(&h[c], &last))                                      \
                break;                                                      \
            h[i] = h[c];                                                    \
            i = c;                                                          \
        }                                                                   \
        h[i] = last;                                                        \
        return top;                                                         \
    }

static inline gboolean heap_u32_before(const uint32_t *a, const uint32_t *b)
{
    return *a < *b;
}

/* The heap of uint32_t, smallest first (operations' indices):
 * heap_u32_push and heap_u32_pop. */
HEAP_DEFINE(u32, uint32_t, heap_u32_before)

#endif
