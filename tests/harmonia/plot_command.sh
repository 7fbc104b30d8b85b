#!/usr/bin/env bash
# `harmonia plot`: from small files of bench (raw and summary), a hand-made
# campaign dataset, clock and skew, the figures each kind of input promises
# exist as non-empty SVG (or PNG) images whose legends name the expected
# series and whose axes carry their units; two files whose series would share
# a name are told apart by file name; nothing temporary is left behind; bad
# input is refused with exit 2 and one message naming the file (and line); a
# missing gnuplot is exit 1.
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out"' EXIT
cd "$dir" || exit 1
show() { sed 's/^/    | /' "$out" >&2; }
mkdir scratch
export TMPDIR=$dir/scratch # plot's scratch directory must be gone afterwards

# gnuplot is a dependency (scripts/install-deps installs gnuplot-nox): without
# it the figures cannot be checked, and that is a failure, not a skip. (The
# missing-gnuplot error itself is checked below with a PATH that lacks it.)
if ! command -v gnuplot >/dev/null; then
    fail "gnuplot not in PATH: install gnuplot-nox (scripts/install-deps); no figure checked"
    finish
    exit
fi

# svg_ok FILE TEXT... : FILE is a non-empty SVG image holding each TEXT as the
# whole content of a text element (legend entries, axis labels, tics).
svg_ok() {
    local f=$1 t missing=""
    shift
    if [ ! -s "$f" ] || ! head -c 200 "$f" | grep -q '<?xml' || ! grep -q '<svg' "$f"; then
        fail "$f: not a non-empty SVG file"
        return
    fi
    for t in "$@"; do grep -qF -- ">$t</text>" "$f" || missing="$missing [$t]"; done
    [ -z "$missing" ]
    check $? "$f: SVG with $*" "missing:$missing"
}

png_ok() {
    [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
    check $? "$1: PNG image (magic bytes)"
}

# --- inputs ------------------------------------------------------------------
small=(--ops allreduce,bcast --sizes 8,1K,64K --nrep 60)
launch 2 bench "${small[@]}" --sync barrier --raw b.csv --output bsum.csv
check "$status" "bench --raw b.csv --output bsum.csv: exit 0" "exit $status"
launch 2 bench --ops allreduce --sizes 8,1K --nrep 30 --sync barrier --raw b2.csv
check "$status" "bench --raw b2.csv: exit 0" "exit $status"
launch 2 clock --clock-sync hca3,skampi --check-after 0,1 --output c.csv --raw craw.csv
check "$status" "clock --output c.csv --raw craw.csv: exit 0" "exit $status"
launch 2 skew --nrep 100 --raw s.csv --output t.csv
check "$status" "skew --raw s.csv --output t.csv: exit 0" "exit $status"
# A campaign dataset as campaign writes it: 3 runs, 2 series, 2 sizes.
mkdir -p runs/barrier
{
    echo '# harmonia_version: test'
    echo 'run,seed,op,size_bytes,processes,sync,n,kept,median_s,mean_s'
    for r in 1 2 3; do
        echo "$r,1$r,allreduce,8,2,barrier,100,98,8.$r""e-07,9e-07"
        echo "$r,1$r,allreduce,1024,2,barrier,100,98,1.6$r""e-06,1.7e-06"
        echo "$r,1$r,bcast,8,2,barrier,100,98,5.$r""e-07,6e-07"
        echo "$r,1$r,bcast,1024,2,barrier,100,98,1.3$r""e-06,1.4e-06"
    done
} >runs/barrier/per-mpirun.csv

# --- every kind of figure, SVG ------------------------------------------------
launch 0 plot --dir figs b.csv bsum.csv runs/barrier c.csv craw.csv s.csv t.csv
check "$status" "plot of all inputs: exit 0" "exit $status"
[ "$status" -eq 0 ] || show
svg_ok figs/b+bsum-latency.svg "allreduce barrier, b" "bcast barrier, b" "allreduce barrier, bsum" \
    "bcast barrier, bsum" "message size (bytes)" "run-time (µs)" 8 1K 64K
svg_ok figs/b-distribution.svg "allreduce barrier" "bcast barrier" median \
    "message size (bytes)" "run-time (µs)" 8 1K 64K
svg_ok figs/barrier-campaign.svg "allreduce barrier" "bcast barrier" "message size (bytes)" \
    "per-mpirun median run-time (µs)" 8 1K
svg_ok figs/c-clock.svg "hca3 max |offset|" "skampi max |offset|" "hca3 median |offset|" \
    "time after synchronization (s)" "offset (µs)"
svg_ok figs/craw-clock-ranks.svg "hca3 offset (ping-pong)" "skampi offset (ping-pong)" \
    "time after synchronization (s)" "offset of the global clock (µs)"
svg_ok figs/s-skew.svg barrier dissem harmonize "exit skew (µs)" "fraction of repetitions"
svg_ok figs/t-skew-quantiles.svg barrier dissem harmonize "exit skew (µs)" median p90 p99 max
n_lines=$(grep -c '^figs/.*\.svg: ' "$out")
n_files=$(find figs -type f | wc -l)
[ "$n_lines" -eq 7 ] && [ "$n_files" -eq 7 ]
check $? "7 images, one printed line each (lines $n_lines, files $n_files)"
[ -z "$(ls -A scratch)" ] && [ -z "$(find figs -name '.*')" ]
check $? "no scratch directory or temporary image left"

# --- scale/run's gathered files: against the process count, fitted ----------
# Durations made to fit: "tree" 1 + 2 log2 p ms, "root" 0.5 + 0.1 p ms, at
# p = 16 ... 256. Worked out apart (Python, by the textbook formulas): each
# fitted to the other's shape has r² 0.871; the root's line is above the
# tree's from p = 150 (15.5 > 1 + 2 log2 150 = 15.46; at 149, 15.4 < 15.44).
{
    echo "platform,processes,sim_wall_s,clock_sync,after_s,duration_s,offset_max_s,offset_median_s,truth_known,true_max_s,true_median_s"
    for p in 16 32 64 128 256; do
        awk -v p="$p" 'BEGIN { t = (1 + 2 * log(p) / log(2)) / 1e3; r = (0.5 + 0.1 * p) / 1e3
            printf "cluster,%d,1,tree,0,%.9g,1e-7,1e-7,1,2e-7,1e-7\n", p, t
            printf "cluster,%d,1,tree,10,%.9g,1e-5,1e-5,1,2e-5,1e-5\n", p, t
            printf "cluster,%d,1,root,0,%.9g,1e-7,1e-7,1,3e-7,1e-7\n", p, r
            printf "cluster,%d,1,root,10,%.9g,1e-4,1e-4,1,3e-4,1e-4\n", p, r }'
    done
} >scale-clock.csv
{
    echo "platform,processes,sim_wall_s,method,repetitions,late_starts,missed,skew_median_s,skew_p90_s,skew_p99_s,skew_max_s,true_skew_median_s,true_skew_p90_s,true_skew_p99_s,true_skew_max_s,cost_s"
    for p in 16 64 256; do
        echo "cluster,$p,1,barrier,200,0,0,1e-6,1.1e-6,1.2e-6,1.3e-6,1e-6,1.1e-6,1.2e-6,1.3e-6,2e-6"
        echo "cluster,$p,1,harmonize,200,0,0,1e-7,1.1e-7,1.2e-7,1.3e-7,1e-7,1.1e-7,1.2e-7,1.3e-7,5e-6"
    done
} >scale-skew.csv
{
    echo "platform,processes,sim_wall_s,op,size_bytes,sync,valid,invalid,wrong_results,median_s,local_median_s"
    for p in 16 64 256; do
        echo "cluster,$p,1,allreduce,8,barrier,200,0,0,2e-6,1e-6"
        echo "cluster,$p,1,allreduce,65536,harmonize,200,0,0,6e-5,5e-5"
    done
} >scale-bench.csv
launch 0 plot --dir scale scale-clock.csv scale-skew.csv scale-bench.csv
check "$status" "plot of scale/run's files: exit 0" "exit $status"
[ "$status" -eq 0 ] || show
grep -q '^scale/scale-clock-scale-duration.svg: sync duration vs processes, 2 algorithms, 2 fitted$' "$out"
check $? "duration: both algorithms fitted" "$(cat "$out")"
svg_ok scale/scale-clock-scale-duration.svg "processes" "duration (ms)" 16 256 \
    "tree: 1 + 2 log2 p, r² 1.000 (linear 0.871)" "root: 0.5 + 0.1 p, r² 1.000 (log 0.871)" \
    "root (linear) overtakes tree at p = 150"
svg_ok scale/scale-clock-scale-error.svg "tree after 0 s" "tree after 10 s" "root after 10 s" \
    "error (µs)" "processes"
svg_ok scale/scale-skew-scale-skew.svg "barrier median skew" "harmonize p99 skew" \
    "harmonize cost per call" "time (µs)"
svg_ok scale/scale-bench-scale-bench.svg "allreduce 8 B barrier" "allreduce 64K B harmonize" \
    "run-time (µs)" 16 64 256

sed '3s/^cluster,16,/cluster,sixteen,/' scale-clock.csv >scale-bad.csv
expect_usage 0 'scale-bad.csv:3: "sixteen" is not a process count (column processes)' plot scale-bad.csv

# --- two raw files with the same series: told apart by file name --------------
launch 0 plot --dir same b.csv b2.csv
check "$status" "plot b.csv b2.csv: exit 0" "exit $status"
svg_ok same/b+b2-latency.svg "allreduce barrier, b" "allreduce barrier, b2" "bcast barrier"

# --- a partial file (issue 28): warned of once, its series marked -------------
# Its lone points were drawn as a series like any other.
sed 's/^# complete: yes$/# complete: no (1 of 2 experiments)/' b2.csv >p2.csv
launch 0 plot --dir part b.csv p2.csv
n=$(grep -cF 'harmonia: warning: plot: p2.csv is partial (complete: no (1 of 2 experiments))' "$out")
[ "$status" -eq 0 ] && [ "$n" -eq 1 ] && [ "$(grep -c 'warning' "$out")" -eq 1 ]
check $? "plot of a partial file: exit 0, one warning for it (not one per figure)" \
    "exit $status, $n warnings"
svg_ok part/b+p2-latency.svg "allreduce barrier, p2 (partial: 1 of 2 experiments)" \
    "allreduce barrier, b" "bcast barrier"

# --- PNG, both, --metric local -------------------------------------------------
launch 0 plot --dir out/png --format png b.csv
check "$status" "--format png: exit 0" "exit $status"
png_ok out/png/b-latency.png
png_ok out/png/b-distribution.png
[ ! -e out/png/b-latency.svg ]
check $? "--format png writes no SVG"
launch 0 plot --dir both --format both --metric local b.csv
check "$status" "--format both --metric local: exit 0" "exit $status"
png_ok both/b-latency.png
svg_ok both/b-latency.svg "allreduce barrier" "run-time (µs)"
grep -qF 'median local run-time' both/b-latency.svg
check $? "--metric local: the title says local"

# --- bad input: exit 2, one message naming the file (and line) ----------------
expect_usage 0 "nothere.csv: No such file or directory" plot nothere.csv
printf '# sync: barrier\nop,size_bytes,global_s\nallreduce,8,1e-6\n' >nocol.csv
expect_usage 0 "nocol.csv: missing columns: valid" plot nocol.csv
printf 'a,b\n1,2\n' >foreign.csv
expect_usage 0 "foreign.csv: not a result file of harmonia" plot foreign.csv
# (bench raw files carry their processes and sync: plot reads them with the
# reader of stats and compare, which requires both)
printf '# processes: 2\n# sync: barrier\nop,size_bytes,valid,global_s,local_s\nallreduce,8,1,1e-6,1e-6\nallreduce,8,1,abc,1e-6\n' >cell.csv
expect_usage 0 'cell.csv:5: "abc" is not a number (column global_s)' plot cell.csv
printf '# processes: 2\n# sync: barrier\nop,size_bytes,valid,global_s,local_s\nallreduce,8.5,1,1e-6,1e-6\n' >size.csv
expect_usage 0 'size.csv:4: "8.5" is not a size in bytes (column size_bytes)' plot size.csv
sed '3s/8\.1e-07/x/' runs/barrier/per-mpirun.csv >pm.csv
expect_usage 0 'pm.csv:3: "x" is not a number (column median_s)' plot pm.csv
mkdir -p empty
expect_usage 0 "empty/per-mpirun.csv: No such file or directory" plot empty
expect_usage 0 "plot: no input files" plot
expect_usage 0 'unknown image format "pdf"' plot --format pdf b.csv
expect_usage 0 '--dir: cannot create "b.csv/x": Not a directory' plot --dir b.csv/x b.csv
# an error in the second file: nothing drawn
expect_usage 0 "cell.csv:5:" plot --dir bad b.csv cell.csv
[ ! -e bad ]
check $? "an error in any input: no figure drawn, no directory made"

# --- gnuplot missing: exit 1 (harmonia by its absolute path, PATH without gnuplot)
mkdir nobin
PATH=$dir/nobin "$HARMONIA" plot --dir none b.csv >"$out" 2>&1
status=$?
[ "$status" -eq 1 ] && [ "$(grep -c 'harmonia: error:' "$out")" -eq 1 ] &&
    grep -qF 'plot: gnuplot not found in PATH (install gnuplot-nox)' "$out" && [ ! -e none ]
check $? "no gnuplot in PATH: exit 1, one message, nothing written (exit $status)"
[ "$status" -eq 1 ] || show

# --- gnuplot failing: exit 1 with its message, no image, scratch removed -------
mkdir fakebin
printf '#!/bin/sh\necho "line 3: unknown terminal type" >&2\nexit 1\n' >fakebin/gnuplot
chmod +x fakebin/gnuplot
PATH=$dir/fakebin:$PATH "$HARMONIA" plot --dir failed b.csv >"$out" 2>&1
status=$?
[ "$status" -eq 1 ] && grep -qF 'gnuplot failed (exit 1): line 3: unknown terminal type' "$out" &&
    [ -z "$(ls -A failed)" ] && [ -z "$(ls -A scratch)" ]
check $? "gnuplot failing: exit 1 with its first error line, nothing left (exit $status)"
[ "$status" -eq 1 ] || show
finish
