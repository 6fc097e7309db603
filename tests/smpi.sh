#!/usr/bin/env bash
# tests/smpi.sh -- build-smpi/cubemu-smpi (make smpi) under SimGrid's smpirun
# at 256 ranks (8-cube) and 1024 ranks (10-cube): every scenario of
# tests/data/smpi/ on the platform of tests/smpi-platform.py (one host a
# node, one full-duplex link of 1 GBps and 1 us a cube edge). Each run must
# report data_correct and agree with the emulator's run of the scenario
# (build/cubemu): the same message count and every node's final memory
# word for word (tests/compare-runs.py, as tests/mpi.sh does); prints SMPI's
# simulated time, the node programs' MPI_Wtime (simulated too), and the
# wall time and memory of the whole run.
#
# Computation is not simulated (smpi/simulate-computation:no): simulated
# time is communication and SMPI's per-call costs only, and it is the same
# on every run. smpi/grow-injected-times:no keeps SMPI's cost of a failed
# MPI_Iprobe fixed: by default it grows with every failed probe of any
# rank, so finished ranks polling for others' forwards would charge the
# ranks still at work ever longer probes (86 simulated seconds for the
# bmmc run on 1024 ranks). A run longer than SMPI_TIMEOUT seconds (default 300) fails.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD_SMPI:-build-smpi}
TIMEOUT=${SMPI_TIMEOUT:-300}
PROG=$BUILD/cubemu-smpi
EMU=${BUILD_EMU:-build}/cubemu
[ -x "$PROG" ] || { echo "smpi.sh: $PROG is missing (make smpi)"; exit 1; }
PROG=$(realpath "$PROG")       # the refusal below runs it from elsewhere
[ -x "$EMU" ] || { echo "smpi.sh: $EMU is missing (make)"; exit 1; }
command -v smpirun >/dev/null || { echo "smpi.sh: no smpirun (apt-get install -y simgrid)"; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for f in tests/data/smpi/*.ini; do
  n=$(sed -n 's/^dimensions *= *//p' "$f")
  p=$((1 << n))
  [ -f "$tmp/c$n.xml" ] || tests/smpi-platform.py "$n" "$tmp/c$n.xml" "$tmp/c$n.hosts"
  if ! "$EMU" run "$f" --json --dump-memory >"$tmp/emu.json" 2>"$tmp/emu.err"; then
    echo "FAIL $f: the emulator failed: $(head -c 300 "$tmp/emu.err")"
    fail=$((fail + 1)); continue
  fi
  start=$(date +%s.%N)
  if ! /usr/bin/time -f "%M" -o "$tmp/rss" timeout "$TIMEOUT" \
       smpirun -np "$p" -platform "$tmp/c$n.xml" -hostfile "$tmp/c$n.hosts" \
         --cfg=smpi/simulate-computation:no --cfg=smpi/grow-injected-times:no \
         --cfg=smpi/display-timing:yes \
         "$PROG" run "$f" --json --timing --dump-memory >"$tmp/out.json" 2>"$tmp/err"; then
    echo "FAIL $f on $p ranks: $(grep -av 'xbt_cfg/INFO\|smpi_config/INFO' "$tmp/err" | head -c 600)"
    fail=$((fail + 1)); continue
  fi
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  sim=$(sed -n 's/.*Simulated time: \([0-9.e+-]*\) seconds.*/\1/p' "$tmp/err")
  if tests/compare-runs.py "$tmp/emu.json" "$tmp/out.json" "$f" "$p"; then
    printf '     simulated %s s, wall %.1f s, %d MB\n' "$sim" "$wall" "$(( $(cat "$tmp/rss") / 1024 ))"
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
  fi
done
# A node program of one's own is refused, by name, with exit status 2
# (sdk/load.c says why it cannot run under SMPI).
cc -std=c11 -O2 -fPIC -shared -Isdk examples/programs/bitonic.c -o "$tmp/bitonic.so" \
  && cp examples/programs/bitonic.ini "$tmp/" && tests/smpi-platform.py 3 "$tmp/c3.xml" "$tmp/c3.hosts"
(cd "$tmp" && timeout "$TIMEOUT" smpirun -np 8 -platform c3.xml -hostfile c3.hosts \
   --cfg=smpi/simulate-computation:no "$PROG" run bitonic.ini --json \
   >out.json 2>err); rc=$?
want="cubemu-smpi run: bitonic.ini:11: program: ./bitonic.so: a node program of your own does not run under SMPI"
if [ "$rc" = 2 ] && grep -qF -- "$want" "$tmp/err" && ! grep -q data_correct "$tmp/out.json"; then
  echo "ok   a node program of your own: refused on 8 ranks, exit 2"
  pass=$((pass + 1))
else
  echo "FAIL a node program of your own: exit $rc, not 2 with '$want' and no report: $(grep -av INFO "$tmp/err" | head -c 400)"
  fail=$((fail + 1))
fi
echo "smpi: $pass passed, $fail failed"
[ "$fail" = 0 ]
