#!/bin/bash
# usage: run.sh START END TAG [extra opts]
start=$1; end=$2; tag=$3; shift 3
cd /tmp/fuzz_ilu; ulimit -v 8000000
log=logs/$tag.log; mkdir -p logs; : > $log
s=$start
while [ $s -lt $end ]; do
  cnt=$((end - s))
  timeout 5000 ./fuzz -dll_append /tmp/fuzz_ilu/libpetscsparsegpu.so -seed0 $s -ncases $cnt "$@" > logs/$tag.part 2>&1
  rc=$?
  cat logs/$tag.part >> $log
  if [ $rc -ne 0 ]; then
    last=$(grep -o '^CASE seed=[0-9]*' logs/$tag.part | tail -1 | sed 's/.*=//')
    echo "CRASH rc=$rc at seed=$last" >> $log
    echo "CRASH rc=$rc seed=$last" >> logs/$tag.crashes
    s=$((last + 1))
  else
    s=$end
  fi
done
echo FINISHED >> $log
