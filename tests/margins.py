#!/usr/bin/env python3
"""tests/margins.py -- every Check test against half of its effective timeout
(run by tests/margins.sh, which tests/run-all.sh runs after the suites).

    margins.py DIR             check the logs the suites wrote to DIR
    margins.py --compare A B   the slowest tests of A's logs, B's time / A's

A suite run with CUBEMU_CHECK_TIMINGS=DIR (tests/check_main.h) leaves
DIR/PROGRAM.timeouts, a line per test case "CASE<tab>TIMEOUT<tab>MULTIPLIER"
(the case's timeout in seconds and the CK_TIMEOUT_MULTIPLIER Check scaled
it by), and DIR/PROGRAM.xml, Check's XML log, which holds each test's
duration: the test function's own wall time, from Check's clock, one entry
per iteration of a loop test (each has the case's timeout to itself).

A test passes when it took at most half of its effective timeout, TIMEOUT
x MULTIPLIER: the other half is the room a loaded machine, a slower one,
and what Check's timer sees beyond the test (fork, fixtures, exit, the
leak check of a sanitized child) may take. A failure names the test, its
time and its limit:

    FAIL engine/model/link_tables_stand_for_arrays: 2.70 s, over its limit
    of 2 s, half of its 4 s timeout (4 s x CK_TIMEOUT_MULTIPLIER 1)

A test whose case has no row in the table fails too (its case was not made
by ck_tcase), and so do a table without its log and a log that does not
parse. A test without a duration (it failed, or its timeout expired) is
Check's to count, not this check's. Prints the failures, then the tests
closest to their limits, then "N passed, N failed" (a test each); exit
status 1 on a failure, 2 on bad usage.

--compare A B: for the tests that took at least COMPARE_FLOOR seconds in A,
slowest first, their time in A and in B and the ratio, then the median
ratio: plain against sanitized logs is how the sanitized build's timeout
factor is chosen (Makefile, SAN_TIMEOUT_FACTOR).
"""
import glob
import os
import statistics
import sys
import xml.etree.ElementTree as ET

NS = "{http://check.sourceforge.net/ns}"
# A test may take this share of its effective timeout.
MARGIN = 0.5
# How many of the tests closest to their limits are printed.
CLOSEST = 3
# --compare leaves out tests faster than this in the first logs, whose
# ratios measure Check's own overhead and its clock rather than the test.
COMPARE_FLOOR = 0.1


def seconds(x):
    """A time for messages: whole seconds as such, else two decimals."""
    return "%g" % x if x == int(x) else "%.2f" % x


def read_log(path):
    """Check's XML log at PATH: a list of (suite, case, test, iteration,
    duration) with duration None where Check gave none."""
    tests = []
    root = ET.parse(path).getroot()
    for suite in root.iter(NS + "suite"):
        title = suite.findtext(NS + "title")
        for t in suite.iter(NS + "test"):
            duration = float(t.findtext(NS + "duration"))
            tests.append((title, t.findtext(NS + "description"),
                          t.findtext(NS + "id"),
                          int(t.findtext(NS + "iteration")),
                          duration if duration >= 0 else None))
    return tests


def read_table(path):
    """PATH's table: {case: (timeout, multiplier)}."""
    table = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            fields = line.rstrip("\n").split("\t")
            try:
                if len(fields) != 3:
                    raise ValueError
                table[fields[0]] = (float(fields[1]), float(fields[2]))
            except ValueError:
                raise ValueError("%s line %d: not CASE<tab>TIMEOUT<tab>"
                                 "MULTIPLIER" % (os.path.basename(path),
                                                 number)) from None
    return table


def name(test, looped):
    suite, case, fn, iteration, _ = test
    text = "%s/%s/%s" % (suite, case, fn)
    return text + ("[%d]" % iteration if looped else "")


def check(folder):
    failures, closest = [], []
    passed = 0
    tables = sorted(glob.glob(os.path.join(folder, "*.timeouts")))
    if not tables:
        failures.append("FAIL %s: no suite's timeouts (run the suites with "
                        "CUBEMU_CHECK_TIMINGS=%s)" % (folder, folder))
    for table_path in tables:
        log_path = table_path[:-len(".timeouts")] + ".xml"
        program = os.path.basename(log_path)[:-len(".xml")]
        if not os.path.exists(log_path):
            failures.append("FAIL %s: no log %s.xml beside its timeouts (the "
                            "suite did not finish)" % (program, program))
            continue
        try:
            table = read_table(table_path)
            tests = read_log(log_path)
        except (OSError, TypeError, ValueError) as e:
            failures.append("FAIL %s: %s" % (program, e))
            continue
        except ET.ParseError as e:
            failures.append("FAIL %s: %s.xml: %s" % (program, program, e))
            continue
        runs = {}
        for t in tests:
            runs[t[1:3]] = runs.get(t[1:3], 0) + 1
        for t in tests:
            label = name(t, runs[t[1:3]] > 1)
            if t[1] not in table:
                failures.append("FAIL %s: its case has no timeout in %s "
                                "(make it with ck_tcase, tests/check_main.h)"
                                % (label, os.path.basename(table_path)))
                continue
            duration = t[4]
            if duration is None:
                continue
            timeout, multiplier = table[t[1]]
            effective = timeout * multiplier
            if effective == 0:               # Check's timer is off
                passed += 1
                continue
            limit = effective * MARGIN
            if duration > limit:
                failures.append("FAIL %s: %s s, over its limit of %s s, half "
                                "of its %s s timeout (%s s x "
                                "CK_TIMEOUT_MULTIPLIER %g)"
                                % (label, "%.2f" % duration, seconds(limit),
                                   seconds(effective), seconds(timeout),
                                   multiplier))
            else:
                passed += 1
            closest.append((duration / limit, label, duration, limit))
    for f in failures:
        print(f)
    closest.sort(reverse=True)
    for share, label, duration, limit in closest[:CLOSEST]:
        print("closest: %s: %.2f s of its %s s limit (%d%%)"
              % (label, duration, seconds(limit), round(100 * share)))
    print("%d passed, %d failed" % (passed, len(failures)))
    return 1 if failures else 0


def durations(folder):
    """{(suite, case, test, iteration): seconds} of every log in FOLDER."""
    found = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.xml"))):
        for t in read_log(path):
            if t[4] is not None:
                found[t[:4]] = t[4]
    return found


def compare(first, second):
    a, b = durations(first), durations(second)
    rows = sorted(((a[k], b[k], k) for k in a
                   if k in b and a[k] >= COMPARE_FLOOR), reverse=True)
    for x, y, k in rows:
        print("%8.2f s %8.2f s %6.1fx  %s/%s/%s[%d]" % ((x, y, y / x) + k))
    if rows:
        print("median of %d: %.1fx" % (len(rows), statistics.median(
            y / x for x, y, _ in rows)))
    return 0


def main(argv):
    if len(argv) == 2 and not argv[1].startswith("-"):
        return check(argv[1])
    if len(argv) == 4 and argv[1] == "--compare":
        return compare(argv[2], argv[3])
    print("usage: margins.py DIR | margins.py --compare DIR DIR",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
