#!/usr/bin/env bash
# bench/trace_ab.sh OLD_BUILD NEW_BUILD [PAIRS] — two tracers side by side:
# traced bench/trace_call loops (MPI_Iprobe an event a call, --polls each;
# Irecv + Send + Wait; the polling loops of 100 unsuccessful MPI_Test or
# MPI_Testany an iteration) under each build's libharmonia-trace.so and
# trace_call, in PAIRS (default 12) pairs run in ABBA order, so that
# neither build always runs first (on this VM the second run of a pair
# was up to 18 % faster with one build on both sides). Prints per loop
# the medians of each build's ns per iteration and the median of the
# per-pair ratios new/old.
set -u
old=$1 new=$2 pairs=${3:-12}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# one BUILD LOOP N [VAR=VALUE...]: ns per iteration, traced under BUILD.
one() {
    local build=$1 loop=$2 n=$3
    shift 3
    rm -rf "$tmp/dir"
    env "$@" HARMONIA_TRACE_DIR="$tmp/dir" HARMONIA_TRACE_FITPOINTS=50 \
        LD_PRELOAD="$build/libharmonia-trace.so" mpirun -n 1 "$build/bench/trace_call" "$n" "$loop"
}
compare() { # NAME LOOP N [VAR=VALUE...]
    local name=$1
    shift
    : >"$tmp/pairs"
    for i in $(seq "$pairs"); do
        if [ $((i % 2)) = 1 ]; then
            a=$(one "$old" "$@") b=$(one "$new" "$@")
        else
            b=$(one "$new" "$@") a=$(one "$old" "$@")
        fi
        echo "$a $b" >>"$tmp/pairs"
    done
    echo "$name: old $(cut -d' ' -f1 "$tmp/pairs" | median) ns, new $(cut -d' ' -f2 "$tmp/pairs" |
        median) ns, median of pairs new/old $(awk '{ print $2 / $1 }' "$tmp/pairs" | median)"
}
compare "MPI_Iprobe, an event a call" iprobe 1000000 HARMONIA_TRACE_POLLS=each
compare "Irecv + Send + Wait" request 200000
compare "polling loop (100 MPI_Test an iteration)" polling 20000
compare "polling loop (100 MPI_Testany on 1 request an iteration)" testany 20000
