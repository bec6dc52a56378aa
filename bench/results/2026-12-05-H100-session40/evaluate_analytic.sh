#!/bin/bash
# analytic model's choices on measured times: H200 (session 32 job 1) and H100 (session 40 job 1), training and large sets
# (a GPU name other than the calibrated ones makes -evaluate default take the analytic model; the -hw values only fill the
# calibration header). Reports in /tmp/ev/<tag>-<gpu>-<set>.md. Run from anywhere:  bash evaluate_analytic.sh [tag]
cd "$(dirname "$0")/../../.."
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
tag=${1:-now}; mkdir -p /tmp/ev
for g in H200:bench/results/2026-12-04-H200-session32/job1 H100:bench/results/2026-12-05-H100-session40/job1; do
  n=${g%%:*}; d=${g#*:}
  build/bench/bench_calibrate -times $d/calibration.csv -matdir ../shared/matrices -no_gpu -hw_gpu other -hw_sms 132 -hw_copy_gbs 4000 -hw_h2d_gbs 7 -hw_launch_s 6.6e-6 -hw_l2_mb 25 -evaluate default -report /tmp/ev/$tag-$n-train.md > /dev/null 2>&1 &
  build/bench/bench_calibrate -times $d/large.csv -matrices $L -matdir ../shared/matrices -no_gpu -hw_gpu other -hw_sms 132 -hw_copy_gbs 4000 -hw_h2d_gbs 7 -hw_launch_s 6.6e-6 -hw_l2_mb 25 -evaluate default -report /tmp/ev/$tag-$n-large.md > /dev/null 2>&1
  wait
  for s in train large; do echo "$n $s: $(grep '^choice:' /tmp/ev/$tag-$n-$s.md | sed 's/choice: //')"; done
done
