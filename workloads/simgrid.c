/* simgrid.c -- SimGrid's time-independent traces, the writer of the
 * table's "simgrid" format (format.h): what SMPI's replay (smpirun
 * -replay INDEX, SimGrid 3.32's src/smpi/internals/smpi_replay.cpp)
 * runs. Written, not read. docs/schedules.md, "Exporting to SimGrid".
 *
 * Files: PATH, the index, one line a rank naming its file, and
 * PATH_files/rank-R.txt, rank R's actions, one a line, each "R ACTION
 * ARGS": init, then irecv PEER TAG BYTES, isend PEER TAG BYTES, sleep
 * SECONDS, wait SRC DST TAG, waitall, and finalize last. The index names
 * the files by PATH as given, as SimGrid's own tracer does (smpirun opens
 * them from its current folder). Each file is written through
 * util/output.h, the ranks' first and the index last. The schedule's
 * comment leads every rank's file as "# " lines (SimGrid skips them; the
 * index can have none).
 *
 * A rank's actions run one after another, so its operations, which
 * depend on one another, are put in an order: the next is the first in
 * the schedule's order that is free (what it requires has completed, what
 * it irequires has started), a send or a receive before a calc, since
 * those are posted (isend, irecv) and a calc blocks (sleep, whose seconds
 * are the calc's time units x Schedule.time_unit); where none is free, the
 * first whose dependencies have all started waits for the sends and
 * receives it requires: waitall where they are all that is outstanding,
 * else a wait for each (SMPI's wait takes the first request of a (source,
 * destination, tag), so a wait for a later one waits for the earlier ones
 * of its key first). A schedule recorded from a program of steps
 * (workloads/record.h) becomes its steps: each step's receives and sends,
 * a sleep where it worked, and a waitall. A calc of no time is no action.
 * Dependencies the order cannot keep apart are kept by waiting longer: a
 * schedule whose operations wait for two receives in turn waits for them
 * in the schedule's order.
 */
#include "format.h"
#include "heap.h"
#include "json_writer.h"
#include "output.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

/* Seconds of a calc's time unit where the schedule does not say: GOAL's
 * (LogGOPSim's) nanosecond. */
#define SIMGRID_DEFAULT_TIME_UNIT 1e-9

/* A rank's file, beside the index. */
#define SIMGRID_FOLDER_SUFFIX "_files"
#define SIMGRID_RANK_FILE "rank-%u.txt"

/* No operation, in a key's queue. */
#define NO_OP UINT32_MAX

/* A min-heap of operation indices (heap.h): its array and count. */
typedef struct {
    uint32_t *at, n;
} Heap;

/* The scratch of one rank's order, sized for the largest rank. */
typedef struct {
    const Schedule *s;
    uint32_t r;
    uint32_t *unstarted;          /* per op: dependencies not yet issued */
    uint32_t *pending;            /* per op: dependencies not satisfied */
    uint8_t *state;               /* per op: ISSUED, WAITED */
    uint32_t *after;              /* per op + 1: offsets into dependent */
    uint32_t *dependent;          /* SCHEDULE_ON_START for irequires */
    uint32_t *key;                /* per send or recv: its (source,
                                   * destination, tag)'s number */
    uint32_t *next;               /* per op: the next of its key's queue */
    uint32_t *head, *tail;        /* per key: its queue of requests */
    Heap comm, calc, started;     /* free sends and receives, free calcs,
                                   * ops whose dependencies all started */
    uint32_t outstanding;         /* issued sends and receives not waited */
    double time_unit;
} RankOrder;

enum { ISSUED = 1, WAITED = 2 };

static gboolean is_comm(const SchedOp *o)
{
    return o->kind != SCHED_CALC;
}

/* Op u's dependency on another was satisfied: u may be free. */
static void satisfy(RankOrder *k, uint32_t u)
{
    if (--k->pending[u] == 0) {
        Heap *h = is_comm(&k->s->ranks[k->r].ops[u]) ? &k->comm : &k->calc;
        heap_u32_push(h->at, h->n++, &u);
    }
}

/* Rank r's key of send or receive o: (source, destination, tag) with r as
 * one end, in 64 bits (peer below 2^26, tag below 2^31). */
static gint64 key_of(uint32_t r, const SchedOp *o)
{
    gboolean from_peer = o->kind == SCHED_RECV && o->peer != r;
    return (gint64)(((uint64_t)from_peer << 63) | ((uint64_t)o->peer << 32)
                    | (uint32_t)o->tag);
}

static void write_line(RankOrder *k, FILE *out, const char *action)
{
    fprintf(out, "%u %s\n", k->r, action);
}

/* Issue op i: its action, then what it satisfies. */
static void issue(RankOrder *k, FILE *out, uint32_t i)
{
    const SchedRank *sr = &k->s->ranks[k->r];
    const SchedOp *o = &sr->ops[i];
    k->state[i] |= ISSUED;
    if (is_comm(o)) {
        fprintf(out, "%u %s %u %d %" G_GUINT64_FORMAT "\n", k->r,
                o->kind == SCHED_SEND ? "isend" : "irecv", o->peer, o->tag,
                (guint64)o->size);
        k->outstanding++;
        uint32_t q = k->key[i];
        k->next[i] = NO_OP;
        if (k->head[q] == NO_OP)
            k->head[q] = i;
        else
            k->next[k->tail[q]] = i;
        k->tail[q] = i;
    } else if (o->size > 0) {
        char seconds[JSON_DOUBLE_BUF];
        json_format_double(seconds, (double)o->size * k->time_unit);
        fprintf(out, "%u sleep %s\n", k->r, seconds);
    }
    for (uint32_t j = k->after[i]; j < k->after[i + 1]; j++) {
        uint32_t d = k->dependent[j], u = d & ~SCHEDULE_ON_START;
        k->unstarted[u]--;
        if ((d & SCHEDULE_ON_START) || !is_comm(o))
            satisfy(k, u);
        if (k->unstarted[u] == 0 && k->pending[u] > 0)
            heap_u32_push(k->started.at, k->started.n++, &u);
    }
}

/* Request i (issued) is waited: what requires it is satisfied. */
static void waited(RankOrder *k, uint32_t i)
{
    k->state[i] |= WAITED;
    k->outstanding--;
    for (uint32_t j = k->after[i]; j < k->after[i + 1]; j++)
        if (!(k->dependent[j] & SCHEDULE_ON_START))
            satisfy(k, k->dependent[j]);
}

/* Wait for request i: SMPI's wait takes its key's first request. */
static void wait_for(RankOrder *k, FILE *out, uint32_t i)
{
    const SchedOp *o = &k->s->ranks[k->r].ops[i];
    uint32_t src = o->kind == SCHED_SEND ? k->r : o->peer;
    uint32_t dst = o->kind == SCHED_SEND ? o->peer : k->r;
    uint32_t q = k->key[i];
    while (!(k->state[i] & WAITED)) {
        uint32_t first = k->head[q];
        k->head[q] = k->next[first];
        fprintf(out, "%u wait %u %u %d\n", k->r, src, dst, o->tag);
        waited(k, first);
    }
}

/* Every request outstanding is waited. */
static void wait_all(RankOrder *k, FILE *out, uint32_t nkeys)
{
    write_line(k, out, "waitall");
    for (uint32_t q = 0; q < nkeys; q++) {
        for (uint32_t i = k->head[q]; i != NO_OP; i = k->next[i])
            waited(k, i);
        k->head[q] = NO_OP;
    }
}

/* Op i has all its dependencies started and some not satisfied: wait for
 * the requests it requires. */
static void wait_before(RankOrder *k, FILE *out, uint32_t i, uint32_t nkeys)
{
    const SchedRank *sr = &k->s->ranks[k->r];
    const SchedOp *o = &sr->ops[i];
    uint32_t needed = 0;
    for (uint32_t d = 0; d < o->ndeps; d++) {
        SchedDep dep = sr->deps[o->dep_first + d];
        needed += !dep.started && !(k->state[dep.op] & WAITED)
                  && is_comm(&sr->ops[dep.op]);
    }
    if (needed == k->outstanding) {
        wait_all(k, out, nkeys);
        return;
    }
    for (uint32_t d = 0; d < o->ndeps; d++) {
        SchedDep dep = sr->deps[o->dep_first + d];
        if (!dep.started && is_comm(&sr->ops[dep.op]))
            wait_for(k, out, dep.op);
    }
}

/* Rank k->r's operations, numbered keys and dependents; returns the
 * number of keys. */
static uint32_t order_prepare(RankOrder *k, GHashTable *keys)
{
    const SchedRank *sr = &k->s->ranks[k->r];
    uint32_t n = sr->nops;
    g_hash_table_remove_all(keys);
    for (uint32_t i = 0; i < n; i++) {
        const SchedOp *o = &sr->ops[i];
        k->unstarted[i] = k->pending[i] = o->ndeps;
        k->state[i] = 0;
        if (is_comm(o)) {
            gint64 key = key_of(k->r, o);
            gpointer at = g_hash_table_lookup(keys, &key);
            if (!at) {
                gint64 *stored = g_new(gint64, 1);
                *stored = key;
                at = GUINT_TO_POINTER(g_hash_table_size(keys) + 1);
                g_hash_table_insert(keys, stored, at);
                k->head[GPOINTER_TO_UINT(at) - 1] = NO_OP;
            }
            k->key[i] = GPOINTER_TO_UINT(at) - 1;
        }
    }
    schedule_rank_dependents(sr, k->after, k->dependent);
    k->comm.n = k->calc.n = k->started.n = 0;
    k->outstanding = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (sr->ops[i].ndeps == 0) {
            Heap *h = is_comm(&sr->ops[i]) ? &k->comm : &k->calc;
            heap_u32_push(h->at, h->n++, &i);
        }
    }
    return g_hash_table_size(keys);
}

typedef struct {
    RankOrder order;
    GHashTable *keys;
} SimgridWrite;

static gboolean write_rank(FILE *out, const char *path, void *data,
                           GError **error)
{
    (void)path;
    (void)error;
    SimgridWrite *w = data;
    RankOrder *k = &w->order;
    const SchedRank *sr = &k->s->ranks[k->r];
    uint32_t nkeys = order_prepare(k, w->keys);
    schedule_write_comment(k->s, out, "#");
    write_line(k, out, "init");
    for (uint32_t done = 0; done < sr->nops;) {
        uint32_t i;
        if (k->comm.n > 0 || k->calc.n > 0) {
            Heap *h = k->comm.n > 0 ? &k->comm : &k->calc;
            i = heap_u32_pop(h->at, h->n--);
            issue(k, out, i);
            done++;
            continue;
        }
        /* nothing free: the first op whose dependencies all started (the
         * schedule has no cycle, so there is one) waits */
        i = heap_u32_pop(k->started.at, k->started.n--);
        if ((k->state[i] & ISSUED) || k->pending[i] == 0)
            continue;             /* stale: issued, or free since */
        wait_before(k, out, i, nkeys);
    }
    if (k->outstanding > 0)
        wait_all(k, out, nkeys);
    write_line(k, out, "finalize");
    return TRUE;
}

typedef struct {
    const char *path;
    uint32_t nranks;
} SimgridIndex;

static gboolean write_index(FILE *out, const char *path, void *data,
                            GError **error)
{
    (void)path;
    (void)error;
    const SimgridIndex *x = data;
    for (uint32_t r = 0; r < x->nranks; r++)
        fprintf(out, "%s" SIMGRID_FOLDER_SUFFIX "/" SIMGRID_RANK_FILE "\n",
                x->path, r);
    return TRUE;
}

static gboolean simgrid_write(const Schedule *s, const char *path,
                              GError **error)
{
    g_return_val_if_fail(s != NULL && path != NULL, FALSE);
    if (!schedule_check(s, error))
        return FALSE;
    g_autofree char *folder = g_strconcat(path, SIMGRID_FOLDER_SUFFIX, NULL);
    if (g_mkdir_with_parents(folder, 0777) != 0) {
        int errsv = errno;
        g_set_error(error, OUTPUT_ERROR, OUTPUT_ERROR_WRITE,
                    "%s: cannot write: %s", folder, g_strerror(errsv));
        return FALSE;
    }
    uint32_t most = 0, most_deps = 0;
    for (uint32_t r = 0; r < s->nranks; r++) {
        most = MAX(most, s->ranks[r].nops);
        most_deps = MAX(most_deps, s->ranks[r].ndeps);
    }
    size_t n = (size_t)most + 1;
    SimgridWrite w = {
        .order = {
            .s = s,
            .unstarted = g_new(uint32_t, n), .pending = g_new(uint32_t, n),
            .state = g_new(uint8_t, n), .after = g_new(uint32_t, n),
            .dependent = g_new(uint32_t, (size_t)most_deps + 1),
            .key = g_new(uint32_t, n), .next = g_new(uint32_t, n),
            .head = g_new(uint32_t, n), .tail = g_new(uint32_t, n),
            .comm = { g_new(uint32_t, n), 0 },
            .calc = { g_new(uint32_t, n), 0 },
            .started = { g_new(uint32_t, n), 0 },
            .time_unit = s->time_unit > 0 ? s->time_unit
                                          : SIMGRID_DEFAULT_TIME_UNIT,
        },
        .keys = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
                                      NULL),
    };
    gboolean ok = TRUE;
    for (uint32_t r = 0; ok && r < s->nranks; r++) {
        g_autofree char *file = g_strdup_printf("%s/" SIMGRID_RANK_FILE,
                                                folder, r);
        w.order.r = r;
        ok = output_write_file(file, write_rank, &w, error);
    }
    RankOrder *k = &w.order;
    g_free(k->unstarted);
    g_free(k->pending);
    g_free(k->state);
    g_free(k->after);
    g_free(k->dependent);
    g_free(k->key);
    g_free(k->next);
    g_free(k->head);
    g_free(k->tail);
    g_free(k->comm.at);
    g_free(k->calc.at);
    g_free(k->started.at);
    g_hash_table_destroy(w.keys);
    if (!ok)
        return FALSE;
    SimgridIndex index = { path, s->nranks };
    return output_write_file(path, write_index, &index, error);
}

const ScheduleFormat schedule_format_simgrid = {
    .name = "simgrid",
    .extension = ".tit",
    .summary = "SimGrid's time-independent trace, as SMPI's replay "
               "(smpirun -replay) reads it: an index and a file a rank",
    .read = NULL,
    .write = simgrid_write,
};
