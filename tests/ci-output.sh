#!/usr/bin/env bash
# Black-box tests of cubemu's CI output (issue #47): check --junit (JUnit
# XML), check --tap (TAP version 13) and list --json. Ends with one line
# "ci-output: N passed, N failed".
set -u
BUILD=${BUILD:-build}
CUBEMU="$BUILD/cubemu"
. "$(dirname "$0")/expect.sh"

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PASS1=scenarios/transpose/cube-3.ini
PASS2=scenarios/examples/exchange-one-port.ini
# A scenario whose expectation fails: cube-3 takes 948 cycles, not 1.
sed 's/^cycles = .*/cycles = 1/' $PASS1 > "$T/fail.ini"
FAIL="$T/fail.ini"

# --junit over two passing scenarios and one failing: exit 1, the usual
# lines on stdout, and XML with 3 testcases, 1 failure, 0 errors.
run "$CUBEMU" check $PASS1 $PASS2 "$FAIL" --junit "$T/r.xml"
junit_ok() {   # junit_ok FILE TESTS FAILURES ERRORS
  python3 - "$@" <<'PY'
import sys, xml.etree.ElementTree as ET
path, tests, failures, errors = sys.argv[1], *map(int, sys.argv[2:])
root = ET.parse(path).getroot()
assert root.tag == "testsuites", root.tag
suites = root.findall("testsuite")
assert len(suites) == 1
s = suites[0]
assert s.get("name") == "cubemu check"
assert int(s.get("tests")) == tests and int(s.get("failures")) == failures \
    and int(s.get("errors")) == errors, s.attrib
float(s.get("time"))
cases = s.findall("testcase")
assert len(cases) == tests
for c in cases:
    assert c.get("classname") == "cubemu.check" and c.get("name")
    float(c.get("time"))
assert len(s.findall("testcase/failure")) == failures
assert len(s.findall("testcase/error")) == errors
for f in s.findall("testcase/failure") + s.findall("testcase/error"):
    assert f.get("message") and f.text
PY
}
if [ "$rc" = 1 ] && [[ "$out" == *"ok   $PASS1 (cycles 948)"* ]] && [[ "$out" == *"FAIL $FAIL:"* ]] \
   && junit_ok "$T/r.xml" 3 1 0 \
   && grep -q "expected cycles == 1, measured 948</failure>" "$T/r.xml"; then
  ok junit-failure; else bad junit-failure; fi

# A scenario that cannot be loaded is an <error>, exit 2.
run "$CUBEMU" check $PASS1 "$T/none.ini" --junit "$T/e.xml"
if [ "$rc" = 2 ] && junit_ok "$T/e.xml" 2 0 1 \
   && grep -q "cannot read: No such file or directory</error>" "$T/e.xml"; then
  ok junit-error; else bad junit-error; fi

# Text needing XML escapes (a path with & and <) stays well-formed.
cp "$FAIL" "$T/a&b<c.ini"
run "$CUBEMU" check "$T/a&b<c.ini" --junit "$T/x.xml"
if [ "$rc" = 1 ] && junit_ok "$T/x.xml" 1 1 0; then
  ok junit-escape; else bad junit-escape; fi

# A path that cannot be written is refused before any run (no "ok" line);
# a write that fails (a file size limit of 0) leaves the previous file.
expect junit-bad-path 2 "cubemu check: /nonexistent/x.xml: cannot write: No such file or directory" -- \
  "$CUBEMU" check $PASS1 --junit /nonexistent/x.xml
cp "$T/r.xml" "$T/keep.xml"
run bash -c 'ulimit -f 0; exec "$@"' - "$CUBEMU" check $PASS1 --junit "$T/r.xml"
if [ "$rc" = 2 ] && [[ "$out" == *"$T/r.xml: cannot write: "* ]] && cmp -s "$T/r.xml" "$T/keep.xml"; then
  ok junit-keeps-previous; else bad junit-keeps-previous; fi

# --junit -: the XML alone on stdout, the usual lines on stderr.
xml=$("$CUBEMU" check $PASS1 $PASS2 --junit - 2>"$T/err"); rc=$?
out="$xml"
if [ "$rc" = 0 ] && printf '%s\n' "$xml" > "$T/s.xml" && junit_ok "$T/s.xml" 2 0 0 \
   && grep -q "^2 passed, 0 failed$" "$T/err"; then
  ok junit-stdout; else bad junit-stdout; fi
expect junit-stdout-tap 2 "cubemu check: --tap and --junit - both write to standard output: give --junit a FILE" -- \
  "$CUBEMU" check $PASS1 --tap --junit -
expect junit-twice 2 "cubemu check: --junit given twice: it takes one value" -- \
  "$CUBEMU" check $PASS1 --junit "$T/1.xml" --junit "$T/2.xml"

# --tap: version, plan, one line per scenario, a YAML block for a failure;
# exit status as without it.
tap_ok() {   # tap_ok PLAN OK NOT-OK < TAP
  python3 -c '
import sys
plan, n_ok, n_not = map(int, sys.argv[1:])
lines = sys.stdin.read().splitlines()
assert lines[0] == "TAP version 13", lines[0]
assert lines[1] == "1..%d" % plan, lines[1]
oks = [l for l in lines if l.startswith("ok ")]
nots = [l for l in lines if l.startswith("not ok ")]
assert len(oks) == n_ok and len(nots) == n_not, (oks, nots)
assert all(" # cycles " in l for l in oks)
nums = [int(l.split()[1 if l.startswith("ok") else 2]) for l in lines
        if l.startswith(("ok ", "not ok "))]
assert nums == list(range(1, plan + 1)), nums
for i, l in enumerate(lines):
    if l.startswith("not ok "):
        assert lines[i + 1] == "  ---", lines[i + 1]
        end = lines.index("  ...", i)
        assert any(x.startswith("  message: ") for x in lines[i + 2:end])
' "$@"
}
run "$CUBEMU" check $PASS1 "$FAIL" $PASS2 --tap
if [ "$rc" = 1 ] && printf '%s\n' "$out" | tap_ok 3 2 1 \
   && [[ "$out" == *"ok 1 - $PASS1 # cycles 948"* ]] && [[ "$out" == *"severity: fail"* ]]; then
  ok tap; else bad tap; fi
run "$CUBEMU" check $PASS1 "$T/none.ini" --tap
if [ "$rc" = 2 ] && printf '%s\n' "$out" | tap_ok 2 1 1 && [[ "$out" == *"severity: error"* ]]; then
  ok tap-error; else bad tap-error; fi

# The default output is unchanged.
expect check-default 1 "ok   $PASS1 (cycles 948)
FAIL $FAIL: $FAIL:15: expected cycles == 1, measured 948
1 passed, 1 failed" -- "$CUBEMU" check $PASS1 "$FAIL"

# list --json: one JSON object with every algorithm and preset plain list
# shows, the topologies and the trace export formats.
"$CUBEMU" list > "$T/list.txt"
run "$CUBEMU" list --json
if [ "$rc" = 0 ] && printf '%s\n' "$out" | python3 -c '
import json, re, sys
d = json.load(sys.stdin)
text = open(sys.argv[1]).read()
algos = re.findall(r"^  ([a-z0-9-]+): ", text.split("\nTopologies")[0], re.M)
presets = re.findall(r"^  (\S+)", text.split("\nMachine presets (machines/)\n")[1], re.M)
topos = re.findall(r"^  (\S+)", text.split("\nTopologies (machines/)\n")[1].split("\n\n")[0], re.M)
assert algos and presets and topos
assert [a["name"] for a in d["algorithms"]] == algos, algos
assert [p["name"] for p in d["presets"]] == presets, presets
assert [t["name"] for t in d["topologies"]] == topos, topos
for a in d["algorithms"]:
    assert a["methods"] and a["methods"][0]["default"]
    assert a["default_method"] == a["methods"][0]["name"]
    for p in a["parameters"]:
        assert p["kind"] in ("integer", "choice", "text")
        if p["kind"] == "integer": assert p["min"] <= p["max"]
        if p["kind"] == "choice": assert p["values"]
assert "chrome" in d["trace_formats"]["formats"]
assert "perfetto" in d["trace_formats"]["names"]
' "$T/list.txt"; then ok list-json; else bad list-json; fi
expect list-bad-arg 2 "cubemu list: Unknown option --jsn" -- "$CUBEMU" list --jsn
expect list-extra-arg 2 "cubemu list: unexpected argument 'algorithms'" -- "$CUBEMU" list algorithms
expect_has list-help 0 "  --json           Print one JSON object" -- "$CUBEMU" list --help

echo "ci-output: $passed passed, $failed failed"
[ "$failed" = 0 ]
