#!/usr/bin/env bash
# tests/record.sh -- cubemu run --schedule-out (docs/schedules.md,
# "Recording a run") and cubemu machine export --simgrid ("Exporting to
# SimGrid"):
#  1. every scenario of scenarios/ recorded as GOAL; where the recording
#     says it replays exactly ("exact: yes" in its header), replayed with
#     the schedule algorithm on the same [machine] and the header's route
#     and time-unit, and its cycles, messages and element transfers equal
#     to the run's; where it says it does not, the scenario and the reason
#     printed, and the set of such scenarios asserted to be the one below
#     (so a recorder that stopped being exact fails); the SKIPPED ones,
#     whose runs take seconds, printed with the reason;
#  2. SDK node programs (examples/programs/) recorded and replayed alike;
#  3. the time-independent trace's files against the GOAL recording of the
#     same run, operation for operation;
#  4. bad input: exit 2 and the message;
#  5. with SimGrid (smpirun, SMPI's replay): recorded traces replayed on
#     the exported platform, every rank's actions counted in SMPI's log,
#     and the simulated time against the run's; skipped with a message
#     where SimGrid is absent (make deps-simgrid installs it).
set -uo pipefail
self=$(realpath "$0")
cd "$(dirname "$0")/.."
. tests/expect.sh
scratch record
[ -x "$CUBEMU" ] || { echo "record.sh: $CUBEMU is missing (make)"; exit 1; }

# Scenarios whose run takes seconds (millions of element transfers, or
# a 4096-node machine): recorded elsewhere at smaller sizes by the same
# algorithms. Patterns, against the path.
SKIPPED=(
  "scenarios/paper/johnsson-ho-theorem3-delta8-*|15 million element transfers (delta8-K32-*: the delta = 2, 3, 4 scenarios are recorded)"
  "scenarios/matmul/table5-cm200-8k-[124]0[249]*|10^8 and more cycles (table5-cm200-8k-256 and -512 are recorded)"
  "scenarios/fft/mesh-1d.ini|16 million element transfers (the other fft scenarios are recorded)"
  "scenarios/bmmc/bit-reversal-11cube-np256-processor-*|2.6 million element transfers on 2048 nodes, each its own message (the np256-f4 one is recorded)"
  "scenarios/bmmc/transpose-512x1024-11cube-*|2.9 million element transfers on 2048 nodes (the smaller transposes are recorded)"
  "scenarios/dblas/cm200-8k-*-4096*|4096 elements a node on 256 nodes (the 512 to 2048 ones are recorded)"
)

# Scenarios whose recording does not replay exactly, by the reason its
# header gives (workloads/record.h; docs/schedules.md lists the same).
NOT_EXACT=(
  "scenarios/paper/johnsson-ho-theorem[34]-*|off-route"
  "scenarios/fft/torus-16x16.ini|off-route"
  "scenarios/dblas/cm200-8k-*|mixed-classes"
  "scenarios/dblas/table1-base.ini|mixed-classes"
  "scenarios/matmul/*cm200-8k*|mixed-classes"
  "scenarios/matmul/table[36]-base.ini|mixed-classes"
  "scenarios/schedule/*|operation-level"
)

# first_match VAR PATH: the text after | of the first pattern of array VAR
# that PATH matches, or nothing.
first_match() {
  local -n list=$1
  local e
  for e in "${list[@]}"; do
    # shellcheck disable=SC2053
    if [[ $2 == ${e%%|*} ]]; then printf '%s' "${e#*|}"; return; fi
  done
}

# json_fields FILE: "cycles messages element_transfers" of a JSON report
# (the report's first keys of these names are its top level's)
json_fields() {
  local f
  for f in cycles messages element_transfers; do
    grep -o "\"$f\":[0-9]*" "$1" | head -n 1 | cut -d: -f2
  done | paste -sd ' '
}

# replay_ini GOAL SCENARIO OUT: a scenario replaying GOAL on SCENARIO's
# [machine], with the route and time-unit GOAL's header names.
replay_ini() {
  local line route unit
  line=$(grep -m1 '^// replay: ' "$1")
  route=$(sed -nE 's/.*route = ([a-z]+),.*/\1/p' <<<"$line")
  unit=$(sed -nE 's/.*time-unit = ([^,]+),.*/\1/p' <<<"$line")
  { echo "[machine]"
    awk '/^\[machine\]/ { m = 1; next } /^\[/ { m = 0 } m' "$2"
    printf '[algorithm]\nname = schedule\nschedule = %s\nroute = %s\ntime-unit = %s\n' \
      "$1" "$route" "$unit"
  } >"$3"
}

# record_replay NAME SCENARIO [cubemu run options...]: record SCENARIO; if
# exact, replay it and compare; sets $verdict to exact, or the reason.
record_replay() {
  local name=$1 s=$2 g="$T/$1.goal"
  shift 2
  verdict=""
  run "$CUBEMU" run "$s" --json --schedule-out "$g" "$@"
  # exit 1: a check failed, as some scenarios' [expect] do on purpose
  if [ "$rc" -gt 1 ] || [ ! -s "$g" ]; then bad "record $s"; verdict=failed; return; fi
  printf '%s\n' "$out" | sed -n '/^{/,$p' >"$T/$name.run.json"
  if ! grep -q '^// exact: yes' "$g"; then
    verdict=$(sed -nE 's|^// exact: no \(([^)]*)\).*|\1|p' "$g")
    [ -n "$verdict" ] || { bad "record $s: no exact: line"; verdict=failed; }
    return
  fi
  verdict=exact
  replay_ini "$g" "$s" "$T/$name.replay.ini"
  run "$CUBEMU" run "$T/$name.replay.ini" --json
  if [ "$rc" != 0 ]; then bad "replay $s (data verified, exit 0)"; return; fi
  printf '%s\n' "$out" >"$T/$name.replay.json"
  local a b
  a=$(json_fields "$T/$name.run.json"); b=$(json_fields "$T/$name.replay.json")
  if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "replay $s: cycles, messages, element transfers $a"
  else rc=0; out="run: $a, replay: $b"; bad "replay $s: cycles, messages, element transfers"; fi
}

# --- 1. every scenario ----------------------------------------------------
# `record.sh --one SCENARIO` records and replays one scenario, prints its
# ok and FAIL lines and, last, "verdict SCENARIO VERDICT"; the scenarios
# go through two of them at a time (as run-all.sh's cubemu check -j 2).
if [ "${1:-}" = --one ]; then
  record_replay "$(tr '/' '_' <<<"${2%.ini}")" "$2"
  echo "verdict $2 $verdict"
  exit 0
fi
mapfile -t scen < <(find scenarios -name '*.ini' | sort)
exact=0
not_exact=()
skipped=()
todo=()
for s in "${scen[@]}"; do
  why=$(first_match SKIPPED "$s")
  if [ -n "$why" ]; then skipped+=("$s: $why"); else todo+=("$s"); fi
done
# the workers' scratch is theirs: each has its own $T
printf '%s\0' "${todo[@]}" | CUBEMU="$CUBEMU" xargs -0 -n 1 -P 2 "$self" --one >"$T/all.out" 2>&1
grep -v '^verdict ' "$T/all.out"
passed=$((passed + $(grep -c '^ok ' "$T/all.out")))
failed=$((failed + $(grep -c '^FAIL ' "$T/all.out")))
declare -A verdicts=()
while read -r _ s v; do verdicts[$s]=$v; done < <(grep '^verdict ' "$T/all.out")
for s in "${todo[@]}"; do
  verdict=${verdicts[$s]:-}
  want=$(first_match NOT_EXACT "$s")
  case "$verdict" in
    "") miss "record $s: no verdict" ;;
    failed) ;;
    exact)
      exact=$((exact + 1))
      if [ -n "$want" ]; then miss "record $s: exact, but listed as not ($want)"; fi ;;
    *)
      not_exact+=("$s: $verdict")
      if [ "$verdict" = "$want" ]; then ok "record $s: not exact ($verdict), as listed"
      else miss "record $s: not exact ($verdict), listed as '${want:-exact}'"; fi ;;
  esac
done
echo "recorded and replayed exactly: $exact scenarios"
echo "recording not defined as an exact replay (scenario: reason):"
printf '  %s\n' "${not_exact[@]}"
echo "  (off-route: explicit paths a schedule cannot name; mixed-classes: routed"
echo "  and one-link sends to neighbours, which a schedule's route cannot tell"
echo "  apart; operation-level: a program whose calls follow completions)"
echo "skipped, runs too large for a smoke test (scenario: reason):"
printf '  %s\n' "${skipped[@]}"
# the skip list names scenarios that exist
for e in "${SKIPPED[@]}"; do
  n=0
  for s in "${scen[@]}"; do [[ $s == ${e%%|*} ]] && n=$((n + 1)); done
  [ "$n" -gt 0 ] || miss "skip pattern ${e%%|*} matches no scenario"
done

# --- 2. SDK node programs --------------------------------------------------
CC=${CC:-cc}
for p in bitonic allreduce; do
  if ! "$CC" -std=c11 -Wall -shared -fPIC -Isdk "examples/programs/$p.c" -o "$T/$p.so" 2>"$T/cc.err"; then
    out=$(cat "$T/cc.err"); rc=1; bad "build examples/programs/$p.c"; continue
  fi
  for ini in examples/programs/"$p"*.ini; do
    cp "$ini" "$T/"
    record_replay "sdk-$(basename "$ini" .ini)" "$T/$(basename "$ini")"
    [ "$verdict" = exact ] || [ "$verdict" = failed ] || miss "record $ini: not exact ($verdict)"
  done
done

# --- 3. the time-independent trace against GOAL ---------------------------
s=scenarios/schedule/dissemination-64-cube.ini
check ti-record "$CUBEMU" run "$s" --schedule-out "$T/d.tit"
check ti-goal "$CUBEMU" run "$s" --schedule-out "$T/d.goal"
# every rank's isends and irecvs are its sends and receives, peer, tag,
# bytes, in the same order per (kind, peer, tag); one index line a rank
run python3 - "$T/d.tit" "$T/d.goal" <<'EOF'
import re, sys
tit, goal = sys.argv[1], sys.argv[2]
want = {}
rank = None
for line in open(goal):
    m = re.match(r'rank (\d+) \{', line)
    if m:
        rank = int(m.group(1)); want[rank] = []; continue
    m = re.match(r'\w+: (send|recv) (\d+)b (?:to|from) (\d+) tag (\d+)', line)
    if m:
        want[rank].append(('isend' if m.group(1) == 'send' else 'irecv',
                           int(m.group(3)), int(m.group(4)), int(m.group(2))))
files = [l.strip() for l in open(tit) if l.strip()]
assert len(files) == len(want), (len(files), len(want))
for r, f in enumerate(files):
    got, lines = [], [l.split() for l in open(f) if not l.startswith('#')]
    assert lines[0] == [str(r), 'init'] and lines[-1] == [str(r), 'finalize'], f
    for w in lines:
        assert w[0] == str(r), (f, w)
        if w[1] in ('isend', 'irecv'):
            got.append((w[1], int(w[2]), int(w[3]), int(w[4])))
    assert sorted(got) == sorted(want[r]), (r, got, want[r])
    # each (kind, peer, tag)'s requests in the schedule's order
    key = lambda x: x[:3]
    for k in set(map(key, got)):
        assert [x for x in got if key(x) == k] == [x for x in want[r] if key(x) == k], (r, k)
print(sum(len(v) for v in want.values()))
EOF
if [ "$rc" = 0 ] && [ "$out" = 768 ]; then ok "ti-matches-goal: 768 isends and irecvs, rank by rank"
else bad "ti-matches-goal"; fi

# a trace and a schedule in one run (the observers teed): the same
# schedule as alone, and the trace written
check both-record "$CUBEMU" run "$s" --trace "$T/both.trace" --schedule-out "$T/both.goal"
if [ -s "$T/both.trace" ] && cmp -s "$T/both.goal" "$T/d.goal"; then ok "both: the trace written, the schedule as recorded alone"
else miss "both: the trace written, the schedule as recorded alone"; fi
# --schedule-format over the extension
check format-by-name "$CUBEMU" run "$s" --schedule-out "$T/named.goal" --schedule-format simgrid
if [ "$(wc -l <"$T/named.goal")" = 64 ] && [ -s "$T/named.goal_files/rank-63.txt" ]; then ok "format-by-name: a 64-line index and 64 rank files"
else miss "format-by-name: a 64-line index and 64 rank files"; fi

# --- 4. bad input ------------------------------------------------------------
expect bad-path 2 "cubemu run: --schedule-out: $T/none/x.goal: cannot write: No such file or directory" -- \
  "$CUBEMU" run scenarios/shift/torus.ini --schedule-out "$T/none/x.goal"
[ ! -e "$T/none" ] && ok "bad-path: nothing written" || miss "bad-path: something written"
expect bad-extension 2 "cubemu run: --schedule-out: $T/x.txt: unknown schedule format (valid extensions: .goal, .tit)" -- \
  "$CUBEMU" run scenarios/shift/torus.ini --schedule-out "$T/x.txt"
expect bad-format 2 "cubemu run: --schedule-out: unknown schedule format 'gaol'; did you mean 'goal'? (valid: goal, simgrid)" -- \
  "$CUBEMU" run scenarios/shift/torus.ini --schedule-out "$T/x.txt" --schedule-format gaol
expect format-alone 2 "cubemu run: --schedule-format names --schedule-out's format: give --schedule-out too" -- \
  "$CUBEMU" run scenarios/shift/torus.ini --schedule-format goal
mkdir "$T/ro" && chmod 555 "$T/ro"
if [ -w "$T/ro" ]; then echo "skip bad-folder: running as a user who writes anywhere"
else expect_has bad-folder 2 "cubemu run: --schedule-out: $T/ro/x.tit: cannot write:" -- \
  "$CUBEMU" run scenarios/shift/torus.ini --schedule-out "$T/ro/x.tit"; fi
printf '[machine]\npreset = cube\ndimensions = 6\n[algorithm]\nname = schedule\nschedule = d.tit\n' >"$T/ti.ini"
expect_has read-only-format 2 "$T/d.tit: schedule format 'simgrid' is written, not read (read: goal)" -- \
  "$CUBEMU" run "$T/ti.ini"
expect export-too-large 2 "cubemu machine: export: scenarios/fft/cube-12.ini: 4096 nodes, and a SimGrid platform lists a route for every pair of them: at most 256 nodes (65280 routes)" -- \
  "$CUBEMU" machine export --simgrid scenarios/fft/cube-12.ini -o "$T/big.xml"
[ ! -e "$T/big.xml" ] && ok "export-too-large: nothing written" || miss "export-too-large: a file written"
expect export-loggp 2 "cubemu machine: export: default: a machine of model = loggp is timed by LogGP's L, o, g, G, not by channels, and a SimGrid platform is channels: export a machine of model = engine" -- \
  "$CUBEMU" machine export --simgrid --set machine.preset=loggp --set machine.processors=8 -o "$T/loggp.xml"
[ ! -e "$T/loggp.xml" ] && ok "export-loggp: nothing written" || miss "export-loggp: a file written"
expect export-bad-path 2 "cubemu machine: $T/none/p.xml: cannot write: No such file or directory" -- \
  "$CUBEMU" machine export --simgrid scenarios/shift/torus.ini -o "$T/none/p.xml"
expect export-no-format 2 "cubemu machine: export: give the format: --simgrid (the one there is)" -- \
  "$CUBEMU" machine export scenarios/shift/torus.ini
# the platform: 64 hosts, 6 x 64 channels, 6 route lengths, 64 x 63 routes
check export-cube "$CUBEMU" machine export --simgrid "$s" -o "$T/d.xml" --hostfile "$T/d.hosts"
run python3 -c '
import sys, xml.etree.ElementTree as ET
z = ET.parse(sys.argv[1]).getroot().find("zone")
print(len(z.findall("host")), len(z.findall("link")), len(z.findall("route")))' "$T/d.xml"
expect_has export-cube-counts 0 "64 390 4032" -- printf '%s' "$out"
[ "$(wc -l <"$T/d.hosts")" = 64 ] && ok "export-cube-hostfile: 64 lines" || miss "export-cube-hostfile"

# --- 5. SimGrid's replay --------------------------------------------------
REPLAY=${SMPI_REPLAY:-/usr/lib/x86_64-linux-gnu/simgrid/smpireplaymain}
if ! command -v smpirun >/dev/null || [ ! -x "$REPLAY" ]; then
  echo "skip simgrid: no smpirun or $REPLAY (make deps-simgrid installs SimGrid)"
else
  # smpi_replay TIT XML HOSTS LOG: SMPI's replay of TIT, every action logged
  # (smpi_replay's verbose level); CM02, SimGrid's model without SMPI's
  # measured latency and bandwidth factors, so that a link costs what the
  # platform says.
  smpi_replay() {
    local n
    n=$(wc -l <"$3")
    run timeout 120 smpirun -np "$n" -platform "$2" -hostfile "$3" -replay "$1" \
      --cfg=network/model:CM02 --cfg=network/TCP-gamma:0 \
      --log=smpi_replay.thres:verbose --log=root.fmt:'%m%n' "$REPLAY"
    printf '%s\n' "$out" >"$4"
  }
  # actions_match TIT LOG: every rank's actions but init and finalize are
  # in the log, as many as in its file
  actions_match() {
    python3 - "$1" "$2" <<'EOF'
import collections, sys
files = [l.strip() for l in open(sys.argv[1]) if l.strip()]
logged = collections.Counter()
for l in open(sys.argv[2]):
    w = l.split()
    if len(w) > 2 and w[0].isdigit() and w[1] in ('isend', 'irecv', 'wait', 'waitall', 'sleep'):
        logged[int(w[0])] += 1
bad = 0
for r, f in enumerate(files):
    want = sum(1 for l in open(f) if not l.startswith('#') and l.split()[1] not in ('init', 'finalize'))
    if logged[r] != want:
        print('rank', r, 'logged', logged[r], 'of', want); bad += 1
print(sum(logged.values()), 'actions,', len(files), 'ranks,', bad, 'differ')
EOF
  }
  sim_time() { sed -nE 's/.*Simulation time ([0-9.]+).*/\1/p' "$1" | tail -n 1; }
  # 5a. a 6-cube's dissemination barrier (contended, dependent steps)
  set_tick=(--set machine.tick-seconds=1e-3)
  check sg-record "$CUBEMU" run "$s" "${set_tick[@]}" --schedule-out "$T/sg.tit"
  check sg-export "$CUBEMU" machine export --simgrid "$s" "${set_tick[@]}" -o "$T/sg.xml" --hostfile "$T/sg.hosts"
  smpi_replay "$T/sg.tit" "$T/sg.xml" "$T/sg.hosts" "$T/sg.log"
  [ "$rc" = 0 ] && ok "sg-replay: smpirun -replay completes" || bad "sg-replay: smpirun -replay completes"
  expect_has sg-actions 0 "832 actions, 64 ranks, 0 differ" -- actions_match "$T/sg.tit" "$T/sg.log"
  t=$(sim_time "$T/sg.log")
  # 64 ranks, 6 rounds of one 8-byte message each: at least 6 element
  # times of a millisecond, and far below a second
  run python3 -c 'import sys; t = float(sys.argv[1]); sys.exit(not (0.006 <= t < 1))' "${t:-0}"
  [ "$rc" = 0 ] && ok "sg-time: $t s, positive, at least 6 element-times" || { out="simulated time '$t'"; bad sg-time; }
  # 5b. an uncontended shift of 1000 elements around the 8-cube's Gray
  # ring: one message a node over its own channel, which the platform
  # prices as the run does (Ts + m Tw); SMPI adds a protocol's few
  # element-times
  g=scenarios/shift/cube-gray-ring.ini
  ring=(--set machine.tick-seconds=1e-6 --set algorithm.elements-per-node=1000)
  check sg-ring-record "$CUBEMU" run "$g" "${ring[@]}" --json --schedule-out "$T/ring.tit"
  printf '%s\n' "$out" >"$T/ring.json"
  check sg-ring-export "$CUBEMU" machine export --simgrid "$g" "${ring[@]}" -o "$T/ring.xml" --hostfile "$T/ring.hosts"
  smpi_replay "$T/ring.tit" "$T/ring.xml" "$T/ring.hosts" "$T/ring.log"
  [ "$rc" = 0 ] && ok "sg-ring-replay: completes" || bad "sg-ring-replay: completes"
  expect_has sg-ring-actions 0 "768 actions, 256 ranks, 0 differ" -- actions_match "$T/ring.tit" "$T/ring.log"
  t=$(sim_time "$T/ring.log")
  run python3 -c '
import json, sys
run = json.load(open(sys.argv[1]))["seconds"]; t = float(sys.argv[2])
print(run, t); sys.exit(not (run <= t <= run * 1.01))' "$T/ring.json" "${t:-0}"
  [ "$rc" = 0 ] && ok "sg-ring-time: SimGrid's $t s within 1% above the run's (run, SimGrid: $out)" || bad "sg-ring-time"
fi

echo "record: $passed passed, $failed failed"
[ "$failed" = 0 ]
