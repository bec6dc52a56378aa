#!/bin/bash
# session 56, job 2: where the narrow levels of gpurcm's level kernels wait. Nsight Compute's L2 and DRAM counters of
# the level BFS and numbering kernels on 2D 1000^2 (caches not flushed between kernels, clocks not locked), and the
# -DGPURCM_PROFILE cycles per level by level size on 2D meshes of 250k, 490k and 1M nodes (graphs of 6, 12, 24 MB: do
# equal levels cost more when the graph does not fit in the L2?).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session56/job2.sh <revision>
. bench/gpujob.sh job2 "$1"
MET=gpu__time_duration.sum,lts__t_sector_hit_rate.pct,lts__t_sector_op_read_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__inst_executed.sum
for m in lap2d:1000 lap2d:500; do
  timeout 120 ncu --clock-control none --cache-control none --kernel-name regex:GPURCMLevels --launch-skip 0 --launch-count 6 --metrics $MET --csv --log-file $r/ncu-${m/:/}.csv build/bench/bench_order -matrices $m -orderings gpurcm@cuda -reps 1 $dll > $r/ncu-${m/:/}.txt 2>&1
  echo "ncu $m exit $? at $SECONDS s"
done
python3 - "$r" <<'PY'
import csv, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + '/ncu-*.csv')):
    rows = [r for r in csv.reader(open(f)) if len(r) > 10]
    if not rows: print(os.path.basename(f), 'no rows'); continue
    h = rows[0]; ki = h.index('Kernel Name'); mi = h.index('Metric Name'); vi = h.index('Metric Value'); ii = h.index('ID')
    out = {}
    for r in rows[1:]:
        out.setdefault((r[ii], r[ki][:28]), {})[r[mi]] = r[vi]
    print('==', os.path.basename(f))
    for (i, k), d in sorted(out.items(), key=lambda x: int(x[0][0])):
        print(i, k, ' '.join('%s=%s' % (m.split('__')[1][:34], v) for m, v in sorted(d.items())))
PY
touch src/mat/graphops/order/gpurcm/gpurcm.cu; make -j16 CUDAFLAGS=-DGPURCM_PROFILE > "$r/build-profile.log" 2>&1 || tail -n 20 "$r/build-profile.log"
for m in lap2d:500 lap2d:700 lap2d:1000; do
  timeout 60 build/bench/bench_order -matrices $m -orderings gpurcm@cuda -reps 1 -info :sys $dll > $r/profile-${m/:/}.txt 2>&1
done
for f in $r/profile-*.txt; do echo "== $(basename $f)"; grep -h "GPURCM_PROFILE" $f | tail -n 36 | sed -E 's/GPURCM_PROFILE //; s/levels of //'; done
echo "profile after $SECONDS s"
