#!/bin/bash
# session 64, job 1 (issue 3, the threads backend's level barrier; session 63's job 3, which never ran, plus its
# profile): (1) the -DGPURCM_PROFILE build of this revision (central barrier) on the meshes, 16 and 8 threads, beside
# the serial backend: per barrier and thread its work, wait, arrival skew and wait after the last arrival; (2) four
# barriers in one library (barrier-variants.patch, session 63's variants ported to this revision, developer option
# -mat_gpurcm_threads_barrier_experiment: 0 central, 1 butterfly, 2 flags, 3 flags whose reads also give the level
# numberings' offsets), 16 threads, rounds alternating the four; (3) barrier_micro.c with the flags barrier and skewed
# arrivals; (4) every gpurcm test at this revision (its only change since the last GPU run: the profile diagnostic's
# helpers, compiled out); (5) subtree_ilu's first setup on 3D 100^3 beside PETSc's cuSPARSE one, with its -info stages.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session64/job1.sh <revision> [<rounds>]
S=$PWD/bench/results/2026-12-07-GPU-session64
. bench/gpujob.sh job1 "$1"
for d in var prof; do rm -rf /tmp/$d; mkdir -p /tmp/$d; tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C /tmp/$d; done
(cd /tmp/var && patch -s -p1 --batch < $S/barrier-variants.patch && make -j16 lib) > $r/var-build.log 2>&1 || { tail -n 20 $r/var-build.log; echo "no variants library"; }
(cd /tmp/prof && make -j16 lib CFLAGS=-DGPURCM_PROFILE) > $r/prof-build.log 2>&1 || { tail -n 20 $r/prof-build.log; echo "no profile library"; }
echo "variant and profile libraries built at $SECONDS s"
M=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
# (1) the profile: one ordering after another, each printing its line (the mesh's lines follow its header)
timeout 150 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16,gpurcm@threads:8,gpurcm@serial -reps 5 -cusolver_max_nnz 0 -dll_append /tmp/prof/build/lib/libpetscsparsegpu.so > $r/profile.txt 2>&1
echo "profile exit $? at $SECONDS s"
# (2) the four barriers
for round in $(seq 1 ${2:-3}); do
  for b in 0 1 2 3; do
    o=$r/order-b$b-$round
    timeout 90 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 7 -cusolver_max_nnz 0 -csv $o.csv -dll_append /tmp/var/build/lib/libpetscsparsegpu.so -mat_gpurcm_threads_barrier_experiment $b > $o.txt 2>&1
    echo "round $round barrier $b exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}') min:$(grep -hE '^  gpurcm' $o.txt | sed 's/.*(min \([0-9.]*\).*/\1/' | tr '\n' ' ')"
  done
done
# (3) session 63's barrier_micro: work 0/300/1000 loop steps, arrivals together (0) and skewed (1)
cc -O2 -pthread bench/results/2026-12-07-GPU-session63/barrier_micro.c -o /tmp/barrier_micro
for w in 0 300 1000; do for k in 0 1; do timeout 20 /tmp/barrier_micro 16 50000 $w 4 $k; done; done > $r/barrier.txt 2>&1
# (4) every gpurcm test
timeout 150 make check TESTS='gpurcm' TESTARGS="--timeout 120 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 5
# (5) subtree_ilu's first setup on 3D 100^3 (-info's stages) beside PETSc's cuSPARSE ILU(0)/ICC(0)
timeout 120 build/bench/bench_factor -matrices lap3d:100 -pcs subtree_ilu,ilu_cusparse,subtree_icc,icc_cusparse -orderings natural -reps 10 -refactor_reps 3 $dll -info > $r/factor-info.txt 2>&1
echo "factor exit $? at $SECONDS s"
# the summaries
grep -E "^lap|GPURCM_PROFILE threads|^  gpurcm" $r/profile.txt | sed 's/identical to rcm: yes//'
cat $r/barrier.txt
grep -E "setup|PCSUBTREEILU solve structures|subtree|cusparse" $r/factor-info.txt | grep -vE "^\[0\] Petsc(Device|Options)" | grep -E "apply|solve structures|plan|first factorization|uploaded|setup" | head -40
