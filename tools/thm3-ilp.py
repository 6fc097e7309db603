#!/usr/bin/env python3
"""tools/thm3-ilp.py -- an exact search for two-path reshaping schedules.

    tools/thm3-ilp.py lp FROM TO N CYCLES [ORDER] > problem.lp
    cbc problem.lp solve solu solution.txt          (any LP-format MIP solver)
    tools/thm3-ilp.py decode FROM TO N CYCLES solution.txt [ORDER] > schedule.txt

Is there an element schedule for reshaping FROM -> TO on an N-cube (Johnsson
& Ho, Theorem 3's setting: every node's K elements cross the same set of
dimensions, D_paddr has no two adjacent dimensions) in CYCLES cycles? The
model is the element-level two-path model on cubemu's machine: every element
crosses each dimension j it needs exactly once, directly or on its 2-cube's
detour j+1, j, j+1 (its other hops may come in between, and it may wait at
any node), and no other dimension; one element per directed channel per
cycle; a hop departs no earlier than the cycle its element arrived; every
element ends at its destination.

ORDER (ascending or descending) narrows this to the proof's routing: each
node's K elements form delta sets of K/delta, set m crosses its dimensions
one at a time in the cyclic order d_m, d_{m+1}, ... (or d_m, d_{m-1}, ...),
each directly or on its detour; only the timing is left free.

Elements at one node with the same crossings still to do are
interchangeable, so the program counts them per (node, phases, cycle): a
phase per needed dimension, 0 not started, 1 after the detour's first hop,
2 after its middle hop, 3 done. Each channel carries at most one element of
one phase vector per cycle (0/1 variables). Only the 2 delta dimensions of
the 2-cubes matter (other node bits are constants that a translation
removes). The program is restricted to schedules invariant under the
translations that keep every node's crossing set (delta = 4: 256 nodes in
16 classes), so a schedule found is a schedule and "infeasible" proves
nothing beyond that restriction.

decode turns the solver's solution into the file check_reshape reads
(tests/data/reshape/theorem3-*.txt): for one origin per class, every
element's hops as cycle:dimension in node dimensions; the other nodes use
the same hops, translated.
"""
import sys


def axes(text):
    """Bits per axis, axis 0 first."""
    return [int(v).bit_length() - 1 for v in reversed(text.split("x"))]


def gray_decode(g):
    b = 0
    while g:
        b ^= g
        g >>= 1
    return b


def index_of(a, e):
    i, lo = 0, 0
    for bits in e:
        i |= gray_decode((a >> lo) & ((1 << bits) - 1)) << lo
        lo += bits
    return i


def address_of(i, e):
    a, lo = 0, 0
    for bits in e:
        v = (i >> lo) & ((1 << bits) - 1)
        a |= (v ^ (v >> 1)) << lo
        lo += bits
    return a


class Problem:
    def __init__(self, frm, to, n, cycles, turn=0):
        self.turn = turn
        eu, ev = axes(frm), axes(to)
        bits = sum(eu)
        assert bits == sum(ev) and n <= bits
        self.T = cycles
        self.K = 1 << (bits - n)
        mem = bits - n
        dest = {}
        mask = 0
        for x in range(1 << n):
            ys = {address_of(index_of((x << mem) | o, eu), ev) >> mem
                  for o in range(self.K)}
            assert len(ys) == 1, "a node's elements go to different nodes"
            dest[x] = ys.pop()
            mask |= x ^ dest[x]
        self.dims = [j for j in range(n) if (mask >> j) & 1]
        assert all(j + 1 < n and j + 1 not in self.dims for j in self.dims)
        self.delta = len(self.dims)
        self.sets = self.delta if turn else 1
        assert self.K % self.sets == 0
        self.N = 1 << (2 * self.delta)
        # compact node p: bit 2i = dimension d_i, bit 2i+1 = d_i + 1
        self.full = [self.expand(p) for p in range(self.N)]
        self.need = [[((self.full[p] ^ dest[self.full[p]]) >> j) & 1
                      for j in self.dims] for p in range(self.N)]
        keep = [v for v in range(self.N)
                if all(self.need[p ^ v] == self.need[p] for p in range(self.N))]
        self.rep = [min(p ^ v for v in keep) for p in range(self.N)]

    def expand(self, p):
        x = 0
        for i, j in enumerate(self.dims):
            x |= ((p >> (2 * i)) & 1) << j
            x |= ((p >> (2 * i + 1)) & 1) << (j + 1)
        return x

    @staticmethod
    def cost(r):
        return sum((1, 2, 1, 0)[x] for x in r[1:])

    def start(self, p, m=0):
        """Set m's phases at origin p (the set is the first entry)."""
        return (m,) + tuple(0 if s else 3 for s in self.need[p])

    def moves(self, rr):
        """(compact channel, phases after) for every hop rr may take."""
        m, r = rr[0], rr[1:]
        d = self.delta
        now = None
        if self.turn:   # the first dimension of set m's order not done
            now = next((i for i in ((m + self.turn * k) % d for k in range(d))
                        if r[i] != 3), None)
        for i, x in enumerate(r):
            if self.turn and i != now:
                continue

            def put(v):
                return (m,) + r[:i] + (v,) + r[i + 1:]
            if x == 0:
                yield 2 * i, put(3)
                yield 2 * i + 1, put(1)
            elif x == 1:
                yield 2 * i, put(2)
            elif x == 2:
                yield 2 * i + 1, put(3)

    def states(self):
        """Reachable (node, phases) per cycle that can still finish."""
        T = self.T
        reach = [set() for _ in range(T + 1)]
        reach[0] = {(p, self.start(p, m)) for p in range(self.N)
                    for m in range(self.sets)}
        for t in range(T):
            nx = set(reach[t])
            for p, r in reach[t]:
                for c, r2 in self.moves(r):
                    nx.add((p ^ (1 << c), r2))
            reach[t + 1] = {s for s in nx if self.cost(s[1]) <= T - t - 1}
        return [{s for s in reach[t] if self.cost(s[1]) <= T - t}
                for t in range(T + 1)]


def name(kind, p, r, t, c=None):
    ph = "".join(map(str, r))
    return ("n_%d_%s_%d" % (p, ph, t) if c is None
            else "y_%d_%d_%s_%d" % (p, c, ph, t))


def write_lp(pb, out):
    T, reach, rep = pb.T, pb.states(), pb.rep
    cons, ys, counts = [], set(), set()
    for t in range(T + 1):
        for p, r in reach[t]:
            counts.add(name("n", rep[p], r, t))
    chan = {}
    for t in range(T):
        inflow = {}
        for p, r in reach[t]:
            outs = []
            for c, r2 in pb.moves(r):
                q = p ^ (1 << c)
                if (q, r2) in reach[t + 1]:
                    y = name("y", rep[p], r, t, c)
                    ys.add(y)
                    outs.append(y)
                    chan.setdefault((rep[p], c, t), set()).add(y)
                    inflow.setdefault((q, r2), []).append(y)
            if outs and rep[p] == p:
                cons.append(" + ".join(outs) + " - " + name("n", p, r, t) + " <= 0")
        for p, r in reach[t] | reach[t + 1]:
            if rep[p] != p:
                continue
            terms = [name("n", p, r, t + 1) if (p, r) in reach[t + 1] else "0 zero"]
            if (p, r) in reach[t]:
                terms.append("- " + name("n", p, r, t))
                terms += ["+ " + name("y", p, r, t, c)
                          for c, r2 in pb.moves(r)
                          if (p ^ (1 << c), r2) in reach[t + 1]]
            terms += ["- " + y for y in inflow.get((p, r), [])]
            cons.append(" ".join(terms) + " = 0")
    for vs in chan.values():
        cons.append(" + ".join(sorted(vs)) + " <= 1")
    for p, r in reach[0]:
        if rep[p] == p:
            cons.append("%s = %d" % (name("n", p, r, 0), pb.K // pb.sets))
    for p, r in reach[T]:
        if rep[p] == p and pb.cost(r):
            cons.append(name("n", p, r, T) + " = 0")
    out.write("Minimize\n obj: 0 zero\nSubject To\n")
    for k, c in enumerate(cons):
        out.write(" c%d: %s\n" % (k, c))
    out.write("Bounds\n zero = 0\n")
    for v in sorted(counts):
        out.write(" 0 <= %s <= %d\n" % (v, pb.K))
    out.write("General\n")
    for v in sorted(counts):
        out.write(" %s\n" % v)
    out.write("Binary\n")
    for v in sorted(ys):
        out.write(" %s\n" % v)
    out.write("End\n")


def decode(pb, solution, out, frm, to, n):
    carry = {}
    for line in open(solution):
        f = line.split()
        for tok in f:
            if tok.startswith("y_"):
                val = float(f[f.index(tok) + 1])
                if val > 0.5:
                    _, p, c, r, t = tok.split("_")
                    carry[(int(p), int(c), int(t))] = tuple(int(x) for x in r)
                break
    # Follow the elements of one origin per class. The schedule is the
    # same on every node of a class, so wherever a class moves an element
    # of some phases, any one of those elements (at whichever node of the
    # class it is) moves, and each of its translates at the other nodes.
    toks = [{"o": p, "at": p, "r": pb.start(p, m), "hops": []}
            for p in range(pb.N) if pb.rep[p] == p
            for m in range(pb.sets) for _ in range(pb.K // pb.sets)]
    for t in range(pb.T):
        held = {}
        for e in toks:
            held.setdefault((pb.rep[e["at"]], e["r"]), []).append(e)
        for p in sorted(set(pb.rep)):
            for c in range(2 * pb.delta):
                r = carry.get((p, c, t))
                if r is None:
                    continue
                e = held[(p, r)].pop()
                e["next"] = (c, dict(pb.moves(r))[c])
        for e in toks:
            if "next" in e:
                c, r2 = e.pop("next")
                e["hops"].append((t, pb.dims[c // 2] + (c & 1)))
                e["at"] ^= 1 << c
                e["r"] = r2
    assert all(pb.cost(e["r"]) == 0 for e in toks)
    out.write("shape %s %s %d\ncycles %d\n" % (frm, to, n, pb.T))
    for e in toks:
        out.write("%d%s\n" % (pb.full[e["o"]], "".join(
            " %d:%d" % h for h in e["hops"])))


def main():
    a = sys.argv
    if len(a) < 6 or a[1] not in ("lp", "decode"):
        sys.exit(__doc__.split("\n\n")[1])
    frm, to, n, cycles = a[2], a[3], int(a[4]), int(a[5])
    order = a[6 if a[1] == "lp" else 7] if len(a) > (6 if a[1] == "lp" else 7) else ""
    turn = {"": 0, "ascending": 1, "descending": -1}[order]
    pb = Problem(frm, to, n, cycles, turn)
    if sys.argv[1] == "lp":
        write_lp(pb, sys.stdout)
    else:
        decode(pb, sys.argv[6], sys.stdout, frm, to, n)


if __name__ == "__main__":
    main()
