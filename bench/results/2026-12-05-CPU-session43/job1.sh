#!/bin/bash
# session 43, job 1 (one GPU; prepared in session 43, which was lent no GPU: for the next session): the complete test
# suite at the given revision. Session 43's code that has not run on a GPU: a85d8c9 and 7b9dcfa (session 42: the
# refactorization's ticket order in subtreeiluorder.c, one helper for its ticket lists), be0d398 (the refactorization
# kernel templated on its lanes per chain; 32 is the default and the former kernel), edd3ccb (ILU's column copies
# made when first needed; the cuda path makes them with the structures as before), 8ac47f9 (the NaN-pivot GPU tests).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-CPU-session43/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
cat $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
timeout 330 make check TESTARGS="--timeout 150 --jobs 14" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
