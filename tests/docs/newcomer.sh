#!/usr/bin/env bash
# tests/docs/newcomer.sh SOURCE_DIR — what a new user meets before any
# command runs (issue 31, class 10): the doc-commands test substitutes the
# program under test and adds --oversubscribe, so it cannot see that a page
# shows a bare `harmonia` nobody has on PATH, or a 4-rank mpirun that Open
# MPI refuses on 2 cores. Every page that shows a harmonia command says how
# to put it on PATH; every mpirun of more than 2 ranks on this machine
# gives --oversubscribe (a run on a cluster names its --hostfile).
src=${1:?usage: newcomer.sh SOURCE_DIR}
failures=0
for f in "$src"/docs/*.md; do
    grep -qE '^(\$ )?(mpirun[^|]* )?harmonia [a-z-]' "$f" || continue
    if grep -qF 'export PATH=$PWD/build:$PATH' "$f"; then
        echo "ok: ${f#"$src"/} says how to put harmonia on PATH"
    else
        echo "FAIL: ${f#"$src"/} shows harmonia commands but not how to put it on PATH" >&2
        failures=$((failures + 1))
    fi
done
while IFS= read -r hit; do
    echo "FAIL: $hit: more than 2 ranks without --oversubscribe (2 cores)" >&2
    failures=$((failures + 1))
done < <(cd "$src" && grep -nE 'mpirun -n ([3-9]|[1-9][0-9]+)\b' README.md docs/*.md |
    grep -v -e '--oversubscribe' -e '--hostfile')
echo "$failures failed"
[ "$failures" -eq 0 ]
