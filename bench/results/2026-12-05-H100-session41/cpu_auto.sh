#!/bin/bash
# session 41 (CPU): subtree_ilu's backend auto timed at setup (the library at 0935696, built in a worktree) against
# timed on the first applies (this revision), alternated 3 times: tutorials/ex4's setup and mean apply time (10 timed
# applies after one untimed) on 3D 7-point 100^3 ICC(0) and ILU(0) and 2D 5-point 1000^2 ICC(0), natural ordering.
# Usage (repository root, library and ex4 built):  bash bench/results/2026-12-05-H100-session41/cpu_auto.sh <old-lib.so> <out.txt>
old=$1; out=$2; new=$PWD/build/lib/libpetscsparsegpu.so
: > $out
for rep in 1 2 3; do
  for lib in $old $new; do
    tag=$([ "$lib" = "$old" ] && echo before || echo after)
    for a in "-dim 3 -n 100 -pc_subtree_ilu_type icc" "-dim 3 -n 100" "-dim 2 -n 1000 -pc_subtree_ilu_type icc"; do
      r=$(build/tutorials/ex4 $a -applies 10 -ksp_max_it 1 -dll_append $lib 2>&1 | grep -E '^time' | sed -E 's/time: setup ([0-9.]*) s, apply ([0-9.]*) s.*/\1 \2/')
      echo "$tag | $a | $r" | tee -a $out
    done
  done
done
