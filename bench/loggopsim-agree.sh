#!/usr/bin/env bash
# bench/loggopsim-agree.sh -- make bench-loggopsim: cubemu's LogGP model
# (model = loggp, machines/loggp.ini) against LogGOPSim itself (Hoefler,
# Schneider & Lumsdaine, "LogGOPSim - Simulating Large-Scale Applications
# in the LogGOPS Model", HPDC 2010, LSAP workshop). Schedgen writes each
# pattern's schedule; LogGOPSim and `cubemu run --json` time it with the
# same L, o, g, G, O, S; every rank's finish time must be equal.
#   LOGGOPSIM  a folder with bin/schedgen, bin/txt2bin and bin/LogGOPSim
#              (the peer is not part of the tree: without it this script
#              says so and succeeds, as make bench's other peers do)
#   LOGGP_CASES  the cases, "RANKS:BYTES ..." (default below)
#   LOGGP      the parameters, "L o g G O S" (default LogGOPSim's own:
#              2500 1500 1000 6 0 65535)
# LogGOPSim prints every host's finish time up to 16 ranks and only the
# latest (host and time) above: there the latest is compared. Prints a
# table (pattern, ranks, bytes, ranks compared, max |diff|, verdict),
# and records each case in BENCH_DATA (bench/record.h; default
# bench/results.tsv) as "loggp agree: PATTERN p=P bytes=D": LogGOPSim's
# and cubemu's latest finish time (ns), the largest difference over the
# ranks compared, and agree (1/0; both ending with receives never matched
# counts as agreement); exit status 1 on any disagreement or failed run.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
if [ -z "${LOGGOPSIM:-}" ] || [ ! -x "$LOGGOPSIM/bin/LogGOPSim" ] \
   || [ ! -x "$LOGGOPSIM/bin/schedgen" ] || [ ! -x "$LOGGOPSIM/bin/txt2bin" ]; then
  echo "loggopsim-agree: skipped: set LOGGOPSIM to a folder with bin/schedgen, bin/txt2bin and bin/LogGOPSim"
  exit 0
fi
fail=0
. bench/lib.sh
bench_setup || exit 1
read -r L o g G O S <<< "${LOGGP:-2500 1500 1000 6 0 65535}"
patterns="binomialtreebcast binomialtreereduce dissemination allreduce_recdoub allreduce_ring linear_alltoall pipelinedring"
# sizes: ranks and bytes a step; the last is a message above S (rendezvous)
cases=${LOGGP_CASES:-"8:8 16:1024 64:8 256:8 8:$((4 * (S + 1))) 16:$((4 * (S + 1)))"}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
status=0
printf '%-20s %5s %8s %9s %10s  %s\n' pattern ranks bytes compared "max |diff|" verdict
for c in $cases; do
  p=${c%%:*}
  d=${c##*:}
  for pat in $patterns; do
    base="$work/$pat-$p-$d"
    # the pipelined ring in four segments (above S in the last cases)
    seg=$(( d >= 4 ? d / 4 : 1 ))
    if ! "$LOGGOPSIM/bin/schedgen" -p "$pat" -s "$p" -d "$d" --segmentsize "$seg" -o "$base.goal" > /dev/null 2>&1 \
       || ! "$LOGGOPSIM/bin/txt2bin" -i "$base.goal" -o "$base.bin" > /dev/null 2>&1 \
       || ! "$LOGGOPSIM/bin/LogGOPSim" -f "$base.bin" -L "$L" -o "$o" -g "$g" -G "$G" -O "$O" \
              -S "$S" > "$base.peer" 2>&1; then
      printf '%-20s %5s %8s %9s %10s  %s\n' "$pat" "$p" "$d" - - "FAILED (the peer)"
      record "loggp agree: $pat p=$p bytes=$d" agree 0 ""
      status=1
      continue
    fi
    cat > "$base.ini" <<INI
[machine]
preset = loggp
processors = $p
loggp.L = $L
loggp.o = $o
loggp.g = $g
loggp.G = $G
loggp.O = $O
loggp.S = $S
[algorithm]
name = schedule
schedule = $(basename "$base").goal
element-bytes = 1
INI
    if ! "$BUILD/cubemu" run --json "$base.ini" > "$base.json" 2> "$base.err"; then
      # Both ending with receives never matched is agreement
      # (docs/schedules.md, Agreeing with LogGOPSim: the ring all-reduce
      # of 16 ranks or more)
      if grep -q "deadlock in the LogGP model" "$base.err" \
         && grep -q "^receive queue on host" "$base.peer"; then
        printf '%-20s %5s %8s %9s %10s  %s\n' "$pat" "$p" "$d" - - "agree (neither completes)"
        record "loggp agree: $pat p=$p bytes=$d" agree 1 ""
        continue
      fi
      printf '%-20s %5s %8s %9s %10s  %s\n' "$pat" "$p" "$d" - - "FAILED (cubemu: $(head -c 200 "$base.err"))"
      record "loggp agree: $pat p=$p bytes=$d" agree 0 ""
      status=1
      continue
    fi
    line=$(python3 - "$base.peer" "$base.json" <<'PY'
import json, re, sys
peer = open(sys.argv[1]).read()
ours = json.load(open(sys.argv[2]))["details"]["rank_finish"]
hosts = {int(h): int(t) for h, t in re.findall(r"^Host (\d+): (\d+)$", peer, re.M)}
if hosts:
    if len(hosts) != len(ours):
        print("%d -1 %d %d disagree" % (len(hosts), max(hosts.values()), max(ours))); sys.exit()
    diff = max(abs(hosts[r] - ours[r]) for r in hosts)
    print("%d %d %d %d %s" % (len(hosts), diff, max(hosts.values()), max(ours),
                              "agree" if diff == 0 else "DISAGREE"))
    sys.exit()
m = re.search(r"^Maximum finishing time at host (\d+): (\d+)", peer, re.M)
if not m:
    print("0 -1 - %d no-times" % max(ours)); sys.exit()
h, t = int(m.group(1)), int(m.group(2))
# LogGOPSim names the first host of the latest time
late = max(ours)
first = ours.index(late)
diff = abs(late - t)
ok = diff == 0 and first == h
print("latest %d %d %d %s" % (diff, t, late, "agree" if ok else "DISAGREE (host %d vs %d)" % (first, h)))
PY
)
    read -r compared diff theirs ours verdict <<< "$line"
    printf '%-20s %5s %8s %9s %10s  %s\n' "$pat" "$p" "$d" "$compared" "$diff" "$verdict"
    record "loggp agree: $pat p=$p bytes=$d" loggopsim_latest "$theirs" ns
    record "loggp agree: $pat p=$p bytes=$d" cubemu_latest "$ours" ns
    record "loggp agree: $pat p=$p bytes=$d" max_diff "$diff" ns
    if [ "$verdict" = agree ]; then
      record "loggp agree: $pat p=$p bytes=$d" agree 1 ""
    else
      record "loggp agree: $pat p=$p bytes=$d" agree 0 ""
      status=1
    fi
  done
done
[ $status = 0 ] && echo "loggopsim-agree: every rank agrees" || echo "loggopsim-agree: DISAGREEMENT"
[ "$fail" = 0 ] || status=1
exit $status
