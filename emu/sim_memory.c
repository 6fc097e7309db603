/* sim_memory.c -- where the engine's memory comes from: the big zeroed
 * arrays (emu_big_new0, oom.c), the payload buffers' pool and the slabs that
 * messages, receives and buffers are carved from, a lazy message's copy
 * out of its sender's memory, and building and freeing a Sim, which
 * allocates and gives back all of it.
 *
 * A unit of its own because the allocators' policies (what is pooled,
 * what the sanitizer build allocates one by one; how the big arrays are
 * mapped is oom.c's) are decided apart from what the engine does with
 * the memory; on an event's path only a free list's push or pop runs,
 * and those are inline in sim_internal.h.
 */
#include "sim_internal.h"
#include "oom.h"

#include <stdlib.h>
#include <string.h>

uint64_t sim_bytes_needed(const Machine *m, const SimLayout *layout)
{
    uint64_t nodes = machine_nodes(m);
    uint64_t words = layout->memory_elements * layout->element_words;
    uint64_t per_node = words * sizeof(Word) + layout->local_size
                        + sizeof(Node) + 2 * sizeof(QueueItem)
                        + 2 * sizeof(Tick) + sizeof(Pending);
    /* A channel's count (if its link's channels carried different
     * counts), and its timeline and count beside it if every link is in
     * use at once (a few spill to the heap form); messages in flight hold
     * at most about one memory's worth of payload. A sparse topology
     * allocates channels as they are used. */
    uint64_t channels = sim_dense(m) ? nodes * (uint64_t)m->topology.links : 0;
    uint64_t per_channel = sizeof(uint32_t) + sizeof(LinkChannel)
                           + sizeof(TimelineSpan);
    uint64_t ports = machine_ports_limited(m)
                     ? 2 * nodes * (sizeof(Timeline) + 2 * sizeof(TimelineSpan))
                     : 0;
    uint64_t per_link = (uint64_t)m->topology.links * 3 * sizeof(uint64_t);
    return nodes * per_node + channels * per_channel + ports + per_link
           + nodes * words * sizeof(Word);
}

/* ---- message buffers -------------------------------------------------- */

static unsigned pool_class(size_t words, size_t *capacity)
{
    if (words <= 8) {
        *capacity = 8;
        return 0;
    }
    unsigned s = (unsigned)(63 - __builtin_clzll((unsigned long long)words)) - 3;
    size_t j = (words + ((size_t)1 << s) - 1) >> s;     /* 8..16 */
    if (j == 16) {
        s++;
        j = 8;
    }
    *capacity = j << s;
    return 8 * s + (unsigned)(j - 8) + 1;
}

/* Buffers are carved from slabs of 4 MiB or more (emu_big_new0) and
 * never given back before sim_free, only to their class's pool: a 16-cube
 * exchange holds 32,768 buffers at once, and malloc'ing them one by one (a
 * call each) costs more than using them. The sanitizer build allocates
 * each on its own, so that ASan sees an overrun of one. */
#define SLAB_BYTES ((size_t)4 << 20)
/* Everything carved is aligned to a cache line: a buffer's capacity is a
 * multiple of 8 words (64 bytes) already, and a Msg or a Recv is one line. */
#define SLAB_ALIGN ((size_t)64)

typedef struct Slab {
    struct Slab *next;
    size_t bytes;
} Slab;

void *sim_slab_carve(Sim *sim, size_t bytes)
{
#ifdef EMU_BIG_MALLOC
    (void)sim;
    return emu_alloc(1, bytes, "a message buffer");
#else
    bytes = (bytes + SLAB_ALIGN - 1) & ~(SLAB_ALIGN - 1);
    if (bytes > sim->slab_left) {
        size_t head = (sizeof(Slab) + SLAB_ALIGN - 1) & ~(SLAB_ALIGN - 1);
        size_t size = MAX(SLAB_BYTES, head + bytes);
        Slab *slab = emu_big_new0(size, "message buffers");
        slab->next = sim->slabs;
        slab->bytes = size;
        sim->slabs = slab;
        sim->slab_next = (char *)slab + head;
        sim->slab_left = size - head;
    }
    void *p = sim->slab_next;
    sim->slab_next += bytes;
    sim->slab_left -= bytes;
    return p;
#endif
}

/* A payload buffer of count elements; a free one keeps the next free one
 * of its class in its first word (every class holds at least 8 words).
 * Taking one asks for the next one's line: a free list's links are read
 * one after another, and one freed long before (a batch of notes carried
 * out, messages that waited across a far step) is a miss the next take
 * would otherwise wait for. The same for messages and receives. */
static Word *buf_new(Sim *sim, size_t count, unsigned *cls)
{
    size_t capacity;
    *cls = pool_class(count * sim->element_words, &capacity);
    Word *b = sim->pool[*cls];
    if (b) {
        memcpy(&sim->pool[*cls], b, sizeof(Word *));
        if (sim->pool[*cls])
            EMU_PREFETCH(sim->pool[*cls]);
        return b;
    }
    return sim_slab_carve(sim, capacity * sizeof(Word));
}

/* A message of count elements with its own buffer (own) or none yet. */
Msg *sim_msg_new(Sim *sim, size_t count, gboolean own)
{
    Msg *m = sim->free_msg;
    if (m) {
        sim->free_msg = (Msg *)m->item.next;
        if (sim->free_msg)
            EMU_PREFETCH(sim->free_msg);
    } else {
        m = sim_slab_carve(sim, sizeof(Msg));
    }
    memset(m, 0, sizeof *m);
    m->count = count;
    /* An empty message gets a buffer too: a copy of no elements still
     * needs valid pointers (memcpy), and the hot paths then need no
     * test for it. A payload of a word at most is kept in the message
     * itself (MSG_INLINE). */
    if (own && count * sim->element_words <= 1) {
        m->data = (const Word *)(void *)&m->offset;
        m->cls = MSG_INLINE;
    } else if (own) {
        m->data = buf_new(sim, count, &m->cls);
    }
    return m;
}

/* Copy a lazy message's payload out of its sender's memory. */
static void msg_materialize(Sim *sim, Msg *m)
{
    Word *buf = buf_new(sim, m->count, &m->cls);
    memcpy(buf, sim_msg_data(sim, m),
           m->count * sim->element_words * sizeof(Word));
    m->data = buf;
    sim_lazy_unlink(sim, m);
}

/* The message kept in node d's own key gets a struct and its own copy of
 * the payload, at the head of the key's list: it is older than every
 * message there. */
static void msg_unkeep(Sim *sim, Node *d)
{
    Msg k = sim_kept_msg(sim, d);
    Msg *m = sim_msg_new(sim, k.count, TRUE);
    if (k.count > 0)
        memcpy(sim_msg_buf(m), sim_memory_at(sim, k.lazy, k.offset),
               k.count * sim->element_words * sizeof(Word));
    m->item.seq = k.item.seq;
    m->arrival = k.arrival;
    d->match.slot.used &= ~MATCH_KEPT_MSG;
    match_push_front(&d->match.slot, MATCH_MSGS, &m->item);
    sim_lazy_gone(sim, k.lazy);
}

/* Node x's memory is about to change in [offset, offset+count) (count 0:
 * all of it): copy out its lazy message if it reads it there. */
void sim_lazy_protect(Sim *sim, Node *x, size_t offset, size_t count)
{
    if (count != 0 && !sim_lazy_overlaps(x, offset, count))
        return;
    Node *d = sim_lazy_kept_dest(x->lazy);
    if (d)
        msg_unkeep(sim, d);
    else
        msg_materialize(sim, x->lazy);
}

/* A message still held when the engine is freed: its slab goes at once. */
static void msg_drop(Msg *m)
{
#ifdef EMU_BIG_MALLOC
    if (m->cls != MSG_INLINE)
        g_free(sim_msg_buf(m));
    g_free(m);
#else
    (void)m;
#endif
}

/* ---- construction ---------------------------------------------------- */

static size_t sim_memory_bytes(const Sim *sim)
{
    return (size_t)sim->nodes * sim->memory_elements * sim->element_words
           * sizeof(Word);
}

Sim *sim_new(const Machine *m, const SimLayout *layout)
{
    Sim *sim = g_new0(Sim, 1);
    machine_copy(&sim->machine, m);
    sim->topo = &sim->machine.topology;
    if (sim->machine.faults)
        sim->fault_hop_bits = faults_hop_bits(sim->machine.faults);
    sim->nodes = machine_nodes(m);
    sim->links = m->topology.links;
    sim->hot_link[0] = sim->hot_link[1] = -1;
    sim->sent_tick = -1;
    sim->memory_elements = layout->memory_elements;
    sim->element_words = layout->element_words ? layout->element_words : 1;
    sim->local_size = layout->local_size;
    g_assert(layout->phases <= SIM_MAX_PHASES);
    sim->stats.phases = layout->phases;
    sim->memory = emu_big_new0(sim_memory_bytes(sim), "the node memories");
    sim->local = sim->local_size
                     ? emu_big_new0((size_t)sim->nodes * sim->local_size,
                                    "the nodes' private state") : NULL;
    sim->node = emu_big_new0((size_t)sim->nodes * sizeof(Node), "the nodes");
    for (uint32_t x = 0; x < sim->nodes; x++) {
        sim->node[x].sim = sim;
        sim->node[x].address = x;
        sim->node[x].block = x;
    }
    sim->progress_at = UINT64_MAX;
    sim->progress_fn_at = UINT64_MAX;
    sim->tick_limit = INT64_MAX;
    sim->pend_far = PENDING_FAR;
    sim->pend_far_whole = PENDING_FAR_WHOLE;
    sim->keep_below = (uint64_t)1 << 32;
#ifdef SIM_CHECK_EXCHANGE
    sim->sent_checks = g_array_new(FALSE, FALSE, sizeof(SentCheck));
#endif
    if (machine_ports_limited(m)) {
        sim->port_capacity = (uint32_t)m->ports;
        sim->send_port = EMU_NEW0(Timeline, sim->nodes, "the nodes' ports");
        sim->recv_port = EMU_NEW0(Timeline, sim->nodes, "the nodes' ports");
    }
    if (machine_memory_paths(m)) {
        sim->mem_path = EMU_NEW0(Timeline, sim->nodes, "the nodes' memory paths");
        sim->path_busy = EMU_NEW0(Tick, sim->nodes, "the nodes' memory paths");
    }
    sim_channels_new(sim);
    /* With one sending port a channel is only ever used by elements
     * leaving its node, which that port already serialises. */
    sim->channels_implied = sim->port_capacity == 1;
    sim->route = g_new(int, topology_max_route(sim->topo) + 1);
    sim->queue = queue_new();
    match_init(&sim->match);
    sim->survey_bad = -1;
    sim->order_from = sim->order_stopped = -1;
    sim->surveyed.first = -1;
    sim->stats.link_up = g_new0(uint64_t, sim->links);
    sim->stats.link_down = g_new0(uint64_t, sim->links);
    sim->stats.link_busy = g_new0(uint64_t, sim->links);
    sim->stats.compute = emu_big_new0((size_t)sim->nodes * sizeof(Tick),
                                      "the nodes' statistics");
    if (layout->phases)
        sim->phase_start = emu_big_new0(
            (size_t)sim->nodes * sizeof(PhaseStart), "the nodes' phases");
    sim->stats.finished = emu_big_new0((size_t)sim->nodes * sizeof(Tick),
                                       "the nodes' statistics");
    if (layout->each) {
        sim->each = emu_big_new0((size_t)sim->nodes * sizeof(NodeEach),
                                 "the nodes' operations");
        for (uint32_t x = 0; x < sim->nodes; x++)
            sim->each[x].called = -1;
        /* Every receive in a struct of its own, which carries its
         * operation's handle: none kept in a node's state or a slot. */
        sim->keep_below = 0;
    }
    return sim;
}

void sim_post_drop(Post *post)
{
    msg_drop(post->msg);
    g_free(post);
}

static void drop_post(QueueItem *item, void *data)
{
    Post *post = item->post;
    (void)data;
    if (post && post != SIM_EACH_ALL)
        sim_post_drop(post);
}

/* Receives still held when the engine is freed (the sanitizer build's
 * are each their own allocation; the others go with their slabs). */
static void free_recvs(MatchItem *item)
{
#ifdef EMU_BIG_MALLOC
    while (item) {
        MatchItem *next = item->next;
        g_free((Recv *)item);                /* item is its first member */
        item = next;
    }
#else
    (void)item;
#endif
}

static void drop_msgs(MatchItem *item)
{
    while (item) {
        MatchItem *next = item->next;
        msg_drop((Msg *)item);
        item = next;
    }
}

/* A Sim's own storage: its step's receives, its pools and its slabs
 * (sim_free, and a shard's end, sim_parallel.c). */
void sim_storage_free(Sim *sim)
{
#ifdef EMU_BIG_MALLOC
    for (uint32_t i = 0; i < sim->nposted; i++)
        g_free(sim->posted[i]);
#endif
    g_free(sim->posted);
#ifdef EMU_BIG_MALLOC
    for (unsigned c = 0; c < POOL_CLASSES; c++)
        while (sim->pool[c]) {
            Word *b = sim->pool[c];
            memcpy(&sim->pool[c], b, sizeof(Word *));
            g_free(b);
        }
    while (sim->free_msg) {
        Msg *m = sim->free_msg;
        sim->free_msg = (Msg *)m->item.next;
        g_free(m);
    }
    while (sim->free_recv) {
        Recv *r = sim->free_recv;
        sim->free_recv = (Recv *)r->item.next;
        g_free(r);
    }
#endif
    while (sim->slabs) {
        Slab *slab = sim->slabs;
        sim->slabs = slab->next;
        emu_big_free(slab, slab->bytes);
    }
    sim->slab_next = NULL;
    sim->slab_left = 0;
}

void sim_free(Sim *sim)
{
    if (!sim)
        return;
    sim_channels_free(sim);
    if (sim->send_port) {
        for (uint32_t x = 0; x < sim->nodes; x++) {
            timeline_clear(&sim->send_port[x]);
            timeline_clear(&sim->recv_port[x]);
        }
    }
    if (sim->mem_path)
        for (uint32_t x = 0; x < sim->nodes; x++)
            timeline_clear(&sim->mem_path[x]);
    g_free(sim->mem_path);
    g_free(sim->path_busy);
    g_free(sim->path_mark);
    queue_foreach(sim->queue, drop_post, NULL);
    queue_free(sim->queue);
    for (size_t i = 0; i <= sim->match.mask + sim->nodes; i++) {
        MatchSlot *s = i <= sim->match.mask ? &sim->match.slot[i]
                       : &sim->node[i - sim->match.mask - 1].match.slot;
        if (!s->used || (s->used & MATCH_HELD_RECV))
            continue;
        if (s->used & MATCH_MSGS)
            drop_msgs(s->head);
        else
            free_recvs(s->head);
    }
    match_clear(&sim->match);
    timeline_pool_trim();
    sim_storage_free(sim);
#ifdef SIM_CHECK_EXCHANGE
    for (guint i = 0; i < sim->sent_checks->len; i++)
        g_free(g_array_index(sim->sent_checks, SentCheck, i).copy);
    g_array_free(sim->sent_checks, TRUE);
#endif
    g_free(sim->pending);
    g_free(sim->pending_tmp);
    g_free(sim->shapes);
    g_free(sim->send_port);
    g_free(sim->recv_port);
    g_free(sim->port_mark);
    g_free(sim->route);
    g_free(sim->ticks_name);
    g_free(sim->stop_name);
    emu_big_free(sim->node, (size_t)sim->nodes * sizeof(Node));
    emu_big_free(sim->local, (size_t)sim->nodes * sim->local_size);
    emu_big_free(sim->memory, sim_memory_bytes(sim));
    g_free(sim->run_a);
    g_free(sim->run_b);
    g_free(sim->stats.link_up);
    g_free(sim->stats.link_down);
    g_free(sim->stats.link_busy);
    emu_big_free(sim->stats.compute, (size_t)sim->nodes * sizeof(Tick));
    emu_big_free(sim->phase_start, (size_t)sim->nodes * sizeof(PhaseStart));
    emu_big_free(sim->stats.finished, (size_t)sim->nodes * sizeof(Tick));
    if (sim->each)
        for (uint32_t x = 0; x < sim->nodes; x++)
            g_free(sim->each[x].known);
    emu_big_free(sim->each, (size_t)sim->nodes * sizeof(NodeEach));
    g_free(sim->report);
    g_free(sim->report_tmp);
    g_free(sim->detour);
    /* last: the shards' slabs hold messages the walks above read */
    sim_par_free(sim);
    machine_clear(&sim->machine);
    g_clear_error(&sim->error);
    g_free(sim);
}
