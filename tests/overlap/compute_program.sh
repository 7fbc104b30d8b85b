#!/usr/bin/env bash
# tests/overlap/compute_program.sh — harmonia-compute, the compute kernel
# without MPI: it loads no MPI library, refuses bad options with exit status
# 2 and exactly one error line (naming the option, the value and the limit),
# and a good run prints one positive time per thread and repetition.
# Environment (set by CTest): HARMONIA_COMPUTE.
set -u
prog=${HARMONIA_COMPUTE:?}
checks=0 failures=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
ok() { checks=$((checks + 1)); echo "ok: $*"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL: $*" >&2; }
launch() { timeout -k 5 30 "$prog" "$@" >"$out" 2>&1; status=$?; }

# The MPI impact ratio compares this program with the same kernel under MPI:
# no MPI library may be loaded here, not even indirectly.
if ldd "$prog" | grep -qiE 'libmpi|libmpich|libopen-(rte|pal)'; then
    fail "harmonia-compute loads an MPI library: $(ldd "$prog" | grep -iE 'mpi|open-(rte|pal)')"
else
    ok "harmonia-compute loads no MPI library"
fi

# The cores this process may run on, as the program reports them.
launch --size 1 --reps 1
cores=$(sed -n 's/^# threads: [0-9]* of \([0-9]*\) cores$/\1/p' "$out")
if [ "$status" -eq 0 ] && [ -n "$cores" ] && [ "$cores" -ge 1 ]; then
    ok "--threads 0 (default) runs on all $cores cores"
else
    fail "--size 1 --reps 1: exit $status, no core count:"
    sed 's/^/    | /' "$out" >&2
    cores=1
fi

# expect_usage "fragment" ARGS... : exit 2, one line in all, that line an
# error line with the fragment.
expect_usage() {
    local fragment=$1; shift
    launch "$@"
    local lines errors
    lines=$(wc -l <"$out")
    errors=$(grep -c '^harmonia-compute: error: ' "$out")
    if [ "$status" -eq 2 ] && [ "$lines" -eq 1 ] && [ "$errors" -eq 1 ] && grep -qF -- "$fragment" "$out"; then
        ok "harmonia-compute $* -> exit 2: $(cat "$out")"
    else
        fail "harmonia-compute $* -> exit $status, $lines lines, $errors error lines (expected \"$fragment\"):"
        sed 's/^/    | /' "$out" >&2
    fi
}

expect_usage "--threads: -1 must be 0 (one per core) or 1 to $cores" --size 10 --threads -1
expect_usage "--threads: $((cores + 1)) is more than the $cores core" --size 10 --threads $((cores + 1))
expect_usage '--threads: "two" is not a whole number' --size 10 --threads two
expect_usage '--size is required' --threads 1
expect_usage '--size: 0 must be at least 1' --size 0
expect_usage '--size: 99999999 is more than' --size 99999999
expect_usage '--reps: 0 must be 1 to 1000000' --size 10 --reps 0
expect_usage '--size: given twice ("10", then "20")' --size 10 --size=20
expect_usage '--reps: a value is required' --size 10 --reps
expect_usage 'unknown option "--thread"' --size 10 --thread 1
expect_usage 'unexpected argument "500"' --size 10 500

# A good run: R x T rows, threads 0..T-1 R times each, every time positive.
threads=$((cores < 2 ? cores : 2))
launch --size 120 --threads "$threads" --reps 3 --csv
rows=$(awk -F, -v t="$threads" '
    /^#/ || /^rep,/ { next }
    $2 >= 0 && $2 < t && $4 == 120 && $5 > 0 && $6 > 0 { n[$2]++; good++ }
    END { for (i = 0; i < t; i++) if (n[i] != 3) { print -1; exit } print good + 0 }' "$out")
if [ "$status" -eq 0 ] && [ "$rows" -eq $((3 * threads)) ] && grep -qx 'rep,thread,core,n,time_s,gflops' "$out"; then
    ok "--threads $threads --reps 3 --csv: $rows positive times, 3 per thread"
else
    fail "--threads $threads --reps 3 --csv: exit $status, $rows good rows of $((3 * threads)):"
    sed 's/^/    | /' "$out" >&2
fi
launch --size 120 --reps 2
rows=$(awk '$1 ~ /^[0-9]+$/ && NF == 6 && $5 > 0' "$out" | wc -l)
if [ "$status" -eq 0 ] && [ "$rows" -eq $((2 * cores)) ]; then
    ok "table: $rows rows (2 repetitions x $cores threads)"
else
    fail "table: exit $status, $rows rows of $((2 * cores)):"
    sed 's/^/    | /' "$out" >&2
fi
launch --help
[ "$status" -eq 0 ] && grep -q '^usage: harmonia-compute' "$out" && ok "--help" || fail "--help: exit $status"

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
