#!/usr/bin/env bash
# harmonia trace against the truth, at 2 ranks (precision): ranks arrive at
# MPI_Allreduce at injected, known true times under synthetic clocks
# (offsets up to 1 s, drifts up to 100 ppm); trace_check compares.
. "$(dirname "$0")/../harmonia/lib.sh"
app=$1 check=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out"' EXIT
extra=()
[ "$MPI_FLAVOR" = openmpi ] && extra=(--bind-to none)
seed=7

# trace SYNC NAME ROUNDS GAP: traced run of the truth app into $dir/NAME.
trace() {
    timeout -k 5 120 "$HARMONIA" trace --clock-sync "$1" \
        --synthetic-clock offset=1,drift=1e-4 --seed $seed --output "$dir/$2" -- \
        "$MPIEXEC" -n 2 "${extra[@]}" "$app" truth "$dir/$2.truth" "$3" "$4" >"$out" 2>&1
    status=$?
}

# pair_error_s : the clock error between two ranks that the tracer's own
# checker reported (its order line), in seconds; empty when not reported.
pair_error_s() {
    sed -n 's/^order of events across ranks: clock error between two ranks up to \([0-9.]*\) us.*/\1/p' \
        "$out" | awk '{ printf "%.9f\n", $1 * 1e-6 }'
}

# verify MODE SYNC ROUNDS GAP QUIET_US WHAT: trace under SYNC and check MODE
# against the truth; one retry (a precision test). When both tries miss the
# precision on a machine that disturbed the synchronization, the tracer
# must have said so: its reported error above QUIET_US (what the sync
# reaches here quiet, with margin) and the trace within twice that.
verify() {
    local mode=$1 sync=$2 rounds=$3 gap=$4 quiet_us=$5 what=$6 try reported
    for try in 1 2; do
        rm -rf "${dir:?}/$sync" "$dir/$sync.truth"
        trace "$sync" "$sync" "$rounds" "$gap"
        if [ "$status" -ne 0 ]; then
            fail "traced the truth app under $sync: exit $status"
            cat "$out" >&2
            return
        fi
        [ "$try" = 1 ] && ok "traced the truth app under $sync: exit 0"
        [ "$mode" = truth ] && [ "$try" = 1 ] &&
            { grep -q "^MPI_Allreduce " "$out" && ok "summary lists MPI_Allreduce" || fail "summary: $(cat "$out")"; }
        "$check" "$mode" "$dir/$sync" "$dir/$sync.truth" $seed 1 1e-4 && { ok "$what"; return; }
        reported=$(pair_error_s)
        echo "try $try under $sync missed: $(grep -E '^(global clock|order of)' "$out" | tr '\n' ' ')$(interference)"
    done
    # Twice the reported error: the checker measures with ping-pongs on the
    # same disturbed machine, off by up to half a round trip itself, as
    # large as what it reports (seen: 1800 us reported, 1852 us true).
    if [ -n "$reported" ] && awk -v r="$reported" -v q="$quiet_us" 'BEGIN { exit !(r > q * 1e-6) }'; then
        "$check" "$mode" "$dir/$sync" "$dir/$sync.truth" $seed 1 1e-4 \
            "$(awk -v r="$reported" 'BEGIN { printf "%.9f", 2 * r }')" &&
            ok "$what: not reached twice on this busy machine, and the tracer said so (clock error up to $(awk -v r="$reported" 'BEGIN { printf "%.3f", r * 1e6 }') us); the trace is within twice that" ||
            fail "$what: not even within the error the tracer reported (above)"
    else
        fail "$what (above): the tracer reported a clock error of ${reported:-nothing} s"
    fi
}

# hca3 reaches 0.001-0.02 us between two ranks here quiet: 1 us is far above.
verify truth hca3 20 0.01 1 "entries on the global clock"
# refine (issue 34), the tracer's default: 16 offsets per rank at
# MPI_Init, 16 more at MPI_Finalize, the line through them: as close as
# hca3 (0.010 us against 0.006 us median here).
verify truth refine 20 0.01 1 "entries on the global clock under refine (16 offsets at each end)"
# Offset-only synchronization (skampi), 3.1 s of rounds: the drift builds up
# (to about 55 us for seed 7's draws, against a few us of skampi's own error).
# Its checks right after each synchronization: 0.01-0.03 us quiet.
verify drift skampi 16 0.2 1 "interpolation against extrapolation"
echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
