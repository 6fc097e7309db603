#!/usr/bin/env bash
# tests/mpi.sh -- run scenarios for real under mpirun (build/cubemu-mpi, one
# rank a node) and compare every node's final memory, every count and the
# bounds on counts with the emulator's (build/cubemu run --json
# --dump-memory, tests/compare-runs.py); both must report data_correct.
#
# Scenarios: tests/data/mpi/*.ini and scenarios/transpose/cube-3*.ini,
# mesh-4x2.ini (2, 4 or 8 nodes each). A run that takes longer than
# MPI_TIMEOUT seconds (default 120) fails. Then the default scenario
# (cubemu-mpi run with only --set), the refusals (a wrong rank count, bad
# --wait-limit values), and the wait limit itself (tests/mpi_wait.c: a deadlock reported, a slow run
# left alone).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
TIMEOUT=${MPI_TIMEOUT:-120}
EMU=$BUILD/cubemu
MPI=$BUILD/cubemu-mpi
for p in "$EMU" "$MPI" "$BUILD/tests/mpi_wait"; do
  [ -x "$p" ] || { echo "mpi.sh: $p is missing (make)"; exit 1; }
done
command -v mpirun >/dev/null || { echo "mpi.sh: no mpirun"; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

scenarios=(tests/data/mpi/*.ini scenarios/transpose/cube-3*.ini
           scenarios/transpose/mesh-4x2.ini)
pass=0 fail=0
MPIRUN=(timeout "$TIMEOUT" mpirun --oversubscribe --allow-run-as-root)
# ok WHAT / bad WHAT WHY: one line each, counted.
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1: $2"; fail=$((fail + 1)); }
for f in "${scenarios[@]}"; do
  if ! "$EMU" run "$f" --json --dump-memory >"$tmp/emu.json" 2>"$tmp/emu.err"; then
    echo "FAIL $f: the emulator failed: $(head -c 300 "$tmp/emu.err")"
    fail=$((fail + 1)); continue
  fi
  n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["machine"]["nodes"])' "$tmp/emu.json")
  if ! timeout "$TIMEOUT" mpirun --oversubscribe --allow-run-as-root -np "$n" \
         "$MPI" run "$f" --json --timing --dump-memory >"$tmp/mpi.json" 2>"$tmp/mpi.err"; then
    echo "FAIL $f: cubemu-mpi on $n ranks failed: $(head -c 600 "$tmp/mpi.err")"
    fail=$((fail + 1)); continue
  fi
  if tests/compare-runs.py "$tmp/emu.json" "$tmp/mpi.json" "$f" "$n"
  then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
# One rank a node: any other rank count is refused with exit status 2.
f=tests/data/mpi/exchange-cube-3.ini
timeout "$TIMEOUT" mpirun --oversubscribe --allow-run-as-root -np 4 "$MPI" run "$f" \
  >/dev/null 2>"$tmp/mpi.err"
status=$?
if [ "$status" = 2 ] && grep -q "the machine has 8 nodes but 4 MPI ranks" "$tmp/mpi.err"; then
  echo "ok   $f on 4 ranks: refused (exit 2)"; pass=$((pass + 1))
else
  echo "FAIL $f on 4 ranks: exit $status, not 2 with a message"; fail=$((fail + 1))
fi

# Without a scenario, the default one (run/scenario_default.c), as cubemu
# run: with nothing, its 256-node machine (refused on 8 ranks, naming it);
# with --set a machine of 8 nodes, the same run as cubemu run's with the
# same --set values.
"${MPIRUN[@]}" -np 8 "$MPI" run >/dev/null 2>"$tmp/mpi.err"
status=$?
if [ "$status" = 2 ] && grep -q "cubemu-mpi run: default: the machine has 256 nodes but 8 MPI ranks" "$tmp/mpi.err"; then
  ok "cubemu-mpi run without a scenario: the default's 256 nodes (exit 2 on 8 ranks)"
else
  bad "cubemu-mpi run without a scenario" "exit $status: $(head -c 300 "$tmp/mpi.err")"
fi
sets=(--set machine.preset=cube --set machine.dimensions=3 --set algorithm.elements-per-node=64)
if ! "$EMU" run "${sets[@]}" --json --dump-memory >"$tmp/emu.json" 2>"$tmp/emu.err"; then
  bad "cubemu run ${sets[*]}" "$(head -c 300 "$tmp/emu.err")"
elif ! "${MPIRUN[@]}" -np 8 "$MPI" run "${sets[@]}" --json --dump-memory >"$tmp/mpi.json" 2>"$tmp/mpi.err"; then
  bad "cubemu-mpi run ${sets[*]}" "$(head -c 300 "$tmp/mpi.err")"
elif python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(r["scenario"] != "default" or r["algorithm"]["name"] != "gray-to-binary")' "$tmp/mpi.json" \
     && tests/compare-runs.py "$tmp/emu.json" "$tmp/mpi.json" "cubemu-mpi run ${sets[*]} (the default scenario)" 8; then
  pass=$((pass + 1))
else
  bad "cubemu-mpi run ${sets[*]}" "not the default scenario's gray-to-binary, or not the emulator's run"
fi

# --wait-limit: a bad value is refused with exit status 2 naming the flag;
# a good one leaves a run as it was.
for bad in abc 0 -1 inf "" ; do
  timeout "$TIMEOUT" mpirun --oversubscribe --allow-run-as-root -np 8 "$MPI" run "$f" \
    --wait-limit "$bad" >/dev/null 2>"$tmp/mpi.err"
  status=$?
  if [ "$status" = 2 ] && grep -q "cubemu-mpi run: --wait-limit: '$bad' is not a number of seconds" "$tmp/mpi.err"; then
    echo "ok   --wait-limit '$bad': refused (exit 2)"; pass=$((pass + 1))
  else
    echo "FAIL --wait-limit '$bad': exit $status: $(head -c 300 "$tmp/mpi.err")"; fail=$((fail + 1))
  fi
done
timeout "$TIMEOUT" mpirun --oversubscribe --allow-run-as-root -np 8 "$MPI" run "$f" \
  --wait-limit >/dev/null 2>"$tmp/mpi.err"
status=$?
if [ "$status" = 2 ] && grep -q "cubemu-mpi run: --wait-limit needs a value: a number of seconds above 0" "$tmp/mpi.err"; then
  echo "ok   --wait-limit without a value: refused (exit 2)"; pass=$((pass + 1))
else
  echo "FAIL --wait-limit without a value: exit $status"; fail=$((fail + 1))
fi
for limit in 30; do
  if timeout "$TIMEOUT" mpirun --oversubscribe --allow-run-as-root -np 8 "$MPI" run "$f" \
       --wait-limit=$limit --json >"$tmp/mpi.json" 2>"$tmp/mpi.err" \
     && python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["data_correct"] else 1)' "$tmp/mpi.json"; then
    echo "ok   $f with --wait-limit=$limit: correct"; pass=$((pass + 1))
  else
    echo "FAIL $f with --wait-limit=$limit: $(head -c 300 "$tmp/mpi.err")"; fail=$((fail + 1))
  fi
done

# The limit itself (tests/mpi_wait.c, a limit of 1 s): a deadlock stops
# the job within it, naming the receive (mpi_wait aborts with 3 when it
# saw the expected error); a run slower than the limit in all, whose
# packets keep arriving, completes.
WAIT=$BUILD/tests/mpi_wait
timeout "$TIMEOUT" mpirun --oversubscribe --allow-run-as-root -np 2 "$WAIT" deadlock \
  >"$tmp/wait.out" 2>"$tmp/wait.err"
status=$?
if [ "$status" = 3 ] && grep -q "^wait: OK deadlock" "$tmp/wait.out"; then
  echo "ok   $(cat "$tmp/wait.out")"; pass=$((pass + 1))
else
  echo "FAIL mpi_wait deadlock: exit $status: $(head -c 300 "$tmp/wait.out" "$tmp/wait.err")"; fail=$((fail + 1))
fi
if timeout "$TIMEOUT" mpirun --oversubscribe --allow-run-as-root -np 2 "$WAIT" slow \
     >"$tmp/wait.out" 2>"$tmp/wait.err" && grep -q "^wait: OK slow" "$tmp/wait.out"; then
  echo "ok   $(cat "$tmp/wait.out")"; pass=$((pass + 1))
else
  echo "FAIL mpi_wait slow: $(head -c 300 "$tmp/wait.out" "$tmp/wait.err")"; fail=$((fail + 1))
fi

echo "mpi: $pass passed, $fail failed"

[ "$fail" = 0 ]
