/* sim_order.c -- the locality order (sim_set_order) and its checks.
 *
 * A unit of its own because what makes the order safe is one argument,
 * made here once; the marks it needs are set where reservations are
 * made (sim_order_touch, inline in sim_internal.h).
 */
#include "sim_internal.h"
#include "oom.h"

#include <stdarg.h>
#include <stdlib.h>

/* The locality order (sim_set_order).
 *
 * A tick's events run in the order of their nodes' addresses, which in a
 * big cube's far steps reads the nodes' states and channels in streams
 * where the contract's order (the order the previous steps completed)
 * reads them scattered. The run is the contract's own as long as no two
 * events of one tick depend on each other's order:
 *
 *  - Reservations. Two events of a tick that reserve on the same channel
 *    or port contend, and the earlier wins (oldest-first arbitration,
 *    sim.h). Every reservation marks its resource with the tick and the
 *    posting node (sim_order_touch); a second node's reservation in the same
 *    tick is a conflict (on a machine with faults, only where the
 *    contract's order runs it before the first: "Ranks" below). Reservations of one node's events keep their
 *    order: its items in a bucket keep their push order (the sort is
 *    stable), and only its own step pushes its deferred sends.
 *  - Deliveries. A receive is matched once, to the same message, in
 *    either order (keys are (destination, source, tag), and one source's
 *    messages are posted in its own order); what the order can change is
 *    which of two deliveries into one node lands last. That matters only
 *    where two of its receives overlap, which sim_order_recvs_overlap makes a
 *    conflict (a node's waiting receives are all its current step's).
 *  - The queue. Items pushed in a tick go to later ticks' buckets, which
 *    are sorted again; the order of two nodes' items matters only through
 *    the two cases above.
 *  - Everything else a tick's events share is summed (in integers, or in
 *    doubles of integers below 2^52: node_close_phase), or is the engine's
 *    own bookkeeping (which message is kept inline, whether a delivery is
 *    put off), where the data and times come out the same. Message ids
 *    and receive numbers differ, but only error messages and observers
 *    read them: observers that see messages keep the contract's order
 *    (sim_run), and a failed run is run again in it (run.c).
 *
 * A conflict stops the run with SIM_ERROR_ORDER; the caller runs it again
 * in the contract's order from the start (run/run.c). */

void sim_order_conflict(Sim *sim, const char *fmt, ...)
{
    if (sim->error)
        return;
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(&sim->error, SIM_ERROR, SIM_ERROR_ORDER,
                "tick %lld: %s: the locality order does not apply",
                (long long)sim->now, what);
}

typedef struct {
    size_t offset, count;
} Region;

static int region_cmp(const void *a, const void *b)
{
    const Region *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Do two of the receives the running step posted overlap? Programs
 * mostly post them in the order of their offsets (a set a link), which a
 * pass checks without a copy, a sort or an allocation. */
gboolean sim_order_recvs_overlap(const Sim *sim)
{
    uint32_t n = sim->nposted, k = 0;
    size_t end = 0;
    gboolean sorted = TRUE;
    for (uint32_t i = 0; i < n && sorted; i++) {
        const Recv *p = sim->posted[i];
        if (p->count == 0)
            continue;
        if (p->offset < end)
            sorted = FALSE;
        else
            end = p->offset + p->count;
    }
    if (sorted)
        return FALSE;
    g_autofree Region *r = EMU_NEW(Region, n, "the step's receive regions");
    for (uint32_t i = 0; i < n; i++)
        if (sim->posted[i]->count > 0)
            r[k++] = (Region){ sim->posted[i]->offset, sim->posted[i]->count };
    qsort(r, k, sizeof *r, region_cmp);
    for (uint32_t i = 1; i < k; i++)
        if (r[i].offset < r[i - 1].offset + r[i - 1].count)
            return TRUE;
    return FALSE;
}

void sim_set_order(Sim *sim, SimOrder order)
{
    sim->locality = order == SIM_ORDER_LOCALITY;
    if (sim->locality && sim->machine.faults && !sim->ranks)
        sim_ranks_new(sim);
    else if (!sim->locality)
        sim_ranks_free(sim);
    queue_set_by_node(sim->queue, sim->locality, sim->nodes);
    if (sim->locality && sim->send_port && !sim->port_mark)
        sim->port_mark = EMU_NEW0(uint64_t, 2 * (size_t)sim->nodes,
                                  "the ports' marks of the locality order");
    if (sim->locality && sim->mem_path && !sim->path_mark)
        sim->path_mark = EMU_NEW0(uint64_t, sim->nodes,
                                  "the memory paths' marks of the locality "
                                  "order");
}

gboolean sim_order_locality(const Sim *sim)
{
    return sim->locality;
}

/* ---- Ranks ----------------------------------------------------------------
 *
 * On a machine with faults, a message going around a dead link reserves
 * a channel that another node's message of its tick reserves too, where
 * the checks above stop the locality order at once. Yet the two events'
 * order matters only if the locality order runs them the other way round
 * from the contract's: the contract's run turns into the locality
 * order's by exchanging neighbouring events that are out of order, never
 * two that are in order, so the run is still the contract's as long as
 * every two events of a tick that both reserve one resource run in the
 * contract's order. That needs each event's rank in the contract's order
 * of its tick, which the engine keeps here, for the runs with faults.
 *
 * The contract's order of a tick is the order in which its items were
 * pushed (queue.h): by the place of the event that pushed each, then by
 * the push's place within that event. A node's step item is pushed by
 * the event that ends its step, in the contract's order the last of
 * those that do: its own step event (which pushes it after the pushes of
 * its sends: RANK_SELF), the events whose messages its receives take
 * (at the place of that send), and those that post its deferred sends.
 * Which events those are does not depend on the order (a receive takes
 * the same message in either), so the largest of their keys, gathered
 * as they run in any order (SimRanks.acc; an early message's kept with
 * it until its receive takes it, .early), is the key of the push in the
 * contract's run. A deferred send's item
 * takes the key of its send. Where the keys of a tick are known, sorting
 * them gives each event its rank (sim_ranks_event), and with the number
 * of events before the tick, the keys of the pushes it makes.
 *
 * What the ranks do not model is not guessed: more early messages for a
 * node than RANK_EARLY, or keys that do not fit, stop the locality order
 * as a conflict does. */

void sim_ranks_new(Sim *sim)
{
    SimRanks *r = EMU_NEW0(SimRanks, 1, "the contract's ranks");
    size_t n = sim->nodes;
    r->acc = EMU_NEW0(uint64_t, n, "the contract's ranks");
    r->early = EMU_NEW0(RankEarly, n * RANK_EARLY, "the contract's ranks");
    r->nearly = EMU_NEW0(uint8_t, n, "the contract's ranks");
    r->last = EMU_NEW0(uint64_t, n, "the contract's ranks");
    r->tick = -1;
    /* tick 0's items are queued in address order, each its own key */
    for (uint32_t x = 0; x < sim->nodes; x++)
        r->acc[x] = (uint64_t)x << RANK_SUB_BITS;
    sim->ranks = r;
}

void sim_ranks_free(Sim *sim)
{
    SimRanks *r = sim->ranks;
    if (!r)
        return;
    g_free(r->last);
    g_free(r->acc);
    g_free(r->early);
    g_free(r->nearly);
    g_free(r->order);
    g_free(r->sort);
    g_free(r->sort_tmp);
    g_free(r);
    sim->ranks = NULL;
}

void sim_ranks_early(Sim *sim, uint32_t x, uint32_t source, int tag,
                     uint64_t k)
{
    SimRanks *r = sim->ranks;
    if (r->nearly[x] == RANK_EARLY) {
        sim_order_conflict(sim, "more messages wait for node %u than the "
                           "contract's ranks keep", x);
        return;
    }
    r->early[(size_t)x * RANK_EARLY + r->nearly[x]++]
        = (RankEarly){ source, tag, k };
}

void sim_ranks_took(Sim *sim, uint32_t x, uint32_t source, int tag)
{
    SimRanks *r = sim->ranks;
    RankEarly *e = &r->early[(size_t)x * RANK_EARLY];
    uint32_t n = r->nearly[x];
    for (uint32_t i = 0; i < n; i++) {
        if (e[i].source != source || e[i].tag != tag)
            continue;
        sim_ranks_ends(r, x, e[i].key);
        memmove(&e[i], &e[i + 1], (n - i - 1) * sizeof *e);
        r->nearly[x]--;
        return;
    }
    sim_order_conflict(sim, "node %u took a message from node %u that the "
                       "contract's ranks did not see", x, source);
}

#define RANK_RADIX_BITS 11

static int bits_of(uint64_t v)
{
    return v ? 64 - __builtin_clzll(v) : 0;
}

/* The items of a new tick ranked in the contract's order: the keys made
 * dense (events' places less the smallest, times the pushes an event
 * made at most, plus the push's index, RANK_SELF last), with the item's
 * index in the low bits, sorted by an LSD radix sort over the key's bits
 * alone (stable, so the indices need no pass of their own); then
 * order[i] is the rank of the tick's i-th item as queue_pop returns
 * them. */
static void ranks_tick(Sim *sim, const QueueItem *item, size_t n)
{
    SimRanks *r = sim->ranks;
    if (r->sort_cap < n) {
        r->sort_cap = n;
        r->sort = EMU_RENEW(uint64_t, r->sort, n, "the contract's ranks");
        r->sort_tmp = EMU_RENEW(uint64_t, r->sort_tmp, n,
                                "the contract's ranks");
        r->order = EMU_RENEW(uint32_t, r->order, n, "the contract's ranks");
    }
    uint64_t *src = r->sort, *dst = r->sort_tmp;
    uint64_t lo = UINT64_MAX, hi = 0, subs = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t k = item[i].post ? ((const Post *)item[i].post)->rkey
                                  : r->acc[item[i].node];
        uint64_t place = k >> RANK_SUB_BITS, sub = k & RANK_SELF;
        src[i] = k;
        lo = MIN(lo, place);
        hi = MAX(hi, place);
        if (sub != RANK_SELF)
            subs = MAX(subs, sub + 1);
    }
    /* a key: (place - lo) * (subs + 1) + (sub, or subs for RANK_SELF) */
    int ibits = bits_of(n - 1);
    uint64_t span = hi - lo + 1;
    if (span > (UINT64_MAX >> ibits) / (subs + 1)
        || bits_of(span * (subs + 1) - 1) + ibits > 64) {
        sim_order_conflict(sim, "the tick's contract keys do not fit the "
                           "ranks' sort");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t k = src[i], sub = k & RANK_SELF;
        uint64_t dense = ((k >> RANK_SUB_BITS) - lo) * (subs + 1)
                         + (sub == RANK_SELF ? subs : sub);
        src[i] = dense << ibits | i;
    }
    int kbits = bits_of(span * (subs + 1) - 1);
    /* digits no wider than the items are many: a small tick's sort
     * costs its items, not a table of 2^RANK_RADIX_BITS counts */
    const int db = MAX(1, MIN(RANK_RADIX_BITS, ibits));
    for (int shift = ibits; shift < ibits + kbits; shift += db) {
        size_t start[(1u << RANK_RADIX_BITS) + 1];
        const uint64_t mask = ((uint64_t)1 << db) - 1;
        memset(start, 0, (((size_t)1 << db) + 1) * sizeof *start);
        for (size_t i = 0; i < n; i++)
            start[((src[i] >> shift) & mask) + 1]++;
        for (unsigned d = 0; d < (1u << db); d++)
            start[d + 1] += start[d];
        for (size_t i = 0; i < n; i++)
            dst[start[(src[i] >> shift) & mask]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    const uint64_t imask = ibits ? ((uint64_t)1 << ibits) - 1 : 0;
    for (size_t p = 0; p < n; p++) {
        /* two pushes of one key: the model is wrong somewhere */
        if (p > 0 && src[p] >> ibits == src[p - 1] >> ibits) {
            sim_order_conflict(sim, "two items of the tick have one "
                               "contract key");
            return;
        }
        r->order[src[p] & imask] = (uint32_t)p;
    }
}

void sim_ranks_tick(Sim *sim, Tick time, const QueueItem *item)
{
    SimRanks *r = sim->ranks;
    r->before += r->count;
    /* A new tick; or, in the tick running, the items queued into it by
     * the events ranked so far: the contract's order runs them after
     * those, in the order of their keys, as a tick of their own. */
    if (time != r->tick) {
        r->tick = time;
        r->tick_before = r->before;
    }
    size_t n;
    const QueueItem *rest = queue_popping_rest(sim->queue, &n);
    if (!rest) {
        rest = item;
        n = 1;
    }
    r->count = n;
    r->at = 0;
    if (r->before + n > RANK_PLACES
        || r->before - r->tick_before + n >= UINT32_MAX) {
        sim_order_conflict(sim, "more events than the contract's ranks "
                           "count");
        return;
    }
    ranks_tick(sim, rest, n);
}

uint64_t sim_order_ranked(const Sim *sim)
{
    return sim->ranks ? sim->ranks->resolved : 0;
}
