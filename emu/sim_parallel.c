/* sim_parallel.c -- a tick's events split among threads, with the same
 * bytes out as one thread (sim_set_threads).
 *
 * The locality order (sim_order.c) runs a tick's events in the order of
 * their nodes and proves as it goes that no two of them depend on each
 * other's order: what one event reserves no other node's reserves in the
 * same tick, and what two deliver into one node lands in receives that do
 * not overlap. So a tick's nodes can be split among threads, each running
 * its own nodes' events in that order, on the conditions below; the run
 * is then the locality order's, which is the contract's.
 *
 * The split. A cube's nodes are split by address bits chosen tick by
 * tick: the highest that no link the tick's sends took so far crosses and
 * that no lazy message alive crosses (sim_par_tick), shard s taking the
 * nodes whose bits there spell s. A dimension exchange's messages then
 * never leave their thread. Other machines are split into ranges of
 * addresses, and a lazy message never crosses a range (sim.c's
 * node_offer copies its payload instead). A tick's first events run alone
 * until the links they use have arrays and they have shown what the tick
 * does (links_ready, PAR_PROBE_OPS); a tick whose events would mostly
 * wait for the commit (keys in the shared match table, routed messages)
 * is not split at all.
 *
 * What a thread touches. Each thread runs a shard: a Sim of its own (the
 * first thread's is the Sim itself) that shares the machine's big arrays
 * (the nodes, their memories, the links' channel arrays, the match table)
 * and owns everything else its events write: the running node, its clock
 * and posted receives, the statistics and the links' counters, the pools
 * and slabs, the put-off deliveries, its items for later ticks. A shard
 * does at once only what touches its own nodes and the channels leaving
 * them:
 *  - a send of one hop (or none) over a link whose channel array exists,
 *    to a node of its own whose key is in that node's own match slot
 *    (par_post_here, sim.c), unless an earlier send of the same event was
 *    put off: a node's reservations keep its order;
 *  - the matching of a step's receives, where they are one key held or
 *    holdable in the node's own slot (par_match_here, sim.c).
 * Everything else goes to the shard's log, with its event's place in the
 * tick: the send (its payload captured then, as a send deferred to a
 * later tick is captured), the matching, and any item for the tick that
 * is running. A node whose send or matching waits counts it as a deferred
 * send, so its step's end waits for it.
 *
 * The commit. When every shard is done, their counts are added to the
 * Sim's (sums and maxima, which no order changes; a phase's sums are
 * integers in doubles, exact in any order, sim.c's node_close_phase),
 * their items for later ticks go to the queue (each tick's items are put
 * in the order of their nodes when it starts, and one node's all come
 * from one shard), and the logs are carried out in the order of the events
 * that wrote them (sim_par_commit_all). A send or a matching so carried
 * out happens later than in one thread but within the same tick, which is
 * the locality order's argument again: a node's step never reads what a
 * message of its own tick brings (it runs only once its receives are
 * matched, and a message arrives at least a tick after it is posted). The
 * one place the later time could show is a message that completes its
 * destination's wait within the tick: its step would fall in this tick at
 * another place. That, and every conflict the locality order stops on,
 * stop the run the same way (SIM_ERROR_ORDER), and it runs again in the
 * contract's order, in one thread (run/run.c).
 *
 * Which runs split: the locality order's, with no observer, no faults,
 * programs of steps, dense channels without port limits or memory paths;
 * the others keep one thread. A tick splits when it has at least
 * `min_events` events (sim_set_threads). Nothing a run reports can depend
 * on the number of threads: the split decides only which work waits for
 * the commit, and everything reported is a sum, a maximum, or written by
 * exactly one event.
 */
#include "sim_internal.h"
#include "oom.h"

#include <pthread.h>

/* x's bits laid, lowest first, on the set bits of mask. */
static uint32_t bits_deposit(uint32_t x, uint32_t mask)
{
    uint32_t r = 0;
    for (uint32_t m = mask; m; m &= m - 1, x >>= 1)
        if (x & 1)
            r |= m & -m;
    return r;
}

/* A tick's first events run alone until they posted PAR_PROBE_OPS sends
 * and matchings, or PAR_QUIET_EVENTS of them ran (fewer for small ticks:
 * SimPar.probe_ops): what they would have put off decides whether it
 * splits. A split tick is costly where more than 1/PAR_COSTLY of its
 * events put work off; up to PAR_BACKOFF_MAX ticks are not split after
 * one. */
#define PAR_PROBE_OPS 64
#define PAR_QUIET_EVENTS 64
#define PAR_COSTLY 4
#define PAR_BACKOFF_MAX 64

_Thread_local Sim *sim_par_tls;

typedef struct SimPar SimPar;

typedef struct {
    SimPar *par;
    int index;
    pthread_t thread;
} ParWorker;

struct SimPar {
    int n;                     /* shards */
    int bits;                  /* a cube split by log2(n) address bits, or
                                * 0: by ranges of addresses */
    size_t min_events;
    uint64_t probe_ops, quiet_events;  /* PAR_PROBE_OPS, PAR_QUIET_EVENTS,
                                        * or fewer for small ticks */
    gboolean tried, usable;    /* the run's conditions, checked once */
    Sim **shard;               /* shard[0] is the Sim itself */
    uint32_t *lo;              /* shard s runs nodes [lo[s], lo[s + 1]) */
    ParWorker *worker;         /* shards 1..n-1's threads */
    pthread_barrier_t start, done;
    gboolean quit;
    const QueueItem *item;     /* the tick's items, n of them */
    size_t nitem;
    SimStats at_start;         /* the Sim's, as the tick began */
    SimParCounts counts;
    Tick tick;                 /* the tick asked about last, and how many */
    uint64_t seq_events;       /* of its events ran alone */
    /* After a split tick that put off much of its work (PAR_COSTLY):
     * ticks not to split, and how many the next such tick will skip. */
    uint32_t skip, backoff;
    LinkChannels *links_at_start;
    atomic_int failed;         /* Sim.par_failed: a shard's events failed */
};

void sim_set_threads(Sim *sim, int threads, size_t min_events)
{
    g_return_if_fail(!sim->par && threads >= 1);
    if (threads == 1 || sim->nodes < 2)
        return;
    SimPar *par = g_new0(SimPar, 1);
    par->n = (int)MIN((uint32_t)threads, sim->nodes);
    par->min_events = MAX(min_events, (size_t)2);
    /* what a tick runs alone before it splits, at most a 64th of it */
    par->probe_ops = MIN((uint64_t)PAR_PROBE_OPS, par->min_events / 64 + 1);
    sim->par_any = TRUE;
    par->quiet_events = MIN((uint64_t)PAR_QUIET_EVENTS,
                            par->min_events / 64 + 1);
    sim->par = par;
}

int sim_threads(const Sim *sim)
{
    return sim->par && sim->par->usable ? sim->par->n : 1;
}

SimParCounts sim_par_counts(const Sim *sim)
{
    return sim->par ? sim->par->counts : (SimParCounts){ 0 };
}

void sim_par_log(Sim *sim, ParKind kind, uint32_t node, Tick time, void *ptr,
                 uint32_t n)
{
    if (sim->npar_log == sim->cappar_log) {
        sim->cappar_log = sim->cappar_log ? 2 * sim->cappar_log : 256;
        sim->par_log = EMU_RENEW(ParEntry, sim->par_log, sim->cappar_log,
                                 "a thread's put-off work");
    }
    sim->par_log[sim->npar_log++] = (ParEntry){ kind, node, time, ptr, n,
                                                sim->par_pos };
}

static int shard_of(const SimPar *par, uint32_t x)
{
    int s = 0;
    while (s + 1 < par->n && x >= par->lo[s + 1])
        s++;
    return s;
}

gboolean sim_par_cross(const Sim *sim, uint32_t a, uint32_t b)
{
    const SimPar *par = sim->par;
    return par && par->usable && !par->bits
           && shard_of(par, a) != shard_of(par, b);
}

/* ---- shards ----------------------------------------------------------- */

/* A shard for nodes [lo, hi): the Sim's shared arrays, its own state. */
static Sim *shard_new(const Sim *sim, uint32_t lo, uint32_t hi)
{
    Sim *s = g_new(Sim, 1);
    *s = *sim;
    s->par = NULL;
    s->par_any = TRUE;
    s->par_active = TRUE;
    s->par_committing = FALSE;
    s->par_lo = lo;
    s->par_hi = hi;
    s->par_log = NULL;
    s->npar_log = s->cappar_log = 0;
    s->par_item = NULL;
    s->par_item_pos = NULL;
    s->npar_item = s->cappar_item = 0;
    s->par_deferring = FALSE;
    s->lazy_live = sim->lazy_live ? g_new0(uint64_t, (size_t)sim->links)
                                  : NULL;
    s->queue = queue_new();             /* its items for later ticks */
    s->observer = NULL;
    s->progress_fn = NULL;
    s->progress_at = s->progress_fn_at = UINT64_MAX;
    /* the stop flags stay: a shard looks at them (sim_par_run_shard) */
    s->ticks_name = s->stop_name = NULL;
    s->error = NULL;
    s->running = NULL;
    s->posted = NULL;
    s->nposted = s->capposted = 0;
    s->report = s->report_tmp = NULL;
    s->nreport = s->capreport = s->reported = 0;
    s->run_a = s->run_b = NULL;
    s->run_cap = 0;
    s->route = g_new(int, topology_max_route(s->topo) + 1);
    s->detour = NULL;
    s->detour_cap = 0;
    memset(s->pool, 0, sizeof s->pool);
    s->free_msg = NULL;
    s->slabs = NULL;
    s->slab_next = NULL;
    s->slab_left = 0;
    s->free_recv = NULL;
    s->pending = s->pending_tmp = NULL;
    s->npending = s->cappending = s->pend_open = 0;
    s->shapes = NULL;
    s->nshapes = s->capshapes = 0;
    s->link_ch = g_new(LinkChannels, (size_t)sim->links);
    s->stats.link_up = g_new0(uint64_t, (size_t)sim->links);
    s->stats.link_down = g_new0(uint64_t, (size_t)sim->links);
    s->stats.link_busy = g_new0(uint64_t, (size_t)sim->links);
#ifdef SIM_CHECK_EXCHANGE
    s->sent_checks = g_array_new(FALSE, FALSE, sizeof(SentCheck));
#endif
    return s;
}

static void shard_free(Sim *s)
{
    sim_storage_free(s);
    g_free(s->pending);
    g_free(s->pending_tmp);
    g_free(s->shapes);
    g_free(s->run_a);
    g_free(s->run_b);
    g_free(s->route);
    g_free(s->link_ch);
    g_free(s->stats.link_up);
    g_free(s->stats.link_down);
    g_free(s->stats.link_busy);
    queue_free(s->queue);
    g_free(s->par_log);
    g_free(s->par_item);
    g_free(s->par_item_pos);
    g_free(s->lazy_live);
#ifdef SIM_CHECK_EXCHANGE
    for (guint i = 0; i < s->sent_checks->len; i++)
        g_free(g_array_index(s->sent_checks, SentCheck, i).copy);
    g_array_free(s->sent_checks, TRUE);
#endif
    g_clear_error(&s->error);
    g_free(s);
}

/* The tick's state, from the Sim to a shard. */
static void shard_sync(Sim *s, const Sim *sim)
{
    s->now = s->clock = sim->now;
    s->pend_base = sim->pend_base;
    /* counts the Sim adds up at the merge: from zero */
    s->early = 0;
    s->nodes_done = 0;
    s->pend_counts = (SimPendingCounts){ 0 };
    s->peek_asked = s->peek_followed = 0;
    s->hot_link[0] = sim->hot_link[0];
    s->hot_link[1] = sim->hot_link[1];
    s->deferring = FALSE;
    s->sent_stale = TRUE;
    uint64_t *up = s->stats.link_up, *down = s->stats.link_down,
             *busy = s->stats.link_busy;
    s->stats = sim->stats;
    s->stats.link_up = up;
    s->stats.link_down = down;
    s->stats.link_busy = busy;
    size_t links = (size_t)sim->links;
    memset(up, 0, links * sizeof *up);
    memset(down, 0, links * sizeof *down);
    memset(busy, 0, links * sizeof *busy);
    memcpy(s->link_ch, sim->link_ch, links * sizeof *s->link_ch);
    if (s->lazy_live)
        memset(s->lazy_live, 0, links * sizeof *s->lazy_live);
}

/* A shard's counts added to the Sim's: what it added since the tick began
 * (start), in sums and maxima, which no order changes. */
static void shard_merge(Sim *sim, const Sim *s, const SimStats *start,
                        const LinkChannels *links_start)
{
    SimStats *t = &sim->stats;
    const SimStats *a = &s->stats;
#define STAT(f) (t->f += a->f - start->f)
    STAT(element_transfers);
    STAT(messages);
    STAT(elements_sent);
    STAT(events);
    for (int c = 0; c < CLASS_COUNT; c++) {
        STAT(class_messages[c]);
        STAT(class_elements[c]);
        STAT(class_transfers[c]);
    }
    for (int l = 0; l < sim->links; l++) {
        t->link_up[l] += a->link_up[l];
        t->link_down[l] += a->link_down[l];
        t->link_busy[l] += a->link_busy[l];
    }
    t->cycles = MAX(t->cycles, a->cycles);
    t->max_channel_elements = MAX(t->max_channel_elements,
                                  a->max_channel_elements);
    for (unsigned p = 0; p < t->phases; p++) {
        SimPhase *tp = &t->phase[p];
        const SimPhase *ap = &a->phase[p], *sp = &start->phase[p];
        tp->nodes += ap->nodes - sp->nodes;
        tp->time_max = MAX(tp->time_max, ap->time_max);
        tp->compute_max = MAX(tp->compute_max, ap->compute_max);
        tp->communication_max = MAX(tp->communication_max,
                                    ap->communication_max);
        tp->enter_max = MAX(tp->enter_max, ap->enter_max);
        tp->time_sum += ap->time_sum - sp->time_sum;
        tp->compute_sum += ap->compute_sum - sp->compute_sum;
        tp->communication_sum += ap->communication_sum
                                 - sp->communication_sum;
        sim_phase_sums_check(sim, p);
    }
#undef STAT
    sim->early += s->early;             /* modulo 2^64: it may fall */
    if (sim->lazy_live)
        for (int l = 0; l < sim->links; l++)
            sim->lazy_live[l] += s->lazy_live[l];
    sim->nodes_done += s->nodes_done;
    sim->pend_counts.noted += s->pend_counts.noted;
    sim->pend_counts.swapped += s->pend_counts.swapped;
    sim->pend_counts.settled += s->pend_counts.settled;
    sim->pend_counts.relabelled += s->pend_counts.relabelled;
    sim->peek_asked += s->peek_asked;
    sim->peek_followed += s->peek_followed;
    /* The links' counters: every channel is its sender's, so what each
     * shard added is its own; the link's first count and whether counts
     * mixed as if one thread had made all the hops (link_fold). */
    for (int l = 0; l < sim->links; l++) {
        LinkChannels *lc = &sim->link_ch[l];
        const LinkChannels *sc = &s->link_ch[l], *st = &links_start[l];
        uint64_t hops = sc->hops - st->hops;
        if (sc->until > lc->until)
            lc->until = sc->until;
        lc->many |= sc->many;
        lc->messages += sc->messages - st->messages;
        if (hops == 0)
            continue;
        if (lc->hops == 0)
            lc->first = sc->first;
        else if (sc->first != lc->first)
            lc->mixed = TRUE;
        lc->mixed |= sc->mixed;
        lc->hops += hops;
    }
    if (s->pend_base > sim->pend_base)
        sim->pend_base = s->pend_base;
    if (!sim->error && s->error) {
        sim->error = g_error_copy(s->error);
        sim->order_stopped = s->order_stopped;  /* a conflict's tick, or -1 */
        sim->order_on_channel = s->order_on_channel;
    }
}

/* ---- threads ---------------------------------------------------------- */

static void shard_run(SimPar *par, int s)
{
    Sim *shard = par->shard[s];
    sim_par_tls = shard;
    sim_par_run_shard(shard, par->item, par->nitem);
    sim_par_tls = NULL;
}

static void *worker_main(void *data)
{
    ParWorker *w = data;
    SimPar *par = w->par;
    for (;;) {
        pthread_barrier_wait(&par->start);
        if (par->quit)
            break;
        shard_run(par, w->index);
        pthread_barrier_wait(&par->done);
    }
    timeline_pool_trim();               /* its thread's pool of timelines */
    return NULL;
}

/* May this run split its ticks at all? */
static gboolean par_usable(const Sim *sim)
{
    return (sim->locality || sim->order_from >= 0) && !sim->each
           && !sim->observer
           && !sim->machine.faults && sim->link_ch && !sim->send_port
           && !sim->mem_path && !sim->channels_implied
           && !sim->machine.startup_holds_port;
}

static gboolean par_start(Sim *sim)
{
    SimPar *par = sim->par;
    par->tried = TRUE;
    if (!par_usable(sim)) {
        sim->par_any = FALSE;           /* the hot paths need not look */
        return FALSE;
    }
    /* A cube splits by address bits chosen tick by tick, so that no
     * tick's links cross the split (a dimension exchange's sends never
     * leave their shard); other machines by ranges of addresses. */
    if (topology_is_cube(sim->topo) && (par->n & (par->n - 1)) == 0
        && __builtin_ctz((unsigned)par->n) < sim->links) {
        par->bits = __builtin_ctz((unsigned)par->n);
        sim->lazy_live = g_new0(uint64_t, (size_t)sim->links);
    }
    par->shard = g_new0(Sim *, (size_t)par->n);
    par->lo = g_new(uint32_t, (size_t)par->n + 1);
    for (int s = 0; s <= par->n; s++)
        par->lo[s] = (uint32_t)((uint64_t)s * sim->nodes / (uint64_t)par->n);
    par->links_at_start = g_new(LinkChannels, (size_t)sim->links);
    par->shard[0] = sim;
    sim->par_failed = &par->failed;
    for (int s = 1; s < par->n; s++)
        par->shard[s] = shard_new(sim, par->lo[s], par->lo[s + 1]);
    pthread_barrier_init(&par->start, NULL, (unsigned)par->n);
    pthread_barrier_init(&par->done, NULL, (unsigned)par->n);
    par->worker = g_new0(ParWorker, (size_t)par->n);
    for (int s = 1; s < par->n; s++) {
        par->worker[s] = (ParWorker){ par, s, 0 };
        int rc = pthread_create(&par->worker[s].thread, NULL, worker_main,
                                &par->worker[s]);
        if (rc != 0)
            g_error("cannot start a thread of the engine: %s",
                    g_strerror(rc));
    }
    par->usable = TRUE;
    return TRUE;
}

void sim_par_free(Sim *sim)
{
    SimPar *par = sim->par;
    if (!par)
        return;
    if (par->usable) {
        par->quit = TRUE;
        pthread_barrier_wait(&par->start);
        for (int s = 1; s < par->n; s++)
            pthread_join(par->worker[s].thread, NULL);
        pthread_barrier_destroy(&par->start);
        pthread_barrier_destroy(&par->done);
        for (int s = 1; s < par->n; s++)
            shard_free(par->shard[s]);
    }
    g_free(sim->par_log);
    g_free(sim->par_item);
    g_free(sim->par_item_pos);
    g_free(sim->lazy_live);
    sim->lazy_live = NULL;
    g_free(par->shard);
    g_free(par->lo);
    g_free(par->links_at_start);
    g_free(par->worker);
    g_free(par);
    sim->par = NULL;
    sim->par_any = FALSE;
}

/* Are the links this tick's sends use ready for shards: no table due to
 * become an array, and every link the last step that sent in this tick
 * used in an array (a shard's send over a link without one waits for the
 * commit; sim.c, par_post_here)? A tick's first events run alone until
 * then: the first send over a link takes its array (sim_channels.c), and
 * that is the locality order's own order. A tick whose first events sent
 * nothing (SimPar.quiet_events of them) splits as it is. */
static gboolean links_ready(const Sim *sim, const SimPar *par)
{
    if (sim->links_due)
        return FALSE;
    if (sim->sent_tick != sim->now)
        return par->seq_events >= par->quiet_events;
    for (uint64_t m = sim->sent.links; m; m &= m - 1)
        if (!sim->link_ch[__builtin_ctzll(m)].ch)
            return FALSE;
    return TRUE;
}

static int par_tick(Sim *sim, QueueItem first)
{
    SimPar *par = sim->par;
    if (!par->tried && !par_start(sim))
        return SIM_PAR_NO;
    if (!par->usable || !sim->locality)
        return SIM_PAR_NO;
    if (par->tick != sim->now || par->counts.ticks == 0) {
        par->tick = sim->now;
        par->seq_events = 0;
        sim->par_probe_ops = sim->par_probe_far = 0;
        par->counts.ticks++;
        if (par->skip > 0) {
            par->skip--;
            return SIM_PAR_NO;
        }
    }
    /* The run's first tick stays whole: the runs that leave the locality
     * order mostly leave it there, and a split tick finds a conflict
     * between threads only at its commit, after all of its events ran,
     * where one thread stops at the first. */
    if (par->counts.ticks == 1)
        return SIM_PAR_NO;
    size_t n;
    const QueueItem *item = queue_sorted_run(sim->queue, &n);
    if (n < par->min_events || n > UINT32_MAX || !item
        || item[0].node != first.node || item[0].post != first.post)
        return SIM_PAR_NO;
    if (!links_ready(sim, par)
        || (sim->par_probe_ops < par->probe_ops
            && par->seq_events < par->quiet_events)) {
        par->seq_events++;
        return SIM_PAR_LATER;
    }
    /* The events run alone so far show what the tick does: where a shard
     * would put off much of it (keys in the shared match table, routed
     * messages), it stays whole. */
    if (sim->par_probe_far * PAR_COSTLY > sim->par_probe_ops)
        return SIM_PAR_NO;
    /* The split: on a cube, the highest address bits that no link this
     * tick's sends took so far crosses and no lazy message alive crosses
     * either (sim.c's node_offer; one would be read and written by two
     * threads), shard s taking the nodes whose bits there spell s; else
     * ranges of addresses. */
    uint32_t mask = 0;
    if (par->bits) {
        uint64_t used = sim->sent_tick == sim->now ? sim->sent.links : 0;
        int got = 0;
        for (int k = sim->links - 1; k >= 0 && got < par->bits; k--)
            if (!(used >> k & 1) && sim->lazy_live[k] == 0) {
                mask |= 1u << k;
                got++;
            }
        if (got < par->bits)
            return SIM_PAR_NO;
    }
    for (int s = 0; s < par->n; s++) {
        Sim *shard = par->shard[s];
        shard->par_mask = mask;
        shard->par_bits = mask ? bits_deposit((uint32_t)s, mask) : 0;
        shard->par_lo = par->lo[s];
        shard->par_hi = par->lo[s + 1];
    }
    par->item = item;
    par->nitem = n;
    par->at_start = sim->stats;
    memcpy(par->links_at_start, sim->link_ch,
           (size_t)sim->links * sizeof *sim->link_ch);
    for (int s = 1; s < par->n; s++)
        shard_sync(par->shard[s], sim);
    atomic_store_explicit(&par->failed, 0, memory_order_relaxed);
    sim->par_active = TRUE;
    sim->npar_log = 0;
    /* every thread runs steps now: a signal's handler is told so */
    if (sim->stop)
        sim->stop->where = STOP_STEP;
    pthread_barrier_wait(&par->start);
    shard_run(par, 0);
    pthread_barrier_wait(&par->done);
    if (sim->stop)
        sim->stop->where = STOP_LOOP;
    sim->par_active = FALSE;
    /* The items ran: off the queue, as the loop pops them (the first is
     * popped already). */
    queue_skip(sim->queue, n - 1);
    for (int s = 1; s < par->n; s++)
        shard_merge(sim, par->shard[s], &par->at_start, par->links_at_start);
    par->counts.ticks_split++;
    par->counts.events_split += n;
    uint64_t put_off = 0;
    for (int s = 0; s < par->n; s++)
        for (size_t i = 0; i < par->shard[s]->npar_log; i++) {
            ParKind k = par->shard[s]->par_log[i].kind;
            par->counts.sends_put_off += k == PAR_POST;
            par->counts.matches_put_off += k == PAR_MATCH;
            put_off += k != PAR_PUSH;
        }
    /* A tick whose sends and matchings mostly waited for the commit ran
     * them in one thread after all, and paid for the logs: the next
     * ticks of a run like it stay whole, more of them each time. */
    if (put_off * PAR_COSTLY > n) {
        par->skip = par->backoff;
        par->backoff = MIN(2 * par->backoff + 1, PAR_BACKOFF_MAX);
        par->counts.ticks_backed_off++;
    } else {
        par->backoff = 0;
    }
    for (int s = 1; s < par->n; s++)
        queue_absorb(sim->queue, par->shard[s]->queue);
    sim->par_committing = TRUE;
    sim_par_commit_all(sim, par->shard, par->n);
    sim->par_committing = FALSE;
    return SIM_PAR_RAN;
}

int sim_par_tick(Sim *sim, QueueItem first)
{
    int r = par_tick(sim, first);
    /* the events the loop runs next are looked at only while the tick is
     * undecided (sim.c's sim_post and sim_event count them) */
    sim->par_probing = r == SIM_PAR_LATER;
    return r;
}
