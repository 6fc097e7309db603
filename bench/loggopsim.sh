#!/usr/bin/env bash
# bench/loggopsim.sh -- cubemu's replay of large Schedgen schedules against
# LogGOPSim's on the same schedule (docs/performance.md, "Replaying
# schedules against LogGOPSim"). The peer is the directory LOGGOPSIM names,
# holding bin/schedgen, bin/txt2bin and bin/LogGOPSim (built from
# https://github.com/spcl/LogGOPSim as that section says); where LOGGOPSIM
# is unset or lacks one of the three, the script says so and exits 0.
#
# For each case PATTERN:RANKS of BENCH_LOGGOPSIM_CASES (default below),
# the peer's schedgen writes the schedule (BENCH_LOGGOPSIM_BYTES bytes a
# basic step, default 64) into a temporary directory, removed at the end;
# then, under two conditions, as bench/against.sh does:
#   - back to back: the two sides' runs alternate with no pause;
#   - after a pause: each run follows BENCH_LOGGOPSIM_PAUSE seconds
#     (default 6) of an idle machine;
# BENCH_LOGGOPSIM_RUNS runs of each side (default 3), in alternating order:
#   - cubemu: `cubemu run` of the schedule on the complete graph of RANKS
#     processors (the smp-8 preset with processors = RANKS: every rank a
#     node, every message one hop), reading the GOAL text;
#   - the peer: txt2bin, which turns the text into LogGOPSim's binary,
#     then LogGOPSim on it (its LogGP defaults, batch mode).
# A side's seconds are the median of its runs' whole-process wall times
# (the peer's: txt2bin's plus LogGOPSim's), its memory the largest peak
# resident size of its runs (the peer's: of either program). cubemu's
# runs must verify their data and report as many messages as schedgen
# wrote sends; the
# peer's must end with its "Maximum finishing time" line, which it prints
# only when every receive was matched. A peer run that does not (a
# schedule it cannot replay) or that runs past BENCH_LOGGOPSIM_TIMEOUT
# seconds (default 120; txt2bin and LogGOPSim each) is printed, recorded as
# loggopsim_complete = 0 without seconds, and not run again for that case.
#
# Rows (bench/record.h), case "loggopsim: PATTERN P=RANKS d=BYTES" with
# cycles and messages (cubemu's) and loggopsim_finish (the peer's
# simulated time, ns; not comparable with cubemu's cycles: another model),
# and the same case + " CONDITION" with cubemu_seconds, cubemu_memory,
# loggopsim_seconds, txt2bin_seconds, loggopsim_memory, loggopsim_vs_cubemu
# (the peer's seconds over cubemu's) and loggopsim_complete. Exit status 1
# if a cubemu run fails, a schedule cannot be generated or a row is lost.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
EMU=$BUILD/cubemu
# The cases: the two large collectives of issue 74 at 2^16 ranks, the
# all-to-all where the peer finishes in seconds, and at 1024 ranks, where
# it does not (its matching queues grow with the ranks).
CASES=${BENCH_LOGGOPSIM_CASES:-dissemination:65536 allreduce_recdoub:65536 linear_alltoall:256 linear_alltoall:1024}
BYTES=${BENCH_LOGGOPSIM_BYTES:-64}
RUNS=${BENCH_LOGGOPSIM_RUNS:-3}
PAUSE=${BENCH_LOGGOPSIM_PAUSE:-6}
TIMEOUT=${BENCH_LOGGOPSIM_TIMEOUT:-120}
# timeout(1)'s exit status when the command ran out of time
TIMED_OUT=124
fail=0
. bench/lib.sh

if [ -z "${LOGGOPSIM:-}" ]; then
  echo "loggopsim: skipped (set LOGGOPSIM to a directory with bin/schedgen, bin/txt2bin and bin/LogGOPSim; docs/performance.md)"
  exit 0
fi
for p in schedgen txt2bin LogGOPSim; do
  if [ ! -x "$LOGGOPSIM/bin/$p" ]; then
    echo "loggopsim: skipped ($LOGGOPSIM/bin/$p is missing; docs/performance.md says how to build LogGOPSim)"
    exit 0
  fi
done
bench_setup || exit 1
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cubemu-loggopsim.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

# timed COMMAND...: run it with its output in $TMP/out, its wall
# nanoseconds and peak resident KiB into $ns and $kib; its status
timed() {
  local a b rc
  a=${EPOCHREALTIME//[.,]/}
  /usr/bin/time -f '%M' -o "$TMP/time" timeout "$TIMEOUT" "$@" > "$TMP/out" 2>&1
  rc=$?
  b=${EPOCHREALTIME//[.,]/}
  ns=$(( (b - a) * 1000 ))
  kib=$(tail -n 1 "$TMP/time")
  case "$kib" in *[!0-9]*|'') kib=0 ;; esac
  return $rc
}

# cubemu_run GOAL RANKS: one replay; cubemu's ns and KiB onto cts and
# ckib; its cycles and messages into $cycles and $messages; status 1 if it
# failed or did not verify
cubemu_run() {
  timed "$EMU" run --set machine.preset=smp-8 --set machine.processors="$2" \
    --set algorithm.name=schedule --set algorithm.schedule="$1" --json || return 1
  cts+=("$ns")
  [ "$kib" -gt "$ckib" ] && ckib=$kib
  read -r cycles messages ok < <(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(d["cycles"], d["messages"], int(d["data_correct"]))' "$TMP/out") && [ "$ok" = 1 ]
}

# peer_run GOAL: txt2bin, then LogGOPSim; the sum of their ns onto pts,
# txt2bin's onto tts, the larger KiB into pkib, the simulated finishing
# time into $finish; status 1 with $why set when the peer could not
# replay the schedule
peer_run() {
  local t rc
  timed "$LOGGOPSIM/bin/txt2bin" -i "$1" -o "$TMP/schedule.bin"
  rc=$?
  if [ $rc != 0 ]; then
    why="txt2bin $( [ $rc = $TIMED_OUT ] && echo "ran past $TIMEOUT s" || echo "failed: $(tail -n 1 "$TMP/out")")"
    return 1
  fi
  t=$ns
  [ "$kib" -gt "$pkib" ] && pkib=$kib
  timed "$LOGGOPSIM/bin/LogGOPSim" -b -f "$TMP/schedule.bin"
  rc=$?
  if [ $rc = $TIMED_OUT ]; then
    why="LogGOPSim ran past $TIMEOUT s"
    return 1
  fi
  finish=$(sed -n 's/^Maximum finishing time at host [0-9]*: \([0-9]*\).*/\1/p' "$TMP/out")
  if [ $rc != 0 ] || [ -z "$finish" ]; then
    why="LogGOPSim did not finish the schedule: $(grep -c '^receive queue on host' "$TMP/out") ranks left receives unmatched (exit status $rc)"
    return 1
  fi
  pts+=($((t + ns)))
  tts+=("$t")
  [ "$kib" -gt "$pkib" ] && pkib=$kib
  return 0
}

secs() { awk -v v="$1" 'BEGIN { printf "%.4f", v / 1e9 }'; }

echo "loggopsim: $EMU ($(git describe --always --dirty 2>/dev/null)) against $LOGGOPSIM, $BYTES bytes a step, $RUNS runs a cell"
printf '%-14s %-18s %7s %10s %10s %10s %10s %10s %8s\n' condition pattern ranks cubemu_s cubemu_MiB peer_s txt2bin_s peer_MiB peer/cm
for c in $CASES; do
  pattern=${c%%:*} ranks=${c#*:}
  goal=$TMP/$pattern-$ranks.goal
  if ! "$LOGGOPSIM/bin/schedgen" -p "$pattern" -s "$ranks" -d "$BYTES" -o "$goal" > "$TMP/out" 2>&1; then
    echo "$pattern $ranks: schedgen failed: $(tail -n 1 "$TMP/out")"
    fail=1
    continue
  fi
  sends=$(sed -n 's/^\([0-9]*\) sends,.*/\1/p' "$TMP/out")
  name="loggopsim: $pattern P=$ranks d=$BYTES"
  peer_ok=1 why= finish= cycles= messages=
  for condition in back-to-back after-pause; do
    cts=() pts=() tts=() ckib=0 pkib=0
    for ((i = 0; i < RUNS; i++)); do
      for who in $(if ((i % 2)); then echo peer cubemu; else echo cubemu peer; fi); do
        [ "$who" = peer ] && [ $peer_ok = 0 ] && continue
        [ "$condition" = after-pause ] && sleep "$PAUSE"
        if [ "$who" = cubemu ]; then
          if ! cubemu_run "$goal" "$ranks"; then
            echo "$pattern $ranks: cubemu failed or did not verify: $(tail -n 1 "$TMP/out")"
            fail=1
            continue 4
          fi
        elif ! peer_run "$goal"; then
          echo "$pattern $ranks: $why"
          peer_ok=0
        fi
      done
    done
    cs=$(median "${cts[@]}")
    ps=- ts=- pm=- ratio=-
    if [ $peer_ok = 1 ]; then
      ps=$(median "${pts[@]}") ts=$(median "${tts[@]}") pm=$((pkib / 1024))
      ratio=$(awk -v p="$ps" -v c="$cs" 'BEGIN { printf "%.2f", p / c }')
    fi
    printf '%-14s %-18s %7s %10s %10s %10s %10s %10s %8s\n' "$condition" "$pattern" "$ranks" \
      "$(secs "$cs")" $((ckib / 1024)) "$([ "$ps" = - ] && echo - || secs "$ps")" \
      "$([ "$ts" = - ] && echo - || secs "$ts")" "$pm" "$ratio"
    record "$name $condition" cubemu_seconds "$(secs "$cs")" s
    record "$name $condition" cubemu_memory $((ckib / 1024)) MiB
    if [ $peer_ok = 1 ]; then
      record "$name $condition" loggopsim_seconds "$(secs "$ps")" s
      record "$name $condition" txt2bin_seconds "$(secs "$ts")" s
      record "$name $condition" loggopsim_memory "$pm" MiB
      record "$name $condition" loggopsim_vs_cubemu "$ratio" x
    fi
    record "$name $condition" loggopsim_complete $peer_ok ""
  done
  if [ "$messages" != "$sends" ]; then
    echo "$pattern $ranks: cubemu replayed $messages messages, schedgen wrote ${sends:-?} sends"
    fail=1
  fi
  record "$name" cycles "$cycles" ticks
  record "$name" messages "$messages" ""
  [ $peer_ok = 1 ] && record "$name" loggopsim_finish "$finish" ns
  rm -f "$goal" "$TMP/schedule.bin"
done
exit $fail
