/* timeline.c -- reservations of one resource over time.
 *
 * A Timeline is one inline span of one unit, or a TimelineMany: span[head,
 * len) sorted by start, disjoint (span[i].end <= span[i+1].start), every
 * span with start < end and count >= 1, and no two touching spans (end ==
 * next start) with the same count. Because spans are disjoint and sorted,
 * their ends are sorted too, which lets lookups binary-search on `end`.
 * Both forms answer fit and free_until identically for the same spans;
 * which one holds them is only a matter of space.
 */
#include "timeline.h"
#include "oom.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

/* Below this many live spans a linear scan beats a binary search. */
#define TIMELINE_LINEAR_SCAN 8

/* The header and its spans in one block, so that a contended channel's
 * live spans are found in the line that holds its header rather than one
 * pointer further; the block grows by reallocating the whole. */
struct TimelineMany {
    uint32_t head;            /* spans before head are dropped */
    uint32_t len;             /* spans in use: span[head, len) */
    uint32_t cap;
    uint32_t hint;            /* where the last claim found its place */
    TimelineSpan span[];
};

/* Blocks of the smallest size are what contention allocates and frees at
 * a high rate (a channel goes back to its inline span as soon as at most
 * one span is left), so they are kept on a free list of this thread's
 * instead of going back to malloc: two aligned lines, a header and four
 * spans. timeline_pool_trim frees the list (the engine does when a run's
 * state is freed). */
#define MANY_SMALL_CAP 4
#define MANY_SMALL_BYTES 128
G_STATIC_ASSERT(sizeof(TimelineMany) + MANY_SMALL_CAP * sizeof(TimelineSpan)
                <= MANY_SMALL_BYTES);

typedef struct PoolBlock {
    struct PoolBlock *next;
} PoolBlock;

static _Thread_local PoolBlock *pool_free;

/* Under ASan every block goes back to malloc, so that a use after free
 * is caught (oom.h). */
#ifdef EMU_BIG_MALLOC
#define TIMELINE_POOL 0
#else
#define TIMELINE_POOL 1
#endif

static TimelineMany *many_new(uint32_t cap)
{
    TimelineMany *m;
    if (cap <= MANY_SMALL_CAP) {
        cap = MANY_SMALL_CAP;
        if (pool_free) {
            m = (TimelineMany *)(void *)pool_free;
            pool_free = pool_free->next;
        } else {
            m = emu_aligned_alloc(64, MANY_SMALL_BYTES, "a channel's timeline");
        }
    } else {
        m = emu_aligned_alloc(64, sizeof *m + (size_t)cap * sizeof(TimelineSpan),
                              "a channel's timeline");
    }
    m->head = m->len = m->hint = 0;
    m->cap = cap;
    return m;
}

static void many_free(TimelineMany *m)
{
    if (TIMELINE_POOL && m->cap == MANY_SMALL_CAP) {
        PoolBlock *b = (PoolBlock *)(void *)m;
        b->next = pool_free;
        pool_free = b;
    } else {
        free(m);
    }
}

void timeline_pool_trim(void)
{
    while (pool_free) {
        PoolBlock *b = pool_free;
        pool_free = b->next;
        free(b);
    }
}

static void many_prune(TimelineMany *tl, Tick now)
{
    while (tl->head < tl->len && tl->span[tl->head].end <= now)
        tl->head++;
    if (tl->head == tl->len)
        tl->head = tl->len = 0;
}

/* Index of the first of span[lo, hi) whose end is after t (hi if none):
 * spans are sorted, so their ends are too. */
static uint32_t spans_first_after(const TimelineSpan *span, uint32_t lo,
                                  uint32_t hi, Tick t)
{
    if (hi - lo <= TIMELINE_LINEAR_SCAN) {
        while (lo < hi && span[lo].end <= t)
            lo++;
        return lo;
    }
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (span[mid].end <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Index of the first live span whose end is after t (len if none). */
static uint32_t many_first_after(const TimelineMany *tl, Tick t)
{
    return spans_first_after(tl->span, tl->head, tl->len, t);
}

/* The same index, searched from `hint` outwards: one or two spans read
 * where a claim lands near the last one, as the claims on a contended
 * channel mostly do (each hop's messages follow the ones before), then
 * steps of 1, 2, 4, ... and a search within the last step. */
static uint32_t many_first_after_near(const TimelineMany *tl, Tick t,
                                      uint32_t hint)
{
    uint32_t lo = tl->head, hi = tl->len;
    if (hi - lo <= TIMELINE_LINEAR_SCAN)
        return many_first_after(tl, t);
    if (hint < lo)
        hint = lo;
    if (hint > hi)
        hint = hi;
    /* The answer is in [lo, hi]: every span before it ends by t. */
    if (hint < hi && tl->span[hint].end <= t) {
        lo = hint + 1;                  /* forwards */
        for (uint32_t step = 1; lo < hi; step *= 2) {
            uint32_t probe = lo + step - 1 < hi ? lo + step - 1 : hi - 1;
            if (tl->span[probe].end > t) {
                hi = probe;
                break;
            }
            lo = probe + 1;
        }
    } else {
        hi = hint;                      /* backwards */
        for (uint32_t step = 1; hi > lo; step *= 2) {
            uint32_t probe = hi - lo > step ? hi - step : lo;
            if (tl->span[probe].end <= t) {
                lo = probe + 1;
                break;
            }
            hi = probe;
        }
    }
    return spans_first_after(tl->span, lo, hi, t);
}

/* Earliest t >= from with [t, t+dur) free among span[0, n), and the first
 * time from t on at which they are full: timeline_fit and
 * timeline_free_until over an array of spans (the heap array's, or the
 * bits' spelled out). */
static Tick spans_fit(const TimelineSpan *span, uint32_t n, Tick from,
                      Tick dur, uint32_t capacity, uint32_t first)
{
    Tick t = from;
    for (uint32_t i = first; i < n; i++) {
        const TimelineSpan *s = &span[i];
        if (s->start >= t + dur)
            break;
        if (s->count >= capacity)
            t = s->end;
    }
    return t;
}

static Tick spans_free_until(const TimelineSpan *span, uint32_t n, Tick t,
                             uint32_t capacity, uint32_t first)
{
    for (uint32_t i = first; i < n; i++) {
        const TimelineSpan *s = &span[i];
        if (s->count >= capacity)
            return s->start > t ? s->start : t;
    }
    return TIMELINE_FOREVER;
}

static Tick many_fit(const TimelineMany *tl, Tick from, Tick dur,
                     uint32_t capacity)
{
    return spans_fit(tl->span, tl->len, from, dur, capacity,
                     many_first_after(tl, from));
}

static Tick many_free_until(const TimelineMany *tl, Tick t, uint32_t capacity)
{
    return spans_free_until(tl->span, tl->len, t, capacity,
                            many_first_after(tl, t));
}

/* Room for `extra` more spans after span[len): the block itself, or a
 * bigger one that replaces it (returned; the old one is freed). */
static TimelineMany *many_reserve(TimelineMany *tl, uint32_t extra)
{
    if (tl->head > 0 && tl->head >= tl->cap / 2) {
        memmove(tl->span, tl->span + tl->head,
                (tl->len - tl->head) * sizeof *tl->span);
        tl->len -= tl->head;
        tl->hint = tl->hint > tl->head ? tl->hint - tl->head : 0;
        tl->head = 0;
    }
    if (tl->len + extra <= tl->cap)
        return tl;
    uint32_t cap = tl->cap;
    while (cap < tl->len + extra)
        cap *= 2;
    TimelineMany *m = many_new(cap);
    m->head = tl->head;
    m->len = tl->len;
    m->hint = tl->hint;
    memcpy(m->span + m->head, tl->span + tl->head,
           (tl->len - tl->head) * sizeof *tl->span);
    many_free(tl);
    return m;
}

/* Merge touching equal-count spans among span[from, to) and shrink. */
static void many_merge(TimelineMany *tl, uint32_t from, uint32_t to)
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

static void many_take(Timeline *owner, Tick start, Tick end)
{
    TimelineMany *tl = owner->many;
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
        tl = owner->many = many_reserve(tl, 1);
        tl->span[tl->len++] = (TimelineSpan){ start, end, 1 };
        return;
    }

    /* General path: rewrite the spans overlapping [start, end). Each old
     * span yields at most three pieces and each gap one, so 2*(j-i)+2
     * pieces bound the replacement. */
    uint32_t i = many_first_after(tl, start), j = i;
    while (j < tl->len && tl->span[j].start < end)
        j++;
    uint32_t room = 2 * (j - i) + 3;
    TimelineSpan small[16];
    TimelineSpan *out = room <= G_N_ELEMENTS(small) ? small
                                                    : EMU_NEW(TimelineSpan, room,
                                                              "a channel's timeline");
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
        tl = owner->many = many_reserve(tl, n - removed);
    i = many_first_after(tl, start);   /* reserve may have compacted */
    j = i + removed;
    memmove(tl->span + i + n, tl->span + j, (tl->len - j) * sizeof *tl->span);
    memcpy(tl->span + i, out, n * sizeof *out);
    tl->len = tl->len - removed + n;
    if (out != small)
        g_free(out);
    many_merge(tl, i > 0 ? i - 1 : 0, i + n + 1);
}

/* ---- the 16-byte Timeline: one inline span, bits, or a TimelineMany -- */

static gboolean is_many(const Timeline *tl)
{
    return tl->start == TIMELINE_MANY;
}

static gboolean is_bits(const Timeline *tl)
{
    return tl->start >= TIMELINE_BITS;
}

void timeline_init(Timeline *tl)
{
    tl->start = 0;
    tl->end = 0;
}

void timeline_clear(Timeline *tl)
{
    if (is_many(tl))
        many_free(tl->many);
    timeline_init(tl);
}

/* The bits form. A channel whose spans lie within 64 ticks, as routed
 * messages of one element leave them (bmmc's rounds take a channel a
 * tick a message), keeps them in the Timeline itself: bit i set where
 * tick base + i is taken, bit 0 always set (base is the first span's
 * start). Its runs of set bits are its spans, each of one unit and
 * maximal, as a heap array's are merged, so every answer is the one a
 * heap array of the same spans gives; a claim is a count of trailing
 * zeros and a mask instead of a search, and nothing is allocated or
 * freed. Claims with tau = 1 (timeline_claim_slow) make and use it;
 * take, and a claim the bits cannot hold, turn it into a heap array
 * first. At most 32 runs fit in 64 bits. */
#define BITS_MAX_RUNS 32

static Tick bits_base(const Timeline *tl)
{
    return tl->start - TIMELINE_BITS;
}

static uint64_t bits_of(const Timeline *tl)
{
    return (uint64_t)tl->end;
}

/* The lowest `n` bits, n <= 64. */
static uint64_t bits_low(Tick n)
{
    return n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
}

/* Hold `bits` from tick base on in the smallest form: none is empty, one
 * run the inline span, more the bits with bit 0 set. */
static void bits_put(Timeline *tl, Tick base, uint64_t bits)
{
    if (bits == 0) {
        timeline_init(tl);
        return;
    }
    int lo = __builtin_ctzll(bits);
    uint64_t run = bits >> lo;
    if ((run & (run + 1)) == 0) {               /* one run of ones */
        tl->start = base + lo;
        tl->end = base + lo + (64 - __builtin_clzll(run));
        return;
    }
    tl->start = TIMELINE_BITS + base + lo;
    tl->end = (Tick)run;
}

/* The runs as spans, in order; their number. */
static uint32_t bits_spans(const Timeline *tl, TimelineSpan *out)
{
    Tick at = bits_base(tl);
    uint64_t bits = bits_of(tl);
    uint32_t n = 0;
    while (bits) {
        int z = __builtin_ctzll(bits);
        bits >>= z;
        at += z;
        int len = ~bits ? __builtin_ctzll(~bits) : 64;
        out[n++] = (TimelineSpan){ at, at + len, 1 };
        bits = len == 64 ? 0 : bits >> len;
        at += len;
    }
    return n;
}

/* The same spans in a heap array. */
static void bits_to_many(Timeline *tl)
{
    TimelineSpan span[BITS_MAX_RUNS];
    uint32_t n = bits_spans(tl, span);
    TimelineMany *m = many_new(n);
    memcpy(m->span, span, n * sizeof *span);
    m->len = n;
    tl->start = TIMELINE_MANY;
    tl->many = m;
}

/* Drop the spans that end at or before now; a span that runs past now
 * stays whole, as in a heap array. */
static void bits_prune(Timeline *tl, Tick now)
{
    Tick base = bits_base(tl), q = now - base;
    if (q <= 0)
        return;
    if (q >= 64) {                  /* every span ends by base + 64 */
        timeline_init(tl);
        return;
    }
    uint64_t bits = bits_of(tl);
    int shift = (int)q;
    if (((bits >> (q - 1)) & 3) == 3) {     /* a span across now */
        uint64_t below = ~bits & bits_low(q);
        shift = below ? 64 - __builtin_clzll(below) : 0;
    }
    bits_put(tl, base + shift, bits >> shift);
}

/* fit and free_until of the bits: those of their spans. */
static Tick bits_fit(const Timeline *tl, Tick from, Tick dur,
                     uint32_t capacity)
{
    TimelineSpan span[BITS_MAX_RUNS];
    uint32_t n = bits_spans(tl, span);
    return spans_fit(span, n, from, dur, capacity,
                     spans_first_after(span, 0, n, from));
}

static Tick bits_free_until(const Timeline *tl, Tick t, uint32_t capacity)
{
    TimelineSpan span[BITS_MAX_RUNS];
    uint32_t n = bits_spans(tl, span);
    return spans_free_until(span, n, t, capacity,
                            spans_first_after(span, 0, n, t));
}

/* A claim of count slots of one tick on the bits, ready at `ready`
 * (pruned): where it starts, -1 if it would break into runs, or -2 if
 * the bits cannot hold its span (the caller turns them into a heap
 * array and claims there). */
static Tick bits_claim(Timeline *tl, Tick ready, uint64_t count)
{
    Tick base = bits_base(tl), r = ready - base;
    uint64_t bits = bits_of(tl);
    if (count > 64)
        return -2;
    if (r < 0) {                    /* before the first span: free */
        if ((Tick)count > -r)
            return -1;              /* until the first span only */
        if (-r + (64 - __builtin_clzll(bits)) > 64)
            return -2;
        bits_put(tl, ready, bits << -r | bits_low((Tick)count));
        return ready;
    }
    Tick p = r;                     /* the first free tick from r */
    if (r < 64) {
        uint64_t free = ~bits >> r;
        p = free ? r + __builtin_ctzll(free) : 64;
    }
    if (p + (Tick)count > 64) {
        if (p < 64 && bits >> p)
            return -1;              /* a span starts before it ends */
        return -2;
    }
    uint64_t span = bits_low((Tick)count) << p;
    if (bits & span)
        return -1;
    bits_put(tl, base, bits | span);
    return base + p;
}

/* Each operation below is a static inline function, its inline-span case
 * first and the heap array's out of line, so that timeline_claim_slow is the
 * four of them in turn compiled as one (fewer instructions a claim than
 * four calls would take), and each public function a wrapper. */

/* Back to inline once at most one span of one unit is left. */
static void many_prune_back(Timeline *tl, Tick now)
{
    TimelineMany *m = tl->many;
    many_prune(m, now);
    uint32_t live = m->len - m->head;
    if (live == 0 || (live == 1 && m->span[m->head].count == 1)) {
        TimelineSpan s = live ? m->span[m->head] : (TimelineSpan){ 0, 0, 1 };
        timeline_clear(tl);
        tl->start = s.start;
        tl->end = s.end;
    }
}

static inline void prune(Timeline *tl, Tick now)
{
    if (is_many(tl))
        many_prune_back(tl, now);
    else if (is_bits(tl))
        bits_prune(tl, now);
    else if (tl->end <= now)
        timeline_init(tl);
}

static inline Tick fit(const Timeline *tl, Tick from, Tick dur,
                       uint32_t capacity)
{
    if (is_many(tl))
        return many_fit(tl->many, from, dur, capacity);
    if (is_bits(tl))
        return bits_fit(tl, from, dur, capacity);
    /* One span of one unit: it blocks [from, from+dur) only if it is full
     * (capacity 1) and overlaps it; then the earliest fit is its end. */
    if (capacity <= 1 && tl->start < tl->end && tl->end > from
        && tl->start < from + dur)
        return tl->end;
    return from;
}

static inline Tick free_until(const Timeline *tl, Tick t, uint32_t capacity)
{
    if (is_many(tl))
        return many_free_until(tl->many, t, capacity);
    if (is_bits(tl))
        return bits_free_until(tl, t, capacity);
    if (capacity <= 1 && tl->start < tl->end && tl->end > t)
        return tl->start > t ? tl->start : t;
    return TIMELINE_FOREVER;
}

/* A second span, or a second unit: the heap array. */
static void take_many(Timeline *tl, Tick start, Tick end)
{
    if (is_bits(tl))
        bits_to_many(tl);
    if (!is_many(tl)) {
        TimelineMany *m = many_new(MANY_SMALL_CAP);
        m->span[m->len++] = (TimelineSpan){ tl->start, tl->end, 1 };
        tl->start = TIMELINE_MANY;
        tl->many = m;
    }
    many_take(tl, start, end);
}

static inline void take(Timeline *tl, Tick start, Tick end)
{
    g_assert(start < end);
    if (!is_many(tl) && !is_bits(tl)) {
        if (tl->start >= tl->end) {             /* empty */
            tl->start = start;
            tl->end = end;
            return;
        }
        if (tl->end == start) {                 /* touching: merged */
            tl->end = end;
            return;
        }
        if (end == tl->start) {
            tl->start = start;
            return;
        }
    }
    take_many(tl, start, end);
}

void timeline_prune(Timeline *tl, Tick now)
{
    prune(tl, now);
}

Tick timeline_fit(const Timeline *tl, Tick from, Tick dur, uint32_t capacity)
{
    return fit(tl, from, dur, capacity);
}

Tick timeline_free_until(const Timeline *tl, Tick t, uint32_t capacity)
{
    return free_until(tl, t, capacity);
}

void timeline_take(Timeline *tl, Tick start, Tick end)
{
    take(tl, start, end);
}

/* timeline_claim_slow on the heap array, for a channel (capacity one,
 * so every span is full): one search for the first span that ends after
 * `ready`, the fit and the free time read off from there, and the claim
 * put into its gap by extending a touching neighbour, joining two, or
 * moving the later spans up by one. many_fit, many_free_until and
 * many_take would search four times and rewrite the spans through a
 * scratch array; this leaves exactly the spans they leave. Contended
 * channels of an all-to-all (every message posted at once) hold dozens
 * of spans and take claims in their gaps, not only at their ends. */
static Tick many_claim(Timeline *owner, Tick ready, Tick tau, uint64_t count)
{
    TimelineMany *m = owner->many;
    uint32_t i = many_first_after_near(m, ready, m->hint);
    Tick t = ready;
    while (i < m->len && m->span[i].start < t + tau)
        t = m->span[i++].end;
    Tick stop = t + (Tick)count * tau;
    if (i < m->len && m->span[i].start < stop)
        return -1;                      /* would break into runs */
    gboolean join_prev = i > m->head && m->span[i - 1].end == t
                         && m->span[i - 1].count == 1;
    gboolean join_next = i < m->len && m->span[i].start == stop
                         && m->span[i].count == 1;
    if (join_prev && join_next) {
        m->span[i - 1].end = m->span[i].end;
        memmove(m->span + i, m->span + i + 1,
                (m->len - i - 1) * sizeof *m->span);
        m->len--;
    } else if (join_prev) {
        m->span[i - 1].end = stop;
    } else if (join_next) {
        m->span[i].start = t;
    } else {
        uint32_t r = i - m->head;
        m = owner->many = many_reserve(m, 1);
        i = m->head + r;                /* reserve may have compacted */
        memmove(m->span + i + 1, m->span + i, (m->len - i) * sizeof *m->span);
        m->span[i] = (TimelineSpan){ t, stop, 1 };
        m->len++;
    }
    m->hint = i + 1;
    return t;
}

Tick timeline_claim_slow(Timeline *tl, Tick now, Tick ready, Tick tau,
                         uint64_t count)
{
    prune(tl, now);
    if (is_bits(tl) && tau > 0 && count > 0) {
        Tick t = tau == 1 ? bits_claim(tl, ready, count) : -2;
        if (t != -2)
            return t;
        bits_to_many(tl);
    }
    if (is_many(tl) && tau > 0 && count > 0)
        return many_claim(tl, ready, tau, count);
    Tick t = fit(tl, ready, tau, 1);
    Tick until = free_until(tl, t, 1);
    if (until != TIMELINE_FOREVER && (uint64_t)((until - t) / tau) < count)
        return -1;
    Tick end = t + (Tick)count * tau;
    /* A second span of one-tick slots near the first: bits, not a heap
     * array (touching ones merge inline, in take). */
    if (tau == 1 && count > 0 && !is_bits(tl) && tl->start < tl->end
        && (end < tl->start || t > tl->end)) {
        Tick lo = MIN(t, tl->start), hi = MAX(end, tl->end);
        if (hi - lo <= 64) {
            bits_put(tl, lo, bits_low(tl->end - tl->start) << (tl->start - lo)
                             | bits_low(end - t) << (t - lo));
            return t;
        }
    }
    take(tl, t, end);
    return t;
}

uint32_t timeline_spans(const Timeline *tl)
{
    if (is_many(tl))
        return tl->many->len - tl->many->head;
    if (is_bits(tl)) {
        TimelineSpan span[BITS_MAX_RUNS];
        return bits_spans(tl, span);
    }
    return tl->start < tl->end ? 1 : 0;
}

TimelineSpan timeline_span(const Timeline *tl, uint32_t i)
{
    if (is_many(tl))
        return tl->many->span[tl->many->head + i];
    if (is_bits(tl)) {
        TimelineSpan span[BITS_MAX_RUNS];
        g_assert(i < bits_spans(tl, span));
        return span[i];
    }
    g_assert(i == 0 && tl->start < tl->end);
    return (TimelineSpan){ tl->start, tl->end, 1 };
}
