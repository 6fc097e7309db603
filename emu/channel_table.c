/* channel_table.c -- the table of channels in use (channel_table.h): what
 * a table does other than look up and add, none of it per hop.
 */
#include "channel_table.h"
#include "oom.h"

#include <stdlib.h>

/* Slots of a new table. */
#define CHANNEL_TABLE_SLOTS_MIN 64
/* Chunks are aligned to a cache line, so that no entry of a size that
 * divides one (a LinkChannel's half line) straddles two. */
#define CHANNEL_TABLE_ALIGN 64

ChannelTable *channel_table_new(const ChannelTableKind *k)
{
    ChannelTable *t = EMU_NEW0(ChannelTable, 1, k->what);
    t->shift = 64 - __builtin_ctzll(CHANNEL_TABLE_SLOTS_MIN);
    t->slot = EMU_NEW0(ChannelTableSlot, CHANNEL_TABLE_SLOTS_MIN, k->what);
    return t;
}

void channel_table_empty(ChannelTable *t)
{
    memset(t->slot, 0, sizeof(ChannelTableSlot) * channel_table_slots(t));
    t->n = 0;
}

void channel_table_free(ChannelTable *t, const ChannelTableKind *k,
                        gboolean spans)
{
    if (spans)
        for (uint32_t i = 0; i < t->n; i++)
            timeline_clear(channel_table_entry(t, k, i));
    for (uint32_t c = 0; c < t->nchunk; c++)
        free(t->chunk[c]);
    g_free(t->chunk);
    g_free(t->slot);
    g_free(t);
}

void channel_table_chunk_new(ChannelTable *t, const ChannelTableKind *k)
{
    if (t->nchunk == CHANNEL_TABLE_MAX_CHUNKS)
        emu_out_of_memory(k->size, k->what);
    t->chunk = EMU_RENEW(unsigned char *, t->chunk, t->nchunk + 1, k->what);
    t->chunk[t->nchunk++] = emu_aligned_alloc(
        CHANNEL_TABLE_ALIGN, CHANNEL_TABLE_CHUNK * k->size, k->what);
}

/* Key's slot in a table that does not hold it. */
static size_t channel_table_free_slot(const ChannelTable *t, uint64_t key)
{
    size_t mask = channel_table_slots(t) - 1, h = channel_table_home(t, key);
    while (t->slot[h].index != 0)
        h = (h + 1) & mask;
    return h;
}

/* Twice the slots, the entries placed again: where they hold their keys,
 * in the order they came (a pass over the entries, not the slots, half of
 * them free); else in the order of the old slots, which hold the keys. */
void channel_table_grow(ChannelTable *t, const ChannelTableKind *k)
{
    size_t old = channel_table_slots(t);
    ChannelTableSlot *was = t->slot;
    t->shift--;
    t->slot = EMU_NEW0(ChannelTableSlot, old * 2, k->what);
    if (k->key_at == CHANNEL_TABLE_KEY_IN_TAG) {
        for (size_t i = 0; i < old; i++)
            if (was[i].index != 0)
                t->slot[channel_table_free_slot(t, was[i].tag)] = was[i];
    } else {
        for (uint32_t i = 0; i < t->n; i++) {
            ChannelTableSlot s = { i + 1, 0 };
            uint64_t key = channel_table_key(t, k, &s);
            s.tag = (uint32_t)key;
            t->slot[channel_table_free_slot(t, key)] = s;
        }
    }
    g_free(was);
}
