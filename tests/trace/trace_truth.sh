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

trace hca3 hca3 20 0.01
[ "$status" -eq 0 ] && ok "traced the truth app under hca3: exit 0" ||
    { fail "traced the truth app under hca3: exit $status"; cat "$out" >&2; }
grep -q "^MPI_Allreduce " "$out" && ok "summary lists MPI_Allreduce" || fail "summary: $(cat "$out")"
"$check" truth "$dir/hca3" "$dir/hca3.truth" $seed 1 1e-4 && ok "entries on the global clock" ||
    fail "entries on the global clock (above)"

# Offset-only synchronization (skampi), 3.1 s of rounds: the drift builds up
# (to about 55 us for seed 7's draws, against a few us of skampi's own error).
trace skampi skampi 16 0.2
[ "$status" -eq 0 ] && ok "traced the truth app under skampi: exit 0" ||
    { fail "traced under skampi: exit $status"; cat "$out" >&2; }
"$check" drift "$dir/skampi" "$dir/skampi.truth" $seed 1 1e-4 &&
    ok "interpolation against extrapolation" || fail "interpolation against extrapolation (above)"
echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
