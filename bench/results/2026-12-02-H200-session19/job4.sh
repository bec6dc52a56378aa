#!/bin/bash
# session 19, job 4 (nvidia-h200): an experimental row-block CSR kernel (CSR-Stream: a block's products through shared
# memory, -mat_pellr_cuda_csr_kernel stream, E entries a block) against our vector kernel and cuSPARSE, csr format
# forced, on the irregular matrices and the 1M-row stencils; its tests (pellr_ops csr stream: edge cases, shared
# matrices, 2 ranks) and the csr-kernel tests.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-02-H200-session19/job4.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job4; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job4.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
I=blkdiag:bcsstk17:10M,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:pde900:jpwh_991,kron:bcsstk01:bcsstk13,lap3d27:100,lap2d:1000,lap3d:100
for v in "cusparse 0" "vector 0" "stream 512" "stream 1024" "stream 2048"; do
  k=${v% *}; E=${v#* }; tag=$k$E
  timeout 45 build/bench/bench_spmv -matrices $I -formats pellrcuda -ops mult,multadd -case_time 0.3 -matdir .gpu/matrices -time_limit 40 -csv $r/spmv-$tag.csv $dll -mat_pellr_format csr -mat_pellr_cuda_csr_kernel $k -mat_pellr_cuda_csr_stream_entries $([ $E = 0 ] && echo 1024 || echo $E) > $r/spmv-$tag.txt 2>&1
  echo "$tag exit $? after $SECONDS s"; SECONDS=0
done
python3 - $r <<'PY'
import csv, glob, os, sys
r = sys.argv[1]; t = {}; bad = []
for f in sorted(glob.glob(r + "/spmv-*.csv")):
    tag = os.path.basename(f)[5:-4]
    for row in csv.DictReader(open(f)):
        if row["kind"] == "reference": continue
        if row["status"] != "ok" or (row["relerr"] not in ("", "nan") and float(row["relerr"]) > 1e-12): bad.append((tag, row["matrix"], row["op"], row["status"], row["relerr"]))
        if row["status"] != "ok": continue
        t.setdefault(row["matrix"], {})[tag + ("" if row["op"] == "mult" else "+")] = float(row["time_s"]) * 1e6
for m, v in t.items(): print(m, " ".join("%s=%.1f" % kv for kv in sorted(v.items())))
print("bad rows:", bad)
PY
timeout 120 make check TESTS='csr_stream|csr_vector|csr_kernel|formats_gen_csr' TESTARGS="--timeout 100 --jobs 8" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
