#!/usr/bin/env bash
# bench/osu_overlap.sh — issue 13's side-by-side with OSU: at 2 ranks, at the
# message sizes osu_iallreduce picks, OSU's printed overlap % against the
# overlap % harmonia computes with OSU's formula from its own repetitions,
# over RUNS separate mpiruns of each (OSU and harmonia alternate, the order
# flipped every run). Beside them, from the same harmonia repetitions, IMB's
# overlap % and the overhead ratio (Denis et al. 2022, eq. 1: 0 = perfect
# overlap, 1 = none). harmonia runs as OSU does: fixed sizes (--sizes) and a
# computation as long as the communication alone (--comp-us comm).
#
#   OSU_IALLREDUCE=/path/to/osu_iallreduce bench/osu_overlap.sh [OUT_DIR]
#       (RUNS=5, MPI=openmpi or mpich, BUILD=build or build-mpich,
#        SIZES=4:1M:x2, NREP=20, WARMUP=harmonia's default, OSU_ARGS="-T mpi_int")
#
# OSU is never part of harmonia: build it from its tarball in a scratch
# directory, with the same MPI as BUILD, e.g. for Open MPI
#   tar -xzf osu-micro-benchmarks-7.4.tar.gz -C /tmp
#   cd /tmp/osu-micro-benchmarks-7.4
#   ./configure CC=mpicc.openmpi CXX=mpicxx.openmpi
#   make -C c/mpi/collective/non_blocking osu_iallreduce
# (mpicc.mpich and mpicxx.mpich for MPICH, in a second copy). OSU_ARGS
# "-T mpi_int" makes OSU reduce MPI_INT with MPI_SUM, as harmonia does; its
# sizes are then 4 B to 1 MiB (its default MPI_CHAR starts at 1 B). OSU
# warms up 100 iterations per size up to 8 KiB, 10 above; WARMUP=100 gives
# harmonia as many (its default, 1, left t_comm_ref 2-3x too long at 128 B
# to 8 KiB under MPICH, and its OSU-formula % 30-60 where OSU prints 0).
#
# Writes OUT_DIR/MPI/osu.N.txt (OSU's output), harmonia.N.csv and .txt, and
# runs.csv (one row per run and size), and prints one row per size: median
# and [min, max] over the runs of each figure, and OSU's pure communication
# time beside harmonia's t_comm_ref; "cell invalid in N runs" where the
# computation's calibration missed its target (below about 2 us, dgemm's
# fixed cost). About 10 s per MPI on 2 cores.
set -euo pipefail
osu=${OSU_IALLREDUCE:?set OSU_IALLREDUCE to an osu_iallreduce built in a scratch directory (see the header)}
runs=${RUNS:-5}
mpi=${MPI:-openmpi}
sizes=${SIZES:-4:1M:x2}
nrep=${NREP:-20}
warmup=(${WARMUP:+--warmup "$WARMUP"})
osu_args=${OSU_ARGS:--T mpi_int}
case $mpi in
openmpi) build=${BUILD:-build} launch=(mpirun.openmpi --oversubscribe -n 2) ;;
mpich) build=${BUILD:-build-mpich} launch=(mpiexec.mpich -n 2) ;;
*) echo "osu_overlap.sh: MPI=$mpi: known: openmpi, mpich" >&2; exit 2 ;;
esac
out=${1:-bench/results/osu_overlap}/$mpi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[ -x "$osu" ] || { echo "osu_overlap.sh: $osu: not an executable" >&2; exit 2; }
case $("$build/harmonia" overlap --help) in *--sizes*) ;; *)
    echo "osu_overlap.sh: $build/harmonia overlap has no --sizes: rebuild it" >&2; exit 2 ;;
esac
mkdir -p "$out"

run_osu() { # N
    # shellcheck disable=SC2086 # OSU_ARGS is a list of words
    timeout 300 "${launch[@]}" "$osu" -f $osu_args >"$out/osu.$1.txt"
}
run_harmonia() { # N
    timeout 900 "${launch[@]}" "$build/harmonia" overlap --ops iallreduce --sizes "$sizes" \
        --comp-us comm --nrep "$nrep" "${warmup[@]}" --seed "$1" --output "$out/harmonia.$1.csv" \
        >"$out/harmonia.$1.txt"
}

start=$(date +%s)
echo "run,size_bytes,osu_pct,osu_comm_us,hm_osu_pct,hm_imb_pct,hm_overhead,hm_comm_ref_us,hm_valid" \
    >"$out/runs.csv"
for n in $(seq "$runs"); do
    if [ $((n % 2)) = 1 ]; then run_osu "$n"; run_harmonia "$n"; else run_harmonia "$n"; run_osu "$n"; fi
    # One row per size: OSU's figures of this run beside harmonia's. OSU -f
    # columns: size, overall, compute, init, test, wait, pure comm, min, max, %.
    awk -v n="$n" -v OFS=, '
        FNR == NR { if (!/^#/ && $1 ~ /^[0-9]+$/ && NF >= 10) { osu[$1] = $NF OFS $7; s[$1] = 1 }; next }
        /^#/ { next }
        !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        { k = $c["size_bytes"]; s[k] = 1
          hm[k] = $c["osu_overlap_pct"] OFS $c["imb_overlap_pct"] OFS $c["overhead"] OFS \
                  ($c["comm_ref_s"] == "" ? "" : $c["comm_ref_s"] * 1e6) OFS $c["cell_valid"] }
        END { for (k in s) print n, k, (k in osu) ? osu[k] : OFS, (k in hm) ? hm[k] : OFS OFS OFS OFS }' \
        "$out/osu.$n.txt" FS=, "$out/harmonia.$n.csv" | sort -t, -k2,2n >>"$out/runs.csv"
done
end=$(date +%s)

version=$(grep -m1 '^# OSU' "$out/osu.1.txt" | sed 's/^# //')
echo "$mpi, 2 ranks, $runs mpiruns each: $version (${osu_args:-default type}) against" \
    "harmonia overlap --sizes $sizes --comp-us comm --nrep $nrep${WARMUP:+ --warmup $WARMUP} ($((end - start)) s)"
echo "median [min, max] over the runs; overlap in %, overhead 0 = perfect overlap, 1 = none"
awk -F, '
    function add(name, key, v) { if (v == "") return; m = ++cnt[name, key]; val[name, key, m] = v }
    function stat(name, key,    m, i, j, v, med) { # median [min, max]; mawk has no asort
        m = cnt[name, key]
        if (!m) return "-"
        for (i = 2; i <= m; i++) { v = val[name, key, i]
            for (j = i - 1; j > 0 && val[name, key, j] + 0 > v + 0; j--) val[name, key, j + 1] = val[name, key, j]
            val[name, key, j + 1] = v }
        med = m % 2 ? val[name, key, (m + 1) / 2] : (val[name, key, m / 2] + val[name, key, m / 2 + 1]) / 2
        return sprintf(fmt[name], med, val[name, key, 1], val[name, key, m])
    }
    BEGIN { split("osu_pct osu_comm_us hm_osu_pct hm_imb_pct hm_overhead hm_comm_ref_us", names, " ")
            for (i = 1; i <= 6; i++) fmt[names[i]] = "%.1f [%.1f, %.1f]"
            fmt["hm_overhead"] = "%.2f [%.2f, %.2f]" }
    NR > 1 { if (!($2 in seen)) { seen[$2] = 1; order[++ns] = $2 }
             for (i = 1; i <= 6; i++) add(names[i], $2, $(i + 2))
             if ($9 != "" && $9 != 1) bad[$2]++ }
    END { printf "%8s  %-22s %-22s %-22s %-18s %-22s %-22s\n", "size_B", "OSU printed %",
                 "harmonia OSU-formula %", "harmonia IMB-formula %", "harmonia overhead",
                 "OSU pure comm us", "harmonia t_comm_ref us"
          for (i = 2; i <= ns; i++) { v = order[i]
              for (j = i - 1; j > 0 && order[j] + 0 > v + 0; j--) order[j + 1] = order[j]
              order[j + 1] = v }
          for (i = 1; i <= ns; i++) { k = order[i]
              printf "%8d  %-22s %-22s %-22s %-18s %-22s %-22s%s\n", k, stat("osu_pct", k),
                     stat("hm_osu_pct", k), stat("hm_imb_pct", k), stat("hm_overhead", k),
                     stat("osu_comm_us", k), stat("hm_comm_ref_us", k),
                     (k in bad) ? "  (cell invalid in " bad[k] " runs)" : "" } }' "$out/runs.csv"
