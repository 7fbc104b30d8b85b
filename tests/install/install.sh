#!/usr/bin/env bash
# Install harmonia into a temporary prefix, then build a separate project
# against it twice: with find_package(harmonia) (shared and static targets)
# and with pkg-config; run what was built.
# Arguments: BUILD_DIR SOURCE_DIR MPI_C_COMPILER
set -eu
build=$1 src=$2 mpicc=$3
prefix=$(mktemp -d) work=$(mktemp -d)
trap 'rm -rf "$prefix" "$work"' EXIT
checks=0
ok() { checks=$((checks + 1)); echo "ok: $*"; }

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in include/harmonia/timer.h lib/libharmonia.a lib/libharmonia.so bin/harmonia \
         bin/harmonia-compute lib/pkgconfig/harmonia.pc lib/cmake/harmonia/harmonia-config.cmake; do
    [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
ok "headers, static and shared library, programs, pkg-config and CMake files installed"

cmake -S "$src/tests/install/consumer" -B "$work/cm" -DCMAKE_PREFIX_PATH="$prefix" \
      -DMPI_C_COMPILER="$mpicc" >/dev/null
cmake --build "$work/cm" >/dev/null
LD_LIBRARY_PATH="$prefix/lib" "$work/cm/consumer_shared"
"$work/cm/consumer_static"
ok "find_package(harmonia): harmonia::harmonia and harmonia::static build and run"

PKG_CONFIG_PATH="$prefix/lib/pkgconfig" "$mpicc" "$src/tests/install/consumer/consumer.c" \
    $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs harmonia) \
    -o "$work/pc"
LD_LIBRARY_PATH="$prefix/lib" "$work/pc"
ok "pkg-config --cflags --libs harmonia builds and runs"
echo "$checks checks, 0 failed"
