#!/usr/bin/env bash
# tests/determinism.sh -- every scenario under scenarios/ run twice: the two
# JSON reports must be byte-identical (without --timing nothing in them
# depends on the clock), and the two traces (--trace) byte-identical. A
# traced run keeps the contract's order (sim.h, SimOrder); a third run,
# without a trace, runs in the locality order wherever that applies, and
# its exit status, JSON and messages must be the traced run's: the
# locality order is the contract's run. Prints "determinism: N passed, N
# failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
EMU=$BUILD/cubemu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
while IFS= read -r f; do
  ok=1
  for i in 1 2; do
    "$EMU" run "$f" --json --trace "$tmp/t$i" >"$tmp/j$i" 2>"$tmp/e$i"
    echo $? >"$tmp/rc$i"
  done
  CUBEMU_ORDER=locality "$EMU" run "$f" --json >"$tmp/j3" 2>"$tmp/e3"
  echo $? >"$tmp/rc3"
  if ! cmp -s "$tmp/rc1" "$tmp/rc2" || ! cmp -s "$tmp/rc1" "$tmp/rc3"; then
    echo "FAIL $f: exit statuses differ"; ok=0
  elif ! cmp -s "$tmp/e1" "$tmp/e3"; then
    echo "FAIL $f: the locality order's messages differ"; ok=0
  elif ! cmp -s "$tmp/j1" "$tmp/j3"; then
    echo "FAIL $f: the locality order's JSON differs"; ok=0
  elif ! cmp -s "$tmp/t1" "$tmp/t2"; then
    echo "FAIL $f: the two traces differ"; ok=0
  elif ! cmp -s "$tmp/j1" "$tmp/j2"; then
    echo "FAIL $f: the two JSON reports differ"; ok=0
  fi
  if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done < <(find scenarios -name '*.ini' | sort)
echo "determinism: $pass passed, $fail failed"
[ "$fail" = 0 ]
