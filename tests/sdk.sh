#!/usr/bin/env bash
# tests/sdk.sh [--mpi] -- the node-program SDK as a user meets it: stage
# make install (DESTDIR, PREFIX=/opt/cubemu), check <cubemu/program.h> and
# cubemu-program.pc there (the header compiles alone as C11 and C++), copy
# the examples (examples/programs) out of the tree and build them with the
# staged pkg-config only, then, from other folders and with the installed
# cubemu only: check, run, sweep, trace and view them; a wrong reference
# and lost data are reported; every refusal of a program (a missing file, a
# text file, a folder, no descriptor, another ABI, a descriptor without
# step or methods, a bad parameter declaration, an undefined cubemu_*
# call, a name mismatch, bad values, cubemu_fail, a bad layout, the wrong
# topology, dead nodes for a program that does not declare it runs with
# them, a descriptor size it does not know) exits 2 naming the file and
# the fault; a descriptor of version 1's first size (no flags) loads; the
# examples run on broken machines (link faults: data correct, cycles never
# below the whole machine's; broadcast.so with dead nodes); the built-in shift is
# listed like any algorithm and, compiled out of the tree against the
# installed header alone, runs as a loaded program with the same reports.
# With --mpi (make check-mpi) only the MPI cases: the examples on 2, 4, 8
# ranks of the installed cubemu-mpi against the installed emulator
# (tests/compare-runs.py), and a program of another ABI refused there.
# Prints "ok ..."/"FAIL ..."/"skip ..." per case and ends with
# "sdk: N passed, N failed". Never writes into the source tree.
set -u
cd "$(dirname "$0")/.."
SRC=$PWD
BUILD=${BUILD:-build}
MODE=${1:-}
case "$MODE" in ""|--mpi) ;; *) echo "usage: tests/sdk.sh [--mpi]" >&2; exit 2 ;; esac
TIMEOUT=${SDK_TIMEOUT:-60}
MPI_TIMEOUT=${MPI_TIMEOUT:-120}
if [ "$BUILD" = build-san ] || nm "$BUILD/cubemu" 2>/dev/null | grep -q __asan_init; then
  TIMEOUT=${SDK_TIMEOUT:-180}
fi
: "${LSAN_OPTIONS:=suppressions=$SRC/tests/lsan.supp:print_suppressions=0}"
export LSAN_OPTIONS LC_ALL=C
pass=0 fail=0
ok()   { echo "ok   $1"; pass=$((pass + 1)); }
bad()  { echo "FAIL $1"; [ -n "${2-}" ] && printf '%s\n' "$2" | head -20 | sed 's/^/     /'; fail=$((fail + 1)); }
skip() { echo "skip $1"; }
finish() { echo "sdk: $pass passed, $fail failed"; [ "$fail" = 0 ]; exit; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cubemu-sdk.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
DEST=$tmp/dest
PREFIX=/opt/cubemu
ROOT=$DEST$PREFIX
C=$ROOT/bin/cubemu
PCDIR=$ROOT/lib/pkgconfig
W=$tmp/work          # the examples, out of the tree
E=$tmp/elsewhere     # a folder with nothing in it: the cwd of most runs
A=$tmp/another       # and another
P=$tmp/probe         # the test's own programs and scenarios
mkdir -p "$W" "$E" "$A" "$P"
# make with the variables of a make that started this test (make check
# WERROR=), but not its jobserver, whose descriptors this script lacks.
MAKE_CMD=(env -u MFLAGS -u MAKELEVEL
          MAKEFLAGS="$(sed -E 's/--jobserver-(auth|fds)=[^ ]*//g' <<<"${MAKEFLAGS-}")"
          make --no-print-directory BUILD="$BUILD")
# A user's shell: no CUBEMU_* variable (CUBEMU_MACHINES would replace the
# installed presets), no make of ours, pkg-config finding the staged
# cubemu-program.pc only.
USER_ENV=(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL)
for v in $(compgen -e); do
  case "$v" in CUBEMU*|cubemu*) USER_ENV+=(-u "$v") ;; esac
done
USER_ENV+=(PKG_CONFIG_PATH="$PCDIR")
CC=${CC:-cc}

# in_dir DIR CMD...: run CMD in DIR as a user, with a timeout; sets out and rc.
in_dir() {
  local dir=$1; shift
  out=$(cd "$dir" && "${USER_ENV[@]}" timeout "$TIMEOUT" "$@" 2>&1); rc=$?
}
# json_ok NAME PYTHON-EXPR: evaluate EXPR over d = the JSON in $out;
# ok when it is true.
json_ok() {
  local why
  if why=$(python3 -c '
import json, sys
try:
    d = json.loads(sys.stdin.read())
except ValueError as e:
    sys.exit("not JSON: %s" % e)
b = [x for x in d.get("bounds", []) if x.get("applies")]
sys.exit(0 if eval("(" + sys.argv[1] + ")") else "false: " + sys.argv[1])' "$2" <<<"$out" 2>&1)
  then ok "$1"; else bad "$1" "$why"$'\n'"$out"; fi
}
# refused NAME DIR PHRASE... -- CUBEMU-ARGS...: the installed cubemu run in
# DIR exits 2 and says every PHRASE (fixed strings).
refused() {
  local name=$1 dir=$2 phrases=() p miss=(); shift 2
  while [ "$1" != -- ]; do phrases+=("$1"); shift; done; shift
  in_dir "$dir" "$C" "$@"
  for p in "${phrases[@]}"; do grep -qF -- "$p" <<<"$out" || miss+=("'$p'"); done
  if [ "$rc" = 2 ] && [ ${#miss[@]} = 0 ]; then ok "refused, exit 2: $name"
  else bad "refused: $name: exit $rc, want 2${miss:+; missing ${miss[*]}}" "$out"; fi
}
# scenario FILE PROGRAM [LINE]...: a 3-cube scenario whose [algorithm] is
# the program (line 5) and the lines given (from line 6 on).
scenario() {
  local f=$1 prog=$2; shift 2
  printf '%s\n' "[machine]" "preset = cube" "dimensions = 3" "[algorithm]" \
    "program = $prog" "$@" >"$f"
}

# probe NAME [HOOK=C-TEXT]...: write $P/NAME.c, a program that swaps each
# node's K words (elements-per-node, default 1) with its neighbour across
# link 0, and build $P/NAME.so against the staged header. Hooks: params
# (more cubemu_param lines), prepare (code after K is read), layout (code
# after the layout is filled), step (replaces the swap; k and x are the
# node's K and address), expect (code after the reference e[0, k) is
# filled), methods_field, step_field (the descriptor's .methods and .step,
# blank to leave them out), descriptor (the whole descriptor, instead of
# CUBEMU_PROGRAM).
probe() {
  local name=$1; shift
  local params='' prepare='' layout='' step='cubemu_exchange(n, 0, 0, k, 0);'
  local expect='' computed=0 methods_field='.methods = methods,'
  local step_field='.step = step,' descriptor='' kv
  for kv in "$@"; do local "${kv%%=*}=${kv#*=}"; done
  [ -n "$descriptor" ] || descriptor="CUBEMU_PROGRAM(.name = \"probe\",
    .needs = CUBEMU_NEEDS_DIMENSIONS, $methods_field .params = params,
    .prepare = prepare, .release = free, .init = init, $step_field
    .expect = expect);"
  cat >"$P/$name.c" <<EOF
#include <cubemu/program.h>
#include <stdlib.h>
static const cubemu_method methods[] = { { "swap", "K words across link 0" }, { NULL, NULL } };
static const cubemu_param params[] = {
    { .key = "elements-per-node", .type = CUBEMU_PARAM_INT, .fallback = "1",
      .min = 1, .max = 64, .help = "K" },
    $params
    { .key = NULL } };
static void *prepare(const cubemu_machine *m, cubemu_params *p, cubemu_layout *l)
{
    (void)m;
    size_t *c = malloc(sizeof *c);
    size_t k = *c = (size_t)cubemu_param_int(p, "elements-per-node");
    $prepare
    l->memory_elements = l->elements_per_node = k;
    l->element = CUBEMU_WORD;
    l->computed = $computed;
    $layout
    return c;
}
static void init(const void *c, uint32_t x, cubemu_word *mem)
{
    for (size_t j = 0; j < *(const size_t *)c; j++) mem[j] = 100 * x + j;
}
static __attribute__((unused)) int step(cubemu_node *n, const void *c)
{
    size_t k = *(const size_t *)c;
    uint32_t x = cubemu_address(n);
    (void)x;
    if (cubemu_step(n) > 0) return CUBEMU_DONE;
    $step
    return CUBEMU_CONTINUE;
}
static void expect(const void *c, uint32_t x, cubemu_word *e)
{
    size_t k = *(const size_t *)c;
    for (size_t j = 0; j < k; j++) e[j] = 100 * (x ^ 1) + j;
    $expect
}
$descriptor
EOF
  local log
  if ! log=$("$CC" -std=c11 -Wall -shared -fPIC $SDK_CFLAGS "$P/$name.c" -o "$P/$name.so" 2>&1); then
    bad "build the test's program $name.c" "$log"; return 1
  fi
}

# descriptor ABI SIZE: a descriptor written out, not by CUBEMU_PROGRAM.
descriptor() {
  printf '%s\n' '__attribute__((visibility("default"))) const cubemu_program' \
    "cubemu_program_descriptor = { .abi = $1, .size = $2," \
    '    .name = "probe", .methods = methods, .params = params,' \
    '    .prepare = prepare, .init = init, .step = step, .expect = expect };'
}
# abi_probe: $P/abi.so, a program of the next version of the interface.
abi_probe() {
  probe abi descriptor="$(descriptor 'CUBEMU_PROGRAM_ABI + 1' 'sizeof(cubemu_program)')"
}

# --- the staged install -------------------------------------------------------
stage() {
  local out
  if out=$("${MAKE_CMD[@]}" install DESTDIR="$DEST" PREFIX="$PREFIX" 2>&1); then
    ok "make install DESTDIR=... PREFIX=$PREFIX"
  else
    bad "make install DESTDIR=... PREFIX=$PREFIX" "$(tail -20 <<<"$out")"; finish
  fi
  SDK_CFLAGS=$("${USER_ENV[@]}" pkg-config --cflags cubemu-program 2>&1) \
    || { bad "pkg-config --cflags cubemu-program (PKG_CONFIG_PATH=$PCDIR)" "$SDK_CFLAGS"; finish; }
  ABI=$(sed -nE 's/^#define CUBEMU_PROGRAM_ABI ([0-9]+)$/\1/p' "$ROOT/include/cubemu/program.h")
}
# The examples, copied out of the tree from the installed documentation
# (the same files as examples/programs), built with their Makefile.
build_examples() {
  local f differ=() out rc
  cp "$ROOT"/share/doc/cubemu/examples/programs/{*.c,*.ini,Makefile} "$W"/ 2>/dev/null
  for f in "$SRC"/examples/programs/*.c "$SRC"/examples/programs/*.ini "$SRC"/examples/programs/Makefile; do
    cmp -s "$f" "$W/$(basename "$f")" || differ+=("$(basename "$f")")
  done
  if [ ${#differ[@]} = 0 ]; then ok "the installed share/doc/cubemu/examples/programs: the tree's examples/programs"
  else bad "share/doc/cubemu/examples/programs lacks or differs: ${differ[*]}"; fi
  in_dir "$W" make
  if [ "$rc" = 0 ] && [ -f "$W/bitonic.so" ] && [ -f "$W/allreduce.so" ] && [ -f "$W/broadcast.so" ] \
     && grep -qF -- "-I$PCDIR/../../include" <<<"$out"; then
    ok "out of the tree: make (pkg-config --cflags cubemu-program, the staged .pc) builds bitonic.so, allreduce.so, broadcast.so"
  else
    bad "out of the tree: make: exit $rc" "$out"; finish
  fi
}

stage

# --- 1. the installed header and pkg-config -------------------------------------------
if [ -z "$MODE" ]; then
  missing=()
  for f in include/cubemu/program.h lib/pkgconfig/cubemu-program.pc; do
    [ -f "$ROOT/$f" ] || missing+=("$f")
  done
  if [ ${#missing[@]} = 0 ] && cmp -s "$ROOT/include/cubemu/program.h" sdk/cubemu/program.h; then
    ok "installed: $PREFIX/include/cubemu/program.h (the tree's), $PREFIX/lib/pkgconfig/cubemu-program.pc"
  else bad "installed: missing ${missing[*]-} or a header other than sdk/cubemu/program.h"; fi
  found=
  for i in $SDK_CFLAGS; do
    case "$i" in -I*) [ -f "${i#-I}/cubemu/program.h" ] && found=${i#-I} ;; esac
  done
  if [ -n "$found" ] && [ "$(realpath "$found")" = "$ROOT/include" ]; then
    ok "pkg-config --cflags cubemu-program: $SDK_CFLAGS (the staged include, through pcfiledir)"
  else bad "pkg-config --cflags cubemu-program: '$SDK_CFLAGS' has no -I with the staged cubemu/program.h"; fi
  printf '#include <cubemu/program.h>\n' >"$P/alone.c"
  if out=$("$CC" -std=c11 -Wall -Wextra -Werror -pedantic $SDK_CFLAGS -c "$P/alone.c" -o "$P/alone.o" 2>&1); then
    ok "the installed header alone compiles as C11 (-Wall -Wextra -Werror -pedantic)"
  else bad "the installed header alone as C11" "$out"; fi
  if command -v g++ >/dev/null; then
    cp "$P/alone.c" "$P/alone.cc"
    if out=$(g++ -std=c++11 -Wall -Wextra -Werror -pedantic $SDK_CFLAGS -c "$P/alone.cc" -o "$P/alone-cc.o" 2>&1); then
      ok "the installed header alone compiles as C++11 (g++ -Wall -Wextra -Werror -pedantic)"
    else bad "the installed header alone as C++" "$out"; fi
  else
    skip "the installed header as C++: no g++"
  fi
fi

# --- 2. the examples, out of the tree ------------------------------------------------------
build_examples
if [ -z "$MODE" ]; then
  bins=()
  for b in cubemu cubemu-view cubemu-mpi; do [ -x "$ROOT/bin/$b" ] && bins+=("$b"); done
  for so in bitonic.so allreduce.so broadcast.so; do
    undef=$(nm -D --undefined-only "$W/$so" | awk '{print $NF}' | grep '^cubemu_' | sort -u)
    missing=()
    for b in "${bins[@]}"; do
      exported=$(nm -D --defined-only "$ROOT/bin/$b" | awk '{print $NF}' | sort -u)
      for s in $undef; do grep -qxF "$s" <<<"$exported" || missing+=("$b:$s"); done
    done
    if [ -n "$undef" ] && [ ${#missing[@]} = 0 ]; then
      ok "$so: its $(wc -w <<<"$undef") cubemu_* calls are all exported by the installed ${bins[*]}"
    else bad "$so: cubemu_* calls not exported: ${missing[*]-none called}"; fi
    needed=$(readelf -d "$W/$so" | grep NEEDED)
    if [ -n "$needed" ] && ! grep -qi cubemu <<<"$needed"; then
      ok "$so: needs no cubemu library ($(sed -nE 's/.*\[(.*)\].*/\1/p' <<<"$needed" | tr '\n' ' '| sed 's/ $//'))"
    else bad "$so: NEEDED entries" "$needed"; fi
  done
fi

# --- 8. MPI: the same .so on the emulator and under mpirun -------------------------------
if [ "$MODE" = --mpi ]; then
  MPI=$ROOT/bin/cubemu-mpi
  if ! command -v mpirun >/dev/null || [ ! -x "$MPI" ]; then
    skip "cubemu-mpi: no mpirun or no $PREFIX/bin/cubemu-mpi (apt-get install -y libopenmpi-dev openmpi-bin)"
    finish
  fi
  # Under ASan (BUILD=build-san) LeakSanitizer reports Open MPI's own
  # allocations (ompi_op_base_op_select, ...) at every rank's exit, with
  # or without a node program: leaks are not looked for under mpirun.
  MPIRUN=(env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
          mpirun --oversubscribe --allow-run-as-root)
  for d in 1 2 3; do
    np=$((1 << d))
    for x in bitonic allreduce broadcast; do
      name="$x.ini, machine.dimensions=$d"
      out=$(cd "$E" && "${USER_ENV[@]}" timeout "$TIMEOUT" "$C" run "$W/$x.ini" \
            --set machine.dimensions=$d --json --dump-memory 2>"$tmp/emu.err" >"$tmp/emu.json"); rc=$?
      if [ $rc != 0 ]; then bad "$name: the emulator: exit $rc" "$(cat "$tmp/emu.err")"; continue; fi
      (cd "$E" && "${USER_ENV[@]}" timeout "$MPI_TIMEOUT" "${MPIRUN[@]}" -np $np "$MPI" run "$W/$x.ini" \
         --set machine.dimensions=$d --json --timing --dump-memory >"$tmp/mpi.json" 2>"$tmp/mpi.err"); rc=$?
      if [ $rc != 0 ]; then bad "$name: cubemu-mpi on $np ranks: exit $rc" "$(head -c 1000 "$tmp/mpi.err")"; continue; fi
      if "$SRC/tests/compare-runs.py" "$tmp/emu.json" "$tmp/mpi.json" "$name: cubemu-mpi against cubemu" $np
      then pass=$((pass + 1)); else fail=$((fail + 1)); fi
    done
  done
  abi_probe
  printf '%s\n' "[machine]" "preset = cube" "dimensions = 1" "[algorithm]" \
    "program = ./abi.so" >"$P/abi-mpi.ini"
  out=$(cd "$E" && "${USER_ENV[@]}" timeout "$MPI_TIMEOUT" "${MPIRUN[@]}" -np 2 "$MPI" run "$P/abi-mpi.ini" 2>&1); rc=$?
  want="/abi.so was built for version $((ABI + 1)) of the node-program interface; this cubemu runs version $ABI"
  if [ $rc = 2 ] && grep -qF -- "$want" <<<"$out"; then ok "cubemu-mpi on 2 ranks refuses a program of ABI $((ABI + 1)): exit 2"
  else bad "cubemu-mpi, a program of ABI $((ABI + 1)): exit $rc, not 2 with '$want'" "$out"; fi
  finish
fi

# --- 3. the examples through the installed cubemu, from other folders -----------------------
in_dir "$E" "$C" check "$W"/*.ini
if [ "$rc" = 0 ] && grep -q '^6 passed, 0 failed$' <<<"$out"; then ok "cubemu check: the 6 example scenarios pass (from another folder)"
else bad "cubemu check $W/*.ini: exit $rc" "$out"; fi
for x in bitonic allreduce; do
  in_dir "$E" "$C" run --json "$W/$x.ini"
  json_ok "cubemu run --json $x.ini: data correct, all ${x} bounds hold, algorithm $x, program ./$x.so" \
    "d['data_correct'] is True and len(b) >= 3 and all(x['holds'] is True for x in b)
     and d['algorithm']['name'] == '$x' and d['algorithm']['program'] == './$x.so'"
done
cp "$W/bitonic.ini" "$A/bitonic-here.ini"     # beside no bitonic.so
in_dir "$E" "$C" run --json "$A/bitonic-here.ini" --set algorithm.program="$W/bitonic.so"
json_ok "--set algorithm.program=ABSOLUTE (scenario and cwd elsewhere)" \
  "d['data_correct'] is True and d['algorithm']['program'] == '$W/bitonic.so'"
in_dir "$W" "$C" run --json "$A/bitonic-here.ini" --set algorithm.program=./bitonic.so
json_ok "--set algorithm.program=./bitonic.so: relative to the current folder" \
  "d['data_correct'] is True and d['algorithm']['name'] == 'bitonic'"
refused "--set algorithm.program=./bitonic.so where the cwd has none (not the scenario's folder)" "$A" \
  "--set algorithm.program=./bitonic.so: program: ./bitonic.so: No such file or directory" \
  -- run "$W/bitonic.ini" --set algorithm.program=./bitonic.so

# --- 4. sweep, trace, view ------------------------------------------------------------------
check_csv() {  # NAME FILE: 3 rows, K = 1, 2, 3, all ok and data correct
  local why
  if why=$(python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ks = [r["algorithm.elements-per-node"] for r in rows]
bad = [r for r in rows if r["status"] != "ok" or r["data_correct"] != "1"]
sys.exit(0 if ks == ["1", "2", "3"] and not bad else "rows %s, wrong %s" % (ks, bad))' "$2" 2>&1)
  then ok "$1"; else bad "$1" "$why"; fi
}
in_dir "$E" "$C" sweep "$W/bitonic.ini" --vary algorithm.elements-per-node=1,2,3 --csv "$E/sweep.csv"
if [ "$rc" = 0 ]; then check_csv "cubemu sweep bitonic.ini --vary algorithm.elements-per-node=1,2,3: 3 rows, data correct" "$E/sweep.csv"
else bad "cubemu sweep bitonic.ini: exit $rc" "$out"; fi
in_dir "$E" "$C" sweep "$W/bitonic.ini" --vary algorithm.elements-per-node=1,2,3 --csv "$E/sweep-j.csv" -j 2
if [ "$rc" = 0 ] && cmp -s "$E/sweep.csv" "$E/sweep-j.csv"; then ok "cubemu sweep -j 2 (a process a run): the same CSV"
else bad "cubemu sweep -j 2: exit $rc or another CSV" "$out"$'\n'"$(diff "$E/sweep.csv" "$E/sweep-j.csv" 2>&1 | head)"; fi
in_dir "$E" "$C" run --trace "$E/t.trace" "$W/bitonic.ini"
if [ "$rc" = 0 ] && [ -s "$E/t.trace" ]; then
  in_dir "$A" "$C" trace info "$E/t.trace"
  if [ "$rc" = 0 ] && grep -qE '^ +algorithm +bitonic$' <<<"$out" && grep -qE '^ +messages +48$' <<<"$out" \
     && grep -qF 'program = ./bitonic.so' <<<"$out"; then
    ok "cubemu run --trace, cubemu trace info: bitonic, ./bitonic.so, 48 messages"
  else bad "cubemu trace info: exit $rc" "$out"; fi
  in_dir "$A" "$C" trace export "$E/t.trace" --format chrome -o "$E/t.json"
  if [ "$rc" = 0 ] && grep -q '"merge"\|local sort' "$E/t.json"; then ok "cubemu trace export --format chrome: the program's phases"
  else bad "cubemu trace export --format chrome: exit $rc or no phase names" "$out"; fi
else
  bad "cubemu run --trace t.trace bitonic.ini: exit $rc" "$out"
fi
if [ -x "$ROOT/bin/cubemu-view" ]; then
  out=$(cd "$E" && env -u DISPLAY -u WAYLAND_DISPLAY "${USER_ENV[@]}" timeout "$TIMEOUT" \
        "$C" view "$W/bitonic.ini" --png "$E/v.png" 2>&1); rc=$?
  if [ "$rc" = 0 ] && [ "$(head -c 4 "$E/v.png" 2>/dev/null | tail -c 3)" = PNG ]; then
    ok "cubemu view bitonic.ini --png (no display): $(stat -c %s "$E/v.png") bytes of PNG"
  else bad "cubemu view --png: exit $rc" "$out"; fi
else
  skip "cubemu view: no $PREFIX/bin/cubemu-view (SDL2)"
fi

# --- 5. verification happens ------------------------------------------------------------------
if probe good; then
  scenario "$P/good.ini" ./good.so "elements-per-node = 2"
  in_dir "$E" "$C" run --json "$P/good.ini"
  json_ok "the test's program (a swap across link 0) runs: data correct" \
    "d['data_correct'] is True and d['messages'] == 8"
fi
if probe wrong expect='if (x == 3) e[1] += 1;'; then
  scenario "$P/wrong.ini" ./wrong.so "elements-per-node = 2"
  in_dir "$E" "$C" run "$P/wrong.ini"
  if [ "$rc" = 1 ] && grep -qF 'the final memory is wrong: WRONG: node 3 offset 1' <<<"$out"; then
    ok "a wrong reference for node 3: exit 1, 'WRONG: node 3 offset 1 ...'"
  else bad "a wrong reference for node 3: exit $rc, not 1 naming node 3" "$out"; fi
fi
lossy_step='if (x & 1) cubemu_recv(n, x ^ 1, 0, 0, k); else { int l = 0; cubemu_send(n, &l, 1, 0, k, 0); }'
lossy_expect='for (size_t j = 0; j < k; j++) e[j] = 100 * (x & ~1u) + j;'
if probe lossy step="$lossy_step" expect="$lossy_expect"; then
  scenario "$P/lossy.ini" ./lossy.so "elements-per-node = 2"
  in_dir "$E" "$C" run "$P/lossy.ini"
  if [ "$rc" = 1 ] && grep -qF 'the final memory is wrong: WRONG: elements were lost or duplicated: every node'"'"'s [0, K) together holds a different multiset of elements than init put there (a program that copies elements, as a broadcast does, or computes them must set layout computed = 1; docs/programs.md)' <<<"$out"; then
    ok "data lost (odd nodes overwritten, the reference agreeing), computed = 0: exit 1, conservation fails"
  else bad "data lost, computed = 0: exit $rc, not 1 with a conservation failure" "$out"; fi
fi
if probe lossy-computed step="$lossy_step" expect="$lossy_expect" computed=1; then
  scenario "$P/lossy-computed.ini" ./lossy-computed.so "elements-per-node = 2"
  in_dir "$E" "$C" run --json "$P/lossy-computed.ini"
  json_ok "the same with computed = 1: no conservation check, data correct" "d['data_correct'] is True"
fi

# --- 6. refusals ----------------------------------------------------------------------------------
scenario "$P/missing.ini" ./missing.so
refused "a missing program" "$E" "missing.ini:5: program: " "/missing.so: No such file or directory" -- run "$P/missing.ini"
cp "$W/bitonic.ini" "$P/text.ini"; scenario "$P/text.ini" ./text.ini
refused "a text file as the program" "$E" "text.ini:5: program: " "/text.ini is not a shared object" -- run "$P/text.ini"
printf 'int object_only;\n' >"$P/object.c"
if "$CC" -c -fPIC "$P/object.c" -o "$P/object.so" 2>/dev/null; then
  scenario "$P/object.ini" ./object.so
  refused "an object file (cc -c) named .so" "$E" "object.ini:5: program: " \
    "/object.so is an object file (cc -c), not a shared object: link it with cc -shared -fPIC" -- run "$P/object.ini"
else bad "cc -c of a one-line file failed" ""; fi
mkdir -p "$P/folder.so"; scenario "$P/folder.ini" ./folder.so
refused "a folder as the program" "$E" "folder.ini:5: program: " "/folder.so is not a file" -- run "$P/folder.ini"
printf 'int x;\n' >"$P/nodesc.c"
if out=$("$CC" -shared -fPIC "$P/nodesc.c" -o "$P/nodesc.so" 2>&1); then
  scenario "$P/nodesc.ini" ./nodesc.so
  refused "a shared object without the descriptor" "$E" \
    "nodesc.ini:5: program: " "/nodesc.so has no node program: it does not export cubemu_program_descriptor" -- run "$P/nodesc.ini"
else bad "cc -shared nodesc.c" "$out"; fi
if abi_probe; then
  scenario "$P/abi.ini" ./abi.so
  refused "a program built for ABI $((ABI + 1))" "$E" \
    "abi.ini:5: program: " "/abi.so was built for version $((ABI + 1)) of the node-program interface; this cubemu runs version $ABI" \
    -- run "$P/abi.ini"
fi
# Version 1 grew by a trailing field (flags): a descriptor that ends
# before it (a program built before) loads; one smaller than that, or
# larger than this cubemu's, is refused naming both limits.
first='offsetof(cubemu_program, flags)'
for size in "$first - 8" 'sizeof(cubemu_program) + 8'; do
  if probe size descriptor="$(descriptor CUBEMU_PROGRAM_ABI "$size")"; then
    scenario "$P/size.ini" ./size.so
    refused "a descriptor of $size bytes" "$E" \
      "size.ini:5: program: " "/size.so: its descriptor is" "bytes, not the" "of version $ABI of the interface" -- run "$P/size.ini"
  fi
done
if probe first descriptor="$(descriptor CUBEMU_PROGRAM_ABI "$first")"; then
  scenario "$P/first.ini" ./first.so
  in_dir "$E" "$C" run --json "$P/first.ini"
  json_ok "a descriptor of version 1's first size ($first, before flags) loads and runs" \
    "d['data_correct'] is True and d['messages'] == 8"
  refused "that descriptor (its flags read as 0) on a machine with a dead node" "$E" \
    "--set machine.faults=node:6: algorithm 'probe' needs every node, and machine.faults names 1 dead (node:6)" \
    "or a program that declares CUBEMU_RUNS_WITH_DEAD_NODES" -- run "$P/first.ini" --set machine.faults=node:6
fi
if probe badflags descriptor='CUBEMU_PROGRAM(.name = "probe", .methods = methods, .params = params,
    .prepare = prepare, .init = init, .step = step, .expect = expect, .flags = 1u << 7);'; then
  scenario "$P/badflags.ini" ./badflags.so
  refused "flags with a bit that is no CUBEMU_RUNS_*" "$E" \
    "badflags.ini:5: program: " "/badflags.so: program 'probe': flags has bits that are no CUBEMU_RUNS_*" -- run "$P/badflags.ini"
fi
if probe nostep step_field=; then
  scenario "$P/nostep.ini" ./nostep.so
  refused "a descriptor without step" "$E" "nostep.ini:5: program: " "/nostep.so: program 'probe' has no step" -- run "$P/nostep.ini"
fi
if probe nomethods methods_field=; then
  scenario "$P/nomethods.ini" ./nomethods.so
  refused "a descriptor without methods" "$E" "nomethods.ini:5: program: " "/nomethods.so: program 'probe' has no methods" \
    -- run "$P/nomethods.ini"
fi
if probe badparam params='{ .key = "colour", .type = CUBEMU_PARAM_CHOICE, .fallback = "red", .help = "c" },'; then
  scenario "$P/badparam.ini" ./badparam.so
  refused "a parameter declared as a choice without choices" "$E" \
    "badparam.ini:5: program: " "/badparam.so: program 'probe': parameter 'colour' is a choice without choices" -- run "$P/badparam.ini"
fi
if probe nonesuch prepare='{ void cubemu_nonesuch(void); if (k == 99) cubemu_nonesuch(); }'; then
  scenario "$P/nonesuch.ini" ./nonesuch.so
  refused "a call of cubemu_nonesuch, which cubemu does not export" "$E" \
    "nonesuch.ini:5: program: " "/nonesuch.so cannot be loaded:" "undefined symbol: cubemu_nonesuch" -- run "$P/nonesuch.ini"
fi
scenario "$W/mismatch.ini" ./bitonic.so "name = shift"
refused "name = shift with program = ./bitonic.so" "$E" \
  "mismatch.ini:6: name: 'shift', but the program ./bitonic.so is 'bitonic'" -- run "$W/mismatch.ini"
scenario "$W/k0.ini" ./bitonic.so "seed = 3" "elements-per-node = 0"
refused "elements-per-node = 0, out of the declared range" "$E" \
  "k0.ini:7: elements-per-node: 0 is out of range (valid: 1..16777216)" -- run "$W/k0.ini"
scenario "$W/typo.ini" ./bitonic.so "elements-per-nod = 4"
refused "an undeclared key" "$E" \
  "typo.ini:6: unknown key 'elements-per-nod' for algorithm 'bitonic'; did you mean 'elements-per-node'?" -- run "$W/typo.ini"
if probe fail prepare='if (k % 2) return free(c), cubemu_fail(p, "elements-per-node", "K = %zu is odd; this program takes even K", k);'; then
  scenario "$P/fail.ini" ./fail.so "" "elements-per-node = 3"
  refused "prepare calling cubemu_fail" "$E" \
    "fail.ini:7: elements-per-node: K = 3 is odd; this program takes even K" -- run "$P/fail.ini"
  scenario "$P/fail2.ini" ./fail.so "elements-per-node = 2"
  in_dir "$E" "$C" run --json "$P/fail2.ini"
  json_ok "the same program with an even K runs" "d['data_correct'] is True"
fi
if probe layout layout='l->elements_per_node = l->memory_elements + 1;'; then
  scenario "$P/layout.ini" ./layout.so
  refused "a layout with elements_per_node > memory_elements" "$E" \
    "layout.ini:5: program 'probe': prepare's layout: elements_per_node 2 is more than memory_elements 1" -- run "$P/layout.ini"
fi
printf '%s\n' "[machine]" "preset = torus-16x16" "[algorithm]" "program = ./bitonic.so" >"$W/torus.ini"
refused "bitonic (CUBEMU_NEEDS_DIMENSIONS) on the 16 x 16 torus" "$E" \
  "torus.ini" "algorithm 'bitonic' does not run on topology 'mesh' (it runs on: cube)" -- run "$W/torus.ini"
refused "cubemu check of a refused scenario" "$E" "FAIL $P/abi.ini" "was built for version" -- check "$W/bitonic.ini" "$P/abi.ini"

# --- 9. the examples on a broken machine -----------------------------------------------------
# Link faults need nothing of a program: bitonic and allreduce on the
# 4-cube with 1 and n - 1 = 3 random dead links (two seeds each) verify,
# and take no fewer cycles than on the whole cube (a detour only adds
# links to a route and contention to the links it takes).
for x in bitonic allreduce broadcast; do
  in_dir "$E" "$C" run --json "$W/$x.ini" --set machine.dimensions=4
  whole=$(python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print(d["cycles"] if d["data_correct"] else "")' <<<"$out" 2>/dev/null)
  if [ -z "$whole" ]; then bad "$x.ini on the whole 4-cube: exit $rc" "$out"; continue; fi
  for f in random:1:1 random:1:2 random:3:1 random:3:2; do
    in_dir "$E" "$C" run --json "$W/$x.ini" --set machine.dimensions=4 --set machine.faults=$f
    json_ok "$x.ini on the 4-cube with faults = $f: data correct, cycles >= the whole cube's $whole" \
      "d['data_correct'] is True and d['cycles'] >= $whole"
  done
done
# Dead nodes: broadcast.so declares CUBEMU_RUNS_WITH_DEAD_NODES and runs;
# allreduce.so does not and is refused, naming where faults was set.
for f in node:0 random-nodes:2:1 random-nodes:3:5; do
  in_dir "$E" "$C" run --json "$W/broadcast.ini" --set machine.dimensions=4 --set machine.faults=$f
  live=$((16 - $(sed -E 's/^node:.*/1/; s/^random-nodes:([0-9]+):.*/\1/' <<<"$f")))
  json_ok "broadcast.so on the 4-cube with faults = $f: data correct, $live live nodes, $((live - 1)) messages" \
    "d['data_correct'] is True and d['details']['live_nodes'] == $live and d['messages'] == $live - 1"
done
refused "allreduce.so (no CUBEMU_RUNS_WITH_DEAD_NODES) on a machine with a dead node" "$E" \
  "--set machine.faults=node:5: algorithm 'allreduce' needs every node, and machine.faults names 1 dead (node:5)" \
  "or a program that declares CUBEMU_RUNS_WITH_DEAD_NODES" -- run "$W/allreduce.ini" --set machine.faults=node:5
sed 's/^faults = .*/faults = node:3/' "$W/broadcast-dead.ini" | sed 's|program = ./broadcast.so|program = ./allreduce.so|' \
  | grep -v '^details\.\|^messages\|^element_transfers\|^cycles' >"$W/allreduce-dead.ini"
refused "the same in a scenario file, naming its line" "$E" \
  "allreduce-dead.ini:11: algorithm 'allreduce' needs every node" -- run "$W/allreduce-dead.ini"
rm -f "$W/allreduce-dead.ini"

# --- 7. the built-in shift is a program like a loaded one -------------------------------------
in_dir "$E" "$C" list --json
json_ok "cubemu list --json: shift like every algorithm, its parameters with their ranges" "
[a for a in d['algorithms'] if a['name'] == 'shift'] and
all(set(a) == set(d['algorithms'][0]) for a in d['algorithms']) and
(lambda s: s['methods'][0]['name'] == 'ring' and set(s['topologies']) >= {'cube', 'mesh'}
 and [p['name'] for p in s['parameters']] == ['elements-per-node', 'axis', 'direction', 'dimensions']
 and all(p['min'] <= p['max'] for p in s['parameters'] if p['kind'] == 'integer')
 and s['parameters'][0]['min'] == 1 and s['parameters'][1]['max'] == 31
 and s['parameters'][2]['values'] == ['+', '-'])(
 [a for a in d['algorithms'] if a['name'] == 'shift'][0])"
shifts=("$ROOT"/share/cubemu/scenarios/shift/*.ini)
in_dir "$E" "$C" check "${shifts[@]}"
if [ "$rc" = 0 ] && grep -qE "^${#shifts[@]} passed, 0 failed$" <<<"$out"; then ok "cubemu check share/cubemu/scenarios/shift/*.ini: ${#shifts[@]} pass"
else bad "cubemu check shift scenarios: exit $rc" "$out"; fi
# shift.c, compiled out of the tree against the installed header alone,
# loads as a program and reports exactly what the built-in does.
mkdir -p "$tmp/shift"
if out=$("$CC" -std=c11 -Wall -Wextra -Werror -O2 -shared -fPIC $SDK_CFLAGS \
         -Dprogram_shift=cubemu_program_descriptor "$SRC/algorithms/shift/shift.c" \
         -o "$tmp/shift/shift.so" 2>&1); then
  differ=()
  for s in "${shifts[@]}"; do
    in_dir "$E" "$C" run --json "$s"; a=$out
    in_dir "$E" "$C" run --json "$s" --set algorithm.program="$tmp/shift/shift.so"; b=$out
    python3 -c '
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
sys.exit(0 if b["algorithm"].pop("program") and a == b and a["data_correct"] else 1)' "$a" "$b" 2>/dev/null \
      || differ+=("$(basename "$s")")
  done
  if [ ${#differ[@]} = 0 ]; then ok "algorithms/shift/shift.c built against the installed header alone, loaded: the built-in's reports on ${#shifts[@]} scenarios"
  else bad "shift.c as a loaded program differs from the built-in on: ${differ[*]}"; fi
else
  bad "algorithms/shift/shift.c against the installed header alone (-Werror)" "$out"
fi

finish
