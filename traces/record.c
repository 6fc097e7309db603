/* record.c -- the trace recorder: a SimObserver that keeps every busy
 * interval, startup and mark of a run, and turns them into a Trace at the
 * end.
 *
 * Invariants while recording:
 *  - messages holds one entry per message that used a channel or held a
 *    port, appended when its first interval or startup arrives (the engine
 *    reserves a message's startup and whole route in one go, so they
 *    arrive together);
 *  - busy[i].channel is a recording id until finish: ids are handed out in
 *    order of first use by a hash table keyed by (node << 32 | link), so a
 *    complete graph of 2^16 processors costs only the channels it used,
 *    and no key overflows whatever the node count; finish sorts the keys
 *    into the channel table and renumbers;
 *  - marks are already merged where consecutive calls gave the same
 *    (time, label) for consecutive nodes, so a 2^16-node step costs one
 *    record, not 2^16; finish sorts and merges the rest.
 * The observer only reads what the engine hands it, so recording cannot
 * change a simulated result.
 *
 * Memory (record.h): the tables grow by doubling, and only in
 * recorder_room and ids_get, which check the recorder's projected peak
 * (recorder_peak) against its budget and try the allocation before GLib
 * makes it; a recorder that cannot grow stops (failed) and records
 * nothing more.
 */
#ifndef _DEFAULT_SOURCE      /* MAP_ANONYMOUS, MAP_NORESERVE */
#define _DEFAULT_SOURCE
#endif
#include "record.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bits.h"

#ifndef CUBEMU_VERSION
#define CUBEMU_VERSION "0.1.0"
#endif

/* Labels are stored with a 16-bit length; a longer one is cut at a UTF-8
 * character boundary (no node program needs a phase name this long). */
#define TRACE_MAX_LABEL 65535

/* The channel-id table starts this large (a power of two) and doubles
 * when half full, so a probe sequence stays short. */
#define RECORDER_IDS_INITIAL 1024
/* No key: node and link UINT32_MAX, which no machine has. */
#define RECORDER_NO_KEY UINT64_MAX
/* A table's first allocation, in elements, when its first entry comes. */
#define RECORDER_ARRAY_INITIAL 64
/* What a label costs beyond its bytes: its pointer, its hash table entry
 * and malloc's overhead, generously. */
#define RECORDER_LABEL_OVERHEAD 64

typedef struct {
    uint64_t *keys;               /* RECORDER_NO_KEY where empty */
    uint32_t *ids;
    gsize size;                   /* a power of two */
    gsize used;
} ChannelIds;

/* The tables that grow with a run, and their capacities, in elements,
 * that recorder_room gave them: GLib allocates each at its size rounded
 * up to a power of two (array_bytes). */
enum { TABLE_MESSAGES, TABLE_BUSY, TABLE_STARTUPS, TABLE_MARKS, TABLE_KEYS,
       TABLES };

typedef struct {
    guint n[TABLES];
} RecorderCaps;

static const char *const table_names[TABLES] = {
    "messages", "busy records", "startup records", "marks", "channels",
};

struct TraceRecorder {
    GArray *messages;             /* TraceMessage */
    GArray *busy;                 /* TraceBusy, channel = recording id */
    GArray *startups;             /* TraceStartup */
    RecorderCaps cap;
    uint64_t label_bytes;         /* the labels' strings and overhead */
    uint64_t budget;              /* for recorder_peak */
    gboolean failed;              /* stopped: nothing more is recorded */
    char *failure;                /* why, for trace_recorder_check */
    gboolean have_message;
    uint64_t last_id;             /* id of messages[len-1] */
    uint64_t last_key;            /* key of that message's latest hop */
    ChannelIds ids;
    GArray *keys;                 /* uint64_t: the key of each id */
    GHashTable *label_index;      /* label -> index + 1 */
    GPtrArray *labels;
    GArray *marks;                /* TraceMark */
};

/* FALSE, with nothing allocated, where the table cannot be. */
static gboolean ids_init(ChannelIds *t, gsize size)
{
    t->size = size;
    t->used = 0;
    t->keys = g_try_new(uint64_t, size);
    t->ids = g_try_new(uint32_t, size);
    if (!t->keys || !t->ids) {
        g_free(t->keys);
        g_free(t->ids);
        t->keys = NULL;
        t->ids = NULL;
        return FALSE;
    }
    for (gsize i = 0; i < size; i++)
        t->keys[i] = RECORDER_NO_KEY;
    return TRUE;
}

static void ids_clear(ChannelIds *t)
{
    g_free(t->keys);
    g_free(t->ids);
}

static gsize ids_slot(const ChannelIds *t, uint64_t key)
{
    gsize mask = t->size - 1;
    /* Fibonacci hashing: the golden ratio in 64 bits spreads keys that
     * differ only in low bits (neighbouring links) over the whole table */
    gsize i = (gsize)((key * BITS_SPLITMIX64_GAMMA) >> 32) & mask;
    while (t->keys[i] != RECORDER_NO_KEY && t->keys[i] != key)
        i = (i + 1) & mask;
    return i;
}

static gboolean recorder_grow_ids(TraceRecorder *r);
static uint64_t ids_bytes(gsize size);
static char *size_text(uint64_t bytes);
static gboolean recorder_stop(TraceRecorder *r, char *why);

/* The id of key, a new one (the next after `next`) if it has none; FALSE
 * (the recorder has stopped) where the table could not grow. */
static gboolean ids_get(TraceRecorder *r, uint64_t key, uint32_t next,
                        uint32_t *id, gboolean *added)
{
    ChannelIds *t = &r->ids;
    gsize i = ids_slot(t, key);
    *added = t->keys[i] == RECORDER_NO_KEY;
    if (!*added) {
        *id = t->ids[i];
        return TRUE;
    }
    if (2 * (t->used + 1) > t->size) {
        if (!recorder_grow_ids(r))
            return FALSE;
        ChannelIds bigger;
        if (!ids_init(&bigger, 2 * t->size)) {
            g_autofree char *b = size_text(ids_bytes(2 * t->size));
            return recorder_stop(r, g_strdup_printf(
                "cannot allocate %s to grow the trace's channel ids", b));
        }
        for (gsize j = 0; j < t->size; j++)
            if (t->keys[j] != RECORDER_NO_KEY) {
                gsize k = ids_slot(&bigger, t->keys[j]);
                bigger.keys[k] = t->keys[j];
                bigger.ids[k] = t->ids[j];
            }
        bigger.used = t->used;
        ids_clear(t);
        *t = bigger;
        i = ids_slot(t, key);
    }
    t->keys[i] = key;
    t->ids[i] = next;
    t->used++;
    *id = next;
    return TRUE;
}

/* ---- memory ----------------------------------------------------------- */

/* What GLib allocates for a GArray of n elements of `size` bytes: the
 * next power of two, at least 16 bytes (g_array_maybe_expand). */
static uint64_t array_bytes(uint64_t n, gsize size)
{
    uint64_t want = n * size, bytes = 16;
    while (bytes < want)
        bytes <<= 1;
    return bytes;
}

static uint64_t ids_bytes(gsize size)
{
    return (uint64_t)size * (sizeof(uint64_t) + sizeof(uint32_t));
}

/* The projected peak (record.h) if the tables had capacities `cap` and
 * the id table `ids` slots: the tables, plus the most of three moments
 * that come on top of them -- finishing (a sorted copy of the busy
 * records, the channel table with its sorted keys, ranks and counts),
 * doubling a table (the old block while the new one is filled) and
 * doubling the id table (the old one while the keys are moved). */
static uint64_t recorder_peak_with(const TraceRecorder *r,
                                   const RecorderCaps *cap, gsize ids)
{
    uint64_t tables[TABLES] = {
        array_bytes(cap->n[TABLE_MESSAGES], sizeof(TraceMessage)),
        array_bytes(cap->n[TABLE_BUSY], sizeof(TraceBusy)),
        array_bytes(cap->n[TABLE_STARTUPS], sizeof(TraceStartup)),
        array_bytes(cap->n[TABLE_MARKS], sizeof(TraceMark)),
        array_bytes(cap->n[TABLE_KEYS], sizeof(uint64_t)),
    };
    uint64_t held = ids_bytes(ids) + r->label_bytes, largest = 0;
    for (guint i = 0; i < G_N_ELEMENTS(tables); i++) {
        held += tables[i];
        largest = MAX(largest, tables[i]);
    }
    uint64_t n = cap->n[TABLE_KEYS];
    uint64_t finish = tables[TABLE_BUSY]
                      + n * (sizeof(uint64_t) + sizeof(uint32_t))
                      + array_bytes(n, sizeof(TraceChannel))
                      + (n + 1) * sizeof(guint);
    return held + MAX(MAX(finish, largest / 2), ids_bytes(ids) / 2);
}

static uint64_t recorder_peak(const TraceRecorder *r)
{
    return recorder_peak_with(r, &r->cap, r->ids.size);
}

/* Can `bytes` be allocated now? Asked of the kernel with a mapping that
 * touches nothing and is given back at once: the address space limits
 * count it as they will count the allocation, and malloc's own state
 * (its mmap threshold moves when it frees a mapped block) is left
 * alone. */
static gboolean room_for(uint64_t bytes)
{
    if (bytes > SIZE_MAX)
        return FALSE;
    void *p = mmap(NULL, (size_t)MAX(bytes, 1), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return FALSE;
    munmap(p, (size_t)MAX(bytes, 1));
    return TRUE;
}

static char *size_text(uint64_t bytes)
{
    g_autofree char *iec = g_format_size_full(bytes, G_FORMAT_SIZE_IEC_UNITS);
    return g_strdup_printf("%" G_GUINT64_FORMAT " bytes (%s)",
                           (guint64)bytes, iec);
}

/* Stop recording: the first reason stays. */
static gboolean recorder_stop(TraceRecorder *r, char *why)
{
    if (!r->failed) {
        r->failed = TRUE;
        r->failure = why;
    } else {
        g_free(why);
    }
    return FALSE;
}

/* May the recorder grow to capacities `cap` and `ids` id slots, the new
 * block being `bytes` for `what`? FALSE (stopped) if that passes the
 * budget or `bytes` cannot be allocated now (room_for: GLib's own
 * allocation follows, in a single-threaded process, with that room). */
static gboolean recorder_may_grow(TraceRecorder *r, const RecorderCaps *cap,
                                  gsize ids, uint64_t bytes, const char *what)
{
    uint64_t peak = recorder_peak_with(r, cap, ids);
    if (peak > r->budget) {
        g_autofree char *p = size_text(peak);
        g_autofree char *b = g_format_size_full(r->budget,
                                                G_FORMAT_SIZE_IEC_UNITS);
        return recorder_stop(r, g_strdup_printf(
            "recording the trace would need %s once its %s grow, more "
            "than the %s left for it", p, what, b));
    }
    if (!room_for(bytes)) {
        g_autofree char *b = size_text(bytes);
        return recorder_stop(r, g_strdup_printf(
            "cannot allocate %s to grow the trace's %s", b, what));
    }
    return TRUE;
}

/* Room for one more element in table `table`, the GArray a: doubled
 * when full, if recorder_may_grow. */
static gboolean recorder_room(TraceRecorder *r, GArray *a, int table)
{
    guint cap = r->cap.n[table];
    if (G_LIKELY(a->len < cap))
        return TRUE;
    if (r->failed)
        return FALSE;
    gsize size = g_array_get_element_size(a);
    if (cap > G_MAXUINT / 2 / size)
        return recorder_stop(r, g_strdup_printf(
            "the trace's %s would have more than %u entries",
            table_names[table], cap));
    RecorderCaps grown = r->cap;
    grown.n[table] = cap ? 2 * cap : RECORDER_ARRAY_INITIAL;
    if (!recorder_may_grow(r, &grown, r->ids.size,
                           array_bytes(grown.n[table], size),
                           table_names[table]))
        return FALSE;
    /* GLib's growth, made here: set_size to the new capacity allocates
     * it, and setting the length back keeps it. */
    guint len = a->len;
    g_array_set_size(a, grown.n[table]);
    g_array_set_size(a, len);
    r->cap = grown;
    return TRUE;
}

static gboolean recorder_grow_ids(TraceRecorder *r)
{
    return recorder_may_grow(r, &r->cap, 2 * r->ids.size,
                             ids_bytes(2 * r->ids.size),
                             "channel ids");
}

uint64_t trace_recorder_bytes(const TraceRecorder *r)
{
    return recorder_peak(r);
}

void trace_recorder_set_budget(TraceRecorder *r, uint64_t bytes)
{
    r->budget = bytes;
}

gboolean trace_recorder_observes(const SimObserver *observer)
{
    return observer && observer == trace_recorder_observer();
}

gboolean trace_recorder_check(TraceRecorder *r, GError **error)
{
    if (r->failed) {
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO, "%s", r->failure);
        return FALSE;
    }
    /* What finishing adds, tried in one block: if one block of the sum
     * fits, its parts do. */
    uint64_t n = r->keys->len;
    uint64_t finish = array_bytes(r->busy->len, sizeof(TraceBusy))
                      + n * (sizeof(uint64_t) + sizeof(uint32_t))
                      + array_bytes(n, sizeof(TraceChannel))
                      + (n + 1) * sizeof(guint);
    if (!room_for(finish)) {
        g_autofree char *b = size_text(finish);
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO,
                    "cannot allocate %s to sort the trace's records", b);
        return FALSE;
    }
    return TRUE;
}

/* ---- recording -------------------------------------------------------- */

static void recorder_reset(TraceRecorder *r)
{
    r->messages = g_array_new(FALSE, FALSE, sizeof(TraceMessage));
    r->busy = g_array_new(FALSE, FALSE, sizeof(TraceBusy));
    r->startups = g_array_new(FALSE, FALSE, sizeof(TraceStartup));
    r->labels = g_ptr_array_new_with_free_func(g_free);
    r->marks = g_array_new(FALSE, FALSE, sizeof(TraceMark));
    r->keys = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    r->cap = (RecorderCaps){ 0 };
    r->label_bytes = 0;
    if (!ids_init(&r->ids, RECORDER_IDS_INITIAL))
        g_error("trace recorder: cannot allocate its first %d channel ids",
                RECORDER_IDS_INITIAL);
    r->have_message = FALSE;
    r->failed = FALSE;
    g_clear_pointer(&r->failure, g_free);
}

TraceRecorder *trace_recorder_new(void)
{
    TraceRecorder *r = g_new0(TraceRecorder, 1);
    r->label_index = g_hash_table_new(g_str_hash, g_str_equal);
    r->budget = TRACE_RECORDER_NO_BUDGET;
    recorder_reset(r);
    return r;
}

void trace_recorder_free(TraceRecorder *r)
{
    if (!r)
        return;
    g_array_unref(r->messages);
    g_array_unref(r->busy);
    g_array_unref(r->startups);
    g_array_unref(r->keys);
    ids_clear(&r->ids);
    g_hash_table_unref(r->label_index);
    g_ptr_array_unref(r->labels);
    g_array_unref(r->marks);
    g_free(r->failure);
    g_free(r);
}

/* The message's entry, appended when it is new. Message indices are 32
 * bits in the file (FORMAT.md); a GArray's length is a guint, so the
 * index always fits. FALSE if the recorder stopped. */
static gboolean recorder_message(TraceRecorder *r, const SimMessage *m,
                                 uint32_t *index)
{
    if (!r->have_message || m->id != r->last_id) {
        if (!recorder_room(r, r->messages, TABLE_MESSAGES))
            return FALSE;
        TraceMessage tm = {
            .id = m->id, .count = m->count, .posted = m->posted,
            .element_time = m->element_time, .source = m->source,
            .dest = m->dest, .tag = m->tag, .hops = 0, .cls = m->cls,
            .detoured = m->detoured,
        };
        g_array_append_val(r->messages, tm);
        r->have_message = TRUE;
        r->last_id = m->id;
        r->last_key = RECORDER_NO_KEY;
    }
    *index = r->messages->len - 1;
    return TRUE;
}

static void recorder_channel_busy(void *data, const SimMessage *m,
                                  uint32_t node, int link, uint64_t first,
                                  uint64_t count, Tick start)
{
    TraceRecorder *r = data;
    uint32_t msg;
    if (r->failed || !recorder_message(r, m, &msg)
        || !recorder_room(r, r->busy, TABLE_BUSY)
        || !recorder_room(r, r->keys, TABLE_KEYS))
        return;
    uint64_t key = (uint64_t)node << 32 | (uint32_t)link;
    gboolean added;
    uint32_t id;
    if (!ids_get(r, key, r->keys->len, &id, &added))
        return;
    TraceMessage *tm = &g_array_index(r->messages, TraceMessage, msg);
    if (key != r->last_key) {
        tm->hops++;
        r->last_key = key;
    }
    if (added)
        g_array_append_val(r->keys, key);
    TraceBusy b = { start, first, count, id, msg };
    g_array_append_val(r->busy, b);
}

static void recorder_startup(void *data, const SimMessage *m, int link,
                             Tick start, Tick duration)
{
    TraceRecorder *r = data;
    uint32_t msg;
    if (r->failed || !recorder_message(r, m, &msg)
        || !recorder_room(r, r->startups, TABLE_STARTUPS))
        return;
    TraceStartup s = { start, duration, msg, (uint32_t)link };
    g_array_append_val(r->startups, s);
}

/* The label's index, a new one if it is new; FALSE if the recorder
 * stopped. */
static gboolean recorder_label(TraceRecorder *r, const char *label,
                               uint32_t *index)
{
    if (r->labels->len) {
        const char *last = r->labels->pdata[r->labels->len - 1];
        if (!strcmp(last, label)) {
            *index = r->labels->len - 1;
            return TRUE;
        }
    }
    gpointer found = g_hash_table_lookup(r->label_index, label);
    if (found) {
        *index = GPOINTER_TO_UINT(found) - 1;
        return TRUE;
    }
    gsize n = strlen(label);
    if (n > TRACE_MAX_LABEL)
        n = (gsize)(g_utf8_find_prev_char(label, label + TRACE_MAX_LABEL + 1)
                    - label);
    /* Labels are few and small, so they are counted, not tried. */
    uint64_t cost = n + 1 + RECORDER_LABEL_OVERHEAD;
    r->label_bytes += cost;
    if (recorder_peak(r) > r->budget) {
        g_autofree char *b = g_format_size_full(r->budget,
                                                G_FORMAT_SIZE_IEC_UNITS);
        return recorder_stop(r, g_strdup_printf(
            "recording the trace's %u labels would take more than the %s "
            "left for it", r->labels->len + 1, b));
    }
    char *copy = g_strndup(label, n);
    g_ptr_array_add(r->labels, copy);
    g_hash_table_insert(r->label_index, copy, GUINT_TO_POINTER(r->labels->len));
    *index = r->labels->len - 1;
    return TRUE;
}

static void recorder_mark(void *data, uint32_t node, Tick time,
                          const char *label)
{
    TraceRecorder *r = data;
    uint32_t l;
    if (r->failed || !recorder_label(r, label, &l))
        return;
    if (r->marks->len) {
        TraceMark *last = &g_array_index(r->marks, TraceMark, r->marks->len - 1);
        if (last->time == time && last->label == l
            && last->node + last->nodes == node) {
            last->nodes++;
            return;
        }
    }
    if (!recorder_room(r, r->marks, TABLE_MARKS))
        return;
    TraceMark m = { time, l, node, 1 };
    g_array_append_val(r->marks, m);
}

const SimObserver *trace_recorder_observer(void)
{
    static const SimObserver observer = {
        .channel_busy = recorder_channel_busy,
        .startup = recorder_startup,
        .mark = recorder_mark,
    };
    return &observer;
}

static int mark_compare(const void *a, const void *b)
{
    const TraceMark *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    if (x->label != y->label)
        return x->label < y->label ? -1 : 1;
    return x->node < y->node ? -1 : x->node > y->node;
}

static int busy_start_compare(const void *a, const void *b)
{
    const TraceBusy *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static int startup_compare(const void *a, const void *b)
{
    const TraceStartup *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->message < y->message ? -1 : x->message > y->message;
}

static int key_compare(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The channel table: the recorded keys in (node, link) order, and each
 * recording id's index in it (rank[id]). */
static uint32_t *recorder_channels(const TraceRecorder *r, const Topology *tp,
                                   GArray *channels)
{
    guint n = r->keys->len;
    uint64_t *sorted = g_new(uint64_t, n ? n : 1);
    if (n)
        memcpy(sorted, r->keys->data, sizeof(uint64_t) * n);
    if (n > 1)
        qsort(sorted, n, sizeof(uint64_t), key_compare);
    uint32_t *rank = g_new(uint32_t, n ? n : 1);
    g_array_set_size(channels, n);
    for (guint i = 0; i < n; i++) {
        TraceChannel *c = &g_array_index(channels, TraceChannel, i);
        c->source = (uint32_t)(sorted[i] >> 32);
        c->link = (uint32_t)sorted[i];
        c->dest = topology_neighbour(tp, c->source, (int)c->link);
        c->direction = topology_direction(tp, c->source, (int)c->link);
        /* The id of this key, found again in the table. */
        rank[r->ids.ids[ids_slot(&r->ids, sorted[i])]] = i;
    }
    g_free(sorted);
    return rank;
}

/* Sort by channel with a counting sort (stable, linear), then by start
 * within a channel; records usually arrive in start order per channel, so
 * qsort runs only where a later message filled an earlier gap. Returns the
 * sorted array; `busy` is freed. */
static GArray *recorder_sort_busy(GArray *busy, guint channels)
{
    guint *first = g_new0(guint, (gsize)channels + 1);
    for (guint i = 0; i < busy->len; i++)
        first[g_array_index(busy, TraceBusy, i).channel + 1]++;
    for (guint c = 0; c < channels; c++)
        first[c + 1] += first[c];
    GArray *sorted = g_array_sized_new(FALSE, FALSE, sizeof(TraceBusy), busy->len);
    g_array_set_size(sorted, busy->len);
    TraceBusy *all = (TraceBusy *)(void *)sorted->data;
    for (guint i = 0; i < busy->len; i++) {
        const TraceBusy *b = &g_array_index(busy, TraceBusy, i);
        all[first[b->channel]++] = *b;
    }
    g_array_unref(busy);
    guint lo = 0;
    for (guint i = 1; i <= sorted->len; i++) {
        if (i < sorted->len && all[i].channel == all[lo].channel)
            continue;
        for (guint j = lo + 1; j < i; j++)
            if (all[j].start < all[j - 1].start) {
                qsort(all + lo, i - lo, sizeof(TraceBusy), busy_start_compare);
                break;
            }
        lo = i;
    }
    g_free(first);
    return sorted;
}

static void recorder_merge_marks(GArray *marks)
{
    if (!marks->len)
        return;
    qsort(marks->data, marks->len, sizeof(TraceMark), mark_compare);
    TraceMark *m = (TraceMark *)(void *)marks->data;
    guint out = 0;
    for (guint i = 1; i < marks->len; i++) {
        if (m[i].time == m[out].time && m[i].label == m[out].label
            && m[out].node + m[out].nodes == m[i].node)
            m[out].nodes += m[i].nodes;
        else
            m[++out] = m[i];
    }
    g_array_set_size(marks, out + 1);
}

static char *recorder_parameters(const Report *report)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < report->params->len; i++) {
        const ParamValue *v = &g_array_index(report->params, ParamValue, i);
        g_string_append_printf(s, "%s%s = %s", i ? ", " : "", v->key, v->text);
    }
    return g_string_free(s, FALSE);
}

Trace *trace_recorder_finish(TraceRecorder *r, const Report *report)
{
    const Machine *m = &report->machine;
    Trace *t = trace_new();
    t->topology = m->topology;
    t->ports = m->ports;
    t->startup_holds_port = m->startup_holds_port;
    memcpy(t->price, m->price, sizeof t->price);
    t->tick_seconds = m->tick_seconds;
    t->cycles = report->cycles;
    t->element_transfers = report->element_transfers;
    trace_set_info(t, "machine", m->name);
    trace_set_info(t, "scenario", report->scenario);
    trace_set_info(t, "algorithm", report->algorithm);
    trace_set_info(t, "method", report->method);
    g_autofree char *params = recorder_parameters(report);
    trace_set_info(t, "parameters", params);
    trace_set_info(t, "cubemu", CUBEMU_VERSION);
    if (machine_memory_paths(m)) {
        g_autoptr(GString) paths = g_string_new(NULL);
        for (MessageClass c = 0; c < CLASS_COUNT; c++)
            if (m->price[c].memory_path)
                g_string_append_printf(paths, "%s%s", paths->len ? " " : "",
                                       message_class_name(c));
        trace_set_info(t, "memory-paths", paths->str);
    }
    if (m->faults) {
        /* 2.2: the list as the report gives it, and its entries */
        g_autofree char *faults = faults_text(m->faults);
        /* A list too long for a string is left to the entries, rather
         * than cut. */
        if (strlen(faults) <= TRACE_MAX_LABEL)
            trace_set_info(t, "faults", faults);
        faults_entries(m->faults, t->faults);
    }

    g_autofree uint32_t *rank = recorder_channels(r, &t->topology, t->channels);
    for (guint i = 0; i < r->busy->len; i++) {
        TraceBusy *b = &g_array_index(r->busy, TraceBusy, i);
        b->channel = rank[b->channel];
    }
    r->busy = recorder_sort_busy(r->busy, t->channels->len);
    if (r->startups->len > 1)
        qsort(r->startups->data, r->startups->len, sizeof(TraceStartup),
              startup_compare);
    recorder_merge_marks(r->marks);

    g_array_unref(t->messages);
    t->messages = g_steal_pointer(&r->messages);
    g_array_unref(t->busy);
    t->busy = g_steal_pointer(&r->busy);
    g_array_unref(t->startups);
    t->startups = g_steal_pointer(&r->startups);
    g_array_unref(t->marks);
    t->marks = g_steal_pointer(&r->marks);
    g_hash_table_remove_all(r->label_index);
    g_ptr_array_unref(t->labels);
    t->labels = g_steal_pointer(&r->labels);
    g_array_unref(r->keys);
    ids_clear(&r->ids);
    recorder_reset(r);
    return t;
}
