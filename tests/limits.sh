#!/usr/bin/env bash
# Memory limits and forged traces (issue #46, items 5 and 6), end to end.
#
# Under `ulimit -v` (RLIMIT_AS) below what a run needs, a run, a traced
# run, a matrix product and a BMMC permutation exit 2 with "machine too
# large" naming the limit -- never 133 (GLib's abort), 134 or 139 -- and
# leave no file behind; an export of a trace that fits the limit to load
# but not to convert is refused the same way. CUBEMU_MEMORY_LIMIT below
# what a traced 16-cube exchange needs, but above its untraced estimate,
# refuses the traced run and admits the untraced one. Forged traces (a
# small run's records under a header that says 2^26 nodes, a mark
# stretched over 2^26 - 1 nodes: tests/data/traces/forged-*.trace, made
# by tests/data/traces/forge.py) export in every format and render in the
# viewer in well under a second to a few kilobytes, or are refused with
# exit status 2 and no file.
#
# AddressSanitizer reserves terabytes of address space, so under it (the
# binary has __asan_init or links libasan, or BUILD is build-san) the
# `ulimit -v` cases are skipped, and the script says so. Ends with one
# line "limits: N passed, N failed".
set -u
BUILD=${BUILD:-build}
CUBEMU="$(pwd)/$BUILD/cubemu"
VIEWER="$(pwd)/$BUILD/cubemu-view"
D=$(pwd)/tests/data/traces
T=$(mktemp -d "${TMPDIR:-/tmp}/cubemu-limits.XXXXXX")
trap 'rm -rf "$T"' EXIT
unset DISPLAY WAYLAND_DISPLAY
. "$(dirname "$0")/expect.sh"

sanitized=0
if [ "$BUILD" = build-san ] || nm "$CUBEMU" 2>/dev/null | grep -q __asan_init \
   || ldd "$CUBEMU" 2>/dev/null | grep -q libasan; then
  sanitized=1
fi

# empty NAME: passes when $T/out (where the writers write) is empty
empty() {
  if [ -z "$(ls -A "$T/out")" ]; then ok "$1"; else
    out=$(ls -A "$T/out"); bad "$1"; fi
  rm -rf "$T/out"; mkdir -p "$T/out"
}
mkdir -p "$T/out"

# limited NAME KB SUBSTRING -- COMMAND...: under ulimit -v KB, exit 2 with
# SUBSTRING in the message, in $T/out
limited() {
  local name=$1 kb=$2 text=$3; shift 4
  run bash -c 'cd "$1" && shift && ulimit -v "$0" && exec "$@"' "$kb" "$T/out" "$@"
  if [ "$rc" = 2 ] && [[ "$out" == *"$text"* ]]; then ok "$name"; else
    printf '  expected (exit 2) to contain:\n%s\n' "$text"; bad "$name"; fi
}

SIXTEEN="--set machine.dimensions=16 --set algorithm.name=exchange"
if [ "$sanitized" = 1 ]; then
  echo "skip: the ulimit -v cases (AddressSanitizer reserves the address space they limit)"
else
  # 200 MiB of address space: the limit named, with what is in use.
  limited ulimit-gray 204800 "machine too large: 65536 nodes with 1024 elements each would need" -- \
    "$CUBEMU" run --set machine.dimensions=16 --set algorithm.name=gray-to-binary \
    --set algorithm.elements-per-node=1024
  if [[ "$out" == *"(the RLIMIT_AS of 200.0"*" in use; set CUBEMU_MEMORY_LIMIT"* ]]; then
    ok ulimit-gray-names-limit; else bad ulimit-gray-names-limit; fi
  empty ulimit-gray-no-file
  # The recorder outgrows what the limit leaves the trace; no trace file,
  # no temporary file.
  limited ulimit-trace 204800 "machine too large to trace: recording the trace would need " -- \
    "$CUBEMU" run $SIXTEEN --trace x.trace
  if [[ "$out" == *"the RLIMIT_AS of 200.0"* ]]; then
    ok ulimit-trace-names-limit; else bad ulimit-trace-names-limit; fi
  empty ulimit-trace-no-file
  limited ulimit-matmul 204800 "machine too large: 256 nodes with " -- \
    "$CUBEMU" run --set machine.dimensions=8 --set algorithm.name=matmul \
    --set algorithm.shape=2048x2048x2048
  if [[ "$out" == *"the RLIMIT_AS of 200.0"* ]]; then
    ok ulimit-matmul-names-limit; else bad ulimit-matmul-names-limit; fi
  limited ulimit-bmmc 204800 "machine too large: 256 nodes with " -- \
    "$CUBEMU" run --set machine.dimensions=8 --set algorithm.name=bmmc \
    --set algorithm.elements=67108864 --set algorithm.matrix=bit-reversal
  limited ulimit-dump 204800 "machine too large: " -- \
    "$CUBEMU" run --set machine.dimensions=14 --set algorithm.name=exchange \
    --set algorithm.elements-per-node=1024 --dump-memory --json
  if [[ "$out" == *" with the dumped memory, more than "* ]]; then
    ok ulimit-dump-counted; else bad ulimit-dump-counted; fi
  empty ulimit-runs-no-file
  # An export that loads in the limit but cannot build its table of
  # events: the size asked, exit 2, no file. Somewhere between what
  # loading the trace takes and what converting it takes; below, the load
  # itself runs out (traces/file.c allocates with GLib's aborting forms:
  # not this test's subject), above, the export succeeds.
  "$CUBEMU" run --set machine.dimensions=14 --set algorithm.name=exchange \
    --trace "$T/t14.trace" >/dev/null 2>&1
  refused=0 other=""
  for kb in $(seq 50000 4000 150000); do
    run bash -c 'cd "$1" && ulimit -v "$0" && exec "$2" trace export "$3" --format paje -o x.paje' \
      "$kb" "$T/out" "$CUBEMU" "$T/t14.trace"
    if [ "$rc" = 2 ] && [[ "$out" == *"cannot allocate "*" bytes ("*") for the Paje export's events"* ]]; then
      refused=1
      [ -z "$(ls -A "$T/out")" ] || other="$other $kb:file-left"
    elif [ "$rc" = 0 ]; then
      rm -f "$T/out/x.paje"
      break
    elif [ "$refused" = 1 ]; then
      other="$other $kb:$rc"      # past the load, anything but 2 is a fault
    fi
  done
  if [ "$refused" = 1 ] && [ -z "$other" ]; then ok ulimit-export; else
    out="refused=$refused other:$other; $out"; bad ulimit-export; fi
  empty ulimit-export-no-file
fi

# The estimate counts the trace: 200,000,000 bytes hold the untraced
# 16-cube exchange's estimate, not the traced run (which peaks above it).
expect_has env-untraced-fits 0 "" -- env CUBEMU_MEMORY_LIMIT=200000000 "$CUBEMU" run $SIXTEEN
expect_has env-traced-refused 2 "machine too large to trace: recording the trace would need " -- \
  env CUBEMU_MEMORY_LIMIT=200000000 "$CUBEMU" run $SIXTEEN --trace "$T/out/x.trace"
if [[ "$out" == *" it may use: CUBEMU_MEMORY_LIMIT of 200000000 bytes; "* ]]; then
  ok env-traced-names-limit; else bad env-traced-names-limit; fi
empty env-traced-no-file
if [ "$sanitized" = 0 ] && [ -x /usr/bin/time ]; then
  # ... where the traced run's measured peak is above the limit.
  peak=$(/usr/bin/time -f %M "$CUBEMU" run $SIXTEEN --trace "$T/x.trace" 2>&1 >/dev/null | tail -n 1)
  if [ "$((peak * 1024))" -gt 200000000 ]; then ok env-traced-peak-above; else
    out="peak $peak KB"; bad env-traced-peak-above; fi
  rm -f "$T/x.trace"
fi

# Forged traces: bounded exports and views, in time and bytes.
bounded() {   # bounded NAME MAX-BYTES COMMAND...: exit 0 in 10 s, $T/out/* small
  local name=$1 max=$2; shift 2
  run timeout 10 "$@"
  local size
  size=$(cat "$T"/out/* 2>/dev/null | wc -c)
  if [ "$rc" = 0 ] && [ "$size" -gt 0 ] && [ "$size" -le "$max" ]; then ok "$name"; else
    out="$out (exit $rc, $size bytes)"; bad "$name"; fi
  rm -rf "$T/out"; mkdir -p "$T/out"
}
for f in cube complete; do
  for fmt in chrome paje csv; do
    bounded forged-$f-$fmt 65536 "$CUBEMU" trace export "$D/forged-$f-26.trace" \
      --format $fmt -o "$T/out/x.$fmt"
  done
  bounded forged-$f-png 1000000 "$VIEWER" view "$D/forged-$f-26.trace" --png "$T/out/x.png"
  bounded forged-$f-matrix 1000000 "$CUBEMU" view "$D/forged-$f-26.trace" --view matrix \
    --png "$T/out/x.png" --size 1920x1200
  bounded forged-$f-gif 4000000 "$CUBEMU" view "$D/forged-$f-26.trace" --gif "$T/out/x.gif" \
    --frame-count 6
done
bounded forged-mark-csv 65536 "$CUBEMU" trace export "$D/forged-mark-26.trace" --format csv \
  -o "$T/out/x.csv"
bounded forged-mark-png 1000000 "$VIEWER" view "$D/forged-mark-26.trace" --png "$T/out/x.png"
for fmt in chrome paje; do
  expect forged-mark-$fmt 2 "cubemu trace: cannot export this trace to $T/out/x.$fmt: its 3 marks would be written node by node for 67108879 nodes, more than its 75 records can belong to (at most 4199104; the header's machine: cube, 67108864 nodes); the file is corrupt or forged" -- \
    timeout 10 "$CUBEMU" trace export "$D/forged-mark-26.trace" --format $fmt -o "$T/out/x.$fmt"
  empty forged-mark-$fmt-no-file
done
# The forged headers themselves are valid traces: info reads them.
expect_has forged-info 0 "  topology         cube, 67108864 nodes, 26 links" -- \
  "$CUBEMU" trace info "$D/forged-cube-26.trace"

echo "limits: $passed passed, $failed failed"
[ "$failed" = 0 ]
