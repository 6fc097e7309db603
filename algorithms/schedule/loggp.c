/* loggp.c -- a schedule timed in the LogGP model, rule for rule as
 * LogGOPSim times it, so that every rank's finish time is LogGOPSim's to
 * the nanosecond (docs/machine-model.md, "The LogGP model"; the rules
 * were read from its simulator and checked against it by
 * bench/loggopsim-agree.sh and tests/loggp.sh).
 *
 * Each rank has, per processor, the time its CPU is next free (o and O
 * hold it) and, per network interface, the times it may next inject and
 * next take in a message (g and G space them). Events wait in one queue
 * ordered by (time, the order they first entered it): an operation that
 * became ready, or a message on its way. An event whose resources are
 * busy goes back in at the time they free, keeping its place among
 * events of that time.
 *
 *  - A send starts when its CPU and its NIC's send gap are free: the CPU
 *    is busy o + (s-1) O, the next injection waits g + (s-1) G, and the
 *    message reaches its destination at start + o + L. Up to S bytes
 *    (eager) the send is done as it starts; above S (rendezvous) it is
 *    done when the receiver matches the message, and the sender's CPU and
 *    NIC are then held until that moment.
 *  - A message is taken in when the receiver's CPU (of the sender's
 *    processor number) and its NIC's receive gap are free: the CPU is
 *    busy o + max((s-1) O, (s-1) G), the next reception waits
 *    g + (s-1) G; it completes the first posted receive of its source
 *    and tag, or waits in the unexpected queue.
 *  - A receive holds no resource: it completes at once on a message
 *    waiting for it, else it waits in the posted queue.
 *  - A calc starts when its CPU is free and holds it for its time.
 *  - Operations that became ready in one event are queued sends first,
 *    then receives, then calcs (LogGOPSim sorts them by kind with
 *    std::sort, whose order among equal kinds is that of its algorithm:
 *    sort_by_kind reproduces it), each at the time its resources free.
 *
 * A size is in bytes and times are unsigned 64-bit nanoseconds, with
 * LogGOPSim's arithmetic: (s-1) of a message of no bytes wraps, as there.
 */
#include "heap.h"
#include "loggp.h"

#include <string.h>

enum { EV_SEND = 1, EV_RECV = 2, EV_CALC = 3, EV_MSG = 4 };

/* std::sort's threshold below which it sorts by insertion (libstdc++'s
 * _S_threshold): sort_by_kind must split where it splits. */
#define SORT_THRESHOLD 16

typedef struct {
    uint64_t time, order;         /* the queue's key */
    uint64_t start;               /* a message: when its send started */
    uint64_t size;
    uint32_t host;                /* the rank whose event it is (a message:
                                   * its destination) */
    uint32_t peer;                /* send, recv: the other rank; a
                                   * message: its source */
    uint32_t op;                  /* the operation (a message: its send's) */
    int32_t tag;
    uint8_t kind, cpu, nic;
} Event;

/* A message waiting for its receive, or a receive for its message. */
typedef struct {
    uint64_t size;
    uint32_t peer, op;
    int32_t tag;
} Waiting;

typedef struct {
    GArray *posted, *unexpected;  /* Waiting, in arrival order */
} Queues;

typedef struct {
    const Schedule *s;
    const MachineLoggp *p;
    uint32_t ncpus, nnics;
    uint64_t *next_o, *next_gr, *next_gs;   /* [rank][cpu], [rank][nic] */
    uint32_t **pending;           /* per rank, per op: dependencies left */
    uint32_t **after, **dependent;/* per rank: schedule_rank_dependents */
    Queues *q;
    GArray *heap;                 /* Event, a min-heap by event_before
                                   * (heap.h) */
    uint64_t order;
    GArray *ready;                /* uint32 ops of the rank at hand */
    GArray *batch;                /* Event, to sort by kind */
    uint32_t *hosts, nhosts;      /* ranks that readied something */
    uint64_t events;
} Loggp;

/* ---- the queue ------------------------------------------------------------ */

static gboolean event_before(const Event *a, const Event *b)
{
    return a->time < b->time || (a->time == b->time && a->order < b->order);
}

HEAP_DEFINE(event, Event, event_before)

static void event_push(Loggp *l, const Event *e)
{
    g_array_set_size(l->heap, l->heap->len + 1);
    heap_event_push((Event *)l->heap->data, l->heap->len - 1, e);
}

static Event event_pop(Loggp *l)
{
    Event top = heap_event_pop((Event *)l->heap->data, l->heap->len);
    g_array_set_size(l->heap, l->heap->len - 1);
    return top;
}

/* ---- std::sort by kind, as libstdc++ runs it -----------------------------
 *
 * std::sort is not stable, and C++ leaves its order among equal keys to
 * the library: LogGOPSim's order among ready ops of one kind is that of
 * the library it was built with. With GNU's (Debian's), that is Musser's
 * introsort (D. R. Musser, "Introspective Sorting and Selection
 * Algorithms", Software: Practice and Experience 27(8), 1997) with these
 * choices: a depth limit of 2 floor(lg n), partitions of more than 16
 * elements around the median of the second, middle and last, a heap sort
 * past the depth limit, and one insertion sort over the whole at the end.
 * Up to 16 ready ops the order is the insertion sort's, which is stable;
 * above, it is this algorithm's, and a LogGOPSim built with another
 * library may differ from it (docs/schedules.md). */

static inline gboolean kind_less(const Event *a, const Event *b)
{
    return a->kind < b->kind;
}

static inline void swap_events(Event *a, Event *b)
{
    Event t = *a;
    *a = *b;
    *b = t;
}

static void unguarded_linear_insert(Event *last)
{
    Event v = *last, *next = last - 1;
    while (kind_less(&v, next)) {
        *last = *next;
        last = next--;
    }
    *last = v;
}

static void insertion_sort(Event *first, Event *last)
{
    if (first == last)
        return;
    for (Event *i = first + 1; i != last; i++) {
        if (kind_less(i, first)) {
            Event v = *i;
            memmove(first + 1, first, (size_t)(i - first) * sizeof *first);
            *first = v;
        } else {
            unguarded_linear_insert(i);
        }
    }
}

static void push_heap_kind(Event *first, ptrdiff_t hole, ptrdiff_t top,
                           Event v)
{
    ptrdiff_t parent = (hole - 1) / 2;
    while (hole > top && kind_less(&first[parent], &v)) {
        first[hole] = first[parent];
        hole = parent;
        parent = (hole - 1) / 2;
    }
    first[hole] = v;
}

static void adjust_heap_kind(Event *first, ptrdiff_t hole, ptrdiff_t len,
                             Event v)
{
    ptrdiff_t top = hole, child = hole;
    while (child < (len - 1) / 2) {
        child = 2 * (child + 1);
        if (kind_less(&first[child], &first[child - 1]))
            child--;
        first[hole] = first[child];
        hole = child;
    }
    if ((len & 1) == 0 && child == (len - 2) / 2) {
        child = 2 * (child + 1);
        first[hole] = first[child - 1];
        hole = child - 1;
    }
    push_heap_kind(first, hole, top, v);
}

/* std::__partial_sort(first, last, last): make_heap, then sort_heap. */
static void heap_sort_kind(Event *first, Event *last)
{
    ptrdiff_t len = last - first;
    if (len >= 2)
        for (ptrdiff_t parent = (len - 2) / 2;; parent--) {
            adjust_heap_kind(first, parent, len, first[parent]);
            if (parent == 0)
                break;
        }
    while (last - first > 1) {
        last--;
        Event v = *last;
        *last = *first;
        adjust_heap_kind(first, 0, last - first, v);
    }
}

static void move_median_to_first(Event *result, Event *a, Event *b, Event *c)
{
    if (kind_less(a, b)) {
        if (kind_less(b, c))
            swap_events(result, b);
        else if (kind_less(a, c))
            swap_events(result, c);
        else
            swap_events(result, a);
    } else if (kind_less(a, c)) {
        swap_events(result, a);
    } else if (kind_less(b, c)) {
        swap_events(result, c);
    } else {
        swap_events(result, b);
    }
}

static Event *unguarded_partition(Event *first, Event *last, Event *pivot)
{
    for (;;) {
        while (kind_less(first, pivot))
            first++;
        last--;
        while (kind_less(pivot, last))
            last--;
        if (!(first < last))
            return first;
        swap_events(first, last);
        first++;
    }
}

static void introsort_loop(Event *first, Event *last, int depth)
{
    while (last - first > SORT_THRESHOLD) {
        if (depth == 0) {
            heap_sort_kind(first, last);
            return;
        }
        depth--;
        Event *mid = first + (last - first) / 2;
        move_median_to_first(first, first + 1, mid, last - 1);
        Event *cut = unguarded_partition(first + 1, last, first);
        introsort_loop(cut, last, depth);
        last = cut;
    }
}

/* std::sort(first, first + n, by kind), element for element. */
static void sort_by_kind(Event *first, size_t n)
{
    if (n == 0)
        return;
    Event *last = first + n;
    int lg = 0;
    while (((size_t)2 << lg) <= n)
        lg++;
    introsort_loop(first, last, 2 * lg);
    if (last - first > SORT_THRESHOLD) {
        insertion_sort(first, first + SORT_THRESHOLD);
        for (Event *i = first + SORT_THRESHOLD; i != last; i++)
            unguarded_linear_insert(i);
    } else {
        insertion_sort(first, last);
    }
}

/* ---- dependencies ------------------------------------------------------------ */

static void note_host(Loggp *l, uint32_t r)
{
    l->hosts[l->nhosts++] = r;
}

/* Operations of rank r waiting for op's start (started) or completion:
 * one dependency fewer each; those left with none are ready, in the
 * order the dependencies were given. */
static void release(Loggp *l, uint32_t r, uint32_t op, gboolean started,
                    GArray **ready)
{
    const uint32_t *after = l->after[r], *dep = l->dependent[r];
    uint32_t kind = started ? SCHEDULE_ON_START : 0;
    for (uint32_t i = after[op]; i < after[op + 1]; i++) {
        uint32_t u = dep[i] & ~SCHEDULE_ON_START;
        if ((dep[i] & SCHEDULE_ON_START) == kind && --l->pending[r][u] == 0)
            g_array_append_val(ready[r], u);
    }
}

static uint64_t *cpu_of(Loggp *l, uint64_t *a, uint32_t r, uint8_t unit)
{
    return &a[(size_t)r * l->ncpus + unit];
}

static uint64_t *nic_of(Loggp *l, uint64_t *a, uint32_t r, uint8_t unit)
{
    return &a[(size_t)r * l->nnics + unit];
}

/* Queue rank r's ready operations (time 0 at the start), sends first. */
static void queue_ready(Loggp *l, uint32_t r, GArray *ready, gboolean start)
{
    g_array_set_size(l->batch, 0);
    for (guint i = 0; i < ready->len; i++) {
        const SchedOp *o = &l->s->ranks[r].ops[g_array_index(ready, uint32_t, i)];
        Event e = { .size = o->size, .host = r, .peer = o->peer,
                    .op = g_array_index(ready, uint32_t, i), .tag = o->tag,
                    .cpu = o->cpu, .nic = o->nic };
        e.kind = o->kind == SCHED_SEND ? EV_SEND
                 : o->kind == SCHED_RECV ? EV_RECV : EV_CALC;
        g_array_append_val(l->batch, e);
    }
    g_array_set_size(ready, 0);
    Event *b = (Event *)l->batch->data;
    sort_by_kind(b, l->batch->len);
    for (guint i = 0; i < l->batch->len; i++) {
        Event *e = &b[i];
        e->order = l->order++;
        uint64_t cpu = *cpu_of(l, l->next_o, r, e->cpu);
        if (start)
            e->time = 0;
        else if (e->kind == EV_SEND)
            e->time = MAX(cpu, *nic_of(l, l->next_gs, r, e->nic));
        else
            e->time = cpu;
        event_push(l, e);
    }
}

/* The first waiting entry of source `peer` and `tag`, removed, or FALSE. */
static gboolean match(GArray *q, uint32_t peer, int32_t tag, Waiting *out)
{
    for (guint i = 0; i < q->len; i++) {
        Waiting *w = &g_array_index(q, Waiting, i);
        if (w->peer == peer && w->tag == tag) {
            *out = *w;
            g_array_remove_index(q, i);
            return TRUE;
        }
    }
    return FALSE;
}

/* Rendezvous: the send op of rank `sender` is matched at `now`; it
 * completes, and the sender's CPU and NIC (of the receiving event's
 * unit numbers, as LogGOPSim has it) are held until now. */
static void rendezvous_done(Loggp *l, uint32_t sender, uint32_t op,
                            uint64_t now, uint8_t cpu, uint8_t nic,
                            GArray **ready)
{
    release(l, sender, op, FALSE, ready);
    note_host(l, sender);
    uint64_t *o = cpu_of(l, l->next_o, sender, cpu);
    uint64_t *gs = nic_of(l, l->next_gs, sender, nic);
    *o = MAX(*o, now);
    *gs = MAX(*gs, now);
}

static void handle(Loggp *l, Event e, GArray **ready)
{
    const MachineLoggp *p = l->p;
    uint64_t s1 = e.size - 1;     /* wraps for 0 bytes, as in LogGOPSim */
    uint64_t *o = cpu_of(l, l->next_o, e.host, e.cpu);
    switch (e.kind) {
    case EV_CALC:
        if (*o > e.time) {
            e.time = *o;
            event_push(l, &e);
            return;
        }
        *o = e.time + e.size;
        release(l, e.host, e.op, TRUE, ready);
        release(l, e.host, e.op, FALSE, ready);
        note_host(l, e.host);
        return;
    case EV_SEND: {
        uint64_t *gs = nic_of(l, l->next_gs, e.host, e.nic);
        if (MAX(*o, *gs) > e.time) {
            e.time = MAX(*o, *gs);
            event_push(l, &e);
            return;
        }
        release(l, e.host, e.op, TRUE, ready);
        note_host(l, e.host);
        *o = e.time + p->o + s1 * p->O;
        *gs = e.time + p->g + s1 * p->G;
        Event m = e;
        m.kind = EV_MSG;
        m.host = e.peer;
        m.peer = e.host;
        m.start = e.time;
        m.time = e.time + p->o + p->L;
        m.order = l->order++;
        event_push(l, &m);
        if (e.size <= p->S)
            release(l, e.host, e.op, FALSE, ready);
        return;
    }
    case EV_RECV: {
        release(l, e.host, e.op, TRUE, ready);
        note_host(l, e.host);
        Waiting w;
        if (match(l->q[e.host].unexpected, e.peer, e.tag, &w)) {
            if (e.size > p->S)
                rendezvous_done(l, w.peer, w.op, e.time, e.cpu, e.nic, ready);
            release(l, e.host, e.op, FALSE, ready);
        } else {
            w = (Waiting){ e.size, e.peer, e.op, e.tag };
            g_array_append_val(l->q[e.host].posted, w);
        }
        return;
    }
    default: {                    /* EV_MSG */
        uint64_t *gr = nic_of(l, l->next_gr, e.host, e.nic);
        if (MAX(*o, *gr) > e.time) {
            e.time = MAX(*o, *gr);
            event_push(l, &e);
            return;
        }
        *o = e.time + p->o + MAX(s1 * p->O, s1 * p->G);
        *gr = e.time + p->g + s1 * p->G;
        Waiting w;
        if (match(l->q[e.host].posted, e.peer, e.tag, &w)) {
            if (e.size > p->S)
                rendezvous_done(l, e.peer, e.op, e.time, e.cpu, e.nic, ready);
            release(l, e.host, w.op, FALSE, ready);
            note_host(l, e.host);
        } else {
            w = (Waiting){ e.size, e.peer, e.op, e.tag };
            g_array_append_val(l->q[e.host].unexpected, w);
        }
        return;
    }
    }
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

gboolean loggp_time(const Schedule *s, const MachineLoggp *p,
                    uint64_t *finish, uint64_t *events, GError **error)
{
    Loggp l = { .s = s, .p = p, .ncpus = 1, .nnics = 1 };
    uint32_t n = s->nranks;
    for (uint32_t r = 0; r < n; r++)
        for (uint32_t op = 0; op < s->ranks[r].nops; op++) {
            l.ncpus = MAX(l.ncpus, (uint32_t)s->ranks[r].ops[op].cpu + 1);
            l.nnics = MAX(l.nnics, (uint32_t)s->ranks[r].ops[op].nic + 1);
        }
    l.next_o = g_new0(uint64_t, (size_t)n * l.ncpus);
    l.next_gr = g_new0(uint64_t, (size_t)n * l.nnics);
    l.next_gs = g_new0(uint64_t, (size_t)n * l.nnics);
    l.pending = g_new(uint32_t *, n);
    l.after = g_new(uint32_t *, n);
    l.dependent = g_new(uint32_t *, n);
    l.q = g_new(Queues, n);
    GArray **ready = g_new(GArray *, n);
    for (uint32_t r = 0; r < n; r++) {
        const SchedRank *sr = &s->ranks[r];
        l.pending[r] = g_new(uint32_t, sr->nops ? sr->nops : 1);
        for (uint32_t op = 0; op < sr->nops; op++)
            l.pending[r][op] = sr->ops[op].ndeps;
        l.after[r] = g_new(uint32_t, (size_t)sr->nops + 1);
        l.dependent[r] = g_new(uint32_t, sr->ndeps ? sr->ndeps : 1);
        schedule_rank_dependents(sr, l.after[r], l.dependent[r]);
        l.q[r].posted = g_array_new(FALSE, FALSE, sizeof(Waiting));
        l.q[r].unexpected = g_array_new(FALSE, FALSE, sizeof(Waiting));
        ready[r] = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    }
    l.heap = g_array_new(FALSE, FALSE, sizeof(Event));
    l.batch = g_array_new(FALSE, FALSE, sizeof(Event));
    /* an event readies ops of at most two ranks, noted at most four times */
    l.hosts = g_new(uint32_t, 4);

    for (uint32_t r = 0; r < n; r++) {
        const SchedRank *sr = &s->ranks[r];
        for (uint32_t op = 0; op < sr->nops; op++)
            if (sr->ops[op].ndeps == 0)
                g_array_append_val(ready[r], op);
        queue_ready(&l, r, ready[r], TRUE);
    }
    while (l.heap->len > 0) {
        Event e = event_pop(&l);
        l.events++;
        l.nhosts = 0;
        handle(&l, e, ready);
        qsort(l.hosts, l.nhosts, sizeof *l.hosts, compare_u32);
        for (uint32_t i = 0; i < l.nhosts; i++)
            if (i == 0 || l.hosts[i] != l.hosts[i - 1])
                queue_ready(&l, l.hosts[i], ready[l.hosts[i]], FALSE);
    }

    /* No event left: every rank with a receive still posted waits on
     * it, and a message no receive took is named where it waits. */
    g_autoptr(GString) why = g_string_new(NULL);
    uint32_t stuck = 0;
    for (uint32_t r = 0; r < n; r++) {
        const GArray *posted = l.q[r].posted, *unexpected = l.q[r].unexpected;
        if (!posted->len && !unexpected->len)
            continue;
        if (stuck++ >= SCHEDULE_STUCK_RANKS_SHOWN)
            continue;
        g_string_append_printf(why, "\n  rank %u", r);
        /* the oldest of each kind, and how many more: a ring posts dozens
         * of receives alike */
        if (posted->len) {
            const Waiting *w = &g_array_index(posted, Waiting, 0);
            g_string_append_printf(why, " waits on recv %" G_GUINT64_FORMAT
                                   "b from %u tag %d (%s:%u)", w->size,
                                   w->peer, w->tag, s->name,
                                   s->ranks[r].ops[w->op].line);
            if (posted->len > 1)
                g_string_append_printf(why, " and %u more receive(s)",
                                       posted->len - 1);
        }
        if (unexpected->len) {
            const Waiting *w = &g_array_index(unexpected, Waiting, 0);
            g_string_append_printf(why, "%s took no receive for %"
                                   G_GUINT64_FORMAT "b from %u tag %d",
                                   posted->len ? ";" : "", w->size, w->peer,
                                   w->tag);
            if (unexpected->len > 1)
                g_string_append_printf(why, " and %u more message(s)",
                                       unexpected->len - 1);
        }
    }
    if (stuck > SCHEDULE_STUCK_RANKS_SHOWN)
        g_string_append_printf(why, "\n  and %u more rank(s)",
                               stuck - SCHEDULE_STUCK_RANKS_SHOWN);
    gboolean ok = stuck == 0;
    if (!ok)
        g_set_error(error, SCHEDULE_ERROR, SCHEDULE_ERROR_INPUT,
                    "%s: deadlock in the LogGP model: %u rank(s) never "
                    "finish%s", s->name, stuck, why->str);
    for (uint32_t r = 0; r < n; r++) {
        uint64_t most = 0;
        for (uint32_t c = 0; c < l.ncpus; c++)
            most = MAX(most, *cpu_of(&l, l.next_o, r, (uint8_t)c));
        finish[r] = most;
        g_free(l.pending[r]);
        g_free(l.after[r]);
        g_free(l.dependent[r]);
        g_array_free(l.q[r].posted, TRUE);
        g_array_free(l.q[r].unexpected, TRUE);
        g_array_free(ready[r], TRUE);
    }
    *events = l.events;
    g_free(l.next_o);
    g_free(l.next_gr);
    g_free(l.next_gs);
    g_free(l.pending);
    g_free(l.after);
    g_free(l.dependent);
    g_free(l.q);
    g_free(ready);
    g_free(l.hosts);
    g_array_free(l.heap, TRUE);
    g_array_free(l.batch, TRUE);
    return ok;
}
