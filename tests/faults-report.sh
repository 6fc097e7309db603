#!/usr/bin/env bash
# tests/faults-report.sh -- what the report says about a machine's faults
# (machine.faults; docs/report.md, "Faults"): the faults listed, the
# detoured messages and extra links counted, the fault-free bounds marked
# n/a with the faults as the reason, the route-length bound checked,
# --compare-faultless's line, the JSON against its schema, [expect] on
# the faults.* fields, and bad fault specs refused naming --set or
# file:line. (tests/faults.sh is about output files surviving crashes,
# not about machine faults.) Ends with "faults-report: N passed, N failed".
set -u
BUILD=${BUILD:-build}
. "$(dirname "$0")/expect.sh"
scratch faults-report

# The case worked by hand. The sequential exchange on the 2-cube (nodes
# 0..3, Ts = 0, Tw = 1: the cube preset), K = 4, with the link 0-1
# (dimension 0) dead. Fault-free it takes n (Ts + K) = 8 cycles and 2 x 4
# x 4 = 32 element transfers.
# Step 0 (dimension 0): node 0's message to 1 is detoured by Lee & Hayes's
# scheme through the spare dimension 1: 0 -> 2 -> 3 -> 1, 3 links where 1
# was asked (H + 2 = 3: the scheme holds, nothing given up); node 1's
# goes 1 -> 3 -> 2 -> 0. So 2 messages detoured, 2 x 2 = 4 extra links,
# at most 2 for one, and 32 + 2 x 2 x 4 = 48 element transfers. Node 0 is
# posted first (address order at tick 0), so the oldest message first:
# its elements take 0->2 over [0,4), 2->3 over [1,5), 3->1 over [2,6),
# and node 1's likewise, both done at 6. Node 2's own message to 3 gets
# 2->3 for its first element in [0,1), then waits for node 0's detour
# until 5: done at 8 (and node 3's the same).
# Step 1 (dimension 1): node 0 starts at 6 and sends to 2 over [6,10);
# node 2 starts at 8 and sends to 0 over [8,12) (node 1's detour freed
# 2->0 at 6). The run ends at 12 cycles: +4 (+50%) against 8.
EX=("$CUBEMU" run --set machine.preset=cube --set machine.dimensions=2
    --set algorithm.name=exchange --set algorithm.elements-per-node=4)

run "${EX[@]}" --set machine.faults=0-1
want_lines=(
  "machine       cube: cube, n = 2 (4 nodes, diameter 2), ports = all, startup = 0, element-time = 1, faults = 0-1 (detour)"
  "  cycles                12"
  "  element transfers     48"
  "  messages              8"
  "  faults                0-1: 1 link, 0 one-way channels, 0 timed, 0 dead nodes; fault-policy = detour"
  "  detoured              2 messages, 4 extra links (at most 2 for one message); the scheme gave up on 0 routes"
)
missing=
for l in "${want_lines[@]}"; do
  grep -qxF -- "$l" <<<"$out" || missing="$missing
$l"
done
if [ "$rc" = 0 ] && [ -z "$missing" ]; then ok table-faults
else printf '  missing:%s\n' "$missing"; bad table-faults; fi
table=$out

# Both of the exchange's bounds are the fault-free machine's: n/a, with
# the faults as the reason, the measured values still printed.
reason="      n/a: the machine has faults: the bound is the fault-free machine's"
bounds=$(grep -A2 -E '^  (n\(Ts \+ K\)|element transfers) +exact ' <<<"$table")
want_bounds="  n(Ts + K)                                                    exact             -           12  n/a
      on cycles: n exchanges of K elements, one dimension at a time
$reason
  element transfers                                            exact             -           48  n/a
      on element_transfers: every element crosses one channel per exchange
$reason"
if [ "$bounds" = "$want_bounds" ]; then ok bounds-na-with-faults
else printf '  expected:\n%s\n' "$want_bounds"; out=$bounds; bad bounds-na-with-faults; fi

# The route guarantee, checked: at most 2 links beyond the path asked.
if grep -qxF "  route length: links beyond the path asked, one message       upper             2            2  yes" <<<"$table"
then ok route-bound-holds; else out=$table; bad route-bound-holds; fi

# Without faults: no faults lines, no route bound, the bounds apply; and
# machine.faults = none is the same run, byte for byte.
run "${EX[@]}"
if [ "$rc" = 0 ] && ! grep -q -e faults -e detoured -e "route length" <<<"$out" \
   && grep -qxF "  cycles                8" <<<"$out" \
   && grep -qE '^  n\(Ts \+ K\) +exact +8 +8  yes$' <<<"$out"
then ok table-without-faults; else bad table-without-faults; fi
plain=$("$CUBEMU" run --json --set machine.preset=cube --set machine.dimensions=2 \
        --set algorithm.name=exchange --set algorithm.elements-per-node=4)
run "${EX[@]}" --json --set machine.faults=none
if [ "$rc" = 0 ] && [ "$out" = "$plain" ] && [[ "$plain" != *'"faults"'* ]]
then ok faults-none-same-bytes; else bad faults-none-same-bytes; fi

# --compare-faultless: the line, in place of the compared line.
run "${EX[@]}" --set machine.faults=0-1 --compare-faultless
if [ "$rc" = 0 ] && grep -qxF "  faults: +4 cycles (+50%) against the same run without them; 2 messages detoured, 4 extra links" <<<"$out" \
   && ! grep -q "^  compared" <<<"$out"
then ok compare-faultless-line; else bad compare-faultless-line; fi
# --compare machine.faults=none is the same comparison.
run "${EX[@]}" --set machine.faults=0-1 --compare machine.faults=none
if [ "$rc" = 0 ] && grep -qxF "  faults: +4 cycles (+50%) against the same run without them; 2 messages detoured, 4 extra links" <<<"$out"
then ok compare-faults-none-line; else bad compare-faults-none-line; fi
expect compare-faultless-no-faults 2 "cubemu run: --compare-faultless: default's machine has no faults (machine.faults): nothing to compare" -- \
  "${EX[@]}" --compare-faultless
expect compare-faultless-and-compare 2 "cubemu run: --compare-faultless is --compare machine.faults=none: give one of them" -- \
  "${EX[@]}" --set machine.faults=0-1 --compare-faultless --compare machine.ports=1

# The JSON: the faults object exactly, the bounds' reasons, the route
# bound, the schema.
PY=
for p in ${PYTHON:-} python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import jsonschema' 2>/dev/null; then PY=$p; break; fi
done
run "${EX[@]}" --set machine.faults=0-1 --compare-faultless --json
if [ "$rc" = 0 ] && printf '%s' "$out" | "${PY:-python3}" -c '
import json, sys
d = json.load(sys.stdin)
assert d["schema"] == 8, d["schema"]
want = {"spec": "0-1", "list": "0-1", "links": 1, "channels": 0, "timed": 0,
        "dead_nodes": 0, "policy": "detour", "detoured": 2, "extra_links": 4,
        "extra_links_max": 2, "routes_given_up": 0,
        "faultless": {"cycles": 8, "extra_cycles": 4, "extra_percent": 50}}
assert d["faults"] == want, d["faults"]
assert list(d).index("faults") == list(d).index("data_correct") + 1
assert d["compared"]["set"] == ["machine.faults=none"], d["compared"]
assert d["compared"]["cycles"] == 8, d["compared"]
reason = "the machine has faults: the bound is the fault-free machine'"'"'s"
b = {x["name"]: x for x in d["bounds"]}
for n, m in (("n(Ts + K)", 12), ("element transfers", 48)):
    assert b[n]["applies"] is False and b[n]["value"] is None, b[n]
    assert b[n]["holds"] is None and b[n]["reason"] == reason, b[n]
    assert b[n]["measured"] == m, b[n]
r = b["route length: links beyond the path asked, one message"]
assert (r["field"], r["kind"], r["value"], r["measured"], r["applies"],
        r["holds"], r["reason"]) == ("faults.extra_links_max", "upper", 2,
                                     2, True, True, None), r
try:
    import jsonschema
except ImportError:
    sys.exit(0)
jsonschema.validate(d, json.load(open("docs/report.schema.json")))
'; then ok json-faults; else bad json-faults; fi

# Where the scheme gives up. The 3-cube with 1-5, 4-5 and 4-6 dead
# (random:3:3 draws them): node 4's one live link is to 0, node 5's to 7.
# Dimension 0: 4 <-> 5 can only go 4 -> 0 -> ... -> 7 -> 5, 1 + 3 + 1 = 5
# links, beyond H + 2 = 3: the scheme gives up for the shortest
# surviving path, twice (both ways), 4 extra links each. Dimension 1:
# 4 -> 0 -> 2 -> 6 and back, dimension 2: 1 -> 3 -> 7 -> 5 and back, 3
# links each, 2 extra. So 6 detoured, 2 x 4 + 4 x 2 = 16 extra links, at
# most 4, 2 routes given up; the route bound is then n/a.
run "$CUBEMU" run --json --set machine.preset=cube --set machine.dimensions=3 \
  --set algorithm.name=exchange --set machine.faults=random:3:3
if [ "$rc" = 0 ] && printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
f = d["faults"]
got = (f["spec"], f["list"], f["links"], f["detoured"], f["extra_links"],
       f["extra_links_max"], f["routes_given_up"])
assert got == ("random:3:3", "1-5, 4-5, 4-6", 3, 6, 16, 4, 2), got
r = [x for x in d["bounds"] if x["field"] == "faults.extra_links_max"]
assert len(r) == 1 and r[0]["applies"] is False and r[0]["measured"] == 4, r
assert r[0]["reason"].startswith("the scheme gave up on 2 routes for the "
                                 "shortest surviving path"), r
'; then ok scheme-gave-up; else bad scheme-gave-up; fi

# [expect] on the faults.* fields, in a scenario file (run and check).
cat > "$T/ex.ini" <<'EOF'
[machine]
preset = cube
dimensions = 2
faults = 0-1
[algorithm]
name = exchange
elements-per-node = 4
[expect]
cycles = == 12
faults.links = == 1
faults.detoured = == 2
faults.extra_links = == 4
faults.extra_links_max = == 2
faults.routes_given_up = == 0
bounds = hold
EOF
check expect-faults-pass "$CUBEMU" check "$T/ex.ini"
sed 's/^faults.detoured = == 2$/faults.detoured = == 3/' "$T/ex.ini" > "$T/ex-wrong.ini"
expect_has expect-faults-wrong 1 "ex-wrong.ini:11: expected faults.detoured == 3, measured 2" -- \
  "$CUBEMU" check "$T/ex-wrong.ini"
# No faults: every faults.* field is 0, so the expectations of a broken
# machine fail on a whole one, the first named with its line.
grep -v '^faults = ' "$T/ex.ini" > "$T/ex-none.ini"
expect_has expect-faults-no-faults 1 "ex-none.ini:8: expected cycles == 12, measured 8" -- \
  "$CUBEMU" check "$T/ex-none.ini"

# A sweep's columns: the faults.* fields, 0 where there are none.
sed '/^\[expect\]$/,$d' "$T/ex-none.ini" > "$T/sweep.ini"
run "$CUBEMU" sweep "$T/sweep.ini" --vary machine.faults=none,0-1 --quiet \
  --csv "$T/sweep.csv"
if [ "$rc" = 0 ] && python3 - "$T/sweep.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["faults.detoured"] for r in rows] == ["0", "2"], rows
assert [r["faults.extra_links"] for r in rows] == ["0", "4"], rows
assert [r["cycles"] for r in rows] == ["8", "12"], rows
EOF
then ok sweep-faults-columns; else bad sweep-faults-columns; fi

# Bad fault specs: exit 2, naming --set or the file and line.
expect bad-faults-set 2 "cubemu run: --set machine.faults=0-9: faults: '0-9': node 9 is not in this machine (nodes 0..3) (syntax: U-V, U>V, U-V@T1..T2, node:U, random:K:SEED, random-nodes:K:SEED; docs/faults.md)" -- \
  "${EX[@]}" --set machine.faults=0-9
# A draw of more links than the machine has, the noun agreeing with one.
expect bad-faults-random-one-link 2 "cubemu run: --set machine.faults=random:2:1: faults: 'random:2:1': this machine has 1 link (syntax: U-V, U>V, U-V@T1..T2, node:U, random:K:SEED, random-nodes:K:SEED; docs/faults.md)" -- \
  "$CUBEMU" run --set machine.preset=cube --set machine.dimensions=1 \
  --set algorithm.name=exchange --set machine.faults=random:2:1
sed 's/^faults = 0-1$/faults = 0-3/' "$T/ex.ini" > "$T/ex-bad.ini"
expect_has bad-faults-file 2 "cubemu run: $T/ex-bad.ini:4: faults: '0-3': " -- \
  "$CUBEMU" run "$T/ex-bad.ini"

# cubemu list names the syntax, the policies and the fields.
run "$CUBEMU" list
if [ "$rc" = 0 ] && grep -qxF "  machine.fault-policy: detour, refuse (the first is the default)" <<<"$out" \
   && grep -qxF "  random:K:SEED        K links, both channels, drawn reproducibly" <<<"$out" \
   && grep -qxF "  report fields (0 without faults): faults.links, faults.channels, faults.timed, faults.dead_nodes, faults.detoured, faults.extra_links, faults.extra_links_max, faults.routes_given_up" <<<"$out"
then ok list-faults; else bad list-faults; fi

echo "faults-report: $passed passed, $failed failed"
[ "$failed" = 0 ]
