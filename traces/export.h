/* export.h -- a Trace in other tools' formats.
 *
 *  chrome  Chrome trace-event JSON (Perfetto, chrome://tracing): one
 *          process per node that has events, one thread per channel that
 *          carried something ("node 5 +x") with a slice ('X') per busy
 *          interval named after its message; per channel into a
 *          message's destination a receive thread on the destination
 *          ("node 6 from node 5 +x") with a slice ('B'/'E') per busy
 *          interval that brings its elements there; each message a flow
 *          ('s' on its first busy slice, 't' on each further hop, 'f'
 *          with "bp":"e" on the receive slice of its last element);
 *          startups holding a port as async spans; marks as instants,
 *          and as phase slices ('B'/'E': a node is in the phase it
 *          marked last) on each node's "node 5 phase" thread, or for a
 *          mark of every node on the machine's "phases (all nodes)"; a
 *          "machine (...)" process with counters ('C', sampled where
 *          they change): per link that carried something its busy
 *          channels, per message class its busy channels and messages
 *          in flight. ts and dur are ticks: 1 us of display time is 1
 *          tick; otherData gives time_unit and, when the trace has a
 *          tick length, tick_seconds; faults (format 2.2) each a
 *          track of the machine's process with a slice over the ticks
 *          it lasts and a global instant where it begins; a detoured
 *          message's slices say "detoured":true, its flow has cat
 *          "detour".
 *  paje    Paje (ViTE, pajeng): containers machine > node > channel for
 *          the nodes the records name (a channel's source, a message's
 *          ends, a startup's or a mark's node), a channel's state
 *          busy/idle, one link per message from its source to its
 *          destination, marks as events on their nodes, and per node a
 *          variable counting the startups holding its ports. Dates are
 *          cycles, or with tick_seconds seconds.
 *  csv     per window of cycles and per link (named by the topology: "+x
 *          elements", "dimension 3 utilisation"; on the complete graph,
 *          whose links are as many as its processors, the links that
 *          carried something): elements that started crossing in the
 *          window and utilisation (busy channel-cycles / (window x the
 *          link's channels)); the element columns of all rows add up to
 *          element_transfers. With tick_seconds the window bounds are
 *          also given in seconds.
 * An export's time, memory and output grow with the trace's records, not
 * with the machine its header names: nothing is written per node or per
 * link of the machine that the records do not name. Marks are written
 * node by node (Chrome: those not every node gave; Paje: all), so a
 * trace whose marks would be written for more than
 * TRACE_EXPORT_MARK_FLOOR + TRACE_EXPORT_MARK_PER_RECORD x its records
 * nodes is refused (TRACE_ERROR_INPUT): a recorded run's marks come with
 * the records of its nodes' work.
 * No SDL; errors are write errors, "NAME: cannot write: reason", and
 * those refusals.
 */
#ifndef CUBE_TRACE_EXPORT_H
#define CUBE_TRACE_EXPORT_H

#include "trace.h"

/* An index into trace_export_formats. */
typedef enum {
    TRACE_EXPORT_CHROME, TRACE_EXPORT_PAJE, TRACE_EXPORT_CSV, TRACE_EXPORT_COUNT
} TraceExportFormat;

/* How many lines a mark may become (see TRACE_EXPORT_MARK_FLOOR below):
 * none; one per node of a mark that is not every node's (a mark of every
 * node is one line); one per node of every mark. */
typedef enum {
    TRACE_EXPORT_MARKS_NONE,
    TRACE_EXPORT_MARKS_PARTIAL,
    TRACE_EXPORT_MARKS_PER_NODE
} TraceExportMarks;

/* One export format. trace_export_formats is the one table of them: the
 * command line parses --format and -o's extension from it and lists it in
 * its messages, its --help and `cubemu list --json`. */
typedef struct {
    const char *name;                 /* "chrome" */
    const char *const *aliases;       /* more names of it ("perfetto"),
                                       * NULL-terminated; or NULL */
    const char *const *extensions;    /* of an -o that names it (".json"),
                                       * NULL-terminated; or NULL */
    const char *description;          /* in parentheses after its names in
                                       * --format's help ("ViTE"), or NULL */
    gboolean windowed;                /* takes --window: cycles per row */
    TraceExportMarks marks;
    /* window > 0: refuse (TRACE_ERROR_INPUT) a window it cannot write;
     * NULL: any. */
    gboolean (*check_window)(const Trace *t, Tick window, GError **error);
    /* Write t; window <= 0 picks the default (windowed formats). */
    gboolean (*write)(const Trace *t, Tick window, FILE *out, GError **error);
} TraceExportFormatSpec;

/* Indexed by TraceExportFormat, ended by a NULL name. */
extern const TraceExportFormatSpec trace_export_formats[];

/* A format by its name or an alias, or by the extension of an output path
 * (.json, .paje, .csv); FALSE for none. */
gboolean trace_export_format_parse(const char *name, TraceExportFormat *format);
gboolean trace_export_format_of_path(const char *path, TraceExportFormat *format);
/* "chrome, perfetto, paje, csv", or with EXTENSIONS ".json, .paje, .csv". */
char *trace_export_valid_names(gboolean extensions);

/* The CSV window when none is given: one element-time per row, widened so
 * a long run gives at most this many rows. */
#define TRACE_CSV_MAX_ROWS 1000

/* A window so narrow that the CSV would have more rows than this, or
 * more rows x links cells than the next limit (a complete graph has a link
 * per processor), is refused: its counters would not fit in memory, and no
 * one reads it. The default window stays within both. */
#define TRACE_CSV_ROW_LIMIT 10000000
#define TRACE_CSV_CELL_LIMIT (1 << 25)

/* See above: marks written node by node, at most this many plus so many
 * per record. */
#define TRACE_EXPORT_MARK_FLOOR (1 << 22)
#define TRACE_EXPORT_MARK_PER_RECORD 64

/* window <= 0 picks the default above (csv only). FALSE with *error for a
 * write error, a window beyond TRACE_CSV_ROW_LIMIT rows, or marks beyond
 * the bound above. */
gboolean trace_export(const Trace *t, TraceExportFormat format,
                      Tick window, FILE *out, const char *name,
                      GError **error);
Tick trace_export_default_window(const Trace *t);

/* s as a JSON string, quotes and escapes included: the one escaper of the
 * project's hand-written JSON (the run report goes through json-glib). */
void trace_json_string(FILE *out, const char *s);

#endif
