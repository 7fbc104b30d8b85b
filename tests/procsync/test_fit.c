/* tests/procsync/test_fit.c — hm_procsync_fit: the late-start tolerance is
 * derived from measured waits when ranks outnumber the processors, and left
 * exactly as it was otherwise (1-4 ranks; 3 and 4 oversubscribed on the
 * 2-core test machine).
 *
 * Checked: the detection against this machine (ranks > online processors,
 * all ranks on one node) and hm_procsync_oversubscribed; without
 * oversubscription nothing is measured and late_s stays 1e-6 bit for bit;
 * with it, late_s = max(1 us, factor x the measured quantile), agreed bit for
 * bit, with the repetition's run-time on top; a given late_s is kept and
 * nothing measured; and the fitted value is the one the late-start check
 * uses: under the fitted params every method with a deadline runs the
 * measurement loop with valid repetitions, and each repetition's flag agrees
 * with start <= deadline + late_s + (end - start) exactly. */
#include <math.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "psloop.h"
#include "testutil.h"

enum { NREP = 64, CHUNK = 16 };

/* The same value on every rank, bit for bit. */
static int agreed(MPI_Comm comm, double x)
{
    double lo, hi;
    MPI_Allreduce(&x, &lo, 1, MPI_DOUBLE, MPI_MIN, comm);
    MPI_Allreduce(&x, &hi, 1, MPI_DOUBLE, MPI_MAX, comm);
    return lo == hi;
}

static void check_not_oversubscribed(const hm_procsync_fit_t *f, const hm_procsync_params_t *p)
{
    HM_CHECK(!f->derived && f->waits == 0 && f->lateness_s == 0,
             "not oversubscribed: nothing measured (derived %d, %ld waits)", f->derived, f->waits);
    HM_CHECK(p->late_s == 1e-6 && f->late_s == 1e-6 && p->min_lead_s == 0 &&
                 p->late_run_factor == 0,
             "not oversubscribed: late_s stays 1e-6 exactly, no minimum lead (params %.17g, fit "
             "%.17g, lead %g)",
             p->late_s, f->late_s, p->min_lead_s);
}

static void check_derived(MPI_Comm comm, const hm_procsync_fit_t *f, const hm_procsync_params_t *p)
{
    HM_CHECK(f->derived && !f->late_given, "oversubscribed: late_s derived (%d)", f->derived);
    HM_CHECK(f->waits > 0 && f->waits <= 200, "%ld of 200 deadlines measured", f->waits);
    HM_CHECK(f->quantile == 0.99 && f->factor == 3.0, "quantile %g, factor %g", f->quantile,
             f->factor);
    /* Ranks sharing a core take turns: the slowest cannot leave at the
     * deadline itself, and a lateness of a second would be a broken wait. */
    HM_CHECK(f->lateness_s > 0 && f->lateness_s < 1.0, "measured lateness %.3f us",
             f->lateness_s * 1e6);
    HM_CHECK(f->late_s == fmax(1e-6, f->factor * f->lateness_s) && p->late_s == f->late_s,
             "late_s = max(1 us, %g x %.3f us) = %.3f us, in params too", f->factor,
             f->lateness_s * 1e6, p->late_s * 1e6);
    HM_CHECK(p->late_run_factor == 1 && f->late_run_factor == 1,
             "the repetition's run-time counts on top of late_s (factor %g)", p->late_run_factor);
    HM_CHECK(p->late_cap_fraction == 0.5 && f->late_cap_fraction == 0.5,
             "the tolerance is capped at half the run-time (%g)", p->late_cap_fraction);
    HM_CHECK(hm_procsync_late_tolerance(p, 1e-9) == 1e-6 &&
                 hm_procsync_late_tolerance(p, 0.0) == p->late_s &&
                 hm_procsync_late_tolerance(p, 1.0) == fmin(p->late_s + 1.0, 0.5),
             "the tolerance: 1 us for a 1 ns run, late_s with nothing timed (skew), "
             "min(late_s + run, run / 2) for a long one");
    HM_CHECK(f->first_lead_s > 0 && f->lead_s >= f->first_lead_s && p->min_lead_s == f->lead_s,
             "roundtime's minimum lead %.1f us: the last lead %.1f us (first %.1f us)",
             p->min_lead_s * 1e6, f->lead_s * 1e6, f->first_lead_s * 1e6);
    HM_CHECK(agreed(comm, f->late_s) && agreed(comm, f->lateness_s) &&
                 agreed(comm, (double)f->waits),
             "the fit is the same on every rank");
}

/* A given late_s wins: kept, recorded as given, nothing measured. */
static void check_given(MPI_Comm comm, hm_clock_t *global)
{
    hm_procsync_params_t p;
    hm_procsync_fit_t f;
    hm_procsync_params_default(&p);
    p.late_s = 5e-4;
    int rc = hm_procsync_fit(comm, global, 1, NULL, &p, &f);
    HM_CHECK(rc == HM_OK && f.late_given && !f.derived && f.waits == 0 && p.late_s == 5e-4 &&
                 f.late_s == 5e-4 && p.min_lead_s == 0 && p.late_run_factor == 0,
             "given late_s 500 us: kept (status %d, given %d, derived %d, late_s %g)", rc,
             f.late_given, f.derived, p.late_s);
}

/* The operation of check_used: a nap, which leaves the core to a rank that
 * shares it, as an MPI library's progress does when oversubscribed. 200 us:
 * its half (the cap of the tolerance) is above a scheduler switch. */
static void nap_op(void *ctx, long rep)
{
    (void)ctx, (void)rep;
    ps_sleep(200e-6);
}

/* The late-start check of hm_procsync_stop applies the fitted late_s: a
 * repetition whose wait passed (flag_start 1) is flagged by stop exactly
 * when its start timestamp came later than deadline + the tolerance for its
 * run-time, late_s + run-time, at most half the run-time
 * (hm_procsync_late_tolerance; window: or it overran its window, end >
 * deadline + window, which this check excludes). */
static void check_used(MPI_Comm comm, const char *name, const hm_procsync_params_t *p,
                       hm_clock_t *global)
{
    hm_procsync_t *ps = NULL;
    ps_rep_t reps[NREP];
    int rc = hm_procsync_create(name, comm, global, p, &ps);
    HM_CHECK(rc == HM_OK, "%s: created (%s)", name, hm_last_error());
    if (rc != HM_OK) return;
    hm_procsync_begin(ps);
    const ps_work_t work = {NULL, nap_op, NULL};
    long done = ps_loop(ps, comm, 0, NREP, &work, reps);
    long nvalid = 0, wrong = 0, late = 0;
    int windowed = strcmp(name, "window") == 0;
    for (long i = 0; i < done; i++) {
        const ps_rep_t *r = &reps[i];
        double allowed = hm_procsync_late_tolerance(p, r->end_s - r->start_s);
        int is_late = r->start_s > r->deadline_s + allowed;
        int overran = windowed && r->end_s - r->deadline_s > p->window_s;
        nvalid += r->valid;
        late += is_late;
        if (r->flag_start && !overran) wrong += r->flag_stop != !is_late;
    }
    MPI_Allreduce(MPI_IN_PLACE, &late, 1, MPI_LONG, MPI_SUM, comm);
    MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_LONG, MPI_SUM, comm);
    HM_CHECK(done == NREP && wrong == 0,
             "%s: stop flags exactly the starts later than deadline + min(%.1f us + run-time, "
             "run-time / 2) (%ld late starts over the ranks, %ld flagged otherwise)",
             name, p->late_s * 1e6, late, wrong);
    /* Functional: at least one repetition of 64 valid. At 1 us nearly all
     * are invalid when oversubscribed (bench got 0 of 1100); with the fitted
     * tolerance most are valid, but a loaded ctest may hold a rank off the
     * processor for a slice, so only "some" is asserted. */
    HM_CHECK(nvalid > 0, "%s: %ld of %d repetitions valid under late_s %.1f us", name, nvalid, NREP,
             p->late_s * 1e6);
    hm_procsync_free(ps);
}

/* The cap's floor (hm_procsync_set_run_floor): a start 10 us late whose
 * own run took 0.5 us is late against a 1 us cap, and on time when the
 * operation took 100 us over all ranks (cap 50 us: an eager sender or a
 * root is held to the operation's run-time, not its own). Exact: the
 * timestamps are made up around the deadline window's start gave. */
static void check_floor(MPI_Comm comm, hm_clock_t *global)
{
    hm_procsync_params_t p;
    hm_procsync_t *ps = NULL;
    hm_procsync_params_default(&p);
    p.late_s = 1e-6, p.late_run_factor = 1, p.late_cap_fraction = 0.5, p.window_s = 1e-3;
    int rc = hm_procsync_create("window", comm, global, &p, &ps);
    HM_CHECK(rc == HM_OK, "window for the floor: created (%s)", rc ? hm_last_error() : "");
    if (rc != HM_OK) return;
    hm_procsync_begin(ps);
    int flags[3];
    double floors[3] = {0, 100e-6, 0}; /* the last: the floor set back to 0 */
    double held_s[3];
    for (int i = 0; i < 3; i++) {
        int flag = 1;
        double deadline_s;
        hm_procsync_start(ps, &flag, &deadline_s);
        hm_procsync_set_run_floor(ps, floors[i]);
        flags[i] = 1;
        hm_procsync_stop(ps, deadline_s + 10e-6, deadline_s + 10.5e-6, &flags[i]);
        held_s[i] = hm_procsync_stop_tolerance(ps, deadline_s + 10e-6, deadline_s + 10.5e-6);
    }
    HM_CHECK(flags[0] == 0 && flags[1] == 1 && flags[2] == 0,
             "10 us late, 0.5 us own run: late without a floor (%d), on time with a 100 us floor "
             "(%d), late again at 0 (%d)",
             !flags[0], flags[1], !flags[2]);
    /* late 1 us + run, capped at max(1 us, run / 2): 0.5 us of its own gives
     * 1 us; the 100 us floor gives min(101, 50) = 50 us. Exact arithmetic
     * on the values passed, no timing. */
    HM_CHECK(fabs(held_s[0] - 1e-6) < 1e-15 && fabs(held_s[1] - 50e-6) < 1e-15 &&
                 fabs(held_s[2] - 1e-6) < 1e-15,
             "the tolerance stop held them to: 1, 50, 1 us (%g, %g, %g us)", held_s[0] * 1e6,
             held_s[1] * 1e6, held_s[2] * 1e6);
    hm_procsync_free(ps);
    ps = NULL;
    rc = hm_procsync_create("barrier", comm, global, &p, &ps);
    HM_CHECK(rc == HM_OK && isnan(hm_procsync_stop_tolerance(ps, 0.0, 1e-3)),
             "barrier judges no start: its tolerance is NaN");
    hm_procsync_free(ps);
}

int main(int argc, char **argv)
{
    MPI_Comm comm;
    ps_truth_t truth;
    hm_procsync_params_t p;
    hm_procsync_fit_t f;
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    int size;
    MPI_Comm_size(comm, &size);
    int rc = ps_truth_open(&truth, comm);
    HM_CHECK(rc == HM_OK, "the shared monotonic clock opens (%d)", rc);
    hm_procsync_params_default(&p);
    p.check_every = CHUNK;
    p.harmonize.clock_sync = "prop";
    if (rc == HM_OK) rc = hm_procsync_fit(comm, truth.global, 0, NULL, &p, &f);
    HM_CHECK(rc == HM_OK, "hm_procsync_fit returns HM_OK (%d)", rc);
    int expect = size > get_nprocs();
    HM_CHECK(f.oversubscribed == expect && hm_procsync_oversubscribed(comm) == expect,
             "oversubscribed %d (%d ranks, %d processors; expected %d)", f.oversubscribed, f.ranks,
             f.processors, expect);
    HM_CHECK(f.ranks == size && f.processors == get_nprocs(), "%d ranks on %d processors", f.ranks,
             f.processors);
    if (rc == HM_OK && expect) check_derived(comm, &f, &p);
    if (rc == HM_OK && !expect) check_not_oversubscribed(&f, &p);
    if (rc == HM_OK) check_given(comm, truth.global);
    if (rc == HM_OK) check_floor(comm, truth.global);
    /* A fixed window (the adaptive one overruns its first chunk): 1 ms past
     * the fitted late_s, so that a start the tolerance accepts does not
     * overrun it. A 1 ms window alone left 0 of 64 valid in CI (MPICH, 4
     * ranks on 2 cores, lateness 14.7 ms at the 0.99 quantile: every
     * repetition had some rank that late); 57 of 64 at 7.9 ms here. */
    p.window_s = 1e-3 + (p.late_s > 0 ? p.late_s : 0);
    const char *with_deadline[] = {"window", "roundtime", "harmonize"};
    for (size_t i = 0; rc == HM_OK && expect && i < 3; i++)
        check_used(comm, with_deadline[i], &p, truth.global);
    ps_truth_close(&truth);
    MPI_Comm_free(&comm);
    rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
