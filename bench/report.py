#!/usr/bin/env python3
"""bench/report.py -- make bench-report: the recorded benchmark results
(bench/results.tsv, written by make bench; bench/record.h says the columns)
as tables.

  bench/report.py                 the latest run: every case and figure
  bench/report.py --run N         the Nth latest run instead (1 = latest)
  bench/report.py --runs          one line per recorded run
  bench/report.py --section TEXT  only the tables whose section (a case's
                                  text before ': ') contains TEXT
  bench/report.py --history TEXT  every run's figures whose case or metric
                                  contains TEXT, one column a run
  bench/report.py --file FILE     another results file
  bench/report.py --targets       the targets of the latest run that
                                  recorded any (a script run alone, such
                                  as make bench-loggopsim, records none;
                                  or --run N's);
                                  exit status 1 if one was missed
                                  (make bench-targets)

A run is the rows that share date, commit and machine. Exit status 2 for a
missing or malformed file, with its name and line.
"""
import argparse
import csv
import signal
import sys

COLUMNS = ["date", "commit", "machine", "case", "metric", "value", "unit"]


def fail(message):
    print("bench-report: " + message, file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        f = open(path, newline="")
    except OSError as e:
        fail("%s: cannot read: %s (make bench writes it)" % (path, e.strerror))
    with f:
        reader = csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(reader, None)
        if header != COLUMNS:
            fail("%s:1: expected the header %s" % (path, "\\t".join(COLUMNS)))
        rows = []
        for line, r in enumerate(reader, start=2):
            if len(r) != len(COLUMNS):
                fail("%s:%d: %d fields, expected %d" % (path, line, len(r), len(COLUMNS)))
            try:
                value = float(r[5])
            except ValueError:
                fail("%s:%d: value '%s' is not a number" % (path, line, r[5]))
            rows.append(dict(zip(COLUMNS, r), value=value))
    return rows


def runs_of(rows):
    """The runs in the order they were recorded (the file is appended to)."""
    order, by = [], {}
    for r in rows:
        key = (r["date"], r["commit"], r["machine"])
        if key not in by:
            by[key] = []
            order.append(key)
        by[key].append(r)
    return order, by


def number(v, unit):
    if unit == "met":
        return "met" if v else "NOT MET"
    if v == int(v) and abs(v) < 1e15:
        text = "{:,}".format(int(v))
    elif abs(v) >= 100:
        text = "{:,.1f}".format(v)
    else:
        text = "{:.4g}".format(v)
    return text + (" " + unit if unit and unit != "x" else ("x" if unit == "x" else ""))


def table(head, body):
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    line = lambda cells: "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()
    print(line(head))
    print(line(["-" * w for w in widths]))
    for b in body:
        print(line(b))


def section_of(row):
    """The case's text before ': ', else "cases"."""
    return row["case"].rpartition(": ")[0] or "cases"


def show_run(key, rows, only=None):
    """One table a section (the case's text before ': ', else "cases"): a
    row a case, a column a metric; only the sections containing ONLY when
    it is given."""
    print("run %s, commit %s, %s" % key)
    sections = []
    for r in rows:
        section, case = section_of(r), r["case"].rpartition(": ")[2]
        if only is not None and only not in section:
            continue
        if section not in [s[0] for s in sections]:
            sections.append((section, [], [], {}))
        _, cases, metrics, values = next(s for s in sections if s[0] == section)
        if case not in cases:
            cases.append(case)
        if r["metric"] not in metrics:
            metrics.append(r["metric"])
        values[case, r["metric"]] = number(r["value"], r["unit"])
    for section, cases, metrics, values in sections:
        print()
        print(section)
        table(["case"] + metrics,
              [[c] + [values.get((c, m), "-") for m in metrics] for c in cases])


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # | head ends it quietly
    ap = argparse.ArgumentParser(description="The recorded benchmark results as tables.")
    ap.add_argument("--file", default="bench/results.tsv")
    ap.add_argument("--run", type=int, default=None)
    ap.add_argument("--runs", action="store_true")
    ap.add_argument("--section", metavar="TEXT")
    ap.add_argument("--history", metavar="TEXT")
    ap.add_argument("--targets", action="store_true")
    a = ap.parse_args()
    rows = load(a.file)
    order, by = runs_of(rows)
    if not order:
        fail("%s: no run recorded yet (make bench records one)" % a.file)
    if a.runs:
        table(["#", "date", "commit", "machine", "figures"],
              [[len(order) - i, k[0], k[1], k[2], len(by[k])] for i, k in enumerate(order)])
        return
    if a.history:
        keys = []
        for r in rows:
            k = (r["case"], r["metric"])
            if (a.history in r["case"] or a.history in r["metric"]) and k not in keys:
                keys.append(k)
        if not keys:
            fail("--history %s: no case or metric contains it" % a.history)
        cells = {}
        for k in order:
            for r in by[k]:
                cells[(r["case"], r["metric"]), k] = number(r["value"], r["unit"])
        table(["case", "metric"] + ["%s %s" % (k[0][:10], k[1]) for k in order],
              [[c, m] + [cells.get(((c, m), k), "-") for k in order] for c, m in keys])
        return
    if a.run is None:
        # --targets judges the latest run that has targets: a script run
        # alone (make bench-loggopsim, say) records a run without any
        with_targets = [i for i, k in enumerate(order)
                        if any(r["case"].startswith("targets: ") for r in by[k])]
        a.run = len(order) - with_targets[-1] if a.targets and with_targets else 1
    if not 1 <= a.run <= len(order):
        fail("--run %d: %d runs recorded (valid: 1..%d)" % (a.run, len(order), len(order)))
    key = order[-a.run]
    if a.targets:
        targets = [r for r in by[key] if r["case"].startswith("targets: ")]
        if not targets:
            fail("run %d (%s, %s) recorded no targets" % (a.run, key[0], key[1]))
        missed = [r["case"][len("targets: "):] for r in targets if not r["value"]]
        print("run %s, commit %s, %s: %d of %d targets met"
              % (key + (len(targets) - len(missed), len(targets))))
        for m in missed:
            print("  NOT MET: " + m)
        sys.exit(1 if missed else 0)
    if a.section is not None and not any(a.section in section_of(r) for r in by[key]):
        fail("--section %s: no section of run %d contains it" % (a.section, a.run))
    show_run(key, by[key], a.section)


if __name__ == "__main__":
    main()
