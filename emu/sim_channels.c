/* sim_channels.c -- the channels' state: a dense topology's link arrays
 * (timelines while a link is in use, released and reused, and before an
 * array a table of the channels the link uses), the elements
 * each channel carried (a link's one number, or a column of counts with
 * a table past 32 bits, folded from the arrays), and a sparse topology's
 * table of the channels in use.
 *
 * A unit of its own because how a channel is stored is a question apart
 * from what a reservation on it means (sim_route.c): routing sees a
 * channel's timeline (sim_channel_timeline, inline in sim_internal.h) and
 * adds to its count, and the storage behind them can change without it.
 */
#include "sim_internal.h"
#include "oom.h"

/* A dense topology (the cube, meshes) has channel state for every
 * (node, link); one whose topology declares sparse links (the complete
 * graph, whose P^2 channels could not be allocated) only for the
 * channels in use. */
gboolean sim_dense(const Machine *m)
{
    return !m->topology.ops->sparse_links;
}

static size_t sim_col_bytes(const Sim *sim)
{
    return (size_t)sim->nodes * sizeof(uint32_t);
}

static size_t sim_link_bytes(const Sim *sim)
{
    return (size_t)sim->nodes * sizeof(LinkChannel);
}

/* A link's array is mapped with every page populated (oom.c) up to
 * LINK_POPULATED_MAX, a machine of 2^15 nodes: there a short run's links
 * spend most of their cost taking arrays, and a fault a page was most of
 * that. Larger arrays are touched page by page, as the other big arrays
 * are: a link used at part of a big machine leaves pages of its array
 * untouched (gray-to-binary's peak on the 18-cube grew by 7% with them
 * populated), and a long run pays little for its faults. */
#define LINK_POPULATED_MAX ((size_t)1 << 20)

static LinkChannel *link_array_new(const Sim *sim)
{
    size_t bytes = sim_link_bytes(sim);
    return bytes < LINK_POPULATED_MAX
               ? emu_big_new0_populated(bytes, "a link's channels")
               : emu_big_new0(bytes, "a link's channels");
}

static void link_array_free(const Sim *sim, LinkChannel *ch)
{
    size_t bytes = sim_link_bytes(sim);
    if (bytes < LINK_POPULATED_MAX)
        emu_big_free_populated(ch, bytes);
    else
        emu_big_free(ch, bytes);
}

/* ---- a sparse topology's table of the channels in use -------------------
 *
 * The complete graph of P nodes has P^2 channels, and a run uses a few a
 * node (a dissemination's log P) or all of them (an all-to-all's): a
 * table of the ones in use, looked up at every hop. It is a table of its
 * own rather than a GHashTable, which cost each channel an allocation of
 * its own, a lookup through a pointer to its key, and a free at the end,
 * one by one; on a schedule's replay those were most of the engine's
 * work a message. Here: open addressing with linear probing over slots
 * of 8 bytes, at most half full, each the entry's index and the low half
 * of its key (so that a probe rarely reads an entry it does not want);
 * the entries (a channel and its key) in chunks that never move, so that
 * the timelines a route has looked up stay where they are while its
 * later hops add channels and the slots grow (sim_route_runs holds them),
 * and freed a chunk at a time. The key is node * links + link, spread over
 * the slots by Fibonacci hashing (its product's top bits): an
 * all-to-all's keys are consecutive and a collective's lie a fixed
 * stride apart, and either fills the slots evenly. Everything is
 * allocated through oom.h, so that a run that outgrows its memory ends
 * with its message, not GLib's abort. */

/* Entries a chunk: small enough that a run of a few channels (a test's
 * machine of 8 nodes) maps little, large enough that the chunks' array
 * stays short. */
#define SPARSE_CHUNK 1024
/* Slots of a new table. */
#define SPARSE_SLOTS_MIN 64
/* Entries are numbered from 1 in a slot's 32 bits (0: free). */
#define SPARSE_MAX ((uint64_t)UINT32_MAX - 1)
/* 2^64 / the golden ratio, odd: Fibonacci hashing's multiplier. */
#define SPARSE_FIBONACCI UINT64_C(0x9E3779B97F4A7C15)

typedef struct {
    uint32_t index;            /* the entry's index + 1; 0: free */
    uint32_t tag;              /* its key's low 32 bits */
} SparseSlot;

struct SparseTable {
    SparseSlot *slot;
    int shift;                 /* 64 - log2(slots) */
    uint32_t n;                /* entries */
    SparseChannel **chunk;     /* SPARSE_CHUNK entries each */
    uint32_t nchunk;
};

static size_t sparse_slots(const SparseTable *t)
{
    return (size_t)1 << (64 - t->shift);
}

static size_t sparse_home(const SparseTable *t, uint64_t key)
{
    return (size_t)((key * SPARSE_FIBONACCI) >> t->shift);
}

static SparseChannel *sparse_entry(const SparseTable *t, uint32_t i)
{
    return &t->chunk[i / SPARSE_CHUNK][i % SPARSE_CHUNK];
}

static SparseTable *sparse_new(void)
{
    SparseTable *t = EMU_NEW0(SparseTable, 1, "the sparse channels");
    t->shift = 64 - __builtin_ctzll(SPARSE_SLOTS_MIN);
    t->slot = EMU_NEW0(SparseSlot, SPARSE_SLOTS_MIN, "the sparse channels");
    return t;
}

static void sparse_free(SparseTable *t)
{
    for (uint32_t i = 0; i < t->n; i++)
        timeline_clear(&sparse_entry(t, i)->ch.tl);
    for (uint32_t c = 0; c < t->nchunk; c++)
        g_free(t->chunk[c]);
    g_free(t->chunk);
    g_free(t->slot);
    g_free(t);
}

/* The free slot at or after `key`'s home (a key not in the table). */
static size_t sparse_free_slot(const SparseTable *t, uint64_t key)
{
    size_t mask = sparse_slots(t) - 1, h = sparse_home(t, key);
    while (t->slot[h].index != 0)
        h = (h + 1) & mask;
    return h;
}

/* Twice the slots, the entries placed again in the order they came. */
static void sparse_grow(SparseTable *t)
{
    size_t slots = sparse_slots(t) * 2;
    g_free(t->slot);
    t->shift--;
    t->slot = EMU_NEW0(SparseSlot, slots, "the sparse channels");
    for (uint32_t i = 0; i < t->n; i++) {
        uint64_t key = sparse_entry(t, i)->key;
        t->slot[sparse_free_slot(t, key)] = (SparseSlot){ i + 1,
                                                          (uint32_t)key };
    }
}

/* A new entry for `key` in the free slot h that its lookup ended at: a
 * channel with an empty timeline that carried nothing. */
static SparseChannel *sparse_add(SparseTable *t, size_t h, uint64_t key)
{
    if (t->n >= SPARSE_MAX)
        emu_out_of_memory(sizeof(SparseChannel), "a channel");
    if (t->n == t->nchunk * (uint64_t)SPARSE_CHUNK) {
        t->chunk = EMU_RENEW(SparseChannel *, t->chunk, t->nchunk + 1,
                             "the sparse channels");
        t->chunk[t->nchunk++] = EMU_NEW(SparseChannel, SPARSE_CHUNK,
                                        "the sparse channels");
    }
    SparseChannel *e = sparse_entry(t, t->n);
    *e = (SparseChannel){ .key = key };
    timeline_init(&e->ch.tl);
    t->slot[h] = (SparseSlot){ ++t->n, (uint32_t)key };
    if ((size_t)t->n * 2 > sparse_slots(t))
        sparse_grow(t);
    return e;
}

/* The sparse channel leaving `node` on `link`; created on first use, NULL
 * only when looking up (create = FALSE) an unused one. */
Channel *sim_channel(const Sim *sim, uint32_t node, int link,
                     gboolean create)
{
    SparseTable *t = sim->sparse;
    uint64_t key = (uint64_t)node * (uint64_t)sim->links + (uint64_t)link;
    uint32_t tag = (uint32_t)key;
    size_t mask = sparse_slots(t) - 1, h = sparse_home(t, key);
    for (; t->slot[h].index != 0; h = (h + 1) & mask) {
        if (t->slot[h].tag != tag)
            continue;
        SparseChannel *e = sparse_entry(t, t->slot[h].index - 1);
        if (e->key == key)
            return &e->ch;
    }
    return create ? &sparse_add(t, h, key)->ch : NULL;
}

static void link_fold(Sim *sim, int link);

/* ---- a link's table of the channels in use ------------------------------
 *
 * Open addressing over (node, entry) slots, at most half full; the
 * entries themselves in chunks that never move, so that the timelines a
 * route has looked up stay where they are while later hops of it add
 * entries and the slots grow. A link used at a few nodes (the shift
 * ring on the cube uses link l at one node in 2^(l+1)) then costs what
 * its messages touch, not an array of the whole machine, zeroed. */

#define TABLE_CHUNK 256

typedef struct {
    uint32_t node;
    uint32_t index;            /* the entry's index + 1; 0: free */
} TableSlot;

struct LinkTable {
    TableSlot *slot;
    int shift;                 /* 32 - log2(slots) */
    uint32_t n;                /* entries */
    LinkChannel **chunk;       /* TABLE_CHUNK entries each */
    uint32_t nchunk;
};

static uint32_t table_limit(const Sim *sim)
{
    return sim->no_tables ? 0 : sim->nodes / SIM_LINK_TABLE_SHARE;
}

void sim_set_link_tables(Sim *sim, gboolean tables)
{
    sim->no_tables = !tables;
}

static LinkChannel *table_entry(const LinkTable *t, uint32_t i)
{
    return &t->chunk[i / TABLE_CHUNK][i % TABLE_CHUNK];
}

static uint32_t table_home(const LinkTable *t, uint32_t node)
{
    return (node * 2654435769u) >> t->shift;
}

static uint32_t table_slots(const LinkTable *t)
{
    return 1u << (32 - t->shift);
}

/* A new table: the spare one, emptied, if there is one (its slots and
 * chunks in memory already: a run whose links each fill a table before
 * they take an array pays for one table's first touch, not one a link). */
static LinkTable *table_new(Sim *sim)
{
    LinkTable *t = sim->table_spare;
    if (t) {
        sim->table_spare = NULL;
        memset(t->slot, 0, sizeof(TableSlot) * table_slots(t));
        t->n = 0;
        return t;
    }
    t = EMU_NEW0(LinkTable, 1, "a link's table");
    t->shift = 32 - 6;
    t->slot = EMU_NEW0(TableSlot, 64, "a link's table");
    return t;
}

/* Its entries' heap spans freed where it has any (many), then the table
 * kept as the spare (keep, and none yet) or freed. */
static void table_free(Sim *sim, LinkTable *t, gboolean many, gboolean keep)
{
    if (many)
        for (uint32_t i = 0; i < t->n; i++)
            timeline_clear(&table_entry(t, i)->tl);
    if (keep && !sim->table_spare) {
        sim->table_spare = t;
        return;
    }
    for (uint32_t c = 0; c < t->nchunk; c++)
        free(t->chunk[c]);
    g_free(t->chunk);
    g_free(t->slot);
    g_free(t);
}

/* The slot that holds `node`, or the free one where it would go. */
static uint32_t table_probe(const LinkTable *t, uint32_t node)
{
    uint32_t mask = table_slots(t) - 1, h = table_home(t, node);
    while (t->slot[h].index != 0 && t->slot[h].node != node)
        h = (h + 1) & mask;
    return h;
}

/* The entry of `node`, or NULL. */
static LinkChannel *table_find(const LinkTable *t, uint32_t node)
{
    const TableSlot *s = &t->slot[table_probe(t, node)];
    return s->index ? table_entry(t, s->index - 1) : NULL;
}

static void table_grow(LinkTable *t)
{
    uint32_t old = table_slots(t);
    TableSlot *was = t->slot;
    t->shift--;
    t->slot = EMU_NEW0(TableSlot, (size_t)old * 2, "a link's table");
    for (uint32_t i = 0; i < old; i++)
        if (was[i].index != 0)
            t->slot[table_probe(t, was[i].node)] = was[i];
    g_free(was);
}

/* The entry of `node`, made if new: an empty timeline that carried
 * nothing (its count starts from the link's zero, 0 without an array). */
static LinkChannel *table_get(LinkTable *t, uint32_t node)
{
    TableSlot *s = &t->slot[table_probe(t, node)];
    if (s->index)
        return table_entry(t, s->index - 1);
    if (t->n == t->nchunk * TABLE_CHUNK) {
        t->chunk = EMU_RENEW(LinkChannel *, t->chunk, t->nchunk + 1,
                             "a link's table");
        t->chunk[t->nchunk++] = emu_aligned_alloc(
            64, TABLE_CHUNK * sizeof(LinkChannel), "a link's table");
    }
    LinkChannel *e = table_entry(t, t->n);
    *e = (LinkChannel){ .carried = 0 };
    timeline_init(&e->tl);
    *s = (TableSlot){ node, ++t->n };
    if (t->n * 2 > table_slots(t))
        table_grow(t);
    return e;
}

/* Spare i out of the list (its order means nothing). */
static SpareLink spare_take(Sim *sim, int i)
{
    SpareLink got = sim->spare[i];
    sim->spare[i] = sim->spare[--sim->nspare];
    return got;
}

/* A spare parked for a link becomes anybody's: what its channels carried
 * goes into the link's counts (a pass over it, which the messages that
 * made the link idle paid for), and its heap spans are freed. */
static void spare_settle(Sim *sim, SpareLink *sp)
{
    if (sp->owner < 0)
        return;
    LinkChannels *lc = &sim->link_ch[sp->owner];
    link_fold(sim, sp->owner);
    if (lc->many)
        for (uint32_t x = 0; x < sim->nodes; x++)
            timeline_clear(&sp->ch[x].tl);
    sp->zero = lc->zero;
    sp->owner = -1;
    sim->link_counts.settled++;
    *lc = (LinkChannels){ .until = lc->until, .col = lc->col,
                          .uniform = lc->uniform };
}

/* The spare a link without one of its own takes: a settled one, else the
 * one parked for the link idle the longest (the likeliest not to be
 * needed again soon). */
static int spare_pick(const Sim *sim)
{
    int best = 0;
    for (int i = 0; i < sim->nspare; i++) {
        int o = sim->spare[i].owner;
        if (o < 0)
            return i;
        if (sim->link_ch[o].until
            < sim->link_ch[sim->spare[best].owner].until)
            best = i;
    }
    return best;
}

/* The link, without an array, takes one: its own parked one back, else
 * another spare, else one mapped here. */
static void link_take_array(Sim *sim, int link)
{
    LinkChannels *lc = &sim->link_ch[link];
    if (lc->parked) {
        /* Back with its counts where they were: no pass over it. */
        int i = 0;
        while (sim->spare[i].ch != lc->parked)
            i++;
        lc->ch = spare_take(sim, i).ch;
        lc->parked = NULL;
        sim->link_counts.taken_back++;
    } else {
        /* A released array holds only spans that ended before the tick
         * it was released at, which every use prunes first: as good as
         * empty, and already in memory (a new one costs the kernel
         * zeroing it); its counts were folded. */
        SpareLink got;
        if (sim->nspare > 0) {
            int i = spare_pick(sim);
            spare_settle(sim, &sim->spare[i]);
            got = spare_take(sim, i);
        } else {
            got = (SpareLink){ link_array_new(sim), 0, -1 };
            sim->link_counts.mapped++;
        }
        lc->ch = got.ch;
        lc->zero = got.zero;
    }
    if (++sim->links_live > sim->links_live_max)
        sim->links_live_max = sim->links_live;
    sim->hot_link[1] = sim->hot_link[0];
    sim->hot_link[0] = link;
}

/* sim_channel_timeline's other cases: a sparse channel; a link whose
 * array is not allocated, which takes one, or, where that would map a
 * new one, keeps the channels it uses in its table until they are enough
 * to pay for it (SIM_LINK_TABLE_SHARE). */
Timeline *sim_channel_timeline_slow(Sim *sim, uint32_t node, int link)
{
    if (!sim->link_ch)
        return &sim_channel(sim, node, link, TRUE)->tl;
    LinkChannels *lc = &sim->link_ch[link];
    if (!lc->ch) {
        if (!lc->table && !lc->parked && sim->nspare == 0
            && table_limit(sim) > 0)
            lc->table = table_new(sim);
        if (lc->table) {
            LinkChannel *e = table_get(lc->table, node);
            if (lc->table->n >= table_limit(sim) && !lc->due)
                lc->due = sim->links_due = TRUE;
            return &e->tl;
        }
        link_take_array(sim, link);
    }
    return &lc->ch[node].tl;
}

/* A link's table gives way to an array: each entry's timeline and mark
 * moved to its node's place, its count added to the array's zero (every
 * channel of an array it takes has carried exactly zero since its last
 * fold). The hops counted since the link's last fold stay as they are:
 * they are the entries' (LinkChannels). */
static void link_densify(Sim *sim, int link)
{
    LinkChannels *lc = &sim->link_ch[link];
    LinkTable *t = lc->table;
    lc->table = NULL;
    lc->due = FALSE;
    link_take_array(sim, link);
    for (uint32_t i = 0; i < table_slots(t); i++) {
        if (t->slot[i].index == 0)
            continue;
        const LinkChannel *e = table_entry(t, t->slot[i].index - 1);
        LinkChannel *c = &lc->ch[t->slot[i].node];
        c->tl = e->tl;
        c->carried = lc->zero + e->carried;
        c->mark = e->mark;
    }
    table_free(sim, t, FALSE, TRUE);    /* its heap spans moved */
    sim->link_counts.densified++;
}

void sim_links_due(Sim *sim)
{
    sim->links_due = FALSE;
    for (int l = 0; l < sim->links; l++)
        if (sim->link_ch[l].due)
            link_densify(sim, l);
}

/* The link's array leaves it. Parked (park, and room among the spares):
 * kept as it is, counts unfolded, for the link to take back without a
 * pass over it (gray-to-binary's concurrent method idles and takes up the
 * same links every few ticks) or for another link to settle and take.
 * Else folded, and kept as a settled spare or freed. */
static void link_release(Sim *sim, int link, gboolean park)
{
    LinkChannels *lc = &sim->link_ch[link];
    if (!lc->ch)
        return;
    /* Kept for reuse while arrays in use and kept stay within the most
     * ever in use at once, which the run's peak held anyway: a dimension
     * exchange keeps one, gray-to-binary's 15 concurrent links 15, and
     * neither zeroes a fresh array every step. */
    sim->links_live--;
    for (int k = 0; k < 2; k++)
        if (sim->hot_link[k] == link)
            sim->hot_link[k] = -1;
    gboolean keep = sim->links_live + sim->nspare < sim->links_live_max;
    if (keep && !sim->spare)
        sim->spare = EMU_NEW(SpareLink, sim->links, "the spare links");
    if (park && keep) {
        sim->spare[sim->nspare++] = (SpareLink){ lc->ch, lc->zero, link };
        lc->parked = lc->ch;
        lc->ch = NULL;
        return;
    }
    link_fold(sim, link);
    if (lc->many)
        for (uint32_t x = 0; x < sim->nodes; x++)
            timeline_clear(&lc->ch[x].tl);
    if (keep)
        sim->spare[sim->nspare++] = (SpareLink){ lc->ch, lc->zero, -1 };
    else
        link_array_free(sim, lc->ch);
    *lc = (LinkChannels){ .until = lc->until, .col = lc->col,
                          .uniform = lc->uniform };
}

/* The engine reached tick `now`: release the links whose spans have all
 * ended, once they have paid for their allocation (LinkChannels). */
void sim_links_idle(Sim *sim, Tick now)
{
    for (int l = 0; l < sim->links; l++) {
        LinkChannels *lc = &sim->link_ch[l];
        if (lc->ch && lc->until <= now && lc->messages >= sim->nodes / 8)
            link_release(sim, l, TRUE);
    }
}

/* The elements a dense channel carried, its array's not counted. */
static uint64_t count_folded(const Sim *sim, uint32_t node, int link)
{
    const LinkChannels *lc = &sim->link_ch[link];
    if (!lc->col)
        return lc->uniform;
    if (lc->col[node] != UINT32_MAX)
        return lc->col[node];
    uint64_t i = sim_dense_index(sim, node, link);
    return *(const uint64_t *)g_hash_table_lookup(sim->count_big, &i);
}

static uint64_t channel_count(const Sim *sim, uint32_t node, int link)
{
    if (!sim->link_ch) {
        const Channel *c = sim_channel(sim, node, link, FALSE);
        return c ? c->count : 0;
    }
    const LinkChannels *lc = &sim->link_ch[link];
    const LinkChannel *ch = lc->ch ? lc->ch : lc->parked;
    if (!ch && lc->table) {
        const LinkChannel *e = table_find(lc->table, node);
        return count_folded(sim, node, link) + (e ? e->carried : 0);
    }
    return count_folded(sim, node, link)
           + (ch ? ch[node].carried - lc->zero : 0);
}

/* Set a folded count (a link with a column). */
static void count_set(Sim *sim, uint32_t node, int link, uint64_t total)
{
    uint32_t *c = &sim->link_ch[link].col[node];
    if (*c != UINT32_MAX && total < sim->count_limit) {
        *c = (uint32_t)total;
        return;
    }
    uint64_t i = sim_dense_index(sim, node, link);
    if (*c != UINT32_MAX) {
        uint64_t *key = g_new(uint64_t, 1);
        *key = i;
        g_hash_table_insert(sim->count_big, key, g_new(uint64_t, 1));
        *c = UINT32_MAX;
    }
    *(uint64_t *)g_hash_table_lookup(sim->count_big, &i) = total;
}

/* The link's counts as a column: every channel's the link's one number. */
static uint32_t *link_col(Sim *sim, int link)
{
    LinkChannels *lc = &sim->link_ch[link];
    if (!lc->col) {
        lc->col = emu_big_new0(sim_col_bytes(sim), "a link's counts");
        if (lc->uniform >= sim->count_limit) {
            for (uint32_t x = 0; x < sim->nodes; x++)
                count_set(sim, x, link, lc->uniform);
        } else if (lc->uniform > 0) {
            for (uint32_t x = 0; x < sim->nodes; x++)
                lc->col[x] = (uint32_t)lc->uniform;
        }
    }
    return lc->col;
}

/* Add count elements to a folded count (no array, or none of its own). */
void sim_count_add(Sim *sim, uint32_t node, int link, uint64_t count)
{
    link_col(sim, link);
    uint64_t total = count_folded(sim, node, link) + count;
    count_set(sim, node, link, total);
    sim_count_seen(sim, total);
}

/* Fold what the channels of the link's array carried into its counts, and
 * leave the array carrying nothing. Where every channel carried the same,
 * the link's counts stay one number and the array's zero moves: with as
 * many hops as channels, none meeting a channel that carried something
 * already and all of the same count, at once (a dimension exchange's
 * link); else found in a pass. */
static void link_fold(Sim *sim, int link)
{
    LinkChannels *lc = &sim->link_ch[link];
    LinkChannel *ch = lc->ch ? lc->ch : lc->parked;
    uint32_t x = 0, n = sim->nodes;
    const uint64_t zero = lc->zero;
    if (!ch && lc->table && lc->hops > 0) {
        /* Fewer channels than nodes: never one number. */
        LinkTable *t = lc->table;
        lc->hops = lc->first = 0;
        lc->mixed = FALSE;
        for (uint32_t i = 0; i < table_slots(t); i++) {
            if (t->slot[i].index == 0)
                continue;
            LinkChannel *e = table_entry(t, t->slot[i].index - 1);
            if (e->carried > 0) {
                sim_count_add(sim, t->slot[i].node, link, e->carried);
                e->carried = 0;
            }
        }
        return;
    }
    if (!ch || lc->hops == 0)
        return;
    gboolean once_each = !lc->mixed && lc->hops == n;
    lc->hops = lc->first = 0;
    lc->mixed = FALSE;
    if (!lc->col) {
        uint64_t same = ch[0].carried - zero;
        if (!once_each)
            while (x < n && ch[x].carried - zero == same)
                x++;
        if (once_each || x == n) {
            lc->uniform += same;
            lc->zero += same;
            sim_count_seen(sim, lc->uniform);
            return;
        }
    }
    /* Into the column, a pass over it in the cache's order: the counts
     * that fit in 32 bits written in place, the rest as sim_count_add
     * writes them. (A link that carried different counts on its
     * channels, as one with a detour around a fault does, comes here
     * once for every node.) */
    uint32_t *col = link_col(sim, link);
    const uint32_t limit = sim->count_limit;
    uint64_t most = 0;
    for (x = 0; x < n; x++) {
        uint64_t v = ch[x].carried - zero;
        if (v == 0)
            continue;
        ch[x].carried = zero;
        uint64_t total = (uint64_t)col[x] + v;
        if (col[x] != UINT32_MAX && total < limit) {
            col[x] = (uint32_t)total;
            most = MAX(most, total);
        } else {
            sim_count_add(sim, x, link, v);
        }
    }
    sim_count_seen(sim, most);
}

/* The run's statistics made complete: the largest count of every link
 * seen. A link whose array holds hops that each met a channel that had
 * carried nothing, all of one count, on top of counts that are one number
 * (no column), has its largest count without a pass: that number plus
 * the hops' count. Its array is left unfolded, as a parked one is, and
 * read where it lies (channel_count): a run of a message or two a node
 * over many links (the shift ring on the cube, one-path reshaping) would
 * otherwise pay a pass over each link's whole array, and a column for
 * each, after its last event. The others are folded. */
void sim_links_fold(Sim *sim)
{
    if (!sim->link_ch)
        return;
    for (int l = 0; l < sim->links; l++) {
        const LinkChannels *lc = &sim->link_ch[l];
        if ((lc->ch || lc->parked || lc->table) && lc->hops > 0 && !lc->mixed
            && !lc->col)
            sim_count_seen(sim, lc->uniform + lc->first);
        else
            link_fold(sim, l);
    }
}

void sim_set_count_limit(Sim *sim, uint32_t limit)
{
    g_assert(limit >= 1 && limit < UINT32_MAX);
    sim->count_limit = limit;
}

uint64_t sim_channel_elements(const Sim *sim, uint32_t node, int link)
{
    return channel_count(sim, node, link);
}

/* The channel state of a new Sim (sim_new): a dense topology's per-link
 * state, or the sparse table. */
void sim_channels_new(Sim *sim)
{
    if (sim_dense(&sim->machine)) {
        sim->link_ch = g_new0(LinkChannels, sim->links ? sim->links : 1);
        sim->count_big = g_hash_table_new_full(g_int64_hash, g_int64_equal,
                                               g_free, g_free);
        sim->count_limit = UINT32_MAX - 1;
    } else {
        sim->sparse = sparse_new();
    }
}

void sim_channels_free(Sim *sim)
{
    if (sim->link_ch) {
        /* Nothing reads the counts again: no fold (link_fold folds no
         * hops), only the heap spans freed. */
        for (int l = 0; l < sim->links; l++)
            sim->link_ch[l].hops = 0;
        for (int i = 0; i < sim->nspare; i++)
            spare_settle(sim, &sim->spare[i]);
        for (int l = 0; l < sim->links; l++) {
            link_release(sim, l, FALSE);
            if (sim->link_ch[l].table)
                table_free(sim, sim->link_ch[l].table, sim->link_ch[l].many,
                           FALSE);
        }
        if (sim->table_spare)
            table_free(sim, sim->table_spare, FALSE, FALSE);
        for (int l = 0; l < sim->links; l++)
            emu_big_free(sim->link_ch[l].col, sim_col_bytes(sim));
        for (int i = 0; i < sim->nspare; i++)
            link_array_free(sim, sim->spare[i].ch);
        g_free(sim->spare);
        g_free(sim->link_ch);
        g_hash_table_destroy(sim->count_big);
    }
    if (sim->sparse)
        sparse_free(sim->sparse);
}

SimLinkCounts sim_link_counts(const Sim *sim)
{
    return sim->link_counts;
}
