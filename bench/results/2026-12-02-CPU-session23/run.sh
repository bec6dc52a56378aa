#!/bin/bash
# session 23, CPU (this 2-core development machine, one process, no GPU): the host type pellr with its diagonal slices
# on and off, in the pellr and sell formats, against aij in the same run; two rounds, interleaved.
# Run from the repository root after make and make -C bench:  bash bench/results/2026-12-02-CPU-session23/run.sh [tag]
# (tag: a prefix for the output files; the first run, before the sell/ellr loop was vectorized, had none; "vec" after)
d=bench/results/2026-12-02-CPU-session23; t=${1:+$1-}
for rep in 1 2; do for f in pellr sell; do for s in on off; do
  build/bench/bench_spmv -matrices lap2d:1000,lap3d:100,lap3d27:60 -formats aij,pellr -ops mult -case_time 1 \
    -dll_append $PWD/build/lib/libpetscsparsegpu.so -mat_pellr_format $f -mat_pellr_diagonal_slices $s -csv $d/${t}host-$f-$s-$rep.csv > $d/${t}host-$f-$s-$rep.txt 2>&1
done; done; done
