#!/usr/bin/env bash
# bench/clocksync.sh — accuracy against duration of every clock
# synchronization algorithm (Hunold & Carpen-Amarie 2016, Fig. 8), and duration against the
# number of ranks (log p for the tree algorithms, p for skampi and jk).
#
#   bench/clocksync.sh [BUILD_DIR [OUT_DIR]]
#
# Clocks are synthetic (offset +-1 s, drift +-100 ppm over CLOCK_MONOTONIC),
# so the true error of every rank's global clock is known. Writes
# OUT_DIR/tradeoff.csv, OUT_DIR/scaling.csv, OUT_DIR/tradeoff.{svg,png} and
# prints medians. Takes about 10 minutes on 2 cores (each point waits 10 s).
set -euo pipefail
build=${1:-build}
out=${2:-bench/results/clocksync}
mpirun=${MPIRUN:-mpirun}
reps=${REPS:-3}
mkdir -p "$out"
if [ "${SUMMARY_ONLY:-0}" != 1 ]; then
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
synth=(--synthetic-clock offset=1,drift=1e-4 --seed 7)

run() { # NP OUTFILE ARGS...
    local np=$1 file=$2; shift 2
    local extra=()
    [ "$np" -gt 2 ] && extra=(--oversubscribe)
    timeout 600 "$mpirun" -n "$np" "${extra[@]}" "$build/harmonia" clock "${synth[@]}" \
        --output "$file" "$@" >/dev/null
}

# Keep the data rows of a harmonia CSV, prefixed with the given fields.
rows() { # FILE PREFIX
    grep -v '^#' "$1" | tail -n +2 | sed "s/^/$2,/"
}

echo "np,rep,fitpoints,exchanges,clock_sync,after_s,duration_s,drift_models,offset_models,nsampled,offset_max_s,offset_median_s,truth_known,true_max_s,true_median_s,level_models" >"$out/tradeoff.csv"
for np in 2 4; do
    for rep in $(seq "$reps"); do
        for fp in 100 500; do
            for ex in 10 100; do
                [ "$np" -eq 4 ] && [ "$fp" -eq 500 ] && [ "$ex" -eq 100 ] && continue
                f=$(mktemp)
                run "$np" "$f" --clock-sync skampi,netgauge,jk,hca,hca2,hca3 \
                    --fitpoints "$fp" --exchanges "$ex" --check-after 0,10
                rows "$f" "$np,$rep,$fp,$ex" >>"$out/tradeoff.csv"
                rm -f "$f"
            done
        done
    done
done

echo "np,rep,clock_sync,after_s,duration_s,drift_models,offset_models,nsampled,offset_max_s,offset_median_s,truth_known,true_max_s,true_median_s,level_models" >"$out/scaling.csv"
for np in 2 3 4 6 8; do
    for rep in $(seq "$reps"); do
        f=$(mktemp)
        run "$np" "$f" --clock-sync skampi,netgauge,jk,hca,hca2,hca3 --check-after 0
        rows "$f" "$np,$rep" >>"$out/scaling.csv"
        rm -f "$f"
    done
done

fi

# Medians over repetitions (POSIX awk and sort: no gawk needed).
median_by_key() { # reads "key<TAB>value" lines, prints "key,median"
    sort -t "$(printf '\t')" -k1,1 -k2,2g |
        awk -F '\t' '$1 != k { if (n) print k "," v[int((n + 1) / 2)]; k = $1; n = 0 }
                     { v[++n] = $2 } END { if (n) print k "," v[int((n + 1) / 2)] }'
}
echo "np,fitpoints,exchanges,clock_sync,duration_ms,true_max_us_at_0s,true_max_us_at_10s (medians)"
join -t, \
    <(awk -F, 'NR > 1 && $6 == 0 { printf "%s;%s;%s;%s\t%.3f\n", $1, $3, $4, $5, $7 * 1e3 }' \
        "$out/tradeoff.csv" | median_by_key) \
    <(join -t, \
        <(awk -F, 'NR > 1 && $6 == 0 { printf "%s;%s;%s;%s\t%.4f\n", $1, $3, $4, $5, $14 * 1e6 }' \
            "$out/tradeoff.csv" | median_by_key) \
        <(awk -F, 'NR > 1 && $6 == 10 { printf "%s;%s;%s;%s\t%.4f\n", $1, $3, $4, $5, $14 * 1e6 }' \
            "$out/tradeoff.csv" | median_by_key)) |
    tr ';' ',' | sort -t, -k1,1n -k4,4 -k2,2n -k3,3n | column -t -s,
echo
echo "clock_sync,np,duration_ms (median)"
awk -F, 'NR > 1 { printf "%s;%s\t%.3f\n", $3, $1, $5 * 1e3 }' "$out/scaling.csv" | median_by_key |
    tr ';' ',' | sort -t, -k1,1 -k2,2n | column -t -s,

# Figure: true error 10 s after synchronization against its duration, 2 ranks.
if command -v gnuplot >/dev/null; then
    for term in svg png; do
        gnuplot <<GP
set datafile separator ","
set terminal $term size 900,600
set output "$out/tradeoff.$term"
set logscale xy
set xlabel "synchronization duration (ms)"
set ylabel "max true error 10 s later (us)"
set title "Clock synchronization: accuracy vs duration (2 ranks, synthetic drift +-100 ppm)"
set key outside right
plot for [a in "skampi netgauge jk hca hca2 hca3"] \
    "$out/tradeoff.csv" using (\$1 == 2 && strcol(5) eq a && \$6 == 10 ? \$7 * 1e3 : 1/0):(\$14 * 1e6) \
    with points pointsize 1.5 title a
GP
    done
fi
