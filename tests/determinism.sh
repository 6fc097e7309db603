#!/usr/bin/env bash
# tests/determinism.sh -- every scenario under scenarios/ run twice: the two
# JSON reports must be byte-identical once the wall-clock fields
# (wall_seconds, anything under "wall") are removed, and the two traces
# (--trace) byte-identical. Prints "determinism: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
EMU=$BUILD/cubemu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
strip() {
  python3 - "$1" <<'PY'
import json, sys
def clean(x):
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items()
                if k != "wall_seconds" and k != "wall"}
    if isinstance(x, list):
        return [clean(v) for v in x]
    return x
print(json.dumps(clean(json.load(open(sys.argv[1]))), sort_keys=False))
PY
}
while IFS= read -r f; do
  ok=1
  for i in 1 2; do
    "$EMU" run "$f" --json --trace "$tmp/t$i" >"$tmp/j$i" 2>"$tmp/e$i"
    echo $? >"$tmp/rc$i"
  done
  if ! cmp -s "$tmp/rc1" "$tmp/rc2"; then
    echo "FAIL $f: exit statuses differ"; ok=0
  elif ! cmp -s "$tmp/t1" "$tmp/t2"; then
    echo "FAIL $f: the two traces differ"; ok=0
  elif [ "$(strip "$tmp/j1")" != "$(strip "$tmp/j2")" ]; then
    echo "FAIL $f: the two JSON reports differ beyond wall time"; ok=0
  fi
  if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done < <(find scenarios -name '*.ini' | sort)
echo "determinism: $pass passed, $fail failed"
[ "$fail" = 0 ]
