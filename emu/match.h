/* match.h -- receives and early messages matched by (destination, source,
 * tag) in constant time.
 *
 * Every key has a FIFO list of receives posted and not yet matched, or of
 * messages that arrived before their receive: never both at once (a new
 * item of one kind is matched against the other first), so one list
 * serves, and MatchSlot.used says which it holds. Items keep posting
 * order, which is MPI's non-overtaking rule. Keys live in an
 * open-addressing table with linear probing, each destination's keys
 * from a window of their own in destination order (so that nodes running
 * in address order read the table in a stream); a key whose list is empty
 * is removed (backward-shift deletion, no tombstones), so the table holds
 * only outstanding keys and an all-to-all that posts P - 1 receives per node costs O(1) per receive.
 *
 * Most nodes have one outstanding key at a time (a step's exchange), and
 * the table is large and touched at random: so each destination first
 * keeps one key in a slot of its own (MatchLocal, beside the node's other
 * state, already in cache), and only further keys go to the table. A key
 * lives in exactly one place. A key of the table whose list would hold one
 * receive may hold it in the slot instead (MATCH_HELD_RECV), so that the
 * sender that finds the slot reads no struct behind it.
 */
#ifndef CUBE_MATCH_H
#define CUBE_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "prefetch.h"
#include "bits.h"

/* A list item: a posted receive or an early message. The engine embeds
 * this at the start of its own structs (intrusive, as list.h does). */
typedef struct MatchItem {
    struct MatchItem *next;
    uint64_t seq;                 /* posting order, for error messages */
} MatchItem;

/* MatchSlot.used: the key is live; its list holds early messages (else
 * receives, if any); and, the engine's, a receive or a message of the key
 * is kept outside the list, older than every item in it. */
#define MATCH_USED 1u
#define MATCH_MSGS 2u
#define MATCH_KEPT_RECV 4u
#define MATCH_KEPT_MSG 8u
/* A slot of the table (never a destination's own) holds its key's only
 * receive itself, in `held`, and no list (the engine's: sim.c,
 * recv_wait). */
#define MATCH_HELD_RECV 16u

/* One list for both kinds: at most one kind is waiting at any time, so
 * a key is 32 bytes, two to a cache line in the table, and the 16 bytes
 * a second list took are free for the engine beside a destination's own
 * slot (MatchLocal). */
typedef struct {
    uint32_t dest, source;
    int32_t tag;
    uint32_t used;                /* MATCH_USED | ..., or 0 */
    union {
        struct {
            MatchItem *head, *tail;
        };
        struct {                  /* MATCH_HELD_RECV: the receive's */
            uint64_t seq;         /* posting order, */
            uint32_t offset, count;   /* and where and how much */
        } held;
    };
} MatchSlot;

/* A destination's own slot, how many of its keys are in the table, and a
 * word the owner keeps beside them, in what would be padding (the engine:
 * the id of the message kept in the slot): a sender touches only this
 * struct of its destination's state and what the owner puts after it. */
typedef struct {
    MatchSlot slot;
    uint32_t in_table;
    uint32_t owner_word;
} MatchLocal;

/* A destination's keys start their probes in its window of this many
 * bits of slots, until a probe longer than MATCH_LONG_PROBE makes the
 * table hash whole keys (match.c, match_home). */
#define MATCH_WINDOW_BITS 4
#define MATCH_LONG_PROBE 64

typedef struct {
    MatchSlot *slot;
    size_t mask;                  /* capacity - 1, capacity a power of two */
    size_t count;
    int spread;                   /* keys hashed whole, not by destination
                                   * first (match.c, match_home) */
} MatchTable;

void match_init(MatchTable *t);

/* A key's hash: its three fields mixed into 64 bits. */
static inline size_t match_key_mix(uint32_t dest, uint32_t source, int32_t tag)
{
    uint64_t x = ((uint64_t)dest << 32 | source) ^ ((uint64_t)(uint32_t)tag
                                                    * BITS_SPLITMIX64_GAMMA);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

/* Where a key's probe starts (match.c says why). */
static inline size_t match_home(const MatchTable *t, uint32_t dest,
                                uint32_t source, int32_t tag)
{
    size_t x = match_key_mix(dest, source, tag);
    if (!t->spread)
        x = (size_t)dest << MATCH_WINDOW_BITS
            | (x & (((size_t)1 << MATCH_WINDOW_BITS) - 1));
    return x & t->mask;
}

/* Start loading the line where a key's probe would start. */
static inline void match_prefetch(const MatchTable *t, uint32_t dest,
                                  uint32_t source, int32_t tag)
{
    if (t->count > 0)
        EMU_PREFETCH(&t->slot[match_home(t, dest, source, tag)]);
}
void match_clear(MatchTable *t);

/* The slot of a key of destination dest (whose own slot is local),
 * created empty if absent. Valid until the next match_slot or
 * match_release. */
MatchSlot *match_slot_lookup(MatchTable *t, MatchLocal *local, uint32_t dest,
                             uint32_t source, int32_t tag);
/* Inline, the common cases: the destination's own slot holds the key, or
 * is free while none of its keys is in the table: nearly every message
 * of an exchange takes one of them, and a call's entry and exit would
 * cost more than the work. */
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
/* Remove the slot if its list is empty and it keeps nothing: inline where it is the
 * destination's own slot, out of line in the table. */
void match_release_table(MatchTable *t, MatchLocal *local, MatchSlot *s);
static inline void match_release(MatchTable *t, MatchLocal *local,
                                 MatchSlot *s)
{
    if ((s->used & (MATCH_KEPT_RECV | MATCH_KEPT_MSG | MATCH_HELD_RECV))
        || s->head)
        return;
    if (s == &local->slot)
        s->used = 0;
    else
        match_release_table(t, local, s);
}

/* The list's receives, or its early messages: NULL if it holds the
 * other kind or none. */
static inline MatchItem *match_recvs(const MatchSlot *s)
{
    return s->used & (MATCH_MSGS | MATCH_HELD_RECV) ? NULL : s->head;
}

static inline MatchItem *match_msgs(const MatchSlot *s)
{
    return s->used & MATCH_MSGS ? s->head : NULL;
}

/* The list's two ends, inline: each is a few instructions, and a call
 * each cost more than the work (four of them a message in an exchange).
 * kind is MATCH_MSGS or 0 (receives); an item is pushed only where no
 * item of the other kind waits and the slot holds no receive itself
 * (MATCH_HELD_RECV), and the pop takes nothing from a list of the other
 * kind or from such a slot. */
static inline void match_push(MatchSlot *s, unsigned kind, MatchItem *item)
{
    item->next = NULL;
    if (s->tail) {
        s->tail->next = item;
    } else {
        s->head = item;
        s->used = (s->used & ~MATCH_MSGS) | kind;
    }
    s->tail = item;
}

/* Push an item older than every item in the list (the engine gives one it
 * kept outside the list a struct of its own). */
static inline void match_push_front(MatchSlot *s, unsigned kind,
                                    MatchItem *item)
{
    item->next = s->head;
    if (!s->head) {
        s->tail = item;
        s->used = (s->used & ~MATCH_MSGS) | kind;
    }
    s->head = item;
}

static inline MatchItem *match_pop(MatchSlot *s, unsigned kind)
{
    MatchItem *item = s->head;
    if ((s->used & (MATCH_MSGS | MATCH_HELD_RECV)) != kind || !item)
        return NULL;
    s->head = item->next;
    if (!s->head)
        s->tail = NULL;
    return item;
}

#endif
