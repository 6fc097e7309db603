#!/usr/bin/env bash
# bench/faults.sh -- part of `make bench` (bench/run.sh runs it from the
# project root with BUILD and the results file's BENCH_* set; make
# bench-faults runs it alone): what faults cost the engine. The dimension
# exchange (as bench/against.sh runs it: sequential, K = 64, startup 1) on the 16-cube without faults
# and with n - 1 = 15 random link faults (random:15:SEED, a seed a round),
# alternating, in two conditions: back to back, and each run after a
# pause of BENCH_FAULTS_PAUSE seconds (6). Figures: the medians of
# BENCH_FAULTS_RUNS runs (5) of the engine's events per second (the
# report's stats.events over timing.wall_seconds: sim_run alone, every
# attempt of the run), and their ratio. Target (issue 75): with n - 1
# faults, events per second within 1.5x of the fault-free run's. Every run
# must verify its data. Exit status 1 if a run failed; a missed target is
# recorded and judged by make bench-targets.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
EMU=$BUILD/cubemu
. bench/lib.sh
bench_setup || exit 1
N=${BENCH_FAULTS_N:-16}
RUNS=${BENCH_FAULTS_RUNS:-5}
PAUSE=${BENCH_FAULTS_PAUSE:-6}
fail=0

# one run: prints "EVENTS_PER_SECOND CYCLES", or fails
one() {
  local out
  out=$("$EMU" run --set machine.preset=cube --set machine.dimensions="$N" \
    --set machine.startup=1 --set algorithm.name=exchange \
    --set algorithm.elements-per-node=64 \
    --set machine.faults="$1" --json --timing 2>/dev/null) || return 1
  python3 -c '
import json, sys
d = json.loads(sys.argv[1])
if not d["data_correct"]:
    sys.exit(1)
print("%.0f %d" % (d["stats"]["events"] / d["timing"]["wall_seconds"], d["cycles"]))
' "$out"
}

echo "faults: the exchange on the $N-cube, K = 64, without faults and with $((N - 1)) random link faults, $RUNS runs a cell"
for condition in back-to-back after-pause; do
  clean=() broken=() cycles=()
  for ((i = 1; i <= RUNS; i++)); do
    for spec in none "random:$((N - 1)):$i"; do
      [ "$condition" = after-pause ] && sleep "$PAUSE"
      if ! r=$(one "$spec"); then
        echo "faults: the run with faults = $spec failed or verified wrong"
        fail=1
        continue
      fi
      set -- $r
      if [ "$spec" = none ]; then clean+=("$1"); else broken+=("$1"); cycles+=("$2"); fi
    done
  done
  [ ${#clean[@]} -gt 0 ] && [ ${#broken[@]} -gt 0 ] || { failed "faults: $condition" "no run finished"; continue; }
  c=$(median "${clean[@]}") b=$(median "${broken[@]}")
  ratio=$(python3 -c "print('%.2f' % ($c / $b))")
  echo "faults: $condition: $c events/s without faults, $b with $((N - 1)) (median cycles $(median "${cycles[@]}")): ${ratio}x"
  case_name="faults: exchange n=$N K=64 $condition"
  record "$case_name" events_per_second_faultless "$c" events/s
  record "$case_name" events_per_second_faults "$b" events/s
  record "$case_name" slowdown "$ratio" x
  judge "faults: exchange n=$N, $((N - 1)) link faults, $condition, within 1.5x" \
    "$(python3 -c "print(int($ratio <= 1.5))")" "${ratio}x"
done
exit $fail
