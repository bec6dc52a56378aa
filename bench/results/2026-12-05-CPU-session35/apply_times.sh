#!/bin/bash
# session 35 (CPU, 2 vCPUs): subtree_ilu's serial host apply beside PETSc's own ILU(0)/ICC(0) MatSolve, before and after
# a3d6b1c (identity permutations skip the gather/scatter passes, the serial row loop written out per scaling).
# bench_factor's apply_s (median of -reps PCApply) on 2D 1000² and 3D 100³, natural and RCM, ICC(0) and ILU(0).
# Usage: bash apply_times.sh <library before> <library after> <out.csv> [rounds]   (each library in a folder of its own,
# named libpetscsparsegpu.so: the plugin's registration function is found by the file's name)
set -u
before=$1; after=$2; csv=$3; rounds=${4:-2}
B=${BENCH:-build/bench/bench_factor}
echo "round,library,matrix,pc,ordering,apply_s,setup_s" > $csv
for r in $(seq $rounds); do
  for v in before after; do
    lib=$before; [ $v = after ] && lib=$after
    $B -no_gpu -matrices lap2d:1000,lap3d:100 -pcs ilu_host,icc_host,subtree_ilu,subtree_icc -orderings natural,rcm -levels 0 -reps 10 \
      -ksp_max_rows 0 -refactor_reps 0 -pc_subtree_ilu_backend serial -dll_append $lib -csv /tmp/apply-$v-$r.csv > /tmp/apply-$v-$r.txt 2>&1
    python3 - "$r" "$v" /tmp/apply-$v-$r.csv >> $csv <<'PY'
import csv, sys
r, v, f = sys.argv[1:]
for row in csv.DictReader(open(f)):
    print(",".join([r, v, row["matrix"], row["pc"], row["ordering"], row.get("apply_s", ""), row.get("setup_s", "")]))
PY
  done
done
