/* tests/procsync/test_roundtime.c — --sync roundtime (Hunold & Carpen-Amarie 2018, Alg. 5)
 * against the true clock (2 ranks: precision).
 *
 *  - slice 0.2 s: rounds (an empty operation, flags and out-of-time agreed
 *    after each, as the measure layer does) run until a rank is out of time.
 *    On a rank whose in_time turned 0, the end timestamp of that round lies
 *    no earlier than 0.2 s after the test's read before begin (less 1 us:
 *    in_time compares the clock, read just after that timestamp, with the
 *    time read in begin, which comes after the test's read) and at most
 *    20 ms later: the previous round still had in_time 1 and a round costs a
 *    broadcast, a wait of B x latency and an allreduce (~10 us here), so only
 *    a preemption of a loaded machine (a scheduler slice, a few ms) can make
 *    it later;
 *  - slice 0: in_time stays 1 over 300 rounds (the run is bounded by --nrep
 *    instead);
 *  - a rank that arrives B x latency late: rank 1 sleeps 5 ms before calling
 *    start (B x latency is a few us on shared memory) and learns a start
 *    that has passed: start returns flag 0 (line 14), and the round is agreed
 *    invalid. */
#include <math.h>

#include "psloop.h"
#include "testutil.h"

enum { BLOCK = 4096, NROUNDS_MAX = 10000000, NROUNDS_NOSLICE = 300 };

static hm_procsync_t *make(MPI_Comm comm, hm_clock_t *global, double slice_s)
{
    hm_procsync_params_t p;
    hm_procsync_params_default(&p);
    p.slice_s = slice_s;
    hm_procsync_t *ps = NULL;
    int rc = hm_procsync_create("roundtime", comm, global, &p, &ps);
    HM_CHECK(rc == HM_OK, "roundtime slice %g s: create (%d)", slice_s, rc);
    if (rc == HM_OK)
        HM_CHECK(hm_procsync_chunk(ps) == 1, "the flags are agreed after every round (chunk %d)",
                 hm_procsync_chunk(ps));
    return ps;
}

/* The rounds of a 0.2 s slice, run in blocks (a round takes 2-10 us, so
 * the slice holds 20 000 to 100 000 of them). *end_s: the end timestamp of
 * this rank's first round whose in_time was 0 (in_time reads the clock right
 * after it), NaN when the other rank ran out first. Returns the rounds run. */
static long run_slice(hm_procsync_t *ps, MPI_Comm comm, double before, double *end_s, long *nvalid)
{
    static ps_rep_t reps[BLOCK];
    long rounds = 0, n = BLOCK;
    *end_s = NAN;
    *nvalid = 0;
    while (n == BLOCK && rounds < NROUNDS_MAX) {
        n = ps_loop(ps, comm, rounds, BLOCK, NULL, reps);
        if (n < 0) return n;
        for (long i = 0; i < n; i++) {
            *nvalid += reps[i].valid;
            if (!reps[i].in_time && isnan(*end_s)) *end_s = reps[i].end_s - before;
        }
        rounds += n;
    }
    return rounds;
}

static void test_slice(MPI_Comm comm, hm_clock_t *global)
{
    hm_procsync_t *ps = make(comm, global, 0.2);
    if (!ps) return;
    MPI_Barrier(comm);
    double before = hm_clock_now(global), end;
    long nvalid;
    hm_procsync_begin(ps);
    long rounds = run_slice(ps, comm, before, &end, &nvalid);
    int flipped = !isnan(end), any;
    HM_CHECK(rounds > 0 && rounds < NROUNDS_MAX, "the slice ended the run after %ld rounds",
             rounds);
    MPI_Allreduce(&flipped, &any, 1, MPI_INT, MPI_LOR, comm);
    HM_CHECK(any, "some rank's in_time turned 0");
    if (flipped)
        HM_CHECK(end >= 0.2 - 1e-6 && end <= 0.22,
                 "in_time turned 0 %.3f ms after begin, within [200, 220] ms (%ld of %ld rounds "
                 "valid)",
                 end * 1e3, nvalid, rounds);
    hm_procsync_free(ps);
}

static void test_no_slice(MPI_Comm comm, hm_clock_t *global)
{
    static ps_rep_t reps[NROUNDS_NOSLICE];
    hm_procsync_t *ps = make(comm, global, 0.0);
    if (!ps) return;
    hm_procsync_begin(ps);
    long rounds = ps_loop(ps, comm, 0, NROUNDS_NOSLICE, NULL, reps);
    int in_time = 1;
    for (long i = 0; i < rounds; i++) in_time &= reps[i].in_time;
    HM_CHECK(rounds == NROUNDS_NOSLICE && in_time, "no slice: %ld rounds, in_time stayed 1 (%d)",
             rounds, in_time);
    hm_procsync_free(ps);
}

static void delay_rank1(void *ctx, long rep)
{
    (void)rep;
    if (*(const int *)ctx == 1) ps_sleep(5e-3);
}

/* The delay goes before start: psloop's before hook runs after it, so this
 * test calls start itself. */
static void test_late_rank(MPI_Comm comm, int rank, hm_clock_t *global)
{
    hm_procsync_t *ps = make(comm, global, 0.0);
    if (!ps) return;
    hm_procsync_begin(ps);
    int flag = -1, invalid;
    double deadline;
    MPI_Barrier(comm);
    delay_rank1(&rank, 0);
    int rc = hm_procsync_start(ps, &flag, &deadline);
    double now = hm_clock_now(global);
    if (rank == 1)
        HM_CHECK(rc == HM_OK && flag == 0,
                 "rank 1, 5 ms late, learns a start %.1f us in the past: flag %d",
                 (now - deadline) * 1e6, flag);
    int bad = !flag;
    MPI_Allreduce(&bad, &invalid, 1, MPI_INT, MPI_MAX, comm);
    HM_CHECK(invalid, "the round is agreed invalid");
    hm_procsync_free(ps);
}

int main(int argc, char **argv)
{
    MPI_Comm comm;
    ps_truth_t truth;
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_rank(comm, &rank);
    int rc = ps_truth_open(&truth, comm);
    HM_CHECK(rc == HM_OK, "the shared monotonic clock opens (%d)", rc);
    if (rc == HM_OK) {
        test_slice(comm, truth.global);
        test_no_slice(comm, truth.global);
        test_late_rank(comm, rank, truth.global);
    }
    ps_truth_close(&truth);
    MPI_Comm_free(&comm);
    rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
