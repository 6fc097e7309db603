/* timeline.h -- reservations of one resource over time.
 *
 * A resource is a directed channel (capacity 1: one element per element-time)
 * or a node's send or receive ports (capacity k). A Timeline holds its
 * reservations as a sorted array of disjoint spans [start, end) each with
 * the number of units in use (1..capacity); time not covered is idle.
 * Adjacent spans with equal counts are merged, so a message whose elements
 * flow without interruption costs one span, whatever its length: the engine's
 * work grows with messages and contention, not with elements.
 *
 * Spans that end at or before the engine's current time can never matter
 * again (no reservation starts in the past) and are dropped lazily.
 */
#ifndef CUBE_TIMELINE_H
#define CUBE_TIMELINE_H

#include <stdint.h>
#include "node.h"

typedef struct {
    Tick start, end;
    uint32_t count;
} TimelineSpan;

/* Most channels hold at most one span at a time, so the first lives inside
 * the struct: no allocation and one cache line per channel. A Timeline must
 * not be moved once used (span may point into it). */
typedef struct {
    TimelineSpan *span;       /* inline_span while cap <= 1 */
    uint32_t head;            /* spans before head are dropped */
    uint32_t len;             /* spans in use: span[head, len) */
    uint32_t cap;
    TimelineSpan inline_span[1];
} Timeline;

#define TIMELINE_FOREVER INT64_MAX

/* A zeroed Timeline is a valid empty one too. */
void timeline_init(Timeline *tl);
void timeline_clear(Timeline *tl);

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

#endif
