#!/usr/bin/env bash
# tests/harmonia/overlap_command.sh — `harmonia overlap` through the real
# program at 2 ranks: a 2 x 2 grid gives one row per cell in the table and
# the files, each cell's references measured (within the calibration's 10 %
# of its target), every repetition in the raw file; a target that no size
# reaches marks its cells INVALID and runs none of them; a reference more
# than 10 % off its target, or moved by more during the grid, marks its
# cells INVALID with the reason, in the table and the file; bad input is
# refused before any measurement. The ratios themselves are checked against
# the truth by tests/overlap/test_overlap_truth.c. Precision (retried once):
# the calibrations converge to 10 % only on a machine not shared with
# another measurement.
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out"' EXIT
cd "$dir" || exit 1

launch 2 overlap --comm-us 500,5000 --comp-us 1000,5000 --nrep 5 --output o.csv --raw r.csv
# A cell is ok, or INVALID because a reference missed its target or moved
# (issue 28: which ones depends on the machine's load, checked below).
rows=$(awk '$1 == "iallreduce" && $10 == 5 && ($NF == "ok" || /INVALID \((comm|comp) reference /)' \
    "$out" | wc -l)
[ "$status" -eq 0 ] && [ "$rows" -eq 4 ]
check $? "2 x 2 grid: exit 0, 4 cells with 5 valid repetitions each, run" \
    "exit $status, $rows rows; $(cat "$out")"
csv_awk o.csv '{ n++; target = $col["comm_target_s"]; ref = $col["comm_ref_s"]
        ctarget = $col["comp_target_s"]; cref = $col["comp_ref_s"]
        if ($col["comm_calibration"] == "converged" && $col["comp_calibration"] == "converged" &&
            ref > 0.9 * target && ref < 1.1 * target && cref > 0.5 * ctarget &&
            $col["overhead"] != "" && $col["comp_slowdown"] > 0 && $col["comm_ratio"] > 0) ok++ }
    END { exit !(n == 4 && ok == 4) }'
check $? "summary: 4 cells, t_comm_ref within 10 % of its target, ratios present" \
    "$(csv_tsv o.csv)"
# Issue 28: a reference more than 10 % off its target, or one that moved by
# more between the start and the end of the grid, makes its cell invalid,
# with the reason; whatever the machine's load did, the file agrees with
# itself (functional, not precision: a busy machine only changes which
# cells are invalid).
csv_awk o.csv 'function off(x) { return x != "" && (x > 10 || x < -10) }
    function conv(c) { return c == "converged" || c == "fixed" }
    { n++; cm = conv($col["comm_calibration"]); cp = conv($col["comp_calibration"])
      bad = off($col["comm_error_pct"]) || off($col["comp_error_pct"]) ||
            off($col["comm_moved_pct"]) || off($col["comp_moved_pct"])
      why = !(cm && cp) ? "^INVALID \\(comm [a-z-]+, comp [a-z-]+" : "^INVALID \\((comm|comp) reference "
      if ($col["comp_calibrated_s"] > 0 && $col["comm_local_ref_s"] > 0 &&
          (!cm || $col["comm_ref_end_s"] > 0) && (!cp || $col["comp_ref_end_s"] > 0) &&
          (bad || !(cm && cp) ? $col["cell_valid"] == 0 && $col["cell"] ~ why \
                              : $col["cell_valid"] == 1 && $col["cell"] ~ /^ok/)) ok++ }
    END { exit !(n == 4 && ok == 4) }'
check $? "summary: a reference off by more than 10 % (or moved) marks its cell INVALID, with why" \
    "$(csv_tsv o.csv)"
invalid=$(csv_awk o.csv '$col["cell_valid"] == 0 { n++ } END { print n + 0 }')
grep -q '^op .* comm_ref_us  *comm_err_% .* comp_ref_us  *comp_err_% ' "$out" &&
    [ "$(grep -c '^iallreduce .* INVALID (' "$out")" -eq "$invalid" ]
check $? "table: each reference's error against its target, the same $invalid INVALID cells" \
    "$(cat "$out")"
grep -q '^# progress: basic$' o.csv && grep -q '^# comm_targets_us: 500 5000$' o.csv &&
    grep -q '^# compute: dgemm of ' o.csv && grep -q '^# ops: iallreduce$' o.csv
check $? "factors: progress, compute, the grid, the operation"
csv_awk r.csv '{ n++; if ($col["valid"] == 1 && $col["measured_s"] > 0 && $col["comp_s"] > 0) ok++ }
    END { exit !(n >= 20 && ok == 20) }'
check $? "raw: 4 cells x 5 valid repetitions (and the invalid ones), each with its times" \
    "$(csv_tsv r.csv | head -3)"
# Each raw row carries its cell's verdict after the recheck: the summary's
# cell_valid, whichever cells the machine's load made invalid (a cell that
# moved during the grid was written 1 and rewritten 0 at the end).
verdicts=$(csv_awk o.csv '{ print $col["comm_target_s"], $col["comp_target_s"], $col["cell_valid"] }' | sort)
raw_verdicts=$(csv_awk r.csv '{ print $col["comm_target_s"], $col["comp_target_s"], $col["cell_valid"] }' | sort -u)
[ -n "$verdicts" ] && [ "$verdicts" = "$raw_verdicts" ]
check $? "raw: every row's cell_valid is its cell's in the summary" \
    "summary [$(echo $verdicts)] raw [$(echo $raw_verdicts)]"
# What stats and compare make of a cell's verdict, on copies of r.csv whose
# cells are all valid (r1) or all not (r0): rewritten here so that the check
# does not depend on which cells the load made invalid.
for v in 0 1; do
    awk -F, -v v=$v 'BEGIN { OFS = "," } /^#/ || !h++ { print; next } { $NF = v; print }' r.csv >r$v.csv
done
launch 0 stats r0.csv
n0=$(grep -c '^iallreduce .* INVALID$' "$out")
note0=$(grep -c '^cell INVALID: ' "$out")
launch 0 stats r1.csv
n1=$(grep -c '^iallreduce .* ok$' "$out")
note1=$(grep -c '^cell INVALID: ' "$out")
[ "$n0" -eq 4 ] && [ "$n1" -eq 4 ] && [ "$note0" -eq 1 ] && [ "$note1" -eq 0 ]
check $? "stats: the 4 cells INVALID from cell_valid 0, ok from 1 ($n0, $n1)" "$(cat "$out")"
launch 0 compare r1.csv r0.csv
c0=$(grep -c '^iallreduce .* invalid cell$' "$out")
grep -q '^verdict "invalid cell": ' "$out" && [ "$c0" -eq 4 ]
check $? "compare: a side with an invalid cell gets the verdict invalid cell ($c0 of 4)" "$(cat "$out")"
launch 0 compare r1.csv r1.csv
! grep -q 'invalid cell' "$out"
check $? "compare: two valid sides get no such verdict" "$(cat "$out")"
awk -F, 'BEGIN { OFS = "," } /^#/ || !h++ { print; next } { $NF = 2; print }' r.csv >r2.csv
expect_usage 0 'is not a validity, 0 or 1 (column cell_valid)' stats r2.csv

# OSU's and IMB's configuration: sizes given, not calibrated, and each
# cell's computation aimed at its measured communication time. Sizes of
# hundreds of microseconds: a dgemm aimed at 4 B's 1.3 us or 64 KiB's 22 us
# runs out of probes now and then on a shared 2-core machine (CI, MPICH).
launch 2 overlap --sizes 512K,2M --comp-us comm --nrep 5 --output s.csv --raw sr.csv
csv_awk s.csv '{ n++; if ($col["comm_calibration"] == "fixed" && $col["comm_target_s"] == "" &&
            $col["comp_target_s"] == $col["comm_ref_s"] && $col["comm_error_pct"] == "" &&
            ($col["cell_valid"] == 1 || $col["cell"] ~ /^INVALID \((comm|comp) reference /) &&
            $col["osu_overlap_pct"] != "" && $col["imb_overlap_pct"] != "") ok++
        sizes = sizes " " $col["size_bytes"] }
    END { exit !(status == 0 && n == 2 && ok == 2 && sizes == " 524288 2097152") }' -v status="$status"
check $? "--sizes 512K,2M --comp-us comm: 2 cells, fixed sizes, comp aimed at t_comm_ref" \
    "exit $status; $(csv_tsv s.csv)"
grep -qx '# sizes_bytes: 524288 2097152' s.csv && grep -qx "# comp_targets_us: comm (each cell's t_comm_ref)" s.csv &&
    csv_awk sr.csv '$col["valid"] == 1 { n[$col["size_bytes"]]++ }
        END { exit !(n[524288] == 5 && n[2097152] == 5) }'
check $? "... the sizes in the factors and in every raw row" "$(grep '^#' s.csv)"

# Rooted collectives take --root: every cell runs, and validation checks
# the root's data (a root that is not rank 0 catches a root ignored).
launch 2 overlap --ops ibcast,ireduce,igather --root 1 --comm-us 1000 --comp-us 1000 --nrep 3 \
    --validate
# MPICH 4.0's ireduce steps across 1 ms at 2 ranks (549 us at 904 KiB,
# above 1.1 ms just after): that cell may be INVALID (comm gap, or
# out-of-probes under load), reported and not run.
rows=$(awk '$1 ~ /^i(bcast|reduce|gather)$/ && $10 == 3 &&
               ($NF == "ok" || /INVALID \((comm|comp) reference /) { ok++ }
           $1 ~ /^i(bcast|reduce|gather)$/ && /INVALID \(comm [a-z-]+, / { gap++ }
           END { print ok + 0, gap + 0 }' "$out")
[ "$status" -eq 0 ] && { [ "$rows" = "3 0" ] || [ "$rows" = "2 1" ]; }
check $? "--root 1 with ibcast, ireduce, igather (validated): the cells ok (ok, invalid: $rows)" \
    "exit $status; $(cat "$out")"

# ibarrier has no size to aim: one communication column, its time measured
# at size 0 (outcome fixed), against every computation target.
launch 2 overlap --ops ibarrier --comm-us 100,1000 --comp-us 1000,2000 --nrep 3 --output b.csv
csv_awk b.csv '{ n++; if ($col["size_bytes"] == 0 && $col["comm_calibration"] == "fixed" &&
            $col["comm_ref_s"] > 0 && $col["valid"] == 3) ok++ }
    END { exit !(status == 0 && n == 2 && ok == 2) }' -v status="$status"
check $? "ibarrier: one communication column x 2 computation targets" "exit $status; $(csv_tsv b.csv)"

# The progress configuration is what the MPI library reports through MPI_T,
# not what the environment asks for: Open MPI 4.1 has no generic progress
# thread (opal_async_progress came with ompi PR 13088), MPICH has one.
if [ "$MPI_FLAVOR" = openmpi ]; then
    OMPI_MCA_opal_async_progress=1 launch 2 overlap --comm-us 1000 --comp-us 1000 --nrep 3 \
        --output p.csv
    want='# progress: basic (OMPI_MCA_opal_async_progress is set but this MPI library has no opal_async_progress)'
    if ompi_info --param opal all --level 9 2>/dev/null | grep -q '"opal_async_progress"'; then
        want='# progress: async (opal_async_progress=1)'
    fi
else
    MPIR_CVAR_ASYNC_PROGRESS=1 launch 2 overlap --comm-us 1000 --comp-us 1000 --nrep 3 \
        --output p.csv
    want='# progress: async (MPIR_CVAR_ASYNC_PROGRESS=1)'
fi
[ "$status" -eq 0 ] && grep -qxF "$want" p.csv
check $? "progress asked for in the environment: recorded as the library has it" \
    "exit $status; want \"$want\"; $(grep progress p.csv)"

# 1 ns is below the latency of any iallreduce on any machine (0.9 us at
# 64 B here; 0.2 us, the target before, is within a fast node's reach):
# the calibration ends below-min, and its cells are reported, not run.
launch 2 overlap --comm-us 0.001 --comp-us 1000 --nrep 5 --output i.csv --raw ir.csv
grep -q '^iallreduce  *0.001  *[0-9].*INVALID (comm below-min' "$out"
check $? "a target below any size's time: its cell INVALID in the table" "$(cat "$out")"
csv_awk i.csv '$col["comm_target_s"] < 2e-9 { bad = $col["cell_valid"] == 0 &&
                    $col["comm_calibration"] == "below-min" && $col["valid"] == 0 &&
                    $col["overhead"] == "" }
    END { exit !(status == 0 && bad) }' -v status="$status"
check $? "... and in the file: cell_valid 0, below-min, no repetition, no ratio" \
    "$(csv_tsv i.csv)"
csv_awk ir.csv '$col["comm_target_s"] < 2e-9 { n++ } END { exit n != 0 }'
check $? "... and no raw row"

# Figures: the overhead heat map and the pair of ratio maps; the cell that
# was not run is drawn hatched, under its own key, not as a colour.
# (o.csv's cells are hatched only where the load moved a reference: issue 28.)
launch 0 plot --dir figs o.csv
st_o=$status
launch 0 plot --dir figs i.csv
o_invalid=$(csv_awk o.csv '$col["cell_valid"] == 0 { n++ } END { print n + 0 }')
[ "$st_o" -eq 0 ] && [ "$status" -eq 0 ] && [ -s figs/o-overhead.svg ] &&
    [ -s figs/o-overlap-ratios.svg ] && grep -q 'comp = comm' figs/o-overhead.svg &&
    { [ "$o_invalid" -gt 0 ] || ! grep -q 'invalid cell (its reason' figs/o-overhead.svg; } &&
    grep -q 'invalid cell (its reason' figs/i-overhead.svg
check $? "plot: a heat map per file, only the invalid cell hatched" "exit $st_o $status; $(cat "$out")"

# Cells without a communication target (--sizes; ibarrier) are drawn at
# the times measured alone, and the axis says so (issue 32: both exited 2
# on the empty target); --comp-us comm aims each computation at t_comm_ref,
# its target.
launch 0 plot --dir figs s.csv
st_s=$status
launch 0 plot --dir figs b.csv
[ "$st_s" -eq 0 ] && [ "$status" -eq 0 ] && [ -s figs/s-overhead.svg ] && [ -s figs/b-overlap-ratios.svg ] &&
    grep -q 'communication time, measured alone' figs/s-overhead.svg &&
    grep -q 'computation time, target' figs/s-overhead.svg &&
    grep -q 'communication time, measured alone' figs/b-overhead.svg &&
    grep -q 'computation time, target' figs/b-overhead.svg &&
    grep -q 'viewBox="0 0 1200 450"' figs/b-overlap-ratios.svg
check $? "plot: --sizes and ibarrier summaries at the times measured alone" \
    "exit $st_s $status; $(cat "$out")"
# A value beyond the colour range takes the end colour: its label says so.
# (b.csv's first cell made a valid one with an overhead of 5: whether the
# run's cells were valid depends on the load.)
awk -F, 'BEGIN { OFS = "," } /^#/ { print; next }
    !h { for (i = 1; i <= NF; i++) { if ($i == "overhead") c = i; if ($i == "cell_valid") v = i }
         h = 1; print; next }
    !done { $c = 5; $v = 1; done = 1 } { print }' b.csv >big.csv
launch 0 plot --dir figs big.csv
[ "$status" -eq 0 ] && grep -q '5.00 ▲' figs/big-overhead.svg &&
    grep -q 'beyond the colour range' figs/big-overhead.svg
check $? "plot: an overhead of 5, beyond the range up to 2, labelled 5.00 ▲" \
    "exit $status; $(grep -v '^#' big.csv | head -2)"

# The raw files (issue 32: exit 2, "missing columns"): the distribution of
# the metric per cell, the cells named by their target time or, under
# --sizes, their message size; a series per operation and computation, an
# INVALID cell said in its name; --metric measured in us on a log axis.
launch 0 plot --dir figs r.csv
st_r=$status
launch 0 plot --dir figs sr.csv
[ "$st_r" -eq 0 ] && [ "$status" -eq 0 ] &&
    grep -qF '>500 us</text>' figs/r-overlap-distribution.svg &&
    grep -qF '>5000 us</text>' figs/r-overlap-distribution.svg &&
    grep -qF '>iallreduce, computation 1000 us' figs/r-overlap-distribution.svg &&
    grep -qF '>512K B</text>' figs/sr-overlap-distribution.svg &&
    grep -qF '>2M B</text>' figs/sr-overlap-distribution.svg &&
    grep -q '>overhead (ratio' figs/sr-overlap-distribution.svg
check $? "plot: overlap --raw, with targets and with --sizes, a distribution per cell" \
    "exit $st_r $status; $(cat "$out")"
launch 0 plot --dir figs/m --metric measured r.csv
[ "$status" -eq 0 ] && grep -qF '>measured (µs)</text>' figs/m/r-overlap-distribution.svg
check $? "plot: overlap --raw --metric measured, in us" "exit $status; $(cat "$out")"
# An overhead of 5000 beside one of -3 (a cell hidden better than
# perfectly): a symmetric log axis, tics at -1 and 1000, every cell of the
# file still drawn; the cell marked invalid says so in its series' name.
awk -F, 'BEGIN { OFS = "," } /^#/ { print; next }
    !h { for (i = 1; i <= NF; i++) { if ($i == "overhead") c = i; if ($i == "cell_valid") v = i
                                      if ($i == "valid") ok = i }
         h = 1; print; next }
    { $ok = 1; $v = 1 } n == 0 { $c = 5000 } n == 1 { $c = -3 } n == 2 { $v = 0 } { n++; print }' \
    r.csv >wide.csv
launch 0 plot --dir figs wide.csv
[ "$status" -eq 0 ] && grep -qF '>overhead (ratio, symmetric log scale)</text>' figs/wide-overlap-distribution.svg &&
    grep -qF '>1000</text>' figs/wide-overlap-distribution.svg &&
    grep -qF '>-1</text>' figs/wide-overlap-distribution.svg &&
    grep -qF ', INVALID cell' figs/wide-overlap-distribution.svg
check $? "plot: an overhead of 5000 and one of -3 on a symmetric log axis, the INVALID cell named" \
    "exit $status; $(cat "$out"); $(grep -v '^#' wide.csv | head -4)"


expect_usage 2 'unexpected argument "impacts" (overlap takes one word: impact)' overlap impacts
expect_usage 2 '--raw: overlap impact keeps no repetitions' overlap impact --raw x.csv
expect_usage 2 '--sizes and --comm-us: give one' overlap --sizes 4 --comm-us 100
expect_usage 2 '--comp-us comm: overlap impact has no communication' overlap impact --comp-us comm
expect_usage 2 '--ops: "allreduce" is not a nonblocking collective' \
    overlap --ops allreduce
expect_usage 2 '--ops: "pingpong" is not a nonblocking collective' \
    overlap --ops ibcast,pingpong
expect_usage 0 '--comm-us: "0" is not a time in microseconds (accepted: 0.001 to 1e+08)' \
    overlap --comm-us 0
expect_usage 0 '--comp-us: "1000,1000": targets must be increasing, each once' \
    overlap --comp-us 1000,1000
expect_usage 0 '--threads: "0" is out of range (accepted: 1 to 4096)' overlap --threads 0
expect_usage 2 '--threads 3: threads 3 is more than the' overlap --threads 3
finish
