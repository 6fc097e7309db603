# expect.sh -- the black-box test helpers the test scripts share (sourced,
# not run). Each test prints "ok NAME" or "FAIL NAME" with what it got;
# $passed and $failed count them. $CUBEMU is the program under test:
# $BUILD/cubemu (BUILD defaults to build) unless the script or its caller
# set it first.
: "${BUILD:=build}"
: "${CUBEMU:=$BUILD/cubemu}"
passed=0
failed=0
out=""
rc=0

# scratch NAME: $T, a new directory cubemu-NAME.XXXXXX in $TMPDIR (or
# /tmp), removed when the script exits.
scratch() {
  T=$(mktemp -d "${TMPDIR:-/tmp}/cubemu-$1.XXXXXX")
  trap 'rm -rf "$T"' EXIT
}

run() { out=$("$@" 2>&1); rc=$?; }
ok() { echo "ok $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1"; printf '  got (exit %s):\n%s\n' "$rc" "$out" | head -n 30; failed=$((failed + 1)); }
# miss NAME: "FAIL NAME" alone, for a check whose NAME says what it found
miss() { echo "FAIL $1"; failed=$((failed + 1)); }

# expect NAME STATUS EXACT-OUTPUT -- COMMAND...
expect() {
  local name=$1 status=$2 text=$3; shift 4
  run "$@"
  if [ "$rc" = "$status" ] && [ "$out" = "$text" ]; then ok "$name"; else
    printf '  expected (exit %s):\n%s\n' "$status" "$text"; bad "$name"; fi
}
# expect_has NAME STATUS SUBSTRING -- COMMAND...
expect_has() {
  local name=$1 status=$2 text=$3; shift 4
  run "$@"
  if [ "$rc" = "$status" ] && [[ "$out" == *"$text"* ]]; then ok "$name"; else
    printf '  expected (exit %s) to contain:\n%s\n' "$status" "$text"; bad "$name"; fi
}
# check NAME COMMAND...: passes when COMMAND exits 0
check() { local name=$1; shift; run "$@"; if [ "$rc" = 0 ]; then ok "$name"; else bad "$name"; fi; }
