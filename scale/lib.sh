# scale/lib.sh — what scale/smoke and scale/run share: the platforms, their
# hostfiles, and one simulated run of the SMPI build of harmonia.
# Needs: BUILD (the build-smpi folder), TMP (a scratch folder).
scale_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# SMPI settings of every run (docs/scale.md): harmonia's own CPU time is not
# simulated (the simulation is deterministic and its time is the network's),
# SMPI's default latency and bandwidth factors (calibrated on an Ethernet
# cluster) are off, so a platform's numbers are what a message sees, and
# the collectives are Open MPI's algorithms (SMPI's default ones are naive,
# and its default allgather took minutes of simulation at 1024 ranks)
# except broadcast, a binomial tree: SMPI runs Open MPI's k-nomial choice as
# MVAPICH2's SMP-aware one, whose first call on every new communicator
# gathers the node map in a ring (p^2 messages, each costing the simulation
# O(p): 133 s instead of 19 s for hca3+prop at 1024 ranks).
SMPI_CFG=(--cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1
          --cfg=smpi/bw-factor:0:1 --cfg=smpi/coll-selector:ompi --cfg=smpi/bcast:binomial_tree
          --log=root.thres:warning)

# The synthetic clocks over the simulated time: offsets up to 1 s, drifts up
# to 10 ppm, 20 ns of jitter on every read (it stands for the network's
# latency noise, which SMPI does not model).
SYNTH=(--synthetic-clock offset=1,drift=1e-5,jitter=2e-8 --seed 1)

# platform_file NAME: the XML of a shipped platform.
platform_file() { echo "$scale_dir/platforms/$1.xml"; }

# How ranks are placed on the nodes of cluster-32core: block (32
# consecutive ranks a node) or round-robin (rank r on node r mod N, the run
# spread over its N = ceil(P / 32) nodes). Platforms of one core a host
# place one rank a host either way.
PLACEMENT=${PLACEMENT:-block}

# hostfile NAME P FILE: the host of each of P ranks of platform NAME, in
# rank order, as PLACEMENT places them.
hostfile() {
    # One line a rank: smpirun unrolls "host:N" lines into a temporary file
    # in the current directory, and keeps it there when the run fails.
    case $1:$PLACEMENT in
    cluster-32core:round-robin)
        awk -v p="$2" 'BEGIN { n = int((p + 31) / 32); for (r = 0; r < p; r++) print "node-" r % n }' ;;
    cluster-32core:*) awk 'BEGIN { for (n = 0; n < 128; n++) for (c = 0; c < 32; c++) print "node-" n }' ;;
    *) awk 'BEGIN { for (n = 0; n < 4096; n++) print "host-" n }' ;;
    esac >"$3"
}

# smpi_run NAME P LIMIT_S ARGS...: harmonia ARGS on P simulated ranks of
# platform NAME, placed as PLACEMENT says, bounded by LIMIT_S seconds of
# wall time (times HM_TEST_TIMEOUT_SCALE where a test suite sets it for a
# loaded machine: a bound on a hang, not on the machine's speed).
smpi_run() {
    local name=$1 np=$2 hosts="$TMP/hosts.$1.$PLACEMENT.$2" limit
    limit=$(awk -v l="$3" -v s="${HM_TEST_TIMEOUT_SCALE:-1}" 'BEGIN { printf "%d", l * (s > 1 ? s : 1) }')
    shift 3
    [ -s "$hosts" ] || hostfile "$name" "$np" "$hosts"
    timeout -k 5 "$limit" smpirun -np "$np" -hostfile "$hosts" \
        -platform "$(platform_file "$name")" "${SMPI_CFG[@]}" "$BUILD/harmonia" "$@"
}

# column FILE NAME [FILTER_COL FILTER_VALUE ...]: the values of column NAME
# of a harmonia result CSV, one per line, of the rows whose FILTER_COLs hold
# the FILTER_VALUEs.
column() {
    local file=$1 name=$2
    shift 2
    awk -F, -v name="$name" -v filters="$*" '
        /^#/ { next }
        !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; nf = split(filters, f, " ")
             if (!(name in c)) { print "no column " name; exit } next }
        { for (k = 1; k < nf; k += 2) if ($c[f[k]] != f[k + 1]) next; print $c[name] }' "$file"
}

# gather PLATFORM FILE...: the rows of harmonia result files named P-WHAT.csv
# (P the process count, the simulation's wall time in FILE.wall), by P, each with
# the columns platform, processes and sim_wall_s in front, under one header.
# A factor ("# key: value") all the files share is written once; one that
# differs between them (the process count, the hosts, the command line) is
# said to vary, so that the gathered file claims nothing of one run only.
# The simulation's settings (SMPI_CFG) come first: the files of harmonia
# cannot know them.
gather() {
    local platform=$1 files
    shift
    # by process count, then as given
    mapfile -t files < <(for f in "$@"; do b=${f##*/}; echo "${b%%-*} $f"; done |
        sort -n -s -k1,1 | cut -d' ' -f2-)
    echo "# smpi_config: ${SMPI_CFG[*]}"
    awk -F, -v OFS=, -v platform="$platform" '
        FNR == 1 { nfiles++; p = FILENAME; sub(/.*\//, "", p); sub(/-.*/, "", p)
                   wall = ""; w = FILENAME ".wall"; getline wall < w; close(w); h = 0 }
        /^# [^:]*: / { key = $0; sub(/:.*/, "", key); val = substr($0, length(key) + 3)
                       if (!(key in first)) { first[key] = val; order[++nk] = key; same[key] = 1 }
                       else if (first[key] != val) same[key] = 0
                       seen[key]++; next }
        /^#/ { next }
        !h { h = 1; if (header == "") header = "platform,processes,sim_wall_s," $0; next }
        { rows[++nr] = platform OFS p OFS wall OFS $0 }
        END { for (k = 1; k <= nk; k++) {
                  key = order[k]
                  if (same[key] && seen[key] == nfiles) print key ": " first[key]
                  else print key ": (varies by run; see each run'"'"'s file)" }
              print header
              for (i = 1; i <= nr; i++) print rows[i] }' "${files[@]}"
}
