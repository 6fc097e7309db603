/* queue.c -- FIFO buckets per distinct time, times in a binary min-heap.
 *
 * Invariant: every bucket in `by_time` is non-empty and its time is in
 * `times` exactly once; items in a bucket are in push order; `last` is NULL
 * or the bucket of `last_time`. Empty buckets go back to `spare` so a
 * steady run allocates nothing.
 */
#include "queue.h"
#include "heap.h"
#include "oom.h"

#include <string.h>

static void bucket_free(gpointer p)
{
    QueueBucket *b = p;
    g_free(b->item);
    g_free(b);
}

EventQueue *queue_new(void)
{
    EventQueue *q = g_new0(EventQueue, 1);
    q->by_time = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL,
                                       bucket_free);
    q->spare = g_ptr_array_new_with_free_func(bucket_free);
    return q;
}

void queue_free(EventQueue *q)
{
    if (!q)
        return;
    g_hash_table_destroy(q->by_time);
    g_ptr_array_unref(q->spare);
    g_free(q->times);
    g_free(q->sort_tmp);
    g_free(q->bits);
    g_free(q);
}

static gboolean tick_before(const Tick *a, const Tick *b)
{
    return *a < *b;
}

HEAP_DEFINE(tick, Tick, tick_before)

static void times_push(EventQueue *q, Tick t)
{
    if (q->ntimes == q->captimes) {
        q->captimes = q->captimes ? 2 * q->captimes : 16;
        q->times = EMU_RENEW(Tick, q->times, q->captimes, "the event queue");
    }
    heap_tick_push(q->times, q->ntimes++, &t);
}

static void times_pop(EventQueue *q)
{
    heap_tick_pop(q->times, q->ntimes--);
}

static QueueBucket *queue_bucket(EventQueue *q, Tick time)
{
    if (q->last && q->last->time == time)
        return q->last;
    QueueBucket *b = g_hash_table_lookup(q->by_time, &time);
    if (!b) {
        b = q->spare->len ? g_ptr_array_steal_index_fast(q->spare,
                                                         q->spare->len - 1)
                          : EMU_NEW0(QueueBucket, 1, "the event queue");
        b->time = time;
        b->head = b->len = b->sorted = 0;
        g_hash_table_insert(q->by_time, &b->time, b);
        times_push(q, time);
    }
    q->last = b;
    return b;
}

void queue_push_slow(EventQueue *q, Tick time, QueueItem item)
{
    QueueBucket *b = queue_bucket(q, time);
    if (b->len == b->cap) {
        if (b->head > 0 && b->head >= b->len / 2) {
            memmove(b->item, b->item + b->head,
                    (b->len - b->head) * sizeof *b->item);
            b->len -= b->head;
            b->sorted = b->sorted > b->head ? b->sorted - b->head : 0;
            b->head = 0;
        } else {
            b->cap = b->cap ? 2 * b->cap : 16;
            b->item = EMU_RENEW(QueueItem, b->item, b->cap, "the event queue");
        }
    }
    b->item[b->len++] = item;
    q->length++;
}

void queue_set_by_node(EventQueue *q, gboolean on, uint32_t nodes)
{
    q->by_node = on;
    if (on && !q->bits && nodes > 0) {
        q->nodes = nodes;
        q->bits = EMU_NEW0(uint64_t, ((size_t)nodes + 63) / 64,
                           "the event queue's node bits");
    }
}

/* bucket_sort_by_node's common case: the items are node steps only (no
 * deferred send), so no node is there twice (a node has one step queued
 * at most), and they are many: a bit a node, set in one pass over the
 * items and read out in address order in a second. Two passes over the
 * items against the radix sort's five; the bits (a 22-cube's 512 KiB)
 * stay in the cache. With the radix sort alone, sorting takes as much of
 * a big run in the locality order as posting or running its events
 * (docs/performance.md, "The locality order"). FALSE, with the bits
 * clear again, if an item has a payload or a node is there twice. */
static gboolean bucket_sort_bits(EventQueue *q, QueueItem *item, size_t n)
{
    uint64_t *bits = q->bits;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = item[i].node;
        uint64_t bit = (uint64_t)1 << (x & 63);
        if (item[i].post || x >= q->nodes || (bits[x >> 6] & bit)) {
            for (size_t j = 0; j < i; j++)
                bits[item[j].node >> 6] = 0;
            return FALSE;
        }
        bits[x >> 6] |= bit;
    }
    size_t k = 0;
    for (size_t w = 0; k < n; w++) {
        uint64_t word = bits[w];
        bits[w] = 0;
        while (word) {
            item[k++] = (QueueItem){ (uint32_t)(w * 64) + (uint32_t)
                                     __builtin_ctzll(word), NULL };
            word &= word - 1;
        }
    }
    return TRUE;
}

#define SORT_BITS 11

/* A bucket's live items in the order of their nodes, stable (an LSD radix
 * sort into sort_tmp and back: it streams, where a comparison sort of a
 * 22-cube's 4 M items would cost more than the step it orders). */
static void bucket_sort_by_node(EventQueue *q, QueueBucket *b)
{
    size_t n = b->len - b->head;
    if (n < 2)
        return;
    /* the bits cost a pass over nodes/64 words: worth it from there */
    if (q->bits && n >= q->nodes / 64
        && bucket_sort_bits(q, b->item + b->head, n))
        return;
    if (q->sort_cap < n) {
        q->sort_cap = n;
        q->sort_tmp = EMU_RENEW(QueueItem, q->sort_tmp, n, "the event queue");
    }
    QueueItem *src = b->item + b->head, *dst = q->sort_tmp;
    uint32_t top = 0;
    for (size_t i = 0; i < n; i++)
        top |= src[i].node;
    for (unsigned shift = 0; shift < 32 && (top >> shift) != 0;
         shift += SORT_BITS) {
        size_t start[(1u << SORT_BITS) + 1] = { 0 };
        for (size_t i = 0; i < n; i++)
            start[((src[i].node >> shift) & ((1u << SORT_BITS) - 1)) + 1]++;
        for (unsigned d = 0; d < (1u << SORT_BITS); d++)
            start[d + 1] += start[d];
        for (size_t i = 0; i < n; i++)
            dst[start[(src[i].node >> shift) & ((1u << SORT_BITS) - 1)]++]
                = src[i];
        QueueItem *t = src;
        src = dst;
        dst = t;
    }
    if (src != b->item + b->head)
        memcpy(b->item + b->head, src, n * sizeof *src);
}

/* The bucket's last item was taken: off the heap, back to the spares. */
static void bucket_done(EventQueue *q, QueueBucket *b)
{
    Tick t = b->time;
    times_pop(q);
    g_hash_table_steal(q->by_time, &t);
    if (q->last == b)
        q->last = NULL;
    q->popping = NULL;
    g_ptr_array_add(q->spare, b);
}

gboolean queue_pop_slow(EventQueue *q, Tick *time, QueueItem *item)
{
    if (q->ntimes == 0)
        return FALSE;
    Tick t = q->times[0];
    QueueBucket *b = q->popping;
    if (!b || b->time != t) {
        b = q->last && q->last->time == t
                ? q->last : g_hash_table_lookup(q->by_time, &t);
        q->popping = b;
        if (q->by_node && b->head == 0) {
            bucket_sort_by_node(q, b);
            b->sorted = b->len;
        }
    }
    *time = t;
    *item = b->item[b->head++];
    q->length--;
    if (b->head == b->len)
        bucket_done(q, b);
    return TRUE;
}

void queue_unpop(EventQueue *q, Tick time, QueueItem item)
{
    QueueBucket *b = q->popping;
    if (b && b->time == time && b->head == 1) {
        b->head = 0;
        q->length++;
        q->popping = NULL;              /* the next pop looks it up again */
        return;
    }
    /* it was its bucket's only item: the bucket is gone */
    g_assert(!b || b->time != time);
    queue_push_slow(q, time, item);
}

void queue_skip(EventQueue *q, size_t k)
{
    QueueBucket *b = q->popping;
    g_assert(k == 0 || (b && b->head + k <= b->len));
    if (k == 0)
        return;
    b->head += k;
    q->length -= k;
    if (b->head == b->len)
        bucket_done(q, b);
}

void queue_absorb(EventQueue *q, EventQueue *from)
{
    GHashTableIter it;
    gpointer key, value;
    g_hash_table_iter_init(&it, from->by_time);
    while (g_hash_table_iter_next(&it, &key, &value)) {
        QueueBucket *f = value;
        size_t n = f->len - f->head;
        QueueBucket *b = queue_bucket(q, f->time);
        if (b->len + n > b->cap) {
            b->cap = MAX(2 * b->cap, b->len + n);
            b->item = EMU_RENEW(QueueItem, b->item, b->cap, "the event queue");
        }
        memcpy(b->item + b->len, f->item + f->head, n * sizeof *b->item);
        b->len += n;
        q->length += n;
        f->head = f->len = 0;
        g_ptr_array_add(from->spare, f);
        g_hash_table_iter_steal(&it);
    }
    from->ntimes = 0;
    from->length = 0;
    from->last = from->popping = NULL;
}

size_t queue_length(const EventQueue *q)
{
    return q->length;
}

void queue_foreach(EventQueue *q, void (*fn)(QueueItem *item, void *data),
                   void *data)
{
    GHashTableIter it;
    gpointer key, value;
    g_hash_table_iter_init(&it, q->by_time);
    while (g_hash_table_iter_next(&it, &key, &value)) {
        QueueBucket *b = value;
        for (size_t i = b->head; i < b->len; i++)
            fn(&b->item[i], data);
    }
}
