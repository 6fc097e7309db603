#!/usr/bin/env bash
# tests/lib-mpi.sh -- libcubemu under mpirun: tests/lib/check_lib (random
# BMMC matrices with every layout, Gray <-> binary, every transpose method,
# the error paths, isolation from the caller's traffic) on 1, 2, 4, 8 and
# 6 ranks, and examples/transpose (a BMMC transpose checked against
# MPI_Alltoall) on 2, 4 and 8. Both are built against a staged
# `make install` through pkg-config (make examples). A run longer than
# MPI_TIMEOUT seconds (default 120) fails.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
TIMEOUT=${MPI_TIMEOUT:-120}
CHECK=$BUILD/lib-tests/check_lib
EXAMPLE=$BUILD/examples/transpose
for p in "$CHECK" "$EXAMPLE"; do
  [ -x "$p" ] || { echo "lib-mpi.sh: $p is missing (make examples)"; exit 1; }
done
command -v mpirun >/dev/null || { echo "lib-mpi.sh: no mpirun"; exit 1; }
MPIRUN=(mpirun --oversubscribe --allow-run-as-root)

pass=0 fail=0
run() {  # NAME EXPECTED-PATTERN COMMAND...
  local name=$1 want=$2; shift 2
  local out
  if out=$(timeout "$TIMEOUT" "$@" 2>&1) && grep -q "$want" <<<"$out"; then
    echo "ok   $name: $(grep "$want" <<<"$out")"
    pass=$((pass + 1))
  else
    echo "FAIL $name:"; grep -v '^-*$' <<<"$out" | head -20
    fail=$((fail + 1))
  fi
}
for np in 1 2 4 8 6; do
  run "check_lib -np $np" ", 0 failed" "${MPIRUN[@]}" -np "$np" "$CHECK"
done
run "example -np 2 (r=6, c=5)" "results equal" "${MPIRUN[@]}" -np 2 "$EXAMPLE" 6 5 2
run "example -np 4 (r=3, c=7)" "results equal" "${MPIRUN[@]}" -np 4 "$EXAMPLE" 3 7 2
run "example -np 8 (default 1024 x 512)" "results equal" "${MPIRUN[@]}" -np 8 "$EXAMPLE"
run "example usage error" "usage" bash -c "${MPIRUN[*]} -np 2 $EXAMPLE 0 0 2>&1; [ \$? -ne 0 ]"
echo "lib-mpi: $pass passed, $fail failed"
[ "$fail" = 0 ]
