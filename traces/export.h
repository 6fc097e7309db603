/* export.h -- a Trace in other tools' formats.
 *
 *  chrome  Chrome trace-event JSON (Perfetto, chrome://tracing): one
 *          process per node, one thread per channel that carried
 *          something ("node 5 +x"), a slice per busy interval named after
 *          its message; startups holding a port as async spans; marks as
 *          instants. The time axis is cycles (1 us = 1 cycle), or with
 *          tick_seconds microseconds of physical time.
 *  paje    Paje (ViTE, pajeng): containers machine > node > channel, a
 *          channel's state busy/idle, one link per message from its source
 *          to its destination, marks as events on their nodes, and per
 *          node a variable counting the startups holding its ports. Dates
 *          are cycles, or with tick_seconds seconds.
 *  csv     per window of cycles and per link (named by the topology: "+x
 *          elements", "dimension 3 utilisation"): elements that started
 *          crossing in the window and utilisation (busy channel-cycles /
 *          (window x the link's channels)); the element columns of all
 *          rows add up to element_transfers. With tick_seconds the window
 *          bounds are also given in seconds.
 * No SDL; errors are write errors, "NAME: cannot write: reason".
 */
#ifndef CUBE_TRACE_EXPORT_H
#define CUBE_TRACE_EXPORT_H

#include "trace.h"

typedef enum { TRACE_EXPORT_CHROME, TRACE_EXPORT_PAJE, TRACE_EXPORT_CSV } TraceExportFormat;

/* NULL-terminated, in enum order: "chrome", "paje", "csv". */
extern const char *const trace_export_format_names[];

/* The CSV window when none is given: one element-time per row, widened so
 * a long run gives at most this many rows. */
#define TRACE_CSV_MAX_ROWS 1000

/* A window so narrow that the CSV would have more rows than this, or
 * more rows x links cells than the next limit (a complete graph has a link
 * per processor), is refused: its counters would not fit in memory, and no
 * one reads it. The default window stays within both. */
#define TRACE_CSV_ROW_LIMIT 10000000
#define TRACE_CSV_CELL_LIMIT (1 << 25)

/* window <= 0 picks the default above (csv only). FALSE with *error for a
 * write error or a window beyond TRACE_CSV_ROW_LIMIT rows. */
gboolean trace_export(const Trace *t, TraceExportFormat format,
                      Tick window, FILE *out, const char *name,
                      GError **error);
Tick trace_export_default_window(const Trace *t);

/* s as a JSON string, quotes and escapes included: the one escaper of the
 * project's hand-written JSON (the run report goes through json-glib). */
void trace_json_string(FILE *out, const char *s);

#endif
