/* queue.h -- the engine's event queue: pop order is (time, insertion order).
 *
 * Events at equal times come out in the order they were pushed, on every
 * run (the tie rule libuv's timer heap uses, and the one a deterministic
 * discrete-event engine needs). Events are kept in one FIFO bucket per
 * distinct time, and the distinct times in a binary heap: pushing to the
 * time pushed last and popping cost O(1), so a machine whose nodes run in
 * lockstep (thousands of events per cycle) pays almost nothing for order.
 */
#ifndef CUBE_QUEUE_H
#define CUBE_QUEUE_H

#include <glib.h>
#include "node.h"

typedef struct {
    uint32_t node;
    void *post;             /* payload for the engine: NULL or a deferred send */
} QueueItem;

/* The queue's state is here only for the inline fast paths below; the
 * invariants are queue.c's. */
typedef struct {
    Tick time;
    QueueItem *item;
    size_t head, len, cap;      /* live items: item[head, len) */
    size_t sorted;              /* by node: item[..., sorted) are in node
                                 * order (queue_set_by_node), or 0 */
} QueueBucket;

typedef struct EventQueue {
    Tick *times;                /* min-heap of distinct times */
    size_t ntimes, captimes;
    GHashTable *by_time;        /* Tick* -> QueueBucket* */
    QueueBucket *last;          /* bucket pushed to last (cache) */
    QueueBucket *popping;       /* bucket popped from last (cache) */
    GPtrArray *spare;           /* empty buckets for reuse */
    size_t length;
    gboolean by_node;           /* queue_set_by_node */
    QueueItem *sort_tmp;        /* its radix sort's other half */
    size_t sort_cap;
    uint64_t *bits;             /* a bit a node, for its bit sort */
    uint32_t nodes;
} EventQueue;

EventQueue *queue_new(void);
void queue_free(EventQueue *q);
/* For the locality order (sim_set_order): pop each time's items in the
 * order of their nodes instead of push order (a stable sort: one node's
 * items keep theirs), as they stand when the first of that time is popped
 * (items pushed to it later come after, in push order); items name nodes
 * below `nodes`. This departs from the tie rule above; the engine checks
 * where that could matter. */
void queue_set_by_node(EventQueue *q, gboolean on, uint32_t nodes);
/* The whole operations, every case (queue_push and queue_pop below call
 * them for all but the commonest). */
void queue_push_slow(EventQueue *q, Tick time, QueueItem item);
gboolean queue_pop_slow(EventQueue *q, Tick *time, QueueItem *item);

/* Inline, the common cases (a node pushed at the time pushed to last,
 * into room; an item popped that is not its bucket's last): nodes run in
 * lockstep, so nearly every push and pop is one of these, and the calls
 * cost more than the work. */
static inline void queue_push(EventQueue *q, Tick time, QueueItem item)
{
    QueueBucket *b = q->last;
    if (b && b->time == time && b->len < b->cap) {
        b->item[b->len++] = item;
        q->length++;
        return;
    }
    queue_push_slow(q, time, item);
}

/* FALSE when empty. */
static inline gboolean queue_pop(EventQueue *q, Tick *time, QueueItem *item)
{
    QueueBucket *b = q->popping;
    if (b && q->ntimes > 0 && b->time == q->times[0]
        && b->head + 1 < b->len) {
        *time = b->time;
        *item = b->item[b->head++];
        q->length--;
        return TRUE;
    }
    return queue_pop_slow(q, time, item);
}

/* The items queue_pop would return next that have the time of the one it
 * returned last: *n of them, from the one returned (NULL and 0 when there
 * are none). For reading ahead; pushing may move them. */
static inline const QueueItem *queue_peek_run(const EventQueue *q, size_t *n)
{
    const QueueBucket *b = q->popping;
    if (!b || b->head == b->len || q->ntimes == 0 || b->time != q->times[0]) {
        *n = 0;
        return NULL;
    }
    *n = b->len - b->head;
    return &b->item[b->head];
}
/* By node (queue_set_by_node): the items of the run from the one
 * queue_pop returned last, that one first, that are in the order of
 * their nodes (not those pushed to the time since its first pop): *n
 * of them, or NULL and 0. */
static inline const QueueItem *queue_sorted_run(const EventQueue *q,
                                                size_t *n)
{
    const QueueItem *run = queue_peek_run(q, n);
    const QueueBucket *b = q->popping;
    if (!run || b->head > b->sorted) {
        *n = 0;
        return NULL;
    }
    *n = b->sorted - b->head + 1;
    return run - 1;
}
/* Give back the item queue_pop just returned, the first of its time:
 * the next pop returns its time's items from the first again, sorted by
 * node if the queue now sorts them (a run entering the locality order:
 * sim_set_order_from). */
void queue_unpop(EventQueue *q, Tick time, QueueItem item);
/* Pop the k items queue_peek_run shows, at once (k at most its n). */
void queue_skip(EventQueue *q, size_t k);
/* Move every item of `from` into q, each time's after q's own of that
 * time, in from's order; from is left empty. */
void queue_absorb(EventQueue *q, EventQueue *from);
size_t queue_length(const EventQueue *q);
/* Call fn on every item still queued (to free payloads). */
void queue_foreach(EventQueue *q, void (*fn)(QueueItem *item, void *data),
                   void *data);

#endif
