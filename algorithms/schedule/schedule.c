/* schedule.c -- replay a message schedule (workloads/schedule.h), read
 * from a file in any readable format (workloads/format.h: LogGOPSim's
 * GOAL), on any machine: every rank a node, every operation started as
 * soon as what it depends on has completed (or, for irequires, started).
 *
 * The node program runs at the operation level (emu/node.h): it is called
 * at each completion of one of its operations, marks the operation done,
 * and posts, in the order the file gave them, the operations that became
 * ready. A send goes to a neighbour along the one link between them (a
 * neighbour message) and to any other node along the default route (a
 * router message), or always along the route with route = router; a
 * calc is local work of its time units in ticks.
 *
 * Real payloads: a message of b bytes is ceil(b / element-bytes)
 * elements, element j the hash of (source rank, destination rank, tag,
 * sequence number, j), the sequence number counting the sender's messages
 * to that rank with that tag. The receiver checks every element of every
 * message against the sequence number it expects (its own count of
 * receives from that source with that tag, which MPI's non-overtaking
 * matching makes the same), and keeps a ledger in memory[0, LEDGER):
 * messages and elements received, the sum of the received messages'
 * identities, messages and elements sent, and messages that arrived wrong.
 * expect() computes the ledger from the schedule alone, so a message lost,
 * duplicated, misrouted or altered is a wrong run.
 *
 * Memory: the ledger, one scratch region for a send's payload (a send
 * copies its elements when it is posted), and a region of its own for
 * every receive of the rank, so that no two receives ever overlap.
 */
#include "algorithm.h"
#include "format.h"
#include "bits.h"
#include "graycode.h"
#include "heap.h"
#include "loggp.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The ledger, memory[0, LEDGER): see above. */
enum {
    LEDGER_RECEIVED, LEDGER_RECEIVED_ELEMENTS, LEDGER_RECEIVED_SUM,
    LEDGER_SENT, LEDGER_SENT_ELEMENTS, LEDGER_WRONG, LEDGER
};

/* A node no rank is mapped to. */
#define NO_RANK UINT32_MAX

/* pending[op] of an op that completed, for the deadlock's report: a
 * posted op's pending is 0 and read by nothing else after. */
#define OP_DONE UINT32_MAX

/* Operations the program takes from node_completed at a time. */
#define COMPLETED_BATCH 64

/* How many bytes an element stands for at most, and the largest memory a
 * node may ask for: a replay larger than that wants element-bytes raised
 * (the engine's own limits apply below it). */
#define MAX_ELEMENT_BYTES ((int64_t)1 << 30)

enum { MAP_IDENTITY, MAP_GRAY, MAP_FILE, MAP_LIVE };
enum { ROUTE_AUTO, ROUTE_ROUTER };

/* One rank's state during the replay. Written only by its own node's
 * calls (node.h's rule that a program touches only its own node), so
 * that each MPI rank keeps its own. */
typedef struct {
    uint32_t *pending;            /* per op: dependencies not satisfied */
    uint32_t *unposted;           /* per op: dependencies not yet posted */
    uint32_t *waiting, nwaiting;  /* ops whose unsatisfied dependencies
                                   * are all posted (may hold stale ones:
                                   * ready_before_all drops them) */
    uint32_t outstanding;         /* posted, not completed */
    uint32_t *after;              /* per op + 1: offsets into dependent */
    uint32_t *dependent;          /* ops that wait for each
                                   * (SCHEDULE_ON_START) */
    uint32_t *op_of;              /* per handle: the op it was given to */
    uint32_t *key;                /* per send or recv: its (peer, tag)'s
                                   * index among the rank's sends' or
                                   * receives' keys */
    /* seq and link are one array: an op is a send or a recv */
    uint32_t *seq;                /* per recv: the sequence number due */
    int32_t *link;                /* per send: the one link to its
                                   * destination, or -1: routed */
    uint64_t *buffer;             /* per recv: where it lands */
    uint32_t *count;              /* per key: sends or receives so far
                                   * (sends' keys first, then receives'),
                                   * below SCHEDULE_MAX_OPS */
    uint32_t nsend_keys, nrecv_keys;
    uint32_t *heap, nheap;        /* ops ready to post, smallest first
                                   * (heap.h) */
    uint32_t ndone;
} RankRun;

typedef struct {
    Schedule *sched;
    uint32_t nodes;
    uint32_t *node_of;            /* per rank */
    uint32_t *rank_of;            /* per node, or NO_RANK */
    int mapping, route;
    uint64_t element_bytes;
    double ticks_per_unit;        /* a calc's time unit in ticks */
    size_t send_at;               /* the send scratch's offset */
    RankRun *run;                 /* per rank */
    /* Every rank's arrays, one slab each for all ranks (RankRun's point
     * into them at the rank's first op): a few allocations, not a dozen
     * a rank, and ranks' state next to one another. */
    uint32_t *slab32;
    uint64_t *slab64;
    ScheduleTotals totals;
    uint64_t elements_sent;       /* over all sends */
    uint64_t elements_off_node;   /* of sends to another node */
    double injection_bound;       /* cycles, see schedule_report */
    /* model = loggp: every rank's finish time in the LogGP model
     * (loggp.h), which is the run's time; NULL on the engine's model. */
    uint64_t *loggp_finish;
    uint64_t loggp_events;
    char *loggp_stuck;            /* where the LogGP model deadlocked, or NULL */
} SchedConfig;

static const AlgorithmMethod schedule_methods[] = {
    { "replay", "every operation as soon as its dependencies allow" },
    { NULL, NULL }
};

static const char *const route_choices[] = { "auto", "router", NULL };

static const ParamSpec schedule_params[] = {
    { .key = "schedule", .type = PARAM_TEXT, .fallback = NULL,
      .help = "the schedule's file, relative to the scenario file "
              "(LogGOPSim's GOAL text: FILE.goal)" },
    { .key = "format", .type = PARAM_TEXT, .fallback = "",
      .help = "the file's format (default: by its extension)" },
    { .key = "mapping", .type = PARAM_TEXT, .fallback = "identity",
      .help = "rank r on node r (identity), node G(r) (gray: the "
              "binary-reflected Gray code), the r-th live node (live: "
              "a machine with dead nodes), or the node on line r+1 of "
              "file:PATH" },
    { .key = "route", .type = PARAM_CHOICE, .fallback = "auto",
      .choices = route_choices,
      .help = "auto: a neighbour message to an adjacent node, a router "
              "message otherwise; router: always along the default route" },
    { .key = "element-bytes", .type = PARAM_INT, .fallback = "8",
      .min = 1, .max = MAX_ELEMENT_BYTES,
      .help = "bytes an element stands for: a message of b bytes is "
              "ceil(b / element-bytes) elements" },
    { .key = "time-unit", .type = PARAM_TEXT, .fallback = "1e-9",
      .help = "seconds a calc's time unit stands for, converted through "
              "the machine's tick-seconds (a unit is a tick where the "
              "machine gives none)" },
    { .key = NULL }
};

/* ---- the payload ------------------------------------------------------ */

/* Element j of the seq-th message from rank `from` to rank `to` with
 * `tag`. */
static inline Word payload_word(uint32_t from, uint32_t to, int32_t tag,
                                uint64_t seq, uint64_t j)
{
    uint64_t h = bits_splitmix64(((uint64_t)from << 32) ^ to);
    h = bits_splitmix64(h ^ ((uint64_t)(uint32_t)tag << 32) ^ seq);
    return bits_splitmix64(h ^ j);
}

/* A received message's identity, summed into the ledger. */
static inline Word message_identity(uint32_t from, int32_t tag, uint64_t seq)
{
    return payload_word(from, UINT32_MAX, tag, seq, UINT64_MAX);
}

static inline uint64_t elements_of(const SchedConfig *c, uint64_t bytes)
{
    return bytes / c->element_bytes + (bytes % c->element_bytes != 0);
}

/* ---- the node program --------------------------------------------------- */

/* Op `op` was posted: each dependent has one dependency fewer to wait
 * to be posted, and one fewer to wait for at all if it waited for the
 * start (irequires). */
static void release_posted(RankRun *k, uint32_t op)
{
    k->outstanding++;
    for (uint32_t i = k->after[op]; i < k->after[op + 1]; i++) {
        uint32_t d = k->dependent[i], u = d & ~SCHEDULE_ON_START;
        k->unposted[u]--;
        if ((d & SCHEDULE_ON_START) && --k->pending[u] == 0)
            heap_u32_push(k->heap, k->nheap++, &u);
        else if (k->unposted[u] == 0 && k->pending[u] > 0)
            k->waiting[k->nwaiting++] = u;
    }
}

/* Op `op` completed: its dependents that required it are one dependency
 * nearer to ready. */
static void release_done(RankRun *k, uint32_t op)
{
    k->outstanding--;
    for (uint32_t i = k->after[op]; i < k->after[op + 1]; i++) {
        uint32_t d = k->dependent[i];
        if (!(d & SCHEDULE_ON_START) && --k->pending[d] == 0)
            heap_u32_push(k->heap, k->nheap++, &d);
    }
}

/* Whether an op not yet posted may become ready before every op
 * outstanding has completed: one whose unsatisfied dependencies are all
 * posted (`waiting`) and are not all of the outstanding ones. Where none
 * may, the rank waits for everything it has outstanding (NODE_CONTINUE),
 * and a schedule of steps (each op requiring all of the step before, as
 * --schedule-out records) replays exactly as the program of steps ran,
 * at the same point of the order of events; else it is called at each
 * completion (NODE_ANY). Drops the stale entries of `waiting` as it
 * goes. */
static gboolean ready_before_all(RankRun *k)
{
    uint32_t kept = 0;
    gboolean sooner = FALSE;
    for (uint32_t i = 0; i < k->nwaiting; i++) {
        uint32_t u = k->waiting[i];
        if (k->pending[u] == 0 || k->pending[u] == OP_DONE)
            continue;                  /* ready, posted since */
        k->waiting[kept++] = u;
        /* its dependencies left are posted and not completed: outstanding */
        sooner |= k->pending[u] < k->outstanding;
    }
    k->nwaiting = kept;
    return sooner;
}

static void complete(Node *node, const SchedConfig *c, uint32_t r,
                     uint32_t op);

/* Post op of rank r, running on node. */
static void post(Node *node, const SchedConfig *c, uint32_t r, uint32_t op)
{
    RankRun *k = &c->run[r];
    const SchedOp *o = &c->sched->ranks[r].ops[op];
    Word *mem = node_memory(node);
    uint64_t m = elements_of(c, o->size);
    switch (o->kind) {
    case SCHED_SEND: {
        uint64_t seq = k->count[k->key[op]]++;
        for (uint64_t j = 0; j < m; j++)
            mem[c->send_at + j] = payload_word(r, o->peer, o->tag, seq, j);
        uint32_t dest = c->node_of[o->peer];
        int link = k->link[op];
        if (link >= 0)
            node_send(node, &link, 1, c->send_at, (size_t)m, o->tag);
        else
            node_send_to(node, dest, c->send_at, (size_t)m, o->tag);
        mem[LEDGER_SENT]++;
        mem[LEDGER_SENT_ELEMENTS] += m;
        break;
    }
    case SCHED_RECV:
        k->seq[op] = (uint32_t)k->count[k->nsend_keys + k->key[op]]++;
        node_recv(node, c->node_of[o->peer], o->tag, (size_t)k->buffer[op],
                  (size_t)m);
        break;
    default: {
        Tick ticks = (Tick)llround((double)o->size * c->ticks_per_unit);
        if (ticks == 0) {
            /* No time: done as it starts, in this call, as a step's
             * boundary is (a schedule recorded from a program of steps
             * marks its steps so: --schedule-out). */
            release_posted(k, op);
            complete(node, c, r, op);
            return;
        }
        node_busy(node, ticks);
        break;
    }
    }
    k->op_of[node_last_op(node)] = op;
    release_posted(k, op);
}

/* Op `op` of rank r completed: a receive's payload is checked into the
 * ledger. */
static void complete(Node *node, const SchedConfig *c, uint32_t r,
                     uint32_t op)
{
    RankRun *k = &c->run[r];
    const SchedOp *o = &c->sched->ranks[r].ops[op];
    if (o->kind == SCHED_RECV) {
        Word *mem = node_memory(node);
        uint64_t m = elements_of(c, o->size), seq = k->seq[op];
        const Word *got = mem + k->buffer[op];
        gboolean right = TRUE;
        for (uint64_t j = 0; j < m && right; j++)
            right = got[j] == payload_word(o->peer, r, o->tag, seq, j);
        mem[LEDGER_RECEIVED]++;
        mem[LEDGER_RECEIVED_ELEMENTS] += m;
        mem[LEDGER_RECEIVED_SUM] += message_identity(o->peer, o->tag, seq);
        mem[LEDGER_WRONG] += !right;
    }
    k->ndone++;
    k->pending[op] = OP_DONE;
    release_done(k, op);
}

static NodeStatus schedule_step(Node *node, const void *config)
{
    const SchedConfig *c = config;
    uint32_t r = c->rank_of[node_address(node)];
    if (r == NO_RANK)
        return NODE_DONE;
    RankRun *k = &c->run[r];
    uint32_t nops = c->sched->ranks[r].nops;
    if (node_step(node) == 0)
        for (uint32_t op = 0; op < nops; op++)
            if (k->pending[op] == 0)
                heap_u32_push(k->heap, k->nheap++, &op);
    NodeOp done[COMPLETED_BATCH];
    size_t n;
    while ((n = node_completed(node, done, COMPLETED_BATCH)) > 0) {
        for (size_t i = 0; i < n; i++)
            complete(node, c, r, k->op_of[done[i]]);
        if (n < COMPLETED_BATCH)
            break;
    }
    while (k->nheap > 0)
        post(node, c, r, heap_u32_pop(k->heap, k->nheap--));
    if (k->ndone == nops)
        return NODE_DONE;
    return ready_before_all(k) ? NODE_ANY : NODE_CONTINUE;
}

/* ---- prepare -------------------------------------------------------------- */

/* A (peer, tag) pair and the op it belongs to, for number_keys. */
typedef struct {
    uint64_t key;
    uint32_t op;
} KeyedOp;

/* Runs sorted by insertion before keyed_sort merges them: short enough
 * that insertion's quadratic cost stays below a merge's. */
#define KEYED_RUN 16u

/* KO[0 .. n) sorted by key, stably: ops that share a key keep their order
 * (number_keys lists them by op, so this is (key, op) order). A merge
 * sort with the comparison inline, through TMP (room for n): qsort's
 * call a comparison took most of preparing a replay of many ranks.
 * Returns where the sorted elements are, KO or TMP. */
static KeyedOp *keyed_sort(KeyedOp *ko, KeyedOp *tmp, uint32_t n)
{
    for (uint32_t lo = 0; lo < n; lo += KEYED_RUN) {
        uint32_t hi = MIN(lo + KEYED_RUN, n);
        for (uint32_t i = lo + 1; i < hi; i++) {
            KeyedOp x = ko[i];
            uint32_t j = i;
            for (; j > lo && ko[j - 1].key > x.key; j--)
                ko[j] = ko[j - 1];
            ko[j] = x;
        }
    }
    KeyedOp *from = ko, *to = tmp;
    for (uint32_t width = KEYED_RUN; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = MIN(lo + width, n), hi = MIN(lo + 2 * width, n);
            uint32_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                to[o++] = from[j].key < from[i].key ? from[j++] : from[i++];
            while (i < mid)
                to[o++] = from[i++];
            while (j < hi)
                to[o++] = from[j++];
        }
        KeyedOp *t = from;
        from = to;
        to = t;
    }
    return from;
}

/* The (peer, tag) pairs of rank r's sends or receives, numbered: key[op]
 * for each op of that kind; returns how many pairs there are. A sort, not
 * a table: ranks have few ops. SCRATCH: room for twice the rank's ops. */
static uint32_t number_keys(const SchedRank *sr, SchedKind kind,
                            uint32_t *key, KeyedOp *scratch)
{
    KeyedOp *ko = scratch;
    uint32_t n = 0;
    for (uint32_t op = 0; op < sr->nops; op++) {
        const SchedOp *o = &sr->ops[op];
        if (o->kind == kind)
            ko[n++] = (KeyedOp){ ((uint64_t)o->peer << 32) | (uint32_t)o->tag,
                                 op };
    }
    ko = keyed_sort(ko, scratch + sr->nops, n);
    uint32_t keys = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i == 0 || ko[i].key != ko[i - 1].key)
            keys++;
        key[ko[i].op] = keys - 1;
    }
    return keys;
}

/* The uint32 arrays a rank has per op (pending, unposted, waiting,
 * op_of, key, seq and link, heap, count) plus after's n + 1, and the
 * uint64 one (buffer), in the slabs. A replay of many ranks holds these
 * for every op of the schedule at once, so each is as narrow as it can
 * be and none is kept that a function of the schedule can give. */
#define RANK_ARRAYS32 8
#define RANK_ARRAYS64 1

/* The uint32 slab's room for a rank's arrays. */
static size_t rank_slab32(const SchedRank *sr)
{
    return (size_t)RANK_ARRAYS32 * sr->nops + sr->nops + 1 + sr->ndeps;
}

/* Rank r's arrays at SLAB32 and SLAB64 (room from rank_slab32 and
 * RANK_ARRAYS64 a op); its receives' regions from *recv_at on. */
static void rank_run_init(RankRun *k, const SchedRank *sr, uint64_t *recv_at,
                          const SchedConfig *c, uint32_t r, const Topology *t,
                          int *path, uint32_t *slab32, uint64_t *slab64,
                          KeyedOp *scratch)
{
    uint32_t n = sr->nops;
    k->pending = slab32;
    k->unposted = slab32 + n;
    k->waiting = slab32 + 2 * (size_t)n;
    k->op_of = slab32 + 3 * (size_t)n;
    k->key = slab32 + 4 * (size_t)n;
    k->seq = slab32 + 5 * (size_t)n;
    k->link = (int32_t *)k->seq;
    k->heap = slab32 + 6 * (size_t)n;
    k->count = slab32 + 7 * (size_t)n;
    k->after = slab32 + 8 * (size_t)n;
    k->dependent = k->after + (size_t)n + 1;
    k->buffer = slab64;
    /* A send to a neighbour goes along the one link between them (with
     * route = auto): the default route's, where it is one hop. */
    for (uint32_t op = 0; op < n; op++) {
        const SchedOp *o = &sr->ops[op];
        uint32_t from = c->node_of[r], to = c->node_of[o->peer];
        if (o->kind != SCHED_SEND)
            continue;             /* a recv's seq, 0 until posted */
        k->link[op] = -1;
        if (c->route == ROUTE_AUTO && from != to
            && topology_route(t, from, to, path) == 1)
            k->link[op] = path[0];
    }
    for (uint32_t op = 0; op < n; op++)
        k->pending[op] = k->unposted[op] = sr->ops[op].ndeps;
    schedule_rank_dependents(sr, k->after, k->dependent);
    k->nsend_keys = number_keys(sr, SCHED_SEND, k->key, scratch);
    k->nrecv_keys = number_keys(sr, SCHED_RECV, k->key, scratch);
    uint64_t at = *recv_at;
    for (uint32_t op = 0; op < n; op++)
        if (sr->ops[op].kind == SCHED_RECV) {
            k->buffer[op] = at;
            at += elements_of(c, sr->ops[op].size);
        }
    *recv_at = at;
}

static void schedule_release(void *config)
{
    SchedConfig *c = config;
    if (!c)
        return;
    g_free(c->slab32);
    g_free(c->slab64);
    g_free(c->run);
    g_free(c->node_of);
    g_free(c->rank_of);
    g_free(c->loggp_finish);
    g_free(c->loggp_stuck);
    schedule_free(c->sched);
    g_free(c);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SchedConfig, schedule_release)

/* The mapping file: node of rank r on line r+1, one number a line
 * (blank lines and # comments skipped); every node once. */
static gboolean read_mapping(SchedConfig *c, const char *path,
                             const Params *p, GError **error)
{
    g_autofree char *text = NULL;
    gsize len = 0;
    GError *e = NULL;
    if (!g_file_get_contents(path, &text, &len, &e)) {
        params_fail(p, error, "mapping", "%s", e->message);
        g_error_free(e);
        return FALSE;
    }
    g_autofree gboolean *used = g_new0(gboolean, c->nodes);
    uint32_t r = 0, line = 0;
    for (char *s = text, *next; s && *s; s = next) {
        line++;
        next = strchr(s, '\n');
        if (next)
            *next++ = '\0';
        char *hash = strchr(s, '#');
        if (hash)
            *hash = '\0';
        g_strstrip(s);
        if (!*s)
            continue;
        guint64 v;
        if (!g_ascii_string_to_unsigned(s, 10, 0, c->nodes - 1, &v, NULL)) {
            params_fail(p, error, "mapping", "%s:%u: '%s' is not a node "
                        "(valid: 0..%u)", path, line, s, c->nodes - 1);
            return FALSE;
        }
        if (r >= c->sched->nranks) {
            params_fail(p, error, "mapping", "%s:%u: more nodes than the "
                        "schedule's %u ranks", path, line, c->sched->nranks);
            return FALSE;
        }
        if (used[v]) {
            params_fail(p, error, "mapping", "%s:%u: node %" G_GUINT64_FORMAT
                        " is mapped twice", path, line, v);
            return FALSE;
        }
        used[v] = TRUE;
        c->node_of[r++] = (uint32_t)v;
    }
    if (r < c->sched->nranks) {
        params_fail(p, error, "mapping", "%s: %u nodes for the schedule's "
                    "%u ranks", path, r, c->sched->nranks);
        return FALSE;
    }
    return TRUE;
}

static gboolean map_ranks(SchedConfig *c, const Params *p,
                          const Faults *faults, GError **error)
{
    const char *mapping = params_text(p, "mapping");
    uint32_t nranks = c->sched->nranks;
    c->node_of = g_new(uint32_t, nranks);
    if (g_str_has_prefix(mapping, "file:")) {
        c->mapping = MAP_FILE;
        /* the path after file:, from the scenario file's folder */
        const char *given = params_path(p, "mapping");
        g_autofree char *path = NULL;
        const char *colon = strstr(given, "file:");
        g_autofree char *folder = colon ? g_strndup(given, (gsize)(colon - given))
                                        : NULL;
        path = colon ? g_strconcat(folder, colon + 5, NULL) : g_strdup(given);
        if (!read_mapping(c, path, p, error))
            return FALSE;
    } else if (!strcmp(mapping, "identity") || !strcmp(mapping, "gray")) {
        c->mapping = !strcmp(mapping, "gray") ? MAP_GRAY : MAP_IDENTITY;
        for (uint32_t r = 0; r < nranks; r++) {
            uint64_t x = c->mapping == MAP_GRAY ? gray_encode(r) : r;
            if (x >= c->nodes) {
                params_fail(p, error, "mapping", "%s puts rank %u on node %"
                            G_GUINT64_FORMAT ", and the machine has %u "
                            "nodes", mapping, r, x, c->nodes);
                return FALSE;
            }
            c->node_of[r] = (uint32_t)x;
        }
    } else if (!strcmp(mapping, "live")) {
        c->mapping = MAP_LIVE;
        uint32_t live = faults ? faults_live_nodes(faults) : c->nodes;
        if (nranks > live) {
            params_fail(p, error, "mapping", "live: the schedule has %u "
                        "ranks, and the machine %u live nodes", nranks, live);
            return FALSE;
        }
        for (uint32_t r = 0; r < nranks; r++)
            c->node_of[r] = faults ? faults_live_node(faults, r) : r;
    } else {
        params_fail(p, error, "mapping", "'%s' is not a mapping (valid: "
                    "identity, gray, live, file:PATH)", mapping);
        return FALSE;
    }
    for (uint32_t r = 0; r < nranks; r++)
        if (faults_node_dead(faults, c->node_of[r])) {
            params_fail(p, error, "mapping", "%s puts rank %u on node %u, "
                        "which is dead (machine.faults): mapping = live "
                        "places the ranks on the live nodes",
                        mapping, r, c->node_of[r]);
            return FALSE;
        }
    c->rank_of = g_new(uint32_t, c->nodes);
    memset(c->rank_of, 0xff, sizeof(uint32_t) * c->nodes);
    for (uint32_t r = 0; r < nranks; r++)
        c->rank_of[c->node_of[r]] = r;
    return TRUE;
}

static void *schedule_prepare(const Machine *m, const Params *p,
                              MemoryLayout *layout, GError **error)
{
    g_autoptr(SchedConfig) c = g_new0(SchedConfig, 1);
    c->nodes = machine_nodes(m);
    const char *format = params_text(p, "format");
    GError *e = NULL;
    c->sched = schedule_format_read(params_path(p, "schedule"),
                                    format && *format ? format : NULL, &e);
    if (!c->sched) {
        params_fail(p, error, "schedule", "%s", e->message);
        g_error_free(e);
        return NULL;
    }
    if (c->sched->nranks > c->nodes)
        return params_fail(p, error, "schedule", "%s has %u ranks, and the "
                           "machine %u nodes", c->sched->name,
                           c->sched->nranks, c->nodes);
    if (!map_ranks(c, p, m->faults, error))
        return NULL;
    if (m->model == MACHINE_MODEL_LOGGP) {
        /* LogGP knows ranks, not nodes: the mapping places payloads, and
         * the time is the model's (docs/machine-model.md). */
        c->loggp_finish = g_new(uint64_t, c->sched->nranks);
        /* A deadlock of the model fails the run after it, as the
         * engine's would (schedule_stuck): a wrong run, not bad input. */
        if (!loggp_time(c->sched, &m->loggp, c->loggp_finish,
                        &c->loggp_events, &e)) {
            c->loggp_stuck = g_strdup(e->message);
            g_error_free(e);
        }
    }
    c->route = params_choice(p, "route");
    c->element_bytes = (uint64_t)params_int(p, "element-bytes");
    const char *unit_text = params_text(p, "time-unit");
    char *end = NULL;
    double unit = g_ascii_strtod(unit_text, &end);
    if (!*unit_text || *end || !isfinite(unit) || unit <= 0)
        return params_fail(p, error, "time-unit", "'%s' is not a number of "
                           "seconds above 0", unit_text);
    c->ticks_per_unit = m->tick_seconds > 0 ? unit / m->tick_seconds : 1;

    /* memory: the ledger, the send scratch, every receive its region */
    uint64_t send_max = 0, recv_max = 0;
    c->run = g_new0(RankRun, c->sched->nranks);
    schedule_totals(c->sched, &c->totals);
    for (uint32_t r = 0; r < c->sched->nranks; r++) {
        const SchedRank *sr = &c->sched->ranks[r];
        uint64_t recv_elements = 0;
        for (uint32_t op = 0; op < sr->nops; op++) {
            const SchedOp *o = &sr->ops[op];
            uint64_t k = elements_of(c, o->size);
            if (o->kind == SCHED_SEND) {
                send_max = MAX(send_max, k);
                c->elements_sent += k;
                if (c->node_of[o->peer] != c->node_of[r])
                    c->elements_off_node += k;
            } else if (o->kind == SCHED_RECV) {
                recv_elements += k;
            }
        }
        recv_max = MAX(recv_max, recv_elements);
    }
    c->send_at = LEDGER;
    g_autofree int *path = g_new(int, topology_max_route(&m->topology) + 1);
    size_t n32 = 0, n64 = 0;
    uint32_t most = 1;
    for (uint32_t r = 0; r < c->sched->nranks; r++) {
        const SchedRank *sr = &c->sched->ranks[r];
        n32 += rank_slab32(sr);
        n64 += (size_t)RANK_ARRAYS64 * sr->nops;
        most = MAX(most, sr->nops);
    }
    c->slab32 = g_new0(uint32_t, n32);
    c->slab64 = g_new0(uint64_t, n64 ? n64 : 1);
    g_autofree KeyedOp *scratch = g_new(KeyedOp, 2 * (size_t)most);
    size_t at32 = 0, at64 = 0;
    for (uint32_t r = 0; r < c->sched->nranks; r++) {
        const SchedRank *sr = &c->sched->ranks[r];
        uint64_t at = LEDGER + send_max;
        rank_run_init(&c->run[r], sr, &at, c, r, &m->topology, path,
                      c->slab32 + at32, c->slab64 + at64, scratch);
        at32 += rank_slab32(sr);
        at64 += (size_t)RANK_ARRAYS64 * sr->nops;
    }
    uint64_t memory = LEDGER + send_max + recv_max;
    if (memory > SIZE_MAX / 64)
        return params_fail(p, error, "element-bytes", "the schedule's "
                           "buffers need %" G_GUINT64_FORMAT " elements a "
                           "node: raise element-bytes", memory);
    layout->memory_elements = (size_t)memory;
    layout->elements_per_node = LEDGER;
    layout->element = ELEMENT_WORD;
    layout->computed = TRUE;
    layout->each = TRUE;
    return g_steal_pointer(&c);
}

static void schedule_init(const void *config, uint32_t address, Word *memory)
{
    (void)config;
    (void)address;
    memset(memory, 0, LEDGER * sizeof(Word));
}

/* The ledger node x must hold, from the schedule alone: what its rank
 * receives (every (source, tag) pair's messages numbered from 0, as many
 * as the rank has receives of that pair) and sends. */
static void schedule_expect(const void *config, uint32_t x, Word *expected)
{
    const SchedConfig *c = config;
    memset(expected, 0, LEDGER * sizeof(Word));
    uint32_t r = c->rank_of[x];
    if (r == NO_RANK)
        return;
    const SchedRank *sr = &c->sched->ranks[r];
    for (uint32_t op = 0; op < sr->nops; op++) {
        const SchedOp *o = &sr->ops[op];
        uint64_t m = elements_of(c, o->size);
        if (o->kind == SCHED_SEND) {
            expected[LEDGER_SENT]++;
            expected[LEDGER_SENT_ELEMENTS] += m;
        } else if (o->kind == SCHED_RECV) {
            expected[LEDGER_RECEIVED]++;
            expected[LEDGER_RECEIVED_ELEMENTS] += m;
        }
    }
    /* each receive's sequence number: how many before it have its
     * (source, tag), numbered by key (rank_run_init) */
    const RankRun *k = &c->run[r];
    g_autofree uint32_t *seen = g_new0(uint32_t, k->nrecv_keys + 1);
    for (uint32_t op = 0; op < sr->nops; op++) {
        const SchedOp *o = &sr->ops[op];
        if (o->kind == SCHED_RECV)
            expected[LEDGER_RECEIVED_SUM] +=
                message_identity(o->peer, o->tag, seen[k->key[op]]++);
    }
}

/* ---- the report ------------------------------------------------------------ */

/* model = loggp: the run's time is the LogGP model's, each rank's finish
 * time a detail (LogGOPSim's per-host times), and a node's compute time
 * its rank's calcs (the engine's own count of the run it verified the
 * payloads with is not the machine's time). */
static void schedule_report_loggp(const SchedConfig *c, Report *r)
{
    uint32_t n = c->sched->nranks;
    g_autofree long long *finish = g_new(long long, n);
    Tick most = 0, compute_max = 0, comm_max = 0;
    double compute_sum = 0, comm_sum = 0;
    for (uint32_t k = 0; k < n; k++) {
        const SchedRank *sr = &c->sched->ranks[k];
        Tick compute = 0;
        for (uint32_t op = 0; op < sr->nops; op++)
            if (sr->ops[op].kind == SCHED_CALC)
                compute += (Tick)sr->ops[op].size;
        Tick f = (Tick)c->loggp_finish[k];
        Tick comm = f > compute ? f - compute : 0;
        finish[k] = (long long)f;
        most = MAX(most, f);
        compute_max = MAX(compute_max, compute);
        comm_max = MAX(comm_max, comm);
        compute_sum += (double)compute;
        comm_sum += (double)comm;
    }
    uint32_t nodes = machine_nodes(&r->machine);
    r->cycles = most;
    r->compute_max = compute_max;
    r->communication_max = comm_max;
    r->compute_mean = compute_sum / nodes;
    r->communication_mean = comm_sum / nodes;
    report_detail_int(r, "loggp_events", (long long)c->loggp_events);
    report_detail_list(r, "rank_finish", finish, n);
}

static void schedule_report(const void *config, Report *r)
{
    const SchedConfig *c = config;
    static const char *const mappings[] = { "identity", "gray", "file",
                                            "live" };
    report_detail_text(r, "schedule", c->sched->name);
    report_detail_int(r, "ranks", c->sched->nranks);
    report_detail_text(r, "mapping", mappings[c->mapping]);
    report_detail_int(r, "sends", (long long)c->totals.ops[SCHED_SEND]);
    report_detail_int(r, "receives", (long long)c->totals.ops[SCHED_RECV]);
    report_detail_int(r, "calcs", (long long)c->totals.ops[SCHED_CALC]);
    report_detail_int(r, "bytes_sent", (long long)c->totals.size[SCHED_SEND]);
    report_detail_int(r, "element_bytes", (long long)c->element_bytes);
    report_bound(r, "messages", "messages = the schedule's sends",
                 BOUND_EXACT, (double)c->totals.ops[SCHED_SEND],
                 "every send of the schedule is one message");
    report_bound(r, "element_transfers",
                 "element transfers >= elements sent to another node",
                 BOUND_LOWER, (double)c->elements_off_node,
                 "every element sent to another node crosses a channel "
                 "at least once");
    if (c->loggp_finish) {
        schedule_report_loggp(c, r);
        return;
    }
    /* The busiest channel carried its elements one at a time. */
    Tick tau = MIN(r->machine.price[CLASS_NEIGHBOUR].element_time,
                   r->machine.price[CLASS_ROUTER].element_time);
    report_cycle_bound(r, "busiest channel: its elements x Tw", BOUND_LOWER,
                       (double)r->max_channel_elements * (double)tau,
                       "a channel carries one element at a time "
                       "(max_channel_elements, at the smaller element-time)");
}

/* The op as the schedule wrote it, and where. */
static void describe_op(const SchedConfig *c, const SchedOp *o, GString *out)
{
    static const char *const verb[] = { "send", "recv", "calc" };
    if (o->kind == SCHED_CALC)
        g_string_append_printf(out, "calc %" G_GUINT64_FORMAT, o->size);
    else
        g_string_append_printf(out, "%s %" G_GUINT64_FORMAT "b %s %u tag %d",
                               verb[o->kind], o->size,
                               o->kind == SCHED_SEND ? "to" : "from", o->peer,
                               o->tag);
    if (o->line)
        g_string_append_printf(out, " (%s:%u)", c->sched->name, o->line);
}

/* How many sends rank `from` has posted to rank `to` with tag `tag`. */
static uint64_t sends_posted(const SchedConfig *c, uint32_t from, uint32_t to,
                             int32_t tag)
{
    const SchedRank *sr = &c->sched->ranks[from];
    const RankRun *k = &c->run[from];
    for (uint32_t op = 0; op < sr->nops; op++) {
        const SchedOp *o = &sr->ops[op];
        if (o->kind == SCHED_SEND && o->peer == to && o->tag == tag)
            return k->count[k->key[op]];
    }
    return 0;
}

/* Every rank that did not finish, and what it waits on. When the engine
 * finds no event left, every message that was sent has arrived, so an op
 * a rank posted and waits on is a receive whose message its source never
 * sent (the engine's own message names the first): those are listed,
 * with how many of the rank's ops never started, waiting on them. */
static gboolean schedule_stuck(const void *config, GString *why)
{
    const SchedConfig *c = config;
    if (c->loggp_stuck) {
        /* the model's time is the run's: its deadlock is the one to name */
        g_string_assign(why, c->loggp_stuck);
        return TRUE;
    }
    if (why->len == 0)
        return FALSE;                  /* the engine's run finished */
    uint32_t stuck = 0;
    for (uint32_t r = 0; r < c->sched->nranks; r++) {
        const RankRun *k = &c->run[r];
        const SchedRank *sr = &c->sched->ranks[r];
        if (k->ndone == sr->nops || !k->pending)
            continue;
        if (stuck++ >= SCHEDULE_STUCK_RANKS_SHOWN)
            continue;
        g_string_append_printf(why, "\n  rank %u (node %u) ", r,
                               c->node_of[r]);
        uint32_t waits = 0, unstarted = 0;
        for (uint32_t op = 0; op < sr->nops; op++) {
            const SchedOp *o = &sr->ops[op];
            if (k->pending[op] == OP_DONE)
                continue;
            if (k->pending[op] > 0) {
                unstarted++;
                continue;
            }
            if (o->kind != SCHED_RECV
                || sends_posted(c, o->peer, r, o->tag) > k->seq[op])
                continue;
            g_string_append(why, waits++ ? ", " : "waits on ");
            describe_op(c, o, why);
        }
        if (!waits)
            g_string_append(why, "waits on no receive");
        if (unstarted)
            g_string_append_printf(why, "; %u op(s) never started",
                                   unstarted);
    }
    if (stuck > SCHEDULE_STUCK_RANKS_SHOWN)
        g_string_append_printf(why, "\n  and %u more rank(s)",
                               stuck - SCHEDULE_STUCK_RANKS_SHOWN);
    return TRUE;
}

const Algorithm algorithm_schedule = {
    .name = "schedule",
    .summary = "replay a message schedule (LogGOPSim's GOAL) on any machine",
    .source = "LogGOPSim's GOAL schedules (Hoefler, Schneider, Lumsdaine, "
              "HPDC 2010); docs/schedules.md",
    .needs = 0,
    .times_loggp = TRUE,
    .dead_nodes = TRUE,
    .methods = schedule_methods,
    .params = schedule_params,
    .prepare = schedule_prepare,
    .release = schedule_release,
    .init = schedule_init,
    .step = schedule_step,
    .expect = schedule_expect,
    .report = schedule_report,
    .stuck = schedule_stuck,
};
