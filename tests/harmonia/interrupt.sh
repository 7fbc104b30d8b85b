#!/usr/bin/env bash
# Interrupted runs (docs/results.md): after SIGINT or SIGTERM to the
# launcher, no temporary file is left, and the files under the final names
# are the last checkpoints, whose factor "complete" says how far the run got;
# a finished run says "complete: yes".
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out"' EXIT
cd "$dir" || exit 1

# interrupt SIGNAL : start a long bench, wait for its first checkpoint, send
# SIGNAL to the launcher, and check what is left.
interrupt() {
    local sig=$1 pid t0
    local extra=()
    [ "$MPI_FLAVOR" = openmpi ] && extra=(--oversubscribe)
    rm -f s.csv r.csv
    # The launcher itself gets the signal (not a timeout wrapper, which
    # would exit before the ranks are gone); a watchdog bounds the run.
    "$MPIEXEC" -n 2 "${extra[@]}" "$HARMONIA" bench --ops allreduce,bcast \
        --sizes 8:1M --nrep 5000 --output s.csv --raw r.csv >"$out" 2>&1 &
    pid=$!
    # Bounds for a hang, not for the machine's speed: the first experiment
    # (5000 repetitions) took 26 s beside 4 busy loops and a full ctest on 2
    # cores; they scale with HM_TEST_TIMEOUT_SCALE (lib.sh).
    (sleep "$(scaled 120)" && kill -KILL "$pid") >/dev/null 2>&1 &
    local watchdog=$! limit
    limit=$(scaled 60) t0=$SECONDS
    # The first checkpoint of both files (the raw one follows the summary).
    while { [ ! -s s.csv ] || [ ! -s r.csv ]; } && [ $((SECONDS - t0)) -lt "$limit" ]; do
        sleep 0.1
    done
    [ -s s.csv ] && [ -s r.csv ]
    check $? "SIG$sig: the first checkpoint of both files within $limit s (after $((SECONDS - t0)) s)"
    kill -"$sig" "$pid"
    wait "$pid"
    local status=$? temps
    pkill -P "$watchdog" sleep 2>/dev/null
    kill "$watchdog" 2>/dev/null
    # MPICH's mpiexec can return before its ranks have handled the signal:
    # wait (20 s at most, scaled) until no rank of this run is left.
    limit=$(scaled 20) t0=$SECONDS
    while pgrep -f -- "--output s.csv --raw r.csv" >/dev/null && [ $((SECONDS - t0)) -lt "$limit" ]; do
        sleep 0.1
    done
    temps=$(ls -A | grep -c '\.tmp\.')
    [ "$temps" -eq 0 ]
    check $? "SIG$sig: $temps temporary files left (0; launcher exit $status)"
    # 2 ops x 18 sizes (8 B to 1 MiB) = 36 experiments, interrupted before the end.
    awk '/^# complete: no \([0-9]+ of 36 experiments\)$/ { k = substr($4, 2) + 0
         if (k >= 1 && k < 36) n++ } END { exit n != 2 }' s.csv r.csv
    check $? "SIG$sig: both files say how far the run got" "$(grep -h '^# complete' s.csv r.csv)"
}
interrupt INT
interrupt TERM

launch 2 bench --ops allreduce --sizes 8 --nrep 20 --output s.csv --raw r.csv
[ "$status" -eq 0 ] && grep -qx '# complete: yes' s.csv && grep -qx '# complete: yes' r.csv
check $? "a finished run: complete: yes in both files"
finish
