/* tests/overlap/test_calibrate_model.c — the dgemm calibration's search
 * against a kernel whose every time is known (a testing hook replaces the
 * dgemm by a model: time = TARGET_S (n / N_TRUE)^3, times a speed factor
 * that the test schedules by run), so the right order is known exactly and
 * nothing depends on this machine's speed.
 *
 *   steady: from the first probe (n = 64), the fit through two probes of an
 *   exact n^3 lands on N_TRUE: 2 probes.
 *   flip: a virtual core that runs 1.2x then 1.45x slower for the first 15
 *   runs, then at full speed, as the test machine's cores did when the
 *   host's other tenants took them (tests/overlap/test_calibrate.c). The
 *   slow probes leave a bracket whose slope no dgemm has (n^8); the search
 *   must probe its stale end again, not creep inside it until the probes
 *   run out (what it did before: 12 probes, not converged).
 *
 * Tolerance: the calibration's own 10 % (convergence), i.e. an order within
 * 3.2 % of N_TRUE ((1.1)^(1/3)); the model has no noise, so the steady
 * search is held to the order itself, +-1 for rounding. */
#include <math.h>
#include <stdlib.h>

#include <harmonia/overlap.h>

#include "overlap/overlap_testing.h"
#include "testutil.h"

#define TARGET_S 0.02
enum { N_TRUE = 520 };

typedef struct model {
    int runs;                 /* runs so far, counted at thread 0 */
    double (*speed)(int run); /* how much slower run is than the model's dgemm */
} model_t;

static double model_time(void *arg, int n, int thread)
{
    model_t *m = arg;
    if (thread == 0) m->runs++;
    double ratio = (double)n / N_TRUE;
    return TARGET_S * ratio * ratio * ratio * m->speed(m->runs - 1);
}

static double full_speed(int run)
{
    (void)run;
    return 1.0;
}

/* The VM's trace, scaled: probe 1 (5 runs) 1.2x slow, probes 2 and 3 (10
 * runs) 1.45x, then full speed. */
static double flipping(int run)
{
    return run < 5 ? 1.2 : run < 15 ? 1.45 : 1.0;
}

static hm_compute_calibration_t calibrate(hm_compute_t *c, model_t *m)
{
    hm_compute_calib_params_t p;
    hm_compute_calibration_t r;
    hm_compute_calib_params_default(&p);
    p.target_s = TARGET_S;
    int rc = hm__compute_inject_model(c, model_time, m);
    if (rc == HM_OK) rc = hm_compute_calibrate(c, &p, &r, NULL);
    for (int i = 0; rc != HM_ENOMEM && i < r.probes; i++)
        hm_test_note("probe %d: n = %d, %.4f s (%d runs)", i + 1, r.probe[i].n, r.probe[i].time_s,
                     r.probe[i].runs);
    HM_CHECK(rc == HM_OK || rc == HM_EAGAIN, "calibrate: %d %s", rc, hm_last_error());
    return r;
}

static void test_steady(void)
{
    hm_compute_t *c;
    model_t m = {0, full_speed};
    if (hm_compute_create(NULL, &c) != HM_OK) return;
    hm_compute_calibration_t r = calibrate(c, &m);
    HM_CHECK(r.converged && abs(r.n - N_TRUE) <= 1 && r.probes == 2,
             "steady: n = %d (truth %d), %d probes (2: one to fit, one on the order)", r.n, N_TRUE,
             r.probes);
    hm_compute_free(c);
}

static void test_flip(void)
{
    hm_compute_t *c;
    model_t m = {0, flipping};
    if (hm_compute_create(NULL, &c) != HM_OK) return;
    int rc = hm_compute_set_size(c, 454); /* the VM's previous calibration */
    HM_CHECK(rc == HM_OK, "set_size 454: %d %s", rc, hm_last_error());
    hm_compute_calibration_t r = calibrate(c, &m);
    HM_CHECK(r.converged && abs(r.n - N_TRUE) <= 0.032 * N_TRUE && fabs(r.error) <= 0.1,
             "flip: %s at n = %d (truth %d, within 3.2 %%), error %+.1f %%, %d probes",
             hm_overlap_outcome_name(r.outcome), r.n, N_TRUE, 100 * r.error, r.probes);
    hm_compute_free(c);
}

int main(void)
{
    test_steady();
    test_flip();
    return hm_test_finish();
}
