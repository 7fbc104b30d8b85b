#!/usr/bin/env bash
# bench/procsync.sh — how well, and at what cost, the process
# synchronizations start the ranks together (issue 4's performance table):
#
#  1. skew: exit skew of MPI_Barrier, harmonia's dissemination barrier and
#     hm_harmonize over 2000 back-to-back calls (as a benchmark loop calls
#     them), in true time (all ranks read one CLOCK_MONOTONIC): 2 ranks over
#     shared memory, 2 ranks over TCP (--mca btl self,tcp: behaves like a
#     network), the same with --clock-sync hca3+prop (the ranks of a node
#     share their leader's clock, as on a cluster; tcpprop), 4 ranks
#     oversubscribed on 2 cores. Median over REPS mpiruns of each statistic.
#  2. overhead: wall time of `bench --ops allreduce --sizes 8 --nrep 1000`
#     under harmonize against barrier: the experiment's own wall time
#     (wall_s of the summary CSV: warm-up, synchronizations, agreements) and
#     the whole mpirun's, medians over REPS runs.
#  3. reproducibility: allreduce and bcast at 8 B and 64 KiB in RUNS separate
#     mpiruns at 2 ranks under harmonize, roundtime and barrier; the spread
#     (max / min) of the per-run medians.
#
#   bench/procsync.sh [BUILD_DIR [OUT_DIR]]     (Open MPI; REPS=5 RUNS=10)
#
# Writes OUT_DIR/skew.csv, overhead.csv, campaigns/METHOD/ (harmonia campaign)
# and prints the tables.
# Takes about 5 minutes on 2 cores.
set -euo pipefail
. "$(dirname "$0")/csv.sh"
build=${1:-build}
out=${2:-bench/results/procsync}
mpirun=${MPIRUN:-mpirun}
reps=${REPS:-5}
runs=${RUNS:-10}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
f= # a run's scratch output, removed also when a run fails
trap 'rm -f "$f"' EXIT

launch() { # NP MCA_ARGS... -- HARMONIA_ARGS...
    local np=$1; shift
    local pre=()
    while [ "$1" != -- ]; do pre+=("$1"); shift; done
    shift
    [ "$np" -gt 2 ] && pre+=(--oversubscribe)
    timeout 600 "$mpirun" -n "$np" "${pre[@]}" "$build/harmonia" "$@"
}

rows() { # FILE PREFIX: the data rows of a harmonia CSV, prefixed
    grep -v '^#' "$1" | tail -n +2 | sed "s/^/$2,/"
}

median() { # reads numbers, prints their median
    sort -g | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

# ---- 1. exit skew ----
echo "setup,rep,method,repetitions,late_starts,missed,skew_median_s,skew_p90_s,skew_p99_s,skew_max_s,true_skew_median_s,true_skew_p90_s,true_skew_p99_s,true_skew_max_s,cost_s,valid_skew_median_s,valid_skew_p90_s,valid_skew_p99_s,valid_skew_max_s,valid_true_skew_median_s,valid_true_skew_p90_s,valid_true_skew_p99_s,valid_true_skew_max_s" >"$out/skew.csv"
for setup in shm tcp tcpprop np4; do
    extra=()
    case $setup in
    shm) np=2 mca=() ;;
    tcp) np=2 mca=(--mca btl self,tcp) ;;
    tcpprop) np=2 mca=(--mca btl self,tcp) extra=(--clock-sync hca3+prop) ;;
    np4) np=4 mca=() ;;
    esac
    for rep in $(seq "$reps"); do
        f=$(mktemp)
        launch "$np" "${mca[@]}" -- skew --sync barrier,dissem,harmonize --back-to-back \
            --nrep 2000 "${extra[@]}" --output "$f" >/dev/null
        rows "$f" "$setup,$rep" >>"$out/skew.csv"
        rm -f "$f"
    done
done

# ---- 2. overhead of harmonize against barrier ----
echo "rep,sync,wall_s,mpirun_wall_s,valid,invalid,median_s" >"$out/overhead.csv"
for rep in $(seq "$reps"); do
    for sync in barrier harmonize; do
        f=$(mktemp)
        t0=$(date +%s.%N)
        launch 2 -- bench --ops allreduce --sizes 8 --nrep 1000 --sync "$sync" \
            --output "$f" >/dev/null
        t1=$(date +%s.%N)
        csv_cols "$f" 1 wall_s valid invalid median_s |
            awk -v rep="$rep" -v s="$sync" -v t0="$t0" -v t1="$t1" \
                '{ print rep "," s "," $1 "," (t1 - t0) "," $2 "," $3 "," $4 }' >>"$out/overhead.csv"
        rm -f "$f"
    done
done

# ---- 3. reproducibility over separate mpiruns: one campaign per method ----
# (harmonia campaign: RUNS mpiruns, a seed each, Alg. 6 per-mpirun medians;
# its reproducibility.csv holds each run's median / the smallest.)
rm -rf "$out/campaigns"
mkdir -p "$out/campaigns"
for sync in harmonize roundtime barrier; do
    timeout 1800 "$build/harmonia" campaign -n "$runs" --dir "$out/campaigns/$sync" -- \
        "$mpirun" -n 2 "$build/harmonia" bench --ops allreduce,bcast --sizes 8,64K --nrep 1000 \
        --sync "$sync" >/dev/null 2>"$out/campaigns/$sync.log" ||
        { cat "$out/campaigns/$sync.log" >&2; exit 1; }
done

# ---- tables ----
col() { # FILE FILTER_AWK COLUMN: median of a column over the rows matching
    awk -F, "NR > 1 && $2 {print \$$3}" "$1" | median
}
echo "exit skew, back-to-back calls, true clock: median over $reps mpiruns (us); all calls, then"
echo "the valid ones (without the missed: what bench keeps)"
printf "%-6s %-10s %10s %10s %10s %12s %9s %10s %10s %10s\n" setup method median p90 p99 cost_us missed \
    v_median v_p90 v_p99
for setup in shm tcp tcpprop np4; do
    for m in barrier dissem harmonize; do
        f="\$1 == \"$setup\" && \$3 == \"$m\""
        printf "%-6s %-10s %10.3f %10.3f %10.3f %12.2f %9s %10.3f %10.3f %10.3f\n" "$setup" "$m" \
            "$(col "$out/skew.csv" "$f" 11 | awk '{print $1 * 1e6}')" \
            "$(col "$out/skew.csv" "$f" 12 | awk '{print $1 * 1e6}')" \
            "$(col "$out/skew.csv" "$f" 13 | awk '{print $1 * 1e6}')" \
            "$(col "$out/skew.csv" "$f" 15 | awk '{print $1 * 1e6}')" \
            "$(col "$out/skew.csv" "$f" 6)" \
            "$(col "$out/skew.csv" "$f" 20 | awk '{print $1 * 1e6}')" \
            "$(col "$out/skew.csv" "$f" 21 | awk '{print $1 * 1e6}')" \
            "$(col "$out/skew.csv" "$f" 22 | awk '{print $1 * 1e6}')"
    done
done
echo
echo "overhead: allreduce 8 B, 1000 valid repetitions, 2 ranks (median over $reps runs)"
for sync in barrier harmonize; do
    printf "%-10s experiment %.4f s   mpirun %.3f s   median latency %.3f us\n" "$sync" \
        "$(col "$out/overhead.csv" "\$2 == \"$sync\"" 3)" \
        "$(col "$out/overhead.csv" "\$2 == \"$sync\"" 4)" \
        "$(col "$out/overhead.csv" "\$2 == \"$sync\"" 7 | awk '{print $1 * 1e6}')"
done
hb=$(col "$out/overhead.csv" '$2 == "barrier"' 3)
hh=$(col "$out/overhead.csv" '$2 == "harmonize"' 3)
mb=$(col "$out/overhead.csv" '$2 == "barrier"' 4)
mh=$(col "$out/overhead.csv" '$2 == "harmonize"' 4)
awk -v a="$hh" -v b="$hb" -v c="$mh" -v d="$mb" \
    'BEGIN {printf "ratio harmonize / barrier: experiment %.2fx, whole mpirun %.2fx\n", a / b, c / d}'
echo
echo "reproducibility: spread (max / min) of the per-run medians over $runs mpiruns"
for sync in harmonize roundtime barrier; do
    "$build/harmonia" compare "$out/campaigns/barrier" "$out/campaigns/$sync" 2>/dev/null |
        awk -v s="$sync" '$1 == "op" { on = 1; if (s == "harmonize") printf "%-10s %-10s %8s %10s %8s\n", "sync", "op", "size", "median_us", "spread"; next }
            on && NF >= 12 { printf "%-10s %-10s %8d %10.3f %8.3f\n", s, $1, $2, $7, $10 }'
done
echo
echo "harmonize against barrier, Wilcoxon on the $runs per-mpirun medians:"
"$build/harmonia" compare "$out/campaigns/barrier" "$out/campaigns/harmonize"
