/* timeline.c -- reservations of one resource over time.
 *
 * Invariant: span[head, len) is sorted by start, spans are disjoint
 * (span[i].end <= span[i+1].start), every span has start < end and
 * count >= 1, and no two touching spans (end == next start) have the same
 * count. Because spans are disjoint and sorted, their ends are sorted too,
 * which lets lookups binary-search on `end`.
 */
#include "timeline.h"

#include <glib.h>
#include <string.h>

/* Below this many live spans a linear scan beats a binary search. */
#define TIMELINE_LINEAR_SCAN 8

void timeline_init(Timeline *tl)
{
    memset(tl, 0, sizeof *tl);
}

void timeline_clear(Timeline *tl)
{
    if (tl->span != tl->inline_span)
        g_free(tl->span);
    timeline_init(tl);
}

void timeline_prune(Timeline *tl, Tick now)
{
    while (tl->head < tl->len && tl->span[tl->head].end <= now)
        tl->head++;
    if (tl->head == tl->len)
        tl->head = tl->len = 0;
}

/* Index of the first live span whose end is after t (len if none). */
static uint32_t timeline_first_after(const Timeline *tl, Tick t)
{
    uint32_t lo = tl->head, hi = tl->len;
    if (hi - lo <= TIMELINE_LINEAR_SCAN) {
        while (lo < hi && tl->span[lo].end <= t)
            lo++;
        return lo;
    }
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (tl->span[mid].end <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

Tick timeline_fit(const Timeline *tl, Tick from, Tick dur,
                      uint32_t capacity)
{
    Tick t = from;
    for (uint32_t i = timeline_first_after(tl, t); i < tl->len; i++) {
        const TimelineSpan *s = &tl->span[i];
        if (s->start >= t + dur)
            break;
        if (s->count >= capacity)
            t = s->end;
    }
    return t;
}

Tick timeline_free_until(const Timeline *tl, Tick t, uint32_t capacity)
{
    for (uint32_t i = timeline_first_after(tl, t); i < tl->len; i++) {
        const TimelineSpan *s = &tl->span[i];
        if (s->count >= capacity)
            return s->start > t ? s->start : t;
    }
    return TIMELINE_FOREVER;
}

static void timeline_reserve(Timeline *tl, uint32_t extra)
{
    if (tl->head > 0 && tl->head >= tl->cap / 2) {
        memmove(tl->span, tl->span + tl->head,
                (tl->len - tl->head) * sizeof *tl->span);
        tl->len -= tl->head;
        tl->head = 0;
    }
    if (tl->len + extra <= tl->cap)
        return;
    if (tl->cap == 0 && tl->len + extra <= 1) {
        tl->span = tl->inline_span;
        tl->cap = 1;
        return;
    }
    uint32_t cap = tl->cap > 1 ? tl->cap : 4;
    while (cap < tl->len + extra)
        cap *= 2;
    if (tl->span == tl->inline_span || tl->span == NULL) {
        TimelineSpan *heap = g_new(TimelineSpan, cap);
        memcpy(heap, tl->inline_span, tl->len * sizeof *heap);
        tl->span = heap;
    } else {
        tl->span = g_renew(TimelineSpan, tl->span, cap);
    }
    tl->cap = cap;
}

/* Merge touching equal-count spans among span[from, to) and shrink. */
static void timeline_merge(Timeline *tl, uint32_t from, uint32_t to)
{
    if (from < tl->head)
        from = tl->head;
    if (to > tl->len)
        to = tl->len;
    if (to - from < 2)
        return;
    uint32_t w = from;
    for (uint32_t r = from + 1; r < to; r++) {
        TimelineSpan *a = &tl->span[w], *b = &tl->span[r];
        if (a->end == b->start && a->count == b->count)
            a->end = b->end;
        else
            tl->span[++w] = *b;
    }
    w++;
    if (w < to) {
        memmove(tl->span + w, tl->span + to, (tl->len - to) * sizeof *tl->span);
        tl->len -= to - w;
    }
}

void timeline_take(Timeline *tl, Tick start, Tick end)
{
    g_assert(start < end);
    /* Fast path: after everything reserved so far (the common case). */
    if (tl->len == tl->head || tl->span[tl->len - 1].end <= start) {
        if (tl->len > tl->head) {
            TimelineSpan *last = &tl->span[tl->len - 1];
            if (last->end == start && last->count == 1) {
                last->end = end;
                return;
            }
        }
        timeline_reserve(tl, 1);
        tl->span[tl->len++] = (TimelineSpan){ start, end, 1 };
        return;
    }

    /* General path: rewrite the spans overlapping [start, end). Each old
     * span yields at most three pieces and each gap one, so 2*(j-i)+2
     * pieces bound the replacement. */
    uint32_t i = timeline_first_after(tl, start), j = i;
    while (j < tl->len && tl->span[j].start < end)
        j++;
    uint32_t room = 2 * (j - i) + 3;
    TimelineSpan small[16];
    TimelineSpan *out = room <= G_N_ELEMENTS(small) ? small
                                                    : g_new(TimelineSpan, room);
    uint32_t n = 0;
    Tick cur = start;
    for (uint32_t k = i; k < j; k++) {
        const TimelineSpan *s = &tl->span[k];
        if (s->start < cur)                     /* untouched head of s */
            out[n++] = (TimelineSpan){ s->start, cur, s->count };
        else if (s->start > cur)                /* idle gap before s */
            out[n++] = (TimelineSpan){ cur, s->start, 1 };
        Tick lo = s->start > cur ? s->start : cur;
        Tick hi = s->end < end ? s->end : end;
        out[n++] = (TimelineSpan){ lo, hi, s->count + 1 };
        if (s->end > end)                       /* untouched tail of s */
            out[n++] = (TimelineSpan){ end, s->end, s->count };
        cur = hi;
    }
    if (cur < end)
        out[n++] = (TimelineSpan){ cur, end, 1 };

    uint32_t removed = j - i;
    if (n > removed)
        timeline_reserve(tl, n - removed);
    i = timeline_first_after(tl, start);   /* reserve may have compacted */
    j = i + removed;
    memmove(tl->span + i + n, tl->span + j, (tl->len - j) * sizeof *tl->span);
    memcpy(tl->span + i, out, n * sizeof *out);
    tl->len = tl->len - removed + n;
    if (out != small)
        g_free(out);
    timeline_merge(tl, i > 0 ? i - 1 : 0, i + n + 1);
}
