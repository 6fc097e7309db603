#!/usr/bin/env bash
# tests/determinism.sh -- every scenario under scenarios/ run twice: the two
# JSON reports must be byte-identical (without --timing nothing in them
# depends on the clock), and the two traces (--trace) byte-identical. A
# traced run keeps the contract's order (sim.h, SimOrder); a third run,
# without a trace, runs in the locality order wherever that applies, and
# its exit status, JSON and messages must be the traced run's: the
# locality order is the contract's run. Then twice with 2 threads, in the
# locality order (every tick of 2 events or more that can split runs on
# both: CUBEMU_THREADS_MIN_EVENTS=2, emu/sim_parallel.c) and in the contract's: exit status, JSON and messages
# must again be the traced run's, whatever the number of threads. Prints
# "determinism: N passed, N failed".
set -u
. "$(dirname "$0")/expect.sh"
cd "$(dirname "$0")/.."
scratch determinism
while IFS= read -r f; do
  ok=1
  for i in 1 2; do
    "$CUBEMU" run "$f" --json --trace "$T/t$i" >"$T/j$i" 2>"$T/e$i"
    echo $? >"$T/rc$i"
  done
  CUBEMU_THREADS=1 CUBEMU_ORDER=locality "$CUBEMU" run "$f" --json >"$T/j3" 2>"$T/e3"
  echo $? >"$T/rc3"
  CUBEMU_THREADS=2 CUBEMU_THREADS_MIN_EVENTS=2 CUBEMU_ORDER=locality \
    "$CUBEMU" run "$f" --json >"$T/j4" 2>"$T/e4"
  echo $? >"$T/rc4"
  CUBEMU_THREADS=2 CUBEMU_THREADS_MIN_EVENTS=2 CUBEMU_ORDER=contract \
    "$CUBEMU" run "$f" --json >"$T/j5" 2>"$T/e5"
  echo $? >"$T/rc5"
  if ! cmp -s "$T/rc1" "$T/rc2" || ! cmp -s "$T/rc1" "$T/rc3"; then
    echo "FAIL $f: exit statuses differ"; ok=0
  elif ! cmp -s "$T/e1" "$T/e3"; then
    echo "FAIL $f: the locality order's messages differ"; ok=0
  elif ! cmp -s "$T/j1" "$T/j3"; then
    echo "FAIL $f: the locality order's JSON differs"; ok=0
  elif ! cmp -s "$T/rc1" "$T/rc4" || ! cmp -s "$T/e1" "$T/e4" \
       || ! cmp -s "$T/j1" "$T/j4"; then
    echo "FAIL $f: 2 threads in the locality order differ from 1"; ok=0
  elif ! cmp -s "$T/rc1" "$T/rc5" || ! cmp -s "$T/e1" "$T/e5" \
       || ! cmp -s "$T/j1" "$T/j5"; then
    echo "FAIL $f: 2 threads in the contract's order differ from 1"; ok=0
  elif ! cmp -s "$T/t1" "$T/t2"; then
    echo "FAIL $f: the two traces differ"; ok=0
  elif ! cmp -s "$T/j1" "$T/j2"; then
    echo "FAIL $f: the two JSON reports differ"; ok=0
  fi
  if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done < <(find scenarios -name '*.ini' | sort)
echo "determinism: $passed passed, $failed failed"
[ "$failed" = 0 ]
