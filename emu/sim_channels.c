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
 * table of the ones in use (channel_table.h), looked up at every hop.
 * The key is node * links + link, which passes 32 bits from 2^16 nodes
 * on: the entry holds it beside its channel. */

static const ChannelTableKind sparse_kind = {
    .size = sizeof(SparseChannel),
    .key_at = offsetof(SparseChannel, key),
    .what = "the sparse channels",
};

/* The sparse channel leaving `node` on `link`; created on first use, NULL
 * only when looking up (create = FALSE) an unused one. */
Channel *sim_channel(const Sim *sim, uint32_t node, int link,
                     gboolean create)
{
    uint64_t key = (uint64_t)node * (uint64_t)sim->links + (uint64_t)link;
    SparseChannel *e =
        create ? channel_table_get(sim->sparse, &sparse_kind, key)
               : channel_table_find(sim->sparse, &sparse_kind, key);
    return e ? &e->ch : NULL;
}

static void link_fold(Sim *sim, int link);

/* ---- a link's table of the channels in use ------------------------------
 *
 * A link used at a few nodes (the shift ring on the cube uses link l at
 * one node in 2^(l+1)) costs what its messages touch, not an array of the
 * whole machine, zeroed: its channels in a table (channel_table.h) until
 * they are enough to pay for one (SIM_LINK_TABLE_SHARE). The key is the
 * node, which the slot holds whole: an entry is the LinkChannel that the
 * array would hold, its count from the link's zero (0 without an
 * array). */

static const ChannelTableKind link_table_kind = {
    .size = sizeof(LinkChannel),
    .key_at = CHANNEL_TABLE_KEY_IN_TAG,
    .what = "a link's table",
};

static uint32_t table_limit(const Sim *sim)
{
    return sim->no_tables ? 0 : sim->nodes / SIM_LINK_TABLE_SHARE;
}

void sim_set_link_tables(Sim *sim, gboolean tables)
{
    sim->no_tables = !tables;
}

/* A new table: the spare one, emptied, if there is one (its slots and
 * chunks in memory already: a run whose links each fill a table before
 * they take an array pays for one table's first touch, not one a link). */
static ChannelTable *table_new(Sim *sim)
{
    ChannelTable *t = sim->table_spare;
    if (!t)
        return channel_table_new(&link_table_kind);
    sim->table_spare = NULL;
    channel_table_empty(t);
    return t;
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
            LinkChannel *e = channel_table_get(lc->table, &link_table_kind,
                                               node);
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
    ChannelTable *t = lc->table;
    lc->table = NULL;
    lc->due = FALSE;
    link_take_array(sim, link);
    const LinkChannel *e;
    uint64_t node;
    for (size_t i = 0; (e = channel_table_next(t, &link_table_kind, &i,
                                               &node));) {
        LinkChannel *c = &lc->ch[node];
        c->tl = e->tl;
        c->carried = lc->zero + e->carried;
        c->mark = e->mark;
    }
    /* its heap spans moved: kept for the next table, or freed */
    if (!sim->table_spare)
        sim->table_spare = t;
    else
        channel_table_free(t, &link_table_kind, FALSE);
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
        const LinkChannel *e = channel_table_find(lc->table,
                                                  &link_table_kind, node);
        return count_folded(sim, node, link) + (e ? e->carried : 0);
    }
    return count_folded(sim, node, link)
           + (ch ? ch[node].carried - lc->zero : 0);
}

/* Set a folded count (a link with a column). */
/* Does a column's count c, made `total`, stay in its 32 bits? (Else it
 * moves to count_big: count_set.) */
static inline gboolean count_fits(const Sim *sim, uint32_t c, uint64_t total)
{
    return c != UINT32_MAX && total < sim->count_limit;
}

static void count_set(Sim *sim, uint32_t node, int link, uint64_t total)
{
    uint32_t *c = &sim->link_ch[link].col[node];
    if (count_fits(sim, *c, total)) {
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
        lc->hops = lc->first = 0;
        lc->mixed = FALSE;
        LinkChannel *e;
        uint64_t node;
        for (size_t i = 0; (e = channel_table_next(lc->table,
                                                   &link_table_kind, &i,
                                                   &node));) {
            if (e->carried > 0) {
                sim_count_add(sim, (uint32_t)node, link, e->carried);
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
    uint64_t most = 0;
    for (x = 0; x < n; x++) {
        uint64_t v = ch[x].carried - zero;
        if (v == 0)
            continue;
        ch[x].carried = zero;
        uint64_t total = (uint64_t)col[x] + v;
        if (count_fits(sim, col[x], total)) {
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
        sim->sparse = channel_table_new(&sparse_kind);
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
                channel_table_free(sim->link_ch[l].table, &link_table_kind,
                                   sim->link_ch[l].many);
        }
        if (sim->table_spare)
            channel_table_free(sim->table_spare, &link_table_kind, FALSE);
        for (int l = 0; l < sim->links; l++)
            emu_big_free(sim->link_ch[l].col, sim_col_bytes(sim));
        for (int i = 0; i < sim->nspare; i++)
            link_array_free(sim, sim->spare[i].ch);
        g_free(sim->spare);
        g_free(sim->link_ch);
        g_hash_table_destroy(sim->count_big);
    }
    if (sim->sparse)
        channel_table_free(sim->sparse, &sparse_kind, TRUE);
}

SimLinkCounts sim_link_counts(const Sim *sim)
{
    return sim->link_counts;
}
