#!/usr/bin/env bash
# A full disk (issue 31, class 6): the cause, not a symptom. In a 64 KiB
# tmpfs filled to the last block, bench (MPI, 2 ranks), stats and trace
# merge fail with exit 1 and one error line that says "No space left on
# device" (the MPI commands said "Input/output error": stdio had lost the
# errno of the write that failed), and leave no temporary behind. Needs
# to mount a tmpfs (root, outside a container that forbids it): skipped
# with the reason otherwise.
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d)
mnt=$dir/full
trap 'umount "$mnt" 2>/dev/null; rm -rf "$dir" "$out"' EXIT
cd "$dir" || exit 1
mkdir "$mnt"
if ! mount -t tmpfs -o size=64k hm-disk-full "$mnt" 2>mount.txt; then
    echo "skipped: cannot mount a tmpfs to fill ($(head -1 mount.txt))"
    exit 77
fi
# Filled to the last block: dd stops at ENOSPC.
dd if=/dev/zero of="$mnt/fill" bs=4k 2>/dev/null
printf '# processes: 2\n# sync: barrier\nop,size_bytes,attempt,valid,global_s,local_s,start_spread_s,start_s\n' >raw.csv
for i in $(seq 0 999); do printf 'allreduce,8,%d,1,1.%de-06,1e-06,0,0\n' "$i" "$((i % 10))"; done >>raw.csv

# full WHAT : exit 1, one error line naming the cause, the disk as it was.
full() {
    local what=$1 errors
    errors=$(grep -c '^harmonia: error:' "$out")
    [ "$status" -eq 1 ] && [ "$errors" -eq 1 ] && grep -q 'No space left on device' "$out" &&
        [ "$(ls -A "$mnt")" = fill ]
    check $? "$what on a full disk: exit 1, one error with the cause, nothing left" \
        "exit $status, $errors error lines, left: $(ls -A "$mnt" | tr '\n' ' '); $(cat "$out")"
}

launch 2 bench --ops barrier --nrep 300 --output "$mnt/s.csv" --raw "$mnt/r.csv"
[ "$launch_skipped" = 1 ] || full "bench --output --raw"
launch 0 stats --output "$mnt/st.csv" raw.csv
full "stats --output"
finish
