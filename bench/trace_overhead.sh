#!/usr/bin/env bash
# bench/trace_overhead.sh [BUILD] [RUNS] — what libharmonia-trace.so costs:
#  1. wrapped calls (bench/trace_call, medians of 5 rounds, RUNS mpiruns
#     each, interleaved): MPI_Iprobe untraced, traced an event a call
#     (--polls each) and in bursts (the default), the difference less two
#     reads of the tracer's timer (monotonic, as `harmonia timers`
#     measures its read cost): the tracer's own work, with the rank files
#     on the disk and (where /dev/shm is a tmpfs) in memory: 5 M events/s
#     of 64 B outrun a disk of 300 MB/s, and the kernel's write-back then
#     slows the copy into the page cache from ~15 ns to ~200 ns an event; a request made,
#     completed and tied to its wait (Irecv, Send, Wait); a polling loop
#     (100 unsuccessful MPI_Test an iteration) untraced, traced in bursts,
#     and with MPI_Test excluded (--exclude MPI_Test), as ratios;
#  2. a whole `harmonia bench` (allreduce, 8 B to 64 KiB, 1000 repetitions)
#     traced and untraced: wall time and the median run-times it reports.
# Prints medians over RUNS (default 5); the machine is shared and noisy.
set -u
build=${1:-build}
runs=${2:-5}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d)
mem=
[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && mem=$(mktemp -d -p /dev/shm)
trap 'rm -rf "$tmp" ${mem:+"$mem"}' EXIT
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
lib=$build/libharmonia-trace.so
# traced NAME LOOP N [VAR=VALUE...]: one traced run of trace_call into
# $tmp/NAME, its rank files in $dir.
dir=$tmp
traced() {
    local name=$1 loop=$2 n=$3
    shift 3
    rm -rf "$dir/dir"
    env "$@" HARMONIA_TRACE_DIR="$dir/dir" HARMONIA_TRACE_FITPOINTS=50 LD_PRELOAD="$lib" \
        mpirun -n 1 "$build/bench/trace_call" "$n" "$loop" >>"$tmp/$name"
    rm -rf "$dir/dir"
}
for i in $(seq "$runs"); do
    mpirun -n 1 "$build/bench/trace_call" 1000000 iprobe >>"$tmp/plain"
    traced each iprobe 1000000 HARMONIA_TRACE_POLLS=each
    [ -z "$mem" ] || { dir=$mem && traced each_mem iprobe 1000000 HARMONIA_TRACE_POLLS=each; dir=$tmp; }
    traced burst iprobe 1000000
    mpirun -n 1 "$build/bench/trace_call" 200000 request >>"$tmp/req_plain"
    traced req request 200000
    mpirun -n 1 "$build/bench/trace_call" 20000 polling >>"$tmp/poll_plain"
    traced poll polling 20000
    traced poll_ex polling 20000 HARMONIA_TRACE_EXCLUDE=MPI_Test
    mpirun -n 1 "$build/bench/trace_call" 20000 testany >>"$tmp/any_plain"
    traced any testany 20000
done
m() { median <"$tmp/$1"; }
read_ns=$(mpirun -n 1 "$build/harmonia" timers --timer monotonic --output "$tmp/timers.csv" >/dev/null &&
    awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        { print $c["overhead_s"] * 1e9 }' "$tmp/timers.csv")
echo "MPI_Iprobe: untraced $(m plain) ns, traced $(m each) ns an event a call, $(m burst) ns in bursts (medians of $runs runs of 5 x 1 M calls)"
awk -v p="$(m plain)" -v t="$(m each)" -v r="$read_ns" 'BEGIN {
    printf "tracer per call: %.1f ns; less two timer reads (%.1f ns each): %.1f ns\n", t - p, r, t - p - 2 * r }'
[ -z "$mem" ] || awk -v p="$(m plain)" -v t="$(m each_mem)" -v r="$read_ns" 'BEGIN {
    printf "  rank files in memory (tmpfs): traced %.1f ns, tracer per call %.1f ns, less two timer reads %.1f ns\n", t, t - p, t - p - 2 * r }'
echo "Irecv + Send + Wait (3 calls, a request record): untraced $(m req_plain) ns, traced $(m req) ns"
awk -v p="$(m poll_plain)" -v b="$(m poll)" -v x="$(m poll_ex)" 'BEGIN {
    printf "polling loop (100 unsuccessful MPI_Test an iteration): untraced %.0f ns, bursts %.0f ns (%.2f x), MPI_Test excluded %.0f ns (%.2f x)\n", p, b, b / p, x, x / p }'
awk -v p="$(m any_plain)" -v t="$(m any)" 'BEGIN {
    printf "polling loop with MPI_Testany (1 request): untraced %.0f ns, bursts %.0f ns (%.2f x)\n", p, t, t / p }'

# A whole bench run.
for i in $(seq "$runs"); do
    /usr/bin/time -f %e -o "$tmp/w" mpirun -n 2 "$build/harmonia" bench --ops allreduce \
        --sizes 8:64K:x8 --nrep 1000 --output "$tmp/u$i.csv" >/dev/null 2>&1
    cat "$tmp/w" >>"$tmp/wall_plain"
    /usr/bin/time -f %e -o "$tmp/w" "$build/harmonia" trace --fitpoints 50 --output "$tmp/b$i" -- \
        mpirun -n 2 "$build/harmonia" bench --ops allreduce --sizes 8:64K:x8 --nrep 1000 \
        --output "$tmp/v$i.csv" >/dev/null 2>&1
    cat "$tmp/w" >>"$tmp/wall_traced"
done
echo "harmonia bench allreduce 8 B-64 KiB x 1000, 2 ranks: wall $(median <"$tmp/wall_plain") s untraced," \
    "$(median <"$tmp/wall_traced") s traced (merge included)"
for size in 8 64 512 4096 32768; do
    for kind in u v; do
        for i in $(seq "$runs"); do
            awk -F, -v s=$size '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
                $c["size_bytes"] == s { print $c["median_s"] * 1e6 }' "$tmp/$kind$i.csv"
        done | median >"$tmp/m$kind"
    done
    echo "  $size B: median run-time $(cat "$tmp/mu") us untraced, $(cat "$tmp/mv") us traced"
done
