#!/usr/bin/env bash
# tests/schema.sh -- the JSON report against its schema (docs/report.schema.json):
# a report of every algorithm (and of cubemu-mpi where mpirun is found)
# validates, identical runs print identical bytes, numbers are in their
# shortest exact form, --pretty and --timing agree with the plain report,
# broken reports are refused; util/json_writer.c's number formatter on
# fixed values (compiled here from the source, with GLib). The cases are
# tests/schema_check.py's. Needs python3 with the jsonschema module
# (Debian: python3-jsonschema). Ends with "schema: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
[ -x "$BUILD/cubemu" ] || { echo "schema.sh: $BUILD/cubemu is missing (make)"; echo "schema: 0 passed, 1 failed"; exit 1; }

# The first python3 that has jsonschema: $PYTHON, python3 on PATH, Debian's.
PY=
for p in ${PYTHON:-} python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import jsonschema' 2>/dev/null; then PY=$p; break; fi
done
[ -n "$PY" ] || PY=${PYTHON:-python3}   # schema_check.py reports the module missing

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cubemu-schema.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/format.c" <<'EOF'
/* Each value as "NAME %a TEXT", TEXT from json_format_double. */
#include "json_writer.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
int main(void)
{
    static const struct { const char *name; double v; } values[] = {
        { "0.1", 0.1 }, { "1e-7", 1e-7 }, { "1/3", 1.0 / 3 },
        { "2^-1074", 0x1p-1074 }, { "1e300", 1e300 }, { "-0.0", -0.0 },
        { "2^53", 0x1p53 }, { "2^53-1", 0x1p53 - 1 }, { "1.5", 1.5 },
        { "-2.5e-300", -2.5e-300 }, { "DBL_MAX", DBL_MAX }, { "nan", NAN },
        { "inf", INFINITY }, { "100.25", 100.25 }, { "1e16+2", 1e16 + 2 },
        { "1e22", 1e22 }, { "0.000123", 0.000123 },
    };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        char buf[JSON_DOUBLE_BUF];
        printf("%s %a %s\n", values[i].name, values[i].v,
               json_format_double(buf, values[i].v));
    }
    return 0;
}
EOF
# A driver that cannot be built fails the formatter case with the reason.
if ! ${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L -Iutil "$tmp/format.c" util/json_writer.c \
     $(pkg-config --cflags --libs glib-2.0) -lm -o "$tmp/format" 2>"$tmp/cc.err"; then
  printf '#!/bin/sh\necho "cannot compile util/json_writer.c with a driver:" >&2\nhead -c 400 "%s" >&2\nexit 1\n' \
    "$tmp/cc.err" >"$tmp/format"
  chmod +x "$tmp/format"
fi
"$PY" tests/schema_check.py "$BUILD" docs/report.schema.json "$tmp/format"
