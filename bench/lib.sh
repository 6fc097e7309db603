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

# workload KIND N: LABEL, the case's name, and ARGS, cubemu run's --set
# options, of KIND (algorithm/method) sized by the cube's dimension N, and
# REF, the dimension of the exchange's cube it is compared with (N; the
# torus has 2^N nodes, as the N-cube). The shapes scale with N: reshape's
# is the paper's Theorem 2 scenario (johnsson-ho-theorem2-K64.ini: from
# 2^(n+6) to 4x4x4x2^n, delta = 3, K = 64); bmmc has 64 elements a node;
# matmul's side and the DBLAS routines' are chosen for a few seconds a
# run on the 14-cube; fft has one point a node, on the cube or (fft-torus)
# on the 2-d torus of as many nodes. The exchange kinds use $K, the
# caller's elements a node. bench/algorithms.sh, bench/against.sh and
# bench/frontier.sh run the same cases through it.
workload() {
  local kind=$1 n=$2 alg=${1%%/*} method=${1#*/}
  local cube=(--set machine.preset=cube --set machine.dimensions="$n")
  local half=$((n / 2)) side
  REF=$n
  case $kind in
    gray-to-binary/*|binary-to-gray/*|exchange/*|shift/cube)
      [ "$alg" = shift ] && method=ring
      LABEL="$alg $method n=$n K=$K"
      [ "$kind" = shift/cube ] && LABEL="shift ring on the $n-cube K=$K"
      ARGS=("${cube[@]}" --set algorithm.name="$alg" --set algorithm.method="$method"
            --set algorithm.elements-per-node="$K") ;;
    reshape/*)
      LABEL="reshape $method $((1 << (n + 6)))->4x4x4x$((1 << n)) n=$n"
      ARGS=("${cube[@]}" --set algorithm.name=reshape --set algorithm.method="$method"
            --set algorithm.from=$((1 << (n + 6))) --set algorithm.to=4x4x4x$((1 << n))) ;;
    bmmc/*)
      LABEL="bmmc $method bit-reversal N=$((1 << (n + 6))) n=$n"
      ARGS=("${cube[@]}" --set algorithm.name=bmmc --set algorithm.method="$method"
            --set algorithm.matrix=bit-reversal --set algorithm.elements=$((1 << (n + 6)))) ;;
    transpose/*)
      LABEL="transpose $method size=$((1 << n)) n=$n"
      ARGS=("${cube[@]}" --set algorithm.name=transpose --set algorithm.method="$method"
            --set algorithm.size=$((1 << n))) ;;
    shift/torus)
      side=$((1 << half))x$((1 << (n - half)))
      LABEL="shift ring on the torus $side K=$K"
      ARGS=(--set machine.topology=mesh --set machine.shape="$side" --set machine.wrap=yes
            --set algorithm.name=shift --set algorithm.elements-per-node="$K") ;;
    matmul/*)
      side=$((1 << ((n + 4) / 2)))
      LABEL="matmul ${side}x${side}x$side n=$n"
      ARGS=("${cube[@]}" --set algorithm.name=matmul --set algorithm.shape="${side}x${side}x$side") ;;
    matvec/*|vecmat/*|rank1/*)
      side=$((1 << (half + 4)))
      LABEL="$alg ${side}x$side n=$n"
      ARGS=("${cube[@]}" --set algorithm.name="$alg" --set algorithm.shape="${side}x$side") ;;
    fft/*)
      side=$((1 << half))x$((1 << (n - half)))
      LABEL="fft $side $method n=$n"
      ARGS=("${cube[@]}" --set algorithm.name=fft --set algorithm.shape="$side"
            --set algorithm."$method") ;;
    fft-torus/*)
      side=$((1 << half))x$((1 << (n - half)))
      LABEL="fft on the torus $side $method"
      ARGS=(--set machine.topology=mesh --set machine.shape="$side" --set machine.wrap=yes
            --set algorithm.name=fft --set algorithm.shape="$side" --set algorithm."$method") ;;
    *) echo "bench: unknown workload $kind" >&2; exit 2 ;;
  esac
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
