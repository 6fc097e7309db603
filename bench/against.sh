#!/usr/bin/env bash
# bench/against.sh -- this build's dimension exchange against an older
# build's, side by side in one run: whole-process wall seconds and minor
# page faults of `cubemu run` (exchange, K = 64, startup 1, the cube
# preset) for n in BENCH_AGAINST_SIZES (default 14 16 18 20 22), under
# two conditions (below). BENCH_AGAINST_WORKLOADS (default exchange)
# adds bench/lib.sh workloads, sized by n as bench/algorithms.sh sizes
# them; the runs that leave the locality order as they start, say:
# matmul/systolic, matvec/tree, bmmc/naive, fft-torus/compute=none. The
# two conditions:
#   - back to back: the two builds' runs alternate with no pause;
#   - after a pause: each run follows BENCH_AGAINST_PAUSE seconds (default
#     6) of an idle machine, as a user's run and each benchmark case does.
# Each cell is the median of BENCH_AGAINST_RUNS runs (default 5); the
# noise column is the spread (largest - smallest) / median of this
# build's runs, the run's own noise, against which "slower" is judged: a
# size where this build's median exceeds the older one's by more than that
# spread is reported SLOWER. The two builds' outputs (cycles, element
# transfers, data) must be identical.
#
#   bench/against.sh [REF]   REF: the older commit (default 7befd67, the
#                            last build whose engine mapped its big arrays
#                            on huge pages), built into build-against/REF
#                            from a temporary worktree (make's usual
#                            flags); run from make bench-against
# Every figure is printed and appended to BENCH_DATA (default
# bench/results.tsv; bench/record.h) as
# case "against REF: exchange n=N K=64 CONDITION" (the other workloads:
# "against REF: LABEL CONDITION", LABEL as workload sets it), metrics seconds,
# ref_seconds, faults, ref_faults, noise and slower (1/0). Exit status 1
# if a run fails or the outputs differ; a slower size is a verdict, not a
# failure.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
REF=${1:-7befd67}
SIZES=${BENCH_AGAINST_SIZES:-14 16 18 20 22}
WORKLOADS=${BENCH_AGAINST_WORKLOADS:-exchange}
RUNS=${BENCH_AGAINST_RUNS:-5}
PAUSE=${BENCH_AGAINST_PAUSE:-6}
K=64
fail=0
export BENCH_DATA=${BENCH_DATA:-bench/results.tsv}
. bench/lib.sh

OLD=build-against/$REF
if [ ! -x "$OLD/cubemu" ]; then
  tree=$(mktemp -d "${TMPDIR:-/tmp}/cubemu-against.XXXXXX") || exit 1
  if ! git worktree add -q --detach "$tree" "$REF"; then
    echo "against: cannot check out $REF"; rmdir "$tree"; exit 1
  fi
  mkdir -p "$OLD"
  if ! make -s -C "$tree" BUILD="$PWD/$OLD" "$PWD/$OLD/cubemu" > /dev/null; then
    echo "against: cannot build $REF"; fail=1
  fi
  git worktree remove --force "$tree"
  [ "$fail" = 0 ] || exit 1
fi
NEW=$BUILD/cubemu
# the older build finds the presets beside it no longer: both read the
# tree's (the cube preset is the same in both)
export CUBEMU_MACHINES=$PWD/machines
echo "against: $NEW ($(git describe --always --dirty)) and $OLD/cubemu ($REF), $WORKLOADS, $RUNS runs a cell"

# case NAME N: LABEL and ARGS of the exchange as this script has always
# run it (startup 1, its rows' name kept), or of a bench/lib.sh workload
case_of() {
  if [ "$1" = exchange ]; then
    LABEL="exchange n=$2 K=$K"
    ARGS=(--set machine.preset=cube --set machine.dimensions="$2" --set machine.startup=1
          --set algorithm.name=exchange --set algorithm.elements-per-node=$K)
  else
    workload "$1" "$2"
  fi
}

# one BIN: a whole run of ARGS, its wall nanoseconds and minor faults,
# "NS FAULTS"; its JSON report's cycles, transfers and data into $TMP_OUT
TMP_OUT=$(mktemp) || exit 1
trap 'rm -f "$TMP_OUT" "$TMP_OUT.t"' EXIT
one() {
  local a b
  a=${EPOCHREALTIME//[.,]/}
  /usr/bin/time -f '%R' -o "$TMP_OUT.t" "$1" run "${ARGS[@]}" --json > "$TMP_OUT" || return 1
  b=${EPOCHREALTIME//[.,]/}
  echo "$(( (b - a) * 1000 )) $(tail -n 1 "$TMP_OUT.t")"
}
summary() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(d["cycles"], d["element_transfers"], d["data_correct"])' "$TMP_OUT"; }

for w in $WORKLOADS; do case_of "$w" 1; done    # an unknown name: exit 2 now
printf '%-14s %-44s %10s %10s %9s %9s %7s  %s\n' condition case this_s ref_s this_flt ref_flt noise verdict
for condition in back-to-back after-pause; do
  for w in $WORKLOADS; do
  for n in $SIZES; do
    case_of "$w" "$n"
    nt=() nf=() ot=() of=() ns= os=
    for ((i = 0; i < RUNS; i++)); do
      # alternate which build goes first, so that neither always follows
      # the other's freed memory
      for who in $(if ((i % 2)); then echo old new; else echo new old; fi); do
        [ "$condition" = after-pause ] && sleep "$PAUSE"
        bin=$NEW; [ "$who" = old ] && bin=$OLD/cubemu
        if ! r=$(one "$bin"); then echo "$LABEL: $who build failed"; fail=1; continue 2; fi
        s=$(summary)
        if [ "$who" = new ]; then nt+=(${r% *}) nf+=(${r#* }) ns=$s; else ot+=(${r% *}) of+=(${r#* }) os=$s; fi
      done
    done
    [ "${ns:-x}" = "${os:-y}" ] || { echo "$LABEL: outputs differ: $ns against $os"; fail=1; }
    mn=$(median "${nt[@]}") mo=$(median "${ot[@]}")
    read -r noise slower < <(python3 -c 'import sys
t = [float(v) for v in sys.argv[3:]]; new, old = float(sys.argv[1]), float(sys.argv[2])
noise = (max(t) - min(t)) / new
print("%.3f" % noise, int(new > old * (1 + noise)))' "$mn" "$mo" "${nt[@]}")
    verdict=$([ "$slower" = 1 ] && echo SLOWER || echo ok)
    printf '%-14s %-44s %10.4f %10.4f %9s %9s %6.1f%%  %s\n' "$condition" "$LABEL" \
      "$(awk -v v="$mn" 'BEGIN{print v/1e9}')" "$(awk -v v="$mo" 'BEGIN{print v/1e9}')" \
      "$(median "${nf[@]}")" "$(median "${of[@]}")" "$(awk -v v="$noise" 'BEGIN{print v*100}')" "$verdict"
    c="against $REF: $LABEL $condition"
    record "$c" seconds "$(awk -v v="$mn" 'BEGIN{printf "%.6f", v/1e9}')" s
    record "$c" ref_seconds "$(awk -v v="$mo" 'BEGIN{printf "%.6f", v/1e9}')" s
    record "$c" faults "$(median "${nf[@]}")" ""
    record "$c" ref_faults "$(median "${of[@]}")" ""
    record "$c" noise "$noise" ""
    record "$c" slower "$slower" ""
  done
  done
done
exit $fail
