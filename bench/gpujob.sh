# The common start of a GPU job script (bench/results/<session>/jobN.sh), sourced from the repository root on the GPU
# machine with .gpu carried (../shared/gpu/stage.sh):
#   . bench/gpujob.sh <job name> <revision>
# <revision>: write it out (git rev-parse here, before the call); `$(git rev-parse HEAD)` in the device command runs
# in the device's copy, whose .git can be older than the working tree it runs (session 57's job 1 got 6b5213f).
# Sets $r (the job's folder, packed into $OUT/<job name>.tgz at exit), $dll (-dll_append of the library), loads the
# GPU environment (.gpu/setup.sh), records the revision, GPU and cores in $r/info.txt, and builds the library and the
# benchmark drivers with 16 cores (exit 1 with the build log's tail if that fails). SECONDS restarts at 0.
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-$1; rm -rf "$r"; mkdir -p "$r"
trap "tar czf '$out/$1.tgz' -C '$r' ." EXIT
. .gpu/setup.sh
{ echo "# revision $2, $(date -u)"; nvidia-smi -L; nproc; } > "$r/info.txt" 2>&1
cat "$r/info.txt"
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a "$r/info.txt"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
# gpujob_base <patch>: the baseline of an A/B, built in this job: the tree copied to /tmp/base, <patch> (from
# `git diff HEAD <base> -- src`) applied, its library built (-dll_append /tmp/base/build/lib/libpetscsparsegpu.so)
gpujob_base() {
  local p="$PWD/$1"
  rm -rf /tmp/base; mkdir -p /tmp/base
  tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C /tmp/base
  (cd /tmp/base && patch -s -p1 --batch < "$p" > "$r/base-build.log" 2>&1 && make -j16 lib >> "$r/base-build.log" 2>&1) || { tail -n 20 "$r/base-build.log"; echo "no baseline: $1 does not apply or does not build (made against another HEAD?)"; exit 1; }
  echo "baseline library built at $SECONDS s"
}
# gpujob_ab <label> <rounds> <name A> <library A> <name B> <library B> <bench_order arguments...>: an A/B of two
# libraries (paths of libpetscsparsegpu.so) in alternated rounds, each a bench_order run with the given arguments
# (add -reps; -csv is added), writing $r/<label>-<name>-<round>.{txt,csv} and printing a line per run with the
# medians and minima of its orderings in the order of the output, and the first calls of those that report one.
gpujob_ab() {
  local label=$1 rounds=$2 round k o
  local names=("$3" "$5") libs=("$4" "$6") pat='^  (gpurcm|rcm|cusolver)'
  shift 6
  for round in $(seq 1 "$rounds"); do
    for k in 0 1; do
      o=$r/$label-${names[$k]}-$round
      timeout 120 build/bench/bench_order "$@" -csv $o.csv -dll_append "${libs[$k]}" > $o.txt 2>&1
      echo "$label round $round ${names[$k]} exit $? at $SECONDS s:$(grep -hE "$pat" $o.txt | awk '{printf " %s", $2}') min:$(grep -hE "$pat" $o.txt | sed 's/.*(min \([0-9.]*\).*/\1/' | tr '\n' ' ')first:$(grep -hE "$pat" $o.txt | sed -n 's/.*first call \([0-9.]*\).*/ \1/p' | tr -d '\n')"
    done
  done
}
