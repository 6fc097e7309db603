#!/usr/bin/env bash
# Black-box tests of `cubemu sweep`: --vary ranges, everything checked
# before the first run (bad values, output paths, --x, --y with "did you
# mean"), a failed or crashed run as a "failed" row among the others (exit
# status 1), -j N writing the same bytes as -j 1, rows committed as runs
# finish (a sweep killed with SIGKILL leaves them), and what the plots
# draw: read from --plot-data (the JSON of what plot_save draws) and
# checked against the SVG's strokes (colours, dashes, lines). Ends with one
# line "sweep: N passed, N failed".
set -u
D=tests/data/sweep
. "$(dirname "$0")/expect.sh"
scratch sweep
GRAY="$D/gray-3.ini"
SLOW="$D/slow.ini"

# refused NAME TEXT -- COMMAND...: exit 2, TEXT in what it says, and no run
# happened (nothing on standard output, where each run prints its line)
refused() {
  local name=$1 text=$2; shift 3
  local so
  so=$("$@" 2>"$T/refused.err"); rc=$?
  out=$(cat "$T/refused.err")
  if [ "$rc" = 2 ] && [[ "$out" == *"$text"* ]] && [ -z "$so" ]; then ok "$name"; else
    printf '  expected (exit 2, no run) to contain:\n%s\n  stdout: %s\n' "$text" "$so"; bad "$name"; fi
}

# csv_check NAME FILE PYTHON: passes when PYTHON (rows = the CSV's rows as
# dicts, header = its first row) raises nothing
csv_check() {
  local name=$1 file=$2 code=$3
  if out=$(python3 - "$file" 2>&1 <<EOF
import csv, sys
with open(sys.argv[1], newline="") as f:
    header = next(csv.reader(f))
with open(sys.argv[1], newline="") as f:
    rows = list(csv.DictReader(f))
$code
EOF
  ); then ok "$name"; else out=$(printf '%s\n' "$out" "$(head -n 3 "$file" 2>&1)" | cut -c1-300); bad "$name"; fi
}

# ---- ranges -----------------------------------------------------------------
check range-forms "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=4..12:4,32 \
  --vary machine.dimensions=3..4 --csv "$T/range.csv"
csv_check range-forms-rows "$T/range.csv" '
assert [r["algorithm.elements-per-node"] for r in rows] == ["4", "4", "8", "8", "12", "12", "32", "32"], rows
assert [r["machine.dimensions"] for r in rows] == ["3", "4"] * 4, rows
assert all(r["status"] == "ok" and r["data_correct"] == "1" and r["error"] == "" for r in rows), rows
assert len(header) == len(set(header)), "a column twice"
assert header[:4] == ["algorithm.elements-per-node", "machine.dimensions", "status", "data_correct"], header
assert header[-1] == "error", header'
check range-step-one "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=5..7 --csv "$T/r1.csv"
csv_check range-step-one-rows "$T/r1.csv" '
assert [r["algorithm.elements-per-node"] for r in rows] == ["5", "6", "7"], rows'
# a step that does not land on the end stops before it, as seq does
check range-step-past-end "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=4..13:4 --csv "$T/r2.csv"
csv_check range-step-past-end-rows "$T/r2.csv" '
assert [r["algorithm.elements-per-node"] for r in rows] == ["4", "8", "12"], rows'
refused range-empty "cubemu sweep: --vary algorithm.elements-per-node=12..4: 12..4: the range is empty (12 is above 4)" -- \
  "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=12..4
refused range-malformed "cubemu sweep: --vary algorithm.elements-per-node=4..x: 4..x: expected a value, or a range FIRST..LAST or FIRST..LAST:STEP of integers" -- \
  "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=4..x
refused range-step-zero "the step must be at least 1" -- \
  "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=4..8:0
refused value-twice "cubemu sweep: --vary algorithm.elements-per-node: the value 8 is given twice" -- \
  "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=4..8:4,8

# ---- everything checked before the first run: exit 2, nothing run ----------
refused bad-value "cubemu sweep: --vary algorithm.elements-per-node=abc: elements-per-node: 'abc' is not an integer" -- \
  "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=8,16,abc --csv "$T/bad.csv"
[ ! -e "$T/bad.csv" ] && ok bad-value-no-csv || bad bad-value-no-csv
refused bad-value-range "cubemu sweep: --vary machine.dimensions=40: dimensions: 40 is out of range (valid: 1..26)" -- \
  "$CUBEMU" sweep "$GRAY" --vary machine.dimensions=3,40
refused bad-method "did you mean 'sequential'?" -- \
  "$CUBEMU" sweep "$GRAY" --vary algorithm.method=concurrent,sequentail
mkdir -p "$T/adir"
refused csv-folder "cubemu sweep: $T/adir: cannot write: Is a directory" -- \
  "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=8,16 --csv "$T/adir"
refused plot-missing-folder "cubemu sweep: /nonexistent/p.png: cannot write: No such file or directory" -- \
  "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=8,16 --plot /nonexistent/p.png
refused plot-data-missing-folder "cubemu sweep: /nonexistent/p.json: cannot write: No such file or directory" -- \
  "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=8,16 --plot-data /nonexistent/p.json
refused same-output-twice "--plot $T/same.svg: also given to --csv" -- \
  "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=8,16 --csv "$T/same.svg" --plot "$T/same.svg"
# with tick-seconds (cm200-8k) seconds is a field: a slip is corrected
refused y-typo "cubemu sweep: --y second: no run has this numeric output field (e.g. cycles, element_transfers, messages, details.KEY); did you mean 'seconds'?" -- \
  "$CUBEMU" sweep --set machine.preset=cm200-8k --set algorithm.name=gray-to-binary \
  --vary algorithm.elements-per-node=8,16 --plot "$T/y.png" --y second
[ ! -e "$T/y.png" ] && ok y-typo-no-plot || bad y-typo-no-plot
# without it, seconds is not one, and the answer says why
refused y-seconds-no-tick "cubemu sweep: --y seconds: no run has this numeric output field (e.g. cycles, element_transfers, messages, details.KEY) (seconds need the machine's tick-seconds)" -- \
  "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=8,16 --plot "$T/y.png" --y seconds
refused y-last-part "--y nodes: no run has this numeric output field (e.g. cycles, element_transfers, messages, details.KEY); did you mean 'machine.nodes'?" -- \
  "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=8,16 --plot "$T/y.png" --y nodes
refused x-not-varied "cubemu sweep: --x machine.dimensions: not a varied key (varied: algorithm.elements-per-node)" -- \
  "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=8,16 --plot "$T/x.png" --x machine.dimensions
refused jobs-zero "cubemu sweep: -j 0: expected 1..256 runs at once" -- \
  "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=8,16 -j 0
# every problem at once, one line each
refused all-problems "not a varied key" -- \
  "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=8,abc --vary machine.dimensions=3,99 \
  --csv "$T/adir" --x bar --y cyclez
every=yes
for want in "$T/adir: cannot write: Is a directory" "--x bar: not a varied key" \
            "--vary machine.dimensions=99: dimensions: 99 is out of range" \
            "--vary algorithm.elements-per-node=abc: elements-per-node: 'abc' is not an integer" \
            "--y cyclez: no run has this numeric output field"; do
  [[ "$out" == *"$want"* ]] || { every=no; echo "  missing: $want"; }
done
[ $every = yes ] && [ "$(printf '%s\n' "$out" | wc -l)" = 5 ] && ok all-problems-each-once || bad all-problems-each-once

# ---- a failed run is a row, not the end of the sweep ------------------------
# The 16-cube needs more than the 50 MB allowed; the 3- and 4-cube do not.
run env CUBEMU_MEMORY_LIMIT=50000000 "$CUBEMU" sweep "$GRAY" --set algorithm.elements-per-node=64 \
  --vary machine.dimensions=3,16,4 --csv "$T/fail.csv"
if [ "$rc" = 1 ] && [[ "$out" == *"cubemu sweep: 1 of 3 runs failed:"* ]] \
   && [[ "$out" == *"machine.dimensions=16: FAILED: "*"machine too large"* ]] \
   && [[ "$out" == *"machine.dimensions=4: cycles 66, data correct"* ]]; then ok failed-run-exit-1
else bad failed-run-exit-1; fi
csv_check failed-run-row "$T/fail.csv" '
assert [r["machine.dimensions"] for r in rows] == ["3", "16", "4"], rows
assert [r["status"] for r in rows] == ["ok", "failed", "ok"], rows
assert [r["cycles"] for r in rows] == ["64", "", "66"], rows
assert [r["data_correct"] for r in rows] == ["1", "", "1"], rows
assert "machine too large" in rows[1]["error"] and rows[0]["error"] == rows[2]["error"] == "", rows'

# A run whose process dies (here killed with SIGKILL, as the kernel's OOM
# killer would, once the first row is in the CSV, i.e. during the second,
# slow run) is a failed row too, and the sweep goes on.
"$CUBEMU" sweep "$SLOW" --vary algorithm.elements=65536,1048576,131072 --csv "$T/crash.csv" \
  > "$T/crash.out" 2>&1 &
pid=$!
for _ in $(seq 1000); do [ "$(cat "$T/crash.csv" 2>/dev/null | wc -l)" -ge 2 ] && break; sleep 0.01; done
child=$(pgrep -P $pid | head -n 1)
[ -n "$child" ] && kill -KILL "$child"
wait $pid; rc=$?
out=$(cat "$T/crash.out")
if [ -n "$child" ] && [ "$rc" = 1 ] && [[ "$out" == *"algorithm.elements=131072: cycles 539, data correct"* ]]; then
  ok crashed-run-exit-1; else bad crashed-run-exit-1; fi
csv_check crashed-run-row "$T/crash.csv" '
assert [r["status"] for r in rows] == ["ok", "failed", "ok"], rows
assert "killed by signal 9" in rows[1]["error"], rows[1]["error"]'

# ---- -j: the same bytes as one at a time (-j3 written as make takes it) ------
jobs_sweep() {
  CUBEMU_MEMORY_LIMIT=50000000 "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=8,64 \
    --vary machine.dimensions=3,16,4,5 --vary algorithm.method=concurrent,sequential "$@"
}
jobs_sweep -j 1 --csv "$T/j1.csv" > "$T/j1.out" 2>&1; rc1=$?
jobs_sweep -j3 --csv "$T/j3.csv" > "$T/j3.out" 2>&1; rc3=$?
rc=$rc3; out=$(diff "$T/j1.csv" "$T/j3.csv"; diff "$T/j1.out" "$T/j3.out")
if [ "$rc1" = 1 ] && [ "$rc3" = 1 ] && cmp -s "$T/j1.csv" "$T/j3.csv" && cmp -s "$T/j1.out" "$T/j3.out" \
   && [ "$(wc -l < "$T/j1.csv")" = 17 ]; then ok jobs-same-bytes; else bad jobs-same-bytes; fi

# ---- rows committed as runs finish: SIGKILL after the first leaves it -------
"$CUBEMU" sweep "$SLOW" --vary algorithm.elements=65536,1048576,131072 --csv "$T/inc.csv" \
  > /dev/null 2>&1 &
pid=$!
lines=0
for _ in $(seq 1000); do
  lines=$(cat "$T/inc.csv" 2>/dev/null | wc -l); [ "$lines" -ge 2 ] && break; sleep 0.005
done
child=$(pgrep -P $pid | head -n 1)
alive=no; kill -0 $pid 2>/dev/null && alive=yes
kill -KILL $pid; wait $pid 2>/dev/null
out="lines $lines, sweep running: $alive"
[ "$lines" = 2 ] && [ "$alive" = yes ] && ok rows-incremental || bad rows-incremental
csv_check rows-incremental-after-kill "$T/inc.csv" '
assert len(rows) == 1 and rows[0]["status"] == "ok" and rows[0]["cycles"] == "283", rows'
# the run under way goes with the sweep (it is not left running)
gone=no
for _ in $(seq 200); do
  { [ -z "$child" ] || ! kill -0 "$child" 2>/dev/null; } && { gone=yes; break; }; sleep 0.01
done
out="child $child"; [ "$gone" = yes ] && ok killed-sweep-ends-its-run || bad killed-sweep-ends-its-run
[ -z "$(ls -A "$T" | grep '\.tmp-')" ] && ok no-temporary-files || { out=$(ls -a "$T"); bad no-temporary-files; }

# ---- plots: what is drawn (--plot-data) and the SVG's strokes ---------------
# plot_check NAME SVG JSON PYTHON: d = the JSON, strokes = the SVG's stroked
# paths as (colour "#rrggbb", width, dashed, number of M/L points, d)
plot_check() {
  local name=$1 svg=$2 json=$3 code=$4
  if out=$(python3 - "$svg" "$json" 2>&1 <<EOF
import json, re, sys, xml.etree.ElementTree as ET
d = json.load(open(sys.argv[2]))
NS = "{http://www.w3.org/2000/svg}"
def colour(text):
    m = re.match(r"rgb\(([\d.]+)%,([\d.]+)%,([\d.]+)%\)", text or "")
    if not m: return text
    return "#" + "".join("%02x" % round(float(v) * 255 / 100) for v in m.groups())
strokes = []
for p in ET.parse(sys.argv[1]).getroot().iter(NS + "path"):
    style = dict(kv.split(":", 1) for kv in p.get("style", "").split(";") if kv)
    style.update({k: v for k, v in p.attrib.items() if k.startswith("stroke") or k == "fill"})
    if style.get("fill") != "none" or style.get("stroke", "none") == "none":
        continue
    strokes.append((colour(style["stroke"]), float(style.get("stroke-width", "1")),
                    "stroke-dasharray" in style and style["stroke-dasharray"] != "none",
                    len(re.findall("[ML]", p.get("d", ""))), p.get("d", "")))
measured = [s for s in d["series"] if s["kind"] == "measured"]
bounds = [s for s in d["series"] if s["kind"] == "bound"]
legend = [e["text"] for e in d["legend"]]
$code
EOF
  ); then ok "$name"; else out=$(printf '%s\n' "$out" | cut -c1-600); bad "$name"; fi
}

# The issue's sweep: bounds on other fields than cycles are not drawn on
# the cycles axis; each method's bound in its colour; the nodes' range.
check plot-bmmc "$CUBEMU" sweep scenarios/bmmc/compare-shuffle-two-phase.ini \
  --vary machine.dimensions=4,6,8 --vary algorithm.method=two-phase,naive \
  --plot "$T/bmmc.svg" --plot-data "$T/bmmc.json" --csv "$T/bmmc.csv"
plot_check plot-bmmc-cycles-only "$T/bmmc.svg" "$T/bmmc.json" '
assert d["title"] == "bmmc", d["title"]
assert "16..256 nodes" in d["subtitle"], d["subtitle"]
assert d["ylabel"] == "cycles", d["ylabel"]
assert [s["name"] for s in measured] == ["method=two-phase", "method=naive"], measured
assert not any(w in t for t in legend for w in ("messages =", "index words", "Lemma 3")), legend
assert max(d["y_ticks"]) <= 5000, d["y_ticks"]       # not squashed under 65536
assert any("not drawn: bounds on" in n and "messages" in n for n in d["notes"]), d["notes"]
by_name = {s["name"]: s for s in measured}
assert len(bounds) == 2 and all(b["color"] == by_name[b["bounds"]]["color"] for b in bounds), bounds
# the SVG: a dashed stroke of its colour per bound (the white edge aside),
# and a solid line per method
dashed = [s for s in strokes if s[2] and s[0] != "#ffffff" and s[3] == 3]
assert sorted(s[0] for s in dashed) == sorted(b["color"] for b in bounds), dashed
solid = [s for s in strokes if not s[2] and s[1] == 2.5 and s[3] == 3]
assert sorted(s[0] for s in solid) == sorted(s["color"] for s in measured), solid'
# --y seconds: the bounds on cycles drawn in seconds, said in the legend
check plot-seconds "$CUBEMU" sweep --set machine.preset=cm200-8k --set algorithm.name=gray-to-binary \
  --vary algorithm.elements-per-node=8,16,32 --vary algorithm.method=concurrent,sequential \
  --y seconds --plot "$T/sec.svg" --plot-data "$T/sec.json"
plot_check plot-seconds-bounds "$T/sec.svg" "$T/sec.json" '
assert d["ylabel"] == "seconds" and d["title"] == "gray-to-binary", d
assert "cm200-8k, 256 nodes" in d["subtitle"], d["subtitle"]
assert len(bounds) >= 2 and all(b["drawn"] == 3 for b in bounds), bounds
assert max(max(p[1] for p in b["points"]) for b in bounds) < 1, bounds   # seconds, not cycles
assert any("in seconds" in n for n in d["notes"]), d["notes"]'
# bounds on the plotted field that are n/a in some runs are named in the
# notes, with the reason and how many runs: the machine's memory paths
# (every sequential bound, the concurrent runs' Theorem 5) and the other
# method's bound
check plot-na-notes "$CUBEMU" sweep --set machine.preset=cm200-16k --set algorithm.name=gray-to-binary \
  --vary algorithm.elements-per-node=8,64 --vary algorithm.method=concurrent,sequential \
  --plot "$T/na.svg" --plot-data "$T/na.json"
plot_check plot-na-notes-say-why "$T/na.svg" "$T/na.json" '
notes = d["notes"]
paths = "(n/a: the machine prices memory paths, which the bound\x27s model of channels alone leaves out)"
assert "not drawn in 2 of 4 runs: Theorem 5: (n-1)(Ts + ceil(K/(n-1))) " + paths in notes, notes
assert "not drawn in 4 of 4 runs: sequential: (n-1)(Ts + K) " + paths in notes, notes
assert any(n.startswith("not drawn in 2 of 4 runs: Theorem 5") and "the concurrent method" in n for n in notes), notes
assert not any("Theorem 5" in t or t.startswith("sequential") for t in legend), legend
assert any(t.startswith("memory paths: the busiest node") for t in legend), legend'
# A bound equal to the measurement is ringed and says so; a bound the same
# for every series is drawn once, naming them; series say what they are.
check plot-equal "$CUBEMU" sweep "$GRAY" --set machine.dimensions=4 \
  --vary algorithm.elements-per-node=4,8,16,32 --vary algorithm.method=concurrent,sequential \
  --plot "$T/eq.svg" --plot-data "$T/eq.json"
plot_check plot-equal-ringed "$T/eq.svg" "$T/eq.json" '
assert [s["name"] for s in measured] == ["method=concurrent", "method=sequential"], measured
t5 = [b for b in bounds if b["name"].startswith("Theorem 5")]
assert len(t5) == 1 and len(t5[0]["equal_to_measured"]) == 4, t5
assert "Theorem 5: (n-1)(Ts + ceil(K/(n-1))) (= measured)" in legend, legend
assert "Theorem 1: Ts + ceil(K/2) (every series)" in legend, legend
shared = [b for b in bounds if b["bounds"] is None]
assert shared and all(b["color"] not in [m["color"] for m in measured] for b in shared), shared
rings = [s for s in strokes if s[1] == 1.5 and "C" in s[4]]
met = sum(len(b["equal_to_measured"]) for b in bounds)
assert len(rings) == met + sum(1 for b in bounds if b["equal_to_measured"]), (len(rings), met)'
check plot-series-labels "$CUBEMU" sweep "$GRAY" --vary algorithm.elements-per-node=4,8 \
  --vary machine.dimensions=3,4 --plot-data "$T/lab.json" --x elements-per-node
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
names = [s["name"] for s in d["series"] if s["kind"] == "measured"]
assert names == ["dimensions=3", "dimensions=4"], names
assert d["xlabel"] == "elements-per-node" and "8..16 nodes" in d["subtitle"], d' "$T/lab.json" 2>"$T/lab.err"
then ok plot-series-labels-say-what; else out=$(cat "$T/lab.err"); bad plot-series-labels-say-what; fi
# Categories (whole scenarios): points, not a line; short names; the
# algorithms in the title, not the machine's "custom"; the legend only
# for what is drawn.
check plot-categories "$CUBEMU" sweep --vary scenario=scenarios/transpose/cube-3.ini,scenarios/transpose/cube-3-pairwise.ini,scenarios/transpose/cube-3-bmmc-transpose.ini \
  --plot "$T/cat.svg" --plot-data "$T/cat.json"
plot_check plot-categories-points "$T/cat.svg" "$T/cat.json" '
assert d["x_ticks"] == ["cube-3", "cube-3-pairwise", "cube-3-bmmc-transpose"], d["x_ticks"]
assert d["title"] == "transpose and bmmc", d["title"]
assert "custom" not in d["subtitle"] and "8 nodes" in d["subtitle"], d["subtitle"]
drawn = {s["name"] for s in d["series"] if s["drawn"]}
assert len(legend) == sum(1 for s in d["series"] if s["drawn"]), (legend, drawn)
# no solid line at all: values are markers (in the legend too)
solid = [s for s in strokes if not s[2] and s[1] == 2.5]
assert solid == [] and len(measured) == 1 and measured[0]["drawn"] == 3, (solid, measured)'

echo "sweep: $passed passed, $failed failed"
[ "$failed" = 0 ]
