/* file.c -- the trace file: writer and reader of the layout in
 * traces/FORMAT.md (little-endian, fixed-width records, a CRC-32 trailer
 * from zlib).
 *
 * The reader trusts nothing: every count is checked against the bytes that
 * are actually there before anything is allocated, the checksum before
 * any record is interpreted, the topology is rebuilt through
 * machines/topology.h (which checks its ranges), and every index, time and
 * ordering rule of trace.h is checked before the Trace is handed out. A
 * bad file is an error message naming the file and the first thing wrong,
 * never a crash.
 */
#include "trace.h"
#include "output.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

/* "\x89CUBETR\n": the high first byte tells binary from a scenario's text
 * and catches 7-bit transfers, the newline catches line-ending mangling
 * (PNG's trick). */
static const guint8 trace_magic[8] = { 0x89, 'C', 'U', 'B', 'E', 'T', 'R', '\n' };

/* Byte sizes of the fixed parts (FORMAT.md); the reader checks counts
 * against these before it allocates. */
#define TRACE_FIXED_HEADER 144
#define TRACE_SIDE_BYTES 4
#define TRACE_CHANNEL_BYTES 8
#define TRACE_MESSAGE_BYTES 52
#define TRACE_BUSY_BYTES 32
#define TRACE_STARTUP_BYTES 24
#define TRACE_MARK_BYTES 24
#define TRACE_FAULT_BYTES 24
#define TRACE_COUNT_BYTES 8
#define TRACE_CRC_BYTES 4
/* The magic and the version: what any version's reader can look at. */
#define TRACE_VERSION_BYTES 12
/* The first minor version with the faults section and the detoured flag
 * (FORMAT.md). */
#define TRACE_MINOR_FAULTS 2
/* A fault entry's link field for a dead node. */
#define TRACE_FAULT_NODE UINT32_MAX
/* Message flags (byte 49 of a message record). */
#define TRACE_MESSAGE_DETOURED 0x01
/* Strings carry a 16-bit length. */
#define TRACE_MAX_TEXT 65535

/* Topology codes in the header (FORMAT.md) are each topology's
 * trace_code, the file's own numbers, so reordering machines/topology.h's
 * enum or table cannot change the format; a topology whose ops say
 * trace_shape has its wrap flag and sides in the header. */

/* Output is staged in a buffer this large, so the checksum runs over
 * large blocks and stdio sees few calls. */
#define TRACE_WRITE_BUFFER 65536

/* zlib's crc32 is CRC-32 with the IEEE 802.3 polynomial, reflected, with
 * the initial and final complement: the checksum FORMAT.md specifies (and
 * PNG's). crc32_z takes a size_t length, so no block is too long. */
static uint32_t crc_update(uint32_t crc, const guint8 *p, gsize len)
{
    return (uint32_t)crc32_z(crc, p, len);
}

/* ---- writer ----------------------------------------------------------- */

typedef struct {
    FILE *out;
    guint8 buf[TRACE_WRITE_BUFFER];
    gsize len;
    uint32_t crc;
    gboolean failed;
    int errnum;           /* errno of the failed write */
} Writer;

/* After a failed write the rest is dropped, but the buffer is still
 * emptied: the writer goes on to the end (and reports the failure there)
 * without writing past its buffer. */
static void writer_flush(Writer *w)
{
    if (!w->failed && w->len) {
        w->crc = crc_update(w->crc, w->buf, w->len);
        if (fwrite(w->buf, 1, w->len, w->out) != w->len) {
            w->failed = TRUE;
            w->errnum = errno ? errno : EIO;
        }
    }
    w->len = 0;
}

static void put_bytes(Writer *w, const void *p, gsize n)
{
    const guint8 *b = p;
    while (n) {
        if (w->len == sizeof w->buf)
            writer_flush(w);
        gsize take = MIN(n, sizeof w->buf - w->len);
        memcpy(w->buf + w->len, b, take);
        w->len += take;
        b += take;
        n -= take;
    }
}

static inline void put_u(Writer *w, uint64_t v, int bytes)
{
    if (w->len + (gsize)bytes > sizeof w->buf)
        writer_flush(w);
    for (int i = 0; i < bytes; i++)
        w->buf[w->len + (gsize)i] = (guint8)(v >> (8 * i));
    w->len += (gsize)bytes;
}

/* An IEEE 754 binary64, little-endian like every other field. */
static void put_f64(Writer *w, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    put_u(w, bits, 8);
}

static gsize text_length(const char *s)
{
    gsize n = strlen(s ? s : "");
    return n > TRACE_MAX_TEXT
               ? (gsize)(g_utf8_find_prev_char(s, s + TRACE_MAX_TEXT + 1) - s)
               : n;
}

static void put_text(Writer *w, const char *s)
{
    gsize n = text_length(s);
    put_u(w, n, 2);
    put_bytes(w, s ? s : "", n);
}

static void write_header(Writer *w, const Trace *t)
{
    const Topology *tp = &t->topology;
    gboolean shape = tp->ops->trace_shape;
    gsize header = TRACE_FIXED_HEADER
                   + (shape ? (gsize)tp->axes * TRACE_SIDE_BYTES : 0);
    for (guint i = 0; i < t->info->len; i++) {
        const TraceInfo *in = &g_array_index(t->info, TraceInfo, i);
        header += 4 + text_length(in->key) + text_length(in->value);
    }
    put_bytes(w, trace_magic, sizeof trace_magic);
    put_u(w, TRACE_VERSION_MAJOR, 2);
    put_u(w, TRACE_VERSION_MINOR, 2);
    put_u(w, header, 4);
    put_u(w, tp->ops->trace_code, 1);
    put_u(w, shape && tp->wrap, 1);
    put_u(w, t->startup_holds_port ? 1 : 0, 1);
    put_u(w, 0, 1);
    put_u(w, (uint64_t)tp->axes, 4);        /* 0 for a topology without axes */
    put_u(w, tp->nodes, 4);
    put_u(w, (uint64_t)tp->links, 4);
    put_u(w, (uint32_t)t->ports, 4);
    put_u(w, t->info->len, 4);
    put_f64(w, t->tick_seconds);
    for (MessageClass c = 0; c < CLASS_COUNT; c++) {
        put_u(w, (uint64_t)t->price[c].startup, 8);
        put_u(w, (uint64_t)t->price[c].element_time, 8);
    }
    put_u(w, (uint64_t)t->cycles, 8);
    put_u(w, t->element_transfers, 8);
    put_u(w, t->channels->len, 8);
    put_u(w, t->messages->len, 8);
    put_u(w, t->busy->len, 8);
    put_u(w, t->startups->len, 8);
    put_u(w, t->labels->len, 8);
    put_u(w, t->marks->len, 8);
    if (shape)
        for (int i = 0; i < tp->axes; i++)
            put_u(w, tp->side[i], TRACE_SIDE_BYTES);
    for (guint i = 0; i < t->info->len; i++) {
        const TraceInfo *in = &g_array_index(t->info, TraceInfo, i);
        put_text(w, in->key);
        put_text(w, in->value);
    }
}

static void write_records(Writer *w, const Trace *t)
{
    for (guint i = 0; i < t->channels->len; i++) {
        const TraceChannel *c = &g_array_index(t->channels, TraceChannel, i);
        put_u(w, c->source, 4);
        put_u(w, c->link, 4);
    }
    for (guint i = 0; i < t->messages->len; i++) {
        const TraceMessage *m = &g_array_index(t->messages, TraceMessage, i);
        put_u(w, m->id, 8);
        put_u(w, m->count, 8);
        put_u(w, (uint64_t)m->posted, 8);
        put_u(w, (uint64_t)m->element_time, 8);
        put_u(w, m->source, 4);
        put_u(w, m->dest, 4);
        put_u(w, (uint32_t)m->tag, 4);
        put_u(w, m->hops, 4);
        put_u(w, (uint64_t)m->cls, 1);
        put_u(w, m->detoured ? TRACE_MESSAGE_DETOURED : 0, 1);
        put_u(w, 0, 2);
    }
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        put_u(w, (uint64_t)b->start, 8);
        put_u(w, b->first, 8);
        put_u(w, b->count, 8);
        put_u(w, b->channel, 4);
        put_u(w, b->message, 4);
    }
    for (guint i = 0; i < t->startups->len; i++) {
        const TraceStartup *s = &g_array_index(t->startups, TraceStartup, i);
        put_u(w, (uint64_t)s->start, 8);
        put_u(w, (uint64_t)s->duration, 8);
        put_u(w, s->message, 4);
        put_u(w, s->link, 4);
    }
    for (guint i = 0; i < t->labels->len; i++)
        put_text(w, t->labels->pdata[i]);
    for (guint i = 0; i < t->marks->len; i++) {
        const TraceMark *m = &g_array_index(t->marks, TraceMark, i);
        put_u(w, (uint64_t)m->time, 8);
        put_u(w, m->label, 4);
        put_u(w, m->node, 4);
        put_u(w, m->nodes, 4);
        put_u(w, 0, 4);
    }
    /* 2.2: the faults, only where there are some, so that a fault-free
     * trace is what 2.1 wrote. */
    if (t->faults->len) {
        put_u(w, t->faults->len, TRACE_COUNT_BYTES);
        for (guint i = 0; i < t->faults->len; i++) {
            const FaultEntry *e = &g_array_index(t->faults, FaultEntry, i);
            put_u(w, e->node, 4);
            put_u(w, e->link < 0 ? TRACE_FAULT_NODE : (uint32_t)e->link, 4);
            put_u(w, (uint64_t)e->from, 8);
            put_u(w, (uint64_t)e->until, 8);
        }
    }
}

gboolean trace_write(const Trace *t, FILE *out, const char *name,
                     GError **error)
{
    if (t->cycles < 0 || t->cycles > TRACE_MAX_CYCLES) {
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO, "%s: cannot write: "
                    "a run of %" G_GINT64_FORMAT " cycles (a trace holds "
                    "0..2^62)", name, (gint64)t->cycles);
        return FALSE;
    }
    Writer *w = g_new(Writer, 1);
    w->out = out;
    w->len = 0;
    w->failed = FALSE;
    w->errnum = 0;
    w->crc = 0;
    write_header(w, t);
    write_records(w, t);
    writer_flush(w);
    uint32_t crc = w->crc;
    put_u(w, crc, TRACE_CRC_BYTES);
    writer_flush(w);
    int why = w->failed ? w->errnum : fflush(out) != 0 ? errno
              : ferror(out) ? EIO : 0;
    gboolean ok = why == 0;
    if (!ok)
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO,
                    "%s: cannot write: %s", name, g_strerror(why));
    g_free(w);
    return ok;
}

static gboolean trace_write_file(FILE *out, const char *path, void *t,
                                 GError **error)
{
    return trace_write(t, out, path, error);
}

gboolean trace_save(const Trace *t, const char *path, GError **error)
{
    return output_write_file(path, trace_write_file, (void *)t, error);
}

/* ---- reader ----------------------------------------------------------- */

/* The fixed header's reserved byte (traces/FORMAT.md), always 0 in 2.x. */
#define TRACE_RESERVED_BYTE 19

typedef struct {
    const guint8 *p;
    gsize len, pos;
} Cursor;

static uint64_t get_u(Cursor *c, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)c->p[c->pos + (gsize)i] << (8 * i);
    c->pos += (gsize)bytes;
    return v;
}

static double get_f64(Cursor *c)
{
    uint64_t bits = get_u(c, 8);
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static gboolean fail(GError **error, int code, const char *name,
                     const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static gboolean fail(GError **error, int code, const char *name,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(error, TRACE_ERROR, code, "%s: %s", name, what);
    return FALSE;
}

/* A length-prefixed string inside [pos, end); NULL if it does not fit or
 * is not UTF-8. */
static char *get_text(Cursor *c, gsize end)
{
    if (end - c->pos < 2)
        return NULL;
    gsize n = (gsize)get_u(c, 2);
    if (end - c->pos < n || !g_utf8_validate((const char *)c->p + c->pos,
                                              (gssize)n, NULL))
        return NULL;
    char *s = g_strndup((const char *)c->p + c->pos, n);
    c->pos += n;
    return s;
}

gboolean trace_looks_like_trace(const guint8 *data, gsize len)
{
    gsize n = MIN(len, sizeof trace_magic);
    return n > 0 && !memcmp(data, trace_magic, n);
}

/* The header's topology fields as written, before they are believed;
 * ops is the topology of the code. */
typedef struct {
    unsigned code, wrap, holds, reserved, axes;
    uint32_t nodes, links;
    uint32_t side[TOPOLOGY_MAX_AXES];
    const TopologyOps *ops;
} RawTopology;

/* "0 cube, 1 mesh, 2 complete": the codes a header may give. */
static char *topology_codes_text(void)
{
    GString *s = g_string_new(NULL);
    for (const TopologyOps *const *t = topology_registry; *t; t++)
        g_string_append_printf(s, "%s%u %s", s->len ? ", " : "",
                               (*t)->trace_code, (*t)->name);
    return g_string_free(s, FALSE);
}

/* "mesh": the topologies whose header has a wrap flag. */
static char *topology_wrap_text(void)
{
    GString *s = g_string_new(NULL);
    for (const TopologyOps *const *t = topology_registry; *t; t++)
        if ((*t)->trace_shape)
            g_string_append_printf(s, "%s%s", s->len ? " or " : "",
                                   (*t)->name);
    return g_string_free(s, FALSE);
}

enum { SECTION_CHANNELS, SECTION_MESSAGES, SECTION_BUSY, SECTION_STARTUPS,
       SECTION_LABELS, SECTION_MARKS, SECTIONS };

static const char *const section_names[SECTIONS] = {
    "channel table", "message table", "busy records", "startup records",
    "labels", "marks"
};

/* Does a section of `count` records of `size` bytes fit in what is left
 * before the checksum? */
static gboolean section_fits(const Cursor *c, uint64_t count, gsize size)
{
    gsize left = c->len - TRACE_CRC_BYTES - c->pos;
    return count <= left / size;
}

static gboolean parse_header(Trace *t, Cursor *c, const char *name,
                             RawTopology *raw, uint64_t counts[SECTIONS],
                             GError **error)
{
    if (!trace_looks_like_trace(c->p, c->len))
        return fail(error, TRACE_ERROR_INPUT, name,
                    "not a cubemu trace (it does not begin with the trace "
                    "magic; see traces/FORMAT.md)");
    if (c->len < TRACE_VERSION_BYTES)
        return fail(error, TRACE_ERROR_INPUT, name,
                    "truncated: %zu bytes, the trace header alone is %d",
                    (size_t)c->len, TRACE_FIXED_HEADER);
    c->pos = sizeof trace_magic;
    t->version_major = (unsigned)get_u(c, 2);
    t->version_minor = (unsigned)get_u(c, 2);
    if (t->version_major != TRACE_VERSION_MAJOR)
        return fail(error, TRACE_ERROR_VERSION, name,
                    "trace format version %u.%u is not supported (this "
                    "cubemu reads version %d.x; re-record the trace with it)",
                    t->version_major, t->version_minor, TRACE_VERSION_MAJOR);
    if (c->len < TRACE_FIXED_HEADER + TRACE_CRC_BYTES)
        return fail(error, TRACE_ERROR_INPUT, name,
                    "truncated: %zu bytes, the trace header alone is %d",
                    (size_t)c->len, TRACE_FIXED_HEADER);
    uint64_t header = get_u(c, 4);
    raw->code = (unsigned)get_u(c, 1);
    raw->wrap = (unsigned)get_u(c, 1);
    raw->holds = (unsigned)get_u(c, 1);
    raw->reserved = (unsigned)get_u(c, 1);
    raw->axes = (unsigned)get_u(c, 4);
    raw->nodes = (uint32_t)get_u(c, 4);
    raw->links = (uint32_t)get_u(c, 4);
    t->ports = (int)(int32_t)get_u(c, 4);
    uint64_t ninfo = get_u(c, 4);
    t->tick_seconds = get_f64(c);
    for (MessageClass k = 0; k < CLASS_COUNT; k++) {
        t->price[k].startup = (Tick)get_u(c, 8);
        t->price[k].element_time = (Tick)get_u(c, 8);
    }
    t->cycles = (Tick)get_u(c, 8);
    t->element_transfers = get_u(c, 8);
    for (int i = 0; i < SECTIONS; i++)
        counts[i] = get_u(c, 8);
    if (header < TRACE_FIXED_HEADER || header > c->len - TRACE_CRC_BYTES)
        return fail(error, TRACE_ERROR_INPUT, name,
                    "truncated or corrupt: the header claims %" G_GUINT64_FORMAT
                    " bytes, the file has %zu", (guint64)header, (size_t)c->len);
    raw->ops = topology_find_trace_code(raw->code);
    if (!raw->ops) {
        g_autofree char *valid = topology_codes_text();
        return fail(error, TRACE_ERROR_INPUT, name,
                    "corrupt: topology code %u (valid: %s)", raw->code, valid);
    }
    if (raw->ops->trace_shape) {
        if (raw->axes < 1 || raw->axes > TOPOLOGY_MAX_AXES
            || header - c->pos < (uint64_t)raw->axes * TRACE_SIDE_BYTES)
            return fail(error, TRACE_ERROR_INPUT, name,
                        "truncated or corrupt: a %s of %u axes (valid: "
                        "1..%d) in a %" G_GUINT64_FORMAT "-byte header",
                        raw->ops->name, raw->axes, TOPOLOGY_MAX_AXES,
                        (guint64)header);
        for (unsigned i = 0; i < raw->axes; i++)
            raw->side[i] = (uint32_t)get_u(c, TRACE_SIDE_BYTES);
    }
    for (uint64_t i = 0; i < ninfo; i++) {
        char *key = get_text(c, (gsize)header);
        char *value = key ? get_text(c, (gsize)header) : NULL;
        if (!value) {
            g_free(key);
            return fail(error, TRACE_ERROR_INPUT, name,
                        "corrupt header: string %" G_GUINT64_FORMAT " of %"
                        G_GUINT64_FORMAT " does not fit or is not UTF-8",
                        (guint64)i + 1, (guint64)ninfo);
        }
        TraceInfo in = { key, value };
        g_array_append_val(t->info, in);
    }
    /* 2.1: the classes whose messages use memory paths, if any (an info
     * string, which 2.0 readers ignore) */
    const char *paths = trace_info(t, "memory-paths");
    g_auto(GStrv) words = paths ? g_strsplit(paths, " ", -1) : NULL;
    for (MessageClass k = 0; words && k < CLASS_COUNT; k++)
        t->price[k].memory_path = g_strv_contains((const char *const *)words,
                                                  message_class_name(k));
    c->pos = (gsize)header;       /* a later minor version may pad here */
    return TRUE;
}

static void parse_section(Trace *t, Cursor *c, int s, uint64_t count)
{
    switch (s) {
    case SECTION_CHANNELS:
        g_array_set_size(t->channels, (guint)count);
        for (guint i = 0; i < t->channels->len; i++) {
            TraceChannel *ch = &g_array_index(t->channels, TraceChannel, i);
            ch->source = (uint32_t)get_u(c, 4);
            ch->link = (uint32_t)get_u(c, 4);
        }
        break;
    case SECTION_MESSAGES:
        g_array_set_size(t->messages, (guint)count);
        for (guint i = 0; i < t->messages->len; i++) {
            TraceMessage *m = &g_array_index(t->messages, TraceMessage, i);
            m->id = get_u(c, 8);
            m->count = get_u(c, 8);
            m->posted = (Tick)get_u(c, 8);
            m->element_time = (Tick)get_u(c, 8);
            m->source = (uint32_t)get_u(c, 4);
            m->dest = (uint32_t)get_u(c, 4);
            m->tag = (int32_t)(uint32_t)get_u(c, 4);
            m->hops = (uint32_t)get_u(c, 4);
            /* Out-of-range classes are caught by validate(). */
            m->cls = (MessageClass)get_u(c, 1);
            /* Before 2.2 the flags byte was reserved and written 0. */
            m->detoured = (get_u(c, 1) & TRACE_MESSAGE_DETOURED) != 0;
            get_u(c, 2);
        }
        break;
    case SECTION_BUSY:
        g_array_set_size(t->busy, (guint)count);
        for (guint i = 0; i < t->busy->len; i++) {
            TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
            b->start = (Tick)get_u(c, 8);
            b->first = get_u(c, 8);
            b->count = get_u(c, 8);
            b->channel = (uint32_t)get_u(c, 4);
            b->message = (uint32_t)get_u(c, 4);
        }
        break;
    case SECTION_STARTUPS:
        g_array_set_size(t->startups, (guint)count);
        for (guint i = 0; i < t->startups->len; i++) {
            TraceStartup *st = &g_array_index(t->startups, TraceStartup, i);
            st->start = (Tick)get_u(c, 8);
            st->duration = (Tick)get_u(c, 8);
            st->message = (uint32_t)get_u(c, 4);
            st->link = (uint32_t)get_u(c, 4);
        }
        break;
    case SECTION_MARKS:
        g_array_set_size(t->marks, (guint)count);
        for (guint i = 0; i < t->marks->len; i++) {
            TraceMark *m = &g_array_index(t->marks, TraceMark, i);
            m->time = (Tick)get_u(c, 8);
            m->label = (uint32_t)get_u(c, 4);
            m->node = (uint32_t)get_u(c, 4);
            m->nodes = (uint32_t)get_u(c, 4);
            get_u(c, 4);
        }
        break;
    }
}

/* 2.2's faults section: a count, then the entries (checked later, in
 * validate_faults). */
static gboolean parse_faults(Trace *t, Cursor *c, const char *name,
                             GError **error)
{
    if (!section_fits(c, 1, TRACE_COUNT_BYTES))
        return fail(error, TRACE_ERROR_INPUT, name,
                    "truncated or corrupt: %zu bytes after the marks, too "
                    "few for the faults section's count",
                    (size_t)(c->len - TRACE_CRC_BYTES - c->pos));
    uint64_t count = get_u(c, TRACE_COUNT_BYTES);
    if (!section_fits(c, count, TRACE_FAULT_BYTES))
        return fail(error, TRACE_ERROR_INPUT, name,
                    "truncated or corrupt: the faults section announces %"
                    G_GUINT64_FORMAT " entries, more than the %zu bytes "
                    "left can hold", (guint64)count,
                    (size_t)(c->len - TRACE_CRC_BYTES - c->pos));
    g_array_set_size(t->faults, (guint)count);
    for (guint i = 0; i < t->faults->len; i++) {
        FaultEntry *e = &g_array_index(t->faults, FaultEntry, i);
        e->node = (uint32_t)get_u(c, 4);
        uint32_t link = (uint32_t)get_u(c, 4);
        /* Out-of-range links are caught by validate_faults. */
        e->link = link == TRACE_FAULT_NODE ? -1
                  : link > (uint32_t)INT_MAX ? INT_MAX : (int)link;
        e->from = (Tick)get_u(c, 8);
        e->until = (Tick)get_u(c, 8);
    }
    return TRUE;
}

static gboolean parse_sections(Trace *t, Cursor *c, const char *name,
                               const uint64_t counts[SECTIONS], GError **error)
{
    /* Labels are at least their 2-byte length each. */
    static const gsize sizes[SECTIONS] = {
        TRACE_CHANNEL_BYTES, TRACE_MESSAGE_BYTES, TRACE_BUSY_BYTES,
        TRACE_STARTUP_BYTES, 2, TRACE_MARK_BYTES
    };
    for (int s = 0; s < SECTIONS; s++) {
        if (!section_fits(c, counts[s], sizes[s]))
            return fail(error, TRACE_ERROR_INPUT, name,
                        "truncated or corrupt: the header announces %"
                        G_GUINT64_FORMAT " entries in the %s, more than the "
                        "%zu bytes left can hold", (guint64)counts[s],
                        section_names[s],
                        (size_t)(c->len - TRACE_CRC_BYTES - c->pos));
        if (s != SECTION_LABELS) {
            /* Room for the section's array first: a trace too large for
             * the memory this process may use is an error, not an abort. */
            GArray *const arrays[SECTIONS] = { t->channels, t->messages,
                                              t->busy, t->startups, NULL,
                                              t->marks };
            gsize bytes = (gsize)counts[s] * g_array_get_element_size(arrays[s]);
            gpointer probe = g_try_malloc(bytes);
            if (bytes && !probe)
                return fail(error, TRACE_ERROR_IO, name, "cannot allocate %"
                            G_GSIZE_FORMAT " bytes (%.1f MiB) for the %s",
                            bytes, (double)bytes / 1048576.0,
                            section_names[s]);
            g_free(probe);
            parse_section(t, c, s, counts[s]);
            continue;
        }
        for (uint64_t i = 0; i < counts[s]; i++) {
            char *l = get_text(c, c->len - TRACE_CRC_BYTES);
            if (!l)
                return fail(error, TRACE_ERROR_INPUT, name,
                            "truncated or corrupt: label %" G_GUINT64_FORMAT
                            " of %" G_GUINT64_FORMAT " does not fit or is "
                            "not UTF-8", (guint64)i + 1, (guint64)counts[s]);
            g_ptr_array_add(t->labels, l);
        }
    }
    gsize left = c->len - TRACE_CRC_BYTES - c->pos;
    if (left && t->version_minor >= TRACE_MINOR_FAULTS) {
        if (!parse_faults(t, c, name, error))
            return FALSE;
        left = c->len - TRACE_CRC_BYTES - c->pos;
    }
    if (left && t->version_minor <= TRACE_VERSION_MINOR)
        return fail(error, TRACE_ERROR_INPUT, name,
                    "corrupt: %zu bytes after the marks that the header does "
                    "not account for", (size_t)left);
    return TRUE;
}

#define BAD(...) fail(error, TRACE_ERROR_INPUT, name, "corrupt: " __VA_ARGS__)

/* The topology from the header, built by its ops (trace_build, through
 * machines/topology.h's constructors), which refuse what no machine can
 * be; then the header's node and link counts must be what it built. */
static gboolean validate_topology(Trace *t, const RawTopology *raw,
                                  const char *name, GError **error)
{
    g_autofree char *why = NULL;
    const TopologyOps *ops = raw->ops;
    if (!ops)                     /* parse_header refused it */
        return BAD("topology code %u", raw->code);
    const char *kind = ops->name;
    if (!ops->trace_build(&t->topology, raw->axes, raw->nodes, raw->wrap != 0,
                          raw->side, &why))
        return BAD("the header's %s with %u axes is not a machine%s%s", kind,
                   raw->axes, why ? ": " : "", why ? why : "");
    if (raw->wrap > 1 || (raw->wrap && !ops->trace_shape)) {
        g_autofree char *wraps = topology_wrap_text();
        return BAD("wrap %u in the header (valid: 0, or 1 for a %s)",
                   raw->wrap, wraps);
    }
    if (raw->holds > 1)
        return BAD("startups-hold-a-port flag %u (valid: 0, 1)", raw->holds);
    /* Checked after the checksum, like the fields around it, so that a
     * damaged file is reported as damaged. A minor version adds fields only
     * after the info strings (traces/FORMAT.md, "Versions"), so a nonzero
     * byte that the checksum vouches for was not written by a 2.x writer. */
    if (raw->reserved)
        return BAD("reserved header byte %d is %u, not 0",
                   TRACE_RESERVED_BYTE, raw->reserved);
    t->startup_holds_port = raw->holds == 1;
    if (t->topology.nodes != raw->nodes
        || (uint32_t)t->topology.links != raw->links)
        return BAD("the header says %u nodes and %u links; that %s has %u "
                   "and %d", raw->nodes, raw->links, kind, t->topology.nodes,
                   t->topology.links);
    return TRUE;
}

static gboolean validate_header(const Trace *t, const char *name,
                                GError **error)
{
    for (MessageClass k = 0; k < CLASS_COUNT; k++) {
        const MachinePrice *p = &t->price[k];
        if (p->startup < 0 || p->startup > MACHINE_MAX_TIME
            || p->element_time < 1 || p->element_time > MACHINE_MAX_TIME)
            return BAD("%s startup %" G_GINT64_FORMAT " and element time %"
                       G_GINT64_FORMAT " (valid: 0..%lld and 1..%lld)",
                       message_class_name(k), (gint64)p->startup,
                       (gint64)p->element_time, MACHINE_MAX_TIME,
                       MACHINE_MAX_TIME);
    }
    if (!isfinite(t->tick_seconds) || t->tick_seconds < 0)
        return BAD("tick length %g seconds (valid: 0 for none, or positive)",
                   t->tick_seconds);
    if (t->cycles < 0 || t->ports < 0)
        return BAD("negative cycles or ports in the header");
    if (t->cycles > TRACE_MAX_CYCLES)
        return BAD("the run lasts %" G_GINT64_FORMAT " cycles (valid: at "
                   "most 2^62)", (gint64)t->cycles);
    return TRUE;
}

/* Channels: in the topology, strictly ordered by (source, link); their far
 * ends are filled in here. */
static gboolean validate_channels(Trace *t, const char *name, GError **error)
{
    const Topology *tp = &t->topology;
    for (guint i = 0; i < t->channels->len; i++) {
        TraceChannel *c = &g_array_index(t->channels, TraceChannel, i);
        if (c->source >= tp->nodes || c->link >= (uint32_t)tp->links)
            return BAD("channel %u leaves node %u on link %u (the machine "
                       "has %u nodes and %d links)", i, c->source, c->link,
                       tp->nodes, tp->links);
        c->dest = topology_neighbour(tp, c->source, (int)c->link);
        if (c->dest == TOPOLOGY_NONE) {
            char link[TOPOLOGY_LINK_NAME_MAX];
            trace_link_name(t, c->link, link, sizeof link);
            return BAD("channel %u leaves node %u on %s, a link that node "
                       "does not have", i, c->source, link);
        }
        c->direction = topology_direction(tp, c->source, (int)c->link);
        if (i) {
            const TraceChannel *p = &g_array_index(t->channels, TraceChannel, i - 1);
            if (p->source > c->source
                || (p->source == c->source && p->link >= c->link))
                return BAD("channels %u and %u are out of order or repeated",
                           i - 1, i);
        }
    }
    return TRUE;
}

static gboolean validate_messages(const Trace *t, const char *name,
                                  GError **error)
{
    uint32_t nodes = trace_nodes(t);
    for (guint i = 0; i < t->messages->len; i++) {
        const TraceMessage *m = &g_array_index(t->messages, TraceMessage, i);
        if (m->source >= nodes || m->dest >= nodes || m->count == 0)
            return BAD("message %u (source %u, dest %u, %" G_GUINT64_FORMAT
                       " elements) is impossible", i, m->source, m->dest,
                       (guint64)m->count);
        if ((unsigned)m->cls >= CLASS_COUNT || m->element_time < 1
            || m->element_time > MACHINE_MAX_TIME)
            return BAD("message %u has class %u and element time %"
                       G_GINT64_FORMAT " (valid: class 0 or 1, element time "
                       "1..%lld)", i, (unsigned)m->cls,
                       (gint64)m->element_time, MACHINE_MAX_TIME);
    }
    return TRUE;
}

static gboolean validate_busy(const Trace *t, const char *name, GError **error)
{
    guint nch = t->channels->len;
    uint64_t sum = 0;
    guint channels_seen = 0;
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        if (b->channel >= nch || b->message >= t->messages->len)
            return BAD("busy record %u names channel %u of %u and message %u "
                       "of %u", i, b->channel, nch, b->message,
                       t->messages->len);
        const TraceMessage *m = &g_array_index(t->messages, TraceMessage,
                                               b->message);
        if (b->count == 0 || b->first >= m->count
            || b->count > m->count - b->first)
            return BAD("busy record %u carries elements %" G_GUINT64_FORMAT
                       "+%" G_GUINT64_FORMAT " of a %" G_GUINT64_FORMAT
                       "-element message", i, (guint64)b->first,
                       (guint64)b->count, (guint64)m->count);
        if (b->start < 0 || b->start > t->cycles
            || b->count > (uint64_t)(t->cycles - b->start)
                          / (uint64_t)m->element_time)
            return BAD("busy record %u [%" G_GINT64_FORMAT ", +%"
                       G_GUINT64_FORMAT " elements) lies outside the run's %"
                       G_GINT64_FORMAT " cycles", i, (gint64)b->start,
                       (guint64)b->count, (gint64)t->cycles);
        if (i) {
            const TraceBusy *p = &g_array_index(t->busy, TraceBusy, i - 1);
            if (p->channel > b->channel
                || (p->channel == b->channel
                    && trace_busy_end(t, p) > b->start))
                return BAD("busy records %u and %u are out of order or "
                           "overlap on one channel", i - 1, i);
        }
        channels_seen += !i || g_array_index(t->busy, TraceBusy, i - 1).channel
                                   != b->channel;
        sum += b->count;
    }
    /* Sorted by channel and all below nch: every channel was seen iff as
     * many distinct ones appeared as the table has. */
    if (channels_seen != nch)
        return BAD("%u of the %u channels in the table carried nothing (the "
                   "table lists only channels that did)", nch - channels_seen,
                   nch);
    if (sum != t->element_transfers)
        return BAD("the busy records carry %" G_GUINT64_FORMAT " elements, "
                   "the header says %" G_GUINT64_FORMAT, (guint64)sum,
                   (guint64)t->element_transfers);
    return TRUE;
}

static gboolean validate_startups(const Trace *t, const char *name,
                                  GError **error)
{
    if (t->startups->len && !t->startup_holds_port)
        return BAD("%u startup records, but the header says startups do not "
                   "hold a port", t->startups->len);
    for (guint i = 0; i < t->startups->len; i++) {
        const TraceStartup *s = &g_array_index(t->startups, TraceStartup, i);
        if (s->message >= t->messages->len)
            return BAD("startup record %u names message %u of %u", i,
                       s->message, t->messages->len);
        const TraceMessage *m = &g_array_index(t->messages, TraceMessage,
                                               s->message);
        if (s->link >= (uint32_t)t->topology.links
            || topology_neighbour(&t->topology, m->source, (int)s->link)
                   == TOPOLOGY_NONE)
            return BAD("startup record %u holds link %u of node %u, which it "
                       "does not have", i, s->link, m->source);
        if (s->duration != t->price[m->cls].startup)
            return BAD("startup record %u lasts %" G_GINT64_FORMAT " cycles; "
                       "a %s message's startup is %" G_GINT64_FORMAT, i,
                       (gint64)s->duration, message_class_name(m->cls),
                       (gint64)t->price[m->cls].startup);
        if (s->start < 0 || s->start > t->cycles
            || s->duration > t->cycles - s->start)
            return BAD("startup record %u [%" G_GINT64_FORMAT ", +%"
                       G_GINT64_FORMAT ") lies outside the run's %"
                       G_GINT64_FORMAT " cycles", i, (gint64)s->start,
                       (gint64)s->duration, (gint64)t->cycles);
        if (i) {
            const TraceStartup *p = &g_array_index(t->startups, TraceStartup, i - 1);
            if (p->start > s->start
                || (p->start == s->start && p->message >= s->message))
                return BAD("startup records %u and %u are out of order", i - 1,
                           i);
        }
    }
    return TRUE;
}

static gboolean validate_marks(const Trace *t, const char *name,
                               GError **error)
{
    uint32_t nodes = trace_nodes(t);
    for (guint i = 0; i < t->marks->len; i++) {
        const TraceMark *m = &g_array_index(t->marks, TraceMark, i);
        if (m->label >= t->labels->len || m->nodes == 0 || m->node >= nodes
            || m->nodes > nodes - m->node)
            return BAD("mark %u names label %u of %u and nodes %u+%u of %u",
                       i, m->label, t->labels->len, m->node, m->nodes, nodes);
        if (m->time < 0 || m->time > t->cycles)
            return BAD("mark %u at cycle %" G_GINT64_FORMAT " lies outside "
                       "the run", i, (gint64)m->time);
        if (i && g_array_index(t->marks, TraceMark, i - 1).time > m->time)
            return BAD("marks %u and %u are out of order", i - 1, i);
    }
    return TRUE;
}

/* Faults: nodes and links the machine has, intervals that are not empty,
 * dead nodes for good, sorted by (node, link, from) with a node at most
 * once. Intervals of one channel may overlap (`0-1, 0-1@5..9` names
 * both), as the fault set keeps them. */
static gboolean validate_faults(const Trace *t, const char *name,
                                GError **error)
{
    const Topology *tp = &t->topology;
    for (guint i = 0; i < t->faults->len; i++) {
        const FaultEntry *e = &g_array_index(t->faults, FaultEntry, i);
        if (e->node >= tp->nodes)
            return BAD("fault %u names node %u of %u", i, e->node, tp->nodes);
        if (e->link >= 0 && (e->link >= tp->links
                             || topology_neighbour(tp, e->node, e->link)
                                    == TOPOLOGY_NONE))
            return BAD("fault %u names link %d of node %u, which it does not "
                       "have", i, e->link, e->node);
        if (e->link < 0 ? e->from != 0 || e->until != FAULTS_FOREVER
                        : e->from < 0 || e->until <= e->from)
            return BAD("fault %u lasts [%" G_GINT64_FORMAT ", %"
                       G_GINT64_FORMAT ") (valid: a dead node for good, a "
                       "channel over a nonempty interval from 0 on)", i,
                       (gint64)e->from, (gint64)e->until);
        if (i) {
            const FaultEntry *p = &g_array_index(t->faults, FaultEntry, i - 1);
            if (p->node > e->node
                || (p->node == e->node
                    && (p->link > e->link
                        || (p->link == e->link
                            && (e->link < 0 || p->from > e->from)))))
                return BAD("faults %u and %u are out of order or repeated",
                           i - 1, i);
        }
    }
    return TRUE;
}

#undef BAD

Trace *trace_parse(const char *name, const guint8 *data, gsize len,
                   GError **error)
{
    g_autoptr(Trace) t = trace_new();
    Cursor c = { data, len, 0 };
    RawTopology raw = { 0 };
    uint64_t counts[SECTIONS];
    if (!parse_header(t, &c, name, &raw, counts, error)
        || !parse_sections(t, &c, name, counts, error))
        return NULL;
    uint32_t want = crc_update(0, data, len - TRACE_CRC_BYTES);
    c.pos = len - TRACE_CRC_BYTES;
    uint32_t have = (uint32_t)get_u(&c, TRACE_CRC_BYTES);
    if (want != have) {
        fail(error, TRACE_ERROR_INPUT, name, "corrupt: checksum mismatch "
             "(stored %08x, computed %08x)", have, want);
        return NULL;
    }
    /* In trace.h's order: what later rules rely on is checked first. */
    if (!validate_topology(t, &raw, name, error)
        || !validate_header(t, name, error)
        || !validate_channels(t, name, error)
        || !validate_messages(t, name, error)
        || !validate_busy(t, name, error)
        || !validate_startups(t, name, error)
        || !validate_marks(t, name, error)
        || !validate_faults(t, name, error))
        return NULL;
    return g_steal_pointer(&t);
}

/* The whole file in memory; "PATH: cannot read: reason" on failure, the
 * reason from errno (GLib's messages would repeat the path). */
static guint8 *read_all(const char *path, gsize *len, GError **error)
{
    FILE *f = fopen(path, "rb");
    /* Room for the whole file first: a trace too large for the memory
     * this process may use is an error, not an abort. */
    struct stat st;
    gsize want = f && fstat(fileno(f), &st) == 0 && st.st_size > 0
                 ? (gsize)st.st_size : 0;
    gpointer probe = want ? g_try_malloc(want) : NULL;
    if (want && !probe) {
        fclose(f);
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO, "%s: cannot allocate %"
                    G_GSIZE_FORMAT " bytes (%.1f MiB) to read it", path, want,
                    (double)want / 1048576.0);
        return NULL;
    }
    g_free(probe);
    GByteArray *buf = g_byte_array_sized_new((guint)MIN(want, G_MAXUINT));
    guint8 chunk[TRACE_WRITE_BUFFER];
    size_t n;
    while (f && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        g_byte_array_append(buf, chunk, (guint)n);
    if (!f || ferror(f)) {
        int why = errno;
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO,
                    "%s: cannot read: %s", path, g_strerror(why));
        if (f)
            fclose(f);
        g_byte_array_unref(buf);
        return NULL;
    }
    fclose(f);
    *len = buf->len;
    /* An empty array frees to NULL: a 0-byte file (a run killed before
     * its first write) is still read, and refused by the parser. */
    guint8 empty = 0;
    if (!buf->len)
        g_byte_array_append(buf, &empty, 1);
    return g_byte_array_free(buf, FALSE);
}

Trace *trace_load(const char *path, GError **error)
{
    gsize len = 0;
    g_autofree guint8 *data = read_all(path, &len, error);
    if (!data)
        return NULL;
    return trace_parse(path, data, len, error);
}
