/* queue.c -- FIFO buckets per distinct time, times in a binary min-heap.
 *
 * Invariant: every bucket in `by_time` is non-empty and its time is in
 * `times` exactly once; items in a bucket are in push order; `last` is NULL
 * or the bucket of `last_time`. Empty buckets go back to `spare` so a
 * steady run allocates nothing.
 */
#include "queue.h"

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
    g_free(q);
}

static void times_push(EventQueue *q, Tick t)
{
    if (q->ntimes == q->captimes) {
        q->captimes = q->captimes ? 2 * q->captimes : 16;
        q->times = g_renew(Tick, q->times, q->captimes);
    }
    size_t i = q->ntimes++;
    while (i > 0 && q->times[(i - 1) / 2] > t) {
        q->times[i] = q->times[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    q->times[i] = t;
}

static void times_pop(EventQueue *q)
{
    Tick last = q->times[--q->ntimes];
    size_t i = 0, n = q->ntimes;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && q->times[c + 1] < q->times[c])
            c++;
        if (q->times[c] >= last)
            break;
        q->times[i] = q->times[c];
        i = c;
    }
    if (n > 0)
        q->times[i] = last;
}

static QueueBucket *queue_bucket(EventQueue *q, Tick time)
{
    if (q->last && q->last->time == time)
        return q->last;
    QueueBucket *b = g_hash_table_lookup(q->by_time, &time);
    if (!b) {
        b = q->spare->len ? g_ptr_array_steal_index_fast(q->spare,
                                                         q->spare->len - 1)
                          : g_new0(QueueBucket, 1);
        b->time = time;
        b->head = b->len = 0;
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
            b->head = 0;
        } else {
            b->cap = b->cap ? 2 * b->cap : 16;
            b->item = g_renew(QueueItem, b->item, b->cap);
        }
    }
    b->item[b->len++] = item;
    q->length++;
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
    }
    *time = t;
    *item = b->item[b->head++];
    q->length--;
    if (b->head == b->len) {
        times_pop(q);
        g_hash_table_steal(q->by_time, &t);
        if (q->last == b)
            q->last = NULL;
        q->popping = NULL;
        g_ptr_array_add(q->spare, b);
    }
    return TRUE;
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
