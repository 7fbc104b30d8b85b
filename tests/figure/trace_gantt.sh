#!/usr/bin/env bash
# `harmonia plot` on a trace directory: the Gantt chart (issue 30, item 6).
# On the SVG text: a legend naming each function drawn (at most 12, the rest
# "other"), request records left out; x tic labels short numbers under an
# axis label with a unit; the same x and y range in the local and the
# global panel; --select FUNC:N framing that call, far shorter than the
# trace; a rank whose local clock is seconds off said in its row; a trace of
# 600 k events binned into a small image; --select refused with exit 2.
# Arguments: trace_app (tests/trace) and solver (examples/apps).
. "$(dirname "$0")/../harmonia/lib.sh"
app=$1 solver=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir" "$out"' EXIT
cd "$dir" || exit 1
mkdir scratch
export TMPDIR=$dir/scratch # plot's scratch directory must be gone afterwards

if ! command -v gnuplot >/dev/null; then
    fail "gnuplot not in PATH: install gnuplot-nox (scripts/install-deps); no figure checked"
    finish
    exit
fi
[ "$MPI_FLAVOR" = mpich ] && export MPIR_CVAR_POLLS_BEFORE_YIELD=1
mpi=("$MPIEXEC" -n 2)
[ "$MPI_FLAVOR" = openmpi ] && mpi+=(--bind-to none)
fast=(--fitpoints 50 --exchanges 10)

# gantt FILE [KEY=VALUE...] : what the SVG shows, checked by python (below);
# each KEY=VALUE an assertion: legend=NAME,NAME (named in the legend),
# absent=NAME, named_max=N (functions named at most), text=TEXT (a text
# element), window_ms=FROM:TO (the width of the x range, from the tics,
# equals TO-FROM within 2 %). Always: x tic labels apart and at most 8
# characters, in both panels the same.
gantt() {
    python3 - "$@" <<'PY'
import re, sys
path, asserts = sys.argv[1], sys.argv[2:]
svg = open(path, encoding="utf-8").read()
# gnuplot's SVG: a text is <g transform="translate(X,Y)" ... text-anchor="A"> <text>..</text>
texts = []
for m in re.finditer(r'<g transform="translate\(([\d.]+),([\d.]+)\)[^>]*text-anchor="(\w+)">\s*'
                     r'<text>(.*?)</text>', svg, re.S):
    label = re.sub(r"<[^>]+>", "", m.group(4)).strip()
    texts.append((float(m.group(1)), float(m.group(2)), m.group(3), label))
bad = []
names = {t[3] for t in texts}
num = re.compile(r"^-?[\d.]+$")
# x tics: numbers centred under a panel, on the lowest row of numbers.
xt = [t for t in texts if t[2] == "middle" and num.match(t[3])]
y = max(t[1] for t in xt) if xt else 0
xt = [t for t in xt if abs(t[1] - y) < 1]
panels = [sorted((t[0], t[3]) for t in xt if t[0] < 400),
          sorted((t[0], t[3]) for t in xt if t[0] >= 400)]
if not all(len(p) >= 2 for p in panels):
    bad.append(f"x tics of two panels: {panels}")
elif [l for _, l in panels[0]] != [l for _, l in panels[1]] or \
        abs((panels[0][1][0] - panels[0][0][0]) - (panels[1][1][0] - panels[1][0][0])) > 0.05:
    bad.append(f"the panels' x tics differ: {panels}")
long_labels = [l for p in panels for _, l in p if len(l) > 8]
if long_labels:
    bad.append(f"x tic labels longer than 8 characters: {long_labels}")
# Labels that run together: closer than their width (~7 px a character at
# 11 points) and a gap.
close = [(a, b) for p in panels for a, b in zip(p, p[1:])
         if b[0] - a[0] < 7 * max(len(a[1]), len(b[1])) + 6]
if close:
    bad.append(f"x tic labels run together: {close}")
units = {"ns": 1e-6, "µs": 1e-3, "ms": 1, "s": 1e3}
xl = [t[3] for t in texts if re.fullmatch(r"time from the window's start \((ns|µs|ms|s)\)", t[3])]
if len(xl) != 2:
    bad.append(f"an x axis label with a unit in each panel: {xl}")
yt = [sorted(t[3] for t in texts if t[2] == "end" and (t[0] < 400) == left) for left in (1, 0)]
if yt[0] != yt[1] or not yt[0]:
    bad.append(f"the panels' y tics (ranks) differ: {yt}")
# The x range's width: the panel's right edge is where its y tic marks
# end (path M<left>,Y ... M<right>,Y); scale from two tics.
def width_ms():
    unit = units[re.search(r"\((\w+|µs)\)$", xl[0]).group(1)]
    (x0, l0), (x1, l1) = panels[1][0], panels[1][1]
    px = (x1 - x0) / (float(l1) - float(l0))
    edges = re.findall(r"d='M([\d.]+),[\d.]+ L[\d.]+,[\d.]+ M([\d.]+),[\d.]+ L", svg)
    right = max(float(b) for a, b in edges if abs(float(a) - x0) < 1)
    return (right - x0) / px * unit + float(l0) * unit
for a in asserts:
    key, _, val = a.partition("=")
    if key == "legend":
        miss = [n for n in val.split(",") if n not in names]
        if miss: bad.append(f"legend lacks {miss}")
    elif key == "absent" and val in names:
        bad.append(f"{val} is drawn")
    elif key == "named_max":
        named = sorted(n for n in names if re.fullmatch(r"MPI_\w+", n))
        if len(named) > int(val): bad.append(f"{len(named)} functions named: {named}")
    elif key == "text" and val not in names:
        bad.append(f"no text {val!r}")
    elif key == "window_ms" and not bad:
        lo, hi = map(float, val.split(":"))
        w = width_ms()
        if abs(w - (hi - lo)) > 0.02 * (hi - lo): bad.append(f"x range {w} ms, not {hi - lo}")
print("; ".join(bad) if bad else "ok")
sys.exit(1 if bad else 0)
PY
}

# span CSV FUNC N : the global span in ms from the first call of the N-th
# call of FUNC on rank 0 (a collective: on all ranks, by communicator and
# number), then of the whole trace: "FROM TO TOTAL".
span() {
    awk -F, -v f="$2" -v n="$3" '/^#/ { next }
    !head { head = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["function"] ~ /^MPI_T_(completed|started)$/ { next }
    { r[NR] = $0; if (first == "" || $c["enter_s"] < first) first = $c["enter_s"]
      if ($c["exit_s"] > last) last = $c["exit_s"] }
    $c["rank"] == 0 && $c["function"] == f && ++k == n { key = $c["comm"] "/" $c["seq"]; row = NR }
    END { split(r[row], x, ","); lo = x[c["enter_s"]]; hi = x[c["exit_s"]]
      if (key !~ /\/0$/) for (i in r) { split(r[i], x, ",")
          if (x[c["function"]] == f && x[c["comm"]] "/" x[c["seq"]] == key) {
              if (x[c["enter_s"]] < lo) lo = x[c["enter_s"]]; if (x[c["exit_s"]] > hi) hi = x[c["exit_s"]] } }
      printf "%.6f %.6f %.6f\n", (lo - first) * 1e3, (hi - first) * 1e3, (last - first) * 1e3 }' "$1"
}

# framed (awk, a b: the call, lo hi: the window, t: the trace, in ms): the
# window holds the call, within the margins of the rule (20 times the
# call's span each side, the span at least 0.1 us), and is far shorter than
# the trace unless the call is long itself (a rank preempted in it).
framed='BEGIN { d = b - a; if (d < 1e-4) d = 1e-4
    exit !(hi > lo && lo <= a && b <= hi && hi - lo <= 41 * d * 1.01 + 1e-6 &&
           (hi - lo <= t / 20 || d > t / 100)) }'

# window : the "FROM-TO ms" plot printed for the figure.
window() { sed -n 's/.*gantt.svg: Gantt chart: .*[ ,]\([0-9.]*\)-\([0-9.]*\) ms, .*/\1 \2/p' "$out"; }

# --- the solver at 2 ranks ---------------------------------------------------
timeout -k 5 "$(scaled 120)" "$HARMONIA" trace "${fast[@]}" --output solver -- \
    "${mpi[@]}" "$solver" >"$out" 2>&1
status=$?
check "$status" "trace of the solver: exit 0" "exit $status; $(cat "$out")"

launch_reading solver/trace.csv 0 plot --dir figs solver
check "$status" "plot solver: exit 0" "exit $status; $(cat "$out")"
r=$(gantt figs/solver-gantt.svg legend=MPI_Sendrecv,MPI_Allreduce absent=MPI_T_completed)
check $? "default: legend MPI_Sendrecv, MPI_Allreduce; short x tics in a unit; both panels alike" "$r"
call=$(sed -n 's/.*solver-gantt.svg: Gantt chart: \(call [0-9]* of MPI_[A-Za-z]*\), .*/\1/p' "$out")
r=$(gantt figs/solver-gantt.svg "text=${call:-no call}")
check $? "default: a collective call ($call), outlined and named in the legend" "$r; $(cat "$out")"

# The 100th MPI_Allreduce: the window holds it and is far shorter than the
# trace (the solver runs ~1000 of them), the x range is that window.
launch_reading solver/trace.csv 0 plot --dir sel solver --select MPI_Allreduce:100
read -r c_from c_to total <<<"$(span solver/trace.csv MPI_Allreduce 100)"
read -r w_from w_to <<<"$(window)"
awk -v a="$c_from" -v b="$c_to" -v t="$total" -v lo="${w_from:-0}" -v hi="${w_to:-0}" \
    "$framed"
check $? "--select MPI_Allreduce:100: window $w_from-$w_to ms holds the call ($c_from-$c_to), far shorter than the trace ($total ms)" \
    "$(cat "$out")"
r=$(gantt sel/solver-gantt.svg "text=call 100 of MPI_Allreduce" "window_ms=${w_from:-0}:${w_to:-1}")
check $? "--select MPI_Allreduce:100: the call outlined in the legend, the x range the window" "$r"

# A point-to-point call is that one call of rank 0, not every MPI_Sendrecv.
launch_reading solver/trace.csv 0 plot --dir p2p solver --select MPI_Sendrecv:5
read -r c_from c_to total <<<"$(span solver/trace.csv MPI_Sendrecv 5)"
read -r w_from w_to <<<"$(window)"
awk -v a="$c_from" -v b="$c_to" -v t="$total" -v lo="${w_from:-0}" -v hi="${w_to:-0}" \
    "$framed"
check $? "--select MPI_Sendrecv:5: window $w_from-$w_to ms holds the call ($c_from-$c_to), far shorter than the trace" \
    "$(cat "$out")"

expect_usage 0 "--select MPI_Allreduce:100000: the trace has" plot --dir bad solver \
    --select MPI_Allreduce:100000
expect_usage 0 "--select 100000:200000: the trace lasts" plot --dir bad solver \
    --select 100000:200000

# --- a hand-made trace: 14 functions, a clock 2 s off ------------------------
# Rank 1's local clock runs 2 s ahead of the global one; each rank calls 14
# functions 1 us each, 1 us apart; a request record after each MPI_Wait.
mkdir -p made
awk 'BEGIN { OFS = ","
    print "rank,function,comm,seq,peer,tag,recv_peer,recv_tag,request,calls,bytes,thread,enter_local_s,exit_local_s,enter_extrapolated_s,exit_extrapolated_s,enter_s,exit_s"
    n = split("Allreduce Send Recv Wait Bcast Barrier Isend Irecv Test Probe Gather Scatter Reduce Alltoall", f, " ")
    for (r = 0; r < 2; r++) for (k = 0; k < 40; k++) { name = "MPI_" f[k % n + 1]
        g = 1 + k * 2e-6 + r * 0.3e-6; l = g + 2 * r
        seq = name == "MPI_Allreduce" ? k : 0
        print r, name, 0, seq, -1, -1, -1, -1, 0, 1, 8, 0, sprintf("%.9f", l), sprintf("%.9f", l + 1e-6), \
            sprintf("%.9f", l), sprintf("%.9f", l + 1e-6), sprintf("%.9f", g), sprintf("%.9f", g + 1e-6)
        if (name == "MPI_Wait")
            print r, "MPI_T_completed", 0, 0, 1, 0, -1, -1, 7, 1, 8, 0, sprintf("%.9f", l), sprintf("%.9f", l + 1e-6), \
                sprintf("%.9f", l), sprintf("%.9f", l + 1e-6), sprintf("%.9f", g), sprintf("%.9f", g + 1e-6) } }' \
    >made/trace.csv
launch 0 plot --dir figs made --select 0:1
check "$status" "plot of a made trace: exit 0" "exit $status; $(cat "$out")"
r=$(gantt figs/made-gantt.svg named_max=12 "text=other (2 functions)" absent=MPI_T_completed \
    "text=clock +2 s from rank 0's: its calls out of range")
check $? "14 functions: 12 named, 2 as other; no request record; rank 1's clock said off" "$r"

# --- 600 k events: binned, bounded ------------------------------------------
timeout -k 5 "$(scaled 240)" "$HARMONIA" trace "${fast[@]}" --polls each --output flood -- \
    "${mpi[@]}" "$app" flood 300000 >"$out" 2>&1
status=$?
check "$status" "trace of 600 k events: exit 0" "exit $status; $(tail -5 "$out")"
t0=$EPOCHREALTIME
timeout -k 5 "$(scaled 120)" "$HARMONIA" plot --dir big flood >"$out" 2>&1
status=$?
t1=$EPOCHREALTIME
bytes=$(stat -c %s big/flood-gantt.svg 2>/dev/null || echo 0)
[ "$status" -eq 0 ] && [ "$bytes" -gt 0 ] && [ "$bytes" -lt 2000000 ]
check $? "600 k events: plotted in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s (bound $(scaled 120) s), SVG $bytes bytes < 2 MB" \
    "exit $status; $(cat "$out")"
r=$(gantt big/flood-gantt.svg legend=MPI_Iprobe)
check $? "600 k events: MPI_Iprobe in the legend, the tics as above" "$r"
timeout -k 5 "$(scaled 120)" "$HARMONIA" plot --dir big --select 0:1000000 flood >"$out" 2>&1
status=$?
bytes=$(stat -c %s big/flood-gantt.svg 2>/dev/null || echo 0)
[ "$status" -eq 0 ] && [ "$bytes" -lt 2000000 ] && grep -q "calls binned: " big/flood-gantt.svg
check $? "600 k events, the whole trace: binned (said under the legend), SVG $bytes bytes < 2 MB" \
    "exit $status; $(cat "$out")"

[ -z "$(ls -A scratch)" ]
check $? "no scratch file left" "$(ls -A scratch)"
finish
