/* timeline.h -- reservations of one resource over time.
 *
 * A resource is a directed channel (capacity 1: one element per element-time)
 * or a node's send or receive ports (capacity k). A Timeline holds its
 * reservations as a sorted set of disjoint spans [start, end) each with
 * the number of units in use (1..capacity); time not covered is idle.
 * Adjacent spans with equal counts are merged, so a message whose elements
 * flow without interruption costs one span, whatever its length: the engine's
 * work grows with messages and contention, not with elements.
 *
 * Spans that end at or before the engine's current time can never matter
 * again (no reservation starts in the past) and are dropped lazily.
 *
 * Almost every resource holds at most one span of one unit at a time, so a
 * Timeline is 16 bytes: that span itself, inline; a channel whose spans of
 * one-tick slots all lie within 64 ticks holds them as bits in the same
 * 16 bytes; only a resource with more (longer contention, overlapping port
 * use) points to a heap array instead.
 * A 20-cube has 21 million channels; at 16 bytes their timelines take 320
 * MiB, at the 64 of a struct with an inline array they would take 1.3 GiB.
 */
#ifndef CUBE_TIMELINE_H
#define CUBE_TIMELINE_H

#include <stdint.h>
#include "node.h"
#include "prefetch.h"

typedef struct {
    Tick start, end;
    uint32_t count;
} TimelineSpan;

typedef struct TimelineMany TimelineMany;

/* One span [start, end) of one unit (empty when start >= end); or, when
 * start is TIMELINE_MANY, the heap array `many`; or, from TIMELINE_BITS
 * on, spans of one unit within 64 ticks as bits (timeline.c): start is
 * TIMELINE_BITS plus the tick of bit 0, end the bits. Spans start at
 * tick 0 or later and before TIMELINE_BITS. Zeroed is empty. */
typedef struct {
    Tick start;
    union {
        Tick end;
        TimelineMany *many;
    };
} Timeline;

#define TIMELINE_FOREVER INT64_MAX
#define TIMELINE_MANY INT64_MIN
#define TIMELINE_BITS ((Tick)1 << 62)

/* A zeroed Timeline is a valid empty one too. */
void timeline_init(Timeline *tl);
void timeline_clear(Timeline *tl);

/* Free the blocks this thread keeps for reuse by contended timelines
 * (timeline.c); the engine calls it when a run's state is freed. */
void timeline_pool_trim(void);

/* Drop spans that end at or before `now`. */
void timeline_prune(Timeline *tl, Tick now);

/* Earliest t >= from such that [t, t+dur) has a free unit. */
Tick timeline_fit(const Timeline *tl, Tick from, Tick dur,
                      uint32_t capacity);

/* Given [t, ...) free, the first time >= t at which the resource is full,
 * or TIMELINE_FOREVER. */
Tick timeline_free_until(const Timeline *tl, Tick t, uint32_t capacity);

/* Take one unit over [start, end). The caller has checked there is room. */
void timeline_take(Timeline *tl, Tick start, Tick end);

/* For one unit of a capacity-1 resource (a channel): drop the spans
 * ended by `now`, find the first t >= ready with [t, t+tau) free, and if
 * the resource stays free for count slots of tau from there, take
 * [t, t + count tau) and return t; else take nothing and return -1. The
 * same as timeline_prune, _fit, _free_until and _take in turn, in one
 * call: a message that flows without interruption over one hop. */
Tick timeline_claim_slow(Timeline *tl, Tick now, Tick ready, Tick tau,
                         uint64_t count);

/* Inline, its commonest case: a channel holding no span that is still
 * live (empty, or ended by `now`), which a dimension exchange meets at
 * every hop. The message takes [ready, ready + count tau), exactly as
 * timeline_claim_slow (every case) leaves it. */
static inline Tick timeline_claim(Timeline *tl, Tick now, Tick ready,
                                  Tick tau, uint64_t count)
{
    if ((uint64_t)tl->start < (uint64_t)TIMELINE_BITS      /* one span */
        && (tl->start >= tl->end || tl->end <= now) && count > 0 && tau > 0) {
        tl->start = ready;
        tl->end = ready + (Tick)count * tau;
        return ready;
    }
    return timeline_claim_slow(tl, now, ready, tau, count);
}

/* Ask for the lines a claim on a contended timeline reads first (its
 * block's header and first spans); nothing for an inline one. */
static inline void timeline_prefetch(const Timeline *tl)
{
    if (tl->start == TIMELINE_MANY) {
        EMU_PREFETCH(tl->many);
        EMU_PREFETCH((const char *)tl->many + 64);
    }
}

/* The spans not yet dropped, in order (for tests and debugging). */
uint32_t timeline_spans(const Timeline *tl);
TimelineSpan timeline_span(const Timeline *tl, uint32_t i);

#endif
