#!/usr/bin/env bash
# The harmonia program is a user of the installed libharmonia like any other:
# install harmonia into a temporary prefix, run the installed program (it
# finds the installed libharmonia.so by its RPATH), then build the program's
# sources (a copy of tools/harmonia, with tests/install/program/CMakeLists.txt)
# outside the tree against that prefix alone, and run what was built: a
# header that is not installed, a hidden symbol or a test hook fails the build.
# Arguments: BUILD_DIR SOURCE_DIR MPI_C_COMPILER MPIEXEC HM_TIMEOUT
set -eu
build=$1 src=$2 mpicc=$3 mpiexec=$4 bound=$5
prefix=$(mktemp -d) work=$(mktemp -d)
trap 'rm -rf "$prefix" "$work"' EXIT
checks=0
ok() { checks=$((checks + 1)); echo "ok: $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

# The libharmonia.so that PROGRAM loads without LD_LIBRARY_PATH, resolved
# ("not found", or "" when it needs none).
lib_of() {
    local path
    path=$(env -u LD_LIBRARY_PATH ldd "$1" | awk '$1 ~ /^libharmonia[.]so/ { print $3 }')
    case $path in /*) readlink -f "$path" ;; "") ;; *) echo "not found" ;; esac
}

cmake --install "$build" --prefix "$prefix" >/dev/null
installed=$(readlink -f "$prefix/lib/libharmonia.so")
[ ! -e "$prefix/include/harmonia/testing.h" ] || fail "testing.h (test hooks) is installed"
got=$(lib_of "$prefix/bin/harmonia")
[ "$got" = "$installed" ] || fail "installed bin/harmonia loads \"$got\", not $installed"
env -u LD_LIBRARY_PATH "$bound" -k 5 30 "$prefix/bin/harmonia" version >"$work/version" ||
    fail "installed bin/harmonia version: status $?: $(cat "$work/version")"
ok "installed bin/harmonia loads the installed libharmonia.so (install RPATH) and runs"

# Everything the build reads is under $work and $prefix: the project itself
# is copied out too, so that no path of the tree can reach the compiler.
mkdir "$work/program"
cp -R "$src/tools/harmonia" "$work/program/harmonia"
cp "$src/tests/install/program/CMakeLists.txt" "$work/program/"
cmake -S "$work/program" -B "$work/cm" -DCMAKE_PREFIX_PATH="$prefix" \
      -DHARMONIA_PROGRAM_DIR="$work/program/harmonia" -DMPI_C_COMPILER="$mpicc" \
      -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$work/log" 2>&1 ||
    { cat "$work/log"; fail "configuring the program against $prefix"; }
cmake --build "$work/cm" -j 2 >"$work/log" 2>&1 ||
    { tail -40 "$work/log"; fail "building the program against $prefix"; }
leaks=$(grep -rIlF -e "$src" -e "$(readlink -f "$build")" "$work/cm" || true)
[ -z "$leaks" ] || fail "the out-of-tree build names the source or build tree in: $leaks"
ok "tools/harmonia builds outside the tree from the installed headers and libharmonia.so"

prog=$work/cm/harmonia
got=$(lib_of "$prog")
[ "$got" = "$installed" ] || fail "the out-of-tree harmonia loads \"$got\", not $installed"
env -u LD_LIBRARY_PATH "$bound" -k 5 30 "$prog" version >"$work/version" ||
    fail "harmonia version: status $?: $(cat "$work/version")"
grep -q '^harmonia [0-9]' "$work/version" || fail "harmonia version printed: $(cat "$work/version")"
ok "the out-of-tree harmonia loads the installed libharmonia.so; version: $(head -1 "$work/version")"

# Under barrier every repetition is valid: a busy machine cannot make the
# run fall short of its 5 repetitions (harmonize discards late starts).
status=0
env -u LD_LIBRARY_PATH "$bound" -k 5 60 "$mpiexec" -n 2 "$prog" bench --ops bcast --sizes 8 \
    --nrep 5 --sync barrier >"$work/bench" 2>&1 || status=$?
[ "$status" = 0 ] || fail "mpirun -n 2 harmonia bench: status $status: $(cat "$work/bench")"
awk '$1 == "bcast" && $2 == 8 && $3 == 5 && $6 + 0 > 0 { found = 1 } END { exit !found }' \
    "$work/bench" || fail "no row bcast, 8 B, 5 valid, a median above 0: $(cat "$work/bench")"
ok "mpirun -n 2 (out-of-tree) harmonia bench --ops bcast --sizes 8 --nrep 5: a row of 5 valid"
echo "$checks checks, 0 failed"
