/* fuzz_trace.c -- the trace reader (traces/file.c): the input is a trace
 * file. It is parsed twice: as given, where a mutated file almost always
 * fails the checksum (but the header and sections are read before it), and
 * with its last 4 bytes replaced by the CRC-32 of the rest, so that bad
 * structure gets past the checksum to the validation (the checksum is
 * bypassed here, in the harness; traces/ is unchanged). A trace that
 * parses is then used the way `cubemu trace` and the viewer use it: its
 * index built and queried, its title and topology named, and every export
 * written to /dev/null, the CSV also with the extreme --window values.
 *
 * Bounded: the index and the exports run only for traces of at most
 * FUZZ_MAX_NODES nodes (a 40-byte header can name a complete graph of
 * 2^26 processors, which is valid and costs memory by design).
 */
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "export.h"
#include "fuzz.h"
#include "trace.h"

/* The trailing checksum (traces/FORMAT.md): CRC-32 of every byte before
 * it, little-endian. */
#define FUZZ_TRACE_CRC_BYTES 4
#define FUZZ_MAX_NODES 4096u
/* Rows of a CSV written with a one-cycle window. */
#define FUZZ_MAX_ROWS 4096
/* Channels and times queried in the index. */
#define FUZZ_MAX_QUERIES 64u

static FILE *devnull;

static void use(const Trace *t)
{
    g_free(trace_title(t));
    g_free(trace_topology_text(t));
    g_free(trace_seconds_text(t, t->cycles));
    if (trace_nodes(t) > FUZZ_MAX_NODES)
        return;
    TraceIndex *x = trace_index_new(t);
    guint nch = MIN(t->channels->len, FUZZ_MAX_QUERIES);
    for (guint c = 0; c < nch; c++) {
        (void)trace_index_busy(x, c, 0, t->cycles);
        (void)trace_index_busy(x, c, t->cycles / 3, t->cycles / 2);
        (void)trace_index_at(x, c, t->cycles / 2);
        (void)trace_index_elements(x, c);
        (void)trace_index_messages(x, c);
    }
    for (guint q = 0; q <= FUZZ_MAX_QUERIES && t->cycles > 0; q++) {
        Tick when = t->cycles / FUZZ_MAX_QUERIES * q;
        uint32_t nodes;
        (void)trace_index_phase(x, when, &nodes);
        (void)trace_index_phase_begun(x, when, &nodes);
        (void)trace_index_node_phase(x, q % trace_nodes(t), when);
    }
    for (uint32_t v = 0; v < MIN(trace_nodes(t), FUZZ_MAX_QUERIES); v++) {
        guint count;
        (void)trace_index_out(x, v, &count);
        (void)trace_index_in(x, v, &count);
        for (int l = 0; l < t->topology.links; l++)
            (void)trace_index_find(x, v, (uint32_t)l);
    }
    trace_index_free(x);
    for (int f = 0; trace_export_formats[f].name; f++) {
        GError *e = NULL;
        if (!trace_export(t, (TraceExportFormat)f, 0, devnull, "/dev/null",
                          &e))
            fuzz_check_error(&e);
    }
    /* --window: the narrowest (a row per cycle, so only for short runs),
     * the whole run, the widest a Tick holds. */
    const Tick windows[] = { 1, MAX(t->cycles, 1), G_MAXINT64 };
    for (size_t i = t->cycles > FUZZ_MAX_ROWS; i < G_N_ELEMENTS(windows); i++) {
        GError *e = NULL;
        if (!trace_export(t, TRACE_EXPORT_CSV, windows[i], devnull,
                          "/dev/null", &e))
            fuzz_check_error(&e);
    }
}

static void parse(const guint8 *data, gsize len)
{
    GError *e = NULL;
    Trace *t = trace_parse("fuzz.trace", data, len, &e);
    if (!t) {
        fuzz_check_error(&e);
        return;
    }
    use(t);
    trace_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_init();
    if (!devnull && !(devnull = fopen("/dev/null", "w")))
        g_error("fuzz: cannot open /dev/null");
    parse(data, size);
    if (size < FUZZ_TRACE_CRC_BYTES)
        return 0;
    guint8 *fixed = g_memdup2(data, size);
    gsize body = size - FUZZ_TRACE_CRC_BYTES;
    uint32_t crc = (uint32_t)crc32_z(0, fixed, body);
    for (int i = 0; i < FUZZ_TRACE_CRC_BYTES; i++)
        fixed[body + (gsize)i] = (guint8)(crc >> (8 * i));
    parse(fixed, size);
    g_free(fixed);
    return 0;
}
