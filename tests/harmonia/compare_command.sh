#!/usr/bin/env bash
# `harmonia compare A B` (Hunold & Carpen-Amarie 2016, Sec. 6.2): synthetic per-mpirun datasets
# with and without a shift give the p-values the Wilcoxon test must give — the
# exact p of fully separated samples, SciPy's p on fixed small inputs — the
# verdicts, the ratio of medians and the reproducibility (Fig. 29); raw files
# of two real bench runs compare end to end; bad input is refused with exit 2
# and one message naming the operand, the file and the line.
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out"' EXIT
cd "$dir" || exit 1
show() { sed 's/^/    | /' "$out" >&2; }
HEAD=run,seed,op,size_bytes,processes,sync,n,kept,median_s,mean_s

# permpirun SEED FACTOR SYNC > FILE: a per-mpirun file of 10 runs x 2 groups
# (allreduce 8 B around 1.5 us, bcast 1 KiB around 4 us at 2 processes),
# median_s = base x FACTOR x (1 + 0.02 z), z standard normal (Box-Muller),
# mean_s = 1.01 median_s. The uniform numbers come from the Park-Miller
# generator (16807 s mod 2^31 - 1, exact in doubles), not from awk's rand, so
# that the files are the same under mawk, gawk or busybox awk; its first 10
# numbers are dropped, since a small seed starts with a tiny one.
permpirun() {
    awk -v seed="$1" -v factor="$2" -v sync="$3" -v head="$HEAD" '
        function u() { s = (16807 * s) % 2147483647; return s / 2147483647 }
        function z() { return sqrt(-2 * log(u())) * cos(6.283185307179586 * u()) }
        BEGIN { s = seed; for (i = 0; i < 10; i++) u(); print head
            split("allreduce bcast", op, " "); split("8 1024", size, " "); split("1.5e-6 4e-6", base, " ")
            for (r = 1; r <= 10; r++) for (g = 1; g <= 2; g++) {
                m = base[g] * factor * (1 + 0.02 * z())
                printf "%d,%d,%s,%d,2,%s,100,97,%.17g,%.17g\n", r, seed, op[g], size[g], sync, m, 1.01 * m } }'
}
permpirun 42 1.0 barrier >a.csv
permpirun 4242 1.2 harmonize >b.csv
permpirun 31415 1.0 barrier >c.csv

# --- B = A + 20 %: separated samples, exact p, ratio, verdict ---------------------
launch 0 compare --output ab.csv a.csv b.csv
check "$status" "compare --output ab.csv a.csv b.csv: exit 0" "exit $status"
[ "$status" -eq 0 ] || show
# Noise 2 % against a shift of 20 %: the 10 + 10 values never overlap, so W = 0
# and the exact two-sided p is 2 / C(20, 10) = 1.082508822446903e-05 whatever
# the draws. The ratio of medians of 10 values with 2 % noise has a relative
# standard deviation of about sqrt(2) x 1.25 x 2 % / sqrt(10) = 1.1 %: 1.2 +-
# 0.05 is 4 standard deviations, and still fails on B/A inverted (0.83).
csv_awk ab.csv '{ g++; d = $col["p"] / 1.082508822446903e-05 - 1; if (d < 0) d = -d
        if (!(d < 1e-9 && $col["p"] < 0.001 && $col["W"] == 0 && $col["stars"] == "***")) bad++
        if (!($col["ratio_B_A"] > 1.15 && $col["ratio_B_A"] < 1.25)) bad++
        if ($col["verdict"] != "B slower" || $col["n_A"] != 10 || $col["n_B"] != 10) bad++
        if ($col["sync_A"] != "barrier" || $col["sync_B"] != "harmonize") bad++
        print $col["op"], $col["size_bytes"], $col["ratio_B_A"], $col["p"], $col["verdict"] >"/dev/stderr" }
    END { exit !(g == 2 && bad == 0) }'
check $? "2 groups: p = 2/C(20,10) (exact, W = 0, ***), B/A in [1.15, 1.25], verdict \"B slower\", n 10 + 10"
csv_awk ab.csv '$col["op"] == "bcast" { print $col["median_A_s"] }' >med.txt
csv_awk a.csv '$col["op"] == "bcast" { print $col["median_s"] }' | sort -g |
    awk '{ x[NR] = $1 } END { m = (x[5] + x[6]) / 2; getline want <"med.txt"; d = m / want - 1; if (d < 0) d = -d; exit !(NR == 10 && d < 1e-12) }'
check $? "median_A_s of bcast = median of A's 10 per-run medians (1e-12 relative)"
# Fig. 29: max_normalized = largest per-run value / smallest, for each side.
csv_awk a.csv '$col["op"] == "allreduce" { x = $col["median_s"]; if (n++ == 0 || x < lo) lo = x; if (n == 1 || x > hi) hi = x }
    END { printf "%.17g\n", hi / lo }' >repro.txt
csv_awk ab.csv '$col["op"] == "allreduce" { getline want <"repro.txt"; d = $col["max_normalized_A"] / want - 1
        if (d < 0) d = -d; ok = d < 1e-12 && $col["max_normalized_A"] > 1 && $col["max_normalized_B"] > 1 }
    END { exit !ok }'
check $? "max_normalized_A of allreduce = max / min of A's per-run medians; B's > 1 too"
for key in harmonia_version command_line inputs A B alternative statistic filter metric level; do
    grep -q "^# $key: " ab.csv
    check $? "factor $key in the --output file"
done
grep -q '^# alternative: two-sided$' ab.csv && grep -q '^# inputs: a.csv,b.csv$' ab.csv &&
    grep -q "^# A: a.csv (per-mpirun, label barrier, metric ?, filter ?)$" ab.csv
check $? "factors alternative two-sided, inputs a.csv,b.csv, A a.csv (per-mpirun, label barrier)"
grep -q '^A = barrier: a.csv, per-mpirun medians' "$out" && grep -q '^B = harmonize: b.csv' "$out" &&
    grep -q 'H1: A and B differ (two-sided)' "$out"
check $? "header: A = barrier, B = harmonize (the syncs differ), H1 two-sided"
rows=$(awk '$1 == "allreduce" || $1 == "bcast"' "$out" | grep -c 'B slower')
[ "$rows" -eq 2 ]
check $? "table: 2 rows with verdict \"B slower\" (got $rows)"

# --- one-sided alternatives: A is smaller, not larger ------------------------------
launch 0 compare --alternative less --output less.csv a.csv b.csv
csv_awk less.csv '{ g++; if (!($col["p"] < 0.001 && $col["verdict"] == "A smaller")) bad++ }
    END { exit !(st == 0 && g == 2 && bad == 0) }' -v st="$status"
check $? "--alternative less: p < 0.001, verdict \"A smaller\" in both groups"
launch 0 compare --alternative greater --output greater.csv a.csv b.csv
csv_awk greater.csv '{ g++; if (!($col["p"] > 0.9 && $col["verdict"] == "no evidence" && $col["stars"] == "")) bad++ }
    END { exit !(st == 0 && g == 2 && bad == 0) }' -v st="$status"
check $? "--alternative greater: p > 0.9, no stars, verdict \"no evidence\""
grep -q 'H1: A larger than B (greater)' "$out"
check $? "header names H1 of --alternative greater"

# --- C drawn like A with another seed: no evidence ----------------------------------
# Under H0 the two-sided p exceeds 0.05 with probability 0.95 only: the seeds
# fix the draws, so the check is deterministic, but a seed may give one of the
# 5 % of false positives (seed 7 did: p = 0.019 for allreduce, which SciPy's
# mannwhitneyu confirms). Seed 31415 gives p = 0.44 and 0.85. The ratio of
# medians has a relative standard deviation of 1.1 % (above): 3 % is 2.7 of it.
launch 0 compare --output ac.csv a.csv c.csv
csv_awk ac.csv '{ g++; r = $col["ratio_B_A"]
        if (!($col["p"] > 0.05 && $col["verdict"] == "no evidence" && r > 0.97 && r < 1.03)) bad++
        print $col["op"], $col["p"], r >"/dev/stderr" }
    END { exit !(st == 0 && g == 2 && bad == 0) }' -v st="$status"
check $? "A vs C (same distribution): p > 0.05, \"no evidence\", B/A within 3 %"
grep -q '^A = a.csv: a.csv' "$out" && grep -q '^B = c.csv: c.csv' "$out"
check $? "same sync on both sides: the labels are the file names"

# --- --statistic mean: the mean_s column ---------------------------------------------
launch 0 compare --statistic mean --output mean.csv a.csv b.csv
csv_awk ab.csv '{ m[$col["op"]] = $col["median_A_s"] } END { for (k in m) print k, m[k] }' >m1.txt
csv_awk mean.csv '{ print $col["op"], $col["median_A_s"] }' >m2.txt
awk 'NR == FNR { want[$1] = 1.01 * $2; next } { d = $2 / want[$1] - 1; if (d < 0) d = -d; if (d > 1e-12) bad++; n++ }
     END { exit !(n == 2 && bad == 0) }' m1.txt m2.txt
check $? "--statistic mean: the samples are mean_s (= 1.01 median_s here)"

# --- p-values against SciPy on fixed small inputs -------------------------------------
# Produced with SciPy 1.10.1:
#   from scipy.stats import mannwhitneyu
#   x = [1.2e-6, 3.4e-6, 2.2e-6, 5.1e-6, 4.4e-6]
#   y = [2.9e-6, 6.0e-6, 5.5e-6, 7.3e-6, 4.8e-6, 6.6e-6]
#   mannwhitneyu(x, y, alternative=..., method='exact')
#     two-sided: U 4, p 0.05194805194805195; less: p 0.025974025974025976
#   with ties, x = [1,2,2,3,4,4,5] us, y = [3,4,5,5,6,7,7] us:
#   mannwhitneyu(x, y, alternative=..., method='asymptotic', use_continuity=True)
#     two-sided: U 6.5, p 0.023598878606634243; less: p 0.011799439303317122
# R's wilcox.test computes the same (exact without ties, else the normal
# approximation with tie-corrected variance and continuity correction).
one_group() { # VALUES... : a per-mpirun file, one run per value, group bcast 8 B
    echo "$HEAD"
    local r=0
    for v in "$@"; do r=$((r + 1)); echo "$r,1,bcast,8,2,barrier,50,50,$v,$v"; done
}
one_group 1.2e-6 3.4e-6 2.2e-6 5.1e-6 4.4e-6 >sx.csv
one_group 2.9e-6 6.0e-6 5.5e-6 7.3e-6 4.8e-6 6.6e-6 >sy.csv
one_group 1e-6 2e-6 2e-6 3e-6 4e-6 4e-6 5e-6 >tx.csv
one_group 3e-6 4e-6 5e-6 5e-6 6e-6 7e-6 7e-6 >ty.csv
scipy_p() { # X Y ALTERNATIVE W P
    launch 0 compare --alternative "$3" --output p.csv "$1" "$2"
    csv_awk p.csv '{ d = $col["p"] / p - 1; if (d < 0) d = -d; ok = d < 1e-6 && $col["W"] == w; print $col["W"], $col["p"] >"/dev/stderr" }
        END { exit !(st == 0 && NR == 2 && ok) }' -v st="$status" -v w="$4" -v p="$5"
    check $? "$1 vs $2 --alternative $3: W = $4 and p = $5 (SciPy) to 1e-6 relative"
}
scipy_p sx.csv sy.csv two-sided 4 0.05194805194805195
scipy_p sx.csv sy.csv less 4 0.025974025974025976
scipy_p tx.csv ty.csv two-sided 6.5 0.023598878606634243
scipy_p tx.csv ty.csv less 6.5 0.011799439303317122

# --- a campaign directory stands for its per-mpirun.csv ------------------------------
mkdir -p runs/one runs/two runs/empty
cp a.csv runs/one/per-mpirun.csv
cp b.csv runs/two/per-mpirun.csv
launch 0 compare --output dirs.csv runs/one runs/two/
csv_awk dirs.csv '{ g++ } END { exit !(st == 0 && g == 2) }' -v st="$status"
check $? "compare runs/one runs/two/: exit 0, 2 groups"
grep -q "^# A: runs/one/per-mpirun.csv (per-mpirun, label barrier, metric ?, filter ?)$" dirs.csv
check $? "a directory operand reads DIR/per-mpirun.csv"

# --- end to end: raw files of two real bench runs ------------------------------------
small=(--ops allreduce --sizes 8,1K --nrep 60)
launch 2 bench "${small[@]}" --sync barrier --raw rb.csv
check "$status" "bench --sync barrier --raw rb.csv: exit 0" "exit $status"
launch 2 bench "${small[@]}" --sync harmonize --raw rh.csv
check "$status" "bench --sync harmonize --raw rh.csv: exit 0" "exit $status"
launch 0 compare --output raw.csv rb.csv rh.csv
check "$status" "compare rb.csv rh.csv: exit 0" "exit $status"
[ "$status" -eq 0 ] || show
csv_awk raw.csv '{ g++; if (!($col["n_A"] >= 30 && $col["n_A"] <= 60 && $col["n_B"] >= 30 && $col["n_B"] <= 60)) bad++
        if ($col["max_normalized_A"] != "" || !($col["p"] >= 0 && $col["p"] <= 1)) bad++
        if ($col["sync_A"] != "barrier" || $col["sync_B"] != "harmonize") bad++ }
    END { exit !(g == 2 && bad == 0) }'
check $? "raw files: 2 groups, 30..60 Tukey-kept repetitions per side, no reproducibility (empty), syncs barrier/harmonize"
grep -q '^note: the samples of a raw file are repetitions within one mpirun' "$out" &&
    [ "$(awk '$1 == "allreduce"' "$out" | grep -c ' n/a ')" -eq 2 ]
check $? "raw files: the note is printed, repro shows n/a"
launch 0 compare --filter none --output rawn.csv rb.csv rh.csv
csv_awk rawn.csv '{ if ($col["n_A"] != 60 || $col["n_B"] != 60) bad++ } END { exit !(st == 0 && NR == 3 && bad == 0) }' -v st="$status"
check $? "--filter none: all 60 valid repetitions per side"

# --- bad input: exit 2, one message naming the operand, file and line ----------------
expect_usage 0 'compare: expected 2 operands A and B, got 1' compare a.csv
expect_usage 0 'compare: expected 2 operands A and B, got 3' compare a.csv b.csv c.csv
expect_usage 0 'compare: expected 2 operands A and B, got 0' compare
expect_usage 0 '--alternative: unknown alternative "bigger" (known: two-sided, less, greater)' \
    compare --alternative bigger a.csv b.csv
expect_usage 0 '--statistic: unknown statistic "max" (known: median, mean)' \
    compare --statistic max a.csv b.csv
expect_usage 0 'A: missing.csv: No such file or directory' compare missing.csv b.csv
expect_usage 0 'B: missing.csv: No such file or directory' compare a.csv missing.csv
expect_usage 0 "A: runs/empty has no per-mpirun.csv (run 'harmonia campaign" compare runs/empty b.csv
printf 'a,b\n1,2\n' >nocols.csv
expect_usage 0 "B: nocols.csv: neither a per-mpirun.csv of 'harmonia campaign'" compare a.csv nocols.csv
printf 'run,op\n1,bcast\n' >fewcols.csv
expect_usage 0 'A: fewcols.csv: missing columns: seed, size_bytes, processes, sync, n, kept, median_s, mean_s' \
    compare fewcols.csv b.csv
{ echo "$HEAD"; echo '1,1,bcast,8,2,barrier,50,50,1e-6,1e-6'; echo '2,1,bcast,8,2,barrier,50,50,abc,1e-6'; } >nan.csv
expect_usage 0 'B: nan.csv:3: "abc" is not a number (column median_s)' compare sx.csv nan.csv
{ echo "$HEAD"; echo '1,1,bcast,8,x2,barrier,50,50,1e-6,1e-6'; } >procs.csv
expect_usage 0 'A: procs.csv:2: "x2" is not an integer >= 1 (column processes)' compare procs.csv sx.csv
printf '# processes: 2\n# sync: barrier\nop,size_bytes,valid,global_s\nbcast,8,1,1e-6\nbcast,8,1,abc\n' >rawbad.csv
expect_usage 0 'A: rawbad.csv:5: "abc" is not a number (column global_s)' compare rawbad.csv sx.csv
printf '# processes: 2\n# sync: barrier\nop,size_bytes,valid,global_s\nbcast,8,0,1e-6\n' >rawnone.csv
expect_usage 0 'A: rawnone.csv: no valid repetitions (valid = 1)' compare rawnone.csv sx.csv
{ head -3 a.csv; echo '1,42,alltoall,64,2,barrier,100,97,1e-5,1e-5'; } >d.csv
expect_usage 0 'A and B hold different groups (op, size, processes): only in A (a.csv): none; only in B (d.csv): alltoall 64 B at 2 processes' \
    compare a.csv d.csv
{ echo "$HEAD"; echo '1,1,bcast,8,2,barrier,50,50,1e-6,1e-6'; echo '1,1,bcast,8,4,barrier,50,50,1e-6,1e-6'; } >e.csv
expect_usage 0 'only in A (sx.csv): none; only in B (e.csv): bcast 8 B at 4 processes' compare sx.csv e.csv
expect_usage 0 'only in A (e.csv): bcast 8 B at 4 processes; only in B (sx.csv): none' compare e.csv sx.csv
{ echo "$HEAD"; echo '1,1,bcast,8,2,barrier,50,50,1e-6,1e-6'; echo '1,1,bcast,8,2,harmonize,50,50,1e-6,1e-6'; } >twosync.csv
expect_usage 0 'A: twosync.csv holds bcast 8 B at 2 processes under more than one sync (barrier, harmonize)' \
    compare twosync.csv sx.csv
# Per-mpirun values reduced differently (campaign's "# metric:" and "#
# filter:" lines), or against an explicit --metric / --filter, are refused.
{ echo '# metric: local'; echo '# filter: tukey'; cat a.csv; } >loc.csv
{ echo '# metric: global'; echo '# filter: tukey'; cat b.csv; } >glob.csv
expect_usage 0 'A and B were reduced differently: A (loc.csv) with --metric local --filter tukey, B (glob.csv) with --metric global --filter tukey' \
    compare loc.csv glob.csv
expect_usage 0 'B: glob.csv was reduced with --filter tukey, not none' compare --filter none a.csv glob.csv
expect_usage 0 'A: loc.csv was reduced with --metric local, not global' compare --metric global loc.csv a.csv
launch 0 compare --metric local --output lm.csv loc.csv b.csv
[ "$status" -eq 0 ] && grep -q '^# A: loc.csv (per-mpirun, label barrier, metric local, filter tukey)' lm.csv
check $? "matching reductions compare; each side's recorded in the output" "exit $status"
# The same run twice in a group (two files pasted together) is not 2 mpiruns.
{ cat a.csv; sed -n 2p a.csv; } >dup.csv
expect_usage 0 'A: dup.csv: run 1 appears twice for allreduce 8 B, 2 processes, sync barrier' compare dup.csv b.csv
expect_usage 0 '--output: ' compare --output nodir/x.csv a.csv b.csv
[ ! -e nodir ]
check $? "a refused --output creates nothing"
expect_ok 0 'harmonia compare [--alternative two-sided|less|greater]' help compare
finish
