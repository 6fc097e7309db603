#!/bin/sh
# smpi.sh -- the transposes' all-to-all exchanges under SimGrid's SMPI next
# to cubemu's emulation on the same machine (an external check of the transposes).
# Needs libsimgrid-dev (smpicc, smpirun) and a built cubemu (make). Prints a
# Markdown table: P, sqrt(N), the method pair, SMPI's simulated time and
# wall time, cubemu's emulated time and wall time.
#   bench/smpi.sh [BUILD]      (BUILD defaults to build)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
cubemu="$build/cubemu"
out="$build/bench-smpi"
mkdir -p "$out"
smpicc -O2 -o "$out/alltoall" "$here/alltoall.c" 2>/dev/null
hosts="$out/hosts"
i=0; : > "$hosts"
while [ $i -lt 16 ]; do echo "p$i" >> "$hosts"; i=$((i + 1)); done
# CM02: latency plus size over bandwidth, no TCP window, no acknowledgement
# traffic, no host-speed benchmarking: the model cubemu's smp-8 prices.
cfg="--cfg=network/model:CM02 --cfg=network/TCP-gamma:0 \
--cfg=network/crosstraffic:0 --cfg=smpi/simulate-computation:no"
now() { date +%s.%N; }
echo "| P | sqrt(N) | SMPI algorithm | SMPI us | cubemu method | cubemu us | wall SMPI / cubemu |"
echo "|---|---|---|---|---|---|---|"
for p in 4 8 16; do
  for size in 16 64 256; do
    block=$(( (size / p) * (size / p) ))
    for pair in pair:pairwise bruck:bruck basic_linear:mpich; do
      alg=${pair%%:*}; method=${pair#*:}
      t0=$(now)
      smpi=$(smpirun -np $p -platform "$here/smp.xml" -hostfile "$hosts" \
             $cfg --cfg=smpi/alltoall:$alg "$out/alltoall" $block 2>/dev/null)
      t1=$(now)
      emu=$("$cubemu" run --json --set machine.preset=smp-8 \
            --set machine.processors=$p --set algorithm.name=transpose \
            --set algorithm.method=$method --set algorithm.size=$size)
      t2=$(now)
      echo "$p $size $alg $method $t0 $t1 $t2 $smpi" | python3 -c '
import json, sys
line = sys.stdin.readline().split()
p, size, alg, method, t0, t1, t2, smpi, ok = line
emu = json.loads(sys.argv[1])
radix = " radix 2" if method == "bruck" else ""
ratio = (float(t1) - float(t0)) / (float(t2) - float(t1))
print("| %s | %s | %s%s | %.2f | %s%s | %.2f | %.1f |" % (
    p, size, alg, "" if ok == "correct" else " (WRONG)", float(smpi) * 1e6,
    method, radix, emu["seconds"] * 1e6, ratio))' "$emu"
    done
  done
done
