/* json_writer.c -- see json_writer.h. */
#include "json_writer.h"
#include "bits.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Nesting deeper than this is never written by cubemu; the writer keeps
 * going past it, only its pretty indentation saturates. */
#define JSON_WRITER_DEPTH 64
/* Doubles a writer remembers the text of, by their bits (a power of 2):
 * a report's per-link and per-node columns repeat a few values many
 * times, and finding a double's shortest exact text tries up to 17
 * precisions, each formatted and read back. */
#define JSON_WRITER_MEMO 64u

struct JsonWriter {
    FILE *out;
    gboolean pretty;
    int depth;
    /* Per level: whether a value has been written at it (a comma before
     * the next), and, after a key, that the value goes on the same line. */
    gboolean started[JSON_WRITER_DEPTH];
    gboolean after_key;
    /* The texts remembered: slot i holds memo_bits[i]'s when memo_used[i]. */
    uint64_t memo_bits[JSON_WRITER_MEMO];
    gboolean memo_used[JSON_WRITER_MEMO];
    char memo_text[JSON_WRITER_MEMO][JSON_DOUBLE_BUF];
};

const char *json_format_double(char buf[JSON_DOUBLE_BUF], double v)
{
    if (!isfinite(v)) {
        g_strlcpy(buf, "null", JSON_DOUBLE_BUF);
        return buf;
    }
    if (v == floor(v) && fabs(v) < 9007199254740992.0) {
        /* Integral and exact as an integer: -0.0 keeps its sign. */
        if (v == 0 && signbit(v))
            g_strlcpy(buf, "-0", JSON_DOUBLE_BUF);
        else
            g_snprintf(buf, JSON_DOUBLE_BUF, "%" G_GINT64_FORMAT, (gint64)v);
        return buf;
    }
    /* The shortest precision whose text reads back as the same bits; 17
     * significant digits always do. */
    for (int p = 1; p <= 17; p++) {
        char format[8];
        g_snprintf(format, sizeof format, "%%.%dg", p);
        g_ascii_formatd(buf, JSON_DOUBLE_BUF, format, v);
        double back = g_ascii_strtod(buf, NULL);
        if (memcmp(&back, &v, sizeof v) == 0)
            break;
    }
    return buf;
}

JsonWriter *json_writer_new(FILE *out, gboolean pretty)
{
    JsonWriter *w = g_new0(JsonWriter, 1);
    w->out = out;
    w->pretty = pretty;
    return w;
}

void json_writer_finish(JsonWriter *w)
{
    fputc('\n', w->out);
    g_free(w);
}

static void newline(JsonWriter *w, int depth)
{
    fputc('\n', w->out);
    for (int i = 0; i < depth; i++)
        fputs("  ", w->out);
}

static gboolean *started(JsonWriter *w)
{
    int d = w->depth < JSON_WRITER_DEPTH ? w->depth : JSON_WRITER_DEPTH - 1;
    return &w->started[d];
}

/* Before a value or a key: the comma and, pretty, the line break. A value
 * right after its key goes on the key's line. */
static void separate(JsonWriter *w)
{
    if (w->after_key) {
        w->after_key = FALSE;
        return;
    }
    gboolean *s = started(w);
    if (*s)
        fputc(',', w->out);
    if (w->pretty && w->depth > 0)
        newline(w, w->depth);
    *s = TRUE;
}

static void open_level(JsonWriter *w, char c)
{
    separate(w);
    fputc(c, w->out);
    w->depth++;
    *started(w) = FALSE;
}

static void close_level(JsonWriter *w, char c)
{
    gboolean had = *started(w);
    w->depth--;
    if (w->pretty && had)
        newline(w, w->depth);
    fputc(c, w->out);
}

void json_writer_begin_object(JsonWriter *w) { open_level(w, '{'); }
void json_writer_end_object(JsonWriter *w) { close_level(w, '}'); }
void json_writer_begin_array(JsonWriter *w) { open_level(w, '['); }
void json_writer_end_array(JsonWriter *w) { close_level(w, ']'); }

/* Whether S is printable ASCII with nothing to escape: written as it is.
 * Keys and most strings are, and the general case validates UTF-8 and
 * writes a byte at a time. */
static gboolean plain(const char *s, size_t *len)
{
    const unsigned char *p = (const unsigned char *)s;
    for (; *p; p++)
        if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\')
            return FALSE;
    *len = (size_t)(p - (const unsigned char *)s);
    return TRUE;
}

static void put_string(FILE *out, const char *s)
{
    size_t n;
    if (plain(s, &n)) {
        fputc('"', out);
        fwrite(s, 1, n, out);
        fputc('"', out);
        return;
    }
    g_autofree char *valid = g_utf8_validate(s, -1, NULL) ? NULL
                             : g_utf8_make_valid(s, -1);
    const unsigned char *p = (const unsigned char *)(valid ? valid : s);
    fputc('"', out);
    for (; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\b': fputs("\\b", out); break;
        case '\f': fputs("\\f", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

void json_writer_key(JsonWriter *w, const char *key)
{
    separate(w);
    put_string(w->out, key);
    fputs(w->pretty ? ": " : ":", w->out);
    w->after_key = TRUE;
}

void json_writer_string(JsonWriter *w, const char *s)
{
    separate(w);
    if (s)
        put_string(w->out, s);
    else
        fputs("null", w->out);
}

/* Digits of a 64-bit number, with a sign. */
#define JSON_INT_DIGITS 24

/* V in decimal, with a '-' when NEGATIVE, as printf's %d writes it
 * (printf's parsing of its format took most of a large report's
 * integers' time). */
static void put_uint(FILE *out, guint64 v, gboolean negative)
{
    char digits[JSON_INT_DIGITS];
    char *p = digits + sizeof digits;
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (negative)
        *--p = '-';
    fwrite(p, 1, (size_t)(digits + sizeof digits - p), out);
}

void json_writer_int(JsonWriter *w, gint64 v)
{
    separate(w);
    /* the magnitude in unsigned arithmetic: -INT64_MIN does not fit */
    put_uint(w->out, v < 0 ? 0 - (guint64)v : (guint64)v, v < 0);
}

void json_writer_uint(JsonWriter *w, guint64 v)
{
    separate(w);
    put_uint(w->out, v, FALSE);
}

void json_writer_double(JsonWriter *w, double v)
{
    separate(w);
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    /* a multiplicative hash's high bits pick the slot */
    unsigned slot = (unsigned)((bits * BITS_SPLITMIX64_GAMMA) >> 32)
                    % JSON_WRITER_MEMO;
    if (!w->memo_used[slot] || w->memo_bits[slot] != bits) {
        json_format_double(w->memo_text[slot], v);
        w->memo_bits[slot] = bits;
        w->memo_used[slot] = TRUE;
    }
    fputs(w->memo_text[slot], w->out);
}

void json_writer_bool(JsonWriter *w, gboolean v)
{
    separate(w);
    fputs(v ? "true" : "false", w->out);
}

void json_writer_null(JsonWriter *w)
{
    separate(w);
    fputs("null", w->out);
}
