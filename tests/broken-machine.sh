#!/usr/bin/env bash
# tests/broken-machine.sh -- every algorithm on a broken machine: each
# scenario under scenarios/ (all topologies, since every topology takes
# faults) at its own size runs with `cubemu run` (which leaves [expect]
# alone: a scenario pins its fault-free cycles, which faults change) once
# whole and then with random dead links, `machine.faults = random:K:SEED`
# for K = 1 and K = c - 1 (c: the topology's connectivity, n on the
# n-cube, so no fault set disconnects it) and two seeds each. Every run
# exits 0 with its data verified, and no run with faults takes fewer
# cycles than the same scenario whole: a detour only adds links to a
# message's route and traffic to the channels it takes, and a dead link
# carries nothing. The scenarios that take seconds or more a run are
# skipped by name, with the reason.
#
# Then the engine's fault rules on a scenario small enough to time by
# hand (the broadcast of examples/programs on the 2-cube, built here
# against sdk/): a timed fault that starts after a message is posted lets
# it finish over the link, one down when it is posted detours it (its
# route is chosen at post time), and fault-policy = refuse fails the run
# naming the link.
#
# BROKEN_JOBS runs at once (default 2). Prints "ok ..."/"FAIL ..."/"skip
# ..." and ends with "broken-machine: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
. tests/expect.sh
scratch broken
JOBS=${BROKEN_JOBS:-2}
CC=${CC:-cc}
export LC_ALL=C

# Skipped, by name (a shell pattern under scenarios/) and why: each takes
# seconds to minutes a run, five runs each.
skips=(
  "matmul/table5-cm200-8k-*|the CM-200 8k matrix products of Table 5: up to minutes a run"
  "matmul/claim2-*cm200-8k.ini|the CM-200 8k matrix products: seconds a run"
  "matmul/table6-cm200-8k-*|the CM-200 8k matrix products of Table 6: a second a run"
  "matmul/table3-base.ini|the 512-node matrix product of Table 3: a long run"
  "dblas/cm200-8k-*|the CM-200 8k level-2 BLAS at N >= 512: seconds a run"
  "dblas/table1-base.ini|the 512-node level-2 BLAS of Table 1: a long run"
  "paper/johnsson-ho-theorem3-delta*|Johnsson & Ho's Theorem 3 tables: up to the 65536-node cube"
  "fft/mesh-1d.ini|a 4096-node line: any dead link disconnects it, and a minute a run"
  "fft/broadcast-*.ini|the 4096-node mesh broadcasts: long runs"
  "bmmc/*-11cube-np256-*|the 2048-node BMMC permutations of 256 records a node: long runs"
  "bmmc/*-11cube-np16-*|the 2048-node BMMC permutations of 16 records a node: long runs"
)
skip_reason() {
  local s
  for s in "${skips[@]}"; do
    # shellcheck disable=SC2053
    [[ ${1#scenarios/} == ${s%%|*} ]] && { echo "${s#*|}"; return 0; }
  done
  return 1
}

list=$T/list
: >"$list"
# BROKEN_ONLY: a shell pattern under scenarios/ to run only those.
for f in scenarios/${BROKEN_ONLY:-*/*.ini}; do
  if why=$(skip_reason "$f"); then echo "skip $f: $why"; else echo "$f" >>"$list"; fi
done

# One run: FILE [FAULTS] -> "FILE<TAB>FAULTS<TAB>exit<TAB>cycles<TAB>data<TAB>topology..."
export CUBEMU
one() {
  local f=$1 faults=${2:-} out rc
  if [ -n "$faults" ]; then
    out=$("$CUBEMU" run "$f" --json --set "machine.faults=$faults" 2>&1); rc=$?
  else
    # whole: no faults, whatever the scenario names (scenarios/faults/)
    out=$("$CUBEMU" run "$f" --json --set machine.faults=none 2>&1); rc=$?
  fi
  python3 -c '
import json, sys
f, faults, rc, text = sys.argv[1:5]
try:
    d = json.loads(text)
    m = d["machine"]
    print("\t".join(map(str, [f, faults or "-", rc, d["cycles"], d["data_correct"],
        m["topology"], m.get("dimensions", 0), m.get("shape", ""), m.get("wrap", False),
        m["nodes"], d["messages"], d["element_transfers"]])))
except (ValueError, KeyError):
    print("\t".join([f, faults or "-", rc, "-", "-", text.replace("\t", " ").replace("\n", " ")[:300]]))
' "$f" "$faults" "$rc" "$out"
}
export -f one

# Each run writes a file of its own, gathered after: jobs running at once
# must not share an output (their lines could run together).
export T
mkdir -p "$T/whole.d" "$T/broken.d"
# The whole machines first: their cycles, and what faults each takes.
xargs -a "$list" -P "$JOBS" -I{} bash -c \
  'one "$1" > "$T/whole.d/$(printf %s "$1" | md5sum | cut -c1-32)"' _ {}
cat "$T"/whole.d/* >"$T/whole" 2>/dev/null
# c - 1 dead links: n - 1 on the n-cube; a mesh's corner has one link an
# axis (two on a torus of a side above 2); ccc: 2; complete: P - 2.
python3 - "$T/whole" >"$T/jobs" <<'EOF'
import sys
for line in open(sys.argv[1]):
    r = line.rstrip("\n").split("\t")
    if r[2] != "0" or r[4] != "True":
        continue
    topo, n, shape, wrap, nodes = r[5], int(r[6]), r[7], r[8] == "True", int(r[9])
    if topo == "cube":
        c = n
    elif topo == "mesh":
        sides = [int(x) for x in shape.split("x")]
        c = sum((2 if wrap and s > 2 else 1) for s in sides if s > 1)
    elif topo == "ccc":
        c = 3
    else:
        c = nodes - 1
    # one dead link (one seed), c - 1 (two seeds); none where c = 1 (a line)
    if c - 1 >= 1:
        if c - 1 > 1:
            print(r[0], "random:1:1")
        for seed in (1, 2):
            print(r[0], "random:%d:%d" % (c - 1, seed))
EOF
xargs -a "$T/jobs" -P "$JOBS" -L 1 bash -c \
  'one "$1" "$2" > "$T/broken.d/$(printf "%s %s" "$1" "$2" | md5sum | cut -c1-32)"' _
cat "$T"/broken.d/* >"$T/broken" 2>/dev/null
# every job's row is there, each whole
[ "$(wc -l <"$T/whole")" = "$(wc -l <"$list")" ] && [ "$(wc -l <"$T/broken")" = "$(wc -l <"$T/jobs")" ] \
  && ok "every run gave one row ($(wc -l <"$T/whole") whole, $(wc -l <"$T/broken") with faults)" \
  || bad "every run gave one row: $(wc -l <"$T/whole") of $(wc -l <"$list") whole, $(wc -l <"$T/broken") of $(wc -l <"$T/jobs") with faults"

python3 - "$T/whole" "$T/broken" >"$T/verdicts" <<'EOF' \
  || echo "FAIL the comparison of the runs stopped (python3's error above)" >>"$T/verdicts"
import sys
# The runs that take fewer cycles than the whole machine, each with its
# cycles (so that any change is seen). A fault changes which channels
# messages take, not only the detoured ones': with a fault anywhere the
# cube's router takes Lee & Hayes's path for every routed message
# (machines/faults.h), a shortest path when the default one is clear but
# not always the default's (matmul/stationary-b-cube with random:1:2 has
# the same element transfers as whole, on other channels, and one cycle
# fewer); and a detour's later arrival reorders who waits for a busy
# channel. Contention schedules are not monotone, so a run can meet less
# of it: a few per cent here, never fewer messages, and never fewer
# element transfers but for LONGER_PATHS below.
BELOW = {
    ("scenarios/bmmc/transpose-64x64-8cube-np16-f2.ini", "random:1:1"): 124,
    ("scenarios/bmmc/transpose-64x64-8cube-np16-f2.ini", "random:7:1"): 124,
    ("scenarios/transpose/ccc-3-adaptive.ini", "random:1:1"): 2917,
    ("scenarios/transpose/ccc-3-bruck.ini", "random:1:1"): 2917,
}
# Algorithms that send along explicit paths longer than the shortest
# (Johnsson & Ho's relays: a neighbour reached over three links, so that
# idle links share the load). A path across a dead link is replaced by
# the fault-tolerant route, at most the shortest surviving distance + 2,
# which can be shorter than the relay path: fewer element transfers than
# whole. Messages stay the same for them too.
LONGER_PATHS = ("scenarios/paper/johnsson-ho-theorem3-",
                "scenarios/paper/johnsson-ho-theorem4-")
whole, broken = {}, {}
for line in open(sys.argv[1]):
    r = line.rstrip("\n").split("\t")
    whole[r[0]] = r
for line in open(sys.argv[2]):
    r = line.rstrip("\n").split("\t")
    broken.setdefault(r[0], []).append(r)
for f in sorted(whole):
    w = whole[f]
    if w[2] != "0" or w[4] != "True":
        print("FAIL %s whole: exit %s, data %s: %s" % (f, w[2], w[4], w[5] if len(w) > 5 else ""))
        continue
    runs = broken.get(f, [])
    if not runs:
        print("skip %s: a line (%s): any dead link disconnects it" % (f, w[7]))
        continue
    shown = ", ".join("%s %s" % (r[1], r[3]) for r in runs)
    good = True
    for r in runs:
        why = None
        if r[2] != "0" or r[4] != "True" or r[3] == "-":
            why = "exit %s, data %s: %s" % (r[2], r[4], r[5])
        elif r[10] != w[10] or (int(r[11]) < int(w[11])
                                and not f.startswith(LONGER_PATHS)):
            why = ("messages %s, element transfers %s; whole %s, %s: a detour of a "
                   "shortest path only adds links" % (r[10], r[11], w[10], w[11]))
        elif int(r[3]) < int(w[3]) and BELOW.get((f, r[1])) != int(r[3]):
            why = "cycles %s, below the whole machine's %s" % (r[3], w[3])
        if why:
            good = False
            print("FAIL %s with faults = %s: %s" % (f, r[1], why))
    if good:
        print("ok %s (%s): whole %s cycles; %s" % (f, w[5], w[3], shown))
EOF
while IFS= read -r line; do
  case "$line" in
    ok*) echo "$line"; passed=$((passed + 1)) ;;
    FAIL*) echo "$line"; failed=$((failed + 1)) ;;
    *) echo "$line" ;;
  esac
done <"$T/verdicts"

# --- the engine's rules, on a case timed by hand -----------------------------
# broadcast.c on the 2-cube, K = 10, no startup, Tw = 1: round 0 is node 0
# to node 1 across dimension 0 alone, posted at tick 0; round 1, from tick
# 10, node 0 to 2 and node 1 to 3. Whole: 20 cycles, 3 messages, 30
# element transfers.
if "$CC" -std=c11 -shared -fPIC -Isdk examples/programs/broadcast.c -o "$T/broadcast.so" 2>"$T/cc.err"; then
  b=(run --set machine.preset=cube --set machine.dimensions=2 --set algorithm.name=broadcast
     --set "algorithm.program=$T/broadcast.so" --set algorithm.elements-per-node=10 --json)
  # timed FAULTS CYCLES TRANSFERS WHAT [CUBEMU-ARGS...]
  timed() {
    run "$CUBEMU" "${b[@]}" --set "machine.faults=$1" "${@:5}"
    if [ "$rc" = 0 ] && python3 -c '
import json, sys
d = json.loads(sys.argv[1])
sys.exit(0 if (d["cycles"], d["messages"], d["element_transfers"], d["data_correct"])
         == (int(sys.argv[2]), 3, int(sys.argv[3]), True) else 1)' "$out" "$2" "$3" 2>/dev/null
    then ok "broadcast on the 2-cube, faults = $1: $4"; else bad "broadcast on the 2-cube, faults = $1: $4"; fi
  }
  timed none 20 30 "the whole machine: 20 cycles, 30 element transfers"
  # Down from tick 5: the message posted at tick 0 finishes over the link.
  timed "0>1@5.." 20 30 "posted at 0, before the fault starts: finishes over 0>1, 20 cycles"
  timed "0>1@1.." 20 30 "posted at 0, the fault from tick 1: finishes over 0>1, 20 cycles"
  # Down over [0, 1): the message posted at tick 0 takes 0>2>3>1, 3 links
  # uncontended: 10 + 3 - 1 = 12 ticks, then round 1's 10: 22 cycles and
  # 30 + 20 element transfers.
  timed "0>1@0..1" 22 50 "posted at 0 while 0>1 is down: detoured over 3 links, 22 cycles, 50 transfers"
  # Round 1 is posted at tick 10, after 0-2 came back: straight across it.
  timed "0-2@0..10" 20 30 "posted at 10, after 0-2's fault ended: straight across, 20 cycles"
  expect_has "fault-policy = refuse: the run fails (exit 2) naming the link" 2 \
    "node program error at node 0, step 0: sends to node 1 across dimension 0 from node 0 to node 1, which is a dead link at tick 0 (machine.faults; fault-policy = refuse)" \
    -- "$CUBEMU" "${b[@]}" --set "machine.faults=0>1@0..5" --set machine.fault-policy=refuse
  timed "0>1@5.." 20 30 "fault-policy = refuse, the fault after the post: runs, 20 cycles" \
    --set machine.fault-policy=refuse
else
  out=$(cat "$T/cc.err"); rc=1; bad "build examples/programs/broadcast.c against sdk/"
fi

echo "broken-machine: $passed passed, $failed failed"
[ "$failed" = 0 ]
