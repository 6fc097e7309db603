/* sim.c -- the discrete-event engine behind node.h: its core, the node
 * API, matching messages to receives, and the run loop. The engine's
 * other subsystems are units of their own around the same struct Sim
 * (sim_internal.h names them); these three stay together because an
 * event's path runs through all of them (a step's send is routed and
 * offered to its destination, a step's return matches its receives) and
 * the compiler inlines that path only within one unit.
 *
 * Events are node steps and deferred sends, popped in (tick, insertion)
 * order from queue.c: equal ticks run in the order they were scheduled,
 * so every run is reproducible byte for byte. Initially every node is
 * scheduled at tick 0 in address order.
 *
 * Invariants:
 *  - A node is in exactly one state: scheduled (one step event queued),
 *    running (inside its step function), waiting (receives not yet matched
 *    or sends not yet posted), or finished.
 *  - All reservations made so far belong to messages posted at or before
 *    sim->now; a new message is posted at sim->now, so it is younger than
 *    every reserved message and may only fill around them (oldest-first
 *    arbitration, see sim.h). A send issued at a later local clock (after
 *    local work) waits in the queue for its own tick.
 *  - A message is matched to a receive at most once; its payload is written
 *    into the receiver's memory at the moment of matching, which happens
 *    only while the receiver is not running, so a step never sees its own
 *    receives land. Matching is by (destination, source, tag) in match.c.
 *  - Channel state exists for every (node, link) of a dense topology (the
 *    cube, meshes) and only for channels in use on one with sparse links
 *    (the complete graph), where P^2 channels could not be allocated.
 *    With one port per direction the ports alone decide on every topology
 *    (a channel is only ever used by elements leaving its node, which the
 *    send port already serialises), so no channel timeline is consulted
 *    then.
 */
#include "sim_internal.h"
#include "kernel.h"
#include "nodecheck.h"
#include "oom.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK(sim-error-quark, sim_error)

Word *sim_node_memory(Sim *sim, uint32_t node)
{
    return sim_memory_at(sim, &sim->node[node], 0);
}

void sim_set_observer(Sim *sim, const SimObserver *observer, void *data)
{
    sim->observer = observer;
    sim->observer_data = data;
    sim->observe_ops = observer && observer->op;
}

Tick sim_test_now(const Sim *sim)
{
    return sim->now;
}

const SimStats *sim_stats(const Sim *sim)
{
    return &sim->stats;
}

/* ---- node API: queries ----------------------------------------------- */

uint32_t node_address(const Node *node) { return node->address; }
uint32_t node_count(const Node *node) { return node_sim(node)->nodes; }
int node_links(const Node *node) { return node_sim(node)->links; }
const char *node_topology(const Node *node) { return node_sim(node)->topo->ops->name; }
unsigned node_step(const Node *node) { return node->step; }
size_t node_memory_elements(const Node *node) { return node_sim(node)->memory_elements; }
size_t node_element_words(const Node *node) { return node_sim(node)->element_words; }

int node_alive(const Node *node, uint32_t x)
{
    return x < node_sim(node)->nodes
           && !faults_node_dead(node_sim(node)->machine.faults, x);
}

uint32_t node_neighbour(const Node *node, int link)
{
    const Sim *sim = node_sim(node);
    if (link < 0 || link >= sim->links)
        return NODE_NONE;
    uint32_t v = topology_neighbour(sim->topo, node->address, link);
    return v == TOPOLOGY_NONE ? NODE_NONE : v;
}

Word *node_memory(Node *node)
{
    return sim_memory_at(node_sim(node), node, 0);
}

void *node_local(Node *node)
{
    Sim *sim = node_sim(node);
    return sim->local ? sim->local + (size_t)node->address * sim->local_size
                      : NULL;
}

/* Where a misuse is recorded (node_fail, nodecheck.h): the run's error,
 * first misuse only; the run stops after the current step. Outside its
 * step call a node's counter already names the next step. */
NodeFault node_fault(Node *node)
{
    Sim *sim = node_sim(node);
    return (NodeFault){ &sim->error, SIM_ERROR, SIM_ERROR_PROGRAM,
                        node == sim->running ? node->step : node->step - 1 };
}

/* ---- matching -------------------------------------------------------- */

static void node_close_phase(Sim *sim, Node *node, Tick end);

/* Every receive and deferred send of the node's last step has completed. */
static void node_after_wait(Sim *sim, Node *node)
{
    if (node->returned_done) {
        sim->nodes_done++;
        if (sim->stats.phases)
            node_close_phase(sim, node, node->wait_until);
        if (node->wait_until > sim->stats.cycles)
            sim->stats.cycles = node->wait_until;
    } else {
        sim_push(sim, node->wait_until,
                   (QueueItem){ node->address, NULL });
    }
}

/* The running node's program posted an operation: tell the observer
 * that records them, if there is one. */
static inline void observe_op(Sim *sim, const Node *node, SimOpKind kind,
                              uint32_t peer, int tag, uint64_t count,
                              Tick ticks, int hops, const int *path)
{
    if (G_LIKELY(!sim->observe_ops))
        return;
    SimOp op = { kind, node->address, node->step, peer, tag, count, ticks,
                 hops, path };
    sim->observer->op(sim->observer_data, &op);
}

/* ---- operation-level programs (node.h; Sim.each) --------------------- */

/* Queue a call of node x at tick `at`, or at the end of its local work if
 * later, unless one is queued for that tick already. */
static void each_queue_call(Sim *sim, uint32_t x, Tick at)
{
    NodeEach *e = &sim->each[x];
    if (at < e->busy_until)
        at = e->busy_until;
    g_assert(at >= sim->now);   /* a completion is never known after it */
    if (e->called == at)
        return;
    e->called = at;
    sim_push(sim, at, (QueueItem){ x, NULL });
}

/* Operation op of node completes at tick `at`, now known: reported by
 * the call at that tick; the node finishes once it returned NODE_DONE
 * and every operation's completion is known. */
static void each_known(Sim *sim, Node *node, NodeOp op, Tick at,
                       gboolean was_unknown)
{
    NodeEach *e = &sim->each[node->address];
    if (e->nknown == e->capknown) {
        e->capknown = e->capknown ? 2 * e->capknown : 4;
        e->known = EMU_RENEW(EachDone, e->known, e->capknown,
                             "a node's operations");
    }
    e->known[e->nknown++] = (EachDone){ op, at };
    if (was_unknown)
        e->unknown--;
    if (at > node->wait_until)
        node->wait_until = at;
    if (e->any && !node->returned_done)
        each_queue_call(sim, node->address, at);
}

/* Everything node x has outstanding is known (nrecv and deferred 0):
 * where a program of steps would have its step end (node_after_wait), an
 * operation-level one finishes if it returned NODE_DONE, and after
 * NODE_CONTINUE gets its call queued there, at the same point in the
 * order of events; after NODE_ANY its calls are queued as completions
 * become known (each_known). */
static void each_settled(Sim *sim, Node *node)
{
    if (node->returned_done) {
        node_after_wait(sim, node);
    } else if (!sim->each[node->address].any) {
        sim_push(sim, node->wait_until,
                   (QueueItem){ node->address, SIM_EACH_ALL });
    }
}

/* A new operation of the running node, whose completion is not known
 * yet: its handle. */
static NodeOp each_new_op(Sim *sim, Node *node)
{
    NodeEach *e = &sim->each[node->address];
    e->unknown++;
    return e->next_op++;
}

NodeOp node_last_op(const Node *node)
{
    const Sim *sim = node_sim(node);
    return sim->each ? sim->each[node->address].next_op - 1 : 0;
}

size_t node_completed(Node *node, NodeOp *ops, size_t max)
{
    Sim *sim = node_sim(node);
    if (!sim->each || node != sim->running)
        return 0;
    size_t n = MIN(max, (size_t)(sim->nreport - sim->reported));
    if (n)
        memcpy(ops, sim->report + sim->reported, n * sizeof *ops);
    sim->reported += (uint32_t)n;
    return n;
}

/* A node's completions are sorted at each call of its program; a replay's
 * rank has thousands outstanding (an all-to-all's), and qsort's call a
 * comparison was a large part of such a run. Below OPS_INSERTION of them
 * (most calls report one or two) a sort by insertion; else passes of
 * OPS_RADIX_BITS over the handles, least significant first: a node's
 * handles count from 0 (each_new_op), so the passes stop at the largest
 * one's top digit. */
#define OPS_INSERTION 32
#define OPS_RADIX_BITS 8
#define OPS_RADIX (1u << OPS_RADIX_BITS)

/* OPS[0 .. n) sorted, each below `limit`, through TMP (room for n);
 * returns where the sorted handles are, OPS or TMP. */
static NodeOp *ops_sort(NodeOp *ops, NodeOp *tmp, uint32_t n, NodeOp limit)
{
    if (n <= OPS_INSERTION) {
        for (uint32_t i = 1; i < n; i++) {
            NodeOp x = ops[i];
            uint32_t j = i;
            for (; j > 0 && ops[j - 1] > x; j--)
                ops[j] = ops[j - 1];
            ops[j] = x;
        }
        return ops;
    }
    for (unsigned shift = 0; shift < 32 && (limit - 1) >> shift != 0;
         shift += OPS_RADIX_BITS) {
        uint32_t at[OPS_RADIX] = { 0 };
        for (uint32_t i = 0; i < n; i++)
            at[(ops[i] >> shift) & (OPS_RADIX - 1)]++;
        for (uint32_t d = 0, sum = 0; d < OPS_RADIX; d++) {
            uint32_t c = at[d];
            at[d] = sum;
            sum += c;
        }
        for (uint32_t i = 0; i < n; i++)
            tmp[at[(ops[i] >> shift) & (OPS_RADIX - 1)]++] = ops[i];
        NodeOp *t = ops;
        ops = tmp;
        tmp = t;
    }
    return ops;
}

/* A call of node at tick `time` was popped (ALL: the one that ends a
 * wait for everything): whether to run the program, with the operations
 * completed by then in sim->report. FALSE for a call to put off to the
 * end of the node's local work, for a stale one, and for one with
 * nothing to report (its completions went to an earlier call of the same
 * tick), but for the first and one that ends a wait. */
static gboolean each_call_due(Sim *sim, Node *node, Tick time,
                              gboolean all)
{
    NodeEach *e = &sim->each[node->address];
    if (!all && e->called == time)
        e->called = -1;
    /* a plain call queued before the program returned NODE_CONTINUE is
     * stale: its completions go to the call that ends the wait */
    if (node->returned_done || (node->step > 0 && !all && !e->any))
        return FALSE;
    if (time < e->busy_until) {
        each_queue_call(sim, node->address, e->busy_until);
        return FALSE;
    }
    if (sim->capreport < e->nknown) {
        sim->capreport = e->nknown;
        sim->report = EMU_RENEW(NodeOp, sim->report, sim->capreport,
                                "a node's completed operations");
        sim->report_tmp = EMU_RENEW(NodeOp, sim->report_tmp, sim->capreport,
                                    "a node's completed operations");
    }
    uint32_t kept = 0;
    sim->nreport = sim->reported = 0;
    for (uint32_t i = 0; i < e->nknown; i++) {
        if (e->known[i].at <= time)
            sim->report[sim->nreport++] = e->known[i].op;
        else
            e->known[kept++] = e->known[i];
    }
    e->nknown = kept;
    if (sim->nreport == 0 && node->step > 0 && !all)
        return FALSE;
    if (sim->nreport > 1) {       /* report is NULL until an op is known */
        NodeOp *sorted = ops_sort(sim->report, sim->report_tmp, sim->nreport,
                                  e->next_op);
        if (sorted != sim->report) {
            sim->report_tmp = sim->report;
            sim->report = sorted;
        }
    }
    return TRUE;
}

/* After a call of node returned: done once it finished, or a program
 * error if it waits for nothing. */
static void each_after_call(Sim *sim, Node *node, NodeStatus status)
{
    NodeEach *e = &sim->each[node->address];
    e->any = status == NODE_ANY;
    if (e->any && e->unknown == 0 && e->nknown == 0) {
        node_fail(node, "returned NODE_ANY with no operation outstanding: "
                  "nothing would call it again");
        return;
    }
    /* completions that became known during the call (or before, while it
     * waited for everything) get their calls now */
    if (e->any)
        for (uint32_t i = 0; i < e->nknown; i++)
            each_queue_call(sim, node->address, e->known[i].at);
    if (node->nrecv == 0 && node->deferred == 0)
        each_settled(sim, node);
}

/* Write a message's payload into the receive r of node (not running). */
static gboolean node_deliver(Sim *sim, Node *node, const Recv *r,
                             uint32_t source, int tag, size_t count,
                             Tick arrival, const Word *data)
{
    sim->stats.events++;
    sim->deferring = FALSE;
    if (!node_checked(node, nodecheck_count(count, source, tag, r->count)))
        return FALSE;
    size_t w = sim->element_words;
    sim_pending_settle(sim, node);
    if (node->lazy)
        sim_lazy_protect(sim, node, r->offset, r->count);
    memcpy(sim_memory_at(sim, node, r->offset), data,
           count * w * sizeof(Word));
    if (sim->each)
        each_known(sim, node, r->op, MAX(arrival, r->posted), TRUE);
    else if (arrival > node->wait_until)
        node->wait_until = arrival;
    return TRUE;
}

/* The payload `data`, or where NULL names it: at `offset` of the
 * sender's memory. */
static const Word *offer_data(Sim *sim, const Node *sender, const Word *data,
                              size_t offset)
{
    return data ? data : sim_memory_at(sim, sender, offset);
}

/* The receive a slot of the table holds itself (recv_wait), taken out of
 * it: the slot is left empty, as a list whose one item was popped. */
static Recv recv_held(MatchSlot *slot)
{
    Recv r = { .item = { NULL, slot->held.seq }, .source = slot->source,
               .tag = slot->tag, .offset = slot->held.offset,
               .count = slot->held.count };
    slot->used &= ~MATCH_HELD_RECV;
    slot->head = slot->tail = NULL;
    return r;
}

/* The same receive given a struct of its own, the first of the slot's
 * list, for a second item of the key to follow it. */
static void recv_unhold(Sim *sim, MatchSlot *slot)
{
    Recv *r = sim_recv_new(sim);
    *r = recv_held(slot);
    match_push(slot, 0, &r->item);
}

/* A lazy message from sender that finds no receive waiting in slot, a key
 * of dest: kept in dest's state if the slot is dest's own and no other
 * message waits there (the id in match.owner_word, the rest in karrival,
 * koffset, kcount, all in the line of dest's state the sender writes
 * anyway; MATCH_KEPT_MSG in the slot), and sender->lazy names dest. The
 * receive that takes it then reads no line of a struct of its own, and
 * no slab grows for messages that wait across a far step. Else FALSE. */
static gboolean msg_keep(Sim *sim, Node *dest, MatchSlot *slot, Node *sender,
                         uint64_t id, size_t count, Tick arrival,
                         size_t offset)
{
    if (slot != &dest->match.slot || slot->head
        || (slot->used & MATCH_KEPT_MSG) || count >= sim->keep_below
        || id > UINT32_MAX || offset > UINT32_MAX)
        return FALSE;
    slot->used |= MATCH_KEPT_MSG;
    dest->match.owner_word = (uint32_t)id;
    dest->karrival = arrival;
    dest->koffset = (uint32_t)offset;
    dest->kcount = (uint32_t)count;
    sender->lazy = sim_lazy_kept_tag(dest);
    sim_lazy_begin(sim, sender, dest);
    sim->early++;
    return TRUE;
}

/* A message has been posted for `dest`: match it with the first waiting
 * receive from the same (source, tag) and write it straight from `data`,
 * or keep it early: a lazy one (an exchange's) in dest's state if it can
 * (msg_keep), else in the key's list: in `owned` if given, else lazily,
 * else in a copy. `data` NULL: the payload is at
 * `offset` of the sender's memory, looked up only if it is read now. */
static void node_offer(Sim *sim, Node *dest, Node *sender, int tag,
                       uint64_t id, size_t count, Tick arrival,
                       const Word *data, Msg *owned, gboolean lazy,
                       size_t offset)
{
    uint32_t source = sender->address;
#ifdef SIM_CHECK_EXCHANGE
    if (lazy) {
        SentCheck c = { offset, count, tag,
                        g_memdup2(offer_data(sim, sender, data, offset),
                                  count * sim->element_words
                                      * sizeof(Word)) };
        g_array_append_val(sim->sent_checks, c);
    }
#endif
    MatchSlot *slot = match_slot(&sim->match, &dest->match,
                                 (uint32_t)(dest - sim->node), source, tag);
    if ((dest != sim->running || sim->each)
        && (match_recvs(slot)
            || (slot->used & (MATCH_KEPT_RECV | MATCH_HELD_RECV)))) {
        Recv inl, *r;
        gboolean kept = (slot->used & (MATCH_KEPT_RECV | MATCH_HELD_RECV)) != 0;
        if (slot->used & MATCH_KEPT_RECV) {  /* the oldest, if there is one */
            inl = (Recv){ .item = { NULL, dest->rseq }, .source = source,
                          .tag = tag, .offset = dest->roffset,
                          .count = dest->rcount };
            slot->used &= ~MATCH_KEPT_RECV;
            r = &inl;
        } else if (kept) {      /* the only one, held in the table's slot */
            inl = recv_held(slot);
            r = &inl;
        } else {
            r = (Recv *)match_pop(slot, 0);
        }
        match_release(&sim->match, &dest->match, slot);
        dest->nrecv--;
        gboolean ok = TRUE;
        if (lazy && sim_pending_can(sim, dest, sender, r, count, offset))
            sim_pending_note(sim, dest, sender, r, offset, arrival);
        else
            ok = node_deliver(sim, dest, r, source, tag, count, arrival,
                              offer_data(sim, sender, data, offset));
        if (!kept)
            sim_recv_free(sim, r);
        if (owned)
            sim_msg_free(sim, owned);
        if (ok && dest->nrecv == 0 && dest->deferred == 0) {
            /* A shard's message delivered at the commit, later than the
             * locality order would: its destination's next step must
             * not fall in this tick, where its place would differ. */
            if (G_UNLIKELY(sim->par_committing)
                && dest->wait_until <= sim->now && !dest->returned_done)
                sim_order_conflict(sim, "node %u's message completed node "
                                   "%u's wait in its own tick across the "
                                   "threads' split", source, dest->address);
            if (sim->each)
                each_settled(sim, dest);
            else
                node_after_wait(sim, dest);
        }
        return;
    }
    /* No slot of the table holds a receive here: the branch above takes a
     * held one, unless dest is the running node, which has none waiting
     * (a step runs once all its node's receives are matched, and its own
     * are matched after it returns). */
    Msg *m = owned;
    /* At most one lazy message per sender: every write into a node's
     * memory checks its lazy messages, and a list of them (15 concurrent
     * exchanges a step in gray-to-binary's concurrent method) would cost
     * a cache miss each on every delivery (docs/performance.md, "Exchanges
     * keep their payload in place"). */
    if (!m && lazy && !sender->lazy
        && !(G_UNLIKELY(sim->par != NULL)
             && sim_par_cross(sim, source, (uint32_t)(dest - sim->node)))) {
        if (msg_keep(sim, dest, slot, sender, id, count, arrival, offset))
            return;
        m = sim_msg_new(sim, count, FALSE);
        m->lazy = sender;
        m->offset = offset;
        sender->lazy = m;
        sim_lazy_begin(sim, sender, dest);
    } else if (!m) {
        m = sim_msg_new(sim, count, TRUE);
        memcpy(sim_msg_buf(m), offer_data(sim, sender, data, offset),
               count * sim->element_words * sizeof(Word));
    }
    m->item.seq = id;
    m->arrival = arrival;
    match_push(slot, MATCH_MSGS, &m->item);
    sim->early++;
}

/* Message m has been delivered: freed, or if it was kept in its
 * destination's state (taken as a Msg on the stack), released. */
static inline void msg_done(Sim *sim, Msg *m, gboolean kept)
{
    if (kept)
        sim_msg_release(sim, m);
    else
        sim_msg_free(sim, m);
}

/* Receive r waits in slot, a key of node: in the node's own slot, when
 * no other receive waits there, it is kept in the node's first line
 * (rseq, roffset, rcount; MATCH_KEPT_RECV in the slot, which the
 * sender reads anyway) and its struct goes back at once; else at the end
 * of the slot's list, after the one kept, if any. The message that takes
 * it then reads the first line of the receiver's state, which it
 * completes anyway, and no line of a struct of its own; and no slab
 * grows for receives that wait across a far step. */
static inline __attribute__((always_inline)) void
recv_wait(Sim *sim, Node *node, MatchSlot *slot, Recv *r)
{
    gboolean fits = r->count < sim->keep_below && r->offset <= UINT32_MAX;
    if (slot == &node->match.slot) {
        if (fits && !slot->head && !(slot->used & MATCH_KEPT_RECV)) {
            slot->used |= MATCH_KEPT_RECV;
            node->rseq = r->item.seq;
            node->roffset = (uint32_t)r->offset;
            node->rcount = (uint32_t)r->count;
            sim_recv_free(sim, r);
            return;
        }
    } else if (slot->used & MATCH_HELD_RECV) {
        recv_unhold(sim, slot);
    } else if (fits && !slot->head) {
        slot->used |= MATCH_HELD_RECV;
        slot->held.seq = r->item.seq;
        slot->held.offset = (uint32_t)r->offset;
        slot->held.count = (uint32_t)r->count;
        sim_recv_free(sim, r);
        return;
    }
    match_push(slot, 0, &r->item);
}

/* How many receives ahead node_match_posted asks for a key's line. */
#define POSTED_AHEAD 8

/* After a step returned: match its receives, in posting order, against
 * early messages; the rest wait. */
static inline __attribute__((always_inline)) void
node_match_posted(Sim *sim, Node *node)
{
    if (sim->checks && sim->nposted > 1 && sim_order_recvs_overlap(sim))
        sim_order_conflict(sim, "node %u posted overlapping receives",
                           node->address);
    for (uint32_t i = 0; i < sim->nposted; i++) {
        Recv *r = sim->posted[i];
        /* A step that posts many receives (an all-to-all's) finds their
         * keys in the table, each a miss: ask for a later one's line. */
        if (i + POSTED_AHEAD < sim->nposted) {
            const Recv *a = sim->posted[i + POSTED_AHEAD];
            match_prefetch(&sim->match, node->address, a->source, a->tag);
        }
        MatchSlot *slot = match_slot(&sim->match, &node->match, node->address,
                                     r->source, r->tag);
        Msg kept, *m;
        gboolean is_kept = (slot->used & MATCH_KEPT_MSG) != 0;
        if (is_kept) {          /* the oldest (msg_keep) */
            /* Taken, it is a Msg out of every list, as a popped one is,
             * and its sender's lazy message until msg_done: a write into
             * the sender's memory before the delivery reads it (a note
             * carried out by sim_pending_settle) copies it out of there, into
             * a buffer msg_done gives back. */
            kept = sim_kept_msg(sim, node);
            kept.lazy->lazy = &kept;
            slot->used &= ~MATCH_KEPT_MSG;
            m = &kept;
        } else if (!(m = (Msg *)match_pop(slot, MATCH_MSGS))) {
            recv_wait(sim, node, slot, r);
            node->nrecv++;
            continue;
        }
        match_release(&sim->match, &node->match, slot);
        sim->early--;
        Pending *p = sim_pending_of(sim, node);
        if (p && sim_pending_swap(sim, node, p, m, r)) {
            msg_done(sim, m, is_kept);
            sim_recv_free(sim, r);
            /* Two whole memories: swapping their block numbers costs two
             * words of the two nodes' states, in cache now; in the batch
             * it would cost a sort and a pass over the notes, a large
             * share of the far steps. Nothing can tell the difference:
             * the pair's memories are the note's alone until the batch,
             * and a read or a write before it would settle it first. */
            if (sim_pending_relabels(sim, p))
                sim_pending_run(sim, p);
            continue;
        }
        if (p)                  /* before reading m's data: it may be a's */
            sim_pending_settle(sim, node);
        gboolean ok = node_deliver(sim, node, r, r->source, r->tag, m->count,
                                   m->arrival, sim_msg_data(sim, m));
        msg_done(sim, m, is_kept);
        sim_recv_free(sim, r);
        if (!ok) {
            for (uint32_t j = i + 1; j < sim->nposted; j++)
                sim_recv_free(sim, sim->posted[j]);
            break;
        }
    }
    sim->nposted = 0;
}

void sim_set_keep(Sim *sim, gboolean keep)
{
    /* an operation-level program's receives carry their handles */
    sim->keep_below = keep && !sim->each ? (uint64_t)1 << 32 : 0;
}

/* ---- node API: operations -------------------------------------------- */

static void node_prefetch(const Node *node)
{
    EMU_PREFETCH(node);
    EMU_PREFETCH((const char *)node + sizeof *node - 1);
}

/* The line of a node's state that a message touches when no receive
 * waits for it (struct Node). */
static void node_prefetch_match(const Node *node)
{
    EMU_PREFETCH(&node->match);
}

static inline void sim_message(Sim *sim, SimMessage *info, uint32_t source,
                               uint32_t dest, int tag, size_t count,
                               MessageClass cls, gboolean detoured)
{
    *info = (SimMessage){ sim->stats.messages++, source, dest, tag, count,
                          sim->now, cls,
                          machine_price(&sim->machine, cls)->element_time,
                          detoured };
    sim->stats.elements_sent += count;
    sim->stats.class_messages[cls]++;
    sim->stats.class_elements[cls] += count;
}

/* ---- a shard's sends (the parallel tick, sim_parallel.c) ------------- */

/* Can a shard post this message itself? Only where all it touches is its
 * own: one hop over a link whose array exists (the channel is its
 * sender's) or none, to a destination of the shard whose key is in its
 * own slot (the match table is everyone's); and only if no earlier send
 * of the node in this tick was put off, for a node's reservations keep
 * its order. */
static inline gboolean par_post_local(const Sim *sim, const Node *node,
                                      uint32_t dest, int tag, int hops)
{
    if (hops > 1)
        return FALSE;
    const MatchLocal *l = &sim->node[dest].match;
    return l->slot.used ? l->slot.source == node->address && l->slot.tag == tag
                        : l->in_table == 0;
}

static inline gboolean par_post_here(const Sim *sim, const Node *node,
                                     uint32_t dest, int tag, const int *path,
                                     int hops)
{
    return !sim->par_deferring && sim_par_mine(sim, dest)
           && (hops == 0 || sim->link_ch[path[0]].ch)
           && par_post_local(sim, node, dest, tag, hops);
}

/* A send put off, its payload captured: `owned`'s, or a copy of `data`
 * (NULL: at `offset` of the node's memory), which the program may change
 * after. Its node waits for it (deferred). */
static Post *post_new(Sim *sim, Node *node, uint32_t dest, int tag,
                      size_t count, MessageClass cls, const int *path,
                      int hops, gboolean detoured, const Word *data,
                      Msg *owned, size_t offset, NodeOp op)
{
    Post *post = emu_alloc(1, sizeof(Post) + (size_t)hops * sizeof(int),
                           "a deferred send");
    post->msg = owned;
    if (!owned) {
        post->msg = sim_msg_new(sim, count, TRUE);
        memcpy(sim_msg_buf(post->msg),
               data ? data : sim_memory_at(sim, node, offset),
               count * sim->element_words * sizeof(Word));
    }
    post->dest = dest;
    post->tag = tag;
    post->cls = cls;
    post->op = op;
    post->hops = hops;
    post->detoured = detoured;
    if (hops > 0)       /* a path of no hops may be NULL */
        memcpy(post->path, path, (size_t)hops * sizeof *path);
    node->deferred++;
    return post;
}

/* Else the send is put off to the commit, as a send deferred to a later
 * tick is (sim_send). */
static G_GNUC_NO_INLINE void
par_post_later(Sim *sim, Node *node, uint32_t dest, int tag, size_t count,
               MessageClass cls, const int *path, int hops, gboolean detoured,
               const Word *data, Msg *owned, size_t offset, NodeOp op)
{
    Post *post = post_new(sim, node, dest, tag, count, cls, path, hops,
                          detoured, data, owned, offset, op);
    sim->par_deferring = TRUE;
    sim->par_defer_node = node->address;
    sim_par_log(sim, PAR_POST, node->address, 0, post, 0);
}

/* Reserve the route of a message posted now by `node` and offer it to
 * dest. The payload is owned->data, or at `offset` of the sender's memory
 * (data NULL). */
static void sim_post(Sim *sim, Node *node, uint32_t dest, int tag,
                     size_t count, MessageClass cls, const int *path, int hops,
                     gboolean detoured, const Word *data, Msg *owned,
                     gboolean lazy, size_t offset, NodeOp op)
{
    if (G_UNLIKELY(sim->par_any)) {
        if (!sim->par_active) {
            /* a tick's events before it splits, seen (sim_par_tick) */
            if (!sim->par_probing)
                goto post;
            sim->par_probe_ops++;
            sim->par_probe_far += !par_post_local(sim, node, dest, tag, hops);
        } else if (!par_post_here(sim, node, dest, tag, path, hops)) {
            par_post_later(sim, node, dest, tag, count, cls, path, hops,
                           detoured, data, owned, offset, op);
            return;
        }
    }
post:;
    SimMessage info;
    sim_message(sim, &info, node->address, dest, tag, count, cls, detoured);
    Tick left = sim->now, arrival = sim->now;
    /* A local copy, or an empty message: no channel time, no startup. */
    if (hops > 0 && count > 0)
        arrival = sim_route(sim, &info, path, hops, &left);
    if (sim->each)
        each_known(sim, node, op, left, TRUE);
    else if (left > node->wait_until)
        node->wait_until = left;
    node_offer(sim, &sim->node[dest], node, tag, info.id, count, arrival,
               data, owned, lazy, offset);
}

#ifdef SIM_CHECK_EXCHANGE
static void peek_check_send(Sim *sim, Node *node, uint32_t dest,
                            const int *path, int hops);
#endif

/* Post now, or defer to the node's clock if local work moved it ahead.
 * Inline in its three callers (node_exchange, node_send_path,
 * node_send_to): as a call it passed ten arguments, four on the stack,
 * and saved and restored six registers once a message, only to pass
 * them on to sim_post. `detoured`: the path goes around a fault (for
 * observers). */
static inline __attribute__((always_inline)) void
sim_send(Sim *sim, Node *node, uint32_t dest, int tag, size_t offset,
         size_t count, MessageClass cls, const int *path, int hops,
         gboolean detoured, gboolean lazy, NodeOp op)
{
#ifdef SIM_CHECK_EXCHANGE
    peek_check_send(sim, node, dest, path, hops);
#endif
    /* The destination's state is needed after the route is reserved and
     * is far away in a big machine (a cube dimension's partner): start
     * loading it now, or its first read is a miss that sim_post waits
     * for. Its second line only: the first is needed
     * where a receive waits, and the read ahead loaded it then
     * (sim_prefetch_ahead). And the line of the match table where the
     * key's probe starts, which a destination with more than one key
     * outstanding keeps there (matmul's four shifts, gray-to-binary's
     * concurrent sets): once the table hashes whole keys it is a miss
     * anywhere in megabytes. */
    node_prefetch_match(&sim->node[dest]);
    match_prefetch(&sim->match, dest, node->address, tag);
    if (hops > 0 && sim->link_ch) {
        /* and the first hop's channel: its timeline and its count */
        const LinkChannels *lc = &sim->link_ch[path[0]];
        if (lc->ch && !sim->channels_implied)
            EMU_PREFETCH(&lc->ch[node->address]);
        else if (lc->col)
            EMU_PREFETCH(&lc->col[node->address]);
    }
    if (hops > 0 && (unsigned)path[0] < 64) {
        /* the read ahead's guess for the nodes after this one */
        uint64_t bit = (uint64_t)1 << path[0];
        SentLinks *now = &sim->sent;
        if (sim->sent_stale) {          /* the step's first send */
            sim->sent_stale = FALSE;
            sim->sent_tick = sim->now;
            now->links = now->far = 0;
        }
        if (!(now->links & bit)) {
            now->links |= bit;
            now->tag[path[0]] = tag;
            if (hops > 1)
                now->far |= bit;
        }
    }
    if (!node_check_run(node, "send", offset, count))
        return;
    if (sim->clock > sim->now) {
        Post *post = post_new(sim, node, dest, tag, count, cls, path, hops,
                              detoured, NULL, NULL, offset, op);
        sim_push(sim, sim->clock, (QueueItem){ node->address, post });
        return;
    }
    sim_post(sim, node, dest, tag, count, cls, path, hops, detoured, NULL, NULL,
             lazy, offset, op);
}

/* One link: a neighbour message; several, or the default route: router,
 * where the topology prices the router apart. */
/* A send's handle: an operation-level program's send gets it before
 * sim_send, so that a send refused there still counts (the run stops
 * anyway); a program of steps has none. */
static inline NodeOp send_op(Sim *sim, Node *node)
{
    return sim->each ? each_new_op(sim, node) : 0;
}

static MessageClass sim_class(const Sim *sim, int hops, gboolean routed)
{
    if ((routed || hops != 1) && topology_has_class(sim->topo->ops, CLASS_ROUTER))
        return CLASS_ROUTER;
    return CLASS_NEIGHBOUR;
}

/* ---- faults (machines/faults.h) ------------------------------------- */

/* A message to or from a dead node: the run fails, naming it. */
static gboolean fault_dead_peer(Node *node, const char *op, uint32_t peer)
{
    if (!faults_node_dead(node_sim(node)->machine.faults, peer))
        return FALSE;
    node_fail(node, "%s node %" PRIu32 ", which is dead (machine.faults): "
              "a program on a machine with dead nodes asks which live "
              "first (node_alive; cubemu_node_alive in the SDK)", op, peer);
    return TRUE;
}

/* Count a message that took `hops` links where `asked` were asked, over
 * a path other than the one asked. */
static void fault_count(Sim *sim, int hops, int asked)
{
    sim->stats.detoured++;
    uint64_t extra = hops > asked ? (uint64_t)(hops - asked) : 0;
    sim->stats.extra_hops += extra;
    if (extra > sim->stats.extra_hops_max)
        sim->stats.extra_hops_max = extra;
}

/* The route around faults from the node to dest at the node's clock,
 * in sim->detour. */
static int fault_route(Sim *sim, const Node *node, uint32_t dest)
{
    FaultRouteKind kind;
    int hops = faults_route(sim->machine.faults, node->address, dest,
                            sim->clock, &sim->detour, &sim->detour_cap,
                            &kind);
    if (kind == FAULT_ROUTE_SHORTEST)
        sim->stats.routes_given_up++;
    return hops;
}

/* An explicit path on a machine with faults: itself if no fault blocks
 * it at the node's clock; else the route around (counted), or NULL with
 * the run failed under fault-policy = refuse. */
static const int *fault_path(Sim *sim, Node *node, uint32_t dest,
                             const int *path, int *hops)
{
    const Faults *f = sim->machine.faults;
    uint32_t at;
    int h = faults_blocked_hop(f, node->address, path, *hops, sim->clock,
                               &at);
    if (h < 0)
        return path;
    if (fault_dead_peer(node, "sends to", dest))
        return NULL;
    if (sim->machine.fault_policy == FAULTS_REFUSE) {
        char link[TOPOLOGY_LINK_NAME_MAX];
        topology_link_name(sim->topo, path[h], link, sizeof link);
        uint32_t next = topology_neighbour(sim->topo, at, path[h]);
        node_fail(node, "sends to node %" PRIu32 " across %s from node %"
                  PRIu32 " to node %" PRIu32 ", which %s at tick %" PRId64
                  " (machine.faults; fault-policy = refuse)", dest, link, at,
                  next, faults_node_dead(f, next) ? "is a dead node"
                                                  : "is a dead link",
                  (int64_t)sim->clock);
        return NULL;
    }
    int asked = *hops;
    *hops = fault_route(sim, node, dest);
    fault_count(sim, *hops, asked);
    return sim->detour;
}

static void node_send_path(Node *node, const int *path, int hops,
                           size_t offset, size_t count, int tag)
{
    Sim *sim = node_sim(node);
    if (sim->error)
        return;
    uint32_t dest;
    if (!node_checked(node, nodecheck_path(sim->topo, node->address, path,
                                           hops, &dest)))
        return;
    observe_op(sim, node, SIM_OP_SEND, dest, tag, count, 0, hops, path);
    MessageClass cls = sim_class(sim, hops, FALSE);
    const int *asked = path;
    if (G_UNLIKELY(sim->machine.faults)
        && !(hops == 1 && sim_fault_hop_clear(sim, node->address))
        && !(path = fault_path(sim, node, dest, path, &hops)))
        return;
    sim_send(sim, node, dest, tag, offset, count, cls, path, hops,
             path != asked, FALSE, send_op(sim, node));
}

void node_send(Node *node, const int *path, int hops, size_t offset,
               size_t count, int tag)
{
    node_send_path(node, path, hops, offset, count, tag);
}

void node_send_to(Node *node, uint32_t dest, size_t offset, size_t count,
                  int tag)
{
    Sim *sim = node_sim(node);
    if (sim->error)
        return;
    if (!node_checked(node, nodecheck_node("send to", dest, sim->nodes)))
        return;
    int hops = topology_route(sim->topo, node->address, dest, sim->route);
    observe_op(sim, node, SIM_OP_SEND, dest, tag, count, 0, -1, NULL);
    const int *path = sim->route;
    gboolean detoured = FALSE;
    if (G_UNLIKELY(sim->machine.faults)) {
        if (fault_dead_peer(node, "sends to", dest))
            return;
        int asked = hops;
        hops = fault_route(sim, node, dest);
        path = sim->detour;
        detoured = hops != asked || memcmp(path, sim->route,
                                           (size_t)hops * sizeof *path) != 0;
        if (detoured)
            fault_count(sim, hops, asked);
    }
    sim_send(sim, node, dest, tag, offset, count, sim_class(sim, hops, TRUE),
             path, hops, detoured, FALSE, send_op(sim, node));
}

static inline Recv *recv_post(Sim *sim, uint32_t source, int tag,
                              size_t offset, size_t count);

void node_recv(Node *node, uint32_t source, int tag, size_t offset,
               size_t count)
{
    Sim *sim = node_sim(node);
    if (sim->error)
        return;
    if (!node_checked(node, nodecheck_node("receive from", source,
                                           sim->nodes)))
        return;
    if (!node_check_run(node, "receive", offset, count))
        return;
    if (G_UNLIKELY(sim->machine.faults)
        && fault_dead_peer(node, "receives from", source))
        return;
    observe_op(sim, node, SIM_OP_RECV, source, tag, count, 0, 0, NULL);
    Recv *r = recv_post(sim, source, tag, offset, count);
    if (sim->each) {
        r->op = each_new_op(sim, sim->running);
        r->posted = sim->clock;
    }
}

void node_exchange(Node *node, int link, size_t offset, size_t count, int tag)
{
    Sim *sim = node_sim(node);
    if (sim->each) {
        node_fail(node, "node_exchange in an operation-level program: its "
                  "region is the step's (node.h); post a send and a "
                  "receive");
        return;
    }
    uint32_t nb = node_neighbour(node, link);
    if (!node_checked(node, nodecheck_link(sim->topo, node->address, link, nb)))
        return;
    if (sim->error)
        return;
    /* Its message is lazy (see Msg): the region is the step's to leave
     * alone (node.h), so the payload stays in memory until it is needed.
     * The link is checked, so the one-hop path ends at nb, and a region
     * the send accepts the receive accepts: node_send_path's and
     * node_recv's checks would find nothing, and a message on this path
     * pays for none of them; nor, in a program of steps (checked above),
     * for an operation's handle. */
    observe_op(sim, node, SIM_OP_SEND, nb, tag, count, 0, 1, &link);
    const int *path = &link;
    int hops = 1;
    /* A message that goes around a fault is not lazy: its payload is
     * captured now, as any routed message's is, rather than read from
     * the region it shares with a partner whose timing it no longer
     * matches. One on its own link stays lazy (a delivery into its region
     * copies it out first, sim_lazy_protect). */
    gboolean lazy = TRUE;
    if (G_UNLIKELY(sim->machine.faults)
        && !sim_fault_hop_clear(sim, node->address)) {
        if (!(path = fault_path(sim, node, nb, path, &hops)))
            return;
        lazy = path == &link;
    }
    sim_send(sim, node, nb, tag, offset, count, sim_class(sim, 1, FALSE),
             path, hops, path != &link, lazy, 0);
    if (!sim->error) {
        observe_op(sim, node, SIM_OP_RECV, nb, tag, count, 0, 0, NULL);
        recv_post(sim, nb, tag, offset, count);
    }
}

/* Post a checked receive; matched when the step returns. An
 * operation-level program's (node_recv) gets its handle from the caller. */
static inline Recv *recv_post(Sim *sim, uint32_t source, int tag,
                              size_t offset, size_t count)
{
    if (sim->nposted == sim->capposted) {
        sim->capposted = sim->capposted ? 2 * sim->capposted : 4;
        sim->posted = EMU_RENEW(Recv *, sim->posted, sim->capposted,
                                "the step's receives");
    }
    Recv *r = sim_recv_new(sim);
    *r = (Recv){ .item = { NULL, sim->recv_seq++ }, .source = source,
                 .tag = tag, .offset = offset, .count = count };
    sim->posted[sim->nposted++] = r;
    return r;
}

/* The node's clock moves `ticks` on, by local work or by waiting. */
static void node_advance(Node *node, Tick ticks)
{
    Sim *sim = node_sim(node);
    sim->clock += ticks;
    if (sim->each) {
        /* local work is an operation, known at once, and holds the node */
        NodeEach *e = &sim->each[node->address];
        e->busy_until = sim->clock;
        each_known(sim, node, e->next_op++, sim->clock, FALSE);
    } else if (sim->clock > node->wait_until) {
        node->wait_until = sim->clock;
    }
}

void node_idle(Node *node, Tick ticks)
{
    if (!node_checked(node, nodecheck_ticks("idle", ticks)))
        return;
    observe_op(node_sim(node), node, SIM_OP_IDLE, 0, 0, 0, ticks, 0, NULL);
    node_advance(node, ticks);
}

/* Local work: waiting that counts as compute. */
void node_busy(Node *node, Tick ticks)
{
    if (!node_checked(node, nodecheck_ticks("busy", ticks)))
        return;
    observe_op(node_sim(node), node, SIM_OP_WORK, 0, 0, 0, ticks, 0, NULL);
    node_advance(node, ticks);
    node_sim(node)->stats.compute[node->address] += ticks;
}

void node_compute(Node *node, uint64_t flops)
{
    node_busy(node, (Tick)flops * node_sim(node)->machine.flop_time);
}

void node_kernel(Node *node, const char *kernel, const uint64_t shape[3],
                 uint64_t flops)
{
    node_busy(node, kernel_ticks(&node_sim(node)->machine, kernel, shape, flops));
}

/* Close the node's current phase at tick `end`. */
static void node_close_phase(Sim *sim, Node *node, Tick end)
{
    SimPhase *p = &sim->stats.phase[node->phase];
    const PhaseStart *ps = &sim->phase_start[node->address];
    Tick time = end - ps->start;
    Tick compute = sim->stats.compute[node->address] - ps->compute;
    Tick comm = time - compute;
    p->nodes++;
    p->time_max = MAX(p->time_max, time);
    p->compute_max = MAX(p->compute_max, compute);
    p->communication_max = MAX(p->communication_max, comm);
    p->time_sum += (double)time;
    p->compute_sum += (double)compute;
    p->communication_sum += (double)comm;
    /* Sums of integers in doubles are exact, and so the same in any order,
     * while every partial sum stays below 2^53; |comm| <= time + compute,
     * so below 2^52 for these two is enough. Past it the order counts. */
    if (sim->checks)
        sim_phase_sums_check(sim, node->phase);
}

void node_phase(Node *node, unsigned phase)
{
    Sim *sim = node_sim(node);
    if (!node_checked(node, nodecheck_phase(phase, node->phase,
                                            sim->stats.phases)))
        return;
    if (phase == node->phase)
        return;
    node_close_phase(sim, node, sim->clock);
    node->phase = (uint8_t)phase;
    SimPhase *entered = &sim->stats.phase[phase];
    entered->enter_max = MAX(entered->enter_max, sim->clock);
    sim->phase_start[node->address] = (PhaseStart){
        sim->clock, sim->stats.compute[node->address] };
}

/* Whether an observer takes marks: without one a mark costs this test
 * alone, before any va_list is set up (a program may mark every step). */
static inline gboolean sim_wants_marks(const Sim *sim)
{
    return sim->observer && sim->observer->mark;
}

void node_vmark(Node *node, const char *format, va_list ap)
{
    Sim *sim = node_sim(node);
    if (!sim_wants_marks(sim))
        return;
    g_autofree char *label = g_strdup_vprintf(format, ap);
    sim->observer->mark(sim->observer_data, node->address, sim->clock, label);
}

void node_mark(Node *node, const char *format, ...)
{
    if (G_LIKELY(!sim_wants_marks(node_sim(node))))
        return;
    va_list ap;
    va_start(ap, format);
    node_vmark(node, format, ap);
    va_end(ap);
}

/* ---- the loop -------------------------------------------------------- */

/* The slot of node x's oldest waiting receive (want_recv) or early
 * message, and for a message its count; NULL if it has none. A receive
 * or a message kept in the node's state (recv_wait, msg_keep) is older
 * than every item in its slot's list. */
static const MatchSlot *sim_oldest(const Sim *sim, uint32_t x,
                                   gboolean want_recv, size_t *count)
{
    const Node *node = &sim->node[x];
    const MatchSlot *best = NULL;
    uint64_t best_seq = UINT64_MAX;
    for (size_t i = 0; i <= sim->match.mask + 1; i++) {
        const MatchSlot *s = i <= sim->match.mask ? &sim->match.slot[i]
                                                  : &node->match.slot;
        if (!s->used || s->dest != x)
            continue;
        const MatchItem *it;
        uint64_t seq;
        size_t n = 0;
        if (want_recv && (s->used & MATCH_KEPT_RECV)) {
            seq = node->rseq;
        } else if (want_recv && (s->used & MATCH_HELD_RECV)) {
            seq = s->held.seq;
        } else if (!want_recv && (s->used & MATCH_KEPT_MSG)) {
            seq = node->match.owner_word;
            n = node->kcount;
        } else if ((it = want_recv ? match_recvs(s) : match_msgs(s))) {
            seq = it->seq;
            n = want_recv ? 0 : ((const Msg *)it)->count;
        } else {
            continue;
        }
        if (seq < best_seq) {
            best = s;
            best_seq = seq;
            *count = n;
        }
    }
    return best;
}

/* The lowest address with an early message (sim->early > 0): one pass
 * over the table and the nodes' own slots, on the error path only. */
static uint32_t sim_first_early(const Sim *sim)
{
    uint32_t first = UINT32_MAX;
    for (size_t i = 0; i <= sim->match.mask; i++) {
        const MatchSlot *s = &sim->match.slot[i];
        if (s->used && match_msgs(s) && s->dest < first)
            first = s->dest;
    }
    for (uint32_t x = 0; x < first && x < sim->nodes; x++) {
        const MatchSlot *s = &sim->node[x].match.slot;
        if (s->used && (match_msgs(s) || (s->used & MATCH_KEPT_MSG)))
            return x;
    }
    return first;
}

static gboolean sim_check_quiet(Sim *sim, GError **error)
{
    uint32_t first_early = sim->early > 0 ? sim_first_early(sim) : UINT32_MAX;
    for (uint32_t x = 0; x < sim->nodes; x++) {
        Node *node = &sim->node[x];
        size_t count = 0;
        if (node->nrecv > 0) {
            const MatchSlot *s = sim_oldest(sim, x, TRUE, &count);
            g_set_error(error, SIM_ERROR, SIM_ERROR_DEADLOCK,
                        "deadlock: node %u in step %u waits for %u "
                        "receive(s); the first from node %u with tag %d "
                        "was never sent", x, node->step - 1, node->nrecv,
                        s->source, s->tag);
            return FALSE;
        }
        if (x == first_early) {
            const MatchSlot *s = sim_oldest(sim, x, FALSE, &count);
            g_set_error(error, SIM_ERROR, SIM_ERROR_DEADLOCK,
                        "unreceived message: node %u never received %zu "
                        "elements sent by node %u with tag %d", x, count,
                        s->source, s->tag);
            return FALSE;
        }
        /* Quiet, so finished: when its last step's operations completed
         * (node_after_wait), which nothing changes after. Written here,
         * in address order, not there: there the nodes come in the
         * arbitration order, and in a big cube's last step each write
         * would be a line of its own, a cache miss apiece, slowing the
         * last dimension well below the one before. */
        sim->stats.finished[x] = node->wait_until;
    }
    return TRUE;
}

/* An answer the read ahead can follow and the check accepts: none, or
 * a node of the machine and at most NODE_PEEK_HOPS links (node.h). */
static inline gboolean peek_answer_ok(const Sim *sim, int hops,
                                      uint32_t dest)
{
    return hops == NODE_PEEK_NONE
           || (hops >= 0 && hops <= NODE_PEEK_HOPS && dest < sim->nodes);
}

#ifdef SIM_CHECK_EXCHANGE
/* sim_set_peek: the sanitizer build asks the peek about every step before
 * it runs and holds the answer to the step's first send (a route of the
 * links it named, or the default route to the node it named), so that a
 * peek that drifts from its program fails the tests instead of only
 * slowing the read ahead. */
static void peek_check_start(Sim *sim, Node *node)
{
    sim->peek_sent = FALSE;
    sim->peek_said = NODE_PEEK_NONE;
    if (!sim->peek)
        return;
    sim->peek_dest = UINT32_MAX;
    sim->peek_said = sim->peek(sim->config, node->address, node->step,
                               &sim->peek_dest, sim->peek_path);
    if (!peek_answer_ok(sim, sim->peek_said, sim->peek_dest))
        node_fail(node, "the program's peek at step %u answered %d hops to "
                  "node %u (node.h: NODE_PEEK_NONE, NODE_PEEK_ROUTED or 1..%d "
                  "hops to a node of the machine)", node->step,
                  sim->peek_said, sim->peek_dest, NODE_PEEK_HOPS);
}

static void peek_check_send(Sim *sim, Node *node, uint32_t dest,
                            const int *path, int hops)
{
    if (sim->peek_sent || sim->peek_said == NODE_PEEK_NONE)
        return;
    sim->peek_sent = TRUE;
    int said = sim->peek_said;
    g_autofree int *route = NULL;   /* not sim->route: path may be it */
    const int *want = sim->peek_path;
    if (said == NODE_PEEK_ROUTED) {
        route = g_new(int, topology_max_route(sim->topo) + 1);
        said = topology_route(sim->topo, node->address, sim->peek_dest,
                              route);
        want = route;
    }
    /* On a machine with faults the path is the engine's, around them
     * (machines/faults.h): the peek, which names the program's, is held
     * to the destination alone. */
    gboolean around = sim->machine.faults != NULL;
    gboolean same = dest == sim->peek_dest && (around || hops == said);
    for (int k = 0; same && !around && k < hops; k++)
        same = path[k] == want[k];
    if (!same)
        node_fail(node, "the program's peek at step %u named a first send "
                  "to node %u over %d links, and the step sent to node %u "
                  "over %d", node->step, sim->peek_dest, said, dest, hops);
}

static void peek_check_end(Sim *sim, Node *node)
{
    if (!sim->peek_sent && sim->peek_said != NODE_PEEK_NONE)
        node_fail(node, "the program's peek at step %u named a send to node "
                  "%u, and the step sent nothing", node->step,
                  sim->peek_dest);
}

/* node.h: a node_exchange's region is the step's to leave alone after the
 * call. The exchange sends it as the step leaves it; had the program
 * written it, the MPI backend (which copies at the call) would send
 * something else. */
/* Every exchange the step posted: a lazy message (the node ran first) is
 * read later, and so is a noted one (it ran second; read when its batch
 * runs), so each region must stay as the call found it. */
static void exchange_check_step(Sim *sim, Node *node)
{
    size_t w = sim->element_words;
    for (guint i = 0; i < sim->sent_checks->len; i++) {
        SentCheck *c = &g_array_index(sim->sent_checks, SentCheck, i);
        /* c->copy is NULL for an empty region (g_memdup2 of 0 bytes) */
        if (!sim->error && c->count > 0 &&
            memcmp(c->copy, sim_memory_at(sim, node, c->offset),
                   c->count * w * sizeof(Word)) != 0)
            node_fail(node, "wrote into elements [%zu, %zu) after posting "
                      "their exchange (tag %d) in the same step: an "
                      "exchange's region is not the program's again until "
                      "the exchange completes", c->offset,
                      c->offset + c->count, c->tag);
        g_free(c->copy);
    }
    g_array_set_size(sim->sent_checks, 0);
}
#endif

/* Nodes run in the order their previous steps completed, which
 * arbitration fixes: on a big machine each one's state, its first early
 * message and that message's payload are cache misses, one after another.
 * So the queue is read ahead, in stages, each loading what the next one
 * reads: the node's state 16 events ahead, its first early message 8
 * ahead, that message's payload (in a dimension exchange, the partner's
 * region, lazy) and the start of the node's memory 4 ahead. */
#define AHEAD_NODE 16
#define AHEAD_SENT 4
#define AHEAD_MSG 8
#define AHEAD_DATA 4
/* The node across the link in use last from node x, which a program
 * working a link at a time exchanges with (a guess for the read ahead: a
 * wrong one costs a load), or NULL. */
static inline const Node *guessed_partner(const Sim *sim, uint32_t x)
{
    if (!sim->link_ch || sim->hot_link[0] < 0)
        return NULL;
    uint32_t v = topology_neighbour(sim->topo, x, sim->hot_link[0]);
    return v != TOPOLOGY_NONE ? &sim->node[v] : NULL;
}

/* The line of node x's channel on `link`, where its link has an array
 * (sim->link_ch set): what each read ahead of a channel asks for. */
static inline void prefetch_channel(const Sim *sim, int link, uint32_t x)
{
    const LinkChannel *ch = sim->link_ch[link].ch;
    if (ch)
        EMU_PREFETCH(&ch[x]);
}

/* The route of a node's next step, AHEAD_ROUTE events before it runs,
 * as its program's peek says (sim_set_peek): each hop's channel, on a
 * machine whose links keep arrays, and the destination's match line. A
 * routed message's hops are far apart in the links' arrays, and the step
 * would wait for them one message after another; from here the lines
 * arrive while the events between run. What the peek names is checked
 * only as far as the lines asked for need: a prefetch never faults. */
#define AHEAD_ROUTE 8
/* Only where a link's array is this large (machines of 2^15 nodes on):
 * below it the arrays a routed run uses stay in the caches, and the read
 * ahead costs the peek's call for nothing (bmmc's two-phase method on the
 * 14-cube ran slower with it, on the 15-cube faster). */
#define AHEAD_ROUTE_MIN_BYTES ((size_t)1 << 20)
void sim_set_peek(Sim *sim, NodePeekFn peek)
{
    sim->peek = peek;
}

void sim_set_peek_always(Sim *sim, gboolean always)
{
    sim->peek_always = always;
}

SimPeekCounts sim_peek_counts(const Sim *sim)
{
    return (SimPeekCounts){ sim->peek_asked, sim->peek_followed };
}

/* Out of line: most programs give no peek, and the event loop they run
 * stays as small as it was. */
static G_GNUC_NO_INLINE void sim_prefetch_route(Sim *sim, uint32_t x)
{
    int path[NODE_PEEK_HOPS];
    uint32_t dest = UINT32_MAX;
    int hops = sim->peek(sim->config, x, sim->node[x].step, &dest, path);
    sim->peek_asked++;
    if (hops == NODE_PEEK_NONE || !peek_answer_ok(sim, hops, dest))
        return;
    sim->peek_followed++;
    const int *links = path;
    if (hops == NODE_PEEK_ROUTED) {
        hops = MIN(topology_route(sim->topo, x, dest, sim->route),
                   NODE_PEEK_HOPS);
        links = sim->route;
    }
    node_prefetch_match(&sim->node[dest]);
    if (!sim->link_ch || sim->channels_implied)
        return;
    uint32_t v = x;
    for (int k = 0; k < hops && v != TOPOLOGY_NONE; k++) {
        int l = links[k];
        if (l < 0 || l >= sim->links)
            return;
        prefetch_channel(sim, l, v);
        v = topology_neighbour(sim->topo, v, l);
    }
}

/* The read ahead for the events `run`, the n that come next. */
static inline __attribute__((always_inline)) void
sim_prefetch_ahead(Sim *sim, const QueueItem *run, size_t n)
{
    if (n == 0)
        return;
    if (sim->peek_ahead && n > AHEAD_ROUTE && !run[AHEAD_ROUTE].post)
        sim_prefetch_route(sim, run[AHEAD_ROUTE].node);
    node_prefetch(&sim->node[run[0].node]);
    if (n > AHEAD_NODE) {
        const QueueItem *q = &run[AHEAD_NODE];
        node_prefetch(&sim->node[q->node]);
        /* and, on a dense machine, its channels on the links in use last
         * (a dimension exchange uses one link a step; a channel's
         * timeline and its count are one line, LinkChannel), and the
         * match line of its guessed partner, which it sends to next */
        if (sim->link_ch)
            for (int k = 0; k < 2; k++) {
                if (sim->hot_link[k] >= 0)
                    prefetch_channel(sim, sim->hot_link[k], q->node);
            }
        const Node *partner = guessed_partner(sim, q->node);
        if (partner)
            node_prefetch_match(partner);
    }
    /* A node that sends on several links in a step (gray-to-binary's
     * concurrent sets, matmul's shifts) is taken to send on the links
     * the last node that sent used, with the same tags: their channels,
     * and across a link to a neighbour, the neighbour's match line and
     * the lines where the probes of the send's key and of the receive's
     * from there (as node_exchange posts it) start in the table. A node
     * that used one link is left to the guesses above. */
    const SentLinks *said = &sim->sent;
    if (n > AHEAD_SENT && (said->links & (said->links - 1))) {
        uint32_t x = run[AHEAD_SENT].node;
        for (uint64_t m = said->links; m; m &= m - 1) {
            int l = __builtin_ctzll(m);
            if (sim->link_ch)
                prefetch_channel(sim, l, x);
            uint32_t v;
            if ((said->far & m & -m)
                || (v = topology_neighbour(sim->topo, x, l)) == TOPOLOGY_NONE)
                continue;
            node_prefetch_match(&sim->node[v]);
            match_prefetch(&sim->match, v, x, said->tag[l]);
            match_prefetch(&sim->match, x, v, said->tag[l]);
        }
    }
    /* A node with an early message will complete its sender's receive,
     * if the sender posted one: the first line of the sender's state too
     * (the kept message's key names the sender, else guessed_partner),
     * which holds the receive when it waits alone in its key
     * (recv_wait), or else the receive the second line, loaded
     * AHEAD_NODE - AHEAD_MSG events ago, names. In a far step of a
     * dimension exchange the first node of a pair touches only the
     * second line of its partner's state, where its message is kept
     * (msg_keep), the second node both lines of the first's: with one
     * channel each, 9 lines a pair, none of them a struct of its own,
     * and none a demand miss behind another. */
    if (n > AHEAD_MSG) {
        const QueueItem *q = &run[AHEAD_MSG];
        const MatchSlot *s = &sim->node[q->node].match.slot;
        const MatchItem *m = match_msgs(s);
        const Node *sender = NULL;
        if (s->used & MATCH_KEPT_MSG) {  /* its sender: the key's source */
            sender = &sim->node[s->source];
        } else if (m) {
            EMU_PREFETCH(m);
            sender = guessed_partner(sim, q->node);
        }
        /* a shard reads no other shard's nodes */
        if (sender && sim->par_active && !sim_par_mine(sim, sender->address))
            sender = NULL;
        if (sender) {
            EMU_PREFETCH(sender);
            const MatchItem *r = match_recvs(&sender->match.slot);
            if (r)
                EMU_PREFETCH(r);
        }
    }
    /* Not while exchanges' deliveries are put off: their regions are
     * read and written in the batch. */
    if (n > AHEAD_DATA && !sim->deferring) {
        const Node *x = &sim->node[run[AHEAD_DATA].node];
        const Msg *m = (const Msg *)match_msgs(&x->match.slot);
        size_t w = sim->element_words * sizeof(Word);
        if (x->match.slot.used & MATCH_KEPT_MSG) {
            if (x->kcount > 0)
                sim_prefetch_bytes(
                    sim_memory_at(sim, &sim->node[x->match.slot.source],
                                  x->koffset), x->kcount * w);
        } else if (m && m->count > 0) {
            sim_prefetch_bytes(sim_msg_data(sim, m), m->count * w);
        }
        /* The start of its memory, where that is most of it: a step of
         * the exchange, gray-to-binary or bmmc's two-phase method reads
         * its whole memory of 64 or 128 elements. In a memory of
         * kilobytes (a transpose's row and regions, the DBLAS blocks)
         * the first lines are seldom what a step reads, and asking for
         * them only crowds the misses it does wait for. */
        if (sim->memory_elements * w <= 2 * AHEAD_BYTES)
            sim_prefetch_bytes(sim_memory_at(sim, x, 0),
                               sim->memory_elements * w);
    }
}

/* The event count the loop next calls sim_progress at: when progress_fn
 * is due, and with stop flags at least every SIM_STOP_POLL events. */
static void sim_progress_arm(Sim *sim)
{
    uint64_t at = sim->progress_fn_at;
    if (sim->stop)
        at = MIN(at, sim->stats.events + SIM_STOP_POLL);
    sim->progress_at = at;
}

void sim_set_progress(Sim *sim, SimProgressFn fn, void *data, uint64_t first)
{
    sim->progress_fn = fn;
    sim->progress_data = data;
    sim->progress_fn_at = fn ? sim->stats.events + MAX(first, (uint64_t)1)
                             : UINT64_MAX;
    sim_progress_arm(sim);
}

/* What stopped a run (sim_set_limits). */
typedef enum { SIM_STOPPED_NO = 0, SIM_STOPPED_TICKS, SIM_STOPPED_FLAG }
    SimStopped;

void sim_set_limits(Sim *sim, const SimLimits *limits)
{
    sim->tick_limit = limits && limits->ticks > 0 ? limits->ticks : INT64_MAX;
    sim->stop = limits ? limits->stop : NULL;
    g_free(sim->ticks_name);
    g_free(sim->stop_name);
    sim->ticks_name = limits && limits->ticks_name
                          ? g_strdup(limits->ticks_name)
                          : g_strdup_printf("the tick limit %" PRId64,
                                            (int64_t)sim->tick_limit);
    sim->stop_name = g_strdup(limits && limits->stop_name ? limits->stop_name
                                                          : "its wall-clock "
                                                            "limit");
    sim_progress_arm(sim);
}

/* Out of the run loop's way: the loop only compares the event count.
 * FALSE: the stop flags ask the run to stop. */
static __attribute__((noinline, cold)) gboolean sim_progress(Sim *sim)
{
    if (sim->stop && sim->stop->stop != STOP_NONE) {
        sim->stop->stop = STOP_SEEN;
        sim->stopped = SIM_STOPPED_FLAG;
        sim->stopped_at = sim->now;
        return FALSE;
    }
    if (sim->stats.events >= sim->progress_fn_at) {
        SimProgress where = { sim->now, sim->stats.events, sim->nodes,
                              sim->nodes_done };
        uint64_t next = sim->progress_fn(sim->progress_data, &where);
        sim->progress_fn_at = next ? sim->stats.events + next : UINT64_MAX;
    }
    sim_progress_arm(sim);
    return TRUE;
}

/* The nodes whose programs had not finished by tick `at`: a program
 * finishes when its NODE_DONE step's operations have completed. Between
 * events only, where every node's counts are settled. */
static uint32_t sim_unfinished(const Sim *sim, Tick at)
{
    uint32_t n = 0;
    for (uint32_t x = 0; x < sim->nodes; x++) {
        const Node *node = &sim->node[x];
        if (!node->returned_done || node->nrecv > 0 || node->deferred > 0
            || node->wait_until > at
            || (sim->each && sim->each[x].unknown > 0))
            n++;
    }
    return n;
}

/* The run's error once a limit stopped it. */
static void sim_limit_error(Sim *sim)
{
    const char *name = sim->stopped == SIM_STOPPED_TICKS ? sim->ticks_name
                                                         : sim->stop_name;
    g_set_error(&sim->error, SIM_ERROR, SIM_ERROR_LIMIT,
                "the run passed %s at tick %" PRId64 " with %u of %u nodes "
                "unfinished (a node program that never finishes?)", name,
                (int64_t)sim->stopped_at,
                sim_unfinished(sim, sim->stopped_at), sim->nodes);
}

static void sim_run_post(Sim *sim, Node *node, Post *post);

/* Can a shard match the receives its node's step posted itself? Where
 * they are all of one key, which the node's own slot holds or can take
 * (par_post_here says why). */
static inline gboolean par_match_here(const Sim *sim, const Node *node)
{
    const MatchLocal *l = &node->match;
    for (uint32_t i = 0; i < sim->nposted; i++) {
        const Recv *r = sim->posted[i];
        if (!(l->slot.used ? l->slot.source == r->source && l->slot.tag == r->tag
                           : l->in_table == 0 && r->source == sim->posted[0]->source
                                 && r->tag == sim->posted[0]->tag))
            return FALSE;
    }
    return TRUE;
}

/* One event: a node's step, a deferred send, or an operation-level
 * program's call; FALSE if the run stops. The loop's, and a shard's
 * (sim_par_run_shard). */
static inline __attribute__((always_inline)) gboolean
sim_event(Sim *sim, QueueItem item, volatile sig_atomic_t *where,
          gboolean each)
{
    Node *node = &sim->node[item.node];
    Tick time = sim->now;
    if (item.post && item.post != SIM_EACH_ALL) {
        sim_run_post(sim, node, item.post);
        return TRUE;
    }
    if (each) {
        if (!each_call_due(sim, node, time, item.post == SIM_EACH_ALL))
            return TRUE;
    } else {
        node->wait_until = time;
    }
    sim->clock = time;
    sim_pending_settle(sim, node);      /* the program reads its memory */
    if (node->lazy)                 /* and may write anywhere */
        sim_lazy_protect(sim, node, 0, 0);
    sim->running = node;
#ifdef SIM_CHECK_EXCHANGE
    peek_check_start(sim, node);
#endif
    sim->sent_stale = TRUE;
    *where = STOP_STEP;
    NodeStatus status = sim->step(node, sim->config);
    *where = STOP_LOOP;
#ifdef SIM_CHECK_EXCHANGE
    if (!sim->error)
        peek_check_end(sim, node);
#endif
    sim->running = NULL;
#ifdef SIM_CHECK_EXCHANGE
    exchange_check_step(sim, node);
#endif
    node->step++;
    node->returned_done = status == NODE_DONE;
    if (G_UNLIKELY(sim->par_any) && sim->par_probing && sim->nposted > 0) {
        sim->par_probe_ops++;
        sim->par_probe_far += !par_match_here(sim, node);
    }
    if (G_UNLIKELY(sim->par_any) && sim->par_active
        && !par_match_here(sim, node)) {
        /* its receives go to the commit, and its wait's end with them:
         * counted as one more deferred send until then */
        if (status == NODE_ANY)
            node_fail(node, "returned NODE_ANY, which only an "
                      "operation-level program may (node.h)");
        node->deferred++;       /* its sends put off wait for it */
        sim_par_log(sim, PAR_MATCH, node->address, 0,
                    g_memdup2(sim->posted, sim->nposted * sizeof(Recv *)),
                    sim->nposted);
        sim->nposted = 0;
        return !sim->error;
    }
    node_match_posted(sim, node);
    if (sim->error)
        return FALSE;
    if (each)
        each_after_call(sim, node, status);
    else if (status == NODE_ANY)
        node_fail(node, "returned NODE_ANY, which only an "
                  "operation-level program may (node.h)");
    else if (node->nrecv == 0 && node->deferred == 0)
        node_after_wait(sim, node);
    return TRUE;
}

static void sim_run_post(Sim *sim, Node *node, Post *post)
{
    Msg *m = post->msg;
    sim_post(sim, node, post->dest, post->tag, m->count, post->cls, post->path,
             post->hops, post->detoured, m->data, m, FALSE, 0, post->op);
    g_free(post);
    if (--node->deferred == 0 && node->nrecv == 0) {
        if (sim->each)
            each_settled(sim, node);
        else
            node_after_wait(sim, node);
    }
}

gboolean sim_run(Sim *sim, NodeStepFn step, const void *config, GError **error)
{
    sim->config = config;
    sim->step = step;
    sim->peek_ahead = sim->peek && sim->link_ch
                      && (sim->peek_always
                          || (size_t)sim->nodes * sizeof(LinkChannel)
                                 >= AHEAD_ROUTE_MIN_BYTES);
    /* An observer that sees messages or operations sees them in the
     * contract's order, once (the locality order may start a run again);
     * an operation-level program runs in it too (its calls come at its
     * operations' completions, which the locality order's checks do not
     * cover). */
    if ((sim->locality || sim->order_from >= 0)
        && (sim->each
            || (sim->observer
                && (sim->observer->channel_busy || sim->observer->startup
                    || sim->observer->mark || sim->observer->op))))
        sim_set_order(sim, SIM_ORDER_CONTRACT);
    sim_survey_start(sim);
    /* A dead node runs nothing: it is done before the run starts. */
    const Faults *faults = sim->machine.faults;
    for (uint32_t x = 0; x < sim->nodes; x++) {
        if (G_UNLIKELY(faults_node_dead(faults, x))) {
            sim->nodes_done++;
            continue;
        }
        sim_push(sim, 0, (QueueItem){ x, NULL });
    }
    /* Whether the program is operation-level, fixed for the run: held in
     * the loop, not read from sim around every step. */
    const gboolean each = sim->each != NULL;
    /* Where the run is, for the stop flags' signal handler (stop.h). */
    sig_atomic_t unwatched;
    volatile sig_atomic_t *where = sim->stop ? &sim->stop->where : &unwatched;
    *where = STOP_LOOP;
    Tick time;
    QueueItem item;
    Tick split_at = -1;         /* the tick last offered to the threads */
    while (!sim->error && queue_pop(sim->queue, &time, &item)) {
        size_t n;
        const QueueItem *run = queue_peek_run(sim->queue, &n);
        sim_prefetch_ahead(sim, run, n);
        if (time != sim->now) {
            if (G_UNLIKELY(sim->order_from >= 0) && time >= sim->order_from) {
                /* the locality order from this tick on (order_from
                 * cleared): its items again, sorted by node */
                queue_unpop(sim->queue, time, item);
                sim_set_order(sim, SIM_ORDER_LOCALITY);
                continue;
            }
            sim_pending_flush(sim);
            if (G_UNLIKELY(sim->survey))
                sim_survey_close(sim);
            if (sim->observer && sim->observer->tick_done)
                sim->observer->tick_done(sim->observer_data, sim->now,
                                         sim->stats.events);
            if (G_UNLIKELY(time > sim->tick_limit)) {
                sim->stopped = SIM_STOPPED_TICKS;
                sim->stopped_at = sim->tick_limit;
                break;
            }
            if (sim->link_ch)
                sim_links_idle(sim, time);
        }
        sim->now = time;
        /* The rest of the tick may run split (sim_parallel.c). */
        if (G_UNLIKELY(sim->par != NULL) && time != split_at) {
            int par = sim_par_tick(sim, item);
            if (par != SIM_PAR_LATER)
                split_at = time;
            if (par == SIM_PAR_RAN) {
                if (G_UNLIKELY(sim->stats.events >= sim->progress_at)
                    && !sim_progress(sim))
                    break;
                continue;
            }
        }
        sim->stats.events++;
        if (G_UNLIKELY(sim->stats.events >= sim->progress_at)
            && !sim_progress(sim))
            break;
        if (!sim_event(sim, item, where, each))
            break;
    }
    sim_pending_flush(sim);
    if (G_UNLIKELY(sim->survey))
        sim_survey_close(sim);
    sim_links_fold(sim);
    *where = STOP_OUTSIDE;
    if (!sim->error && sim->stopped)
        sim_limit_error(sim);
    if (!sim->error && sim->observer && sim->observer->tick_done)
        sim->observer->tick_done(sim->observer_data, sim->now,
                                 sim->stats.events);
    if (!sim->error) {
        if (!sim_check_quiet(sim, error))
            return FALSE;
        if (sim->stats.cycles <= sim->tick_limit)
            return TRUE;
        /* Every event ran by the limit, but a node finished after it. */
        sim->stopped = SIM_STOPPED_TICKS;
        sim->stopped_at = sim->tick_limit;
        sim_limit_error(sim);
    }
    g_propagate_error(error, sim->error);
    sim->error = NULL;
    return FALSE;
}

/* ---- the parallel tick: sim.c's part ---------------------------------- */

/* A shard's events of a split tick: its own of the tick's n items, in
 * their order, as the loop of sim_run would run them (sim_parallel.c says
 * what makes that safe). Its own counts only: the progress and the stop
 * flags are the loop's, between ticks. */
void sim_par_run_shard(Sim *sim, const QueueItem *item, size_t n)
{
    sim->npar_item = 0;
    for (size_t i = 0; i < n; i++) {
        if (!sim_par_mine(sim, item[i].node))
            continue;
        if (sim->npar_item == sim->cappar_item) {
            sim->cappar_item = sim->cappar_item ? 2 * sim->cappar_item : 1024;
            sim->par_item = EMU_RENEW(QueueItem, sim->par_item,
                                      sim->cappar_item, "a thread's events");
            sim->par_item_pos = EMU_RENEW(uint32_t, sim->par_item_pos,
                                          sim->cappar_item,
                                          "a thread's events");
        }
        sim->par_item[sim->npar_item] = item[i];
        sim->par_item_pos[sim->npar_item++] = (uint32_t)i;
    }
    sig_atomic_t where = STOP_LOOP;
    sim->par_deferring = FALSE;
    const QueueItem *mine = sim->par_item;
    size_t k = sim->npar_item;
    for (size_t i = 0; i < k && !sim->error; i++) {
        /* the stop flags, as the loop looks at them (sim_progress): a
         * stopped run ends with the tick, whose rest then does not run;
         * nor does it once another thread's events failed (a conflict:
         * the run starts again in one thread) */
        if (G_UNLIKELY((i & 63) == 0
                       && (atomic_load_explicit(sim->par_failed,
                                                memory_order_relaxed)
                           || (sim->stop && sim->stop->stop != STOP_NONE))))
            break;
        sim_prefetch_ahead(sim, mine + i + 1, k - i - 1);
        sim->par_pos = sim->par_item_pos[i];
        /* a node's events are next to each other in the tick (its step
         * and its deferred sends); once one put a send off, so do the
         * rest, for a node's reservations keep its order */
        if (mine[i].node != sim->par_defer_node)
            sim->par_deferring = FALSE;
        sim->stats.events++;
        if (!sim_event(sim, mine[i], &where, FALSE))
            break;
    }
    if (sim->error)
        atomic_store_explicit(sim->par_failed, 1, memory_order_relaxed);
    sim_pending_flush(sim);
}

/* Carry out one entry of a shard's log on sim, the Sim that holds the
 * shards; or, once the run has failed, drop it. */
static void par_commit_one(Sim *sim, ParEntry *e)
{
    Node *node = &sim->node[e->node];
    if (sim->error) {
        if (e->kind == PAR_MATCH) {
            Recv **r = e->ptr;
            for (uint32_t j = 0; j < e->n; j++)
                sim_recv_free(sim, r[j]);
            g_free(r);
        } else if (e->ptr) {
            sim_post_drop(e->ptr);
        }
        return;
    }
    switch ((ParKind)e->kind) {
    case PAR_PUSH:
        /* as the loop would have pushed it */
        queue_push(sim->queue, e->time, (QueueItem){ e->node, e->ptr });
        break;
    case PAR_POST:
        sim_run_post(sim, node, e->ptr);
        break;
    case PAR_MATCH:
        if (sim->capposted < e->n) {
            sim->capposted = e->n;
            sim->posted = EMU_RENEW(Recv *, sim->posted, sim->capposted,
                                    "the step's receives");
        }
        memcpy(sim->posted, e->ptr, e->n * sizeof(Recv *));
        sim->nposted = e->n;
        g_free(e->ptr);
        node->deferred--;
        node_match_posted(sim, node);
        if (!sim->error && node->nrecv == 0 && node->deferred == 0)
            node_after_wait(sim, node);
        break;
    }
}

/* Carry out the n shards' logs on sim in the order of the events that
 * wrote them (each log is in that order already: a merge). */
void sim_par_commit_all(Sim *sim, Sim **shard, int n)
{
    size_t at[SIM_MAX_THREADS] = { 0 };
    g_assert(n <= SIM_MAX_THREADS);
    for (;;) {
        int best = -1;
        for (int s = 0; s < n; s++)
            if (at[s] < shard[s]->npar_log
                && (best < 0 || shard[s]->par_log[at[s]].pos
                                    < shard[best]->par_log[at[best]].pos))
                best = s;
        if (best < 0)
            break;
        par_commit_one(sim, &shard[best]->par_log[at[best]++]);
    }
    for (int s = 0; s < n; s++)
        shard[s]->npar_log = 0;
}
