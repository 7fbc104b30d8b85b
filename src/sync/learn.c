/* src/sync/learn.c — the pairwise building block of the drift-aware
 * algorithms: LEARN_CLOCK_MODEL and COMPUTE_AND_SET_INTERCEPT of Hunold & Carpen-Amarie 2018
 * Alg. 2 (Learn_Model_HCA and Compute_And_Set_Intercept of Hunold & Carpen-Amarie 2016
 * Alg. 4), with harmonia's drift decision between fit and intercept. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_statistics_double.h>

#include "sync/sync_impl.h"

/* Tag of the status exchange between the two ranks of a pair: ASCII "LP". */
enum { TAG_AGREE = 0x4c50 };

/* The critical value of the drift test: the caller's (drift_sigmas > 0),
 * else the two-sided Student quantile of HM_SYNC_DRIFT_ALPHA with the
 * error's degrees of freedom. */
static double critical_value(const hm_sync_params_t *params, int dof)
{
    if (params->drift_sigmas > 0) return params->drift_sigmas;
    return dof >= 1 ? gsl_cdf_tdist_Qinv(HM_SYNC_DRIFT_ALPHA / 2, dof) : INFINITY;
}

/* The floor of drift auto (sync.h): a slope below the resolution asked
 * for is kept only at HM_SYNC_DRIFT_FLOOR_SIGMAS times the critical value.
 * The learning is sized to resolve that drift, not less, and the offsets
 * of clocks without drift wander by up to ~60 ns over a learning of ~0.1 s
 * on this VM, which the errors of slope_stderr take for independent noise
 * or a trend: two make-check runs kept 0.46 and 0.48 ppm at t 1.07 x the
 * critical value (4.6 and 4.8 us after 10 s). 0: no floor. */
double hm__sync_drift_floor(const hm_sync_params_t *params)
{
    double r = params->drift_resolution_ppm;
    return params->drift == HM_DRIFT_AUTO && r > 0 && isfinite(r) ? r * 1e-6 : 0;
}

/* The statistic t = |slope| / stderr. Two cases the ratio cannot decide on
 * its own:
 *  - stderr == 0: the points lie exactly on the line (noise-free input), so
 *    the slope is exact: infinite t unless the slope is exactly 0;
 *  - stderr not finite (fewer than 3 points leave no residual to estimate
 *    the noise) or a NaN: nothing shows the slope significant, t = 0, and
 *    the offset model, whose error does not grow with time, is chosen. */
static double t_statistic(double slope, double slope_stderr)
{
    if (!isfinite(slope) || isnan(slope_stderr) || isinf(slope_stderr)) return 0;
    if (slope_stderr == 0) return slope != 0 ? INFINITY : 0;
    return fabs(slope) / slope_stderr;
}

hm__sync_pair_model_t hm__sync_decide_drift(const hm_sync_params_t *params, double slope,
                                            double slope_stderr, int dof, double intercept,
                                            double mean_y)
{
    hm__sync_pair_model_t m = {.lm = {slope, intercept},
                               .kind = HM_CLOCK_LINEAR,
                               .slope_fit = slope,
                               .slope_stderr = slope_stderr,
                               .t = t_statistic(slope, slope_stderr),
                               .t_critical = critical_value(params, dof)};
    int keep;
    if (!isfinite(slope) || !isfinite(intercept)) /* degenerate fit (all timestamps equal) */
        keep = 0;
    else if (params->drift == HM_DRIFT_ON)
        keep = 1;
    else if (params->drift == HM_DRIFT_OFF)
        keep = 0;
    else
        keep = m.t >= m.t_critical && m.t > 0 &&
               (fabs(slope) >= hm__sync_drift_floor(params) ||
                m.t >= HM_SYNC_DRIFT_FLOOR_SIGMAS * m.t_critical);
    if (!keep) {
        /* The least-squares constant through the fit points is their mean. */
        m.lm = (hm_lm_t){0, mean_y};
        m.kind = HM_CLOCK_OFFSET;
    }
    return m;
}

void hm__sync_drift_record(hm__sync_stats_t *stats, const hm__sync_pair_model_t *m,
                           const hm_sync_params_t *params)
{
    if (!stats) return;
    if (m->kind == HM_CLOCK_LINEAR) {
        if (stats->tested_linears++ == 0 || m->t < stats->t_linear_min) stats->t_linear_min = m->t;
        stats->drift_models++;
    } else if (m->kind == HM_CLOCK_OFFSET) {
        /* An offset model may hide up to the floor as well. */
        double r = fmax(hm__sync_fit_resolution(m), hm__sync_drift_floor(params));
        if (stats->tested_offsets++ == 0 || m->t > stats->t_offset_max) stats->t_offset_max = m->t;
        if (stats->offset_models++ == 0 || r > stats->resolution_max) stats->resolution_max = r;
    }
    if (m->fitpoints > params->fitpoints) stats->fits_extended++;
    if (m->fitpoints > stats->fitpoints_max) stats->fitpoints_max = m->fitpoints;
    stats->t_critical = m->t_critical;
}

double hm__sync_fit_resolution(const hm__sync_pair_model_t *m)
{
    double r = m->t_critical * m->slope_stderr;
    return isnan(r) ? INFINITY : r;
}

/* Both models: an offset model may hide a drift up to the resolution, and
 * a kept slope is off by up to resolution / t_critical x a few (MPICH: t
 * 6.7 at 1 ppm over 1000 points kept a slope 0.58 ppm off, 1.16 us after
 * 2 s). The error the test judges by is residual sd / span over the spans of
 * 0.1 s and more that a default learning takes (MPICH on shared memory:
 * 0.20-0.25 ppm against 0.02 least squares and 0.04-0.12 batch means), so
 * it shrinks as 1 / span and the points come at a steady rate: n x r /
 * want points resolve want, 10 % more for the noise of the estimate. */
int hm__sync_fit_more(const hm_sync_params_t *params, const hm__sync_pair_model_t *m, int n)
{
    double want = params->drift_resolution_ppm * 1e-6, r = hm__sync_fit_resolution(m);
    long cap = (long)params->fitpoints * HM_SYNC_FIT_EXTEND_MAX;
    if (params->drift != HM_DRIFT_AUTO || !(want > 0) || !isfinite(r) || r <= want || n >= cap ||
        cap > INT_MAX)
        return 0;
    double total = ceil((double)n * (r / want) * 1.1);
    return (int)(total < (double)cap ? (long)total - n : cap - n);
}

void hm_sync_drift_test_describe(const hm_sync_params_t *params, char *buf, size_t len)
{
    if (!buf) {
        hm__error_null(__func__, "buf");
        return;
    }
    if (len == 0) return;
    buf[0] = '\0';
    if (!params || !hm_sync_drift_name(params->drift)) return;
    int dof = hm__sync_fit_dof(params->fitpoints);
    const char *rule = params->drift == HM_DRIFT_ON    ? "slope always kept; test reported: "
                       : params->drift == HM_DRIFT_OFF ? "slope never kept; test reported: "
                                                       : "slope kept when ";
    if (params->drift_sigmas > 0)
        snprintf(buf, len,
                 "%s: %s|slope| / se >= %g (given); se = max(least squares, line through "
                 "batch means, residual sd / span)",
                 hm_sync_drift_name(params->drift), rule, params->drift_sigmas);
    else
        snprintf(buf, len,
                 "%s: %s|slope| / se >= %.3f (t test, two-sided %g %%, %d dof); se = "
                 "max(least squares, line through batch means, residual sd / span)",
                 hm_sync_drift_name(params->drift), rule, critical_value(params, dof),
                 HM_SYNC_DRIFT_ALPHA * 100, dof);
    size_t used = strlen(buf);
    if (params->drift == HM_DRIFT_AUTO && params->drift_resolution_ppm > 0 && used < len)
        snprintf(buf + used, len - used,
                 "; a slope below %g ppm only at %g x that; learning extended until the test "
                 "resolves %g ppm, up to %d x %d fit points",
                 params->drift_resolution_ppm, (double)HM_SYNC_DRIFT_FLOOR_SIGMAS,
                 params->drift_resolution_ppm, HM_SYNC_FIT_EXTEND_MAX, params->fitpoints);
}

/* Checks both ranks of the pair make alike (same arguments on both), before
 * any communication; fn: the caller, for the sentence. */
static int check_pair(MPI_Comm comm, int ref, int client, int *me, const char *fn)
{
    int size;
    if (MPI_Comm_size(comm, &size) != MPI_SUCCESS) return hm__error_mpi(fn, "MPI_Comm_size");
    if (MPI_Comm_rank(comm, me) != MPI_SUCCESS) return hm__error_mpi(fn, "MPI_Comm_rank");
    if (ref < 0 || ref >= size || client < 0 || client >= size || ref == client)
        return hm__error_set(HM_EINVAL, "%s: ref %d and client %d are not two ranks of [0, %d)", fn,
                             ref, client, size);
    if (*me != ref && *me != client)
        return hm__error_set(HM_EINVAL, "%s: rank %d is neither ref %d nor client %d", fn, *me, ref,
                             client);
    return HM_OK;
}

/* Both ranks of the pair leave with the same status (the smaller code when
 * both failed), so that a local failure, e.g. an allocation, never leaves the
 * peer waiting for ping-pongs. */
static int agree(MPI_Comm comm, int peer, int rc)
{
    int theirs;
    if (MPI_Sendrecv(&rc, 1, MPI_INT, peer, TAG_AGREE, &theirs, 1, MPI_INT, peer, TAG_AGREE, comm,
                     MPI_STATUS_IGNORE) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Sendrecv");
    if (theirs >= rc) return rc; /* this rank's own status, with its own sentence */
    /* The peer's sentence stays on the peer: name its status. */
    return hm__error_set(theirs, "rank %d of the pair failed: %s%s%s", peer, hm_strerror(theirs),
                         rc != HM_OK ? "; here: " : "", rc != HM_OK ? hm_last_error() : "");
}

/* Alg. 2 lines 3-12: fit points from..to - 1 (only the client keeps them). */
static int collect(hm_offset_pair_t *pair, hm_clock_t *clock, int from, int to, double *x,
                   double *y, const hm_progress_t *progress)
{
    for (int i = from; i < to; i++) {
        hm_offset_sample_t s;
        int rc = hm_offset_measure(pair, clock, &s);
        if (rc != HM_OK) return rc;
        if (x) x[i] = s.timestamp_s, y[i] = s.offset_s;
        if (progress->fn && ((i + 1) % HM_SYNC_PROGRESS_POINTS == 0 || i + 1 == to))
            progress->fn(progress->arg, i + 1, to);
    }
    return HM_OK;
}

/* Batches of the slope's standard error: 10 batches of at least 5 points.
 * 20 batches (18 degrees of freedom) were too short for the wander below:
 * over 250 recorded fits of clocks without drift, their error alone at the
 * t test's quantile (0.1 %) kept 55 slopes, that of 10 batches 16; the
 * third error of slope_stderr does the rest (docs/clocks.md). */
enum { FIT_BATCHES = 10, FIT_BATCH_MIN = 5 };

static size_t batches(size_t n)
{
    return n / FIT_BATCH_MIN < FIT_BATCHES ? n / FIT_BATCH_MIN : FIT_BATCHES;
}

int hm__sync_fit_dof(int n)
{
    size_t nb = batches(n > 0 ? (size_t)n : 0);
    return nb >= 3 ? (int)nb - 2 : n >= 3 ? n - 2 : 0;
}

/* The slope's batch-means error, allowing for correlated fit points. The
 * least-squares error assumes independent residuals, but consecutive offsets
 * share their error: the asymmetry of the best round trip wanders by
 * ~5-30 ns over tens to hundreds of fit points (shared memory, 2 ranks),
 * more on a loaded machine. Over 1000 fit points the least-squares error
 * then says ~0.01 ppm where repeated runs scatter by ~0.1 ppm. The method of
 * batch means gives the error that the wander implies: the line through the
 * means of the consecutive batches has nearly the same slope, and its
 * standard error (batches - 2 degrees of freedom) sees the wander inside
 * each batch as noise. Fewer than 3 batches: 0 (the other errors decide). */
static double batch_stderr(const double *x, const double *y, size_t n)
{
    double xb[FIT_BATCHES], yb[FIT_BATCHES];
    size_t nb = batches(n);
    if (nb < 3) return 0;
    for (size_t b = 0; b < nb; b++) {
        size_t lo = b * n / nb, len = (b + 1) * n / nb - lo;
        xb[b] = gsl_stats_mean(x + lo, 1, len);
        yb[b] = gsl_stats_mean(y + lo, 1, len);
    }
    double c0, c1, cov00, cov01, cov11_b, sumsq;
    gsl_fit_linear(xb, 1, yb, 1, nb, &c0, &c1, &cov00, &cov01, &cov11_b, &sumsq);
    return sqrt(cov11_b);
}

/* The error the drift test judges the slope by: the largest of
 *  - the least-squares error (independent residuals);
 *  - the batch-means error (correlated residuals, above);
 *  - residual sd / span: with it, a slope is kept only if the clocks drifted
 *    apart during the learning by at least t_critical residual standard
 *    deviations (|slope| * span >= 5.6 sd by default). On shared memory the
 *    offsets of clocks without drift trend by up to ~30 ns across a learning
 *    of 0.1-0.4 s (0.1-0.2 ppm, 0.2-0.5 us after 2 s) while their sd is
 *    ~5 ns and the batch means agree with the trend; no test on the points
 *    alone tells that from drift, the size of the drift against the noise
 *    does. The price: a real drift below ~5.6 sd / span (~0.6 ppm for the
 *    ~45 ms of an idle 1000 x 100 learning here) is modelled as an offset; a
 *    longer fit (more fit points) resolves smaller drifts.
 * The t test treats the largest as an error with the batch fit's degrees of
 * freedom (hm__sync_fit_dof), the conservative reading: the other two are
 * estimated from more points. Fewer than 3 points leave no residual:
 * infinite error (offset model). */
static double slope_stderr(const double *x, const double *y, size_t n, double cov11, double sumsq)
{
    if (n < 3) return INFINITY;
    double span = x[n - 1] - x[0], sd = sqrt(sumsq / (double)(n - 2));
    double by_span = span > 0 ? sd / span : 0;
    return fmax(fmax(sqrt(cov11), batch_stderr(x, y, n)), by_span);
}

/* Alg. 2 line 13 (FIT_LINEAR_MODEL) and the drift decision. gsl_fit_linear
 * centres the data itself, so timestamps far from 0 lose no precision. */
hm__sync_pair_model_t hm__sync_fit_pair(const hm_sync_params_t *params, const double *x,
                                        const double *y, int n)
{
    double c0, c1, cov00, cov01, cov11, sumsq;
    gsl_fit_linear(x, 1, y, 1, (size_t)n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
    double se = slope_stderr(x, y, (size_t)n, cov11, sumsq);
    hm__sync_pair_model_t m = hm__sync_decide_drift(params, c1, se, hm__sync_fit_dof(n), c0,
                                                    gsl_stats_mean(y, 1, (size_t)n));
    m.fitpoints = n;
    return m;
}

/* COMPUTE_AND_SET_INTERCEPT, Alg. 2 lines 17-23: a fresh offset O at client
 * time T sets the intercept so that the line passes through it; line 21
 * reads slope * (-T) + O. */
static int recompute_intercept(hm_offset_pair_t *pair, hm_clock_t *clock, int is_client,
                               hm__sync_pair_model_t *model)
{
    hm_offset_sample_t s;
    int rc = hm_offset_measure(pair, clock, &s);
    if (rc == HM_OK && is_client)
        model->lm.intercept = model->lm.slope * (-s.timestamp_s) + s.offset_s;
    return rc;
}

static void count(hm__sync_stats_t *stats, const hm_offset_pair_t *pair, int is_client,
                  const hm__sync_pair_model_t *model, const hm_sync_params_t *params)
{
    if (!stats) return;
    hm__sync_tally_pair(stats, pair);
    if (is_client && model) hm__sync_drift_record(stats, model, params);
}

/* The reference learns nothing: it reports the identity, lm = {0, 0}. */
static const hm__sync_pair_model_t no_model = {{0, 0}, HM_CLOCK_IDENTITY, 0, 0, 0, NAN, 0};

/* The client's fit points, grown by extensions. */
typedef struct fit_points {
    double *x, *y;
    int n;
} fit_points_t;

int hm__sync_grow_points(double **x, double **y, int n)
{
    double *nx = realloc(*x, (size_t)n * sizeof *nx);
    if (nx) *x = nx;
    double *ny = nx ? realloc(*y, (size_t)n * sizeof *ny) : NULL;
    if (ny) *y = ny;
    return nx && ny ? HM_OK : hm__error_nomem(__func__);
}

static int grow(fit_points_t *f, int n)
{
    return hm__sync_grow_points(&f->x, &f->y, n);
}

/* Whether drift auto may extend a learning: the same on both ranks of the
 * pair (hm_sync_run checks that every rank was given the same parameters). */
static int extendable(const hm_sync_params_t *params)
{
    return params->drift == HM_DRIFT_AUTO && params->drift_resolution_ppm > 0;
}

/* The client's fit and how many more points it wants, told to the
 * reference (0: the fit stands). A failed allocation keeps the fit: the
 * extension sharpens the drift test, the model is valid without it. */
static int fit_or_extend(MPI_Comm comm, int peer, int is_client, const hm_sync_params_t *params,
                         fit_points_t *f, hm__sync_pair_model_t *model, int *more)
{
    *more = 0;
    if (is_client) {
        *model = hm__sync_fit_pair(params, f->x, f->y, f->n);
        *more = hm__sync_fit_more(params, model, f->n);
        if (*more > 0 && grow(f, f->n + *more) != HM_OK) *more = 0;
    }
    if (!extendable(params)) return HM_OK;
    int theirs = 0;
    if (MPI_Sendrecv(more, 1, MPI_INT, peer, TAG_AGREE, &theirs, 1, MPI_INT, peer, TAG_AGREE, comm,
                     MPI_STATUS_IGNORE) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Sendrecv");
    if (!is_client) *more = theirs;
    return HM_OK;
}

/* Alg. 2 lines 3-13, and drift auto's extensions until the fit resolves
 * params->drift_resolution_ppm or reaches its cap. */
static int learn(MPI_Comm comm, int peer, int is_client, hm_offset_pair_t *pair, hm_clock_t *clock,
                 const hm_sync_params_t *params, fit_points_t *f, hm__sync_pair_model_t *model)
{
    int more = params->fitpoints, rc = HM_OK;
    while (rc == HM_OK && more > 0) {
        rc = collect(pair, clock, f->n, f->n + more, f->x, f->y, &params->progress);
        f->n += more;
        if (rc == HM_OK) rc = fit_or_extend(comm, peer, is_client, params, f, model, &more);
    }
    return rc;
}

int hm__sync_learn_pair(MPI_Comm comm, int ref, int client, hm_clock_t *clock,
                        const hm_sync_params_t *params, hm__sync_pair_model_t *model,
                        hm__sync_stats_t *stats)
{
    int me;
    if (!clock || !params || !model)
        return hm__error_null(__func__, !clock ? "clock" : !params ? "params" : "model");
    /* A line needs two points; exchanges and the offset kind are checked by
     * hm_offset_pair_create, identically on both ranks. */
    if (params->fitpoints < 2)
        return hm__error_set(HM_EINVAL, "%s: fitpoints %d is below 2", __func__, params->fitpoints);
    int rc = check_pair(comm, ref, client, &me, __func__);
    if (rc != HM_OK) return rc;
    int is_client = me == client, peer = is_client ? ref : client;
    hm_offset_pair_t *pair = NULL;
    fit_points_t f = {NULL, NULL, 0};
    *model = no_model;

    rc = hm_offset_pair_create(comm, ref, client, params->offset, params->exchanges, &pair);
    if (rc == HM_OK && is_client) rc = grow(&f, params->fitpoints);
    if (rc != HM_EINVAL) rc = agree(comm, peer, rc);
    if (rc == HM_OK) rc = learn(comm, peer, is_client, pair, clock, params, &f, model);
    if (rc == HM_OK && params->recompute_intercept)
        rc = recompute_intercept(pair, clock, is_client, model);
    if (rc == HM_OK) count(stats, pair, is_client, model, params);
    if (rc != HM_OK) *model = no_model;
    free(f.x);
    free(f.y);
    hm_offset_pair_free(pair);
    return rc;
}

int hm__sync_measure_offset(MPI_Comm comm, int ref, int client, hm_clock_t *clock,
                            const hm_sync_params_t *params, hm_offset_sample_t *sample,
                            hm__sync_stats_t *stats)
{
    int me;
    if (!clock || !params) return hm__error_null(__func__, !clock ? "clock" : "params");
    int rc = check_pair(comm, ref, client, &me, __func__);
    if (rc != HM_OK) return rc;
    hm_offset_pair_t *pair = NULL;
    rc = hm_offset_pair_create(comm, ref, client, params->offset, params->exchanges, &pair);
    if (rc != HM_EINVAL) rc = agree(comm, me == client ? ref : client, rc);
    if (rc == HM_OK) rc = hm_offset_measure(pair, clock, me == client ? sample : NULL);
    if (rc == HM_OK) count(stats, pair, 0, NULL, params);
    hm_offset_pair_free(pair);
    return rc;
}
