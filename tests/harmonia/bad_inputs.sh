#!/usr/bin/env bash
# Bad input to every command, one table (issue 12): each case of
# bad_inputs.tsv must end with its exit status (2, a usage error, unless the
# case says otherwise), exactly one "harmonia: error:" line in the combined
# output, its message fragment exactly once and inside that line, and
# nothing written: its working directory (a copy of the fixtures below) is
# afterwards what it was, entry by entry (type, name, link target, size,
# inode, mtime), and where the case names an output (--output, --raw, --dir)
# every file has the MD5 it had: a refused output replaced no input and left
# no file, temporary or final. At the end: the number of cases per command.
#
# Table (bad_inputs.tsv): one case per line, fields separated by one tab:
#
#     NP <TAB> EXIT <TAB> FRAGMENT <TAB> ARG <TAB> ARG ...
#
#   NP        0: the program run directly (an MPI command runs as a
#             singleton); 2: under the launcher with 2 ranks. Options are
#             parsed before MPI_Init, so NP 0 costs milliseconds for a
#             parse-time error; keep NP 2 for what needs 2 ranks.
#   EXIT      the exit status expected (2: usage error).
#   FRAGMENT  text the error line must hold exactly once (bytes that are not
#             printable UTF-8 appear as the program escapes them: \xHH).
#   ARG...    harmonia's arguments, one per field (a field may hold spaces).
#             No field is empty (a tab run is one separator); special words:
#               @EMPTY        an empty argument
#               @X:TEXT       TEXT with printf %b escapes: @X:sun\xffdial
#                             is "sun", the byte 0xff, "dial"
#               @REP:N:TEXT   TEXT repeated N times (values too long)
# Lines starting with "#" and blank lines are comments; the table groups the
# cases by command, then by option or defect.
#
# Fixtures (made once by make_fixtures, copied into each lane's directory):
#   raw.csv raw2.csv   good raw files of bench (allreduce 8 B, 2 processes;
#                      sync barrier and harmonize), pm.csv a good per-mpirun
#                      file, camp/ a directory holding it, c1/ a real
#                      campaign (made by harmonia campaign, manifest included)
#   bad raw files      empty.csv (0 bytes), headonly.csv, factorsonly.csv,
#                      nocols.csv, wronghead.csv, nofactor.csv, globalonly.csv
#                      (no local_s), localonly.csv (no global_s),
#                      novalidcol.csv, abc.csv, neg.csv, valid2.csv, inf.csv,
#                      nan.csv, nul.csv (a NUL byte), esc.csv (ESC and 0xff),
#                      latin1.csv (0xe9 in an op), size85.csv, short.csv,
#                      novalid.csv, emptycell.csv, procsx.csv
#   bad per-mpirun     pm_abc.csv, pm_procs.csv, pm_dup.csv, pm_twosync.csv,
#                      pm_few.csv, pm_other.csv, pm_neg.csv, pm_local.csv and
#                      pm_glob.csv (reduced with other options), badpm/
#   other kinds        skew_raw.csv, clock_raw.csv (good), skew_bad.csv,
#                      clock_bad.csv; badcamp/manifest.csv (not a manifest)
#   not regular files  adir/ (empty), fifo, dev (character device 1,3 made
#                      with mknod; a link to /dev/null where that fails),
#                      dangling.csv (link to nothing), link.csv (to raw.csv);
#                      fifocamp/ (its manifest.csv a FIFO), fifotrace/ (its
#                      rank-00000.model a FIFO), devtrace/ (its
#                      rank-00000.events a link to /dev/zero);
#                      imgfifo/ and imgdir/ hold a FIFO and a directory
#                      under the name of raw.csv's latency figure
# plot finds a fake gnuplot that fails: no case may get as far as drawing,
# and the table passes where gnuplot is not installed.
#
# Cases run in HM_BAD_JOBS lanes (default 4; an MPI singleton spends most of
# its 0.4 s start waiting), each lane in its own copy of the fixtures, made
# afresh after a case that changed it; the checks are made afterwards, in
# table order.
. "$(dirname "$0")/lib.sh"
table="$(cd "$(dirname "$0")" && pwd)/bad_inputs.tsv"
root=$(mktemp -d)
trap 'rm -rf "$root" "$out"' EXIT
fix=$root/fixtures res=$root/results
mkdir "$fix" "$res" "$root/bin"
printf '#!/bin/sh\necho "fake gnuplot: no case may draw" >&2\nexit 1\n' >"$root/bin/gnuplot"
chmod +x "$root/bin/gnuplot"
export PATH="$root/bin:$PATH"
start=$SECONDS

# The format strings hold the escapes of the bad bytes; $0 and $1 are for sh.
# shellcheck disable=SC2059,SC2016
make_fixtures() {
    local f='# processes: 2\n# sync: barrier\n'
    local rh='op,size_bytes,attempt,valid,global_s,local_s,start_spread_s,start_s\n'
    local ph='run,seed,op,size_bytes,processes,sync,n,kept,median_s,mean_s\n'
    local i r
    { printf "$f$rh"; for i in 0 1 2 3 4 5 6 7 8 9; do
        printf 'allreduce,8,%d,1,1.%de-06,1e-06,0,0\n' "$i" "$i"; done; } >raw.csv
    { printf '# processes: 2\n# sync: harmonize\n'"$rh"; for i in 0 1 2 3 4 5 6 7 8 9; do
        printf 'allreduce,8,%d,1,2.%de-06,1e-06,0,0\n' "$i" "$i"; done; } >raw2.csv
    { printf "$ph"; for r in 1 2 3 4 5; do
        printf '%d,%d,allreduce,8,2,barrier,10,10,1.%de-06,1.%de-06\n' "$r" "$r" "$r" "$r"; done; } >pm.csv
    mkdir camp && cp pm.csv camp/per-mpirun.csv
    : >empty.csv
    printf "$f$rh" >headonly.csv
    printf "$f" >factorsonly.csv
    printf 'a,b\n1,2\n' >nocols.csv
    printf "$f"'op,size,valid,time\nallreduce,8,1,1e-6\n' >wronghead.csv
    printf 'op,size_bytes,valid,global_s\nallreduce,8,1,1e-6\n' >nofactor.csv
    printf "$f"'op,size_bytes,valid,global_s\nallreduce,8,1,1e-6\n' >globalonly.csv
    printf "$f"'op,size_bytes,valid,local_s\nallreduce,8,1,1e-6\n' >localonly.csv
    printf "$f"'op,size_bytes,global_s\nallreduce,8,1e-6\n' >novalidcol.csv
    printf "$f$rh"'allreduce,8,0,1,1e-6,1e-6,0,0\nallreduce,8,1,1,abc,1e-6,0,0\n' >abc.csv
    printf "$f$rh"'allreduce,8,0,1,-1e-6,1e-6,0,0\n' >neg.csv
    printf "$f$rh"'allreduce,8,0,2,1e-6,1e-6,0,0\n' >valid2.csv
    printf "$f$rh"'allreduce,8,0,1,inf,1e-6,0,0\n' >inf.csv
    printf "$f$rh"'allreduce,8,0,1,nan,1e-6,0,0\n' >nan.csv
    printf "$f$rh"'allre\000duce,8,0,1,1e-6,1e-6,0,0\n' >nul.csv
    printf "$f$rh"'allreduce,8,0,1,\033[31m1\377,1e-6,0,0\n' >esc.csv
    printf "$f$rh"'allr\351duce,8,0,1,1e-6,1e-6,0,0\n' >latin1.csv
    printf "$f$rh"'allreduce,8.5,0,1,1e-6,1e-6,0,0\n' >size85.csv
    printf "$f$rh"'allreduce,8,0,1,1e-6\n' >short.csv
    printf "$f$rh"'allreduce,8,0,0,1e-6,1e-6,0,0\n' >novalid.csv
    printf "$f$rh"'allreduce,8,0,1,,1e-6,0,0\n' >emptycell.csv
    printf '# processes: x2\n# sync: barrier\n'"$rh"'allreduce,8,0,1,1e-6,1e-6,0,0\n' >procsx.csv
    printf "$ph"'1,1,allreduce,8,2,barrier,10,10,1e-6,1e-6\n2,2,allreduce,8,2,barrier,10,10,abc,1e-6\n' >pm_abc.csv
    printf "$ph"'1,1,allreduce,8,x2,barrier,10,10,1e-6,1e-6\n' >pm_procs.csv
    { cat pm.csv; sed -n 2p pm.csv; } >pm_dup.csv
    printf "$ph"'1,1,allreduce,8,2,barrier,10,10,1e-6,1e-6\n1,1,allreduce,8,2,harmonize,10,10,1e-6,1e-6\n' >pm_twosync.csv
    printf 'run,op\n1,allreduce\n' >pm_few.csv
    printf "$ph"'1,1,allreduce,64,2,barrier,10,10,1e-6,1e-6\n' >pm_other.csv
    printf "$ph"'1,1,allreduce,8,2,barrier,10,10,-1e-6,1e-6\n' >pm_neg.csv
    { printf '# metric: local\n# filter: tukey\n'; cat pm.csv; } >pm_local.csv
    { printf '# metric: global\n# filter: tukey\n'; cat pm.csv; } >pm_glob.csv
    mkdir badpm && cp pm_abc.csv badpm/per-mpirun.csv
    printf 'method,what,index,global_s,true_s,valid\nbarrier,skew,0,0,0,1\n' >skew_raw.csv
    printf 'clock_sync,after_s,rank,offset_s,true_error_s\nhca3,0,0,,0\n' >clock_raw.csv
    printf 'method,what,index,global_s,true_s,valid\nbarrier,skew,0,abc,0,1\n' >skew_bad.csv
    printf 'clock_sync,after_s,rank,offset_s,true_error_s\nhca3,x,0,,0\n' >clock_bad.csv
    mkdir badcamp && printf '# x: y\nfoo,bar\n1,2\n' >badcamp/manifest.csv
    mkdir adir
    mkfifo fifo
    mkdir imgfifo imgdir && mkfifo imgfifo/raw-latency.svg && mkdir imgdir/raw-latency.svg
    mknod dev c 1 3 2>/dev/null || ln -s /dev/null dev
    mkdir fifocamp fifotrace devtrace && mkfifo fifocamp/manifest.csv fifotrace/rank-00000.model
    : >fifotrace/rank-00000.events
    ln -s /dev/zero devtrace/rank-00000.events
    ln -s nowhere dangling.csv
    ln -s raw.csv link.csv
    # A real campaign of one run, so that a second one can be refused.
    "$HARMONIA" campaign -n 1 --dir c1 -- sh -c 'cp "$0" "$1"' raw.csv '{raw}' '{seed}' >/dev/null 2>&1
}

# entries: every entry under the current directory, one line each: type,
# name, link target, and for all but directories size, inode and mtime, so
# that a file created, removed, renamed over or written in place shows. A
# campaign's lock file is left out: open_dir creates DIR/.campaign.lock
# before it can read DIR's manifest.
entries() {
    find . \( -type d -printf '%y %p\n' \) -o \
        \( ! -name .campaign.lock -printf '%y %p %l %s %i %T@\n' \)
}

# checksums: the MD5 of every regular file under the current directory.
checksums() {
    find . -type f ! -name .campaign.lock -exec md5sum {} + | LC_ALL=C sort -k2
}

# words FIELD... : the arguments of a case into the array argv.
words() {
    argv=()
    local w
    for w in "$@"; do
        case $w in
        @EMPTY) w= ;;
        @X:*) printf -v w '%b' "${w#@X:}" ;;
        @REP:*)
            local rest=${w#@REP:} times text
            times=${rest%%:*} text=${rest#*:}
            w=$(printf "%${times}s" '')
            w=${w// /$text}
            ;;
        esac
        argv+=("$w")
    done
}

# fresh DIR: DIR made a copy of the fixtures.
fresh() {
    rm -rf "$1" && mkdir "$1" && cp -a "$fix/." "$1/"
}

# lane K: cases order[K], order[K + jobs], ... one after the other in one
# copy of the fixtures: output and status of case I into $res/I.out and
# $res/I.status; what it changed, if anything, into $res/I.changed (then the
# copy is made afresh). Where a case names an output (--output, --raw,
# --dir), the MD5 of every file is checked too.
lane() {
    local k=$1 d=$root/lane$1 i j ref now
    local -a f
    fresh "$d" && cd "$d" || exit 1
    ref=$(entries)
    for ((j = k; j < n; j += jobs)); do
        i=${order[j]}
        IFS=$'\t' read -r -a f <<<"${fields[i]}"
        words "${f[@]}"
        out=$res/$i.out
        launch "${np[i]}" "${argv[@]}" </dev/null
        echo "$status" >"$res/$i.status"
        now=$(entries)
        if [ "$now" != "$ref" ]; then
            diff <(echo "$ref") <(echo "$now") >"$res/$i.changed"
        elif [[ "${fields[i]}" == *--output* || "${fields[i]}" == *--raw* ||
            "${fields[i]}" == *--dir* ]] && ! checksums | cmp -s - "$root/checksums"; then
            checksums | diff "$root/checksums" - >"$res/$i.changed"
        else
            continue
        fi
        cd "$root" && fresh "$d" && cd "$d" || exit 1
        ref=$(entries)
    done
}

(cd "$fix" && make_fixtures)
[ -s "$fix/c1/manifest.csv" ] || { fail "fixture: the campaign c1 was not made"; finish; exit; }
(cd "$fix" && checksums) >"$root/checksums"

# --- read the table ------------------------------------------------------------
join_tab() {
    local IFS=$'\t'
    joined="$*"
}
declare -a np want frag fields lineno
n=0 ln=0
while IFS= read -r line || [ -n "$line" ]; do
    ln=$((ln + 1))
    case $line in '' | '#'*) continue ;; esac
    IFS=$'\t' read -r -a f <<<"$line"
    if [ "${#f[@]}" -lt 3 ] || ! [[ ${f[0]} =~ ^[0-9]+$ && ${f[1]} =~ ^[0-9]+$ ]]; then
        fail "bad_inputs.tsv:$ln: not NP<TAB>EXIT<TAB>FRAGMENT<TAB>ARG...: $line"
        continue
    fi
    np[n]=${f[0]} want[n]=${f[1]} frag[n]=${f[2]} lineno[n]=$ln
    join_tab "${f[@]:3}"
    fields[n]=$joined
    n=$((n + 1))
done <"$table"

# --- run them in HM_BAD_JOBS lanes ------------------------------------------------
# The slow cases (under the launcher, then the MPI commands, some of which
# start MPI) first, dealt out in turn, so that the lanes end together.
order=()
for pass in 0 1 2; do
    for ((i = 0; i < n; i++)); do
        case ${fields[i]%%$'\t'*} in timers | clock | bench | skew) c=1 ;; *) c=2 ;; esac
        [ "${np[i]}" -gt 0 ] && c=0
        [ "$c" -eq "$pass" ] && order+=("$i")
    done
done
jobs=${HM_BAD_JOBS:-4}
for ((k = 0; k < jobs; k++)); do lane "$k" & done
wait

# --- check them, in table order --------------------------------------------------
# verdict I: the checks of case I, with shell builtins only (650 cases).
# Sets n_err (lines with "harmonia: error:"), n_frag (lines with the
# fragment), in_err (times the fragment is in the error line).
verdict() {
    local LC_ALL=C line rest
    local -a lines
    n_err=0 n_frag=0 in_err=0
    mapfile -t lines <"$res/$1.out"
    for line in "${lines[@]}"; do
        [[ $line == *"${frag[$1]}"* ]] && n_frag=$((n_frag + 1))
        [[ $line == *'harmonia: error:'* ]] || continue
        n_err=$((n_err + 1))
        rest=${line//"${frag[$1]}"/}
        in_err=$((in_err + (${#line} - ${#rest}) / ${#frag[$1]}))
    done
}

declare -A per_command
for ((i = 0; i < n; i++)); do
    IFS=$'\t' read -r -a f <<<"${fields[i]}"
    cmd=${f[0]:-}
    case $cmd in
    timers | clock | bench | skew | overlap | version | stats | campaign | compare | plot) ;;
    *) cmd=harmonia ;; # no command, an unknown one, help
    esac
    per_command[$cmd]=$((${per_command[$cmd]:-0} + 1))
    what="bad_inputs.tsv:${lineno[i]}: np=${np[i]} harmonia ${f[*]}"
    st=none
    [ -e "$res/$i.status" ] && read -r st <"$res/$i.status"
    verdict "$i"
    if [ -e "$res/$i.changed" ]; then
        fail "$what -> exit $st, and the directory changed:"
        sed 's/^/    | /' "$res/$i.changed" >&2
    elif [ "$st" = "${want[i]}" ] && [ "$n_err" -eq 1 ] && [ "$in_err" -eq 1 ] &&
        [ "$n_frag" -eq 1 ]; then
        ok "$what -> exit $st, \"${frag[i]}\" once"
    else
        fail "$what -> exit $st (want ${want[i]}), $n_err error lines, fragment \"${frag[i]}\" $in_err times in it, on $n_frag lines; output:"
        cut -c1-400 "$res/$i.out" | head -20 | sed 's/^/    | /' >&2
    fi
done

summary=
for cmd in harmonia timers clock bench skew overlap version stats campaign compare plot; do
    summary="$summary $cmd ${per_command[$cmd]:-0},"
done
echo "bad-input cases by command:${summary%,}; total $n; $((SECONDS - start)) s ($MPI_FLAVOR)"
[ "$n" -ge 300 ]
check $? "the table holds at least 300 cases (issue 12): $n"
finish
