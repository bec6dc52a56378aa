#!/bin/sh
# the training-set specs (bench_calibrate.c TrainingSet(), default set) that can give blocks of < 2^16 rows:
# synthetic 2^10..2^14, the real matrices, the small stencils; feature_cost skips any block >= 2^16 rows or >= 2^21 nnz
S=""
for e in 1024 4096 16384; do for d in const uniform zipf bimodal denserow; do for c in band rand; do for a in 4 16 64; do
  S="$S,synth:$d:$c:$e:$a"; done; done; done; done
echo "${S#,},real,lap2d:32,lap2d:90,lap3d:10,lap3d:20,lap3d:40,lap3d27:10,lap3d27:20,lap3d27:40"
