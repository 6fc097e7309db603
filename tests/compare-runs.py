#!/usr/bin/env python3
"""tests/compare-runs.py -- an MPI run against the emulator's, for
tests/mpi.sh (Open MPI) and tests/smpi.sh (SimGrid's SMPI).

    compare-runs.py EMU.json MPI.json NAME RANKS

Both JSON files are `run --json --dump-memory` output of the same scenario:
the emulator's (build/cubemu) and the MPI backend's (cubemu-mpi or
cubemu-smpi on RANKS ranks). Both must report data_correct (each verified
against its own reference, computed independently of the node program);
the algorithm, element type, elements per node, and every count both
backends measure must be equal: messages, element transfers, the most
elements on one channel, per class, per link (elements up and down);
the MPI report's bounds must be exactly the emulator's bounds on fields
that are not simulated time (the same value, measurement and verdict),
its details the emulator's; and every node's final memory must be equal
word for word. Prints one `ok` or `FAIL` line; exit status 1 on a
difference.
"""
import json
import re
import sys

# The fields only the emulator measures (run/report.c,
# report_field_emulator_only): simulated time and what is counted in it.
EMULATOR_ONLY = re.compile(r"^(cycles|seconds|stats\.events|time\..*|phases\..*"
                           r"|per_link\.[0-9]+\.utilisation)$")


def measured_by_mpi(bound, mpi):
    """Whether an MPI run reports the field of an emulator's bound."""
    field = bound["field"].replace("-", "_")
    if EMULATOR_ONLY.match(field):
        return False
    if field.startswith("details."):
        key = field[len("details."):]
        return any(key == k.replace("-", "_") or key.startswith(k.replace("-", "_") + ".")
                   for k in mpi.get("details", {}))
    return True


def main():
    if len(sys.argv) != 5:
        print("usage: compare-runs.py EMU.json MPI.json NAME RANKS", file=sys.stderr)
        return 2
    emu = json.load(open(sys.argv[1]))
    mpi = json.load(open(sys.argv[2]))
    name, n = sys.argv[3], int(sys.argv[4])
    problems = []
    if not mpi.get("data_correct"):
        problems.append("MPI: data_correct is false: %s" % mpi.get("data_problem"))
    if not emu.get("data_correct"):
        problems.append("emulator: data_correct is false")
    if mpi.get("machine", {}).get("nodes") != n:
        problems.append("MPI ran %s nodes, not %d"
                        % (mpi.get("machine", {}).get("nodes"), n))
    for key in ("algorithm", "element", "elements_per_node", "messages",
                "element_transfers", "max_channel_elements", "per_class"):
        if emu.get(key) != mpi.get(key):
            problems.append("%s differ: emulator %r, MPI %r"
                            % (key, emu.get(key), mpi.get(key)))
    links = [{k: v for k, v in link.items() if k != "utilisation"}
             for link in emu.get("per_link", [])]
    if links != mpi.get("per_link"):
        problems.append("per_link differs: emulator %r, MPI %r"
                        % (links, mpi.get("per_link")))
    want = [b for b in emu.get("bounds", []) if measured_by_mpi(b, mpi)]
    if want != mpi.get("bounds"):
        problems.append("bounds differ from the emulator's on what MPI measures: "
                        "emulator %r, MPI %r" % ([b["name"] for b in want],
                                                 [b["name"] for b in mpi.get("bounds", [])]))
    for k, v in mpi.get("details", {}).items():
        if emu.get("details", {}).get(k) != v:
            problems.append("details.%s differs: emulator %r, MPI %r"
                            % (k, emu.get("details", {}).get(k), v))
    a, b = emu.get("memory"), mpi.get("memory")
    if a is None or b is None or len(a) != n or len(b) != n:
        problems.append("memory missing or not %d nodes" % n)
    else:
        for x in range(n):
            if a[x] != b[x]:
                j = next((j for j in range(min(len(a[x]), len(b[x])))
                          if a[x][j] != b[x][j]), min(len(a[x]), len(b[x])))
                problems.append("node %d offset %d: emulator %r, MPI %r"
                                % (x, j, a[x][j] if j < len(a[x]) else None,
                                   b[x][j] if j < len(b[x]) else None))
                break
    if problems:
        print("FAIL %s: %s" % (name, "; ".join(problems)))
        return 1
    wall = mpi.get("timing", {}).get("wall_seconds")   # with --timing
    print("ok   %s (%d ranks, %s messages, %s element transfers, %d of %d bounds, "
          "%s forwards%s)"
          % (name, n, mpi["messages"], mpi["element_transfers"], len(want),
             len(emu["bounds"]), mpi.get("stats", {}).get("forwards"),
             "" if wall is None else ", run %.6f s" % wall))
    return 0


if __name__ == "__main__":
    sys.exit(main())
