#!/usr/bin/env bash
# `harmonia timers`: every source measured, CSV written with its factors, and
# an unusable tsc refused cleanly (exit 2, the reason once).
. "$(dirname "$0")/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out"' EXIT

expect_ok 2 'monotonic_raw' timers --output "$dir/t.csv"
# Numbers in the table: the monotonic row must show a positive overhead below
# 100 us (a clock_gettime costs ~20-60 ns here; 100 us would mean a broken
# measurement, not a slow machine).
row=$(grep -E '^monotonic ' "$out")
overhead=$(echo "$row" | awk '{print $4}')
awk -v o="$overhead" 'BEGIN { exit !(o > 0 && o < 100000) }' \
    && ok "monotonic overhead $overhead ns is in (0, 100000)" \
    || fail "monotonic overhead '$overhead' (row: $row)"
echo "$row" | grep -qE ' yes( |$)' && ok "monotonic is reported monotonic" || fail "monotonic row: $row"

# The CSV: factor lines, a header, one row per rank and source (2 x 6).
[ -f "$dir/t.csv" ] && ok "CSV written" || fail "no CSV"
for key in harmonia_version command_line date mpi_library processes nodes seed; do
    grep -q "^# $key: " "$dir/t.csv" && ok "CSV has factor $key" || fail "CSV lacks factor $key"
done
rows=$(grep -v '^#' "$dir/t.csv" | tail -n +2 | wc -l)
[ "$rows" -eq 12 ] && ok "CSV has 12 rows (2 ranks x 6 sources)" || fail "CSV has $rows rows"
ls -a "$dir" | grep -q '\.tmp\.' && fail "temporary file left in $dir" || ok "no temporary file left"

expect_ok 2 'rank' timers --timer monotonic --per-rank
lines=$(grep -cE '^ *[01] +monotonic ' "$out")
[ "$lines" -eq 2 ] && ok "--per-rank prints one row per rank" || fail "--per-rank rows: $lines"

# A TSC without nonstop_tsc is no clock: refused when asked for, listed as
# unavailable otherwise.
printf 'processor\t: 0\nflags\t\t: fpu tsc constant_tsc rdtscp\n' >"$dir/cpuinfo"
export HARMONIA_CPUINFO="$dir/cpuinfo"
expect_usage 2 "--timer tsc: tsc refused: $dir/cpuinfo lacks nonstop_tsc" timers --timer tsc
expect_ok 2 'unavailable: tsc refused' timers
unset HARMONIA_CPUINFO
finish
