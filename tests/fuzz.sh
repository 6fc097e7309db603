#!/usr/bin/env bash
# tests/fuzz.sh -- the fuzz harnesses without libFuzzer (make check, and
# make sanitize with the ASan/UBSan build): each $BUILD/tests/fuzz/fuzz_NAME,
# linked with tests/fuzz/driver.c, runs once over every seed in
# tests/fuzz/corpus/NAME and every regression in tests/fuzz/regressions/NAME
# (an input a fuzzer once crashed on, named after what it found). One pass
# per input; a crash fails the rest of its harness.
# Ends with "fuzz: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
passed=0
failed=0
for name in $(ls tests/fuzz/fuzz_*.c | sed -E 's|.*/fuzz_(.*)\.c|\1|'); do
  bin=$BUILD/tests/fuzz/fuzz_$name
  mapfile -t inputs < <(find "tests/fuzz/corpus/$name" "tests/fuzz/regressions/$name" \
                          -type f ! -name '.*' 2>/dev/null | sort)
  if [ ! -x "$bin" ]; then
    echo "FAIL fuzz_$name: $bin not built"; failed=$((failed + 1)); continue
  fi
  out=$("$bin" "${inputs[@]}" 2>&1); rc=$?
  ok=$(grep -c '^ok ' <<<"$out")
  passed=$((passed + ok))
  if [ "$rc" != 0 ] || [ "$ok" != "${#inputs[@]}" ]; then
    failed=$((failed + ${#inputs[@]} - ok))
    [ "$ok" != "${#inputs[@]}" ] || failed=$((failed + 1))
    printf '%s\n' "$out" | grep -v '^ok ' | tail -n 30
    echo "FAIL fuzz_$name: exit $rc after $ok of ${#inputs[@]} inputs"
  else
    echo "ok fuzz_$name: ${#inputs[@]} inputs"
  fi
done
echo "fuzz: $passed passed, $failed failed"
