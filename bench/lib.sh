# bench/lib.sh -- what the benchmark's scripts (peers.sh, routed.sh,
# algorithms.sh) share; sourced, not run. Each script keeps its own
# `fail`, which these set to 1 on a case that failed or a lost row, and
# exits 1 with it; a missed target is recorded and printed, NOT MET, but
# fails nothing: `make bench` measures, and `make bench-targets` judges
# the recorded targets.

# The run's stamp, which every row of it carries: the time (UTC), the
# commit (-dirty for uncommitted changes) and the machine's cores,
# processor and memory; set once by whichever script the user ran (make
# bench, make bench-against, ...) and kept by the scripts it runs.
export BENCH_DATE=${BENCH_DATE:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}
export BENCH_COMMIT=${BENCH_COMMIT:-$(git describe --always --dirty 2>/dev/null || echo unknown)}
if [ -z "${BENCH_MACHINE:-}" ]; then
  bench_cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1 | tr -s ' ')
  bench_mem=$(awk '/^MemTotal:/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
  export BENCH_MACHINE="$(nproc) cores, ${bench_cpu:-unknown processor}, $bench_mem"
fi

# record CASE METRIC VALUE UNIT: one row of the results file
# (bench/record.h), when $BENCH_DATA names it (bench/run.sh sets it)
record() {
  [ -n "${BENCH_DATA:-}" ] || return 0
  case "$3" in ''|-) return 0 ;; esac
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${BENCH_DATE:-?}" "${BENCH_COMMIT:-?}" \
    "${BENCH_MACHINE:-?}" "$1" "$2" "$3" "$4" >> "$BENCH_DATA" \
    || { echo "bench: $BENCH_DATA: cannot append"; fail=1; }
}

# judge NAME OK(1/0) TEXT: a target's verdict, printed and recorded
judge() {
  if [ "$2" = 1 ]; then echo "target $1: met ($3)"; else echo "target $1: NOT MET ($3)"; fi
  record "targets: $1" met "$2" met
}

# failed NAME TEXT: a target whose run failed or gave wrong data: recorded
# as missed, and the case as failed
failed() {
  echo "target $1: NOT MET ($2)"
  fail=1
  record "targets: $1" met 0 met
}

# bench_setup: the run's results file, BENCH_DATA (default
# bench/results.tsv), created with its header where it is not there; kept
# when already set (bench/run.sh sets it once for all its scripts; a
# script run alone, as by make bench-loggopsim, sets it itself). Status 1
# if the file cannot be created.
bench_setup() {
  export BENCH_DATA=${BENCH_DATA:-bench/results.tsv}
  if [ ! -s "$BENCH_DATA" ]; then
    printf 'date\tcommit\tmachine\tcase\tmetric\tvalue\tunit\n' > "$BENCH_DATA" || return 1
  fi
}

# median VALUE...: the middle one (of an even count, the lower)
median() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }
