#!/usr/bin/env bash
# bench/algorithms.sh (make bench's per-algorithm rows) in its smoke mode,
# so that the script cannot break unseen: every case runs on a small cube,
# verifies and is recorded, every target prints a verdict (skipped), and
# bench/report.py reads the rows back; then, with a stand-in for cubemu, a
# run whose data does not verify and a run stopped at the cap each miss
# their targets, in smoke mode too. Ends with one line
# "bench-smoke: N passed, N failed".
set -u
. "$(dirname "$0")/expect.sh"
scratch bench-smoke

# Every case, the sweep and target 3, recorded into a file of their own
run env -u BENCH_ALGO_RUNS -u BENCH_ALGO_SWEEP -u BENCH_ALGO_ONLY -u BENCH_ALGO_CAP \
  -u BENCH_DATE -u BENCH_COMMIT -u BENCH_MACHINE \
  BENCH_ALGO_SMOKE=1 BENCH_DATA="$T/results.tsv" BUILD="$BUILD" bench/algorithms.sh
skipped=$(grep -c '^target .*: skipped in smoke mode (' <<<"$out")
# 24 cases, two verdicts for each of the sweep's three algorithms, two of
# target 3
if [ "$rc" = 0 ] && [ "$skipped" = 32 ] && ! grep -q 'NOT MET' <<<"$out"; then
  ok smoke-verdicts; else bad smoke-verdicts; fi
# a row of cost per message for every case and every size of the sweep,
# and every case's copy of its payload at memcpy's rate
cases=$(awk -F'\t' '$5 == "ns_per_message" && $4 ~ /^algorithms: / { n++ } END { print n + 0 }' "$T/results.tsv")
sweep=$(awk -F'\t' '$5 == "ns_per_message" && $4 ~ /^algorithm sweep: / { n++ } END { print n + 0 }' "$T/results.tsv")
copies=$(awk -F'\t' '$5 == "copy_ns_per_message" && $6 ~ /^[0-9.]+$/ && $4 ~ /^algorithms: / { n++ } END { print n + 0 }' "$T/results.tsv")
if [ "$cases" = 24 ] && [ "$sweep" = 6 ] && [ "$copies" = 24 ]; then ok smoke-rows
else out="cases $cases, sweep $sweep, copies $copies"; bad smoke-rows; fi
run python3 bench/report.py --file "$T/results.tsv" --section algorithm
if [ "$rc" = 0 ] && [[ "$out" == *$'\nalgorithms\ncase '*"vs_exchange"* ]] \
   && [[ "$out" == *"bmmc two-phase bit-reversal N=4096 n=6 "* ]] \
   && [[ "$out" == *$'\nalgorithm sweep\ncase '* ]] && [[ "$out" != *$'\ntargets\n'* ]]; then
  ok smoke-report; else bad smoke-report; fi
expect smoke-report-section 2 "bench-report: --section nothing: no section of run 1 contains it" -- \
  python3 bench/report.py --file "$T/results.tsv" --section nothing

# A stand-in for cubemu: the exchange's report as the engine's, and for
# bmmc either a report whose data did not verify or a run that never ends
mkdir -p "$T/fake"
cat > "$T/fake/cubemu" <<'EOF'
#!/usr/bin/env bash
case "$*" in
  *algorithm.name=exchange*)
    echo '{"messages": 384, "data_correct": true, "timing": {"wall_seconds": 0.0001}}' ;;
  *) [ "${FAKE_SLOW:-}" = 1 ] && exec sleep 30
     echo '{"messages": 4096, "data_correct": false, "timing": {"wall_seconds": 0.001}}' ;;
esac
EOF
chmod +x "$T/fake/cubemu"
fake() {
  run env -u BENCH_DATA -u BENCH_ALGO_RUNS -u BENCH_ALGO_SWEEP -u BENCH_ALGO_CAP \
    BENCH_ALGO_SMOKE=1 BENCH_ALGO_ONLY='^bmmc/two-phase$' BUILD="$T/fake" "$@" bench/algorithms.sh
}
fake
if [ "$rc" = 1 ] \
   && [[ "$out" == *"target cost/message <= 3x the exchange's: bmmc two-phase bit-reversal N=4096 n=6: NOT MET (wrong: its data did not verify)"* ]] \
   && [[ "$out" == *"target cost/message flat within 25% over n = 6..7: bmmc (two-phase): NOT MET (n = 6 wrong (its data did not verify); n = 7 wrong (its data did not verify))"* ]] \
   && [[ "$out" == *"target bmmc two-phase bit-reversal N=4096 n=6 under 1.5 s in the engine: NOT MET (wrong: its data did not verify)"* ]]; then
  ok smoke-wrong-data; else bad smoke-wrong-data; fi
# stopped at the cap, and the sweep's larger cube not run at all
fake FAKE_SLOW=1 BENCH_ALGO_CAP=1
if [ "$rc" = 1 ] \
   && [[ "$out" == *"bmmc two-phase bit-reversal N=4096 n=6: NOT MET (capped: stopped after 1 s)"* ]] \
   && [[ "$out" == *"bmmc/two-phase             7    skipped: the 6-cube's run was stopped after 1 s"* ]] \
   && [[ "$out" == *"target peak memory <= 2x payload at n = 7: bmmc (two-phase): NOT MET (no peak measured: the 6-cube's run was stopped after 1 s)"* ]]; then
  ok smoke-cap; else bad smoke-cap; fi

# make bench-targets: the latest run's recorded targets, exit 1 where one
# was missed, 0 where all were met (make bench itself fails only on a case
# that failed)
printf 'date\tcommit\tmachine\tcase\tmetric\tvalue\tunit\n' >"$T/targets.tsv"
row() { printf '%s\tc1\tm\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$T/targets.tsv"; }
row 2026-01-01 "targets: old one" met 0 met
row 2026-01-02 "exchange n=14: x" cycles 5 ticks
row 2026-01-02 "targets: fast enough" met 1 met
row 2026-01-02 "targets: small enough" met 0 met
expect targets-missed 1 "run 2026-01-02, commit c1, m: 1 of 2 targets met
  NOT MET: small enough" -- python3 bench/report.py --file "$T/targets.tsv" --targets
expect targets-earlier-run 1 "run 2026-01-01, commit c1, m: 0 of 1 targets met
  NOT MET: old one" -- python3 bench/report.py --file "$T/targets.tsv" --targets --run 2
row 2026-01-03 "targets: fast enough" met 1 met
expect targets-all-met 0 "run 2026-01-03, commit c1, m: 1 of 1 targets met" -- \
  python3 bench/report.py --file "$T/targets.tsv" --targets
# a later run without targets (a script run alone, as make bench-loggopsim
# records) leaves the verdict to the latest run that has them; --run 1
# names it and finds none
row 2026-01-04 "loggopsim: dissemination P=64 d=64" cycles 5 ticks
expect targets-skip-untargeted 0 "run 2026-01-03, commit c1, m: 1 of 1 targets met" -- \
  python3 bench/report.py --file "$T/targets.tsv" --targets
expect targets-run-without 2 "bench-report: run 1 (2026-01-04, c1) recorded no targets" -- \
  python3 bench/report.py --file "$T/targets.tsv" --targets --run 1

echo "bench-smoke: $passed passed, $failed failed"
[ "$failed" = 0 ]
