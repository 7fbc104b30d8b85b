/* tests/procsync/harmonize/test_harmonize_clocks.c — ranks whose global
 * clocks disagree with the root's must not wait for "the same deadline" at
 * different true times.
 *
 * Every rank reads one real clock (CLOCK_MONOTONIC, shared by all ranks of
 * this machine: true time). hm_harmonize is handed, as its configured
 * global clock, that true clock on every rank but the last, whose clock is
 * made to read ERROR_S behind (then ahead of) the truth, as a broken
 * synchronization or a refresh measured across a preemption would leave it.
 * The deadline value every rank receives is the same (asserted for every
 * call), but a rank whose clock runs behind reaches it ERROR_S late in true
 * time: before the check of harmonize.c (meet_deadline), that rank waited
 * the whole 0.5 s, returned flag 1 and nothing re-synchronized, so every
 * following call cost 0.5 s too (one repetition a second, as the issue's
 * pattern run showed).
 *
 * Asserted, for the clock behind: the call returns flag 0 on that rank and
 * within ERROR_S / 2 of true time (it does not wait out its clock's error),
 * the next call re-synchronizes (a refresh: skampi offsets against the
 * root), and afterwards that rank's clock is within HEALED_S of the truth;
 * for the clock ahead, the same (a miss: the deadline seems past). Bounds:
 * ERROR_S / 2 = 250 ms against a wait that would be 500 ms, and a rank
 * preempted for a quarter second is far beyond the two-process load the
 * suite runs under (slices of a few ms); HEALED_S = 1 ms against an offset
 * estimate whose error is at most half a ping-pong's round trip (a few us
 * over shared memory; a refresh whose best round trip says it was
 * descheduled across every exchange, which left 1.9 ms under MPICH at 3
 * ranks, is measured again). The error is read from one timer read.
 * Functional: 2 and 3 ranks. */
#include <math.h>

#include <harmonia/procsync.h>

#include "testutil.h"
#include "truth.h"

#define ERROR_S  0.5
#define HEALED_S 1e-3
enum { CALLS_AFTER = 20 };

typedef struct call_record {
    int flag;
    double true_duration_s;
    hm_harmonize_info_t info;
} call_record_t;

/* One hm_harmonize, timed on the true clock. */
static int timed_call(MPI_Comm comm, hm_timer_t *truth, call_record_t *c)
{
    double t0 = hm_timer_now(truth);
    int rc = hm_harmonize(comm, &c->flag);
    c->true_duration_s = hm_timer_now(truth) - t0;
    if (rc == HM_OK) rc = hm_harmonize_info(comm, &c->info);
    return rc;
}

/* Every rank received the same deadline value at its last call. */
static void check_same_deadline(MPI_Comm comm, const call_record_t *c, const char *when)
{
    double mine[2] = {c->info.deadline_s, -c->info.deadline_s}, all[2];
    MPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, comm);
    HM_CHECK(all[0] == -all[1], "%s: every rank's deadline is %.9f (spread %.3g s)", when,
             c->info.deadline_s, all[0] + all[1]);
}

/* The true error of the clock hm_harmonize uses now, from one read of its
 * timer (the truth's: two reads would count a preemption between them as
 * the clock's error). */
static double clock_error(MPI_Comm comm)
{
    double true_s;
    double reading_s = hm_clock_now_truth(hm_harmonize_clock(comm), &true_s);
    return reading_s - true_s;
}

/* error_s: what the last rank's clock reads minus the truth (< 0: behind). */
static void run_case(MPI_Comm comm, hm_timer_t *truth, hm_clock_t *shared, double error_s)
{
    int rank, size, rc;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int wrong = rank == size - 1;
    const char *how = error_s < 0 ? "behind" : "ahead";
    hm_clock_t *mine = shared;
    rc = hm_clock_model(shared, HM_CLOCK_OFFSET, (hm_lm_t){0.0, -error_s}, &mine);
    if (!wrong) hm_clock_free(mine), mine = shared, hm_clock_retain(shared);
    hm_harmonize_options_t o;
    hm_harmonize_options_default(&o);
    o.clock_sync = "skampi";
    o.sync.exchanges = 10;
    o.late_s = 1.0;      /* a preemption across a deadline is not this test */
    o.resync_s = 3600.0; /* only a failure re-synchronizes */
    o.full_resync_s = 3600.0;
    o.global = mine;
    if (rc == HM_OK) rc = hm_harmonize_configure(comm, &o);
    HM_CHECK(rc == HM_OK, "clock %s: configure (status %d)", how, rc);
    call_record_t first = {0}, next = {0};
    if (rc == HM_OK) rc = timed_call(comm, truth, &first);
    HM_CHECK(rc == HM_OK, "clock %s: the first call succeeds (status %d)", how, rc);
    if (rc == HM_OK) {
        check_same_deadline(comm, &first, how);
        if (wrong) {
            HM_CHECK(first.flag == 0, "clock %.1f s %s: flag %d == 0", fabs(error_s), how,
                     first.flag);
            HM_CHECK(first.true_duration_s < ERROR_S / 2,
                     "clock %s: the call took %.6f s of true time < %.3f s (its clock's error "
                     "is not waited out)",
                     how, first.true_duration_s, ERROR_S / 2);
        }
        rc = timed_call(comm, truth, &next);
    }
    HM_CHECK(rc == HM_OK, "clock %s: the next call succeeds (status %d)", how, rc);
    if (rc == HM_OK) {
        HM_CHECK(next.info.resyncs == first.info.resyncs + 1,
                 "clock %s: the next call re-synchronizes (%ld -> %ld)", how, first.info.resyncs,
                 next.info.resyncs);
        double err = clock_error(comm);
        HM_CHECK(fabs(err) < HEALED_S, "clock %s: after the refresh, error %.3g s < %.0e s", how,
                 err, HEALED_S);
    }
    for (int i = 0; i < CALLS_AFTER && rc == HM_OK; i++) rc = timed_call(comm, truth, &next);
    HM_CHECK(rc == HM_OK, "clock %s: %d more calls succeed (status %d)", how, CALLS_AFTER, rc);
    if (rc == HM_OK) check_same_deadline(comm, &next, how);
    hm_clock_free(mine);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    hm_timer_t *truth = NULL;
    hm_clock_t *shared = NULL;
    int rc = hm_truth_shared_clock(MPI_COMM_WORLD, &truth, &shared);
    HM_CHECK(rc == HM_OK, "the shared clock (status %d)", rc);
    for (int behind = 1; behind >= 0 && rc == HM_OK; behind--) {
        MPI_Comm comm;
        MPI_Comm_dup(MPI_COMM_WORLD, &comm);
        run_case(comm, truth, shared, behind ? -ERROR_S : ERROR_S);
        MPI_Comm_free(&comm);
    }
    hm_clock_free(shared);
    hm_timer_free(truth);
    rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
