#!/bin/bash
# session 46, job 2 (one GPU): the predictor's GPU features with (1) the row-length table counted by warp (one shared
# atomic per distinct length of a warp's rows), (2) each sorted window's slice rows counted by the key kernel instead
# of two binary searches of the sorted keys per slice, (3) the team of warps sized by all of a group's dependent reads
# (its row chunks too), about 4 a warp. First the GPU feature tests (every field against the host's) and the pellr_ops
# variants that build with GPU features, then the features' time beside the baseline built in the same call
# (pellrpredict-a57ca04.cu: job 1's code, in a copy of the tree), alternated, two rounds; Nsight Compute kernel
# durations of the new code on two matrices; then the complete suite while the budget lasts.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session46/job2.sh <revision> [<s>]
. bench/gpujob.sh job2 "$1"
B=${2:-500}
D=bench/results/2026-12-06-GPU-session46
base=/tmp/base; rm -rf $base; mkdir -p $base
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C $base
cp $D/pellrpredict-a57ca04.cu $base/src/mat/impls/pellr/pellrpredict.cu
(cd $base && make -j16 > $r/base-build.log 2>&1 && make -C bench -j16 >> $r/base-build.log 2>&1) || tail -n 20 $r/base-build.log
echo "baseline built at $SECONDS s"
timeout 120 make check TESTS='pellrpredict1|pellr_ops_long_rows|pellr_ops_wide_slices|pellr_ops_gen_empty_run' TESTARGS="--timeout 100 --jobs 8" > "$r/check-features.log" 2>&1
echo "# exit status $? at $SECONDS s" >> "$r/check-features.log"; tail -n 2 "$r/check-features.log"; grep "^not ok" "$r/check-features.log" | head
tar czf "$out/job2-tests.tgz" -C "$r" .
L=lap2d:1000,powerlaw:1M:16,blkdiag:bcsstk17:10M,kron:bcsstk01:bcsstk13,blkdiag:e30r4000:10M,powerlaw:4M:8,kron:pde900:jpwh_991,lap3d:100
T=$PWD/bench/results/2026-12-04-H200-session32/job1/large.csv; M=$PWD/.gpu/matrices
for round in 1 2; do
  for v in new base; do
    [ $SECONDS -gt $((B - 60)) ] && { echo "skipping round $round $v at $SECONDS s"; continue; }
    dir=$PWD; [ $v = base ] && dir=$base
    (cd $dir && timeout 60 build/bench/bench_calibrate -times $T -matrices $L -matdir $M -evaluate default -report $r/eval-$v-r$round.md -feature_times $r/features-$v-r$round.csv > $r/features-$v-r$round.txt 2>&1)
    echo "$v round $round exit $? at $SECONDS s"
  done
done
tar czf "$out/job2-ab.tgz" -C "$r" .
python3 - $r <<'PY' | tee $r/summary.txt
import csv, glob, os, sys, statistics
d, conv = {}, {}
for f in sorted(glob.glob(sys.argv[1] + '/features-*-r*.csv')):
    v = os.path.basename(f).split('-')[1]
    for row in csv.reader(open(f)):
        if len(row) < 8 or row[0] == 'matrix': continue
        d.setdefault(row[0], {}).setdefault(v, []).append(float(row[5]) * 1e3)  # gpu_features_s
        conv[row[0]] = float(row[6]) * 1e3  # conv_pellr_s (the calibration's H200 conversion)
print("matrix | PELLR conversion ms (H200, session 32) | GPU features ms, new (runs) | baseline a57ca04 (runs) | new / conversion | baseline / conversion")
for m, x in d.items():
    a, b = x.get('new', []), x.get('base', [])
    ma = statistics.median(a) if a else float('nan'); mb = statistics.median(b) if b else float('nan')
    print(f"{m} | {conv[m]:.2f} | {ma:.3f} ({', '.join('%.3f' % y for y in a)}) | {mb:.3f} ({', '.join('%.3f' % y for y in b)}) | {100*ma/conv[m]:.2f}% | {100*mb/conv[m]:.2f}%")
PY
timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv --log-file $r/ncu.csv build/bench/bench_calibrate -times $T -matrices lap2d:1000,powerlaw:1M:16 -matdir .gpu/matrices -evaluate default -report $r/eval-ncu.md -feature_times $r/features-ncu.csv > $r/ncu.txt 2>&1
echo "ncu exit $? at $SECONDS s"
python3 - "$r/ncu.csv" <<'PY' > $r/ncu-summary.txt 2>&1
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
h = rows[0]; k = h.index('Kernel Name'); v = h.index('Metric Value'); u = h.index('Metric Unit')
run = None
for r in rows[1:]:
    if not any(x in r[k] for x in ('pellr_locality', 'pellr_predict', 'radix_sort')): continue
    t = float(r[v].replace(',', '')) * {'ns': 1e-3, 'us': 1, 'ms': 1e3, 'nsecond': 1e-3, 'usecond': 1, 'msecond': 1e3}.get(r[u], 1)
    name = r[k].split('(')[0].split('<')[0].split('::')[-1] if 'radix' not in r[k] else r[k].split('<')[0].split('::')[-1]
    print(f"{t:8.2f} us  {name}")
PY
grep -c . $r/ncu-summary.txt; gzip -f $r/ncu.csv
tar czf "$out/job2-ncu.tgz" -C "$r" .
if [ $SECONDS -lt $((B - 250)) ]; then
  timeout $((B - SECONDS)) make check TESTARGS="--timeout 150 --jobs 14" > "$r/check.log" 2>&1
  echo "# exit status $? at $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
else echo "no time left for the complete suite at $SECONDS s"; fi
