#!/usr/bin/env bash
# bench/run.sh -- make bench: the host's cost of fresh memory (bench
# --first-touch), the cases of bench/bench.c, then cubemu
# against its peers (bench/peers.sh: the exchange against SimGrid and
# the copy loop; bench/routed.sh: the routed bit reversal against a
# second SimGrid baseline), then every algorithm against the exchange
# (bench/algorithms.sh), then Schedgen's schedules against LogGOPSim where
# LOGGOPSIM names it (bench/loggopsim-agree.sh: the LogGP model's finish
# times, which records nothing; bench/loggopsim.sh: the replay's speed),
# and the exchange with n - 1 link faults against none (bench/faults.sh),
# and 1 thread against 2 (bench/threads.sh), and the share of the runs
# that stop the locality order that could run in it (bench/frontier.sh),
# each figure printed and appended to
# the results file as a row (bench/record.h says the columns):
#   BENCH_DATA   the file (default bench/results.tsv; created with its
#                header), to be committed with the change it measured;
#   BENCH_DATE, BENCH_COMMIT, BENCH_MACHINE  this run's: the time (UTC),
#                the commit (with -dirty for uncommitted changes) and the
#                machine's cores, processor and memory, set once
#                (bench/lib.sh) so that every row of the run carries the
#                same three.
# make bench-report (bench/report.py) prints the file as a table. Exit
# status 1 if a case failed (a run that did not finish or verify, a row
# that could not be recorded); a missed target is printed NOT MET and
# recorded, and fails only make bench-targets, which judges the latest
# recorded run, so that running make bench to see the numbers succeeds.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
. bench/lib.sh
bench_setup || exit 1
echo "bench: $BENCH_DATE, $BENCH_COMMIT, $BENCH_MACHINE -> $BENCH_DATA"
status=0
fail=0
# The host's cost of first touching fresh memory after a pause, on small
# pages and on huge ones: what the engine's choice between the two for
# its big arrays weighs (emu/oom.c).
if read -r small huge < <("$BUILD/bench/bench" --first-touch 256 5); then
  echo "host: first touch of 256 MiB after a 5 s pause: $small ms a MiB on small pages, $huge on huge pages"
  record "host: first touch after a pause" small_pages "$small" ms/MiB
  record "host: first touch after a pause" huge_pages "$huge" ms/MiB
else
  echo "host: the first-touch probe failed"
  status=1
fi
[ "$fail" = 0 ] || status=1
"$BUILD/bench/bench" "$BUILD/cubemu" || status=1
BUILD=$BUILD bench/peers.sh || status=1
BUILD=$BUILD bench/routed.sh || status=1
BUILD=$BUILD bench/algorithms.sh || status=1
BUILD=$BUILD bench/faults.sh || status=1
BUILD=$BUILD bench/threads.sh || status=1
BUILD=$BUILD bench/frontier.sh || status=1
BUILD=$BUILD bench/loggopsim-agree.sh || status=1
BUILD=$BUILD bench/loggopsim.sh || status=1
exit $status
