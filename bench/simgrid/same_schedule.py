#!/usr/bin/env python3
"""same_schedule.py TRACE SCHEDULE: whether cubemu's run (TRACE, from
`cubemu run --trace`, traces/FORMAT.md) and bit_reversal's (SCHEDULE, from
its --schedule) moved every word over the same channel in the same tick.

Equal makespans do not show equal arbitration: on the bit reversal, serving
the youngest message first instead of the oldest gives the same cycles. The
word-by-word schedule does. Messages are matched by posting order: the
trace's ids and bit_reversal's message numbers are both posting orders, and
the trace lists only messages that crossed a channel, so each side's
messages that crossed one are ranked and compared by rank. Prints the
crossings compared, or the first differences; exit status 1 if they differ,
2 if a file cannot be read."""
import struct
import sys

MAGIC = b"\x89CUBETR\n"
HEADER = 144
CHANNEL = 8
MESSAGE = 52
BUSY = 32


def trace_crossings(path):
    """Every word crossing in the trace: (tick, node, link, message id, word)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != MAGIC or struct.unpack_from("<H", data, 8)[0] != 2:
        raise ValueError(f"{path}: not a version 2 cubemu trace")
    (header_bytes,) = struct.unpack_from("<I", data, 12)
    channels, messages, busy = struct.unpack_from("<QQQ", data, 96)
    at = header_bytes
    chan = [struct.unpack_from("<II", data, at + CHANNEL * i) for i in range(channels)]
    at += CHANNEL * channels
    msgs = []
    for i in range(messages):
        mid, _elements, _posted, elem_time = struct.unpack_from("<QQqq", data, at + MESSAGE * i)
        msgs.append((mid, elem_time))
    at += MESSAGE * messages
    out = []
    for i in range(busy):
        start, first, count, c, m = struct.unpack_from("<qQQII", data, at + BUSY * i)
        node, link = chan[c]
        mid, elem_time = msgs[m]
        for e in range(count):
            out.append((start + e * elem_time, node, link, mid, first + e))
    return out


def schedule_crossings(path):
    with open(path) as f:
        return [tuple(int(v) for v in line.split()) for line in f]


def by_rank(crossings):
    """The same crossings with each message id replaced by its rank."""
    rank = {m: r for r, m in enumerate(sorted({c[3] for c in crossings}))}
    return sorted((t, node, link, rank[m], w) for t, node, link, m, w in crossings)


def main():
    if len(sys.argv) != 3:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    try:
        cubemu = by_rank(trace_crossings(sys.argv[1]))
        simgrid = by_rank(schedule_crossings(sys.argv[2]))
    except (OSError, ValueError, struct.error) as e:
        print(f"same_schedule: {e}", file=sys.stderr)
        return 2
    if cubemu == simgrid:
        print(f"same schedule: {len(cubemu)} word crossings")
        return 0
    only_c = sorted(set(cubemu) - set(simgrid))[:5]
    only_s = sorted(set(simgrid) - set(cubemu))[:5]
    print(f"NOT THE SAME SCHEDULE: cubemu {len(cubemu)} crossings, SimGrid {len(simgrid)}; "
          f"(tick, node, dimension, message rank, word) only in cubemu: {only_c}, only in SimGrid: {only_s}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
