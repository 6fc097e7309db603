/* match.h -- receives and early messages matched by (destination, source,
 * tag) in constant time.
 *
 * Every key has two FIFO lists: receives posted and not yet matched, and
 * messages that arrived before their receive. At most one of the two is
 * non-empty at any time (a new item on one side is matched against the
 * other first), and items within a list keep posting order, which is MPI's
 * non-overtaking rule. Keys live in an open-addressing table with linear
 * probing; a key whose lists are both empty is removed (backward-shift
 * deletion, no tombstones), so the table holds only outstanding keys and
 * an all-to-all that posts P - 1 receives per node costs O(1) per receive.
 *
 * Most nodes have one outstanding key at a time (a step's exchange), and
 * the table is large and touched at random: so each destination first
 * keeps one key in a slot of its own (MatchLocal, beside the node's other
 * state, already in cache), and only further keys go to the table. A key
 * lives in exactly one place.
 */
#ifndef CUBE_MATCH_H
#define CUBE_MATCH_H

#include <stddef.h>
#include <stdint.h>

/* A list item: a posted receive or an early message. The engine embeds
 * this at the start of its own structs (intrusive, as list.h does). */
typedef struct MatchItem {
    struct MatchItem *next;
    uint64_t seq;                 /* posting order, for error messages */
} MatchItem;

/* MatchSlot.used: the key is live; and, the engine's, a receive of the
 * key is kept outside the lists, older than every item in them. */
#define MATCH_USED 1u
#define MATCH_INLINE_RECV 2u

typedef struct {
    uint32_t dest, source;
    int32_t tag;
    uint32_t used;                /* MATCH_USED | ..., or 0 */
    MatchItem *recv_head, *recv_tail;
    MatchItem *msg_head, *msg_tail;
} MatchSlot;

/* A destination's own slot, how many of its keys are in the table, and a
 * count the owner keeps beside them (the engine: its early messages, in
 * all its keys), in what would be padding: a sender touches only this
 * struct of its destination's state. */
typedef struct {
    MatchSlot slot;
    uint32_t in_table;
    uint32_t owner_count;
} MatchLocal;

typedef struct {
    MatchSlot *slot;
    size_t mask;                  /* capacity - 1, capacity a power of two */
    size_t count;
} MatchTable;

void match_init(MatchTable *t);
void match_clear(MatchTable *t);

/* The slot of a key of destination dest (whose own slot is local),
 * created empty if absent. Valid until the next match_slot or
 * match_release. */
MatchSlot *match_slot_lookup(MatchTable *t, MatchLocal *local, uint32_t dest,
                             uint32_t source, int32_t tag);
/* Inline, the common cases: the destination's own slot holds the key, or
 * is free while none of its keys is in the table (callgrind, 14-cube
 * exchange: the whole function's entry and exit were 9 M of 300 M
 * instructions). */
static inline MatchSlot *match_slot(MatchTable *t, MatchLocal *local,
                                    uint32_t dest, uint32_t source,
                                    int32_t tag)
{
    MatchSlot *own = &local->slot;
    if (own->used ? own->source == source && own->tag == tag
                  : local->in_table == 0) {
        if (!own->used)
            *own = (MatchSlot){ .dest = dest, .source = source, .tag = tag,
                          .used = MATCH_USED };
        return own;
    }
    return match_slot_lookup(t, local, dest, source, tag);
}
/* Remove the slot if both its lists are empty: inline where it is the
 * destination's own slot, out of line in the table. */
void match_release_table(MatchTable *t, MatchLocal *local, MatchSlot *s);
static inline void match_release(MatchTable *t, MatchLocal *local,
                                 MatchSlot *s)
{
    if (s->recv_head || s->msg_head || (s->used & MATCH_INLINE_RECV))
        return;
    if (s == &local->slot)
        s->used = 0;
    else
        match_release_table(t, local, s);
}

/* A list's two ends, inline: each is a few instructions, and a call each
 * cost more than the work (four of them a message in an exchange). */
static inline void match_push(MatchItem **head, MatchItem **tail,
                              MatchItem *item)
{
    item->next = NULL;
    if (*tail)
        (*tail)->next = item;
    else
        *head = item;
    *tail = item;
}

static inline MatchItem *match_pop(MatchItem **head, MatchItem **tail)
{
    MatchItem *item = *head;
    if (item) {
        *head = item->next;
        if (!*head)
            *tail = NULL;
    }
    return item;
}

#endif
