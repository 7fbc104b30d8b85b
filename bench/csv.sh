# bench/csv.sh — sourced by the benchmarks: read harmonia's results files by
# column name, never by position (a column added to a schema moved every
# later one, and a script reading $17 read another figure).
#
# csv_cols FILE CONDITION COLUMN...: for every row where the awk CONDITION
# holds (columns as c["name"], e.g. '$c["measured"] == "pattern"'), the
# named columns, blank-separated. Factor lines (#) are skipped.
csv_cols() {
    local file=$1 cond=$2
    shift 2
    awk -F, -v want="$*" '/^#/ { next }
        !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; m = split(want, w, " ")
             for (k = 1; k <= m; k++) if (!(w[k] in c)) { print "csv_cols: no column " w[k] > "/dev/stderr"; exit 2 }
             next }
        '"$cond"' { line = $c[w[1]]; for (k = 2; k <= m; k++) line = line " " $c[w[k]]; print line }' "$file"
}
