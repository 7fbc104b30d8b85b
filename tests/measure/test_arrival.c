/* tests/measure/test_arrival.c — injected arrival pattern: global run-times
 * equal the true makespan.
 *
 * Usage: test_arrival METHOD [functional|precision] [CLOCK_SYNC]
 *
 * Synthetic clocks (offset +-1 s, drift +-100 ppm) synchronized with hca3
 * or CLOCK_SYNC; under "refine" the engine refines the clock between chunks
 * (harmonize at its re-synchronizations) as its schedule asks, and the
 * bounds below are the same: the ready clock has no drift model, so
 * without its refinements the 153 ppm between the clocks of seed 21
 * (below) would part them by 5 us within 33 ms, by 45 us over
 * window's 0.3 s (roundtime's and barrier's runs are shorter: ~30 ms);
 * the operation makes rank r spin 0-150 us (known, changing every run) and
 * then enter MPI_Barrier, and records its true start and end. For every
 * valid repetition, on rank 0:
 *  - the global run-time equals the true makespan (max true end - min true
 *    start over ranks) within 5 us: the bound; the clock error after
 *    hca3 is ~0.1 us and the timestamps sit ~0.1 us outside the recorded true
 *    ones, so 5 us fails only on a wrong definition (a missing rank, local
 *    times, an unconverted clock: errors of 50 us or 1 s);
 *  - the arrival skew (start spread) equals the true one within 5 us;
 *  - the local run-time equals the true max over ranks of (end - start)
 *    within 5 us: under --sync barrier this is what barrier-based
 *    benchmarks report, blind to the arrival pattern, and it differs from
 *    the global run-time by the barrier's exit pattern.
 * With "functional" (3 and 4 oversubscribed ranks) the late-start
 * tolerance is the one fitted to the machine (hm_procsync_fit), the run must
 * reach NREP valid repetitions, and only counts and positivity are asserted:
 * preemption makes any bound on the times a guess. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "measure_util.h"
#include "testutil.h"

enum { NREP = 200, WARMUP = 5 };
static const double TOL_S = 5e-6;

typedef struct truth_rep {
    double makespan_s, spread_s, local_s;
} truth_rep_t;

/* Rank 0: the truth of attempt i (run WARMUP + i) from every rank's
 * recorded timestamps. */
static void truth_of(const double *starts, const double *ends, int size, long run, truth_rep_t *t)
{
    double lo = INFINITY, hi = -INFINITY, slo = INFINITY, shi = -INFINITY, loc = 0;
    for (int r = 0; r < size; r++) {
        double s = starts[(size_t)r * SPIN_MAX_RUNS + run],
               e = ends[(size_t)r * SPIN_MAX_RUNS + run];
        lo = fmin(lo, s), hi = fmax(hi, e), slo = fmin(slo, s), shi = fmax(shi, s);
        loc = fmax(loc, e - s);
    }
    t->makespan_s = hi - lo, t->spread_s = shi - slo, t->local_s = loc;
}

static void compare(const hm_measure_result_t *r, const spin_op_t *op, int functional)
{
    double *starts = NULL, *ends = NULL;
    if (op->rank == 0) {
        starts = malloc((size_t)op->size * SPIN_MAX_RUNS * sizeof *starts);
        ends = malloc((size_t)op->size * SPIN_MAX_RUNS * sizeof *ends);
    }
    MPI_Gather(op->true_start_s, SPIN_MAX_RUNS, MPI_DOUBLE, starts, SPIN_MAX_RUNS, MPI_DOUBLE, 0,
               op->comm);
    MPI_Gather(op->true_end_s, SPIN_MAX_RUNS, MPI_DOUBLE, ends, SPIN_MAX_RUNS, MPI_DOUBLE, 0,
               op->comm);
    if (op->rank != 0) return;
    double worst_g = 0, worst_s = 0, worst_l = 0, gap = 0;
    long compared = 0, nonpositive = 0, outside = 0;
    for (long i = 0; i < r->n; i++) {
        if (!r->valid[i]) continue;
        truth_rep_t t;
        truth_of(starts, ends, op->size, WARMUP + i, &t);
        nonpositive += !(r->global_s[i] > 0 && r->local_s[i] > 0);
        double eg = fabs(r->global_s[i] - t.makespan_s),
               es = fabs(r->start_spread_s[i] - t.spread_s);
        double el = fabs(r->local_s[i] - t.local_s);
        worst_g = fmax(worst_g, eg), worst_s = fmax(worst_s, es), worst_l = fmax(worst_l, el);
        outside += eg > TOL_S || es > TOL_S || el > TOL_S;
        gap = fmax(gap, r->global_s[i] - r->local_s[i]);
        compared++;
    }
    hm_test_note("%ld valid repetitions: max |global - true makespan| %.3f us, |spread - true| "
                 "%.3f us, |local - true| %.3f us; largest global - local %.2f us",
                 compared, worst_g * 1e6, worst_s * 1e6, worst_l * 1e6, gap * 1e6);
    HM_CHECK(compared > 0 && nonpositive == 0, "%ld valid repetitions, all times positive",
             compared);
    /* The engine's timestamps and the operation's true ones are taken
     * a few instructions apart; a preemption between them (the test's own
     * artefact, not the engine's) can separate them by a scheduler slice, so
     * at most 1% of the repetitions may fall outside. */
    if (!functional)
        HM_CHECK(outside * 100 <= compared,
                 "global run-time = true makespan, start spread = true spread, local = true "
                 "local within 5 us in %ld of %ld repetitions (max errors %.3f, %.3f, %.3f us)",
                 compared - outside, compared, worst_g * 1e6, worst_s * 1e6, worst_l * 1e6);
    free(starts);
    free(ends);
}

/* The engine refined between chunks as the schedule asked (at 1, 2, 4, ...
 * ms, or the next of those instants after a chunk that ended late): at
 * least once, and at the end none overdue by more than half the run (a
 * refinement is due at most one chunk, of 12 or more, before the engine
 * makes it; once preempted, a chunk may take most of a loaded run). */
static void check_refined(const hm_sync_refiner_t *rf, hm_clock_t *clock, double run_s,
                          int functional)
{
    hm_sync_refiner_stats_t rs;
    hm_sync_refiner_stats(rf, &rs);
    double overdue_s = hm_clock_now(clock) - hm_sync_refiner_next_s(rf);
    hm_test_note("%ld refinements, %.3f ms, in a run of %.1f ms; the next due in %.1f ms",
                 rs.refinements, rs.refine_cost_s * 1e3, run_s * 1e3, -overdue_s * 1e3);
    HM_CHECK(rs.refinements >= 1, "the clock refined during the run (%ld times)", rs.refinements);
    if (!functional)
        HM_CHECK(overdue_s < run_s / 2, "no refinement overdue by half the run (%.1f ms)",
                 overdue_s * 1e3);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const char *method = argc > 1 ? argv[1] : "harmonize";
    int functional = argc > 2 && strcmp(argv[2], "functional") == 0;
    const char *clock_sync = argc > 3 ? argv[3] : "hca3";
    hm_truth_t t;
    hm_clock_t *global = NULL;
    hm_sync_refiner_t *rf = NULL;
    hm_procsync_t *ps = NULL;
    hm_procsync_params_t pp;
    /* Seed 21 under refine: its drifts (+81, -72, +11 ppm at ranks 0-2)
     * part the ready clocks, which have no drift model, by 5 us within
     * 33 ms; seed 7's (+42, +25, +59) would take 0.3 s, the whole run. */
    uint64_t seed = hm_sync_spec_refines(clock_sync) ? 21 : HM_TRUTH_SEED;
    int rc = open_global_with(&t, clock_sync, seed, &global, &rf);
    HM_CHECK(rc == HM_OK, "synthetic clocks synchronized by %s (%d)", clock_sync, rc);
    hm_procsync_params_default(&pp);
    pp.refiner = rf;
    /* A fixed window: the adaptive one doubles after any chunk with a
     * quarter invalid, whatever the cause, so a loaded machine can stretch
     * it to its 1 s cap (adaptation is tested in tests/procsync). The
     * operation takes at most 150 us plus a barrier. */
    pp.window_s = 1e-3;
    if (functional && rc == HM_OK) {
        /* More ranks than cores: ranks that all wait for one instant cannot
         * all run at it, so the slowest starts a scheduler switch or slice
         * late, invalid at 1 us. The late-start tolerance and roundtime's
         * lead are those measured on this machine (hm_procsync_fit, what
         * bench uses), and the window holds the operation (150 us and a
         * barrier, 10 ms on a loaded machine) after a start that late. */
        hm_procsync_fit_t fit;
        rc = hm_procsync_fit(MPI_COMM_WORLD, global, 0, NULL, &pp, &fit);
        HM_CHECK(rc == HM_OK, "late-start tolerance fitted: %.1f us (%s)", pp.late_s * 1e6,
                 fit.derived ? "derived" : "default");
        pp.window_s = 10e-3 + pp.late_s;
        /* Without the fit's cap at half the run-time (issue 27): with more
         * ranks than cores most starts come later than that, and the subject
         * here is the counts (the cap: tests/procsync/test_fit.c). */
        pp.late_cap_fraction = 0;
    }
    if (rc == HM_OK) rc = hm_procsync_create(method, MPI_COMM_WORLD, global, &pp, &ps);
    HM_CHECK(rc == HM_OK, "procsync %s created (%s)", method, hm_last_error());
    spin_op_t *op = calloc(1, sizeof *op);
    MPI_Comm_dup(MPI_COMM_WORLD, &op->comm);
    MPI_Comm_rank(op->comm, &op->rank);
    MPI_Comm_size(op->comm, &op->size);
    op->timer = t.timer;
    op->step_s = 50e-6;
    hm_measure_target_t target;
    hm_measure_params_t mp;
    hm_measure_result_t r = {0};
    spin_target(op, &target);
    hm_measure_params_default(&mp);
    mp.nrep = NREP, mp.warmup = WARMUP;
    mp.max_attempts = SPIN_MAX_RUNS - WARMUP; /* every attempt's truth is recorded */
    double run_s = 0;
    if (rc == HM_OK) {
        run_s = MPI_Wtime();
        rc = hm_measure_run(MPI_COMM_WORLD, ps, &target, &mp, &r);
        run_s = MPI_Wtime() - run_s;
        HM_CHECK(rc == HM_OK, "%s: measured (%d), %ld valid, %ld invalid", method, rc, r.nvalid,
                 r.ninvalid);
        HM_CHECK(r.attempts == r.nvalid + r.ninvalid && (op->rank != 0 || r.n == r.attempts),
                 "counts add up");
        if (!functional)
            HM_CHECK(r.nvalid >= NREP * 9 / 10, "at least 90%% valid at 2 ranks (%ld)", r.nvalid);
        compare(&r, op, functional);
    }
    if (rf && rc == HM_OK) check_refined(rf, hm_procsync_clock(ps), run_s, functional);
    hm_measure_result_free(&r);
    hm_procsync_free(ps);
    hm_sync_refiner_free(rf);
    hm_clock_free(global);
    MPI_Comm_free(&op->comm);
    free(op);
    hm_truth_close(&t);
    int status = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
