#!/bin/bash
# session 43, job 1 (one GPU; prepared in session 43, which was lent no GPU: for the next session): the complete test
# suite at the given revision. Session 43's code that has not run on a GPU: a85d8c9 and 7b9dcfa (session 42: the
# refactorization's ticket order in subtreeiluorder.c, one helper for its ticket lists), be0d398 (the refactorization
# kernel templated on its lanes per chain; 32 is the default and the former kernel), edd3ccb (ILU's column copies
# made when first needed; the cuda path makes them with the structures as before), 8ac47f9 (the NaN-pivot GPU tests).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-CPU-session43/job1.sh <revision>
. bench/gpujob.sh job1 "$1"
timeout 330 make check TESTARGS="--timeout 150 --jobs 14" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
