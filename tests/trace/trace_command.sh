#!/usr/bin/env bash
# harmonia trace, functional: 1 M events at 2 ranks through many flushes;
# the communicators of an application at 2, 3 and 4 ranks; a rank killed
# in the middle; bad input refused with exit 2 and one message.
. "$(dirname "$0")/../harmonia/lib.sh"
app=$1 check=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out"' EXIT
cd "$dir" || exit 1
# MPICH busy-polls: with more ranks than cores, yield (README.md).
[ "$MPI_FLAVOR" = mpich ] && export MPIR_CVAR_POLLS_BEFORE_YIELD=1
mpi() {
    local np=$1; shift
    local extra=()
    [ "$MPI_FLAVOR" = openmpi ] && extra=(--bind-to none) &&
        [ "$np" -gt 2 ] && extra+=(--oversubscribe)
    echo "$MPIEXEC" -n "$np" "${extra[@]}"
}
fast=(--fitpoints 50 --exchanges 10)
t_begin=$(date +%s) # the OTF2 archives' dates fall after it

# --- 1 M events at 2 ranks, a buffer of 16384 events -----------------------
# --polls each: every unsuccessful MPI_Iprobe an event of its own.
HARMONIA_TRACE_BUFFER=16384 timeout -k 5 240 "$HARMONIA" trace "${fast[@]}" --polls each \
    --output flood -- $(mpi 2) "$app" flood 500000 >"$out" 2>&1
status=$?
[ "$status" -eq 0 ] && ok "flood: exit 0" || { fail "flood: exit $status"; cat "$out" >&2; }
"$check" flood flood 500000 && ok "every event and every flush in trace.csv" ||
    fail "flood events (above)"
grep -q "^MPI_T_flush " "$out" && ok "the flushes are in the summary" || fail "no MPI_T_flush row"
python3 -c 'import json,sys; d=json.load(open("flood/trace.json")); sys.exit(len(d["traceEvents"]) < 1000000)' &&
    ok "trace.json parses as JSON, every event in it" || fail "trace.json"
# The last line sizes the trace: the rank files' bytes as stat counts them,
# the bytes an event, the merged files.
python3 - "$out" <<'PY' && ok "written: the rank files' true size, bytes an event, events/s a rank" ||
import glob, os, re, sys
line = [l for l in open(sys.argv[1]) if l.startswith("written:")]
m = re.search(r"rank files ([\d.]+) MB, trace\.csv [\d.]+ MB.*\((\d+) B an event.*; ([\d.e+]+) events/s a rank", line[-1] if line else "")
true_mb = sum(os.path.getsize(f) for f in glob.glob("flood/rank-*.events")) / 1e6
# 1 M events and their flushes: the bytes an event as the rank files hold them
ok = m and abs(float(m.group(1)) - true_mb) <= 0.05 + 1e-9 and \
    abs(int(m.group(2)) - true_mb * 1e6 / 1000000) <= 2 and float(m.group(3)) > 0
sys.exit(0 if ok else print(line, true_mb) or 1)
PY
    fail "the written: line (above)"

# --- every kind of communicator, window and file ----------------------------
# trace_app objects: idup, create_group, an intercommunicator (its leaders'
# message, a barrier over both groups, merged), a distributed graph, a
# window and a file, each used by a collective: every collective found on
# all the members of its communicator (2 and 3 ranks: groups of unequal
# size), the intercommunicator's message paired, the put's target right.
for np in 2 3; do
    if oversubscribing "$np"; then
        echo "skipped: objects np=$np ($left_out_why)"
        skips=$((skips + 1))
        continue
    fi
    timeout -k 5 "$(scaled 120)" "$HARMONIA" trace "${fast[@]}" --output obj$np -- \
        $(mpi $np) "$app" objects >"$out" 2>&1
    status=$?
    [ "$status" -eq 0 ] && grep -Eq "^collectives: [0-9]+ found on every member of their communicator$" "$out" &&
        grep -q "^messages: 2 matched; received before sent: 0 on the global clock" "$out" &&
        awk -F, -v np=$np '/^#/ { next } !head { head = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
            $c["function"] == "MPI_Put" { puts++; if ($c["peer"] != ($c["rank"] + 1) % np) bad++ }
            $c["function"] ~ /^MPI_(Win_fence|File_write_at_all|Intercomm_merge|Neighbor_allgather)$/ { seen[$c["function"]]++ }
            END { exit !(puts == np && !bad && length(seen) == 4) }' obj$np/trace.csv &&
        ok "objects np=$np: every collective on all its members (idup, create_group, intercomm, dist graph, window, file), the intercomm message paired" ||
        { fail "objects np=$np: exit $status"; cat "$out" >&2; }
done

# --- calls on more requests than the tracer keeps on its stack (16) ---------
# 40 requests a call, 20 of them receives from any source: every request
# completed once (its own MPI_T_completed record, the first of a call's
# carried in the call's record in the rank files), every receive's source
# read from the status the tracer supplied, every message matched.
timeout -k 5 "$(scaled 120)" "$HARMONIA" trace "${fast[@]}" --output many -- \
    $(mpi 3) "$app" many 6 >"$out" 2>&1
status=$?
awk -F, '/^#/ { next } !head { head = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["function"] == "MPI_Irecv" { recv[$c["rank"] " " $c["request"]] = 1 }
    $c["function"] == "MPI_T_completed" { done[$c["rank"] " " $c["request"]]++; n++
        if (($c["rank"] " " $c["request"]) in recv && $c["peer"] != ($c["rank"] + 2) % 3) bad++ }
    END { for (k in done) if (done[k] != 1) bad++
          exit !(n == 3 * 6 * 40 && length(done) == n && !bad) }' many/trace.csv &&
    grep -q '^messages: 360 matched; received before sent: 0 on the global clock' "$out"
check $? "40 requests a call (Waitall, Testsome): 720 completed once each, sources resolved, 360 messages matched" \
    "exit $status, $(cat "$out")"

# --- polls in bursts (the default) and the filters ---------------------------
# The same 500000 unsuccessful probes a rank are one event each, the count
# in its calls column and in the summary's calls; --exclude drops them.
timeout -k 5 "$(scaled 120)" "$HARMONIA" trace "${fast[@]}" --output burst -- \
    $(mpi 2) "$app" flood 500000 >"$out" 2>&1
awk -F, '/^#/ { next } !head { head = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["function"] == "MPI_Iprobe" { n++; calls += $c["calls"] }
    END { exit !(n == 2 && calls == 1000000) }' burst/trace.csv &&
    grep -Eq "^MPI_Iprobe +1000000 " "$out" &&
    ok "polls: 500000 unsuccessful probes a rank are one burst each, 1000000 calls in the summary" ||
    { fail "polls: bursts"; cat "$out" >&2; }
# A burst's polls after the first read the timer at every 16th only: its
# exit is that of poll 1 + 16j, within the app's own readings around it
# (trace_app bursts; the same clock, so to the printed nanosecond), and its
# calls column counts every poll. A burst timed at every poll (K = 40:
# 39 ms) would miss the bound by 7 ms.
timeout -k 5 "$(scaled 120)" "$HARMONIA" trace "${fast[@]}" --output bursts -- \
    $(mpi 2) "$app" bursts >"$out" 2>&1
awk 'FNR == NR { if ($1 == "burst") { lo[$2] = $3; hi[$2] = $4 }; next }
    /^#/ { next }
    !head { head = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["rank"] == 0 && $c["function"] == "MPI_Test" && ($c["calls"] in lo) && $c["calls"] > 1 {
        k = $c["calls"]; span = $c["exit_local_s"] - $c["enter_local_s"]; seen++
        if (span < lo[k] - 2e-9 || span > hi[k] + 2e-9) { bad++; printf "K=%d: span %.9f not in [%.9f, %.9f]\n", k, span, lo[k], hi[k] }
    }
    END { exit !(seen == 4 && !bad) }' "$out" FS=, bursts/trace.csv >>"$out" &&
    ok "bursts of 15, 16, 17, 40 tests: every poll counted, the exit the 1 + 16j-th poll's" ||
    { fail "burst exits"; cat "$out" >&2; }
timeout -k 5 "$(scaled 120)" "$HARMONIA" trace "${fast[@]}" --exclude 'MPI_*probe' \
    --during-s 0:3600 --output excluded -- $(mpi 2) "$app" patterns 2 >"$out" 2>&1
! grep -q "probe" excluded/trace.csv && grep -q "^MPI_Mrecv " "$out" &&
    grep -q "^messages: 28 matched;" "$out" &&
    ok "--exclude 'MPI_*probe': no probe recorded, the messages still matched" ||
    { fail "--exclude"; cat "$out" >&2; }
timeout -k 5 "$(scaled 120)" "$HARMONIA" trace "${fast[@]}" --during-s 3000:3600 \
    --output late -- $(mpi 2) "$app" patterns 2 >"$out" 2>&1
! grep -q "MPI_Sendrecv" late/trace.csv && ! grep -q "^messages:" "$out" &&
    ok "--during-s 3000:3600: nothing of a short run recorded" || { fail "--during-s"; cat "$out" >&2; }

# --- receives from any source, the status ignored --------------------------
# The tracer substitutes its own status, so every MPI_Recv and MPI_Probe
# names the rank it matched: in a ring, the one before. 3 ranks (any source
# has a choice to make), 2 on a machine too busy to oversubscribe.
np=3
oversubscribing 3 && np=2
timeout -k 5 "$(scaled 120)" "$HARMONIA" trace "${fast[@]}" --output ring -- \
    $(mpi $np) "$app" ring 20 >"$out" 2>&1
status=$?
[ "$status" -eq 0 ] && ok "ring: exit 0" || { fail "ring: exit $status"; cat "$out" >&2; }
awk -F, -v np=$np '/^#/ { next } !head { head = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["function"] == "MPI_Recv" || $c["function"] == "MPI_Probe" {
        n[$c["function"]]++
        if ($c["peer"] != ($c["rank"] + np - 1) % np) { bad++; print "wrong peer: " $0 }
    }
    END { exit !(bad == 0 && n["MPI_Recv"] == 20 * np && n["MPI_Probe"] == 10 * np) }' \
    ring/trace.csv && ok "ring: every receive and probe from any source names its sender ($np ranks)" ||
    fail "ring: the receives' peers (above)"

# --- messages matched on the records themselves ---------------------------
# trace_app patterns: per rank and round 7 messages through a Cartesian
# grid (Sendrecv, Sendrecv_replace, Irecv from any source with any tag
# under Waitall, persistent requests, Mprobe/Mrecv, Irecv polled by
# Testany). Every one is paired with its receive from the records alone,
# none is left over, and on clocks up to 1 s and 50 ppm apart (so that
# even messages slowed by oversubscription to milliseconds cross them) the
# local times break the clock condition (issue 30).
patterns_trace() { # NP DIR
    timeout -k 5 "$(scaled 120)" "$HARMONIA" trace "${fast[@]}" \
        --synthetic-clock offset=1,drift=5e-5 --output "$2" -- \
        $(mpi "$1") "$app" patterns 20 >"$out" 2>&1
}
for np in 2 4; do
    if oversubscribing "$np"; then
        echo "skipped: patterns np=$np ($left_out_why)"
        skips=$((skips + 1))
        continue
    fi
    patterns_trace $np pat$np
    status=$?
    want=$((7 * 20 * np))
    # How many the global clock gets wrong is precision (test_trace_hpcc:
    # 0 with the default fit points); here, with 50 and oversubscribed
    # ranks (MPICH, 4 on 2 cores: 51 of 560 by up to 3.8 us, the clock
    # checked at 22.8 us), the summary must say so: a count above 0 is
    # NOT TRUSTED and a warning.
    line=$(grep "^messages:" "$out")
    global=$(sed -n 's/.*received before sent: \([0-9]*\) on the global clock.*/\1/p' <<<"$line")
    [ "$status" -eq 0 ] && grep -Eq "^messages: $want matched; received before sent: [0-9]+ on the global clock( \(up to [0-9.]+ us\))?, [1-9][0-9]* on local clocks" <<<"$line" &&
        { [ "$global" = 0 ] || { grep -q "^order of events.*: NOT TRUSTED$" "$out" &&
            grep -q "warning: $global of $want messages were received before they were sent" "$out"; }; } &&
        ok "patterns np=$np: $want messages matched, none left, some received before sent on local clocks ($global on the global one, said so)" ||
        { fail "patterns np=$np: exit $status, want $want matched"; cat "$out" >&2; }
done
# The records say who: each Sendrecv's receive names its left neighbour,
# each completed request of an Irecv from any source with any tag the
# rank and tag it matched, and
# trace.json draws one arrow a message.
python3 - pat2 <<'PY' && ok "patterns: Sendrecv's both sides, resolved Irecv records, one arrow a message" ||
import csv, json, sys
d = sys.argv[1]
rows = list(csv.DictReader(l for l in open(d + "/trace.csv") if not l.startswith("#")))
sr = [r for r in rows if r["function"] == "MPI_Sendrecv"]
made = {}  # a rank's request number -> the call that made it
for r in rows:
    if r["request"] != "0" and r["function"] not in ("MPI_T_completed", "MPI_T_started"):
        made.setdefault((r["rank"], r["request"]), r)
done = [r for r in rows if r["function"] == "MPI_T_completed" and
        made[(r["rank"], r["request"])]["function"] == "MPI_Irecv" and
        made[(r["rank"], r["request"])]["tag"] == "-1"]
ok = (len(sr) == 40 and all(int(r["recv_peer"]) == 1 - int(r["rank"]) and r["recv_tag"] == "10" for r in sr)
      and len(done) == 80 and all(int(r["peer"]) == 1 - int(r["rank"]) and
                                  r["tag"][0] in "23" and len(r["tag"]) == 2 for r in done))
ev = json.load(open(d + "/trace.json"))["traceEvents"]
starts = sum(e.get("ph") == "s" for e in ev)
finishes = sum(e.get("ph") == "f" for e in ev)
ok = ok and starts == finishes == 280
sys.exit(0 if ok else print(len(sr), len(done), starts, finishes) or 1)
PY
    fail "patterns: records (above)"

# --- the communicators of an application at 2, 3 and 4 ranks ---------------
for np in 2 3 4; do
    if oversubscribing "$np"; then
        echo "skipped: np=$np ($left_out_why)"
        skips=$((skips + 3))
        continue
    fi
    timeout -k 5 "$(scaled 120)" "$HARMONIA" trace "${fast[@]}" --output comm$np -- \
        $(mpi $np) "$app" truth comm$np.truth 5 0.002 >"$out" 2>&1
    status=$?
    [ "$status" -eq 0 ] && ok "np=$np: exit 0" || { fail "np=$np: exit $status"; cat "$out" >&2; }
    "$check" rounds comm$np comm$np.truth && ok "np=$np: both communicators' calls" ||
        fail "np=$np: calls (above)"
    # 5 rounds on MPI_COMM_WORLD and on each of the split's 2 halves.
    awk '$1 == "MPI_Allreduce" && $5 == 15 { found = 1 } END { exit !found }' "$out" &&
        ok "np=$np: 15 allreduce calls matched across their communicators' ranks" ||
        fail "np=$np: summary $(cat "$out")"
done

# --- communicator keys: 64-bit hashes, unsigned in trace.csv and a string in
# trace.json (a JSON number is a double to JavaScript: exact below 2^53 only)
python3 - comm2 <<'PY' && ok "comm keys: the split's in trace.csv and trace.json alike, unsigned, JSON strings" ||
import csv, json, sys
d = sys.argv[1]
rows = [r for r in csv.reader(l for l in open(d + "/trace.csv") if not l.startswith("#"))]
col = rows[0].index("comm")
csv_keys = {r[col] for r in rows[1:]}
events = [e for e in json.load(open(d + "/trace.json"))["traceEvents"] if "comm" in e.get("args", {})]
json_keys = {e["args"]["comm"] for e in events}
ok = (all(isinstance(k, str) and k.isdigit() for k in json_keys) and
      all(k.isdigit() for k in csv_keys) and json_keys <= csv_keys and
      any(int(k) > 2**53 for k in csv_keys))
sys.exit(0 if ok else print(sorted(csv_keys)[:5], sorted(json_keys)[:5]) or 1)
PY
    fail "comm keys (above)"

# --- trace merge DIR: the same trace files again from the rank files -------
rows_before=$(grep -vc '^#' comm2/trace.csv)
cp comm2/trace.csv comm2-first.csv
rm -rf comm2/trace.csv comm2/trace.json comm2/otf2
timeout -k 5 60 "$HARMONIA" trace merge comm2 >"$out" 2>&1
status=$?
[ "$status" -eq 0 ] && [ "$(grep -vc '^#' comm2/trace.csv)" -eq "$rows_before" ] &&
    cmp -s <(grep -v '^#' comm2/trace.csv) <(grep -v '^#' comm2-first.csv) && [ -s comm2/trace.json ] &&
    grep -q "^ranks 2 (2 finished)" "$out" &&
    ok "trace merge comm2: exit 0, trace.csv as the run's merge wrote it ($rows_before lines), its summary" ||
    fail "trace merge comm2: exit $status, $(cat "$out")"
# --files: only the files asked for are written (the others left as they
# were), the first line and the sizes name just those; none: the summary
# alone, the same figures.
rm -rf comm2/trace.json comm2/otf2 comm2/events.csv
timeout -k 5 60 "$HARMONIA" trace merge --files csv comm2 >"$out" 2>&1
status=$?
[ "$status" -eq 0 ] && [ ! -e comm2/trace.json ] && [ ! -e comm2/events.csv ] && [ ! -e comm2/otf2 ] &&
    cmp -s <(grep -v '^#' comm2/trace.csv) <(grep -v '^#' comm2-first.csv) &&
    grep -q '^trace: comm2 (trace.csv)$' "$out" && grep -q '^written: rank files [0-9.]* [kMG]*B, trace.csv ' "$out" &&
    ! grep -q 'trace.json\|events.csv\|otf2' "$out" &&
    ok "trace merge --files csv: trace.csv alone, as before, and said so" ||
    fail "trace merge --files csv: exit $status, $(cat "$out"; ls comm2)"
grep -v '^trace:\|^written:' "$out" >files-csv.txt
timeout -k 5 60 "$HARMONIA" trace merge --files none comm2 >"$out" 2>&1
status=$?
[ "$status" -eq 0 ] && [ ! -e comm2/trace.json ] && grep -q '^trace: comm2 (no merged file: --files none)$' "$out" &&
    cmp -s files-csv.txt <(grep -v '^trace:\|^written:' "$out") &&
    ok "trace merge --files none: the same summary, no file" ||
    fail "trace merge --files none: exit $status, $(cat "$out")"
for bad in xml csv,,json ''; do
    timeout -k 5 60 "$HARMONIA" trace merge --files "$bad" comm2 >"$out" 2>&1
    [ $? -eq 2 ] && [ "$(grep -c "harmonia: error: --files: .*csv, json, events, otf2, all, none)" "$out")" -eq 1 ] &&
        ok "trace merge --files '$bad': exit 2, said once with the names" ||
        fail "trace merge --files '$bad': $(cat "$out")"
done
timeout -k 5 60 "$HARMONIA" trace merge comm2 >"$out" 2>&1 && [ -s comm2/trace.json ] && [ -s comm2/events.csv ] ||
    fail "trace merge comm2 again: $(cat "$out")"
timeout -k 5 60 "$HARMONIA" trace merge >"$out" 2>&1
[ $? -eq 2 ] && [ "$(grep -c 'harmonia: error: merge: which trace?' "$out")" -eq 1 ] &&
    ok "trace merge without DIR: exit 2, said once" || fail "trace merge: $(cat "$out")"
timeout -k 5 60 "$HARMONIA" trace --clock-sync skampi merge comm2 >"$out" 2>&1
[ $? -eq 2 ] && grep -q -- '--clock-sync: merge reads what the run wrote' "$out" &&
    ok "trace merge --clock-sync: refused, it applies to a run" || fail "trace merge --clock-sync: $(cat "$out")"

# --- events.csv: the calls as bench repetitions, read by harmonia stats ---
# 5 rounds: 5 allreduces on MPI_COMM_WORLD and 5 on each half of the split
# (one rank each at 2 ranks), every one found on all its members: 15 rows.
timeout -k 5 60 "$HARMONIA" stats comm2/events.csv >"$out" 2>&1
status=$?
[ "$status" -eq 0 ] && awk '$1 == "MPI_Allreduce" && $2 == 8 && $5 == 15 { f = 1 } END { exit !f }' "$out" &&
    ok "stats reads events.csv: 15 MPI_Allreduce calls of 8 B" || fail "stats events.csv: $(cat "$out")"

# --- OTF2, where the build has it (scripts/install-deps installs it and
# otf2-print): every call an Enter in the archive ------------------------------
if command -v otf2-print >/dev/null; then
    rows=$(grep -v '^#' comm2/trace.csv | tail -n +2 | wc -l)
    enters=$(otf2-print comm2/otf2/traces.otf2 2>/dev/null | grep -c '^ENTER')
    [ "$rows" -gt 0 ] && [ "$rows" -eq "$enters" ] &&
        ok "OTF2: otf2-print reads $enters Enter events, one per call of trace.csv" ||
        fail "OTF2: $enters Enter events for $rows calls"
    # The archive says when and where: its first event's date (rank 0's
    # realtime at MPI_Init on the global clock) within this script's run,
    # the creator, rank 0's host.
    when=$(otf2-print -G comm2/otf2/traces.otf2 2>/dev/null | sed -n 's/.*CLOCK_PROPERTIES.*Date: \(.*\)$/\1/p')
    at=$(date -d "$when" +%s 2>/dev/null || echo 0)
    [ "$at" -ge "$t_begin" ] && [ "$at" -le "$(date +%s)" ] &&
        ok "OTF2: the clock properties' date $when is within this run" ||
        fail "OTF2: date \"$when\" not between $(date -d @"$t_begin") and now"
    anchor=$(otf2-print -A comm2/otf2/traces.otf2 2>/dev/null)
    grep -qE "^Creator +harmonia " <<<"$anchor" &&
        grep -qE "^Machine name +$(hostname)\$" <<<"$anchor" &&
        ok "OTF2: creator harmonia, machine name $(hostname)" || fail "OTF2 anchor: $anchor"
fi

# --- the order of events across ranks: clock error against latency ---------
# The tracer's default clock on one node (refine, here with 50 offsets at
# each end: --fitpoints): the line gives both figures, and its verdict
# follows from them; a warning only with "NOT TRUSTED".
timeout -k 5 "$(scaled 120)" "$HARMONIA" trace "${fast[@]}" --output order -- \
    $(mpi 2) "$app" truth order.truth 5 0.002 >"$out" 2>&1
line=$(grep '^order of events across ranks: clock error between two ranks up to ' "$out")
verdict=$(printf '%s\n' "$line" | awk '{ e = $13; l = $18
    if (e + 0 >= 0 && l + 0 > 0) print (e + 0 >= l + 0 ? "NOT TRUSTED" : "trusted") }')
warned=$(grep -c 'harmonia: warning: the global clock.s error between two ranks' "$out")
[ -n "$verdict" ] && [[ $line == *": $verdict" ]] &&
    [ "$warned" -eq "$([ "$verdict" = trusted ] && echo 0 || echo 1)" ]
check $? "the order line's verdict follows from its figures ($verdict), warned $warned times" \
    "$line; $(cat "$out")"
grep -q '^clock_sync: refine$' order/rank-00000.model
check $? "the clock synchronization on one node is refine by default" \
    "$(grep -h '^clock_sync' order/rank-*.model)"
# --fitpoints 50 under refine: 50 offsets per rank at each end, all of them
# (asked for: no time budget), in every model and in the summary.
[ "$(grep -h '^offsets: ' order/rank-*.model | sort -u)" = "offsets: 50 50 50" ] &&
    grep -q '^global clock cost: .*; refine: 50 offsets per rank at each end)$' "$out"
check $? "refine took the 50 offsets per rank asked for at each end, and the summary says so" \
    "$(grep -h '^offsets' order/rank-*.model); $(grep '^global clock cost' "$out")"
# A rank that took fewer (a busy machine's budget): the summary gives the
# fewest of any rank at each end, and says why (rank 1's model edited).
rm -rf cut && cp -r order cut && sed -i 's/^offsets: .*/offsets: 2 3 50/' cut/rank-00001.model
timeout -k 5 60 "$HARMONIA" trace merge --files none cut >"$out" 2>&1
grep -q '^global clock cost: .*; refine: 2 and 3 of 50 offsets per rank, a busy machine: each end.s stop after 0.25 s)$' "$out"
check $? "fewer offsets than asked on one rank: the summary says how many and why" \
    "$(grep '^global clock cost' "$out")"
# What the clock cost the run (issue 34): each rank's model records its
# time on the clock at MPI_Init and MPI_Finalize, the summary the largest.
cost=$(sed -n 's/^global clock cost: \([0-9.]*\) ms at MPI_Init and MPI_Finalize .*/\1/p' "$out")
most=$(awk '$1 == "clock_cost_s:" { if ($2 > m) m = $2 } END { printf "%.1f", m * 1e3 }' order/rank-*.model)
[ -n "$cost" ] && [ "$cost" = "$most" ] && awk -v c="$cost" 'BEGIN { exit !(c > 0) }'
check $? "the summary's clock cost ($cost ms) is the largest of the ranks' models ($most ms)" \
    "$(grep -E '^global clock' "$out"); $(grep -h clock_cost order/rank-*.model)"
# A clock read with 20 us of jitter (skampi): checked errors of microseconds
# between the ranks, far above a shared-memory message's latency (0.2-0.5 us
# here, a few us on a loaded machine): not trusted, warned once, on stderr.
# One retry: the latency is the least of 200 round trips, and on a machine
# much busier than its cores all of them can wait for a time slice; the
# failure's first line gives the order line and the interference.
jitter_trace() {
    rm -rf jitter jitter.truth
    timeout -k 5 "$(scaled 120)" "$HARMONIA" trace --clock-sync skampi --exchanges 10 \
        --fitpoints 50 --synthetic-clock offset=1,drift=1e-4,jitter=20e-6 --output jitter -- \
        $(mpi 2) "$app" truth jitter.truth 5 0.002 >"$out" 2>err.txt
    status=$?
    [ "$status" -eq 0 ] && grep -q '^order of events across ranks: .*: NOT TRUSTED$' "$out" &&
        [ "$(grep -c 'a receive may appear before its send' err.txt)" -eq 1 ] &&
        ! grep -q 'a receive may appear' "$out"
}
jitter_trace || { echo "retry: 20 us jitter: $(interference)"; jitter_trace; }
check $? "20 us jitter: NOT TRUSTED, one warning on stderr" \
    "exit $status, $(grep '^order of events' "$out" || echo 'no order line'), $(interference); $(cat "$out" err.txt)"

# --- a rank killed in the middle --------------------------------------------
# 100 us apart: a flood at full speed leaves ~8 M events in the second
# before the launcher ends the other rank, and their merge took 83 s.
HARMONIA_TRACE_BUFFER=4096 timeout -k 5 "$(scaled 120)" "$HARMONIA" trace "${fast[@]}" --polls each \
    --output killed -- $(mpi 2) "$app" flood 100000000 0.0001 >"$out" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -s killed/rank-00001.events ] && break; sleep 0.1; done
sleep 0.3
pkill -9 -f "trace_app flood 100000000 0.0001" -n
wait $pid
status=$?
[ "$status" -ne 0 ] && ok "killed rank: the launcher's failure is the exit status ($status)" ||
    fail "killed rank: exit 0"
grep -q "did not reach MPI_Finalize" "$out" && ok "killed rank: the unfinished ranks are said" ||
    fail "killed rank: $(cat "$out")"
grep -q "^order of events across ranks: not checked" "$out" && ! grep -q "shortest message" "$out" &&
    ok "killed rank: the order not checked, no figure printed" || fail "killed rank: $(cat "$out")"
[ -s killed/trace.csv ] && ok "killed rank: the flushed events are merged" ||
    fail "killed rank: no trace.csv"
# Issue 31, class 5: no figure the run did not leave. No rank reached
# MPI_Finalize: no clock check is printed (it said "0.000 us"), and the
# flushes counted are those that reached the disk, at least one a rank
# that left events (it said 0), and no fewer than the flush events
# trace.csv holds (the last flush's event sat in the lost buffer).
flush_events=$(grep -c ',MPI_T_flush,' killed/trace.csv)
flushes=$(sed -n 's/^ranks [12] (0 finished), events [0-9]*, flushes \([0-9]*\), span .*/\1/p' "$out")
[ -n "$flushes" ] && [ "$flushes" -ge "$flush_events" ] && [ "$flushes" -ge 1 ] &&
    grep -q '^global clock at MPI_Finalize: not checked (no rank reached it' "$out" &&
    ! grep -q 'start model max offset' "$out"
check $? "killed rank: flushes ${flushes:-none} (trace.csv: $flush_events flush events), no clock figure invented" "$(cat "$out")"

# --- bad input --------------------------------------------------------------
expect_usage 0 '--clock-sync: unknown algorithm "hca4"' trace --clock-sync hca4 -- true
expect_usage 0 "no command after --" trace --output x
: >afile
expect_usage 0 '--output: "afile" is not a directory' trace --output afile -- true
expect_usage 0 '--output: "flood" holds a trace already' trace --output flood -- true

# The tracer preloaded by hand refuses a bad variable at MPI_Init: the
# variable and its value named once (rank 0 says it), every rank leaves
# with status 2, no directory made.
lib=$(dirname "$HARMONIA")/libharmonia-trace.so
for bad in HARMONIA_TRACE_INCLUDE=MPI_Nothing HARMONIA_TRACE_EXCLUDE=nope HARMONIA_TRACE_TIMER=sundial \
    HARMONIA_TRACE_CLOCK_SYNC=hca9 HARMONIA_TRACE_SYNTHETIC=drift HARMONIA_TRACE_POLLS=often \
    HARMONIA_TRACE_BUFFER=1 HARMONIA_TRACE_DURING=5:1; do
    var=${bad%%=*} value=${bad#*=}
    env "$bad" HARMONIA_TRACE_DIR="$dir/byhand" LD_PRELOAD="$lib" \
        timeout -k 5 "$(scaled 60)" $(mpi 2) "$app" flood 10 >"$out" 2>&1
    status=$?
    [ "$status" -eq 2 ] && [ "$(grep -c "^harmonia-trace: error: $var: " "$out")" -eq 1 ] &&
        [ "$(grep -o -F "\"$value\"" "$out" | wc -l)" -eq 1 ] && [ ! -e byhand ]
    check $? "tracer preloaded with $bad: exit 2, the variable and \"$value\" said once" \
        "exit $status, $(cat "$out")"
done
# harmonia trace: such a refusal is the tracer's to say; harmonia adds the
# command's status, not "holds no trace".
HARMONIA_TRACE_BUFFER=1 timeout -k 5 "$(scaled 60)" "$HARMONIA" trace --output buf1 -- \
    $(mpi 2) "$app" flood 10 >"$out" 2>&1
status=$?
[ "$status" -eq 2 ] && [ "$(grep -c 'HARMONIA_TRACE_BUFFER: "1" is not a number' "$out")" -eq 1 ] &&
    grep -q '^harmonia: the traced command exited with status 2 before any rank was traced$' "$out" &&
    ! grep -q 'harmonia: error:' "$out"
check $? "trace with HARMONIA_TRACE_BUFFER=1: exit 2, the tracer's sentence once" "exit $status, $(cat "$out")"
# A variable an option sets, left in the environment, does not stand in
# for the option: the trace runs with the defaults.
HARMONIA_TRACE_INCLUDE=MPI_Nothing HARMONIA_TRACE_POLLS=often timeout -k 5 "$(scaled 120)" \
    "$HARMONIA" trace "${fast[@]}" --files none --output leftover -- $(mpi 2) "$app" flood 10 >"$out" 2>&1
status=$?
[ "$status" -eq 0 ] && grep -q '^MPI_Iprobe ' "$out"
check $? "trace with leftover HARMONIA_TRACE_INCLUDE/POLLS: ignored, exit 0" "exit $status, $(cat "$out")"
finish
