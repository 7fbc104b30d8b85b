#!/usr/bin/env bash
# tests/harmonia/overlap_campaign.sh — campaign, stats and compare on the
# raw files of `harmonia overlap` (issue 13): a campaign of 3 overlap runs
# at 2 ranks gives per-mpirun medians of overhead per cell equal to Alg. 6
# recomputed here with awk from each run's raw file, resumes without
# running again and reduces again under another --metric, and a run with
# no valid repetition (all its cells INVALID) adds no row; stats summarizes
# a cell as awk does; compare of a file with itself gives p = 1 and "no
# evidence", and a cell shifted by more than its spread is told apart with
# the exact p of separated samples; a bench file with an overlap file is
# refused in one sentence naming both. Which cells a loaded machine leaves
# INVALID (cell_valid 0) or without valid repetitions varies: every check is
# per cell present, and needs one at least.
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out"' EXIT
cd "$dir" || exit 1
show() { sed 's/^/    | /' "$out" >&2; }
overlap=("$MPIEXEC" -n 2 "$HARMONIA" overlap --comm-us 1000 --comp-us 1000,4000
         --nrep 10 --seed '{seed}' --raw '{raw}')
camp() {
    timeout -k 5 "$(scaled 200)" "$HARMONIA" campaign "$@" >"$out" 2>&1
    status=$?
}

# alg6 FILE CELL_COMM CELL_COMP COLUMN: "n kept median mean" of the valid
# values of COLUMN in the cell of a raw file, after Tukey's fences on R's
# type-7 quartiles (what campaign does, Alg. 6 lines 8-10).
alg6() {
    csv_awk "$1" '$col["valid"] == 1 && $col["comm_target_s"] == c && $col["comp_target_s"] == p {
            print $col[m] }' -v c="$2" -v p="$3" -v m="$4" | sort -g |
        awk 'function q(a, n, f,   h, l) { h = (n - 1) * f; l = int(h); return a[l + 1] + (h - l) * (a[l + 2] - a[l + 1]) }
            { x[NR] = $1 } END {
            n = NR; if (n == 0) exit 1
            q1 = q(x, n, 0.25); q3 = q(x, n, 0.75); lo = q1 - 1.5 * (q3 - q1); hi = q3 + 1.5 * (q3 - q1)
            for (i = 1; i <= n; i++) if (x[i] >= lo && x[i] <= hi) { k[++m] = x[i]; s += x[i] }
            printf "%d %d %.17g %.17g\n", n, m, q(k, m, 0.5), s / m }'
}
# same "A B": the two "n kept median mean" agree (values to 1e-12 relative).
same() {
    echo "$1 $2" | awk '{ d3 = $3 - $7; d4 = $4 - $8; s3 = 1e-12 * ($3 < 0 ? -$3 : $3) + 1e-15
        s4 = 1e-12 * ($4 < 0 ? -$4 : $4) + 1e-15
        exit !($1 == $5 && $2 == $6 && d3 * d3 <= s3 * s3 && d4 * d4 <= s4 * s4) }'
}
# Every (run, cell) of a per-mpirun.csv against alg6 of its raw file.
check_dataset() { # DIR METRIC
    local bad=0 rows=0 run c p got want
    while IFS=' ' read -r run c p got; do
        rows=$((rows + 1))
        want=$(alg6 "$1/run-00$run.csv" "$c" "$p" "$(raw_column "$2")")
        same "$want" "$got" || { bad=$((bad + 1)); echo "run $run $c $p: want $want got $got" >&2; }
    done < <(csv_awk "$1/per-mpirun.csv" '$col["metric"] == m {
        print $col["run"], $col["comm_target_s"], $col["comp_target_s"], $col["n"], $col["kept"], $col["median"], $col["mean"] }' -v m="$2")
    [ "$bad" -eq 0 ] && [ "$rows" -ge 1 ]
    check $? "$1/per-mpirun.csv, $2: each of $rows (run, cell) rows = Alg. 6 recomputed from the run's raw file"
}
raw_column() { [ "$1" = measured ] && echo measured_s || echo "$1"; }

# --- a campaign of 3 overlap runs -------------------------------------------------
camp -n 3 --dir c -- "${overlap[@]}"
check "$status" "campaign -n 3 of overlap at 2 ranks: exit 0" "exit $status"
[ "$status" -eq 0 ] || show
csv_awk c/manifest.csv '$col["state"] == "done" { n++ } END { exit n != 3 }'
check $? "manifest: 3 runs done"
check_dataset c overhead
# The first run that has valid repetitions (a run whose cells all missed
# their targets on a loaded machine has none), for stats and compare.
raw=$(for r in 1 2 3; do
    csv_awk "c/run-00$r.csv" '$col["valid"] == 1 { f = 1 } END { exit !f }' && { echo "c/run-00$r.csv"; break; }
done)
[ -n "$raw" ]
check $? "a run with valid repetitions: $raw"
grep -q '^# metric: overhead$' c/per-mpirun.csv && grep -q '^# mpi_library: ' c/per-mpirun.csv
check $? "per-mpirun.csv says its metric (overhead, the default) and MPI library"
csv_awk c/per-mpirun.csv '{ n++; if ($col["size_bytes"] == "" && $col["progress"] != "" && $col["processes"] == 2 &&
        $col["sync"] == "harmonize" && $col["n"] == 10) ok++ } END { exit !(n >= 3 && ok == n) }'
check $? "per-mpirun.csv: the size is no key (calibrated per run), progress, 2 processes, 10 valid each"
# Reproducibility: overhead may be 0 or below, so each run's median minus the
# smallest, and the range (the quotient only where the smallest is above 0).
csv_awk c/per-mpirun.csv '{ k = $col["comm_target_s"] " " $col["comp_target_s"]; v = $col["median"]
        if (!(k in lo) || v < lo[k]) lo[k] = v; if (!(k in hi) || v > hi[k]) hi[k] = v }
    END { for (k in lo) printf "%s %.17g\n", k, hi[k] - lo[k] }' | sort >range.want
csv_awk c/reproducibility.csv '$col["difference"] == 0 { printf "%s %s %s\n", $col["comm_target_s"], $col["comp_target_s"], $col["max_difference"] }' |
    sort -u >range.got
paste range.want range.got | awk '{ d = $3 - $6; if ($1 != $4 || $2 != $5 || d * d > 1e-24) bad++ } END { exit !(NR >= 1 && !bad) }'
check $? "reproducibility.csv: max_difference = largest - smallest per-run median of each cell" \
    "$(cat range.want range.got)"
grep -q 'per-mpirun medians of overhead' "$out" && grep -q '^progress: ' "$out" &&
    [ "$(table_cols op op comm_us comp_us runs range | wc -l)" -ge 1 ]
check $? "table: per cell the runs, med/min/max and the range"

# plot of the campaign (issue 32: "missing columns: median_s"): a box of
# the per-mpirun medians per cell, named by the cells' targets, a series
# per operation and computation target, and one more for a target whose
# cell was INVALID in some runs (its runs then split between the two
# series); as many series and runs per box as the dataset holds.
launch 0 plot --dir figs c
counts=$(csv_awk c/per-mpirun.csv '{ k = $col["comp_target_s"] " " ($col["cell_valid"] == 0)
        s[k] = 1; n[$col["comm_target_s"] " " k]++ }
    END { for (k in s) ns++; for (k in n) if (n[k] > m) m = n[k]; print ns + 0, m + 0 }')
series=${counts% *} runs=${counts#* }
[ "$status" -eq 0 ] && grep -qF '>1000 us</text>' figs/c-overlap-campaign.svg &&
    grep -qF '>iallreduce, computation 1000 us' figs/c-overlap-campaign.svg &&
    grep -qF '>iallreduce, computation 4000 us' figs/c-overlap-campaign.svg &&
    grep -qF "campaign of $runs runs: per-mpirun median overhead" figs/c-overlap-campaign.svg &&
    grep -q "per-mpirun median overhead per overlap cell, $series series, up to $runs runs" "$out"
check $? "plot of the overlap campaign: $series series, boxes of up to $runs runs" "exit $status; $(cat "$out")"

# Resumed: nothing runs; another --metric reduces the same runs again.
before=$(md5sum c/run-00*.csv | md5sum)
camp -n 3 --dir c --metric comp_slowdown -- "${overlap[@]}"
[ "$status" -eq 0 ] && grep -q "3 of 3 runs already done" "$out" && [ "$(md5sum c/run-00*.csv | md5sum)" = "$before" ]
check $? "resumed with --metric comp_slowdown: nothing run again" "exit $status"
check_dataset c comp_slowdown
expect_usage 0 "campaign: --metric global: c/run-001.csv is a raw file of 'harmonia overlap --raw', whose metrics are overhead, measured, comp_slowdown, comm_ratio" \
    campaign -n 3 --dir c --metric global -- "${overlap[@]}"

# A run none of whose cells ran (every calibration missed: INVALID) adds no
# row and says so; the others are reduced as before. Here the runs copy the
# raw files above, run 2 one whose rows are all invalid.
{ grep '^#' "$raw"; csv_tsv "$raw" | head -1 | tr '\t' ,
  csv_tsv "$raw" | awk -F'\t' 'NR == 2 { OFS = ","; $6 = 0; print }'; } >empty.csv
grep -q '^# progress: ' empty.csv && [ "$(grep -vc '^#' empty.csv)" -eq 2 ]
check $? "empty.csv: the factors, the header and one invalid row"
copy=(sh -c 'if [ "$1" = 2 ]; then cp empty.csv "$3"; else cp "c/run-00$1.csv" "$3"; fi' sh '{run}' '{seed}' '{raw}')
camp -n 3 --dir e -- "${copy[@]}"
[ "$status" -eq 0 ] && grep -q 'campaign: run 2 has no valid repetition in e/run-002.csv' "$out"
check $? "a run without valid repetitions: exit 0, said" "exit $status"
[ "$status" -eq 0 ] || show
runs_of() { csv_awk "$1" '$col["run"] != 2 { print $col["run"], $col["comm_target_s"], $col["comp_target_s"] }' | sort; }
[ "$(runs_of e/per-mpirun.csv)" = "$(runs_of c/per-mpirun.csv)" ] &&
    ! csv_awk e/per-mpirun.csv '$col["run"] == 2 { f = 1 } END { exit !f }'
check $? "e/per-mpirun.csv: the (run, cell) rows of c but for run 2, none of run 2"
check_dataset e overhead

# --- stats on a raw file: per cell, what awk computes ------------------------------
launch 0 stats --metric measured --output st.csv "$raw"
check "$status" "stats --metric measured $raw: exit 0" "exit $status"
bad=0
while IFS=' ' read -r c p n kept med mean; do
    same "$(alg6 "$raw" "$c" "$p" measured_s)" "$n $kept $med $mean" || bad=$((bad + 1))
done < <(csv_awk st.csv '{ print $col["comm_target_s"], $col["comp_target_s"], $col["n"], $col["n_kept"], $col["median"], $col["mean"] }')
[ "$bad" -eq 0 ] && csv_awk st.csv '$col["metric"] == "measured" { n++ } END { exit n < 1 }'
check $? "stats --output: n, kept, median and mean of measured_s per cell as awk computes them"
grep -q '^measured (t_measured: max t4 - min t1)' "$out" && [ "$(table_cols op op comm_us med_us | wc -l)" -ge 1 ]
check $? "stats table: the metric said, in microseconds (med_us)"
launch 0 stats c
[ "$status" -eq 0 ] && grep -q "each run's median - the smallest run's" "$out"
check $? "stats on the campaign: the reproducibility of the per-run medians, as differences" "exit $status"

# --- compare: a file with itself, then a cell shifted by more than its spread ----------
launch 0 compare --output self.csv "$raw" "$raw"
# A cell whose references did not stand under load (raw cell_valid 0) is
# "invalid cell", whatever the test says.
csv_awk "$raw" '$col["cell_valid"] == 0 { print $col["comm_target_s"], $col["comp_target_s"] }' | sort -u >invalid-cells
csv_awk self.csv 'BEGIN { while ((getline l < "invalid-cells") > 0) bad[l] = 1 }
    { n++; want = ($col["comm_target_s"] " " $col["comp_target_s"]) in bad ? "invalid cell" : "no evidence"
      if ($col["p"] == 1 && $col["verdict"] == want && $col["difference_B_A"] == 0 &&
        $col["W"] * 2 == $col["n_A"] * $col["n_B"]) ok++ } END { exit !(st == 0 && n >= 1 && ok == n) }' -v st="$status"
check $? "compare A with itself: p = 1, W = n_A n_B / 2, B - A = 0, \"no evidence\" in every cell (\"invalid cell\" in $(wc -l <invalid-cells) whose references did not stand)" "exit $status"
grep -q 'B-A = difference of the medians' "$out"
check $? "compare's header says B-A is a difference, and why"
# B: the first cell of run 1 shifted up by its range + 1 (Tukey's fences move
# with it: the same values kept), so A's and B's kept values never overlap:
# W = 0 and the exact two-sided p = 2 / C(2k, k), k kept on each side.
cell=$(csv_awk "$raw" '$col["valid"] == 1 { print $col["comm_target_s"], $col["comp_target_s"]; exit }')
read -r c p <<<"$cell"
shift=$(csv_awk "$raw" '$col["valid"] == 1 && $col["comm_target_s"] == c && $col["comp_target_s"] == p {
        v = $col["overhead"]; if (n++ == 0 || v < lo) lo = v; if (n == 1 || v > hi) hi = v } END { print hi - lo + 1 }' -v c="$c" -v p="$p")
awk -F, -v c="$c" -v p="$p" -v s="$shift" 'BEGIN { OFS = "," } /^#/ { print; next }
    !h { h = 1; for (i = 1; i <= NF; i++) col[$i] = i; print; next }
    $col["comm_target_s"] == c && $col["comp_target_s"] == p && $col["valid"] == 1 { $col["overhead"] = sprintf("%.17g", $col["overhead"] + s) }
    { print }' "$raw" >shifted.csv
launch 0 compare --output shift.csv "$raw" shifted.csv
csv_awk shift.csv '$col["comm_target_s"] == c && $col["comp_target_s"] == p {
        k = $col["n_A"]; want = 2; for (i = 1; i <= k; i++) want = want * i / (k + i)
        d = $col["p"] / want - 1; dd = $col["difference_B_A"] - s
        ok = k == $col["n_B"] && $col["W"] == 0 && d * d < 1e-18 && dd * dd < 1e-18 &&
             $col["verdict"] == (((c " " p) in bad) ? "invalid cell" : "B larger") && $col["stars"] != "" }
    BEGIN { while ((getline l < "invalid-cells") > 0) bad[l] = 1 }
    END { exit !(st == 0 && ok) }' -v c="$c" -v p="$p" -v s="$shift" -v st="$status"
check $? "shifted cell: W = 0, p = 2 / C(2k, k), B - A = the shift, \"B larger\" (\"invalid cell\" if its references did not stand)" "$(csv_tsv shift.csv)"
launch 0 compare --output camp.csv c c
csv_awk camp.csv '{ n++; if ($col["p"] == 1 && $col["range_A"] >= 0) ok++ } END { exit !(st == 0 && n >= 1 && ok == n) }' -v st="$status"
check $? "compare of a campaign with itself: per-mpirun medians, p = 1, the range of the runs" "exit $status"

# --- bench and overlap are not pooled ------------------------------------------------
printf '# processes: 2\n# sync: barrier\nop,size_bytes,attempt,valid,global_s,local_s\nbcast,8,0,1,1e-6,1e-6\n' >bench.csv
expect_usage 0 "compare: A (bench.csv) is a raw file of 'harmonia bench --raw' and B ($raw) a raw file of 'harmonia overlap --raw'" \
    compare bench.csv "$raw"
expect_usage 0 "stats: $raw is a raw file of 'harmonia overlap --raw' and bench.csv a raw file of 'harmonia bench --raw'" \
    stats "$raw" bench.csv
expect_usage 0 "stats: --metric local: $raw is a raw file of 'harmonia overlap --raw', whose metrics are overhead, measured, comp_slowdown, comm_ratio" \
    stats --metric local "$raw"
expect_usage 0 "compare: --metric comm_ratio: bench.csv is a raw file of 'harmonia bench --raw', whose metrics are global, local" \
    compare --metric comm_ratio bench.csv bench.csv
finish
