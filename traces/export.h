/* export.h -- a Trace in other tools' formats.
 *
 *  chrome  Chrome trace-event JSON (Perfetto, chrome://tracing): one
 *          process per node, one thread per outgoing channel, a slice per
 *          busy interval named after its message; marks are instants.
 *          1 us on the time axis is one cycle.
 *  paje    Paje (ViTE, pajeng): containers machine > node > channel, a
 *          channel's state busy/idle, one link per message from its source
 *          to its destination, marks as events on their nodes.
 *  csv     per window of cycles and per (dimension, direction): elements
 *          that started crossing in the window and utilisation (busy
 *          channel-cycles / (window x channels)); the element columns of
 *          all rows add up to element_transfers.
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

/* A window so narrow that the CSV would have more rows than this is
 * refused: it would not fit in memory, and no one reads it. */
#define TRACE_CSV_ROW_LIMIT 10000000

/* window <= 0 picks the default above (csv only). FALSE with *error for a
 * write error or a window beyond TRACE_CSV_ROW_LIMIT rows. */
gboolean trace_export(const Trace *t, TraceExportFormat format,
                      Tick window, FILE *out, const char *name,
                      GError **error);
Tick trace_export_default_window(const Trace *t);

#endif
