/* sim_internal.h -- the engine's private state, shared by its units and
 * by nothing outside emu/ (but the tests that need a private detail):
 * struct Sim and the structs it holds, the functions one unit calls in
 * another, and the helpers that more than one unit calls per element or
 * per event, static inline so that each unit still inlines them, as a
 * single file did. sim.h stays the public header.
 *
 * The units, each one subsystem around the one Sim:
 *  - sim.c: the node API, matching messages to receives, the run loop;
 *  - sim_memory.c: the big arrays, the buffer pool and slabs, messages' and
 *    receives' storage, and building and freeing a Sim;
 *  - sim_channels.c: the channels' state: link arrays, counts and their
 *    folding, the sparse table;
 *  - sim_route.c: reserving a message's route, and its startup;
 *  - sim_order.c: the locality order and its checks;
 *  - sim_pending.c: exchanges' deliveries, put off.
 * Names shared between units start with sim_.
 */
#ifndef CUBE_SIM_INTERNAL_H
#define CUBE_SIM_INTERNAL_H

#include "sim.h"
#include "sim_test.h"
#include "match.h"
#include "queue.h"
#include "timeline.h"
#include "oom.h"
#include "prefetch.h"
#include "channel_table.h"

#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

/* The sanitizer build also checks node.h's rule for node_exchange: the
 * program leaves the region alone for the rest of the step call. */
#if defined(EMU_BIG_MALLOC) && !defined(SIM_CHECK_EXCHANGE)
#define SIM_CHECK_EXCHANGE 1
#endif

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
 * One cache line, aligned to one (sim_slab_carve): on a big machine the
 * receiver meets it 2^l events after it was posted, long evicted, and at
 * 80 bytes, carved 16 bytes apart, most messages would straddle two
 * lines, so the read ahead (sim_prefetch_ahead), which loads one line of
 * it, would leave its count or its data to a demand miss. */
typedef struct Msg {
    MatchItem item;            /* in a key's list, seq = message id; or
                                * in the free list, by item.next */
    const Word *data;          /* the payload's own buffer; NULL while
                                * lazy (sim_msg_data) */
    struct Node *lazy;         /* the sender whose memory holds it, or NULL */
    size_t offset;             /* lazy: where in the sender's memory;
                                * with cls MSG_INLINE, the payload */
    size_t count;              /* elements */
    Tick arrival;              /* the last element reaches the destination */
    unsigned cls;              /* the own buffer's size class, or
                                * MSG_INLINE */
} Msg;

/* Msg.cls of a message whose payload, one word at most, lies in its own
 * `offset` field, which only a lazy message needs: a routed permutation
 * or an all-to-all of one-element blocks sends a word a message, and a
 * buffer would be one more line to take from the pool at the posting and
 * to read at the delivery, and 64 bytes more a message in flight. */
#define MSG_INLINE G_MAXUINT

/* A receive posted and not yet matched. Carved from the slabs like a
 * message, one line each: the sender of its message reaches it through
 * the receiver's match slot, a dependent read. */
typedef struct Recv {
    MatchItem item;            /* in a key's list, seq = posting order; or
                                * in the free list, by item.next */
    uint32_t source;
    int tag;
    size_t offset, count;
    /* An operation-level program's (Sim.each): its handle, and the node's
     * clock when it was posted, before which it cannot complete. */
    NodeOp op;
    Tick posted;
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
    uint8_t lazy_link;         /* with Sim.lazy_live: the link its lazy
                                * message crosses */
    _Alignas(64) MatchLocal match;  /* its own key of the match table;
                                     * owner_word: the kept message's id */
    Tick karrival;             /* the message kept in its own key, lazy */
    uint32_t koffset, kcount;  /* (msg_keep): arrival, offset in its
                                * sender's memory, count */
    uint64_t pend;             /* its note in sim->pending: see
                                * sim_pending_of */
};
G_STATIC_ASSERT(sizeof(Node) == 128);
G_STATIC_ASSERT(offsetof(Node, match) == 64);

/* Node.lazy, when the lazy message is kept in its destination's state
 * (msg_keep): the destination, tagged in the low bit (a Node is aligned
 * to 64). */
static inline Msg *sim_lazy_kept_tag(const Node *dest)
{
    return (Msg *)((uintptr_t)dest | 1u);
}

static inline Node *sim_lazy_kept_dest(const Msg *lazy)
{
    return (uintptr_t)lazy & 1u ? (Node *)((uintptr_t)lazy - 1u) : NULL;
}

/* An exchange's deliveries, put off (a note, sim_pending_note): node a's
 * region is to receive node b's (where, in sim->shapes[shape]); once b
 * has taken a's message, a lazy one still in a's region, the two regions
 * are to swap. Until then neither region may be read or written by
 * anything else, and each node's `pend` names the note. */
typedef struct {
    uint32_t a, b;
    uint32_t shape;            /* its regions: sim->shapes[shape] */
    uint8_t swap;
    uint8_t done;              /* carried out already (sim_pending_settle) */
} Pending;
G_STATIC_ASSERT(sizeof(Pending) == 16);

/* Deliveries are put off from this distance on, in messages posted
 * between the two of an exchange (sim_pending_can); an exchange of two whole
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
    NodeOp op;                 /* an operation-level program's handle */
    int hops;
    gboolean detoured;         /* the path goes around a fault */
    int path[];
} Post;

/* An operation of an operation-level program whose completion is known:
 * its handle and the tick it completes at. */
typedef struct {
    NodeOp op;
    Tick at;
} EachDone;

/* A node of an operation-level program (node.h; Sim.each, one a node).
 * Every operation it posts is counted `unknown` until its completion is
 * known (a send's when its route is reserved, a receive's when it is
 * matched, local work's at once), then kept in `known` until a call
 * reports it (node_completed). After NODE_ANY (`any`), a call is queued
 * for each tick at which a known completion falls (`called`: the last
 * tick one was queued for, -1 once it ran), no earlier than busy_until,
 * the end of the node's local work; after NODE_CONTINUE, one call, when
 * everything it has outstanding is known, exactly as a step's end
 * queues the next step (its queue item carries SIM_EACH_ALL). */
typedef struct {
    Tick busy_until;
    Tick called;
    NodeOp next_op;
    uint32_t unknown;
    uint32_t nknown, capknown;
    EachDone *known;
    gboolean any;
} NodeEach;

/* QueueItem.post of the call that ends an operation-level program's wait
 * for everything it has outstanding (NODE_CONTINUE): no Post, but not a
 * plain call either, which only a program that returned NODE_ANY
 * takes. */
#define SIM_EACH_ALL ((Post *)(uintptr_t)1)

typedef struct {
    uint64_t first, count;     /* elements [first, first+count) */
    Tick start;                /* element `first` starts crossing here */
} Run;

typedef struct {
    Timeline tl;
    uint64_t count;            /* elements carried */
    uint64_t mark;             /* the locality order's check
                                * (sim_order_touch) */
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
    uint64_t mark;             /* the locality order's check
                                * (sim_order_touch) */
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
 * least nodes/8 messages: giving it to another link costs a pass over it,
 * which those messages pay for, so the engine's cost still grows with
 * messages. A released array is parked: it keeps its counts, unfolded,
 * and the link takes it back as it is if it needs one again before
 * another link does (a program that uses the same links every few ticks
 * pays no pass at all); only another link's taking it folds it. A link
 * that would map a new array keeps the channels it uses in a table
 * instead (channel_table.h), until they are enough to pay for one
 * (SIM_LINK_TABLE_SHARE): a run of a message a node over many links costs
 * its messages, not nodes times links.
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
    LinkChannel *parked;       /* without ch: the array it was released
                                * with, unfolded, among the spares until
                                * the link takes it back or another link
                                * needs it (sim_channels.c); or NULL */
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
    /* Without ch or parked, and no spare to take: the channels in use, in
     * a table keyed by node (sim_channels.c), until they are
     * 1/SIM_LINK_TABLE_SHARE of the link's; then `due`, and the link takes
     * an array at the next sim_route (sim_links_due). Or NULL. */
    ChannelTable *table;
    gboolean due;
} LinkChannels;

/* A released link's array, kept for reuse, and its zero; `owner` is the
 * link it is parked for (its counts not folded yet), or -1. */
typedef struct {
    LinkChannel *ch;
    uint64_t zero;
    int owner;
} SpareLink;

/* A channel of a sparse topology, in its table under its key
 * (sim_channels.c). */
typedef struct {
    Channel ch;
    uint64_t key;              /* node * links + link */
} SparseChannel;

/* The links (below 64) of a node's sends in a step, with the tag of the
 * first send on each, and which of those sends went farther than the
 * neighbour (Sim.sent). */
typedef struct {
    uint64_t links, far;
    int32_t tag[64];
} SentLinks;

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
                                * (key: sim_dense_index) */
    uint32_t count_limit;      /* UINT32_MAX - 1 (tests: sim_set_count_limit) */
    SpareLink *spare;          /* released links' arrays, for reuse */
    int hot_link[2];           /* the links whose arrays were allocated
                                * last, or -1: read ahead (sim_run) */
    /* The links the last node that sent used: the read ahead's guess
     * (sim_prefetch_ahead). Until the running step sends (sent_stale,
     * set as each step starts) they are the last sender's still; its
     * first send starts them afresh. So a step costs one store for it,
     * and only a step that sends clears them. */
    SentLinks sent;
    gboolean sent_stale;
    Tick sent_tick;            /* when `sent` was started afresh */
    int nspare;
    int links_live, links_live_max;    /* link arrays allocated: now, most */
    gboolean links_due;        /* some link's table is due to become an
                                * array (LinkChannels.due) */
    gboolean no_tables;        /* sim_set_link_tables(FALSE) */
    ChannelTable *table_spare; /* a table given way to an array, emptied
                                * and reused by the next (sim_channels.c) */
    ChannelTable *sparse;      /* sparse: the channels in use */
    gboolean channels_implied; /* one port: no channel timelines */
    Timeline *send_port, *recv_port;   /* per node, only with a port limit */
    uint32_t port_capacity;
    gboolean locality;         /* sim_set_order(SIM_ORDER_LOCALITY) */
    Tick order_from;           /* sim_set_order_from's tick, until the run
                                * gets there; else -1 */
    Tick order_stopped;        /* sim_order_stopped_at */
    gboolean order_on_channel; /* and the stop was a channel's */
    gboolean checks;           /* the locality order's checks run: in it,
                                * or surveying (sim_set_survey) */
    gboolean survey_asked;     /* sim_set_survey */
    gboolean survey;           /* and so surveying (sim_survey_start) */
    SimSurveyCounts surveyed;  /* the survey's counts, ticks closed */
    Tick survey_bad;           /* the last tick with a conflict, or -1 */
    uint64_t survey_from;      /* stats.events as the open tick began */
    uint64_t *port_mark;       /* with it and a port limit: the send
                                * ports' marks, then the receive ports' */
    Timeline *mem_path;        /* per node, only where a class's price
                                * uses it (machine.h, memory_path) */
    Tick *path_busy;           /* with it: the ticks each node's path
                                * carries, what it sends and receives */
    uint64_t *path_mark;       /* with it and the locality order: the
                                * memory paths' marks */

    EventQueue *queue;
    MatchTable match;
    Tick now;
    Node *running;
    Tick clock;                /* the running node's local time */
    uint64_t early;            /* early messages, all nodes' (sim_check_quiet
                                * reads the nodes' counts only if some) */
    uint64_t recv_seq;

    PhaseStart *phase_start;   /* per node, only if the program has phases */
    NodeEach *each;            /* per node, only for an operation-level
                                * program (SimLayout.each) */
    NodeOp *report;            /* the running node's completions for
                                * node_completed, and how many of them it */
    uint32_t nreport, capreport, reported; /* has read */
    NodeOp *report_tmp;        /* capreport more: the sort's (sim.c) */
    Recv **posted;             /* receives posted by the running node's */
    uint32_t nposted, capposted;   /* step so far (only it can post) */
    Run *run_a, *run_b;        /* routing scratch, reused */
    size_t run_cap;
    int *route;                /* default-route scratch, diameter long */
    int *detour;               /* a route around faults (faults_route) */
    size_t detour_cap;
    const uint64_t *fault_hop_bits; /* faults_hop_bits, on a machine with
                                * faults (sim_fault_hop_clear) */
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
    SimLinkCounts link_counts;
    gboolean deferring;        /* the last delivery was put off */
#ifdef SIM_CHECK_EXCHANGE
    GArray *sent_checks;       /* SentCheck: the running step's exchange
                                * regions */
    /* The peek's answer for the running step, held to its first send
     * (peek_check_send): hops or NODE_PEEK_*, and whether it sent yet. */
    int peek_said;
    gboolean peek_sent;
    uint32_t peek_dest;
    int peek_path[NODE_PEEK_HOPS];
#endif

    const SimObserver *observer;
    gboolean observe_ops;      /* it has `op` (sim.c, observe_op) */
    void *observer_data;

    SimProgressFn progress_fn; /* sim_set_progress, or NULL */
    void *progress_data;
    uint32_t nodes_done;       /* programs finished, for progress_fn */
    uint64_t progress_at;      /* sim_progress is called once stats.events
                                * reaches this (matches and deliveries
                                * count too, so it may pass it by more
                                * than one); UINT64_MAX: never. Beside
                                * stats, the line the run loop counts
                                * events in */
    uint64_t progress_fn_at;   /* of which progress_fn is due from this */
    /* sim_set_limits: the tick limit (INT64_MAX: none), the stop flags
     * (or NULL), their names; what stopped the run (SimStopped) and at
     * which tick. */
    Tick tick_limit;
    StopFlags *stop;
    char *ticks_name, *stop_name;
    int stopped;
    Tick stopped_at;
    SimStats stats;
    GError *error;             /* first program error; stops the run */
    /* sim_set_peek, and sim_run's config to give it; whether the read
     * ahead follows it (sim_run: AHEAD_ROUTE_MIN_BYTES, or always, for
     * tests), and how often it asked and followed an answer. At the end,
     * where they move no field the run's loop reads. */
    NodePeekFn peek;
    const void *config;
    NodeStepFn step;           /* sim_run's, for the shards */
    gboolean peek_ahead, peek_always;
    uint64_t peek_asked, peek_followed;

    /* The parallel tick (sim_parallel.c). The Sim sim_new made holds the
     * shards and their threads (par, or NULL: one thread); each shard is
     * a Sim of its own for one range of nodes, [par_lo, par_hi), and the
     * first shard is that Sim itself. While a tick runs split (par_active)
     * what a shard may not do at once goes to its log (par_log), carried
     * out in the shards' order once every shard is done
     * (sim_par_commit); par_committing while it is. */
    struct SimPar *par;
    gboolean par_any;          /* par, or a shard: the hot paths' one test */
    gboolean par_active, par_committing;
    /* Its nodes: those x with (x & par_mask) == par_bits (a cube, split
     * by address bits), or with par_mask 0, x in [par_lo, par_hi). */
    uint32_t par_mask, par_bits, par_lo, par_hi;
    struct ParEntry *par_log;
    size_t npar_log, cappar_log;
    uint32_t par_pos;          /* the running event's place in the tick */
    /* The Sim's: sends and matchings of the tick's events run before it
     * split, and of them those a shard would put off (sim_par_tick). */
    uint64_t par_probe_ops, par_probe_far;
    gboolean par_probing;      /* counting them: the tick is undecided */
    atomic_int *par_failed;    /* some shard's events failed this tick */
    gboolean par_deferring;    /* a send of par_defer_node's was put off */
    uint32_t par_defer_node;   /* in this tick */
    QueueItem *par_item;       /* the shard's items of the tick, and */
    uint32_t *par_item_pos;    /* their places in it */
    size_t npar_item, cappar_item;
    /* On a split cube: lazy messages alive, by the link they cross (a
     * split may not cut one: sim_parallel.c); counts modulo 2^64, which
     * a shard's fall. Else NULL. */
    uint64_t *lazy_live;
};

/* ---- the parallel tick (sim_parallel.c, and sim.c's part of it) -------- */

/* What a shard puts off to the commit, in the order of its events: an
 * item for the queue; a send that leaves the shard or needs the engine's
 * shared state (a Post, carried out as a deferred send is); the matching
 * of a step's receives that need the match table (`n` of them at `recvs`). */
typedef enum { PAR_PUSH, PAR_POST, PAR_MATCH } ParKind;
typedef struct ParEntry {
    uint32_t kind;             /* ParKind */
    uint32_t node;
    Tick time;                 /* PAR_PUSH */
    void *ptr;                 /* PAR_PUSH: the item's post; PAR_POST: the
                                * Post; PAR_MATCH: the Recv * array */
    uint32_t n;
    uint32_t pos;              /* its event's place in the tick */
} ParEntry;
G_STATIC_ASSERT(sizeof(ParEntry) == 32);

/* Is node x one of the running shard's? */
static inline gboolean sim_par_mine(const Sim *sim, uint32_t x)
{
    return sim->par_mask ? (x & sim->par_mask) == sim->par_bits
                         : x - sim->par_lo < sim->par_hi - sim->par_lo;
}

/* The Sim a node's calls act on: the shard of the thread that runs it
 * while a tick is split, else the node's own. */
extern _Thread_local Sim *sim_par_tls;
static inline Sim *node_sim(const Node *node)
{
    Sim *s = sim_par_tls;
    return G_LIKELY(s == NULL) ? node->sim : s;
}

void sim_par_log(Sim *sim, ParKind kind, uint32_t node, Tick time, void *ptr,
                 uint32_t n);
/* A lazy message from sender to dest begins (Sim.lazy_live). */
static inline void sim_lazy_begin(Sim *sim, Node *sender, const Node *dest)
{
    if (G_UNLIKELY(sim->lazy_live != NULL)) {
        int l = __builtin_ctz(sender->address ^ dest->address);
        sender->lazy_link = (uint8_t)l;
        sim->lazy_live[l]++;
    }
}

/* An item for the queue. A shard's for a later tick go to its own queue
 * (the first shard's to the queue), which the commit empties into the
 * queue: each time's items are put in the order of their nodes when the
 * first of them is popped, and one node's all come from one shard. One
 * for the tick running goes to the log, whose order the queue keeps. */
static inline void sim_push(Sim *sim, Tick time, QueueItem item)
{
    if (G_UNLIKELY(sim->par_any) && sim->par_active && time <= sim->now)
        sim_par_log(sim, PAR_PUSH, item.node, time, item.post, 0);
    else
        queue_push(sim->queue, time, item);
}

/* Do nodes a and b belong to different shards? */
gboolean sim_par_cross(const Sim *sim, uint32_t a, uint32_t b);
/* Run the rest of a tick split among the threads, from `first`, the
 * item just popped: SIM_PAR_RAN; or nothing was run, and the loop runs
 * the item and asks again at the next (SIM_PAR_LATER: the links the
 * tick's sends use have no arrays yet) or not in this tick (SIM_PAR_NO). */
enum { SIM_PAR_NO, SIM_PAR_LATER, SIM_PAR_RAN };
int sim_par_tick(Sim *sim, QueueItem first);
/* sim.c's parts: a shard's events, and the commit of one shard's log. */
void sim_par_run_shard(Sim *sim, const QueueItem *item, size_t n);
void sim_par_commit_all(Sim *sim, Sim **shard, int n);
void sim_par_free(Sim *sim);

/* What each unit offers the others: its functions, then the helpers that
 * run per element or per event, inline. */

/* ---- memory (sim_memory.c) --------------------------------------------- */

/* A Sim's receives of its step, pools and slabs, freed. */
void sim_storage_free(Sim *sim);
/* A deferred send dropped unsent (its payload with it). */
void sim_post_drop(Post *post);
/* Slab storage, cache-line aligned: buffers, messages, receives. */
void *sim_slab_carve(Sim *sim, size_t bytes);
/* A message of count elements with its own buffer (own) or none yet. */
Msg *sim_msg_new(Sim *sim, size_t count, gboolean own);
/* Node x's memory is about to change in [offset, offset+count) (count 0:
 * all of it): copy out its lazy message if it reads it there. */
void sim_lazy_protect(Sim *sim, Node *x, size_t offset, size_t count);

static inline void sim_buf_free(Sim *sim, Word *b, unsigned cls)
{
    memcpy(b, &sim->pool[cls], sizeof(Word *));
    sim->pool[cls] = b;
}

/* The message's own buffer, or NULL (lazy). */
static inline Word *sim_msg_buf(const Msg *m)
{
    return m->lazy ? NULL : (Word *)m->data;
}

/* Node x's lazy message is no longer (Sim.lazy_live counts them). */
static inline void sim_lazy_gone(Sim *sim, Node *x)
{
    if (G_UNLIKELY(sim->lazy_live != NULL))
        sim->lazy_live[x->lazy_link]--;
    x->lazy = NULL;
}

static inline void sim_lazy_unlink(Sim *sim, Msg *m)
{
    sim_lazy_gone(sim, m->lazy);
    m->lazy = NULL;
}

/* Element `offset` of node x's memory, wherever its block is now. */
static inline Word *sim_memory_at(const Sim *sim, const Node *x, size_t offset)
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
static inline const Word *sim_msg_data(Sim *sim, const Msg *m)
{
    return m->lazy ? sim_memory_at(sim, m->lazy, m->offset) : m->data;
}

/* The message kept in node d's own key (msg_keep), as a Msg on the
 * stack: lazy, its sender the key's source. */
static inline Msg sim_kept_msg(Sim *sim, const Node *d)
{
    return (Msg){ .item = { NULL, d->match.owner_word },
                  .lazy = &sim->node[d->match.slot.source],
                  .offset = d->koffset, .count = d->kcount,
                  .arrival = d->karrival };
}

/* Where node x's lazy message reads x's memory: [*offset, +*count). */
static inline void sim_lazy_region(const Node *x, size_t *offset,
                                   size_t *count)
{
    const Node *d = sim_lazy_kept_dest(x->lazy);
    *offset = d ? d->koffset : x->lazy->offset;
    *count = d ? d->kcount : x->lazy->count;
}

/* Does node x's lazy message read its memory in [offset, offset+count)? */
static inline gboolean sim_lazy_overlaps(const Node *x, size_t offset,
                                         size_t count)
{
    size_t o, c;
    sim_lazy_region(x, &o, &c);
    return o < offset + count && offset < o + c;
}

/* A message taken: its sender's lazy message no longer, or its own
 * buffer back to the pool. */
static inline void sim_msg_release(Sim *sim, Msg *m)
{
    if (m->lazy)
        sim_lazy_unlink(sim, m);
    else if (m->data && m->cls != MSG_INLINE)
        sim_buf_free(sim, (Word *)m->data, m->cls);
}

static inline void sim_msg_free(Sim *sim, Msg *m)
{
    sim_msg_release(sim, m);
    m->item.next = (MatchItem *)sim->free_msg;     /* its first member */
    sim->free_msg = m;
}

static inline Recv *sim_recv_new(Sim *sim)
{
    Recv *r = sim->free_recv;
    if (r) {
        sim->free_recv = (Recv *)r->item.next;
        if (sim->free_recv)             /* as buf_new does (sim_memory.c) */
            EMU_PREFETCH(sim->free_recv);
    } else {
        r = sim_slab_carve(sim, sizeof(Recv));
    }
    return r;
}

static inline void sim_recv_free(Sim *sim, Recv *r)
{
    r->item.next = (MatchItem *)sim->free_recv;    /* its first member */
    sim->free_recv = r;
}

/* ---- channels (sim_channels.c) ----------------------------------------- */

/* Does the machine have channel state for every (node, link)? */
gboolean sim_dense(const Machine *m);
/* A new Sim's channel state (sim_new), and its end (sim_free). */
void sim_channels_new(Sim *sim);
void sim_channels_free(Sim *sim);
/* The sparse channel leaving `node` on `link`; and the timeline of a
 * channel whose link has no array yet (sim_channel_timeline). */
Channel *sim_channel(const Sim *sim, uint32_t node, int link,
                     gboolean create);
Timeline *sim_channel_timeline_slow(Sim *sim, uint32_t node, int link);
/* Add count elements to a dense channel's folded count. */
void sim_count_add(Sim *sim, uint32_t node, int link, uint64_t count);
/* The engine reached tick `now`: release the idle links' arrays. */
void sim_links_idle(Sim *sim, Tick now);
/* The links whose tables are due take their arrays; only where no
 * timeline of theirs is held (sim_route, before a route's lookups). */
void sim_links_due(Sim *sim);
/* Every link's array folded (the run's statistics are then complete). */
void sim_links_fold(Sim *sim);

/* Dense channels are link-major, so that the channels of one link (a cube
 * dimension's, which a step of most programs uses at every node in address
 * order) lie next to each other in memory. */
static inline uint64_t sim_dense_index(const Sim *sim, uint32_t node, int link)
{
    return (uint64_t)link * sim->nodes + node;
}

/* The timeline of the channel leaving `node` on `link`; inline where the
 * link's array is allocated already. */
static inline Timeline *sim_channel_timeline(Sim *sim, uint32_t node, int link)
{
    if (sim->link_ch && sim->link_ch[link].ch)
        return &sim->link_ch[link].ch[node].tl;
    return sim_channel_timeline_slow(sim, node, link);
}

/* A reservation up to `end` was made on tl, a channel of `link`. */
static inline void sim_channel_took(Sim *sim, int link, const Timeline *tl,
                                    Tick end)
{
    if (!sim->link_ch)
        return;
    LinkChannels *lc = &sim->link_ch[link];
    if (end > lc->until)
        lc->until = end;
    if (tl->start == TIMELINE_MANY)
        lc->many = TRUE;
}

static inline void sim_count_seen(Sim *sim, uint64_t total)
{
    if (total > sim->stats.max_channel_elements)
        sim->stats.max_channel_elements = total;
}

/* On a machine with faults: is a message's one hop from node x clear
 * of them, whatever the tick? The common case, asked inline of every
 * message; FALSE sends it to the whole check (fault_path in sim.c). */
static inline gboolean sim_fault_hop_clear(const Sim *sim, uint32_t x)
{
    const uint64_t *bits = sim->fault_hop_bits;
    return bits && !faults_bit(bits, x);
}

/* ---- the locality order (sim_order.c) ---------------------------------- */

/* Two events of a tick may depend on their order: stop the run with
 * SIM_ERROR_ORDER (the first conflict only). */
void sim_order_conflict(Sim *sim, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* Phase p's sums of ticks, doubles, are exact in any order only below
 * 2^52 (sim.c, node_close_phase): past it, a conflict. */
static inline void sim_phase_sums_check(Sim *sim, unsigned p)
{
    const SimPhase *ph = &sim->stats.phase[p];
    if (ph->time_sum + ph->compute_sum >= 0x1p52)
        sim_order_conflict(sim, "phase %u's sums passed 2^52 ticks", p);
}
/* Do two of the receives the running step posted overlap? */
gboolean sim_order_recvs_overlap(const Sim *sim);
/* Whether the run surveys, decided as it starts (sim_run). */
void sim_survey_start(Sim *sim);
/* The survey's count of the tick that ends (sim->now's). */
void sim_survey_close(Sim *sim);

/* A reservation on a resource by a message of `source`, posted now; a
 * channel's, or a port's or a memory path's (sim_order_stopped_at tells
 * which stopped the run). */
static inline void sim_order_mark(Sim *sim, uint64_t *mark, uint32_t source,
                                  const char *what, uint32_t owner,
                                  gboolean channel)
{
    uint64_t m = (uint64_t)(uint32_t)sim->now << 32 | ((uint64_t)source + 1);
    uint64_t old = *mark;
    if (old != m && (uint32_t)old != 0 && old >> 32 == m >> 32) {
        if (!sim->error)
            sim->order_on_channel = channel;
        sim_order_conflict(sim, "nodes %u and %u both reserved %s of node %u",
                           (uint32_t)old - 1, source, what, owner);
    }
    *mark = m;
}

static inline void sim_order_touch(Sim *sim, uint64_t *mark, uint32_t source,
                                   const char *what, uint32_t owner)
{
    sim_order_mark(sim, mark, source, what, owner, FALSE);
}

/* The same for the channel leaving `owner` whose timeline is tl (a dense
 * or a sparse one: the mark lies at the same place after either). */
static inline void sim_channel_touch(Sim *sim, Timeline *tl, uint32_t source,
                                     uint32_t owner)
{
    sim_order_mark(sim,
                   (uint64_t *)(void *)((char *)tl + offsetof(Channel, mark)),
                   source, "a channel", owner, TRUE);
}

/* ---- exchanges' deliveries, put off (sim_pending.c) -------------------- */

/* Carry a note out. */
void sim_pending_run(Sim *sim, Pending *p);
/* Node x's memory is about to be read or written otherwise: its note, if
 * it has one, is carried out first. */
void sim_pending_settle_noted(Sim *sim, Node *x);
/* Time moves on (or the run ends): carry out every note not yet done. */
void sim_pending_flush(Sim *sim);

/* Node x's note, if one is still to be carried out. */
static inline Pending *sim_pending_of(const Sim *sim, const Node *x)
{
    if (x->pend <= sim->pend_base)
        return NULL;
    Pending *p = &sim->pending[x->pend - sim->pend_base - 1];
    return p->done ? NULL : p;
}

/* Do a note's regions (or these) cover two whole memories? */
static inline gboolean sim_pending_whole(const Sim *sim, size_t a_offset,
                                         size_t b_offset, size_t count)
{
    return a_offset == 0 && b_offset == 0 && count == sim->memory_elements;
}

static inline gboolean sim_pending_relabels(const Sim *sim, const Pending *p)
{
    const PendingShape *sh = &sim->shapes[p->shape];
    return p->swap
           && sim_pending_whole(sim, sh->a_offset, sh->b_offset, sh->count);
}

/* sim_pending_settle_noted, its test inline: most nodes have no note. */
static inline void sim_pending_settle(Sim *sim, Node *x)
{
    if (x->pend > sim->pend_base)
        sim_pending_settle_noted(sim, x);
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
static inline gboolean sim_pending_can(const Sim *sim, const Node *a,
                                       const Node *b, const Recv *r,
                                       size_t count, size_t b_offset)
{
    const Msg *m = a->lazy;
    if (!m || count == 0 || r->count != count)
        return FALSE;
    uint64_t id;                /* a's, the message b is about to take */
    if (sim_lazy_kept_dest(m) == b) {
        if (b->koffset != r->offset || b->kcount != count)
            return FALSE;
        id = b->match.owner_word;
    } else if (!sim_lazy_kept_dest(m) && m->offset == r->offset
               && m->count == count
               && match_msgs(&b->match.slot) == &m->item) {
        id = m->item.seq;
    } else {
        return FALSE;
    }
    uint64_t far = sim_pending_whole(sim, r->offset, b_offset, count)
                       ? sim->pend_far_whole : sim->pend_far;
    return sim->stats.messages - id >= far
           && !sim_pending_of(sim, a) && !sim_pending_of(sim, b);
}

static inline void sim_pending_note(Sim *sim, Node *a, Node *b, const Recv *r,
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
static inline gboolean sim_pending_swap(Sim *sim, Node *b, Pending *p, Msg *m,
                                        const Recv *r)
{
    const PendingShape *sh = &sim->shapes[p->shape];
    if (p->swap || p->b != b->address || !m->lazy || m->lazy->address != p->a
        || m->offset != sh->a_offset || m->count != sh->count
        || r->count != sh->count || r->offset != sh->b_offset)
        return FALSE;
    if (b->lazy && sim_lazy_overlaps(b, r->offset, r->count))
        return FALSE;                   /* b's own lazy message reads it */
    sim->stats.events++;                /* as node_deliver counts it */
    if (m->arrival > b->wait_until)
        b->wait_until = m->arrival;
    p->swap = 1;
    sim->pend_counts.swapped++;
    return TRUE;
}

/* ---- routing (sim_route.c) --------------------------------------------- */

/* Reserve a startup that holds the port; returns when it ends. */
Tick sim_hold_startup(Sim *sim, const SimMessage *msg, int link, Tick ts);
/* sim_route's general case: the message in runs of elements. */
Tick sim_route_runs(Sim *sim, const SimMessage *msg, const int *path,
                    int hops, Tick ready, Tick *left);

/* Node x's memory path carries `busy` more ticks of elements (stats.h,
 * path_busy_max): a sum, so the order of a tick's events cannot change
 * it; the busiest node is the lowest address of those with the most. */
static inline void sim_path_account(Sim *sim, uint32_t x, Tick busy)
{
    Tick b = sim->path_busy[x] += busy;
    if (b > sim->stats.path_busy_max
        || (b == sim->stats.path_busy_max && x < sim->stats.path_busiest)) {
        sim->stats.path_busy_max = b;
        sim->stats.path_busiest = x;
    }
}

/* The statistics of a message's count elements crossing `link` from node
 * u, the last leaving at `end`; ch is the channel's timeline, or NULL
 * where the ports imply the channels. */
static inline __attribute__((always_inline)) void
sim_hop_account(Sim *sim, const SimMessage *msg, uint32_t u, int link,
                Timeline *ch, Tick end)
{
    uint64_t count = msg->count;
    if (ch)
        sim_channel_took(sim, link, ch, end);
    if (!sim->link_ch) {
        /* ch, where the channels have timelines, is the first member of
         * its Channel: no second lookup */
        Channel *c = ch ? (Channel *)(void *)ch
                        : sim_channel(sim, u, link, TRUE);
        sim_count_seen(sim, c->count += count);
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
        sim_count_add(sim, u, link, count);
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
static inline Tick sim_route_one(Sim *sim, const SimMessage *msg, int link,
                                 Tick ready)
{
    const Tick tau = msg->element_time;
    uint32_t u = msg->source;
    Timeline *ch = sim_channel_timeline(sim, u, link);
    if (sim->checks)
        sim_channel_touch(sim, ch, u, u);
    Tick t = timeline_claim(ch, sim->now, ready, tau, msg->count);
    if (t < 0)
        return -1;
    Tick stop = t + (Tick)msg->count * tau;
    if (sim->observer && sim->observer->channel_busy)
        sim->observer->channel_busy(sim->observer_data, msg, u, link, 0,
                                    msg->count, t);
    sim_hop_account(sim, msg, u, link, ch, stop);
    return stop;
}

/* Reserve a message's route. Elements are numbered 0..count-1 and keep
 * their order on every channel; each hop takes the earliest free slots at
 * or after the element's arrival at that node (oldest-first arbitration:
 * everything already reserved is older). Returns the tick the last
 * element reaches the destination; *left is when the last element has left
 * the source. Inline in its caller up to the one-hop message that flows
 * without interruption (sim_route_one); the rest in runs of elements
 * (sim_route_runs). */
static inline Tick sim_route(Sim *sim, const SimMessage *msg, const int *path,
                             int hops, Tick *left)
{
    const MachinePrice *price = machine_price(&sim->machine, msg->cls);
    if (G_UNLIKELY(sim->links_due))
        sim_links_due(sim);
    Tick ready = sim->now + price->startup;
    if (price->startup > 0 && sim->machine.startup_holds_port)
        ready = sim_hold_startup(sim, msg, path[0], price->startup);
    if (hops == 1 && !sim->send_port && !sim->channels_implied
        && !price->memory_path) {
        Tick end = sim_route_one(sim, msg, path[0], ready);
        if (end >= 0)
            return *left = end;
    }
    return sim_route_runs(sim, msg, path, hops, ready, left);
}

/* ---- reading ahead (sim.c, sim_pending.c) ------------------------------ */

/* Read ahead: at most this many bytes of a region. */
#define AHEAD_BYTES 512

#if defined(__has_attribute)
#if __has_attribute(fallthrough)
#define FALL_THROUGH __attribute__((fallthrough))
#endif
#endif
#ifndef FALL_THROUGH
#define FALL_THROUGH ((void)0)
#endif

/* The lines of [p, p + bytes), the first AHEAD_BYTES of it at most. */
static inline void sim_prefetch_bytes(const void *p, size_t bytes)
{
    G_STATIC_ASSERT(AHEAD_BYTES == 8 * 64);
    const char *c = p;
    switch (MIN((bytes + 63) / 64, (size_t)8)) {
    case 8: EMU_PREFETCH(c + 448); FALL_THROUGH;
    case 7: EMU_PREFETCH(c + 384); FALL_THROUGH;
    case 6: EMU_PREFETCH(c + 320); FALL_THROUGH;
    case 5: EMU_PREFETCH(c + 256); FALL_THROUGH;
    case 4: EMU_PREFETCH(c + 192); FALL_THROUGH;
    case 3: EMU_PREFETCH(c + 128); FALL_THROUGH;
    case 2: EMU_PREFETCH(c + 64);  FALL_THROUGH;
    case 1: EMU_PREFETCH(c);       break;
    default: break;
    }
}

#endif
