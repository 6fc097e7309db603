#!/usr/bin/env bash
# tests/loggp.sh -- the LogGP model (model = loggp, machines/loggp.ini)
# against LogGOPSim without the peer: Schedgen's schedules and
# LogGOPSim's per-host finish times, committed under tests/data/loggopsim/
# (its README says how they were made). Every rank's finish time must be
# LogGOPSim's exactly; the ring all-reduce of 16 ranks, which LogGOPSim
# leaves with receives never matched, must end so here too. Then the
# model's refusals: another topology, another algorithm, a LogGP key
# without the model, a tick that is not a nanosecond. Ends with
# "loggp: N passed, N failed".
set -u
BUILD=${BUILD:-build}
. "$(dirname "$0")/expect.sh"
scratch loggp
DATA=$(cd "$(dirname "$0")/data/loggopsim" && pwd)

scenario() {   # scenario FILE GOAL RANKS [extra [machine] lines]
  local file=$1 goal=$2 ranks=$3; shift 3
  {
    printf '[machine]\npreset = loggp\nprocessors = %s\n' "$ranks"
    for l in "$@"; do printf '%s\n' "$l"; done
    printf '[algorithm]\nname = schedule\nschedule = %s\nelement-bytes = 1\n' "$goal"
  } > "$file"
}

n=0
for goal in "$DATA"/*.goal; do
  name=$(basename "$goal" .goal)
  ranks=$(sed -n 's/^num_ranks \([0-9]*\)$/\1/p' "$goal")
  scenario "$T/$name.ini" "$goal" "$ranks"
  if [ -s "$DATA/$name.times" ]; then
    run "$CUBEMU" run --json "$T/$name.ini"
    got=$(printf '%s' "$out" | python3 -c 'import json,sys; print("\n".join(str(t) for t in json.load(sys.stdin)["details"]["rank_finish"]))' 2>/dev/null)
    if [ "$rc" = 0 ] && [ "$got" = "$(cat "$DATA/$name.times")" ]; then ok "$name"; else
      printf '  expected:\n%s\n  got:\n%s\n' "$(cat "$DATA/$name.times")" "$got"; bad "$name"; fi
  else
    # a failed run (exit 1), every rank named with its oldest receive
    expect_has "$name-never-completes" 1 "deadlock in the LogGP model: 16 rank(s) never finish
  rank 0 waits on recv 16384b from 15 tag 0 ($DATA/$name.goal:" -- \
      "$CUBEMU" run "$T/$name.ini"
  fi
  n=$((n + 1))
done
[ "$n" -ge 14 ] && ok data-present || miss "data-present (found $n schedules)"

# cycles and seconds are the latest rank's, in nanoseconds
run "$CUBEMU" run --json "$T/binomialtreebcast-8-8.ini"
if [ "$rc" = 0 ] && [[ "$out" == *'"cycles":16626,'* ]] && [[ "$out" == *'"seconds":1.6626e-05,'* ]]; then
  ok cycles-are-latest-finish; else bad cycles-are-latest-finish; fi

# the same schedule at other parameters (o = 0, L = 0): LogGOPSim's
# `LogGOPSim -f binomialtreebcast-8-8.bin -o 0 -L 0` prints these
scenario "$T/gaps.ini" "$DATA/binomialtreebcast-8-8.goal" 8 "loggp.o = 0" "loggp.L = 0"
run "$CUBEMU" run --json "$T/gaps.ini"
if [ "$rc" = 0 ] && [[ "$out" == *'"rank_finish":[2084,1084,1084,84,2126,1126,1126,126]'* ]]; then
  ok no-overhead-no-latency; else bad no-overhead-no-latency; fi

# refusals: exit status 2, a message naming the key
cat > "$T/cube.ini" <<INI
[machine]
topology = cube
dimensions = 3
model = loggp
[algorithm]
name = schedule
schedule = $DATA/binomialtreebcast-8-8.goal
INI
expect_has other-topology 2 "model = loggp needs topology = complete (LogGP has no topology" -- "$CUBEMU" run "$T/cube.ini"
cat > "$T/exchange.ini" <<INI
[machine]
preset = loggp
processors = 8
[algorithm]
name = shift
INI
expect_has other-algorithm 2 "algorithm 'shift' cannot run on a machine of model = loggp" -- "$CUBEMU" run "$T/exchange.ini"
cat > "$T/key.ini" <<INI
[machine]
topology = complete
processors = 8
loggp.L = 5
[algorithm]
name = schedule
schedule = $DATA/binomialtreebcast-8-8.goal
INI
expect_has key-without-model 2 "'loggp.L' needs model = loggp" -- "$CUBEMU" run "$T/key.ini"
scenario "$T/tick.ini" "$DATA/binomialtreebcast-8-8.goal" 8 "tick-seconds = 1e-6"
expect_has tick-not-ns 2 "tick-seconds: model = loggp counts nanoseconds" -- "$CUBEMU" run "$T/tick.ini"
scenario "$T/neg.ini" "$DATA/binomialtreebcast-8-8.goal" 8 "loggp.g = -1"
expect negative-gap 2 "cubemu run: $T/neg.ini:4: loggp.g: -1 is out of range (valid: 0..2147483647)" -- "$CUBEMU" run "$T/neg.ini"

# The report names the model's parameters, in the text and in the JSON,
# which docs/report.schema.json accepts (schema 8)
scenario "$T/report.ini" "$DATA/binomialtreebcast-8-8.goal" 8 "loggp.L = 3000"
expect_has report-machine-line 0 "ports = all, LogGP L = 3000, o = 1500, g = 1000, G = 6, O = 0, S = 65535 bytes, tick = 1e-09 s" -- \
  "$CUBEMU" run "$T/report.ini"
run "$CUBEMU" run --json "$T/report.ini"
if [ "$rc" = 0 ] && printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["schema"] == 8
assert d["machine"]["loggp"] == {"L": 3000, "o": 1500, "g": 1000, "G": 6, "O": 0, "S": 65535}
try:
    import jsonschema
except ImportError:
    sys.exit(0)
jsonschema.validate(d, json.load(open("docs/report.schema.json")))
'; then ok report-json-loggp; else bad report-json-loggp; fi

echo "loggp: $passed passed, $failed failed"
[ "$failed" = 0 ]
