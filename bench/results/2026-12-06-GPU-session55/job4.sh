#!/bin/bash
# session 55, job 4: gpurcm's host time split by -info (before the GPU, upload to download, the two ISes), the stage
# trace beside it, and the IS micro-benchmark (isbench.c) on this host.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session55/job4.sh <revision>
. bench/gpujob.sh job4 "$1"
D=bench/results/2026-12-06-GPU-session55
timeout 60 build/bench/bench_order -matrices lap3d:100,lap3d:160,lap2d:1000 -orderings gpurcm@cuda -reps 7 -info :sys,mat $dll > $r/info.txt 2>&1
echo "info exit $?"; grep -h "^  gpurcm" $r/info.txt | cut -c1-100
grep -h "host time" $r/info.txt | cut -c1-250
grep -h "TraceReport" $r/info.txt | cut -c60-330
make -s -f $D/isbench.makefile isbench > $r/isbench-build.log 2>&1 && for n in 1000000 4096000; do echo "n $n"; /tmp/isbench -n $n; done 2>&1 | tee $r/isbench.txt
