# the IS micro-benchmark of session 55, job 4:  make -f bench/results/2026-12-06-GPU-session55/isbench.makefile
include ${PETSC_DIR}/lib/petsc/conf/variables
include ${PETSC_DIR}/lib/petsc/conf/rules
D = bench/results/2026-12-06-GPU-session55
isbench: ${D}/isbench.o
	${CLINKER} -o /tmp/isbench ${D}/isbench.o ${PETSC_LIB}
