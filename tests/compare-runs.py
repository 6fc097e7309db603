#!/usr/bin/env python3
"""tests/compare-runs.py -- an MPI run against the emulator's, for
tests/mpi.sh (Open MPI) and tests/smpi.sh (SimGrid's SMPI).

    compare-runs.py EMU.json MPI.json NAME RANKS

Both JSON files are `run --json --dump-memory` output of the same scenario:
the emulator's (build/cubemu) and the MPI backend's (cubemu-mpi or
cubemu-smpi on RANKS ranks). Both must report data_correct (each verified
against its own reference, computed independently of the node program);
the algorithm, element type, elements per node and message count must be
equal, and every node's final memory must be equal word for word. Prints
one `ok` or `FAIL` line; exit status 1 on a difference.
"""
import json
import sys


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
    for key in ("algorithm", "element", "elements_per_node", "messages"):
        if emu.get(key) != mpi.get(key):
            problems.append("%s differ: emulator %r, MPI %r"
                            % (key, emu.get(key), mpi.get(key)))
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
    print("ok   %s (%d ranks, %s messages, %s forwards%s)"
          % (name, n, mpi["messages"], mpi.get("stats", {}).get("forwards"),
             "" if wall is None else ", run %.6f s" % wall))
    return 0


if __name__ == "__main__":
    sys.exit(main())
