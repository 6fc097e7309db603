#!/usr/bin/env bash
# tests/self-contained.sh -- nothing in the tree may need a path outside
# it: a reader who clones the repository has only the repository. Every
# tracked text file (git ls-files; without git, every file but the build
# folders') is searched for
#   - the folders that sit beside a developer's checkout, not in it: a
#     relative path up into `shared` (the papers, an outside baseline) or
#     a path naming shared/papers or shared/bench;
#   - an absolute path into someone's machine: under work, home, Users or
#     root at the file system's root;
#   - a Markdown link or a C/C++ #include whose relative target, resolved
#     from the file's own folder (as a renderer and the compiler resolve
#     it), climbs above the tree's root.
# Each hit is reported as FILE:LINE: what it refers to. This file's own
# patterns and planted references are spelt so that they do not match. Binary files are
# not searched (grep -I): bytes are no reference. No text file is
# excluded, the recorded benchmark (bench/results.tsv) included: a
# recorded path would be one of the machine that ran it. Then the same
# search must find exactly the references planted in a scratch tree, so
# that it is seen to fail. Ends with "self-contained: N passed, N failed".
set -u
. "$(dirname "$0")/expect.sh"
scratch self-contained
ROOT=$(cd "$(dirname "$0")/.." && pwd)

# Written so that this file does not match itself.
OUTSIDE_SHARED='(^|[^.])(\.\./)+shared([/[:space:]`'"'"'")}]|$)|shared/(papers|bench)/'
OUTSIDE_ABSOLUTE='(^|[^[:alnum:]_.~-])/(work|home|Users|root)/'

# files DIR: DIR's files, NUL-separated, relative to DIR
files() {
  if git -C "$1" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    git -C "$1" ls-files -z
  else
    (cd "$1" && find . \( -name .git -o -name 'build*' \) -prune -o -type f -print0 | sed -z 's|^\./||')
  fi
}

# climbs FILE TARGET: whether TARGET, relative to FILE's folder, climbs
# above the root (FILE is relative to the root)
climbs() {
  local slashes=${1//[^\/]/} part
  local depth=${#slashes}
  IFS=/ read -ra parts <<<"$2"
  for part in "${parts[@]}"; do
    case $part in
      ''|.) ;;
      ..) depth=$((depth - 1)); [ "$depth" -lt 0 ] && return 0 ;;
      *) depth=$((depth + 1)) ;;
    esac
  done
  return 1
}

# search DIR: print every reference out of DIR as FILE:LINE: MATCH
search() {
  local f line target
  (cd "$1" && files . | xargs -0 -r grep -I -H -n -o -E "$OUTSIDE_SHARED|$OUTSIDE_ABSOLUTE" --) \
    | sed -E 's/^([^:]*:[0-9]+:)[^[:alnum:]~.\/]*/\1 /'
  # Markdown links and #includes, each resolved from its own file's folder
  {
    (cd "$1" && files . | grep -z '\.md$' | xargs -0 -r grep -I -H -n -o -E '\]\([^)#[:space:]]+' --) \
      | sed 's/:](/:/'
    (cd "$1" && files . | grep -z -E '\.(c|h|cpp|hpp)$' \
       | xargs -0 -r grep -I -H -n -o -E '^#[[:space:]]*include[[:space:]]*"[^"]+' --) \
      | sed -E 's/:#[[:space:]]*include[[:space:]]*"/:/'
  } | while IFS=: read -r f line target; do
    case $target in *://*|/*|mailto:*) ;; *) climbs "$f" "$target" && echo "$f:$line: $target" ;; esac
  done
}

hits=$(search "$ROOT")
if [ -z "$hits" ]; then
  ok "no tracked file refers to a path outside the tree"
else
  out=$(sed 's/$/ (a path outside the tree)/' <<<"$hits")
  miss "tracked files refer to paths outside the tree:"
  printf '%s\n' "$out" | sed 's/^/  /'
fi

# A scratch tree with one reference of each kind planted, and a clean file
# and lookalikes that must not be reported
up=.. shared=shared home=home work=work
mkdir -p "$T/tree/docs" "$T/tree/bench/simgrid" "$T/tree/src"
printf '# Readme\n\nThe papers are in `%s/%s/papers/`.\n' $up $shared > "$T/tree/README.md"
printf 'a [link](%s/%s/elsewhere/x.md) out\nand [one](%s/README.md) in\nsee %s/bench/simgrid/README.md\n' \
  $up $up $up $shared > "$T/tree/docs/notes.md"
printf '#!/bin/sh\nSRC=${SRC:-%s/%s/bench/simgrid}\ncat /%s/someone/papers/x.txt\n' $up $shared $home \
  > "$T/tree/bench/peers.sh"
printf '#include "%s/%s/%s/outside.h"\n#include "%s/src/inside.h"\n/* /%s/cubemu/x.c */\n' $up $up $up $up $work \
  > "$T/tree/bench/simgrid/b.cpp"
printf 'build/%s/ and network/%s/ and bench/%s.c and %s/%s_memory.h\n' $work $home $shared $up $shared \
  > "$T/tree/src/clean.txt"
expected="README.md:3: $up/$shared/
bench/peers.sh:2: $up/$shared/
bench/peers.sh:3: /$home/
bench/simgrid/b.cpp:1: $up/$up/$up/outside.h
bench/simgrid/b.cpp:3: /$work/
docs/notes.md:1: $up/$up/elsewhere/x.md
docs/notes.md:3: ${shared}/bench/"
out=$(search "$T/tree" | sort)
if [ "$out" = "$expected" ]; then
  ok "the planted references are found, by file and line"
else
  printf '  expected:\n%s\n' "$expected"
  bad "the planted references are found, by file and line"
fi

echo "self-contained: $passed passed, $failed failed"
[ "$failed" = 0 ]
