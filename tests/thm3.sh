#!/usr/bin/env bash
# tests/thm3.sh -- Theorem 3 with delta = 8, K = 32 on every shape
# (algorithms/reshape/README.md, "Every shape of every cube"):
# build/tools/thm3-types (tools/thm3-types.c) types the groups of
# two-path's 2-cubes by linearity, and here that method must give what the
# enumeration of every node gave on the 16-cube (2026-11-25: the counts of
# all 32,768 shapes and the eight the second table serves), the same types
# shape by shape where both run, the same types on random shapes of 17- to
# 26-cubes as on their classes' smallest shapes (the reduction --all rests
# on), and the tables prepare chose on the shapes
# algorithms/reshape/README.md names. --all itself (every class, 2
# minutes) is run by hand. Ends with "thm3: N passed, N failed".
set -u
BUILD=${BUILD:-build}
T=$BUILD/tools/thm3-types
. "$(dirname "$0")/expect.sh"

run "$T" --linear
if [ "$rc" = 0 ] && [ "$(tail -n 1 <<<"$out")" = "32768 shapes: theorem3-patterns-d8-k32.txt ascending 28724, descending 4036; theorem3-patterns-d8-k32-b.txt ascending 8, descending 0; none 0" ] \
   && [ "$(grep 'k32-b.txt, ascending' <<<"$out" | cut -d' ' -f1 | tr '\n' ' ')" = "30 31 120 121 158 159 248 249 " ]; then
  ok linear-16-cube-counts; else bad linear-16-cube-counts; fi
run "$T" --linear-check 240 255
if [ "$rc" = 0 ] && grep -qx "linear types identical on 16 shapes, both orders" <<<"$out"; then
  ok linear-check; else bad linear-check; fi
run "$T" --classes-check 3000 7
if [ "$rc" = 0 ] && [ "$out" = "3000 random shapes of 17- to 26-cubes: the same types as their classes' smallest shapes, both orders" ]; then
  ok classes-check; else bad classes-check; fi
run "$T" --lines <<'SHAPES'
16 128x4x4x4x256 2x4x4x1024x64
16 8x16x16x16x64 2x16x16x16x256
17 256x4x4x4x256 2x8x4x1024x64
20 2x512x4x4x8x8x4x2x2x2 8x8x8192x16x2x2
SHAPES
if [ "$rc" = 0 ] && [ "$out" = "16 128x4x4x4x256 2x4x4x1024x64: theorem3-patterns-d8-k32-b.txt ascending
16 8x16x16x16x64 2x16x16x16x256: theorem3-patterns-d8-k32.txt ascending
17 256x4x4x4x256 2x8x4x1024x64: theorem3-patterns-d8-k32-b.txt ascending
20 2x512x4x4x8x8x4x2x2x2 8x8x8192x16x2x2: theorem3-patterns-d8-k32-b.txt ascending" ]; then
  ok lines-readme-shapes; else bad lines-readme-shapes; fi
expect classes-check-usage 2 "thm3-types --classes-check COUNT SEED: COUNT a number of shapes from 1, SEED a number" -- \
  "$T" --classes-check 0 7

echo "thm3: $passed passed, $failed failed"
[ "$failed" = 0 ]
