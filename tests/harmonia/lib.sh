# tests/harmonia/lib.sh — helpers for tests that drive the harmonia program.
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
# have as many fields as the header; the table ends at the first other line).
# Columns are found by name, so added ones do not matter; a column missing
# from the header gives no rows at all (and a note on stderr).
table_cols() {
    local first=$1; shift
    awk -v first="$first" -v want="$*" '
        BEGIN { m = split(want, w, " ") }
        !on && $1 == first { on = 1; nf = NF; for (i = 1; i <= NF; i++) c[$i] = i
            for (k = 1; k <= m; k++) if (!(w[k] in c)) { print "table_cols: no column " w[k] >"/dev/stderr"; exit }
            next }
        on && NF != nf { exit }
        on { line = $c[w[1]]; for (k = 2; k <= m; k++) line = line " " $c[w[k]]; print line }' "$out"
}
