/* channel_table.h -- a table of the channels in use, by key: what a link
 * of a dense topology keeps before it takes a whole array, keyed by node,
 * and a sparse topology's channels, keyed by node * links + link
 * (sim_channels.c says why each exists). One mechanism for both; a user
 * says only what differs, its key and what an entry holds
 * (ChannelTableKind).
 *
 * It is a table of its own rather than a GHashTable, which cost each
 * channel an allocation of its own, a lookup through a pointer to its key,
 * and a free at the end, one by one; on a schedule's replay those were
 * most of the engine's work a message. Here: open addressing with linear
 * probing over slots of 8 bytes, at most half full, each the entry's index
 * and the low half of its key, so that a probe rarely reads an entry it
 * does not want, and never where every key fits in the slot. The entries
 * are in chunks that never move, so that the timelines a route has looked
 * up stay where they are while its later hops add channels and the slots
 * grow (sim_route_runs holds them), and they are freed a chunk at a time.
 * Keys are spread over the slots by Fibonacci hashing (the top bits of
 * the key times 2^64 / the golden ratio): an all-to-all's keys are
 * consecutive, a collective's lie a fixed stride apart, a link's nodes one
 * in 2^(l+1) (the shift ring on the cube), and each fills the slots
 * evenly. Everything is allocated through oom.h, so that a run that
 * outgrows its memory ends with its message, not GLib's abort.
 *
 * An entry begins with its channel's Timeline (LinkChannel, and Channel in
 * SparseChannel): a new one is zeroed, its timeline empty.
 */
#ifndef CUBE_CHANNEL_TABLE_H
#define CUBE_CHANNEL_TABLE_H

#include "bits.h"
#include "timeline.h"

#include <glib.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Entries a chunk: small enough that a table of a few channels (a link
 * used at a few nodes, a test's machine of 8 nodes) maps little, large
 * enough that the chunks' array stays short. A power of two, so that an
 * entry's chunk is a shift away. */
#define CHANNEL_TABLE_CHUNK 256
/* Entries are numbered from 1 in a slot's 32 bits (0: free), so a table
 * holds at most this many chunks. */
#define CHANNEL_TABLE_MAX_CHUNKS (UINT32_MAX / CHANNEL_TABLE_CHUNK)
/* ChannelTableKind.key_at of a table whose keys are all below 2^32: the
 * slot's tag is the whole key, and an entry need not hold it. */
#define CHANNEL_TABLE_KEY_IN_TAG (-1)
/* The lookups, inlined wherever they are called: each user's kind is a
 * static const, so that its entry's size and where its key lies fold into
 * the probe, which would otherwise test them at every slot (the compiler,
 * left to itself, calls a lookup that includes an add). */
#define CHANNEL_TABLE_INLINE static inline __attribute__((always_inline))

/* What one user's entries are. */
typedef struct {
    size_t size;               /* an entry's bytes */
    ptrdiff_t key_at;          /* the offset of the entry's uint64_t key,
                                * or CHANNEL_TABLE_KEY_IN_TAG */
    const char *what;          /* the table, for an out-of-memory message */
} ChannelTableKind;

typedef struct {
    uint32_t index;            /* the entry's index + 1; 0: free */
    uint32_t tag;              /* its key's low 32 bits */
} ChannelTableSlot;

typedef struct {
    ChannelTableSlot *slot;
    int shift;                 /* 64 - log2(slots) */
    uint32_t n;                /* entries */
    unsigned char **chunk;     /* CHANNEL_TABLE_CHUNK entries each */
    uint32_t nchunk;
} ChannelTable;

ChannelTable *channel_table_new(const ChannelTableKind *k);
/* No entries, its memory kept for the next user. */
void channel_table_empty(ChannelTable *t);
/* Freed; with spans, its entries' timelines' heap spans too (where some
 * may have taken the heap form). */
void channel_table_free(ChannelTable *t, const ChannelTableKind *k,
                        gboolean spans);
/* For channel_table_add: a chunk more; twice the slots. */
void channel_table_chunk_new(ChannelTable *t, const ChannelTableKind *k);
void channel_table_grow(ChannelTable *t, const ChannelTableKind *k);

static inline size_t channel_table_slots(const ChannelTable *t)
{
    return (size_t)1 << (64 - t->shift);
}

/* Fibonacci hashing: the top bits of key * 2^64 / the golden ratio. */
static inline size_t channel_table_home(const ChannelTable *t, uint64_t key)
{
    return (size_t)((key * BITS_SPLITMIX64_GAMMA) >> t->shift);
}

/* Entry i, 0-based. */
static inline void *channel_table_entry(const ChannelTable *t,
                                        const ChannelTableKind *k, uint32_t i)
{
    return t->chunk[i / CHANNEL_TABLE_CHUNK]
           + (size_t)(i % CHANNEL_TABLE_CHUNK) * k->size;
}

/* The key of the entry a used slot holds. */
CHANNEL_TABLE_INLINE uint64_t
channel_table_key(const ChannelTable *t, const ChannelTableKind *k,
                  const ChannelTableSlot *s)
{
    if (k->key_at == CHANNEL_TABLE_KEY_IN_TAG)
        return s->tag;
    uint64_t key;
    memcpy(&key, (const unsigned char *)channel_table_entry(t, k, s->index - 1)
                     + k->key_at, sizeof key);
    return key;
}

/* The slot that holds `key`, or the free one where it would go. */
CHANNEL_TABLE_INLINE size_t
channel_table_probe(const ChannelTable *t, const ChannelTableKind *k,
                    uint64_t key)
{
    size_t mask = channel_table_slots(t) - 1, h = channel_table_home(t, key);
    for (; t->slot[h].index != 0; h = (h + 1) & mask)
        if (t->slot[h].tag == (uint32_t)key
            && (k->key_at == CHANNEL_TABLE_KEY_IN_TAG
                || channel_table_key(t, k, &t->slot[h]) == key))
            break;
    return h;
}

/* The entry of `key`, or NULL. */
CHANNEL_TABLE_INLINE void *
channel_table_find(const ChannelTable *t, const ChannelTableKind *k,
                   uint64_t key)
{
    const ChannelTableSlot *s = &t->slot[channel_table_probe(t, k, key)];
    return s->index ? channel_table_entry(t, k, s->index - 1) : NULL;
}

/* A new entry for `key` in the free slot h that its probe ended at:
 * zeroed, its timeline empty, its key in it (where it holds one). */
CHANNEL_TABLE_INLINE void *
channel_table_add(ChannelTable *t, const ChannelTableKind *k, size_t h,
                  uint64_t key)
{
    if (t->n == t->nchunk * CHANNEL_TABLE_CHUNK)
        channel_table_chunk_new(t, k);
    unsigned char *e = channel_table_entry(t, k, t->n);
    memset(e, 0, k->size);
    timeline_init((Timeline *)(void *)e);
    if (k->key_at != CHANNEL_TABLE_KEY_IN_TAG)
        memcpy(e + k->key_at, &key, sizeof key);
    t->slot[h] = (ChannelTableSlot){ ++t->n, (uint32_t)key };
    if ((size_t)t->n * 2 > channel_table_slots(t))
        channel_table_grow(t, k);
    return e;
}

/* The entry of `key`, made if new (channel_table_add). */
CHANNEL_TABLE_INLINE void *
channel_table_get(ChannelTable *t, const ChannelTableKind *k, uint64_t key)
{
    size_t h = channel_table_probe(t, k, key);
    if (t->slot[h].index)
        return channel_table_entry(t, k, t->slot[h].index - 1);
    return channel_table_add(t, k, h, key);
}

/* The entries in slot order, each with its key:
 *     for (size_t i = 0; (e = channel_table_next(t, k, &i, &key));)
 * with nothing added meanwhile. */
CHANNEL_TABLE_INLINE void *
channel_table_next(const ChannelTable *t, const ChannelTableKind *k, size_t *i,
                   uint64_t *key)
{
    for (size_t slots = channel_table_slots(t); *i < slots; (*i)++) {
        const ChannelTableSlot *s = &t->slot[*i];
        if (s->index != 0) {
            (*i)++;
            *key = channel_table_key(t, k, s);
            return channel_table_entry(t, k, s->index - 1);
        }
    }
    return NULL;
}

#endif
