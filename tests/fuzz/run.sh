#!/usr/bin/env bash
# tests/fuzz/run.sh BUILD SECONDS -- make fuzz: each libFuzzer harness in
# BUILD/tests/fuzz/ for SECONDS, one after the other (the machine has few
# cores), over its seeds (tests/fuzz/corpus/NAME, read only), its
# regressions (tests/fuzz/regressions/NAME) and the corpus it grew before
# (BUILD/fuzz/NAME/corpus, where new inputs go). A crash is written to
# BUILD/fuzz/NAME/crashes/. tests/fuzz/dict/NAME.dict, where present, gives
# libFuzzer the input's words (keys, names, the trace magic). Prints per harness the executions, the speed,
# the coverage (libFuzzer's cov: edges, ft: features) and the result, and
# fails if any harness crashed.
#
# Limits: -malloc_limit_mb makes one allocation larger than 1 GiB a
# finding (input that sizes memory unchecked), -rss_limit_mb a process
# beyond 2 GiB, -timeout an input that takes longer than 25 s.
set -u
cd "$(dirname "$0")/../.."
build=${1:-build-fuzz}
seconds=${2:-60}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0}
crashed=0
printf '%-10s %12s %8s %7s %7s %7s  %s\n' harness executions exec/s cov ft corpus result
for bin in "$build"/tests/fuzz/fuzz_*; do
  [ -x "$bin" ] || continue
  name=${bin##*/fuzz_}
  work=$build/fuzz/$name
  mkdir -p "$work/corpus" "$work/crashes"
  dirs=("$work/corpus")
  for d in "tests/fuzz/corpus/$name" "tests/fuzz/regressions/$name"; do
    [ -d "$d" ] && dirs+=("$d")
  done
  log=$work/log
  dict=()
  [ -f "tests/fuzz/dict/$name.dict" ] && dict=(-dict="tests/fuzz/dict/$name.dict")
  "$bin" "${dict[@]}" -max_total_time="$seconds" -print_final_stats=1 \
    -malloc_limit_mb=1024 -rss_limit_mb=2048 -timeout=25 \
    -artifact_prefix="$work/crashes/" "${dirs[@]}" >"$log" 2>&1
  rc=$?
  execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -n 1)
  speed=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+).*/\1/p' "$log" | tail -n 1)
  last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1)
  cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$last")
  ft=$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$last")
  corp=$(sed -nE 's/.*corp: ([0-9]+).*/\1/p' <<<"$last")
  result=ok
  if [ "$rc" != 0 ]; then
    crashed=1
    summary=$(grep -m1 -E '^SUMMARY|ERROR: libFuzzer|^==[0-9]+==ERROR' "$log")
    artifact=$(sed -nE 's/.*Test unit written to (.*)/\1/p' "$log" | tail -n 1)
    result="CRASH (exit $rc): ${summary:-see $log} ${artifact:+-> $artifact}"
  fi
  printf '%-10s %12s %8s %7s %7s %7s  %s\n' "$name" "${execs:-?}" "${speed:-?}" \
    "${cov:-?}" "${ft:-?}" "${corp:-?}" "$result"
done
if [ "$crashed" = 1 ]; then
  echo "fuzz: a harness crashed; the logs and inputs are in $build/fuzz/*/"
  exit 1
fi
