#!/usr/bin/env bash
# tests/install.sh -- make install and make uninstall, as a user or a
# package build would run them: install into a staging folder (DESTDIR)
# with PREFIX=/opt/cubemu, then, from another folder, run the installed
# programs (the default scenario, --version, presets and kernel tables
# found under share/, a scenario of share/cubemu/scenarios, the viewer
# beside cubemu, cubemu-mpi under mpirun), render the man pages with
# man -l without a warning and check that they name every option --help
# prints (cubemu, each command, cubemu-mpi) and every CUBEMU_* variable
# the sources read, call the bash (and zsh) completion functions, build
# examples/transpose.c against the staged cubemu.pc and against the tree's
# cubemu-uninstalled.pc, and finally make uninstall: nothing may remain.
# Prints "ok ..." or "FAIL ..." per case ("skip ..." where a tool is
# missing) and ends with "install: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
SRC=$PWD
BUILD=${BUILD:-build}
TIMEOUT=${INSTALL_TIMEOUT:-60}
VERSION=$(sed -nE 's/^VERSION *:= *//p' Makefile)
pass=0 fail=0
ok()   { echo "ok   $1"; pass=$((pass + 1)); }
bad()  { echo "FAIL $1"; [ -n "${2-}" ] && printf '%s\n' "$2" | head -20 | sed 's/^/     /'; fail=$((fail + 1)); }
skip() { echo "skip $1"; }
check() {  # NAME COMMAND...: ok when the command succeeds
  local name=$1 out; shift
  if out=$("$@" 2>&1); then ok "$name"; else bad "$name" "$out"; fi
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cubemu-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
DEST=$tmp/dest
PREFIX=/opt/cubemu
ROOT=$DEST$PREFIX
ELSEWHERE=$tmp/elsewhere
mkdir -p "$ELSEWHERE"
# make with the variables of a make that started this test (make check
# WERROR=), but not its jobserver, whose descriptors this script lacks.
MAKE_CMD=(env -u MFLAGS -u MAKELEVEL
          MAKEFLAGS="$(sed -E 's/--jobserver-(auth|fds)=[^ ]*//g' <<<"${MAKEFLAGS-}")"
          make --no-print-directory BUILD="$BUILD")
MPIRUN=(mpirun --oversubscribe --allow-run-as-root)
HAVE_MPI=; [ -x "$BUILD/cubemu-mpi" ] && HAVE_MPI=1
HAVE_VIEW=; [ -x "$BUILD/cubemu-view" ] && pkg-config --exists sdl2 2>/dev/null && HAVE_VIEW=1

# --- install -------------------------------------------------------------
if out=$("${MAKE_CMD[@]}" install DESTDIR="$DEST" PREFIX="$PREFIX" 2>&1); then
  ok "make install DESTDIR=... PREFIX=$PREFIX"
else
  bad "make install DESTDIR=... PREFIX=$PREFIX" "$(tail -20 <<<"$out")"
  echo "install: $pass passed, $((fail + 1)) failed"; exit 1
fi

expect_files=(bin/cubemu share/man/man1/cubemu.1 share/man/man5/cubemu-scenario.5
  share/bash-completion/completions/cubemu share/zsh/site-functions/_cubemu
  share/cubemu/machines/cm200-8k.ini share/cubemu/machines/cm200-dgemv.tbl
  share/doc/cubemu/README.md)
[ -n "$HAVE_VIEW" ] && expect_files+=(bin/cubemu-view)
[ -n "$HAVE_MPI" ] && expect_files+=(bin/cubemu-mpi share/man/man1/cubemu-mpi.1
  include/cubemu.h lib/libcubemu.a lib/libcubemu.so lib/libcubemu.so.0
  "lib/libcubemu.so.$VERSION" lib/pkgconfig/cubemu.pc)
missing=()
for f in "${expect_files[@]}"; do [ -e "$ROOT/$f" ] || missing+=("$f"); done
for f in machines/*.ini machines/*.tbl; do
  [ -f "$ROOT/share/cubemu/$f" ] || missing+=("share/cubemu/$f")
done
while IFS= read -r f; do
  [ -f "$ROOT/share/cubemu/$f" ] || missing+=("share/cubemu/$f")
done < <(find scenarios -name '*.ini')
if [ ${#missing[@]} = 0 ]; then ok "layout: ${#expect_files[@]} files, presets, every scenario under $PREFIX"
else bad "layout: missing under $PREFIX" "${missing[*]}"; fi
if [ -n "$HAVE_MPI" ]; then
  pc=$(sed -n 's/^prefix=//p' "$ROOT/lib/pkgconfig/cubemu.pc")
  [ "$pc" = "$PREFIX" ] && ok "cubemu.pc: prefix=$PREFIX" || bad "cubemu.pc: prefix=$pc, not $PREFIX"
fi

# --- the installed programs, from another folder ----------------------------
cd "$ELSEWHERE"
CUBEMU=$ROOT/bin/cubemu
unset CUBEMU_MACHINES
out=$(timeout "$TIMEOUT" "$CUBEMU" run 2>&1); rc=$?
if [ $rc = 0 ] && grep -qE '^ +cycles +[0-9]+' <<<"$out"; then ok "cubemu run: the default scenario ($(grep -m1 -E '^ +cycles' <<<"$out" | tr -s ' '))"
else bad "cubemu run: exit $rc" "$out"; fi
out=$("$CUBEMU" --version 2>&1)
[ "$out" = "cubemu $VERSION" ] && ok "cubemu --version: $out" || bad "cubemu --version: '$out', not 'cubemu $VERSION'"
out=$("$CUBEMU" list 2>&1); rc=$?
miss=()
for f in "$SRC"/machines/*.ini; do n=$(basename "$f" .ini); grep -qE "^  $n " <<<"$out" || miss+=("$n"); done
if [ $rc = 0 ] && [ ${#miss[@]} = 0 ]; then ok "cubemu list: every preset"
else bad "cubemu list: exit $rc, missing presets: ${miss[*]}" "$out"; fi
# The presets come from share/cubemu/machines (the first folder with any
# preset is used): one more preset there shows in the list.
cp "$ROOT/share/cubemu/machines/cube.ini" "$ROOT/share/cubemu/machines/zz-install-probe.ini"
if "$CUBEMU" list 2>&1 | grep -q '^  zz-install-probe '; then ok "presets found in $PREFIX/share/cubemu/machines"
else bad "presets not taken from $PREFIX/share/cubemu/machines" "$("$CUBEMU" list 2>&1 | tail -12)"; fi
rm -f "$ROOT/share/cubemu/machines/zz-install-probe.ini"
scen=$ROOT/share/cubemu/scenarios/paper/johnsson-ho-figure5-concurrent.ini
out=$(timeout "$TIMEOUT" "$CUBEMU" check "$scen" 2>&1); rc=$?
[ $rc = 0 ] && grep -q '^1 passed, 0 failed' <<<"$out" && ok "cubemu check share/cubemu/scenarios/paper/...figure5-concurrent.ini" \
  || bad "cubemu check $scen: exit $rc" "$out"
# cm200-8k's kernels are tables: cm200-dgemv.tbl is found beside the preset.
out=$(timeout "$TIMEOUT" "$CUBEMU" run --set machine.preset=cm200-8k --json 2>&1); rc=$?
[ $rc = 0 ] && grep -q '"cm200-8k' <<<"$out" && ok "cubemu run --set machine.preset=cm200-8k" \
  || bad "cubemu run --set machine.preset=cm200-8k: exit $rc" "$out"
if [ -n "$HAVE_VIEW" ]; then
  out=$("$CUBEMU" view --help 2>&1); rc=$?
  [ $rc = 0 ] && grep -q 'Usage:' <<<"$out" && ok "cubemu view --help: cubemu-view found beside cubemu" \
    || bad "cubemu view --help: exit $rc" "$out"
  out=$(timeout "$TIMEOUT" "$CUBEMU" view "$scen" --png frame.png 2>&1); rc=$?
  [ $rc = 0 ] && [ -s frame.png ] && ok "cubemu view --png: the viewer's font found" \
    || bad "cubemu view --png: exit $rc" "$out"
else
  skip "cubemu view: no cubemu-view (SDL2) in $BUILD"
fi
if [ -n "$HAVE_MPI" ]; then
  out=$("$ROOT/bin/cubemu-mpi" 2>&1); rc=$?
  [ $rc = 2 ] && grep -q 'usage: ' <<<"$out" && ok "cubemu-mpi: usage, exit 2" || bad "cubemu-mpi: exit $rc" "$out"
  if command -v mpirun >/dev/null; then
    out=$(timeout "$TIMEOUT" "${MPIRUN[@]}" -np 8 "$ROOT/bin/cubemu-mpi" run \
          "$ROOT/share/cubemu/scenarios/transpose/cube-3-bmmc-transpose.ini" 2>&1); rc=$?
    [ $rc = 0 ] && grep -qE '^data +correct' <<<"$out" && ok "mpirun -np 8 cubemu-mpi run share/.../cube-3-bmmc-transpose.ini" \
      || bad "mpirun cubemu-mpi: exit $rc" "$out"
  else
    skip "cubemu-mpi under mpirun: no mpirun"
  fi
fi

# --- man pages ---------------------------------------------------------------
pages=("$ROOT/share/man/man1/cubemu.1" "$ROOT/share/man/man5/cubemu-scenario.5")
[ -n "$HAVE_MPI" ] && pages+=("$ROOT/share/man/man1/cubemu-mpi.1")
if command -v man >/dev/null; then
  for p in "${pages[@]}"; do
    warn=$(MANWIDTH=80 man -l "$p" 2>&1 >/dev/null)
    if command -v groff >/dev/null; then warn+=$(groff -man -Tutf8 -ww -z "$p" 2>&1); fi
    text=$(MANWIDTH=80 man -l "$p" 2>/dev/null)
    if [ -z "$warn" ] && [ "$(wc -l <<<"$text")" -gt 20 ]; then ok "man -l $(basename "$p"): renders, no warnings"
    else bad "man -l $(basename "$p")" "$warn"; fi
  done
  out=$(MANPATH="$ROOT/share/man" man -w cubemu-scenario 2>&1)
  [ "$out" = "$ROOT/share/man/man5/cubemu-scenario.5" ] && ok "man finds cubemu-scenario(5) under $PREFIX/share/man" \
    || bad "man -w cubemu-scenario: $out"
  render() { MANWIDTH=1000 man -l "$1" 2>/dev/null; }
else
  skip "man -l: no man (apt-get install man-db)"
  render() { groff -man -Tascii -P-cbou "$1" 2>/dev/null; }
fi
# Every option that --help prints is in the page (-- words are not split).
has() { grep -qE -- "(^|[^A-Za-z0-9-])$2([^A-Za-z0-9-]|\$)" <<<"$1"; }
man1=$(render "$ROOT/share/man/man1/cubemu.1")
help_opts() { grep -oE '^ +(-[A-Za-z0-9], )?--[A-Za-z0-9][A-Za-z0-9-]*' | tr -d ' ,' | sed -E 's/^(-[A-Za-z0-9])--/\1\n--/'; }
top=$("$CUBEMU" --help)
mapfile -t cmds < <(sed -nE 's/^  cubemu ([a-z][a-z-]*).*/\1/p' <<<"$top" | awk '!seen[$0]++')
miss=() nopt=0
for o in $(grep -oE -- '--?[A-Za-z][A-Za-z-]*' <<<"$(sed -n '/^Usage:/,/^$/p' <<<"$top")"); do
  nopt=$((nopt + 1)); has "$man1" "$o" || miss+=("cubemu $o")
done
for c in "${cmds[@]}"; do
  subs=$(sed -nE "s/^  cubemu $c ([a-z][a-z-]*) .*/\\1/p" <<<"$top" | sort -u)
  for w in ${subs:-""}; do
    help=$("$CUBEMU" $c $w --help 2>/dev/null) || continue
    for o in $(help_opts <<<"$help"); do
      nopt=$((nopt + 1)); has "$man1" "$o" || miss+=("cubemu $c $w $o")
    done
  done
  has "$man1" "$c" || miss+=("command $c")
done
if [ ${#miss[@]} = 0 ] && [ "$nopt" -gt 20 ]; then ok "cubemu.1 names all ${#cmds[@]} commands and $nopt options of --help"
else bad "cubemu.1 lacks what --help prints: ${miss[*]}"; fi
vars=$(grep -rhoE 'getenv\("CUBEMU_[A-Z0-9_]+"\)' "$SRC"/{cli,util,emu,machines,run,traces,algorithms,mpi,lib} 2>/dev/null \
       | sed -E 's/.*"(.*)".*/\1/' | sort -u)
miss=(); for v in $vars; do has "$man1" "$v" || miss+=("$v"); done
[ ${#miss[@]} = 0 ] && ok "cubemu.1 ENVIRONMENT: $(echo $vars)" || bad "cubemu.1 lacks environment variables: ${miss[*]}"
if [ -n "$HAVE_MPI" ]; then
  mpi1=$(render "$ROOT/share/man/man1/cubemu-mpi.1")
  usage=$("$ROOT/bin/cubemu-mpi" 2>&1 | grep 'usage:')
  miss=(); for o in $(grep -oE -- '--[A-Za-z][A-Za-z-]*' <<<"$usage"); do has "$mpi1" "$o" || miss+=("$o"); done
  [ ${#miss[@]} = 0 ] && [ -n "$usage" ] && ok "cubemu-mpi.1 names every option of its usage" \
    || bad "cubemu-mpi.1 lacks: ${miss[*]}"
fi
man5=$(render "$ROOT/share/man/man5/cubemu-scenario.5")
names=$("$CUBEMU" list --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
for a in d["algorithms"]:
    print(a["name"])
    for m in a["methods"]: print(m["name"])
    for p in a["parameters"]: print(p["name"])
for p in d["presets"]: print(p["name"])
for t in d["topologies"]: print(t["name"])' | sort -u)
miss=(); for n in $names; do has "$man5" "$n" || miss+=("$n"); done
[ ${#miss[@]} = 0 ] && [ -n "$names" ] && ok "cubemu-scenario.5 names every algorithm, method, parameter, preset, topology of list --json" \
  || bad "cubemu-scenario.5 lacks: ${miss[*]}"
for w in '\[expect\]' 'data = correct' 'bounds = hold' '<=' 'kernel.NAME'; do
  grep -q -- "$w" <<<"$man5" || miss+=("$w")
done
[ ${#miss[@]} = 0 ] && ok "cubemu-scenario.5: the [expect] grammar and [machine] keys" || bad "cubemu-scenario.5 lacks: ${miss[*]}"

# --- completion ----------------------------------------------------------------
COMP=$ROOT/share/bash-completion/completions/cubemu
complete_words() {  # WORD...: COMPREPLY for the words, the last being completed
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
           _cubemu; printf "%s\n" "${COMPREPLY[@]}"' _ "$COMP" "$@" 2>&1
}
comp_case() {  # NAME "WANTED..." WORD...: every wanted word among the replies
  local name=$1 want=$2 got w miss=(); shift 2
  got=$(complete_words "$@")
  for w in $want; do grep -qxF -- "$w" <<<"$got" || miss+=("$w"); done
  if [ ${#miss[@]} = 0 ]; then ok "completion: $name"
  else bad "completion: $name: missing ${miss[*]}" "$(echo $got)"; fi
}
comp_case "commands" "$(echo "${cmds[@]}")" cubemu ""
comp_case "--set algorithm.name=gr (one word, as zsh gives it)" "algorithm.name=gray-to-binary" \
  cubemu run --set algorithm.name=gr
comp_case "--set algorithm.name=gr (split at =, as bash gives it)" "gray-to-binary" \
  cubemu run --set algorithm.name = gr
formats=$("$CUBEMU" list --json | python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin)["trace_formats"]["names"]))')
comp_case "trace export --format: $formats" "$formats" cubemu trace export run.trace --format ""
comp_case "--set machine.preset=cm" "cm200-8k cm200-16k cm200-32k cm200-64k" cubemu run --set machine.preset = cm
comp_case "bmmc's methods" "two-phase naive" cubemu run --set algorithm.name=bmmc --set algorithm.method = ""
comp_case "--vary after a comma" "concurrent,sequential" \
  cubemu sweep --set algorithm.name=gray-to-binary --vary algorithm.method = concurrent,s
comp_case "scenario file names" "$ROOT/share/cubemu/scenarios/paper/johnsson-ho-figure5-concurrent.ini" \
  cubemu check "$ROOT/share/cubemu/scenarios/paper/johnsson-ho-figure5-c"
miss=()
for c in "${cmds[@]}"; do
  subs=$(sed -nE "s/^  cubemu $c ([a-z][a-z-]*) .*/\\1/p" <<<"$top" | sort -u)
  for w in ${subs:-""}; do
    help=$("$CUBEMU" $c $w --help 2>/dev/null) || continue
    got=$(complete_words cubemu $c $w -)
    for o in $(help_opts <<<"$help"); do grep -qxF -- "$o" <<<"$got" || miss+=("$c $w $o"); done
  done
done
[ ${#miss[@]} = 0 ] && ok "completion: every option of every command's --help" || bad "completion lacks options: ${miss[*]}"
if command -v zsh >/dev/null; then
  ZCOMP=$ROOT/share/zsh/site-functions/_cubemu
  out=$(zsh -c 'autoload -U +X compinit && compinit -u -D
    source "$1"
    COMP_WORDS=(cubemu run --set algorithm.name=gr); COMP_CWORD=3
    _cubemu_complete; print -l -- "${COMPREPLY[@]}"' _ "$ZCOMP" 2>&1)
  grep -qx 'algorithm.name=gray-to-binary' <<<"$out" && ok "completion (zsh, bashcompinit): algorithm.name=gr" \
    || bad "completion (zsh): algorithm.name=gr" "$out"
else
  skip "zsh completion: no zsh"
fi

# --- building against libcubemu ---------------------------------------------------
if [ -n "$HAVE_MPI" ] && command -v mpicc >/dev/null && command -v mpirun >/dev/null; then
  flags=$(PKG_CONFIG_PATH=$ROOT/lib/pkgconfig pkg-config --define-variable=prefix="$ROOT" --cflags --libs cubemu 2>&1)
  if out=$(mpicc -std=c11 -O2 "$SRC/examples/transpose.c" -o "$tmp/transpose-staged" $flags -Wl,-rpath,"$ROOT/lib" 2>&1) \
     && out=$(timeout "$TIMEOUT" "${MPIRUN[@]}" -np 4 "$tmp/transpose-staged" 3 7 2 2>&1) \
     && grep -q 'results equal' <<<"$out" \
     && ldd "$tmp/transpose-staged" | grep -q "$ROOT/lib/libcubemu.so"; then
    ok "examples/transpose.c built with the staged cubemu.pc, run on 4 ranks"
  else bad "examples/transpose.c against the staged cubemu.pc ($flags)" "$out"; fi
  flags=$(PKG_CONFIG_PATH=$SRC/$BUILD/lib pkg-config --cflags --libs cubemu 2>&1)
  if grep -q -- "-I$SRC/lib" <<<"$flags" \
     && out=$(mpicc -std=c11 -O2 "$SRC/examples/transpose.c" -o "$tmp/transpose-tree" $flags 2>&1) \
     && out=$(timeout "$TIMEOUT" "${MPIRUN[@]}" -np 2 "$tmp/transpose-tree" 6 5 2 2>&1) \
     && grep -q 'results equal' <<<"$out" \
     && ldd "$tmp/transpose-tree" | grep -q "$SRC/$BUILD/lib/libcubemu.so"; then
    ok "examples/transpose.c built with $BUILD/lib/cubemu-uninstalled.pc, run on 2 ranks"
  else bad "examples/transpose.c against cubemu-uninstalled.pc ($flags)" "$out"; fi
else
  skip "building examples/ against libcubemu: no MPI (mpicc, mpirun, $BUILD/cubemu-mpi)"
fi

# --- uninstall ----------------------------------------------------------------
cd "$SRC"
if out=$("${MAKE_CMD[@]}" uninstall DESTDIR="$DEST" PREFIX="$PREFIX" 2>&1); then
  left=$(find "$DEST" ! -type d)
  dirs=$(find "$ROOT/share/cubemu" "$ROOT/share/doc/cubemu" -maxdepth 0 2>/dev/null)
  if [ -z "$left" ] && [ -z "$dirs" ]; then ok "make uninstall: no file left under $PREFIX, share/cubemu and share/doc/cubemu gone"
  else bad "make uninstall left" "$left $dirs"; fi
else
  bad "make uninstall" "$(tail -20 <<<"$out")"
fi

echo "install: $pass passed, $fail failed"
[ "$fail" = 0 ]
