#!/usr/bin/env bash
# tests/bench-baseline.sh -- the second half of `make bench`: cubemu against
# its peers, side by side in one run (issue #15):
#   - the SimGrid baseline (SIMGRID_BASELINE, default ../shared/bench/simgrid:
#     a SimGrid 3.32 S4U program, one full-duplex link per cube edge, an
#     O(1) cube routing zone, L = 1 tick a message, one element a tick)
#     running the same dimension exchange (K = 64) on the 14- and 16-cube;
#     cubemu runs it with startup = 1 so that both simulate the same time,
#     n (K + 1) ticks, which the script checks;
#   - the memory-bandwidth floor: a plain loop copying each node's K
#     elements to its neighbour for every dimension (bench --memcpy-floor).
# Prints wall seconds (whole process), peak memory and the ratios. Skips
# the baseline when SimGrid (pkg-config simgrid) or its source is missing.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
EMU=$BUILD/cubemu
BENCH=$BUILD/tests/bench
SG_SRC=${SIMGRID_BASELINE:-../shared/bench/simgrid}
SG=$BUILD/simgrid/cube_exchange
K=64
have_sg=0
if pkg-config --exists simgrid 2>/dev/null && [ -f "$SG_SRC/cube_exchange.cpp" ]; then
  mkdir -p "$BUILD/simgrid"
  if [ ! -x "$SG" ] || [ "$SG_SRC/cube_exchange.cpp" -nt "$SG" ]; then
    g++ -O2 -std=c++17 "$SG_SRC/cube_exchange.cpp" -o "$SG" $(pkg-config --cflags --libs simgrid) || exit 1
  fi
  have_sg=1
else
  echo "baseline: skipped (needs libsimgrid-dev and $SG_SRC/cube_exchange.cpp)"
fi
printf '%-4s %12s %12s %10s %12s %12s %10s %10s %10s\n' n cubemu_s cubemu_MiB \
  simgrid_s simgrid_MiB memcpy_s vs_simgrid vs_memcpy cycles
for n in 14 16; do
  out=$(/usr/bin/time -f '%e %M' -o /tmp/cubemu-bench-time.$$ "$EMU" run \
        --set machine.preset=cube --set machine.dimensions=$n --set machine.startup=1 \
        --set algorithm.name=exchange --set algorithm.elements-per-node=$K --json)
  read -r cw cm < /tmp/cubemu-bench-time.$$
  cycles=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["cycles"])' <<<"$out")
  floor=$("$BENCH" --memcpy-floor $n $K)
  sw=- sm=- ratio=-
  if [ $have_sg = 1 ]; then
    sgout=$(/usr/bin/time -f '%e %M' -o /tmp/cubemu-bench-time.$$ "$SG" -n $n -K $K \
            --mode=dim --zone=cube --log=xbt_cfg.thres:warning \
            --cfg=contexts/guard-size:0 --cfg=contexts/stack-size:16 2>&1)
    read -r sw sm < /tmp/cubemu-bench-time.$$
    st=$(sed -n 's/.*sim_time=\([0-9.]*\).*/\1/p' <<<"$sgout")
    [ "${st%.*}" = "$cycles" ] || echo "n = $n: SimGrid simulated $st, cubemu $cycles cycles: NOT THE SAME TIME"
    ratio=$(python3 -c "print('%.1fx' % ($sw / $cw))")
    sm=$((sm / 1024))
  fi
  printf '%-4s %12s %12s %10s %12s %12s %10s %10s %10s\n' $n "$cw" $((cm / 1024)) "$sw" "$sm" \
    "$floor" "$ratio" "$(python3 -c "print('%.1fx' % ($cw / $floor))")" "$cycles"
done
rm -f /tmp/cubemu-bench-time.$$
