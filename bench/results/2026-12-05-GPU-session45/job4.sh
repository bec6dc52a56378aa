#!/bin/bash
# session 45, job 4 (one GPU): where the predictor's GPU features spend their time (issue 6: the prediction costs
# <= 1% of one conversion; session 38 on the H200: 0.11-2.21%, 7 of 15 above 1%). The features' time on the host and
# the GPU (MatPELLRPredictTimeFeatures(), median of 5) on the six costliest of the 15 large matrices and lap2d:1000,
# then the same run under Nsight Compute (no nsys on the machine) for each kernel's duration: the rest of the GPU
# features' time is API calls, copies back and host work.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-GPU-session45/job4.sh <revision>
. bench/gpujob.sh job4 "$1"
L=lap2d:1000,powerlaw:1M:16,blkdiag:bcsstk17:10M,kron:bcsstk01:bcsstk13,blkdiag:e30r4000:10M,powerlaw:4M:8,kron:pde900:jpwh_991
T=bench/results/2026-12-04-H200-session32/job1/large.csv
timeout 150 build/bench/bench_calibrate -times $T -matrices $L -matdir .gpu/matrices -evaluate default -report $r/eval.md -feature_times $r/feature-times.csv > $r/feature-times.txt 2>&1
echo "feature times exit $? after $SECONDS s"; cat $r/feature-times.csv; SECONDS=0
timeout 200 ncu --clock-control none --metrics gpu__time_duration.sum --csv --log-file $r/ncu.csv build/bench/bench_calibrate -times $T -matrices $L -matdir .gpu/matrices -evaluate default -report $r/eval-ncu.md -feature_times $r/feature-times-ncu.csv > $r/ncu.txt 2>&1
echo "ncu exit $? after $SECONDS s"; tail -n 3 $r/ncu.txt
python3 - "$r/ncu.csv" <<'PY' | tee $r/ncu-summary.txt
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
h = rows[0]; k = h.index('Kernel Name'); v = h.index('Metric Value'); u = h.index('Metric Unit')
tot = collections.defaultdict(lambda: [0, 0.0])
for r in rows[1:]:
    if r[h.index('Metric Name')] != 'gpu__time_duration.sum': continue
    t = float(r[v].replace(',', '')) * {'nsecond': 1e-3, 'usecond': 1, 'msecond': 1e3}.get(r[u], 1)
    name = r[k].split('(')[0][:80]; tot[name][0] += 1; tot[name][1] += t
for n, (c, t) in sorted(tot.items(), key=lambda x: -x[1][1]): print(f"{t:12.1f} us {c:6d} launches  {n}")
PY
gzip $r/ncu.csv
