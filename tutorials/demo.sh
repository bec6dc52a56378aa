#!/bin/bash
# `make demo`: solve the built-in default problem (tutorials/ex1.c, 3D Poisson on a 64^3 DMDA, CG)
# with PETSc SparseGPU loaded into the plain PETSc program through -dll_append, on the GPU when
# PETSc has CUDA and a GPU is present, else on the CPU. Extra arguments are passed to the program.
set -e
exe=$1 lib=$2; shift 2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
gpu=0
if grep -q '^#define PETSC_HAVE_CUDA 1' "$PETSC_DIR/$PETSC_ARCH/include/petscconf.h" 2>/dev/null && nvidia-smi -L >/dev/null 2>&1; then gpu=1; fi
# All three components: PELLR matrix, subtree ICC(0) preconditioner, its factor ordered by gpurcm
common="-ksp_type cg -pc_type subtree_ilu -pc_subtree_ilu_type icc -pc_subtree_ilu_mat_ordering_type gpurcm -view_solver"
if [ $gpu = 1 ]; then
  where="GPU ($(nvidia-smi --query-gpu=name --format=csv,noheader | head -n1))"
  opts="-dm_vec_type cuda -mat_type pellrcuda $common"
else
  where="CPU ($(nproc) cores)"
  opts="-mat_type pellr $common"
fi
echo "PETSc SparseGPU demo on the $where"
echo "  $exe -dll_append $lib $opts $*"
"$exe" -dll_append "$lib" -sparsegpu_view $opts "$@"
