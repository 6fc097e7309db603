#!/usr/bin/env bash
# tests/tsan.sh -- the threads' smoke set under ThreadSanitizer (make
# check-tsan): scenarios whose ticks split among threads (emu/
# sim_parallel.c), on cubes (split by address bits) and on a torus, the
# complete graph and cube-connected cycles (by ranges), each run with
# --threads 2 and 3 by the ThreadSanitizer build ($BUILD/cubemu): no race
# may be reported (halt_on_error), and the JSON, messages and exit status
# must be those of --threads 1. Smoke sizes: ThreadSanitizer runs 5 to 15
# times slower. Prints "tsan: N passed, N failed".
set -u
. "$(dirname "$0")/expect.sh"
cd "$(dirname "$0")/.."
scratch tsan
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
# every tick of 2 events or more splits, on these small machines
export CUBEMU_THREADS_MIN_EVENTS=2
cases=(
  "scenarios/examples/exchange-all-port.ini --set machine.dimensions=10"
  "scenarios/paper/johnsson-ho-figure5-concurrent.ini"
  "scenarios/paper/johnsson-ho-binary-to-gray.ini"
  "scenarios/bmmc/shuffle-8cube-np16-f2.ini"
  "scenarios/bmmc/compare-shuffle-naive.ini"
  "scenarios/fft/cube-8-fft-16x16.ini"
  "scenarios/matmul/c-torus.ini"
  "scenarios/shift/torus.ini"
  "scenarios/transpose/ccc-3-bruck.ini"
  "scenarios/schedule/dissemination-256-complete.ini"
  "scenarios/schedule/dissemination-256-cube.ini"
)
for c in "${cases[@]}"; do
  # shellcheck disable=SC2086  # the case's words are the arguments
  set -- $c
  "$CUBEMU" run "$@" --json --threads 1 >"$T/j1" 2>"$T/e1"; echo $? >"$T/r1"
  for n in 2 3; do
    "$CUBEMU" run "$@" --json --threads $n >"$T/j$n" 2>"$T/e$n"; echo $? >"$T/r$n"
    if grep -q "ThreadSanitizer" "$T/e$n"; then
      miss "$c, $n threads: a race"; head -n 30 "$T/e$n"
    elif ! cmp -s "$T/r1" "$T/r$n" || ! cmp -s "$T/j1" "$T/j$n" \
         || ! cmp -s "$T/e1" "$T/e$n"; then
      miss "$c, $n threads: not the output of one thread"
    else
      ok "$c, $n threads"
    fi
  done
done
echo "tsan: $passed passed, $failed failed"
[ "$failed" = 0 ]
