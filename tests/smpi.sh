#!/usr/bin/env bash
# tests/smpi.sh -- build-smpi/cubemu-smpi (make smpi) under SimGrid's smpirun
# at 256 ranks (8-cube) and 1024 ranks (10-cube): every scenario of
# tests/data/smpi/ on the platform of tests/smpi-platform.py (one host a
# node, one full-duplex link of 1 GBps and 1 us a cube edge). Each run must
# report data_correct; prints SMPI's simulated time, the node programs'
# MPI_Wtime (simulated too), and the wall time and memory of the whole run.
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
[ -x "$PROG" ] || { echo "smpi.sh: $PROG is missing (make smpi)"; exit 1; }
command -v smpirun >/dev/null || { echo "smpi.sh: no smpirun (apt-get install -y simgrid)"; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for f in tests/data/smpi/*.ini; do
  n=$(sed -n 's/^dimensions *= *//p' "$f")
  p=$((1 << n))
  [ -f "$tmp/c$n.xml" ] || tests/smpi-platform.py "$n" "$tmp/c$n.xml" "$tmp/c$n.hosts"
  start=$(date +%s.%N)
  if ! /usr/bin/time -f "%M" -o "$tmp/rss" timeout "$TIMEOUT" \
       smpirun -np "$p" -platform "$tmp/c$n.xml" -hostfile "$tmp/c$n.hosts" \
         --cfg=smpi/simulate-computation:no --cfg=smpi/grow-injected-times:no \
         --cfg=smpi/display-timing:yes \
         "$PROG" run "$f" --json >"$tmp/out.json" 2>"$tmp/err"; then
    echo "FAIL $f on $p ranks: $(grep -av 'xbt_cfg/INFO\|smpi_config/INFO' "$tmp/err" | head -c 600)"
    fail=$((fail + 1)); continue
  fi
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  sim=$(sed -n 's/.*Simulated time: \([0-9.e+-]*\) seconds.*/\1/p' "$tmp/err")
  if python3 - "$tmp/out.json" "$f" "$p" "$sim" "$wall" "$(cat "$tmp/rss")" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
name, p, sim, wall, rss = sys.argv[2], int(sys.argv[3]), sys.argv[4], float(sys.argv[5]), int(sys.argv[6])
if not d.get("data_correct") or d["machine"]["nodes"] != p:
    print("FAIL %s: data_correct %s, %s nodes: %s"
          % (name, d.get("data_correct"), d["machine"]["nodes"], d.get("data_problem")))
    sys.exit(1)
print("ok   %s (%d ranks, %d messages): simulated %s s (run phase %.6f s), "
      "wall %.1f s, %d MB" % (name, p, d["messages"], sim,
                              d["details"]["wall"]["seconds"], wall, rss // 1024))
PY
  then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "smpi: $pass passed, $fail failed"
[ "$fail" = 0 ]
