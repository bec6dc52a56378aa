#!/bin/bash
# session 41, job 7 (the GPU host's 16 cores, no GPU used): subtree_ilu's backend auto on the CPU, now timed on the
# first 6 applies, beside the serial and threads backends forced: tutorials/ex4's setup and mean apply (10 timed after
# one untimed) on 3D 100^3 ICC(0) / ILU(0) and 2D 1000^2 ICC(0), natural ordering, twice each; -pc_view's auto line.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H100-session41/job7.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job7; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job7.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; cat /proc/loadavg; } > $r/info.txt 2>&1
cat $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -j16 build/tutorials/ex4 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
for rep in 1 2; do
  for a in "-dim 3 -n 100 -pc_subtree_ilu_type icc" "-dim 3 -n 100" "-dim 2 -n 1000 -pc_subtree_ilu_type icc"; do
    for b in auto serial threads; do
      res=$(timeout 60 build/tutorials/ex4 $a -pc_subtree_ilu_backend $b -applies 10 -ksp_max_it 1 $dll 2>&1 | grep -E '^time|auto:|  backend' | tr -s ' ' | tr '\n' ' ')
      echo "$rep | $a | $b | $res" | tee -a $r/ex4.txt
    done
  done
done
echo "after $SECONDS s"
