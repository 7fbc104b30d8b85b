#!/usr/bin/env bash
# bench/clocksync.sh — accuracy against duration of every clock
# synchronization algorithm (Hunold & Carpen-Amarie 2016, Fig. 8), and duration against the
# number of ranks (log p for the tree algorithms, p for skampi and jk).
#
#   bench/clocksync.sh [BUILD_DIR [OUT_DIR]]
#
# Clocks are synthetic (offset +-1 s, drift +-100 ppm over CLOCK_MONOTONIC),
# so the true error of every rank's global clock is known. Writes
# OUT_DIR/tradeoff.csv, OUT_DIR/scaling.csv, OUT_DIR/tradeoff.{svg,png},
# OUT_DIR/refine.csv and prints medians. Takes about 20 minutes on 2 cores
# (each point waits 10 s).
#
# refine (issue 34) against hca3 at 500 x 100, interleaved, RUNS (10) runs
# quiet and RUNS beside two CPU-bound processes: the ready time (sync_ms),
# the refinements and their cost up to each check, the true error at
# checks 0, 1, 2, 5 and 10 s after, which fall between refinements.
#
# PARTS (default "tradeoff scaling refine") picks the measurements to run;
# the summary reads what OUT_DIR holds. PARTS=refine takes about 5 minutes.
set -euo pipefail
build=${1:-build}
out=${2:-bench/results/clocksync}
mpirun=${MPIRUN:-mpirun}
reps=${REPS:-3}
runs=${RUNS:-10}
parts=" ${PARTS:-tradeoff scaling refine} "
part() { case $parts in *" $1 "*) return 0 ;; esac; return 1; }
mkdir -p "$out"
. "$(dirname "$0")/csv.sh"
if [ "${SUMMARY_ONLY:-0}" != 1 ]; then
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
synth=(--synthetic-clock offset=1,drift=1e-4 --seed 7)
f= # the run's scratch output, removed also when a run fails
pids=() # the busy loops, stopped also when a run fails
trap 'rm -f "$f"; [ "${#pids[@]}" -eq 0 ] || kill "${pids[@]}" 2>/dev/null' EXIT

run() { # NP OUTFILE ARGS...
    local np=$1 file=$2; shift 2
    local extra=()
    [ "$np" -gt 2 ] && extra=(--oversubscribe)
    timeout 600 "$mpirun" -n "$np" "${extra[@]}" "$build/harmonia" clock "${synth[@]}" \
        --output "$file" "$@" >/dev/null
}

# Append the data rows of a harmonia CSV to OUT, prefixed with the given
# fields; the first time, its header prefixed with their names, so that the
# columns are the file's own whatever its schema holds.
rows() { # FILE OUT NAMES VALUES
    [ -s "$2" ] || grep -v '^#' "$1" | head -1 | sed "s/^/$3,/" >"$2"
    grep -v '^#' "$1" | tail -n +2 | sed "s/^/$4,/" >>"$2"
}

if part tradeoff; then
rm -f "$out/tradeoff.csv"
for np in 2 4; do
    for rep in $(seq "$reps"); do
        for fp in 100 500; do
            for ex in 10 100; do
                [ "$np" -eq 4 ] && [ "$fp" -eq 500 ] && [ "$ex" -eq 100 ] && continue
                f=$(mktemp)
                run "$np" "$f" --clock-sync skampi,netgauge,jk,hca,hca2,hca3 \
                    --fitpoints "$fp" --exchanges "$ex" --check-after 0,10
                rows "$f" "$out/tradeoff.csv" np,rep,fitpoints,exchanges "$np,$rep,$fp,$ex"
                rm -f "$f"
            done
        done
    done
done
fi

if part scaling; then
rm -f "$out/scaling.csv"
for np in 2 3 4 6 8; do
    for rep in $(seq "$reps"); do
        f=$(mktemp)
        run "$np" "$f" --clock-sync skampi,netgauge,jk,hca,hca2,hca3 --check-after 0
        rows "$f" "$out/scaling.csv" np,rep "$np,$rep"
        rm -f "$f"
    done
done

fi

# refine against hca3, quiet and beside two busy loops (stopped by PID).
if part refine; then
rm -f "$out/refine.csv"
for load in quiet busy; do
    pids=()
    if [ "$load" = busy ]; then
        sh -c 'while :; do :; done' & pids+=($!)
        sh -c 'while :; do :; done' & pids+=($!)
    fi
    for r in $(seq "$runs"); do
        f=$(mktemp)
        run 2 "$f" --clock-sync refine,hca3 --fitpoints 500 --exchanges 100 \
            --check-after 0,1,2,5,10
        rows "$f" "$out/refine.csv" load,run "$load,$r"
        rm -f "$f"
    done
    [ "${#pids[@]}" -eq 0 ] || kill "${pids[@]}"
    pids=()
done
fi

fi

# Medians over repetitions (POSIX awk and sort: no gawk needed).
median_by_key() { # reads "key<TAB>value" lines, prints "key,median"
    sort -t "$(printf '\t')" -k1,1 -k2,2g |
        awk -F '\t' '$1 != k { if (n) print k "," v[int((n + 1) / 2)]; k = $1; n = 0 }
                     { v[++n] = $2 } END { if (n) print k "," v[int((n + 1) / 2)] }'
}
# key_value FILE CONDITION KEY_COLUMNS VALUE_COLUMN SCALE: "k1;k2;...<TAB>value x SCALE"
# for the rows where the awk CONDITION holds (columns as $c["name"]), by
# column name; an empty value (refinements of an algorithm that makes none)
# is "-".
key_value() {
    awk -F, -v keys="$3" -v val="$4" -v s="$5" '/^#/ { next }
        !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; nk = split(keys " " val, k, " ")
             for (i = 1; i <= nk; i++) if (!(k[i] in c)) { print "key_value: no column " k[i] > "/dev/stderr"; exit 2 }
             nk--; next }
        '"$2"' { key = $c[k[1]]; for (i = 2; i <= nk; i++) key = key ";" $c[k[i]]
                 v = $c[val]; if (v == "") printf "%s\t-\n", key; else printf "%s\t%.4f\n", key, v * s }' "$1"
}
if [ -s "$out/tradeoff.csv" ]; then
tradeoff_key="np fitpoints exchanges clock_sync"
echo "np,fitpoints,exchanges,clock_sync,duration_ms,true_max_us_at_0s,true_max_us_at_10s (medians)"
join -t, \
    <(key_value "$out/tradeoff.csv" '$c["after_s"] == 0' "$tradeoff_key" duration_s 1e3 | median_by_key) \
    <(join -t, \
        <(key_value "$out/tradeoff.csv" '$c["after_s"] == 0' "$tradeoff_key" true_max_s 1e6 |
            median_by_key) \
        <(key_value "$out/tradeoff.csv" '$c["after_s"] == 10' "$tradeoff_key" true_max_s 1e6 |
            median_by_key)) |
    tr ';' ',' | sort -t, -k1,1n -k4,4 -k2,2n -k3,3n | column -t -s,
echo
fi
if [ -s "$out/scaling.csv" ]; then
echo "clock_sync,np,duration_ms (median)"
key_value "$out/scaling.csv" '$c["after_s"] == 0' "clock_sync np" duration_s 1e3 | median_by_key |
    tr ';' ',' | sort -t, -k1,1 -k2,2n | column -t -s,
echo
fi
if [ -s "$out/refine.csv" ]; then
echo "load,clock_sync,after_s: median ready ms, refinements, refine ms, true max us; largest true max us over the runs"
for what in duration_s:1e3 refinements:1 refine_cost_s:1e3 true_max_s:1e6; do
    key_value "$out/refine.csv" 1 "load clock_sync after_s" "${what%%:*}" "${what##*:}" | median_by_key
done | awk -F, '{ v[$1] = v[$1] (v[$1] == "" ? "" : ",") $2; if (!($1 in seen)) { seen[$1] = 1; o[++n] = $1 } }
    END { for (i = 1; i <= n; i++) print o[i] "," v[o[i]] }' |
    join -t, - <(key_value "$out/refine.csv" 1 "load clock_sync after_s" true_max_s 1e6 |
        sort -t "$(printf '\t')" -k1,1 -k2,2g | awk -F '\t' '{ m[$1] = $2 } END { for (k in m) print k "," m[k] }' |
        sort -t, -k1,1) |
    tr ';' ',' | sort -t, -k1,1 -k2,2 -k3,3g | column -t -s,
fi

# Figure: true error 10 s after synchronization against its duration, 2 ranks.
if command -v gnuplot >/dev/null && [ -s "$out/tradeoff.csv" ]; then
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
