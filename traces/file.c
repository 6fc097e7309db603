/* file.c -- the trace file: writer and reader of the layout in
 * traces/FORMAT.md (little-endian, fixed-width records, a CRC-32 trailer from
 * zlib).
 *
 * The reader trusts nothing: every count is checked against the bytes that
 * are actually there before anything is allocated, the checksum before
 * any record is interpreted, and every index, time and ordering rule of
 * trace.h before the Trace is handed out. A bad file is an error message
 * naming the file and the first thing wrong, never a crash.
 */
#include "trace.h"

#include <errno.h>
#include <string.h>
#include <zlib.h>

/* "\x89CUBETR\n": the high first byte tells binary from a scenario's text
 * and catches 7-bit transfers, the newline catches line-ending mangling
 * (PNG's trick). */
static const guint8 trace_magic[8] = { 0x89, 'C', 'U', 'B', 'E', 'T', 'R', '\n' };

/* Byte sizes of the fixed parts (FORMAT.md); the reader checks counts
 * against these before it allocates. */
#define TRACE_FIXED_HEADER 104
#define TRACE_CHANNEL_BYTES 12
#define TRACE_MESSAGE_BYTES 40
#define TRACE_BUSY_BYTES 32
#define TRACE_MARK_BYTES 24
#define TRACE_CRC_BYTES 4
/* Strings carry a 16-bit length. */
#define TRACE_MAX_TEXT 65535
/* The largest machine cubemu can run (machine.h); a header claiming more
 * nodes is corrupt, and believing it would make the viewer allocate per
 * node for nothing. Dimensions: a node address has at most 64 bits. */
#define TRACE_MAX_NODES ((uint32_t)1 << TOPOLOGY_CUBE_MAX_DIMENSIONS)
#define TRACE_MAX_DIMENSIONS 64

/* Output is staged in a buffer this large, so the checksum runs over
 * large blocks and stdio sees few calls. */
#define TRACE_WRITE_BUFFER 65536

/* ---- CRC-32 ----------------------------------------------------------- */

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
    const char *name;
    guint8 buf[TRACE_WRITE_BUFFER];
    gsize len;
    uint32_t crc;
    gboolean failed;
} Writer;

static void writer_flush(Writer *w)
{
    if (w->failed || !w->len)
        return;
    w->crc = crc_update(w->crc, w->buf, w->len);
    if (fwrite(w->buf, 1, w->len, w->out) != w->len)
        w->failed = TRUE;
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

static void put_text(Writer *w, const char *s)
{
    gsize n = strlen(s ? s : "");
    if (n > TRACE_MAX_TEXT)
        n = (gsize)(g_utf8_find_prev_char(s, s + TRACE_MAX_TEXT + 1) - s);
    put_u(w, n, 2);
    put_bytes(w, s ? s : "", n);
}

static gsize text_size(const char *s)
{
    gsize n = strlen(s ? s : "");
    return 2 + (n > TRACE_MAX_TEXT
                ? (gsize)(g_utf8_find_prev_char(s, s + TRACE_MAX_TEXT + 1) - s)
                : n);
}

gboolean trace_write(const Trace *t, FILE *out, const char *name,
                     GError **error)
{
    Writer *w = g_new(Writer, 1);
    w->out = out;
    w->name = name;
    w->len = 0;
    w->failed = FALSE;
    w->crc = 0;

    gsize header = TRACE_FIXED_HEADER;
    for (guint i = 0; i < t->info->len; i++) {
        const TraceInfo *in = &g_array_index(t->info, TraceInfo, i);
        header += text_size(in->key) + text_size(in->value);
    }
    put_bytes(w, trace_magic, sizeof trace_magic);
    put_u(w, TRACE_VERSION_MAJOR, 2);
    put_u(w, TRACE_VERSION_MINOR, 2);
    put_u(w, header, 4);
    put_u(w, t->nodes, 4);
    put_u(w, t->dimensions, 4);
    put_u(w, (uint32_t)t->ports, 4);
    put_u(w, t->info->len, 4);
    put_u(w, (uint64_t)t->element_time, 8);
    put_u(w, (uint64_t)t->startup, 8);
    put_u(w, (uint64_t)t->cycles, 8);
    put_u(w, t->element_transfers, 8);
    put_u(w, t->channels->len, 8);
    put_u(w, t->messages->len, 8);
    put_u(w, t->busy->len, 8);
    put_u(w, t->labels->len, 8);
    put_u(w, t->marks->len, 8);
    for (guint i = 0; i < t->info->len; i++) {
        const TraceInfo *in = &g_array_index(t->info, TraceInfo, i);
        put_text(w, in->key);
        put_text(w, in->value);
    }
    for (guint i = 0; i < t->channels->len; i++) {
        const TraceChannel *c = &g_array_index(t->channels, TraceChannel, i);
        put_u(w, c->source, 4);
        put_u(w, c->dest, 4);
        put_u(w, c->dimension, 2);
        put_u(w, (guint8)c->direction, 1);
        put_u(w, 0, 1);
    }
    for (guint i = 0; i < t->messages->len; i++) {
        const TraceMessage *m = &g_array_index(t->messages, TraceMessage, i);
        put_u(w, m->id, 8);
        put_u(w, m->count, 8);
        put_u(w, (uint64_t)m->posted, 8);
        put_u(w, m->source, 4);
        put_u(w, m->dest, 4);
        put_u(w, (uint32_t)m->tag, 4);
        put_u(w, m->hops, 4);
    }
    for (guint i = 0; i < t->busy->len; i++) {
        const TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
        put_u(w, (uint64_t)b->start, 8);
        put_u(w, b->first, 8);
        put_u(w, b->count, 8);
        put_u(w, b->channel, 4);
        put_u(w, b->message, 4);
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
    writer_flush(w);
    uint32_t crc = w->crc;
    put_u(w, crc, 4);
    if (!w->failed && w->len && fwrite(w->buf, 1, w->len, out) != w->len)
        w->failed = TRUE;
    gboolean ok = !w->failed && fflush(out) == 0 && !ferror(out);
    if (!ok)
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO,
                    "%s: cannot write: %s", name, g_strerror(errno));
    g_free(w);
    return ok;
}

gboolean trace_save(const Trace *t, const char *path, GError **error)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO,
                    "%s: cannot write: %s", path, g_strerror(errno));
        return FALSE;
    }
    gboolean ok = trace_write(t, f, path, error);
    if (fclose(f) != 0 && ok) {
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_IO,
                    "%s: cannot write: %s", path, g_strerror(errno));
        ok = FALSE;
    }
    if (!ok)
        remove(path);
    return ok;
}

/* ---- reader ----------------------------------------------------------- */

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

/* Does a section of `count` records of `size` bytes fit in what is left
 * before the checksum? */
static gboolean section_fits(const Cursor *c, uint64_t count, gsize size)
{
    gsize left = c->len - TRACE_CRC_BYTES - c->pos;
    return count <= left / size;
}

static const char *const section_names[] = { "channel table", "message table",
                                       "busy records", "labels", "marks" };

static gboolean parse_header(Trace *t, Cursor *c, const char *name,
                             uint64_t counts[5], GError **error)
{
    if (!trace_looks_like_trace(c->p, c->len))
        return fail(error, TRACE_ERROR_INPUT, name,
                    "not a cubemu trace (it does not begin with the trace "
                    "magic; see traces/FORMAT.md)");
    if (c->len < 12)
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
    t->nodes = (uint32_t)get_u(c, 4);
    t->dimensions = (uint32_t)get_u(c, 4);
    t->ports = (int)(int32_t)get_u(c, 4);
    uint64_t ninfo = get_u(c, 4);
    t->element_time = (Tick)get_u(c, 8);
    t->startup = (Tick)get_u(c, 8);
    t->cycles = (Tick)get_u(c, 8);
    t->element_transfers = get_u(c, 8);
    for (int i = 0; i < 5; i++)
        counts[i] = get_u(c, 8);
    if (header < TRACE_FIXED_HEADER || header > c->len - TRACE_CRC_BYTES)
        return fail(error, TRACE_ERROR_INPUT, name,
                    "truncated or corrupt: the header claims %" G_GUINT64_FORMAT
                    " bytes, the file has %zu", (guint64)header, (size_t)c->len);
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
    c->pos = (gsize)header;       /* a later minor version may pad here */
    return TRUE;
}

static gboolean parse_sections(Trace *t, Cursor *c, const char *name,
                               const uint64_t counts[5], GError **error)
{
    static const gsize sizes[5] = { TRACE_CHANNEL_BYTES, TRACE_MESSAGE_BYTES,
                                    TRACE_BUSY_BYTES, 2, TRACE_MARK_BYTES };
    for (int s = 0; s < 5; s++) {
        if (!section_fits(c, counts[s], sizes[s]))
            return fail(error, TRACE_ERROR_INPUT, name,
                        "truncated or corrupt: the header announces %"
                        G_GUINT64_FORMAT " entries in the %s, more than the "
                        "%zu bytes left can hold", (guint64)counts[s],
                        section_names[s],
                        (size_t)(c->len - TRACE_CRC_BYTES - c->pos));
        switch (s) {
        case 0:
            g_array_set_size(t->channels, (guint)counts[s]);
            for (guint i = 0; i < t->channels->len; i++) {
                TraceChannel *ch = &g_array_index(t->channels, TraceChannel, i);
                ch->source = (uint32_t)get_u(c, 4);
                ch->dest = (uint32_t)get_u(c, 4);
                ch->dimension = (uint16_t)get_u(c, 2);
                ch->direction = (int8_t)(guint8)get_u(c, 1);
                get_u(c, 1);
            }
            break;
        case 1:
            g_array_set_size(t->messages, (guint)counts[s]);
            for (guint i = 0; i < t->messages->len; i++) {
                TraceMessage *m = &g_array_index(t->messages, TraceMessage, i);
                m->id = get_u(c, 8);
                m->count = get_u(c, 8);
                m->posted = (Tick)get_u(c, 8);
                m->source = (uint32_t)get_u(c, 4);
                m->dest = (uint32_t)get_u(c, 4);
                m->tag = (int32_t)(uint32_t)get_u(c, 4);
                m->hops = (uint32_t)get_u(c, 4);
            }
            break;
        case 2:
            g_array_set_size(t->busy, (guint)counts[s]);
            for (guint i = 0; i < t->busy->len; i++) {
                TraceBusy *b = &g_array_index(t->busy, TraceBusy, i);
                b->start = (Tick)get_u(c, 8);
                b->first = get_u(c, 8);
                b->count = get_u(c, 8);
                b->channel = (uint32_t)get_u(c, 4);
                b->message = (uint32_t)get_u(c, 4);
            }
            break;
        case 3:
            for (uint64_t i = 0; i < counts[s]; i++) {
                char *l = get_text(c, c->len - TRACE_CRC_BYTES);
                if (!l)
                    return fail(error, TRACE_ERROR_INPUT, name,
                                "truncated or corrupt: label %" G_GUINT64_FORMAT
                                " of %" G_GUINT64_FORMAT " does not fit or is "
                                "not UTF-8", (guint64)i + 1, (guint64)counts[s]);
                g_ptr_array_add(t->labels, l);
            }
            break;
        case 4:
            g_array_set_size(t->marks, (guint)counts[s]);
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
    gsize left = c->len - TRACE_CRC_BYTES - c->pos;
    if (left && t->version_minor <= TRACE_VERSION_MINOR)
        return fail(error, TRACE_ERROR_INPUT, name,
                    "corrupt: %zu bytes after the marks that the header does "
                    "not account for", (size_t)left);
    return TRUE;
}

/* The rules of trace.h, checked one by one; the first broken one is the
 * message. */
static gboolean validate(const Trace *t, const char *name, GError **error)
{
#define BAD(...) fail(error, TRACE_ERROR_INPUT, name, "corrupt: " __VA_ARGS__)
    const char *topology = trace_info(t, "topology");
    if (!topology || !*topology)
        return BAD("the header names no topology");
    if (t->nodes == 0 || t->nodes > TRACE_MAX_NODES)
        return BAD("the header says the machine has %u nodes (valid: 1..%u)",
                   t->nodes, TRACE_MAX_NODES);
    if (t->dimensions > TRACE_MAX_DIMENSIONS)
        return BAD("the header says the machine has %u dimensions (valid: "
                   "0..%d)", t->dimensions, TRACE_MAX_DIMENSIONS);
    if (t->element_time < 1)
        return BAD("element time %" G_GINT64_FORMAT " is not positive",
                   (gint64)t->element_time);
    if (t->cycles < 0 || t->startup < 0 || t->ports < 0)
        return BAD("negative cycles, startup or ports in the header");
    guint nch = t->channels->len;
    for (guint i = 0; i < nch; i++) {
        const TraceChannel *c = &g_array_index(t->channels, TraceChannel, i);
        if (c->source >= t->nodes || c->dest >= t->nodes)
            return BAD("channel %u joins nodes %u and %u of %u", i, c->source,
                       c->dest, t->nodes);
        if (c->dimension >= MAX(t->dimensions, 1u))
            return BAD("channel %u crosses dimension %u of %u", i,
                       c->dimension, t->dimensions);
        if (c->direction != 1 && c->direction != -1)
            return BAD("channel %u has direction %d (valid: 1, -1)", i,
                       c->direction);
    }
    for (guint i = 0; i < t->messages->len; i++) {
        const TraceMessage *m = &g_array_index(t->messages, TraceMessage, i);
        if (m->source >= t->nodes || m->dest >= t->nodes || m->count == 0)
            return BAD("message %u (source %u, dest %u, %" G_GUINT64_FORMAT
                       " elements) is impossible", i, m->source, m->dest,
                       (guint64)m->count);
    }
    uint64_t sum = 0;
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
            || b->count > (uint64_t)(t->cycles - b->start) / (uint64_t)t->element_time)
            return BAD("busy record %u [%" G_GINT64_FORMAT ", +%"
                       G_GUINT64_FORMAT " elements) lies outside the run's %"
                       G_GINT64_FORMAT " cycles", i, (gint64)b->start,
                       (guint64)b->count, (gint64)t->cycles);
        if (i) {
            const TraceBusy *p = &g_array_index(t->busy, TraceBusy, i - 1);
            if (p->channel > b->channel
                || (p->channel == b->channel
                    && p->start + (Tick)p->count * t->element_time > b->start))
                return BAD("busy records %u and %u are out of order or "
                           "overlap on one channel", i - 1, i);
        }
        sum += b->count;
    }
    if (sum != t->element_transfers)
        return BAD("the busy records carry %" G_GUINT64_FORMAT " elements, "
                   "the header says %" G_GUINT64_FORMAT, (guint64)sum,
                   (guint64)t->element_transfers);
    for (guint i = 0; i < t->marks->len; i++) {
        const TraceMark *m = &g_array_index(t->marks, TraceMark, i);
        if (m->label >= t->labels->len || m->nodes == 0 || m->node >= t->nodes
            || m->nodes > t->nodes - m->node)
            return BAD("mark %u names label %u of %u and nodes %u+%u of %u",
                       i, m->label, t->labels->len, m->node, m->nodes,
                       t->nodes);
        if (m->time < 0 || m->time > t->cycles)
            return BAD("mark %u at cycle %" G_GINT64_FORMAT " lies outside "
                       "the run", i, (gint64)m->time);
        if (i && g_array_index(t->marks, TraceMark, i - 1).time > m->time)
            return BAD("marks %u and %u are out of order", i - 1, i);
    }
    return TRUE;
#undef BAD
}

Trace *trace_parse(const char *name, const guint8 *data, gsize len,
                   GError **error)
{
    g_autoptr(Trace) t = trace_new();
    Cursor c = { data, len, 0 };
    uint64_t counts[5];
    if (!parse_header(t, &c, name, counts, error)
        || !parse_sections(t, &c, name, counts, error))
        return NULL;
    uint32_t want = crc_update(0, data, len - TRACE_CRC_BYTES);
    c.pos = len - TRACE_CRC_BYTES;
    uint32_t have = (uint32_t)get_u(&c, 4);
    if (want != have) {
        fail(error, TRACE_ERROR_INPUT, name, "corrupt: checksum mismatch "
             "(stored %08x, computed %08x)", have, want);
        return NULL;
    }
    if (!validate(t, name, error))
        return NULL;
    return g_steal_pointer(&t);
}

/* The whole file in memory; "PATH: cannot read: reason" on failure, the
 * reason from errno (GLib's messages would repeat the path). */
static guint8 *read_all(const char *path, gsize *len, GError **error)
{
    FILE *f = fopen(path, "rb");
    GByteArray *buf = g_byte_array_new();
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
