/* sim.c -- the discrete-event engine behind node.h.
 *
 * Events are node steps and deferred sends, popped in (cycle, insertion)
 * order from queue.c: equal cycles run in the order they were scheduled,
 * so every run is reproducible byte for byte. Initially every node is
 * scheduled at cycle 0 in address order.
 *
 * Invariants:
 *  - A node is in exactly one state: scheduled (one step event queued),
 *    running (inside its step function), waiting (receives not yet matched
 *    or sends not yet posted), or finished.
 *  - All reservations made so far belong to messages posted at or before
 *    sim->now; a new message is posted at sim->now, so it is younger than
 *    every reserved message and may only fill around them (oldest-first
 *    arbitration, see sim.h). A send issued at a later local clock (after
 *    node_compute) waits in the queue for its own cycle.
 *  - A message is matched to a receive at most once; its payload is written
 *    into the receiver's memory at the moment of matching, which happens
 *    only while the receiver is not running, so a step never sees its own
 *    receives land.
 */
#include "sim.h"
#include "queue.h"
#include "timeline.h"

#include <stdarg.h>
#include <string.h>

G_DEFINE_QUARK(sim-error-quark, sim_error)

/* Message buffers are pooled by size class: a class holds capacities
 * (8 + j) * 2^s for s = 0..57, j = 0..7, so a buffer wastes under 1/8. */
#define POOL_CLASSES (8 * 58)

typedef struct Msg {
    struct Msg *next;          /* in an early queue or a pool list */
    uint32_t source;
    int tag;
    size_t count;
    unsigned cls;              /* pool size class */
    Tick arrival;          /* the last element reaches the destination */
    Word data[];
} Msg;

typedef struct {
    uint32_t source;
    int tag;
    size_t offset, count;
} Recv;

struct Node {
    Sim *sim;
    uint32_t address;
    unsigned step;
    gboolean returned_done;
    Tick clock;            /* local time while running */
    Tick wait_until;       /* completion of everything posted */
    Recv *recv;                /* posted and not yet matched, in order */
    uint32_t nrecv, caprecv;
    uint32_t deferred;         /* sends waiting for their posting cycle */
    Msg *early_head, *early_tail;   /* arrived before their receive */
};

/* A send posted after local computation moved the node's clock past the
 * engine's time: reserved when the engine reaches that cycle, so that its
 * priority is that of its own posting cycle. */
typedef struct Post {
    Msg *msg;
    uint32_t dest;
    int hops;
    int path[NODE_MAX_HOPS];
} Post;

typedef struct {
    uint64_t first, count;     /* elements [first, first+count) */
    Tick start;            /* element `first` starts crossing here */
} Run;

struct Sim {
    Machine machine;
    uint32_t nodes;
    int n;
    size_t memory_words, local_size;
    Word *memory;
    unsigned char *local;
    Node *node;
    Timeline *channel;         /* node * n + dim: outgoing channel */
    uint64_t *channel_count;   /* elements carried, same index */
    Timeline *send_port, *recv_port;   /* per node, only with a port limit */
    uint32_t port_capacity;

    EventQueue *queue;
    Tick now;
    Node *running;

    Run *run_a, *run_b;        /* routing scratch, reused */
    size_t run_cap;
    Msg *pool[POOL_CLASSES];

    const SimObserver *observer;
    void *observer_data;

    SimStats stats;
    GError *error;             /* first program error; stops the run */
};

/* ---- message buffers -------------------------------------------------- */

static unsigned pool_class(size_t count, size_t *capacity)
{
    if (count <= 8) {
        *capacity = 8;
        return 0;
    }
    unsigned s = (unsigned)(63 - __builtin_clzll((unsigned long long)count)) - 3;
    size_t j = (count + ((size_t)1 << s) - 1) >> s;     /* 8..16 */
    if (j == 16) {
        s++;
        j = 8;
    }
    *capacity = j << s;
    return 8 * s + (unsigned)(j - 8) + 1;
}

static Msg *msg_new(Sim *sim, size_t count)
{
    size_t capacity;
    unsigned cls = pool_class(count, &capacity);
    Msg *m = sim->pool[cls];
    if (m)
        sim->pool[cls] = m->next;
    else
        m = g_malloc(sizeof(Msg) + capacity * sizeof(Word));
    m->cls = cls;
    m->count = count;
    return m;
}

static void msg_free(Sim *sim, Msg *m)
{
    m->next = sim->pool[m->cls];
    sim->pool[m->cls] = m;
}

/* ---- construction ---------------------------------------------------- */

uint64_t sim_bytes_needed(const Machine *m, size_t memory_words,
                          size_t local_size)
{
    uint64_t nodes = machine_nodes(m);
    uint64_t channels = nodes * (uint64_t)m->dimensions;
    uint64_t per_node = memory_words * sizeof(Word) + local_size
                        + sizeof(Node) + 2 * sizeof(QueueItem);
    /* Each channel keeps a couple of spans in steady state; messages in
     * flight hold at most about one memory's worth of payload. */
    uint64_t per_channel = sizeof(Timeline) + sizeof(uint64_t)
                           + 2 * sizeof(TimelineSpan);
    uint64_t ports = m->ports == MACHINE_PORTS_ALL ? 0
                     : 2 * nodes * (sizeof(Timeline) + 2 * sizeof(TimelineSpan));
    return nodes * per_node + channels * per_channel + ports
           + nodes * memory_words * sizeof(Word);
}

Sim *sim_new(const Machine *m, size_t memory_words, size_t local_size)
{
    Sim *sim = g_new0(Sim, 1);
    sim->machine = *m;
    sim->machine.name = g_strdup(m->name);
    sim->machine.topology = g_strdup(m->topology);
    sim->n = m->dimensions;
    sim->nodes = machine_nodes(m);
    sim->memory_words = memory_words;
    sim->local_size = local_size;
    sim->memory = g_new0(Word, (size_t)sim->nodes * memory_words);
    sim->local = local_size ? g_malloc0((size_t)sim->nodes * local_size) : NULL;
    sim->node = g_new0(Node, sim->nodes);
    for (uint32_t x = 0; x < sim->nodes; x++) {
        sim->node[x].sim = sim;
        sim->node[x].address = x;
    }
    size_t channels = (size_t)sim->nodes * (size_t)sim->n;
    sim->channel = g_new0(Timeline, channels ? channels : 1);
    sim->channel_count = g_new0(uint64_t, channels ? channels : 1);
    if (m->ports != MACHINE_PORTS_ALL && m->ports < m->dimensions) {
        sim->port_capacity = (uint32_t)m->ports;
        sim->send_port = g_new0(Timeline, sim->nodes);
        sim->recv_port = g_new0(Timeline, sim->nodes);
    }
    sim->queue = queue_new();
    sim->stats.elements_up = g_new0(uint64_t, sim->n ? sim->n : 1);
    sim->stats.elements_down = g_new0(uint64_t, sim->n ? sim->n : 1);
    return sim;
}

static void drop_post(QueueItem *item, void *data)
{
    Post *post = item->post;
    (void)data;
    if (post) {
        g_free(post->msg);
        g_free(post);
    }
}

void sim_free(Sim *sim)
{
    if (!sim)
        return;
    size_t channels = (size_t)sim->nodes * (size_t)sim->n;
    for (size_t c = 0; c < channels; c++)
        timeline_clear(&sim->channel[c]);
    if (sim->send_port) {
        for (uint32_t x = 0; x < sim->nodes; x++) {
            timeline_clear(&sim->send_port[x]);
            timeline_clear(&sim->recv_port[x]);
        }
    }
    queue_foreach(sim->queue, drop_post, NULL);
    queue_free(sim->queue);
    for (uint32_t x = 0; x < sim->nodes; x++) {
        Node *node = &sim->node[x];
        while (node->early_head) {
            Msg *m = node->early_head;
            node->early_head = m->next;
            g_free(m);
        }
        g_free(node->recv);
    }
    for (unsigned c = 0; c < POOL_CLASSES; c++)
        while (sim->pool[c]) {
            Msg *m = sim->pool[c];
            sim->pool[c] = m->next;
            g_free(m);
        }
    g_free(sim->send_port);
    g_free(sim->recv_port);
    g_free(sim->channel);
    g_free(sim->channel_count);
    g_free(sim->node);
    g_free(sim->local);
    g_free(sim->memory);
    g_free(sim->run_a);
    g_free(sim->run_b);
    g_free(sim->stats.elements_up);
    g_free(sim->stats.elements_down);
    g_free(sim->machine.name);
    g_free(sim->machine.topology);
    g_clear_error(&sim->error);
    g_free(sim);
}

Word *sim_node_memory(Sim *sim, uint32_t node)
{
    return sim->memory + (size_t)node * sim->memory_words;
}

void sim_set_observer(Sim *sim, const SimObserver *observer, void *data)
{
    sim->observer = observer;
    sim->observer_data = data;
}

const SimStats *sim_stats(const Sim *sim)
{
    return &sim->stats;
}

uint64_t sim_channel_elements(const Sim *sim, uint32_t node, int dim)
{
    return sim->channel_count[(size_t)node * sim->n + dim];
}

/* ---- node API: queries ----------------------------------------------- */

uint32_t node_address(const Node *node) { return node->address; }
int node_dimensions(const Node *node) { return node->sim->n; }
unsigned node_step(const Node *node) { return node->step; }
size_t node_memory_words(const Node *node) { return node->sim->memory_words; }

Word *node_memory(Node *node)
{
    return sim_node_memory(node->sim, node->address);
}

void *node_local(Node *node)
{
    Sim *sim = node->sim;
    return sim->local ? sim->local + (size_t)node->address * sim->local_size
                      : NULL;
}

/* Record the first misuse; the run stops after the current step. */
G_GNUC_PRINTF(2, 3)
static gboolean node_fail(Node *node, const char *fmt, ...)
{
    Sim *sim = node->sim;
    if (sim->error)
        return FALSE;
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    /* Outside its step call a node's counter already names the next step. */
    unsigned step = node == sim->running ? node->step : node->step - 1;
    g_set_error(&sim->error, SIM_ERROR, SIM_ERROR_PROGRAM,
                "node program error at node %u, step %u: %s",
                node->address, step, what);
    return FALSE;
}

static gboolean node_check_run(Node *node, const char *op, size_t offset,
                               size_t count)
{
    size_t words = node->sim->memory_words;
    if (offset > words || count > words - offset)
        return node_fail(node, "%s of %zu elements at offset %zu is outside "
                         "memory of %zu elements", op, count, offset, words);
    return TRUE;
}

/* ---- routing --------------------------------------------------------- */

static void sim_grow_runs(Sim *sim, size_t need)
{
    if (need <= sim->run_cap)
        return;
    size_t cap = sim->run_cap ? sim->run_cap : 16;
    while (cap < need)
        cap *= 2;
    sim->run_a = g_renew(Run, sim->run_a, cap);
    sim->run_b = g_renew(Run, sim->run_b, cap);
    sim->run_cap = cap;
}

/* Earliest t >= from at which one element may cross: the channel and, with
 * a port limit, the sending node's and receiving node's ports are free for
 * one element-time. */
static Tick hop_fit(Timeline **res, int nres, uint32_t capacity,
                        Tick from, Tick tau)
{
    Tick t = from;
    for (;;) {
        Tick t0 = t;
        t = timeline_fit(res[0], t, tau, 1);
        for (int r = 1; r < nres; r++)
            t = timeline_fit(res[r], t, tau, capacity);
        if (t == t0)
            return t;
    }
}

static Tick hop_free_until(Timeline **res, int nres, uint32_t capacity,
                               Tick t)
{
    Tick until = timeline_free_until(res[0], t, 1);
    for (int r = 1; r < nres; r++) {
        Tick u = timeline_free_until(res[r], t, capacity);
        if (u < until)
            until = u;
    }
    return until;
}

/* Reserve a message's route. Elements are numbered 0..count-1 and keep
 * their order on every channel; each hop takes the earliest free slots at
 * or after the element's arrival at that node (oldest-first arbitration:
 * everything already reserved is older). Returns the cycle the last
 * element reaches the destination; *left is when the last element has left
 * the source. */
static Tick sim_route(Sim *sim, const SimMessage *msg, const int *path,
                          int hops, Tick ready, Tick *left)
{
    uint32_t source = msg->source;
    uint64_t count = msg->count;
    const Tick tau = sim->machine.element_time;
    sim_grow_runs(sim, 1);
    gboolean in_is_a = TRUE;       /* run_a holds this hop's input */
    Run *in = sim->run_a, *out = sim->run_b;
    size_t nin = 1;
    in[0] = (Run){ 0, count, ready };
    uint32_t u = source;
    Tick end = ready;

    for (int h = 0; h < hops; h++) {
        int d = path[h];
        uint32_t v = u ^ ((uint32_t)1 << d);
        size_t c = (size_t)u * sim->n + d;
        Timeline *res[3] = { &sim->channel[c], NULL, NULL };
        int nres = 1;
        if (sim->send_port) {
            res[nres++] = &sim->send_port[u];
            res[nres++] = &sim->recv_port[v];
        }
        for (int r = 0; r < nres; r++)
            timeline_prune(res[r], sim->now);

        size_t nout = 0;
        Tick prev_end = INT64_MIN;
        for (size_t i = 0; i < nin; i++) {
            uint64_t k = 0;
            while (k < in[i].count) {
                Tick want = in[i].start + (Tick)k * tau;
                if (want < prev_end)
                    want = prev_end;
                Tick t = hop_fit(res, nres, sim->port_capacity, want, tau);
                Tick until = hop_free_until(res, nres, sim->port_capacity, t);
                uint64_t take = in[i].count - k;
                if (until != TIMELINE_FOREVER
                    && (uint64_t)((until - t) / tau) < take)
                    take = (uint64_t)((until - t) / tau);
                Tick stop = t + (Tick)take * tau;
                for (int r = 0; r < nres; r++)
                    timeline_take(res[r], t, stop);
                if (sim->observer && sim->observer->channel_busy)
                    sim->observer->channel_busy(sim->observer_data, msg, u, d,
                                                in[i].first + k, take, t);
                if (nout > 0 && out[nout - 1].start
                                    + (Tick)out[nout - 1].count * tau == t) {
                    out[nout - 1].count += take;
                } else {
                    sim_grow_runs(sim, nout + 1);
                    in = in_is_a ? sim->run_a : sim->run_b;
                    out = in_is_a ? sim->run_b : sim->run_a;
                    out[nout++] = (Run){ in[i].first + k, take, t };
                }
                prev_end = stop;
                k += take;
            }
        }
        sim->channel_count[c] += count;
        if (sim->channel_count[c] > sim->stats.max_channel_elements)
            sim->stats.max_channel_elements = sim->channel_count[c];
        if ((u >> d) & 1)
            sim->stats.elements_down[d] += count;
        else
            sim->stats.elements_up[d] += count;
        sim->stats.element_transfers += count;

        end = prev_end;
        if (h == 0)
            *left = end;
        /* An element that crossed in [t, t+tau) may leave the next node at
         * t+tau. */
        for (size_t i = 0; i < nout; i++)
            out[i].start += tau;
        in_is_a = !in_is_a;
        in = in_is_a ? sim->run_a : sim->run_b;
        out = in_is_a ? sim->run_b : sim->run_a;
        nin = nout;
        u = v;
    }
    if (hops == 0)
        *left = ready;
    return end;
}

/* ---- matching -------------------------------------------------------- */

/* Every receive and deferred send of the node's last step has completed. */
static void node_after_wait(Sim *sim, Node *node)
{
    if (node->returned_done) {
        if (node->wait_until > sim->stats.cycles)
            sim->stats.cycles = node->wait_until;
    } else {
        queue_push(sim->queue, node->wait_until,
                   (QueueItem){ node->address, NULL });
    }
}

static void node_remove_recv(Node *node, uint32_t i)
{
    memmove(node->recv + i, node->recv + i + 1,
            (node->nrecv - i - 1) * sizeof *node->recv);
    node->nrecv--;
}

/* Write a message's payload into the receive r of node (not running). */
static gboolean node_deliver(Sim *sim, Node *node, const Recv *r,
                             uint32_t source, int tag, size_t count,
                             Tick arrival, const Word *data)
{
    sim->stats.events++;
    if (count != r->count)
        return node_fail(node, "message of %zu elements from node %u (tag %d) "
                         "does not match the receive of %zu elements", count,
                         source, tag, r->count);
    memcpy(node_memory(node) + r->offset, data, count * sizeof(Word));
    if (arrival > node->wait_until)
        node->wait_until = arrival;
    return TRUE;
}

/* A message has been posted for `dest`: match it with the first waiting
 * receive from the same (source, tag) and write it straight from `data`,
 * or keep it in dest's early queue, in `owned` if given, else in a copy. */
static void node_offer(Sim *sim, Node *dest, uint32_t source, int tag,
                       size_t count, Tick arrival, const Word *data,
                       Msg *owned)
{
    if (dest != sim->running) {
        for (uint32_t i = 0; i < dest->nrecv; i++) {
            Recv r = dest->recv[i];
            if (r.source != source || r.tag != tag)
                continue;
            node_remove_recv(dest, i);
            gboolean ok = node_deliver(sim, dest, &r, source, tag, count,
                                       arrival, data);
            if (owned)
                msg_free(sim, owned);
            if (ok && dest->nrecv == 0 && dest->deferred == 0)
                node_after_wait(sim, dest);
            return;
        }
    }
    Msg *m = owned;
    if (!m) {
        m = msg_new(sim, count);
        memcpy(m->data, data, count * sizeof(Word));
    }
    m->source = source;
    m->tag = tag;
    m->arrival = arrival;
    m->next = NULL;
    if (dest->early_tail)
        dest->early_tail->next = m;
    else
        dest->early_head = m;
    dest->early_tail = m;
}

/* After a step returned: match its receives against early messages. */
static void node_match_early(Sim *sim, Node *node)
{
    uint32_t i = 0;
    while (i < node->nrecv) {
        Recv r = node->recv[i];
        Msg *prev = NULL, *m = node->early_head;
        while (m && !(m->source == r.source && m->tag == r.tag)) {
            prev = m;
            m = m->next;
        }
        if (!m) {
            i++;
            continue;
        }
        if (prev)
            prev->next = m->next;
        else
            node->early_head = m->next;
        if (node->early_tail == m)
            node->early_tail = prev;
        node_remove_recv(node, i);
        gboolean ok = node_deliver(sim, node, &r, m->source, m->tag, m->count,
                                   m->arrival, m->data);
        msg_free(sim, m);
        if (!ok)
            return;
    }
}

/* ---- node API: operations -------------------------------------------- */

/* Reserve the route of a message posted now by `node` and offer it to
 * dest. The payload is `data` (the sender's memory) or owned->data. */
static void sim_post(Sim *sim, Node *node, uint32_t dest, int tag,
                     size_t count, const int *path, int hops,
                     const Word *data, Msg *owned)
{
    SimMessage info = { sim->stats.messages++, node->address, dest, tag,
                        count, sim->now };
    sim->stats.elements_sent += count;
    Tick left = sim->now, arrival = sim->now;
    /* A local copy, or an empty message: no channel time, no startup. */
    if (hops > 0 && count > 0)
        arrival = sim_route(sim, &info, path, hops,
                            sim->now + sim->machine.startup, &left);
    if (left > node->wait_until)
        node->wait_until = left;
    node_offer(sim, &sim->node[dest], node->address, tag, count, arrival,
               data, owned);
}

void node_send(Node *node, const int *path, int hops, size_t offset,
               size_t count, int tag)
{
    Sim *sim = node->sim;
    if (sim->error)
        return;
    if (hops < 0 || hops > NODE_MAX_HOPS) {
        node_fail(node, "send path of %d hops (valid: 0..%d)", hops,
                  NODE_MAX_HOPS);
        return;
    }
    uint32_t dest = node->address;
    for (int h = 0; h < hops; h++) {
        if (path[h] < 0 || path[h] >= sim->n) {
            node_fail(node, "send path hop %d crosses dimension %d (valid: "
                      "0..%d)", h, path[h], sim->n - 1);
            return;
        }
        dest ^= (uint32_t)1 << path[h];
    }
    if (!node_check_run(node, "send", offset, count))
        return;
    const Word *data = node_memory(node) + offset;
    if (node->clock > sim->now) {
        /* Capture the payload now: the program may change it after. */
        Post *post = g_new(Post, 1);
        post->msg = msg_new(sim, count);
        memcpy(post->msg->data, data, count * sizeof(Word));
        post->msg->source = node->address;
        post->msg->tag = tag;
        post->dest = dest;
        post->hops = hops;
        memcpy(post->path, path, (size_t)hops * sizeof *path);
        node->deferred++;
        queue_push(sim->queue, node->clock, (QueueItem){ node->address, post });
        return;
    }
    sim_post(sim, node, dest, tag, count, path, hops, data, NULL);
}

void node_recv(Node *node, uint32_t source, int tag, size_t offset,
               size_t count)
{
    Sim *sim = node->sim;
    if (sim->error)
        return;
    if (source >= sim->nodes) {
        node_fail(node, "receive from node %u (valid: 0..%u)", source,
                  sim->nodes - 1);
        return;
    }
    if (!node_check_run(node, "receive", offset, count))
        return;
    if (node->nrecv == node->caprecv) {
        node->caprecv = node->caprecv ? 2 * node->caprecv : 4;
        node->recv = g_renew(Recv, node->recv, node->caprecv);
    }
    node->recv[node->nrecv++] = (Recv){ source, tag, offset, count };
}

void node_exchange(Node *node, int dimension, size_t offset, size_t count,
                   int tag)
{
    if (dimension < 0 || dimension >= node->sim->n) {
        node_fail(node, "exchange across dimension %d (valid: 0..%d)",
                  dimension, node->sim->n - 1);
        return;
    }
    node_send(node, &dimension, 1, offset, count, tag);
    node_recv(node, node->address ^ ((uint32_t)1 << dimension), tag, offset,
              count);
}

void node_compute(Node *node, uint64_t flops)
{
    Sim *sim = node->sim;
    node->clock += (Tick)flops * sim->machine.flop_time;
    if (node->clock > node->wait_until)
        node->wait_until = node->clock;
}

void node_mark(Node *node, const char *format, ...)
{
    Sim *sim = node->sim;
    if (!sim->observer || !sim->observer->mark)
        return;
    va_list ap;
    va_start(ap, format);
    g_autofree char *label = g_strdup_vprintf(format, ap);
    va_end(ap);
    sim->observer->mark(sim->observer_data, node->address, node->clock, label);
}

/* ---- the loop -------------------------------------------------------- */

static gboolean sim_check_quiet(Sim *sim, GError **error)
{
    for (uint32_t x = 0; x < sim->nodes; x++) {
        Node *node = &sim->node[x];
        if (node->nrecv > 0) {
            g_set_error(error, SIM_ERROR, SIM_ERROR_DEADLOCK,
                        "deadlock: node %u in step %u waits for %u "
                        "receive(s); the first from node %u with tag %d "
                        "was never sent", x, node->step - 1, node->nrecv,
                        node->recv[0].source, node->recv[0].tag);
            return FALSE;
        }
        if (node->early_head) {
            g_set_error(error, SIM_ERROR, SIM_ERROR_DEADLOCK,
                        "unreceived message: node %u never received %zu "
                        "elements sent by node %u with tag %d", x,
                        node->early_head->count, node->early_head->source,
                        node->early_head->tag);
            return FALSE;
        }
    }
    return TRUE;
}

static void sim_run_post(Sim *sim, Node *node, Post *post)
{
    Msg *m = post->msg;
    sim_post(sim, node, post->dest, m->tag, m->count, post->path, post->hops,
             m->data, m);
    g_free(post);
    if (--node->deferred == 0 && node->nrecv == 0)
        node_after_wait(sim, node);
}

gboolean sim_run(Sim *sim, NodeStepFn step, const void *config, GError **error)
{
    for (uint32_t x = 0; x < sim->nodes; x++)
        queue_push(sim->queue, 0, (QueueItem){ x, NULL });
    Tick time;
    QueueItem item;
    while (!sim->error && queue_pop(sim->queue, &time, &item)) {
        Node *node = &sim->node[item.node];
        sim->now = time;
        sim->stats.events++;
        if (item.post) {
            sim_run_post(sim, node, item.post);
            continue;
        }
        node->clock = time;
        node->wait_until = time;
        sim->running = node;
        NodeStatus status = step(node, config);
        sim->running = NULL;
        node->step++;
        node->returned_done = status == NODE_DONE;
        node_match_early(sim, node);
        if (sim->error)
            break;
        if (node->nrecv == 0 && node->deferred == 0)
            node_after_wait(sim, node);
    }
    if (sim->error) {
        g_propagate_error(error, sim->error);
        sim->error = NULL;
        return FALSE;
    }
    return sim_check_quiet(sim, error);
}
