#!/usr/bin/env bash
# bench/pattern_osu.sh — harmonia pattern rail at 2 ranks (mpi backend,
# groups of 1) against OSU's osu_latency, osu_bw and osu_bibw, RUNS
# separate mpiruns of each, interleaved. Like with like:
#   - latency (issue 14): harmonia's median time of one 8 B message both
#     ranks start together (max end - min start, global clock) against
#     osu_latency's average half round trip;
#   - bandwidth (issue 32): rail uni --window 64, 64 messages in flight per
#     repetition as osu_bw's default window (-W 64), its algbw against
#     osu_bw's MB/s (1e6 B/s, printed here in GB/s), at 64 KiB and 4 MiB;
#   - bidirectional: rail bi --window 64 (64 messages each way) against
#     osu_bibw, whose MB/s also counts both directions.
# OSU runs with -z, so that beside its mean over the loop (what it prints
# first) it gives the P50 of its per-iteration bandwidth: harmonia's median
# is like that P50, not like the mean, which one slow iteration moves.
# Prints, per figure, the median and [min, max] over the runs and the ratio
# of the medians harmonia / OSU (target: within 15 %), and the median of the
# ratios of each run's interleaved pair (the runs of one pair share the
# machine's state: OSU's own bibw moved 11.9-16.6 GB/s at 64 KiB from one
# mpirun to the next).
#
#   OSU_DIR=/path/to/osu-micro-benchmarks bench/pattern_osu.sh [OUT_DIR]
#       (RUNS=5, BUILD=build, NREP=1000, WINDOW=64)
# OSU is never part of harmonia: build it in a scratch directory, e.g.
#   ./configure CC=mpicc.openmpi CXX=mpicxx.openmpi
#   make -C c/mpi/pt2pt/standard osu_latency osu_bw osu_bibw
set -euo pipefail
osu=${OSU_DIR:?set OSU_DIR to a built OSU 7.x tree (see the header)}/c/mpi/pt2pt/standard
runs=${RUNS:-5}
build=${BUILD:-build}
nrep=${NREP:-1000}
window=${WINDOW:-64}
out=${1:-bench/results/pattern}/osu
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for p in osu_latency osu_bw osu_bibw; do
    [ -x "$osu/$p" ] || { echo "pattern_osu.sh: $osu/$p: not built (see the header)" >&2; exit 2; }
done
mkdir -p "$out"

. "$(dirname "$0")/csv.sh"
# hm_col FILE SIZE COLUMN: the pattern row's COLUMN at SIZE, by name.
hm_col() { csv_cols "$1" '$c["measured"] == "pattern" && $c["size_bytes"] == '"$2" "$3"; }
# osu_col FILE SIZE SCALE [FIELD]: OSU's figure at SIZE (MB/s in GB/s for
# bandwidth): FIELD 2 (default) is its mean, 3 with -z its P50.
osu_col() { awk -v size="$2" -v scale="$3" -v f="${4:-2}" '$1 == size { print $f * scale }' "$1"; }

: >"$out/runs.tsv"
for r in $(seq 1 "$runs"); do
    mpi=(timeout 300 mpirun -n 2)
    "${mpi[@]}" "$osu/osu_latency" -m 8:8 -i "$nrep" >"$out/osu_latency.$r.txt"
    "${mpi[@]}" "$build/harmonia" pattern --pattern rail --ranks-per-node 1 --sizes 8 \
        --nrep "$nrep" --output "$out/harmonia_lat.$r.csv" >"$out/harmonia_lat.$r.txt"
    "${mpi[@]}" "$osu/osu_bw" -m 65536:4194304 -W "$window" -i 100 -z >"$out/osu_bw.$r.txt"
    "${mpi[@]}" "$build/harmonia" pattern --pattern rail --ranks-per-node 1 --sizes 64K,4M \
        --window "$window" --nrep 100 --output "$out/harmonia_bw.$r.csv" >"$out/harmonia_bw.$r.txt"
    "${mpi[@]}" "$osu/osu_bibw" -m 65536:4194304 -W "$window" -i 100 -z >"$out/osu_bibw.$r.txt"
    "${mpi[@]}" "$build/harmonia" pattern --pattern rail --direction bi --ranks-per-node 1 \
        --sizes 64K,4M --window "$window" --nrep 100 --output "$out/harmonia_bibw.$r.csv" \
        >"$out/harmonia_bibw.$r.txt"
    printf '%s' "$r" >>"$out/runs.tsv"
    printf '\t%s\t%s' "$(osu_col "$out/osu_latency.$r.txt" 8 1)" \
        "$(hm_col "$out/harmonia_lat.$r.csv" 8 median_s | awk '{ print $1 * 1e6 }')" >>"$out/runs.tsv"
    for size in 65536 4194304; do
        printf '\t%s\t%s\t%s\t%s' "$(osu_col "$out/osu_bw.$r.txt" $size 0.001)" \
            "$(hm_col "$out/harmonia_bw.$r.csv" $size algbw_GBps)" \
            "$(osu_col "$out/osu_bibw.$r.txt" $size 0.001)" \
            "$(hm_col "$out/harmonia_bibw.$r.csv" $size algbw_GBps)" >>"$out/runs.tsv"
    done
    for size in 65536 4194304; do # columns 12-15: OSU's P50s
        printf '\t%s\t%s' "$(osu_col "$out/osu_bw.$r.txt" $size 0.001 3)" \
            "$(osu_col "$out/osu_bibw.$r.txt" $size 0.001 3)" >>"$out/runs.tsv"
    done
    echo >>"$out/runs.tsv"
done
stat() { # COLUMN: median min max over the runs
    cut -f "$1" "$out/runs.tsv" | sort -g |
        awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                                  printf "%.3f [%.3f, %.3f]", m, v[1], v[NR] }'
}
pair_ratio() { # OSU_COLUMN HARMONIA_COLUMN: median of the runs' harmonia / OSU
    awk -F '\t' -v a="$1" -v b="$2" '{ print $b / $a }' "$out/runs.tsv" | sort -g |
        awk '{ v[NR] = $1 } END { printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
{
    echo "figure                              OSU median [min, max]      harmonia median [min, max]  ratio of medians  median of pairs"
    for f in "8 B latency (us):2:3" \
        "64 KiB bw, window $window (GB/s):4:5" "64 KiB bibw, window $window (GB/s):6:7" \
        "4 MiB bw, window $window (GB/s):8:9" "4 MiB bibw, window $window (GB/s):10:11" \
        "64 KiB bw, OSU P50 (GB/s):12:5" "64 KiB bibw, OSU P50 (GB/s):13:7" \
        "4 MiB bw, OSU P50 (GB/s):14:9" "4 MiB bibw, OSU P50 (GB/s):15:11"; do
        IFS=: read -r name a b <<<"$f"
        ma=$(stat "$a"); mb=$(stat "$b")
        printf '%-34s  %-26s %-26s  %-16.3f  %s\n' "$name" "$ma" "$mb" \
            "$(echo "${mb%% *} / ${ma%% *}" | bc -l)" "$(pair_ratio "$a" "$b")"
    done
} | tee "$out/summary.txt"
