#!/bin/bash
# usage: run_seed.sh SEED [extra fuzz options, e.g. -force_serial or -native]
# re-runs one generated case of /tmp/fuzz_ilu/fuzz.c (binary /tmp/fuzz_ilu/fuzz2) and prints its log
cd /tmp/fuzz_ilu
s=$1; shift
ulimit -v ${ULIMIT_KB:-4000000}
./fuzz2 -dll_append /tmp/fuzz_ilu/libpetscsparsegpu.so -seed0 $s -ncases 1 "$@"
