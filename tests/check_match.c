/* check_match.c -- emu/match.c and match.h: receives and early messages
 * matched by (destination, source, tag).
 *
 * What match.h promises, asserted through its API alone: a destination's
 * first key takes its own slot (MatchLocal) and further keys go to the
 * table; a key lives in exactly one place, and looking it up again finds
 * that place; keys differ by destination, source and tag (negative tags
 * too); a key's list is FIFO (MPI's non-overtaking rule), holds one kind
 * at a time, and a pop of the other kind takes nothing; match_push_front
 * puts an item before every other; match_release frees a slot only when
 * its list is empty and it keeps nothing (MATCH_KEPT_*); the table grows
 * when more than half full; and random posts and matches over many keys
 * of several destinations, against a model of one FIFO per key, leave
 * every key findable with exactly its items after the table's
 * backward-shift deletions.
 *
 * Keys start their probes in their destination's window (match.h) until
 * a crowded destination makes the table spread them: both asserted.
 * Not reachable from here: the hash inside a window (static in
 * match.c), so the home-position invariant is checked only through its
 * consequence, every live key found where it was put; and match_rehash's
 * out-of-memory path (oom.h: it ends the process with status 2).
 */
#include "match.h"

#include <check.h>
#include <glib.h>
#include <string.h>
#include "check_main.h"

/* The table's capacity a fresh table starts with (match.c,
 * MATCH_MIN_CAPACITY). */
#define START_CAPACITY 64u

/* An item of a key's list, as the engine embeds MatchItem in its own. */
typedef struct {
    MatchItem item;
    unsigned kind;                /* MATCH_MSGS or 0 (a receive) */
} TestItem;

static size_t capacity(const MatchTable *t)
{
    return t->mask + 1;
}

static gboolean in_table(const MatchTable *t, const MatchSlot *s)
{
    return s >= t->slot && s < t->slot + capacity(t);
}

/* Live slots of the table (the own slots are not in it). */
static size_t table_used(const MatchTable *t)
{
    size_t n = 0;
    for (size_t i = 0; i < capacity(t); i++)
        n += t->slot[i].used != 0;
    return n;
}

/* The table each test of the "match" case works on: fresh before the
 * test, cleared after it (a checked fixture: both run in the test's own
 * process). The random test against a model keeps its own. */
static MatchTable table;

static void table_setup(void)
{
    match_init(&table);
}

static void table_teardown(void)
{
    match_clear(&table);
}

START_TEST(match_first_key_in_own_slot)
{
    ck_assert_ptr_nonnull(table.slot);
    ck_assert_uint_eq(capacity(&table), START_CAPACITY);
    ck_assert_uint_eq(table.count, 0);
    ck_assert_uint_eq(table_used(&table), 0);

    MatchLocal local = { 0 };
    MatchSlot *a = match_slot(&table, &local, 7, 3, 5);
    ck_assert_ptr_eq(a, &local.slot);
    ck_assert_uint_eq(a->dest, 7);
    ck_assert_uint_eq(a->source, 3);
    ck_assert_int_eq(a->tag, 5);
    ck_assert_uint_eq(a->used, MATCH_USED);
    ck_assert_ptr_null(a->head);
    ck_assert_ptr_null(a->tail);
    ck_assert_uint_eq(local.in_table, 0);
    ck_assert_uint_eq(table.count, 0);
    /* the same key again, inline and out of line: the same slot */
    ck_assert_ptr_eq(match_slot(&table, &local, 7, 3, 5), &local.slot);
    ck_assert_ptr_eq(match_slot_lookup(&table, &local, 7, 3, 5), &local.slot);

    /* a second key (another tag) and a third (another source): the table */
    MatchSlot *b = match_slot(&table, &local, 7, 3, 6);
    ck_assert(in_table(&table, b));
    ck_assert_uint_eq(b->dest, 7);
    ck_assert_uint_eq(b->source, 3);
    ck_assert_int_eq(b->tag, 6);
    ck_assert_uint_eq(b->used, MATCH_USED);
    ck_assert_ptr_null(b->head);
    ck_assert_uint_eq(local.in_table, 1);
    ck_assert_uint_eq(table.count, 1);
    MatchSlot *c = match_slot(&table, &local, 7, 4, 5);
    ck_assert(in_table(&table, c));
    ck_assert_ptr_ne(b, c);
    ck_assert_uint_eq(c->source, 4);
    ck_assert_int_eq(c->tag, 5);
    ck_assert_uint_eq(local.in_table, 2);
    ck_assert_uint_eq(table.count, 2);
    ck_assert_uint_eq(table_used(&table), 2);
    /* the own slot still holds the first key */
    ck_assert_uint_eq(local.slot.source, 3);
    ck_assert_int_eq(local.slot.tag, 5);

    /* found again where they were put, nothing created */
    ck_assert_ptr_eq(match_slot(&table, &local, 7, 3, 6), b);
    ck_assert_ptr_eq(match_slot_lookup(&table, &local, 7, 4, 5), c);
    ck_assert_ptr_eq(match_slot(&table, &local, 7, 3, 5), &local.slot);
    ck_assert_uint_eq(table.count, 2);
    ck_assert_uint_eq(local.in_table, 2);

    match_clear(&table);
    ck_assert_ptr_null(table.slot);
    ck_assert_uint_eq(table.mask, 0);
    ck_assert_uint_eq(table.count, 0);
}
END_TEST

/* Keys that share two of (destination, source, tag) are different keys:
 * another destination, a swapped source and tag, a negative tag, the
 * extremes of both types. */
START_TEST(match_keys_differ_by_dest_source_and_tag)
{
    static const struct { uint32_t dest, source; int32_t tag; } keys[] = {
        { 1, 5, 9 }, { 2, 5, 9 }, { 1, 9, 5 }, { 2, 9, 5 }, { 1, 5, -9 },
        { 2, 5, -9 }, { 1, 5, 0 }, { 1, 0, 5 }, { 1, 5, -1 },
        { 1, 5, INT32_MIN }, { 1, 5, INT32_MAX }, { 2, UINT32_MAX, 9 },
        { 2, UINT32_MAX, INT32_MIN }, { 2, 0, 0 },
    };
    enum { NKEYS = G_N_ELEMENTS(keys) };
    MatchLocal local[3] = { 0 };
    /* each destination's own slot taken first, by a key of its own */
    for (uint32_t d = 1; d <= 2; d++)
        ck_assert_ptr_eq(match_slot(&table, &local[d], d, 77, 77), &local[d].slot);
    MatchSlot *where[NKEYS];
    TestItem item[NKEYS];
    CkTally k = CK_TALLY_INIT;
    for (size_t i = 0; i < NKEYS; i++) {
        where[i] = match_slot(&table, &local[keys[i].dest], keys[i].dest,
                              keys[i].source, keys[i].tag);
        ck_tally_true(&k, in_table(&table, where[i]), "key %zu in the table", i);
        ck_tally_uint(&k, keys[i].dest, where[i]->dest, "key %zu: dest", i);
        ck_tally_uint(&k, keys[i].source, where[i]->source, "key %zu: source", i);
        ck_tally_int(&k, keys[i].tag, where[i]->tag, "key %zu: tag", i);
        ck_tally_uint(&k, i + 1, table.count, "key %zu: table count", i);
        /* an item of its own, to know it by after the table has grown */
        item[i].item.seq = 1000 + i;
        match_push(where[i], 0, &item[i].item);
    }
    ck_tally_assert(&k, "%d keys put", (int)NKEYS);
    ck_assert_uint_eq(local[1].in_table + local[2].in_table, NKEYS);
    CkTally apart = CK_TALLY_INIT;
    for (size_t i = 0; i < NKEYS; i++)
        for (size_t j = i + 1; j < NKEYS; j++)
            ck_tally_true(&apart, where[i] != where[j], "keys %zu and %zu apart",
                          i, j);
    ck_tally_assert(&apart, "every key in a slot of its own");
    CkTally f = CK_TALLY_INIT;
    for (size_t i = 0; i < NKEYS; i++) {
        MatchSlot *s = match_slot(&table, &local[keys[i].dest], keys[i].dest,
                                  keys[i].source, keys[i].tag);
        ck_tally_ptr(&f, where[i], s, "key %zu: found again", i);
        ck_tally_ptr(&f, &item[i].item, match_recvs(s), "key %zu: its item", i);
    }
    ck_tally_uint(&f, NKEYS, table.count, "table count after the lookups");
    ck_tally_assert(&f, "keys found again");
}
END_TEST

/* A key's list keeps posting order (MPI's non-overtaking rule) and holds
 * receives or early messages, never both: a pop of the other kind takes
 * nothing, and the first push into an empty list sets the kind. */
START_TEST(match_list_is_fifo_of_one_kind)
{
    MatchLocal local = { 0 };
    MatchSlot *s = match_slot(&table, &local, 0, 1, 2);
    TestItem r[5], m[3];
    for (int i = 0; i < 5; i++) {
        r[i].item.seq = (uint64_t)i;
        match_push(s, 0, &r[i].item);
    }
    ck_assert_uint_eq(s->used, MATCH_USED);             /* receives */
    ck_assert_ptr_eq(match_recvs(s), &r[0].item);
    ck_assert_ptr_null(match_msgs(s));
    ck_assert_ptr_eq(s->tail, &r[4].item);
    CkTally chain = CK_TALLY_INIT;
    for (int i = 0; i < 4; i++)
        ck_tally_ptr(&chain, &r[i + 1].item, r[i].item.next, "r[%d].next", i);
    ck_tally_ptr(&chain, NULL, r[4].item.next, "the tail's next");
    ck_tally_assert(&chain, "five receives in posting order");

    /* a message's pop finds receives: nothing taken, nothing changed */
    ck_assert_ptr_null(match_pop(s, MATCH_MSGS));
    ck_assert_ptr_eq(s->head, &r[0].item);
    ck_assert_ptr_eq(s->tail, &r[4].item);

    CkTally pops = CK_TALLY_INIT;
    for (int i = 0; i < 5; i++)
        ck_tally_ptr(&pops, &r[i].item, match_pop(s, 0), "pop %d", i);
    ck_tally_assert(&pops, "receives popped oldest first");
    ck_assert_ptr_null(match_pop(s, 0));
    ck_assert_ptr_null(s->head);
    ck_assert_ptr_null(s->tail);
    ck_assert_ptr_null(match_recvs(s));

    /* now early messages in the same key */
    for (int i = 0; i < 3; i++) {
        m[i].item.seq = 10 + (uint64_t)i;
        match_push(s, MATCH_MSGS, &m[i].item);
    }
    ck_assert_uint_eq(s->used, MATCH_USED | MATCH_MSGS);
    ck_assert_ptr_eq(match_msgs(s), &m[0].item);
    ck_assert_ptr_null(match_recvs(s));
    ck_assert_ptr_null(match_pop(s, 0));                /* a receive's pop */
    ck_assert_ptr_eq(match_pop(s, MATCH_MSGS), &m[0].item);
    ck_assert_ptr_eq(match_pop(s, MATCH_MSGS), &m[1].item);
    /* pushed behind what is left, then popped after it */
    TestItem late = { .item.seq = 13 };
    match_push(s, MATCH_MSGS, &late.item);
    ck_assert_ptr_eq(match_pop(s, MATCH_MSGS), &m[2].item);
    ck_assert_ptr_eq(match_pop(s, MATCH_MSGS), &late.item);
    ck_assert_ptr_null(match_pop(s, MATCH_MSGS));

    /* a receive into the emptied list makes it a list of receives again */
    match_push(s, 0, &r[0].item);
    ck_assert_uint_eq(s->used, MATCH_USED);
    ck_assert_ptr_eq(match_recvs(s), &r[0].item);
    ck_assert_ptr_null(match_msgs(s));
    ck_assert_uint_eq(table.count, 0);
}
END_TEST

/* match_push_front: an item older than every item in the list (what the
 * engine kept outside it) goes first; into an empty list it is head and
 * tail and sets the kind. The bits the engine keeps in `used` stay. */
START_TEST(match_push_front_goes_before_every_item)
{
    MatchLocal local = { 0 };
    MatchSlot *s = match_slot(&table, &local, 3, 0, 1);
    s->used |= MATCH_KEPT_RECV;
    TestItem kept = { .item.seq = 5 }, older = { .item.seq = 1 }, m[2];
    match_push_front(s, MATCH_MSGS, &kept.item);
    ck_assert_ptr_eq(s->head, &kept.item);
    ck_assert_ptr_eq(s->tail, &kept.item);
    ck_assert_ptr_null(kept.item.next);
    ck_assert_uint_eq(s->used, MATCH_USED | MATCH_MSGS | MATCH_KEPT_RECV);
    for (int i = 0; i < 2; i++) {
        m[i].item.seq = 6 + (uint64_t)i;
        match_push(s, MATCH_MSGS, &m[i].item);
    }
    match_push_front(s, MATCH_MSGS, &older.item);
    ck_assert_ptr_eq(s->tail, &m[1].item);
    const MatchItem *want[] = { &older.item, &kept.item, &m[0].item,
                                &m[1].item };
    CkTally pops = CK_TALLY_INIT;
    for (size_t i = 0; i < G_N_ELEMENTS(want); i++)
        ck_tally_ptr(&pops, want[i], match_pop(s, MATCH_MSGS), "pop %zu", i);
    ck_tally_assert(&pops, "the items pushed in front first");
    ck_assert_ptr_null(match_pop(s, MATCH_MSGS));
    ck_assert_ptr_null(s->tail);
    ck_assert_uint_eq(s->used, MATCH_USED | MATCH_MSGS | MATCH_KEPT_RECV);
    /* a receive pushed in front of the empty list: a list of receives */
    match_push_front(s, 0, &older.item);
    ck_assert_uint_eq(s->used, MATCH_USED | MATCH_KEPT_RECV);
    ck_assert_ptr_eq(match_recvs(s), &older.item);
    ck_assert_ptr_eq(s->tail, &older.item);
}
END_TEST

/* match_release frees a slot only when its list is empty and it keeps
 * nothing (MATCH_KEPT_RECV, MATCH_KEPT_MSG): the own slot becomes free
 * (used 0), a table slot leaves the table (count and in_table down). */
START_TEST(match_release_only_empty_unkept_slots)
{
    MatchLocal local = { 0 };
    TestItem r = { .item.seq = 0 };

    /* the own slot */
    MatchSlot *own = match_slot(&table, &local, 2, 1, 1);
    match_push(own, 0, &r.item);
    match_release(&table, &local, own);                     /* not empty */
    ck_assert_uint_eq(own->used, MATCH_USED);
    ck_assert_ptr_eq(match_slot(&table, &local, 2, 1, 1), own);
    ck_assert_ptr_eq(match_pop(own, 0), &r.item);
    const unsigned kept[] = { MATCH_KEPT_RECV, MATCH_KEPT_MSG };
    for (size_t i = 0; i < G_N_ELEMENTS(kept); i++) {
        own->used |= kept[i];
        match_release(&table, &local, own);                 /* keeps one */
        ck_assert_uint_eq(own->used, MATCH_USED | kept[i]);
        own->used &= ~kept[i];
    }
    match_release(&table, &local, own);
    ck_assert_uint_eq(own->used, 0);
    ck_assert_uint_eq(table.count, 0);
    /* free again: the next key takes it */
    ck_assert_ptr_eq(match_slot(&table, &local, 2, 8, 8), &local.slot);
    ck_assert_uint_eq(local.slot.source, 8);

    /* a table slot */
    MatchSlot *s = match_slot(&table, &local, 2, 1, 1);
    ck_assert(in_table(&table, s));
    ck_assert_uint_eq(table.count, 1);
    ck_assert_uint_eq(local.in_table, 1);
    match_push(s, MATCH_MSGS, &r.item);
    match_release(&table, &local, s);                       /* not empty */
    ck_assert_uint_eq(table.count, 1);
    ck_assert_uint_eq(s->used, MATCH_USED | MATCH_MSGS);
    ck_assert_ptr_eq(match_pop(s, MATCH_MSGS), &r.item);
    for (size_t i = 0; i < G_N_ELEMENTS(kept); i++) {
        s->used |= kept[i];
        match_release(&table, &local, s);                   /* keeps one */
        ck_assert_uint_eq(table.count, 1);
        ck_assert_uint_eq(local.in_table, 1);
        s->used &= ~kept[i];
    }
    match_release(&table, &local, s);
    ck_assert_uint_eq(table.count, 0);
    ck_assert_uint_eq(local.in_table, 0);
    ck_assert_uint_eq(table_used(&table), 0);
    ck_assert_uint_eq(local.slot.used, MATCH_USED);     /* untouched */
}
END_TEST

/* A key lives in exactly one place: with the own slot freed while keys of
 * the destination wait in the table, looking one of those up finds it
 * there (not a new key in the free own slot), and only a new key takes
 * the own slot. */
START_TEST(match_key_in_one_place_when_own_slot_frees)
{
    MatchLocal local = { 0 };
    MatchSlot *a = match_slot(&table, &local, 9, 1, 0);
    ck_assert_ptr_eq(a, &local.slot);
    MatchSlot *b = match_slot(&table, &local, 9, 2, 0);
    ck_assert(in_table(&table, b));
    TestItem bi = { .item.seq = 2 };
    match_push(b, MATCH_MSGS, &bi.item);
    match_release(&table, &local, a);                       /* empty: freed */
    ck_assert_uint_eq(local.slot.used, 0);
    ck_assert_uint_eq(local.in_table, 1);

    ck_assert_ptr_eq(match_slot(&table, &local, 9, 2, 0), b);
    ck_assert_ptr_eq(match_slot_lookup(&table, &local, 9, 2, 0), b);
    ck_assert_uint_eq(local.slot.used, 0);              /* still free */
    ck_assert_uint_eq(table.count, 1);
    ck_assert_ptr_eq(match_msgs(b), &bi.item);

    MatchSlot *c = match_slot(&table, &local, 9, 3, 0);     /* a new key */
    ck_assert_ptr_eq(c, &local.slot);
    ck_assert_uint_eq(table.count, 1);
    ck_assert_uint_eq(local.in_table, 1);

    ck_assert_ptr_eq(match_pop(b, MATCH_MSGS), &bi.item);
    match_release(&table, &local, b);
    ck_assert_uint_eq(table.count, 0);
    ck_assert_uint_eq(local.in_table, 0);
    /* the own slot holds key 3; key 2 again is new, and goes to the table */
    MatchSlot *b2 = match_slot(&table, &local, 9, 2, 0);
    ck_assert(in_table(&table, b2));
    ck_assert_ptr_null(b2->head);
    ck_assert_uint_eq(table.count, 1);
}
END_TEST

/* The table grows when a key would make it more than half full: the
 * smallest power of two from 64 with 2 count <= capacity, key by key; and
 * every key is found after each doubling, with its item. */
START_TEST(match_table_grows_at_half_full)
{
    enum { KEYS = 1000 };
    MatchLocal local = { 0 };
    match_slot(&table, &local, 0, 0, 0);                    /* the own slot */
    static TestItem item[KEYS + 1];
    CkTally g = CK_TALLY_INIT;
    for (uint32_t i = 1; i <= KEYS; i++) {
        MatchSlot *s = match_slot(&table, &local, 0, i, 1);
        size_t want = START_CAPACITY;
        while (2 * (size_t)i > want)
            want *= 2;
        ck_tally_true(&g, in_table(&table, s), "key %u in the table", i);
        ck_tally_uint(&g, want, capacity(&table), "after key %u: capacity", i);
        ck_tally_uint(&g, i, table.count, "after key %u: count", i);
        ck_tally_uint(&g, i, local.in_table, "after key %u: in_table", i);
        item[i].item.seq = i;
        match_push(s, 0, &item[i].item);
    }
    ck_tally_assert(&g, "the table's growth");
    ck_assert_uint_eq(capacity(&table), 2048);
    ck_assert_uint_eq(table_used(&table), KEYS);
    CkTally f = CK_TALLY_INIT;
    for (uint32_t i = 1; i <= KEYS; i++) {
        MatchSlot *s = match_slot(&table, &local, 0, i, 1);
        ck_tally_ptr(&f, &item[i].item, match_recvs(s), "key %u's item", i);
        ck_tally_ptr(&f, &item[i].item, s->tail, "key %u's tail", i);
    }
    ck_tally_uint(&f, KEYS, table.count, "count after the lookups");
    ck_tally_assert(&f, "keys found after growing");
}
END_TEST

/* Keys of many destinations, a few each, as the nodes of a step post
 * them: each lies a short probe after the start of its destination's
 * window, in destination order, and the table keeps that layout; then
 * one destination with many keys makes its probes long, and the table
 * spreads them over the whole table, every key still found. */
START_TEST(match_keys_in_destination_windows)
{
    enum { DESTS = 512, PER = 3, CROWD = 600 };
    static MatchLocal local[DESTS];
    memset(local, 0, sizeof local);
    CkTally g = CK_TALLY_INIT;
    for (uint32_t d = 0; d < DESTS; d++)
        for (uint32_t k = 0; k <= PER; k++)   /* key 0: the own slot */
            match_slot(&table, &local[d], d, 1000 + k, (int32_t)(d ^ k));
    ck_assert_int_eq(table.spread, 0);
    size_t window = (size_t)1 << MATCH_WINDOW_BITS;
    for (uint32_t d = 0; d < DESTS; d++)
        for (uint32_t k = 1; k <= PER; k++) {
            MatchSlot *s = match_slot(&table, &local[d], d, 1000 + k,
                                      (int32_t)(d ^ k));
            size_t start = ((size_t)d << MATCH_WINDOW_BITS) & table.mask;
            size_t at = (size_t)(s - table.slot);
            ck_tally_true(&g, in_table(&table, s), "dest %u key %u in the table",
                          d, k);
            ck_tally_true(&g, ((at - start) & table.mask) < 2 * window,
                          "dest %u key %u at slot %zu, its window at %zu", d, k,
                          at, start);
        }
    ck_tally_assert(&g, "keys near their destinations' windows");
    for (uint32_t k = 0; k < CROWD; k++)
        match_slot(&table, &local[7], 7, 5000 + k, 1);
    ck_assert_int_eq(table.spread, 1);
    CkTally f = CK_TALLY_INIT;
    for (uint32_t k = 0; k < CROWD; k++) {
        MatchSlot *s = match_slot(&table, &local[7], 7, 5000 + k, 1);
        ck_tally_uint(&f, 5000 + k, s->source, "crowded key %u", k);
    }
    ck_tally_uint(&f, (size_t)DESTS * PER + CROWD, table.count,
                  "count after the lookups");
    ck_tally_assert(&f, "keys found after spreading");
}
END_TEST

/* match_home, which match_prefetch loads, is where a key's probe
 * starts: a key put in the table sits there or after it with no empty
 * slot in between (linear probing), in destination windows and after
 * the table has spread. A home computed otherwise than the lookup's
 * would leave some key before its home or past an empty slot. */
START_TEST(match_home_is_where_the_probe_starts)
{
    enum { DESTS = 64, KEYS = 300, CROWD = 600 };
    static MatchLocal local[DESTS], crowd;
    memset(local, 0, sizeof local);
    memset(&crowd, 0, sizeof crowd);
    CkTally g = CK_TALLY_INIT;
    for (int spread = 0; spread <= 1; spread++) {
        if (spread)
            for (uint32_t k = 0; k < CROWD; k++)
                match_slot(&table, &crowd, 1000, 5000 + k, 1);
        ck_assert_int_eq(table.spread, spread);
        for (uint32_t i = 0; i < KEYS; i++) {
            uint32_t d = i * 7 % DESTS, source = 100 + i;
            int32_t tag = (int32_t)(i ^ 5);
            if (!local[d].slot.used)      /* the own slot taken for good */
                match_slot(&table, &local[d], d, 99, 0);
            MatchSlot *s = match_slot(&table, &local[d], d, source, tag);
            ck_tally_true(&g, in_table(&table, s), "key %u in the table", i);
            size_t at = (size_t)(s - table.slot), run = 0;
            for (size_t j = match_home(&table, d, source, tag); j != at;
                 j = (j + 1) & table.mask)
                run += table.slot[j].used == 0;
            ck_tally_uint(&g, 0, run, "empty slots between key %u's home "
                          "and slot %zu (spread %d)", i, at, spread);
            match_release(&table, &local[d], s);
        }
    }
    ck_tally_assert(&g, "keys at their homes or after them");
}
END_TEST

/* Deletions with the table as full as it gets: 32 keys of one
 * destination in the 64 slots it starts with, one key removed and a new
 * one put, over and over, keys drawn from many sources and tags so that
 * probe runs form, wrap past the table's end and are closed up by the
 * backward shift. After every step each live key is found with its item,
 * the lookups create nothing, and the table neither grows nor leaks. */
START_TEST(match_table_churn_at_half_full)
{
    enum { LIVE = START_CAPACITY / 2, STEPS = 20000 };
    MatchLocal local = { 0 };
    match_slot(&table, &local, 4, 0, 0);                    /* the own slot */
    GRand *rng = g_rand_new_with_seed(4949);
    static TestItem item[LIVE + STEPS];
    uint32_t source[LIVE];
    int32_t tag[LIVE];
    int item_of[LIVE];
    GHashTable *used = g_hash_table_new(g_int64_hash, g_int64_equal);
    static gint64 names[LIVE + STEPS];
    int n = 0;
    CkTally c = CK_TALLY_INIT;
    for (int step = -LIVE; step < STEPS; step++) {
        int at = step < 0 ? step + LIVE : g_rand_int_range(rng, 0, LIVE);
        if (step >= 0) {                                /* remove one */
            MatchSlot *s = match_slot(&table, &local, 4, source[at], tag[at]);
            ck_tally_ptr(&c, &item[item_of[at]].item, match_pop(s, MATCH_MSGS),
                         "step %d: the removed key's item", step);
            match_release(&table, &local, s);
            g_hash_table_remove(used, &names[item_of[at]]);
        }
        do {                                            /* a key not live */
            source[at] = 1 + (uint32_t)g_rand_int_range(rng, 0, 1 << 20);
            tag[at] = g_rand_int_range(rng, -4, 5);
            names[n] = (gint64)source[at] << 8 | (tag[at] + 4);
        } while (g_hash_table_contains(used, &names[n]));
        g_hash_table_add(used, &names[n]);
        MatchSlot *s = match_slot(&table, &local, 4, source[at], tag[at]);
        ck_tally_ptr(&c, NULL, s->head, "step %d: the new key is empty", step);
        item[n].item.seq = (uint64_t)n;
        match_push(s, MATCH_MSGS, &item[n].item);
        item_of[at] = n++;
        if (step < 0)
            continue;
        for (int i = 0; i < LIVE; i++) {
            MatchSlot *f = match_slot(&table, &local, 4, source[i], tag[i]);
            ck_tally_ptr(&c, &item[item_of[i]].item, match_msgs(f),
                         "step %d: key %d (source %u, tag %d)", step, i,
                         source[i], tag[i]);
        }
        ck_tally_uint(&c, LIVE, table.count, "step %d: count", step);
        ck_tally_uint(&c, LIVE, local.in_table, "step %d: in_table", step);
        ck_tally_uint(&c, START_CAPACITY, capacity(&table), "step %d: capacity",
                      step);
    }
    ck_tally_uint(&c, LIVE, table_used(&table), "live table slots at the end");
    ck_tally_assert(&c, "churn at half full");
    g_hash_table_destroy(used);
    g_rand_free(rng);
}
END_TEST

/* ---- random posts and matches against a model ------------------------ */

/* DESTS destinations, each with keys of SOURCES sources and TAGS tags
 * (negative ones too). A post of a receive or a message on a key takes
 * the oldest waiting item of the other kind, as the engine matches, or
 * else joins the key's list; an emptied key is released. The model is
 * one FIFO per key. After every operation the item taken must be the
 * model's oldest; every CHECK_EVERY operations, and at the end, every
 * key with items must be found (inline or out of line) with exactly the
 * model's list, nothing else may be live, each key in one place, and the
 * table's count must be its live slots and the destinations' in_table
 * summed. Posts lean to one kind for a while, so that lists grow and the
 * table fills, then drain. */
enum { DESTS = 8, SOURCES = 8, TAGS = 5, KEYS = DESTS * SOURCES * TAGS,
       OPS = 40000, CHECK_EVERY = 97 };

typedef struct {
    GQueue fifo[KEYS];            /* of TestItem *, oldest first */
    MatchLocal local[DESTS];
    MatchTable table;
} MatchModel;

static void key_of(int k, uint32_t *dest, uint32_t *source, int32_t *tag)
{
    *dest = (uint32_t)(k / (SOURCES * TAGS));
    *source = (uint32_t)(k / TAGS % SOURCES);
    *tag = (int32_t)(k % TAGS) - 2;
}

static MatchSlot *find(MatchModel *mm, int k, gboolean inline_path)
{
    uint32_t dest, source;
    int32_t tag;
    key_of(k, &dest, &source, &tag);
    return inline_path ? match_slot(&mm->table, &mm->local[dest], dest, source, tag)
                       : match_slot_lookup(&mm->table, &mm->local[dest], dest,
                                           source, tag);
}

/* Every key against the model, into tally t (at operation op). */
static void tally_model(CkTally *t, MatchModel *mm, int op)
{
    /* what is live, and where: each live key in one place */
    int seen[KEYS] = { 0 };
    size_t live = 0, in_table_sum = 0;
    for (uint32_t d = 0; d < DESTS; d++) {
        const MatchSlot *s = &mm->local[d].slot;
        in_table_sum += mm->local[d].in_table;
        if (!s->used)
            continue;
        ck_tally_uint(t, d, s->dest, "op %d: own slot of %u: dest", op, d);
        int k = (int)(d * SOURCES * TAGS + s->source * TAGS) + s->tag + 2;
        seen[k]++;
        live++;
    }
    for (size_t i = 0; i < capacity(&mm->table); i++) {
        const MatchSlot *s = &mm->table.slot[i];
        if (!s->used)
            continue;
        int k = (int)(s->dest * SOURCES * TAGS + s->source * TAGS) + s->tag + 2;
        seen[k]++;
        live++;
    }
    ck_tally_uint(t, mm->table.count, table_used(&mm->table),
                  "op %d: table count against its live slots", op);
    ck_tally_uint(t, mm->table.count, in_table_sum,
                  "op %d: table count against in_table summed", op);
    ck_tally_true(t, 2 * mm->table.count <= capacity(&mm->table),
                  "op %d: count %zu at most half of %zu", op, mm->table.count,
                  capacity(&mm->table));
    size_t want_live = 0;
    for (int k = 0; k < KEYS; k++) {
        gboolean waiting = !g_queue_is_empty(&mm->fifo[k]);
        want_live += waiting;
        ck_tally_int(t, waiting, seen[k], "op %d: key %d's places", op, k);
    }
    ck_tally_uint(t, want_live, live, "op %d: live keys", op);
    /* each waiting key found where it is, with the model's list */
    size_t count = mm->table.count;
    for (int k = 0; k < KEYS; k++) {
        if (g_queue_is_empty(&mm->fifo[k]))
            continue;
        MatchSlot *s = find(mm, k, k % 2 == 0);
        const TestItem *first = g_queue_peek_head(&mm->fifo[k]);
        ck_tally_ptr(t, first->kind ? NULL : &first->item, match_recvs(s),
                     "op %d: key %d's receives", op, k);
        ck_tally_ptr(t, first->kind ? &first->item : NULL, match_msgs(s),
                     "op %d: key %d's messages", op, k);
        const MatchItem *it = s->head;
        for (GList *l = mm->fifo[k].head; l; l = l->next, it = it->next) {
            const TestItem *want = l->data;
            ck_tally_ptr(t, &want->item, it, "op %d: key %d, item %llu", op,
                         k, (unsigned long long)want->item.seq);
            if (it != &want->item)
                break;
        }
        ck_tally_ptr(t, g_queue_peek_tail(&mm->fifo[k]), s->tail,
                     "op %d: key %d's tail", op, k);
    }
    ck_tally_uint(t, count, mm->table.count,
                  "op %d: lookups of waiting keys created none", op);
}

START_TEST(match_random_posts_against_a_model)
{
    static MatchModel mm;
    static TestItem item[OPS];
    match_init(&mm.table);
    for (int k = 0; k < KEYS; k++)
        g_queue_init(&mm.fifo[k]);
    GRand *rng = g_rand_new_with_seed(49);
    CkTally t = CK_TALLY_INIT;
    size_t most = 0;
    uint64_t matched = 0;
    for (int op = 0; op < OPS; op++) {
        /* a run of 2000 operations leans to receives, the next to
         * messages, on a few keys or many */
        unsigned lean = (unsigned)(op / 2000) % 2 ? MATCH_MSGS : 0;
        int keys = (op / 4000) % 2 ? KEYS : KEYS / 8;
        int k = g_rand_int_range(rng, 0, keys);
        unsigned kind = g_rand_int_range(rng, 0, 3) ? lean : lean ^ MATCH_MSGS;
        unsigned other = kind ^ MATCH_MSGS;
        uint32_t dest, source;
        int32_t tag;
        key_of(k, &dest, &source, &tag);
        MatchSlot *s = find(&mm, k, op % 3 != 0);
        ck_tally_uint(&t, dest, s->dest, "op %d: dest", op);
        ck_tally_uint(&t, source, s->source, "op %d: source", op);
        ck_tally_int(&t, tag, s->tag, "op %d: tag", op);
        TestItem *oldest = g_queue_peek_head(&mm.fifo[k]);
        MatchItem *taken = match_pop(s, other);
        if (oldest && oldest->kind == other) {
            ck_tally_ptr(&t, &oldest->item, taken, "op %d: key %d's oldest", op, k);
            g_queue_pop_head(&mm.fifo[k]);
            matched++;
        } else {
            ck_tally_ptr(&t, NULL, taken, "op %d: key %d: nothing to take",
                         op, k);
            item[op] = (TestItem){ .item.seq = (uint64_t)op, .kind = kind };
            match_push(s, kind, &item[op].item);
            g_queue_push_tail(&mm.fifo[k], &item[op]);
        }
        match_release(&mm.table, &mm.local[dest], s);
        most = MAX(most, mm.table.count);
        if (op % CHECK_EVERY == 0)
            tally_model(&t, &mm, op);
    }
    tally_model(&t, &mm, OPS);
    ck_tally_assert(&t, "posts and matches against the model");
    /* both ways were taken, and the table held many keys */
    ck_assert_uint_gt(matched, OPS / 4);
    ck_assert_uint_gt(most, 100);
    /* drain: every key matched by items of the other kind, then free */
    CkTally d = CK_TALLY_INIT;
    for (int k = 0; k < KEYS; k++) {
        uint32_t dest, source;
        int32_t tag;
        key_of(k, &dest, &source, &tag);
        while (!g_queue_is_empty(&mm.fifo[k])) {
            TestItem *oldest = g_queue_pop_head(&mm.fifo[k]);
            MatchSlot *s = find(&mm, k, TRUE);
            ck_tally_ptr(&d, &oldest->item, match_pop(s, oldest->kind),
                         "drain: key %d", k);
            match_release(&mm.table, &mm.local[dest], s);
        }
    }
    ck_tally_uint(&d, 0, mm.table.count, "drained: table count");
    ck_tally_uint(&d, 0, table_used(&mm.table), "drained: live table slots");
    for (uint32_t x = 0; x < DESTS; x++) {
        ck_tally_uint(&d, 0, mm.local[x].slot.used, "drained: own slot %u", x);
        ck_tally_uint(&d, 0, mm.local[x].in_table, "drained: in_table %u", x);
    }
    ck_tally_assert(&d, "drained");
    g_rand_free(rng);
    match_clear(&mm.table);
}
END_TEST

static Suite *match_suite(void)
{
    Suite *s = suite_create("match");
    TCase *t = ck_tcase(s, "match", 0);
    tcase_add_checked_fixture(t, table_setup, table_teardown);
    tcase_add_test(t, match_first_key_in_own_slot);
    tcase_add_test(t, match_keys_differ_by_dest_source_and_tag);
    tcase_add_test(t, match_list_is_fifo_of_one_kind);
    tcase_add_test(t, match_push_front_goes_before_every_item);
    tcase_add_test(t, match_release_only_empty_unkept_slots);
    tcase_add_test(t, match_key_in_one_place_when_own_slot_frees);
    tcase_add_test(t, match_table_grows_at_half_full);
    tcase_add_test(t, match_table_churn_at_half_full);
    tcase_add_test(t, match_keys_in_destination_windows);
    tcase_add_test(t, match_home_is_where_the_probe_starts);
    t = ck_tcase(s, "model", 0);
    tcase_add_test(t, match_random_posts_against_a_model);
    return s;
}

CUBE_CHECK_MAIN(match_suite)
