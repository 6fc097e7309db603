/* node_mpi.c -- the node-program API (emu/node.h) over MPI, one rank a node.
 *
 * The node's memory is the rank's memory; the program's step function is
 * called by this rank only, with this rank's Node.
 *
 * Messages. Every message, whatever its path, travels as one packet on a
 * single MPI tag (TAG_DATA): a header (original source, final destination,
 * node tag, sequence number, element count, the path and how much of it is
 * crossed) followed by the payload. A node_send over an explicit path of h
 * links goes hop by hop: the source sends the packet to the neighbour
 * across path[0], and every intermediate rank forwards it across the next
 * link of the path, until it reaches the destination. node_send_to(dest)
 * is sent directly to dest: MPI's own transport plays the router, so it
 * is one MPI message whatever the topology's default route. A send to the
 * node itself (a path of 0 links, or node_send_to itself) never goes
 * through MPI: the packet is kept and delivered after the step call.
 *
 * Matching. A forwarded packet reaches its destination from the last
 * intermediate rank, not from its source, so MPI's (source, tag) matching
 * cannot implement node_recv. Matching is done here instead, as the
 * emulator does it: node_recv records a receive; after the step call the
 * receives are matched, in posting order, to the oldest early message of
 * the same (source, tag), or wait; a packet that arrives is matched to the
 * oldest waiting receive of its (source, tag), or kept as an early message.
 * Non-overtaking: every (source, destination) pair numbers its packets, and
 * a destination holds back a packet until all earlier ones from the same
 * source have arrived (been offered to the receives), so messages between one (source, tag) pair
 * and a destination match receives in the order they were sent even when
 * they took different paths. A receive writes memory only when it
 * completes, always outside the step call; a send copies its elements into
 * its packet when posted (MPI_Isend of the packet; the packet is freed
 * when the Isend completes).
 *
 * A step is: the step call (posting Isends and recording receives), then
 * a service loop until every receive of the step has completed. The
 * service loop probes TAG_DATA with MPI_ANY_SOURCE, receives the packet
 * (its size from MPI_Get_count), forwards it if the rank is not its
 * destination, else offers it to the receives; between probes it tests
 * the outstanding Isends. So a rank forwards other ranks' packets while it
 * waits for its own, and also after its program has finished.
 *
 * Termination. A rank whose program returned NODE_DONE (and whose receives
 * all completed) enters a barrier of its own (a message to rank 0, which
 * releases every rank once all have come; not MPI_Ibarrier, which SMPI
 * gets wrong, see done_barrier) and keeps servicing until the barrier
 * completes: then every program has finished, so every message some
 * program received has arrived. Then a counting round, repeated until it
 * balances: MPI_Allreduce of the packets sent and received over MPI by
 * every rank (forwards included), servicing in between, so packets no
 * program wanted also arrive. A packet left unmatched then is the
 * emulator's "unreceived message" error. Finally MPI_Waitall on the
 * Isends (all matched by now).
 *
 * Options (MpiNodeOptions, libcubemu's): elements of E bytes, E below
 * the words they occupy in memory, travel as E bytes (packed when sent,
 * unpacked when delivered); `direct` sends every path straight to its
 * destination. Packet buffers are reused from a pool of the node's, and
 * mpi_node_reset readies a node for another run without reallocating: a
 * large buffer is fresh pages, and first touching them costs more than
 * the copy into them.
 *
 * Local work (node_busy, node_compute, node_kernel) takes no time here: the
 * real computation is whatever the step function itself does. node_phase
 * accumulates wall-clock seconds (MPI_Wtime) per phase; node_mark does
 * nothing. Errors are recorded like the emulator's (first one, with node
 * and step); the caller aborts the job, since other ranks may wait forever
 * for a rank that stopped. A deadlock (a receive nobody sends) hangs the
 * job, as a real MPI program would, unless the options set a wait limit
 * (cubemu-mpi sets one by default): see "Deadlocks" below.
 *
 * Deadlocks. With a wait limit, a node that has waited that long for its
 * step's receives with no packet arriving has stalled (wait_receives).
 * One node's view does not show a deadlock's cycle, so rank 0 asks every
 * rank for its state and fails with all of them, one line a node: which
 * receive it waits for, or that its program finished. A stalled rank
 * other than 0 tells rank 0 (TAG_STALL, its error's text) and keeps
 * servicing, answering rank 0's question (TAG_QUERY, answered by
 * TAG_STATE) from whichever loop it is in: its own receives, the
 * termination barrier, or the stalled wait. Rank 0 notices a TAG_STALL in
 * any of its loops, or stalls itself, then asks and waits at most the
 * limit for the answers: a rank inside a step's computation answers only
 * when it comes back, and is reported as not answering. A stalled rank
 * that rank 0 never asks (rank 0 computing, or gone) fails on its own
 * after twice the limit more, with its own error. The control messages
 * are probed only while nothing else arrives, and only with a limit.
 *
 * Traffic (MpiNodeOptions.count_traffic): each send is counted by its
 * sender as the emulator counts it (emu/sim.c: its class, and each hop's
 * elements on its link and directed channel), along the path the emulator
 * charges, so that the sums over ranks are the emulator's numbers.
 */
#include "node_mpi.h"
#include "nodecheck.h"
#include "scenario.h"
#include "topology.h"

#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <string.h>

#define TAG_DATA 1
#define TAG_DONE 2                /* the termination barrier's messages */
#define TAG_STALL 3               /* a stalled rank's error, to rank 0 */
#define TAG_QUERY 4               /* rank 0 asks a rank for its state */
#define TAG_STATE 5               /* a rank's state, to rank 0 */

/* A state or a stalled rank's error on the wire, with its NUL: room for
 * the longest either says (four 32-bit numbers, a size and the words
 * around them); longer text would be cut, never overrun. */
#define STATE_TEXT_MAX 512

/* A stalled rank that rank 0 has not asked for its state within this many
 * wait limits fails on its own (rank 0 waits one limit for the answers). */
#define STALL_PATIENCE 2

G_DEFINE_QUARK(mpi-node-error-quark, mpi_node_error)

static void packet_release(gpointer h);

/* The packet: this header, the path (int32 links, padded to 8 bytes),
 * then count x element_words words. */
typedef struct {
    uint32_t source, dest;
    int32_t tag;
    uint32_t hops;                /* links in the path */
    uint32_t next;                /* path[next] is the next link to cross */
    uint32_t pad;
    uint64_t seq;                 /* per (source, dest), from 0 */
    uint64_t count;               /* elements */
} Header;

typedef struct {
    uint32_t source;
    int tag;
    size_t offset, count;
    NodeOp op;                    /* an operation-level program's handle */
} Recv;

typedef struct {
    Header *packet;               /* g_malloc'd; payload after the path */
} Arrival;

struct Node {
    MPI_Comm comm;
    uint32_t address, count;
    const Topology *topo;
    int links;
    Word *memory;
    size_t memory_elements, w;
    size_t eb;                    /* bytes of an element on the wire */
    gboolean direct;
    double wait_limit;            /* seconds, 0: none (MpiNodeOptions) */
    gboolean count_traffic;       /* MpiNodeOptions.count_traffic */
    gboolean finished;            /* its program returned NODE_DONE */
    gboolean answered;            /* answered rank 0's TAG_QUERY */
    /* Buffers of the control messages' Isends (TAG_STALL, TAG_STATE),
     * which live until the job ends. */
    char stall_text[STATE_TEXT_MAX], state_text[STATE_TEXT_MAX];
    void *local;
    size_t local_size;
    unsigned step;
    gboolean in_step;
    GError *error;

    unsigned phase;
    double start, phase_start;

    GPtrArray *posted;            /* Recv *, recorded in this step call */
    GQueue waiting;               /* Recv *, posting order */
    GQueue early;                 /* Header *, matched order, no receive yet */
    GQueue held;                  /* Header *, ahead of their sequence */
    GQueue self;                  /* Header *, sent to itself in this call */
    uint64_t *send_seq, *recv_seq;       /* per peer */

    GArray *requests;             /* MPI_Request of outstanding Isends */
    GPtrArray *buffers;           /* their packets, same order */
    uint64_t mpi_sent, mpi_received;

    int *route;
    GPtrArray *pool;              /* Pooled *, packet buffers for reuse */
    MpiNodeStats stats;

    /* An operation-level program (MpiNodeOptions.each): the next handle,
     * the operations completed since the program's last call, and those
     * the running call reports (node_completed) and how many it read. */
    gboolean each;
    NodeOp next_op;
    GArray *completed, *report;
    guint reported;
};

/* ---- errors ---------------------------------------------------------- */

/* Where a misuse is recorded (node_fail, emu/nodecheck.h): this rank's
 * error, first misuse only. Outside its step call a node's counter
 * already names the next step. */
NodeFault node_fault(Node *node)
{
    return (NodeFault){ &node->error, MPI_NODE_ERROR, 1,
                        node->in_step ? node->step : node->step - 1 };
}

/* ---- setup ----------------------------------------------------------- */

Node *mpi_node_try_new(const Machine *machine, MPI_Comm comm,
                   size_t memory_elements, size_t element_words,
                   size_t local_size, unsigned phases,
                   const MpiNodeOptions *options)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    g_assert((uint32_t)size == machine_nodes(machine));
    g_assert(phases <= SIM_MAX_PHASES);
    Node *node = g_new0(Node, 1);
    node->comm = comm;
    node->address = (uint32_t)rank;
    node->count = (uint32_t)size;
    node->topo = &machine->topology;
    node->links = machine->topology.links;
    node->memory_elements = memory_elements;
    node->w = element_words;
    node->eb = element_words * sizeof(Word);
    if (options && options->element_bytes)
        node->eb = options->element_bytes;
    g_assert(node->eb <= element_words * sizeof(Word));
    node->direct = options && options->direct;
    node->wait_limit = options && options->wait_limit > 0 ? options->wait_limit
                                                          : 0;
    node->count_traffic = options && options->count_traffic;
    node->each = options && options->each;
    node->completed = g_array_new(FALSE, FALSE, sizeof(NodeOp));
    node->report = g_array_new(FALSE, FALSE, sizeof(NodeOp));
    size_t words = memory_elements * element_words;
    node->memory = g_try_new0(Word, words > 0 ? words : 1);
    if (!node->memory) {
        g_free(node);
        return NULL;
    }
    node->local = local_size ? g_malloc0(local_size) : NULL;
    node->local_size = local_size;
    node->posted = g_ptr_array_new();
    g_queue_init(&node->waiting);
    g_queue_init(&node->early);
    g_queue_init(&node->held);
    g_queue_init(&node->self);
    node->send_seq = g_new0(uint64_t, node->count);
    node->recv_seq = g_new0(uint64_t, node->count);
    node->requests = g_array_new(FALSE, FALSE, sizeof(MPI_Request));
    node->buffers = g_ptr_array_new();
    node->route = g_new(int, topology_max_route(node->topo) + 1);
    node->pool = g_ptr_array_new_with_free_func(g_free);
    node->stats.phases = phases ? phases : 1;
    if (node->count_traffic) {
        int links = node->links ? node->links : 1;
        node->stats.link_up = g_new0(uint64_t, links);
        node->stats.link_down = g_new0(uint64_t, links);
        node->stats.channel = g_try_new0(uint64_t, (size_t)node->count * links);
        if (!node->stats.channel) {
            mpi_node_free(node);
            return NULL;
        }
    }
    return node;
}

Node *mpi_node_new(const Machine *machine, MPI_Comm comm,
                   size_t memory_elements, size_t element_words,
                   size_t local_size, unsigned phases,
                   const MpiNodeOptions *options)
{
    Node *node = mpi_node_try_new(machine, comm, memory_elements,
                                  element_words, local_size, phases, options);
    if (!node)
        g_error("cubemu-mpi: cannot allocate %zu elements of memory",
                memory_elements);
    return node;
}

void mpi_node_free(Node *node)
{
    if (!node)
        return;
    g_free(node->memory);
    g_free(node->local);
    g_ptr_array_free(node->posted, TRUE);
    g_queue_clear_full(&node->waiting, g_free);
    g_queue_clear_full(&node->early, packet_release);
    g_queue_clear_full(&node->held, packet_release);
    g_queue_clear_full(&node->self, packet_release);
    g_free(node->send_seq);
    g_free(node->recv_seq);
    g_array_free(node->requests, TRUE);
    for (guint i = 0; i < node->buffers->len; i++)
        packet_release(node->buffers->pdata[i]);
    g_ptr_array_free(node->buffers, TRUE);
    g_ptr_array_free(node->pool, TRUE);
    g_free(node->route);
    g_free(node->stats.link_up);
    g_free(node->stats.link_down);
    g_free(node->stats.channel);
    g_array_free(node->completed, TRUE);
    g_array_free(node->report, TRUE);
    g_clear_error(&node->error);
    g_free(node);
}

void mpi_node_reset(Node *node)
{
    g_assert(!node->error && node->waiting.length == 0
             && node->early.length == 0 && node->held.length == 0);
    MpiNodeStats kept = node->stats;
    node->step = 0;
    node->phase = 0;
    node->finished = FALSE;
    node->answered = FALSE;
    memset(&node->stats, 0, sizeof node->stats);
    node->stats.phases = kept.phases;
    if (node->count_traffic) {
        size_t links = node->links ? (size_t)node->links : 1;
        node->stats.link_up = kept.link_up;
        node->stats.link_down = kept.link_down;
        node->stats.channel = kept.channel;
        memset(kept.link_up, 0, links * sizeof *kept.link_up);
        memset(kept.link_down, 0, links * sizeof *kept.link_down);
        memset(kept.channel, 0, node->count * links * sizeof *kept.channel);
    }
    memset(node->send_seq, 0, node->count * sizeof *node->send_seq);
    memset(node->recv_seq, 0, node->count * sizeof *node->recv_seq);
    node->mpi_sent = node->mpi_received = 0;
    node->next_op = 0;
    g_array_set_size(node->completed, 0);
    g_array_set_size(node->report, 0);
    if (node->local)
        memset(node->local, 0, node->local_size);
    memset(node->memory, 0,
           node->memory_elements * node->w * sizeof(Word));
}

const MpiNodeStats *mpi_node_stats(const Node *node)
{
    return &node->stats;
}

/* ---- node API: queries ----------------------------------------------- */

uint32_t node_address(const Node *node) { return node->address; }
uint32_t node_count(const Node *node) { return node->count; }
int node_links(const Node *node) { return node->links; }
const char *node_topology(const Node *node) { return node->topo->ops->name; }
unsigned node_step(const Node *node) { return node->step; }
Word *node_memory(Node *node) { return node->memory; }
size_t node_memory_elements(const Node *node) { return node->memory_elements; }
size_t node_element_words(const Node *node) { return node->w; }
void *node_local(Node *node) { return node->local; }

gboolean mpi_machine_runs_for_real(const Machine *machine, const char *where,
                                   const char *program, GError **error)
{
    if (!machine->faults)
        return TRUE;
    g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                "%s: machine.faults = %s: %s runs on real links and nodes, "
                "and a real run cannot break a link or kill a node; run it "
                "on the emulator (cubemu run)", where,
                faults_spec(machine->faults), program);
    return FALSE;
}

/* cubemu-mpi and libcubemu refuse a machine with faults
 * (mpi_machine_runs_for_real), so every node is alive. */
int node_alive(const Node *node, uint32_t x)
{
    return x < node->count;
}

uint32_t node_neighbour(const Node *node, int link)
{
    if (link < 0 || link >= node->links)
        return NODE_NONE;
    uint32_t v = topology_neighbour(node->topo, node->address, link);
    return v == TOPOLOGY_NONE ? NODE_NONE : v;
}

/* ---- packets --------------------------------------------------------- */

static size_t path_bytes(uint32_t hops)
{
    return ((size_t)hops * sizeof(int32_t) + 7) / 8 * 8;
}

static int32_t *packet_path(Header *h)
{
    return (int32_t *)(h + 1);
}

static Word *packet_data(Header *h)
{
    return (Word *)((char *)(h + 1) + path_bytes(h->hops));
}

static size_t packet_bytes(const Node *node, const Header *h)
{
    return sizeof(Header) + path_bytes(h->hops) + (size_t)h->count * node->eb;
}

/* Elements between memory (w words each) and a payload (eb bytes each). */
static void pack(const Node *node, void *payload, const Word *from,
                 size_t count)
{
    size_t whole = node->w * sizeof(Word);
    if (node->eb == whole) {
        memcpy(payload, from, count * whole);
        return;
    }
    char *out = payload;
    for (size_t e = 0; e < count; e++)
        memcpy(out + e * node->eb, from + e * node->w, node->eb);
}

static void unpack(const Node *node, Word *to, const void *payload,
                   size_t count)
{
    size_t whole = node->w * sizeof(Word);
    if (node->eb == whole) {
        memcpy(to, payload, count * whole);
        return;
    }
    const char *in = payload;
    for (size_t e = 0; e < count; e++)
        memcpy(to + e * node->w, in + e * node->eb, node->eb);
}

void mpi_node_load(Node *node, const void *src, size_t count)
{
    unpack(node, node->memory, src, count);
}

void mpi_node_store(const Node *node, void *dst, size_t count)
{
    pack(node, dst, node->memory, count);
}

/* Packet buffers come from a small pool of the node's, so that a run of
 * messages (and the runs of a plan, which keeps its node) does not pay
 * for fresh pages every time: a large malloc is an mmap, and first
 * touching its pages costs more than copying into them. */
typedef struct {
    size_t capacity;
    uint64_t pad;                 /* keeps the packet 16-byte aligned */
} Pooled;

#define POOL_BUFFERS 8

static Header *packet_new(Node *node, size_t bytes)
{
    Pooled *best = NULL;
    guint at = 0;
    for (guint i = 0; i < node->pool->len; i++) {
        Pooled *b = node->pool->pdata[i];
        if (b->capacity >= bytes && (!best || b->capacity < best->capacity)) {
            best = b;
            at = i;
        }
    }
    if (best)
        g_ptr_array_steal_index_fast(node->pool, at);
    else {
        best = g_malloc(sizeof(Pooled) + (bytes ? bytes : 1));
        best->capacity = bytes;
    }
    return (Header *)(best + 1);
}

static void packet_free(Node *node, Header *h)
{
    if (!h)
        return;
    Pooled *b = (Pooled *)h - 1;
    if (node->pool->len < POOL_BUFFERS) {
        g_ptr_array_add(node->pool, b);
        return;
    }
    /* Keep the larger ones. */
    guint small = 0;
    for (guint i = 1; i < node->pool->len; i++)
        if (((Pooled *)node->pool->pdata[i])->capacity
            < ((Pooled *)node->pool->pdata[small])->capacity)
            small = i;
    Pooled *s = node->pool->pdata[small];
    if (s->capacity < b->capacity) {
        node->pool->pdata[small] = b;
        b = s;
    }
    g_free(b);
}

static void packet_release(gpointer h)
{
    if (h)
        g_free((Pooled *)h - 1);
}

/* Isend the packet to rank `to`; it is freed when the send completes. */
static void packet_isend(Node *node, Header *h, uint32_t to)
{
    size_t bytes = packet_bytes(node, h);
    MPI_Request req;
    MPI_Isend(h, (int)bytes, MPI_BYTE, (int)to, TAG_DATA, node->comm, &req);
    g_array_append_val(node->requests, req);
    g_ptr_array_add(node->buffers, h);
    node->mpi_sent++;
}

/* Free the packets whose Isends have completed. */
static void test_sends(Node *node)
{
    guint i = 0;
    while (i < node->requests->len) {
        int done = 0;
        MPI_Test(&g_array_index(node->requests, MPI_Request, i), &done,
                 MPI_STATUS_IGNORE);
        if (done) {
            packet_free(node, node->buffers->pdata[i]);
            g_array_remove_index_fast(node->requests, i);
            g_ptr_array_remove_index_fast(node->buffers, i);
        } else {
            i++;
        }
    }
}

/* ---- operation-level programs -------------------------------------------- */

/* A new operation's handle (an operation-level program's). */
static NodeOp new_op(Node *node)
{
    return node->next_op++;
}

/* Operation op completed: reported by the program's next call. */
static void op_done(Node *node, NodeOp op)
{
    g_array_append_val(node->completed, op);
}

/* An operation that completes as it is posted (a send, local work). */
static void op_now(Node *node)
{
    if (node->each)
        op_done(node, new_op(node));
}

NodeOp node_last_op(const Node *node)
{
    return node->each ? node->next_op - 1 : 0;
}

static int op_compare(const void *a, const void *b)
{
    NodeOp x = *(const NodeOp *)a, y = *(const NodeOp *)b;
    return (x > y) - (x < y);
}

size_t node_completed(Node *node, NodeOp *ops, size_t max)
{
    if (!node->each || !node->in_step)
        return 0;
    size_t n = MIN(max, (size_t)(node->report->len - node->reported));
    if (n)
        memcpy(ops, &g_array_index(node->report, NodeOp, node->reported),
               n * sizeof *ops);
    node->reported += (guint)n;
    return n;
}

/* ---- matching -------------------------------------------------------- */

/* Write a matched packet into memory and free it. */
static void deliver(Node *node, const Recv *r, Header *h)
{
    if (node_checked(node, nodecheck_count((size_t)h->count, h->source,
                                           h->tag, r->count)))
        unpack(node, node->memory + r->offset * node->w, packet_data(h),
               r->count);
    packet_free(node, h);
    if (node->each)
        op_done(node, r->op);
}

/* A packet in sequence: the oldest waiting receive of its (source, tag),
 * or it waits as an early message. */
static void offer(Node *node, Header *h)
{
    for (GList *l = node->waiting.head; l; l = l->next) {
        Recv *r = l->data;
        if (r->source == h->source && r->tag == h->tag) {
            g_queue_delete_link(&node->waiting, l);
            deliver(node, r, h);
            g_free(r);
            return;
        }
    }
    g_queue_push_tail(&node->early, h);
}

/* A packet that reached its destination: offered in its source's order. */
static void arrive(Node *node, Header *h)
{
    if (h->seq != node->recv_seq[h->source]) {
        g_queue_push_tail(&node->held, h);
        return;
    }
    uint32_t source = h->source;          /* offer may free h */
    node->recv_seq[source]++;
    offer(node, h);
    for (GList *l = node->held.head; l;) {
        Header *k = l->data;
        if (k->source == source && k->seq == node->recv_seq[source]) {
            g_queue_delete_link(&node->held, l);
            node->recv_seq[source]++;
            offer(node, k);
            l = node->held.head;          /* a later one may now be next */
        } else {
            l = l->next;
        }
    }
}

/* After the step call: its receives in posting order, then its sends to
 * itself. */
static void after_step(Node *node)
{
    for (guint i = 0; i < node->posted->len; i++) {
        Recv *r = node->posted->pdata[i];
        GList *l = node->early.head;
        for (; l; l = l->next) {
            Header *h = l->data;
            if (h->source == r->source && h->tag == r->tag)
                break;
        }
        if (l) {
            Header *h = l->data;
            g_queue_delete_link(&node->early, l);
            deliver(node, r, h);
            g_free(r);
        } else {
            g_queue_push_tail(&node->waiting, r);
        }
    }
    g_ptr_array_set_size(node->posted, 0);
    Header *h;
    while ((h = g_queue_pop_head(&node->self)))
        arrive(node, h);
}

static void service_control(Node *node);

/* One probe: receive a packet if one is there, forward it or offer it.
 * TRUE if there was one. */
static gboolean service(Node *node)
{
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, TAG_DATA, node->comm, &flag, &st);
    if (!flag) {
        test_sends(node);
        if (node->wait_limit > 0)
            service_control(node);
        return FALSE;
    }
    int bytes = 0;
    MPI_Get_count(&st, MPI_BYTE, &bytes);
    Header *h = packet_new(node, bytes > 0 ? (size_t)bytes : 1);
    MPI_Recv(h, bytes, MPI_BYTE, st.MPI_SOURCE, TAG_DATA, node->comm,
             MPI_STATUS_IGNORE);
    node->mpi_received++;
    if (h->dest != node->address) {
        g_assert(h->next < h->hops);
        int link = packet_path(h)[h->next++];
        uint32_t to = topology_neighbour(node->topo, node->address, link);
        g_assert(to != TOPOLOGY_NONE);
        node->stats.forwards++;
        packet_isend(node, h, to);
    } else {
        arrive(node, h);
    }
    return TRUE;
}

/* ---- node API: operations -------------------------------------------- */

/* Build the packet (copying the elements now) and send it on its way. */
static void post_send(Node *node, uint32_t dest, const int *path, int hops,
                      size_t offset, size_t count, int tag)
{
    if (!node_check_run(node, "send", offset, count))
        return;
    uint32_t h_links = dest == node->address || node->direct ? 0
                       : (uint32_t)hops;
    size_t bytes = sizeof(Header) + path_bytes(h_links) + count * node->eb;
    if (bytes > INT_MAX) {
        node_fail(node, "send of %zu elements: more than one MPI message "
                  "carries (%d bytes)", count, INT_MAX);
        return;
    }
    Header *h = packet_new(node, bytes);
    memset(h, 0, sizeof(Header) + path_bytes(h_links));
    *h = (Header){ .source = node->address, .dest = dest, .tag = tag,
                   .hops = h_links, .next = 0,
                   .seq = node->send_seq[dest]++, .count = count };
    for (uint32_t i = 0; i < h_links; i++)
        packet_path(h)[i] = path[i];
    pack(node, packet_data(h), node->memory + offset * node->w, count);
    node->stats.messages++;
    node->stats.bytes += count * node->eb;
    if (dest == node->address) {
        g_queue_push_tail(&node->self, h);
        return;
    }
    uint32_t first = dest;
    if (h_links > 0) {
        first = topology_neighbour(node->topo, node->address, path[0]);
        h->next = 1;
    }
    packet_isend(node, h, first);
}

/* A send as the emulator counts it (MpiNodeStats; emu/sim.c's sim_class
 * and sim_hop_account): a message of the router class where the topology
 * prices one and the send was routed or crosses other than one link, else
 * of the neighbour class; and each of its hops, along PATH (the route the
 * emulator charges), carrying its elements over that link, in the
 * direction the topology gives, and over the channel leaving that hop's
 * node. An empty message crosses nothing: the emulator routes none. */
static void count_send(Node *node, const int *path, int hops,
                       gboolean routed, size_t count)
{
    if (!node->count_traffic)
        return;
    MpiNodeStats *st = &node->stats;
    MessageClass cls = (routed || hops != 1)
                       && topology_has_class(node->topo->ops, CLASS_ROUTER)
                       ? CLASS_ROUTER : CLASS_NEIGHBOUR;
    st->class_messages[cls]++;
    st->class_elements[cls] += count;
    if (count == 0)
        return;
    uint32_t u = node->address;
    for (int i = 0; i < hops; i++) {
        int link = path[i];
        if (topology_direction(node->topo, u, link) < 0)
            st->link_down[link] += count;
        else
            st->link_up[link] += count;
        st->channel[(size_t)u * (size_t)node->links + (size_t)link] += count;
        u = topology_neighbour(node->topo, u, link);
    }
    st->element_transfers += (uint64_t)hops * count;
    st->class_transfers[cls] += (uint64_t)hops * count;
}

void node_send(Node *node, const int *path, int hops, size_t offset,
               size_t count, int tag)
{
    if (node->error)
        return;
    uint32_t dest;
    if (!node_checked(node, nodecheck_path(node->topo, node->address, path,
                                           hops, &dest)))
        return;
    count_send(node, path, hops, FALSE, count);
    /* A path that comes back to the node is still a trip through the
     * network in the emulator; here it is a local copy. */
    post_send(node, dest, path, hops, offset, count, tag);
    op_now(node);
}

void node_send_to(Node *node, uint32_t dest, size_t offset, size_t count,
                  int tag)
{
    if (node->error)
        return;
    if (!node_checked(node, nodecheck_node("send to", dest, node->count)))
        return;
    if (node->count_traffic) {
        int hops = topology_route(node->topo, node->address, dest,
                                  node->route);
        count_send(node, node->route, hops, TRUE, count);
    }
    post_send(node, dest, NULL, 0, offset, count, tag);   /* direct */
    op_now(node);
}

void node_recv(Node *node, uint32_t source, int tag, size_t offset,
               size_t count)
{
    if (node->error)
        return;
    if (!node_checked(node, nodecheck_node("receive from", source,
                                           node->count)))
        return;
    if (!node_check_run(node, "receive", offset, count))
        return;
    Recv *r = g_new(Recv, 1);
    *r = (Recv){ source, tag, offset, count, node->each ? new_op(node) : 0 };
    g_ptr_array_add(node->posted, r);
}

void node_exchange(Node *node, int link, size_t offset, size_t count, int tag)
{
    if (node->each) {
        node_fail(node, "node_exchange in an operation-level program: its "
                  "region is the step's (node.h); post a send and a "
                  "receive");
        return;
    }
    uint32_t nb = node_neighbour(node, link);
    if (!node_checked(node, nodecheck_link(node->topo, node->address, link,
                                           nb)))
        return;
    node_send(node, &link, 1, offset, count, tag);
    node_recv(node, nb, tag, offset, count);
}

void node_busy(Node *node, Tick ticks)
{
    if (node_checked(node, nodecheck_ticks("busy", ticks)))
        op_now(node);
}

void node_idle(Node *node, Tick ticks)
{
    if (node_checked(node, nodecheck_ticks("idle", ticks)))
        op_now(node);
}

void node_compute(Node *node, uint64_t flops)
{
    (void)flops;
    op_now(node);
}

void node_kernel(Node *node, const char *kernel, const uint64_t shape[3],
                 uint64_t flops)
{
    (void)kernel;
    (void)shape;
    (void)flops;
    op_now(node);
}

static void close_phase(Node *node, double end)
{
    node->stats.phase_seconds[node->phase] += end - node->phase_start;
    node->stats.phase_visited[node->phase] = TRUE;
}

void node_phase(Node *node, unsigned phase)
{
    if (!node_checked(node, nodecheck_phase(phase, node->phase,
                                            node->stats.phases)))
        return;
    if (phase == node->phase)
        return;
    double now = MPI_Wtime();
    close_phase(node, now);
    node->phase = phase;
    node->phase_start = now;
}

void node_mark(Node *node, const char *format, ...)
{
    (void)node;
    (void)format;
}

void node_vmark(Node *node, const char *format, va_list ap)
{
    (void)node;
    (void)format;
    (void)ap;
}

/* ---- deadlocks (the header's "Deadlocks") ---------------------------- */

/* This node's state, one line of rank 0's report. */
static void state_text(const Node *node, char text[STATE_TEXT_MAX])
{
    if (node->finished) {
        g_snprintf(text, STATE_TEXT_MAX, "node %u: finished its program "
                   "after %u step%s; waits for the others", node->address,
                   node->step, node->step == 1 ? "" : "s");
    } else if (node->waiting.length > 0) {
        const Recv *r = node->waiting.head->data;
        g_snprintf(text, STATE_TEXT_MAX, "node %u: step %u: waits for %u "
                   "receive%s, the oldest for %zu elements from node %u "
                   "with tag %d", node->address, node->step - 1,
                   node->waiting.length, node->waiting.length == 1 ? "" : "s",
                   r->count, r->source, r->tag);
    } else {
        g_snprintf(text, STATE_TEXT_MAX, "node %u: between steps %u and %u",
                   node->address, node->step - 1, node->step);
    }
}

/* Rank 0: HEAD (a stalled node's error), then every node's state, one a
 * line, as this node's error. The other ranks are asked (TAG_QUERY) and
 * given one wait limit to answer. */
static void fail_with_states(Node *node, const char *head)
{
    uint32_t others = node->count - 1;
    g_autoptr(GString) text = g_string_new(head);
    g_string_append(text, "; each node's state:");
    char line[STATE_TEXT_MAX];
    state_text(node, line);
    g_string_append_printf(text, "\n  %s", line);
    char (*states)[STATE_TEXT_MAX] = g_malloc0((others ? others : 1)
                                               * sizeof *states);
    for (uint32_t x = 1; x <= others; x++) {
        MPI_Request q;
        MPI_Isend(NULL, 0, MPI_BYTE, (int)x, TAG_QUERY, node->comm, &q);
        MPI_Request_free(&q);
    }
    double start = MPI_Wtime();
    for (uint32_t left = others; left > 0
         && MPI_Wtime() - start < node->wait_limit;) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_STATE, node->comm, &flag, &st);
        if (!flag) {
            sched_yield();
            continue;
        }
        MPI_Recv(states[st.MPI_SOURCE - 1], STATE_TEXT_MAX, MPI_CHAR,
                 st.MPI_SOURCE, TAG_STATE, node->comm, MPI_STATUS_IGNORE);
        states[st.MPI_SOURCE - 1][STATE_TEXT_MAX - 1] = '\0';
        left--;
    }
    for (uint32_t x = 1; x <= others; x++) {
        if (states[x - 1][0])
            g_string_append_printf(text, "\n  %s", states[x - 1]);
        else
            g_string_append_printf(text, "\n  node %u: no answer within %g s "
                                   "(inside a step's computation, or "
                                   "stopped)", x, node->wait_limit);
    }
    g_free(states);
    g_clear_error(&node->error);
    g_set_error_literal(&node->error, MPI_NODE_ERROR, 1, text->str);
}

/* The control messages, probed while no packet arrives: on rank 0 a
 * stalled rank's (it fails with every node's state), on the others rank
 * 0's question (answered once). */
static void service_control(Node *node)
{
    int flag = 0;
    MPI_Status st;
    if (node->address == 0) {
        if (node->error)
            return;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_STALL, node->comm, &flag, &st);
        if (!flag)
            return;
        char head[STATE_TEXT_MAX];
        MPI_Recv(head, STATE_TEXT_MAX, MPI_CHAR, st.MPI_SOURCE, TAG_STALL,
                 node->comm, MPI_STATUS_IGNORE);
        head[STATE_TEXT_MAX - 1] = '\0';
        fail_with_states(node, head);
        return;
    }
    if (node->answered)
        return;
    MPI_Iprobe(0, TAG_QUERY, node->comm, &flag, MPI_STATUS_IGNORE);
    if (!flag)
        return;
    MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_QUERY, node->comm, MPI_STATUS_IGNORE);
    state_text(node, node->state_text);
    MPI_Request q;
    MPI_Isend(node->state_text, STATE_TEXT_MAX, MPI_CHAR, 0, TAG_STATE,
              node->comm, &q);
    MPI_Request_free(&q);
    node->answered = TRUE;
}

/* The node's wait limit passed (its error says so): rank 0 fails with
 * every node's state; another rank tells rank 0 and services (answering
 * rank 0's question) until rank 0 ends the job, or, if rank 0 never asks,
 * fails on its own after STALL_PATIENCE limits. */
static void stall(Node *node)
{
    if (node->address == 0) {
        g_autofree char *head = g_strdup(node->error->message);
        fail_with_states(node, head);
        return;
    }
    g_strlcpy(node->stall_text, node->error->message, STATE_TEXT_MAX);
    MPI_Request q;
    MPI_Isend(node->stall_text, STATE_TEXT_MAX, MPI_CHAR, 0, TAG_STALL,
              node->comm, &q);
    MPI_Request_free(&q);
    double start = MPI_Wtime();
    while (MPI_Wtime() - start < STALL_PATIENCE * node->wait_limit) {
        if (!service(node))
            sched_yield();
    }
}

/* ---- the loop -------------------------------------------------------- */

/* Service until the n requests have all completed, or this node fails
 * (rank 0, when another rank stalled: service_control). */
static void wait_servicing(Node *node, int n, MPI_Request *reqs)
{
    for (int done = 0; !node->error;) {
        MPI_Testall(n, reqs, &done, MPI_STATUSES_IGNORE);
        if (done)
            return;
        if (!service(node))
            sched_yield();
    }
}

static void wait_until_quiet(Node *node, gboolean one);

/* Service until the step's receives have all completed (wait_until_quiet). */
static void wait_receives(Node *node)
{
    wait_until_quiet(node, FALSE);
}

/* An operation-level program's wait: until one receive completes. */
static void wait_one(Node *node)
{
    wait_until_quiet(node, TRUE);
}

/* Service until the receives waiting have all completed (with ONE: until
 * an operation has completed), or, with a wait limit, until that many
 * seconds have passed with nothing arriving: then the node fails, naming
 * its oldest receive, and stalls (above). The quiet time starts at the
 * first probe that finds nothing, so the clock is read only while
 * nothing arrives, never per packet. */
static void wait_until_quiet(Node *node, gboolean one)
{
    double quiet_since = -1;      /* -1: a packet came since the last read */
    while (!node->error && node->waiting.length > 0
           && !(one && node->completed->len > 0)) {
        if (service(node)) {
            quiet_since = -1;
            continue;
        }
        if (node->wait_limit > 0) {
            double now = MPI_Wtime();
            if (quiet_since < 0)
                quiet_since = now;
            else if (now - quiet_since >= node->wait_limit) {
                const Recv *r = g_queue_peek_head(&node->waiting);
                node_fail(node, "no message arrived for %g s while %u "
                          "receives waited, the oldest for %zu elements "
                          "from node %u with tag %d: a deadlock, or a node "
                          "that stopped", node->wait_limit,
                          node->waiting.length, r->count, r->source, r->tag);
                stall(node);
                return;
            }
        }
        sched_yield();
    }
}

/* A barrier that services while it waits: every rank tells rank 0 it is
 * done (TAG_DONE), and rank 0 releases them all once every one has. Not
 * MPI_Ibarrier: SMPI's (SimGrid 3.32) completes on every other rank as
 * soon as rank 0 enters it, since rank 0 posts its releases together with
 * its receives; a rank would then stop forwarding while another still
 * waits for a packet through it. */
static void done_barrier(Node *node)
{
    int others = (int)node->count - 1;
    if (others == 0)
        return;
    MPI_Request *reqs = g_new(MPI_Request, others > 2 ? others : 2);
    if (node->address == 0) {
        for (int i = 0; i < others; i++)
            MPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_DONE, node->comm,
                      &reqs[i]);
        wait_servicing(node, others, reqs);
        if (node->error) {        /* another rank stalled: the job ends */
            g_free(reqs);
            return;
        }
        for (int i = 0; i < others; i++)
            MPI_Isend(NULL, 0, MPI_BYTE, i + 1, TAG_DONE, node->comm,
                      &reqs[i]);
        wait_servicing(node, others, reqs);
    } else {
        MPI_Isend(NULL, 0, MPI_BYTE, 0, TAG_DONE, node->comm, &reqs[0]);
        MPI_Irecv(NULL, 0, MPI_BYTE, 0, TAG_DONE, node->comm, &reqs[1]);
        wait_servicing(node, 2, reqs);
    }
    g_free(reqs);
}

static gboolean node_failed(Node *node, GError **error)
{
    g_propagate_error(error, node->error);
    node->error = NULL;
    return FALSE;
}

/* An operation-level program's calls: the first, then one whenever
 * operations have completed since the last (servicing until one does),
 * until it returned NODE_DONE and its receives have all completed. */
static void run_each(Node *node, NodeStepFn step, const void *config)
{
    for (;;) {
        GArray *t = node->report;
        node->report = node->completed;
        node->completed = t;
        g_array_set_size(node->completed, 0);
        qsort(node->report->data, node->report->len, sizeof(NodeOp),
              op_compare);
        node->reported = 0;
        node->in_step = TRUE;
        NodeStatus status = step(node, config);
        node->in_step = FALSE;
        node->step++;
        if (!node->error)
            after_step(node);
        if (status == NODE_DONE) {
            wait_receives(node);
            return;
        }
        if (status == NODE_CONTINUE) {
            /* everything outstanding, as a step's end */
            wait_receives(node);
        } else if (!node->error && node->completed->len == 0
                   && node->waiting.length == 0) {
            node_fail(node, "returned NODE_ANY with no operation "
                      "outstanding: nothing would call it again");
            return;
        } else if (node->completed->len == 0) {
            /* a receive waits: serviced as wait_receives does, its wait
             * limit included, until it or another completes */
            wait_one(node);
        }
        if (node->error)
            return;
    }
}

gboolean mpi_node_run(Node *node, NodeStepFn step, const void *config,
                      GError **error)
{
    node->start = node->phase_start = MPI_Wtime();
    if (node->each) {
        run_each(node, step, config);
        if (node->error)
            return node_failed(node, error);
    }
    for (; !node->each;) {
        node->in_step = TRUE;
        NodeStatus status = step(node, config);
        node->in_step = FALSE;
        node->step++;
        if (status == NODE_ANY)
            node_fail(node, "returned NODE_ANY, which only an "
                      "operation-level program may (node.h)");
        if (!node->error)
            after_step(node);
        wait_receives(node);
        if (node->error)
            return node_failed(node, error);
        if (status == NODE_DONE)
            break;
    }
    double end = MPI_Wtime();
    close_phase(node, end);
    node->stats.seconds = end - node->start;
    node->finished = TRUE;

    /* Every program has finished once the barrier completes. */
    done_barrier(node);
    if (node->error)
        return node_failed(node, error);
    /* Every packet sent has been received (forwards included). */
    for (;;) {
        uint64_t counts[2] = { node->mpi_sent, node->mpi_received }, sum[2];
        MPI_Allreduce(counts, sum, 2, MPI_UINT64_T, MPI_SUM, node->comm);
        if (sum[0] == sum[1])
            break;
        while (service(node))
            ;
    }
    MPI_Waitall((int)node->requests->len,
                (MPI_Request *)node->requests->data, MPI_STATUSES_IGNORE);
    for (guint i = 0; i < node->buffers->len; i++)
        packet_free(node, node->buffers->pdata[i]);
    g_array_set_size(node->requests, 0);
    g_ptr_array_set_size(node->buffers, 0);
    if (node->error)
        return node_failed(node, error);

    Header *h = g_queue_peek_head(&node->early);
    if (!h)
        h = g_queue_peek_head(&node->held);
    if (h) {
        g_set_error(error, MPI_NODE_ERROR, 2,
                    "unreceived message: node %u never received %zu "
                    "elements sent by node %u with tag %d", node->address,
                    (size_t)h->count, h->source, h->tag);
        return FALSE;
    }
    return TRUE;
}
