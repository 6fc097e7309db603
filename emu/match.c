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

/* Where a key's probe starts (match_home, inline in match.h for
 * match_prefetch). A node's keys are looked up when the node
 * runs, and in the locality order (sim.h) the nodes run in address
 * order: so a key's home is its destination's window of
 * 2^MATCH_WINDOW_BITS slots, in destination order, the key's hash
 * choosing the slot in it; the table is then read in a stream, where a
 * home anywhere in it would make every key a cache miss. Where keys
 * crowd into few destinations (a destination with hundreds of receives
 * outstanding), windows this small would grow long probe runs; a probe
 * longer than MATCH_LONG_PROBE makes the table hash whole keys from
 * then on (spread), as it did before windows. Which slot a key is in
 * decides nothing else: lookups find the same keys either way.
 * (MATCH_WINDOW_BITS and MATCH_LONG_PROBE are in match.h, for the
 * tests.) */

void match_init(MatchTable *t)
{
    t->slot = emu_big_new0_populated(MATCH_MIN_CAPACITY * sizeof(MatchSlot),
                                     "the table of unmatched messages");
    t->mask = MATCH_MIN_CAPACITY - 1;
    t->count = 0;
    t->spread = 0;
}

void match_clear(MatchTable *t)
{
    emu_big_free_populated(t->slot, (t->mask + 1) * sizeof(MatchSlot));
    memset(t, 0, sizeof *t);
}

/* Put every key again into a table of `cap` slots (twice the old when
 * growing, the same when it starts to spread). */
static void match_rehash(MatchTable *t, size_t cap)
{
    MatchSlot *old = t->slot;
    size_t old_cap = t->mask + 1;
    t->slot = emu_big_new0_populated(cap * sizeof(MatchSlot),
                                     "the table of unmatched messages");
    t->mask = cap - 1;
    for (size_t i = 0; i < old_cap; i++) {
        if (!old[i].used)
            continue;
        size_t j = match_home(t, old[i].dest, old[i].source, old[i].tag);
        while (t->slot[j].used)
            j = (j + 1) & t->mask;
        t->slot[j] = old[i];
    }
    emu_big_free_populated(old, old_cap * sizeof(MatchSlot));
}

MatchSlot *match_slot_lookup(MatchTable *t, MatchLocal *local, uint32_t dest,
                             uint32_t source, int32_t tag)
{
    MatchSlot *own = &local->slot;
    if (own->used && own->source == source && own->tag == tag)
        return own;
    size_t i = match_home(t, dest, source, tag), probe = 0;
    if (local->in_table > 0)
        for (;; i = (i + 1) & t->mask, probe++) {
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
    while (local->in_table == 0 && t->slot[i].used) {  /* not probed above */
        i = (i + 1) & t->mask;
        probe++;
    }
    local->in_table++;
    gboolean grow = 2 * (t->count + 1) > t->mask + 1;
    gboolean spread = !t->spread && probe > MATCH_LONG_PROBE;
    if (grow || spread) {
        t->spread |= spread;
        match_rehash(t, grow ? 2 * (t->mask + 1) : t->mask + 1);
        i = match_home(t, dest, source, tag);
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
        size_t home = match_home(t, t->slot[j].dest, t->slot[j].source,
                                 t->slot[j].tag);
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

