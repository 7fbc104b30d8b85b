/* tests/measure/test_budget.c — how an experiment ends, and what its
 * summary says, against counts known in advance.
 *
 * Every attempt invalid, by construction: --sync window with a fixed
 * window of 1 us and an operation that sleeps 200 us, which overruns its
 * window every time (the window method flags an overrun), on any machine
 * and under any load (a slower machine only overruns more). Then the
 * attempts allowed are exact: with the busy machine's budget
 * (budget_factor 2) 2 x nrep + 32 and end "budget"; without it 10 x nrep +
 * 100 and end "attempts"; with max_attempts below the budget,
 * max_attempts and end "attempts". Every attempt valid, by construction:
 * --sync barrier has no deadline: nrep attempts, end "nrep", under the
 * budget too. The status callback sees every chunk, its counts adding up.
 *
 * hm_measure_summarize against hand-made results: the valid figures, the
 * discarded median beside them, conditional exactly when more than half
 * the attempts were discarded, NaN where nothing is there to summarize. */
#include <math.h>
#include <string.h>
#include <time.h>

#include <harmonia/measure.h>

#include "testutil.h"
#include "truth.h"

enum { NREP = 10 };

static int nap(void *ctx)
{
    (void)ctx;
    struct timespec ts = {0, 200000};
    nanosleep(&ts, NULL);
    return HM_OK;
}

typedef struct seen {
    long calls, last_attempts, last_valid, bad;
} seen_t;

static void status(void *arg, const hm_measure_status_t *st)
{
    seen_t *s = arg;
    s->bad += st->attempts <= s->last_attempts || st->valid < s->last_valid ||
              st->valid > st->attempts || st->nrep != NREP || st->most_attempts < st->attempts;
    s->calls++;
    s->last_attempts = st->attempts;
    s->last_valid = st->valid;
}

/* One experiment of NREP under method; the counts it must end with. */
static void run(MPI_Comm comm, hm_clock_t *global, const char *method, double budget_factor,
                long max_attempts, int want_rc, hm_measure_end_t want_end, long want_attempts,
                long want_valid)
{
    hm_procsync_params_t pp;
    hm_procsync_params_default(&pp);
    pp.window_s = 1e-6;
    hm_procsync_t *ps = NULL;
    int rc = hm_procsync_create(method, comm, global, &pp, &ps), rank;
    MPI_Comm_rank(comm, &rank);
    HM_CHECK(rc == HM_OK, "%s created (%s)", method, hm_last_error());
    if (rc != HM_OK) return;
    hm_measure_params_t mp;
    hm_measure_params_default(&mp);
    seen_t seen = {0};
    mp.nrep = NREP, mp.warmup = 0, mp.budget_factor = budget_factor;
    mp.max_attempts = max_attempts;
    mp.status = status, mp.status_arg = &seen;
    hm_measure_target_t t = {.run = nap, .participates = 1};
    hm_measure_result_t r;
    rc = hm_measure_run(comm, ps, &t, &mp, &r);
    HM_CHECK(rc == want_rc && r.end == want_end && r.attempts == want_attempts &&
                 r.most_attempts >= want_attempts && r.nvalid == want_valid &&
                 r.ninvalid == r.attempts - r.nvalid,
             "%s, budget %g, max_attempts %ld: status %d (%d), end %s (%s), %ld attempts (%ld), "
             "%ld valid (%ld)",
             method, budget_factor, max_attempts, rc, want_rc, hm_measure_end_name(r.end),
             hm_measure_end_name(want_end), r.attempts, want_attempts, r.nvalid, want_valid);
    if (rank == 0)
        HM_CHECK(seen.calls > 0 && seen.bad == 0 && seen.last_attempts == r.attempts,
                 "%s: the status callback saw %ld chunks, counts adding up (%ld bad)", method,
                 seen.calls, seen.bad);
    hm_measure_result_free(&r);
    hm_procsync_free(ps);
}

/* A result of n attempts on the root: run-times global_s, validity valid. */
static hm_measure_result_t made(double *global_s, unsigned char *valid, long n)
{
    static double zeros[8];
    hm_measure_result_t r;
    memset(&r, 0, sizeof r);
    r.n = r.attempts = n;
    for (long i = 0; i < n; i++) r.nvalid += valid[i];
    r.ninvalid = n - r.nvalid;
    r.global_s = global_s, r.local_s = global_s, r.start_spread_s = zeros, r.valid = valid;
    return r;
}

static void check_summaries(void)
{
    double t[] = {1, 2, 3, 40, 50, 60, 70, 80};
    unsigned char half[] = {1, 1, 1, 1, 0, 0, 0, 0}, most[] = {1, 1, 1, 0, 0, 0, 0, 0};
    unsigned char none[] = {0, 0, 0}, all[] = {1, 1, 1};
    hm_measure_summary_t s;
    hm_measure_result_t r = made(t, half, 8);
    int rc = hm_measure_summarize(&r, &s);
    HM_CHECK(rc == HM_OK && s.valid == 4 && s.discarded == 4 && s.global.median == 2.5 &&
                 s.discarded_median_s == 65 && !s.conditional,
             "4 valid of 8: median %g, discarded median %g, not conditional (%d)", s.global.median,
             s.discarded_median_s, s.conditional);
    r = made(t, most, 8);
    rc = hm_measure_summarize(&r, &s);
    HM_CHECK(rc == HM_OK && s.valid == 3 && s.global.median == 2 && s.discarded_median_s == 60 &&
                 s.conditional,
             "3 valid of 8: median %g, discarded median %g, conditional (%d)", s.global.median,
             s.discarded_median_s, s.conditional);
    r = made(t, none, 3);
    rc = hm_measure_summarize(&r, &s);
    HM_CHECK(rc == HM_OK && isnan(s.global.median) && isnan(s.local_median_s) &&
                 s.discarded_median_s == 2 && s.conditional,
             "none valid: no figure (NaN), discarded median %g", s.discarded_median_s);
    r = made(t, all, 3);
    rc = hm_measure_summarize(&r, &s);
    HM_CHECK(rc == HM_OK && s.global.median == 2 && isnan(s.discarded_median_s) && !s.conditional,
             "all valid: median %g, no discarded median (NaN)", s.global.median);
    r = made(t, all, 0);
    rc = hm_measure_summarize(&r, &s);
    HM_CHECK(rc == HM_OK && isnan(s.global.median) && !s.conditional, "no attempt: nothing");
    HM_CHECK(hm_measure_summarize(NULL, &s) == HM_EINVAL, "NULL result: HM_EINVAL");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    hm_timer_t *timer = NULL;
    hm_clock_t *global = NULL;
    int rank, rc = hm_truth_shared_clock(MPI_COMM_WORLD, &timer, &global);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    HM_CHECK(rc == HM_OK, "the shared clock (%d)", rc);
    if (rc == HM_OK) {
        run(MPI_COMM_WORLD, global, "window", HM_MEASURE_BUDGET_FACTOR, 0, HM_EAGAIN,
            HM_MEASURE_END_BUDGET, 2 * NREP + HM_MEASURE_BUDGET_EXTRA, 0);
        run(MPI_COMM_WORLD, global, "window", 0, 0, HM_EAGAIN, HM_MEASURE_END_ATTEMPTS,
            10 * NREP + 100, 0);
        run(MPI_COMM_WORLD, global, "window", HM_MEASURE_BUDGET_FACTOR, 30, HM_EAGAIN,
            HM_MEASURE_END_ATTEMPTS, 30, 0);
        run(MPI_COMM_WORLD, global, "barrier", HM_MEASURE_BUDGET_FACTOR, 0, HM_OK,
            HM_MEASURE_END_NREP, NREP, NREP);
    }
    if (rank == 0) check_summaries();
    hm_clock_free(global);
    hm_timer_free(timer);
    rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
