/* tests/sync/drift/test_drift_choice.c — drift auto's model choice on one
 * physical clock, through hm_sync_run("hca3") with the default parameters
 * (what `harmonia clock` runs), at 2 ranks.
 *
 * Both ranks read one CLOCK_MONOTONIC, so the truth is known: rank 0's
 * global clock is the clock itself, and rank 1 reads it through a linear
 * model layer of slope d (its base runs d slow), so the true drift between
 * the two is d, exactly. The error asserted is rank 1's global clock 2 s
 * after the synchronization against the truth, extrapolated from the
 * model (the clock cannot change its mind in between):
 *  - d = 0, five synchronizations: each keeps the offset model, and is
 *    <= 100 ns off after 2 s. Under the former test 3 of 20 `harmonia
 *    clock` runs kept a slope, 0.11-0.55 us off after 2 s; the t statistics
 *    of 550 recorded fits stayed below 1.01 x the critical value (0.79 x but
 *    one). The error is then the offset measurement's own: <= 40 ns under
 *    Open MPI (`harmonia clock`: 40 runs <= 31 ns), up to 70 ns under MPICH
 *    on a loaded machine, hence 100 ns; the model kind is what catches a
 *    spurious slope;
 *  - d = 1e-8: the drift is below the noise of a 45-300 ms learning; either
 *    model, <= 150 ns off after 2 s (25 ns of it the drift since the fit);
 *  - d = 1e-7: either model; <= 0.35 us (an offset model is 0.2 us off, plus
 *    the offset measurement's error);
 *  - d = 1e-6 and 1e-4: the slope is kept and the error after 2 s is
 *    <= 1 us (the offset model would be 2 us and 200 us off): a kept slope
 *    is off by the walk of the offsets over the learning, up to ~0.2 ppm
 *    over 45 ms, 0.4 us after 2 s.
 * The report gives the statistic: the critical value 5.617 (two-sided
 * 0.05 %, 8 degrees of freedom) and the t of the one pairwise fit on the
 * side of it that matches the model, and for an offset model the drift it
 * may hide, t_critical x se: at most the 0.5 ppm asked for, or the fit was
 * extended to HM_SYNC_FIT_EXTEND_MAX x 1000 points. MPICH's offsets are
 * ~30 ns noisier than Open MPI's here, so 1000 points (145 ms) resolved only
 * 1.1-1.4 ppm and kept 1 ppm as an offset, 2 us off after 2 s, until the
 * learning was extended to resolve 0.5 ppm. */
#include <math.h>

#include <harmonia/sync.h>

#include "testutil.h"
#include "truth.h"

typedef struct outcome {
    int linear, fitpoints_max;
    double err_s, t, crit, hides_ppm;
} outcome_t;

static outcome_t synchronize(hm_clock_t *clock, hm_timer_t *timer, int rank, double d)
{
    hm_sync_params_t p;
    hm_sync_report_t rep;
    hm_clock_t *base = NULL, *global = NULL;
    outcome_t o = {0, 0, NAN, NAN, NAN, NAN};
    hm_sync_params_default(&p);
    if (rank == 1)
        hm_clock_model(clock, HM_CLOCK_LINEAR, (hm_lm_t){d, 0}, &base);
    else
        hm_clock_retain(base = clock);
    int rc = hm_sync_run(MPI_COMM_WORLD, "hca3", &p, base, &global, &rep);
    HM_CHECK(rc == HM_OK, "d = %g: hca3 synchronizes (%s)", d, hm_last_error());
    if (rc != HM_OK) return o;
    double later = hm_timer_now(timer) + 2;
    double err = hm_clock_from_local(global, later) - later;
    MPI_Bcast(&err, 1, MPI_DOUBLE, 1, MPI_COMM_WORLD);
    o.linear = rep.drift_models[0] == 1;
    o.err_s = err;
    o.t = o.linear ? rep.drift_t_linear_min[0] : rep.drift_t_offset_max[0];
    o.crit = rep.drift_t_critical[0];
    o.hides_ppm = rep.drift_resolution_ppm[0];
    o.fitpoints_max = rep.fitpoints_max[0];
    /* An offset model says what it may hide; a fit below the resolution
     * asked for was extended as far as the cap allows. */
    HM_CHECK(o.linear
                 ? isnan(o.hides_ppm)
                 : o.hides_ppm > 0 && (o.hides_ppm <= p.drift_resolution_ppm ||
                                       o.fitpoints_max == HM_SYNC_FIT_EXTEND_MAX * p.fitpoints),
             "d = %g: the report gives what the offset model may hide: %.3g ppm after %d fit "
             "points (%d extended)",
             d, o.hides_ppm, o.fitpoints_max, rep.fits_extended[0]);
    HM_CHECK(rep.drift_models[0] + rep.offset_models[0] == 1 && fabs(o.crit - 5.617) < 1e-3 &&
                 (o.linear ? o.t >= o.crit && isnan(rep.drift_t_offset_max[0])
                           : o.t < o.crit && isnan(rep.drift_t_linear_min[0])),
             "d = %g: the report gives the test: %s model, t %.3g against %.4g", d,
             o.linear ? "linear" : "offset", o.t, o.crit);
    hm_clock_free(global);
    hm_clock_free(base);
    return o;
}

int main(int argc, char **argv)
{
    int rank, size;
    hm_timer_t *timer = NULL;
    hm_clock_t *clock = NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2 || hm_truth_shared_clock(MPI_COMM_WORLD, &timer, &clock) != HM_OK) {
        HM_CHECK(0, "2 ranks on one clock (have %d)", size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int i = 0; i < 5; i++) {
        outcome_t o = synchronize(clock, timer, rank, 0);
        HM_CHECK(!o.linear && fabs(o.err_s) <= 100e-9,
                 "d = 0, run %d: %s model (t %.3g < %.4g), %.1f ns off after 2 s (<= 100)", i,
                 o.linear ? "linear" : "offset", o.t, o.crit, o.err_s * 1e9);
    }
    const double drifts[] = {1e-8, 1e-7, 1e-6, 1e-4}, tol_s[] = {150e-9, 0.35e-6, 1e-6, 1e-6};
    for (int i = 0; i < 4; i++) {
        outcome_t o = synchronize(clock, timer, rank, drifts[i]);
        /* A drift of twice the resolution the report gives is kept; where
         * the report owns up to hiding it (noise the capped learning could
         * not beat), the error is what it says: the hidden drift over 2 s. */
        int must_keep = drifts[i] >= 1e-6 && !(o.hides_ppm * 1e-6 >= drifts[i] / 2);
        int owned_up = drifts[i] >= 1e-6 && !must_keep && !o.linear;
        double tol = owned_up ? fmax(tol_s[i], 2 * o.hides_ppm * 1e-6 + 0.1e-6) : tol_s[i];
        HM_CHECK((o.linear || !must_keep) && fabs(o.err_s) <= tol,
                 "d = %g: %s model (t %.3g vs %.4g; hides < %.3g ppm), %.1f ns off after 2 s "
                 "(<= %.0f)",
                 drifts[i], o.linear ? "linear" : "offset", o.t, o.crit, o.hides_ppm, o.err_s * 1e9,
                 tol * 1e9);
    }
    hm_clock_free(clock);
    hm_timer_free(timer);
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
