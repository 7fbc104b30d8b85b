#!/usr/bin/env bash
# `harmonia stats`: summaries of raw files of `harmonia bench` — one group per
# (op, size, processes, sync) over all files, n of the valid rows, ordered
# quantiles equal to those computed here from the raw rows, a median inside
# its confidence interval, Tukey's filter dropping a planted outlier — and
# bad input refused with exit 2 and one message naming the file (and line).
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out"' EXIT
cd "$dir" || exit 1
show() { sed 's/^/    | /' "$out" >&2; }

small=(--ops allreduce,bcast --sizes 8,1K --nrep 60)
launch 2 bench "${small[@]}" --sync barrier --raw b.csv
check "$status" "bench --sync barrier --raw b.csv: exit 0" "exit $status"
launch 2 bench "${small[@]}" --sync harmonize --raw h.csv
check "$status" "bench --sync harmonize --raw h.csv: exit 0" "exit $status"

# --- a partial input (issue 28): said once, naming the file and what it holds -----
# stats and compare used to read a file cut short as if it were whole.
sed 's/^# complete: yes$/# complete: no (2 of 4 experiments)/' h.csv >hp.csv
warned='harmonia: warning: %s: hp.csv is partial (complete: no (2 of 4 experiments))'
launch 0 stats b.csv hp.csv
n=$(grep -cF "$(printf "$warned" stats)" "$out")
[ "$status" -eq 0 ] && [ "$n" -eq 1 ] && [ "$(grep -c 'warning' "$out")" -eq 1 ]
check $? "stats of a partial file: exit 0, one warning naming it and what it holds" "exit $status, $n warnings"
launch 0 stats b.csv h.csv
! grep -q 'warning' "$out"
check $? "stats of whole files: no warning"
launch 0 compare hp.csv hp.csv
n=$(grep -cF "$(printf "$warned" compare)" "$out")
[ "$status" -eq 0 ] && [ "$n" -eq 1 ] && [ "$(grep -c 'warning' "$out")" -eq 1 ]
check $? "compare of a partial file with itself: exit 0, warned once, not once per side" \
    "exit $status, $n warnings"

# --- both files: 8 groups keyed by sync, n = 60, ordered statistics ---------------
launch 0 stats --output s.csv b.csv h.csv
check "$status" "stats --output s.csv b.csv h.csv: exit 0" "exit $status"
[ "$status" -eq 0 ] || show
rows=$(table_cols op op size_B procs sync n | wc -l)
[ "$rows" -eq 8 ]
check $? "table: 8 rows (got $rows)"
csv_awk s.csv '{ g++; k[$col["op"] " " $col["size_bytes"] " " $col["sync"]]++
        if ($col["processes"] != 2 || $col["n"] != 60) bad++
        if (!($col["min_s"] > 0 && $col["min_s"] <= $col["q1_s"] && $col["q1_s"] <= $col["median_s"] &&
              $col["median_s"] <= $col["q3_s"] && $col["q3_s"] <= $col["max_s"])) bad++
        if (!($col["median_ci_lo_s"] <= $col["median_s"] && $col["median_s"] <= $col["median_ci_hi_s"])) bad++
        if (!($col["mean_ci_lo_s"] <= $col["mean_s"] && $col["mean_s"] <= $col["mean_ci_hi_s"])) bad++
        if ($col["n_kept"] > $col["n"] || $col["n_kept"] < 30) bad++ }
    END { split("allreduce bcast", o, " "); split("8 1024", z, " "); split("barrier harmonize", y, " ")
          for (a = 1; a <= 2; a++) for (b = 1; b <= 2; b++) for (c = 1; c <= 2; c++)
              if (k[o[a] " " z[b] " " y[c]] != 1) bad++
          exit !(g == 8 && bad == 0) }'
check $? "8 groups (2 ops x 2 sizes x 2 syncs) once each, processes 2, n 60, min <= q1 <= median <= q3 <= max, CIs hold median and mean"
for key in harmonia_version command_line filter metric inputs; do
    grep -q "^# $key: " s.csv
    check $? "factor $key"
done
grep -q '^# filter: tukey$' s.csv && grep -q '^# metric: global$' s.csv &&
    grep -q '^# inputs: b.csv,h.csv$' s.csv
check $? "factors filter tukey, metric global, inputs b.csv,h.csv"

# --- --filter none: n kept; median and q1 equal the type 7 quantiles of the raw rows ---
launch 0 stats --filter none --output n.csv b.csv h.csv
check "$status" "stats --filter none: exit 0" "exit $status"
csv_awk n.csv '{ g++; if ($col["n_kept"] != $col["n"] || $col["n"] != 60) bad++ } END { exit !(g == 8 && bad == 0) }'
check $? "--filter none: n_kept = n = 60 in all 8 groups"
csv_awk b.csv '$col["op"] == "allreduce" && $col["size_bytes"] == 8 && $col["valid"] == 1 {
                   print $col["global_s"] }' | sort -g >g.txt
csv_awk n.csv '$col["op"] == "allreduce" && $col["size_bytes"] == 8 && $col["sync"] == "barrier" {
                   print $col["median_s"], $col["q1_s"], $col["n"] }' >st.txt
awk 'FILENAME == ARGV[1] { x[++n] = $1; next }
     { good = n == $3 && close_to(q(0.5), $1) && close_to(q(0.25), $2) }
     END { exit !good }
     function q(p,   h, j) { h = (n - 1) * p; j = int(h); return x[j + 1] + (h - j) * (x[j + 2] - x[j + 1]) }
     function close_to(a, b) { d = a - b; if (d < 0) d = -d; return d <= 1e-9 * (b < 0 ? -b : b) }' \
    g.txt st.txt
check $? "allreduce 8 B barrier: median and q1 = type 7 quantiles of the 60 raw valid rows (1e-9 relative)" \
    "stats $(cat st.txt); raw $(wc -l <g.txt) rows"

# --- a planted outlier: Tukey drops exactly it; invalid rows are not counted ----------
{
    printf '# processes: 4\n# sync: dissem\nop,size_bytes,attempt,valid,global_s,local_s,start_spread_s,start_s\n'
    for i in $(seq 0 19); do printf 'bcast,64,%d,1,%s,1e-06,0,0\n' "$i" "$(awk -v i="$i" 'BEGIN { printf "%.3e", 1e-6 + i * 1e-8 }')"; done
    printf 'bcast,64,20,1,1e-03,1e-06,0,0\n'
    printf 'bcast,64,21,0,5e-01,1e-06,0,0\n'
} >o.csv
launch 0 stats --output os.csv o.csv
csv_awk os.csv '{ g++; ok = $col["n"] == 21 && $col["n_kept"] == 20 && $col["max_s"] < 2e-6 &&
                  $col["processes"] == 4 && $col["sync"] == "dissem" }
    END { exit !(st == 0 && g == 1 && ok) }' -v st="$status"
check $? "planted 1e-3 s among 20 values near 1e-6 s: n 21 (the valid = 0 row skipped), Tukey keeps 20, max < 2 us" \
    "exit $status; $(csv_tsv os.csv | tail -1 | cut -f1-11)"
launch 0 stats --filter none --output os2.csv o.csv
csv_awk os2.csv '{ ok = $col["n_kept"] == 21 && $col["max_s"] == 1e-3 } END { exit !ok }'
check $? "--filter none keeps the outlier: n_kept 21, max 1e-3"
[ -n "$(csv_awk os2.csv '{ print $col["acf1"] }')" ]
check $? "acf1 computed for 21 non-constant values"

# --- n/a for too few values ---------------------------------------------------------
printf '# processes: 2\n# sync: barrier\nop,size_bytes,valid,global_s\nbcast,8,1,1e-6\nbcast,8,1,2e-6\n' >two.csv
launch 0 stats --output two_s.csv two.csv
csv_awk two_s.csv '{ ok = $col["n"] == 2 && $col["median_ci_lo_s"] == "" && $col["acf1"] == "" &&
                    $col["shapiro_p"] == "" } END { exit !(st == 0 && ok) }' -v st="$status"
check $? "2 values: median CI, acf1, Shapiro-Wilk are empty cells (no value) in the file" "exit $status; $(csv_tsv two_s.csv | tail -1)"
n_na=$(table_cols op med_ci_lo_us med_ci_hi_us acf1 sw_p | grep -o 'n/a' | wc -l)
[ "$n_na" -eq 4 ]
check $? "table shows n/a for them (4 cells, got $n_na)"

# --- bad input: exit 2, one message naming the file (and line) -------------------------
expect_usage 0 'stats: no input files' stats
expect_usage 0 'stats: no input files' stats --filter none
expect_usage 0 'missing.csv: No such file or directory' stats b.csv missing.csv
printf 'a,b\n1,2\n' >nocols.csv
expect_usage 0 'nocols.csv: missing columns: op, size_bytes, valid, global_s' stats nocols.csv
printf '# processes: 2\n# sync: barrier\nop,size_bytes,valid,local_s\nbcast,8,1,1e-6\n' >local.csv
expect_usage 0 'local.csv: missing columns: global_s' stats local.csv
expect_ok 0 'bcast' stats --metric local local.csv
printf '# processes: 2\n# sync: barrier\nop,size_bytes,valid,global_s\nbcast,8,1,1e-6\nbcast,8,1,abc\n' >bad.csv
expect_usage 0 'bad.csv:5: "abc" is not a number (column global_s)' stats b.csv bad.csv
printf 'op,size_bytes,valid,global_s\nbcast,8,1,1e-6\n' >nofactor.csv
expect_usage 0 'nofactor.csv: missing factor "# processes: ..."' stats nofactor.csv
expect_usage 0 '--filter: unknown filter "median" (known: tukey, none)' stats --filter median b.csv
expect_usage 0 '--metric: unknown metric "wall" (known: global, local, overhead, measured, comp_slowdown, comm_ratio)' stats --metric wall b.csv
expect_usage 0 '--sizes (-m) is not an option of '"'"'stats'"'" stats --sizes 8 b.csv
expect_usage 0 'unexpected argument "extra"' timers extra
expect_ok 0 'harmonia stats [--filter tukey|none]' help stats
# --- campaigns: the reproducibility report (Fig. 29) -------------------------------
# Per-run medians 2, 1, 1.5 us (means 4, 2, 2 us): ratios to the smallest 1, 1.5, 2.
mkdir -p camp
{ echo run,seed,op,size_bytes,processes,sync,n,kept,median_s,mean_s
  echo 1,11,bcast,8,2,barrier,50,48,2e-06,4e-06
  echo 2,12,bcast,8,2,barrier,50,49,1e-06,2e-06
  echo 3,13,bcast,8,2,barrier,50,50,1.5e-06,2e-06; } >camp/per-mpirun.csv
launch 0 stats --output repro.csv camp
[ "$status" -eq 0 ] && grep -q "bcast 8 B, 2 processes, barrier, 3 runs: 1.000 1.500 2.000  (max 2.000)" "$out"
check $? "stats CAMPAIGN_DIR: the runs' medians over the smallest, ascending, and the max" "exit $status"
csv_awk repro.csv '{ n++; want[1] = 2; want[2] = 1; want[3] = 1.5
        if ($col["normalized"] == want[$col["run"]] && $col["max_normalized"] == 2) good++ }
    END { exit !(n == 3 && good == 3) }'
check $? "--output: normalized 2, 1, 1.5 per run, max_normalized 2"
launch 0 stats --statistic mean camp/per-mpirun.csv
grep -q "barrier, 3 runs: 1.000 1.000 2.000  (max 2.000)" "$out"
check $? "--statistic mean: means 4, 2, 2 us give 1, 1, 2"
expect_usage 0 "stats: give either raw files of 'harmonia bench --raw' or 'harmonia overlap --raw', or campaigns" stats b.csv camp
{ cat camp/per-mpirun.csv; echo 3,13,bcast,8,2,barrier,50,50,1.5e-06,2e-06; } >twice.csv
expect_usage 0 'twice.csv: run 3 appears twice for bcast 8 B, 2 processes, sync barrier' stats twice.csv
# Bytes from a bad file reach the terminal escaped: an escape sequence and an
# invalid UTF-8 byte are quoted as \xHH, never written raw.
printf '# processes: 2\n# sync: barrier\nop,size_bytes,attempt,valid,global_s,local_s,start_spread_s,start_s\nallreduce,8,0,1,\033[31m1\377,1e-6,0,0\n' >esc.csv
expect_usage 0 'esc.csv:4: "\x1b[31m1\xff" is not UTF-8 text (cell 5)' stats esc.csv
! LC_ALL=C grep -q $'\033' "$out"
check $? "no raw escape byte in the message"
# Bad rows are errors with file and line: a negative run-time, a validity
# other than 0 or 1, a NUL byte (it would cut "allreduce" into a phantom
# group "allre").
head3='# processes: 2\n# sync: barrier\nop,size_bytes,attempt,valid,global_s,local_s,start_spread_s,start_s\n'
printf "${head3}allreduce,8,0,1,-1e-6,1e-6,0,0\n" >neg.csv
expect_usage 0 'neg.csv:4: "-1e-6" is not a run-time (finite, at least 0) (column global_s)' stats neg.csv
printf "${head3}allreduce,8,0,2,1e-6,1e-6,0,0\n" >v2.csv
expect_usage 0 'v2.csv:4: "2" is not a validity, 0 or 1 (column valid)' stats v2.csv
printf "${head3}allre\000duce,8,0,1,1e-6,1e-6,0,0\n" >nul.csv
expect_usage 0 'nul.csv:4: a NUL byte (not a text file?)' stats nul.csv
finish
