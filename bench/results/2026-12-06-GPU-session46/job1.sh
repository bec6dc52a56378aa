#!/bin/bash
# session 46, job 1 (one GPU): the complete test suite at the given revision -- first GPU run of 6d58fe8 (the
# predictor's column-access counts by a team of warps; tests pellrpredict1_cuda_features_team with teams 1, 2, 32),
# 519d6e7 and 005dbe9 -- then the features' time, automatic team against one warp a group
# (-mat_pellr_predict_team_warps 1), alternated, on eight large matrices, and Nsight Compute kernel durations if time is
# left. Each step is skipped when the device call's 600 s would be passed.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session46/job1.sh <revision> [<s>]
# <s>: the seconds after the build that the steps may use (default 545); each step's output is packed as it ends, so a
# call killed at its limit still brings back what was done.
. bench/gpujob.sh job1 "$1"
B=${2:-545}
timeout 330 make check TESTARGS="--timeout 150 --jobs 14" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
tar czf "$out/job1-check.tgz" -C "$r" .
L=lap2d:1000,powerlaw:1M:16,blkdiag:bcsstk17:10M,kron:bcsstk01:bcsstk13,blkdiag:e30r4000:10M,powerlaw:4M:8,kron:pde900:jpwh_991,lap3d:100
T=bench/results/2026-12-04-H200-session32/job1/large.csv
for round in 1 2; do
  for team in 0 1; do
    [ $SECONDS -gt $((B - 125)) ] && { echo "skipping round $round team $team at $SECONDS s"; continue; }
    timeout 60 build/bench/bench_calibrate -times $T -matrices $L -matdir .gpu/matrices -evaluate default -report $r/eval-team$team-r$round.md -feature_times $r/features-team$team-r$round.csv -mat_pellr_predict_team_warps $team > $r/features-team$team-r$round.txt 2>&1
    echo "team $team round $round exit $? at $SECONDS s"; tar czf "$out/job1-ab.tgz" -C "$r" .
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
if [ $SECONDS -lt $((B - 75)) ]; then
  timeout $((B - SECONDS)) ncu --clock-control none --metrics gpu__time_duration.sum --csv --log-file $r/ncu.csv build/bench/bench_calibrate -times $T -matrices lap2d:1000,powerlaw:1M:16 -matdir .gpu/matrices -evaluate default -report $r/eval-ncu.md -feature_times $r/features-ncu.csv > $r/ncu.txt 2>&1
  echo "ncu exit $? at $SECONDS s"
  python3 - "$r/ncu.csv" <<'PY' > $r/ncu-summary.txt 2>&1
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
h = rows[0]; k = h.index('Kernel Name'); v = h.index('Metric Value'); u = h.index('Metric Unit')
for r in rows[1:]:
    t = float(r[v].replace(',', '')) * {'nsecond': 1e-3, 'usecond': 1, 'msecond': 1e3}.get(r[u], 1)
    print(f"{t:10.2f} us  {r[k][:110]}")
PY
  gzip $r/ncu.csv
fi
