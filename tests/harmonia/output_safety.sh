#!/usr/bin/env bash
# Output safety (docs/output.md, "What an output may name"): --output and
# --raw never replace a device, a FIFO or a directory, never name an input
# or each other; each refusal is exit 2 with one message, before any
# measurement, and the inputs and targets are what they were (checksums and
# file types). A link to a regular file is followed.
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out"' EXIT
cd "$dir" || exit 1

launch 2 bench --ops allreduce --sizes 8 --nrep 20 --raw r.csv
check "$status" "bench --raw r.csv: exit 0" "exit $status"
sum_before=$(md5sum r.csv)

# A device: made with mknod as root, else a link to /dev/null (followed).
mknod dev c 1 3 2>/dev/null || ln -s /dev/null dev
mkfifo fifo
mkdir sub
ln -s r.csv link.csv
ln -s nowhere dangling.csv
types_before=$(stat -L -c '%n %F' dev fifo sub 2>/dev/null)

# expect_refused "fragment" ARGS... : exit 2, the fragment once, no table.
expect_refused() {
    local fragment=$1; shift
    expect_usage 0 "$fragment" "$@"
}
expect_refused '--output: "dev" is a character device' stats --output dev r.csv
expect_refused '--output: "fifo" is a FIFO' stats --output fifo r.csv
expect_refused '--output: "sub" is a directory' stats --output sub r.csv
expect_refused '--output: "sub/" names a directory' stats --output sub/ r.csv
expect_refused '--output: "dangling.csv" is a symbolic link to nothing' stats --output dangling.csv r.csv
expect_refused '--output: "r.csv" is also an input ("r.csv")' stats --output r.csv r.csv
expect_refused '--output: "./r.csv" is also an input ("r.csv")' stats --output ./r.csv r.csv
expect_refused '--output: "link.csv" is also an input ("r.csv")' stats --output link.csv r.csv
expect_refused '--output: "r.csv" is also an input ("r.csv")' compare --output r.csv r.csv r.csv
expect_refused '--output: "/nonexistent-hm/x.csv": directory "/nonexistent-hm" does not exist' \
    stats --output /nonexistent-hm/x.csv r.csv

# bench and clock refuse before measuring anything: no table, no file.
expect_usage 2 '--output and --raw name one file ("same.csv", "./same.csv")' \
    bench --ops allreduce --sizes 8 --nrep 20 --output same.csv --raw ./same.csv
expect_usage 2 '--output: "sub" is a directory' bench --ops allreduce --sizes 8 --nrep 20 --output sub
grep -q 'global run-time' "$out"
[ $? -ne 0 ] && [ ! -e same.csv ]
check $? "bench refused before measuring (no table, no same.csv)"
expect_usage 2 '--raw: "fifo" is a FIFO' clock --raw fifo
expect_usage 2 '--output and --raw name one file' skew --nrep 10 --output k.csv --raw k.csv

[ "$(md5sum r.csv)" = "$sum_before" ]
check $? "the input r.csv is unchanged"
[ "$(stat -L -c '%n %F' dev fifo sub 2>/dev/null)" = "$types_before" ] && [ -L link.csv ]
check $? "dev, fifo, sub and link.csv are what they were"

# A link to a regular file is followed: the file it points to is replaced.
cp r.csv copy.csv
ln -s copy.csv out-link.csv
launch 0 stats --output out-link.csv r.csv
[ "$status" -eq 0 ] && [ -L out-link.csv ] && grep -q '^op,' copy.csv
check $? "stats --output through a link: exit $status, the link kept, its target replaced" \
    "$(cat "$out"; ls -l out-link.csv copy.csv)"
finish
