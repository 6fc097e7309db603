#!/usr/bin/env python3
"""same_schedule.py [--messages] TRACE SCHEDULE: whether cubemu's run (TRACE,
from `cubemu run --trace`, traces/FORMAT.md) and a SimGrid baseline's
(SCHEDULE, from its --schedule) are the same schedule.

Word crossings (the default; bit_reversal.cpp): whether both moved every
word over the same channel in the same tick. Equal makespans do not show
equal arbitration: on the bit reversal, serving the youngest message first
instead of the oldest gives the same cycles. The word-by-word schedule
does. Messages are matched by posting order: the trace's ids and
bit_reversal's message numbers are both posting orders, and the trace
lists only messages that crossed a channel, so each side's messages that
crossed one are ranked and compared by rank.

Messages (--messages; cube_exchange.cpp): whether every node posted the
same messages, to the same destinations, of the same sizes, in the same
order, at the same ticks, and each arrived (its last element at its
destination) at the same tick. A SimGrid comm is a flow, with no element
crossings of its own to compare; where no channel carries two messages at
once, as in the dimension exchange, a message's post and arrival fix its
whole schedule.

Prints what was compared, or the first differences; exit status 1 if they
differ, 2 if a file cannot be read."""
import struct
import sys

MAGIC = b"\x89CUBETR\n"
HEADER = 144
CHANNEL = 8
MESSAGE = 52
BUSY = 32


def read_trace(path):
    """The trace's channels (source, link), messages (id, elements, posted,
    element time, source, destination) and busy records (start, first,
    count, channel, message)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != MAGIC or struct.unpack_from("<H", data, 8)[0] != 2:
        raise ValueError(f"{path}: not a version 2 cubemu trace")
    (header_bytes,) = struct.unpack_from("<I", data, 12)
    channels, messages, busy = struct.unpack_from("<QQQ", data, 96)
    at = header_bytes
    chan = [struct.unpack_from("<II", data, at + CHANNEL * i) for i in range(channels)]
    at += CHANNEL * channels
    msgs = [struct.unpack_from("<QQqqII", data, at + MESSAGE * i) for i in range(messages)]
    at += MESSAGE * messages
    records = [struct.unpack_from("<qQQII", data, at + BUSY * i) for i in range(busy)]
    return chan, msgs, records


def trace_crossings(path):
    """Every word crossing in the trace: (tick, node, link, message id, word)."""
    chan, msgs, records = read_trace(path)
    out = []
    for start, first, count, c, m in records:
        node, link = chan[c]
        mid, _elements, _posted, elem_time, _source, _dest = msgs[m]
        for e in range(count):
            out.append((start + e * elem_time, node, link, mid, first + e))
    return out


def trace_messages(path):
    """Every message in the trace: (node, its posting order there,
    destination, elements, tick posted, tick its last element arrived)."""
    _chan, msgs, records = read_trace(path)
    arrived = [None] * len(msgs)
    for start, _first, count, _c, m in records:
        end = start + count * msgs[m][3]
        arrived[m] = end if arrived[m] is None else max(arrived[m], end)
    seq = {}
    out = []
    for m in sorted(range(len(msgs)), key=lambda i: msgs[i][0]):
        _mid, elements, posted, _elem_time, source, dest = msgs[m]
        seq[source] = seq.get(source, -1) + 1
        out.append((source, seq[source], dest, elements, posted, arrived[m]))
    return sorted(out)


def schedule_lines(path, fields, parse):
    """Each line of the baseline's schedule, parsed: `fields` names its
    values."""
    out = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            values = line.split()
            try:
                if len(values) != len(fields.split()):
                    raise ValueError
                out.append(parse(values))
            except ValueError:
                raise ValueError(f"{path}:{number}: expected '{fields}', got '{line.rstrip()}'") from None
    return out


def tick(text):
    """A tick of SimGrid's clock: whole where it is whole, so that it prints
    as cubemu's does; compared exactly either way."""
    v = float(text)
    return int(v) if v.is_integer() else v


def schedule_crossings(path):
    return schedule_lines(path, "tick node dimension message word", lambda v: tuple(int(x) for x in v))


def schedule_messages(path):
    """The baseline's messages, as trace_messages gives cubemu's."""
    return sorted(schedule_lines(path, "node seq destination elements posted arrived",
                                 lambda v: tuple(int(x) for x in v[:4]) + tuple(tick(x) for x in v[4:])))


def by_rank(crossings):
    """The same crossings with each message id replaced by its rank."""
    rank = {m: r for r, m in enumerate(sorted({c[3] for c in crossings}))}
    return sorted((t, node, link, rank[m], w) for t, node, link, m, w in crossings)


def main():
    args = sys.argv[1:]
    messages = args[:1] == ["--messages"]
    if messages:
        args = args[1:]
    if len(args) != 2:
        print("usage: " + __doc__.split(":", 1)[0], file=sys.stderr)
        return 2
    try:
        if messages:
            cubemu, simgrid = trace_messages(args[0]), schedule_messages(args[1])
        else:
            cubemu = by_rank(trace_crossings(args[0]))
            simgrid = by_rank(schedule_crossings(args[1]))
    except (OSError, ValueError, struct.error) as e:
        print(f"same_schedule: {e}", file=sys.stderr)
        return 2
    what = "messages" if messages else "word crossings"
    if cubemu == simgrid:
        print(f"same schedule: {len(cubemu)} {what}")
        return 0
    only_c = sorted(set(cubemu) - set(simgrid))[:5]
    only_s = sorted(set(simgrid) - set(cubemu))[:5]
    fields = ("(node, seq, destination, elements, posted, arrived)" if messages
              else "(tick, node, dimension, message rank, word)")
    print(f"NOT THE SAME SCHEDULE: cubemu {len(cubemu)} {what}, SimGrid {len(simgrid)}; "
          f"{fields} only in cubemu: {only_c}, only in SimGrid: {only_s}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
