#!/usr/bin/env bash
# Fault injection: what every writer of cubemu does when writing fails or
# is interrupted (util/output.h). Each case asserts the exit status, the
# message, and the files afterwards: the previous output byte for byte, no
# temporary file left, a device node never removed. Ends with one line
# "faults: N passed, N failed".
#
# The writers: run --trace, trace export -o, sweep --csv, sweep --plot
# (PNG, SVG, PDF), view --png and view --gif, run --schedule-out (GOAL)
# and machine export --simgrid -o; the commands that print to
# standard output: run (table and --json), check, list, trace info, trace
# export, sweep, --help, --version.
set -u
BUILD=${BUILD:-build}
CUBEMU="$(pwd)/$BUILD/cubemu"
T=$(mktemp -d "${TMPDIR:-/tmp}/cubemu-faults.XXXXXX")
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT
unset DISPLAY WAYLAND_DISPLAY SDL_VIDEODRIVER
. "$(dirname "$0")/expect.sh"

SCEN=$(pwd)/scenarios/transpose/cube-3.ini
SMALL="--set machine.dimensions=4 --set algorithm.name=exchange"

# writer NAME OUT: the command line of writer NAME writing to OUT (run in $T)
writer() {
  case $1 in
    trace)     echo "$CUBEMU run $SCEN --trace $2" ;;
    export)    echo "$CUBEMU trace export $T/good.trace --format chrome -o $2" ;;
    csv)       echo "$CUBEMU sweep $SCEN --vary algorithm.size=8,16,24,32,40,48,56,64 --csv $2" ;;
    plot-png)  echo "$CUBEMU sweep $SCEN --vary algorithm.size=8,16 --plot $2" ;;
    plot-svg)  echo "$CUBEMU sweep $SCEN --vary algorithm.size=8,16 --plot $2" ;;
    plot-pdf)  echo "$CUBEMU sweep $SCEN --vary algorithm.size=8,16 --plot $2" ;;
    view-png)  echo "$CUBEMU view $T/good.trace --png $2" ;;
    view-gif)  echo "$CUBEMU view $T/good.trace --gif $2" ;;
    schedule)  echo "$CUBEMU run $SCEN --schedule-out $2" ;;
    platform)  echo "$CUBEMU machine export --simgrid $SCEN -o $2" ;;
  esac
}
ext() { case $1 in trace) echo trace;; export) echo json;; csv) echo csv;;
        plot-png|view-png) echo png;; plot-svg) echo svg;; plot-pdf) echo pdf;;
        view-gif) echo gif;; schedule) echo goal;; platform) echo xml;; esac; }
WRITERS="trace export csv plot-png plot-svg plot-pdf view-png view-gif schedule platform"

# no_temp NAME: passes when $T holds no temporary file of output.c
no_temp() { ls -a "$T" | grep -q '\.tmp-' && return 1; return 0; }

"$CUBEMU" run $SCEN --trace "$T/good.trace" >/dev/null || echo "FAIL setup: no trace"

# ---- traces too short to be traces (a run killed before its first write)
: > "$T/empty.trace"
printf '\211' > "$T/one.trace"
for f in empty one; do
  why=$([ $f = empty ] && echo "not a cubemu trace (it does not begin with the trace magic; see traces/FORMAT.md)" \
        || echo "truncated: 1 bytes, the trace header alone is 144")
  expect "$f-byte-info" 2 "cubemu trace: $T/$f.trace: $why" -- \
    "$CUBEMU" trace info "$T/$f.trace"
  for fmt in chrome paje csv; do
    expect "$f-byte-export-$fmt" 2 "cubemu trace: $T/$f.trace: $why" -- \
      "$CUBEMU" trace export "$T/$f.trace" --format $fmt -o "$T/x.out"
  done
  expect "$f-byte-view" 2 "cubemu view: $T/$f.trace: $why" -- \
    "$CUBEMU" view "$T/$f.trace" --png "$T/x.png"
done
[ ! -e "$T/x.out" ] && [ ! -e "$T/x.png" ] && no_temp && ok short-traces-no-output || bad short-traces-no-output

# ---- a folder as the output path: refused, the folder untouched
for w in $WRITERS; do
  mkdir -p "$T/dir.$(ext $w)"; touch "$T/dir.$(ext $w)/keep"
  expect_has "folder-$w" 2 "$T/dir.$(ext $w): cannot write: Is a directory" -- \
    bash -c "$(writer $w "$T/dir.$(ext $w)") >/dev/null"
  [ -f "$T/dir.$(ext $w)/keep" ] && no_temp && ok "folder-$w-kept" || bad "folder-$w-kept"
done

# ---- a folder that does not exist: refused before the work
expect trace-missing-folder 2 "cubemu run: $T/none/x.trace: cannot write: No such file or directory" -- \
  bash -c "$(writer trace "$T/none/x.trace") >/dev/null"

# ---- a device node as output: written in place, never removed. A private
# node of /dev/full's kind (c 1 7), so that a bug removes ours, not the
# system's; needs root (mknod), as CI is.
if mknod -m 666 "$T/full" c 1 7 2>/dev/null; then
  for w in $WRITERS; do
    dev="$T/full.$(ext $w)"    # the plots take their format from the name
    [ -e "$dev" ] || mknod -m 666 "$dev" c 1 7
    expect_has "device-$w" 2 "$dev: cannot write: No space left on device" -- \
      bash -c "$(writer $w "$dev") >/dev/null"
    [ -c "$dev" ] && ok "device-$w-kept" || bad "device-$w-kept"
  done
  # the issue's regression: run --trace on a device node removed it
  run bash -c "$CUBEMU run $SCEN --trace $T/full >/dev/null"
  [ "$rc" = 2 ] && [ -c "$T/full" ] && ok device-not-removed || bad device-not-removed
else
  echo "skip device-*: mknod needs root"
fi

# ---- standard output that cannot be written: exit 2, never a silent 0
stdout_full() {   # stdout_full NAME COMMAND...: its stdout at /dev/full
  local name=$1; shift
  out=$("$@" 2>&1 >/dev/full); rc=$?
  if [ "$rc" = 2 ] && [[ "$out" == *"standard output: cannot write:"* ]]; then ok "$name"; else bad "$name"; fi
}
stdout_full stdout-run "$CUBEMU" run $SCEN
stdout_full stdout-run-json "$CUBEMU" run $SCEN --json
stdout_full stdout-check "$CUBEMU" check $SCEN
stdout_full stdout-list "$CUBEMU" list
stdout_full stdout-trace-info "$CUBEMU" trace info "$T/good.trace"
stdout_full stdout-trace-export "$CUBEMU" trace export "$T/good.trace" --format chrome
stdout_full stdout-sweep "$CUBEMU" sweep $SCEN --vary algorithm.size=8,16
stdout_full stdout-help "$CUBEMU" --help
stdout_full stdout-version "$CUBEMU" --version

# ---- a file size limit met mid-write, with last week's file in place:
# the old file survives byte for byte and no temporary file is left
cp "$T/good.trace" "$T/keep.trace"
for w in $WRITERS; do
  old="$T/old.$(ext $w)"
  head -c 20000 /dev/urandom > "$old"; cp "$old" "$T/old.copy"
  # 1 KiB blocks: every writer's output is larger than that; the CSV's
  # header and first row alone are over 1 KiB, so it gets 2 KiB, which
  # its eight rows are over
  lim=1; [ $w = csv ] && lim=2
  expect_has "fsize-$w" 2 "$old: cannot write: File too large" -- \
    bash -c "ulimit -f $lim; $(writer $w "$old") >/dev/null"
  if [ $w = csv ]; then
    # a sweep commits its CSV as rows finish: what is there is whole rows
    head -n 1 "$old" | grep -q '^algorithm.size,status,' \
      && [ "$(tail -c 1 "$old" | od -An -c | tr -d ' ')" = '\n' ] \
      && no_temp && ok "fsize-$w-rows-kept" || bad "fsize-$w-rows-kept"
  else
    cmp -s "$old" "$T/old.copy" && no_temp && ok "fsize-$w-old-kept" || bad "fsize-$w-old-kept"
  fi
done
# with SIGXFSZ ignored by the caller too (the issue's SIGSEGV)
run bash -c "trap '' XFSZ; ulimit -f 8; exec $CUBEMU run --set machine.dimensions=12 --set algorithm.name=exchange --set algorithm.elements-per-node=16 --trace $T/keep.trace >/dev/null"
[ "$rc" = 2 ] && [[ "$out" == *"keep.trace: cannot write: File too large"* ]] && cmp -s "$T/keep.trace" "$T/good.trace" && no_temp \
  && ok fsize-trace-xfsz-ignored || bad fsize-trace-xfsz-ignored

# ---- success replaces: the same writers with room to write
for w in $WRITERS; do
  old="$T/old.$(ext $w)"
  run bash -c "$(writer $w "$old") >/dev/null"
  [ "$rc" = 0 ] && ! cmp -s "$old" "$T/old.copy" && [ -s "$old" ] && no_temp && ok "replace-$w" || bad "replace-$w"
done
# a replaced file keeps its mode; a link is followed, not replaced
chmod 640 "$T/old.trace"; ln -sf old.trace "$T/link.trace"
run bash -c "$(writer trace "$T/link.trace") >/dev/null"
[ "$rc" = 0 ] && [ -L "$T/link.trace" ] && [ "$(stat -c %a "$T/old.trace")" = 640 ] && no_temp \
  && ok replace-keeps-mode-and-link || bad replace-keeps-mode-and-link

# ---- a read-only folder: refused with the reason, nothing created. Root
# writes anywhere, so as root this runs as nobody (setpriv).
mkdir -p "$T/ro"; chmod 555 "$T/ro"
as_user=()
if [ "$(id -u)" = 0 ]; then
  command -v setpriv >/dev/null && as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
if [ "$(id -u)" != 0 ] || [ ${#as_user[@]} -gt 0 ]; then
  chmod 755 "$T"; chmod 644 "$T/good.trace"
  if "${as_user[@]}" test -x "$CUBEMU" 2>/dev/null && "${as_user[@]}" test -r "$SCEN"; then
    expect_has readonly-folder 2 "$T/ro/x.trace: cannot write: Permission denied" -- \
      "${as_user[@]}" bash -c "$(writer trace "$T/ro/x.trace") >/dev/null"
    [ -z "$(ls -A "$T/ro")" ] && ok readonly-folder-empty || bad readonly-folder-empty
  else
    echo "skip readonly-folder: nobody cannot read the build"
  fi
else
  echo "skip readonly-folder: root without setpriv"
fi

# ---- SIGINT and SIGTERM during a traced 14-cube run: exit 130 / 143, one
# line, the old trace untouched and no temporary file. The signal is sent
# once the run's temporary trace exists (it is opened before the run).
# Job control gives the background run a default SIGINT (a shell ignores
# SIGINT in the background jobs of a script).
set -m
# A signal ignored by whoever started the tests (a background job of a
# script, nohup) stays ignored in cubemu, on purpose: then there is nothing
# to test. SigIgn in /proc/self/status is a mask, bit N-1 for signal N.
ignored() {
  local mask
  mask=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/self/status 2>/dev/null)
  [ -n "$mask" ] && (( (16#$mask >> ($(kill -l "$1") - 1)) & 1 ))
}
for sig in INT TERM; do {
  if ignored $sig; then
    echo "skip signal-$sig: SIG$sig is ignored by whoever started the tests, and cubemu keeps it so"
    continue
  fi
  cp "$T/good.trace" "$T/sig.trace"
  "$CUBEMU" run --set machine.dimensions=14 --set algorithm.name=gray-to-binary \
    --set algorithm.elements-per-node=1024 --trace "$T/sig.trace" >/dev/null 2>"$T/sig.err" &
  pid=$!
  for _ in $(seq 500); do ls -a "$T" | grep -q '^\.sig\.trace\.tmp-' && break; sleep 0.01; done
  kill -$sig $pid
  wait $pid; rc=$?
  out=$(cat "$T/sig.err")
  want=$([ $sig = INT ] && echo 130 || echo 143)
  if [ "$rc" = "$want" ] && [ "$(wc -l < "$T/sig.err")" = 1 ] \
     && [[ "$out" == *"--trace $T/sig.trace: interrupted by SIG$sig; files being written were removed, existing files are untouched" ]] \
     && cmp -s "$T/sig.trace" "$T/good.trace" && no_temp; then ok "signal-$sig"; else bad "signal-$sig"; fi
} 2>/dev/null; done   # not the shell's own "[1]+ Interrupt" notices
set +m

echo "faults: $passed passed, $failed failed"
[ "$failed" = 0 ]
