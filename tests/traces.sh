#!/usr/bin/env bash
# Black-box tests of traces, exports, the headless viewer and sweeps:
# `cubemu run --trace`, `cubemu trace export|info`, `cubemu view --png/--gif/
# --frames` (no display needed), `cubemu sweep`, and the exact messages for
# bad input. Pixels are checked with $BUILD/tests/view_check, which knows
# where the renderer draws each channel. Ends with one line
# "traces: N passed, N failed".
set -u
D=tests/data/traces
unset DISPLAY WAYLAND_DISPLAY SDL_VIDEODRIVER
. "$(dirname "$0")/expect.sh"
scratch traces
CHECK="$BUILD/tests/view_check"

# ---- recording ------------------------------------------------------------
# the report is the same bytes with or without a trace
run "$CUBEMU" run $D/gray-sequential-4.ini --json
plain=$out
run "$CUBEMU" run $D/gray-sequential-4.ini --json --trace "$T/g4.trace"
traced=$out
if [ "$rc" = 0 ] && [ -s "$T/g4.trace" ] && [ "$plain" = "$traced" ]; then ok run-trace-same-report
else bad run-trace-same-report; fi
check run-trace-exchange "$CUBEMU" run $D/exchange-3.ini --trace "$T/x3.trace"
expect_has trace-info 0 "  busy records     24" -- "$CUBEMU" trace info "$T/x3.trace"

# ---- exports --------------------------------------------------------------
check export-chrome "$CUBEMU" trace export "$T/x3.trace" --format chrome -o "$T/x3.json"
if python3 - "$T/x3.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
slices = [e for e in ev if e["ph"] == "X"]
assert len(slices) == 24, len(slices)
assert all(e["dur"] == 15 and e["ts"] == 17 * (e["tid"] % 3) + 2 for e in slices)
assert {e["pid"] for e in slices} == set(range(8))
assert sum(e["args"]["elements"] for e in slices) == 120
assert [e["name"] for e in ev if e["ph"] == "i"] == ["dimension 0", "dimension 1", "dimension 2"]
EOF
then ok chrome-json-parses; else bad chrome-json-parses; fi
run "$CUBEMU" trace export "$T/x3.trace" --format paje
if [ "$rc" = 0 ] && [ "$(printf '%s\n' "$out" | head -n 1)" = "%EventDef PajeDefineContainerType 0" ] \
   && [ "$(printf '%s\n' "$out" | grep -c '^7 .*V_busy$')" = 24 ] \
   && [ "$(printf '%s\n' "$out" | grep -c '^8 ')" = 24 ]; then ok paje-header-and-counts
else bad paje-header-and-counts; fi
# pajeng's own reader (pj_dump, installed by make deps) accepts the export:
# every one of the 24 busy states comes back as a State line.
"$CUBEMU" trace export "$T/x3.trace" --format paje -o "$T/x3.paje" >/dev/null 2>&1
run pj_dump "$T/x3.paje"
if [ "$rc" = 0 ] && [ "$(printf '%s\n' "$out" | grep -c '^State, ')" -ge 24 ]; then
  ok paje-reads-in-pj_dump
else bad paje-reads-in-pj_dump; fi
run "$CUBEMU" trace export "$T/g4.trace" --format csv --window 4
if [ "$rc" = 0 ] && printf '%s\n' "$out" | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
assert len(rows) == 6, len(rows)                        # 24 cycles / 4
cols = [c for c in rows[0] if c.endswith(" elements")]
assert cols == ["dimension 0 elements", "dimension 1 elements", "dimension 2 elements",
                "dimension 3 elements"], cols
assert sum(int(r[c]) for r in rows for c in cols) == 192  # element_transfers
assert sum(int(r["elements"]) for r in rows) == 192
'; then ok csv-sums; else bad csv-sums; fi

# ---- headless views: a busy and an idle channel, read back from the PNG ----
check png-graph "$CUBEMU" view "$T/g4.trace" --png "$T/g.png" --at 3 --window 1
check png-graph-pixels "$CHECK" busy-idle "$T/g4.trace" "$T/g.png" graph 1280x800 3 1
check png-matrix "$CUBEMU" view "$T/g4.trace" --view matrix --size 900x600 --png "$T/m.png" --at 3 --window 1
check png-matrix-pixels "$CHECK" busy-idle "$T/g4.trace" "$T/m.png" matrix 900x600 3 1
check png-scenario "$CUBEMU" view $D/exchange-3.ini --png "$T/x.png" --at 10 --window 5
check png-scenario-pixels "$CHECK" busy-idle "$T/x3.trace" "$T/x.png" graph 1280x800 10 5
check gif "$CUBEMU" view "$T/g4.trace" --gif "$T/g.gif" --size 640x420 --frame-count 12
check gif-frames "$CHECK" gif "$T/g.gif" 640x420 2
check frames "$CUBEMU" view "$T/x3.trace" --frames "$T/frames" --frame-count 5 --size 700x450
if [ "$(ls "$T/frames" | wc -l)" = 5 ]; then ok frames-count; else out=$(ls "$T/frames"); bad frames-count; fi
check frame-size "$CHECK" png-size "$T/frames/frame-00004.png" 700x450
# Meshes, tori and complete graphs (tests/traffic.h's program through the
# engine): the torus as a grid with wrap stubs, the complete graph as a
# circle of chords, both also as a matrix, and a 3-d torus in layers.
check torus-trace "$CHECK" record "$T/torus.trace" topology=mesh shape=4x4 wrap=yes
check torus-png "$CUBEMU" view "$T/torus.trace" --png "$T/torus.png" --at 8 --window 1
check torus-pixels "$CHECK" busy-idle "$T/torus.trace" "$T/torus.png" graph 1280x800 8 1
check torus-matrix "$CUBEMU" view "$T/torus.trace" --view matrix --png "$T/torus-m.png" --at 8 --window 1
check torus-matrix-pixels "$CHECK" busy-idle "$T/torus.trace" "$T/torus-m.png" matrix 1280x800 8 1
check complete-trace "$CHECK" record "$T/k8.trace" topology=complete processors=8 \
  startup=2 tick-seconds=1e-6
check complete-png "$CUBEMU" view "$T/k8.trace" --png "$T/k8.png" --at 12 --window 2
check complete-pixels "$CHECK" busy-idle "$T/k8.trace" "$T/k8.png" graph 1280x800 12 2
check complete-matrix "$CUBEMU" view "$T/k8.trace" --view matrix --size 900x600 --png "$T/k8-m.png" --at 12 --window 2
check complete-matrix-pixels "$CHECK" busy-idle "$T/k8.trace" "$T/k8-m.png" matrix 900x600 12 2
check torus3-trace "$CHECK" record "$T/t3.trace" topology=mesh shape=3x3x3 wrap=yes
check torus3-png "$CUBEMU" view "$T/t3.trace" --png "$T/t3.png" --at 10 --window 1
check torus3-pixels "$CHECK" busy-idle "$T/t3.trace" "$T/t3.png" graph 1280x800 10 1
# The cube-connected cycles: each cycle a triangle at its cube node's
# place, graph and matrix.
check ccc-trace "$CHECK" record "$T/ccc.trace" topology=ccc dimensions=3
check ccc-png "$CUBEMU" view "$T/ccc.trace" --png "$T/ccc.png" --at 6 --window 1
check ccc-pixels "$CHECK" busy-idle "$T/ccc.trace" "$T/ccc.png" graph 1280x800 6 1
check ccc-matrix "$CUBEMU" view "$T/ccc.trace" --view matrix --png "$T/ccc-m.png" --at 6 --window 1
check ccc-matrix-pixels "$CHECK" busy-idle "$T/ccc.trace" "$T/ccc-m.png" matrix 1280x800 6 1
expect_has ccc-info 0 "  topology         CCC(3), 24 nodes, 3 links" -- "$CUBEMU" trace info "$T/ccc.trace"
check complete-gif "$CUBEMU" view "$T/k8.trace" --gif "$T/k8.gif" --size 640x420 --frame-count 6
check complete-gif-frames "$CHECK" gif "$T/k8.gif" 640x420 2
expect_has complete-info 0 "  topology         complete, 8 nodes, 8 links" -- "$CUBEMU" trace info "$T/k8.trace"
expect_has complete-info-seconds 0 " us)" -- "$CUBEMU" trace info "$T/k8.trace"
# Memory paths (format 2.1): the info string names the classes, and the
# reader gives them back to the router's line
check paths-trace "$CUBEMU" run --quiet --trace "$T/paths.trace" \
  --set machine.preset=cube --set machine.dimensions=3 \
  --set machine.router.memory-path=yes --set algorithm.name=bmmc \
  --set algorithm.matrix=bit-reversal --set algorithm.elements=64
expect_has paths-info-key 0 "  memory-paths     router" -- "$CUBEMU" trace info "$T/paths.trace"
expect_has paths-info-class 0 "  router           startup 0, element time 1, memory paths" -- \
  "$CUBEMU" trace info "$T/paths.trace"
expect_has paths-info-version 0 "  format version   2.2" -- "$CUBEMU" trace info "$T/paths.trace"
# Faults (format 2.2): a dead link (both channels), a channel down over
# ticks [5, 40); the trace carries them and the messages that went round.
check fault-trace "$CUBEMU" run --quiet --trace "$T/fault.trace" \
  --set machine.preset=cube --set machine.dimensions=3 \
  --set algorithm.name=exchange --set "machine.faults=0-1, 2>3@5..40"
expect_has fault-info 0 "  faults           0-1, 2>3@5..40" -- "$CUBEMU" trace info "$T/fault.trace"
expect_has fault-info-version 0 "  format version   2.2" -- "$CUBEMU" trace info "$T/fault.trace"
# The file itself (traces/FORMAT.md): after the marks a count and the
# entries, node, link, from, until (2^63-1: for good); the detoured flag
# on exactly the two messages across 0-1 (the channel 2>3 fails at tick 5,
# after dimension 0's messages were posted at 0), and a fault-free trace
# has nothing after its marks.
if python3 - "$T/fault.trace" "$T/x3.trace" <<'EOF2'
import struct, sys
def sections(path):
    d = open(path, 'rb').read()
    header, = struct.unpack_from('<I', d, 12)
    nch, nmsg, nbusy, nst, nlab, nmark = struct.unpack_from('<6Q', d, 96)
    pos = header + 8 * nch
    msgs = [d[pos + 52 * i: pos + 52 * (i + 1)] for i in range(nmsg)]
    pos += 52 * nmsg + 32 * nbusy + 24 * nst
    for _ in range(nlab):
        n, = struct.unpack_from('<H', d, pos)
        pos += 2 + n
    pos += 24 * nmark
    return d, msgs, pos
d, msgs, pos = sections(sys.argv[1])
count, = struct.unpack_from('<Q', d, pos)
entries = [struct.unpack_from('<IIqq', d, pos + 8 + 24 * i) for i in range(count)]
forever = 2**63 - 1
assert entries == [(0, 0, 0, forever), (1, 0, 0, forever), (2, 0, 5, 40)], entries
assert pos + 8 + 24 * count == len(d) - 4
flagged = [struct.unpack_from('<II', m, 32) for m in msgs if m[49] & 1]
assert flagged == [(0, 1), (1, 0)], flagged
assert all(m[49] in (0, 1) and m[50:52] == b'\0\0' for m in msgs)
d, msgs, pos = sections(sys.argv[2])
assert pos == len(d) - 4 and not any(m[49] for m in msgs)
EOF2
then ok fault-trace-bytes; else bad fault-trace-bytes; fi
# The Perfetto export: a track per fault in the machine's process with its
# slice over the run's part it lasts and a global instant where it begins;
# the detoured messages' slices and flows say so.
check fault-chrome "$CUBEMU" trace export "$T/fault.trace" --format chrome -o "$T/fault.json"
if python3 - "$T/fault.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
assert d["otherData"]["faults"] == "0-1, 2>3@5..40"
names = {e["tid"]: e["args"]["name"] for e in ev
         if e.get("name") == "thread_name" and e["pid"] == 8}
faults = [e for e in ev if e.get("cat") == "fault"]
got = [(e["ph"], names[e["tid"]], e["ts"], e.get("dur"), e.get("s"), e["args"])
       for e in faults]
def a(node, to, frm, until):
    return {"node": node, "link": "dimension 0", "to": to, "from": frm, "until": until}
assert got == [
    ("X", "down: node 0 dimension 0", 0, 256, None, a(0, 1, 0, None)),
    ("i", "down: node 0 dimension 0", 0, None, "g", a(0, 1, 0, None)),
    ("X", "down: node 1 dimension 0", 0, 256, None, a(1, 0, 0, None)),
    ("i", "down: node 1 dimension 0", 0, None, "g", a(1, 0, 0, None)),
    ("X", "down: node 2 dimension 0", 5, 35, None, a(2, 3, 5, 40)),
    ("i", "down: node 2 dimension 0", 5, None, "g", a(2, 3, 5, 40)),
], got
detoured = [e for e in ev if e["ph"] == "X" and e["args"].get("detoured")]
assert sorted({e["args"]["message"] for e in detoured}) == [0, 1]
assert len(detoured) == 6 and all(e["args"]["hops"] == 3 for e in detoured)
assert sorted(e["ph"] for e in ev if e.get("cat") == "detour") == ["f", "f", "s", "s", "t", "t"]
EOF2
then ok fault-chrome-events; else bad fault-chrome-events; fi
# The viewer: the dead link in the fault colour in both views; the timed
# one only while it is down (at 10, not at 50).
check fault-png "$CUBEMU" view "$T/fault.trace" --png "$T/fault.png" --at 10 --window 5
check fault-png-dead "$CHECK" fault "$T/fault.trace" "$T/fault.png" graph 1280x800 10 5 0 0 down
check fault-png-timed "$CHECK" fault "$T/fault.trace" "$T/fault.png" graph 1280x800 10 5 2 0 down
check fault-png-live "$CHECK" fault "$T/fault.trace" "$T/fault.png" graph 1280x800 10 5 3 0 up
check fault-png-later "$CUBEMU" view "$T/fault.trace" --png "$T/fault-50.png" --at 50 --window 5
check fault-png-later-dead "$CHECK" fault "$T/fault.trace" "$T/fault-50.png" graph 1280x800 50 5 1 0 down
check fault-png-later-up "$CHECK" fault "$T/fault.trace" "$T/fault-50.png" graph 1280x800 50 5 2 0 up
check fault-matrix "$CUBEMU" view "$T/fault.trace" --view matrix --png "$T/fault-m.png" --at 10 --window 5
check fault-matrix-dead "$CHECK" fault "$T/fault.trace" "$T/fault-m.png" matrix 1280x800 10 5 0 0 down
check fault-matrix-live "$CHECK" fault "$T/fault.trace" "$T/fault-m.png" matrix 1280x800 10 5 0 1 up
# A dead node: node 5 of the 4-cube, the ring allreduce of 8 ranks put on
# the live nodes (mapping = live). Its ring (graph: four points around it)
# and its row (matrix: every column's cell) in the fault colour; those of
# node 4, live, its neighbour, not.
check dead-node-trace "$CUBEMU" run --quiet --trace "$T/dead.trace" \
  --set machine.preset=cube --set machine.dimensions=4 --set algorithm.name=schedule \
  --set algorithm.schedule=scenarios/schedule/allreduce-ring-8.goal \
  --set algorithm.mapping=live --set machine.faults=node:5
expect_has dead-node-info 0 "  faults           node:5" -- "$CUBEMU" trace info "$T/dead.trace"
check dead-node-png "$CUBEMU" view "$T/dead.trace" --png "$T/dead.png" --at 10 --window 5
check dead-node-png-dead "$CHECK" fault "$T/dead.trace" "$T/dead.png" graph 1280x800 10 5 5 node down
check dead-node-png-live "$CHECK" fault "$T/dead.trace" "$T/dead.png" graph 1280x800 10 5 4 node up
check dead-node-matrix "$CUBEMU" view "$T/dead.trace" --view matrix --png "$T/dead-m.png" --at 10 --window 5
check dead-node-matrix-dead "$CHECK" fault "$T/dead.trace" "$T/dead-m.png" matrix 1280x800 10 5 5 node down
check dead-node-matrix-live "$CHECK" fault "$T/dead.trace" "$T/dead-m.png" matrix 1280x800 10 5 4 node up
# The Paje export: a container per fault entry in the machine, named as
# Chrome's tracks, whose state is down (a channel) or dead (a node) over
# the ticks it lasts and up before and after; a detoured message's link of
# a type of its own. pajeng's reader takes it and gives back exactly these;
# a fault-free export defines none of them.
check fault-paje "$CUBEMU" trace export "$T/fault.trace" --format paje -o "$T/fault.paje"
check dead-node-paje "$CUBEMU" trace export "$T/dead.trace" --format paje -o "$T/dead.paje"
run "$CUBEMU" trace export "$T/x3.trace" --format paje
if [ "$rc" = 0 ] && ! printf '%s\n' "$out" | grep -q 'Fault\|Detour\|V_down\|V_dead\|V_up'; then
  ok paje-fault-free-no-fault-types; else bad paje-fault-free-no-fault-types; fi
if ! command -v pj_dump > /dev/null; then
  echo "skip fault-paje-pj_dump, dead-node-paje-pj_dump: no pj_dump (pajeng)"
else
  run pj_dump "$T/fault.paje"
  if [ "$rc" = 0 ] && printf '%s\n' "$out" | python3 -c '
import sys
rows = [l.rstrip("\n").split(", ") for l in sys.stdin]
machine = [r[6] for r in rows if r[0] == "Container" and r[2] == "Machine"]
faults = sorted((r[1], r[3], r[4], r[6]) for r in rows
                if r[0] == "Container" and r[2] == "Fault")
assert faults == [(machine[0], "0", "256", "down: node %d dimension 0" % v)
                  for v in (0, 1, 2)], faults
states = sorted((r[1], float(r[3]), float(r[4]), r[7]) for r in rows
                if r[0] == "State" and r[2] == "Fault state")
assert states == [("down: node 0 dimension 0", 0, 256, "down"),
                  ("down: node 1 dimension 0", 0, 256, "down"),
                  ("down: node 2 dimension 0", 0, 5, "up"),
                  ("down: node 2 dimension 0", 5, 40, "down"),
                  ("down: node 2 dimension 0", 40, 256, "up")], states
detours = sorted((r[6], r[7], r[8], float(r[3]), float(r[4])) for r in rows
                 if r[0] == "Link" and r[2] == "Detoured message")
assert detours == [("message 0", "node 0", "node 1", 0, 66),
                   ("message 1", "node 1", "node 0", 0, 66)], detours
links = [r for r in rows if r[0] == "Link" and r[2] == "Message"]
assert len(links) == 22 and all(r[6] not in ("message 0", "message 1")
                                for r in links), len(links)
'; then ok fault-paje-pj_dump; else bad fault-paje-pj_dump; fi
  run pj_dump "$T/dead.paje"
  if [ "$rc" = 0 ] && printf '%s\n' "$out" | python3 -c '
import sys
rows = [l.rstrip("\n").split(", ") for l in sys.stdin]
faults = [(r[3], r[4], r[6]) for r in rows if r[0] == "Container" and r[2] == "Fault"]
assert faults == [("0", "124", "dead: node 5")], faults
states = [(r[1], float(r[3]), float(r[4]), r[7]) for r in rows
          if r[0] == "State" and r[2] == "Fault state"]
assert states == [("dead: node 5", 0, 124, "dead")], states
assert not [r for r in rows if r[0] == "Link" and r[2] == "Detoured message"]
assert not [r for r in rows if r[0] == "Container" and r[6] == "node 5"]
'; then ok dead-node-paje-pj_dump; else bad dead-node-paje-pj_dump; fi
fi
# Exports name channels by link (Chrome also each receive track, "node 1
# from node 0 +x"); with tick-seconds Paje's dates are physical.
check torus-chrome "$CUBEMU" trace export "$T/torus.trace" --format chrome -o "$T/torus.json"
if python3 - "$T/torus.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
every = {e["args"]["name"] for e in d["traceEvents"] if e.get("name") == "thread_name"}
names = {n for n in every if " from node " not in n and "phase" not in n}
assert "node 0 +x" in names and "node 0 -x" in names and "node 15 +y" in names, sorted(names)[:8]
assert len(names) == 64, len(names)
assert "node 1 from node 0 +x" in every, sorted(every - names)[:8]
assert d["otherData"]["topology"] == "torus 4x4, 16 nodes"
EOF2
then ok torus-chrome-names; else bad torus-chrome-names; fi
run "$CUBEMU" trace export "$T/k8.trace" --format csv
if [ "$rc" = 0 ] && printf '%s\n' "$out" | head -n 1 | grep -q '^window_start,window_end,window_start_seconds,window_end_seconds,to 0 elements,to 1 elements,'; then
  ok complete-csv-links; else bad complete-csv-links; fi
run "$CUBEMU" trace export "$T/k8.trace" --format paje
if [ "$rc" = 0 ] && printf '%s\n' "$out" | grep -q '^5 0 C_C[0-9]* CT_Channel C_N3 "node 3 to 7"$'; then
  ok complete-paje-names; else bad complete-paje-names; fi
# The window's own loop, driven by keys, on SDL's dummy driver.
check keys env SDL_VIDEODRIVER=dummy "$CUBEMU" view "$T/g4.trace" \
  --keys "Space,Right,Right,Left,+,-,[,],Home,End,M,G,Space,Q"
expect no-display 2 "cubemu view: cannot open a window: no display (DISPLAY and WAYLAND_DISPLAY are unset; without a display, use --png, --gif or --frames)" -- \
  "$CUBEMU" view "$T/g4.trace"

# ---- legibility: every view at the sizes the docs use ---------------------
# view_check legible reads the PNG `cubemu view` wrote against the
# renderer's layout: nothing outside the graph's panel or on its border
# (an arc cut at the edge), the drawing filling the panel (its limiting
# side, and the share given of the other), each node's circle apart from
# the others and holding nothing but its fill and its whole label (no line
# across a label, no label overflowing), and on the timeline every run of
# ticks at one load drawn flat, no two labelled phases in a row alike.
# legible NAME TRACE VIEW WxH CYCLE FILL LABELS
legible() {
  local name=$1 trace=$2 view=$3 size=$4 at=$5 fill=$6 labels=$7
  "$CUBEMU" view "$trace" --view "$view" --size "$size" --png "$T/$name.png" \
    --at "$at" --window 4 > /dev/null 2>&1
  check "legible-$name" "$CHECK" legible "$trace" "$T/$name.png" "$view" "$size" \
    "$at" 4 "fill=$fill" "labels=$labels"
}
for n in 3 4 5 6; do
  "$CUBEMU" run --quiet --set machine.preset=cube --set machine.dimensions=$n \
    --set algorithm.elements-per-node=16 --trace "$T/c$n.trace" > /dev/null
  legible "cube$n" "$T/c$n.trace" graph 1280x800 6 0.8 yes
done
legible cube5-small "$T/c5.trace" graph 960x600 6 0.75 yes
legible cube6-small "$T/c6.trace" graph 960x600 6 0.8 no
"$CUBEMU" run --quiet --set machine.preset=cube --set machine.dimensions=8 \
  --set algorithm.elements-per-node=16 --trace "$T/c8.trace" > /dev/null
legible cube8-matrix "$T/c8.trace" matrix 1280x800 6 0 any
# docs/viewer.md's pictures: the GIF's run at its size, the torus's
"$CUBEMU" run --quiet --set machine.preset=cube --set machine.dimensions=4 \
  --set algorithm.method=sequential --set algorithm.elements-per-node=12 --trace "$T/seq4.trace" > /dev/null
legible gif-run "$T/seq4.trace" graph 960x600 14 0.8 yes
check torus5-trace "$CHECK" record "$T/t5.trace" topology=mesh shape=5x5 wrap=yes ports=2
legible torus5 "$T/t5.trace" graph 1000x640 24 0.9 yes
legible torus4 "$T/torus.trace" graph 1280x800 8 0.9 yes
legible torus3 "$T/t3.trace" graph 1280x800 10 0.9 yes
legible complete8 "$T/k8.trace" graph 1280x800 12 0.55 yes
check complete16-trace "$CHECK" record "$T/k16.trace" topology=complete processors=16
legible complete16 "$T/k16.trace" graph 1280x800 6 0.55 yes
legible ccc3 "$T/ccc.trace" graph 1280x800 6 0.8 yes
check ccc4-trace "$CHECK" record "$T/ccc4.trace" topology=ccc dimensions=4
legible ccc4 "$T/ccc4.trace" graph 1280x800 6 0.8 yes
# 256 nodes in the 16 x 16 grid: too close for labels, the grid fills the
# panel.
"$CUBEMU" run --quiet scenarios/shift/torus.ini --trace "$T/shift.trace" > /dev/null
legible torus16 "$T/shift.trace" graph 1280x800 30 0.9 no
# The README's trace example, in the window's size and the GIF's.
"$CUBEMU" run --quiet scenarios/dblas/torus-4x8-vecmat-20x28.ini --trace "$T/readme.trace" > /dev/null
legible readme "$T/readme.trace" graph 1280x800 20 0.9 yes
legible readme-small "$T/readme.trace" graph 960x600 20 0.9 yes
# The default run: 256 nodes in the matrix view, its nodes in different
# steps at once.
"$CUBEMU" run --quiet --trace "$T/default.trace" > /dev/null
legible default "$T/default.trace" matrix 1280x800 30000 0 any

# ---- phases: what the timeline and the header say ------------------------
# The default run's nodes pass through steps 0..6 at different times (a
# node with nothing to do in a step marks it and goes on): the timeline
# names each step once, where its traffic takes over, and the header
# counts the nodes in each step.
expect phases-default 0 "0 step 0
8820 step 1
17580 step 2
26400 step 3
35220 step 4
44040 step 5
52860 step 6
at 0: nodes in each phase: step 0 (254), step 6 (2) of 256
at 30000: nodes in each phase: step 3 (254), step 6 (2) of 256
at 61739: phase: step 6 (all nodes)" -- "$CHECK" phases "$T/default.trace" 1280x800 0 30000 61739
# The header agrees with the timeline: at cycle 10 of the sequential
# 4-cube run the timeline is in step 1 and the header counts its 4 nodes
# beside the 12 already waiting in step 2; at 16 all are in step 2.
expect phases-header-and-timeline 0 "0 step 0: dimension 2
8 step 1: dimension 1
16 step 2: dimension 0
at 10: nodes in each phase: step 1: dimension 1 (4), step 2: dimension 0 (12) of 16
at 16: phase: step 2: dimension 0 (all nodes)" -- "$CHECK" phases "$T/g4.trace" 1280x800 10 16
# The sequential method: while 4 nodes exchange across dimension 1 in
# step 1, the 12 others already wait in step 2; the timeline says step 1
# there, as the picture shows.
expect phases-sequential 0 "0 step 0: dimension 2
12 step 1: dimension 1
24 step 2: dimension 0
at 14: nodes in each phase: step 1: dimension 1 (4), step 2: dimension 0 (12) of 16" -- \
  "$CHECK" phases "$T/seq4.trace" 960x600 14

# ---- sweeps ---------------------------------------------------------------
check sweep "$CUBEMU" sweep $D/gray-sequential-4.ini --vary algorithm.elements-per-node=4,8,16,32 \
  --vary algorithm.method=concurrent,sequential --csv "$T/s.csv" --png "$T/s.png" --size 800x500
if python3 - "$T/s.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 8, len(rows)
assert [r["algorithm.elements-per-node"] for r in rows] == ["4"] * 2 + ["8"] * 2 + ["16"] * 2 + ["32"] * 2
assert all(r["data_correct"] == "1" for r in rows)
for r in rows:
    k = int(r["algorithm.elements-per-node"])
    assert int(r["cycles"]) == (3 * k if r["algorithm.method"] == "sequential" else 3 * ((k + 2) // 3)), r
    assert int(r["element_transfers"]) == 3 * 16 * k // 2
    # Theorem 5 is the concurrent method's bound: an empty cell (n/a) otherwise
    t5 = r["bound.Theorem 5: (n-1)(Ts + ceil(K/(n-1)))"]
    assert (float(t5) == 3 * ((k + 2) // 3)) if r["algorithm.method"] == "concurrent" else t5 == "", r
EOF
then ok sweep-csv-rows; else out=$(cat "$T/s.csv"); bad sweep-csv-rows; fi
check sweep-png-size "$CHECK" png-size "$T/s.png" 800x500
check sweep-one-key "$CUBEMU" sweep --set machine.preset=cube --set machine.dimensions=5 \
  --vary algorithm.elements-per-node=8,16,24 --csv "$T/k.csv" --png "$T/k.png"
if [ "$(wc -l < "$T/k.csv")" = 4 ]; then ok sweep-one-key-rows; else out=$(cat "$T/k.csv"); bad sweep-one-key-rows; fi
# --vary scenario=: algorithms with different keys side by side (issue #12:
# the cube's BMMC transpose against the all-to-all transposes)
check sweep-scenarios "$CUBEMU" sweep --vary scenario=scenarios/transpose/cube-3.ini,scenarios/transpose/cube-3-bmmc-transpose.ini \
  --csv "$T/sc.csv"
if python3 - "$T/sc.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["scenario"] for r in rows] == ["scenarios/transpose/cube-3.ini",
                                         "scenarios/transpose/cube-3-bmmc-transpose.ini"], rows
assert [r["cycles"] for r in rows] == ["948", "2133"], rows
PY
then ok sweep-scenarios-rows; else out=$(cat "$T/sc.csv"); bad sweep-scenarios-rows; fi
check sweep-one-key-png "$CHECK" png-size "$T/k.png" 1000x620

# ---- plots through cairo: the format by the extension, the same bytes on
# every run -----------------------------------------------------------------
sweep_plot() {
  "$CUBEMU" sweep $D/gray-sequential-4.ini --vary algorithm.elements-per-node=4,8,16,32 \
    --vary algorithm.method=concurrent,sequential --csv "$T/p.csv" "$@"
}
check sweep-svg sweep_plot --plot "$T/p.svg" --size 800x500
# One stroked path per series through its one point per K: a solid line per
# method, a dashed one per distinct bound (bounds equal at every K are drawn
# once), counted from the CSV. Legend samples (two points), the grid and the
# frame (thin) and glyphs (filled) are not series.
if python3 - "$T/p.svg" "$T/p.csv" <<'EOF'
import csv, re, sys, xml.etree.ElementTree as ET
svg = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == svg + "svg", root.tag
assert (root.get("width"), root.get("height")) == ("800px", "500px"), root.attrib
rows = list(csv.DictReader(open(sys.argv[2])))
ks = sorted({int(r["algorithm.elements-per-node"]) for r in rows})
methods = {r["algorithm.method"] for r in rows}
bounds = {tuple(next(r[c] for r in rows if int(r["algorithm.elements-per-node"]) == k and r[c])
                for k in ks)
          for c in rows[0] if c.startswith("bound.")}
dashed = []
for p in root.iter(svg + "path"):
    style = dict(kv.split(":", 1) for kv in p.get("style", "").split(";") if kv)
    # (a bound's white edge, drawn under its dashes, is not a series)
    if (style.get("fill") == "none" and float(style.get("stroke-width", "0")) > 1
            and style.get("stroke") != "rgb(100%,100%,100%)"
            and len(re.findall("[ML]", p.get("d", ""))) == len(ks)):
        dashed.append("stroke-dasharray" in style)
assert len(methods) == 2 and len(bounds) == 4, (methods, bounds)
assert dashed.count(False) == len(methods), dashed
assert dashed.count(True) == len(bounds), dashed
EOF
then ok sweep-svg-series; else out=$(head -c 2000 "$T/p.svg"); bad sweep-svg-series; fi
check sweep-pdf sweep_plot --plot "$T/p.pdf"
# A blank page from cairo is under 1 KB; lines, text and the embedded font
# subset make several.
pdf_min=4096
if [ "$(head -c 5 "$T/p.pdf")" = "%PDF-" ] && [ "$(wc -c < "$T/p.pdf")" -gt $pdf_min ]; then
  ok sweep-pdf-header-size
else out=$(head -c 200 "$T/p.pdf"); bad sweep-pdf-header-size; fi
check sweep-plot-png sweep_plot --plot "$T/p.png"
check sweep-plot-png-size "$CHECK" png-size "$T/p.png" 1000x620
for ext in svg png pdf; do
  sweep_plot --plot "$T/one.$ext" > /dev/null 2>&1
  sweep_plot --plot "$T/two.$ext" > /dev/null 2>&1
  run cmp "$T/one.$ext" "$T/two.$ext"
  if [ "$rc" = 0 ]; then ok "sweep-$ext-same-bytes"; else bad "sweep-$ext-same-bytes"; fi
done

# ---- bad input: the file or flag named, exit 2, no crash -------------------
expect missing-trace 2 "cubemu trace: $T/none.trace: cannot read: No such file or directory" -- \
  "$CUBEMU" trace export "$T/none.trace" --format csv
head -c 100 "$T/x3.trace" > "$T/cut.trace"
expect truncated 2 "cubemu trace: $T/cut.trace: truncated: 100 bytes, the trace header alone is 144" -- \
  "$CUBEMU" trace export "$T/cut.trace" --format chrome
size=$(wc -c < "$T/x3.trace")
head -c $((size - 10)) "$T/x3.trace" > "$T/short.trace"
expect_has truncated-records 2 "cubemu trace: $T/short.trace: truncated or corrupt: the header announces" -- \
  "$CUBEMU" trace info "$T/short.trace"
python3 -c '
import sys
b = bytearray(open(sys.argv[1], "rb").read()); b[500] ^= 0x10
open(sys.argv[2], "wb").write(b)' "$T/x3.trace" "$T/flip.trace"
expect_has corrupt 2 "cubemu trace: $T/flip.trace: corrupt: checksum mismatch" -- \
  "$CUBEMU" trace export "$T/flip.trace" --format paje
expect version-1 2 "cubemu trace: $D/v1.trace: trace format version 1.0 is not supported (this cubemu reads version 2.x; re-record the trace with it)" -- \
  "$CUBEMU" trace info $D/v1.trace
expect view-version-1 2 "cubemu view: $D/v1.trace: trace format version 1.0 is not supported (this cubemu reads version 2.x; re-record the trace with it)" -- \
  "$CUBEMU" view $D/v1.trace --png "$T/n.png"
expect not-a-trace 2 "cubemu trace: $D/not-a-trace.bin: not a cubemu trace (it does not begin with the trace magic; see traces/FORMAT.md)" -- \
  "$CUBEMU" trace info $D/not-a-trace.bin
expect view-not-a-trace 2 "cubemu view: $D/not-a-trace.bin: not a cubemu trace (it does not begin with the trace magic; see traces/FORMAT.md)" -- \
  "$CUBEMU" view $D/not-a-trace.bin --png "$T/n.png"
expect view-truncated 2 "cubemu view: $T/cut.trace: truncated: 100 bytes, the trace header alone is 144" -- \
  "$CUBEMU" view "$T/cut.trace" --png "$T/n.png"
expect unknown-format 2 "cubemu trace: --format xml: unknown format (valid: chrome, perfetto, paje, csv)" -- \
  "$CUBEMU" trace export "$T/x3.trace" --format xml
expect no-format 2 "cubemu trace: export: --format is required (valid: chrome, perfetto, paje, csv), or an -o whose extension names one (.json, .paje, .csv)" -- \
  "$CUBEMU" trace export "$T/x3.trace"
expect no-format-unknown-extension 2 "cubemu trace: export: --format is required (valid: chrome, perfetto, paje, csv), or an -o whose extension names one (.json, .paje, .csv)" -- \
  "$CUBEMU" trace export "$T/x3.trace" -o "$T/x3.out"
# perfetto is a name of the chrome format; -o's extension names a format
"$CUBEMU" trace export "$T/x3.trace" --format chrome -o "$T/ref.json"
for pair in "perfetto:--format perfetto -o $T/p.out" "json:-o $T/p.json"; do
  name=${pair%%:*}; args=${pair#*:}
  run "$CUBEMU" trace export "$T/x3.trace" $args
  f=$(ls "$T"/p.out "$T"/p.json 2>/dev/null | head -n 1)
  if [ "$rc" = 0 ] && cmp -s "$f" "$T/ref.json"; then ok "export-as-chrome-$name"; else bad "export-as-chrome-$name"; fi
  rm -f "$T/p.out" "$T/p.json"
done
"$CUBEMU" trace export "$T/x3.trace" --format csv -o "$T/ref.csv"
"$CUBEMU" trace export "$T/x3.trace" --format paje -o "$T/ref.paje.out"
run "$CUBEMU" trace export "$T/x3.trace" -o "$T/p.csv"
[ "$rc" = 0 ] && cmp -s "$T/p.csv" "$T/ref.csv" && ok export-csv-by-extension || bad export-csv-by-extension
run "$CUBEMU" trace export "$T/x3.trace" -o "$T/p.paje"
[ "$rc" = 0 ] && cmp -s "$T/p.paje" "$T/ref.paje.out" && ok export-paje-by-extension || bad export-paje-by-extension
expect window-zero 2 "cubemu trace: --window 0: must be a positive number of cycles" -- \
  "$CUBEMU" trace export "$T/x3.trace" --format csv --window 0
expect export-o-twice 2 "cubemu trace: -o given twice: it takes one value" -- \
  "$CUBEMU" trace export "$T/x3.trace" --format csv -o "$T/a.csv" -o "$T/b.csv"
expect view-png-not-png 2 "cubemu view: --png $T/n.gif: expected a .png file (--gif writes an animation)" -- \
  "$CUBEMU" view "$T/x3.trace" --png "$T/n.gif"
expect view-gif-not-gif 2 "cubemu view: --gif $T/n.png: expected a .gif file (--png writes one frame)" -- \
  "$CUBEMU" view "$T/x3.trace" --gif "$T/n.png"
expect sweep-plot-twice 2 "cubemu sweep: --plot given twice: it takes one value" -- \
  "$CUBEMU" sweep $D/gray-sequential-4.ini --vary algorithm.elements-per-node=4,8 --plot "$T/a.png" --plot "$T/b.png"
[ ! -e "$T/n.gif" ] && [ ! -e "$T/a.png" ] && [ ! -e "$T/b.png" ] && ok refused-writes-nothing || bad refused-writes-nothing
expect window-not-csv 2 "cubemu trace: --window applies to --format csv only" -- \
  "$CUBEMU" trace export "$T/x3.trace" --format chrome --window 5
expect unknown-subcommand 2 "cubemu trace: unknown subcommand 'convert' (valid: export, info)" -- \
  "$CUBEMU" trace convert "$T/x3.trace"
expect unwritable 2 "cubemu run: /nonexistent/x.trace: cannot write: No such file or directory" -- \
  "$CUBEMU" run $D/exchange-3.ini --trace /nonexistent/x.trace
expect at-beyond 2 "cubemu view: --at 99: the run's cycles are 0..50" -- \
  "$CUBEMU" view "$T/x3.trace" --png "$T/n.png" --at 99
expect bad-view 2 "cubemu view: --view tree: unknown view (valid: graph, matrix)" -- \
  "$CUBEMU" view "$T/x3.trace" --view tree
expect bad-size 2 "cubemu view: --size 10x10: expected WIDTHxHEIGHT within 640x420..8192x8192" -- \
  "$CUBEMU" view "$T/x3.trace" --size 10x10
expect graph-too-big 2 "cubemu view: --view graph: the graph view draws cubes up to 6 dimensions (64 nodes); this is the matrix view" -- \
  "$CUBEMU" view --set machine.preset=cube --set machine.dimensions=7 --set algorithm.elements-per-node=6 --view graph --png "$T/n.png"
expect view-set-on-trace 2 "cubemu view: --set applies to scenarios; $T/x3.trace is a trace" -- \
  "$CUBEMU" view "$T/x3.trace" --set machine.dimensions=4
expect view-bad-scenario 2 "cubemu view: $D/none.ini: cannot read: No such file or directory" -- \
  "$CUBEMU" view $D/none.ini --png "$T/n.png"
expect sweep-nothing 2 "cubemu sweep: nothing to vary (e.g. --vary algorithm.elements-per-node=16,32,64)" -- \
  "$CUBEMU" sweep
expect sweep-bad-vary 2 "cubemu sweep: --vary 'elements=4': expected SECTION.KEY=V1,V2,..., e.g. --vary algorithm.elements-per-node=16,32,64" -- \
  "$CUBEMU" sweep --vary elements=4
expect sweep-twice 2 "cubemu sweep: --vary algorithm.method: given twice; list all its values in one --vary" -- \
  "$CUBEMU" sweep --vary algorithm.method=concurrent --vary algorithm.method=sequential
expect_has sweep-bad-y 2 "cubemu sweep: --y speed: no run has this numeric output field (e.g. cycles, element_transfers, messages, details.KEY)" -- \
  "$CUBEMU" sweep --set machine.preset=cube --set machine.dimensions=3 --vary algorithm.elements-per-node=2,4 --png "$T/n.png" --y speed
expect sweep-plot-gif 2 "cubemu sweep: --plot $T/out.gif: unknown plot format (valid extensions: .png, .svg, .pdf)" -- \
  "$CUBEMU" sweep --vary algorithm.elements-per-node=2,4 --plot "$T/out.gif"
if [ ! -e "$T/out.gif" ]; then ok sweep-plot-gif-no-file; else bad sweep-plot-gif-no-file; fi
expect sweep-png-not-png 2 "cubemu sweep: --png $T/out.svg: expected a .png file (--plot also writes .svg and .pdf)" -- \
  "$CUBEMU" sweep --vary algorithm.elements-per-node=2,4 --png "$T/out.svg"
expect sweep-png-and-plot 2 "cubemu sweep: --png and --plot: give one (--png is --plot for a .png file)" -- \
  "$CUBEMU" sweep --vary algorithm.elements-per-node=2,4 --png "$T/a.png" --plot "$T/b.pdf"
expect_has sweep-plot-unwritable 2 "cubemu sweep: /nonexistent/p.svg: cannot write: No such file or directory" -- \
  "$CUBEMU" sweep --vary algorithm.elements-per-node=2,4 --plot /nonexistent/p.svg
"$CUBEMU" run --set machine.preset=cube --set machine.dimensions=1 --set machine.element-time=100000000 \
  --set algorithm.name=exchange --set algorithm.elements-per-node=1 --trace "$T/slow.trace" > /dev/null
expect csv-too-many-rows 2 "cubemu trace: --window 1: 100000000 cycles would be more than 10000000 rows; use a wider window" -- \
  "$CUBEMU" trace export "$T/slow.trace" --format csv --window 1 -o "$T/slow.csv"
if [ ! -e "$T/slow.csv" ]; then ok csv-no-partial-file; else bad csv-no-partial-file; fi
# Found by tests/fuzz/fuzz_trace (regressions there): the widest --window
# a Tick holds once overflowed the row count; a header's cycles beyond
# 2^62 (TRACE_MAX_CYCLES) once overflowed the default window.
check csv-widest-window "$CUBEMU" trace export "$T/x3.trace" --format csv --window 9223372036854775807 -o "$T/wide.csv"
if [ "$(wc -l < "$T/wide.csv")" = 2 ] && sed -n 2p "$T/wide.csv" | grep -q '^0,51,'; then ok csv-widest-window-one-row; else bad csv-widest-window-one-row; fi
F=tests/fuzz/regressions/trace/csv-default-window-overflow-cycles-int64-max.trace
expect cycles-beyond-2-62 2 "cubemu trace: $F: corrupt: the run lasts 9223372036854775807 cycles (valid: at most 2^62)" -- \
  "$CUBEMU" trace export "$F" --format csv
expect_has sweep-bad-run 2 "cubemu sweep: --vary machine.dimensions=40: dimensions: 40 is out of range (valid: 1..26)" -- \
  "$CUBEMU" sweep --set machine.preset=cube --vary machine.dimensions=3,40

echo "traces: $passed passed, $failed failed"
[ "$failed" = 0 ]
