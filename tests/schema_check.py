#!/usr/bin/env python3
"""tests/schema_check.py -- the JSON report against docs/report.schema.json
(run by tests/schema.sh, which compiles FORMATTER and picks the python3
that has the jsonschema module).

    schema_check.py BUILD SCHEMA [FORMATTER]

Cases, each printed as "ok ..." or "FAIL ...":
  - the schema is a valid draft 2020-12 schema and every property in it
    has a description;
  - FORMATTER (util/json_writer.c's json_format_double on fixed values)
    prints the shortest text that reads back exactly;
  - for every algorithm of `cubemu list --json`, one scenario under
    scenarios/ per method (the first in path order whose [algorithm] names
    it): the report validates, two runs print the same bytes, no number has
    more digits than it needs and none integral is printed as a fraction,
    the keys come in the schema's order, --pretty parses to the same value
    (in Python's json.dumps(indent=2) layout), and --timing adds exactly
    "timing" and still validates;
  - every scenario of tests/data/mpi with --dump-memory (word, double and
    complex memory), a run with tick-seconds (seconds, 1e-07 printed as
    such), --pretty/--timing without --json refused;
  - reports with a field removed, of the wrong type, or in the schema 3
    shape fail validation (so this test can fail);
  - with mpirun and BUILD/cubemu-mpi: MPI reports validate, are identical
    between runs, and agree with the emulator's on every field both have
    (their bounds and details a subset of the emulator's); else "skip".
Ends with "schema: N passed, M failed"; exit status 1 on a failure.
"""
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    jsonschema = None

TIMEOUT = 60
passed = failed = 0


def ok(what):
    global passed
    passed += 1
    print("ok " + what)


def fail(what, why):
    global failed
    failed += 1
    print("FAIL %s: %s" % (what, why))


def run(argv, timeout=TIMEOUT):
    """(exit status, stdout, stderr) of argv."""
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", "timed out after %d s" % timeout
    return p.returncode, p.stdout.decode("utf-8", "replace"), \
        p.stderr.decode("utf-8", "replace")


# ---- numbers ----------------------------------------------------------------

def significant(text):
    """Significant digits of a number's text: '1e-07' 1, '0.25' 2."""
    mantissa = re.split("[eE]", text)[0].lstrip("-").replace(".", "")
    return len(mantissa.strip("0")) or 1


def number_problems(text):
    """Numbers in a JSON text with more digits than they need, or integral
    values below 2^53 printed as fractions."""
    problems = []

    def on_float(s):
        v = float(s)
        if v == int(v) and abs(v) < 2 ** 53:
            problems.append("%s is integral but not printed as an integer" % s)
        elif significant(s) > significant(repr(v)):
            problems.append("%s has %d significant digits, %s needs %d"
                            % (s, significant(s), repr(v), significant(repr(v))))
        return v
    json.loads(text, parse_float=on_float)
    return problems


# ---- the schema -------------------------------------------------------------

def undescribed(schema, defs, path="#"):
    """Properties (at any depth) without a description of their own or in
    the definition they refer to; conditional refinements (if/then/else) of
    a described property are not new properties."""
    missing = []
    if isinstance(schema, dict):
        for name, sub in schema.get("properties", {}).items():
            if sub is False:
                continue
            desc = isinstance(sub, dict) and "description" in sub
            ref = isinstance(sub, dict) and sub.get("$ref", "")
            if not desc and ref.startswith("#/$defs/"):
                desc = "description" in defs.get(ref[len("#/$defs/"):], {})
            if not desc:
                missing.append("%s/properties/%s" % (path, name))
        for key, sub in schema.items():
            # if/then/else refine fields described where they are defined
            if isinstance(sub, (dict, list)) and key not in ("if", "then", "else"):
                missing += undescribed(sub, defs, "%s/%s" % (path, key))
    elif isinstance(schema, list):
        for i, sub in enumerate(schema):
            missing += undescribed(sub, defs, "%s/%d" % (path, i))
    return missing


def errors(validator, report):
    return ["%s: %s" % ("/".join(map(str, e.absolute_path)) or "(top)",
                        e.message[:200])
            for e in validator.iter_errors(report)]


def order_problems(schema, report):
    """Keys of the report (and its machine and bounds) out of the schema's
    order."""
    problems = []

    def check(keys, order, where):
        known = [k for k in keys if k in order]
        if known != sorted(known, key=order.index):
            problems.append("%s keys %s not in the schema's order" % (where, keys))
    check(list(report), list(schema["properties"]), "top-level")
    check(list(report.get("machine", {})),
          list(schema["$defs"]["machine"]["properties"]), "machine")
    for b in report.get("bounds", []):
        check(list(b), list(schema["$defs"]["bound"]["properties"]), "bound")
    return problems


# ---- scenarios --------------------------------------------------------------

def ini_section(path, section):
    """The keys of [SECTION] of an INI file and their values, comments
    left out."""
    keys, current = {}, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            m = re.match(r"^\[(.*)\]$", line)
            if m:
                current = m.group(1).strip()
                continue
            m = re.match(r"^([\w.-]+)\s*=\s*([^#;]*?)\s*([#;].*)?$", line)
            if current == section and m:
                keys[m.group(1)] = m.group(2)
    return keys


def scenario_algorithm(path):
    """[algorithm]'s name and method of a scenario file (None if absent)."""
    keys = ini_section(path, "algorithm")
    return keys.get("name"), keys.get("method")


def scenario_topology(path):
    """The topology a scenario's [machine] names, itself or through its
    preset (machines/PRESET.ini); None if neither does."""
    keys = ini_section(path, "machine")
    if "topology" in keys:
        return keys["topology"]
    preset = os.path.join("machines", keys.get("preset", "") + ".ini")
    return ini_section(preset, "machine").get("topology") if "preset" in keys \
        and os.path.exists(preset) else None


def report_case(cubemu, schema, validator, path, extra=()):
    """Run a scenario's report every way; the problems found, and the
    report."""
    problems = []
    base = [cubemu, "run", path, "--json"] + list(extra)
    rc, one, err = run(base)
    if rc != 0:
        return ["exit %s: %s" % (rc, err.strip()[:300])], None
    try:
        report = json.loads(one)
    except ValueError as e:
        return ["not JSON: %s" % e], None
    problems += errors(validator, report)
    problems += order_problems(schema, report)
    problems += number_problems(one)
    if one.count("\n") != 1 or not one.endswith("\n"):
        problems.append("the compact report is not one line")
    rc, two, err = run(base)
    if two != one:
        problems.append("a second identical run printed different bytes")
    rc, pretty, err = run(base + ["--pretty"])
    if rc != 0 or json.loads(pretty) != report:
        problems.append("--pretty does not parse to the same value")
    elif pretty != json.dumps(report, indent=2, ensure_ascii=False) + "\n":
        problems.append("--pretty is not in the json.dumps(indent=2) layout")
    rc, timed, err = run(base + ["--timing"])
    if rc != 0:
        problems.append("--timing: exit %s" % rc)
    else:
        t = json.loads(timed)
        problems += ["--timing: " + e for e in errors(validator, t)]
        if "timing" not in t:
            problems.append("--timing printed no timing")
        else:
            t.pop("timing")
            if t != report:
                problems.append("--timing changed more than timing")
    return problems, report


def negative_cases(validator, emu, mpi):
    """Broken reports that must not validate: (what, report)."""
    def changed(report, change):
        r = json.loads(json.dumps(report))
        change(r)
        return r
    cases = [
        ("without cycles", changed(emu, lambda r: r.pop("cycles"))),
        ("without messages", changed(emu, lambda r: r.pop("messages"))),
        ("with cycles a string", changed(emu, lambda r: r.update(cycles=str(r["cycles"])))),
        ("with data_correct a number", changed(emu, lambda r: r.update(data_correct=1))),
        ("of schema 3", changed(emu, lambda r: r.update(schema=3))),
        ("with stats.wall_seconds (schema 3's)",
         changed(emu, lambda r: r["stats"].update(wall_seconds=0.5))),
        ("with an unknown key", changed(emu, lambda r: r.update(extra=1))),
        ("with machine.nodes removed", changed(emu, lambda r: r["machine"].pop("nodes"))),
        ("with a detail that is a list of strings",
         changed(emu, lambda r: r["details"].update(bad=["a"]))),
        ("claiming backend mpi with the emulator's cycles",
         changed(emu, lambda r: r.update(backend="mpi"))),
        ("with timing lacking wall_seconds", changed(emu, lambda r: r.update(timing={}))),
    ]
    if emu["bounds"]:
        cases += [
            ("with a bound without measured",
             changed(emu, lambda r: r["bounds"][0].pop("measured"))),
            ("with a bound's holds a string",
             changed(emu, lambda r: r["bounds"][0].update(holds="yes"))),
            ("with a bound that does not apply but has a value",
             changed(emu, lambda r: r["bounds"][0].update(applies=False, holds=None,
                                                          reason="another case's"))),
            ("with a bound that does not apply and no reason",
             changed(emu, lambda r: r["bounds"][0].update(applies=False, holds=None,
                                                          value=None, reason=None))),
            ("with a bound that applies and a reason",
             changed(emu, lambda r: r["bounds"][0].update(reason="why"))),
            ("with compared missing its cycles",
             changed(emu, lambda r: r.update(compared={"set": ["machine.ports=one"],
                 "element_transfers": 1, "messages": 1, "data_correct": True,
                 "bounds_hold": True}))),
        ]
    if mpi is not None:
        cases += [
            ("mpi without stats.forwards", changed(mpi, lambda r: r["stats"].pop("forwards"))),
            ("mpi with cycles", changed(mpi, lambda r: r.update(cycles=0))),
            ("mpi without element_transfers",
             changed(mpi, lambda r: r.pop("element_transfers"))),
            ("mpi with a link's utilisation",
             changed(mpi, lambda r: r["per_link"][0].update(utilisation=0.5))),
            ("mpi with the emulator's stats", changed(mpi, lambda r: r.update(stats={"events": 1}))),
        ]
    for what, report in cases:
        if errors(validator, report):
            ok("negative: a report %s is refused" % what)
        else:
            fail("negative: a report %s" % what, "it validates")


# ---- MPI --------------------------------------------------------------------

def mpi_cases(build, cubemu, validator):
    """Reports of cubemu-mpi; the last one, for the negative cases."""
    mpi = os.path.join(build, "cubemu-mpi")
    mpirun = shutil.which("mpirun")
    if not mpirun:
        print("skip mpi: no mpirun on PATH")
        return None
    if not os.access(mpi, os.X_OK):
        print("skip mpi: %s was not built (no MPI when make ran)" % mpi)
        return None
    launch = [mpirun, "--oversubscribe"]
    if os.geteuid() == 0:
        launch.append("--allow-run-as-root")
    last = None
    for path in ["tests/data/mpi/matmul-4x4x4-cube-1.ini",
                 "tests/data/mpi/rank1-cube-2-complex.ini",
                 "tests/data/mpi/bmmc-transpose-cube-1.ini",
                 "tests/data/mpi/transpose-complete-2-pairwise.ini"]:
        what = "mpi " + path
        rc, out, err = run([cubemu, "run", path, "--json", "--dump-memory"])
        if rc != 0:
            fail(what, "the emulator: exit %s: %s" % (rc, err.strip()[:300]))
            continue
        emu = json.loads(out)
        cmd = launch + ["-np", str(emu["machine"]["nodes"]), mpi, "run", path,
                        "--json", "--dump-memory"]
        rc, one, err = run(cmd)
        if rc != 0:
            fail(what, "exit %s: %s" % (rc, err.strip()[:300]))
            continue
        problems = []
        report = json.loads(one)
        problems += errors(validator, report)
        problems += number_problems(one)
        if report.get("backend") != "mpi":
            problems.append("backend is %r" % report.get("backend"))
        rc, two, err = run(cmd)
        if two != one:
            problems.append("a second identical run printed different bytes")
        rc, timed, err = run(cmd + ["--timing", "--pretty"])
        t = json.loads(timed) if rc == 0 else {}
        problems += ["--timing: " + e for e in errors(validator, t)] if t else \
            ["--timing --pretty: exit %s" % rc]
        if t and (t.pop("timing", None) is None or t != report):
            problems.append("--timing --pretty is not the report and timing")
        for key in report:
            if key in ("backend", "bounds", "details", "stats"):
                continue
            want = emu.get(key)
            if key == "per_link":     # utilisation is the emulator's only
                want = [{k: v for k, v in link.items() if k != "utilisation"}
                        for link in want]
            if want != report[key]:
                problems.append("%s differs from the emulator's" % key)
        for b in report.get("bounds", []):
            if b not in emu["bounds"]:
                problems.append("bound %r is not the emulator's" % b["name"])
        for k, v in report.get("details", {}).items():
            if emu["details"].get(k) != v:
                problems.append("details.%s differs from the emulator's" % k)
        if problems:
            fail(what, "; ".join(problems))
        else:
            ok("%s: valid, identical twice, the emulator's where both measure "
               "(%d bounds, %d details kept)" % (what, len(report["bounds"]),
                                                 len(report["details"])))
        last = report
    return last


# ---- main -------------------------------------------------------------------

def formatter_case(formatter):
    """util/json_writer.c's json_format_double on fixed values: each line of
    FORMATTER's output is "NAME %a TEXT"."""
    expected = {
        "0.1": "0.1", "1e-7": "1e-07", "1/3": "0.3333333333333333",
        "2^-1074": "5e-324", "1e300": "1e+300", "-0.0": "-0",
        "2^53": "9007199254740992", "2^53-1": "9007199254740991",
        "1.5": "1.5", "-2.5e-300": "-2.5e-300",
        "DBL_MAX": "1.7976931348623157e+308", "nan": "null", "inf": "null",
        "100.25": "100.25", "1e16+2": "10000000000000002",
        "1e22": "1e+22", "0.000123": "0.000123",
    }
    rc, out, err = run([formatter])
    if rc != 0:
        fail("formatter", "exit %s: %s" % (rc, err.strip()))
        return
    problems, seen = [], set()
    for line in out.splitlines():
        name, hexa, text = line.split(" ")
        seen.add(name)
        want = expected.get(name)
        if text != want:
            problems.append("%s prints %s, not %s" % (name, text, want))
        if text != "null":
            v, back = float.fromhex(hexa), float(text)
            if struct.pack("<d", v) != struct.pack("<d", back):
                problems.append("%s: %s does not read back as %s" % (name, text, hexa))
    if seen != set(expected):
        problems.append("values missing: %s" % sorted(set(expected) - seen))
    if problems:
        fail("formatter", "; ".join(problems))
    else:
        ok("formatter: %d values in their shortest exact text (%s)"
           % (len(expected), ", ".join(expected[k] for k in
                                       ("0.1", "1e-7", "1/3", "2^-1074", "1e300", "-0.0"))))


def main():
    if len(sys.argv) not in (3, 4):
        print("usage: schema_check.py BUILD SCHEMA [FORMATTER]", file=sys.stderr)
        return 2
    build, schema_path = sys.argv[1], sys.argv[2]
    cubemu = os.path.join(build, "cubemu")
    if len(sys.argv) == 4:
        formatter_case(sys.argv[3])
    if jsonschema is None:
        fail("jsonschema", "%s has no jsonschema module (Debian: apt-get "
             "install python3-jsonschema)" % sys.executable)
        print("schema: %d passed, %d failed" % (passed, failed))
        return 1
    schema = json.load(open(schema_path))
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
        missing = undescribed(schema, schema.get("$defs", {}))
        if missing:
            fail("schema", "no description: " + ", ".join(missing))
        else:
            ok("schema: valid draft 2020-12, every property described")
    except jsonschema.SchemaError as e:
        fail("schema", e.message)
        print("schema: %d passed, %d failed" % (passed, failed))
        return 1
    validator = jsonschema.Draft202012Validator(schema)

    rc, out, err = run([cubemu, "list", "--json"])
    if rc != 0:
        fail("list", "exit %s: %s" % (rc, err.strip()))
        print("schema: %d passed, %d failed" % (passed, failed))
        return 1
    algorithms = json.loads(out)["algorithms"]
    default = {a["name"]: next(m["name"] for m in a["methods"] if m["default"])
               for a in algorithms}
    picks = {}
    for path in sorted(glob.glob("scenarios/**/*.ini", recursive=True)):
        name, method = scenario_algorithm(path)
        if name in default:
            picks.setdefault((name, method or default[name]), path)
    emulator_report = None
    for a in algorithms:
        pairs = sorted(k for k in picks if k[0] == a["name"])
        if not pairs:
            fail("run " + a["name"], "no scenario under scenarios/ runs it")
        for pair in pairs:
            what = "run %s/%s (%s)" % (pair[0], pair[1], picks[pair])
            problems, report = report_case(cubemu, schema, validator, picks[pair])
            if problems:
                fail(what, "; ".join(problems))
            else:
                ok(what + ": valid, identical twice, shortest numbers, "
                   "--pretty and --timing agree")
                if report["bounds"] and (emulator_report is None
                                         or len(report["bounds"])
                                         > len(emulator_report["bounds"])):
                    emulator_report = report

    # A report of every topology `cubemu list` names, from the first
    # scenario that runs on it.
    done = set(picks.values())
    for t in json.loads(out)["topologies"]:
        path = next((p for p in sorted(glob.glob("scenarios/**/*.ini",
                                                 recursive=True))
                     if scenario_topology(p) == t["name"]), None)
        if path is None:
            fail("topology " + t["name"], "no scenario under scenarios/ runs "
                 "on it")
        elif path not in done:
            problems, report = report_case(cubemu, schema, validator, path)
            if problems:
                fail("topology %s (%s)" % (t["name"], path), "; ".join(problems))
            else:
                ok("topology %s (%s): valid" % (t["name"], path))
        else:
            ok("topology %s (%s): valid, above" % (t["name"], path))

    problems, count = [], 0
    for path in sorted(glob.glob("tests/data/mpi/*.ini")):
        rc, out, err = run([cubemu, "run", path, "--json", "--dump-memory"])
        count += 1
        if rc != 0:
            problems.append("%s: exit %s" % (path, rc))
            continue
        report = json.loads(out)
        problems += ["%s: %s" % (path, e) for e in errors(validator, report)]
        problems += ["%s: %s" % (path, e) for e in number_problems(out)]
        if len(report.get("memory", [])) != report["machine"]["nodes"] or any(
                len(m) != report["elements_per_node"] for m in report["memory"]):
            problems.append("%s: memory is not nodes x K" % path)
    if problems:
        fail("tests/data/mpi --dump-memory", "; ".join(problems[:10]))
    else:
        ok("tests/data/mpi --dump-memory: %d reports valid (word, double and "
           "complex memory)" % count)

    rc, out, err = run([cubemu, "run", "tests/data/mpi/matmul-8x8x8-cube-2.ini",
                        "--json", "--set", "machine.tick-seconds=1e-7"])
    problems = [] if rc == 0 else ["exit %s: %s" % (rc, err.strip()[:300])]
    if rc == 0:
        report = json.loads(out)
        problems += errors(validator, report) + number_problems(out)
        if '"tick_seconds":1e-07' not in out:
            problems.append("tick_seconds is not printed 1e-07")
        if "seconds" not in report or not all("seconds" in p for p in report["phases"]):
            problems.append("no seconds with tick-seconds")
    if problems:
        fail("tick-seconds", "; ".join(problems))
    else:
        ok("tick-seconds=1e-7: valid, printed 1e-07, seconds and phase seconds present")

    # the default run compares itself with the CM-200's memory paths;
    # --compare on a machine without tick-seconds has no seconds
    for argv, what in (([cubemu, "run", "--json"], "the default run"),
                       ([cubemu, "run", "scenarios/paper/johnsson-ho-figure4.ini",
                         "--json", "--compare", "machine.element-time=3"],
                        "--compare machine.element-time=3")):
        rc, out, err = run(argv)
        problems = [] if rc == 0 else ["exit %s: %s" % (rc, err.strip()[:300])]
        if rc == 0:
            report = json.loads(out)
            problems += errors(validator, report) + number_problems(out)
            if "compared" not in report:
                problems.append("no compared")
        if problems:
            fail(what, "; ".join(problems))
        else:
            ok("%s: valid, with compared" % what)

    for flag in ("--pretty", "--timing"):
        rc, out, err = run([cubemu, "run", flag])
        want = "cubemu run: %s shapes the JSON report: give --json too\n" % flag
        if rc == 2 and err == want and out == "":
            ok("%s without --json is refused" % flag)
        else:
            fail("%s without --json" % flag, "exit %s: %r" % (rc, err))

    mpi_report = mpi_cases(build, cubemu, validator)
    if emulator_report is None:
        fail("negative", "no valid report with bounds to break")
    else:
        negative_cases(validator, emulator_report, mpi_report)

    print("schema: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
