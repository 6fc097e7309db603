#!/usr/bin/env bash
# bench/routed.sh -- cubemu against a second SimGrid baseline, a routed
# and contending permutation: the bit reversal of N = 2^n 64 elements on
# the n-cube, every element on its own along its e-cube route (bmmc's
# naive method on the cube preset), in cubemu and in
# bench/simgrid/bit_reversal.cpp (SimGrid 3.32 S4U, one link per channel,
# oldest message first at every channel; bench/simgrid/README.md), built
# into $BUILD/simgrid/ by make's rule from SIMGRID_BASELINE (default
# bench/simgrid).
# First, on the BENCH_ROUTED_SCHEDULE-cube (default 8; empty: none), both
# routing orders: cubemu's trace and the baseline's schedule must move
# every word over the same channel in the same tick (same_schedule.py):
# equal makespans alone would not show equal arbitration.
# Then for each n of BENCH_ROUTED_SIZES (default 12 14): the simulated
# times must be equal (NOT THE SAME TIME otherwise), and the baseline must
# verify its delivery; wall seconds (whole process; cubemu: the median of
# its runs, 5 before each of SimGrid's and 5 after the last, so that both
# sample the same stretch of the host's time; SimGrid: the median of its
# runs, 3 below n = 14 and 1 from n = 14 on, where one run takes minutes;
# BENCH_ROUTED_SG_RUNS sets both), the CPU seconds (user + system, median)
# of the same runs beside them, since the host is shared, peak memory,
# cubemu's engine seconds (timing.wall_seconds) and the ratio. The target
# (SimGrid/cubemu >= 100 at n = 14, on wall seconds) gets a verdict,
# recorded (make bench-targets judges it); exit status 1 if a check fails. Skips when SimGrid
# (pkg-config simgrid) or the baseline's source is missing.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
EMU=$BUILD/cubemu
SG_SRC=${SIMGRID_BASELINE:-bench/simgrid}
SG=$BUILD/simgrid/bit_reversal
K=64
SIZES=(${BENCH_ROUTED_SIZES:-12 14})
SCHEDULE_N=${BENCH_ROUTED_SCHEDULE-8}
SGCFG=(--log=xbt_cfg.thres:warning --cfg=contexts/guard-size:0 --cfg=contexts/stack-size:16)
if ! pkg-config --exists simgrid 2>/dev/null || [ ! -f "$SG_SRC/bit_reversal.cpp" ]; then
  echo "routed: skipped (needs libsimgrid-dev and $SG_SRC/bit_reversal.cpp)"
  exit 0
fi
SIMGRID_BASELINE=$SG_SRC make -s --no-print-directory BUILD="$BUILD" "$SG" || exit 1
tmp=$(mktemp -d /tmp/cubemu-routed.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
. bench/lib.sh
cubemu_cmd() {   # cubemu_cmd N ROUTING: cubemu's run, one argument a line (for mapfile)
  printf '%s\n' "$EMU" run --set machine.preset=cube --set machine.dimensions="$1" \
    --set algorithm.name=bmmc --set algorithm.method=naive --set algorithm.matrix=bit-reversal \
    --set algorithm.routing="$2" --set algorithm.elements=$(( K << $1 )) --json
}
# COUNT runs of the command in cmd: wall nanoseconds by bash's own clock
# onto cwts, CPU seconds (from /usr/bin/time, whose exec costs about a
# millisecond of a run's wall) onto ccpu
cubemu_runs() {   # cubemu_runs COUNT N
  local i a b
  for ((i = 0; i < $1; i++)); do
    a=${EPOCHREALTIME//[.,]/}
    /usr/bin/time -f '%U %S' -o "$tmp/time" "${cmd[@]}" > /dev/null || { echo "n = $2: cubemu failed"; fail=1; }
    b=${EPOCHREALTIME//[.,]/}
    cwts+=($(( (b - a) * 1000 )))
    ccpu+=("$(tail -n 1 "$tmp/time" | awk '{ print $1 + $2 }')")
  done
}

if [ -n "$SCHEDULE_N" ]; then
  for routing in ascending descending; do
    mapfile -t cmd < <(cubemu_cmd "$SCHEDULE_N" $routing)
    if "${cmd[@]}" --quiet --trace="$tmp/trace" > /dev/null \
       && "$SG" -n "$SCHEDULE_N" -K $K --routing=$routing --schedule="$tmp/schedule" "${SGCFG[@]}" > /dev/null; then
      line=$(python3 bench/simgrid/same_schedule.py "$tmp/trace" "$tmp/schedule") || fail=1
      echo "n = $SCHEDULE_N, $routing: $line"
    else
      echo "n = $SCHEDULE_N, $routing: a run failed"
      fail=1
    fi
  done
fi

echo "wall s: cubemu the median of 5 runs before each SimGrid run and 5 after the last, SimGrid the median of" \
  "${BENCH_ROUTED_SG_RUNS:-3 runs below n = 14, of 1 from n = 14 on (minutes a run)}; cpu s: user + system of the same runs"
printf '%-4s %10s %10s %10s %10s %10s %10s %10s %9s %9s %8s\n' n cubemu_s cubemu_cpu engine_s cubemu_MiB \
  simgrid_s simgrid_cpu simgrid_MiB ratio cpu_ratio cycles
declare -A RATIO
for n in "${SIZES[@]}"; do
  mapfile -t cmd < <(cubemu_cmd "$n" ascending)
  # cycles, element transfers, engine seconds and peak memory from a run of its own
  if ! out=$(/usr/bin/time -f '%M' -o "$tmp/time" "${cmd[@]}" --timing); then
    echo "n = $n: cubemu failed"
    fail=1
    continue
  fi
  cm=$(( $(tail -n 1 "$tmp/time") / 1024 ))
  read -r cycles transfers engine < <(python3 -c 'import json, sys; d = json.load(sys.stdin)
print(d["cycles"], d["element_transfers"], "%.3f" % d["timing"]["wall_seconds"])' <<<"$out")
  runs=${BENCH_ROUTED_SG_RUNS:-$([ "$n" -ge 14 ] && echo 1 || echo 3)}
  cwts=() ccpu=() sgts=() sgcpu=() sm=0 ok=1
  for ((r = 0; r < runs; r++)); do
    cubemu_runs 5 "$n"
    if ! sgout=$(/usr/bin/time -f '%e %M %U %S' -o "$tmp/time" "$SG" -n "$n" -K $K "${SGCFG[@]}" 2>&1); then
      echo "n = $n: SimGrid's run failed or did not deliver every element: $(tail -n 1 <<<"$sgout")"
      ok=0
    fi
    read -r sw m1 su ss < <(tail -n 1 "$tmp/time")
    sgts+=("$sw")
    sgcpu+=("$(awk -v u="$su" -v s="$ss" 'BEGIN { print u + s }')")
    [ "${m1:-0}" -gt "$sm" ] && sm=$m1
    st=$(sed -n 's/.*sim_time=\([0-9.]*\).*/\1/p' <<<"$sgout")
    sx=$(sed -n 's/.*element_transfers=\([0-9]*\).*/\1/p' <<<"$sgout")
    if [ "$st" != "$cycles" ] || [ "$sx" != "$transfers" ]; then
      echo "n = $n: SimGrid simulated ${st:-?} ticks and ${sx:-?} element transfers, cubemu $cycles cycles and $transfers: NOT THE SAME TIME"
      ok=0
    fi
  done
  cubemu_runs 5 "$n"
  [ $ok = 1 ] || fail=1
  cw=$(median "${cwts[@]}" | awk '{ printf "%.4f", $1 / 1e9 }')
  cc=$(median "${ccpu[@]}")
  sw=$(median "${sgts[@]}")
  sc=$(median "${sgcpu[@]}")
  sm=$((sm / 1024))
  RATIO[$n]=$(python3 -c "print($sw / $cw)")
  cratio=$(python3 -c "print('%.1fx' % ($sc / $cc) if $cc > 0 else '-')")
  printf '%-4s %10s %10s %10s %10s %10s %10s %10s %9s %9s %8s\n' "$n" "$cw" "$cc" "$engine" "$cm" "$sw" "$sc" "$sm" \
    "$(printf '%.1fx' "${RATIO[$n]}")" "$cratio" "$cycles"
  c="peers: bit-reversal naive n=$n"
  record "$c" cycles "$cycles" ""
  record "$c" cubemu_seconds "$cw" s
  record "$c" cubemu_cpu_seconds "$cc" s
  record "$c" cubemu_engine_seconds "$engine" s
  record "$c" cubemu_memory "$cm" MiB
  record "$c" simgrid_seconds "$sw" s
  record "$c" simgrid_cpu_seconds "$sc" s
  record "$c" simgrid_memory "$sm" MiB
  record "$c" simgrid_runs "$runs" ""
  record "$c" simgrid_vs_cubemu "${RATIO[$n]}" x
done
if [ -n "${RATIO[14]:-}" ]; then
  judge "SimGrid/cubemu >= 100 on the routed bit reversal at n = 14" \
    "$(python3 -c "print(int(${RATIO[14]} >= 100))")" "$(printf '%.1fx' "${RATIO[14]}")"
fi
exit $fail
