# PETSc SparseGPU: builds libpetscsparsegpu.so with the compilers and flags of an installed PETSc 3.22.
#
#   make [all]        build build/lib/libpetscsparsegpu.so (PETSc is built into a cache first if none is given)
#   make check        build and run every test (tests/, tutorials/, unmodified PETSc examples); TESTS=pattern selects
#   make demo         solve a built-in default problem with the library loaded into a plain PETSc program
#   make bench        run the benchmarks (GPU machine) into bench/results/
#   make cuda-check   compile-check every .cu (and the CUDA paths of every .c, bench/ included) with nvcc for sm_90
#   make install      install library, header and pkg-config file into PREFIX (default /usr/local)
#   make clean
#
# PETSc: PETSC_DIR/PETSC_ARCH if set (checked by config/petsc.sh), else the cached build made by
# config/petsc.sh (PETSc 3.22.5 from Debian's source package; PETSC_VARIANT=--cuda or --debug picks another).

ROOT := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
ifeq ($(strip $(PETSC_DIR)),)
  PETSC_DIR := $(shell $(ROOT)/config/petsc.sh --print-dir $(PETSC_VARIANT))
  PETSC_ARCH :=
endif
export PETSC_DIR PETSC_ARCH

# PETSc's own variables (PCC, CUDAC, flags, PETSC_LIB, MPIEXEC); when missing, make builds PETSc first and restarts.
include $(PETSC_DIR)/lib/petsc/conf/variables
$(PETSC_DIR)/lib/petsc/conf/variables:
	$(ROOT)/config/petsc.sh $(PETSC_VARIANT)

PREFIX    ?= /usr/local
BUILD     := $(ROOT)/build
LIBNAME   := libpetscsparsegpu.so
LIB       := $(BUILD)/lib/$(LIBNAME)
HAVE_CUDA := $(shell grep -qs "^#define PETSC_HAVE_CUDA 1" $(PETSC_DIR)/$(PETSC_ARCH)/include/petscconf.h $(PETSC_DIR)/include/petscconf.h && echo 1)
NVCC      ?= nvcc
CUDA_ARCH ?= sm_90

C_SRCS   := $(sort $(shell find $(ROOT)/src -name '*.c'))
CU_SRCS  := $(sort $(shell find $(ROOT)/src -name '*.cu'))
OBJS     := $(patsubst $(ROOT)/src/%.c,$(BUILD)/obj/%.o,$(C_SRCS))
ifeq ($(HAVE_CUDA),1)
  OBJS   += $(patsubst $(ROOT)/src/%.cu,$(BUILD)/obj/%.cu.o,$(CU_SRCS))
endif
OUR_INCLUDES := -I$(ROOT)/include -I$(ROOT)/src/include

.PHONY: all lib check demo bench cuda-check install clean print
.DEFAULT_GOAL := all
all: lib
lib: $(LIB)

$(BUILD)/obj/%.o: $(ROOT)/src/%.c
	@mkdir -p $(dir $@)
	$(PCC) -c -fPIC -MMD -MP $(PCC_FLAGS) $(CFLAGS) $(CCPPFLAGS) $(OUR_INCLUDES) -o $@ $<

$(BUILD)/obj/%.cu.o: $(ROOT)/src/%.cu
	@mkdir -p $(dir $@)
	$(CUDAC) -c $(MPICXX_INCLUDES) $(CUDAC_FLAGS) $(CUDAFLAGS) $(CUDAC_HOSTFLAGS) $(CUDACPPFLAGS) --compiler-options="$(CXXCPPFLAGS)" $(OUR_INCLUDES) -MMD -MP -o $@ $<

$(LIB): $(OBJS)
	@mkdir -p $(dir $@)
	$(CLINKER) -shared -o $@ $(OBJS) $(PETSC_LIB)

-include $(OBJS:.o=.d)

# Programs of tests/ and tutorials/ link the library; unmodified PETSc examples do not (they load it with -dll_append).
$(BUILD)/tests/%: $(ROOT)/tests/%.c $(wildcard $(ROOT)/tests/*.h) $(LIB)
	@mkdir -p $(dir $@)
	$(PCC) $(PCC_FLAGS) $(CFLAGS) $(CCPPFLAGS) $(OUR_INCLUDES) -o $@ $< $(PCC_LINKER_FLAGS) -Wl,-rpath,$(BUILD)/lib -L$(BUILD)/lib -lpetscsparsegpu $(PETSC_LIB)
$(BUILD)/tutorials/%: $(ROOT)/tutorials/%.c
	@mkdir -p $(dir $@)
	$(PCC) $(PCC_FLAGS) $(CFLAGS) $(CCPPFLAGS) -o $@ $< $(PCC_LINKER_FLAGS) $(PETSC_LIB)
# `make build/tests/NAME` (relative, from the top directory) means the same program as the rules above: without this a
# relative target names no rule, and make calls an existing but outdated program up to date
ifeq ($(BUILD),$(ROOT)/build)
build/tests/%: $(BUILD)/tests/% ;
build/tutorials/%: $(BUILD)/tutorials/% ;
endif
# ... and make must not delete such a program as an intermediate file of that chain when it was new
.PRECIOUS: $(BUILD)/tests/% $(BUILD)/tutorials/%
$(BUILD)/petsc-examples/%:
	@mkdir -p $(dir $@)
	$(PCC) $(PCC_FLAGS) $(CFLAGS) $(CCPPFLAGS) -o $@ $(PETSC_DIR)/share/petsc/examples/$(subst +,/,$*).c $(PCC_LINKER_FLAGS) $(PETSC_LIB)

TESTRUN = env PETSC_DIR=$(PETSC_DIR) PETSC_ARCH=$(PETSC_ARCH) MPIEXEC="$(MPIEXEC)" HAVE_CUDA=$(HAVE_CUDA) \
  SPARSEGPU_LIB=$(LIB) SPARSEGPU_BUILD=$(BUILD) MAKE="$(MAKE)" python3 $(ROOT)/config/testrun.py

check: $(LIB)
	@$(TESTRUN) $(if $(TESTS),--pattern '$(TESTS)') $(TESTARGS)

demo: $(LIB) $(BUILD)/tutorials/ex1
	@$(ROOT)/tutorials/demo.sh $(BUILD)/tutorials/ex1 $(LIB) $(DEMOARGS)

bench: $(LIB)
	@$(MAKE) -C $(ROOT)/bench --no-print-directory run

# Compile-check the CUDA code with nvcc for sm_90 even where PETSc has no CUDA: the headers of the CUDA
# PETSc bundle (../shared/petsc) stand in for a CUDA-enabled PETSc. The bundle was configured with Open MPI
# 4.1.6; its version guard is relaxed to any 4.1.x so the local Open MPI's mpi.h can serve (compile check only).
CUDA_PETSC_BUNDLE  ?= $(ROOT)/../shared/petsc/petsc-3.22.5-cuda13-sm90.tar.xz
CUDA_PETSC_HEADERS ?= $(HOME)/.cache/petscsparsegpu/cuda-headers/petsc-cuda
CUDA_CHECK_DIR := $(BUILD)/cuda-check
cuda-check:
	@if ! command -v $(NVCC) >/dev/null; then echo "cuda-check: no $(NVCC) on PATH (install the CUDA toolkit)"; exit 1; fi
	@if [ ! -f $(CUDA_PETSC_HEADERS)/.ready ]; then \
	  mkdir -p $(dir $(CUDA_PETSC_HEADERS)) && tar -C $(dir $(CUDA_PETSC_HEADERS)) -xJf $(CUDA_PETSC_BUNDLE) petsc-cuda/include && \
	  sed -i 's/^#define PETSC_PKG_OPENMPI_VERSION_SUBMINOR .*/#define PETSC_PKG_OPENMPI_VERSION_SUBMINOR 0/' $(CUDA_PETSC_HEADERS)/include/petscpkg_version.h && \
	  touch $(CUDA_PETSC_HEADERS)/.ready; fi
	@mkdir -p $(CUDA_CHECK_DIR); n=0; fail=0; \
	for f in $(CU_SRCS); do n=$$((n+1)); echo "  NVCC $${f#$(ROOT)/}"; \
	  $(NVCC) -ccbin mpicxx -std=c++20 -arch=$(CUDA_ARCH) -Xcompiler -fPIC,-fvisibility=hidden,-Wall -Werror all-warnings \
	    -I$(CUDA_PETSC_HEADERS)/include $(OUR_INCLUDES) -c $$f -o $(CUDA_CHECK_DIR)/$$n.o || fail=$$((fail+1)); done; \
	for f in $(C_SRCS) $(wildcard $(ROOT)/bench/*.c); do n=$$((n+1)); echo "  CC (CUDA PETSc headers) $${f#$(ROOT)/}"; \
	  mpicc -std=c99 -fPIC -Wall -Werror -I$(CUDA_PETSC_HEADERS)/include -I/usr/local/cuda/include $(OUR_INCLUDES) -c $$f -o $(CUDA_CHECK_DIR)/$$n.o || fail=$$((fail+1)); done; \
	echo "cuda-check: $$n files, $$fail failed"; test $$fail = 0

install: $(LIB)
	install -d $(PREFIX)/lib/pkgconfig $(PREFIX)/include
	install -m 755 $(LIB) $(PREFIX)/lib/
	install -m 644 $(ROOT)/include/petscsparsegpu.h $(PREFIX)/include/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@PETSC_DIR@|$(PETSC_DIR)|g' $(ROOT)/config/petscsparsegpu.pc.in > $(PREFIX)/lib/pkgconfig/petscsparsegpu.pc
	@echo "Installed. Load into any PETSc 3.22 application with -dll_append $(PREFIX)/lib/$(LIBNAME)"

clean:
	rm -rf $(BUILD)

print:
	@echo PETSC_DIR=$(PETSC_DIR) PETSC_ARCH=$(PETSC_ARCH) HAVE_CUDA=$(HAVE_CUDA) LIB=$(LIB)
	@echo PCC=$(PCC) CUDAC=$(CUDAC) MPIEXEC=$(MPIEXEC)
