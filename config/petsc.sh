#!/bin/bash
# Provide PETSc 3.22.5 for PETSc SparseGPU.
#
#   config/petsc.sh [--cuda] [--debug] [--print-dir] [--jobs N]
#
# If PETSC_DIR (and PETSC_ARCH) point to an existing PETSc, check it (version 3.22.x, shared
# libraries) and print its location. Otherwise build PETSc 3.22.5 from Debian's source package into
# a cache directory outside the clone ($PETSCSPARSEGPU_CACHE, default ~/.cache/petscsparsegpu), once;
# later calls reuse it. The last line printed on stdout is the PETSC_DIR to use.
#
#   --cuda       build with CUDA (sm_90) after applying config/patch-cuda13.sh
#   --debug      build a debugging PETSc (argument checks, malloc tracing); default is optimized
#   --print-dir  only print where the cached build for these flags lives (builds nothing)
#   --jobs N     parallel make jobs (default: number of cores)
set -eo pipefail

here=$(cd "$(dirname "$0")" && pwd)
version=3.22.5
debver=3.22.5+dfsg1-2
orig=petsc_3.22.5+dfsg1.orig.tar.xz
orig_md5=6b8bfe693e102cedaa26d19987b02e66
orig_size=39615636
cuda=0 debug=0 print_dir=0 jobs=$(nproc 2>/dev/null || echo 2)
while [ $# -gt 0 ]; do
  case "$1" in
    --cuda) cuda=1 ;;
    --debug) debug=1 ;;
    --print-dir) print_dir=1 ;;
    --jobs) shift; jobs=$1 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "config/petsc.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

cache=${PETSCSPARSEGPU_CACHE:-$HOME/.cache/petscsparsegpu}
variant=opt; [ $debug = 1 ] && variant=debug; [ $cuda = 1 ] && variant=$variant-cuda
prefix=$cache/petsc-$version-$variant

log() { echo "config/petsc.sh: $*" >&2; }

check_petsc() { # $1 = PETSC_DIR, $2 = PETSC_ARCH (may be empty)
  local dir=$1 arch=$2 inc conf
  conf=$dir/$arch/include/petscconf.h
  [ -f "$conf" ] || conf=$dir/include/petscconf.h
  [ -f "$dir/include/petscversion.h" ] || { log "no PETSc at PETSC_DIR=$dir (include/petscversion.h missing)"; return 1; }
  local maj min
  maj=$(awk '/#define PETSC_VERSION_MAJOR/{print $3}' "$dir/include/petscversion.h")
  min=$(awk '/#define PETSC_VERSION_MINOR/{print $3}' "$dir/include/petscversion.h")
  if [ "$maj.$min" != 3.22 ]; then log "PETSc at $dir is $maj.$min; PETSc SparseGPU needs 3.22"; return 1; fi
  grep -q '#define PETSC_USE_SHARED_LIBRARIES 1' "$conf" || { log "PETSc at $dir/$arch was built without shared libraries (--with-shared-libraries=1 is needed for -dll_append)"; return 1; }
  grep -q '#define PETSC_HAVE_DYNAMIC_LIBRARIES 1' "$conf" || { log "PETSc at $dir/$arch has no dynamic library support"; return 1; }
  return 0
}

if [ $print_dir = 1 ]; then echo "$prefix"; exit 0; fi

if [ -n "${PETSC_DIR:-}" ] && [ "$PETSC_DIR" != "$prefix" ]; then
  check_petsc "$PETSC_DIR" "${PETSC_ARCH:-}" || exit 1
  log "using existing PETSc at PETSC_DIR=$PETSC_DIR PETSC_ARCH=${PETSC_ARCH:-}"
  echo "$PETSC_DIR"; exit 0
fi

if [ -f "$prefix/lib/petsc/conf/variables" ] && check_petsc "$prefix" ""; then
  echo "$prefix"; exit 0
fi

sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
apt_updated=0
apt_update() { [ $apt_updated = 1 ] || { $sudo apt-get update -qq >&2; apt_updated=1; }; }

# 1. What PETSc needs from Debian, when missing.
need=()
command -v mpicc >/dev/null || need+=(libopenmpi-dev openmpi-bin)
[ -e /usr/lib/x86_64-linux-gnu/liblapack.so ] || [ -e /usr/lib/$(uname -m)-linux-gnu/liblapack.so ] || need+=(liblapack-dev libblas-dev)
command -v python3 >/dev/null || need+=(python3)
command -v make >/dev/null || need+=(make)
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]}"
  apt_update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
fi

# 2. The source: Debian's petsc source package from the trixie suite.
mkdir -p "$cache/src"
tarball=$cache/src/$orig
verify() { [ -f "$tarball" ] && [ "$(stat -c %s "$tarball")" = $orig_size ] && [ "$(md5sum < "$tarball" | cut -d' ' -f1)" = $orig_md5 ]; }
if ! verify; then
  rm -f "$tarball"
  list=/etc/apt/sources.list.d/petscsparsegpu-trixie-src.sources
  if [ ! -f $list ]; then
    # Derive the mirror from the machine's own apt configuration (first Debian 'URIs:' entry, or the
    # first 'deb' line of sources.list) so no host name is written in this repository.
    uri=$(grep -h '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | awk '{print $2}' | head -n1)
    [ -n "$uri" ] || uri=$(grep -h '^deb ' /etc/apt/sources.list 2>/dev/null | grep -v security | awk '{print $2}' | head -n1)
    [ -n "$uri" ] || { log "cannot find a Debian mirror in the apt configuration; set PETSC_DIR to an existing PETSc 3.22"; exit 1; }
    keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    printf 'Types: deb-src\nURIs: %s\nSuites: trixie\nComponents: main\nSigned-By: %s\n' "$uri" "$keyring" | $sudo tee $list >/dev/null
    apt_updated=0
  fi
  apt_update
  log "fetching Debian source package petsc=$debver"
  # The mirror may lack the .dsc/.debian.tar.xz (apt-get then exits 100) while the upstream
  # tarball, which is all we need, arrives: verify it by size and md5 instead of trusting the status.
  (cd "$cache/src" && apt-get source --download-only "petsc=$debver" >&2) || true
  verify || { log "could not fetch a verified $orig (md5 $orig_md5)"; exit 1; }
fi

# 3. Configure, build, install into the cache.
build=$cache/build-$variant
rm -rf "$build" && mkdir -p "$build"
log "unpacking $orig"
tar -C "$build" -xJf "$tarball"
srcdir=$(find "$build" -maxdepth 1 -mindepth 1 -type d | head -n1)
cd "$srcdir"
[ $cuda = 1 ] && sh "$here/patch-cuda13.sh"
opts=(--PETSC_ARCH=arch-build --prefix="$prefix" --with-cc=mpicc --with-cxx=mpicxx --with-fc=0 --with-x=0
      --with-shared-libraries=1)
if [ $debug = 1 ]; then opts+=(--with-debugging=1); else opts+=(--with-debugging=0 COPTFLAGS=-O3 CXXOPTFLAGS=-O3); fi
[ $cuda = 1 ] && opts+=(--with-cuda=1 --with-cuda-arch=90 CUDAOPTFLAGS=-O3)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# make exports PETSC_DIR (the prefix, not yet there) to this script: PETSc's configure must not see it
unset PETSC_DIR PETSC_ARCH
log "configure ${opts[*]}"
t0=$(date +%s)
python3 ./configure "${opts[@]}" >&2 || { tail -n 40 configure.log >&2; exit 1; }
t1=$(date +%s)
make -j"$jobs" -f gmakefile PETSC_DIR="$PWD" PETSC_ARCH=arch-build libs >&2
make PETSC_DIR="$PWD" PETSC_ARCH=arch-build install >&2
t2=$(date +%s)
log "PETSc $version ($variant) installed in $prefix (configure $((t1 - t0)) s, build+install $((t2 - t1)) s)"
cd / && rm -rf "$build"
check_petsc "$prefix" ""
echo "$prefix"
