#!/usr/bin/env bash
# tests/mpi.sh -- run scenarios for real under mpirun (build/cubemu-mpi, one
# rank a node) and compare every node's final memory, every count and the
# bounds on counts with the emulator's (build/cubemu run --json
# --dump-memory, tests/compare-runs.py); both must report data_correct.
#
# Scenarios: tests/data/mpi/*.ini and scenarios/transpose/cube-3*.ini,
# mesh-4x2.ini (2, 4 or 8 nodes each). A run that takes longer than
# MPI_TIMEOUT seconds (default 120) fails. Then the default scenario
# (cubemu-mpi run with only --set), the refusals (a wrong rank count, a
# machine with faults, bad --wait-limit values), cubemu-mpi check (tests/data/mpi/check/*.ini), and
# the wait limit itself (tests/mpi_wait.c: a deadlock reported, a slow run
# left alone; tests/data/mpi/deadlock.c: a deadlock of cubemu-mpi ended
# with every node's state, with a limit of 1 s and with the default one).
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

# A machine with faults: a real run cannot break a link, so cubemu-mpi run
# and check refuse it (exit 2), naming where faults was set (a --set, a
# file's line), on any rank count. Dead nodes for an algorithm that needs
# every node are refused first by that check, as on the emulator.
printf '%s\n' "[machine]" "preset = cube" "dimensions = 3" "faults = random:2:1" \
  "[algorithm]" "name = exchange" >"$tmp/faults.ini"
why="cubemu-mpi runs on real links and nodes, and a real run cannot break a link or kill a node; run it on the emulator (cubemu run)"
for c in "8 run $f --set machine.faults=0-1|--set machine.faults=0-1: machine.faults = 0-1: $why" \
         "8 run $tmp/faults.ini|$tmp/faults.ini:4: machine.faults = random:2:1: $why" \
         "4 run $tmp/faults.ini|$tmp/faults.ini:4: machine.faults = random:2:1: $why" \
         "8 run $f --set machine.faults=node:3|--set machine.faults=node:3: algorithm 'exchange' needs every node" \
         "8 check $tmp/faults.ini|FAIL $tmp/faults.ini: $tmp/faults.ini:4: machine.faults = random:2:1: $why"; do
  read -r np args <<<"${c%%|*}"
  # shellcheck disable=SC2086
  "${MPIRUN[@]}" -np "$np" "$MPI" $args >"$tmp/mpi.out" 2>"$tmp/mpi.err"
  status=$?
  if [ "$status" = 2 ] && grep -qF -- "${c#*|}" "$tmp/mpi.out" "$tmp/mpi.err"; then
    ok "cubemu-mpi $args on $np ranks: a machine with faults refused (exit 2)"
  else
    bad "cubemu-mpi $args on $np ranks" "exit $status, not 2 with '${c#*|}': $(head -c 300 "$tmp/mpi.err")"
  fi
done

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
# a good one (0: none) leaves a run as it was.
for bad in abc -1 inf "" ; do
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
if [ "$status" = 2 ] && grep -q "cubemu-mpi run: --wait-limit needs a value: a number of seconds (0 for no limit)" "$tmp/mpi.err"; then
  echo "ok   --wait-limit without a value: refused (exit 2)"; pass=$((pass + 1))
else
  echo "FAIL --wait-limit without a value: exit $status"; fail=$((fail + 1))
fi
for limit in 30 0; do
  if timeout "$TIMEOUT" mpirun --oversubscribe --allow-run-as-root -np 8 "$MPI" run "$f" \
       --wait-limit=$limit --json >"$tmp/mpi.json" 2>"$tmp/mpi.err" \
     && python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["data_correct"] else 1)' "$tmp/mpi.json"; then
    echo "ok   $f with --wait-limit=$limit: correct"; pass=$((pass + 1))
  else
    echo "FAIL $f with --wait-limit=$limit: $(head -c 300 "$tmp/mpi.err")"; fail=$((fail + 1))
  fi
done

# cubemu-mpi check: [expect] on the real run, as cubemu check on the
# emulator's. The counts an MPI run measures are evaluated (wrong-count
# fails on one), cycles and the bounds on them are named as not evaluated,
# a scenario of only those fails; exit 1. The same files pass under
# cubemu check but for wrong-count. A file that cannot be read, or a
# machine of another size than the ranks, is an error: exit 2.
C=tests/data/mpi/check
"${MPIRUN[@]}" -np 8 "$MPI" check $C/*.ini >"$tmp/check.out" 2>"$tmp/check.err"
status=$?
cat >"$tmp/check.want" <<EOF
ok   $C/bmmc-bit-reversal-cube-3.ini (messages 64; not evaluated on MPI: 2 bounds on what only the emulator measures, cycles)
FAIL $C/emulator-only.ini: no [expect] entry that a run on MPI measures (not evaluated on MPI: cycles)
ok   $C/exchange-cube-3.ini (messages 24; not evaluated on MPI: 1 bound on what only the emulator measures, cycles)
FAIL $C/wrong-count.ini: $C/wrong-count.ini:11: expected messages == 25, measured 24
2 passed, 2 failed
EOF
if [ "$status" = 1 ] && diff "$tmp/check.want" "$tmp/check.out" >"$tmp/check.diff"; then
  ok "cubemu-mpi check $C/*.ini: 2 passed, 2 failed, cycles not evaluated (exit 1)"
else
  bad "cubemu-mpi check $C/*.ini" "exit $status: $(cat "$tmp/check.diff") $(head -c 300 "$tmp/check.err")"
fi
"$EMU" check $C/*.ini >"$tmp/emu-check.out" 2>&1
status=$?
if [ "$status" = 1 ] && grep -q "^3 passed, 1 failed$" "$tmp/emu-check.out" \
   && grep -q "^FAIL $C/wrong-count.ini" "$tmp/emu-check.out"; then
  ok "cubemu check $C/*.ini: the same [expect] holds on the emulator, cycles too"
else
  bad "cubemu check $C/*.ini" "exit $status: $(head -c 400 "$tmp/emu-check.out")"
fi
"${MPIRUN[@]}" -np 8 "$MPI" check $C/exchange-cube-3.ini $C/bmmc-bit-reversal-cube-3.ini \
  --tap --junit "$tmp/check.xml" >"$tmp/check.out" 2>"$tmp/check.err"
status=$?
if [ "$status" = 0 ] && [ "$(head -2 "$tmp/check.out")" = "TAP version 13
1..2" ] && grep -q "^ok 1 - $C/exchange-cube-3.ini # messages 24; not evaluated on MPI: 1 bound on what only the emulator measures, cycles$" "$tmp/check.out" \
   && python3 -c 'import sys, xml.etree.ElementTree as E; s=E.parse(sys.argv[1]).getroot().find("testsuite"); sys.exit(not (s.get("name") == "cubemu-mpi check" and s.get("tests") == "2" and s.get("failures") == "0" and len(s.findall("testcase")) == 2))' "$tmp/check.xml"; then
  ok "cubemu-mpi check --tap --junit: both pass (exit 0), TAP and JUnit XML"
else
  bad "cubemu-mpi check --tap --junit" "exit $status: $(head -c 400 "$tmp/check.out") $(head -c 300 "$tmp/check.err")"
fi
"${MPIRUN[@]}" -np 4 "$MPI" check $C/exchange-cube-3.ini $C/missing.ini >"$tmp/check.out" 2>"$tmp/check.err"
status=$?
if [ "$status" = 2 ] && grep -q "^FAIL $C/exchange-cube-3.ini: the machine has 8 nodes but 4 MPI ranks run it" "$tmp/check.out" \
   && grep -q "^FAIL $C/missing.ini: $C/missing.ini: cannot read" "$tmp/check.out"; then
  ok "cubemu-mpi check on 4 ranks: an 8-node machine and a missing file are errors (exit 2)"
else
  bad "cubemu-mpi check, errors" "exit $status: $(head -c 400 "$tmp/check.out") $(head -c 300 "$tmp/check.err")"
fi
"${MPIRUN[@]}" -np 2 "$MPI" check >/dev/null 2>"$tmp/check.err"
status=$?
if [ "$status" = 2 ] && grep -q "cubemu-mpi check: no SCENARIO given" "$tmp/check.err"; then
  ok "cubemu-mpi check without a scenario: refused (exit 2)"
else
  bad "cubemu-mpi check without a scenario" "exit $status: $(head -c 300 "$tmp/check.err")"
fi
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

# The wait limit of cubemu-mpi (tests/data/mpi/deadlock.c on a 2-cube:
# nodes 2 and 3 wait for each other, 0 and 1 finish): the job ends with
# exit status 1 and every node's state, with --wait-limit 1 within a few
# seconds, and without it after the default limit (60 s; the job's
# timeout is above it). --wait-limit 0 waits forever, as MPI does: killed
# by a timeout of 5 s.
if ! ${CC:-cc} -std=c11 -Wall -Wextra -Werror -shared -fPIC -Isdk tests/data/mpi/deadlock.c \
     -o "$tmp/deadlock.so" 2>"$tmp/cc.err"; then
  bad "build tests/data/mpi/deadlock.c" "$(head -c 300 "$tmp/cc.err")"
else
  dl=(--set machine.preset=cube --set machine.dimensions=2 --set algorithm.name=deadlock
      --set "algorithm.program=$tmp/deadlock.so")
  cat >"$tmp/states.want" <<'EOF'
  node 0: finished its program after 1 step; waits for the others
  node 1: finished its program after 1 step; waits for the others
  node 2: step 0: waits for 1 receive, the oldest for 4 elements from node 3 with tag 7
  node 3: step 0: waits for 1 receive, the oldest for 4 elements from node 2 with tag 7
EOF
  for limit in 1 default; do
    flag=(--wait-limit "$limit"); [ "$limit" = default ] && flag=()
    secs=$limit; [ "$limit" = default ] && secs=60
    start=$SECONDS
    "${MPIRUN[@]}" -np 4 "$MPI" run "${dl[@]}" "${flag[@]}" >"$tmp/dl.out" 2>"$tmp/dl.err"
    status=$? took=$((SECONDS - start))
    head="cubemu-mpi run: node program error at node [23], step 0: no message arrived for $secs s while 1 receives waited, the oldest for 4 elements from node [23] with tag 7: a deadlock, or a node that stopped; each node's state:"
    grep -A4 "each node's state:" "$tmp/dl.err" | tail -n 4 >"$tmp/states.got"
    if [ "$status" = 1 ] && grep -qE "^$head\$" "$tmp/dl.err" && cmp -s "$tmp/states.want" "$tmp/states.got" \
       && [ "$took" -ge "$secs" ] && [ "$took" -lt $((secs + 30)) ]; then
      ok "a deadlock under cubemu-mpi, wait limit $limit: ended after $took s with every node's state (exit 1)"
    else
      bad "a deadlock under cubemu-mpi, wait limit $limit" "exit $status after $took s: $(head -c 800 "$tmp/dl.err")"
    fi
  done
  timeout 5 mpirun --oversubscribe --allow-run-as-root -np 4 "$MPI" run "${dl[@]}" --wait-limit 0 \
    >/dev/null 2>&1
  status=$?
  if [ "$status" = 124 ]; then
    ok "a deadlock under cubemu-mpi --wait-limit 0: still waiting after 5 s (no limit)"
  else
    bad "a deadlock under cubemu-mpi --wait-limit 0" "exit $status, not killed by the timeout"
  fi
fi

echo "mpi: $pass passed, $fail failed"

[ "$fail" = 0 ]
