/* examples/measure_own_op.c — timing your own operation with harmonia's
 * measurement engine.
 *
 * The operation is an allgather written by hand: a ring of MPI_Sendrecv, in
 * which every rank passes on, p - 1 times, the block it received last to its
 * right neighbour. Wrapped in an hm_measure_target_t (a run callback, the
 * timed region, and a validate callback), hm_measure_run measures it as
 * `harmonia bench` measures MPI's operations: warm-up, then repetitions,
 * each started by a process synchronization, with validity agreed every few
 * repetitions and timestamps converted to the global clock.
 *
 * The synchronization is harmonia's dissemination barrier by default: every
 * repetition is valid, so the example finishes on a machine as loaded as a
 * shared 2-core CI runner. harmonize starts the ranks at one deadline on the
 * global clock instead, and marks a repetition invalid when a rank was
 * preempted across it: on a loaded machine most are, and the engine repeats
 * them (max_attempts below).
 *
 * Per block size rank 0 prints the median global run-time (max end - min
 * start on the global clock), the median local run-time (max over ranks of
 * end - start, what barrier-based benchmarks report) and how far apart the
 * ranks started. Checked: every repetition's result is right, the global
 * run-time of every valid repetition contains the longest local one, and a
 * ring of 64 KiB blocks takes longer than one of 8 B.
 *
 * Usage: mpirun -n 2 example_measure_own_op [METHOD]
 * METHOD is a process synchronization (barrier, dissem, window, roundtime,
 * harmonize; default dissem). Exit status 0 when the checks hold, 1
 * otherwise or when a library call fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>
#include <harmonia/measure.h>
#include <harmonia/procsync.h>
#include <harmonia/stats.h>
#include <harmonia/sync.h>
#include <harmonia/timer.h>

/* The global duration of one rank's run is its local duration times
 * (1 - the slope of its clock model), |slope| <= 1e-4 even for badly drifting
 * clocks; 1 ns more covers the rounding of the conversion. A wrong reduction
 * (a min where a max belongs) or a lost rank would break it by far more. */
#define SLOPE_BOUND 1e-4
enum { NSIZES = 3, NREP = 100 };
static const size_t sizes[NSIZES] = {8, 4096, 65536};

typedef struct ring {
    MPI_Comm comm;
    int rank, size;
    size_t block;       /* bytes each rank contributes */
    unsigned char *buf; /* size blocks: block r is rank r's */
} ring_t;

static unsigned char pattern(int owner, size_t i)
{
    return (unsigned char)(owner * 31 + i * 7 + 1);
}

/* The timed region. In step s a rank sends the block of rank (rank - s) and
 * receives that of rank (rank - s - 1): after p - 1 steps it has them all. */
static int ring_run(void *ctx)
{
    ring_t *r = ctx;
    int right = (r->rank + 1) % r->size, left = (r->rank + r->size - 1) % r->size;
    for (int s = 0; s < r->size - 1; s++) {
        int send = (r->rank - s + r->size) % r->size, recv = (r->rank - s - 1 + r->size) % r->size;
        if (MPI_Sendrecv(r->buf + send * r->block, (int)r->block, MPI_BYTE, right, 0,
                         r->buf + recv * r->block, (int)r->block, MPI_BYTE, left, 0, r->comm,
                         MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return HM_EMPI;
    }
    return HM_OK;
}

/* Outside the timed region: every block must hold its owner's pattern. The
 * others' blocks are then cleared, so that the next run must fill them again
 * (a run that did nothing would otherwise pass). */
static int ring_validate(void *ctx, int *ok)
{
    ring_t *r = ctx;
    *ok = 1;
    for (int owner = 0; owner < r->size; owner++) {
        unsigned char *b = r->buf + owner * r->block;
        for (size_t i = 0; i < r->block; i++) *ok &= b[i] == pattern(owner, i);
        if (owner != r->rank) memset(b, 0, r->block);
    }
    return HM_OK;
}

static void check(int rc, const char *what)
{
    if (rc == HM_OK) return;
    fprintf(stderr, "measure_own_op: %s: %s (%s)\n", what, hm_last_error(), hm_strerror(rc));
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* One block size; returns 1 when its checks hold (rank 0's verdict) and
 * the median global run-time in *median_s. */
static int measure_size(ring_t *ring, hm_procsync_t *ps, size_t block, double *median_s)
{
    ring->block = block;
    ring->buf = malloc(ring->size * block);
    if (!ring->buf) check(HM_ENOMEM, "ring buffer");
    memset(ring->buf, 0, ring->size * block);
    for (size_t i = 0; i < block; i++) ring->buf[ring->rank * block + i] = pattern(ring->rank, i);

    hm_measure_target_t target = {
        .run = ring_run, .validate = ring_validate, .ctx = ring, .participates = 1};
    hm_measure_params_t params;
    hm_measure_result_t r;
    hm_measure_params_default(&params);
    params.nrep = NREP;
    params.validate = 1;
    /* Under a deadline method a loaded machine preempts ranks across their
     * start: many repetitions are then invalid, and are repeated. */
    params.max_attempts = 50 * NREP;
    int rc = hm_measure_run(ring->comm, ps, &target, &params, &r);
    if (rc != HM_EAGAIN) check(rc, "hm_measure_run"); /* EAGAIN: too few valid, r holds them */

    int ok = rc == HM_OK && r.wrong_results == 0;
    if (ring->rank == 0) {
        double *global = malloc(r.n * sizeof *global), *local = malloc(r.n * sizeof *local),
               *spread = malloc(r.n * sizeof *spread);
        size_t n = 0;
        if (!global || !local || !spread) check(HM_ENOMEM, "arrays");
        for (long i = 0; i < r.n; i++) {
            if (!r.valid[i]) continue;
            ok &= r.global_s[i] >= r.local_s[i] * (1 - SLOPE_BOUND) - 1e-9;
            global[n] = r.global_s[i], local[n] = r.local_s[i], spread[n++] = r.start_spread_s[i];
        }
        hm_stats_summary_t g, l, s;
        check(hm_stats_summarize(global, n, &g), "hm_stats_summarize");
        check(hm_stats_summarize(local, n, &l), "hm_stats_summarize");
        check(hm_stats_summarize(spread, n, &s), "hm_stats_summarize");
        printf("%10zu  %5ld  %7ld  %10.3f  %9.3f  %15.3f  %s\n", block, r.nvalid, r.ninvalid,
               g.median * 1e6, l.median * 1e6, s.median * 1e6, ok ? "ok" : "FAILED");
        *median_s = g.median;
        if (rc == HM_EAGAIN)
            printf("too few valid repetitions; %s: %s\n", hm_procsync_name(ps), r.procsync);
        free(global);
        free(local);
        free(spread);
    }
    hm_measure_result_free(&r);
    free(ring->buf);
    return ok;
}

int main(int argc, char **argv)
{
    ring_t ring = {.comm = MPI_COMM_WORLD};
    const char *method = argc > 1 ? argv[1] : "dissem";
    hm_timer_t *timer = NULL;
    hm_clock_t *base = NULL, *global = NULL;
    hm_procsync_t *ps = NULL;
    hm_sync_params_t sync;
    hm_procsync_params_t psp;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(ring.comm, &ring.rank);
    MPI_Comm_size(ring.comm, &ring.size);

    /* The global clock the timestamps are converted with (global_clock.c). */
    check(hm_timer_create("monotonic", NULL, &timer), "hm_timer_create");
    check(hm_clock_identity(timer, &base), "hm_clock_identity");
    hm_sync_params_default(&sync);
    check(hm_sync_run(ring.comm, "hca3", &sync, base, &global, NULL), "hm_sync_run");

    /* The process synchronization before every repetition. With more ranks
     * than processors a rank that shares a core starts a scheduler switch
     * late, so the default late-start tolerance (1 us) would invalidate
     * nearly every repetition of the deadline methods: allow 1 ms then. */
    hm_procsync_params_default(&psp);
    if (hm_procsync_oversubscribed(ring.comm)) psp.late_s = 1e-3;
    check(hm_procsync_create(method, ring.comm, global, &psp, &ps), "hm_procsync_create");

    if (ring.rank == 0)
        printf("ring allgather over %d ranks, %s before each repetition, run-times in us\n"
               "block (B)  valid  invalid  global med  local med  start spread med\n",
               ring.size, method);
    int ok = 1;
    double median_s[NSIZES] = {0};
    for (int i = 0; i < NSIZES; i++) ok &= measure_size(&ring, ps, sizes[i], &median_s[i]);
    if (ring.rank == 0 && ring.size > 1 && !(median_s[NSIZES - 1] > median_s[0])) {
        printf("FAILED: 64 KiB blocks were not slower than 8 B ones\n");
        ok = 0;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, ring.comm);
    if (ring.rank == 0) printf("%s\n", ok ? "ok" : "FAILED");
    hm_procsync_free(ps);
    hm_clock_free(global);
    hm_clock_free(base);
    hm_timer_free(timer);
    MPI_Finalize();
    return ok ? 0 : 1;
}
