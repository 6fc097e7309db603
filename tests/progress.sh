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
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
EMU=$BUILD/cubemu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

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

if [ ! -x "$EMU" ]; then
  bad "$EMU is not built"
  echo "progress: $pass passed, $fail failed"
  exit 1
fi

# The reference: standard error a file, no flag, no line.
CUBEMU_PROGRESS_DELAY=0 "$EMU" "${RUN[@]}" --json >"$tmp/plain.json" 2>"$tmp/plain.err"
rc=$?
if [ $rc = 0 ] && [ ! -s "$tmp/plain.err" ]; then
  ok "no progress bytes when standard error is a file"
else
  bad "standard error a file: exit $rc, $(wc -c <"$tmp/plain.err") bytes on it: $(cat -v "$tmp/plain.err" | head -c 300)"
fi
CUBEMU_PROGRESS_DELAY=0 "$EMU" "${RUN[@]}" --json 2>&1 >/dev/null | cat >"$tmp/pipe.err"
if [ ! -s "$tmp/pipe.err" ]; then
  ok "no progress bytes when standard error is a pipe"
else
  bad "standard error a pipe: $(cat -v "$tmp/pipe.err" | head -c 300)"
fi

# --progress: into the file, erased at the end; the same JSON.
CUBEMU_PROGRESS_DELAY=0 "$EMU" "${RUN[@]}" --json --progress >"$tmp/forced.json" 2>"$tmp/forced.err"
rc=$?
if [ $rc = 0 ] && lines "$tmp/forced.err" | grep -q 'default: tick [0-9,]*, .* events at .*/s' \
   && ends_erased "$tmp/forced.err"; then
  ok "--progress writes the line into a file and erases it at the end"
else
  bad "--progress into a file: exit $rc: $(cat -v "$tmp/forced.err" | head -c 300)"
fi
if [ "$(strip_wall "$tmp/plain.json")" = "$(strip_wall "$tmp/forced.json")" ] \
   && [ -s "$tmp/plain.json" ]; then
  ok "--json is the same with --progress and without (but wall_seconds)"
else
  bad "--json differs with --progress"
fi
"$EMU" "${RUN[@]}" >"$tmp/plain.txt" 2>/dev/null
CUBEMU_PROGRESS_DELAY=0 "$EMU" "${RUN[@]}" --progress >"$tmp/forced.txt" 2>/dev/null
if diff -q <(grep -v 'wall [0-9.]* s' "$tmp/plain.txt") \
           <(grep -v 'wall [0-9.]* s' "$tmp/forced.txt") >/dev/null; then
  ok "the table is the same with --progress and without (but the wall time)"
else
  bad "the table differs with --progress"
fi

"$EMU" "${RUN[@]}" --progress --quiet >/dev/null 2>"$tmp/both.err"
rc=$?
if [ $rc = 2 ] && grep -q -- '--progress and --quiet' "$tmp/both.err"; then
  ok "--progress with --quiet is refused (exit 2)"
else
  bad "--progress --quiet: exit $rc: $(cat "$tmp/both.err")"
fi
"$EMU" run --quiet --set machine.dimensions=zero >/dev/null 2>"$tmp/qerr.err"
rc=$?
if [ $rc = 2 ] && grep -q 'machine.dimensions' "$tmp/qerr.err"; then
  ok "--quiet leaves errors on standard error"
else
  bad "--quiet with a bad key: exit $rc: $(cat "$tmp/qerr.err")"
fi

# Scenarios for check: a few tenths of a second each.
for i in 1 2; do
  cat >"$tmp/s$i.ini" <<EOF
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
  CUBEMU_PROGRESS_DELAY=0 on_tty "$tmp/tty.json" "$EMU" "${RUN[@]}" --json >"$tmp/tty.err"
  rc=$?
  if [ $rc = 0 ] && lines "$tmp/tty.err" | grep -q 'default: tick [0-9,]*, .* events at'; then
    ok "a terminal shows the line"
  else
    bad "a terminal: exit $rc: $(cat -v "$tmp/tty.err" | head -c 300)"
  fi
  if [ -s "$tmp/tty.err" ] && ends_erased "$tmp/tty.err"; then
    ok "the line is erased at the end"
  else
    bad "the line is not erased at the end: $(tail -c 100 "$tmp/tty.err" | cat -v)"
  fi
  if [ "$(strip_wall "$tmp/plain.json")" = "$(strip_wall "$tmp/tty.json")" ]; then
    ok "--json is the same on a terminal"
  else
    bad "--json differs when standard error is a terminal"
  fi
  long=$(lines "$tmp/tty.err" | awk 'length($0) >= 60' | head -1)
  if [ -z "$long" ]; then
    ok "the line fits a 60-column terminal"
  else
    bad "a line wider than the terminal: $long"
  fi
  # Standard output on the terminal too: the report starts at column 0,
  # right after the erase.
  CUBEMU_PROGRESS_DELAY=0 script -qfec "stty cols 60 2>/dev/null; $(quote "$EMU" "${RUN[@]}" --json)" /dev/null >"$tmp/both.tty"
  if grep -q -F "${ERASE}{\"cubemu\"" "$tmp/both.tty"; then
    ok "the report follows the erased line at column 0"
  else
    bad "the report does not start on a clean line: $(head -c 300 "$tmp/both.tty" | cat -v)"
  fi

  # --quiet: nothing at all on the terminal.
  CUBEMU_PROGRESS_DELAY=0 on_tty "$tmp/quiet.json" "$EMU" "${RUN[@]}" --json --quiet >"$tmp/quiet.err"
  if [ ! -s "$tmp/quiet.err" ] && [ -s "$tmp/quiet.json" ]; then
    ok "--quiet silences the line on a terminal"
  else
    bad "--quiet on a terminal: $(cat -v "$tmp/quiet.err" | head -c 300)"
  fi
  # TERM=dumb: no line by default, one with --progress.
  CUBEMU_PROGRESS_DELAY=0 TERM=dumb on_tty "$tmp/dumb.json" "$EMU" "${RUN[@]}" --json >"$tmp/dumb.err"
  CUBEMU_PROGRESS_DELAY=0 TERM=dumb on_tty "$tmp/dumb2.json" "$EMU" "${RUN[@]}" --json --progress >"$tmp/dumb2.err"
  if [ ! -s "$tmp/dumb.err" ] && lines "$tmp/dumb2.err" | grep -q 'tick'; then
    ok "TERM=dumb: no line unless --progress"
  else
    bad "TERM=dumb: $(cat -v "$tmp/dumb.err" | head -c 200) / $(wc -c <"$tmp/dumb2.err") bytes with --progress"
  fi
  # Without the hook, a run shorter than a second shows nothing.
  (unset CUBEMU_PROGRESS_DELAY
   on_tty "$tmp/short.json" "$EMU" run --set machine.dimensions=8 --json) >"$tmp/short.err"
  if [ ! -s "$tmp/short.err" ] && [ -s "$tmp/short.json" ]; then
    ok "a run shorter than a second shows no line"
  else
    bad "a short run: $(cat -v "$tmp/short.err" | head -c 300)"
  fi

  # A signal while the line is shown: util/output.c's handler erases it
  # (progress_clear) before its one line, which starts at column 0.
  if grep -q progress_clear util/output.c; then
    CUBEMU_PROGRESS_DELAY=0 script -qfec "stty cols 200 2>/dev/null; $(quote "$EMU" run --set machine.dimensions=16 --set algorithm.name=gray-to-binary --set algorithm.elements-per-node=1024 --json) >/dev/null & pid=\$!; sleep 1.5; kill -TERM \$pid; wait \$pid" /dev/null >"$tmp/sig.err"
    if grep -q -F "${ERASE}cubemu run" "$tmp/sig.err" && grep -q 'default: ' "$tmp/sig.err"; then
      ok "a signal's message starts at column 0, the line erased"
    else
      bad "a signal while the line is shown: $(tail -c 200 "$tmp/sig.err" | cat -v)"
    fi
  else
    echo "skip a signal while the line is shown: util/output.c does not call progress_clear"
  fi

  # check: "scenario i of n", erased before each result line.
  CUBEMU_PROGRESS_DELAY=0 on_tty "$tmp/check.out" "$EMU" check "$tmp/s1.ini" "$tmp/s2.ini" >"$tmp/check.err"
  rc=$?
  if [ $rc = 0 ] && lines "$tmp/check.err" | grep -q 'scenario 1 of 2, s1.ini: ' \
     && lines "$tmp/check.err" | grep -q 'scenario 2 of 2, s2.ini: ' \
     && ends_erased "$tmp/check.err" && grep -q '^2 passed, 0 failed' "$tmp/check.out"; then
    ok "check shows scenario i of n"
  else
    bad "check: exit $rc: $(lines "$tmp/check.err" | head -3) / $(cat "$tmp/check.out")"
  fi
  # sweep: the parent draws "run i of n" (each run's own line is off: its
  # standard error is a pipe to the sweep), erased before each result line
  SW=(sweep tests/data/sweep/gray-3.ini --set machine.dimensions=12
      --vary algorithm.elements-per-node=1024,2048,4096)
  CUBEMU_PROGRESS_DELAY=0 on_tty "$tmp/sweep.out" "$EMU" "${SW[@]}" >"$tmp/sweep.err"
  rc=$?
  "$EMU" "${SW[@]}" >"$tmp/sweep-plain.out" 2>/dev/null
  if [ $rc = 0 ] && lines "$tmp/sweep.err" | grep -q 'gray-3.ini: run 1 of 3$' \
     && lines "$tmp/sweep.err" | grep -q 'gray-3.ini: run 3 of 3$' \
     && ! grep -q 'tick' "$tmp/sweep.err" && ends_erased "$tmp/sweep.err" \
     && cmp -s "$tmp/sweep.out" "$tmp/sweep-plain.out"; then
    ok "sweep shows run i of n, the results unchanged"
  else
    bad "sweep: exit $rc: $(lines "$tmp/sweep.err" | head -3)"
  fi
  CUBEMU_PROGRESS_DELAY=0 on_tty "$tmp/sweepj.out" "$EMU" "${SW[@]}" -j 2 >"$tmp/sweepj.err"
  if lines "$tmp/sweepj.err" | grep -q 'runs 1 to 2 of 3 running, 0 done$' \
     && cmp -s "$tmp/sweepj.out" "$tmp/sweep-plain.out"; then
    ok "sweep -j 2 shows the runs going"
  else
    bad "sweep -j 2: $(lines "$tmp/sweepj.err" | head -3)"
  fi
  CUBEMU_PROGRESS_DELAY=0 on_tty "$tmp/checkq.out" "$EMU" check --quiet "$tmp/s1.ini" >"$tmp/checkq.err"
  if [ ! -s "$tmp/checkq.err" ] && grep -q '^1 passed, 0 failed' "$tmp/checkq.out"; then
    ok "check --quiet silences the line"
  else
    bad "check --quiet: $(cat -v "$tmp/checkq.err" | head -c 300)"
  fi
fi
CUBEMU_PROGRESS_DELAY=0 "$EMU" check --tap "$tmp/s1.ini" >"$tmp/tap.out" 2>"$tmp/tap.err" \
  || true
CUBEMU_PROGRESS_DELAY=0 "$EMU" check --tap --progress "$tmp/s1.ini" >"$tmp/tap2.out" 2>"$tmp/tap2.err"
if [ -s "$tmp/tap.out" ] && cmp -s "$tmp/tap.out" "$tmp/tap2.out" && [ ! -s "$tmp/tap.err" ] \
   && lines "$tmp/tap2.err" | grep -q 'scenario 1 of 1'; then
  ok "check --tap: the same output with --progress, the line only on standard error"
else
  bad "check --tap with --progress: $(cat -v "$tmp/tap2.err" | head -c 200)"
fi

echo "progress: $pass passed, $fail failed"
[ "$fail" = 0 ]
