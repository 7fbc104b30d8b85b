#!/usr/bin/env bash
# Usage errors: exit status 2, the message once (by one rank), every rank
# exits (each run is bounded by a timeout, so a hang fails the test).
. "$(dirname "$0")/lib.sh"

expect_usage 0 'no command given'
expect_usage 0 'unknown command "frobnicate" (known: timers, clock, bench, skew, overlap, pattern, version, stats, campaign, compare, plot, trace, help)' frobnicate
expect_usage 2 'unknown command "frobnicate"' frobnicate
expect_usage 0 'unknown command "bogus"' help bogus
expect_usage 2 '--timer: unknown time source "sundial" (known: wtime, monotonic, monotonic_raw, realtime, gettimeofday, tsc)' timers --timer sundial
expect_usage 3 '--timer: unknown time source "sundial"' timers --timer sundial
expect_usage 2 'unknown option "--timre" (did you mean --timer?)' timers --timre monotonic
expect_usage 2 '--sizes (-m) is not an option of '"'"'timers'"'" timers --sizes 8
expect_usage 2 '--seed: "abc" is not a seed' timers --seed abc
expect_usage 2 '--seed: "-3" is not a seed' timers --seed -3
expect_usage 2 'unexpected argument "extra"' timers extra
expect_usage 2 '--output: "/nonexistent-dir/t.csv": directory "/nonexistent-dir" does not exist' timers --timer monotonic --output /nonexistent-dir/t.csv
expect_usage 2 '--synthetic-clock: "offset=x"' timers --synthetic-clock offset=x
expect_usage 2 '--tsc-ghz: only meaningful with --timer tsc' timers --timer realtime --tsc-ghz 2
# Options: full names only, each given once; suggestions name only options
# of the command (version has no --root, campaign no --sizes).
expect_usage 0 'unknown option "--foo" (see' version --foo
expect_usage 0 'unknown option "--se" (did you mean --seed? abbreviations are not accepted)' campaign --se 3
expect_usage 0 '--runs (-n): given twice ("5", then "7")' campaign -n 5 --runs 7
expect_usage 2 'unknown option "--s" (ambiguous: --seed, --synthetic-clock; abbreviations are not accepted)' timers --s 1
expect_usage 2 '--seed: given twice ("1", then "2")' timers --seed 1 --per-rank --seed 2

expect_ok 0 'harmonia ' --version
expect_ok 0 '--timer NAME' help timers
# help is a command the list names: its help is the overview (issue 31)
expect_ok 0 'usage: harmonia COMMAND [options]' help help
expect_ok 2 'usage: mpirun -n P harmonia timers' timers --help
expect_ok 0 'MPI:' version
# Help texts list choices from the library's tables: none is left unexpanded.
for cmd in timers clock bench skew version stats campaign compare plot; do
    launch 0 help "$cmd"
    if [ "$status" -eq 0 ] && ! grep -Eq '\{(timer|clock-sync|offset|drift|sync|ops|filter|metric|alternative|statistic),?\}' "$out"; then
        ok "help $cmd: every choice list expanded"
    else
        fail "help $cmd: exit $status or an unexpanded {choice}:"
        sed 's/^/    | /' "$out" >&2
    fi
done
launch 2 --version
n=$(grep -c '^harmonia ' "$out")
[ "$status" -eq 0 ] && [ "$n" -eq 1 ] && ok "--version under 2 ranks prints once" \
    || fail "--version under 2 ranks: exit $status, printed $n times"
finish
