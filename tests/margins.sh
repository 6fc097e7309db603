#!/usr/bin/env bash
# tests/margins.sh -- every Check test within half of its effective timeout
# (its case's timeout times CK_TIMEOUT_MULTIPLIER, the build's timeout
# factor: docs/testing.md, "Timeouts and margins"). tests/run-all.sh runs
# the suites with CUBEMU_CHECK_TIMINGS=$BUILD/tests/timings, then this.
#
# First the checker, tests/margins.py, on logs whose answers are known, so
# that it can fail: fake logs in tests/data/margins/ (a test over its
# limit, a loop test's iteration over its own, a case without a timeout, a
# missing and a broken log, a table without its multiplier; a test exactly
# at its limit and one with Check's timer off pass), and a real suite,
# $BUILD/tests/check_queue, whose table must hold Check's timeouts as the
# environment sets them and whose log, with one duration raised past the
# limit, must fail the test it names; and --compare on two fake logs.
# Then the suites' own logs, each test one case of this script's count.
# Ends with "margins: N passed, N failed".
set -u
BUILD=${BUILD:-build}
. "$(dirname "$0")/expect.sh"
D=tests/data/margins
M="python3 tests/margins.py"
scratch margins

expect over 1 "FAIL fake/model/slow: 2.50 s, over its limit of 2 s, half of its 4 s timeout (4 s x CK_TIMEOUT_MULTIPLIER 1)
FAIL fake/random/loop[1]: 95.00 s, over its limit of 90 s, half of its 180 s timeout (60 s x CK_TIMEOUT_MULTIPLIER 3)
FAIL fake/orphan/lost: its case has no timeout in check_fake.timeouts (make it with ck_tcase, tests/check_main.h)
closest: fake/model/slow: 2.50 s of its 2 s limit (125%)
closest: fake/random/loop[1]: 95.00 s of its 90 s limit (106%)
closest: fake/random/loop[0]: 80.00 s of its 90 s limit (89%)
2 passed, 3 failed" -- $M $D/over
expect within 0 "closest: fake/model/at_the_limit: 2.00 s of its 2 s limit (100%)
closest: fake/model/quick: 0.50 s of its 2 s limit (25%)
3 passed, 0 failed" -- $M $D/within
expect no-log 1 "FAIL check_fake: no log check_fake.xml beside its timeouts (the suite did not finish)
0 passed, 1 failed" -- $M $D/nolog
expect_has broken-log 1 "FAIL check_fake: check_fake.xml: " -- $M $D/broken
expect_has broken-table 1 "FAIL check_table: check_table.timeouts line 1: not CASE<tab>TIMEOUT<tab>MULTIPLIER
0 passed, 2 failed" -- $M $D/broken
mkdir "$T/empty"
expect no-suites 1 "FAIL $T/empty: no suite's timeouts (run the suites with CUBEMU_CHECK_TIMINGS=$T/empty)
0 passed, 1 failed" -- $M "$T/empty"
expect usage 2 "usage: margins.py DIR | margins.py --compare DIR DIR" -- $M
expect compare 0 "    0.50 s     0.50 s    1.0x  fake/model/quick[0]
median of 1: 1.0x" -- $M --compare $D/over $D/within

# A real suite: its table holds the timeouts as Check reads them from the
# environment (a value Check cannot read leaves the default), and its log
# is read; queue_table NAME WANT [VAR=VALUE...] runs it so.
queue=$BUILD/tests/check_queue
tab=$'\t'
queue_table() {
  local name=$1 want=$2; shift 2
  rm -rf "$T/queue"; mkdir "$T/queue"
  run env -u CK_DEFAULT_TIMEOUT -u CK_TIMEOUT_MULTIPLIER "$@" \
    CUBEMU_CHECK_TIMINGS="$T/queue" "$queue"
  if [ "$rc" = 0 ] && [ "$(cat "$T/queue/check_queue.timeouts")" = "$want" ]; then
    ok "$name"; else out="$out
table: $(cat "$T/queue/check_queue.timeouts" 2>&1)"; bad "$name"; fi
}
queue_table queue-default "queue${tab}4${tab}1"
queue_table queue-unreadable "queue${tab}4${tab}1" CK_DEFAULT_TIMEOUT=x CK_TIMEOUT_MULTIPLIER=-2
queue_table queue-default-timeout "queue${tab}10${tab}3" CK_DEFAULT_TIMEOUT=10 CK_TIMEOUT_MULTIPLIER=3
queue_table queue-multiplier "queue${tab}4${tab}0.5" CK_TIMEOUT_MULTIPLIER=0.5
tests=$(grep -c '<test ' "$T/queue/check_queue.xml")
run $M "$T/queue"
if [ "$rc" = 0 ] && [ "$tests" -gt 1 ] \
   && [ "$(tail -n 1 <<<"$out")" = "$tests passed, 0 failed" ]; then
  ok queue-within; else bad queue-within; fi
# queue_ties_in_insertion_order took 1.5 s: over half of 4 s x 0.5
sed -i '/<id>queue_ties_in_insertion_order</,/<duration>/s|<duration>[^<]*<|<duration>1.500000<|' \
  "$T/queue/check_queue.xml"
run $M "$T/queue"
if [ "$rc" = 1 ] && [ "$(head -n 1 <<<"$out")" = "FAIL queue/queue/queue_ties_in_insertion_order: 1.50 s, over its limit of 1 s, half of its 2 s timeout (4 s x CK_TIMEOUT_MULTIPLIER 0.5)" ] \
   && [ "$(tail -n 1 <<<"$out")" = "$((tests - 1)) passed, 1 failed" ]; then
  ok queue-over; else bad queue-over; fi

# The suites' own logs: each test passed or failed counts here.
run $M "$BUILD/tests/timings"
printf '%s\n' "$out" | sed '$d'
last=$(tail -n 1 <<<"$out")
p=$(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1/p' <<<"$last")
f=$(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\2/p' <<<"$last")
if [ -z "$p" ]; then miss "suites: no summary (exit $rc)"
else passed=$((passed + p)); failed=$((failed + f)); fi

echo "margins: $passed passed, $failed failed"
[ "$failed" = 0 ]
