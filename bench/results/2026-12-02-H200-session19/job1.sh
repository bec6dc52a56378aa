#!/bin/bash
# session 19, job 1 (nvidia-h200): an experimental CSR kernel of our own for pellrcuda's csr format
# (-mat_pellr_cuda_csr_threads T: T threads per row, loads aligned to T entries) against cuSPARSE's CSR (aijcusparse and
# pellrcuda csr with T = 0) on the irregular large matrices, where auto stays at 1.00-1.08x aijcusparse; and Nsight
# Compute memory metrics of cuSPARSE's kernel, ours and PELLR's on block-diagonal bcsstk17 and Kronecker pde900 x jpwh_991.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-02-H200-session19/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
I=blkdiag:bcsstk17:10M,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:pde900:jpwh_991,kron:bcsstk01:bcsstk13,powerlaw:1M:16,powerlaw:4M:8,lap2d:1000,lap3d:100,lap3d27:100
for T in 0 4 8 16 32; do
  timeout 75 build/bench/bench_spmv -matrices $I -formats aijcusparse,pellrcuda -ops mult -case_time 0.3 -matdir .gpu/matrices -time_limit 65 -csv $r/spmv-csr$T.csv $dll -mat_pellr_format csr -mat_pellr_cuda_csr_threads $T > $r/spmv-csr$T.txt 2>&1
  echo "T=$T exit $? after $SECONDS s"; SECONDS=0
done
timeout 75 build/bench/bench_spmv -matrices $I -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.3 -matdir .gpu/matrices -time_limit 65 -csv $r/spmv-auto.csv $dll > $r/spmv-auto.txt 2>&1
echo "auto exit $? after $SECONDS s"; SECONDS=0
python3 - $r <<'PY'
import csv, glob, os, sys
r = sys.argv[1]; t = {}
for f in sorted(glob.glob(r + "/spmv-*.csv")):
    tag = os.path.basename(f)[5:-4]
    for row in csv.DictReader(open(f)):
        if row["kind"] == "reference" or row["status"] != "ok": continue
        t.setdefault(row["matrix"], {})[tag + ":" + row["format"]] = float(row["time_s"]) * 1e6
for m, v in t.items(): print(m, " ".join("%s=%.1f" % kv for kv in sorted(v.items())))
PY
M="gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"
for m in blkdiag:bcsstk17:10M kron:pde900:jpwh_991; do
  t=$(echo $m | tr ':' '_')
  for v in "aijcusparse" "pellrcuda -mat_pellr_format csr -mat_pellr_cuda_csr_threads 8" "pellrcuda -mat_pellr_format csr -mat_pellr_cuda_csr_threads 32" "pellrcuda -mat_pellr_format pellr"; do
    tag=$(echo $v | tr ' ' '_'); fmt=${v%% *}; opts=${v#$fmt}
    timeout 60 ncu --kernel-name regex:"pellr|csrmv|spmv|SpMV|csr" --launch-skip 20 --launch-count 12 --metrics $M --csv --page raw \
      build/bench/bench_spmv -matrices $m -formats $fmt -ops mult -reps 3 -warmup 1 -matdir .gpu/matrices $dll $opts > $r/ncu-$t-$tag.txt 2>&1
    echo "ncu $t $tag exit $? after $SECONDS s"; SECONDS=0
  done
done
