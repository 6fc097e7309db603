#!/usr/bin/env bash
# tests/progress.sh -- the progress line (util/progress.h) of cubemu run
# and cubemu check: shown on a terminal and erased at the end, so that
# what follows starts at column 0; never in a file or a pipe unless
# --progress asks; never with --quiet, which leaves errors alone; the
# results on standard output the same with it and without; check's line
# names "scenario i of n". A terminal is script(1)'s pseudo-terminal (util-
# linux); CUBEMU_PROGRESS_DELAY=0 (the test hook) shows the line from the
# first update instead of after a second, so that short runs do. Prints
# "ok ..." or "FAIL ..." per case and "progress: N passed, M failed".
set -u
. "$(dirname "$0")/expect.sh"
cd "$(dirname "$0")/.."
scratch progress

ERASE=$'\r\e[K'
# A run of a few tenths of a second: 13-cube, K = 1024.
RUN=(run --set machine.dimensions=13 --set algorithm.name=gray-to-binary
     --set algorithm.elements-per-node=1024)
# Words for a shell command line (script -c takes one).
quote() { printf '%q ' "$@"; }

have_script=0
if command -v script >/dev/null 2>&1 \
   && script -qfec true /dev/null >/dev/null 2>&1; then
  have_script=1
fi
# on_tty OUT COMMAND...: COMMAND with standard error (and input) on a
# pseudo-terminal 60 columns wide and standard output to OUT; what the
# terminal got goes to standard output. Exit status: COMMAND's.
on_tty() {
  local out=$1; shift
  script -qfec "stty cols 60 rows 24 2>/dev/null; $(quote "$@") >$(quote "$out")" /dev/null
}
# ends_erased FILE: its last bytes are the erase sequence.
ends_erased() { [ "$(tail -c ${#ERASE} "$1")" = "$ERASE" ]; }
# lines FILE: the lines drawn (between a carriage return and an erase to
# the end of the line), one a line.
lines() { tr '\r' '\n' <"$1" | sed -n 's/\x1b\[K$//p' | grep -v '^$'; }
strip_wall() { sed 's/"wall_seconds":[^,}]*//' "$1"; }

if [ ! -x "$CUBEMU" ]; then
  miss "$CUBEMU is not built"
  echo "progress: $passed passed, $failed failed"
  exit 1
fi

# The reference: standard error a file, no flag, no line.
CUBEMU_PROGRESS_DELAY=0 "$CUBEMU" "${RUN[@]}" --json >"$T/plain.json" 2>"$T/plain.err"
rc=$?
if [ $rc = 0 ] && [ ! -s "$T/plain.err" ]; then
  ok "no progress bytes when standard error is a file"
else
  miss "standard error a file: exit $rc, $(wc -c <"$T/plain.err") bytes on it: $(cat -v "$T/plain.err" | head -c 300)"
fi
CUBEMU_PROGRESS_DELAY=0 "$CUBEMU" "${RUN[@]}" --json 2>&1 >/dev/null | cat >"$T/pipe.err"
if [ ! -s "$T/pipe.err" ]; then
  ok "no progress bytes when standard error is a pipe"
else
  miss "standard error a pipe: $(cat -v "$T/pipe.err" | head -c 300)"
fi

# --progress: into the file, erased at the end; the same JSON. (The
# default's memory paths can stop the locality order: the rerun's line
# says "again in the contract order".)
CUBEMU_PROGRESS_DELAY=0 "$CUBEMU" "${RUN[@]}" --json --progress >"$T/forced.json" 2>"$T/forced.err"
rc=$?
if [ $rc = 0 ] && lines "$T/forced.err" | grep -Eq 'default: (again in the contract order: )?tick [0-9,]*, .* events at .*/s' \
   && ends_erased "$T/forced.err"; then
  ok "--progress writes the line into a file and erases it at the end"
else
  miss "--progress into a file: exit $rc: $(cat -v "$T/forced.err" | head -c 300)"
fi
if [ "$(strip_wall "$T/plain.json")" = "$(strip_wall "$T/forced.json")" ] \
   && [ -s "$T/plain.json" ]; then
  ok "--json is the same with --progress and without (but wall_seconds)"
else
  miss "--json differs with --progress"
fi
"$CUBEMU" "${RUN[@]}" >"$T/plain.txt" 2>/dev/null
CUBEMU_PROGRESS_DELAY=0 "$CUBEMU" "${RUN[@]}" --progress >"$T/forced.txt" 2>/dev/null
if diff -q <(grep -v 'wall [0-9.]* s' "$T/plain.txt") \
           <(grep -v 'wall [0-9.]* s' "$T/forced.txt") >/dev/null; then
  ok "the table is the same with --progress and without (but the wall time)"
else
  miss "the table differs with --progress"
fi

"$CUBEMU" "${RUN[@]}" --progress --quiet >/dev/null 2>"$T/both.err"
rc=$?
if [ $rc = 2 ] && grep -q -- '--progress and --quiet' "$T/both.err"; then
  ok "--progress with --quiet is refused (exit 2)"
else
  miss "--progress --quiet: exit $rc: $(cat "$T/both.err")"
fi
"$CUBEMU" run --quiet --set machine.dimensions=zero >/dev/null 2>"$T/qerr.err"
rc=$?
if [ $rc = 2 ] && grep -q 'machine.dimensions' "$T/qerr.err"; then
  ok "--quiet leaves errors on standard error"
else
  miss "--quiet with a bad key: exit $rc: $(cat "$T/qerr.err")"
fi

# Scenarios for check: a few tenths of a second each.
for i in 1 2; do
  cat >"$T/s$i.ini" <<EOF
[machine]
preset = cube
dimensions = 13
[algorithm]
name = gray-to-binary
elements-per-node = 1024
[expect]
data = correct
EOF
done

if [ $have_script = 0 ]; then
  echo "skip the terminal's cases: no script(1) (util-linux) here"
else
  # On a terminal: the line, erased at the end, the JSON the same.
  CUBEMU_PROGRESS_DELAY=0 on_tty "$T/tty.json" "$CUBEMU" "${RUN[@]}" --json >"$T/tty.err"
  rc=$?
  if [ $rc = 0 ] && lines "$T/tty.err" | grep -Eq 'default: (again in the contract order: )?tick [0-9,]*'; then
    ok "a terminal shows the line"
  else
    miss "a terminal: exit $rc: $(cat -v "$T/tty.err" | head -c 300)"
  fi
  if [ -s "$T/tty.err" ] && ends_erased "$T/tty.err"; then
    ok "the line is erased at the end"
  else
    miss "the line is not erased at the end: $(tail -c 100 "$T/tty.err" | cat -v)"
  fi
  if [ "$(strip_wall "$T/plain.json")" = "$(strip_wall "$T/tty.json")" ]; then
    ok "--json is the same on a terminal"
  else
    miss "--json differs when standard error is a terminal"
  fi
  long=$(lines "$T/tty.err" | awk 'length($0) >= 60' | head -1)
  if [ -z "$long" ]; then
    ok "the line fits a 60-column terminal"
  else
    miss "a line wider than the terminal: $long"
  fi
  # Standard output on the terminal too: the report starts at column 0,
  # right after the erase.
  CUBEMU_PROGRESS_DELAY=0 script -qfec "stty cols 60 2>/dev/null; $(quote "$CUBEMU" "${RUN[@]}" --json)" /dev/null >"$T/both.tty"
  if grep -q -F "${ERASE}{\"cubemu\"" "$T/both.tty"; then
    ok "the report follows the erased line at column 0"
  else
    miss "the report does not start on a clean line: $(head -c 300 "$T/both.tty" | cat -v)"
  fi

  # --quiet: nothing at all on the terminal.
  CUBEMU_PROGRESS_DELAY=0 on_tty "$T/quiet.json" "$CUBEMU" "${RUN[@]}" --json --quiet >"$T/quiet.err"
  if [ ! -s "$T/quiet.err" ] && [ -s "$T/quiet.json" ]; then
    ok "--quiet silences the line on a terminal"
  else
    miss "--quiet on a terminal: $(cat -v "$T/quiet.err" | head -c 300)"
  fi
  # TERM=dumb: no line by default, one with --progress.
  CUBEMU_PROGRESS_DELAY=0 TERM=dumb on_tty "$T/dumb.json" "$CUBEMU" "${RUN[@]}" --json >"$T/dumb.err"
  CUBEMU_PROGRESS_DELAY=0 TERM=dumb on_tty "$T/dumb2.json" "$CUBEMU" "${RUN[@]}" --json --progress >"$T/dumb2.err"
  if [ ! -s "$T/dumb.err" ] && lines "$T/dumb2.err" | grep -q 'tick'; then
    ok "TERM=dumb: no line unless --progress"
  else
    miss "TERM=dumb: $(cat -v "$T/dumb.err" | head -c 200) / $(wc -c <"$T/dumb2.err") bytes with --progress"
  fi
  # Without the hook, a run shorter than a second shows nothing.
  (unset CUBEMU_PROGRESS_DELAY
   on_tty "$T/short.json" "$CUBEMU" run --set machine.dimensions=8 --json) >"$T/short.err"
  if [ ! -s "$T/short.err" ] && [ -s "$T/short.json" ]; then
    ok "a run shorter than a second shows no line"
  else
    miss "a short run: $(cat -v "$T/short.err" | head -c 300)"
  fi

  # A signal while the line is shown: util/output.c's handler erases it
  # (progress_clear) before its one line, which starts at column 0.
  if grep -q progress_clear util/output.c; then
    CUBEMU_PROGRESS_DELAY=0 script -qfec "stty cols 200 2>/dev/null; $(quote "$CUBEMU" run --set machine.dimensions=16 --set algorithm.name=gray-to-binary --set algorithm.elements-per-node=1024 --json) >/dev/null & pid=\$!; sleep 1.5; kill -TERM \$pid; wait \$pid" /dev/null >"$T/sig.err"
    if grep -q -F "${ERASE}cubemu run" "$T/sig.err" && grep -q 'default: ' "$T/sig.err"; then
      ok "a signal's message starts at column 0, the line erased"
    else
      miss "a signal while the line is shown: $(tail -c 200 "$T/sig.err" | cat -v)"
    fi
  else
    echo "skip a signal while the line is shown: util/output.c does not call progress_clear"
  fi

  # check: "scenario i of n", erased before each result line.
  CUBEMU_PROGRESS_DELAY=0 on_tty "$T/check.out" "$CUBEMU" check "$T/s1.ini" "$T/s2.ini" >"$T/check.err"
  rc=$?
  if [ $rc = 0 ] && lines "$T/check.err" | grep -q 'scenario 1 of 2, s1.ini: ' \
     && lines "$T/check.err" | grep -q 'scenario 2 of 2, s2.ini: ' \
     && ends_erased "$T/check.err" && grep -q '^2 passed, 0 failed' "$T/check.out"; then
    ok "check shows scenario i of n"
  else
    miss "check: exit $rc: $(lines "$T/check.err" | head -3) / $(cat "$T/check.out")"
  fi
  # sweep: the parent draws "run i of n" (each run's own line is off: its
  # standard error is a pipe to the sweep), erased before each result line
  SW=(sweep tests/data/sweep/gray-3.ini --set machine.dimensions=12
      --vary algorithm.elements-per-node=1024,2048,4096)
  CUBEMU_PROGRESS_DELAY=0 on_tty "$T/sweep.out" "$CUBEMU" "${SW[@]}" >"$T/sweep.err"
  rc=$?
  "$CUBEMU" "${SW[@]}" >"$T/sweep-plain.out" 2>/dev/null
  if [ $rc = 0 ] && lines "$T/sweep.err" | grep -q 'gray-3.ini: run 1 of 3$' \
     && lines "$T/sweep.err" | grep -q 'gray-3.ini: run 3 of 3$' \
     && ! grep -q 'tick' "$T/sweep.err" && ends_erased "$T/sweep.err" \
     && cmp -s "$T/sweep.out" "$T/sweep-plain.out"; then
    ok "sweep shows run i of n, the results unchanged"
  else
    miss "sweep: exit $rc: $(lines "$T/sweep.err" | head -3)"
  fi
  CUBEMU_PROGRESS_DELAY=0 on_tty "$T/sweepj.out" "$CUBEMU" "${SW[@]}" -j 2 >"$T/sweepj.err"
  if lines "$T/sweepj.err" | grep -q 'runs 1 to 2 of 3 running, 0 done$' \
     && cmp -s "$T/sweepj.out" "$T/sweep-plain.out"; then
    ok "sweep -j 2 shows the runs going"
  else
    miss "sweep -j 2: $(lines "$T/sweepj.err" | head -3)"
  fi
  CUBEMU_PROGRESS_DELAY=0 on_tty "$T/checkq.out" "$CUBEMU" check --quiet "$T/s1.ini" >"$T/checkq.err"
  if [ ! -s "$T/checkq.err" ] && grep -q '^1 passed, 0 failed' "$T/checkq.out"; then
    ok "check --quiet silences the line"
  else
    miss "check --quiet: $(cat -v "$T/checkq.err" | head -c 300)"
  fi
fi
CUBEMU_PROGRESS_DELAY=0 "$CUBEMU" check --tap "$T/s1.ini" >"$T/tap.out" 2>"$T/tap.err" \
  || true
CUBEMU_PROGRESS_DELAY=0 "$CUBEMU" check --tap --progress "$T/s1.ini" >"$T/tap2.out" 2>"$T/tap2.err"
if [ -s "$T/tap.out" ] && cmp -s "$T/tap.out" "$T/tap2.out" && [ ! -s "$T/tap.err" ] \
   && lines "$T/tap2.err" | grep -q 'scenario 1 of 1'; then
  ok "check --tap: the same output with --progress, the line only on standard error"
else
  miss "check --tap with --progress: $(cat -v "$T/tap2.err" | head -c 200)"
fi

echo "progress: $passed passed, $failed failed"
[ "$failed" = 0 ]
