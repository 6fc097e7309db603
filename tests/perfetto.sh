#!/usr/bin/env bash
# The Chrome/Perfetto export (`cubemu trace export --format perfetto`) of
# real runs: a cube, a mesh, the SMP and a run with many phase marks. Each
# run is recorded with --trace, exported twice (the same bytes), checked by
# tests/perfetto_check.py against the Trace Event Format as Perfetto's JSON
# importer reads it (fields per ph, well-nested slices, every flow bound
# inside a slice of its track, counters that equal what the busy slices
# imply, phase slices that equal what the marks imply, ts in ticks), and
# held to the run's own numbers: one flow per message of `run --json`, a
# busy-channel counter per link and per class that carried something, the
# phases each scenario marks, and the tick length of the machine.
# Where Perfetto's trace processor is installed (trace_processor_shell on
# PATH, or $PERFETTO_TP), it loads each export too and must find the same
# flows and no import errors; where it is not, that is skipped with the
# reason. Prints "ok NAME" or "FAIL NAME" per check and ends with one line
# "perfetto: N passed, M failed".
set -u
BUILD=${BUILD:-build}
CUBEMU="$BUILD/cubemu"
CHECKER="$(dirname "$0")/perfetto_check.py"
T=$(mktemp -d "${TMPDIR:-/tmp}/cubemu-perfetto.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/expect.sh"

TP=${PERFETTO_TP:-$(command -v trace_processor_shell || command -v trace_processor || true)}
if [ -z "$TP" ]; then
  echo "skip trace-processor: Perfetto's trace processor is not installed (no Debian or npm package provides it); the exports are checked against the format by $CHECKER only"
fi

# field FILE EXPR: a Python expression over the JSON document d of FILE
# (the last line of FILE when it holds several).
field() {
  python3 - "$1" "$2" <<'PY'
import json, sys
text = open(sys.argv[1]).read().strip().splitlines()
d = json.loads(text[-1] if len(text) > 1 else "\n".join(text))
v = eval(sys.argv[2])
print(json.dumps(v) if not isinstance(v, str) else v)
PY
}

# one NAME SCENARIO PHASES [MACHINE-PHASES]: record, export and check one
# run. PHASES is the number of phase slices the scenario's marks give;
# MACHINE-PHASES, when given, the machine-wide phases as JSON
# [[label, start, end], ...].
one() {
  local name=$1 scen=$2 phases=$3 machine=${4:-}
  local tr="$T/$name.trace" js="$T/$name.json" rep="$T/$name.report" sum="$T/$name.sum"
  run "$CUBEMU" run "$scen" --json --trace "$tr"
  printf '%s\n' "$out" > "$rep"
  if [ "$rc" != 0 ] || [ ! -s "$tr" ]; then bad "$name-run"; return; fi
  ok "$name-run"
  check "$name-export" "$CUBEMU" trace export "$tr" --format perfetto -o "$js"
  [ "$rc" = 0 ] || return
  "$CUBEMU" trace export "$tr" --format chrome -o "$T/$name.again.json" >/dev/null 2>&1
  if cmp -s "$js" "$T/$name.again.json"; then ok "$name-deterministic"
  else out="two exports of one trace differ"; bad "$name-deterministic"; fi

  run python3 "$CHECKER" "$js"
  printf '%s\n' "$out" | tail -n 1 > "$sum"
  if [ "$rc" = 0 ]; then ok "$name-schema"; else bad "$name-schema"; fi

  # One flow per message: the report's count, every message of the trace.
  local msgs flows with
  msgs=$(field "$rep" 'd["messages"]')
  flows=$(field "$sum" 'd.get("flows")')
  with=$(field "$sum" 'd.get("messages_with_slices")')
  if [ "$flows" = "$msgs" ] && [ "$with" = "$msgs" ]; then ok "$name-flows ($flows)"
  else out="flows $flows, messages $msgs (run --json), messages with busy slices $with"
    bad "$name-flows"; fi

  # A counter per link and per class that carried something (the report's
  # per_link and per_class).
  local links want
  links=$(field "$sum" 'd.get("link_counters")')
  want=$(field "$rep" 'sorted(l["name"] for l in d["per_link"] if l["elements_up"] + l["elements_down"])')
  if [ "$links" = "$want" ] && [ "$links" != "[]" ]; then ok "$name-link-counters"
  else out="link counters $links, links that carried something $want"; bad "$name-link-counters"; fi
  links=$(field "$sum" 'd.get("class_counters")')
  want=$(field "$rep" 'sorted(c["class"] for c in d["per_class"] if c["messages"])')
  if [ "$links" = "$want" ] && [ "$links" != "[]" ]; then ok "$name-class-counters"
  else out="class counters $links, classes with messages $want"; bad "$name-class-counters"; fi

  # The phases the scenario's marks give.
  local got
  got=$(field "$sum" 'd.get("phase_slices")')
  if [ "$got" = "$phases" ]; then ok "$name-phases ($phases)"
  else out="phase slices $got, want $phases"; bad "$name-phases"; fi
  if [ -n "$machine" ]; then
    got=$(field "$sum" 'd.get("machine_phases")')
    want=$(python3 -c 'import json,sys; print(json.dumps(json.loads(sys.argv[1])))' "$machine")
    if [ "$got" = "$want" ]; then ok "$name-machine-phases"
    else out="machine phases $got, want $want"; bad "$name-machine-phases"; fi
  fi

  # The time base: ticks on the axis, the machine's tick length stated.
  got=$(field "$sum" '[d.get("time_unit"), d.get("tick_seconds")]')
  want=$(field "$rep" '["1 tick = 1 us of display time", d["machine"].get("tick_seconds") or None]')
  if [ "$got" = "$want" ]; then ok "$name-time-base"
  else out="time base $got, want $want"; bad "$name-time-base"; fi

  [ -n "$TP" ] || return
  # Perfetto's own importer: the same flows, and nothing it refused.
  cat > "$T/q.sql" <<'SQL'
select (select count(*) from flow) as flows,
       (select count(distinct slice_out) from flow) as sources,
       (select ifnull(sum(value), 0) from stats
          where name in ('json_parser_failure', 'flow_no_enclosing_slice',
                         'flow_end_without_start', 'flow_step_without_start',
                         'flow_duplicate_id', 'flow_invalid_id',
                         'misplaced_end_event')) as errors;
SQL
  run "$TP" -q "$T/q.sql" "$js"
  local row steps
  row=$(printf '%s\n' "$out" | grep -E '^[0-9]+,[0-9]+,[0-9]+$' | tail -n 1)
  steps=$(field "$sum" 'd.get("flow_steps")')
  if [ "$rc" = 0 ] && [ "$row" = "$((flows + steps)),$((flows + steps)),0" ]; then
    ok "$name-trace-processor"
  else out="$out (want flows,sources,errors = $((flows + steps)),$((flows + steps)),0)"
    bad "$name-trace-processor"; fi
}

# A 10-cube, one dimension after another: ten phases every node marks,
# "dimension d" during [74 d, 74 (d + 1)).
one cube scenarios/examples/exchange-sequential.ini 10 \
  '[["dimension 0",0,74],["dimension 1",74,148],["dimension 2",148,222],["dimension 3",222,296],["dimension 4",296,370],["dimension 5",370,444],["dimension 6",444,518],["dimension 7",518,592],["dimension 8",592,666],["dimension 9",666,740]]'
# A 4 x 2 mesh: routed messages over several hops (a flow steps through
# each), startups holding ports; steps 1-4 marked by every node at once
# (step 4 lasts, for the machine, to the end), steps 5-7 by each node on
# its own: 4 + 8 x 3 phases.
one mesh scenarios/transpose/mesh-4x2.ini 28 \
  '[["step 1",0,304],["step 2",304,608],["step 3",608,913],["step 4",913,2440]]'
# The SMP: a complete graph of 8 processors with a tick length (8e-08 s);
# three phases of 316 ticks (25.28 us).
one smp scenarios/transpose/smp8-butterfly-small.ini 3 \
  '[["phase 1",0,316],["phase 2",316,632],["phase 3",632,948]]'
# Many phases, most marked node by node, on a 3-cube: "align x" by every
# node at 0, then per node spread x 0, local, reduce y 0..2, align y. A
# node that marks two labels in one tick ("local" and "reduce y 0": local
# work costs no time here) is in the first for no tick, which is not drawn:
# nodes 3 and 7 keep 3 phases of their own, the others 4; 1 + 30.
one phases scenarios/dblas/cube-3-matvec-5x7.ini 31 '[["align x",0,12]]'

echo "perfetto: $passed passed, $failed failed"
[ "$failed" = 0 ]
