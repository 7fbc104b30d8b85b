#!/usr/bin/env bash
# The OTF2 archive of a traced program as Vampir reads Score-P's (issue 30,
# item 3): the MPI records between each call's Enter and Leave, and the
# communicators they name; one-sided calls as RMA records and MPI-IO as
# I/O records (at the end). The truth is trace_app's ring at 2 ranks: in
# each round a rank posts an MPI_Isend to the other rank, receives
# one message with MPI_Recv from any source and completes its send in
# MPI_Wait; its main splits MPI_COMM_WORLD by rank parity (two one-rank
# halves at 2 ranks), ends in an MPI_Barrier and frees its half. 100000
# rounds make about 11 MB of events a location, beyond the 8 chunks of 1
# MiB the merge lets OTF2 hold (src/trace/otf2.c): the writer writes them
# out mid-stream, and no flush record goes into the events.
. "$(dirname "$0")/../harmonia/lib.sh"
app=$1
if ! command -v otf2-print >/dev/null; then
    echo "skipped: no otf2-print to read the archive (scripts/install-deps installs it)"
    exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out"' EXIT
cd "$dir" || exit 1
extra=()
[ "$MPI_FLAVOR" = openmpi ] && extra=(--bind-to none)
# MPICH busy-polls: yield, as tests/trace/trace_command.sh does.
[ "$MPI_FLAVOR" = mpich ] && export MPIR_CVAR_POLLS_BEFORE_YIELD=1
rounds=100000

timeout -k 5 "$(scaled 120)" "$HARMONIA" trace --fitpoints 50 --exchanges 10 --output ring -- \
    "$MPIEXEC" -n 2 "${extra[@]}" "$app" ring $rounds >"$out" 2>&1
status=$?
check $status "ring $rounds at 2 ranks traced: exit $status" "$(cat "$out")"
otf2-print ring/otf2/traces.otf2 >events.txt 2>events.err
check $(($? + $(wc -c <events.err))) "otf2-print reads the events, without a complaint" \
    "$(head -5 events.err)"
otf2-print -G ring/otf2/traces.otf2 >defs.txt 2>defs.err
check $(($? + $(wc -c <defs.err))) "otf2-print -G reads the definitions, without a complaint" \
    "$(head -5 defs.err)"

# The records of each location: name, location, timestamp, attributes.
records() { awk '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/' events.txt; }

# Per rank, one of each a round to or from the other rank on
# MPI_COMM_WORLD: 2 x rounds sends posted, completed and received in all.
records | awk -v n=$rounds '
    $1 ~ /^MPI_(ISEND|ISEND_COMPLETE|RECV)$/ { c[$1]++; c[$1 " " $2]++; other = 1 - $2 }
    $1 == "MPI_ISEND" && $0 !~ ("Receiver: " other " .*Communicator: \"MPI_COMM_WORLD\"") { bad++; print }
    $1 == "MPI_RECV" && $0 !~ ("Sender: " other " .*Communicator: \"MPI_COMM_WORLD\"") { bad++; print }
    END {
        for (r = 0; r < 2; r++)
            if (c["MPI_ISEND " r] != n || c["MPI_ISEND_COMPLETE " r] != n || c["MPI_RECV " r] != n) bad++
        printf "MPI_ISEND %d, MPI_ISEND_COMPLETE %d, MPI_RECV %d\n", c["MPI_ISEND"], c["MPI_ISEND_COMPLETE"], c["MPI_RECV"]
        exit bad > 0
    }' >counts.txt
check $? "per rank $rounds MPI_ISEND to the other rank, $rounds MPI_ISEND_COMPLETE, $rounds MPI_RECV from it: $(tail -1 counts.txt)" \
    "$(cat counts.txt)"

# Each send's request completed once, after it was posted, on its rank.
records | awk '
    { req = $2 " " $NF }
    $1 == "MPI_ISEND" { if (open[req]++) bad++ }
    $1 == "MPI_ISEND_COMPLETE" { if (!open[req]) bad++; else open[req]-- }
    END { for (k in open) if (open[k]) bad++; exit bad > 0 }'
check $? "every MPI_ISEND's request is completed once by a later MPI_ISEND_COMPLETE"

# Collective operations begun and ended in pairs, inside one call; the
# final MPI_Barrier on MPI_COMM_WORLD on both ranks. Every record lies
# between its call's Enter and Leave, and no location goes back in time.
records | awk '
    $3 + 0 < last[$2] { back++; print "back in time: " $0 }
    { last[$2] = $3 + 0 }
    $1 == "ENTER" { depth[$2]++; next }
    $1 == "LEAVE" { if (coll[$2]) bad++; depth[$2]--; next }
    !depth[$2] { outside++; print "outside a call: " $0 }
    $1 == "MPI_COLLECTIVE_BEGIN" { begin++; if (coll[$2]++) bad++ }
    $1 == "MPI_COLLECTIVE_END" { end++; if (!coll[$2]--) bad++ }
    /MPI_COLLECTIVE_END.*Operation: BARRIER, Communicator: "MPI_COMM_WORLD"/ { barrier[$2] = 1 }
    END {
        printf "%d begun, %d ended\n", begin, end
        exit !(begin == end && begin > 0 && !bad && !back && !outside && barrier[0] && barrier[1])
    }' >nesting.txt
check $? "MPI_COLLECTIVE_BEGIN = MPI_COLLECTIVE_END > 0 ($(tail -1 nesting.txt)), paired, a barrier on each rank" \
    "$(head -5 nesting.txt)"
grep -q -e "back in time" -e "outside a call" nesting.txt
check $((!$?)) "every record between its call's Enter and Leave, timestamps never decreasing per location" \
    "$(head -5 nesting.txt)"

# The definitions: MPI's locations (group 0, both ranks), one COMM per
# communicator the ranks knew (MPI_COMM_WORLD and the split's two halves),
# each of a COMM_GROUP.
grep -Eq '^GROUP +0 .*Type: COMM_LOCATIONS, Paradigm: "MPI".*2 Members' defs.txt
check $? "a COMM_LOCATIONS group of the 2 ranks" "$(grep '^GROUP' defs.txt)"
comms=$(grep -c '^COMM ' defs.txt)
groups=$(grep -c '^GROUP .*Type: COMM_GROUP' defs.txt)
grep -Eq '^COMM +0 +Name: "MPI_COMM_WORLD"' defs.txt && [ "$comms" -eq 3 ] && [ "$groups" -eq 3 ]
check $? "COMM definitions: MPI_COMM_WORLD and the split's halves ($comms), a COMM_GROUP each ($groups)" \
    "$(grep -E '^(COMM|GROUP) ' defs.txt)"

size=$(stat -c %s ring/otf2/traces/0.evt 2>/dev/null || echo 0)
[ "$size" -gt $((8 << 20)) ]
check $? "location 0's events ($size bytes) outgrew the 8 MiB OTF2 may hold"
flushes=$(grep -c '^BUFFER_FLUSH' events.txt)
check $flushes "no BUFFER_FLUSH record (the merge's flushes are not the run's): $flushes"

# Each location's event count is the number of records it holds.
for r in 0 1; do
    said=$(sed -n "s/^LOCATION  *$r .*# Events: \([0-9]*\),.*/\1/p" defs.txt)
    held=$(records | awk -v r=$r '$2 == r' | wc -l)
    [ -n "$said" ] && [ "$said" -eq "$held" ]
    check $? "location $r: # Events $said, the records it holds ($held)"
done

# One-sided communication as RMA records: trace_app's rma rounds at 2
# ranks (tests/trace/trace_app.c: per rank a round, 5 operations to the
# next rank and 2 from the one before, all on one window: an MPI_Put, an
# MPI_Get and an MPI_Rget, 4 atomics; 2 fences; an exclusive lock of the
# next rank and MPI_Win_lock_all's shared lock of each of the 2 ranks).
# The truth is the program's own calls: every count below is exact.
rounds=20
# archive MODE: trace_app MODE $rounds traced at 2 ranks into MODE/, its
# archive printed into MODE.txt (events) and MODEdefs.txt (definitions).
archive() {
    timeout -k 5 "$(scaled 120)" "$HARMONIA" trace --fitpoints 50 --exchanges 10 --output "$1" -- \
        "$MPIEXEC" -n 2 "${extra[@]}" "$app" "$1" $rounds >"$out" 2>&1
    status=$?
    check $status "$1 $rounds at 2 ranks traced: exit $status" "$(cat "$out")"
    otf2-print "$1/otf2/traces.otf2" >"$1.txt" 2>"$1.err" &&
        otf2-print -G "$1/otf2/traces.otf2" >"$1defs.txt" 2>>"$1.err"
    check $(($? + $(wc -c <"$1.err"))) "otf2-print reads the $1 archive and its definitions, without a complaint" \
        "$(head -5 "$1.err")"
}
archive rma
grep -Eq '^RMA_WIN +0 +Name: "window [0-9]+" <[0-9]+>, Communicator: "comm [0-9]+"' rmadefs.txt &&
    [ "$(grep -c '^RMA_WIN ' rmadefs.txt)" -eq 1 ]
check $? "one RMA_WIN definition, over its communicator" "$(grep -E '^(RMA_WIN|COMM) ' rmadefs.txt)"
# Per rank: the counts; every operation to the other rank (the remote is
# the other rank) and completed once, after it was issued, on the same
# window, in the call that completes it; every lock requested, acquired
# and released once in that order.
# In the awk programs below: field(NAME) is a record's value of NAME,
# region[L] the region location L last entered.
located='
    function field(name) { return match($0, name ": [0-9]+") ? substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 2) : -1 }
    $1 == "ENTER" { split($0, q, "\""); region[$2] = q[2] }'
awk '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/' rma.txt | awk -v n=$rounds "$located"'
    $1 ~ /^RMA_/ { c[$1 " " $2]++ }
    $1 == "RMA_OP_COMPLETE_NON_BLOCKING" { at[region[$2] " " $2]++ }
    $1 ~ /^RMA_(PUT|GET|ATOMIC)$/ {
        id = $2 " " field("Matching")
        if (field("Remote") != 1 - $2 || issued[id]++) bad++
    }
    $1 == "RMA_OP_COMPLETE_NON_BLOCKING" { id = $2 " " field("Matching"); if (issued[id] != 1 || done[id]++) bad++ }
    $1 == "RMA_REQUEST_LOCK" { l = $2 " " field("Lock"); if (lock[l]) bad++; lock[l] = 1 }
    $1 == "RMA_ACQUIRE_LOCK" { l = $2 " " field("Lock"); if (lock[l] != 1) bad++; lock[l] = 2 }
    $1 == "RMA_RELEASE_LOCK" { l = $2 " " field("Lock"); if (lock[l] != 2) bad++; lock[l] = 3 }
    /RMA_ATOMIC.*Type: COMPARE_AND_SWAP, Sent: 8, Received: 4/ { cas[$2]++ }
    /RMA_REQUEST_LOCK.*Type: EXCLUSIVE/ { excl[$2]++ }
    END {
        for (id in issued) if (!done[id]) bad++
        for (l in lock) if (lock[l] != 3) bad++
        for (r = 0; r < 2; r++) {
            if (c["RMA_PUT " r] != n || c["RMA_GET " r] != 2 * n || c["RMA_ATOMIC " r] != 4 * n) bad++
            if (c["RMA_OP_COMPLETE_NON_BLOCKING " r] != 7 * n || cas[r] != n || excl[r] != n) bad++
            if (c["RMA_COLLECTIVE_BEGIN " r] != 2 * n || c["RMA_COLLECTIVE_END " r] != 2 * n) bad++
            if (c["RMA_REQUEST_LOCK " r] != 3 * n || c["RMA_RELEASE_LOCK " r] != 3 * n) bad++
            # Completed by the call that completes them: the fence (put,
            # get), the flush (accumulate, compare-and-swap), the unlock
            # (fetch-and-op), MPI_Wait (rget), MPI_Win_flush_all.
            if (at["MPI_Win_fence " r] != 2 * n || at["MPI_Win_flush " r] != 2 * n) bad++
            if (at["MPI_Win_unlock " r] != n || at["MPI_Wait " r] != n || at["MPI_Win_flush_all " r] != n) bad++
        }
        printf "rank 0: %d puts, %d gets, %d atomics, %d completed, %d locks, %d fences\n", c["RMA_PUT 0"], c["RMA_GET 0"], c["RMA_ATOMIC 0"], c["RMA_OP_COMPLETE_NON_BLOCKING 0"], c["RMA_REQUEST_LOCK 0"], c["RMA_COLLECTIVE_END 0"]
        exit bad > 0
    }' >rmacounts.txt
check $? "RMA records exact per rank, each operation completed once after it was issued, each lock requested, acquired and released: $(tail -1 rmacounts.txt)" \
    "$(cat rmacounts.txt)"
# The window made and freed: RMA_WIN_CREATE in MPI_Win_allocate and
# RMA_WIN_DESTROY in MPI_Win_free, once on each rank, the window flagged.
awk '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/' rma.txt | awk "$located"'
    $1 == "RMA_WIN_CREATE" && region[$2] == "MPI_Win_allocate" { made[$2]++ }
    $1 == "RMA_WIN_DESTROY" && region[$2] == "MPI_Win_free" { freed[$2]++ }
    END { exit !(made[0] == 1 && made[1] == 1 && freed[0] == 1 && freed[1] == 1) }'
check $? "RMA_WIN_CREATE in MPI_Win_allocate, RMA_WIN_DESTROY in MPI_Win_free, once a rank" \
    "$(grep -E '^RMA_WIN_(CREATE|DESTROY)' rma.txt)"
grep -q '^RMA_WIN .*Flags: {CREATE_DESTROY_EVENTS}' rmadefs.txt
check $? "the RMA_WIN is flagged for its create and destroy records" "$(grep '^RMA_WIN ' rmadefs.txt)"

# MPI-IO as I/O records: trace_app's io rounds at 2 ranks (a file opened
# with MPI_MODE_CREATE | MPI_MODE_RDWR; per rank a round a write, a read,
# a collective write, a nonblocking write completed by MPI_Wait, a sync).
archive io
grep -q '^IO_PARADIGM .*Identification: "MPI-IO"' iodefs.txt &&
    grep -Eq '^IO_HANDLE +0 .*I/O Paradigm: "MPI I/O" <0>, Flags: NONE, Communicator: "comm [0-9]+"' iodefs.txt &&
    [ "$(grep -c '^IO_HANDLE ' iodefs.txt)" -eq 1 ] && [ "$(grep -c '^IO_REGULAR_FILE ' iodefs.txt)" -eq 1 ]
check $? "an MPI-IO paradigm, one regular file and one handle over its communicator" \
    "$(grep -E '^IO_' iodefs.txt)"
# Per rank: the handle created once in MPI_File_open (read-write,
# created) and destroyed once in MPI_File_close; 5 operations a round,
# each begun once and completed once after it, in its own call or, the
# nonblocking write, issued in MPI_File_iwrite and completed in MPI_Wait.
awk '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/' io.txt | awk -v n=$rounds "$located"'
    $1 == "IO_CREATE_HANDLE" && region[$2] == "MPI_File_open" && /Access Mode: READ_WRITE, Creation Flags: \{CREATE\}/ { made[$2]++ }
    $1 == "IO_DESTROY_HANDLE" && region[$2] == "MPI_File_close" { freed[$2]++ }
    $1 == "IO_OPERATION_BEGIN" { id = $2 " " field("Matching Id"); if (begun[id]++) bad++; kind[id] = $0; c[$2]++ }
    $1 == "IO_OPERATION_ISSUED" { id = $2 " " field("Matching Id"); if (begun[id] != 1 || region[$2] != "MPI_File_iwrite") bad++; issued[$2]++ }
    $1 == "IO_OPERATION_COMPLETE" {
        id = $2 " " field("Matching Id")
        if (begun[id] != 1 || done[id]++) bad++
        if (kind[id] ~ /NON_BLOCKING/) { if (region[$2] != "MPI_Wait") bad++; waited[$2]++ }
        if (kind[id] ~ /Mode: FLUSH/) flushed[$2]++
        if (kind[id] ~ /COLLECTIVE/ && kind[id] ~ /Mode: WRITE/) coll[$2]++
    }
    END {
        for (id in begun) if (done[id] != 1) bad++
        for (r = 0; r < 2; r++)
            if (made[r] != 1 || freed[r] != 1 || c[r] != 5 * n || issued[r] != n || waited[r] != n || flushed[r] != n || coll[r] != n) bad++
        printf "rank 0: %d operations, %d nonblocking completed in MPI_Wait, %d syncs, %d collective writes\n", c[0], waited[0], flushed[0], coll[0]
        exit bad > 0
    }' >iocounts.txt
check $? "I/O records exact per rank, each operation begun and completed once, in the call that completes it: $(tail -1 iocounts.txt)" \
    "$(cat iocounts.txt)"
finish
