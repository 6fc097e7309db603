#!/usr/bin/env bash
# bench/peers.sh -- the second half of `make bench` (bench/run.sh): cubemu
# against its peers, side by side in one run:
#   - the SimGrid baseline of the dimension exchange,
#     bench/simgrid/cube_exchange.cpp (SimGrid 3.32 S4U, one link per
#     directed channel, latency Ts = 1 tick, one element a tick, a message
#     one comm; bench/simgrid/README.md), built into $BUILD/simgrid/ by
#     make's rule from SIMGRID_BASELINE (default bench/simgrid), running
#     the same dimension exchange (K = 64) on the 14- and 16-cube; cubemu
#     runs it with startup = 1 so that both simulate the same time, n (K +
#     1) ticks, and the same element transfers, which the script checks,
#     and the baseline checks every node's elements. First, on the
#     BENCH_PEERS_SCHEDULE-cube (default 10; empty: none), for the
#     sequential and the all-port method, cubemu's trace and the
#     baseline's schedule must show every node posting the same messages,
#     of the same sizes, in the same order, at the same ticks, and each
#     arriving at the same tick (same_schedule.py --messages);
#   - the memory-bandwidth floor: a plain loop copying each node's K
#     elements to its neighbour for every dimension (bench --memcpy-floor).
# Prints wall seconds (whole process; cubemu: the median of 15 runs, 5
# just before each of SimGrid's 3, so that both sample the same stretch of
# the host's time; SimGrid: the median of its 3), peak memory and the
# ratios. Skips
# the baseline when SimGrid (pkg-config simgrid) or its source is missing;
# a baseline run that fails a check fails the script.
# Then the scaling sweep: the same exchange for n = 14..22
# (BENCH_SWEEP), each the median of BENCH_SWEEP_RUNS (5) runs, run in
# rounds of every size once: events per engine second (the median, and the
# range of the runs beside it), peak memory against
# the payload (2^n K 8 bytes), and beside them what one dependent read
# costs this host in a working set about that size (bench --read-latency),
# which the engine's events wait on, and the copy loop run for the same
# size in the same rounds: its seconds (median), its copies (messages) per
# second, cubemu's engine seconds against it, and the spread of its copies
# per second over the sweep (the memory system's own flatness; not a
# target; the runs are in cubemu run's order, the locality order unless
# CUBEMU_ORDER says otherwise); then the smallest and largest size's
# events per second step by step, in the contract's order and in the
# locality order (bench --steps; not a target); the line model's engine layout and
# its bound over the same sizes (bench --line-model, BENCH_MODEL_ROUNDS;
# not a target); last, instructions and misses of a
# fixed 2 MiB cache per event in sim_run under callgrind for
# BENCH_CALLGRIND, and for gray-to-binary's concurrent method on the
# 14-cube, in cubemu run's order (not a target). Each target gets a verdict, recorded (make bench-targets judges them); the script exits 1 if a case fails
# (the baseline's targets only when SimGrid ran).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
EMU=$BUILD/cubemu
BENCH=$BUILD/bench/bench
SG_SRC=${SIMGRID_BASELINE:-bench/simgrid}
SG=$BUILD/simgrid/cube_exchange
SGCFG=(--log=xbt_cfg.thres:warning --cfg=contexts/guard-size:0 --cfg=contexts/stack-size:16)
K=64
TS=1
SCHEDULE_N=${BENCH_PEERS_SCHEDULE-10}
have_sg=0
if pkg-config --exists simgrid 2>/dev/null && [ -f "$SG_SRC/cube_exchange.cpp" ]; then
  SIMGRID_BASELINE=$SG_SRC make -s --no-print-directory BUILD="$BUILD" "$SG" || exit 1
  have_sg=1
else
  echo "baseline: skipped (needs libsimgrid-dev and $SG_SRC/cube_exchange.cpp)"
fi
fail=0
. bench/lib.sh
if [ $have_sg = 1 ] && [ -n "$SCHEDULE_N" ]; then
  for method in sequential all-port; do
    if "$EMU" run --set machine.preset=cube --set machine.dimensions="$SCHEDULE_N" \
         --set machine.startup=$TS --set algorithm.name=exchange --set algorithm.method=$method \
         --set algorithm.elements-per-node=$K --quiet --trace=/tmp/cubemu-bench-trace.$$ > /dev/null \
       && "$SG" -n "$SCHEDULE_N" -K $K --startup=$TS --method=$method \
         --schedule=/tmp/cubemu-bench-schedule.$$ "${SGCFG[@]}" > /dev/null; then
      line=$(python3 bench/simgrid/same_schedule.py --messages /tmp/cubemu-bench-trace.$$ \
             /tmp/cubemu-bench-schedule.$$) || fail=1
      echo "n = $SCHEDULE_N, $method: $line"
    else
      echo "n = $SCHEDULE_N, $method: a run failed"
      fail=1
    fi
  done
  rm -f /tmp/cubemu-bench-trace.$$ /tmp/cubemu-bench-schedule.$$
fi
printf '%-4s %12s %12s %10s %12s %12s %10s %10s %10s\n' n cubemu_s cubemu_MiB \
  simgrid_s simgrid_MiB memcpy_s vs_simgrid vs_memcpy cycles
declare -A RATIO FLOORX
# cubemu's wall time: the median of its whole-process runs, to the
# microsecond (/usr/bin/time rounds to 10 ms, a large part of a 14-cube
# run); its peak memory from a run of its own. Its runs are spread over
# SimGrid's, because a virtual machine's speed wanders from moment to
# moment, and five runs in a row, then SimGrid's, would compare two
# different moments of the host. The clock is bash's own EPOCHREALTIME:
# a $(date) on each side forks twice, which would add its own time to
# every run.
spread() {   # spread VALUE...: (largest - smallest) / largest, in percent
  python3 -c "import sys; r=[float(v) for v in sys.argv[1:]]; print('%.0f%%' % (100 * (max(r) - min(r)) / max(r)))" "$@"
}
wall_runs() {   # wall_runs COUNT COMMAND...: each run's nanoseconds onto cwts
  local i a b c=$1
  shift
  for ((i = 0; i < c; i++)); do
    a=${EPOCHREALTIME//[.,]/}; "$@" > /dev/null; b=${EPOCHREALTIME//[.,]/}
    cwts+=($(( (b - a) * 1000 )))
  done
}
for n in 14 16; do
  set -- "$EMU" run --set machine.preset=cube --set machine.dimensions=$n \
         --set machine.startup=$TS --set algorithm.name=exchange \
         --set algorithm.elements-per-node=$K --json
  out=$(/usr/bin/time -f '%e %M' -o /tmp/cubemu-bench-time.$$ "$@")
  read -r _ cm < /tmp/cubemu-bench-time.$$
  cwts=()
  read -r cycles transfers < <(python3 -c 'import json, sys; d = json.load(sys.stdin)
print(d["cycles"], d["element_transfers"])' <<<"$out")
  floor=$("$BENCH" --memcpy-floor $n $K)
  sw=- sm=- ratio=-
  if [ $have_sg = 0 ]; then
    wall_runs 5 "$@"
  else
    # SimGrid's wall time, like cubemu's, is a median: of 3 runs (its own
    # time moved by 15% between runs a minute apart); peak memory from one
    sgts=()
    for i in 1 2 3; do
      wall_runs 5 "$@"
      if ! sgout=$(/usr/bin/time -f '%e %M' -o /tmp/cubemu-bench-time.$$ "$SG" -n $n -K $K \
                   --startup=$TS "${SGCFG[@]}" 2>&1); then
        echo "n = $n: SimGrid's run failed or did not verify: $(tail -n 1 <<<"$sgout")"
        fail=1
      fi
      read -r sw sm < <(tail -n 1 /tmp/cubemu-bench-time.$$)
      sgts+=("$sw")
    done
    sw=$(median "${sgts[@]}")
    st=$(sed -n 's/.*sim_time=\([0-9.]*\).*/\1/p' <<<"$sgout")
    sx=$(sed -n 's/.*element_transfers=\([0-9]*\).*/\1/p' <<<"$sgout")
    if [ "$st" != "$cycles" ] || [ "$sx" != "$transfers" ]; then
      echo "n = $n: SimGrid simulated ${st:-?} ticks and ${sx:-?} element transfers, cubemu $cycles cycles and $transfers: NOT THE SAME TIME"
      fail=1
    fi
    sm=$((sm / 1024))
  fi
  cw=$(median "${cwts[@]}" | awk '{printf "%.4f", $1 / 1e9}')
  if [ $have_sg = 1 ]; then
    ratio=$(python3 -c "print('%.1fx' % ($sw / $cw))")
    RATIO[$n]=$(python3 -c "print($sw / $cw)")
  fi
  FLOORX[$n]=$(python3 -c "print($cw / $floor)")
  printf '%-4s %12s %12s %10s %12s %12s %10s %10s %10s\n' $n "$cw" $((cm / 1024)) "$sw" "$sm" \
    "$floor" "$ratio" "$(python3 -c "print('%.1fx' % ($cw / $floor))")" "$cycles"
  c="peers: exchange n=$n K=$K"
  # the threads cubemu's runs used (--threads auto: emu/sim_parallel.c)
  thr=$(G_MESSAGES_DEBUG=all "$@" 2>&1 >/dev/null | sed -n 's/.*: \([0-9]*\) thread(s).*/\1/p' | tail -n 1)
  record "$c" cubemu_threads "${thr:-1}" threads
  record "$c" cubemu_seconds "$cw" s
  record "$c" cubemu_memory $((cm / 1024)) MiB
  record "$c" memcpy_seconds "$floor" s
  record "$c" cubemu_vs_memcpy "${FLOORX[$n]}" x
  if [ $have_sg = 1 ]; then
    record "$c" simgrid_seconds "$sw" s
    record "$c" simgrid_memory "$sm" MiB
    record "$c" simgrid_vs_cubemu "${RATIO[$n]}" x
  fi
done
for n in 14 16; do
  if [ $have_sg = 1 ]; then
    judge "SimGrid/cubemu >= 100 at n = $n" "$(python3 -c "print(int(${RATIO[$n]} >= 100))")" "$(printf '%.1fx' "${RATIO[$n]}")"
    # issue 76: with the default threads, whole process
    [ $n = 16 ] && judge "SimGrid/cubemu >= 300 at n = 16, default threads" \
      "$(python3 -c "print(int(${RATIO[$n]} >= 300))")" "$(printf '%.1fx' "${RATIO[$n]}")"
  fi
  judge "cubemu/memcpy floor <= 5 at n = $n" "$(python3 -c "print(int(${FLOORX[$n]} <= 5))")" "$(printf '%.1fx' "${FLOORX[$n]}")"
done

echo
printf '%-4s %12s %10s %10s %14s %12s %10s %10s %8s %14s %10s %14s %9s\n' n events engine_s wall_s events_per_s 'runs_M/s' peak_MiB payload_MiB ratio read_ns@MiB memcpy_s copies_per_s vs_memcpy
rates=() floor_rates=()
# RUNS rounds, each running every size once (14, 16, ..., 22, then again):
# the host's slow spells last seconds, so RUNS runs of one size in a row
# could all fall in one. Five rounds: one size's runs a minute apart can
# differ by more than the target's margin, and the median of three such
# draws could move the verdict by itself; the range column shows how far
# a size's runs spread. Per size: the median engine and wall
# seconds, the largest peak memory; every run's data must verify.
RUNS=${BENCH_SWEEP_RUNS:-5}
SIZES=(${BENCH_SWEEP:-14 16 18 20 22})
declare -A ESS WS PEAK OK FAILED EVENTS FLOORS
for i in $(seq "$RUNS"); do
  for n in "${SIZES[@]}"; do
    [ "${FAILED[$n]:-0}" = 1 ] && continue
    if ! out=$(/usr/bin/time -f '%e %M' -o /tmp/cubemu-bench-time.$$ "$EMU" run \
          --set machine.preset=cube --set machine.dimensions=$n --set machine.startup=1 \
          --set algorithm.name=exchange --set algorithm.elements-per-node=$K --json --timing); then
      FAILED[$n]=1
      continue
    fi
    read -r w1 m1 < /tmp/cubemu-bench-time.$$
    read -r ev es1 ok1 < <(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["stats"]["events"], d["timing"]["wall_seconds"], int(d["data_correct"]))' <<<"$out")
    EVENTS[$n]=$ev
    ESS[$n]="${ESS[$n]:-} $es1"
    WS[$n]="${WS[$n]:-} $w1"
    [ "$m1" -gt "${PEAK[$n]:-0}" ] && PEAK[$n]=$m1
    [ "$ok1" = 1 ] || OK[$n]=0
    # the same exchange as a plain copy loop, in the same round
    f1=$("$BENCH" --memcpy-floor "$n" "$K") && FLOORS[$n]="${FLOORS[$n]:-} $f1"
  done
done
for n in "${SIZES[@]}"; do
  if [ "${FAILED[$n]:-0}" = 1 ]; then
    failed "the $n-cube exchange finishes" "cubemu failed"
    continue
  fi
  ev=${EVENTS[$n]}
  es=$(median ${ESS[$n]})
  w=$(median ${WS[$n]})
  rate=$(python3 -c "print('%.0f' % ($ev / $es))")
  range=$(python3 -c "import sys; r=[$ev / float(v) / 1e6 for v in sys.argv[1:]]; print('%.1f-%.1f' % (min(r), max(r)))" ${ESS[$n]})
  payload=$(( (1 << n) * K * 8 / 1048576 ))
  mib=$((PEAK[$n] / 1024))
  # The host's own latency for a dependent read in a working set of about
  # the run's peak (bench --read-latency: the largest power of two within it)
  read -r lat latmib < <("$BENCH" --read-latency "$mib")
  fs=- frate=- fx=-
  if [ -n "${FLOORS[$n]:-}" ]; then
    fs=$(median ${FLOORS[$n]})
    frate=$(python3 -c "print('%.0f' % ($n * 2 ** $n / $fs))")
    fx=$(python3 -c "print('%.2fx' % ($es / $fs))")
    floor_rates+=("$frate")
  fi
  printf '%-4s %12s %10s %10s %14s %12s %10s %10s %8s %14s %10s %14s %9s\n' $n "$ev" "$es" "$w" "$rate" "$range" "$mib" "$payload" \
    "$(python3 -c "print('%.2fx' % ($mib / $payload) if $payload else '-')")" "$lat@$latmib" \
    "$fs" "$frate" "$fx"
  rates+=("$rate")
  c="sweep: exchange n=$n K=$K"
  record "$c" events "$ev" ""
  record "$c" engine_seconds "$es" s
  record "$c" wall_seconds "$w" s
  record "$c" events_per_second "$rate" 1/s
  record "$c" peak_memory "$mib" MiB
  record "$c" payload "$payload" MiB
  record "$c" read_latency "$lat" ns
  record "$c" memcpy_seconds "$fs" s
  [ "${OK[$n]:-1}" = 1 ] || failed "the $n-cube exchange's data" "wrong final memory"
  if [ "$n" = 20 ]; then
    judge "peak memory <= 2x payload at n = 20" "$(python3 -c "print(int($mib <= 2 * $payload))")" "$mib MiB for $payload MiB"
  fi
  if [ "$n" = 22 ]; then
    judge "the 22-cube exchange finishes" 1 "$w s, $mib MiB"
  fi
done
if [ ${#rates[@]} -gt 1 ]; then
  list=$(IFS=,; echo "${rates[*]}")
  spread=$(spread "${rates[@]}")
  judge "events/s flat within 20% over ${BENCH_SWEEP:-14 16 18 20 22}" \
    "$(python3 -c "r=[$list]; print(int((max(r) - min(r)) <= 0.2 * max(r)))")" "spread $spread"
  # Not a target: the copy loop's own copies per second over the same
  # sizes, what the machine's memory gives a program that moves the same
  # payload and does nothing else
  [ ${#floor_rates[@]} -gt 1 ] && echo "the memcpy floor's copies/s over ${BENCH_SWEEP:-14 16 18 20 22}: spread $(spread "${floor_rates[@]}")"
  # Not a target either: where the rate falls. The smallest and the
  # largest size's exchange timed step by step (bench --steps, one run
  # each): million events per second in the step of each dimension, and
  # the whole run's after the bar; in the contract's order and in the
  # locality order (sim.h, SimOrder), which the engine runs in wherever
  # that is the contract's run (docs/performance.md, "Why the rate depends
  # on the order").
  lo=${SIZES[0]} hi=${SIZES[${#SIZES[@]} - 1]}
  echo "M events/s by step (the step of dimension d | the run; bench --steps N $K ORDER, one run each):"
  for order in contract locality; do
    for n in "$lo" "$hi"; do
      if row=$("$BENCH" --steps "$n" "$K" "$order" | awk '
            $1 ~ /^[0-9]+$/ { printf " %5.1f", $5 / 1e6 }
            /^total:/ { printf "  | %5.1f", $9 / 1e6 }'); then
        printf 'n = %-3s %-8s%s\n' "$n" "$order" "$row"
      else
        echo "n = $n, $order order: bench --steps failed"
      fi
    done
  done
  # Not a target either: the line model (bench --line-model;
  # docs/performance.md, "The line model") over the same sizes, in
  # BENCH_MODEL_ROUNDS (3) rounds of every size once, the median of each:
  # the engine's layout, which should follow the sweep above, and the
  # bound of this host's memory for the engine's speed (own: each node
  # fetches its own two lines and nothing else).
  mrounds=${BENCH_MODEL_ROUNDS:-3}
  if [ "$mrounds" -gt 0 ]; then
    echo "line model, M events/s (bench --line-model N LAYOUT 35, median of $mrounds rounds):"
    for layout in engine own; do
      declare -A mrates=()
      mfailed=
      for ((r = 0; r < mrounds; r++)); do
        for n in "${SIZES[@]}"; do
          if v=$("$BENCH" --line-model "$n" "$layout" 35 | awk '/^total:/ { print $7 / 1e6 }') \
             && [ -n "$v" ]; then
            mrates[$n]="${mrates[$n]:-} $v"
          else
            mfailed="$mfailed $n"
          fi
        done
      done
      if [ -n "$mfailed" ]; then
        echo "$layout: bench --line-model failed at n =$mfailed"
      else
        meds=()
        for n in "${SIZES[@]}"; do
          meds+=("$(median ${mrates[$n]})")
        done
        printf '%-7s%s  spread %s\n' "$layout" "$(printf ' %5.1f' "${meds[@]}")" "$(spread "${meds[@]}")"
      fi
      unset mrates
    done
  fi
  # Not a target either: the engine's own work an event, which the host's
  # state does not move. Per event of bench --steps N K, inside sim_run
  # only (valgrind's callgrind collecting in sim_run, its cache simulation
  # on, with fixed caches so that no host's caches enter: D1 48 KiB
  # 12-way, LL 2 MiB 16-way, 64-byte lines; software prefetches are not
  # simulated, so a miss here is memory moved, not time waited): the
  # instructions executed, and the data accesses that miss the 2 MiB
  # cache, all of them and those in memcpy and swap_words (the payload's
  # copies and swaps: in a dimension exchange, nothing else copies).
  # For the sizes in BENCH_CALLGRIND (default 14 and 18: the 18-cube
  # takes about two minutes under it, the 20-cube about eight; set and
  # empty, none). Then the same for gray-to-binary's concurrent method
  # on the 14-cube, K = 64 (cubemu run; half a minute under callgrind):
  # 13 exchanges a step over as many links at once, where the exchange
  # uses one, so that the engine's paths for concurrent links are
  # measured too; its events are the report's stats.events.
  cg_sizes=${BENCH_CALLGRIND-14 18}
  # callgrind_sums FILE: "instructions misses payload-misses" in FILE
  callgrind_sums() {
    callgrind_annotate --auto=no --inclusive=no --threshold=100 \
        --show=Ir,DLmr,DLmw "$1" 2>/dev/null | tr -d ',' | sed -E 's/\([^)]*\)//g' | awk '
      function v(x) { return x == "." ? 0 : x }
      / PROGRAM TOTALS/ { ir = $1; miss = v($2) + v($3) }
      $1 ~ /^([0-9]+|\.)$/ && $4 ~ /:.*(memcpy|memmove|swap_words)/ { pay += v($2) + v($3) }
      END { if (ir != "") print ir, miss, pay + 0 }'
  }
  # The events of a run: bench's "total:" line, or cubemu's stats.events.
  events_total() { awk '/^total:/ { print $2 }'; }
  events_json() {
    python3 -c 'import json, sys; print(json.load(sys.stdin)["stats"]["events"])' 2>/dev/null
  }
  # callgrind_row NAME N EVENTS COMMAND...: COMMAND under callgrind,
  # collecting in sim_run with the fixed caches, its events read from its
  # output by the function EVENTS; prints and records NAME n=N K=$K's
  # instructions and misses per event.
  callgrind_row() {
    local name=$1 n=$2 events=$3 cg=/tmp/cubemu-bench-cg.$$ ev sums ir miss pay
    shift 3
    if ev=$(valgrind --tool=callgrind --toggle-collect=sim_run --cache-sim=yes \
              --I1=32768,8,64 --D1=49152,12,64 --LL=2097152,16,64 --callgrind-out-file="$cg" \
              "$@" 2>/dev/null | "$events") \
       && [ -n "$ev" ] && sums=$(callgrind_sums "$cg") && [ -n "$sums" ]; then
      read -r ir miss pay <<<"$sums"
      python3 -c "print('%s n = %-3s %7.1f instructions %6.2f misses (%.2f the payload\'s)' % ('$name', '$n', $ir / $ev, $miss / $ev, $pay / $ev))"
      record "callgrind: $name n=$n K=$K" instructions_per_event "$(python3 -c "print('%.2f' % ($ir / $ev))")" ""
      record "callgrind: $name n=$n K=$K" misses_per_event "$(python3 -c "print('%.3f' % ($miss / $ev))")" ""
    else
      echo "$name n = $n: callgrind failed"
    fi
    rm -f "$cg"
  }
  if [ -z "$cg_sizes" ]; then
    echo "per event in sim_run (callgrind): skipped (BENCH_CALLGRIND is empty)"
  elif command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1; then
    echo "per event in sim_run (callgrind; D1 48 KiB, LL 2 MiB): instructions, LL misses (of them the payload's, in memcpy and swap_words)"
    for n in $cg_sizes; do
      callgrind_row exchange "$n" events_total "$BENCH" --steps "$n" "$K"
    done
    gn=14
    callgrind_row gray-to-binary "$gn" events_json "$EMU" run \
      --set machine.preset=cube --set machine.dimensions="$gn" \
      --set algorithm.name=gray-to-binary --set algorithm.method=concurrent \
      --set algorithm.elements-per-node="$K" --json
  else
    echo "per event in sim_run (callgrind): skipped (needs valgrind)"
  fi
fi
rm -f /tmp/cubemu-bench-time.$$
exit $fail
