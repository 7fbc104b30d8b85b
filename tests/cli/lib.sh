# tests/cli/lib.sh — helpers for tests that drive the harmonia program.
# Environment (set by CTest): HARMONIA, MPIEXEC, MPI_FLAVOR.
set -u
checks=0
failures=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT

ok()   { checks=$((checks + 1)); echo "ok: $*"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL: $*" >&2; }

# launch NP ARGS... : run harmonia on NP ranks (NP=0: without a launcher),
# bounded so that a hang fails the test; output in $out, status in $status.
launch() {
    local np=$1; shift
    local extra=()
    [ "$MPI_FLAVOR" = openmpi ] && [ "$np" -gt 2 ] && extra=(--oversubscribe)
    if [ "$np" -eq 0 ]; then
        timeout -k 5 60 "$HARMONIA" "$@" >"$out" 2>&1
    else
        timeout -k 5 60 "$MPIEXEC" -n "$np" "${extra[@]}" "$HARMONIA" "$@" >"$out" 2>&1
    fi
    status=$?
}

# expect_usage NP "message fragment" ARGS... : exit status 2, the fragment
# printed exactly once in one "harmonia: error:" line.
expect_usage() {
    local np=$1 fragment=$2; shift 2
    launch "$np" "$@"
    local n_err n_frag
    n_err=$(grep -c 'harmonia: error:' "$out")
    n_frag=$(grep -cF -- "$fragment" "$out")
    if [ "$status" -eq 2 ] && [ "$n_err" -eq 1 ] && [ "$n_frag" -eq 1 ]; then
        ok "np=$np harmonia $* -> exit 2, \"$fragment\" once"
    else
        fail "np=$np harmonia $* -> exit $status, $n_err error lines, fragment seen $n_frag times; output:"
        sed 's/^/    | /' "$out" >&2
    fi
}

# expect_ok NP "fragment" ARGS... : exit status 0 and fragment in the output.
expect_ok() {
    local np=$1 fragment=$2; shift 2
    launch "$np" "$@"
    if [ "$status" -eq 0 ] && grep -qF -- "$fragment" "$out"; then
        ok "np=$np harmonia $* -> exit 0 with \"$fragment\""
    else
        fail "np=$np harmonia $* -> exit $status; output:"
        sed 's/^/    | /' "$out" >&2
    fi
}

finish() {
    echo "$checks checks, $failures failed"
    [ "$failures" -eq 0 ] && [ "$checks" -gt 0 ]
}
