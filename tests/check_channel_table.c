/* check_channel_table.c -- emu/channel_table.c: the table of channels in
 * use, of both kinds its users have. Keys that fit in a slot's tag (a
 * link's nodes) and keys that pass 32 bits and share their low halves (a
 * sparse topology's node * links + link) are each found again, to their
 * own entry, past several chunks and slot growths; an entry stays where
 * it was made; an absent key is not found; iteration gives every key once
 * with its entry; an emptied table is as a new one.
 */
#include "channel_table.h"

#include <check.h>
#include <glib.h>
#include "check_main.h"

/* An entry of each kind: a channel's timeline first, then what the user
 * keeps (a count, and for the second kind its key). */
typedef struct {
    Timeline tl;
    uint64_t count;
} InTagEntry;

typedef struct {
    Timeline tl;
    uint64_t count;
    uint64_t key;
} InEntryEntry;

static const ChannelTableKind in_tag_kind = {
    .size = sizeof(InTagEntry),
    .key_at = CHANNEL_TABLE_KEY_IN_TAG,
    .what = "a test's table",
};

static const ChannelTableKind in_entry_kind = {
    .size = sizeof(InEntryEntry),
    .key_at = offsetof(InEntryEntry, key),
    .what = "a test's table",
};

/* Entries a test makes: several chunks, and the slots grown from their
 * first 64 to 2^14. */
#define TABLE_KEYS (CHANNEL_TABLE_CHUNK * 19 + 7)
/* Keys of the second kind that share their low 32 bits: a run of this
 * many, each the last plus 2^32. */
#define TABLE_SAME_LOW 4

/* Key i of the first kind: a stride apart, as a link's nodes are. */
static uint64_t in_tag_key(uint32_t i)
{
    return (uint64_t)i * 6 + 1;
}

/* Key i of the second kind: past 32 bits, TABLE_SAME_LOW in a row with
 * the same low half. */
static uint64_t in_entry_key(uint32_t i)
{
    return ((uint64_t)(i % TABLE_SAME_LOW + 1) << 32) + i / TABLE_SAME_LOW;
}

START_TEST(table_keys_in_the_tag)
{
    ChannelTable *t = channel_table_new(&in_tag_kind);
    InTagEntry **made = g_new(InTagEntry *, TABLE_KEYS);
    CkTally tl = CK_TALLY_INIT;
    for (uint32_t i = 0; i < TABLE_KEYS; i++) {
        made[i] = channel_table_get(t, &in_tag_kind, in_tag_key(i));
        ck_tally_uint(&tl, 0, made[i]->count, "entry %u: made zeroed", i);
        ck_tally_uint(&tl, 0, (uint64_t)made[i]->tl.start,
                      "entry %u: timeline empty", i);
        made[i]->count = i + 100;
    }
    ck_tally_uint(&tl, TABLE_KEYS, t->n, "entries");
    for (uint32_t i = 0; i < TABLE_KEYS; i++) {
        uint64_t key = in_tag_key(i);
        ck_tally_ptr(&tl, made[i], channel_table_find(t, &in_tag_kind, key),
                     "key %u: found where it was made", i);
        ck_tally_ptr(&tl, made[i], channel_table_get(t, &in_tag_kind, key),
                     "key %u: got, not made again", i);
        ck_tally_ptr(&tl, NULL, channel_table_find(t, &in_tag_kind, key + 1),
                     "key %u + 1: absent", i);
    }
    ck_tally_uint(&tl, TABLE_KEYS, t->n, "entries after the lookups");
    uint32_t *seen = g_new0(uint32_t, TABLE_KEYS);
    InTagEntry *e;
    uint64_t key;
    uint32_t visits = 0;
    for (size_t i = 0; (e = channel_table_next(t, &in_tag_kind, &i, &key));) {
        visits++;
        uint32_t x = (uint32_t)((key - 1) / 6);
        ck_tally_true(&tl, (key - 1) % 6 == 0 && x < TABLE_KEYS,
                      "iteration: key %llu is one made",
                      (unsigned long long)key);
        if ((key - 1) % 6 != 0 || x >= TABLE_KEYS)
            continue;
        seen[x]++;
        ck_tally_ptr(&tl, made[x], e, "iteration: key %u's entry", x);
    }
    ck_tally_uint(&tl, TABLE_KEYS, visits, "iteration: entries");
    for (uint32_t i = 0; i < TABLE_KEYS; i++)
        ck_tally_uint(&tl, 1, seen[i], "iteration: key %u seen", i);
    ck_tally_assert(&tl, "keys in the tag");
    channel_table_empty(t);
    ck_assert_uint_eq(t->n, 0);
    ck_assert_ptr_null(channel_table_find(t, &in_tag_kind, in_tag_key(0)));
    InTagEntry *again = channel_table_get(t, &in_tag_kind, in_tag_key(5));
    ck_assert_uint_eq(again->count, 0);
    ck_assert_ptr_eq(again, channel_table_find(t, &in_tag_kind,
                                               in_tag_key(5)));
    ck_assert_uint_eq(t->n, 1);
    g_free(seen);
    g_free(made);
    channel_table_free(t, &in_tag_kind, TRUE);
}
END_TEST

START_TEST(table_keys_in_the_entry)
{
    ChannelTable *t = channel_table_new(&in_entry_kind);
    InEntryEntry **made = g_new(InEntryEntry *, TABLE_KEYS);
    CkTally tl = CK_TALLY_INIT;
    for (uint32_t i = 0; i < TABLE_KEYS; i++) {
        made[i] = channel_table_get(t, &in_entry_kind, in_entry_key(i));
        ck_tally_uint(&tl, 0, made[i]->count, "entry %u: made zeroed", i);
        ck_tally_uint(&tl, in_entry_key(i), made[i]->key,
                      "entry %u: holds its key", i);
        made[i]->count = i + 100;
    }
    ck_tally_uint(&tl, TABLE_KEYS, t->n, "entries");
    for (uint32_t i = 0; i < TABLE_KEYS; i++) {
        uint64_t key = in_entry_key(i);
        InEntryEntry *e = channel_table_find(t, &in_entry_kind, key);
        ck_tally_ptr(&tl, made[i], e, "key %u: found where it was made", i);
        ck_tally_uint(&tl, i + 100, e ? e->count : 0, "key %u: its count",
                      i);
        /* the same low half, the next high one: absent past the last */
        uint64_t other = key + ((uint64_t)TABLE_SAME_LOW << 32);
        ck_tally_ptr(&tl, NULL, channel_table_find(t, &in_entry_kind, other),
                     "key %u's low half, high %llu: absent", i,
                     (unsigned long long)(other >> 32));
    }
    uint32_t visits = 0;
    InEntryEntry *e;
    uint64_t key;
    for (size_t i = 0; (e = channel_table_next(t, &in_entry_kind, &i,
                                               &key));) {
        visits++;
        ck_tally_uint(&tl, e->key, key, "iteration: the key of entry %u",
                      (unsigned)(e->count - 100));
    }
    ck_tally_uint(&tl, TABLE_KEYS, visits, "iteration: entries");
    ck_tally_assert(&tl, "keys in the entry");
    g_free(made);
    channel_table_free(t, &in_entry_kind, TRUE);
}
END_TEST

static Suite *channel_table_suite(void)
{
    Suite *s = suite_create("channel_table");
    TCase *t = ck_tcase(s, "channel_table", 0);
    tcase_add_test(t, table_keys_in_the_tag);
    tcase_add_test(t, table_keys_in_the_entry);
    return s;
}

CUBE_CHECK_MAIN(channel_table_suite)
