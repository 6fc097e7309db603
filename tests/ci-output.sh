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

# ---- check -j N: the bytes of -j 1 ------------------------------------------
# Scenarios that pass, fail (tests/data/cli/failing.ini, $FAIL) and cannot
# be read, in an order where later ones finish first: whatever N, the same
# standard output and error and exit status as one at a time (in this
# process); TAP and JUnit XML the same but for the seconds measured.
D=tests/data/cli
SLOWER=scenarios/matmul/table5-cm200-8k-256.ini
JOBS_SET=("$SLOWER" $PASS1 $D/failing.ini "$T/none.ini" $PASS2 "$FAIL"
          scenarios/paper/johnsson-ho-figure4.ini scenarios/paper/johnsson-ho-figure5-seq0.ini)
# mask_times FILE: FILE with the seconds of JUnit XML and TAP masked
mask_times() { sed -E 's/time="[0-9.]+"/time="S"/g; s/^(  duration_seconds:) [0-9.]+$/\1 S/' "$1"; }
# same_masked NAME A B: the differences between files A and B, times masked
same_masked() {
  cmp -s <(mask_times "$2") <(mask_times "$3") \
    || printf '\n%s: %s' "$1" "$(diff <(mask_times "$2") <(mask_times "$3"))"
}
# jobs_same NAME STATUS [--junit] ARG...: check ARG... exits STATUS with
# -j 1, and -j 2, -j 4, -j3 (as make writes it) and --jobs=8 print the
# same, times masked (with --junit: and write the same XML, to $T/jN.xml)
jobs_same() {
  local name=$1 status=$2 junit=no j xml1=() xmln=(); shift 2
  if [ "$1" = --junit ]; then junit=yes; shift; xml1=(--junit "$T/j1.xml"); xmln=(--junit "$T/jn.xml"); fi
  "$CUBEMU" check -j 1 "$@" "${xml1[@]}" >"$T/j1.out" 2>"$T/j1.err"; local rc1=$?
  out="" rc=$rc1
  [ "$rc1" = "$status" ] || out="-j 1: exit $rc1, expected $status"
  for j in "-j 2" "-j 4" "-j3" "--jobs=8"; do
    rm -f "$T/jn.xml"
    "$CUBEMU" check $j "$@" "${xmln[@]}" >"$T/jn.out" 2>"$T/jn.err"; rc=$?
    [ "$rc" = "$rc1" ] || out+=$'\n'"$j: exit $rc, -j 1 $rc1"
    out+=$(same_masked "$j: stdout" "$T/j1.out" "$T/jn.out")
    out+=$(same_masked "$j: stderr" "$T/j1.err" "$T/jn.err")
    [ $junit = no ] || out+=$(same_masked "$j: JUnit" "$T/j1.xml" "$T/jn.xml")
  done
  if [ -z "$out" ]; then ok "$name"; else bad "$name"; fi
}
jobs_same check-jobs-lines 2 "${JOBS_SET[@]}"
expect check-jobs-lines-text 2 "ok   $SLOWER (cycles 1409110)
ok   $PASS1 (cycles 948)
FAIL $D/failing.ini: $D/failing.ini:10: expected cycles < 12, measured 12
FAIL $T/none.ini: $T/none.ini: cannot read: No such file or directory
ok   $PASS2 (cycles 74)
FAIL $FAIL: $FAIL:15: expected cycles == 1, measured 948
ok   scenarios/paper/johnsson-ho-figure4.ini (cycles 3)
ok   scenarios/paper/johnsson-ho-figure5-seq0.ini (cycles 3)
5 passed, 3 failed" -- "$CUBEMU" check -j 4 "${JOBS_SET[@]}"
jobs_same check-jobs-fail-status 1 "$SLOWER" $D/failing.ini $PASS1
jobs_same check-jobs-pass-status 0 $PASS2 $PASS1 scenarios/paper/johnsson-ho-figure4.ini
jobs_same check-jobs-tap 2 --tap "${JOBS_SET[@]}"
jobs_same check-jobs-junit 2 --junit "${JOBS_SET[@]}"
if junit_ok "$T/jn.xml" 8 2 1; then ok check-jobs-junit-counts; else out=$(cat "$T/jn.xml"); bad check-jobs-junit-counts; fi
jobs_same check-jobs-junit-stdout 2 "${JOBS_SET[@]}" --junit -
jobs_same check-jobs-set 1 "$SLOWER" $PASS1 --set "expect.cycles=< 200"
# -j 1..256 scenarios at once, the flag named; given once
for v in 0 -1 257; do
  expect "check-jobs-bad-'$v'" 2 "cubemu check: -j $v: expected 1..256 scenarios at once" -- \
    "$CUBEMU" check $PASS1 -j "$v"
done
expect check-jobs-bad-abc 2 "cubemu check: Cannot parse integer value “abc” for -j" -- \
  "$CUBEMU" check $PASS1 -j abc
expect check-jobs-bad-fraction 2 "cubemu check: Cannot parse integer value “1.5” for --jobs" -- \
  "$CUBEMU" check $PASS1 --jobs 1.5
expect check-jobs-twice 2 "cubemu check: -j given twice: it takes one value" -- \
  "$CUBEMU" check $PASS1 -j 2 -j 3
# The line counts the scenarios that have ended, drawn by check itself.
CUBEMU_PROGRESS_DELAY=0 "$CUBEMU" check -j 2 --progress "$SLOWER" $PASS1 $PASS2 \
  >"$T/p.out" 2>"$T/p.err"; rc=$?
out=$(cat -v "$T/p.err")
if [ "$rc" = 0 ] && grep -q "check: scenario 0 of 3 done, 2 running" "$T/p.err" \
   && ! grep -q "tick" "$T/p.err" && [ "$(cat "$T/p.out")" = "ok   $SLOWER (cycles 1409110)
ok   $PASS1 (cycles 948)
ok   $PASS2 (cycles 74)
3 passed, 0 failed" ]; then ok check-jobs-progress; else bad check-jobs-progress; fi

# A scenario whose process ends without a result: one at a time it ends
# the check, as it always has; with -j N it is that scenario's error,
# naming how its process ended and its last line, and the check goes on.
# Here a node program that aborts (built as tests/sdk.sh builds them).
cat >"$T/crash.c" <<'EOF'
#include <cubemu/program.h>
#include <stdio.h>
#include <stdlib.h>
static const cubemu_method methods[] = { { "abort", "gives up" }, { NULL, NULL } };
static const cubemu_param params[] = { { .key = NULL } };
static void *prepare(const cubemu_machine *m, cubemu_params *p, cubemu_layout *l)
{
    (void)m; (void)p;
    l->memory_elements = l->elements_per_node = 1;
    l->element = CUBEMU_WORD;
    return malloc(1);
}
static void init(const void *c, uint32_t x, cubemu_word *mem) { (void)c; mem[0] = x; }
static int step(cubemu_node *n, const void *c)
{
    (void)n; (void)c;
    fprintf(stderr, "crash: giving up\n");
    abort();
}
static void expect(const void *c, uint32_t x, cubemu_word *e) { (void)c; e[0] = x; }
CUBEMU_PROGRAM(.name = "crash", .needs = CUBEMU_NEEDS_DIMENSIONS, .methods = methods,
               .params = params, .prepare = prepare, .release = free, .init = init,
               .step = step, .expect = expect);
EOF
printf '[machine]\npreset = cube\ndimensions = 2\n[algorithm]\nprogram = ./crash.so\n[expect]\ndata = correct\n' \
  >"$T/crash.ini"
if out=$(${CC:-cc} -std=c11 -Wall -shared -fPIC -Isdk "$T/crash.c" -o "$T/crash.so" 2>&1); then
  run env LC_ALL=C "$CUBEMU" check $PASS1 "$T/crash.ini" $PASS2
  if [ "$rc" = 134 ] && [ "$out" = "ok   $PASS1 (cycles 948)
crash: giving up" ]; then ok check-crash-one-at-a-time; else bad check-crash-one-at-a-time; fi
  env LC_ALL=C "$CUBEMU" check -j 2 $PASS1 "$T/crash.ini" $PASS2 --junit "$T/crash.xml" \
    >"$T/crash.out" 2>"$T/crash.err"; rc=$?
  out="$(cat "$T/crash.out"; echo ---; cat "$T/crash.err")"
  if [ "$rc" = 2 ] && [ "$(cat "$T/crash.out")" = "ok   $PASS1 (cycles 948)
FAIL $T/crash.ini: crash: giving up (the run's process ended with killed by signal 6 (Aborted))
ok   $PASS2 (cycles 74)
2 passed, 1 failed" ] && [ "$(cat "$T/crash.err")" = "crash: giving up" ] \
     && junit_ok "$T/crash.xml" 3 0 1; then ok check-jobs-crash; else bad check-jobs-crash; fi
else
  bad "build the test's program crash.c"
fi
# A --wall-limit that ends a scenario's process (while it is prepared)
# is that scenario's error; the JUnit file is written whole all the same
# (the processes never see its temporary file) and nothing is left over.
M=scenarios/fft/mesh-1d.ini
mkdir "$T/w"
printf 'previous\n' >"$T/w/check.xml"
"$CUBEMU" check -j 2 $M $M $M --wall-limit 0.000001 --junit "$T/w/check.xml" \
  >"$T/w.out" 2>"$T/w.err"; rc=$?
out="$(cat "$T/w.out"; ls -A "$T/w")"
STOPPED="$M: the run passed --wall-limit 0.000001 outside the engine's event loop, while the run was being prepared or verified"
if [ "$rc" = 2 ] && [ "$(cat "$T/w.out")" = "FAIL $M: $STOPPED (the run's process ended with exit status 2)
FAIL $M: $STOPPED (the run's process ended with exit status 2)
FAIL $M: $STOPPED (the run's process ended with exit status 2)
0 passed, 3 failed" ] && [ "$(ls -A "$T/w")" = check.xml ] && junit_ok "$T/w/check.xml" 3 0 3; then
  ok check-jobs-wall-limit; else bad check-jobs-wall-limit; fi

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
