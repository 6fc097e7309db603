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
 *    tick is a conflict. Reservations of one node's events keep their
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
    if (sim->survey) {
        sim->surveyed.conflicts++;
        if (sim->survey_bad != sim->now) {
            sim->survey_bad = sim->now;
            sim->surveyed.ticks_conflicted++;
            if (sim->surveyed.first < 0)
                sim->surveyed.first = sim->now;
        }
        return;
    }
    if (sim->error)
        return;
    sim->order_stopped = sim->now;
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

/* The marks the checks need beyond the channels' own. */
static void order_marks(Sim *sim)
{
    if (sim->checks && sim->send_port && !sim->port_mark)
        sim->port_mark = EMU_NEW0(uint64_t, 2 * (size_t)sim->nodes,
                                  "the ports' marks of the locality order");
    if (sim->checks && sim->mem_path && !sim->path_mark)
        sim->path_mark = EMU_NEW0(uint64_t, sim->nodes,
                                  "the memory paths' marks of the locality "
                                  "order");
}

void sim_set_order(Sim *sim, SimOrder order)
{
    sim->order_from = -1;
    sim->locality = order == SIM_ORDER_LOCALITY;
    sim->checks = sim->locality;
    queue_set_by_node(sim->queue, sim->locality, sim->nodes);
    order_marks(sim);
}

/* Entering the locality order at a later tick. Its argument above is
 * about one tick at a time: given the state as a tick begins, its events
 * run in the order of their nodes do what they do in the contract's order
 * if the checks find nothing. The state a tick begins in may come from
 * either order; and the queue, which the contract's order keeps in the
 * order items were pushed, is sorted by node a bucket at a time as each
 * tick begins. So the switch may come between any two ticks, and the run
 * stays the contract's. Going back is not possible (the order in which
 * the contract would have pushed later ticks' items is gone), which is
 * why a conflict stops the run and it starts again (run/run.c). */
void sim_set_order_from(Sim *sim, Tick from)
{
    sim_set_order(sim, from <= 0 ? SIM_ORDER_LOCALITY : SIM_ORDER_CONTRACT);
    if (from > 0)
        sim->order_from = from;
}

gboolean sim_order_locality(const Sim *sim)
{
    return sim->locality;
}

Tick sim_order_stopped_at(const Sim *sim, gboolean *on_channel)
{
    *on_channel = sim->order_stopped >= 0 && sim->order_on_channel;
    return sim->order_stopped;
}

/* The survey (sim_set_survey). The checks are the locality order's own,
 * run at the same places on the contract's order of events: whether two
 * nodes' events of a tick reserve one resource, or deliver into
 * overlapping receives of one node, does not depend on the order they ran
 * in. Which tick a conflict is in does; a tick of the contract's run
 * counts as conflicted where its own events conflict, which is what the
 * locality order would find if it reached that tick in the same state.
 * It cannot tell how the run would go on after a tick it would stop at:
 * the shares it gives are of the contract's run. */
void sim_set_survey(Sim *sim, gboolean on)
{
    sim->survey_asked = on;
}

/* An operation-level program is not surveyed: its calls come at its
 * operations' completions, which the checks do not cover (sim_run). */
void sim_survey_start(Sim *sim)
{
    sim->survey = sim->survey_asked && !sim->locality && !sim->each
                  && sim->order_from < 0;
    sim->checks = sim->locality || sim->survey;
    order_marks(sim);
}

void sim_survey_close(Sim *sim)
{
    uint64_t n = sim->stats.events - sim->survey_from;
    if (n == 0)
        return;
    sim->surveyed.ticks++;
    sim->surveyed.events += n;
    if (sim->survey_bad == sim->now)
        sim->surveyed.events_conflicted += n;
    sim->survey_from = sim->stats.events;
}

SimSurveyCounts sim_survey_counts(const Sim *sim)
{
    return sim->surveyed;
}
