#!/usr/bin/env python3
"""perfetto_check.py FILE: validate a `cubemu trace export --format chrome`
file against the Trace Event Format as Perfetto's legacy JSON importer reads
it, and against what the trace's own busy slices imply. python3 stdlib only.

Checks (each failure is a line "FILE: problem"; exit status 1 if any):
  - top level: an object with "traceEvents" (a list) and "otherData" (an
    object), and no "displayTimeUnit" (Chrome knows only ms and ns, and the
    axis's microsecond is a tick);
  - the time base: otherData.time_unit is "1 tick = 1 us of display time",
    otherData.tick_seconds, when present, a number > 0; every ts and dur a
    whole number (ticks), never negative;
  - every event has the fields its ph needs (X: ts dur pid tid; B/E: ts
    pid tid; b/e: id cat ts pid; s/t/f: id cat name ts pid tid, f with
    "bp":"e"; C: ts pid and numeric args; i: ts pid and a scope; M: args);
  - slices: per (pid, tid) the X slices and the B/E pairs (matched in file
    order, each E after its B, B/E in time order on their track) nest
    properly: two slices of one track are disjoint or one holds the other;
  - flows: per (cat, name, id) exactly one "s" and one "f", any "t" between,
    ts(s) <= ts(t) <= ts(f); every flow event lies inside a slice of its
    own (pid, tid) (start <= ts < end) named like the flow; the "s" inside
    a busy slice ('X') on the message's source (its pid is args.source),
    the "f" inside a receive slice on its destination (args.dest);
  - counters: the args of every 'C' are numbers; per series (pid, name,
    key) strictly increasing ts and a new value at every sample after the
    first (sampled at changes only); and each series equals what the busy
    slices imply: "link L" {"busy channels"} the channels of link L busy,
    "class K" {"busy channels"} those carrying class K, "class K messages"
    {"in flight"} the messages of class K posted and not yet arrived (the
    end of their last busy slice); a sample at ts 0, then one at every tick
    the value changes; every link and class of the busy slices has its
    series;
  - phases: the phase slices (cat "phase") are exactly those the mark
    instants imply: a mark of every node ('i', "s":"g") starts a phase on
    the machine's "phases (all nodes)" track lasting until the next such
    mark (or the end of the run, otherData.cycles); a mark of some nodes
    ("s":"p") starts one on that node's track lasting until the node's
    next mark of either kind; a phase that lasts no tick is not drawn.

Prints one line of JSON with what it counted, for the caller to compare
with the run: {"flows", "flow_steps", "busy_slices", "receive_slices",
"link_counters", "class_counters", "phase_slices", "machine_phases",
"node_phases", "tick_seconds", "time_unit", "messages_with_slices"}.
"""
import bisect
import json
import sys
from collections import defaultdict

TIME_UNIT = "1 tick = 1 us of display time"
MAX_PROBLEMS = 20


def main():
    if len(sys.argv) != 2:
        print("usage: perfetto_check.py FILE", file=sys.stderr)
        return 2
    path = sys.argv[1]
    problems = []

    def bad(msg):
        problems.append(msg)

    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"{path}: not JSON: {e}")
        return 1
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        print(f"{path}: no traceEvents list")
        return 1
    other = doc.get("otherData")
    if not isinstance(other, dict):
        bad("no otherData object")
        other = {}
    if "displayTimeUnit" in doc:
        bad("displayTimeUnit is set (%r)" % doc["displayTimeUnit"])
    if other.get("time_unit") != TIME_UNIT:
        bad("otherData.time_unit is %r, not %r" % (other.get("time_unit"), TIME_UNIT))
    tick_seconds = other.get("tick_seconds")
    if tick_seconds is not None and (not isnum(tick_seconds) or tick_seconds <= 0):
        bad("otherData.tick_seconds is %r" % (tick_seconds,))
    try:
        cycles = int(other.get("cycles"))
    except (TypeError, ValueError):
        bad("otherData.cycles is %r" % (other.get("cycles"),))
        cycles = 0
    events = doc["traceEvents"]

    # ---- fields per ph ----------------------------------------------------
    need = {
        "X": ("name", "ts", "dur", "pid", "tid"),
        "B": ("name", "ts", "pid", "tid"),
        "E": ("ts", "pid", "tid"),
        "b": ("name", "id", "cat", "ts", "pid"),
        "e": ("name", "id", "cat", "ts", "pid"),
        "s": ("name", "id", "cat", "ts", "pid", "tid"),
        "t": ("name", "id", "cat", "ts", "pid", "tid"),
        "f": ("name", "id", "cat", "ts", "pid", "tid", "bp"),
        "C": ("name", "ts", "pid", "args"),
        "i": ("name", "ts", "pid", "s"),
        "M": ("name", "pid", "args"),
    }
    ok_events = []
    for k, e in enumerate(events):
        if not isinstance(e, dict) or e.get("ph") not in need:
            bad("event %d: unknown ph %r" % (k, e.get("ph") if isinstance(e, dict) else e))
            continue
        ph = e["ph"]
        missing = [f for f in need[ph] if f not in e]
        if missing:
            bad("event %d (%s): no %s" % (k, ph, ", ".join(missing)))
            continue
        if not isinstance(e["pid"], int) or e["pid"] < 0:
            bad("event %d: pid %r" % (k, e["pid"]))
            continue
        if "tid" in e and (not isinstance(e["tid"], int) or e["tid"] < 0):
            bad("event %d: tid %r" % (k, e["tid"]))
            continue
        if ph != "M":
            for f in ("ts", "dur"):
                if f in e and (not isinstance(e[f], int) or isinstance(e[f], bool) or e[f] < 0):
                    bad("event %d (%s): %s %r is not a whole number of ticks" % (k, ph, f, e[f]))
        if ph == "f" and e["bp"] != "e":
            bad("event %d: flow end without \"bp\":\"e\"" % k)
        if ph == "i" and e["s"] not in ("g", "p", "t"):
            bad("event %d: instant scope %r" % (k, e["s"]))
        if ph == "C":
            if not isinstance(e["args"], dict) or not e["args"]:
                bad("event %d: counter without args" % k)
            elif not all(isnum(v) for v in e["args"].values()):
                bad("event %d: counter args not numbers: %r" % (k, e["args"]))
        if ph == "M" and e["name"] not in ("process_name", "thread_name",
                                           "process_sort_index", "thread_sort_index"):
            bad("event %d: metadata %r" % (k, e["name"]))
        ok_events.append(e)
    events = ok_events

    process_names = {e["pid"]: e["args"].get("name") for e in events
                     if e["ph"] == "M" and e["name"] == "process_name"}
    thread_names = {(e["pid"], e["tid"]): e["args"].get("name") for e in events
                    if e["ph"] == "M" and e["name"] == "thread_name"}
    machine = [p for p, n in process_names.items()
               if isinstance(n, str) and n.startswith("machine")]
    machine_pid = machine[0] if len(machine) == 1 else None

    # ---- slices per track --------------------------------------------------
    slices = defaultdict(list)      # (pid, tid) -> [(start, end, event)]
    open_b = defaultdict(list)
    last_be = {}
    for e in events:
        ph = e["ph"]
        key = (e.get("pid"), e.get("tid"))
        if ph == "X":
            slices[key].append((e["ts"], e["ts"] + e["dur"], e))
        elif ph in ("B", "E"):
            if e["ts"] < last_be.get(key, 0):
                bad("%s at %s on %s before the track's previous B/E" % (ph, e["ts"], key))
            last_be[key] = e["ts"]
            if ph == "B":
                open_b[key].append(e)
            elif not open_b[key]:
                bad("E at %s on %s without a B" % (e["ts"], key))
            else:
                b = open_b[key].pop()
                slices[key].append((b["ts"], e["ts"], b))
    for key, stack in open_b.items():
        if stack:
            bad("%d B without E on %s" % (len(stack), key))
    for key, lst in slices.items():
        lst.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for s in lst:
            while stack and stack[-1][1] <= s[0]:
                stack.pop()
            if stack and s[1] > stack[-1][1]:
                bad("slices overlap on %s: [%s, %s) %r and [%s, %s) %r" % (
                    key, stack[-1][0], stack[-1][1], stack[-1][2]["name"],
                    s[0], s[1], s[2]["name"]))
                break
            stack.append(s)
    starts = {key: [s[0] for s in lst] for key, lst in slices.items()}

    def enclosing(e):
        """The innermost slice of e's track with start <= ts < end: the one
        starting last at or before ts that has not ended."""
        key = (e["pid"], e["tid"])
        lst = slices.get(key, ())
        k = bisect.bisect_right(starts.get(key, ()), e["ts"]) - 1
        while k >= 0:
            if lst[k][1] > e["ts"]:
                return lst[k]
            k -= 1
        return None

    # ---- flows --------------------------------------------------------------
    flows = defaultdict(lambda: {"s": [], "t": [], "f": []})
    for e in events:
        if e["ph"] in ("s", "t", "f"):
            flows[(e["cat"], e["name"], e["id"])][e["ph"]].append(e)
    steps = 0
    for (cat, name, fid), f in flows.items():
        if len(f["s"]) != 1 or len(f["f"]) != 1:
            bad("flow %r id %r: %d s and %d f events" % (name, fid, len(f["s"]), len(f["f"])))
            continue
        s, fin = f["s"][0], f["f"][0]
        steps += len(f["t"])
        chain = [s] + sorted(f["t"], key=lambda x: x["ts"]) + [fin]
        if any(chain[i]["ts"] > chain[i + 1]["ts"] for i in range(len(chain) - 1)):
            bad("flow %r: ts not in order s <= t <= f: %r" % (name, [x["ts"] for x in chain]))
        for x in chain:
            sl = enclosing(x)
            if sl is None:
                bad("flow %r: its %s at %s on (%s, %s) is in no slice of that track" % (
                    name, x["ph"], x["ts"], x["pid"], x["tid"]))
            elif sl[2]["name"] != name:
                bad("flow %r: its %s lies in slice %r" % (name, x["ph"], sl[2]["name"]))
            elif x is s and (sl[2]["ph"] != "X" or sl[2].get("args", {}).get("source") != s["pid"]):
                bad("flow %r: starts in %s slice on pid %s, not a busy slice of its source" % (
                    name, sl[2]["ph"], s["pid"]))
            elif x is fin and (sl[2].get("cat") != "receive"
                               or sl[2].get("args", {}).get("dest") != fin["pid"]):
                bad("flow %r: ends on pid %s outside a receive slice of its destination" % (
                    name, fin["pid"]))
        if len(problems) > MAX_PROBLEMS:
            break

    # ---- counters -------------------------------------------------------------
    series = defaultdict(list)
    for e in events:
        if e["ph"] == "C" and isinstance(e["args"], dict):
            for k, v in e["args"].items():
                series[(e["pid"], e["name"], k)].append((e["ts"], v))
    for key, samples in series.items():
        for (t0, v0), (t1, v1) in zip(samples, samples[1:]):
            if t1 <= t0:
                bad("counter %r: ts %s after %s" % (key, t1, t0))
                break
            if v1 == v0:
                bad("counter %r: sample at %s repeats %s (changes only)" % (key, t1, v1))
                break
    busy = [e for e in events if e["ph"] == "X"]
    want = defaultdict(list)        # (name, key) -> [(time, delta)]
    arrival, posted, mclass = {}, {}, {}
    for e in busy:
        a = e.get("args", {})
        start, end = e["ts"], e["ts"] + e["dur"]
        for name in ("link %s" % a.get("link"), "class %s" % a.get("class")):
            want[(name, "busy channels")] += [(start, 1), (end, -1)]
        m = e["name"]
        arrival[m] = max(arrival.get(m, end), end)
        posted[m] = a.get("posted")
        mclass[m] = a.get("class")
    for m, end in arrival.items():
        if isinstance(posted[m], int) and posted[m] < end:
            want[("class %s messages" % mclass[m], "in flight")] += [(posted[m], 1), (end, -1)]
    link_counters, class_counters = [], []
    for (name, key), deltas in sorted(want.items()):
        expect = expected_samples(deltas)
        got = series.get((machine_pid, name, key))
        if got is None:
            bad("no counter %r %r on the machine process" % (name, key))
            continue
        if got != expect:
            diff = next((i for i in range(min(len(got), len(expect))) if got[i] != expect[i]),
                        min(len(got), len(expect)))
            bad("counter %r %r: %d samples, want %d; first difference at %d: %r, want %r" % (
                name, key, len(got), len(expect), diff, got[diff:diff + 2], expect[diff:diff + 2]))
        if name.startswith("link "):
            link_counters.append(name[5:])
        elif key == "busy channels":
            class_counters.append(name[6:])
    extra = set(series) - {(machine_pid, n, k) for (n, k) in want}
    if extra:
        bad("counters the busy slices do not imply: %r" % sorted(extra)[:5])

    # ---- phases ---------------------------------------------------------------
    marks = [e for e in events if e["ph"] == "i" and e.get("cat") == "mark"]
    want_phases = []
    glob = None
    pend = {}
    for e in marks:
        if e["s"] == "g":
            if glob and e["ts"] > glob[1]:
                want_phases.append(("machine", glob[0], glob[1], e["ts"]))
            glob = (e["name"], e["ts"])
            for v, (name, t0) in pend.items():
                if e["ts"] > t0:
                    want_phases.append((v, name, t0, e["ts"]))
            pend = {}
        else:
            v = e["pid"]
            if v in pend and e["ts"] > pend[v][1]:
                want_phases.append((v, pend[v][0], pend[v][1], e["ts"]))
            pend[v] = (e["name"], e["ts"])
    if glob and cycles > glob[1]:
        want_phases.append(("machine", glob[0], glob[1], cycles))
    for v, (name, t0) in pend.items():
        if cycles > t0:
            want_phases.append((v, name, t0, cycles))
    got_phases = []
    for key, lst in slices.items():
        for s in lst:
            if s[2].get("cat") == "phase":
                who = "machine" if key[0] == machine_pid else key[0]
                if who == "machine" and thread_names.get(key) != "phases (all nodes)":
                    bad("machine phase %r on thread %r" % (s[2]["name"], thread_names.get(key)))
                got_phases.append((who, s[2]["name"], s[0], s[1]))
    if sorted(got_phases, key=repr) != sorted(want_phases, key=repr):
        g, w = set(got_phases), set(want_phases)
        bad("phase slices: %d, the marks imply %d; extra %r, missing %r" % (
            len(got_phases), len(want_phases), sorted(g - w, key=repr)[:3],
            sorted(w - g, key=repr)[:3]))

    # ---- every track named ------------------------------------------------------
    for key in slices:
        if key not in thread_names:
            bad("track %r has slices but no thread_name" % (key,))
            break
    for pid in {k[0] for k in slices} | {k[0] for k in series}:
        if pid not in process_names:
            bad("pid %r has events but no process_name" % pid)
            break

    receive = sum(1 for lst in slices.values() for s in lst if s[2].get("cat") == "receive")
    summary = {
        "flows": sum(1 for f in flows.values() if len(f["s"]) == 1 and len(f["f"]) == 1),
        "flow_steps": steps,
        "busy_slices": len(busy),
        "receive_slices": receive,
        "messages_with_slices": len(arrival),
        "link_counters": sorted(link_counters),
        "class_counters": sorted(class_counters),
        "phase_slices": len(got_phases),
        "machine_phases": [(n, s, e) for (w, n, s, e) in sorted(got_phases, key=lambda p: p[2])
                           if w == "machine"],
        "node_phases": sum(1 for p in got_phases if p[0] != "machine"),
        "tick_seconds": tick_seconds,
        "time_unit": other.get("time_unit"),
    }
    for p in problems[:MAX_PROBLEMS]:
        print("%s: %s" % (path, p))
    if len(problems) > MAX_PROBLEMS:
        print("%s: ... %d problems in all" % (path, len(problems)))
    print(json.dumps(summary))
    return 1 if problems else 0


def isnum(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def expected_samples(deltas):
    """A sample at ts 0, then one at every tick the value changes."""
    at = defaultdict(int)
    for t, d in deltas:
        at[t] += d
    value = at.pop(0, 0)
    out = [(0, value)]
    for t in sorted(at):
        if at[t]:
            value += at[t]
            out.append((t, value))
    return out


if __name__ == "__main__":
    sys.exit(main())
