#!/usr/bin/env bash
# bench/pattern_latency.sh — where the 8 B gap between harmonia pattern rail
# (1, 2, 1) and osu_latency comes from (bench/pattern_osu.sh compares the
# two). Each of RUNS rounds runs, one mpirun each, back to back at 2 ranks:
#   osu       osu_latency -m 8:8: the average half round trip of NREP
#             back-to-back blocking ping-pongs (both ranks polling, hot);
#   pingpong  harmonia bench --ops pingpong: the median half round trip of
#             one ping-pong a repetition, each started by --sync harmonize;
#   rail      harmonia pattern rail at 8 B (the figure pattern_osu.sh
#             compares): the median max end - min start of one message
#             (MPI_Irecv + MPI_Isend + MPI_Waitall), both ranks started
#             together by --sync harmonize (the default);
#   rail_win  the same with --sync window (a start that spins, no slack);
#   self_mpi  pattern self, mpi backend: each rank sends 8 B to itself (the
#             cost of MPI's requests and matching with no wire in between);
#   self_host pattern self, host backend: each rank copies 8 B (the floor of
#             the method: two timer reads and the spread of the starts).
# Prints, per column, the median [min, max] over the rounds (us), and the
# medians over the rounds of rail / osu and rail / pingpong taken within
# each round (the machine changes between mpiruns: see README.md).
#
#   OSU_DIR=/path/to/osu-micro-benchmarks bench/pattern_latency.sh [OUT_DIR]
#       (RUNS=5, BUILD=build, NREP=1000; OUT_DIR=bench/results/pattern_latency)
set -euo pipefail
. "$(dirname "$0")/csv.sh"
osu=${OSU_DIR:?set OSU_DIR to a built OSU 7.x tree (see bench/pattern_osu.sh)}/c/mpi/pt2pt/standard
runs=${RUNS:-5}
build=${BUILD:-build}
nrep=${NREP:-1000}
out=${1:-bench/results/pattern_latency}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[ -x "$osu/osu_latency" ] || { echo "pattern_latency.sh: $osu/osu_latency: not built" >&2; exit 2; }
[ -x "$build/harmonia" ] || { echo "pattern_latency.sh: build $build/harmonia first" >&2; exit 2; }
mkdir -p "$out"
hm=("$build/harmonia" pattern --ranks-per-node 1 --sizes 8 --nrep "$nrep")
# The median time of a pattern's own row (not its MPI baseline), in us.
pattern_us() {
    csv_cols "$1" '$c["measured"] == "pattern" && $c["size_bytes"] == 8' median_s |
        awk '{ print $1 * 1e6 }'
}
cols="osu pingpong rail rail_win self_mpi self_host"
echo "round $cols" | tr ' ' '\t' >"$out/runs.tsv"
for r in $(seq 1 "$runs"); do
    timeout 300 mpirun -n 2 "$osu/osu_latency" -m 8:8 -i "$nrep" >"$out/osu.$r.txt"
    timeout 300 mpirun -n 2 "$build/harmonia" bench --ops pingpong --sizes 8 --nrep "$nrep" \
        --output "$out/pingpong.$r.csv" >/dev/null
    timeout 300 mpirun -n 2 "${hm[@]}" --pattern rail --output "$out/rail.$r.csv" >/dev/null
    timeout 300 mpirun -n 2 "${hm[@]}" --pattern rail --sync window --output "$out/rail_win.$r.csv" >/dev/null
    timeout 300 mpirun -n 2 "${hm[@]}" --pattern self --output "$out/self_mpi.$r.csv" >/dev/null
    timeout 300 mpirun -n 2 "${hm[@]}" --pattern self --backend host --output "$out/self_host.$r.csv" >/dev/null
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$r" \
        "$(awk '$1 == 8 { print $2 }' "$out/osu.$r.txt")" \
        "$(csv_cols "$out/pingpong.$r.csv" '$c["op"] == "pingpong"' median_s | awk '{ print $1 * 1e6 }')" \
        "$(pattern_us "$out/rail.$r.csv")" "$(pattern_us "$out/rail_win.$r.csv")" \
        "$(pattern_us "$out/self_mpi.$r.csv")" "$(pattern_us "$out/self_host.$r.csv")" >>"$out/runs.tsv"
done
# median [min, max] of a column of numbers on stdin (mawk has no asort)
stat() {
    sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                                       printf "%.3f [%.3f, %.3f]", m, v[1], v[NR] }'
}
{
    printf '8 B, %d rounds (us)    median [min, max]\n' "$runs"
    c=2
    for name in $cols; do
        printf '%-22s %s\n' "$name" "$(awk -v c=$c 'NR > 1 { print $c }' "$out/runs.tsv" | stat)"
        c=$((c + 1))
    done
    printf '%-22s %s\n' "rail / osu" "$(awk 'NR > 1 { print $4 / $2 }' "$out/runs.tsv" | stat)"
    printf '%-22s %s\n' "rail / pingpong" "$(awk 'NR > 1 { print $4 / $3 }' "$out/runs.tsv" | stat)"
    printf '%-22s %s\n' "rail_win / osu" "$(awk 'NR > 1 { print $5 / $2 }' "$out/runs.tsv" | stat)"
} | tee "$out/summary.txt"
