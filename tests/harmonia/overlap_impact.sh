#!/usr/bin/env bash
# tests/harmonia/overlap_impact.sh — `harmonia overlap impact --output`
# through the real program at 2 ranks: the MPI impact ratio [Denis et al.
# 2022, eq. 2] of every rank and thread in the table and in the file (its
# factors, its header, one row per rank and thread, every time measured),
# the histogram `harmonia plot` draws from it, and bad input refused before
# any measurement.
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out"' EXIT
cd "$dir" || exit 1

launch 2 overlap impact --comp-us 20000 --nrep 3 --output imp.csv
[ "$status" -eq 0 ] && [ -s imp.csv ]
check $? "impact at 20 ms: exit 0 and a file" "exit $status; $(cat "$out")"

# The file: the experiment's factors and the schema's header.
grep -q '^# processes: 2$' imp.csv && grep -q '^# mpi_library: ' imp.csv &&
    grep -q '^# compute: dgemm of ' imp.csv && grep -q '^# progress: ' imp.csv &&
    grep -q '^# compute_program: .*harmonia-compute$' imp.csv &&
    grep -q '^# comp_targets_us: 20000$' imp.csv && grep -q '^# nrep: 3$' imp.csv &&
    grep -q '^# complete: yes$' imp.csv
check $? "factors: processes, MPI library, compute, progress, program, targets, runs" \
    "$(grep '^#' imp.csv)"
[ "$(grep -v '^#' imp.csv | head -1)" = \
    "comp_target_s,matrix_order,rank,thread,core,without_mpi_s,with_mpi_s,impact" ]
check $? "header: the columns of HM_RESULTS_IMPACT" "$(grep -v '^#' imp.csv | head -1)"

# One row per rank and thread: ranks 0 and 1, each with threads 0..k-1 (one
# core each under Open MPI's binding and under MPICH's, split by the
# program), each pair once and on its own core, all at one matrix order.
csv_awk imp.csv '{ n++; key = $col["rank"] " " $col["thread"]
        if (seen[key]++ || core[$col["core"]]++) dup++
        if ($col["rank"] == 0 || $col["rank"] == 1) threads[$col["rank"]]++
        order[$col["matrix_order"]]++ }
    END { for (k in seen) { split(k, p, " "); if (p[2] >= threads[p[1]]) gap++ }
          norders = 0; for (o in order) norders++
          exit !(n >= 2 && threads[0] >= 1 && threads[1] >= 1 && n == threads[0] + threads[1] &&
                 !dup && !gap && norders == 1) }'
check $? "rows: one per rank and thread, ranks 0 and 1, distinct cores, one order" \
    "$(csv_tsv imp.csv)"

# Every time measured, near the 20 ms aimed at, and the ratio their
# quotient. Bounds: each time within 0.25x to 4x of the target (the order
# was calibrated to 10 % of it; a neighbour's process can double a run on
# this shared machine; a wrong order on one side, or a unit, would not fit),
# and the impact within 0.5 to 2. Without a progress thread the MPI runtime
# takes no cycles from the kernel and the ratio is 1: 1.035 and 1.036 under
# Open MPI 4.1 at 20 ms on a quiet machine; medians of 3 to 5 runs of 20 ms
# gave 0.81-1.86 while other builds ran here (0.25 once, under three
# busy-polling MPICH tests), as a neighbour taking a core for most of one
# side does: the test is retried once (label precision). A progress
# thread sharing the kernel's core gives about 2 (below), so the band
# still tells a broken measurement (0, or a factor 1000) apart.
csv_awk imp.csv '{ n++; t = $col["comp_target_s"]; w = $col["without_mpi_s"]; m = $col["with_mpi_s"]
        r = $col["impact"]; q = w > 0 ? m / w : -1
        if (t == 0.02 && $col["matrix_order"] > 0 && w > 0 && m > 0 &&
            w > 0.25 * t && w < 4 * t && m > 0.25 * t && m < 4 * t &&
            r >= 0.5 && r <= 2 && (r - q) * (r - q) < 1e-18) ok++ }
    END { exit !(n >= 2 && ok == n) }'
check $? "every time > 0 and within 0.25-4x of 20 ms, impact = with / without in 0.5-2" \
    "$(csv_tsv imp.csv)"
echo "impact ratios (rank thread impact):"
csv_awk imp.csv '{ print "  " $col["rank"], $col["thread"], $col["impact"] }'

# The table: the same rows, impact as in the file (3 decimals).
table_cols rank target_us rank thread impact >table.txt
csv_awk imp.csv '{ printf "20000 %d %d %.3f\n", $col["rank"], $col["thread"], $col["impact"] }' \
    >file.txt
[ -s table.txt ] && diff -q table.txt file.txt >/dev/null
check $? "table: the file's rows and ratios" "table: $(cat table.txt); file: $(cat file.txt)"

# The histogram: one bar per bin of the ratios, the line at 1, the target in
# the key with the median of its ratios.
launch 0 plot --dir figs imp.csv
[ "$status" -eq 0 ] && [ -s figs/imp-impact.svg ] &&
    grep -q '^figs/imp-impact.svg: MPI impact ratio histogram, [0-9]* rank x thread ratios, 1 target$' \
        "$out" &&
    grep -q '1 = no impact' figs/imp-impact.svg &&
    grep -q 'computation 20000 us: median [0-9.]*, [0-9]* ratios' figs/imp-impact.svg
check $? "plot: figs/imp-impact.svg, the line at 1, the target and its median in the key" \
    "exit $status; $(cat "$out")"

# What the ratio is for: MPICH's progress thread (MPIR_CVAR_ASYNC_PROGRESS=1)
# spins beside the kernels, 2 threads and 2 kernels on 2 cores, so about 2
# (1.82 to 2.23 seen at 20 ms; 2.81 and 1.13 while other tests ran). The
# reference runs with the rank stopped; one that ran beside the spinning
# threads read about 1 (1.1 and 0.75). The mean of the ranks' ratios at
# 1.3 or more tells the two apart, with room for a neighbour slowing one
# side of one rank.
if [ "$MPI_FLAVOR" = mpich ]; then
    MPIR_CVAR_ASYNC_PROGRESS=1 launch 2 overlap impact --comp-us 20000 --nrep 3 --output async.csv
    csv_awk async.csv '{ n++; sum += $col["impact"] } END { exit !(n >= 2 && sum / n >= 1.3) }'
    st=$?
    grep -q '^# progress: async (MPIR_CVAR_ASYNC_PROGRESS=1)' async.csv && [ "$st" -eq 0 ]
    check $? "MPICH with its progress thread: the mean impact >= 1.3" \
        "exit $status; $(cat "$out")"
    echo "impact ratios with MPIR_CVAR_ASYNC_PROGRESS=1 (rank thread impact):"
    csv_awk async.csv '{ print "  " $col["rank"], $col["thread"], $col["impact"] }'
fi

# A ratio that is no ratio is named with its file, line and column.
awk -F, 'BEGIN { OFS = "," } /^#/ || /^comp_target_s/ { print; next } { $8 = -1; print }' \
    imp.csv >neg.csv
launch 0 plot --dir figs neg.csv
[ "$status" -eq 2 ] && grep -q 'neg.csv:[0-9]*: "-1" is not a ratio above 0 (column impact)' "$out"
check $? "plot: a negative impact is refused, naming file, line and column" \
    "exit $status; $(cat "$out")"

# Bad input at 2 ranks: agreed, printed once, exit 2, before any work.
mkdir adir
expect_usage 2 '--output: "adir" is a directory' overlap impact --comp-us 20000 --output adir
expect_usage 2 '--comp-us: "0" is not a time in microseconds' overlap impact --comp-us 0
expect_usage 2 '--raw: overlap impact keeps no repetitions' overlap impact --raw r.csv
# A target below what n = 1 takes on any machine (1 ns: a dgemm call alone
# takes tens of ns; 0.1 us was met by a 7 x 7 dgemm on a faster core):
# the calibration's sentence, exit 2.
expect_usage 2 '--comp-us 0.001: target 1e-09 s is below the smallest dgemm' \
    overlap impact --comp-us 0.001 --nrep 3
[ ! -e r.csv ] && [ -z "$(ls -A adir)" ]
check $? "nothing written by the refused runs"
finish
