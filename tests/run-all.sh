#!/usr/bin/env bash
# Runs every test: the Check suites in $BUILD/tests and their margins to
# their timeouts (tests/margins.sh), every scenario under
# scenarios/ through `cubemu check`, the command-line regression script,
# the traces/viewer script (tests/traces.sh), recording runs as schedules
# (tests/record.sh), fault injection
# (tests/faults.sh), the report of a machine with faults
# (tests/faults-report.sh), memory limits (tests/limits.sh), the limits that stop
# node programs that never finish (tests/run-limits.sh), Theorem 3's delta = 8 types
# (tests/thm3.sh), the fuzz harnesses over their seed corpora and
# regressions (tests/fuzz.sh), make bench's per-algorithm script in its
# smoke mode (tests/bench-smoke.sh), the CM-200 model against Mathur &
# Johnsson's Tables 1, 3 and 6 (tests/cm200-tables.sh), and that nothing in
# the tree needs a path outside it (tests/self-contained.sh).
# Prints each part's output and ends with one line: "N passed, N failed".
set -u
BUILD=${BUILD:-build}
unit_only=${1:-}
passed=0
failed=0

# tally NAME PREFIX: add the counts of the last line of $out, which must read
# "PREFIXN passed, N failed"; a missing summary counts as one failure.
tally() {
  local last p f
  last=$(printf '%s\n' "$out" | tail -n 1)
  p=$(sed -nE "s/^$2([0-9]+) passed, ([0-9]+) failed\$/\\1/p" <<<"$last")
  f=$(sed -nE "s/^$2([0-9]+) passed, ([0-9]+) failed\$/\\2/p" <<<"$last")
  if [ -z "$p" ]; then echo "FAIL $1: no summary (exit $rc)"; failed=$((failed + 1))
  else passed=$((passed + p)); failed=$((failed + f)); fi
}

# script PATH PREFIX: run a black-box test script, print what it says but
# its "ok" lines, and count its closing "PREFIXN passed, N failed".
script() {
  out=$(BUILD="$BUILD" "$1" 2>&1); rc=$?
  printf '%s\n' "$out" | grep -v '^ok ' | tail -n 40
  tally "$1" "$2"
}

# Each suite leaves its timeouts and Check's XML log, every test's
# duration, in $timings (tests/check_main.h) for the margin check below.
timings=$BUILD/tests/timings
rm -rf "$timings"; mkdir -p "$timings"
for t in "$BUILD"/tests/check_*; do
  [ -x "$t" ] || continue
  out=$(CUBEMU_CHECK_TIMINGS="$timings" "$t" 2>&1); rc=$?
  printf '%s\n' "$out" | tail -n 20
  line=$(printf '%s\n' "$out" | grep -E '^[0-9]+%: Checks: ' | tail -n 1)
  if [ -z "$line" ]; then
    echo "FAIL $t: no Check summary (exit $rc)"; failed=$((failed + 1)); continue
  fi
  checks=$(sed -E 's/.*Checks: ([0-9]+).*/\1/' <<<"$line")
  bad=$(sed -E 's/.*Failures: ([0-9]+), Errors: ([0-9]+).*/\1+\2/' <<<"$line")
  bad=$((bad))
  passed=$((passed + checks - bad)); failed=$((failed + bad))
  [ "$rc" = 0 ] || [ "$bad" -gt 0 ] || { echo "FAIL $t: exit $rc"; failed=$((failed + 1)); }
done

# Margins (tests/margins.sh): every Check test above within half of its
# effective timeout in this build, a check per test; the checker's own
# cases first, so that it can fail.
script tests/margins.sh "margins: "

if [ "$unit_only" != "--unit-only" ]; then
  mapfile -t scen < <(find scenarios -name '*.ini' | sort)
  # two at a time: check -j prints what one at a time prints, and a run
  # that ends its process is that scenario's FAIL line, the rest checked
  out=$("$BUILD"/cubemu check -j 2 "${scen[@]}" 2>&1); rc=$?
  printf '%s\n' "$out"
  tally "cubemu check" ""

  script tests/cli.sh "cli: "
  # check --junit/--tap and list --json (tests/ci-output.sh); export
  # names, cubemu list's ranges, headless frames (tests/small-fixes.sh)
  script tests/ci-output.sh "ci-output: "
  script tests/small-fixes.sh "small-fixes: "
  # the progress line: on a terminal only, erased, --progress, --quiet,
  # results unchanged, check's and sweep's "i of n" (tests/progress.sh)
  script tests/progress.sh "progress: "
  script tests/perfetto.sh "perfetto: "
  # make install into a staging DESTDIR, the installed programs from another
  # folder, man pages, completion, pkg-config, make uninstall (tests/install.sh)
  script tests/install.sh "install: "
  # Node programs (tests/sdk.sh): the installed <cubemu/program.h> and
  # cubemu-program.pc, the examples built out of the tree and run, checked,
  # swept, traced and viewed through the installed cubemu, verification,
  # every refusal of a program, and the built-in shift as a loaded program
  script tests/sdk.sh "sdk: "
  # Every algorithm on a broken machine (tests/broken-machine.sh): each
  # scenario but the largest (named, with the reason) with 1 and c - 1
  # random dead links verifies, with cycles never below the whole
  # machine's (the cases that are, named with why); timed faults and
  # fault-policy = refuse on a case timed by hand
  script tests/broken-machine.sh "broken-machine: "
  # The JSON report against docs/report.schema.json (tests/schema.sh): every
  # algorithm's report and cubemu-mpi's, identical reruns, shortest numbers
  script tests/schema.sh "schema: "
  # Recording runs as schedules (tests/record.sh): every scenario but the
  # largest recorded as GOAL and, where exact, replayed to the same
  # cycles, messages and element transfers; the SDK examples; SimGrid's
  # time-independent trace and platform replayed by SMPI where installed
  script tests/record.sh "record: "
  # make bench's per-algorithm script (bench/algorithms.sh) in its smoke
  # mode, on small cubes: every case verified, recorded and read back by
  # bench/report.py; a wrong or stopped run misses its targets
  script tests/bench-smoke.sh "bench-smoke: "
  # Mathur & Johnsson's Tables 1, 3 and 6 (tests/cm200-tables.sh): the
  # transcription's own consistency, the smallest cells rerun by
  # tools/cm200-tables.py against the committed results, the README's
  # generated block byte for byte (not the issue's targets)
  script tests/cm200-tables.sh "cm200-tables: "
  # The LogGP model against LogGOPSim's committed per-host finish times
  # (tests/loggp.sh, tests/data/loggopsim/), and its refusals
  script tests/loggp.sh "loggp: "
  # Nothing in the tree needs a path outside it (tests/self-contained.sh):
  # every tracked file searched, and the search seen to fail on a scratch
  # tree with such references planted
  script tests/self-contained.sh "self-contained: "
fi

# Traces, exports, the headless viewer and sweeps: also with --unit-only, so
# that make sanitize runs the viewer and the trace reader under ASan/UBSan.
script tests/traces.sh "traces: "

# Sweeps (tests/sweep.sh): ranges, checks before any run, failed runs as
# rows, -j, rows committed as runs finish, plots; also under ASan/UBSan.
script tests/sweep.sh "sweep: "

# Fault injection (tests/faults.sh): every writer against a full device, a
# file size limit, a folder, a read-only folder and signals; also with
# --unit-only, so that make sanitize runs it under ASan/UBSan.
script tests/faults.sh "faults: "

# What the report says about a machine's faults (tests/faults-report.sh):
# the faults listed, detours counted, fault-free bounds n/a with the
# reason, the route bound, --compare-faultless, the JSON against its
# schema, [expect] and sweeps on faults.*; also with --unit-only, so that
# make sanitize runs the report's fault code under ASan/UBSan.
script tests/faults-report.sh "faults-report: "

# Memory limits (tests/limits.sh): ulimit -v below what a run, a traced
# run, a matmul or an export needs, and forged traces of 2^26 nodes; the
# ulimit cases skip themselves under ASan, which reserves address space.
script tests/limits.sh "limits: "

# The limits that stop node programs that never finish
# (tests/run-limits.sh): --tick-limit and --wall-limit of run, check and
# sweep on the registry's scenarios; also with --unit-only, so that make
# sanitize runs the timer's handler under ASan/UBSan.
script tests/run-limits.sh "run-limits: "

# Theorem 3 with delta = 8 on every shape: the linear typing of
# build/tools/thm3-types against the 16-cube's enumeration and the classes
# (tests/thm3.sh); also with --unit-only, under the sanitizers.
script tests/thm3.sh "thm3: "

# The fuzz harnesses over their seeds and regressions (tests/fuzz.sh), with
# the driver instead of libFuzzer: also with --unit-only, so that make
# sanitize runs every regression under ASan/UBSan.
script tests/fuzz.sh "fuzz: "

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
