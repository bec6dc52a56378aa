#!/bin/bash
# session 19, job 3 (nvidia-h200): the csr format's GPU products by our kernel where rows are regular
# (-mat_pellr_cuda_csr_kernel auto, the default) and SELL without the identity slice order: the complete test suite,
# then SpMV of the 15 large matrices, aijcusparse / sellcuda / pellrcuda auto in one run, and the csr format on the
# irregular six with the kernel auto against cuSPARSE.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-02-H200-session19/job3.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job3; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job3.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
timeout 110 build/bench/bench_spmv -matrices $L -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.3 -matdir .gpu/matrices -time_limit 95 -csv $r/spmv-auto.csv $dll -mat_view ::ascii_info > $r/spmv-auto.txt 2>&1
echo "auto exit $? after $SECONDS s"; SECONDS=0
I=blkdiag:bcsstk17:10M,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:pde900:jpwh_991,kron:bcsstk01:bcsstk13,lap3d27:100
for k in auto cusparse; do
  timeout 45 build/bench/bench_spmv -matrices $I -formats pellrcuda -ops mult,multadd -case_time 0.3 -matdir .gpu/matrices -time_limit 40 -csv $r/spmv-csr-$k.csv $dll -mat_pellr_format csr -mat_pellr_cuda_csr_kernel $k -mat_view ::ascii_info > $r/spmv-csr-$k.txt 2>&1
  echo "csr $k exit $? after $SECONDS s"; SECONDS=0
done
python3 - $r <<'PY'
import csv, glob, os, sys, math
r = sys.argv[1]; t = {}; bad = []
for f in sorted(glob.glob(r + "/spmv-*.csv")):
    tag = os.path.basename(f)[5:-4]
    for row in csv.DictReader(open(f)):
        if row["kind"] == "reference": continue
        if row["status"] != "ok" or (row["relerr"] not in ("", "nan") and float(row["relerr"]) > 1e-12): bad.append((tag, row["matrix"], row["format"], row["op"], row["status"], row["relerr"]))
        if row["status"] != "ok": continue
        t.setdefault(row["matrix"], {})[tag + ":" + row["format"] + ("" if row["op"] == "mult" else "+")] = float(row["time_s"]) * 1e6
for m, v in t.items(): print(m, " ".join("%s=%.1f" % kv for kv in sorted(v.items())))
l = [v["auto:aijcusparse"] / v["auto:pellrcuda"] for v in t.values() if "auto:pellrcuda" in v]
lb = [min(v["auto:aijcusparse"], v["auto:sellcuda"]) / v["auto:pellrcuda"] for v in t.values() if "auto:pellrcuda" in v]
g = lambda l: math.exp(sum(map(math.log, l)) / len(l))
print("auto over %d: %.3fx aijcusparse, %.3fx the better peer, lowest %.3f" % (len(l), g(l), g(lb), min(lb)))
print("bad rows:", bad)
PY
grep -o "our CSR SpMV, [0-9]* threads a row\|cuSPARSE SpMV" $r/spmv-auto.txt | sort | uniq -c
timeout 330 make check TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
