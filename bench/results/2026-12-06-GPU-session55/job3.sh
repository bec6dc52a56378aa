#!/bin/bash
# session 55, job 3: where gpurcm's host time outside the traced GPU stages goes (about 1.5 ms of 9 on 3D 100³, 7 of 22
# on 3D 160³): -log_view's events, and perf profiles (when perf is there) of the cuda and the 16-thread backends.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session55/job3.sh <revision>
. bench/gpujob.sh job3 "$1"
{ for t in perf nsys strace ltrace; do echo "$t: $(command -v $t)"; done; cat /sys/kernel/mm/transparent_hugepage/enabled; } 2>&1 | tee $r/tools.txt
timeout 60 build/bench/bench_order -matrices lap3d:100,lap3d:160 -orderings gpurcm@cuda -reps 15 -log_view $dll > $r/logview.txt 2>&1
echo "logview exit $?"; grep -E "^  gpurcm|MatGetOrdering|GPURCM" $r/logview.txt | cut -c1-120
if command -v perf > /dev/null; then
  for m in lap3d:100 lap3d:160; do
    timeout 60 perf record -F 20000 -g -o $r/perf-$m.data build/bench/bench_order -matrices $m -orderings gpurcm@cuda -reps 30 $dll > $r/perf-$m.txt 2>&1
    perf report -i $r/perf-$m.data --no-children --sort dso,sym 2>/dev/null | grep -v "^#" | grep "%" | grep -v "^ *|" | head -60 > $r/perf-$m-top.txt
    perf report -i $r/perf-$m.data --children --sort sym 2>/dev/null | grep -v "^#" | grep "%" | grep -v "^ *|\|--" | head -80 > $r/perf-$m-children.txt
    rm -f $r/perf-$m.data
    echo "== $m"; head -25 $r/perf-$m-top.txt | cut -c1-120
  done
  timeout 60 perf record -F 5000 -g -o $r/perf-thr.data build/bench/bench_order -matrices lap3d:100 -orderings gpurcm@threads:16 -reps 15 $dll > $r/perf-thr.txt 2>&1
  perf report -i $r/perf-thr.data --no-children --sort dso,sym 2>/dev/null | grep -v "^#" | grep "%" | grep -v "^ *|" | head -60 > $r/perf-thr-top.txt
  rm -f $r/perf-thr.data
  echo "== threads"; head -20 $r/perf-thr-top.txt | cut -c1-120
fi
