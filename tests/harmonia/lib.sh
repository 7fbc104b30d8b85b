# tests/harmonia/lib.sh — helpers for tests that drive the harmonia program.
# Environment (set by CTest): HARMONIA, MPIEXEC, MPI_FLAVOR; optionally
# HM_TEST_TIMEOUT_SCALE and HM_TEST_PRECISION (both below).
set -u
checks=0
failures=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT

skips=0 launch_skipped=0
ok() {
    if [ "$launch_skipped" = 1 ]; then skips=$((skips + 1)); echo "skip: $*"; return; fi
    checks=$((checks + 1)); echo "ok: $*"
}
fail() {
    if [ "$launch_skipped" = 1 ]; then skips=$((skips + 1)); echo "skip: $*"; return; fi
    checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL: $*" >&2
}

# Timeouts scale with the machine's load: HM_TEST_TIMEOUT_SCALE (default 1;
# scripts/check-under-load sets 3; cmake/HarmoniaTesting.cmake scales the
# test's own) multiplies every bound a script sets, through `scaled N`:
# `timeout -k 5 "$(scaled 60)" ...`, a watchdog's sleep, a wait loop's
# count. A bound is how long a hang may take to fail the test, never how
# fast the machine must be.
hm_timeout_scale=${HM_TEST_TIMEOUT_SCALE:-1}
if ! awk -v s="$hm_timeout_scale" 'BEGIN { exit !(s ~ /^([0-9]+[.]?[0-9]*|[.][0-9]+)$/ && s + 0 > 0) }'; then
    echo "FAIL: HM_TEST_TIMEOUT_SCALE=\"$hm_timeout_scale\" is not a number above 0" >&2
    exit 2
fi
# scaled N : N x HM_TEST_TIMEOUT_SCALE; rounded up to a whole number when N
# is one (a count).
scaled() {
    awk -v d="$1" -v s="$hm_timeout_scale" 'BEGIN { x = d * s
        if (d == int(d) && x != int(x)) x = int(x) + 1
        print x }'
}

# interference : one line saying what else ran on the machine, the line of
# hm_test_print_interference (tests/common/testutil.h): the load average
# and running count of /proc/loadavg, and the cores other processes used in
# 0.2 s of /proc/stat, less what this script and its children used meanwhile.
interference() {
    local load run procs hz t0 t1 b0 b1 o0 o1 u n s q sq st f
    procs=$(getconf _NPROCESSORS_ONLN) hz=$(getconf CLK_TCK)
    if ! read -r load _ _ run _ </proc/loadavg 2>/dev/null ||
        ! read -r _ u n s _ _ q sq st _ </proc/stat 2>/dev/null; then
        echo "interference: not measured (/proc/loadavg or /proc/stat unreadable)"
        return
    fi
    b0=$((u + n + s + q + sq + ${st:-0}))
    read -r -a f </proc/$$/stat
    o0=$((f[13] + f[14] + f[15] + f[16]))
    t0=$EPOCHREALTIME
    sleep 0.2
    read -r _ u n s _ _ q sq st _ </proc/stat
    t1=$EPOCHREALTIME
    b1=$((u + n + s + q + sq + ${st:-0}))
    read -r -a f </proc/$$/stat
    o1=$((f[13] + f[14] + f[15] + f[16]))
    awk -v load="$load" -v run="${run%%/*}" -v p="$procs" -v hz="$hz" -v b="$((b1 - b0))" \
        -v o="$((o1 - o0))" -v t0="$t0" -v t1="$t1" 'BEGIN { dt = t1 - t0
        other = (b - o) / hz / dt; if (other < 0) other = 0
        printf "interference: load average %.2f (1 min), %d running of %d processors, other processes used %.1f of %d cores over %.1f s (/proc/stat)\n", load, run, p, other, p, dt }'
}

# factor FILE KEY : the value of FILE's factor line "# KEY: value".
factor() { sed -n "s/^# $2: //p" "$1"; }

# clock_bound_s FILE QUIET_S : a functional bound on a clock error measured
# by the run that wrote FILE, as hm_test_clock_bound_s (tests/common/
# testutil.h): QUIET_S, or where its factor interference says busy, the
# larger of QUIET_S and twice the longest absence from a processor that the
# run's probe saw (a ping-pong spanning one is off by up to its length).
clock_bound_s() {
    factor "$1" interference | awk -v q="$2" 'BEGIN { b = q }
        /^busy \(/ && match($0, /longest [0-9.]+ us/) {
            l = substr($0, RSTART + 8, RLENGTH - 11) * 2e-6; if (l > b) b = l }
        END { printf "%.9g\n", b }'
}

# oversubscribing NP : true (status 0) when runs of NP ranks are left out
# here, and then $left_out_why says why: NP is more than the online
# processors and HM_TEST_NO_OVERSUBSCRIBE is 1 (scripts/check-under-load
# sets it) or other processes keep the machine busy (tests/common/crowded
# says why such a run tests the scheduler, not harmonia). launch then runs
# nothing (status 77, "skipped:" in the output) and the checks up to the
# next launch are counted as skipped, neither passed nor failed.
oversubscribing() {
    left_out_why=$("$(dirname "${BASH_SOURCE[0]}")/../common/crowded" "$1")
}

# launch NP ARGS... : run harmonia on NP ranks (NP=0: without a launcher),
# bounded so that a hang fails the test; output in $out, status in $status.
launch() {
    local np=$1; shift
    local extra=()
    launch_skipped=0
    if oversubscribing "$np"; then
        launch_skipped=1 status=77
        echo "skipped: $left_out_why" >"$out"
        echo "skipped: harmonia $* ($left_out_why)"
        return
    fi
    [ "$MPI_FLAVOR" = openmpi ] && [ "$np" -gt 2 ] && extra=(--oversubscribe)
    if [ "$np" -eq 0 ]; then
        timeout -k 5 "$(scaled 60)" "$HARMONIA" "$@" >"$out" 2>&1
    else
        timeout -k 5 "$(scaled 60)" "$MPIEXEC" -n "$np" "${extra[@]}" "$HARMONIA" "$@" >"$out" 2>&1
    fi
    status=$?
}

# launch_reading FILE NP ARGS... : launch, when FILE (the output of an
# earlier launch that the run reads) exists; otherwise that earlier run was
# left out (oversubscribing) or failed, which its own check says, and this
# one is skipped: a crowded machine let the first run be left out and the
# second, reading its file, fail (test_cli_pattern_matrix, MPICH).
launch_reading() {
    local file=$1; shift
    if [ -f "$file" ]; then launch "$@"; return; fi
    launch_skipped=1 status=77
    echo "skipped: $file (an earlier run's output) is missing" >"$out"
    echo "skipped: harmonia ${*:2} ($file is missing: its run was left out or failed)"
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

# finish : the totals, and the exit status of the test (0: checks made, none
# failed). A precision test (HM_TEST_PRECISION=1, set by CTest on the tests
# labelled precision) that failed also prints the machine's interference.
# A test whose every check was skipped (all its runs oversubscribing) exits
# 77: CTest reports it skipped (SKIP_RETURN_CODE), never passed.
finish() {
    local left_out=""
    [ "$skips" -gt 0 ] && left_out=", $skips skipped (their runs left out: oversubscribing)"
    echo "$checks checks, $failures failed$left_out"
    if [ "$failures" -gt 0 ] && [ "${HM_TEST_PRECISION:-}" = 1 ]; then
        interference
    fi
    [ "$checks" -eq 0 ] && [ "$skips" -gt 0 ] && exit 77
    [ "$failures" -eq 0 ] && [ "$checks" -gt 0 ]
}

# csv_tsv FILE : the data of a CSV file written by harmonia (the "#" factor
# lines skipped), header first, fields separated by tabs; quoted fields are
# unquoted ("" is a quote), so a comma inside a cell does not split it.
csv_tsv() {
    awk '/^#/ { next }
    {
        line = $0; out = ""; field = ""; q = 0; n = length(line)
        for (i = 1; i <= n; i++) {
            ch = substr(line, i, 1)
            if (q) {
                if (ch != "\"") field = field ch
                else if (substr(line, i + 1, 1) == "\"") { field = field "\""; i++ }
                else q = 0
            } else if (ch == "\"") q = 1
            else if (ch == ",") { out = out field "\t"; field = "" }
            else field = field ch
        }
        print out field
    }' "$1"
}

# csv_awk FILE PROGRAM [AWK OPTIONS...] : PROGRAM run over the data rows of a
# harmonia CSV file; col["name"] is the number of column "name", so
# $col["valid"] is that cell. Missing file: no rows (PROGRAM's END still runs).
csv_awk() {
    local file=$1 prog=$2; shift 2
    { [ -f "$file" ] && csv_tsv "$file"; } | awk -F'\t' "$@" \
        'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } '"$prog"
}

# check COND_STATUS "what" ["details on failure"] : record the status of the
# command just run (0: ok).
check() {
    if [ "$1" -eq 0 ]; then ok "$2"; else fail "$2${3:+: $3}"; fi
}

# table_cols FIRST COLUMN... : from the aligned table in $out whose header
# line starts with the column FIRST, the named columns of every row (rows
# have as many fields as the header; the table ends at the first other line,
# or at a heading ending in ":" that happens to have as many words).
# Columns are found by name, so added ones do not matter; a column missing
# from the header gives no rows at all (and a note on stderr).
table_cols() {
    local first=$1; shift
    awk -v first="$first" -v want="$*" '
        BEGIN { m = split(want, w, " ") }
        !on && $1 == first { on = 1; nf = NF; for (i = 1; i <= NF; i++) c[$i] = i
            for (k = 1; k <= m; k++) if (!(w[k] in c)) { print "table_cols: no column " w[k] >"/dev/stderr"; exit }
            next }
        on && (NF != nf || /:$/) { exit }
        on { line = $c[w[1]]; for (k = 2; k <= m; k++) line = line " " $c[w[k]]; print line }' "$out"
}
