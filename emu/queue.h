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

typedef struct EventQueue EventQueue;

EventQueue *queue_new(void);
void queue_free(EventQueue *q);
void queue_push(EventQueue *q, Tick time, QueueItem item);
/* FALSE when empty. */
gboolean queue_pop(EventQueue *q, Tick *time, QueueItem *item);
/* The items queue_pop would return next that have the time of the one it
 * returned last: *n of them, from the one returned (NULL and 0 when there
 * are none). For reading ahead; pushing may move them. */
const QueueItem *queue_peek_run(const EventQueue *q, size_t *n);
size_t queue_length(const EventQueue *q);
/* Call fn on every item still queued (to free payloads). */
void queue_foreach(EventQueue *q, void (*fn)(QueueItem *item, void *data),
                   void *data);

#endif
