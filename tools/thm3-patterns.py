#!/usr/bin/env python3
"""tools/thm3-patterns.py -- step-local slot patterns for two-path reshaping.

    tools/thm3-patterns.py lp DELTA K [window] > patterns.lp
    cbc patterns.lp solve solu solution.txt        (any LP-format MIP solver)
    tools/thm3-patterns.py table DELTA K solution.txt [window] > table.txt
    tools/thm3-patterns.py search DELTA K WORKDIR > table.txt     (runs cbc)
    tools/thm3-patterns.py rows DELTA K PROFILE WORKDIR > table.txt (cbc)
    tools/thm3-patterns.py check FROM TO N table.txt
    tools/thm3-patterns.py random COUNT SEED table.txt
    tools/thm3-patterns.py schedule FROM TO N table.txt TURN > schedule.txt

The question (see algorithms/reshape/README.md, "Where the timetable misses Theorem 3"): with
h = ceil(K/(2 delta)) = 2 and K = 4 delta, does the proof's own routing (delta
sets of K/delta per node, set m crossing d_{(m + turn t) mod delta} in step
t, each element directly or on its 2-cube's detour j+1, j, j+1) reach Theorem
3's delta h + 1 = K/2 + 1 cycles if only the timing within a step is
changed, and the timing is a rule every node can apply locally?

The rule tried here: in step t a 4-node group of 2-cube {j, j+1} carries one
set; its exchanging pair sends the set's K/delta elements over a fixed set of
slots, e (the edge, departing cycle c, arriving c + 1) and h (the detour,
departing c, arriving c + 3), chosen from a table indexed by t and by the
group's boundary types sigma: for each of the delta - 1 step boundaries,
whether the group's exchanging edge stays (S) or changes (H, a hand-over).
Every node can compute sigma for its groups from the shapes alone (it is
what the hand-over schedule already computes per boundary). Element k of a
set always takes slot k of the row, so a node never needs to know where the
elements it holds have been.

lp writes an integer program for such a table: every (t, sigma) has K/delta
slots, the group's eight channels are used at most once per cycle (the roles
of the two pairs swap at a hand-over), and one arrival profile A_t per step
per element index bounds every group: whatever group type a set leaves in
step t, its element k arrives by A_t,k, and step t + 1 of every group type
sends it no earlier (A_t,k no earlier than A_{t-1},k, so a set that skipped
a step is covered too). A table that satisfies it is therefore a schedule on
every shape with that delta and K, whatever the group types of successive
2-cubes. algorithms/reshape/slot_tables.c carries the delta = 4, K = 16 table
(tests/data/reshape/theorem3-patterns-d4-k16.txt) as schedule = slots.

With "window" a row may depend only on the group's boundaries t-2 .. t+1
and its slots lie in cycles 2t-4 .. 2t+7: a smaller program (delta = 8:
7 k variables instead of 130 k), whose solutions are tables all the same
(for delta = 8 CBC found none in 15 minutes).

search solves the same program a few group types at a time (CBC, run by
the tool; WORKDIR holds its files): the program for a subset of types gives
a profile; with the profile fixed every type is a small program of its own;
the types that fail join the subset, until none fails. Meant for delta =
8, where the whole program (128 types) did not solve in 15 minutes; it has
not found a delta = 8 table either (algorithms/reshape/README.md): with 14 types the
subset's program did not solve within CBC's 10 minutes.

table prints a solver's solution as the table; check runs a table on one
shape element by element (each set routed as the proof routes it; every
channel at most once per cycle, every hop after the element's arrival) for
both cyclic orders and prints the cycles; random does that on COUNT random shapes
with the table's delta and K; schedule writes the elements' hops in the
format of tests/data/reshape/theorem3-*.txt (one origin per translation
class), which check_reshape verifies independently, after checking here that
the schedule is the same on every node of a class.
"""
import importlib.util
import itertools
import json
import os
import random
import subprocess
import sys

_spec = importlib.util.spec_from_file_location(
    "thm3_ilp", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             "thm3-ilp.py"))
ilp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ilp)


def sigmas(delta):
    return list(itertools.product((0, 1), repeat=delta - 1))


def parity(sg, t):
    """Which pair of the group exchanges in step t (0: the first one)."""
    return sum(sg[:t]) % 2


# ---- lp ---------------------------------------------------------------------

def row_key(sg, t, window):
    """The part of a group type a row depends on: all of it, or with
    window its boundaries t-2 .. t+1 (x where there is none)."""
    if not window:
        return "".join(str(x) for x in sg) or "-"
    return "".join(str(sg[u]) if 0 <= u < len(sg) else "x"
                   for u in range(t - 2, t + 2))


def write_lp(delta, K, out, window=False, rows=None, A=None):
    """The program; with rows, for those group types only; with A given
    (A[t][k]) the profile is fixed, so each type stands alone."""
    T, s = K // 2 + 1, K // delta
    sig = sigmas(delta)
    rows = range(len(sig)) if rows is None else rows

    def z(t, g, k, c, h):
        if c < 0 or c >= (T - 2 if h else T):
            return None
        if window and not 2 * t - 4 <= c <= 2 * t + 7:
            return None
        return "z_%d_%s_%d_%d_%d" % (t, row_key(sig[g], t, window), k, c, h)

    def lin(pairs):
        coef = {}
        for x, v in pairs:
            if x:
                coef[x] = coef.get(x, 0) + v
        terms = ["%s %d %s" % ("+" if v > 0 else "-", abs(v), x)
                 for x, v in sorted(coef.items()) if v]
        return " ".join(terms) or "0 A_0_0"

    cons, binaries = [], set()
    for g in rows:
        sg = sig[g]
        for t in range(delta):
            for k in range(s):
                vs = [z(t, g, k, c, h) for c in range(T) for h in (0, 1)]
                vs = [x for x in vs if x]
                binaries.update(vs)
                cons.append(lin([(x, 1) for x in vs]) + " = 1")
            for c in range(T):
                for h in (0, 1):
                    vs = [x for x in (z(t, g, k, c, h) for k in range(s)) if x]
                    if len(vs) > 1:
                        cons.append(lin([(x, 1) for x in vs]) + " <= 1")

        def edge(t, c):
            return [z(t, g, k, c, 0) for k in range(s)]

        def det(t, c):
            return [z(t, g, k, c, 1) for k in range(s)]
        # the pair exchanging in step t is X; its edge channel carries X's
        # edge slots at c and the other pair's detour middles at c - 1; its
        # relay channel X's detour first hops at c and the other pair's
        # detour last hops at c - 2 (per direction, both alike)
        for c in range(T):
            for p in (0, 1):
                mine = [t for t in range(delta) if parity(sg, t) == p]
                other = [t for t in range(delta) if parity(sg, t) != p]
                e = sum([edge(t, c) for t in mine], []) + \
                    sum([det(t, c - 1) for t in other], [])
                r = sum([det(t, c) for t in mine], []) + \
                    sum([det(t, c - 2) for t in other], [])
                for terms in (e, r):
                    terms = [x for x in terms if x]
                    if len(terms) > 1:
                        cons.append(lin([(x, 1) for x in terms]) + " <= 1")
    # A_t_k: element k of a set arrives by A_t_k after step t, whatever the
    # group type; it leaves in step t + 1 no earlier; A_t_k >= A_{t-1}_k
    prof = ["A_%d_%d" % (t, k) for t in range(delta) for k in range(s)]
    for t in range(delta):
        for k in range(s):
            a = "A_%d_%d" % (t, k)
            for g in rows:
                arr = [(z(t, g, k, c, h), c + (3 if h else 1))
                       for c in range(T) for h in (0, 1)]
                dep = ([(z(t + 1, g, k, c, h), c) for c in range(T)
                        for h in (0, 1)] if t + 1 < delta else None)
                if A is None:
                    cons.append(lin(arr) + " - 1 %s <= 0" % a)
                    if dep:
                        cons.append(lin(dep) + " - 1 %s >= 0" % a)
                else:
                    cons.append(lin(arr) + " <= %d" % A[t][k])
                    if dep:
                        cons.append(lin(dep) + " >= %d" % A[t][k])
            if t > 0 and A is None:
                cons.append("1 A_%d_%d - 1 %s <= 0" % (t - 1, k, a))
    out.write("Minimize\n obj: %s\nSubject To\n"
              % (" + ".join(prof) if A is None else "0 " + min(binaries)))
    if window:
        cons = list(dict.fromkeys(cons))   # rows shared by group types
    for k, c in enumerate(cons):
        out.write(" c%d: %s\n" % (k, c))
    if A is None:
        out.write("Bounds\n")
        for a in prof:
            out.write(" 0 <= %s <= %d\n" % (a, T))
        out.write("General\n")
        for a in prof:
            out.write(" %s\n" % a)
    out.write("Binary\n")
    for x in sorted(binaries):
        out.write(" %s\n" % x)
    out.write("End\n")


# ---- search: the same program, a few rows at a time ------------------------

def cbc(path):
    """Solve with CBC; the variables at 1 (and the A_t_k), or None."""
    sol = path + ".sol"
    if os.path.exists(sol):
        os.unlink(sol)
    subprocess.run(["cbc", path, "solve", "solu", sol], capture_output=True,
                   check=True)
    if not os.path.exists(sol):
        return None
    with open(sol) as f:
        if not f.readline().startswith("Optimal"):
            return None
        vals = {}
        for line in f:
            v = line.split()
            if len(v) >= 3 and float(v[2]) > 0.5:
                vals[v[1]] = round(float(v[2]))
    return vals


def search(delta, K, work, out):
    """Rows a few at a time: solve the program for a subset of group
    types (the profile free), fix the profile it gives, solve every other
    type alone under it, add those that fail, repeat. The table is then
    the subset's rows and every other type's own solution."""
    sig, s = sigmas(delta), K // delta
    rng = random.Random(1)
    subset = sorted({0, len(sig) - 1} | set(rng.sample(range(len(sig)),
                                                       min(4, len(sig)))))
    while True:
        vals = cbc_program(delta, K, subset, None, work)
        if vals is None:
            sys.exit("no table: the program is infeasible for the group "
                     "types %s" % subset)
        A = [[vals.get("A_%d_%d" % (t, k), 0) for k in range(s)]
             for t in range(delta)]
        rows, bad = {}, []
        for g in range(len(sig)):
            one = cbc_program(delta, K, [g], A, work)
            if one is None:
                bad.append(g)
            else:
                rows[g] = one
        sys.stderr.write("%d types together, profile %s: %d fail alone\n"
                         % (len(subset), A, len(bad)))
        if not bad:
            break
        subset = sorted(set(subset) | set(bad[:4]))
    got = {}
    for g, vals in rows.items():
        for name in vals:
            if name.startswith("z_"):
                _, t, key, k, c, h = name.split("_")
                got[(int(t), g, int(k))] = "%s%s" % (c, "h" if h == "1" else "e")
    emit_table(delta, K, got, out)


def rows_under(delta, K, A, work, out):
    """Every group type's row under the fixed profile A (each type alone,
    CBC); the types with none are written as 'none'."""
    sig, s = sigmas(delta), K // delta
    got, bad = {}, []
    for g in range(len(sig)):
        vals = cbc_program(delta, K, [g], A, work)
        if vals is None:
            bad.append(g)
            continue
        for name in vals:
            if name.startswith("z_"):
                _, t, key, k, c, h = name.split("_")
                got[(int(t), g, int(k))] = "%s%s" % (c, "h" if h == "1" else "e")
    sys.stderr.write("%d of %d types have no row: %s\n"
                     % (len(bad), len(sig), bad))
    emit_table(delta, K, got, out, A)


def cbc_program(delta, K, rows, A, work):
    path = os.path.join(work, "rows.lp")
    with open(path, "w") as f:
        write_lp(delta, K, f, rows=rows, A=A)
    return cbc(path)


# ---- tables -----------------------------------------------------------------

def write_table(delta, K, solution, out, window=False):
    sig = sigmas(delta)
    got = {}
    for line in open(solution):
        f = line.split()
        if len(f) >= 3 and f[1].startswith("z_") and float(f[2]) > 0.5:
            _, t, key, k, c, h = f[1].split("_")
            got[(int(t), key, int(k))] = "%s%s" % (c, "h" if h == "1" else "e")
    slot = {(t, g, k): got[(t, row_key(sg, t, window), k)]
            for g, sg in enumerate(sig) for t in range(delta)
            for k in range(K // delta)}
    emit_table(delta, K, slot, out)


def emit_table(delta, K, slot, out, A=None):
    sig = sigmas(delta)
    out.write("# two-path slot patterns, delta %d, K %d, %d cycles. One line "
              "per group\n# type (its step boundaries: S the exchanging edge "
              "stays, H it changes),\n# then per step the departure cycle of "
              "the set's elements 0..K/delta-1,\n# e over the edge, h on the "
              "detour. Written by tools/thm3-patterns.py.\n"
              % (delta, K, K // 2 + 1))
    if A is not None:
        out.write("# Each row alone under the profile A_t,k (element k arrives "
                  "by A_t,k\n# after step t; 'none': no row under it): "
                  "rows %d %d '%s'\n" % (delta, K, json.dumps(A)))
    out.write("patterns %d %d\n" % (delta, K))
    for g, sg in enumerate(sig):
        name = "".join("H" if x else "S" for x in sg) or "-"
        if (0, g, 0) not in slot:
            out.write("%s none\n" % name)
            continue
        out.write("%s %s\n" % (name,
            " | ".join(" ".join(slot[(t, g, k)] for k in range(K // delta))
                       for t in range(delta))))


def read_table(path):
    pat, delta, K = {}, None, None
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("patterns"):
            _, delta, K = line.split()
            delta, K = int(delta), int(K)
            continue
        name, rest = line.split(" ", 1)
        sg = tuple(1 if ch == "H" else 0 for ch in name.replace("-", ""))
        if rest == "none":
            continue
        for t, cell in enumerate(rest.split("|")):
            pat[(t, sg)] = [(int(x[:-1]), x[-1] == "h") for x in cell.split()]
    return delta, K, pat


# ---- running a table on a shape ---------------------------------------------

def run(frm, to, n, pat, turn):
    """Every element's hops under the table, checked; (cycles, hops, P) or
    raises ValueError naming the violation."""
    P = ilp.Problem(frm, to, n, 1)
    d, N, K = P.delta, P.N, P.K
    s = K // d

    def bit(i, relay):
        return 1 << (2 * i + relay)

    def dim(i, relay):
        return P.dims[i] + relay

    pos = {}
    for o in range(N):
        for m in range(d):
            x = o
            for t in range(d):
                pos[(o, m, t)] = x
                if P.need[o][(m + turn * t) % d]:
                    x ^= bit((m + turn * t) % d, 0)
    edge = {}
    for (o, m, t), x in pos.items():
        i = (m + turn * t) % d
        if P.need[o][i]:
            key = (i, x & ~(bit(i, 0) | bit(i, 1)), t)
            e = (x >> (2 * i + 1)) & 1
            if edge.setdefault(key, e) != e:
                raise ValueError("two edges of one group exchange in step %d" % t)
    busy, arrive, hops, last = set(), {}, {}, 0
    for t in range(d):
        for o in range(N):
            for m in range(d):
                i = (m + turn * t) % d
                if not P.need[o][i]:
                    continue
                x = pos[(o, m, t)]
                base = x & ~(bit(i, 0) | bit(i, 1))
                cur = []
                for u in range(d):
                    e = edge.get((i, base, u))
                    cur.append(e if e is not None else (cur[-1] if cur else 0))
                sg = tuple(int(cur[u] != cur[u + 1]) for u in range(d - 1))
                if (t, sg) not in pat:
                    raise ValueError("step %d: the table has no row for "
                                     "group type %s" % (t, "".join(
                                         "H" if b else "S" for b in sg)))
                for q, (c, det) in enumerate(pat[(t, sg)]):
                    a = arrive.get((o, m, q), 0)
                    if c < a:
                        raise ValueError("step %d: departs %d, arrived %d" % (t, c, a))
                    path = ([(x, dim(i, 1)), (x ^ bit(i, 1), dim(i, 0)),
                             (x ^ bit(i, 1) ^ bit(i, 0), dim(i, 1))]
                            if det else [(x, dim(i, 0))])
                    for k, (at, c_dim) in enumerate(path):
                        use = (at, c_dim, c + k)
                        if use in busy:
                            raise ValueError("channel %d/%d used twice in "
                                             "cycle %d" % use)
                        busy.add(use)
                        hops.setdefault((o, m, q), []).append((c + k, c_dim))
                    arrive[(o, m, q)] = c + len(path)
                    last = max(last, c + len(path))
    return last, hops, P


def random_shape(rng, delta, K):
    """A random FROM, TO, N with this delta and K where Theorem 3 applies."""
    while True:
        n = rng.randint(2 * delta, 2 * delta + 4)
        bits = n + K.bit_length() - 1

        def split():
            axes, left = [], bits
            while left:
                a = rng.randint(1, min(left, 10))
                axes.append(a)
                left -= a
            return "x".join(str(1 << a) for a in axes)
        frm, to = split(), split()
        try:
            P = ilp.Problem(frm, to, n, 1)
        except AssertionError:
            continue
        if P.delta == delta:
            return frm, to, n


def main():
    a = sys.argv
    cmd = a[1] if len(a) > 1 else ""
    if cmd == "lp" and len(a) in (4, 5):
        write_lp(int(a[2]), int(a[3]), sys.stdout, len(a) == 5)
    elif cmd == "search" and len(a) == 5:
        search(int(a[2]), int(a[3]), a[4], sys.stdout)
    elif cmd == "rows" and len(a) == 6:
        rows_under(int(a[2]), int(a[3]), json.loads(a[4]), a[5], sys.stdout)
    elif cmd == "table" and len(a) in (5, 6):
        write_table(int(a[2]), int(a[3]), a[4], sys.stdout, len(a) == 6)
    elif cmd == "check" and len(a) == 6:
        delta, K, pat = read_table(a[5])
        bad = 0
        for turn in (1, -1):
            try:
                cyc, _, P = run(a[2], a[3], int(a[4]), pat, turn)
                if (P.delta, P.K) != (delta, K):
                    sys.exit("the table is for delta %d, K %d" % (delta, K))
                print("%s -> %s on a %s-cube, %s: %d cycles (Theorem 3: %d)"
                      % (a[2], a[3], a[4], "ascending" if turn > 0 else
                         "descending", cyc, K // 2 + 1))
                bad += cyc != K // 2 + 1
            except ValueError as e:
                print("%s: %s" % ("ascending" if turn > 0 else "descending", e))
                bad += 1
        sys.exit(1 if bad else 0)
    elif cmd == "random" and len(a) == 5:
        delta, K, pat = read_table(a[4])
        rng = random.Random(int(a[3]))
        met = 0
        for _ in range(int(a[2])):
            frm, to, n = random_shape(rng, delta, K)
            res = []
            for turn in (1, -1):
                try:
                    res.append(run(frm, to, n, pat, turn)[0])
                except ValueError as e:
                    res.append(str(e))
            ok = all(r == K // 2 + 1 for r in res)
            met += ok
            print("%s -> %s on a %d-cube: %s" % (frm, to, n, res))
        print("Theorem 3 (%d cycles) met on %d of %s shapes, both orders"
              % (K // 2 + 1, met, a[2]))
        sys.exit(0 if met == int(a[2]) else 1)
    elif cmd == "schedule" and len(a) == 7:
        delta, K, pat = read_table(a[5])
        turn = int(a[6])
        cyc, hops, P = run(a[2], a[3], int(a[4]), pat, turn)
        keep = [v for v in range(P.N)
                if all(P.need[p ^ v] == P.need[p] for p in range(P.N))]
        per = {}
        for (o, m, q), hs in hops.items():
            per.setdefault(o, []).append(hs)
        for o in range(P.N):
            per.setdefault(o, [])
            per[o] += [[] for _ in range(P.K - len(per[o]))]
            per[o].sort()
        for o in range(P.N):
            for v in keep:
                if per[o ^ v] != per[o]:
                    sys.exit("the schedule differs on node %d and its "
                             "translate by %d" % (o, v))
        sys.stdout.write("shape %s %s %s\ncycles %d\n" % (a[2], a[3], a[4], cyc))
        for o in range(P.N):
            if P.rep[o] == o:
                for hs in per[o]:
                    sys.stdout.write("%d%s\n" % (P.full[o], "".join(
                        " %d:%d" % h for h in hs)))
    else:
        sys.exit(__doc__.split("\n\n")[1])


if __name__ == "__main__":
    main()
