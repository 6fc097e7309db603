#!/usr/bin/env bash
# bench/frontier.sh -- part of `make bench` (bench/run.sh runs it; make
# bench-frontier runs it alone): what share of the runs that leave the
# locality order could run in it, and so split among threads, tick by
# tick (docs/performance.md, "The frontier"). The engine's survey
# (CUBEMU_ORDER=survey, emu/sim_order.c) runs the contract's order and
# counts the ticks where the locality order's checks find two events
# that depend on their order.
#
# Two sets of runs:
#   - every scenario of scenarios/ whose run the locality order stops
#     (the debug log says so), summed by folder: the project's own
#     workloads, at the sizes they have;
#   - the frontier's algorithms as bench/algorithms.sh runs them (its
#     workload, bench/lib.sh) on the BENCH_FRONTIER_N-cube (default 14): a
#     routed permutation (bmmc naive bit reversal), DBLAS (matvec),
#     Cannon's skews (matmul), and an FFT on the 2-d torus of as many
#     nodes (compute=none).
# Rows (bench/record.h), case "frontier: FOLDER scenarios" or "frontier:
# LABEL": ticks, ticks_free (those without a conflict), events,
# events_free (those in ticks without one), and, for a folder, scenarios.
# The survey changes nothing a run reports; every run must verify its
# data. Exit status 1 if a run failed or did not verify.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
EMU=$BUILD/cubemu
. bench/lib.sh
bench_setup || exit 1
N=${BENCH_FRONTIER_N:-14}
fail=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cubemu-frontier.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

# survey ARGS...: one surveyed run; "TICKS TICKS_FREE EVENTS EVENTS_FREE",
# or status 1 if it failed, did not verify or said nothing
survey() {
  CUBEMU_ORDER=survey G_MESSAGES_DEBUG=all "$EMU" run "$@" --json \
    > "$TMP/json" 2> "$TMP/log" || return 1
  python3 -c 'import json, sys; sys.exit(0 if json.load(open(sys.argv[1]))["data_correct"] else 1)' \
    "$TMP/json" || return 1
  sed -n 's/.*: survey: \([0-9]*\) of \([0-9]*\) ticks and \([0-9]*\) of \([0-9]*\) events without a conflict.*/\2 \1 \4 \3/p' \
    "$TMP/log" | tail -n 1 | grep .
}

pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%%", b ? 100 * a / b : 0 }'; }

# show CASE SHOWN TICKS TICKS_FREE EVENTS EVENTS_FREE: a line, as SHOWN,
# and the case's four rows
show() {
  printf '%-58s %8s %8s %10s %8s\n' "$2" "$3" "$(pct "$4" "$3")" "$5" "$(pct "$6" "$5")"
  record "$1" ticks "$3" ticks
  record "$1" ticks_free "$4" ticks
  record "$1" events "$5" events
  record "$1" events_free "$6" events
}

echo "frontier: the runs that leave the locality order, surveyed tick by tick"
printf '%-58s %8s %8s %10s %8s\n' case ticks free events free
declare -A T TF E EF S
for f in $(find scenarios -name '*.ini' | sort); do
  G_MESSAGES_DEBUG=all "$EMU" run "$f" > /dev/null 2> "$TMP/log"
  grep -q "the locality order does not apply" "$TMP/log" || continue
  dir=${f#scenarios/}
  dir=${dir%%/*}
  if ! r=$(survey "$f"); then
    echo "frontier: $f: the surveyed run failed or did not verify"
    fail=1
    continue
  fi
  set -- $r
  T[$dir]=$(( ${T[$dir]:-0} + $1 )) TF[$dir]=$(( ${TF[$dir]:-0} + $2 ))
  E[$dir]=$(( ${E[$dir]:-0} + $3 )) EF[$dir]=$(( ${EF[$dir]:-0} + $4 ))
  S[$dir]=$(( ${S[$dir]:-0} + 1 ))
done
for dir in $(printf '%s\n' "${!S[@]}" | sort); do
  name="frontier: $dir scenarios"
  record "$name" scenarios "${S[$dir]}" ""
  show "$name" "$name (${S[$dir]})" "${T[$dir]}" "${TF[$dir]}" "${E[$dir]}" "${EF[$dir]}"
done

for kind in bmmc/naive matvec/tree matmul/systolic fft-torus/compute=none; do
  workload "$kind" "$N"
  if ! r=$(survey "${ARGS[@]}"); then
    echo "frontier: $LABEL: the surveyed run failed or did not verify"
    fail=1
    continue
  fi
  show "frontier: $LABEL" "$LABEL" $r
done
exit $fail
