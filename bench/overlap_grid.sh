#!/usr/bin/env bash
# bench/overlap_grid.sh — issue 13's side-by-side goal for `harmonia
# overlap`: an 8 x 8 grid at 2 ranks (communication and computation 500 us
# to 64 ms, doubling), its wall time (goal: under 10 minutes) and the
# probes per calibration (goal: at most 8 on average), under Open MPI and
# MPICH, with the heat maps of both side by side and compare on the overhead
# ratio per cell.
#
#   bench/overlap_grid.sh [OUT_DIR]     (NREP=20, OPS=iallreduce; builds in
#                                        build/ and build-mpich/)
#
# Writes OUT_DIR/{openmpi,mpich}.csv and .raw.csv, the figures in OUT_DIR,
# and prints per MPI: wall time, cells valid, probes per calibration (mean
# and max, communication and computation), and the overhead ratio's median
# over the cells.
set -euo pipefail
out=${1:-bench/results/overlap}
nrep=${NREP:-20}
ops=${OPS:-iallreduce}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out"
grid=(--comm-us 500:64000:x2 --comp-us 500:64000:x2 --nrep "$nrep" --ops "$ops")

run() { # NAME LAUNCHER BUILD
    local name=$1 launcher=$2 build=$3 start end
    [ -x "$build/harmonia" ] || { echo "$name: no $build/harmonia, skipped"; return; }
    start=$(date +%s.%N)
    timeout 1200 "$launcher" -n 2 "$build/harmonia" overlap "${grid[@]}" \
        --output "$out/$name.csv" --raw "$out/$name.raw.csv" >"$out/$name.txt"
    end=$(date +%s.%N)
    awk -F, -v name="$name" -v wall="$(echo "$end - $start" | bc)" '
        /^#/ { next }
        !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        { n++; valid += $c["cell_valid"]
          key = $c["comm_target_s"]; if (!(key in cm)) { cm[key] = $c["comm_probes"]; ncm++; scm += cm[key]; if (cm[key] > mcm) mcm = cm[key] }
          key = $c["comp_target_s"]; if (!(key in cp)) { cp[key] = $c["comp_probes"]; ncp++; scp += cp[key]; if (cp[key] > mcp) mcp = cp[key] }
          if ($c["overhead"] != "") o[++no] = $c["overhead"] }
        END { for (i = 2; i <= no; i++) { v = o[i]; for (j = i - 1; j > 0 && o[j] > v; j--) o[j + 1] = o[j]; o[j + 1] = v }  # mawk has no asort
              med = no ? (no % 2 ? o[(no + 1) / 2] : (o[no / 2] + o[no / 2 + 1]) / 2) : "n/a"
              printf "%-8s wall %6.1f s  cells %d (%d valid)  probes comm %.1f (max %d), comp %.1f (max %d)  overhead median %s\n",
                     name, wall, n, valid, scm / ncm, mcm, scp / ncp, mcp, med }' "$out/$name.csv"
    "$build/harmonia" plot --dir "$out" "$out/$name.csv" >/dev/null
}

run openmpi mpirun.openmpi build
run mpich mpiexec.mpich build-mpich

# Side by side: both heat maps in one figure, and the Wilcoxon test of the
# overhead ratio per cell, Open MPI (A) against MPICH (B).
if [ -s "$out/openmpi.raw.csv" ] && [ -s "$out/mpich.raw.csv" ]; then
    build/harmonia plot --dir "$out" "$out/openmpi.csv" "$out/mpich.csv" >/dev/null
    # compare refuses groups present on one side only, and a cell whose
    # calibration missed its target on one MPI (MPICH's 32 MiB step on this
    # host) has no repetitions there: compare the cells valid on both.
    awk -F, '/^#/ { next } !h[FILENAME]++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { k = $c["comm_target_s"] "," $c["comp_target_s"] }
        FNR == NR { a[k] = 1; next } k in a { print k }' "$out/openmpi.raw.csv" \
        "$out/mpich.raw.csv" | sort -u >"$out/common.keys"
    for name in openmpi mpich; do
        awk -F, 'FNR == NR { keep[$0] = 1; next }
                 /^#/ || !h++ { if (!/^#/) { for (i = 1; i <= NF; i++) c[$i] = i } print; next }
                 ($c["comm_target_s"] "," $c["comp_target_s"]) in keep' \
            "$out/common.keys" "$out/$name.raw.csv" >"$out/$name.common.raw.csv"
    done
    build/harmonia compare "$out/openmpi.common.raw.csv" "$out/mpich.common.raw.csv" \
        --output "$out/compare.csv" >"$out/compare.txt"
    awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        { v[$c["verdict"]]++ }
        END { printf "compare overhead, Open MPI (A) vs MPICH (B), per cell:"
              for (k in v) printf "  %s %d", k, v[k]; printf "\n" }' "$out/compare.csv"
fi
