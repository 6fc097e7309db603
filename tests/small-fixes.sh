#!/usr/bin/env bash
# Regression tests of issue #47 items 12 and 13: Paje names free of
# separators, honest Chrome time metadata, `cubemu list`'s transpose radix
# and rank1 method, headless frames without the keyboard help, the
# header's phase agreeing with the timeline, and machine.startup /
# machine.element-time errors printed once. Ends with one line
# "small-fixes: N passed, N failed".
set -u
D=tests/data/traces
unset DISPLAY WAYLAND_DISPLAY SDL_VIDEODRIVER
. "$(dirname "$0")/expect.sh"
scratch small-fixes

# ---- 1. Paje names: pj_dump's rows of one type have one field count ---------
"$CUBEMU" run --trace "$T/t.trace" >/dev/null 2>&1
check paje-export "$CUBEMU" trace export "$T/t.trace" --format paje -o "$T/t.paje"
run pj_dump "$T/t.paje"
counts=$(printf '%s\n' "$out" | awk -F', ' '{print $1, NF}' | sort -u)
types=$(printf '%s\n' "$counts" | awk '{print $1}' | sort -u | wc -l)
if [ "$rc" = 0 ] && [ "$(printf '%s\n' "$counts" | wc -l)" = "$types" ] \
   && printf '%s\n' "$counts" | grep -q '^Container 7$' \
   && printf '%s\n' "$counts" | grep -q '^State 8$'; then ok paje-rows-even
else out="$counts"; bad paje-rows-even; fi
if ! grep -q '^5 0 C_M CT_Machine 0 "[^",]*"$' "$T/t.paje"; then
  out=$(grep '^5 0 C_M ' "$T/t.paje"); bad paje-machine-name
else ok paje-machine-name; fi

# ---- 2. Chrome: no "ns" display unit, the time base in otherData ------------
check chrome-export "$CUBEMU" trace export "$T/t.trace" --format chrome -o "$T/t.json"
# The default machine (cm200-8k) has a tick length: the axis is still
# ticks, tick_seconds says how long one is.
run python3 - "$T/t.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert "displayTimeUnit" not in d, d["displayTimeUnit"]
o = d["otherData"]
assert o["time_unit"] == "1 tick = 1 us of display time", o
assert o["tick_seconds"] == 1e-7, o
PY
if [ "$rc" = 0 ]; then ok chrome-tick-seconds; else bad chrome-tick-seconds; fi
# A machine without one: the same axis, no tick_seconds.
"$CUBEMU" run $D/gray-sequential-4.ini --trace "$T/c.trace" >/dev/null 2>&1
"$CUBEMU" trace export "$T/c.trace" --format chrome -o "$T/c.json" >/dev/null 2>&1
run python3 - "$T/c.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert "displayTimeUnit" not in d, d["displayTimeUnit"]
assert d["otherData"]["time_unit"] == "1 tick = 1 us of display time", d["otherData"]
assert "tick_seconds" not in d["otherData"]
PY
if [ "$rc" = 0 ]; then ok chrome-time-unit-cycles; else bad chrome-time-unit-cycles; fi

# ---- 3. cubemu list: transpose radix, rank1's method ------------------------
run "$CUBEMU" list
list=$out
radix=$(printf '%s\n' "$list" | grep '^      radix ')
if [ "$radix" = "      radix                integer 2..16384, default 2: bruck: the radix r, 2..P" ]
then ok list-transpose-radix; else out=$radix; bad list-transpose-radix; fi
rank1=$(printf '%s\n' "$list" | sed -n '/^  rank1:/,/^  [a-z]/p' | grep '^      tree ')
if [ -n "$rank1" ] && [[ "$rank1" != *reduce* ]] && [[ "$rank1" == *"local BLAS [default]" ]]
then ok list-rank1-steps; else out=$rank1; bad list-rank1-steps; fi
matvec=$(printf '%s\n' "$list" | sed -n '/^  matvec:/,/^  [a-z]/p' | grep '^      tree ')
if [[ "$matvec" == *"reduce (the trees backwards), align [default]" ]]
then ok list-matvec-steps; else out=$matvec; bad list-matvec-steps; fi
expect_has transpose-radix-1 2 "radix" -- "$CUBEMU" run \
    --set algorithm.name=transpose --set algorithm.method=bruck --set algorithm.radix=1

# ---- 4, 5. headless frames: no key help; the header's phase ----------------
# png.py PNG X0 Y0 X1 Y1 colours: how many colours in [X0,X1) x [Y0,Y1);
# png.py PNG X0 Y0 X1 Y1 right BG: the last column with a pixel not BG.
cat > "$T/png.py" <<'PY'
import struct, sys, zlib
def load(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and interlace == 0 and ctype in (2, 6)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return rows
rows = load(sys.argv[1])
x0, y0, x1, y1 = map(int, sys.argv[2:6])
if sys.argv[6] == "colours":
    print(len({rows[y][x] for y in range(y0, y1) for x in range(x0, x1)}))
else:
    bg = rows[y0][x1 - 1]
    print(max([x for y in range(y0, y1) for x in range(x0, x1) if rows[y][x] != bg] or [-1]))
PY
png() { python3 "$T/png.py" "$@" 2>&1; }
"$CUBEMU" run $D/gray-sequential-4.ini --trace "$T/g4.trace" >/dev/null 2>&1
check view-png "$CUBEMU" view "$T/g4.trace" --png "$T/a.png" --at 10 --window 1
# The side panel's foot, under the heat legend, held the keys' help: now
# one flat colour. The legend's own text just above still shows (the
# reader works).
run png "$T/a.png" 1040 612 1276 680 colours
if [ "$out" = 1 ]; then ok png-no-key-help; else bad png-no-key-help; fi
run png "$T/a.png" 1040 590 1276 606 colours
if [ "$out" -gt 1 ] 2>/dev/null; then ok png-legend-text; else bad png-legend-text; fi
check view-frames "$CUBEMU" view "$T/g4.trace" --frames "$T/frames" --frame-count 2
run png "$T/frames/frame-00001.png" 1040 612 1276 680 colours
if [ "$out" = 1 ]; then ok frame-no-key-help; else bad frame-no-key-help; fi
# What the header says of the phases, and that it agrees with the
# timeline, is checked word for word by tests/traces.sh (phases-*).

# ---- 6. machine.startup / element-time errors, once -------------------------
expect startup-error-once 2 \
  "cubemu run: --set machine.startup=abc: startup: 'abc' is not an integer" \
  -- "$CUBEMU" run --set machine.startup=abc
expect element-time-error-once 2 \
  "cubemu run: --set machine.element-time=abc: element-time: 'abc' is not an integer" \
  -- "$CUBEMU" run --set machine.element-time=abc
run "$CUBEMU" run --set machine.router.startup=x --set machine.startup=y
if [ "$rc" = 2 ] && [ "$(printf '%s\n' "$out" | grep -c "startup: 'y'")" = 1 ] \
   && [ "$(printf '%s\n' "$out" | grep -c "router.startup: 'x'")" = 1 ]; then
  ok startup-class-and-plain-once
else bad startup-class-and-plain-once; fi

echo "small-fixes: $passed passed, $failed failed"
[ "$failed" = 0 ]
