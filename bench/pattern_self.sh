#!/usr/bin/env bash
# bench/pattern_self.sh — issue 14: the host backend's self pattern against
# memcpy in the same run, on the same buffers, 1 KiB to 256 MiB (x4), RUNS
# runs; prints each run's table and, per size, the median over the runs of
# memcpy's and self's GB/s and of their ratio (target: >= 0.8).
#
#   bench/pattern_self.sh [OUT_DIR]     (RUNS=3, BUILD=build, MAX=268435456)
set -euo pipefail
runs=${RUNS:-3}
build=${BUILD:-build}
max=${MAX:-268435456}
out=${1:-bench/results/pattern}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[ -x "$build/bench/pattern_self" ] || { echo "pattern_self.sh: build $build/bench/pattern_self first" >&2; exit 2; }
mkdir -p "$out"
for r in $(seq 1 "$runs"); do
    timeout 600 mpirun -n 1 "$build/bench/pattern_self" "$max" >"$out/self.$r.tsv"
done
# Median over the runs of each column, per size (mawk has no asort).
median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf 'size_B\tmemcpy_GBps\tself_GBps\tself/memcpy\t(medians of %d runs)\n' "$runs"
for size in $(awk 'NR > 1 { print $1 }' "$out/self.1.tsv"); do
    row=$size
    for c in 2 3 4; do
        row="$row	$(awk -v s="$size" -v c="$c" '$1 == s { print $c }' "$out"/self.*.tsv | median)"
    done
    echo "$row"
done | tee "$out/self.tsv"
