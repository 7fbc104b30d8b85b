#!/usr/bin/env bash
# bench/pattern_osu.sh — issue 14: harmonia pattern rail (1, 2, 1) at 2
# ranks (mpi backend: one message, rank 0 to rank 1) against OSU's
# osu_latency at 8 B and osu_bw at 4 MiB, RUNS separate mpiruns of each
# (alternating). Like with like:
#   - latency: harmonia's median time (max end - min start on the global
#     clock of a message both ranks start together) against osu_latency's
#     average half round trip;
#   - bandwidth: harmonia's algbw (bytes / median time, one message at a
#     time) against osu_bw's (64 messages in flight per window, MB/s = 1e6
#     B/s, printed here in GB/s).
# Prints, per figure, the median and [min, max] over the runs and the ratio
# of the medians harmonia / OSU (target: within 15 %).
#
#   OSU_DIR=/path/to/osu-micro-benchmarks bench/pattern_osu.sh [OUT_DIR]
#       (RUNS=5, BUILD=build, NREP=1000)
# OSU is never part of harmonia: build it in a scratch directory, e.g.
#   ./configure CC=mpicc.openmpi CXX=mpicxx.openmpi
#   make -C c/mpi/pt2pt/standard osu_latency osu_bw
set -euo pipefail
osu=${OSU_DIR:?set OSU_DIR to a built OSU 7.x tree (see the header)}/c/mpi/pt2pt/standard
runs=${RUNS:-5}
build=${BUILD:-build}
nrep=${NREP:-1000}
out=${1:-bench/results/pattern}/osu
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for p in osu_latency osu_bw; do
    [ -x "$osu/$p" ] || { echo "pattern_osu.sh: $osu/$p: not built (see the header)" >&2; exit 2; }
done
mkdir -p "$out"
: >"$out/runs.tsv"
for r in $(seq 1 "$runs"); do
    timeout 300 mpirun -n 2 "$osu/osu_latency" -m 8:8 -i "$nrep" >"$out/osu_latency.$r.txt"
    timeout 300 mpirun -n 2 "$osu/osu_bw" -m 4194304:4194304 -i 100 >"$out/osu_bw.$r.txt"
    timeout 300 mpirun -n 2 "$build/harmonia" pattern --pattern rail --ranks-per-node 1 \
        --sizes 8,4M --nrep "$nrep" --output "$out/harmonia.$r.csv" >"$out/harmonia.$r.txt"
    lat=$(awk '$1 == 8 { print $2 }' "$out/osu_latency.$r.txt")
    bw=$(awk '$1 == 4194304 { print $2 / 1000 }' "$out/osu_bw.$r.txt")
    hl=$(awk -F, '!/^#/ && $7 == "pattern" && $8 == 8 { print $15 * 1e6 }' "$out/harmonia.$r.csv")
    hb=$(awk -F, '!/^#/ && $7 == "pattern" && $8 == 4194304 { print $17 }' "$out/harmonia.$r.csv")
    printf '%s\t%s\t%s\t%s\t%s\n' "$r" "$lat" "$hl" "$bw" "$hb" >>"$out/runs.tsv"
done
stat() { # COLUMN: median min max over the runs
    cut -f "$1" "$out/runs.tsv" | sort -g |
        awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                                  printf "%.3f [%.3f, %.3f]", m, v[1], v[NR] }'
}
{
    echo "figure                        OSU median [min, max]      harmonia median [min, max]  harmonia/OSU"
    for f in "8 B latency (us):2:3" "4 MiB bandwidth (GB/s):4:5"; do
        IFS=: read -r name a b <<<"$f"
        ma=$(stat "$a"); mb=$(stat "$b")
        printf '%-28s  %-26s %-26s  %.3f\n' "$name" "$ma" "$mb" \
            "$(echo "${mb%% *} / ${ma%% *}" | bc -l)"
    done
} | tee "$out/summary.txt"
