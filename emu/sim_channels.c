/* sim_channels.c -- the channels' state: a dense topology's link arrays
 * (timelines while a link is in use, released and reused), the elements
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

/* The sparse channel leaving `node` on `link`; created on first use, NULL
 * only when looking up (create = FALSE) an unused one. */
Channel *sim_channel(const Sim *sim, uint32_t node, int link,
                     gboolean create)
{
    uint64_t key = (uint64_t)node * (uint64_t)sim->links + (uint64_t)link;
    Channel *c = g_hash_table_lookup(sim->sparse, &key);
    if (!c && create) {
        SparseChannel *sc = EMU_NEW0(SparseChannel, 1, "a channel");
        sc->key = key;
        g_hash_table_insert(sim->sparse, &sc->key, &sc->ch);
        c = &sc->ch;
    }
    return c;
}

static void link_fold(Sim *sim, int link);

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

/* sim_channel_timeline's other cases: a sparse channel, or a link whose
 * array is not allocated (its own parked one taken back, another spare,
 * or one mapped here). */
Timeline *sim_channel_timeline_slow(Sim *sim, uint32_t node, int link)
{
    if (!sim->link_ch)
        return &sim_channel(sim, node, link, TRUE)->tl;
    LinkChannels *lc = &sim->link_ch[link];
    if (!lc->ch) {
        if (lc->parked) {
            /* Back with its counts where they were: no pass over it. */
            int i = 0;
            while (sim->spare[i].ch != lc->parked)
                i++;
            lc->ch = spare_take(sim, i).ch;
            lc->parked = NULL;
            sim->link_counts.taken_back++;
        } else {
            /* A released array holds only spans that ended before the
             * tick it was released at, which every use prunes first: as
             * good as empty, and already in memory (a new one costs the
             * kernel zeroing it); its counts were folded. */
            SpareLink got;
            if (sim->nspare > 0) {
                int i = spare_pick(sim);
                spare_settle(sim, &sim->spare[i]);
                got = spare_take(sim, i);
            } else {
                got = (SpareLink){ emu_big_new0(sim_link_bytes(sim),
                                                "a link's channels"), 0, -1 };
            }
            lc->ch = got.ch;
            lc->zero = got.zero;
        }
        if (++sim->links_live > sim->links_live_max)
            sim->links_live_max = sim->links_live;
        sim->hot_link[1] = sim->hot_link[0];
        sim->hot_link[0] = link;
    }
    return &lc->ch[node].tl;
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
        emu_big_free(lc->ch, sim_link_bytes(sim));
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
        if (lc->uniform > 0)
            for (uint32_t x = 0; x < sim->nodes; x++)
                count_set(sim, x, link, lc->uniform);
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
    for (x = 0; x < n; x++) {
        uint64_t v = ch[x].carried - zero;
        if (v > 0) {
            sim_count_add(sim, x, link, v);
            ch[x].carried = zero;
        }
    }
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
        if ((lc->ch || lc->parked) && lc->hops > 0 && !lc->mixed && !lc->col)
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
        sim->sparse = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL,
                                            NULL);
    }
}

static void free_channel(gpointer key, gpointer value, gpointer data)
{
    SparseChannel *sc = value;          /* &sc->ch, its first member */
    (void)key;
    (void)data;
    timeline_clear(&sc->ch.tl);
    g_free(sc);
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
        for (int l = 0; l < sim->links; l++)
            link_release(sim, l, FALSE);
        for (int l = 0; l < sim->links; l++)
            emu_big_free(sim->link_ch[l].col, sim_col_bytes(sim));
        for (int i = 0; i < sim->nspare; i++)
            emu_big_free(sim->spare[i].ch, sim_link_bytes(sim));
        g_free(sim->spare);
        g_free(sim->link_ch);
        g_hash_table_destroy(sim->count_big);
    }
    if (sim->sparse) {
        g_hash_table_foreach(sim->sparse, free_channel, NULL);
        g_hash_table_destroy(sim->sparse);
    }
}

SimLinkCounts sim_link_counts(const Sim *sim)
{
    return sim->link_counts;
}
