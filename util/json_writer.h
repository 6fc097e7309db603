/* json_writer.h -- JSON written straight to a stream, in the one layout
 * cubemu's reports use (run/report.c; docs/report.md).
 *
 * Compact: one line, no spaces ({"a":1,"b":[1,2]}). Pretty: two spaces an
 * indent level, "key": value, one member or element a line, and empty
 * objects and arrays as {} and [] (Python's json.dumps(indent=2) layout).
 *
 * Numbers: an integral double below 2^53 in magnitude prints as an integer
 * (-0.0 as -0); any other finite double in the shortest "%.*g" form (C
 * locale) that reads back as the same bits (0.1, 1e-07, 5e-324); NaN and
 * the infinities as null. Strings: ", \ and control characters escaped
 * (\b \f \n \r \t, else \u00XX, and DEL as \u007f, as json-glib does),
 * bytes that are not UTF-8 replaced by U+FFFD, everything else as it is; a
 * NULL string is null.
 *
 * The writer checks nothing about nesting beyond what it needs for commas
 * and indentation; a caller that begins a member must give it a value.
 */
#ifndef CUBE_JSON_WRITER_H
#define CUBE_JSON_WRITER_H

#include <glib.h>
#include <stdio.h>

/* Room for any double's text from json_format_double, with its NUL. */
#define JSON_DOUBLE_BUF 32

/* The text of v as the writer prints it ("null" for NaN and infinities);
 * returns buf. */
const char *json_format_double(char buf[JSON_DOUBLE_BUF], double v);

typedef struct JsonWriter JsonWriter;

JsonWriter *json_writer_new(FILE *out, gboolean pretty);
/* Ends the line after the value (pretty or not) and frees the writer; the
 * stream stays open. */
void json_writer_finish(JsonWriter *w);

void json_writer_begin_object(JsonWriter *w);
void json_writer_end_object(JsonWriter *w);
void json_writer_begin_array(JsonWriter *w);
void json_writer_end_array(JsonWriter *w);
/* The next member's name, inside an object; its value follows. */
void json_writer_key(JsonWriter *w, const char *key);

void json_writer_string(JsonWriter *w, const char *s);
void json_writer_int(JsonWriter *w, gint64 v);
void json_writer_uint(JsonWriter *w, guint64 v);
void json_writer_double(JsonWriter *w, double v);
void json_writer_bool(JsonWriter *w, gboolean v);
void json_writer_null(JsonWriter *w);

#endif
