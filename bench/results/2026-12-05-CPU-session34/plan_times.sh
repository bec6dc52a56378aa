#!/bin/bash
# subtree_ilu's refactorization plan (the SubtreeILUPlan event of -log_view) and first/steady refactorizations on this
# CPU: the library at OLD (a worktree, built) against the current build, setup threads 1 and 2, interleaved.
# Usage (repository root): bash bench/results/2026-12-05-CPU-session34/plan_times.sh <old-lib.so> <out.csv> [reps]
old=$1; out=$2; reps=${3:-2}
echo "matrix,pc,ordering,lib,setup_threads,rep,plan_s,refactor_first_s,refactor_s" > "$out"
for spec in lap2d:1000 lap3d:100 lap2d:2000 lap3d:160; do
  for pc in subtree_ilu subtree_icc; do
    for o in natural rcm; do
      for rep in $(seq 1 "$reps"); do
        for v in "old:$old:1" "new:build/lib/libpetscsparsegpu.so:1" "new:build/lib/libpetscsparsegpu.so:2"; do
          IFS=: read -r lab lib th <<< "$v"
          log=$(build/bench/bench_factor -dll_append "$lib" -matrices "$spec" -pcs "$pc" -orderings "$o" -reps 1 -warmup 0 -no_gpu \
                -pc_subtree_ilu_refactor device -pc_subtree_ilu_setup_threads "$th" -refactor_reps 2 -ksp_max_rows 0 -csv /dev/null -log_view 2>&1)
          plan=$(echo "$log" | awk '/^SubtreeILUPlan/ {print $4}')
          first=$(echo "$log" | sed -n 's/.*refactor \([0-9.]*\) s (first \([0-9.]*\) s).*/\2/p')
          steady=$(echo "$log" | sed -n 's/.*refactor \([0-9.]*\) s (first \([0-9.]*\) s).*/\1/p')
          echo "$spec,$pc,$o,$lab,$th,$rep,$plan,$first,$steady" >> "$out"
        done
      done
    done
  done
done
