#!/usr/bin/env bash
# bench/mpi.sh -- make bench-mpi: libcubemu's BMMC transpose and the
# transpose methods against MPI_Alltoall on 8 ranks, a small matrix
# (256 x 256 doubles, 0.5 MiB) and a large one (4096 x 4096, 128 MiB),
# with the machine they ran on. Every result is checked against
# MPI_Alltoall's; a wrong one fails the run.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
BENCH=$BUILD/lib-tests/bench_lib
[ -x "$BENCH" ] || { echo "bench-mpi.sh: $BENCH is missing (make examples)"; exit 1; }
NP=${BENCH_MPI_RANKS:-8}
echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
     "$(free -g | awk '/^Mem:/ {print $2}') GiB; $(mpirun --version 2>&1 | head -1)"
status=0
for side in ${BENCH_MPI_SIDES:-256 4096}; do
  runs=5; [ "$side" -ge 4096 ] && runs=3
  mpirun --oversubscribe --allow-run-as-root -np "$NP" "$BENCH" "$side" "$runs" || status=1
done
exit $status
