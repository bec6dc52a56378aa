#!/bin/bash
# session 45, job 5 (one GPU): the predictor's column-access kernels with a team of warps per sampled group and slice
# (-mat_pellr_predict_team_warps, automatic: about 32 steps of the rows a warp), against one warp per group as before
# (-mat_pellr_predict_team_warps 1). First the GPU feature tests (every field against the host's, on every shared
# matrix and the generated blocks; teams 1, 2, 32 and automatic), then the features' time (host and GPU, median of 5)
# on the costliest of the 15 large matrices, automatic and 1 alternated, two rounds.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-GPU-session45/job5.sh <revision>
. bench/gpujob.sh job5 "$1"
timeout 150 make check TESTS='pellrpredict1' TESTARGS="--timeout 140 --jobs 6" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head; used=$SECONDS; SECONDS=0
L=lap2d:1000,powerlaw:1M:16,blkdiag:bcsstk17:10M,kron:bcsstk01:bcsstk13,blkdiag:e30r4000:10M,powerlaw:4M:8,kron:pde900:jpwh_991,lap3d:100
T=bench/results/2026-12-04-H200-session32/job1/large.csv
for round in 1 2; do
  for team in 0 1; do
    [ $((used + SECONDS)) -gt 200 ] && { echo "skipping round $round team $team: $SECONDS s"; continue; }
    timeout 90 build/bench/bench_calibrate -times $T -matrices $L -matdir .gpu/matrices -evaluate default -report $r/eval-team$team-r$round.md -feature_times $r/features-team$team-r$round.csv -mat_pellr_predict_team_warps $team > $r/features-team$team-r$round.txt 2>&1
    echo "team $team round $round exit $? at $SECONDS s"
  done
done
python3 - $r <<'PY' | tee $r/summary.txt
import csv, glob, os, sys, statistics
d, conv = {}, {}
for f in sorted(glob.glob(sys.argv[1] + '/features-team*-r*.csv')):
    team = os.path.basename(f).split('-')[1]
    for row in csv.reader(open(f)):
        if len(row) < 8 or row[0] == 'matrix': continue
        d.setdefault(row[0], {}).setdefault(team, []).append(float(row[5]) * 1e3)  # gpu_features_s
        conv[row[0]] = float(row[6]) * 1e3  # conv_pellr_s (the calibration's H200 conversion)
print("matrix | PELLR conversion ms (H200, session 32) | GPU features ms, team auto (runs) | team 1 (runs) | auto / conversion | 1 / conversion")
for m, v in d.items():
    a, b = v.get('team0', []), v.get('team1', [])
    ma = statistics.median(a) if a else float('nan'); mb = statistics.median(b) if b else float('nan')
    print(f"{m} | {conv[m]:.2f} | {ma:.3f} ({', '.join('%.3f' % x for x in a)}) | {mb:.3f} ({', '.join('%.3f' % x for x in b)}) | {100*ma/conv[m]:.2f}% | {100*mb/conv[m]:.2f}%")
PY
# if time is left (a device budget nearly spent): each kernel's duration under Nsight Compute (no nsys on the machine) with the teams, on three of them
used=$((used + SECONDS)); SECONDS=0
[ $used -lt 220 ] && timeout $((300 - used)) ncu --clock-control none --metrics gpu__time_duration.sum --csv --log-file $r/ncu.csv build/bench/bench_calibrate -times $T -matrices lap2d:1000,lap3d:100,powerlaw:1M:16 -matdir .gpu/matrices -evaluate default -report $r/eval-ncu.md -feature_times $r/features-ncu.csv > $r/ncu.txt 2>&1
echo "ncu exit $? after $SECONDS s"
python3 - "$r/ncu.csv" <<'PY' > $r/ncu-summary.txt 2>&1
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
h = rows[0]; k = h.index('Kernel Name'); v = h.index('Metric Value'); u = h.index('Metric Unit')
for r in rows[1:]:
    t = float(r[v].replace(',', '')) * {'nsecond': 1e-3, 'usecond': 1, 'msecond': 1e3}.get(r[u], 1)
    print(f"{t:10.2f} us  {r[k][:110]}")
PY
gzip $r/ncu.csv
