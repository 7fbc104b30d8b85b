#!/usr/bin/env bash
# bench/pattern_commit_mpi.sh — hm_plan_commit against the MPI calls it is
# made of (bench/pattern_commit_mpi.c says what each row times), at 2, 4 and
# 8 ranks (oversubscribed above 2 on this 2-core machine). On 2 cores the
# wall time at 4 and 8 ranks is the scheduler's, not the commit's
# (bench/pattern_commit.sh): a commit that does O(P) work a rank keeps
# commit / mpi-only near 1 at every P, and its cost does not follow the
# messages a rank adds (ring against ring-xM, omni's P - 1).
# The program is compiled here with mpicc against the build's shared
# library (it is not a target of bench/CMakeLists.txt).
#
#   bench/pattern_commit_mpi.sh [OUT_DIR]
#       (RANKS="2 4 8", ROUNDS=51, M=1024, BUILD=build, MPICC=mpicc;
#        OUT_DIR=bench/results/pattern_commit)
set -euo pipefail
build=${BUILD:-build}
out=${1:-bench/results/pattern_commit}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[ -e "$build/libharmonia.so" ] || { echo "pattern_commit_mpi.sh: build $build (libharmonia.so) first" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
lib=$(cd "$build" && pwd)
prog=$lib/bench/pattern_commit_mpi
mkdir -p "$lib/bench" "$out"
"${MPICC:-mpicc}" -O2 -std=c17 -D_GNU_SOURCE -Wall -Wextra -I"$here/../include" \
    "$here/pattern_commit_mpi.c" -L"$lib" -lharmonia -Wl,-rpath,"$lib" -o "$prog"
{
    printf 'ranks\tkind\tmessages_per_rank\tmedian_us\tmin_us\tmedian_us_per_rank\tover_mpi_only\n'
    for p in ${RANKS:-2 4 8}; do
        timeout 300 mpirun --oversubscribe -n "$p" "$prog" "${ROUNDS:-51}" "${M:-1024}"
    done
} | tee "$out/commit_mpi.tsv"
