#!/usr/bin/env bash
# bench/algorithms.sh -- the third part of `make bench` (bench/run.sh runs
# it from the project root with BUILD and the results file's BENCH_DATA,
# BENCH_DATE, BENCH_COMMIT and BENCH_MACHINE set): every algorithm against
# the dimension exchange, in cost per message, each figure printed and
# recorded as a row (bench/record.h), each target with a verdict:
#   1. every algorithm's cost per message within 3x of the exchange's on
#      the same cube (the exchange: K = 64 on the `cube` preset);
#   2. over the sweep's sizes, gray-to-binary (concurrent, K = 64), reshape
#      (the exchange method) and bmmc (bit-reversal, 64 elements a node,
#      two-phase): cost per message flat within 25%, and peak memory at
#      the sweep's largest size within 2x of the payload (2^n 64 8 bytes);
#   3. gray-to-binary concurrent on the 20-cube, K = 64, under 10 s, and
#      bmmc bit-reversal on the 16-cube, 64 elements a node, under 1.5 s.
# Cost per message: the engine's seconds (the report's timing.wall_seconds,
# run/run.c: sim_run alone, which runs the node programs' steps and so
# includes their own work: the FFT's butterflies, matmul's and the DBLAS
# routines' local BLAS; not the preparation, the memories' set-up or the
# verification) over the report's messages. A figure is the median of
# BENCH_ALGO_RUNS runs (3); each of an algorithm's runs has a run of the
# exchange just before and just after it, so that both sample the same
# stretch of the host's time, and the exchange's figure is the median of
# those. The runs go in rounds of every case once, as bench/peers.sh's
# sweep does, since the host's slow spells last seconds. Every run must
# verify its data (data_correct); a run that fails, verifies wrong or
# takes longer than BENCH_ALGO_CAP seconds (300; it is stopped) misses its
# targets. A run longer than BENCH_ALGO_ONCE seconds (30) is not repeated:
# its one run is its figure, which the output says. Beside each case of
# target 1, what one copy of its average message's payload costs at
# memcpy's rate on the same cube (copy_floor; elements_per_message,
# copy_ns_per_message, copy_vs_exchange): where that alone is over 3x the
# exchange's cost, no engine that copies each payload once meets the
# target.
# Variables: BENCH_ALGO_RUNS, BENCH_ALGO_SWEEP (the sweep's sizes,
# "14 16 18 20"; empty, no sweep and no flatness or memory verdicts),
# BENCH_ALGO_CAP, BENCH_ALGO_ONCE, BENCH_ALGO_ONLY (an extended regular
# expression: only the workloads whose kind, algorithm/method as the
# output's first column names it, matches), and BENCH_ALGO_SMOKE=1: the
# same script on small cubes (cases on the 6-cube, the transposes on the
# 4-cube, the sweep 6 7, one run each) in seconds, to prove that it
# works (tests/bench-smoke.sh); its verdicts are printed as skipped, its
# figures recorded (their case names say their sizes), its failed runs
# still fail it. Exit status 1 if a run failed (a missed target is
# recorded, and judged by make bench-targets).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
EMU=$BUILD/cubemu
K=64
SMOKE=${BENCH_ALGO_SMOKE:-0}
if [ "$SMOKE" = 1 ]; then
  CN=6 TN=4 GRAY_N=7 BMMC_N=6
  RUNS=${BENCH_ALGO_RUNS:-1}
  SIZES=(${BENCH_ALGO_SWEEP-6 7})
else
  # the cases' cube; the transposes' (their matrix side is 2^n, one row a
  # node, and mpich and pairwise send 2^n (2^n - 1) messages); the two
  # sizes of target 3
  CN=14 TN=10 GRAY_N=20 BMMC_N=16
  RUNS=${BENCH_ALGO_RUNS:-3}
  SIZES=(${BENCH_ALGO_SWEEP-14 16 18 20})
fi
CAP=${BENCH_ALGO_CAP:-300}
ONCE=${BENCH_ALGO_ONCE:-30}
ONLY=${BENCH_ALGO_ONLY:-}
# When run alone with a results file, the run's three columns as
# bench/run.sh sets them, and the file's header.
if [ -n "${BENCH_DATA:-}" ]; then
  export BENCH_DATE=${BENCH_DATE:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}
  export BENCH_COMMIT=${BENCH_COMMIT:-$(git describe --always --dirty 2>/dev/null || echo unknown)}
  if [ -z "${BENCH_MACHINE:-}" ]; then
    cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1 | tr -s ' ')
    mem=$(awk '/^MemTotal:/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
    export BENCH_MACHINE="$(nproc) cores, ${cpu:-unknown processor}, $mem"
  fi
  if [ ! -s "$BENCH_DATA" ]; then
    printf 'date\tcommit\tmachine\tcase\tmetric\tvalue\tunit\n' > "$BENCH_DATA" || exit 1
  fi
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cubemu-bench-algo.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
fail=0
. bench/lib.sh
started=$SECONDS

# verdict NAME OK(1/0) TEXT; in smoke mode only printed, since a small
# cube's figures say nothing about the targets
verdict() {
  if [ "$SMOKE" = 1 ]; then echo "target $1: skipped in smoke mode ($3)"; return; fi
  judge "$@"
}
# broken NAME WHY: a target whose run failed: missed, and the case
# failed, in smoke mode too
broken() {
  if [ "$SMOKE" = 1 ]; then echo "target $1: NOT MET ($2)"; fail=1
  else failed "$1" "$2"; fi
}
# calc AWK-STATEMENTS: awk's arithmetic (a python3 a figure would be
# seconds of start-up on a busy host)
calc() { awk "BEGIN { $1 }"; }
median() {   # median VALUE...: the middle one, of an even count the mean of two
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
    END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# spread VALUE...: (largest - smallest) / largest
spread() { printf '%s\n' "$@" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print (hi - lo) / hi }'; }

# One python3 reads every run's report (a line of JSON) and answers
# "ENGINE-SECONDS MESSAGES DATA-CORRECT ELEMENTS" (ELEMENTS: every
# message's payload summed, "-" if the report has no per_class), or
# "- - - -" if it cannot: its start-up would be most of what a small
# cube's run costs.
coproc PARSE {
  python3 -u -c 'import json, sys
for line in sys.stdin:
    try:
        d = json.loads(line)
        e = sum(c["elements"] for c in d["per_class"]) if "per_class" in d else "-"
        print(d["timing"]["wall_seconds"], d["messages"], int(d["data_correct"]), e)
    except (ValueError, KeyError, TypeError):
        print("- - - -")'
}
# run_one ARGS...: one `cubemu run ARGS --json --timing`, stopped after
# CAP seconds. Sets R_STATUS (ok, wrong: the data did not verify, capped,
# failed: with R_WHY), R_ENGINE (engine seconds), R_MSGS, R_WALL (the
# whole process's seconds, bash's clock: /usr/bin/time's is to 10 ms) and
# R_PEAK (peak resident KiB, from /usr/bin/time, also of a stopped run).
run_one() {
  local a b out rc
  R_ENGINE="" R_MSGS="" R_ELEMS="" R_PEAK="" R_WHY=""
  a=${EPOCHREALTIME//[.,]/}
  out=$(/usr/bin/time -f %M -o "$TMP/time" timeout "$CAP" "$EMU" run "$@" \
          --json --timing --quiet 2> "$TMP/err")
  rc=$?
  b=${EPOCHREALTIME//[.,]/}
  R_WALL=$(printf '%d.%06d' $(((b - a) / 1000000)) $(((b - a) % 1000000)))
  R_PEAK=$(tail -n 1 "$TMP/time" 2>/dev/null)
  [[ "$R_PEAK" =~ ^[0-9]+$ ]] || R_PEAK=
  if [ "$rc" = 124 ]; then
    R_STATUS=capped R_WHY="stopped after $CAP s"
    return 1
  fi
  printf '%s\n' "${out//$'\n'/ }" >&"${PARSE[1]}"
  if read -r R_ENGINE R_MSGS ok R_ELEMS <&"${PARSE[0]}" && [ "$ok" != - ]; then
    if [ "$ok" != 1 ]; then R_STATUS=wrong R_WHY="its data did not verify"; return 1; fi
    if [ "$rc" != 0 ]; then R_STATUS=failed R_WHY="exit status $rc"; return 1; fi
    R_STATUS=ok
    return 0
  fi
  R_STATUS=failed R_WHY="exit status $rc: $(head -n 1 "$TMP/err")"
  return 1
}

# Per key (a case's number, or a sweep's "kind n"): the runs' engine and
# wall seconds, messages, payload elements, the largest peak (KiB), the
# status of a run that went wrong (then no more runs), whether it is run
# once only.
declare -A ENG WALL MSGS ELEMS PEAK BAD WHY ONE XENG XMSGS XBAD
# sample KEY ARGS...: one run onto KEY's figures
sample() {
  local key=$1
  shift
  run_one "$@"
  [ -n "$R_PEAK" ] && [ "$R_PEAK" -gt "${PEAK[$key]:-0}" ] && PEAK[$key]=$R_PEAK
  if [ "$R_STATUS" != ok ]; then
    BAD[$key]=$R_STATUS WHY[$key]=$R_WHY
    return 1
  fi
  ENG[$key]="${ENG[$key]:-} $R_ENGINE"
  WALL[$key]="${WALL[$key]:-} $R_WALL"
  MSGS[$key]=$R_MSGS
  ELEMS[$key]=$R_ELEMS
  [ "$(calc "print ($R_WALL > $ONCE)")" = 1 ] && ONE[$key]=1
  return 0
}
# exchange_sample KEY N: one run of the exchange on the N-cube onto KEY's
exchange_sample() {
  workload exchange/sequential "$2"
  if run_one "${ARGS[@]}"; then
    XENG[$1]="${XENG[$1]:-} $R_ENGINE"
    XMSGS[$1]=$R_MSGS
  else
    XBAD[$1]="the exchange on the $2-cube: $R_WHY"
  fi
}
# copy_floor N E: nanoseconds a copy of E elements takes at memcpy's
# rate, each of the N-cube's nodes copying E words to a neighbour along
# every dimension (bench --memcpy-floor, the fastest of three), or "-".
# What delivering one message of E elements costs where its payload is
# copied once and nothing else is done: the exchange's messages are
# compared without it, since a whole memory swapped with a partner's
# moves by relabelling (docs/performance.md).
copy_floor() {
  local best="" s i
  for i in 1 2 3; do
    s=$("$BUILD/bench/bench" --memcpy-floor "$1" "$2" 2>/dev/null) || { echo -; return; }
    if [ -z "$best" ] || [ "$(calc "print ($s < $best)")" = 1 ]; then best=$s; fi
  done
  calc "printf \"%.1f\", $best / ($1 * 2 ^ $1) * 1e9"
}
# due KEY ROUND: whether KEY runs in ROUND (1-based)
due() { [ -z "${BAD[$1]:-}" ] && { [ "$2" = 1 ] || [ -z "${ONE[$1]:-}" ]; }; }
wanted() { [ -z "$ONLY" ] || [[ "$1" =~ $ONLY ]]; }
runs_note() { [ -n "${ONE[$1]:-}" ] && echo " (one run: over ${ONCE} s)"; }

echo
echo "every algorithm against the exchange (K = $K) on the same cube: engine seconds / messages, median of $RUNS runs"
KINDS=(gray-to-binary/concurrent gray-to-binary/sequential
       binary-to-gray/concurrent binary-to-gray/sequential
       reshape/sequential reshape/one-path reshape/exchange reshape/two-path reshape/pipelined
       bmmc/two-phase bmmc/naive
       transpose/mpich transpose/pairwise transpose/butterfly transpose/bruck transpose/adaptive
       shift/torus shift/cube
       matmul/systolic matvec/tree vecmat/tree rank1/tree
       fft/compute=fft fft/compute=none)
CASES=()
for kind in "${KINDS[@]}"; do
  wanted "$kind" && CASES+=("$kind")
done
case_n() { case $1 in transpose/*) echo "$TN" ;; *) echo "$CN" ;; esac; }
for ((r = 1; r <= RUNS; r++)); do
  for i in "${!CASES[@]}"; do
    due "$i" "$r" || continue
    n=$(case_n "${CASES[$i]}")
    exchange_sample "$i" "$n"
    workload "${CASES[$i]}" "$n"
    sample "$i" "${ARGS[@]}"
    exchange_sample "$i" "$REF"
  done
done
printf '%-26s %-44s %10s %10s %10s %10s %10s %8s %8s\n' kind case messages engine_s wall_s ns/msg exch_ns/msg ratio peak_MiB
declare -a RESULTS
for i in "${!CASES[@]}"; do
  kind=${CASES[$i]}
  workload "$kind" "$(case_n "$kind")"
  target="cost/message <= 3x the exchange's: $LABEL"
  c="algorithms: $LABEL"
  peak=-
  [ -n "${PEAK[$i]:-}" ] && peak=$((PEAK[$i] / 1024))
  if [ -n "${BAD[$i]:-}" ]; then
    printf '%-26s %-44s %s\n' "$kind" "$LABEL" "${BAD[$i]}: ${WHY[$i]}"
    RESULTS+=("broken|$target|${BAD[$i]}: ${WHY[$i]}")
    record "$c" peak_memory "$peak" MiB
    continue
  fi
  es=$(median ${ENG[$i]})
  ws=$(median ${WALL[$i]})
  ns=$(calc "printf \"%.1f\", $es / ${MSGS[$i]} * 1e9")
  record "$c" messages "${MSGS[$i]}" ""
  record "$c" engine_seconds "$es" s
  record "$c" wall_seconds "$ws" s
  record "$c" ns_per_message "$ns" ns
  record "$c" peak_memory "$peak" MiB
  if [ -n "${XBAD[$i]:-}" ] || [ -z "${XENG[$i]:-}" ]; then
    printf '%-26s %-44s %10s %10.4f %10.4f %10s %s\n' "$kind" "$LABEL" "${MSGS[$i]}" "$es" "$ws" "$ns" "${XBAD[$i]:-no exchange run}"
    RESULTS+=("broken|$target|${XBAD[$i]:-no exchange run}")
    continue
  fi
  xes=$(median ${XENG[$i]})
  xns=$(calc "printf \"%.1f\", $xes / ${XMSGS[$i]} * 1e9")
  ratio=$(calc "printf \"%.2f\", $ns / $xns")
  record "$c" exchange_ns_per_message "$xns" ns
  record "$c" vs_exchange "$ratio" x
  # the payload of an average message, copied once at memcpy's rate
  cns=-
  if [[ "${ELEMS[$i]:-}" =~ ^[0-9]+$ ]]; then
    epm=$(calc "e = ${ELEMS[$i]} / ${MSGS[$i]}; print (e > int(e) ? int(e) + 1 : (e < 1 ? 1 : e))")
    cns=$(copy_floor "$(case_n "$kind")" "$epm")
  fi
  copy_note=""
  if [ "$cns" != - ]; then
    cratio=$(calc "printf \"%.2f\", $cns / $xns")
    record "$c" elements_per_message "$epm" ""
    record "$c" copy_ns_per_message "$cns" ns
    record "$c" copy_vs_exchange "$cratio" x
    copy_note="; its payload ($epm elements a message) copied once at memcpy's rate: $cns ns, ${cratio}x"
  fi
  printf '%-26s %-44s %10s %10.4f %10.4f %10s %10s %7sx %8s%s\n' "$kind" "$LABEL" "${MSGS[$i]}" "$es" "$ws" "$ns" "$xns" "$ratio" "$peak" "$(runs_note "$i")"
  RESULTS+=("$(calc "print ($ratio <= 3)")|$target|${ratio}x: $ns ns a message, the exchange $xns$copy_note")
done
for res in "${RESULTS[@]}"; do
  IFS='|' read -r ok target text <<<"$res"
  if [ "$ok" = broken ]; then broken "$target" "$text"; else verdict "$target" "$ok" "$text"; fi
done

# The sweep: SWEEP_KINDS for every size in SIZES, in rounds of every size
# once; per size the median engine and wall seconds and the largest peak.
SWEEP_KINDS=()
for kind in gray-to-binary/concurrent reshape/exchange bmmc/two-phase; do
  wanted "$kind" && SWEEP_KINDS+=("$kind")
done
# sweep_point KIND N ROUND: KIND's run on the N-cube in ROUND, if due;
# not at all where a smaller cube's run of KIND was stopped at the cap,
# since this one could only take longer
declare -A CAPPED
sweep_point() {
  local key="$1 $2"
  if [ -n "${CAPPED[$1]:-}" ] && [ "$2" -gt "${CAPPED[$1]}" ] && [ -z "${BAD[$key]:-}" ]; then
    BAD[$key]=skipped WHY[$key]="the $((CAPPED[$1]))-cube's run was stopped after $CAP s"
  fi
  due "$key" "$3" || return 0
  workload "$1" "$2"
  sample "$key" "${ARGS[@]}" && return 0
  [ "$R_STATUS" = capped ] && [ -z "${CAPPED[$1]:-}" ] && CAPPED[$1]=$2
  return 0
}
if [ ${#SIZES[@]} -gt 0 ] && [ ${#SWEEP_KINDS[@]} -gt 0 ]; then
  echo
  echo "the sweep, n = ${SIZES[*]}: cost per message (median of $RUNS runs) and peak memory against the payload (2^n $K 8 bytes)"
  for ((r = 1; r <= RUNS; r++)); do
    for n in "${SIZES[@]}"; do
      for kind in "${SWEEP_KINDS[@]}"; do
        sweep_point "$kind" "$n" "$r"
      done
    done
  done
  printf '%-26s %-4s %10s %10s %10s %10s %10s %11s %6s\n' kind n messages engine_s wall_s ns/msg peak_MiB payload_MiB ratio
  for kind in "${SWEEP_KINDS[@]}"; do
    costs=() missing=()
    for n in "${SIZES[@]}"; do
      key="$kind $n"
      workload "$kind" "$n"
      c="algorithm sweep: $LABEL"
      payload=$(calc "print 2 ^ $n * $K * 8 / 2 ^ 20")
      peak=- pratio=-
      if [ -n "${PEAK[$key]:-}" ]; then
        peak=$((PEAK[$key] / 1024))
        pratio=$(calc "printf \"%.2f\", $peak / $payload")
      fi
      if [ -n "${BAD[$key]:-}" ]; then
        record "$c" peak_memory "$peak" MiB
        record "$c" payload "$payload" MiB
        printf '%-26s %-4s %s (peak %s MiB)\n' "$kind" "$n" "${BAD[$key]}: ${WHY[$key]}" "$peak"
        missing+=("n = $n ${BAD[$key]} (${WHY[$key]})")
        continue
      fi
      es=$(median ${ENG[$key]})
      ws=$(median ${WALL[$key]})
      ns=$(calc "printf \"%.1f\", $es / ${MSGS[$key]} * 1e9")
      costs+=("$ns")
      record "$c" messages "${MSGS[$key]}" ""
      record "$c" engine_seconds "$es" s
      record "$c" wall_seconds "$ws" s
      record "$c" ns_per_message "$ns" ns
      record "$c" peak_memory "$peak" MiB
      record "$c" payload "$payload" MiB
      printf '%-26s %-4s %10s %10.3f %10.3f %10s %10s %11s %5sx%s\n' "$kind" "$n" "${MSGS[$key]}" "$es" "$ws" "$ns" "$peak" "$payload" "$pratio" "$(runs_note "$key")"
    done
    name="${kind%%/*} (${kind#*/})"
    over="n = ${SIZES[0]}..${SIZES[-1]}"
    if [ ${#missing[@]} -gt 0 ]; then
      broken "cost/message flat within 25% over $over: $name" "$(printf '%s; ' "${missing[@]}" | sed 's/; $//')"
    elif [ ${#costs[@]} -gt 1 ]; then
      s=$(spread "${costs[@]}")
      verdict "cost/message flat within 25% over $over: $name" \
        "$(calc "print ($s <= 0.25)")" "spread $(calc "printf \"%.0f%%\", 100 * $s"): $(IFS=/; echo "${costs[*]}") ns"
    fi
    n=${SIZES[-1]}
    key="$kind $n"
    if [ -n "${PEAK[$key]:-}" ]; then
      peak=$((PEAK[$key] / 1024))
      payload=$(calc "print 2 ^ $n * $K * 8 / 2 ^ 20")
      ok=$(calc "print ($peak <= 2 * $payload)")
      note="$peak MiB for $payload MiB"
      [ -n "${BAD[$key]:-}" ] && ok=0 note="$note; the run ${BAD[$key]}: ${WHY[$key]}"
      verdict "peak memory <= 2x payload at n = $n: $name" "$ok" "$note"
    else
      broken "peak memory <= 2x payload at n = $n: $name" "no peak measured: ${WHY[$key]:-no run}"
    fi
  done
fi

# Target 3: the sweep's runs of these two sizes where it had them, else
# runs of their own.
# limit KIND N SECONDS: KIND's median engine seconds on the N-cube under
# SECONDS
limit() {
  local kind=$1 n=$2 max=$3 key="$1 $2" r es ws own=0
  wanted "$kind" || return 0
  workload "$kind" "$n"
  if [ -z "${ENG[$key]:-}" ] && [ -z "${BAD[$key]:-}" ]; then
    own=1
    for ((r = 1; r <= RUNS; r++)); do
      due "$key" "$r" && sample "$key" "${ARGS[@]}"
    done
  fi
  local target="$LABEL under $max s in the engine"
  if [ -n "${BAD[$key]:-}" ]; then
    broken "$target" "${BAD[$key]}: ${WHY[$key]}"
    return
  fi
  es=$(median ${ENG[$key]})
  ws=$(median ${WALL[$key]})
  if [ $own = 1 ]; then   # else the sweep recorded them
    record "algorithms: $LABEL" messages "${MSGS[$key]}" ""
    record "algorithms: $LABEL" engine_seconds "$es" s
    record "algorithms: $LABEL" wall_seconds "$ws" s
  fi
  verdict "$target" "$(calc "print ($es < $max)")" \
    "$(printf 'engine %.3f s, wall %.3f s%s' "$es" "$ws" "$(runs_note "$key")")"
}
echo
limit gray-to-binary/concurrent "$GRAY_N" 10
limit bmmc/two-phase "$BMMC_N" 1.5
echo "bench/algorithms.sh: $((SECONDS - started)) s"
exit $fail
