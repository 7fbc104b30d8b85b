#!/usr/bin/env bash
# bench/pattern_commit.sh — issue 14: hm_plan_commit's time at 2, 4 and 8
# ranks (8 oversubscribed on this 2-core machine), for a ring (1 message a
# rank) and all-to-all (P - 1 a rank), every rank adding the whole pattern;
# the median over ROUNDS commits of the slowest rank, and that over P: a
# commit linear in P keeps time/P flat (its one MPI_Alltoall of 3 integers
# per peer), a quadratic one doubles it with P.
#
#   bench/pattern_commit.sh [OUT_DIR]     (RANKS="2 4 8", ROUNDS=31, BUILD=build)
set -euo pipefail
build=${BUILD:-build}
out=${1:-bench/results/pattern}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[ -x "$build/bench/pattern_commit" ] || { echo "pattern_commit.sh: build $build/bench/pattern_commit first" >&2; exit 2; }
mkdir -p "$out"
{
    printf 'ranks\tpattern\tmessages_per_rank\tcommit_us\tcommit_us_per_rank\n'
    for p in ${RANKS:-2 4 8}; do
        timeout 300 mpirun --oversubscribe -n "$p" "$build/bench/pattern_commit" "${ROUNDS:-31}"
    done
} | tee "$out/commit.tsv"
