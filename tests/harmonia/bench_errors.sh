#!/usr/bin/env bash
# `harmonia bench` (and `skew`) refusing bad input: exit status 2 with the
# message once, naming the option and the value, before anything is
# measured; a runtime allocation failure is exit status 1 with one message;
# every launch is bounded by a timeout, so a rank left waiting fails the test.
# GPU options on a machine without a GPU are refused with the reason.
# Options mean the same in any order and spelling.
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out"' EXIT
cd "$dir" || exit 1

ALL_OPS='bcast, reduce, allreduce, alltoall, alltoallv, allgather, gather, scatter, scan, exscan, reduce_scatter_block, barrier, ibcast, ireduce, iallreduce, ialltoall, ialltoallv, iallgather, igather, iscatter, iscan, iexscan, ireduce_scatter_block, ibarrier, pingpong'

# --- operations -------------------------------------------------------------
# The whole list of known operations, none cut off (src/ops/registry.c).
expect_usage 2 "--ops: unknown operation \"frob\" (known: $ALL_OPS)" bench --ops allreduce,frob
expect_usage 2 '--ops: "allreduce" is listed twice' bench --ops allreduce,bcast,allreduce
expect_usage 2 '--ops: empty value' bench --ops ''

# --- GPUs: the backend and the memory; on a machine without a device (CI's)
# every GPU option refused with the reason ----------------------------------
expect_usage 2 '--backend host: bench runs mpi or nccl (host is for pattern)' bench --backend host
expect_usage 2 '--memory host: NCCL moves device memory' bench --backend nccl --memory host
# --batch: NCCL's launches a repetition; an MPI operation runs once.
expect_usage 2 '--batch: 10 operations a run are for NCCL' bench --batch 10 --sizes 8
expect_usage 0 '--batch: "0" is' bench --batch 0
if "$HARMONIA" version | grep -qE 'no GPU|built without CUDA'; then
    expect_usage 2 '--backend nccl: no GPU: ' bench --backend nccl
    expect_usage 2 '--memory device: no GPU: ' bench --memory device --ops allreduce
    expect_usage 2 '--gpus-per-node 1: the run uses no GPU' bench --gpus-per-node 1 --sizes 8
fi

# --- process synchronization ------------------------------------------------
expect_usage 2 '--sync harmony: unknown method "harmony" (known: barrier, dissem, window, roundtime, harmonize)' \
    bench --sync harmony
expect_usage 2 '--sync harmony: unknown method "harmony" (known: barrier, dissem, window, roundtime, harmonize)' \
    skew --sync barrier,harmony,dissem

# --- root and peer against the communicator ----------------------------------
expect_usage 2 '--root: root 2 is outside the communicator (2 ranks) (operation bcast)' \
    bench --ops bcast --root 2
expect_usage 2 '--peer: "0" is out of range (accepted: 1 to' bench --ops pingpong --peer 0
expect_usage 2 '--peer: peer 5 is not a partner for rank 0: it must be 1 to 1 (2 ranks) (operation pingpong)' \
    bench --ops pingpong --peer 5

# --- values of the measurement options ---------------------------------------
expect_usage 2 '--check-every: "0" is out of range (accepted: 1 to' bench --check-every 0
expect_usage 2 '--nrep: "0" is out of range (accepted: 1 to' bench --nrep 0
expect_usage 2 '--late-us: "-1" is not a duration in microseconds' bench --late-us -1
expect_usage 2 '--window-us: "0" is not a duration in microseconds (accepted: more than 0' \
    bench --sync window --window-us 0
expect_usage 2 '--slice-s: "0" is not a duration in seconds (accepted: more than 0' \
    bench --sync roundtime --slice-s 0
expect_usage 2 '--max-attempts 50 is below --nrep 100' bench --nrep 100 --max-attempts 50
expect_usage 2 '--inject-delay: "1:x:5" is not RANK:ATTEMPT:MICROSECONDS' bench --inject-delay 1:x:5
expect_usage 2 '--format: unknown format "csv" (known: table, osu)' bench --format csv

# --- misspelled and foreign options: refused, never ignored -------------------
expect_usage 2 'unknown option "--chek-every" (did you mean --check-every?)' bench --chek-every 4
expect_usage 2 "--check-after is not an option of 'bench'" bench --check-after 1
expect_usage 2 "--ops is not an option of 'skew'" skew --ops bcast

# --- one clock synchronization -------------------------------------------------
expect_usage 2 '--clock-sync: "hca3,skampi" is a list; bench takes one specification' \
    bench --clock-sync hca3,skampi
expect_usage 2 '--clock-sync: "hca3,skampi" is a list; skew takes one specification' \
    skew --clock-sync hca3,skampi
# design "Errors and bad input": a usage error names the option AND the value.
launch 2 bench --clock-sync hca3,skampi
grep 'harmonia: error:' "$out" | grep -qF '"hca3,skampi"'
check $? "--clock-sync list refused naming the value \"hca3,skampi\"" \
    "$(grep 'harmonia: error:' "$out")"

# --- sizes that do not fit an int count ----------------------------------------
expect_usage 2 '--sizes: "3G" exceeds the largest size, 2147483647 bytes (MPI counts are int)' \
    bench --sizes 3G
expect_usage 2 '--sizes: size 1073741824 bytes times 2 ranks is 2147483648 bytes for alltoall, more than an int count' \
    bench --ops alltoall --sizes 1G

# --- an operation that needs more ranks is --ops' fault, not --sizes' -----------
# (one rank is refused before any operation unless --allow-one-rank says so)
expect_usage 1 'bench: 1 rank, at least 2 needed' bench --ops pingpong --sizes 8 --nrep 5
expect_usage 1 '--ops: pingpong needs at least 2 ranks (the communicator has 1)' \
    bench --allow-one-rank --ops pingpong --sizes 8 --nrep 5

# --- an injected delay on a rank that does not exist ---------------------------
# --inject-delay 5:1:100 at 2 ranks: rank 5 does not exist, so it would
# silently inject nothing; make_plan refuses it like a root or a peer.
expect_usage 2 '--inject-delay' bench --ops bcast --sizes 8 --nrep 10 --inject-delay 5:1:100

# --- result files: refused before anything is measured ---------------------------
expect_usage 2 '--output: "/nonexistent/dir/x.csv": directory "/nonexistent/dir" does not exist' \
    bench --output /nonexistent/dir/x.csv
grep -q '^latency on' "$out" && fail "--output refused, but a table was printed" \
    || ok "--output refused before measuring (no table)"
expect_usage 2 '--raw: "/nonexistent/dir/r.csv": directory "/nonexistent/dir" does not exist' \
    bench --output ok.csv --raw /nonexistent/dir/r.csv
[ ! -e ok.csv ] && ok "no summary file written when --raw is refused" || fail "ok.csv written"
expect_usage 2 '--output: "/nonexistent/dir/k.csv": directory "/nonexistent/dir" does not exist' \
    skew --output /nonexistent/dir/k.csv

# --- at 3 ranks (Open MPI, oversubscribed) --------------------------------------
if [ "$MPI_FLAVOR" = openmpi ]; then
    expect_usage 3 "--ops: unknown operation \"frob\" (known: $ALL_OPS)" bench --ops frob
    expect_usage 3 '--root: root 3 is outside the communicator (3 ranks) (operation reduce)' \
        bench --ops reduce --root 3
    expect_usage 3 '--peer: peer 3 is not a partner for rank 0: it must be 1 to 2 (3 ranks) (operation pingpong)' \
        bench --ops pingpong --peer 3
    expect_usage 3 '--sizes: size 805306368 bytes times 3 ranks is 2415919104 bytes for allgather' \
        bench --ops allgather --sizes 768M
    expect_usage 3 'unknown option "--chek-every" (did you mean --check-every?)' bench --chek-every 4
    expect_usage 3 '--sync harmony: unknown method "harmony"' skew --sync harmony
fi

# --- buffers that cannot be allocated: a runtime failure, exit status 1 ---------
# Rank 1's address space is capped at 1.5 GiB (a rank maps ~0.2-0.45 GiB after
# MPI_Init here), so it cannot hold alltoall's 2 x 1 GiB at 512 MiB on 2 ranks
# while rank 0 can: the ranks must agree (as tests/ops/test_ops_check.c
# nomem_agrees), print one message naming the operation and size, and exit 1.
# Open MPI only (the MPICH/UCX library itself once crashed under such a cap,
# see tests/ops); skipped for an address-sanitizer build (the cap kills ASan).
if [ "$MPI_FLAVOR" = openmpi ] && ! grep -qa __asan_init "$HARMONIA"; then
    t0=$(date +%s)
    timeout -k 5 "$(scaled 60)" "$MPIEXEC" -n 2 bash -c \
        '[ "$OMPI_COMM_WORLD_RANK" = 1 ] && ulimit -v 1572864; exec "$0" "$@"' \
        "$HARMONIA" bench --ops alltoall --sizes 512M --nrep 2 --warmup 0 >"$out" 2>&1
    status=$? t=$(($(date +%s) - t0))
    n_err=$(grep -c 'harmonia: error:' "$out")
    msg=$(grep 'harmonia: error:' "$out")
    if [ "$status" -eq 1 ] && [ "$n_err" -eq 1 ] && [ "$t" -lt "$(scaled 50)" ] &&
        echo "$msg" | grep -qF 'alltoall 536870912 B: could not allocate'; then
        ok "alltoall 512M with rank 1 capped: exit 1 in ${t}s, \"$msg\""
    else
        fail "alltoall 512M with rank 1 capped: exit $status in ${t}s, $n_err error lines; output:"
        sed 's/^/    | /' "$out" >&2
    fi
else
    echo "skip: allocation failure under an address-space cap (Open MPI, no ASan only)"
fi

# --- options mean the same in any order and spelling -----------------------------
# Same seed, so the same shuffled order; --sync barrier has no invalid
# repetitions, so every row holds 50 valid.
launch 2 bench --ops bcast,reduce --sizes 8,64 --nrep 50 --sync barrier --seed 3 --output A.csv
sa=$status
launch 2 bench --output B.csv --seed 3 --sync barrier -i 50 -m 8,64 --ops bcast,reduce
sb=$status
launch 2 bench --seed=3 --nrep=50 --output=C.csv --sizes=64,8 --sync=barrier --ops=bcast,reduce
sc=$status
rows() { csv_awk "$1" '{ print $col["op"], $col["size_bytes"], $col["valid"], $col["order"] }'; }
ra=$(rows A.csv) rb=$(rows B.csv) rc=$(rows C.csv)
n=$(echo "$ra" | grep -c ' 50 ')
if [ "$sa$sb$sc" = 000 ] && [ "$n" -eq 4 ] && [ "$ra" = "$rb" ] && [ "$ra" = "$rc" ]; then
    ok "options in three orders and spellings: the same 4 rows (op size valid order)"
else
    fail "permuted options (exit $sa $sb $sc): A: $(echo $ra) | B: $(echo $rb) | C: $(echo $rc)"
fi
finish
