#!/usr/bin/env bash
# tests/docs/run_doc_commands.sh SOURCE_DIR — every command shown in
# README.md and docs/*.md runs as written, under the suite's MPI.
#
# Which lines are commands:
#  - in a fenced block marked sh (```sh), every line that is not empty and
#    not a comment; a line ending in \ continues on the next. It must exit 0.
#  - in a fenced block without a language (a transcript), every line that
#    starts with "$ "; the lines up to the next "$ " are its output. It must
#    exit 0, unless the transcript goes on with
#        $ echo $?
#        N
#    (an error example): then it must exit with status N, and each line of
#    its shown output that starts with "harmonia: error:" (or
#    "harmonia-compute: error:") must appear, as shown, exactly once in what
#    it printed. Blocks in other languages (c, cmake) and
#    transcripts without "$ " lines (synopses, sample messages) hold no
#    command.
#
# How they run: each document in a scratch directory of its own, its
# commands in document order (so `stats reps.csv` finds the file an earlier
# `bench --raw reps.csv` wrote). Only these words change:
#  - `build/` and `build-mpich/` become the build directory under test;
#  - `mpirun` is the suite's launcher (MPIEXEC), with --oversubscribe added
#    beyond 2 ranks for Open MPI and dropped for MPICH; `harmonia` is the
#    program under test and `harmonia-compute` the one built beside it (the
#    docs show them as if installed in PATH);
#  - `--nrep N` becomes `--nrep $HARMONIA_DOCS_NREP` (default 20), and a
#    bench or skew without --nrep gets it too: the one knob that keeps the
#    examples short.
# Commands that name one MPI run only in that MPI's suite: build-mpich/,
# mpiexec.mpich, MPI=mpich only with MPICH; mpirun.openmpi, and `make demo`
# or `make build` without MPI= (the Makefile's default is Open MPI), only with
# Open MPI. `make build ...` runs in SOURCE_DIR with BUILD= the build
# directory under test. The SMPI build's commands (MPI=smpi, build-smpi/,
# the scripts of scale/, and what reads their scale-results/) run in the Open
# MPI suite, against SOURCE_DIR's build-smpi/ and scale/ (docs/scale.md
# builds it first).
#
# Exempt, and listed as such in the output:
#  - multi-node launches: a command with --hostfile, or srun;
#  - `make check` (this suite is part of it) and `make install` (writes to
#    the system);
#  - `make demo` itself (it would reconfigure and rebuild): the commands of
#    the Makefile's demo target run instead, with MPIEXEC, NP and BUILD of
#    the suite.
#
# A command gets 180 s (exit 124 past that; times HM_TEST_TIMEOUT_SCALE,
# lib.sh, on a loaded machine): an example that needs longer on
# the 2-core test machine is too long for a reader to try.
#
# Environment (set by CTest): HARMONIA, MPIEXEC, MPI_FLAVOR, and optionally
# HARMONIA_DOCS_NREP. HARMONIA_DOCS_ONLY=FILE (e.g. README.md) runs the
# commands of one document.
src=${1:?usage: run_doc_commands.sh SOURCE_DIR}
. "$src/tests/harmonia/lib.sh"
nrep=${HARMONIA_DOCS_NREP:-20}
# MPICH 4.0 (ch4:ucx) busy-polls in its progress engine: with more ranks
# than cores a waiting rank keeps its core for a whole time slice. Yielding
# after every poll, as README.md advises for such runs, brought the README's
# 4-rank window bench (--nrep 20) from 40 s to 10 s on 2 cores.
[ "${MPI_FLAVOR:-}" = mpich ] && export MPIR_CVAR_POLLS_BEFORE_YIELD=1
build=$(cd "$(dirname "$HARMONIA")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch" "$out"' EXIT
case $nrep in '' | *[!0-9]*)
    fail "HARMONIA_DOCS_NREP=\"$nrep\" is not a number"
    finish
    exit
    ;;
esac

# The launcher and program the documents name.
bin=$scratch/bin
mkdir -p "$bin"
ln -s "$HARMONIA" "$bin/harmonia"
ln -s "$(dirname "$HARMONIA")/harmonia-compute" "$bin/harmonia-compute"
cat >"$bin/mpirun" <<EOF
#!/usr/bin/env bash
# mpirun of the documents: the suite's launcher, with the right flags.
args=() n=0 over=0
while [ \$# -gt 0 ]; do
    case \$1 in
    -n | -np) n=\$2; args+=("\$1" "\$2"); shift 2; continue ;;
    --oversubscribe) over=1; [ "$MPI_FLAVOR" = mpich ] || args+=("\$1") ;;
    *) args+=("\$1") ;;
    esac
    shift
done
if [ "$MPI_FLAVOR" = openmpi ] && [ "\$n" -gt 2 ] && [ "\$over" -eq 0 ]; then
    args=(--oversubscribe "\${args[@]}")
fi
exec "$MPIEXEC" "\${args[@]}"
EOF
chmod +x "$bin/mpirun"

# extract DOC: one line per command: LINE <tab> STATUS <tab> COMMAND <tab>
# expected error lines joined by \x1f.
extract() {
    python3 - "$1" <<'PY'
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
cmds = []  # [line, status, command, [error lines]]
lang = None
cur = None
i = 0
def joined(i, first):
    text = first
    while text.endswith("\\") and i + 1 < len(lines):
        i += 1
        text = text[:-1].rstrip() + " " + lines[i].strip()
    return i, text
while i < len(lines):
    line = lines[i]
    fence = re.match(r"^\s*```\s*(\S*)", line)
    if fence:
        lang = None if lang is not None else fence.group(1)
        cur = None  # the transcript command whose output this is
        i += 1
        continue
    if lang in ("sh", "bash", "shell"):
        s = line.strip()
        if s and not s.startswith("#"):
            n = i + 1
            i, text = joined(i, s)
            cmds.append([n, 0, text, []])
    elif lang == "":
        if line.startswith("$ "):
            n = i + 1
            i, text = joined(i, line[2:].strip())
            if text == "echo $?" and cur is not None and i + 1 < len(lines) \
                    and lines[i + 1].strip().isdigit():
                cmds[cur][1] = int(lines[i + 1].strip())
                i += 1
            else:
                cmds.append([n, 0, text, []])
                cur = len(cmds) - 1
        elif line.startswith(("harmonia: error:", "harmonia-compute: error:")) \
                and cur is not None:
            cmds[cur][3].append(line)
    i += 1
for n, status, text, errs in cmds:
    print(f"{n}\t{status}\t{text}\t" + "\x1f".join(errs))
PY
}

# The demo target's recipe, as the suite would run it.
demo_commands() {
    local np
    np=$(sed -n 's/^NP *?= *//p' "$src/Makefile")
    sed -n '/^demo:/,/^$/{/^\t[^@]/p}' "$src/Makefile" |
        sed -e 's/^\t//' -e 's/\$(MPIEXEC)/mpirun/g' -e "s/\$(NP)/$np/g" -e 's/\$(BUILD)/build/g'
}

nrun=0 nexempt=0 nother=0 nover=0
# run DOC LINE STATUS COMMAND ERRORS [SHOWN] : COMMAND in the document's
# scratch directory; SHOWN is what the document says (default: COMMAND).
run() {
    local doc=$1 line=$2 want=$3 cmd=$4 errs=$5 shown=${6:-$4} dir=$scratch/$(basename "$1")
    cmd=$(printf '%s' "$cmd" | sed -E \
        -e 's/[[:space:]]+#[[:space:]].*$//' \
        -e "s#(^|[[:space:]=])build-smpi(/|\$|[[:space:]])#\\1$src/build-smpi\\2#g" \
        -e "s#(^|[[:space:]=])build(-mpich)?/#\\1$build/#g" \
        -e "s#(^|[[:space:]])scale/#\\1$src/scale/#g" \
        -e "s/--nrep[ =][0-9]+/--nrep $nrep/g")
    # bench and skew without --nrep would take their defaults (1000, 2000
    # repetitions): they get the same knob.
    case $cmd in *--nrep*) ;; *)
        cmd=$(printf '%s' "$cmd" | sed -E "s#(harmonia (bench|skew))([[:space:]]|\$)#\\1 --nrep $nrep\\3#g") ;;
    esac
    mkdir -p "$dir"
    local t0 t1 status
    t0=$(date +%s.%N)
    (cd "$dir" && PATH=$bin:$PATH timeout -k 5 "$(scaled 180)" bash -c "$cmd") </dev/null >"$out" 2>&1
    status=$?
    t1=$(date +%s.%N)
    nrun=$((nrun + 1))
    local took missing="" e
    took=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    if [ -n "$errs" ]; then
        while IFS= read -r -d $'\x1f' e; do
            [ "$(grep -cxF -- "$e" "$out")" -eq 1 ] || missing="$missing [$e]"
        done <<<"$errs"$'\x1f'
    fi
    if [ "$status" -eq "$want" ] && [ -z "$missing" ]; then
        ok "$doc:$line: $shown (exit $status, ${took} s)"
    else
        fail "$doc:$line: $shown -> exit $status (expected $want)${missing:+, not printed once:$missing} in ${took} s; ran: $cmd; output:"
        # The error lines wherever they are (a long table can push them out
        # of the tail), then the tail.
        grep -E '^(harmonia|harmonia-compute|PARTIAL): ' "$out" | head -n 10 | sed 's/^/    ! /' >&2
        tail -n 25 "$out" | sed 's/^/    | /' >&2
    fi
}

docs=("$src/README.md" "$src"/docs/*.md)
for path in "${docs[@]}"; do
    doc=${path#"$src"/}
    [ -n "${HARMONIA_DOCS_ONLY:-}" ] && [ "$doc" != "$HARMONIA_DOCS_ONLY" ] && continue
    while IFS=$'\t' read -r line want cmd errs; do
        plain=$(printf '%s' "$cmd" | sed -E 's/[[:space:]]+#[[:space:]].*$//')
        # Exempt.
        reason=""
        case " $plain " in
        *" --hostfile "* | " srun "*) reason="multi-node launcher" ;;
        " make check "*) reason="the check itself" ;;
        " make install "*) reason="installs system-wide" ;;
        esac
        # Commands of one MPI.
        only=""
        case " $plain " in
        *build-mpich/* | *mpiexec.mpich* | *mpicc.mpich* | *" MPI=mpich "*) only=mpich ;;
        *mpirun.openmpi* | *mpicc.openmpi* | *" MPI=openmpi "*) only=openmpi ;;
        *" MPI=smpi "* | *build-smpi* | " scale/"* | *scale-results/*) only=openmpi ;;
        " make demo "* | " make build "*) only=openmpi ;;
        esac
        # Runs of more ranks than processors are left out under
        # HM_TEST_NO_OVERSUBSCRIBE=1 (scripts/check-under-load) or beside
        # other work: they wait whole scheduler slices for each other
        # (tests/common/crowded, through lib.sh's oversubscribing).
        most=$(printf '%s\n' "$plain" | awk '{ for (i = 1; i < NF; i++) {
                if ($i ~ /(^|\/)(mpirun|mpiexec)[.a-z]*$/) launcher = 1
                else if (launcher && ($i == "-n" || $i == "-np")) { if ($(i + 1) > m) m = $(i + 1); launcher = 0 } } }
            END { print m + 0 }')
        if oversubscribing "$most"; then
            echo "left out ($left_out_why): $doc:$line: $plain"
            nover=$((nover + 1))
        elif [ -n "$reason" ]; then
            echo "exempt ($reason): $doc:$line: $plain"
            nexempt=$((nexempt + 1))
        elif [ -n "$only" ] && [ "$only" != "$MPI_FLAVOR" ]; then
            echo "other suite ($only only): $doc:$line: $plain"
            nother=$((nother + 1))
        elif [[ $plain == "make demo"* ]]; then
            echo "exempt (the demo itself; its commands run instead): $doc:$line: $plain"
            nexempt=$((nexempt + 1))
            while IFS= read -r d; do
                run "$doc" "$line (make demo)" 0 "$d" ""
            done < <(demo_commands)
        elif [[ $plain == "make "* ]]; then
            # Not the flags of a `make check` this suite may run under.
            into=$build
            [[ " $plain " == *" MPI=smpi "* ]] && into=$src/build-smpi
            run "$doc" "$line" "$want" \
                "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C $src ${plain#make } BUILD=$into" \
                "$errs" "$plain"
        else
            run "$doc" "$line" "$want" "$cmd" "$errs"
        fi
    done < <(extract "$path")
done
echo "doc commands: $nrun run, $nexempt exempt, $nother for the other MPI, $nover left out oversubscribing (--nrep $nrep)"
finish
