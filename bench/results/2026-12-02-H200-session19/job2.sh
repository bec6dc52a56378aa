#!/bin/bash
# session 19, job 2 (nvidia-h200): the experimental CSR kernel with two entries per load (-mat_pellr_cuda_csr_threads
# 100 + T) against one (T) and cuSPARSE on the irregular large matrices; SELL without the identity slice order (one
# thread class): the pellr tests, and auto on the 15 large matrices with aijcusparse and sellcuda; Nsight metrics of the
# 2D 1000^2 product (auto: sell) and of the CSR kernel on bcsstk17.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-02-H200-session19/job2.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job2; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job2.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
I=blkdiag:bcsstk17:10M,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:pde900:jpwh_991,kron:bcsstk01:bcsstk13,lap3d27:100
for T in 0 4 8 16 32 104 108 116 132; do
  timeout 45 build/bench/bench_spmv -matrices $I -formats aijcusparse,pellrcuda -ops mult,multadd -case_time 0.3 -matdir .gpu/matrices -time_limit 40 -csv $r/spmv-csr$T.csv $dll -mat_pellr_format csr -mat_pellr_cuda_csr_threads $T > $r/spmv-csr$T.txt 2>&1
  echo "T=$T exit $? after $SECONDS s"; SECONDS=0
done
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
timeout 110 build/bench/bench_spmv -matrices $L -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.3 -matdir .gpu/matrices -time_limit 95 -csv $r/spmv-auto.csv $dll > $r/spmv-auto.txt 2>&1
echo "auto exit $? after $SECONDS s"; SECONDS=0
python3 - $r <<'PY'
import csv, glob, os, sys
r = sys.argv[1]; t = {}; bad = []
for f in sorted(glob.glob(r + "/spmv-*.csv")):
    tag = os.path.basename(f)[5:-4]
    for row in csv.DictReader(open(f)):
        if row["kind"] == "reference": continue
        if row["status"] != "ok" or (row["relerr"] not in ("", "nan") and float(row["relerr"]) > 1e-12): bad.append((tag, row["matrix"], row["format"], row["op"], row["status"], row["relerr"]))
        if row["status"] != "ok": continue
        t.setdefault(row["matrix"], {})[tag + ":" + row["format"] + ("" if row["op"] == "mult" else "+")] = float(row["time_s"]) * 1e6
for m, v in t.items(): print(m, " ".join("%s=%.1f" % kv for kv in sorted(v.items())))
print("bad rows:", bad)
PY
timeout 200 make check TESTS='pellr' TESTARGS="--timeout 100 --jobs 8" > "$r/check-pellr.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check-pellr.log"; tail -n 2 "$r/check-pellr.log"; grep "^not ok" "$r/check-pellr.log" | head; SECONDS=0
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sector_hit_rate.pct,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum"
for v in "lap2d:1000 pellrcuda" "blkdiag:bcsstk17:10M pellrcuda -mat_pellr_format csr -mat_pellr_cuda_csr_threads 108" "blkdiag:bcsstk17:10M pellrcuda -mat_pellr_format csr -mat_pellr_cuda_csr_threads 8"; do
  tag=$(echo $v | tr ' :' '__'); m=${v%% *}; rest=${v#$m }; fmt=${rest%% *}; opts=${rest#$fmt}
  timeout 60 ncu --kernel-name regex:"pellr_(slices|csr)|csrmv" --launch-skip 10 --launch-count 8 --metrics $M --csv --page raw \
    build/bench/bench_spmv -matrices $m -formats $fmt -ops mult -reps 3 -warmup 1 -matdir .gpu/matrices $dll $opts > $r/ncu-$tag.txt 2>&1
  echo "ncu $tag exit $? after $SECONDS s"; SECONDS=0
done
