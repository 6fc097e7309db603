#!/usr/bin/env bash
# Black-box tests of the cubemu command line: exit statuses and the exact
# messages for bad input (tmux's regress/ style). Ends with one line
# "cli: N passed, N failed".
set -u
BUILD=${BUILD:-build}
CUBEMU="$BUILD/cubemu"
D=tests/data/cli
. "$(dirname "$0")/expect.sh"

# CUBEMU_ORDER (run/run.h, RunOrder): a bad value is bad input; a run
# whose events contend leaves the locality order at its first tick with a
# conflict (G_MESSAGES_DEBUG says so, on stderr) and reports exactly what
# the contract's order reports: one that stops at tick 1 (the mesh FFT)
# runs again in the contract's order, one that stops at tick 0 (the
# DBLAS's spread) in the contract's order for tick 0 and the locality
# order after, to the end there; an exchange stays in the locality order
expect order-env-bad 2 "cubemu run: CUBEMU_ORDER: unknown order 'fifo' (valid: contract, locality, survey)" -- \
  env CUBEMU_ORDER=fifo "$CUBEMU" run scenarios/fft/mesh-1d.ini
order_json() {   # order_json ORDER SCENARIO: its JSON (no wall time in it)
  CUBEMU_ORDER=$1 "$CUBEMU" run "$2" --json
}
run env G_MESSAGES_DEBUG=all "$CUBEMU" run scenarios/fft/mesh-1d.ini --json
if [ "$rc" = 0 ] && [[ "$out" == *"tick 1: nodes 0 and 1 both reserved a channel of node 1: the locality order does not apply; running it again in the contract's order"* ]] \
   && [ -n "$(order_json contract scenarios/fft/mesh-1d.ini)" ] \
   && [ "$(order_json contract scenarios/fft/mesh-1d.ini)" = "$(order_json locality scenarios/fft/mesh-1d.ini)" ]; then
  ok order-fallback; else bad order-fallback; fi
run env G_MESSAGES_DEBUG=all "$CUBEMU" run scenarios/dblas/cube-3-matvec-5x7.ini --json
if [ "$rc" = 0 ] && [[ "$out" == *"tick 0: nodes 2 and 3 both reserved a channel of node 3: the locality order does not apply; running it again, in the contract's order for tick 0 and in the locality order after"* ]] \
   && [ "$(grep -c 'running it again' <<<"$out")" = 1 ] \
   && [ "$(order_json contract scenarios/dblas/cube-3-matvec-5x7.ini)" = "$(order_json locality scenarios/dblas/cube-3-matvec-5x7.ini)" ]; then
  ok order-from-tick-1; else bad order-from-tick-1; fi
run env G_MESSAGES_DEBUG=all "$CUBEMU" run scenarios/examples/exchange-sequential.ini --json
if [ "$rc" = 0 ] && [[ "$out" != *"locality order does not apply"* ]]; then
  ok order-exchange-stays; else bad order-exchange-stays; fi
# CUBEMU_ORDER=survey: the contract's run, byte for byte, with the
# locality order's conflicts counted on the debug log (bench/frontier.sh)
run env CUBEMU_ORDER=survey G_MESSAGES_DEBUG=all "$CUBEMU" run scenarios/fft/mesh-1d.ini --json
if [ "$rc" = 0 ] && grep -Eq ': survey: [0-9]+ of [0-9]+ ticks and [0-9]+ of [0-9]+ events without a conflict; [1-9][0-9]* conflicts, the first at tick 1$' <<<"$out" \
   && [ "$(order_json survey scenarios/fft/mesh-1d.ini)" = "$(order_json contract scenarios/fft/mesh-1d.ini)" ]; then
  ok order-survey; else bad order-survey; fi

expect missing-file 2 "cubemu run: $D/none.ini: cannot read: No such file or directory" -- \
  "$CUBEMU" run $D/none.ini
expect bad-keys 2 "cubemu run: $D/bad-keys.ini:10: unknown group [extra] (valid: machine, algorithm, expect)
$D/bad-keys.ini:4: unknown key 'wires' in [machine] (valid: preset, name, description, topology, ports, startup, element-time, neighbour.startup, neighbour.element-time, router.startup, router.element-time, memory-path, neighbour.memory-path, router.memory-path, startup-holds-port, flop-time, tick-seconds, model, faults, fault-policy, dimensions, shape, wrap, processors, loggp.L, loggp.o, loggp.g, loggp.G, loggp.O, loggp.S, kernel.NAME)
$D/bad-keys.ini:3: dimensions: '4x' is not an integer
$D/bad-keys.ini:9: unknown key 'colour' for algorithm 'gray-to-binary' (valid: name, method, program, elements-per-node, start-dimension)" -- \
  "$CUBEMU" run $D/bad-keys.ini
expect unknown-algorithm 2 "cubemu run: $D/unknown-algorithm.ini:4: name: unknown algorithm 'quicksort' (valid: gray-to-binary, binary-to-gray, exchange, bmmc, reshape, shift, fft, fft-broadcast, transpose, matmul, matvec, vecmat, rank1, schedule)" -- \
  "$CUBEMU" run $D/unknown-algorithm.ini
expect dblas-short-matrix 2 "cubemu run: --set algorithm.shape=3x64: shape: P = 3 is less than the N_r = 4 processor rows (every processor needs a block of A)" -- \
  "$CUBEMU" run --set machine.preset=cube --set machine.dimensions=3 --set algorithm.name=matvec --set algorithm.shape=3x64 --set algorithm.processors=4x2
expect fft-shuffle-irregular 2 "cubemu run: $D/fft-shuffle-irregular.ini:9: mapping: shuffle needs a regular mesh (all sides equal; Theorem 10 and Algorithm 4); use permutation:... on this one" -- \
  "$CUBEMU" run $D/fft-shuffle-irregular.ini
expect fft-size-mismatch 2 "cubemu run: $D/fft-size-mismatch.ini:6: shape: 64x32 has 2^11 points, the machine 4096 nodes (valid: an index set of exactly one element per node)" -- \
  "$CUBEMU" run $D/fft-size-mismatch.ini
expect impossible 2 "cubemu run: $D/impossible.ini:7: start-dimension: 4 is not a dimension requiring communication (valid: 0..3 for n = 5)" -- \
  "$CUBEMU" run $D/impossible.ini
expect_has too-large 2 "cubemu run: $D/too-large.ini: machine too large: 67108864 nodes with 4294967296 elements each would need" -- \
  "$CUBEMU" run $D/too-large.ini
expect no-preset 2 "cubemu run: $D/no-preset.ini:2: preset: unknown machine preset 'cray-1' (valid: ccc, cm200-16k, cm200-32k, cm200-64k, cm200-8k, cube, loggp, mesh-16x16x16, smp-8, torus-16x16)" -- \
  "$CUBEMU" run $D/no-preset.ini
expect table-no-tick 2 "cubemu run: $D/table-no-tick.ini:5: kernel.matvec: rate 'table' is in seconds: the machine needs tick-seconds (e.g. tick-seconds = 1e-7)" -- \
  "$CUBEMU" run $D/table-no-tick.ini
expect table-bad-cell 2 "cubemu run: --set machine.kernel.matvec=table:bad-cell.tbl: kernel.matvec: $D/tables/bad-cell.tbl:4: '2.O' is not a rate (a number of Mflop/s > 0, or '-')" -- \
  env CUBEMU_MACHINES=$D/tables "$CUBEMU" run $D/table-no-tick.ini \
  --set machine.tick-seconds=1e-7 --set machine.kernel.matvec=table:bad-cell.tbl
check table-with-tick env CUBEMU_MACHINES=$D/tables "$CUBEMU" run $D/table-no-tick.ini \
  --set machine.tick-seconds=1e-7
expect bad-expect 2 "cubemu run: $D/bad-expect.ini:7: expect cycles: 'about 12' is not a comparison (valid: NUMBER, or OP NUMBER with OP one of ==, <=, >=, <, >)
$D/bad-expect.ini:8: expect data: unknown value 'maybe' (valid: correct)" -- \
  "$CUBEMU" run $D/bad-expect.ini
expect bad-set 2 "cubemu run: --set 'dimensions=7': expected SECTION.KEY=VALUE, e.g. --set machine.dimensions=7" -- \
  "$CUBEMU" run --set dimensions=7
expect set-bad-number 2 "cubemu run: --set machine.dimensions=seven: dimensions: 'seven' is not an integer" -- \
  "$CUBEMU" run --set machine.dimensions=seven
expect set-out-of-range 2 "cubemu run: --set machine.dimensions=40: dimensions: 40 is out of range (valid: 1..26)" -- \
  "$CUBEMU" run --set machine.dimensions=40
expect unknown-option 2 "cubemu run: Unknown option --fast" -- "$CUBEMU" run --fast
expect unknown-command 2 "cubemu: unknown command 'walk' (valid: run, check, list, trace, view, sweep, machine; see cubemu --help)" -- "$CUBEMU" walk
expect two-scenarios 2 "cubemu run: one scenario at a time ('b.ini' is extra); use cubemu check for several" -- \
  "$CUBEMU" run a.ini b.ini
expect version 0 "cubemu 0.1.0" -- "$CUBEMU" --version
expect_has help 0 "Without SCENARIO it runs the embedded default: gray-to-binary" -- "$CUBEMU" --help

# check: one line per scenario and the summary; exit 1 on a failed expectation
expect check-fails 1 "FAIL $D/failing.ini: $D/failing.ini:10: expected cycles < 12, measured 12
ok   scenarios/paper/johnsson-ho-figure4.ini (cycles 3)
1 passed, 1 failed" -- "$CUBEMU" check $D/failing.ini scenarios/paper/johnsson-ho-figure4.ini
expect_has check-bad-input 2 "FAIL $D/none.ini: $D/none.ini: cannot read" -- "$CUBEMU" check $D/none.ini
expect check-nothing 2 "cubemu check: no SCENARIO given (e.g. cubemu check scenarios/paper/*.ini)" -- "$CUBEMU" check

# a scenario whose name says cm200 runs on a cm200 preset, so that its
# name says what it is (the unit-cost cubes are named NCUBE)
misnamed=$(for f in $(find scenarios -name '*cm200*.ini' | sort); do
  grep -qE '^preset = cm200-(8|16|32|64)k$' "$f" || echo "$f"; done)
if [ -z "$misnamed" ]; then ok scenario-names-say-their-preset
else rc=1 out=$misnamed; bad scenario-names-say-their-preset; fi

# every file the README's quick start writes is ignored by git, so that
# trying it leaves the checkout clean
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  written=$(sed -n '/^## Quick start/,/^## /p' README.md \
    | grep -oE -- '(--plot|--png|--junit|--tap|--trace|--csv|-o) [^ ]+' | awk '{print $2}' | sort -u)
  unignored=$(for f in $written; do git check-ignore -q "$f" || echo "$f"; done)
  if [ -n "$written" ] && [ -z "$unignored" ]; then ok quick-start-outputs-ignored
  else rc=1 out="written: $written; not ignored: $unignored"; bad quick-start-outputs-ignored; fi
fi

# the engine's pages: the same bytes whichever, and a bad value refused
pages_json=""
for pages in auto small huge; do
  pages_json+=$(CUBEMU_PAGES=$pages "$CUBEMU" run --json --set machine.preset=cube \
    --set machine.dimensions=12 --set algorithm.name=exchange 2>&1 | md5sum)
done
if [ "$(printf '%s' "$pages_json" | tr -s ' -' '\n' | sort -u | grep -c .)" = 1 ]; then
  ok pages-same-bytes; else rc=1 out=$pages_json; bad pages-same-bytes; fi
expect pages-bad 2 "cubemu run: CUBEMU_PAGES: unknown pages 'giant' (valid: auto, small, huge)" -- \
  env CUBEMU_PAGES=giant "$CUBEMU" run

# the default scenario and the rules for filling it in
expect_has default-runs 0 "data                  correct" -- "$CUBEMU" run
# the first run checks the paper: Theorem 5 met exactly on the CM-200's
# channels, every bound evaluated and holding (none n/a), and one line on
# what the CM-200's memory paths make of it
run "$CUBEMU" run
if [ "$rc" = 0 ] && [[ "$out" == *"machine       cm200-8k (modified): cube, n = 8 (256 nodes, diameter 8), ports = all, neighbour startup = 0, element-time = 60, router startup = 0, element-time = 233, tick = 1e-07 s"* ]] \
   && [[ "$out" == *"  cycles                61740 (6.174 ms)"* ]] \
   && [[ "$out" == *"  compared              machine.memory-path=yes: 833700 cycles (83.37 ms), 13.5x this run; data correct, bounds hold"* ]] \
   && [[ "$out" == *"  Theorem 5: (n-1)(Ts + ceil(K/(n-1)))                         upper         61740        61740  yes"* ]] \
   && [[ "$out" == *"  Theorem 1: Ts + ceil(K/2)                                    lower         30720        61740  yes"* ]] \
   && [[ "$out" != *"n/a"* ]] && [[ "$out" != *" NO"* ]]; then ok default-checks-theorem5
else bad default-checks-theorem5; fi
run "$CUBEMU" run --json
if [ "$rc" = 0 ] && python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["cycles"] == 61740 and d["data_correct"]
assert all(b["applies"] and b["holds"] for b in d["bounds"]) and len(d["bounds"]) == 4
assert d["compared"] == {"set": ["machine.memory-path=yes"], "cycles": 833700, "seconds": 0.08337,
    "element_transfers": 917504, "messages": 6272, "data_correct": True, "bounds_hold": True}, d["compared"]
' "$out"; then ok default-compared-json; else bad default-compared-json; fi
# the CM-200 as built: Theorem 5 is n/a with the reason, and the busiest
# node's memory path bounds the cycles from below
run "$CUBEMU" run --set machine.preset=cm200-8k
if [ "$rc" = 0 ] && [[ "$out" == *"  cycles                833700 (83.37 ms)"* ]] \
   && [[ "$out" == *"  memory paths: the busiest node's path                        lower        807480       833700  yes"* ]] \
   && [[ "$out" == *"      n/a: the machine prices memory paths, which the bound's model of channels alone leaves out"* ]] \
   && [[ "$out" != *"compared"* ]]; then ok default-as-built
else bad default-as-built; fi
# --compare on any scenario: the line, and a bad assignment refused first
expect_has compare-element-time 0 "  compared              machine.element-time=2: 6 cycles, 2x this run; data correct, bounds hold" -- \
  "$CUBEMU" run scenarios/paper/johnsson-ho-figure5-concurrent.ini --compare machine.element-time=2
expect compare-malformed 2 "cubemu run: --compare 'nonsense': expected SECTION.KEY=VALUE, e.g. --compare machine.dimensions=7" -- \
  "$CUBEMU" run scenarios/paper/johnsson-ho-figure4.ini --compare nonsense
expect_has compare-unknown-key 2 "cubemu run: --compare machine.dimension=3: unknown key 'dimension' in [machine]; did you mean 'dimensions'?" -- \
  "$CUBEMU" run scenarios/paper/johnsson-ho-figure4.ini --compare machine.dimension=3
expect_has default-other-algorithm 0 "algorithm     exchange, method sequential, elements-per-node = 64" -- \
  "$CUBEMU" run --set algorithm.name=exchange
expect_has default-dimensions 0 "machine       cm200-8k (modified): cube, n = 7 (128 nodes, diameter 7)" -- \
  "$CUBEMU" run --set machine.dimensions=7 --set algorithm.name=gray-to-binary
# a plain key overrides both classes' keys of the preset: modified too
expect_has plain-key-modifies-class-keys 0 "machine       cm200-8k (modified): cube, n = 8" -- \
  "$CUBEMU" run scenarios/paper/johnsson-ho-figure5-concurrent.ini \
  --set machine.preset=cm200-8k --set machine.memory-path=no --set machine.dimensions=8
expect_has default-cube-not-modified 0 "machine       cube: cube, n = 5 (32 nodes, diameter 5), ports = all" -- \
  "$CUBEMU" run --set machine.preset=cube --set machine.dimensions=5
expect_has default-other-machine 0 "machine       cube (modified): cube, n = 5 (32 nodes, diameter 5), ports = 1" -- \
  "$CUBEMU" run --set machine.preset=cube --set machine.dimensions=5 --set machine.ports=one
expect_has list 0 "gray-to-binary: move element (i, j) from node G(i) to node i" -- "$CUBEMU" list
expect_has list-presets 0 "cm200-64k      CM-200, 2048 nodes, 11-cube, all ports" -- "$CUBEMU" list

# Machines (issue #10): bad descriptions refused with the file and line
expect mesh-side-one 2 "cubemu run: $D/mesh-side-one.ini:3: shape: '8x1x4': side 1 of axis 1 is out of range (valid: 2..67108864)" -- \
  "$CUBEMU" run $D/mesh-side-one.ini
expect complete-one 2 "cubemu run: $D/complete-one.ini:3: processors: 1 is out of range (valid: 2..67108864)" -- \
  "$CUBEMU" run $D/complete-one.ini
expect complete-router 2 "cubemu run: $D/complete-router.ini:4: 'router.startup': topology complete has no router class (every destination is a neighbour; price messages with startup and element-time)" -- \
  "$CUBEMU" run $D/complete-router.ini
# The registered topologies, in their table's order.
topologies=$("$CUBEMU" list --json | python3 -c 'import json, sys; print(", ".join(t["name"] for t in json.load(sys.stdin)["topologies"]))')
expect unknown-topology 2 "cubemu run: $D/unknown-topology.ini:2: topology: unknown topology 'hypertorus' (valid: $topologies)" -- \
  "$CUBEMU" run $D/unknown-topology.ini
expect mesh-too-many-nodes 2 "cubemu run: $D/mesh-too-many-nodes.ini:3: shape: '65536x65536' is too large: 4294967296 nodes (valid: sides whose product is at most 67108864)" -- \
  "$CUBEMU" run $D/mesh-too-many-nodes.ini
expect_has mesh-too-large 2 "cubemu run: $D/mesh-too-large.ini: machine too large: 67108864 nodes with 1000000 elements each would need" -- \
  "$CUBEMU" run $D/mesh-too-large.ini
expect ccc-too-small 2 "cubemu run: $D/ccc-too-small.ini:3: dimensions: 2 is out of range (valid: 3..21)" -- \
  "$CUBEMU" run $D/ccc-too-small.ini
expect ccc-shift-axis 2 "cubemu run: $D/ccc-shift-axis.ini:6: axis: does not pick the rings of a ccc (it has one family of rings)" -- \
  "$CUBEMU" run $D/ccc-shift-axis.ini
expect ccc-exchange 2 "cubemu run: $D/ccc-exchange.ini:5: algorithm 'exchange' does not run on topology 'ccc' (it runs on: cube)" -- \
  "$CUBEMU" run $D/ccc-exchange.ini
expect mesh-with-dimensions 2 "cubemu run: $D/mesh-with-dimensions.ini:4: 'dimensions' describes a cube; this machine's topology is mesh (its keys: shape, wrap)" -- \
  "$CUBEMU" run $D/mesh-with-dimensions.ini
expect wrong-topology 2 "cubemu run: $D/wrong-topology.ini:4: algorithm 'gray-to-binary' does not run on topology 'mesh' (it runs on: cube)" -- \
  "$CUBEMU" run $D/wrong-topology.ini
expect bad-tick 2 "cubemu run: --set machine.tick-seconds=fast: tick-seconds: 'fast' is not a tick length (valid: a number of seconds in 1e-18..3600, e.g. 1e-7)" -- \
  "$CUBEMU" run --set machine.tick-seconds=fast

# Issue #46, item 7: every message names the file and line or the flag, and
# says what is wrong. A bad [expect] line is reported with the file's other
# problems, not instead of them, by run and by check
expect bad-expect-and-keys 2 "cubemu run: $D/bad-expect-and-keys.ini:6: unknown key 'wires' in [machine] (valid: preset, name, description, topology, ports, startup, element-time, neighbour.startup, neighbour.element-time, router.startup, router.element-time, memory-path, neighbour.memory-path, router.memory-path, startup-holds-port, flop-time, tick-seconds, model, faults, fault-policy, dimensions, shape, wrap, processors, loggp.L, loggp.o, loggp.g, loggp.G, loggp.O, loggp.S, kernel.NAME)
$D/bad-expect-and-keys.ini:9: elements-per-node: 'many' is not an integer
$D/bad-expect-and-keys.ini:11: expect cycles: 'about 12' is not a comparison (valid: NUMBER, or OP NUMBER with OP one of ==, <=, >=, <, >)" -- \
  "$CUBEMU" run $D/bad-expect-and-keys.ini
expect check-bad-expect-and-keys 2 "FAIL $D/bad-expect-and-keys.ini: $D/bad-expect-and-keys.ini:6: unknown key 'wires' in [machine] (valid: preset, name, description, topology, ports, startup, element-time, neighbour.startup, neighbour.element-time, router.startup, router.element-time, memory-path, neighbour.memory-path, router.memory-path, startup-holds-port, flop-time, tick-seconds, model, faults, fault-policy, dimensions, shape, wrap, processors, loggp.L, loggp.o, loggp.g, loggp.G, loggp.O, loggp.S, kernel.NAME)
$D/bad-expect-and-keys.ini:9: elements-per-node: 'many' is not an integer
$D/bad-expect-and-keys.ini:11: expect cycles: 'about 12' is not a comparison (valid: NUMBER, or OP NUMBER with OP one of ==, <=, >=, <, >)
0 passed, 1 failed" -- "$CUBEMU" check $D/bad-expect-and-keys.ini
# memory paths (machine.h): a value that is not yes or no, and a class the
# topology lacks, refused naming the flag
expect bad-memory-path 2 "cubemu run: --set machine.router.memory-path=maybe: router.memory-path: unknown value 'maybe' (valid: no, yes)" -- \
  "$CUBEMU" run --set machine.router.memory-path=maybe
expect memory-path-no-router 2 "cubemu run: --set machine.router.memory-path=yes: 'router.memory-path': topology complete has no router class (every destination is a neighbour; price messages with startup and element-time)" -- \
  "$CUBEMU" run --set machine.topology=complete --set machine.processors=4 \
  --set machine.router.memory-path=yes --set algorithm.name=exchange
# on a machine with memory paths a paper's upper bound on the cycles is
# n/a, with the reason, and the run's bounds hold (docs/report.md)
expect_has paths-bound-na 0 "      on cycles: Johnsson & Ho, Theorem 3
      n/a: the machine prices memory paths" -- \
  "$CUBEMU" run scenarios/paper/johnsson-ho-theorem3-delta2-K16.ini \
  --set machine.preset=cm200-8k
expect_has paths-bounds-hold 0 "1 passed, 0 failed" -- \
  "$CUBEMU" check scenarios/paper/johnsson-ho-theorem3-delta2-K16.ini \
  --set machine.preset=cm200-8k --set "expect.cycles=>= 1" --set expect.bounds=hold
# memory paths on every class, one scenario of each algorithm and
# Johnsson & Ho's theorems: every bound that still applies holds, and the
# data are right (a path only delays an element)
paths_out=""
for f in scenarios/paper/johnsson-ho-theorem2-K16.ini scenarios/paper/johnsson-ho-theorem3-K16.ini \
         scenarios/paper/johnsson-ho-theorem4-K16.ini scenarios/paper/johnsson-ho-figure5-concurrent.ini \
         scenarios/paper/johnsson-ho-figure4.ini scenarios/paper/johnsson-ho-binary-to-gray.ini \
         $(ls scenarios/bmmc/*.ini | head -2) $(ls scenarios/fft/*.ini | head -1) \
         $(ls scenarios/shift/*.ini | head -1) $(ls scenarios/transpose/*.ini | head -1) \
         scenarios/examples/exchange-one-port.ini scenarios/matmul/figure3-4x8.ini \
         scenarios/dblas/cube-4-combined-16x16.ini; do
  paths_out+=$("$CUBEMU" run --json --quiet "$f" --set machine.memory-path=yes 2>&1 | python3 -c '
import json, sys
try:
    d = json.load(sys.stdin)
except ValueError:
    print(sys.argv[1], "no report"); sys.exit()
bad = [b["name"] for b in d["bounds"] if b["applies"] and not b["holds"]]
if bad or not d["data_correct"]:
    print(sys.argv[1], bad, d["data_correct"])' "$f")
done
if [ -z "$paths_out" ]; then ok paths-bounds-every-algorithm
else rc=1 out=$paths_out; bad paths-bounds-every-algorithm; fi
# a scenario's plain memory-path overrides the preset's class keys: with
# the prices before memory paths, Table 1's matvec on cm200-8k takes the
# cycles it took then (algorithms/dblas/README.md)
expect_has memory-path-off 0 "1 passed, 0 failed" -- \
  "$CUBEMU" check scenarios/dblas/cm200-8k-matvec-4096.ini \
  --set machine.memory-path=no --set machine.router.element-time=581 \
  --set machine.neighbour.element-time=470 \
  --set "expect.cycles=== 615694"
# ... and with what only the algorithm's prepare finds
expect bad-expect-and-prepare 2 "cubemu run: $D/impossible.ini:7: start-dimension: 4 is not a dimension requiring communication (valid: 0..3 for n = 5)
--set expect.cycles=about: expect cycles: 'about' is not a comparison (valid: NUMBER, or OP NUMBER with OP one of ==, <=, >=, <, >)" -- \
  "$CUBEMU" run $D/impossible.ini --set expect.cycles=about
# a topology other than the preset's is the user's line (or flag) that
# conflicts with the preset, not the preset's own lines
expect preset-topology 2 "cubemu run: $D/preset-topology.ini:5: topology: 'cube' conflicts with preset 'torus-16x16', whose keys shape, wrap describe a mesh (valid: a preset of topology cube, or no preset)" -- \
  "$CUBEMU" run $D/preset-topology.ini
expect set-preset-topology 2 "cubemu run: --set machine.topology=cube: topology: 'cube' conflicts with preset 'torus-16x16', whose keys shape, wrap describe a mesh (valid: a preset of topology cube, or no preset)" -- \
  "$CUBEMU" run --set machine.preset=torus-16x16 --set machine.topology=cube \
  --set machine.dimensions=4 --set algorithm.name=exchange
# a shape with too many nodes names its key and the limit
expect set-shape-too-large 2 "cubemu run: --set machine.shape=65536x65536: shape: '65536x65536' is too large: 4294967296 nodes (valid: sides whose product is at most 67108864)" -- \
  "$CUBEMU" run --set machine.preset=torus-16x16 --set machine.shape=65536x65536 \
  --set algorithm.name=shift
# --set values are UTF-8, as a file's are, whatever the locale: valid UTF-8
# is taken (free text) or refused with the key's own message, as in a file;
# bytes that are not UTF-8 are refused naming the flag and the key
for lang in C C.UTF-8; do
  expect_has "set-utf8-text-$lang" 0 "machine       Zürich: cube, n = 3" -- \
    env LANG=$lang LC_ALL=$lang "$CUBEMU" run --set machine.name=Zürich \
    --set machine.preset=cube --set machine.dimensions=3 --set algorithm.name=exchange
  expect "set-utf8-number-$lang" 2 "cubemu run: --set machine.dimensions=٤: dimensions: '٤' is not an integer" -- \
    env LANG=$lang LC_ALL=$lang "$CUBEMU" run --set machine.dimensions=٤
  expect "set-not-utf8-$lang" 2 'cubemu run: --set machine.name=caf\xE9: name: not UTF-8 text' -- \
    env LANG=$lang LC_ALL=$lang "$CUBEMU" run --set machine.name=$'caf\xe9'
  expect "set-not-utf8-joined-$lang" 2 'cubemu check: --set machine.name=caf\xE9: name: not UTF-8 text' -- \
    env LANG=$lang LC_ALL=$lang "$CUBEMU" check $D/bad-expect.ini --set=machine.name=$'caf\xe9'
  expect "set-not-utf8-key-$lang" 2 "cubemu run: --set 'machine.na\\xE9me=x': expected SECTION.KEY=VALUE, e.g. --set machine.dimensions=7" -- \
    env LANG=$lang LC_ALL=$lang "$CUBEMU" run --set $'machine.na\xe9me=x'
done
expect utf8-number-file 2 "cubemu run: $D/utf8-number.ini:5: dimensions: '٤' is not an integer" -- \
  "$CUBEMU" run $D/utf8-number.ini
# a trace whose reserved header byte is not 0, with a checksum that agrees:
# the reserved byte, not the checksum, refuses it
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run "$CUBEMU" run --set machine.preset=cube --set machine.dimensions=3 \
  --set algorithm.name=exchange --trace "$tmp/ok.trace"
python3 - "$tmp/ok.trace" "$tmp/reserved.trace" <<'EOF'
import struct, sys, zlib
d = bytearray(open(sys.argv[1], "rb").read())
d[19] = 7                                    # traces/FORMAT.md: reserved, 0
d[-4:] = struct.pack("<I", zlib.crc32(bytes(d[:-4])))   # zlib's crc32(0, ...)
open(sys.argv[2], "wb").write(d)
EOF
check trace-reserved-ok "$CUBEMU" trace info "$tmp/ok.trace"
expect trace-reserved-byte 2 "cubemu trace: $tmp/reserved.trace: corrupt: reserved header byte 19 is 7, not 0" -- \
  "$CUBEMU" trace info "$tmp/reserved.trace"

# JSON: exactly the documented keys, and numbers that agree with each other
run "$CUBEMU" run --json --dump-memory --set machine.preset=cube --set machine.dimensions=3 \
  --set algorithm.name=exchange --set algorithm.elements-per-node=2
if [ "$rc" = 0 ] && printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
keys = ["cubemu", "schema", "backend", "scenario", "machine", "algorithm", "element",
        "elements_per_node", "cycles", "element_transfers", "messages",
        "max_channel_elements", "data_correct", "bounds", "per_class", "per_link",
        "time", "phases", "details", "stats", "memory"]
assert list(d.keys()) == keys, list(d.keys())
assert d["schema"] == 8 and d["backend"] == "emulator" and d["element"] == "word" and d["phases"] == []
assert list(d["machine"].keys()) == ["name", "topology", "dimensions", "nodes", "links",
    "diameter", "ports", "startup", "element_time", "pricing", "startup_holds_port",
    "flop_time"], list(d["machine"].keys())
assert d["machine"]["pricing"] == {"neighbour": {"startup": 0, "element_time": 1, "memory_path": False},
                                   "router": {"startup": 0, "element_time": 1, "memory_path": False}}
assert d["algorithm"] == {"name": "exchange", "method": "sequential", "elements_per_node": 2}
assert d["cycles"] == 6 and d["messages"] == 24 and d["element_transfers"] == 48
assert d["data_correct"] is True
assert all(set(b) == {"name", "field", "kind", "value", "measured", "applies", "holds", "source", "reason"} for b in d["bounds"])
assert all(b["reason"] is None for b in d["bounds"])
assert all(b["applies"] and b["holds"] is True for b in d["bounds"])
assert [p["link"] for p in d["per_link"]] == [0, 1, 2]
assert [p["name"] for p in d["per_link"]] == ["dimension 0", "dimension 1", "dimension 2"]
assert sum(p["elements_up"] + p["elements_down"] for p in d["per_link"]) == 48
assert all(abs(p["utilisation"] - 16 / (6 * 8)) < 1e-12 for p in d["per_link"])
assert d["per_class"] == [{"class": "neighbour", "messages": 24, "elements": 48,
                           "element_transfers": 48},
                          {"class": "router", "messages": 0, "elements": 0,
                           "element_transfers": 0}]
assert d["time"] == {"compute": {"max": 0, "mean": 0}, "communication": {"max": 6, "mean": 6}}
assert d["stats"] == {"events": 48}   # the wall time only with --timing
assert d["memory"][0] == [14, 15] and d["memory"][5] == [4, 5]   # antipodes
'; then ok json; else bad json; fi

# The bench's helpers (bench/bench.c, used by bench/peers.sh and run.sh):
# the copy loop checks where its data ended (node 0 holds its antipode's
# elements) and prints seconds; the latency chase prints ns and MiB; the
# first-touch probe prints two costs a MiB; the
# step timer prints a row per step; bad operands are refused with the flag
# named.
BENCHP="$BUILD/bench/bench"
run "$BENCHP" --memcpy-floor 10 8
if [ "$rc" = 0 ] && [[ "$out" =~ ^[0-9]+\.[0-9]{6}$ ]]; then ok bench-floor; else bad bench-floor; fi
run "$BENCHP" --read-latency 2
if [ "$rc" = 0 ] && [[ "$out" =~ ^[0-9]+\.[0-9]\ 2$ ]] && [ "${out%% *}" != 0.0 ]; then
  ok bench-latency; else bad bench-latency; fi
# --steps: a row per dimension's step, at its tick (K + 1 cycles apart),
# with the step's 2^n node steps and 2^n deliveries, n (K + 1) cycles; in
# the locality order the same, and it stays in that order to the end,
# since nothing in an exchange contends
for order in "" contract locality; do
  run env -u CUBEMU_ORDER "$BENCHP" --steps 6 8 $order
  rows=$(awk '$1 ~ /^[0-9]+$/ { printf "%s:%s:%s ", $1, $2, $3 }' <<<"$out")
  if [ "$rc" = 0 ] && [ "$rows" = "0:0:128 1:9:128 2:18:128 3:27:128 4:36:128 5:45:128 " ] \
     && [[ "$out" == *"total: 768 events in "*"; ${order:-locality} order; 54 cycles; data correct" ]]; then
    ok "bench-steps${order:+-$order}"; else bad "bench-steps${order:+-$order}"; fi
done
expect bench-steps-order 2 "bench: --steps: unknown order 'fifo' (valid: contract, locality)" -- \
  "$BENCHP" --steps 6 8 fifo
expect bench-steps-bad-n 2 "bench: --steps: N: 27 is out of range (valid: 1..26)" -- \
  "$BENCHP" --steps 27 8
expect_has bench-steps-too-big 2 "bench: --steps: machine too large: 67108864 nodes with 1048576 elements each would need 1.0" -- \
  env CUBEMU_MEMORY_LIMIT=1000000000 "$BENCHP" --steps 26 1048576
expect bench-steps-operands 2 "bench: --steps takes N K [ORDER] (the exchange on a cube of 2^N nodes, K elements each; ORDER contract or locality; without it, cubemu run's)" -- \
  "$BENCHP" --steps 6
expect bench-floor-bad-n 2 "bench: --memcpy-floor: N: 0 is out of range (valid: 1..30)" -- \
  "$BENCHP" --memcpy-floor 0 8
expect bench-floor-too-big 2 "bench: --memcpy-floor: K: 5 is out of range (valid: 1..4)" -- \
  "$BENCHP" --memcpy-floor 30 5
expect bench-floor-operands 2 "bench: --memcpy-floor takes N K (a cube of 2^N nodes, K elements each)" -- \
  "$BENCHP" --memcpy-floor 10
expect bench-latency-bad 2 "bench: --read-latency: MiB: '1x' is not an integer" -- \
  "$BENCHP" --read-latency 1x
# --first-touch: two costs a MiB, small pages then huge, each positive
run "$BENCHP" --first-touch 4 0
if [ "$rc" = 0 ] && [[ "$out" =~ ^[0-9]+\.[0-9]{3}\ [0-9]+\.[0-9]{3}$ ]] \
   && [ "${out%% *}" != 0.000 ] && [ "${out##* }" != 0.000 ]; then
  ok bench-first-touch; else bad bench-first-touch; fi
expect bench-first-touch-pause 2 "bench: --first-touch: PAUSE: 601 is out of range (valid: 0..600)" -- \
  "$BENCHP" --first-touch 4 601
expect bench-first-touch-operands 2 "bench: --first-touch takes MiB and a pause in seconds before each of the two mappings" -- \
  "$BENCHP" --first-touch 4
# --line-model: a row per dimension's step with the engine's count of
# events (2^n node steps and 2^n deliveries), and the lines a pair of each
# layout touches, as docs/performance.md, "The line model", counts them
pairs=""
for layout in engine partner edge edgeq edgeq1 own nochan moved movednc; do
  run "$BENCHP" --line-model 5 "$layout" 3
  rows=$(awk '$1 ~ /^[0-9]+$/ { printf "%s:%s ", $1, $2 }' <<<"$out")
  [ "$rc" = 0 ] && [ "$rows" = "0:64 1:64 2:64 3:64 4:64 " ] \
    && [[ "$out" == *"total: 320 events in "* ]] || pairs="$pairs bad-$layout"
  pairs="$pairs $(sed -n 's/.*lines: \([0-9]*\) far, \([0-9]*\) near)$/\1\/\2/p' <<<"$out")"
done
if [ "$pairs" = " 9/6 8/6 7/5 6/5 4/3 4/4 7/4 16/11 14/9" ]; then ok bench-line-model
else out=$pairs; bad bench-line-model; fi
# the same lines in either order: the order moves them, it does not change them
run "$BENCHP" --line-model 5 engine 3 locality
rows=$(awk '$1 ~ /^[0-9]+$/ { printf "%s:%s ", $1, $2 }' <<<"$out")
if [ "$rc" = 0 ] && [ "$rows" = "0:64 1:64 2:64 3:64 4:64 " ] \
   && [[ "$out" == *"(engine, locality order, work 3; a pair's lines: 9 far, 6 near)" ]]; then
  ok bench-line-model-locality; else bad bench-line-model-locality; fi
expect bench-line-model-order 2 "bench: --line-model: unknown order 'reversed' (valid: contract, locality)" -- \
  "$BENCHP" --line-model 5 engine 3 reversed
expect bench-line-model-layout 2 "bench: --line-model: unknown layout 'fast' (valid: engine, partner, edge, edgeq, edgeq1, own, nochan, moved, movednc)" -- \
  "$BENCHP" --line-model 5 fast 3
expect bench-line-model-bad-n 2 "bench: --line-model: N: 1 is out of range (valid: 2..26)" -- \
  "$BENCHP" --line-model 1 engine 3
expect bench-line-model-operands 2 "bench: --line-model takes N LAYOUT WORK [ORDER] (a cube of 2^N nodes; engine, partner, edge, edgeq, edgeq1, own, nochan, moved or movednc; rounds of work a node's step; contract, the default, or locality)" -- \
  "$BENCHP" --line-model 5 engine
expect bench-unknown 2 "bench: unknown arguments (valid: none or the cubemu program, --memcpy-floor N K, --steps N K [ORDER], --read-latency MiB, --first-touch MiB PAUSE, --line-model N LAYOUT WORK [ORDER])" -- \
  "$BENCHP" --fast
expect bench-two-operands 2 "bench: unknown arguments (valid: none or the cubemu program, --memcpy-floor N K, --steps N K [ORDER], --read-latency MiB, --first-touch MiB PAUSE, --line-model N LAYOUT WORK [ORDER])" -- \
  "$BENCHP" "$CUBEMU" extra

# files of another kind given as a scenario: one line saying what they are
"$CUBEMU" trace export "$tmp/ok.trace" --format paje -o "$tmp/ok.paje"
"$CUBEMU" trace export "$tmp/ok.trace" --format chrome -o "$tmp/ok.json"
expect scenario-is-trace 2 "cubemu run: $tmp/ok.trace: this is a cubemu trace, not a scenario (cubemu view, cubemu trace info and cubemu trace export read it)" -- \
  "$CUBEMU" run "$tmp/ok.trace"
expect scenario-is-paje 2 "cubemu view: $tmp/ok.paje: this is a Paje trace, not a scenario (ViTE and pj_dump read it)" -- \
  "$CUBEMU" view "$tmp/ok.paje" --png "$tmp/x.png"
expect scenario-is-json 2 "cubemu run: $tmp/ok.json: this is JSON (a report or an export?), not a scenario (a scenario is INI text: [machine], [algorithm], [expect])" -- \
  "$CUBEMU" run "$tmp/ok.json"
# a file with many bad lines: the first 20 and a count of the rest
{ echo '[machine]'; for i in $(seq 30); do echo "bad line $i"; done; } > "$tmp/many.ini"
run "$CUBEMU" run "$tmp/many.ini"
if [ "$rc" = 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 21 ] \
   && [ "$(printf '%s\n' "$out" | tail -n 1)" = "$tmp/many.ini: 10 more problems not listed" ]; then
  ok many-problems-capped; else bad many-problems-capped; fi

# make bench-report (bench/report.py) over a recorded results file: the
# latest run by default, one line a run, a figure's history; a malformed
# or missing file is exit 2 with its name and line
RP="python3 bench/report.py --file tests/data/bench/results.tsv"
run $RP
if [ "$rc" = 0 ] && [[ "$out" == "run 2026-01-02T00:00:00Z, commit bbb, 2 cores"* ]] \
   && [[ "$out" == *"exchange sequential n=14 K=64  0.01 s"* ]] \
   && [[ "$out" == *"exchange n=14 K=64  95x"* ]] \
   && [[ "$out" == *"SimGrid/cubemu >= 100 at n = 14  NOT MET"* ]] && [[ "$out" != *"aaa"* ]]; then
  ok bench-report-latest; else bad bench-report-latest; fi
run $RP --run 2
if [ "$rc" = 0 ] && [[ "$out" == *"commit aaa"* ]] && [[ "$out" == *"120.5x"* ]]; then
  ok bench-report-run; else bad bench-report-run; fi
expect bench-report-history 0 "case                       metric             2026-01-01 aaa  2026-01-02 bbb
-------------------------  -----------------  --------------  --------------
peers: exchange n=14 K=64  simgrid_vs_cubemu  120.5x          95x" -- $RP --history simgrid
expect bench-report-bad 2 "bench-report: tests/data/bench/bad.tsv:2: value 'fast' is not a number" -- \
  python3 bench/report.py --file tests/data/bench/bad.tsv
expect bench-report-run-range 2 "bench-report: --run 3: 2 runs recorded (valid: 1..2)" -- $RP --run 3
expect_has bench-report-missing 2 "bench-report: tests/data/bench/none.tsv: cannot read:" -- \
  python3 bench/report.py --file tests/data/bench/none.tsv

# [expect] fields are checked before the run, every one, with the closest
# name; dashes and underscores alike (element-transfers is fine)
run "$CUBEMU" run $D/expect-typo.ini
if [ "$rc" = 2 ] && [[ "$out" == "cubemu run: $D/expect-typo.ini:12: no output field 'cyles' in a run of gray-to-binary; did you mean 'cycles'? (fields: cycles, "* ]] \
   && [[ "$out" == *"$D/expect-typo.ini:14: no output field 'detail.sets' in a run of gray-to-binary; did you mean 'details.sets'?"* ]] \
   && [[ "$out" != *":13:"* ]]; then ok expect-field-typo-run; else bad expect-field-typo-run; fi
expect_has expect-field-typo-check 2 "FAIL $D/expect-typo.ini: $D/expect-typo.ini:12: no output field 'cyles'" -- \
  "$CUBEMU" check $D/expect-typo.ini
# a bound of another method is n/a and not evaluated
expect sequential-bounds-hold 0 "ok   $D/sequential-bounds.ini (cycles 128)
1 passed, 0 failed" -- "$CUBEMU" check $D/sequential-bounds.ini
run "$CUBEMU" run $D/sequential-bounds.ini --json
if [ "$rc" = 0 ] && python3 -c '
import json, sys
d = json.loads(sys.argv[1])
t5 = [b for b in d["bounds"] if b["name"].startswith("Theorem 5")]
assert len(t5) == 1 and t5[0]["applies"] is False and t5[0]["value"] is None \
    and t5[0]["holds"] is None and t5[0]["measured"] == 128 and t5[0]["field"] == "cycles" \
    and t5[0]["reason"].endswith("s bound; the sequential method moves all K elements in each step")
seq = [b for b in d["bounds"] if b["name"].startswith("sequential")]
assert len(seq) == 1 and seq[0]["applies"] and seq[0]["holds"] and seq[0]["value"] == 128
' "$out"; then ok bound-not-applicable-json; else bad bound-not-applicable-json; fi
expect_has bound-not-applicable-table 0 "  Theorem 5: (n-1)(Ts + ceil(K/(n-1)))                         upper             -          128  n/a
      on cycles: Johnsson & Ho, Theorem 5 (n-1 steps of ceil(K/(n-1)) element transfers)
      n/a: the concurrent method's bound; the sequential method moves all K elements in each step" -- \
  "$CUBEMU" run $D/sequential-bounds.ini
# every bound that does not apply says why, in every scenario's report;
# and the concurrent conversion evaluates Figure 4's bound (Theorem 5's
# is never larger): its report has no n/a at all
na_out=$(for f in $(find scenarios -name '*.ini' | sort); do
  "$CUBEMU" run --json --quiet "$f" 2>/dev/null; done | python3 -c '
import json, sys
n = 0
for line in sys.stdin:
    for b in json.loads(line)["bounds"]:
        if not b["applies"]:
            n += 1
            if not b["reason"]: print("no reason:", b["name"])
if n < 100: print("only", n, "bounds n/a")')
if [ -z "$na_out" ]; then ok bound-na-reasons; else rc=1 out=$na_out; bad bound-na-reasons; fi
run "$CUBEMU" run scenarios/paper/johnsson-ho-figure5-concurrent.ini --json
if [ "$rc" = 0 ] && python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert [b["name"] for b in d["bounds"]] == ["Theorem 1: Ts + ceil(K/2)", "Conjecture 1: Ts + K(n-1)/n",
    "Theorem 5: (n-1)(Ts + ceil(K/(n-1)))", "sequential: (n-1)(Ts + K)"], d["bounds"]
assert all(b["applies"] and b["holds"] for b in d["bounds"])
assert [b["value"] for b in d["bounds"]][2:] == [3, 9]
' "$out"; then ok concurrent-no-na; else bad concurrent-no-na; fi
expect_has did-you-mean-algorithm 2 "unknown algorithm 'gray-to-binry'; did you mean 'gray-to-binary'? (valid:" -- \
  "$CUBEMU" run --set machine.preset=cube --set algorithm.name=gray-to-binry
expect_has did-you-mean-preset 2 "unknown machine preset 'cm200-8l'; did you mean 'cm200-8k'? (valid:" -- \
  "$CUBEMU" run --set machine.preset=cm200-8l

# A schedule that deadlocks is a failed run (exit 1), not bad input: the
# report names every waiting rank and the receive it waits on (in the
# scratch folder made above)
T=$tmp
printf 'num_ranks 2\nrank 0 {\n}\nrank 1 {\nl1: recv 8b from 0 tag 7\n}\n' > "$T/stuck.goal"
printf '[machine]\npreset = cube\ndimensions = 1\n[algorithm]\nname = schedule\nschedule = stuck.goal\n' > "$T/stuck.ini"
expect schedule-deadlock 1 "cubemu run: $T/stuck.ini: deadlock: node 1 in step 0 waits for 1 receive(s); the first from node 0 with tag 7 was never sent
  rank 1 (node 1) waits on recv 8b from 0 tag 7 ($T/stuck.goal:5)" -- \
  "$CUBEMU" run "$T/stuck.ini"

echo "cli: $passed passed, $failed failed"
[ "$failed" = 0 ]
