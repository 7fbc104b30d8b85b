#!/usr/bin/env bash
# tests/harmonia/pattern_command.sh — `harmonia pattern` through the real
# program: every generator, the two backends, striping over three steps
# with a backend each, at 2, 3 and 4 ranks, every received byte validated
# (--validate: exit 1 and a sentence when one differs); the matrix of bytes
# against the generator's definition (its --matrix file: pattern_matrix.sh);
# the files; bad input refused before any measurement, GPU options on a
# machine without a GPU too. Functional, not
# precision: at 3 and 4 ranks on 2 cores the scheduler makes starts late by
# a time slice or several, so those runs tolerate 0.2 s (--late-us 200000)
# instead of failing on late starts. It was 2 ms under Open MPI, a quiet
# machine's slice: beside two busy loops bench measured a p99 lateness of
# 4.1 ms at 3 ranks.
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out"' EXIT
cd "$dir" || exit 1

# Oversubscribed, a rank waits for a whole scheduler slice (MPICH
# busy-polls through it), on a loaded machine for several: 0.2 s is more
# than they add up to, under either MPI.
late() {
    [ "$1" -gt 2 ] || return 0
    echo --late-us 200000
}

# run NP WANT ARGS...: the pattern validated at 2 sizes; exit 0, WANT rows a
# size (the pattern, its MPI baseline; striping's steps alone, the sequence
# validated end to end, the concurrent run not validated: docs/pattern.md),
# each with 10 valid repetitions and no wrong byte. On a machine the run
# found busy, a row may end short of 10 (its attempts' budget spent; at
# load 10 every row did): exit 0 with a PARTIAL line under the table is the
# product's answer, and such a row still needs a valid repetition.
run() {
    local np=$1 want=$2; shift 2
    launch "$np" pattern "$@" --sizes 8,64K --nrep 10 --validate $(late "$np")
    local rows need=10
    grep -q '^PARTIAL:' "$out" && need=1
    rows=$(table_cols size_B valid '#wrong' |
        awk -v need=$need '$1 >= need && $1 <= 10 && ($2 == 0 || $2 == "n/a")' | wc -l)
    [ "$status" -eq 0 ] && [ "$rows" -eq $((2 * want)) ]
    check $? "np $np pattern $*: 2 sizes x $want, 10 valid repetitions, no wrong byte" \
        "exit $status, $rows rows; $(cat "$out")"
}

run 2 2 --pattern rail --ranks-per-node 1
run 2 2 --pattern rail --ranks-per-node 1 --backend host
run 2 1 --pattern self --ranks-per-node 2 --backend host
run 3 2 --pattern asymmetric --ranks-per-node 1 --direction omni
run 3 1 --pattern symmetric --ranks-per-node 1 --direction bi --backend host
run 4 2 --pattern asymmetric --ranks-per-node 2 --k 1
table_cols size_B measured | sort | uniq -c | awk '{ printf "%s %s;", $1, $2 }' >m.txt
[ "$(cat m.txt)" = "2 MPI_Scatter;2 pattern;" ]
check $? "asymmetric (2, 2, 1) uni: MPI_Scatter beside it at each size" "$(cat m.txt)"
run 4 2 --pattern symmetric --ranks-per-node 2 --direction omni --backend host
table_cols size_B measured messages bytes | grep MPI_Alltoall | tr '\n' ';' >m.txt
[ "$(cat m.txt)" = "MPI_Alltoall 12 96;MPI_Alltoall 12 786432;" ]
check $? "symmetric (2, 2, 2) omni: MPI_Alltoall, 12 messages (P (P - 1)), its bytes" "$(cat m.txt)"
run 4 1 --pattern rail --ranks-per-node 2 --direction bi
# A file's pattern and MPI_Alltoallv with its counts, both validated.
printf 'src,dst,bytes\n0,1,1000\n1,0,24\n1,1,8\n' >f.csv
launch 2 pattern --pattern file --file f.csv --nrep 10 --validate
table_cols size_B measured messages bytes valid '#wrong' | tr '\n' ';' >m.txt
[ "$status" -eq 0 ] && [ "$(cat m.txt)" = "pattern 3 1032 10 0;MPI_Alltoallv 3 1032 10 0;" ]
check $? "a file: the pattern and MPI_Alltoallv with its counts, validated" "$(cat m.txt)"
# A file has no groups and no one size (issue 32: it was labelled
# "n 1 groups x g 2 ranks, k 2", size 0, and its errors "0 B:").
[ "$(table_cols size_B size_B | tr '\n' ';')" = "file;file;" ] &&
    grep -q '^pattern file f.csv, backend mpi, on 2 ranks' "$out"
check $? "a file: titled by its name, size_B 'file'" "$(head -3 "$out")"
# CommBench's application files: a dense matrix of element counts, read as
# CommBench's measure() counts them with its examples' int: 4 bytes each.
printf '0 100\n250 3\n' >commbench.txt
launch 2 pattern --pattern file --file commbench.txt --file-element-bytes 4 --nrep 10 --validate \
    --output cb.csv
table_cols size_B measured messages bytes '#wrong' | tr '\n' ';' >m.txt
[ "$status" -eq 0 ] && [ "$(cat m.txt)" = "pattern 3 1412 0;MPI_Alltoallv 3 1412 0;" ] &&
    grep -qx '# file_element_bytes: 4' cb.csv
check $? "a CommBench dense matrix, 4-byte elements: 3 messages, 4 x 353 bytes, validated" \
    "$(cat "$out")"
expect_usage 2 '--file-element-bytes 4: only --pattern file reads a file' \
    pattern --file-element-bytes 4
expect_usage 2 '--file-element-bytes: "0" is out of range (accepted: 1 to 1048576)' \
    pattern --pattern file --file commbench.txt --file-element-bytes 0
printf 'src,dst,bytes\n0,5,8\n' >far.csv
expect_usage 2 '--pattern file: far.csv:2: dst 5 is outside 0..1 (2 ranks)' \
    pattern --pattern file --file far.csv --nrep 5
run 4 5 --pattern striping --ranks-per-node 2 --backend host+mpi+host
run 4 5 --pattern striping --ranks-per-node 2 --backend mpi
rows=$(table_cols size_B measured '#wrong' | tr '\n' ';')
[ "$rows" = "split 0;translate 0;assemble 0;sequence 0;concurrent n/a;split 0;translate 0;assemble 0;sequence 0;concurrent n/a;" ]
check $? "striping: each step alone, the sequence validated end to end, concurrent not validated" "$rows"

# The matrix of symmetric (2, 2, 2) bi: each rank of a group sends 8 bytes
# to both ranks of the other group (the paper's Fig. 6c, both ways).
launch 4 pattern --pattern symmetric --direction bi --ranks-per-node 2 --sizes 8 --nrep 5 \
    $(late 4) --output s.csv --raw r.csv
matrix=$(awk '/^bytes from rank .* at 8 B:$/ { on = 1; next } on && NF == 5 && $1 ~ /^[0-9]$/ {
                  printf "%s %s %s %s;", $2, $3, $4, $5 }' "$out")
[ "$matrix" = ". . 8 8;. . 8 8;8 8 . .;8 8 . .;" ]
check $? "symmetric bi matrix: each group's ranks to both of the other's" "$matrix"
csv_awk s.csv '$col["measured"] == "pattern" { n++; ok = $col["pattern"] == "symmetric" && $col["direction"] == "bi" &&
                    $col["groups"] == 2 && $col["group_size"] == 2 && $col["k"] == 2 &&
                    $col["messages"] == 8 && $col["bytes"] == 64 && $col["valid"] == 5 &&
                    $col["median_s"] > 0 && $col["algbw_GBps"] > 0 && $col["wrong_bytes"] == "" }
    END { exit !(n == 1 && ok) }'
check $? "summary: the shape, 8 messages of 8 bytes, no validation asked" "$(csv_tsv s.csv)"
csv_awk r.csv '$col["valid"] == 1 { n[$col["op"]]++ } END {
    exit !(n["symmetric"] == 5 && n["MPI_Alltoall"] == 5 && length(n) == 2) }'
check $? "raw: 5 valid repetitions of the pattern and of its baseline" "$(csv_tsv r.csv | head -3)"
grep -q '^# pattern: symmetric$' s.csv && grep -q '^# backend: mpi$' s.csv
check $? "factors: pattern, backend"

# The model of CommBench's eq. 1 beside the measurement: rail (2, 2, 2),
# 2 senders per group packed 1 to a 25 GB/s NIC: 25 (1 + 1 / 1) = 50.
launch 4 pattern --pattern rail --ranks-per-node 2 --sizes 64K --nrep 5 $(late 4) \
    --nic-bw 25 --gpus-per-nic 1 --output m.csv
table_cols size_B model_GBps | grep -qx '50.000' &&
    grep -qxF "# model_GBps: 50 (packed, eq. 1, nic-bw 25 GB/s, k 2: 50 a node; x 1, uni 1, bi 2, omni n: the nodes' links algbw counts)" m.csv
check $? "--nic-bw 25 --gpus-per-nic 1: the model, 50 GB/s, in the table and the factors" \
    "$(cat "$out"; grep model m.csv)"
# bi counts group 0's links both ways (issue 32: the model ignored the
# direction): k 1 packed 1 to a 25 GB/s NIC is 25 a node, 50 for bi.
launch 2 pattern --pattern rail --direction bi --ranks-per-node 1 --sizes 64K --nrep 5 \
    --nic-bw 25 --gpus-per-nic 1
table_cols size_B model_GBps | grep -qx '50.000'
check $? "--direction bi --nic-bw 25 --gpus-per-nic 1, k 1: 2 x 25 GB/s" "$(cat "$out")"
expect_usage 2 '--nic-bw: give it with one of --gpus-per-nic (eq. 1, packed) or --nics' \
    pattern --nic-bw 25

# --window N (osu_bw's -W): every message N times in flight per
# repetition, counted N times, validated as one; no collective beside it
# (one MPI_Alltoall against 8 messages in flight compares unlike things).
# rail bi over 2 groups of 1: 2 messages of 4 KiB, 8 times: 16, 64 KiB.
launch 2 pattern --pattern rail --direction bi --ranks-per-node 1 --sizes 4K --nrep 5 \
    --window 8 --validate --output w.csv --matrix wm.csv
csv_awk w.csv '{ n++; ok = $col["measured"] == "pattern" && $col["messages"] == 16 &&
                 $col["bytes"] == 65536 && $col["wrong_bytes"] == 0 && $col["valid"] > 0 }
    END { exit !(n == 1 && ok) }' && grep -qx '# window: 8' w.csv &&
    [ "$(csv_awk wm.csv '{ printf "%s>%s:%s;", $col["src"], $col["dst"], $col["bytes"] }')" = "0>1:32768;1>0:32768;" ] &&
    grep -q 'each message 8 times in flight, --window' "$out"
check $? "--window 8: 16 messages, 65536 bytes, 0 wrong, no baseline row, factor and title say so" \
    "exit $status; $(cat "$out"; csv_tsv w.csv)"
expect_usage 2 '--window 2 is for one step: striping'"'"'s steps forward what they received' \
    pattern --pattern striping --ranks-per-node 1 --window 2
expect_usage 2 '--window: "0" is out of range (accepted: 1 to 4096)' pattern --window 0

# Bandwidth per node (CommBench's Fig. 12) beside algbw: symmetric omni
# over 4 groups of 1 puts 2 / 4 of every message's bytes through each
# node (3 out, 3 in, of 12 messages). The mean and the start calls: min <=
# mean <= max, and a start call lies inside its own rank's run, so every
# raw start_call_s <= local_s and the median <= median_s.
launch 4 pattern --pattern symmetric --direction omni --ranks-per-node 1 --sizes 16K --nrep 10 \
    $(late 4) --output pn.csv --raw pnr.csv
csv_awk pn.csv '$col["measured"] == "pattern" { n++
        ok = $col["node_bytes"] * 2 == $col["bytes"] && $col["bytes"] == 12 * 16384 &&
             near($col["node_GBps"] * 2, $col["algbw_GBps"]) &&
             $col["min_s"] <= $col["mean_s"] && $col["mean_s"] <= $col["max_s"] &&
             $col["start_call_median_s"] > 0 && $col["start_call_median_s"] <= $col["median_s"] }
    $col["measured"] == "MPI_Alltoall" { b++; okb = $col["node_bytes"] == "" && $col["start_call_median_s"] == "" }
    END { exit !(n == 1 && ok && b == 1 && okb) }
    function near(a, b) { return a - b < 1e-9 * b && b - a < 1e-9 * b }' &&
    table_cols size_B node_GBps >/dev/null
check $? "omni (4 groups): node_bytes = bytes / 2, node_GBps = algbw / 2; mean within min..max; start call in 0..median; none for the baseline" \
    "exit $status; $(csv_tsv pn.csv)"
csv_awk pnr.csv '$col["op"] == "symmetric" { n++; if (!($col["start_call_s"] > 0 && $col["start_call_s"] <= $col["local_s"])) bad++ }
    $col["op"] == "MPI_Alltoall" && $col["start_call_s"] != "" { bad++ }
    END { exit !(n >= 10 && bad == 0) }'
check $? "raw: every start_call_s in 0..local_s, empty for the baseline" "$(csv_tsv pnr.csv | head -4)"
expect_usage 2 '--pattern: unknown pattern "ring" (known: rail, asymmetric, symmetric, self, striping, file)' \
    pattern --pattern ring
expect_usage 2 '--direction: unknown direction "all" (known: uni, bi, omni, bi-mirror, uni-in)' pattern --direction all
expect_usage 2 '--backend: unknown backend "tcp" in "host+tcp+host" (known: mpi, host, cuda, ipc, ipc-get, nccl)' \
    pattern --backend host+tcp+host
# GPUs: the memory the steps share, --memory, and (on a machine without a
# device, as CI's) every GPU option refused with the reason.
expect_usage 4 '--backend host+nccl+host: host copies host memory and nccl asks for device memory' \
    pattern --pattern striping --ranks-per-node 2 --backend host+nccl+host
expect_usage 2 '--memory: "gpu" is not a memory (known: host, device)' pattern --memory gpu
# --device-time needs a stream on the device at every step, GPU or not.
expect_usage 2 '--device-time: the mpi backend has no stream to time on the device (the GPU backends have: cuda, ipc, ipc-get, nccl)' \
    pattern --ranks-per-node 1 --device-time
expect_usage 2 '--device-time: the host backend has no stream' \
    pattern --pattern striping --ranks-per-node 1 --backend host+mpi+host --device-time
if "$HARMONIA" version | grep -qE 'no GPU|built without CUDA'; then
    for b in cuda ipc ipc-get nccl; do
        expect_usage 2 "--backend $b: no GPU: " pattern --ranks-per-node 1 --backend $b
    done
    expect_usage 2 '--memory device: no GPU: ' pattern --ranks-per-node 1 --memory device
    expect_usage 2 '--gpus-per-node 1: the run uses no GPU (give a GPU backend or --memory device)' \
        pattern --ranks-per-node 1 --gpus-per-node 1
fi
expect_usage 2 '--backend host+mpi+host: one backend per step is for --pattern striping' \
    pattern --pattern rail --backend host+mpi+host
expect_usage 3 '--ranks-per-node 2: the 3 ranks are not whole groups of 2' \
    pattern --ranks-per-node 2
expect_usage 2 '--k 3: more than the 2 ranks of a group' pattern --ranks-per-node 2 --k 3
expect_usage 2 'n 1 is below 2' pattern --pattern rail --ranks-per-node 2
# Without --ranks-per-node the groups are the real nodes: one here.
expect_usage 2 '--pattern rail: n 1 is below 2 (rail needs two groups) (the groups are the nodes: on one node, give --ranks-per-node)' \
    pattern --sizes 8
! grep -q size_B "$out"
check $? "the shape refused before any measurement: no table" "$(cat "$out")"
expect_usage 2 '--pattern striping: 2 groups of --ranks-per-node ranks (here 1 of 2)' \
    pattern --pattern striping --ranks-per-node 2
expect_usage 2 '--pattern file: give the file with --file' pattern --pattern file
expect_usage 2 '--direction uni: --pattern self has no direction' \
    pattern --pattern self --direction uni

# The raw file has bench's columns: campaign, stats and compare read it.
# Striping at 2 ranks (g = 1: no split or assemble) gives 3 ops a size.
timeout -k 5 "$(scaled 200)" "$HARMONIA" campaign -n 2 --dir c -- "$MPIEXEC" -n 2 "$HARMONIA" pattern \
    --pattern striping --ranks-per-node 1 --sizes 8,64K --nrep 20 >"$out" 2>&1
status=$?
csv_awk c/per-mpirun.csv '{ n[$col["op"]]++ } END {
    exit !(n["striping:translate"] == 4 && n["striping:sequence"] == 4 &&
           n["striping:concurrent"] == 4 && length(n) == 3) }'
check $? "campaign of 2 pattern runs: per-mpirun rows of 3 ops x 2 sizes x 2 runs" \
    "exit $status; $(cat "$out")"
launch 0 stats c/run-001.csv
[ "$status" -eq 0 ] && [ "$(table_cols op op size_B | sort -u | wc -l)" -eq 6 ]
check $? "stats of a pattern raw file: 6 (op, size) rows" "$(cat "$out")"
launch 0 compare c/run-001.csv c/run-002.csv
[ "$status" -eq 0 ] && [ "$(grep -c "^striping:" "$out")" -eq 6 ]
check $? "compare of two pattern raw files: 6 rows with a p-value" "$(cat "$out")"

# nccl-tests' spellings: -b 8 -e 1K -f 4 is 8, 32, 128, 512 bytes; -n, -w
# the repetitions and the warm-up; -c 1 validates.
launch 2 pattern --pattern rail --ranks-per-node 1 -b 8 -e 1K -f 4 -n 7 -w 2 -c 1
sizes=$(table_cols size_B size_B | uniq | tr '\n' ' ')
[ "$status" -eq 0 ] && [ "$sizes" = "8 32 128 512 " ] &&
    [ "$(table_cols size_B valid '#wrong' | sort -u | tr '\n' ' ')" = "7 0 " ]
check $? "-b 8 -e 1K -f 4 -n 7 -w 2 -c 1: 4 sizes, 7 valid, validated" "$(cat "$out")"
expect_usage 0 '--sizes and -b/-e/-f (--minbytes, --maxbytes, --stepfactor): give the sizes one way' \
    pattern -b 8 --sizes 8
expect_usage 0 '--stepfactor (-f) 3: give -b MIN and/or -e MAX with it' pattern -f 3
expect_usage 0 '--minbytes (-b) 1048576 is above --maxbytes (-e) 8' pattern -b 1M -e 8
expect_usage 0 '--check (-c) and --validate: give one of them' pattern -c 1 --validate
expect_usage 0 '--check: "2" is out of range (accepted: 0 to 1)' pattern -c 2
expect_usage 0 '--minbytes: "8:9" is not one size (a list or a range is --sizes)' pattern -b 8:9
expect_usage 2 '--sizes (-b/-e/-f): the file gives every message' \
    pattern --pattern file --file x.csv -b 8
finish
