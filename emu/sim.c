/* sim.c -- the discrete-event engine behind node.h.
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
 *    cube, meshes) and only for channels in use on the complete graph,
 *    where P^2 channels could not be allocated. With one port per
 *    direction the ports alone decide on every topology (a channel is only
 *    ever used by elements leaving its node, which the send port already
 *    serialises), so no channel timeline is consulted then.
 */
#define _DEFAULT_SOURCE             /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include "sim.h"
#include "sim_test.h"
#include "kernel.h"
#include "match.h"
#include "nodecheck.h"
#include "oom.h"
#include "queue.h"
#include "timeline.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#define SIM_BIG_MALLOC 1            /* keep ASan's red zones around them */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIM_BIG_MALLOC 1
#endif
#endif
/* The sanitizer build also checks node.h's rule for node_exchange: the
 * program leaves the region alone for the rest of the step call. */
#if defined(SIM_BIG_MALLOC) && !defined(SIM_CHECK_EXCHANGE)
#define SIM_CHECK_EXCHANGE 1
#endif

G_DEFINE_QUARK(sim-error-quark, sim_error)

/* Message buffers are pooled by size class: a class holds capacities
 * (8 + j) * 2^s words for s = 0..57, j = 0..7, so a buffer wastes under
 * 1/8. */
#define POOL_CLASSES (8 * 58)

/* A message waiting for its receive (an early message), or a deferred
 * send's payload. Its payload is its own buffer (data, of size class cls),
 * or, for an exchange's message (node_exchange) still "lazy", the
 * sender's own memory: the region the exchange will overwrite when it
 * completes, which nothing else writes meanwhile. A lazy message is copied
 * into a buffer only when its sender's memory is about to change there (a
 * delivery into that region, or the sender's next step); in a dimension
 * exchange that never happens before its receive takes it.
 *
 * One cache line, aligned to one (slab_carve): on a big machine the
 * receiver meets it 2^l events after it was posted, long evicted, and at
 * 80 bytes, carved 16 bytes apart, most messages would straddle two
 * lines, so the read ahead (sim_prefetch_ahead), which loads one line of
 * it, would leave its count or its data to a demand miss. */
typedef struct Msg {
    MatchItem item;            /* in a key's list, seq = message id; or
                                * in the free list, by item.next */
    const Word *data;          /* the payload's own buffer; NULL while
                                * lazy (msg_data) */
    struct Node *lazy;         /* the sender whose memory holds it, or NULL */
    size_t offset;             /* lazy: where in the sender's memory */
    size_t count;              /* elements */
    Tick arrival;              /* the last element reaches the destination */
    unsigned cls;              /* the own buffer's size class */
} Msg;

/* A receive posted and not yet matched. Carved from the slabs like a
 * message, one line each: the sender of its message reaches it through
 * the receiver's match slot, a dependent read. */
typedef struct Recv {
    MatchItem item;            /* in a key's list, seq = posting order; or
                                * in the free list, by item.next */
    uint32_t source;
    int tag;
    size_t offset, count;
} Recv;

G_STATIC_ASSERT(sizeof(Msg) == 64);
G_STATIC_ASSERT(sizeof(Recv) <= 64);

/* A node's state: two cache lines, the match slot included, aligned to
 * one: a step touches exactly two lines of it. At 112 bytes apart, half
 * the nodes would straddle three lines, and the read ahead
 * (node_prefetch: the first byte and the last) would miss the middle one,
 * leaving the first reads of the running node and of the destination to
 * demand misses (docs/performance.md, "A node's state in two cache
 * lines"). The first line holds the counters, which block of sim->memory
 * is the node's memory and its oldest waiting receive when that is kept
 * inline (recv_wait; the clock of the running node is sim->clock, the
 * room it took); the second its match slot, its oldest early message
 * when that is kept inline (msg_keep: its id in match.owner_word) and
 * its note, so that a message that finds no receive waiting touches only
 * the second line of its destination (node_offer; the read ahead loads
 * the first only where a receive will take a message). Its local work so far is
 * sim->stats.compute[address]; the start of its current phase is in
 * sim->phase_start, allocated only for programs that declare phases. */
struct Node {
    _Alignas(64) Sim *sim;
    Tick wait_until;           /* completion of everything posted */
    Msg *lazy;                 /* its lazy message, at most one */
    uint64_t rseq;             /* the receive kept inline: its posting */
    uint32_t roffset, rcount;  /* order, offset and count (recv_wait) */
    uint32_t address;
    unsigned step;
    uint32_t nrecv;            /* receives waiting for their message */
    uint32_t deferred;         /* sends waiting for their posting tick */
    uint32_t block;            /* its memory is block `block` of
                                * sim->memory (pending_relabel) */
    uint8_t returned_done;
    uint8_t phase;             /* node_phase: the current phase */
    _Alignas(64) MatchLocal match;  /* its own key of the match table;
                                     * owner_word: the kept message's id */
    Tick karrival;             /* the message kept in its own key, lazy */
    uint32_t koffset, kcount;  /* (msg_keep): arrival, offset in its
                                * sender's memory, count */
    uint64_t pend;             /* its note in sim->pending: see pending_of */
};
G_STATIC_ASSERT(sizeof(Node) == 128);
G_STATIC_ASSERT(offsetof(Node, match) == 64);

/* Node.lazy, when the lazy message is kept in its destination's state
 * (msg_keep): the destination, tagged in the low bit (a Node is aligned
 * to 64). */
static inline Msg *lazy_kept_tag(const Node *dest)
{
    return (Msg *)((uintptr_t)dest | 1u);
}

static inline Node *lazy_kept_dest(const Msg *lazy)
{
    return (uintptr_t)lazy & 1u ? (Node *)((uintptr_t)lazy - 1u) : NULL;
}

/* An exchange's deliveries, put off (a note, pending_note): node a's
 * region is to receive node b's (where, in sim->shapes[shape]); once b
 * has taken a's message, a lazy one still in a's region, the two regions
 * are to swap. Until then neither region may be read or written by
 * anything else, and each node's `pend` names the note. */
typedef struct {
    uint32_t a, b;
    uint32_t shape;            /* its regions: sim->shapes[shape] */
    uint8_t swap;
    uint8_t done;              /* carried out already (pending_settle) */
} Pending;
G_STATIC_ASSERT(sizeof(Pending) == 16);

/* Deliveries are put off from this distance on, in messages posted
 * between the two of an exchange (pending_can); an exchange of two whole
 * memories from PENDING_FAR_WHOLE on. */
#define PENDING_FAR 2048
#define PENDING_FAR_WHOLE 0

/* Where the regions of a note lie: one for all the notes of a dimension
 * exchange, so that a note is 16 bytes to sort. */
typedef struct {
    uint64_t a_offset, b_offset, count;
} PendingShape;

#ifdef SIM_CHECK_EXCHANGE
/* An exchange region as it was when the step posted its message (lazy,
 * delivered at once, noted or copied): the step must leave it so
 * (node.h). */
typedef struct {
    size_t offset, count;
    int tag;
    Word *copy;
} SentCheck;
#endif

/* When a node's current phase began, and its local work then. */
typedef struct {
    Tick start, compute;
} PhaseStart;

/* A send posted after local computation moved the node's clock past the
 * engine's time: reserved when the engine reaches that tick, so that its
 * priority is that of its own posting tick. */
typedef struct Post {
    Msg *msg;
    uint32_t dest;
    int tag;
    MessageClass cls;
    int hops;
    int path[];
} Post;

typedef struct {
    uint64_t first, count;     /* elements [first, first+count) */
    Tick start;                /* element `first` starts crossing here */
} Run;

typedef struct {
    Timeline tl;
    uint64_t count;            /* elements carried */
    uint64_t mark;             /* the locality order's check (order_touch) */
} Channel;

/* A channel of a dense topology while its link's array exists: its
 * timeline, and the elements it carried since the array was taken, plus
 * the array's `zero` (LinkChannels). Half a
 * cache line, so that no channel straddles two: nodes run in the order
 * their previous steps completed, which from a cube's dimension 2 on is
 * not the order of their addresses, and from dimension 11 on a line is
 * long gone before the next channel in it is used. */
typedef struct {
    _Alignas(32) Timeline tl;
    uint64_t carried;
    uint64_t mark;             /* the locality order's check (order_touch) */
} LinkChannel;
G_STATIC_ASSERT(sizeof(LinkChannel) == 32);
/* A channel's mark is found from its timeline, whichever kind it is. */
G_STATIC_ASSERT(offsetof(LinkChannel, tl) == 0 && offsetof(Channel, tl) == 0);
G_STATIC_ASSERT(offsetof(LinkChannel, mark) == offsetof(Channel, mark));

/* The channels of one link of a dense topology (the cube, meshes): their
 * timelines, node by node, exist only while the link is in use. A 20-cube
 * has 21 million channels, and a dimension exchange uses one link at a
 * time; keeping all their timelines would take 320 MiB of its peak.
 * Once every span on the link has ended (until <= now) none of them can
 * matter again, and the array is released, but only after it carried at
 * least nodes/8 messages: allocating it again costs a pass over it, which
 * those messages pay for, so the engine's cost still grows with messages.
 *
 * The elements each channel carried: a hop adds them beside its timeline
 * (LinkChannel.carried, in the line the hop touches anyway), and they are
 * folded into the link's counts when the array is released and when a run
 * ends (link_fold). The link's counts are one number while every channel
 * of it has carried the same (a dimension exchange: K elements on each),
 * else a column of 32-bit counts, node by node, with count_big past 32
 * bits. The alternative, one array of all the links' counts, 4 bytes a
 * channel mapped at the start, would make a 20-cube step first touch 4
 * MiB of it (page faults in steps that otherwise run in cache), and from
 * dimension 11 on each hop's count would be one more line from memory.
 * Where the ports imply the channels there are no arrays: a hop adds to
 * the column at once. */
typedef struct {
    LinkChannel *ch;           /* nodes channels, or NULL */
    Tick until;                /* every span reserved on it ends by then */
    uint64_t messages;         /* hops reserved since ch was allocated */
    gboolean many;             /* some timeline took the heap form */
    uint32_t *col;             /* the counts folded, node by node
                                * (UINT32_MAX: see count_big); or NULL */
    uint64_t uniform;          /* without col: every channel's count */
    /* The array's channels carried `carried - zero` since the last fold;
     * a fold that finds every one carried the same moves zero instead of
     * writing the array. Since that fold: hops added to it, the first
     * one's count, and whether a hop met a channel that had carried
     * something already or brought another count (mixed). */
    uint64_t zero;
    uint64_t hops, first;
    gboolean mixed;
} LinkChannels;

/* A released link's array, kept for reuse, and its zero. */
typedef struct {
    LinkChannel *ch;
    uint64_t zero;
} SpareLink;

/* A channel of a sparse topology, in the table under its key. */
typedef struct {
    Channel ch;
    uint64_t key;              /* node * links + link */
} SparseChannel;

struct Sim {
    Machine machine;
    const Topology *topo;      /* &machine.topology */
    uint32_t nodes;
    int links;
    size_t memory_elements, element_words, local_size;
    Word *memory;              /* the memories: 2^n blocks, one a node */
    unsigned char *local;
    Node *node;
    LinkChannels *link_ch;     /* dense: per link */
    GHashTable *count_big;     /* &key -> uint64_t, counts from count_limit
                                * (key: dense_index) */
    uint32_t count_limit;      /* UINT32_MAX - 1 (tests: sim_set_count_limit) */
    SpareLink *spare;          /* released links' arrays, for reuse */
    int hot_link[2];           /* the links whose arrays were allocated
                                * last, or -1: read ahead (sim_run) */
    int nspare;
    int links_live, links_live_max;    /* link arrays allocated: now, most */
    GHashTable *sparse;        /* sparse: &key -> Channel* */
    gboolean channels_implied; /* one port: no channel timelines */
    Timeline *send_port, *recv_port;   /* per node, only with a port limit */
    uint32_t port_capacity;
    gboolean locality;         /* sim_set_order(SIM_ORDER_LOCALITY) */
    uint64_t *port_mark;       /* with it and a port limit: the send
                                * ports' marks, then the receive ports' */

    EventQueue *queue;
    MatchTable match;
    Tick now;
    Node *running;
    Tick clock;                /* the running node's local time */
    uint64_t early;            /* early messages, all nodes' (sim_check_quiet
                                * reads the nodes' counts only if some) */
    uint64_t recv_seq;

    PhaseStart *phase_start;   /* per node, only if the program has phases */
    Recv **posted;             /* receives posted by the running node's */
    uint32_t nposted, capposted;   /* step so far (only it can post) */
    Run *run_a, *run_b;        /* routing scratch, reused */
    size_t run_cap;
    int *route;                /* default-route scratch, diameter long */
    Word *pool[POOL_CLASSES];  /* free payload buffers by class */
    Msg *free_msg;
    struct Slab *slabs;        /* where message buffers are carved from */
    char *slab_next;
    size_t slab_left;
    Recv *free_recv;
    Pending *pending;          /* put-off deliveries, in order of posting */
    Pending *pending_tmp;      /* the sort's other half */
    size_t npending, cappending;
    size_t pend_open;          /* of them, not yet carried out */
    PendingShape *shapes;      /* the notes' regions, distinct in a row */
    size_t nshapes, capshapes;
    uint64_t pend_base;        /* Node.pend above it: entry pend - base - 1 */
    uint64_t pend_far;         /* PENDING_FAR, or sim_set_pending_far's */
    uint64_t pend_far_whole;   /* PENDING_FAR_WHOLE, or the same */
    uint64_t keep_below;       /* what is kept in a node's state needs its
                                * count below this: 2^32 (it is stored in
                                * 32 bits), or 0 (sim_set_keep(FALSE)), a
                                * bound the hot path compares anyway */
    SimPendingCounts pend_counts;
    gboolean deferring;        /* the last delivery was put off */
#ifdef SIM_CHECK_EXCHANGE
    GArray *sent_checks;       /* SentCheck: the running step's exchange
                                * regions */
#endif

    const SimObserver *observer;
    void *observer_data;

    SimProgressFn progress_fn; /* sim_set_progress, or NULL */
    void *progress_data;
    uint32_t nodes_done;       /* programs finished, for progress_fn */
    uint64_t progress_at;      /* progress_fn is called once stats.events
                                * reaches this (matches and deliveries
                                * count too, so it may pass it by more
                                * than one); UINT64_MAX: never. Beside
                                * stats, the line the run loop counts
                                * events in */
    SimStats stats;
    GError *error;             /* first program error; stops the run */
};

/* The big zeroed arrays (memories, channels, nodes): mapped directly and
 * offered to the kernel for transparent huge pages, so that first touching
 * them costs one fault per 2 MiB instead of per 4 KiB. On a virtual
 * machine a fault is a trap to the hypervisor, so the 512 faults of 4 KiB
 * pages cost far more than the one of a huge page (docs/performance.md,
 * "Page faults"). So from 1 MiB on the length is rounded up to whole huge
 * pages (at most doubling an array of 1 to 2 MiB, the 14-cube's nodes);
 * below that, malloc's own mapping. Not lower: a host may take back free
 * 2 MiB blocks soon after a process frees them (free page reporting),
 * and a huge page from such a block costs its whole 2 MiB cold, so
 * rounding the small per-link arrays up makes runs after a pause slower.
 * Where huge pages are off, madvise is a hint that does nothing. */
#define BIG_MIN_BYTES ((size_t)1 << 20)
#define BIG_PAGE_BYTES ((size_t)2 << 20)
#define BIG_ALIGN 64

#ifndef SIM_BIG_MALLOC
static size_t big_length(size_t bytes)
{
    return (bytes + BIG_PAGE_BYTES - 1) & ~(BIG_PAGE_BYTES - 1);
}
#endif

/* `what` names the array in the message where it cannot be allocated. */
static void *big_new0(size_t bytes, const char *what)
{
#ifndef SIM_BIG_MALLOC
    if (bytes >= BIG_MIN_BYTES) {
        size_t len = big_length(bytes);
        void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            emu_out_of_memory(len, what);
#ifdef MADV_HUGEPAGE
        madvise(p, len, MADV_HUGEPAGE);
#endif
        return p;
    }
#endif
    /* Aligned to a cache line, which a Node requires (_Alignas); one
     * allocator for all of them. Unlike calloc, this zeroes with memset
     * pages the kernel has zeroed already (as g_aligned_alloc0 did, which
     * aborts where posix_memalign can fail softly): a small cost, paid
     * only below BIG_MIN_BYTES, since larger arrays are mapped whole
     * above. */
    void *p = NULL;
    if (posix_memalign(&p, BIG_ALIGN, bytes ? bytes : 1) != 0)
        emu_out_of_memory(bytes, what);
    return memset(p, 0, bytes ? bytes : 1);
}

static void big_free(void *p, size_t bytes)
{
    if (!p)
        return;
#ifdef SIM_BIG_MALLOC
    (void)bytes;
#else
    if (bytes >= BIG_MIN_BYTES) {
        munmap(p, big_length(bytes));
        return;
    }
#endif
    free(p);
}

static gboolean sim_dense(const Machine *m)
{
    return !m->topology.ops->sparse_links;
}

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

/* Buffers are carved from slabs of 4 MiB or more (big_new0: huge pages)
 * and never given back before sim_free, only to their class's pool: a
 * 16-cube exchange holds 32,768 buffers at once, and malloc'ing them one by
 * one (a call each, and a page fault per 4 KiB) costs more than using
 * them. The sanitizer build allocates each on its own, so that ASan sees
 * an overrun of one. */
#define SLAB_BYTES ((size_t)4 << 20)
/* Everything carved is aligned to a cache line: a buffer's capacity is a
 * multiple of 8 words (64 bytes) already, and a Msg or a Recv is one line. */
#define SLAB_ALIGN ((size_t)64)

typedef struct Slab {
    struct Slab *next;
    size_t bytes;
} Slab;

static void *slab_carve(Sim *sim, size_t bytes)
{
#ifdef SIM_BIG_MALLOC
    (void)sim;
    return emu_alloc(1, bytes, "a message buffer");
#else
    bytes = (bytes + SLAB_ALIGN - 1) & ~(SLAB_ALIGN - 1);
    if (bytes > sim->slab_left) {
        size_t head = (sizeof(Slab) + SLAB_ALIGN - 1) & ~(SLAB_ALIGN - 1);
        size_t size = MAX(SLAB_BYTES, head + bytes);
        Slab *slab = big_new0(size, "message buffers");
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
 * of its class in its first word (every class holds at least 8 words). */
static Word *buf_new(Sim *sim, size_t count, unsigned *cls)
{
    size_t capacity;
    *cls = pool_class(count * sim->element_words, &capacity);
    Word *b = sim->pool[*cls];
    if (b) {
        memcpy(&sim->pool[*cls], b, sizeof(Word *));
        return b;
    }
    return slab_carve(sim, capacity * sizeof(Word));
}

static void buf_free(Sim *sim, Word *b, unsigned cls)
{
    memcpy(b, &sim->pool[cls], sizeof(Word *));
    sim->pool[cls] = b;
}

/* A message of count elements with its own buffer (own) or none yet. */
static Msg *msg_new(Sim *sim, size_t count, gboolean own)
{
    Msg *m = sim->free_msg;
    if (m)
        sim->free_msg = (Msg *)m->item.next;
    else
        m = slab_carve(sim, sizeof(Msg));
    memset(m, 0, sizeof *m);
    m->count = count;
    /* An empty message gets a buffer too: a copy of no elements still
     * needs valid pointers (memcpy), and the hot paths then need no
     * test for it. */
    if (own)
        m->data = buf_new(sim, count, &m->cls);
    return m;
}

/* The message's own buffer, or NULL (lazy). */
static Word *msg_buf(const Msg *m)
{
    return m->lazy ? NULL : (Word *)m->data;
}

static void lazy_unlink(Msg *m)
{
    m->lazy->lazy = NULL;
    m->lazy = NULL;
}

/* Element `offset` of node x's memory, wherever its block is now. */
static Word *memory_at(const Sim *sim, const Node *x, size_t offset)
{
    return sim->memory
           + ((size_t)x->block * sim->memory_elements + offset)
                 * sim->element_words;
}

/* A message's payload: its own buffer, or where it lies in its lazy
 * sender's memory now. Looked up when read, not kept from the posting:
 * in the far steps of a dimension exchange a lazy message is never read
 * (its delivery is noted and the note swaps block numbers), and the
 * lookup is one more line in an order that does not stream. */
static const Word *msg_data(Sim *sim, const Msg *m)
{
    return m->lazy ? memory_at(sim, m->lazy, m->offset) : m->data;
}

/* Copy a lazy message's payload out of its sender's memory. */
static void msg_materialize(Sim *sim, Msg *m)
{
    Word *buf = buf_new(sim, m->count, &m->cls);
    memcpy(buf, msg_data(sim, m), m->count * sim->element_words * sizeof(Word));
    m->data = buf;
    lazy_unlink(m);
}

/* The message kept in node d's own key (msg_keep), as a Msg on the
 * stack: lazy, its sender the key's source. */
static Msg kept_msg(Sim *sim, const Node *d)
{
    return (Msg){ .item = { NULL, d->match.owner_word },
                  .lazy = &sim->node[d->match.slot.source],
                  .offset = d->koffset, .count = d->kcount,
                  .arrival = d->karrival };
}

/* The message kept in node d's own key gets a struct and its own copy of
 * the payload, at the head of the key's list: it is older than every
 * message there. */
static void msg_unkeep(Sim *sim, Node *d)
{
    Msg k = kept_msg(sim, d);
    Msg *m = msg_new(sim, k.count, TRUE);
    if (k.count > 0)
        memcpy(msg_buf(m), memory_at(sim, k.lazy, k.offset),
               k.count * sim->element_words * sizeof(Word));
    m->item.seq = k.item.seq;
    m->arrival = k.arrival;
    d->match.slot.used &= ~MATCH_KEPT_MSG;
    match_push_front(&d->match.slot, MATCH_MSGS, &m->item);
    k.lazy->lazy = NULL;
}

/* Where node x's lazy message reads x's memory: [*offset, +*count). */
static void lazy_region(const Node *x, size_t *offset, size_t *count)
{
    const Node *d = lazy_kept_dest(x->lazy);
    *offset = d ? d->koffset : x->lazy->offset;
    *count = d ? d->kcount : x->lazy->count;
}

/* Does node x's lazy message read its memory in [offset, offset+count)? */
static gboolean lazy_overlaps(const Node *x, size_t offset, size_t count)
{
    size_t o, c;
    lazy_region(x, &o, &c);
    return o < offset + count && offset < o + c;
}

/* Node x's memory is about to change in [offset, offset+count) (count 0:
 * all of it): copy out its lazy message if it reads it there. */
static void lazy_protect(Sim *sim, Node *x, size_t offset, size_t count)
{
    if (count != 0 && !lazy_overlaps(x, offset, count))
        return;
    Node *d = lazy_kept_dest(x->lazy);
    if (d)
        msg_unkeep(sim, d);
    else
        msg_materialize(sim, x->lazy);
}

/* A message still held when the engine is freed: its slab goes at once. */
static void msg_drop(Msg *m)
{
#ifdef SIM_BIG_MALLOC
    g_free(msg_buf(m));
    g_free(m);
#else
    (void)m;
#endif
}

/* A message taken: its sender's lazy message no longer, or its own
 * buffer back to the pool. */
static void msg_release(Sim *sim, Msg *m)
{
    if (m->lazy)
        lazy_unlink(m);
    else if (m->data)
        buf_free(sim, (Word *)m->data, m->cls);
}

static void msg_free(Sim *sim, Msg *m)
{
    msg_release(sim, m);
    m->item.next = (MatchItem *)sim->free_msg;     /* its first member */
    sim->free_msg = m;
}

static Recv *recv_new(Sim *sim)
{
    Recv *r = sim->free_recv;
    if (r)
        sim->free_recv = (Recv *)r->item.next;
    else
        r = slab_carve(sim, sizeof(Recv));
    return r;
}

static void recv_free(Sim *sim, Recv *r)
{
    r->item.next = (MatchItem *)sim->free_recv;    /* its first member */
    sim->free_recv = r;
}

/* ---- construction ---------------------------------------------------- */

static size_t sim_memory_bytes(const Sim *sim)
{
    return (size_t)sim->nodes * sim->memory_elements * sim->element_words
           * sizeof(Word);
}

static size_t sim_col_bytes(const Sim *sim)
{
    return (size_t)sim->nodes * sizeof(uint32_t);
}

static size_t sim_link_bytes(const Sim *sim)
{
    return (size_t)sim->nodes * sizeof(LinkChannel);
}

Sim *sim_new(const Machine *m, const SimLayout *layout)
{
    Sim *sim = g_new0(Sim, 1);
    machine_copy(&sim->machine, m);
    sim->topo = &sim->machine.topology;
    sim->nodes = machine_nodes(m);
    sim->links = m->topology.links;
    sim->hot_link[0] = sim->hot_link[1] = -1;
    sim->memory_elements = layout->memory_elements;
    sim->element_words = layout->element_words ? layout->element_words : 1;
    sim->local_size = layout->local_size;
    g_assert(layout->phases <= SIM_MAX_PHASES);
    sim->stats.phases = layout->phases;
    sim->memory = big_new0(sim_memory_bytes(sim), "the node memories");
    sim->local = sim->local_size
                     ? big_new0((size_t)sim->nodes * sim->local_size,
                                "the nodes' private state") : NULL;
    sim->node = big_new0((size_t)sim->nodes * sizeof(Node), "the nodes");
    for (uint32_t x = 0; x < sim->nodes; x++) {
        sim->node[x].sim = sim;
        sim->node[x].address = x;
        sim->node[x].block = x;
    }
    sim->progress_at = UINT64_MAX;
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
    if (sim_dense(m)) {
        sim->link_ch = g_new0(LinkChannels, sim->links ? sim->links : 1);
        sim->count_big = g_hash_table_new_full(g_int64_hash, g_int64_equal,
                                               g_free, g_free);
        sim->count_limit = UINT32_MAX - 1;
    } else {
        sim->sparse = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL,
                                            NULL);
    }
    /* With one sending port a channel is only ever used by elements
     * leaving its node, which that port already serialises. */
    sim->channels_implied = sim->port_capacity == 1;
    sim->route = g_new(int, topology_max_route(sim->topo) + 1);
    sim->queue = queue_new();
    match_init(&sim->match);
    sim->stats.link_up = g_new0(uint64_t, sim->links);
    sim->stats.link_down = g_new0(uint64_t, sim->links);
    sim->stats.link_busy = g_new0(uint64_t, sim->links);
    sim->stats.compute = big_new0((size_t)sim->nodes * sizeof(Tick),
                                  "the nodes' statistics");
    if (layout->phases)
        sim->phase_start = big_new0((size_t)sim->nodes * sizeof(PhaseStart),
                                    "the nodes' phases");
    sim->stats.finished = big_new0((size_t)sim->nodes * sizeof(Tick),
                                  "the nodes' statistics");
    return sim;
}

static void drop_post(QueueItem *item, void *data)
{
    Post *post = item->post;
    (void)data;
    if (post) {
        msg_drop(post->msg);
        g_free(post);
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

/* Receives still held when the engine is freed (the sanitizer build's
 * are each their own allocation; the others go with their slabs). */
static void free_recvs(MatchItem *item)
{
#ifdef SIM_BIG_MALLOC
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

static void link_release(Sim *sim, int link);
static void links_fold(Sim *sim);

void sim_free(Sim *sim)
{
    if (!sim)
        return;
    if (sim->link_ch) {
        for (int l = 0; l < sim->links; l++) {
            link_release(sim, l);
            big_free(sim->link_ch[l].col, sim_col_bytes(sim));
        }
        for (int i = 0; i < sim->nspare; i++)
            big_free(sim->spare[i].ch, sim_link_bytes(sim));
        g_free(sim->spare);
        g_free(sim->link_ch);
        g_hash_table_destroy(sim->count_big);
    }
    if (sim->sparse) {
        g_hash_table_foreach(sim->sparse, free_channel, NULL);
        g_hash_table_destroy(sim->sparse);
    }
    if (sim->send_port) {
        for (uint32_t x = 0; x < sim->nodes; x++) {
            timeline_clear(&sim->send_port[x]);
            timeline_clear(&sim->recv_port[x]);
        }
    }
    queue_foreach(sim->queue, drop_post, NULL);
    queue_free(sim->queue);
    for (size_t i = 0; i <= sim->match.mask + sim->nodes; i++) {
        MatchSlot *s = i <= sim->match.mask ? &sim->match.slot[i]
                       : &sim->node[i - sim->match.mask - 1].match.slot;
        if (!s->used)
            continue;
        if (s->used & MATCH_MSGS)
            drop_msgs(s->head);
        else
            free_recvs(s->head);
    }
    match_clear(&sim->match);
#ifdef SIM_BIG_MALLOC
    for (uint32_t i = 0; i < sim->nposted; i++)
        g_free(sim->posted[i]);
#endif
    g_free(sim->posted);
#ifdef SIM_BIG_MALLOC
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
        big_free(slab, slab->bytes);
    }
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
    big_free(sim->node, (size_t)sim->nodes * sizeof(Node));
    big_free(sim->local, (size_t)sim->nodes * sim->local_size);
    big_free(sim->memory, sim_memory_bytes(sim));
    g_free(sim->run_a);
    g_free(sim->run_b);
    g_free(sim->stats.link_up);
    g_free(sim->stats.link_down);
    g_free(sim->stats.link_busy);
    big_free(sim->stats.compute, (size_t)sim->nodes * sizeof(Tick));
    big_free(sim->phase_start, (size_t)sim->nodes * sizeof(PhaseStart));
    big_free(sim->stats.finished, (size_t)sim->nodes * sizeof(Tick));
    machine_clear(&sim->machine);
    g_clear_error(&sim->error);
    g_free(sim);
}

Word *sim_node_memory(Sim *sim, uint32_t node)
{
    return memory_at(sim, &sim->node[node], 0);
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

/* The sparse channel leaving `node` on `link`; created on first use, NULL
 * only when looking up (create = FALSE) an unused one. */
static Channel *sim_channel(const Sim *sim, uint32_t node, int link,
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

/* Dense channels are link-major, so that the channels of one link (a cube
 * dimension's, which a step of most programs uses at every node in address
 * order) lie next to each other in memory. */
static uint64_t dense_index(const Sim *sim, uint32_t node, int link)
{
    return (uint64_t)link * sim->nodes + node;
}

/* channel_timeline's other cases: a sparse channel, or a link whose
 * array is not allocated (taken from the spares or mapped here). */
static Timeline *channel_timeline_slow(Sim *sim, uint32_t node, int link)
{
    if (!sim->link_ch)
        return &sim_channel(sim, node, link, TRUE)->tl;
    LinkChannels *lc = &sim->link_ch[link];
    if (!lc->ch) {
        /* A released array holds only spans that ended before the tick it
         * was released at, which every use prunes first: as good as empty,
         * and already in memory (a new one costs the kernel zeroing it);
         * its counts were folded and zeroed. */
        SpareLink got = sim->nspare > 0
                            ? sim->spare[--sim->nspare]
                            : (SpareLink){ big_new0(sim_link_bytes(sim),
                                                     "a link's channels"), 0 };
        lc->ch = got.ch;
        lc->zero = got.zero;
        if (++sim->links_live > sim->links_live_max)
            sim->links_live_max = sim->links_live;
        sim->hot_link[1] = sim->hot_link[0];
        sim->hot_link[0] = link;
    }
    return &lc->ch[node].tl;
}

/* The timeline of the channel leaving `node` on `link`; inline where the
 * link's array is allocated already. */
static inline Timeline *channel_timeline(Sim *sim, uint32_t node, int link)
{
    if (sim->link_ch && sim->link_ch[link].ch)
        return &sim->link_ch[link].ch[node].tl;
    return channel_timeline_slow(sim, node, link);
}

/* A reservation up to `end` was made on tl, a channel of `link`. */
static void channel_took(Sim *sim, int link, const Timeline *tl, Tick end)
{
    if (!sim->link_ch)
        return;
    LinkChannels *lc = &sim->link_ch[link];
    if (end > lc->until)
        lc->until = end;
    if (tl->start == TIMELINE_MANY)
        lc->many = TRUE;
}

static void link_fold(Sim *sim, int link);

static void link_release(Sim *sim, int link)
{
    LinkChannels *lc = &sim->link_ch[link];
    if (!lc->ch)
        return;
    link_fold(sim, link);
    if (lc->many)
        for (uint32_t x = 0; x < sim->nodes; x++)
            timeline_clear(&lc->ch[x].tl);
    /* Kept for reuse while arrays in use and kept stay within the most
     * ever in use at once, which the run's peak held anyway: a dimension
     * exchange keeps one, gray-to-binary's 15 concurrent links 15, and
     * neither zeroes a fresh array every step. */
    sim->links_live--;
    for (int k = 0; k < 2; k++)
        if (sim->hot_link[k] == link)
            sim->hot_link[k] = -1;
    if (sim->links_live + sim->nspare < sim->links_live_max) {
        if (!sim->spare)
            sim->spare = EMU_NEW(SpareLink, sim->links, "the spare links");
        sim->spare[sim->nspare++] = (SpareLink){ lc->ch, lc->zero };
    } else {
        big_free(lc->ch, sim_link_bytes(sim));
    }
    *lc = (LinkChannels){ .until = lc->until, .col = lc->col,
                          .uniform = lc->uniform };
}

/* The engine reached tick `now`: release the links whose spans have all
 * ended, once they have paid for their allocation (LinkChannels). */
static void links_idle(Sim *sim, Tick now)
{
    for (int l = 0; l < sim->links; l++) {
        LinkChannels *lc = &sim->link_ch[l];
        if (lc->ch && lc->until <= now && lc->messages >= sim->nodes / 8)
            link_release(sim, l);
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
    uint64_t i = dense_index(sim, node, link);
    return *(const uint64_t *)g_hash_table_lookup(sim->count_big, &i);
}

static uint64_t channel_count(const Sim *sim, uint32_t node, int link)
{
    if (!sim->link_ch) {
        const Channel *c = sim_channel(sim, node, link, FALSE);
        return c ? c->count : 0;
    }
    const LinkChannels *lc = &sim->link_ch[link];
    return count_folded(sim, node, link)
           + (lc->ch ? lc->ch[node].carried - lc->zero : 0);
}

/* Set a folded count (a link with a column). */
static void count_set(Sim *sim, uint32_t node, int link, uint64_t total)
{
    uint32_t *c = &sim->link_ch[link].col[node];
    if (*c != UINT32_MAX && total < sim->count_limit) {
        *c = (uint32_t)total;
        return;
    }
    uint64_t i = dense_index(sim, node, link);
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
        lc->col = big_new0(sim_col_bytes(sim), "a link's counts");
        if (lc->uniform > 0)
            for (uint32_t x = 0; x < sim->nodes; x++)
                count_set(sim, x, link, lc->uniform);
    }
    return lc->col;
}

static void count_seen(Sim *sim, uint64_t total)
{
    if (total > sim->stats.max_channel_elements)
        sim->stats.max_channel_elements = total;
}

/* Add count elements to a folded count (no array, or none of its own). */
static void count_add(Sim *sim, uint32_t node, int link, uint64_t count)
{
    link_col(sim, link);
    uint64_t total = count_folded(sim, node, link) + count;
    count_set(sim, node, link, total);
    count_seen(sim, total);
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
    LinkChannel *ch = lc->ch;
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
            count_seen(sim, lc->uniform);
            return;
        }
    }
    for (x = 0; x < n; x++) {
        uint64_t v = ch[x].carried - zero;
        if (v > 0) {
            count_add(sim, x, link, v);
            ch[x].carried = zero;
        }
    }
}

/* Every link's array folded (the run's statistics are then complete). */
static void links_fold(Sim *sim)
{
    if (sim->link_ch)
        for (int l = 0; l < sim->links; l++)
            link_fold(sim, l);
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

/* ---- node API: queries ----------------------------------------------- */

uint32_t node_address(const Node *node) { return node->address; }
uint32_t node_count(const Node *node) { return node->sim->nodes; }
int node_links(const Node *node) { return node->sim->links; }
const char *node_topology(const Node *node) { return node->sim->topo->ops->name; }
unsigned node_step(const Node *node) { return node->step; }
size_t node_memory_elements(const Node *node) { return node->sim->memory_elements; }
size_t node_element_words(const Node *node) { return node->sim->element_words; }

uint32_t node_neighbour(const Node *node, int link)
{
    const Sim *sim = node->sim;
    if (link < 0 || link >= sim->links)
        return NODE_NONE;
    uint32_t v = topology_neighbour(sim->topo, node->address, link);
    return v == TOPOLOGY_NONE ? NODE_NONE : v;
}

Word *node_memory(Node *node)
{
    return memory_at(node->sim, node, 0);
}

void *node_local(Node *node)
{
    Sim *sim = node->sim;
    return sim->local ? sim->local + (size_t)node->address * sim->local_size
                      : NULL;
}

/* Where a misuse is recorded (node_fail, nodecheck.h): the run's error,
 * first misuse only; the run stops after the current step. Outside its
 * step call a node's counter already names the next step. */
NodeFault node_fault(Node *node)
{
    Sim *sim = node->sim;
    return (NodeFault){ &sim->error, SIM_ERROR, SIM_ERROR_PROGRAM,
                        node == sim->running ? node->step : node->step - 1 };
}

/* ---- routing --------------------------------------------------------- */

static void sim_grow_runs(Sim *sim, size_t need)
{
    if (need <= sim->run_cap)
        return;
    size_t cap = sim->run_cap ? sim->run_cap : 16;
    while (cap < need)
        cap *= 2;
    sim->run_a = EMU_RENEW(Run, sim->run_a, cap, "a message's runs of elements");
    sim->run_b = EMU_RENEW(Run, sim->run_b, cap, "a message's runs of elements");
    sim->run_cap = cap;
}

/* ---- the locality order (sim_set_order) -------------------------------
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
 *    posting node (order_touch); a second node's reservation in the same
 *    tick is a conflict. Reservations of one node's events keep their
 *    order: its items in a bucket keep their push order (the sort is
 *    stable), and only its own step pushes its deferred sends.
 *  - Deliveries. A receive is matched once, to the same message, in
 *    either order (keys are (destination, source, tag), and one source's
 *    messages are posted in its own order); what the order can change is
 *    which of two deliveries into one node lands last. That matters only
 *    where two of its receives overlap, which order_recvs_overlap makes a
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

static void order_conflict(Sim *sim, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void order_conflict(Sim *sim, const char *fmt, ...)
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

/* A reservation on a resource by a message of `source`, posted now. */
static inline void order_touch(Sim *sim, uint64_t *mark, uint32_t source,
                               const char *what, uint32_t owner)
{
    uint64_t m = (uint64_t)(uint32_t)sim->now << 32 | ((uint64_t)source + 1);
    uint64_t old = *mark;
    if (old != m && (uint32_t)old != 0 && old >> 32 == m >> 32)
        order_conflict(sim, "nodes %u and %u both reserved %s of node %u",
                       (uint32_t)old - 1, source, what, owner);
    *mark = m;
}

/* The same for the channel leaving `owner` whose timeline is tl (a dense
 * or a sparse one: the mark lies at the same place after either). */
static inline void channel_touch(Sim *sim, Timeline *tl, uint32_t source,
                                 uint32_t owner)
{
    order_touch(sim, (uint64_t *)(void *)((char *)tl + offsetof(Channel, mark)),
                source, "a channel", owner);
}

/* The resources one element of a hop needs: res[0] the channel (capacity
 * one) unless implied by the ports, then the sending and receiving ports
 * (capacity k) when limited. */
typedef struct {
    Timeline *res[3];
    uint32_t cap[3];
    int n;
} Hop;

/* Earliest t >= from at which one element may cross: every resource of
 * the hop is free for one element-time. */
static Tick hop_fit(const Hop *hop, Tick from, Tick tau)
{
    Tick t = from;
    for (;;) {
        Tick t0 = t;
        for (int r = 0; r < hop->n; r++)
            t = timeline_fit(hop->res[r], t, tau, hop->cap[r]);
        if (t == t0)
            return t;
    }
}

static Tick hop_free_until(const Hop *hop, Tick t)
{
    Tick until = TIMELINE_FOREVER;
    for (int r = 0; r < hop->n; r++) {
        Tick u = timeline_free_until(hop->res[r], t, hop->cap[r]);
        if (u < until)
            until = u;
    }
    return until;
}

/* Reserve the startup of a message whose startups hold the port: on the
 * source's sending port when ports are limited, else on its first
 * channel (with all ports, every channel has its own port). Returns when
 * the startup ends. */
static Tick sim_hold_startup(Sim *sim, const SimMessage *msg, int link,
                             Tick ts)
{
    Timeline *res;
    uint32_t cap;
    if (sim->send_port) {
        res = &sim->send_port[msg->source];
        cap = sim->port_capacity;
        if (sim->locality)
            order_touch(sim, &sim->port_mark[msg->source], msg->source,
                        "the send port", msg->source);
    } else {
        res = channel_timeline(sim, msg->source, link);
        cap = 1;
        if (sim->locality)
            channel_touch(sim, res, msg->source, msg->source);
    }
    timeline_prune(res, sim->now);
    Tick s = timeline_fit(res, sim->now, ts, cap);
    timeline_take(res, s, s + ts);
    if (!sim->send_port)
        channel_took(sim, link, res, s + ts);
    if (sim->observer && sim->observer->startup)
        sim->observer->startup(sim->observer_data, msg, link, s, ts);
    return s + ts;
}

/* The statistics of a message's count elements crossing `link` from node
 * u, the last leaving at `end`; ch is the channel's timeline, or NULL
 * where the ports imply the channels. */
static inline __attribute__((always_inline)) void
hop_account(Sim *sim, const SimMessage *msg, uint32_t u, int link,
            Timeline *ch, Tick end)
{
    uint64_t count = msg->count;
    if (ch)
        channel_took(sim, link, ch, end);
    if (!sim->link_ch) {
        Channel *c = sim_channel(sim, u, link, TRUE);
        count_seen(sim, c->count += count);
    } else if (ch) {
        /* ch is the first member of its LinkChannel */
        LinkChannel *c = (LinkChannel *)(void *)ch;
        LinkChannels *lc = &sim->link_ch[link];
        lc->messages++;
        if (lc->hops++ == 0)
            lc->first = count;
        if (c->carried != lc->zero || count != lc->first)
            lc->mixed = TRUE;
        c->carried += count;
    } else {
        count_add(sim, u, link, count);
    }
    if (topology_direction(sim->topo, u, link) < 0)
        sim->stats.link_down[link] += count;
    else
        sim->stats.link_up[link] += count;
    sim->stats.link_busy[link] += count * (uint64_t)msg->element_time;
    sim->stats.element_transfers += count;
    sim->stats.class_transfers[msg->cls] += count;
}

/* One hop over a channel and no port resources (all ports): if the
 * channel is free from the first element's slot until the last has
 * crossed, reserve that one span and return when the last element
 * arrives; else reserve nothing and return -1, and sim_route splits the
 * message into runs. It is the reservation sim_route's loop makes for a
 * message that flows without interruption, without the run arrays. */
static Tick sim_route_one(Sim *sim, const SimMessage *msg, int link, Tick ready)
{
    const Tick tau = msg->element_time;
    uint32_t u = msg->source;
    Timeline *ch = channel_timeline(sim, u, link);
    if (sim->locality)
        channel_touch(sim, ch, u, u);
    Tick t = timeline_claim(ch, sim->now, ready, tau, msg->count);
    if (t < 0)
        return -1;
    Tick stop = t + (Tick)msg->count * tau;
    if (sim->observer && sim->observer->channel_busy)
        sim->observer->channel_busy(sim->observer_data, msg, u, link, 0,
                                    msg->count, t);
    hop_account(sim, msg, u, link, ch, stop);
    return stop;
}

/* Reserve a message's route. Elements are numbered 0..count-1 and keep
 * their order on every channel; each hop takes the earliest free slots at
 * or after the element's arrival at that node (oldest-first arbitration:
 * everything already reserved is older). Returns the tick the last
 * element reaches the destination; *left is when the last element has left
 * the source. */
static Tick sim_route(Sim *sim, const SimMessage *msg, const int *path,
                      int hops, Tick *left)
{
    const MachinePrice *price = machine_price(&sim->machine, msg->cls);
    const Tick tau = msg->element_time;
    uint64_t count = msg->count;
    uint32_t u = msg->source;
    Tick ready = sim->now + price->startup;
    if (price->startup > 0 && sim->machine.startup_holds_port)
        ready = sim_hold_startup(sim, msg, path[0], price->startup);
    if (hops == 1 && !sim->send_port && !sim->channels_implied) {
        Tick end = sim_route_one(sim, msg, path[0], ready);
        if (end >= 0)
            return *left = end;
    }

    sim_grow_runs(sim, 1);
    gboolean in_is_a = TRUE;       /* run_a holds this hop's input */
    Run *in = sim->run_a, *out = sim->run_b;
    size_t nin = 1;
    in[0] = (Run){ 0, count, ready };
    Tick end = ready;

    for (int h = 0; h < hops; h++) {
        int link = path[h];
        uint32_t v = topology_neighbour(sim->topo, u, link);
        Timeline *ch = sim->channels_implied ? NULL
                                             : channel_timeline(sim, u, link);
        Hop hop = { .n = 0 };
        if (ch) {
            hop.res[hop.n] = ch;
            hop.cap[hop.n++] = 1;
        }
        if (sim->send_port) {
            hop.res[hop.n] = &sim->send_port[u];
            hop.cap[hop.n++] = sim->port_capacity;
            hop.res[hop.n] = &sim->recv_port[v];
            hop.cap[hop.n++] = sim->port_capacity;
        }
        for (int r = 0; r < hop.n; r++)
            timeline_prune(hop.res[r], sim->now);
        if (sim->locality) {
            if (ch)
                channel_touch(sim, ch, msg->source, u);
            if (sim->send_port) {
                order_touch(sim, &sim->port_mark[u], msg->source,
                            "the send port", u);
                order_touch(sim, &sim->port_mark[sim->nodes + v],
                            msg->source, "the receive port", v);
            }
        }

        size_t nout = 0;
        Tick prev_end = INT64_MIN;
        for (size_t i = 0; i < nin; i++) {
            uint64_t k = 0;
            while (k < in[i].count) {
                Tick want = in[i].start + (Tick)k * tau;
                if (want < prev_end)
                    want = prev_end;
                Tick t = hop_fit(&hop, want, tau);
                Tick until = hop_free_until(&hop, t);
                uint64_t take = in[i].count - k;
                if (until != TIMELINE_FOREVER
                    && (uint64_t)((until - t) / tau) < take)
                    take = (uint64_t)((until - t) / tau);
                Tick stop = t + (Tick)take * tau;
                for (int r = 0; r < hop.n; r++)
                    timeline_take(hop.res[r], t, stop);
                if (sim->observer && sim->observer->channel_busy)
                    sim->observer->channel_busy(sim->observer_data, msg, u,
                                                link, in[i].first + k, take, t);
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
        hop_account(sim, msg, u, link, ch, prev_end);

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
    return end;
}

/* ---- matching -------------------------------------------------------- */

static void node_close_phase(Sim *sim, Node *node, Tick end);

/* ---- exchanges' deliveries, put off ----------------------------------
 *
 * In a dimension exchange the two nodes of a pair run 2^l events apart in
 * cube dimension l (nodes run in the order their previous steps completed,
 * which arbitration fixes), so on a big machine the second one's step
 * found both regions long gone from the cache and copied them one cache
 * miss after another. Its deliveries are put off instead: when node b's
 * exchange message reaches node a, whose own message to b still lies lazy
 * in the very region that receives (see Msg), the engine notes that a's
 * region is to take b's; when b then takes a's message into the region it
 * sent, the note becomes a swap. The notes are carried out when time moves
 * on, in the order of the nodes' addresses, so that memory is read and
 * written in streams; or at once, when anything else is about to read or
 * write one of their regions: the node runs, or a delivery lands in its
 * memory. Nothing else reads a noted region: a's lazy message is b's
 * alone, and b sent its region in an exchange, which the program leaves
 * alone until the step ends (node.h). The final memory is that of
 * carrying every delivery out when it happens, which the tests compare
 * element by element. */

/* Notes carried out in a batch, from this many on, are sorted first. */
#define PENDING_SORT_MIN 64
#define PENDING_RADIX_BITS 11

/* Node x's note, if one is still to be carried out. */
static Pending *pending_of(const Sim *sim, const Node *x)
{
    if (x->pend <= sim->pend_base)
        return NULL;
    Pending *p = &sim->pending[x->pend - sim->pend_base - 1];
    return p->done ? NULL : p;
}

static void swap_words(Word *x, Word *y, size_t words)
{
    Word t[64];
    while (words > 0) {
        size_t k = MIN(words, G_N_ELEMENTS(t));
        memcpy(t, x, k * sizeof(Word));
        memcpy(x, y, k * sizeof(Word));
        memcpy(y, t, k * sizeof(Word));
        x += k;
        y += k;
        words -= k;
    }
}

/* Where a note's two regions lie: a's receives, b's was sent. */
static const PendingShape *pending_regions(Sim *sim, const Pending *p,
                                           Word **x, Word **y)
{
    const PendingShape *sh = &sim->shapes[p->shape];
    *x = memory_at(sim, &sim->node[p->a], sh->a_offset);
    *y = memory_at(sim, &sim->node[p->b], sh->b_offset);
    return sh;
}

/* A swap of the two nodes' whole memories: carried out by swapping which
 * block each owns (Node.block), two words, not 2 x K elements, and at
 * once, when the note becomes a swap (node_match_posted), not in the
 * batch. In a dimension exchange every note is one, and every pair is
 * noted (PENDING_FAR_WHOLE): the payload does not move at all.
 * Nothing holds an address in either memory here: a's lazy message is
 * the one b took (pending_swap), b has none over its region (or it
 * would not be a swap), and a new one needs a step, which settles the
 * note first; a delivery into either settles it too. */
static gboolean pending_whole(const Sim *sim, size_t a_offset,
                              size_t b_offset, size_t count)
{
    return a_offset == 0 && b_offset == 0 && count == sim->memory_elements;
}

static gboolean pending_relabels(const Sim *sim, const Pending *p)
{
    const PendingShape *sh = &sim->shapes[p->shape];
    return p->swap && pending_whole(sim, sh->a_offset, sh->b_offset, sh->count);
}

static void pending_relabel(Sim *sim, Pending *p)
{
    Node *a = &sim->node[p->a], *b = &sim->node[p->b];
#ifdef SIM_CHECK_EXCHANGE
    size_t ao = 0, ac = 0, bo = 0, bc = 0;
    if (a->lazy)
        lazy_region(a, &ao, &ac);
    if (b->lazy)
        lazy_region(b, &bo, &bc);
    g_assert(ac == 0 && bc == 0);
#endif
    uint32_t t = a->block;
    a->block = b->block;
    b->block = t;
    sim->pend_counts.relabelled++;
}

/* Carry a note out. */
static void pending_run(Sim *sim, Pending *p)
{
    sim->pend_open--;
    p->done = 1;
    if (pending_relabels(sim, p)) {
        pending_relabel(sim, p);
        return;
    }
    size_t w = sim->element_words;
    Word *x, *y;
    const PendingShape *sh = pending_regions(sim, p, &x, &y);
    if (p->swap) {
        swap_words(x, y, sh->count * w);
    } else {
        Node *a = &sim->node[p->a];
        if (a->lazy)                    /* b has not taken it yet */
            lazy_protect(sim, a, sh->a_offset, sh->count);
        memcpy(x, y, sh->count * w * sizeof(Word));
    }
}

/* Node x's memory is about to be read or written otherwise. */
static void pending_settle_noted(Sim *sim, Node *x)
{
    Pending *p = pending_of(sim, x);
    if (p) {
        pending_run(sim, p);
        sim->pend_counts.settled++;
    }
}

/* The same, its test inline: most nodes have no note. */
static inline void pending_settle(Sim *sim, Node *x)
{
    if (x->pend > sim->pend_base)
        pending_settle_noted(sim, x);
}

/* The notes in the order of the lower address of each pair (an LSD radix
 * sort, into pending_tmp and back): pairs are disjoint, so any order gives
 * the same memory, and this one streams. */
static Pending *pending_sorted(Sim *sim)
{
    size_t n = sim->npending;
    Pending *src = sim->pending, *dst = sim->pending_tmp;
    const unsigned radix = 1u << PENDING_RADIX_BITS;
    for (unsigned shift = 0; shift < 32 && ((sim->nodes - 1) >> shift) != 0;
         shift += PENDING_RADIX_BITS) {
        size_t start[(1u << PENDING_RADIX_BITS) + 1] = { 0 };
        for (size_t i = 0; i < n; i++)
            start[((MIN(src[i].a, src[i].b) >> shift) & (radix - 1)) + 1]++;
        for (unsigned d = 0; d < radix; d++)
            start[d + 1] += start[d];
        for (size_t i = 0; i < n; i++)
            dst[start[(MIN(src[i].a, src[i].b) >> shift) & (radix - 1)]++]
                = src[i];
        Pending *t = src;
        src = dst;
        dst = t;
    }
    return src;
}

static void prefetch_bytes(const void *p, size_t bytes);

/* The batch reads ahead the two regions of the note this many places on
 * (the first AHEAD_BYTES of each). Sorted, the notes' regions form two
 * streams a dimension (the pairs' lower and upper nodes), but in a big
 * cube they come from memory, and reading them ahead shortens the batch;
 * unsorted notes read ahead gain less than sorted ones do. */
#define PENDING_AHEAD 12

static void pending_prefetch(Sim *sim, const Pending *p)
{
    if (p->done)                /* settled, or a swap of whole memories */
        return;
    Word *x, *y;
    const PendingShape *sh = pending_regions(sim, p, &x, &y);
    size_t bytes = sh->count * sim->element_words * sizeof(Word);
    prefetch_bytes(x, bytes);
    prefetch_bytes(y, bytes);
}

/* Time moves on (or the run ends): carry out every note not yet done. */
static void pending_flush(Sim *sim)
{
    size_t n = sim->npending;
    if (n == 0)
        return;
    if (sim->pend_open > 0) {
        Pending *p = n >= PENDING_SORT_MIN ? pending_sorted(sim)
                                           : sim->pending;
        for (size_t i = 0; i < n && sim->pend_open > 0; i++) {
            if (i + PENDING_AHEAD < n)
                pending_prefetch(sim, &p[i + PENDING_AHEAD]);
            if (!p[i].done)
                pending_run(sim, &p[i]);
        }
    }
    sim->pend_base += n;
    sim->npending = 0;
    sim->nshapes = 0;
}

/* Can b's exchange message for a (which has taken receive r) be noted
 * instead of delivered? a's lazy message is for b, first in b's own
 * slot, and lies exactly where r receives; and it was posted long enough
 * ago (PENDING_FAR messages) that a's region has left the cache: nearer,
 * copying now costs less than the batch (noting every pair makes the
 * batches a large share of a big exchange, and its first dimensions slower
 * than copying at once): PENDING_FAR, near the top.
 * An exchange of two whole memories (b's region at b_offset) is noted
 * from PENDING_FAR_WHOLE on, at any distance: once b takes a's message
 * it is a swap of two block numbers, done at once (node_match_posted),
 * with no batch and no copy, which costs less than copying K elements
 * even when they are in cache (docs/performance.md, "Whole memories
 * change owners, not contents"). */

typedef struct {
    size_t offset, count;
} Region;

static int region_cmp(const void *a, const void *b)
{
    const Region *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Do two of the receives the running step posted overlap? */
static gboolean order_recvs_overlap(const Sim *sim)
{
    uint32_t n = sim->nposted, k = 0;
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
    queue_set_by_node(sim->queue, sim->locality, sim->nodes);
    if (sim->locality && sim->send_port && !sim->port_mark)
        sim->port_mark = EMU_NEW0(uint64_t, 2 * (size_t)sim->nodes,
                                  "the ports' marks of the locality order");
}

gboolean sim_order_locality(const Sim *sim)
{
    return sim->locality;
}

void sim_set_keep(Sim *sim, gboolean keep)
{
    sim->keep_below = keep ? (uint64_t)1 << 32 : 0;
}

void sim_set_pending_far(Sim *sim, uint64_t messages)
{
    sim->pend_far = sim->pend_far_whole = messages;
}

SimPendingCounts sim_pending_counts(const Sim *sim)
{
    return sim->pend_counts;
}

static gboolean pending_can(const Sim *sim, const Node *a, const Node *b,
                            const Recv *r, size_t count, size_t b_offset)
{
    const Msg *m = a->lazy;
    if (!m || count == 0 || r->count != count)
        return FALSE;
    uint64_t id;                /* a's, the message b is about to take */
    if (lazy_kept_dest(m) == b) {
        if (b->koffset != r->offset || b->kcount != count)
            return FALSE;
        id = b->match.owner_word;
    } else if (!lazy_kept_dest(m) && m->offset == r->offset
               && m->count == count
               && match_msgs(&b->match.slot) == &m->item) {
        id = m->item.seq;
    } else {
        return FALSE;
    }
    uint64_t far = pending_whole(sim, r->offset, b_offset, count)
                       ? sim->pend_far_whole : sim->pend_far;
    return sim->stats.messages - id >= far
           && !pending_of(sim, a) && !pending_of(sim, b);
}

static void pending_note(Sim *sim, Node *a, Node *b, const Recv *r,
                         size_t b_offset, Tick arrival)
{
    sim->stats.events++;                /* as node_deliver counts it */
    if (arrival > a->wait_until)
        a->wait_until = arrival;
    if (sim->npending == sim->cappending) {
        sim->cappending = sim->cappending ? 2 * sim->cappending : 64;
        sim->pending = EMU_RENEW(Pending, sim->pending, sim->cappending,
                                 "the put-off deliveries");
        g_free(sim->pending_tmp);
        sim->pending_tmp = EMU_NEW(Pending, sim->cappending,
                                   "the put-off deliveries");
    }
    PendingShape shape = { r->offset, b_offset, r->count };
    if (sim->nshapes == 0
        || memcmp(&sim->shapes[sim->nshapes - 1], &shape, sizeof shape) != 0) {
        if (sim->nshapes == sim->capshapes) {
            sim->capshapes = sim->capshapes ? 2 * sim->capshapes : 8;
            sim->shapes = EMU_RENEW(PendingShape, sim->shapes, sim->capshapes,
                                    "the put-off deliveries' regions");
        }
        sim->shapes[sim->nshapes++] = shape;
    }
    sim->pending[sim->npending++] = (Pending){
        a->address, b->address, (uint32_t)(sim->nshapes - 1), 0, 0 };
    a->pend = b->pend = sim->pend_base + sim->npending;
    sim->pend_open++;
    sim->deferring = TRUE;
    sim->pend_counts.noted++;
}

/* Node b takes message m into receive r: if m is a's lazy message of b's
 * note, the note becomes a swap and nothing is copied now. */
static gboolean pending_swap(Sim *sim, Node *b, Pending *p, Msg *m,
                             const Recv *r)
{
    const PendingShape *sh = &sim->shapes[p->shape];
    if (p->swap || p->b != b->address || !m->lazy || m->lazy->address != p->a
        || m->offset != sh->a_offset || m->count != sh->count
        || r->count != sh->count || r->offset != sh->b_offset)
        return FALSE;
    if (b->lazy && lazy_overlaps(b, r->offset, r->count))
        return FALSE;                   /* b's own lazy message reads it */
    sim->stats.events++;                /* as node_deliver counts it */
    if (m->arrival > b->wait_until)
        b->wait_until = m->arrival;
    p->swap = 1;
    sim->pend_counts.swapped++;
    return TRUE;
}

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
        queue_push(sim->queue, node->wait_until,
                   (QueueItem){ node->address, NULL });
    }
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
    pending_settle(sim, node);
    if (node->lazy)
        lazy_protect(sim, node, r->offset, r->count);
    memcpy(memory_at(sim, node, r->offset), data, count * w * sizeof(Word));
    if (arrival > node->wait_until)
        node->wait_until = arrival;
    return TRUE;
}

/* The payload `data`, or where NULL names it: at `offset` of the
 * sender's memory. */
static const Word *offer_data(Sim *sim, const Node *sender, const Word *data,
                              size_t offset)
{
    return data ? data : memory_at(sim, sender, offset);
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
    sender->lazy = lazy_kept_tag(dest);
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
    if (dest != sim->running
        && (match_recvs(slot) || (slot->used & MATCH_KEPT_RECV))) {
        Recv inl, *r;
        gboolean kept = (slot->used & MATCH_KEPT_RECV) != 0;
        if (kept) {             /* the oldest, if there is one */
            inl = (Recv){ .item = { NULL, dest->rseq }, .source = source,
                          .tag = tag, .offset = dest->roffset,
                          .count = dest->rcount };
            slot->used &= ~MATCH_KEPT_RECV;
            r = &inl;
        } else {
            r = (Recv *)match_pop(slot, 0);
        }
        match_release(&sim->match, &dest->match, slot);
        dest->nrecv--;
        gboolean ok = TRUE;
        if (lazy && pending_can(sim, dest, sender, r, count, offset))
            pending_note(sim, dest, sender, r, offset, arrival);
        else
            ok = node_deliver(sim, dest, r, source, tag, count, arrival,
                              offer_data(sim, sender, data, offset));
        if (!kept)
            recv_free(sim, r);
        if (owned)
            msg_free(sim, owned);
        if (ok && dest->nrecv == 0 && dest->deferred == 0)
            node_after_wait(sim, dest);
        return;
    }
    Msg *m = owned;
    /* At most one lazy message per sender: every write into a node's
     * memory checks its lazy messages, and a list of them (15 concurrent
     * exchanges a step in gray-to-binary's concurrent method) would cost
     * a cache miss each on every delivery (docs/performance.md, "Exchanges
     * keep their payload in place"). */
    if (!m && lazy && !sender->lazy) {
        if (msg_keep(sim, dest, slot, sender, id, count, arrival, offset))
            return;
        m = msg_new(sim, count, FALSE);
        m->lazy = sender;
        m->offset = offset;
        sender->lazy = m;
    } else if (!m) {
        m = msg_new(sim, count, TRUE);
        memcpy(msg_buf(m), offer_data(sim, sender, data, offset),
               count * sim->element_words * sizeof(Word));
    }
    m->item.seq = id;
    m->arrival = arrival;
    match_push(slot, MATCH_MSGS, &m->item);
    sim->early++;
}

/* Message m has been delivered: freed, or if it was kept in its
 * destination's state (taken as a Msg on the stack), released. */
static void msg_done(Sim *sim, Msg *m, gboolean kept)
{
    if (kept)
        msg_release(sim, m);
    else
        msg_free(sim, m);
}

/* Receive r waits in slot, a key of node: in the node's own slot, when
 * no other receive waits there, it is kept in the node's first line
 * (rseq, roffset, rcount; MATCH_KEPT_RECV in the slot, which the
 * sender reads anyway) and its struct goes back at once; else at the end
 * of the slot's list, after the one kept, if any. The message that takes
 * it then reads the first line of the receiver's state, which it
 * completes anyway, and no line of a struct of its own; and no slab
 * grows for receives that wait across a far step. */
static void recv_wait(Sim *sim, Node *node, MatchSlot *slot, Recv *r)
{
    if (slot == &node->match.slot && !slot->head
        && !(slot->used & MATCH_KEPT_RECV) && r->count < sim->keep_below
        && r->offset <= UINT32_MAX) {
        slot->used |= MATCH_KEPT_RECV;
        node->rseq = r->item.seq;
        node->roffset = (uint32_t)r->offset;
        node->rcount = (uint32_t)r->count;
        recv_free(sim, r);
        return;
    }
    match_push(slot, 0, &r->item);
}

/* After a step returned: match its receives, in posting order, against
 * early messages; the rest wait. */
static void node_match_posted(Sim *sim, Node *node)
{
    if (sim->locality && sim->nposted > 1 && order_recvs_overlap(sim))
        order_conflict(sim, "node %u posted overlapping receives",
                       node->address);
    for (uint32_t i = 0; i < sim->nposted; i++) {
        Recv *r = sim->posted[i];
        MatchSlot *slot = match_slot(&sim->match, &node->match, node->address,
                                     r->source, r->tag);
        Msg kept, *m;
        gboolean is_kept = (slot->used & MATCH_KEPT_MSG) != 0;
        if (is_kept) {          /* the oldest (msg_keep) */
            /* Taken, it is a Msg out of every list, as a popped one is,
             * and its sender's lazy message until msg_done: a write into
             * the sender's memory before the delivery reads it (a note
             * carried out by pending_settle) copies it out of there, into
             * a buffer msg_done gives back. */
            kept = kept_msg(sim, node);
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
        Pending *p = pending_of(sim, node);
        if (p && pending_swap(sim, node, p, m, r)) {
            msg_done(sim, m, is_kept);
            recv_free(sim, r);
            /* Two whole memories: swapping their block numbers costs two
             * words of the two nodes' states, in cache now; in the batch
             * it would cost a sort and a pass over the notes, a large
             * share of the far steps. Nothing can tell the difference:
             * the pair's memories are the note's alone until the batch,
             * and a read or a write before it would settle it first. */
            if (pending_relabels(sim, p))
                pending_run(sim, p);
            continue;
        }
        if (p)                  /* before reading m's data: it may be a's */
            pending_settle(sim, node);
        gboolean ok = node_deliver(sim, node, r, r->source, r->tag, m->count,
                                   m->arrival, msg_data(sim, m));
        msg_done(sim, m, is_kept);
        recv_free(sim, r);
        if (!ok) {
            for (uint32_t j = i + 1; j < sim->nposted; j++)
                recv_free(sim, sim->posted[j]);
            break;
        }
    }
    sim->nposted = 0;
}

/* ---- node API: operations -------------------------------------------- */

static void node_prefetch(const Node *node)
{
    __builtin_prefetch(node, 1);
    __builtin_prefetch((const char *)node + sizeof *node - 1, 1);
}

/* The line of a node's state that a message touches when no receive
 * waits for it (struct Node). */
static void node_prefetch_match(const Node *node)
{
    __builtin_prefetch(&node->match, 1);
}

static inline void sim_message(Sim *sim, SimMessage *info, uint32_t source,
                               uint32_t dest, int tag, size_t count,
                               MessageClass cls)
{
    *info = (SimMessage){ sim->stats.messages++, source, dest, tag, count,
                          sim->now, cls,
                          machine_price(&sim->machine, cls)->element_time };
    sim->stats.elements_sent += count;
    sim->stats.class_messages[cls]++;
    sim->stats.class_elements[cls] += count;
}

/* Reserve the route of a message posted now by `node` and offer it to
 * dest. The payload is owned->data, or at `offset` of the sender's memory
 * (data NULL). */
static void sim_post(Sim *sim, Node *node, uint32_t dest, int tag,
                     size_t count, MessageClass cls, const int *path, int hops,
                     const Word *data, Msg *owned, gboolean lazy,
                     size_t offset)
{
    SimMessage info;
    sim_message(sim, &info, node->address, dest, tag, count, cls);
    Tick left = sim->now, arrival = sim->now;
    /* A local copy, or an empty message: no channel time, no startup. */
    if (hops > 0 && count > 0)
        arrival = sim_route(sim, &info, path, hops, &left);
    if (left > node->wait_until)
        node->wait_until = left;
    node_offer(sim, &sim->node[dest], node, tag, info.id, count, arrival,
               data, owned, lazy, offset);
}

/* Post now, or defer to the node's clock if local work moved it ahead. */
static void sim_send(Sim *sim, Node *node, uint32_t dest, int tag,
                     size_t offset, size_t count, MessageClass cls,
                     const int *path, int hops, gboolean lazy)
{
    /* The destination's state is needed after the route is reserved and
     * is far away in a big machine (a cube dimension's partner): start
     * loading it now, or its first read is a miss that sim_post waits
     * for. Its second line only: the first is needed
     * where a receive waits, and the read ahead loaded it then
     * (sim_prefetch_ahead). */
    node_prefetch_match(&sim->node[dest]);
    if (hops > 0 && sim->link_ch) {
        /* and the first hop's channel: its timeline and its count */
        const LinkChannels *lc = &sim->link_ch[path[0]];
        if (lc->ch && !sim->channels_implied)
            __builtin_prefetch(&lc->ch[node->address], 1);
        else if (lc->col)
            __builtin_prefetch(&lc->col[node->address], 1);
    }
    if (!node_check_run(node, "send", offset, count))
        return;
    if (sim->clock > sim->now) {
        const Word *data = memory_at(sim, node, offset);
        /* Capture the payload now: the program may change it after. */
        Post *post = emu_alloc(1, sizeof(Post) + (size_t)hops * sizeof(int),
                               "a deferred send");
        post->msg = msg_new(sim, count, TRUE);
        memcpy(msg_buf(post->msg), data,
               count * sim->element_words * sizeof(Word));
        post->dest = dest;
        post->tag = tag;
        post->cls = cls;
        post->hops = hops;
        if (hops > 0)       /* a path of no hops may be NULL */
            memcpy(post->path, path, (size_t)hops * sizeof *path);
        node->deferred++;
        queue_push(sim->queue, sim->clock, (QueueItem){ node->address, post });
        return;
    }
    sim_post(sim, node, dest, tag, count, cls, path, hops, NULL, NULL, lazy,
             offset);
}

/* One link: a neighbour message; several, or the default route: router,
 * where the topology prices the router apart. */
static MessageClass sim_class(const Sim *sim, int hops, gboolean routed)
{
    if ((routed || hops != 1) && topology_has_class(sim->topo->ops, CLASS_ROUTER))
        return CLASS_ROUTER;
    return CLASS_NEIGHBOUR;
}

static void node_send_path(Node *node, const int *path, int hops,
                           size_t offset, size_t count, int tag)
{
    Sim *sim = node->sim;
    if (sim->error)
        return;
    uint32_t dest;
    if (!node_checked(node, nodecheck_path(sim->topo, node->address, path,
                                           hops, &dest)))
        return;
    sim_send(sim, node, dest, tag, offset, count, sim_class(sim, hops, FALSE),
             path, hops, FALSE);
}

void node_send(Node *node, const int *path, int hops, size_t offset,
               size_t count, int tag)
{
    node_send_path(node, path, hops, offset, count, tag);
}

void node_send_to(Node *node, uint32_t dest, size_t offset, size_t count,
                  int tag)
{
    Sim *sim = node->sim;
    if (sim->error)
        return;
    if (!node_checked(node, nodecheck_node("send to", dest, sim->nodes)))
        return;
    int hops = topology_route(sim->topo, node->address, dest, sim->route);
    sim_send(sim, node, dest, tag, offset, count, sim_class(sim, hops, TRUE),
             sim->route, hops, FALSE);
}

static inline void recv_post(Sim *sim, uint32_t source, int tag,
                             size_t offset, size_t count);

void node_recv(Node *node, uint32_t source, int tag, size_t offset,
               size_t count)
{
    Sim *sim = node->sim;
    if (sim->error)
        return;
    if (!node_checked(node, nodecheck_node("receive from", source,
                                           sim->nodes)))
        return;
    if (!node_check_run(node, "receive", offset, count))
        return;
    recv_post(sim, source, tag, offset, count);
}

void node_exchange(Node *node, int link, size_t offset, size_t count, int tag)
{
    Sim *sim = node->sim;
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
     * pays for none of them. */
    sim_send(sim, node, nb, tag, offset, count, sim_class(sim, 1, FALSE),
             &link, 1, TRUE);
    if (!sim->error)
        recv_post(sim, nb, tag, offset, count);
}

/* Post a checked receive; matched when the step returns. */
static inline void recv_post(Sim *sim, uint32_t source, int tag,
                             size_t offset, size_t count)
{
    if (sim->nposted == sim->capposted) {
        sim->capposted = sim->capposted ? 2 * sim->capposted : 4;
        sim->posted = EMU_RENEW(Recv *, sim->posted, sim->capposted,
                                "the step's receives");
    }
    Recv *r = recv_new(sim);
    *r = (Recv){ .item = { NULL, sim->recv_seq++ }, .source = source,
                 .tag = tag, .offset = offset, .count = count };
    sim->posted[sim->nposted++] = r;
}

void node_idle(Node *node, Tick ticks)
{
    if (!node_checked(node, nodecheck_ticks("idle", ticks)))
        return;
    Sim *sim = node->sim;
    sim->clock += ticks;
    if (sim->clock > node->wait_until)
        node->wait_until = sim->clock;
}

/* Local work: waiting that counts as compute. */
void node_busy(Node *node, Tick ticks)
{
    if (!node_checked(node, nodecheck_ticks("busy", ticks)))
        return;
    node_idle(node, ticks);
    node->sim->stats.compute[node->address] += ticks;
}

void node_compute(Node *node, uint64_t flops)
{
    node_busy(node, (Tick)flops * node->sim->machine.flop_time);
}

void node_kernel(Node *node, const char *kernel, const uint64_t shape[3],
                 uint64_t flops)
{
    node_busy(node, kernel_ticks(&node->sim->machine, kernel, shape, flops));
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
    if (sim->locality && p->time_sum + p->compute_sum >= 0x1p52)
        order_conflict(sim, "phase %u's sums passed 2^52 ticks",
                       (unsigned)node->phase);
}

void node_phase(Node *node, unsigned phase)
{
    Sim *sim = node->sim;
    if (!node_checked(node, nodecheck_phase(phase, node->phase,
                                            sim->stats.phases)))
        return;
    if (phase == node->phase)
        return;
    node_close_phase(sim, node, sim->clock);
    node->phase = (uint8_t)phase;
    sim->phase_start[node->address] = (PhaseStart){
        sim->clock, sim->stats.compute[node->address] };
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
    sim->observer->mark(sim->observer_data, node->address, sim->clock, label);
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

#ifdef SIM_CHECK_EXCHANGE
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
            memcmp(c->copy, memory_at(sim, node, c->offset),
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
#define AHEAD_MSG 8
#define AHEAD_DATA 4
#define AHEAD_BYTES 512

/* One cache line. On x86 an instruction GCC cannot drop: GCC 12 at -O2
 * emits none of eight __builtin_prefetch calls written out in a row,
 * under a branch or not, which leaves the read ahead undone, and the
 * loop it does keep spends instructions on every event counting. */
#if defined(__x86_64__) || defined(__i386__)
#define PREFETCH_LINE(p) \
    __asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)(p)))
#else
#define PREFETCH_LINE(p) __builtin_prefetch((p), 1)
#endif

#if defined(__has_attribute)
#if __has_attribute(fallthrough)
#define FALL_THROUGH __attribute__((fallthrough))
#endif
#endif
#ifndef FALL_THROUGH
#define FALL_THROUGH ((void)0)
#endif

/* The lines of [p, p + bytes), the first AHEAD_BYTES of it at most. */
static void prefetch_bytes(const void *p, size_t bytes)
{
    G_STATIC_ASSERT(AHEAD_BYTES == 8 * 64);
    const char *c = p;
    switch (MIN((bytes + 63) / 64, (size_t)8)) {
    case 8: PREFETCH_LINE(c + 448); FALL_THROUGH;
    case 7: PREFETCH_LINE(c + 384); FALL_THROUGH;
    case 6: PREFETCH_LINE(c + 320); FALL_THROUGH;
    case 5: PREFETCH_LINE(c + 256); FALL_THROUGH;
    case 4: PREFETCH_LINE(c + 192); FALL_THROUGH;
    case 3: PREFETCH_LINE(c + 128); FALL_THROUGH;
    case 2: PREFETCH_LINE(c + 64);  FALL_THROUGH;
    case 1: PREFETCH_LINE(c);       break;
    default: break;
    }
}

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

static void sim_prefetch_ahead(Sim *sim)
{
    size_t n;
    const QueueItem *run = queue_peek_run(sim->queue, &n);
    if (n == 0)
        return;
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
                int l = sim->hot_link[k];
                if (l >= 0 && sim->link_ch[l].ch)
                    __builtin_prefetch(&sim->link_ch[l].ch[q->node], 1);
            }
        const Node *partner = guessed_partner(sim, q->node);
        if (partner)
            node_prefetch_match(partner);
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
            __builtin_prefetch(m);
            sender = guessed_partner(sim, q->node);
        }
        if (sender) {
            __builtin_prefetch(sender, 1);
            const MatchItem *r = match_recvs(&sender->match.slot);
            if (r)
                __builtin_prefetch(r, 1);
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
                prefetch_bytes(memory_at(sim, &sim->node[x->match.slot.source],
                                         x->koffset), x->kcount * w);
        } else if (m && m->count > 0) {
            prefetch_bytes(msg_data(sim, m), m->count * w);
        }
        prefetch_bytes(memory_at(sim, x, 0), sim->memory_elements * w);
    }
}

void sim_set_progress(Sim *sim, SimProgressFn fn, void *data, uint64_t first)
{
    sim->progress_fn = fn;
    sim->progress_data = data;
    sim->progress_at = fn ? sim->stats.events + MAX(first, (uint64_t)1)
                          : UINT64_MAX;
}

/* Out of the run loop's way: the loop only compares the event count. */
static __attribute__((noinline, cold)) void sim_progress(Sim *sim)
{
    SimProgress where = { sim->now, sim->stats.events, sim->nodes,
                          sim->nodes_done };
    uint64_t next = sim->progress_fn(sim->progress_data, &where);
    sim->progress_at = next ? sim->stats.events + next : UINT64_MAX;
}

static void sim_run_post(Sim *sim, Node *node, Post *post)
{
    Msg *m = post->msg;
    sim_post(sim, node, post->dest, post->tag, m->count, post->cls, post->path,
             post->hops, m->data, m, FALSE, 0);
    g_free(post);
    if (--node->deferred == 0 && node->nrecv == 0)
        node_after_wait(sim, node);
}

gboolean sim_run(Sim *sim, NodeStepFn step, const void *config, GError **error)
{
    /* An observer that sees messages sees them in the contract's order. */
    if (sim->locality && sim->observer
        && (sim->observer->channel_busy || sim->observer->startup
            || sim->observer->mark))
        sim_set_order(sim, SIM_ORDER_CONTRACT);
    for (uint32_t x = 0; x < sim->nodes; x++)
        queue_push(sim->queue, 0, (QueueItem){ x, NULL });
    Tick time;
    QueueItem item;
    while (!sim->error && queue_pop(sim->queue, &time, &item)) {
        Node *node = &sim->node[item.node];
        sim_prefetch_ahead(sim);
        if (time != sim->now) {
            pending_flush(sim);
            if (sim->observer && sim->observer->tick_done)
                sim->observer->tick_done(sim->observer_data, sim->now,
                                         sim->stats.events);
            if (sim->link_ch)
                links_idle(sim, time);
        }
        sim->now = time;
        sim->stats.events++;
        if (G_UNLIKELY(sim->stats.events >= sim->progress_at))
            sim_progress(sim);
        if (item.post) {
            sim_run_post(sim, node, item.post);
            continue;
        }
        sim->clock = time;
        node->wait_until = time;
        pending_settle(sim, node);      /* the program reads its memory */
        if (node->lazy)                 /* and may write anywhere */
            lazy_protect(sim, node, 0, 0);
        sim->running = node;
        NodeStatus status = step(node, config);
        sim->running = NULL;
#ifdef SIM_CHECK_EXCHANGE
        exchange_check_step(sim, node);
#endif
        node->step++;
        node->returned_done = status == NODE_DONE;
        node_match_posted(sim, node);
        if (sim->error)
            break;
        if (node->nrecv == 0 && node->deferred == 0)
            node_after_wait(sim, node);
    }
    pending_flush(sim);
    links_fold(sim);
    if (!sim->error && sim->observer && sim->observer->tick_done)
        sim->observer->tick_done(sim->observer_data, sim->now,
                                 sim->stats.events);
    if (sim->error) {
        g_propagate_error(error, sim->error);
        sim->error = NULL;
        return FALSE;
    }
    return sim_check_quiet(sim, error);
}
