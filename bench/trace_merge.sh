#!/usr/bin/env bash
# bench/trace_merge.sh — how fast `harmonia trace merge` is, and in how
# much memory, for each choice of files; two builds side by side.
#
#   bench/trace_merge.sh TRACE_DIR NEW_BUILD [OLD_BUILD] [REPS] [FILES...]
#
# TRACE_DIR holds a traced run's rank-*.events and rank-*.model (e.g. 2
# ranks of `tests/trace/trace_app patterns 100000`: 6.8 M events). Each
# repetition merges a copy of it with NEW_BUILD's harmonia (and OLD_BUILD's,
# interleaved: a busy machine slows both alike), once per --files value
# (default: none otf2 csv all); REPS repetitions (default 3). Each build
# runs with its own libharmonia (LD_LIBRARY_PATH: a build tree's harmonia
# finds its library by an absolute RUNPATH, which another build's would
# shadow). Printed: per build and files the median wall time, events/s and
# peak memory (GNU time's maximum resident set) over the repetitions, and
# with OLD_BUILD the median of the pairs' ratios of wall time.
set -u
trace=$1 new=$2 old=${3:-} reps=${4:-3}
shift $(($# < 4 ? $# : 4))
files=("$@")
[ ${#files[@]} -eq 0 ] && files=(none otf2 csv all)
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/merge-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$trace"/rank-* "$work"/
builds=(new)
[ -n "$old" ] && builds+=(old)
events=$(LD_LIBRARY_PATH="$new" "$new/harmonia" trace merge --files none "$work" |
    awk '/^ranks/ { gsub(",", ""); for (i = 1; i < NF; i++) if ($i == "events") print $(i + 1) }')
echo "trace: $trace, $events events; $reps repetitions"
declare -A runs
for ((r = 0; r < reps; r++)); do
    for f in "${files[@]}"; do
        for b in "${builds[@]}"; do
            dir=$new
            [ "$b" = old ] && dir=$old
            rm -rf "$work"/trace.csv "$work"/trace.json "$work"/events.csv "$work"/otf2
            sync
            line=$( { LD_LIBRARY_PATH="$dir" /usr/bin/time -f "%e %M" "$dir/harmonia" trace merge \
                --files "$f" "$work" >/dev/null; } 2>&1 | tail -1)
            runs[$b,$f]+="$line;"
            echo "run $r $b --files $f: $line (s, KiB)" >&2
        done
    done
done
med() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], v[1], v[NR] }'; }
printf "%-5s %-5s %10s %12s %10s  %s\n" build files wall_s events/s peak_MB "wall range"
for f in "${files[@]}"; do
    for b in "${builds[@]}"; do
        runs_bf=$(echo "${runs[$b,$f]}" | tr ';' '\n' | awk 'NF == 2')
        read -r t tmin tmax < <(echo "$runs_bf" | awk '{ print $1 }' | med)
        read -r m _ _ < <(echo "$runs_bf" | awk '{ print $2 }' | med)
        awk -v b="$b" -v f="$f" -v n="$events" -v t="$t" -v m="$m" -v r="$tmin-$tmax" \
            'BEGIN { printf "%-5s %-5s %10.2f %12.3g %10.0f  %s\n", b, f, t, n / t, m / 1024, r }'
    done
done
# Each repetition's pair ran back to back: the median of their ratios
# cancels most of what a busy machine did to both.
[ -n "$old" ] && for f in "${files[@]}"; do
    paste -d' ' <(echo "${runs[new,$f]}" | tr ';' '\n' | awk 'NF == 2 { print $1 }') \
        <(echo "${runs[old,$f]}" | tr ';' '\n' | awk 'NF == 2 { print $1 }') |
        awk '{ print $1 / $2 }' | med |
        awk -v f="$f" '{ printf "new/old wall time, --files %s: median of pairs %.3f (%s-%s)\n", f, $1, $2, $3 }'
done
