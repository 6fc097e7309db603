/* match.c -- the (destination, source, tag) table (match.h).
 *
 * Invariant: slot[i].used is nonzero exactly for live keys; a live key
 * sits at its home position hash(key) & mask or after it with no empty
 * slot in between (linear probing); count <= capacity / 2.
 */
#include "match.h"
#include "oom.h"

#include <glib.h>
#include <string.h>

/* Grow when more than half full: short probe sequences. */
#define MATCH_MIN_CAPACITY 64

static size_t match_hash(uint32_t dest, uint32_t source, int32_t tag)
{
    uint64_t x = ((uint64_t)dest << 32 | source) ^ ((uint64_t)(uint32_t)tag
                                                    * 0x9e3779b97f4a7c15ULL);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

void match_init(MatchTable *t)
{
    t->slot = g_new0(MatchSlot, MATCH_MIN_CAPACITY);
    t->mask = MATCH_MIN_CAPACITY - 1;
    t->count = 0;
}

void match_clear(MatchTable *t)
{
    g_free(t->slot);
    memset(t, 0, sizeof *t);
}

static void match_grow(MatchTable *t)
{
    MatchSlot *old = t->slot;
    size_t cap = t->mask + 1;
    t->slot = EMU_NEW0(MatchSlot, 2 * cap, "the table of unmatched messages");
    t->mask = 2 * cap - 1;
    for (size_t i = 0; i < cap; i++) {
        if (!old[i].used)
            continue;
        size_t j = match_hash(old[i].dest, old[i].source, old[i].tag) & t->mask;
        while (t->slot[j].used)
            j = (j + 1) & t->mask;
        t->slot[j] = old[i];
    }
    g_free(old);
}

MatchSlot *match_slot_lookup(MatchTable *t, MatchLocal *local, uint32_t dest,
                             uint32_t source, int32_t tag)
{
    MatchSlot *own = &local->slot;
    if (own->used && own->source == source && own->tag == tag)
        return own;
    size_t i = match_hash(dest, source, tag) & t->mask;
    if (local->in_table > 0)
        for (;; i = (i + 1) & t->mask) {
            MatchSlot *s = &t->slot[i];
            if (!s->used)
                break;
            if (s->dest == dest && s->source == source && s->tag == tag)
                return s;
        }
    if (!own->used) {
        *own = (MatchSlot){ .dest = dest, .source = source, .tag = tag,
                          .used = MATCH_USED };
        return own;
    }
    while (local->in_table == 0 && t->slot[i].used)   /* not probed above */
        i = (i + 1) & t->mask;
    local->in_table++;
    if (2 * (t->count + 1) > t->mask + 1) {
        match_grow(t);
        i = match_hash(dest, source, tag) & t->mask;
        while (t->slot[i].used)
            i = (i + 1) & t->mask;
    }
    t->count++;
    t->slot[i] = (MatchSlot){ .dest = dest, .source = source, .tag = tag,
                          .used = MATCH_USED };
    return &t->slot[i];
}

/* match_release's table case: s is in the table and its list is
 * empty. */
void match_release_table(MatchTable *t, MatchLocal *local, MatchSlot *s)
{
    local->in_table--;
    size_t i = (size_t)(s - t->slot), j = i;
    t->slot[i].used = 0;
    t->count--;
    /* Backward shift: move later members of the probe run into the hole
     * when their home position allows it. */
    for (;;) {
        j = (j + 1) & t->mask;
        if (!t->slot[j].used)
            return;
        size_t home = match_hash(t->slot[j].dest, t->slot[j].source,
                                 t->slot[j].tag) & t->mask;
        /* j may move to i iff home is not cyclically in (i, j]. */
        gboolean stays = i <= j ? (i < home && home <= j)
                                : (i < home || home <= j);
        if (stays)
            continue;
        t->slot[i] = t->slot[j];
        t->slot[j].used = 0;
        i = j;
    }
}

