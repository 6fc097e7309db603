#!/usr/bin/env bash
# bench/threads.sh -- part of `make bench` (bench/run.sh runs it from the
# project root with BUILD and the results file's BENCH_* set; make
# bench-threads runs it alone): what a second thread gives the engine
# (emu/sim_parallel.c). Side by side in one run, 1 thread against 2
# (--threads 1, --threads 2, alternating), in two conditions: back to
# back, and each run after a pause of BENCH_THREADS_PAUSE seconds (6):
#   - the dimension exchange as bench/against.sh runs it (sequential,
#     K = 64, startup 1) on the n-cube for n in BENCH_THREADS_SIZES
#     ("18 20 22"); target (issue 76): 2 threads at least 1.7x one;
#   - gray-to-binary (concurrent, K = 64) and reshape (two-path, Theorem
#     2's shape 2^(n+6) -> 4x4x4x2^n) on the BENCH_THREADS_ALG_N-cube
#     (18); target: at least 1.5x;
#   - peak memory (the whole process's, /usr/bin/time) of the exchange on
#     the 20-cube with 2 threads against 1; target: at most 1.10x.
# Figures: medians of BENCH_THREADS_RUNS runs (5) of the engine's seconds
# (the report's timing.wall_seconds: sim_run alone), their ratio, and the
# noise (the larger range of the two cells over its median). Every run
# must verify its data and give the cycles of the 1-thread run. Exit
# status 1 if a run failed; a missed target is recorded and judged by
# make bench-targets.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
EMU=$BUILD/cubemu
. bench/lib.sh
bench_setup || exit 1
SIZES=${BENCH_THREADS_SIZES:-18 20 22}
ALG_N=${BENCH_THREADS_ALG_N:-18}
RUNS=${BENCH_THREADS_RUNS:-5}
PAUSE=${BENCH_THREADS_PAUSE:-6}
fail=0
TMP_T=$(mktemp) || exit 1
trap 'rm -f "$TMP_T"' EXIT

# workload KIND N: its arguments in ARGS
workload() {
  local n=$2 cube=(--set machine.preset=cube --set machine.dimensions="$2")
  case $1 in
    exchange) ARGS=("${cube[@]}" --set machine.startup=1 --set algorithm.name=exchange
                    --set algorithm.elements-per-node=64) ;;
    gray-to-binary) ARGS=("${cube[@]}" --set algorithm.name=gray-to-binary
                          --set algorithm.method=concurrent --set algorithm.elements-per-node=64) ;;
    reshape) ARGS=("${cube[@]}" --set algorithm.name=reshape --set algorithm.method=two-path
                   --set algorithm.from=$((1 << (n + 6))) --set algorithm.to=4x4x4x$((1 << n))) ;;
  esac
}

# one THREADS: prints "ENGINE_SECONDS CYCLES PEAK_KIB", or fails
one() {
  local out
  out=$(/usr/bin/time -f '%M' -o "$TMP_T" "$EMU" run "${ARGS[@]}" --threads "$1" \
        --json --timing 2>/dev/null) || return 1
  python3 -c '
import json, sys
d = json.loads(sys.argv[1])
if not d["data_correct"]:
    sys.exit(1)
print("%.6f %d %s" % (d["timing"]["wall_seconds"], d["cycles"], sys.argv[2]))
' "$out" "$(tail -n 1 "$TMP_T")"
}

# cell KIND N TARGET: both conditions, 1 thread against 2
cell() {
  local kind=$1 n=$2 target=$3 condition t r
  workload "$kind" "$n"
  for condition in back-to-back after-pause; do
    local s1=() s2=() m1=() m2=() c1=() c2=()
    for ((i = 1; i <= RUNS; i++)); do
      for t in 1 2; do
        [ "$condition" = after-pause ] && sleep "$PAUSE"
        if ! r=$(one $t); then
          echo "threads: $kind n=$n with $t thread(s) failed or verified wrong"
          fail=1
          continue
        fi
        set -- $r
        if [ $t = 1 ]; then s1+=("$1"); c1+=("$2"); m1+=("$3")
        else s2+=("$1"); c2+=("$2"); m2+=("$3"); fi
      done
    done
    local name="threads: $kind n=$n $condition"
    if [ ${#s1[@]} = 0 ] || [ ${#s2[@]} = 0 ]; then
      failed "$name" "no run finished"; continue
    fi
    if [ "$(printf '%s\n' "${c1[@]}" "${c2[@]}" | sort -u | wc -l)" != 1 ]; then
      failed "$name" "the cycles differ between 1 and 2 threads"; continue
    fi
    local a b ratio noise
    a=$(median "${s1[@]}") b=$(median "${s2[@]}")
    ratio=$(python3 -c "print('%.2f' % ($a / $b))")
    noise=$(python3 -c "
import sys
def spread(v): v = sorted(map(float, v)); return (v[-1] - v[0]) / v[len(v) // 2]
print('%.0f' % (100 * max(spread('${s1[*]}'.split()), spread('${s2[*]}'.split()))))")
    echo "threads: $kind n=$n $condition: 1 thread $a s, 2 threads $b s: ${ratio}x (noise $noise%)"
    record "$name" threads_1_seconds "$a" s
    record "$name" threads_2_seconds "$b" s
    record "$name" speedup "$ratio" x
    record "$name" noise "$noise" %
    if [ "$kind" = exchange ] && [ "$n" = 20 ] && [ "$condition" = back-to-back ]; then
      local p1 p2 mr
      p1=$(median "${m1[@]}") p2=$(median "${m2[@]}")
      mr=$(python3 -c "print('%.3f' % ($p2 / $p1))")
      echo "threads: exchange n=20: peak memory $((p1 / 1024)) MiB with 1 thread, $((p2 / 1024)) MiB with 2: ${mr}x"
      record "threads: exchange n=20 memory" peak_1_thread $((p1 / 1024)) MiB
      record "threads: exchange n=20 memory" peak_2_threads $((p2 / 1024)) MiB
      record "threads: exchange n=20 memory" ratio "$mr" x
      judge "threads: peak memory with 2 threads within 1.10x at n = 20" \
        "$(python3 -c "print(int($mr <= 1.10))")" "${mr}x"
    fi
    judge "threads: $kind n=$n, 2 threads >= ${target}x one, $condition" \
      "$(python3 -c "print(int($ratio >= $target))")" "${ratio}x"
  done
}

echo "threads: 1 thread against 2 ($(nproc) processors here), $RUNS runs a cell"
for n in $SIZES; do cell exchange "$n" 1.7; done
cell gray-to-binary "$ALG_N" 1.5
cell reshape "$ALG_N" 1.5
exit $fail
