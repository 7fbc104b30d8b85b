#!/usr/bin/env bash
# bench/compute_calibration.sh — the dgemm calibration of the overlap layer
# (issue 13: the reference computation t_comp_ref): for each target, how
# many probes a calibration takes, how far the time it reaches is from the
# target, how long it takes, and the GFLOP/s of each thread at the order
# found. Each calibration runs in a process of its own
# (build/examples/example_overlap_calibrate TARGET), so every one starts
# from n = 64, the worst case; REPS of them per target.
#
#   bench/compute_calibration.sh [BUILD_DIR [OUT_DIR]]   (REPS=5,
#                                 TARGETS="0.001 0.01 0.1 1")
#
# Writes OUT_DIR/calibrations.txt (one line per calibration, the example's
# columns) and prints per target: converged runs, probes (mean, max), |error|
# (median, max), calibration wall time (mean) and GFLOP/s (min and max over
# threads and runs). About a minute on 2 cores with the default targets.
set -euo pipefail
build=${1:-build}
out=${2:-bench/results/compute}
reps=${REPS:-5}
targets=${TARGETS:-0.001 0.01 0.1 1}
mkdir -p "$out"
raw=$out/calibrations.txt
: >"$raw"
for _ in $(seq "$reps"); do
    for t in $targets; do
        # Exit status 1 = not converged: counted below, not fatal here.
        timeout 600 "$build/examples/example_overlap_calibrate" "$t" | grep -v '^#' >>"$raw" || true
    done
done

echo "calibrations of $build/examples/example_overlap_calibrate, $reps per target:"
awk '
    $1 ~ /^[0-9.e+-]+$/ && NF >= 7 {
        t = $1; k[t]++; if (!(t in seen)) { seen[t] = 1; order[++nt] = t }
        probes[t] += $3; if ($3 > pmax[t]) pmax[t] = $3
        e = $5 < 0 ? -$5 : $5; err[t, k[t]] = e; if (e > emax[t]) emax[t] = e
        if (e <= 10) conv[t]++
        wall[t] += $6
        for (i = 7; i <= NF; i++) {
            if (!(t in gmin) || $i < gmin[t]) gmin[t] = $i
            if ($i > gmax[t]) gmax[t] = $i
        }
    }
    END {
        printf "%9s %9s %11s %11s %12s %12s %8s %8s\n", "target_s", "converged", "probes_mean",
               "probes_max", "err_med_%", "err_max_%", "calib_s", "GFLOP/s"
        for (j = 1; j <= nt; j++) {
            t = order[j]; n = k[t]
            for (a = 1; a <= n; a++) v[a] = err[t, a]
            for (a = 1; a <= n; a++) for (b = a + 1; b <= n; b++) if (v[b] < v[a]) { x = v[a]; v[a] = v[b]; v[b] = x }
            med = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
            printf "%9s %6d/%-2d %11.1f %11d %12.1f %12.1f %8.2f %4.0f-%-4.0f\n", t, conv[t], n,
                   probes[t] / n, pmax[t], med, emax[t], wall[t] / n, gmin[t], gmax[t]
        }
    }' "$raw"
