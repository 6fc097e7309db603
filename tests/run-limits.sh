#!/usr/bin/env bash
# The limits that stop node programs that never finish (--tick-limit,
# --wall-limit; docs/running.md, "Limits"), end to end, on the registry's
# own scenarios (tests/check_run_limits.c has the looping node programs).
#
# Bad values are refused with exit status 2 naming the flag, by run, check
# and sweep. A tick limit below a run's time fails it at exactly the limit
# with the nodes unfinished there, alike in both event orders, and one at
# its time leaves the report byte for byte as it was without; so does a
# generous wall-clock limit, for run --json --dump-memory, check and a
# sweep's CSV. A wall-clock limit stops a run of seconds inside the
# engine's loop (a failed run, status 2), or while it is prepared (the
# timer's handler ends the process, status 2, one line); either way the
# file a previous run wrote (--trace, check's --junit) is untouched and
# nothing half written is left. check prints each scenario's line before
# the next run, so a limit that ends the process loses none. Ends with one
# line "run-limits: N passed, N failed".
set -u
BUILD=${BUILD:-build}
CUBEMU="$BUILD/cubemu"
. "$(dirname "$0")/expect.sh"
scratch run-limits

# fft on a 4096-node line: 4095 ticks and seconds of events, prepared in
# milliseconds. matmul's Table 5 at 2048: half a second or more to
# prepare on a fast host, and once under 0.3 s in make check, so
# the limits meant to pass while it is prepared are 0.1 s.
M=scenarios/fft/mesh-1d.ini
SLOW=scenarios/matmul/table5-cm200-8k-2048.ini
SMALL=scenarios/paper/johnsson-ho-figure5-seq0.ini
HINT="(a node program that never finishes?)"
TICKS="(valid: a whole number from 1 to 2^63 - 1)"
SECONDS_="(valid: a number above 0)"

# only_file NAME FILE TEXT: FILE holds TEXT and is alone in its folder
only_file() {
  if [ "$(cat "$2")" = "$3" ] && [ "$(ls -A "$(dirname "$2")")" = "$(basename "$2")" ]; then
    ok "$1"; else out="$(ls -A "$(dirname "$2")"; cat "$2")"; bad "$1"; fi
}

# ---- bad values: exit 2, the flag named, before any run -------------------
for cmd in run check sweep; do
  case $cmd in
    run) args=() ;;
    check) args=("$SMALL") ;;
    sweep) args=("$SMALL" --vary machine.element-time=1,2) ;;
  esac
  for v in 0 -3 abc 1.5 1e3 "" " 7" 9223372036854775808; do
    expect "$cmd-tick-limit-bad-'$v'" 2 "cubemu $cmd: --tick-limit: '$v' is not a number of ticks $TICKS" -- \
      "$CUBEMU" $cmd "${args[@]}" --tick-limit "$v"
  done
  for v in 0 -1 -0.5 abc inf -inf nan "" 1e999 2s; do
    expect "$cmd-wall-limit-bad-'$v'" 2 "cubemu $cmd: --wall-limit: '$v' is not a number of seconds $SECONDS_" -- \
      "$CUBEMU" $cmd "${args[@]}" --wall-limit="$v"
  done
  expect "$cmd-tick-limit-twice" 2 "cubemu $cmd: --tick-limit given twice: it takes one value" -- \
    "$CUBEMU" $cmd "${args[@]}" --tick-limit 5 --tick-limit=6
  expect "$cmd-wall-limit-twice" 2 "cubemu $cmd: --wall-limit given twice: it takes one value" -- \
    "$CUBEMU" $cmd "${args[@]}" --wall-limit 5 --wall-limit 6
  expect "$cmd-wall-limit-no-value" 2 "cubemu $cmd: Missing argument for --wall-limit" -- \
    "$CUBEMU" $cmd "${args[@]}" --wall-limit
  for v in 0 -1 257 abc 1.5 ""; do
    expect "$cmd-threads-bad-'$v'" 2 "cubemu $cmd: --threads: '$v' is not a thread count (valid: a whole number from 1 to 256, or auto)" -- \
      "$CUBEMU" $cmd "${args[@]}" --threads="$v"
  done
  expect "$cmd-threads-twice" 2 "cubemu $cmd: --threads given twice: it takes one value" -- \
    "$CUBEMU" $cmd "${args[@]}" --threads 2 --threads 1
done
expect_has threads-env-bad 2 "CUBEMU_THREADS: 'x' is not a thread count (1 to 256, or auto)" -- \
  env CUBEMU_THREADS=x "$CUBEMU" run "$SMALL"
expect_has threads-min-events-bad 2 "CUBEMU_THREADS_MIN_EVENTS: '1' is not a number of events (2 or more)" -- \
  env CUBEMU_THREADS_MIN_EVENTS=1 "$CUBEMU" run "$SMALL"

# ---- threads: small machines start none by default, big ones all the
# processors; the flag overrides the environment (emu/sim_parallel.c) ------
threads_used() { G_MESSAGES_DEBUG=all "$@" 2>&1 >/dev/null | sed -n 's/.*: \([0-9]*\) thread(s).*/\1/p' | tail -n 1; }
t=$(threads_used "$CUBEMU" run "$SMALL" --json)
if [ "$t" = 1 ]; then ok threads-small-default-one; else miss "threads-small-default-one: $t"; fi
t=$(threads_used env CUBEMU_THREADS=2 "$CUBEMU" run "$SMALL" --json --threads 1)
if [ "$t" = 1 ]; then ok threads-flag-over-env; else miss "threads-flag-over-env: $t"; fi
t=$(threads_used env CUBEMU_THREADS=2 "$CUBEMU" run "$SMALL" --json)
if [ "$t" = 2 ]; then ok threads-env; else miss "threads-env: $t"; fi
big=(run --set machine.preset=cube --set machine.dimensions=15 --set algorithm.name=exchange --set algorithm.elements-per-node=1 --json)
t=$(threads_used "$CUBEMU" "${big[@]}")
if [ "$t" = "$(nproc)" ]; then ok threads-big-default-all; else miss "threads-big-default-all: $t of $(nproc)"; fi

# ---- the tick limit --------------------------------------------------------
expect tick-limit-mesh 2 "cubemu run: $M: the run passed --tick-limit 10 at tick 10 with 4096 of 4096 nodes unfinished $HINT" -- \
  "$CUBEMU" run "$M" --tick-limit 10 --json
# The default run ends at tick 61,740: one tick less fails, with the
# nodes not finished by then, in either event order (mesh-1d leaves the
# locality order at tick 1 and runs again in the contract's); its
# comparison with the CM-200's memory paths ends at tick 833,700, and the
# limit holds for it too
for order in contract locality; do
  expect "tick-limit-default-$order" 2 "cubemu run: default: the run passed --tick-limit 61739 at tick 61739 with 68 of 256 nodes unfinished $HINT" -- \
    env CUBEMU_ORDER=$order "$CUBEMU" run --tick-limit 61739
  expect "tick-limit-default-compare-$order" 2 "cubemu run: --compare: default: the run passed --tick-limit 833699 at tick 833699 with 2 of 256 nodes unfinished $HINT" -- \
    env CUBEMU_ORDER=$order "$CUBEMU" run --tick-limit 833699
  expect "tick-limit-mesh-$order" 2 "cubemu run: $M: the run passed --tick-limit 1000 at tick 1000 with 4096 of 4096 nodes unfinished $HINT" -- \
    env CUBEMU_ORDER=$order "$CUBEMU" run "$M" --tick-limit 1000
done

# ---- limits that are not reached change nothing ----------------------------
same=(default scenarios/examples/exchange-sequential.ini scenarios/shift/torus.ini
      scenarios/bmmc/bit-reversal-8cube-np16-f2.ini scenarios/fft/figure5-shuffle.ini
      scenarios/dblas/cube-6-rank1-complex-40x24.ini scenarios/matmul/figure3-4x8.ini)
for f in "${same[@]}"; do
  file=(); [ "$f" = default ] || file=("$f")
  plain=$("$CUBEMU" run "${file[@]}" --json --dump-memory 2>&1)
  cycles=$(sed -nE 's/.*"cycles":([0-9]+),.*/\1/p' <<<"$plain" | head -n 1)
  if [ -z "$cycles" ]; then out=$plain; rc=x; bad "same-json $f (no cycles)"; continue; fi
  run "$CUBEMU" run "${file[@]}" --json --dump-memory --tick-limit "$cycles" --wall-limit 600
  if [ "$rc" = 0 ] && [ "$out" = "$plain" ]; then ok "same-json $f at --tick-limit $cycles"; else bad "same-json $f"; fi
  expect_has "tick-limit-one-less $f" 2 "the run passed --tick-limit $((cycles - 1)) at tick $((cycles - 1)) with " -- \
    "$CUBEMU" run "${file[@]}" --tick-limit $((cycles - 1))
done
plain=$("$CUBEMU" check scenarios/paper/*figure5*.ini scenarios/examples/*.ini 2>&1)
expect check-same 0 "$plain" -- \
  "$CUBEMU" check scenarios/paper/*figure5*.ini scenarios/examples/*.ini --tick-limit 1000000000 --wall-limit 600
"$CUBEMU" sweep "$SMALL" --vary machine.element-time=1,2,3 --csv "$T/plain.csv" >/dev/null 2>&1
run "$CUBEMU" sweep "$SMALL" --vary machine.element-time=1,2,3 --csv "$T/limited.csv" --tick-limit 100000 --wall-limit 600
if [ "$rc" = 0 ] && cmp -s "$T/plain.csv" "$T/limited.csv"; then ok sweep-same-csv; else bad sweep-same-csv; fi
rm -f "$T"/*.csv

# ---- check and sweep: a limit fails each run it stops ----------------------
expect check-tick-limit 2 "FAIL $M: $M: the run passed --tick-limit 10 at tick 10 with 4096 of 4096 nodes unfinished $HINT
ok   $SMALL (cycles 3)
1 passed, 1 failed" -- "$CUBEMU" check "$M" "$SMALL" --tick-limit 10
run "$CUBEMU" sweep "$M" --vary machine.element-time=1,2 --tick-limit 10
if [ "$rc" = 1 ] && [[ "$out" == *"machine.element-time=2: FAILED: $M: the run passed --tick-limit 10 at tick 10 with 4096 of 4096 nodes unfinished $HINT"* ]]; then
  ok sweep-tick-limit; else bad sweep-tick-limit; fi

# ---- the wall-clock limit ----------------------------------------------------
# Inside the engine's loop: the run fails as a program error does. On a
# loaded machine the timer may fire while a step runs instead (mesh-1d's
# steps are a share of its time): that ends the process, with its own
# message, and is as right; the exit status and the files are the same.
stopped_re="^cubemu run: $M: the run passed --wall-limit 0.5 (at tick [0-9]+ with [0-9]+ of 4096 nodes unfinished \(a node program that never finishes\?\)|inside a node program's step \(a step that never returns\?\); files being written were removed, existing files are untouched)$"
run "$CUBEMU" run "$M" --wall-limit 0.5 --json
if [ "$rc" = 2 ] && [[ "$out" =~ $stopped_re ]]; then ok wall-limit-in-loop; else bad wall-limit-in-loop; fi
# ... and the trace a previous run wrote stays as it was
mkdir "$T/a"
printf 'previous\n' >"$T/a/out.trace"
run "$CUBEMU" run "$M" --wall-limit 0.5 --trace "$T/a/out.trace"
if [ "$rc" = 2 ] && [[ "$out" =~ $stopped_re ]]; then ok wall-limit-trace-status; else bad wall-limit-trace-status; fi
only_file wall-limit-trace-kept "$T/a/out.trace" previous
# Before the loop (a microsecond: while the run is prepared): the timer's
# handler removes the temporary trace, says so and ends the process.
expect wall-limit-outside 2 "cubemu run: $M: the run passed --wall-limit 0.000001 outside the engine's event loop, while the run was being prepared or verified; files being written were removed, existing files are untouched" -- \
  "$CUBEMU" run "$M" --wall-limit 0.000001 --trace "$T/a/out.trace" --json
only_file wall-limit-outside-trace-kept "$T/a/out.trace" previous
# check: the first scenario's line is out before the second run, whose
# limit ends the process; the previous JUnit file stays
mkdir "$T/b"
printf 'previous\n' >"$T/b/check.xml"
"$CUBEMU" check "$SMALL" "$SLOW" --junit "$T/b/check.xml" --wall-limit 0.1 >"$T/check.out" 2>"$T/check.err"
rc=$?
out="$(cat "$T/check.out" "$T/check.err")"
if [ "$rc" = 2 ] && [ "$(cat "$T/check.out")" = "ok   $SMALL (cycles 3)" ] \
   && [ "$(cat "$T/check.err")" = "cubemu check: $SLOW: the run passed --wall-limit 0.1 outside the engine's event loop, while the run was being prepared or verified; files being written were removed, existing files are untouched" ]; then
  ok check-wall-limit; else bad check-wall-limit; fi
only_file check-wall-limit-junit-kept "$T/b/check.xml" previous
# sweep: each run's process stops; the row says why
run "$CUBEMU" sweep "$M" --vary machine.element-time=1,2 --wall-limit 0.3
if [ "$rc" = 1 ] && [[ "$out" =~ "machine.element-time=2: FAILED: $M: the run passed --wall-limit 0.3 "(at\ tick\ [0-9]+\ with\ [0-9]+\ of\ 4096\ nodes\ unfinished|inside\ a\ node\ program) ]]; then
  ok sweep-wall-limit; else bad sweep-wall-limit; fi
run "$CUBEMU" sweep "$SLOW" --vary machine.element-time=1 --wall-limit 0.1
if [ "$rc" = 1 ] && [[ "$out" == *"machine.element-time=1: FAILED: $SLOW: the run passed --wall-limit 0.1 outside the engine's event loop, while the run was being prepared or verified (the run's process ended with exit status 2)"* ]]; then
  ok sweep-wall-limit-outside; else bad sweep-wall-limit-outside; fi

echo "run-limits: $passed passed, $failed failed"
[ "$failed" = 0 ]
