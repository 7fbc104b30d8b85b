#!/usr/bin/env bash
# A busy machine and a quiet one, each pinned so that the verdict does not
# depend on what else this machine runs:
#  - busy: a CPU-bound process pinned to CPU 0 (taskset) beside the ranks
#    leaves fewer free processors than runnable threads, which the probe
#    counts whatever other load there is: the run says so on stderr once,
#    records "interference: busy (...)" in every file, derives and caps the
#    late-start tolerance, gives each experiment the budget of 2 x nrep + 32
#    attempts, and an experiment short of --nrep is a partial row, exit 0;
#  - quiet: HARMONIA_INTERFERENCE_PROBE_S=0 measures nothing, so a run that
#    falls short of --nrep fails (exit 1) with one sentence naming the
#    attempts, the discarded starts' spread, the tolerance, the machine and
#    what to change; --allow-partial keeps its row instead.
# Shortfalls by construction: --inject-delay makes attempt 3 late on rank
# 1, so --max-attempts 50 --nrep 50 gives at most 49 valid; a 1 ns window
# (--sync window --window-us 0.001) is overrun by every attempt.
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d)
competitor=
trap '[ -n "$competitor" ] && kill "$competitor" 2>/dev/null; rm -rf "$dir" "$out"' EXIT
cd "$dir" || exit 1
show() { sed 's/^/    | /' "$out" >&2; }
has_taskset=1
command -v taskset >/dev/null || has_taskset=0

# --- the environment variable: a bad value is a usage error --------------------
export HARMONIA_INTERFERENCE_PROBE_S=abc
expect_usage 2 'HARMONIA_INTERFERENCE_PROBE_S: "abc" is not a probe length (seconds, 0 to 10' \
    bench --nrep 5
export HARMONIA_INTERFERENCE_PROBE_S=11
expect_usage 2 'HARMONIA_INTERFERENCE_PROBE_S: "11" is not a probe length' timers

# --- quiet (no probe): a shortfall is an error that says what to change ----------
export HARMONIA_INTERFERENCE_PROBE_S=0
launch 2 bench --max-attempts 50 --nrep 50 --inject-delay 1:3:300 --ops allreduce --sizes 8 \
    --output q.csv
msg=$(grep 'harmonia: error:' "$out")
[ "$status" -eq 1 ] && [ "$(grep -c 'harmonia: error:' "$out")" -eq 1 ] &&
    echo "$msg" | grep -qE 'allreduce 8 B: only [0-9]+ of --nrep 50 repetitions were valid after 50 attempts' &&
    echo "$msg" | grep -qF 'the machine: not measured (2 ranks' &&
    echo "$msg" | grep -qF 'late-start tolerance of 1 us' &&
    echo "$msg" | grep -qF 'Give --late-us above the spread, --max-attempts to keep trying'
check $? "quiet shortfall: exit 1, one sentence with the counts, the machine, what to change" \
    "exit $status: $msg"
[ "$(factor q.csv interference)" = "not measured (2 ranks, 2 processors)" ] ||
    [ "$(factor q.csv interference)" = "not measured (2 ranks, $(nproc) processors)" ]
check $? "quiet: the file says the interference was not measured" "$(factor q.csv interference)"

launch 2 bench --max-attempts 50 --nrep 50 --inject-delay 1:3:300 --ops allreduce --sizes 8 \
    --output qa.csv --allow-partial
csv_awk qa.csv '{ n++; if ($col["valid"] < 50 && $col["valid"] + $col["invalid"] == 50 &&
                          $col["end"] == "attempts") good++ }
    END { exit !(st == 0 && n == 1 && good == 1) }' -v st="$status"
check $? "quiet shortfall with --allow-partial: exit 0, the row kept (valid + invalid = 50, end attempts)" \
    "exit $status"
grep -q '^PARTIAL: allreduce 8 B: [0-9]* of --nrep 50 valid repetitions (the attempts ran out)$' "$out"
check $? "quiet shortfall with --allow-partial: a PARTIAL line under the table"

launch 2 bench --sync window --window-us 0.001 --max-attempts 40 --nrep 20 --ops allreduce \
    --sizes 1K
msg=$(grep 'harmonia: error:' "$out")
[ "$status" -eq 1 ] && echo "$msg" | grep -qF 'only 0 of --nrep 20 repetitions were valid after 40 attempts' &&
    echo "$msg" | grep -qF -- '--sync window: window='
check $? "every attempt overran a 1 ns window: exit 1, and the sentence says what the method did" \
    "exit $status: $msg"

launch 2 pattern --pattern rail --ranks-per-node 1 --sizes 8 --max-attempts 30 --nrep 30 \
    --sync window --window-us 0.001
msg=$(grep 'harmonia: error:' "$out")
[ "$status" -eq 1 ] && echo "$msg" | grep -qF '8 B: only 0 of --nrep 30 repetitions were valid after 30 attempts'
check $? "pattern, quiet shortfall: exit 1 with the same sentence" "exit $status: $msg"
unset HARMONIA_INTERFERENCE_PROBE_S

# --- busy: a competitor pinned beside the ranks --------------------------------
if [ "$has_taskset" -eq 0 ]; then
    echo "skipped: busy machine (no taskset)"
    finish
    exit
fi
taskset -c 0 sh -c 'while :; do :; done' &
competitor=$!

launch 2 bench --ops allreduce --sizes 8,64K --nrep 100 --output b.csv --raw br.csv
inter=$(factor b.csv interference)
[ "$status" -eq 0 ] && case "$inter" in "busy (rank "*"other runnable thread"*) true ;; *) false ;; esac
check $? "busy: exit 0, the factor interference says busy ($inter)" "exit $status"
[ "$(grep -c '^harmonia: the machine is busy (rank ' "$out")" -eq 1 ] &&
    grep -q "^harmonia: the machine is busy (.*): late-start tolerance [0-9]* us + the repetition.s run-time (measured p99 .* at most max(1 us, 0.5 x the run-time)); an experiment ends after 2 x --nrep attempts" "$out"
check $? "busy: one line on stderr with the figures and what was chosen"
grep -q 'on 2 ranks (BUSY: 2 ranks on ' "$out"
check $? "busy: the table's header says BUSY"
src=$(factor b.csv late_us_source)
case "$src" in "derived ("*"at most max(1 us, 0.5 x the run-time); busy machine)") true ;; *) false ;; esac
check $? "busy: late_us_source derived, capped, because the machine is busy" "$src"
[ "$(factor b.csv max_attempts)" = "232 (the budget of a busy machine: 2 x nrep + 32)" ]
check $? "busy: the factor max_attempts is the budget" "$(factor b.csv max_attempts)"
[ "$(factor br.csv interference)" = "$inter" ]
check $? "busy: the raw file carries the same interference"
# Every row: its counts add up within the budget, its end says why it
# stopped, its discarded median is there exactly when something was
# discarded, and conditional exactly when more than half were.
csv_awk b.csv '{ n++; v = $col["valid"]; d = $col["invalid"]; e = $col["end"]
        if (v + d > 232 || (e == "nrep") != (v == 100) || (e != "nrep" && e != "budget")) bad++
        if ((d > 0) != ($col["discarded_median_s"] != "")) bad++
        if ($col["conditional"] != (d > (v + d) / 2 ? 1 : 0)) bad++ }
    END { exit !(n == 2 && bad == 0) }'
check $? "busy: valid + discarded within the budget; end, discarded_median_s, conditional agree"
for k in $(csv_awk b.csv '{ if ($col["end"] == "budget") print $col["op"] "_" $col["size_bytes"] }'); do
    grep -q "^PARTIAL: ${k%_*} ${k#*_} B: [0-9]* of --nrep 100 valid repetitions (the attempts budget of a busy machine, 232, was spent)" "$out"
    check $? "busy: $k spent the budget: a PARTIAL line"
done

# A shortfall on a busy machine is a partial row, exit 0, without --allow-partial.
launch 2 bench --max-attempts 50 --nrep 50 --inject-delay 1:3:300 --ops allreduce --sizes 8 \
    --output bp.csv
csv_awk bp.csv '{ n++; if ($col["valid"] <= 49 && $col["valid"] + $col["invalid"] == 50) good++ }
    END { exit !(st == 0 && n == 1 && good == 1) }' -v st="$status"
check $? "busy shortfall: exit 0, the row written with its counts" "exit $status"
[ "$(factor bp.csv max_attempts)" = "50 (given)" ] && [ "$(factor bp.csv complete)" != yes ]
check $? "busy shortfall: max_attempts given, the file not complete" \
    "$(factor bp.csv max_attempts); $(factor bp.csv complete)"

# Every command that writes files records the interference.
launch 2 timers --output t.csv
case "$(factor t.csv interference)" in "busy ("*) true ;; *) false ;; esac
check $? "timers: interference busy in the file" "$(factor t.csv interference)"
[ "$(grep -c '^harmonia: the machine is busy (' "$out")" -eq 1 ]
check $? "timers: one line on stderr"
launch 2 clock --clock-sync skampi --fitpoints 50 --check-after 0 --output c.csv
case "$(factor c.csv interference)" in "busy ("*) true ;; *) false ;; esac
check $? "clock: interference busy in the file" "$(factor c.csv interference)"
launch 2 skew --nrep 50 --output s.csv
case "$(factor s.csv interference)" in "busy ("*) true ;; *) false ;; esac
check $? "skew: interference busy in the file, exit $status" "$(factor s.csv interference)"
launch 2 pattern --pattern rail --ranks-per-node 1 --sizes 8 --nrep 50 --output p.csv
case "$(factor p.csv interference)" in "busy ("*) true ;; *) false ;; esac
check $? "pattern: interference busy in the file, exit $status" "$(factor p.csv interference)"
csv_awk p.csv '{ n++; if ($col["valid"] + $col["invalid"] > 132 || $col["end"] == "") bad++ }
    END { exit !(st == 0 && n >= 1 && bad == 0) }' -v st="$status"
check $? "pattern: exit 0, every row within the budget, its end said" "exit $status"
finish
