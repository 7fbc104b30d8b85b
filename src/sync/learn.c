/* src/sync/learn.c — the pairwise building block of the drift-aware
 * algorithms: LEARN_CLOCK_MODEL and COMPUTE_AND_SET_INTERCEPT of Hunold & Carpen-Amarie 2018
 * Alg. 2 (Learn_Model_HCA and Compute_And_Set_Intercept of Hunold & Carpen-Amarie 2016
 * Alg. 4), with harmonia's drift decision between fit and intercept. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_fit.h>
#include <gsl/gsl_statistics_double.h>

#include "sync/sync_impl.h"

/* Tag of the status exchange between the two ranks of a pair: ASCII "LP". */
enum { TAG_AGREE = 0x4c50 };

/* AUTO's test. A slope is kept only when the fit shows it to be larger than
 * its own noise. Two cases the test cannot decide on its own:
 *  - stderr == 0: the points lie exactly on the line (noise-free input), so
 *    the slope is exact: keep it unless it is exactly 0;
 *  - stderr not finite (fewer than 3 points leave no residual to estimate
 *    the noise): nothing shows the slope significant, so the offset model,
 *    whose error does not grow with time, is chosen. */
static int auto_keeps_slope(double slope, double slope_stderr, double sigmas)
{
    if (isnan(slope_stderr) || isinf(slope_stderr)) return 0;
    if (slope_stderr == 0) return slope != 0;
    return fabs(slope) >= sigmas * slope_stderr;
}

hm_sync_pair_model_t hm_sync_decide_drift(const hm_sync_params_t *params, double slope,
                                          double slope_stderr, double intercept, double mean_y)
{
    hm_sync_pair_model_t m = {.lm = {slope, intercept},
                              .kind = HM_CLOCK_LINEAR,
                              .slope_fit = slope,
                              .slope_stderr = slope_stderr};
    int keep;
    if (!isfinite(slope) || !isfinite(intercept)) /* degenerate fit (all timestamps equal) */
        keep = 0;
    else if (params->drift == HM_DRIFT_ON)
        keep = 1;
    else if (params->drift == HM_DRIFT_OFF)
        keep = 0;
    else
        keep = auto_keeps_slope(slope, slope_stderr, params->drift_sigmas);
    if (!keep) {
        /* The least-squares constant through the fit points is their mean. */
        m.lm = (hm_lm_t){0, mean_y};
        m.kind = HM_CLOCK_OFFSET;
    }
    return m;
}

/* Checks both ranks of the pair make alike (same arguments on both), before
 * any communication. */
static int check_pair(MPI_Comm comm, int ref, int client, int *me)
{
    int size;
    if (MPI_Comm_size(comm, &size) != MPI_SUCCESS || MPI_Comm_rank(comm, me) != MPI_SUCCESS)
        return HM_EMPI;
    if (ref < 0 || ref >= size || client < 0 || client >= size || ref == client) return HM_EINVAL;
    return *me == ref || *me == client ? HM_OK : HM_EINVAL;
}

/* Both ranks of the pair leave with the same status (the smaller code when
 * both failed), so that a local failure, e.g. an allocation, never leaves the
 * peer waiting for ping-pongs. */
static int agree(MPI_Comm comm, int peer, int rc)
{
    int theirs;
    if (MPI_Sendrecv(&rc, 1, MPI_INT, peer, TAG_AGREE, &theirs, 1, MPI_INT, peer, TAG_AGREE, comm,
                     MPI_STATUS_IGNORE) != MPI_SUCCESS)
        return HM_EMPI;
    return rc < theirs ? rc : theirs;
}

/* Alg. 2 lines 3-12: the fit points (only the client keeps them). */
static int collect(hm_offset_pair_t *pair, hm_clock_t *clock, int n, double *x, double *y,
                   const hm_progress_t *progress)
{
    for (int i = 0; i < n; i++) {
        hm_offset_sample_t s;
        int rc = hm_offset_measure(pair, clock, &s);
        if (rc != HM_OK) return rc;
        if (x) x[i] = s.timestamp_s, y[i] = s.offset_s;
        if (progress->fn && ((i + 1) % HM_SYNC_PROGRESS_POINTS == 0 || i + 1 == n))
            progress->fn(progress->arg, i + 1, n);
    }
    return HM_OK;
}

/* Batches of the slope's standard error: 20 batches keep 18 degrees of
 * freedom for the noise; at least 5 points make a batch. */
enum { FIT_BATCHES = 20, FIT_BATCH_MIN = 5 };

/* The slope's batch-means error, allowing for correlated fit points. The
 * least-squares error assumes independent residuals, but consecutive offsets
 * share their error: the asymmetry of the best round trip wanders by
 * ~10-40 ns over tens to hundreds of fit points (shared memory, 2 ranks).
 * Over 1000 fit points the least-squares error then says ~0.02 ppm where
 * repeated runs scatter by ~0.1 ppm, and drift auto kept slopes of 0.1-0.7
 * ppm over clocks that do not drift (1-7 us after 10 s). The method of batch
 * means gives the error that the wander implies: the line through the means
 * of FIT_BATCHES consecutive batches has nearly the same slope, and its
 * standard error (FIT_BATCHES - 2 degrees of freedom) sees the wander inside
 * each batch as noise; it matched the scatter of repeated runs. Fewer than 3
 * batches: 0 (the least-squares error alone decides). */
static double batch_stderr(const double *x, const double *y, size_t n)
{
    double xb[FIT_BATCHES], yb[FIT_BATCHES];
    size_t nb = n / FIT_BATCH_MIN < FIT_BATCHES ? n / FIT_BATCH_MIN : FIT_BATCHES;
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

/* The error the drift decision judges the slope by: the largest of
 *  - the least-squares error (independent residuals);
 *  - the batch-means error (correlated residuals, above);
 *  - residual sd / span: with it, a slope is kept only if the clocks drifted
 *    apart during the learning by at least drift_sigmas residual standard
 *    deviations (|slope| * span >= 3 sd by default). On shared memory the
 *    offsets of clocks without drift can trend by ~30 ns across a 60-80 ms
 *    learning (a slope of 0.1-0.4 ppm, 1-4 us after 10 s) while their sd is
 *    ~10 ns and the batch means agree with the trend; no test on the points
 *    alone tells that from drift, the size of the drift against the noise
 *    does. The price: a real drift below ~3 sd / span (0.3-1 ppm for the
 *    default ~120 ms) is modelled as an offset; a longer fit (more fit points)
 *    resolves smaller drifts.
 * Fewer than 3 points leave no residual: infinite error (offset model). */
static double slope_stderr(const double *x, const double *y, size_t n, double cov11, double sumsq)
{
    if (n < 3) return INFINITY;
    double span = x[n - 1] - x[0], sd = sqrt(sumsq / (double)(n - 2));
    double by_span = span > 0 ? sd / span : 0;
    return fmax(fmax(sqrt(cov11), batch_stderr(x, y, n)), by_span);
}

/* Alg. 2 line 13 (FIT_LINEAR_MODEL) and the drift decision. gsl_fit_linear
 * centres the data itself, so timestamps far from 0 lose no precision. */
hm_sync_pair_model_t hm_sync_fit_pair(const hm_sync_params_t *params, const double *x,
                                      const double *y, int n)
{
    double c0, c1, cov00, cov01, cov11, sumsq;
    gsl_fit_linear(x, 1, y, 1, (size_t)n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
    double se = slope_stderr(x, y, (size_t)n, cov11, sumsq);
    return hm_sync_decide_drift(params, c1, se, c0, gsl_stats_mean(y, 1, (size_t)n));
}

/* COMPUTE_AND_SET_INTERCEPT, Alg. 2 lines 17-23: a fresh offset O at client
 * time T sets the intercept so that the line passes through it; line 21
 * reads slope * (-T) + O. */
static int recompute_intercept(hm_offset_pair_t *pair, hm_clock_t *clock, int is_client,
                               hm_sync_pair_model_t *model)
{
    hm_offset_sample_t s;
    int rc = hm_offset_measure(pair, clock, &s);
    if (rc == HM_OK && is_client)
        model->lm.intercept = model->lm.slope * (-s.timestamp_s) + s.offset_s;
    return rc;
}

static void count(hm_sync_stats_t *stats, const hm_offset_pair_t *pair, int is_client,
                  hm_clock_kind_t kind)
{
    if (!stats) return;
    hm_sync_tally_pair(stats, pair);
    if (is_client && kind == HM_CLOCK_LINEAR) stats->drift_models++;
    if (is_client && kind == HM_CLOCK_OFFSET) stats->offset_models++;
}

/* The reference learns nothing: it reports the identity, lm = {0, 0}. */
static const hm_sync_pair_model_t no_model = {{0, 0}, HM_CLOCK_IDENTITY, 0, 0};

int hm_sync_learn_pair(MPI_Comm comm, int ref, int client, hm_clock_t *clock,
                       const hm_sync_params_t *params, hm_sync_pair_model_t *model,
                       hm_sync_stats_t *stats)
{
    int me;
    if (!clock || !params || !model) return HM_EINVAL;
    /* A line needs two points; exchanges and the offset kind are checked by
     * hm_offset_pair_create, identically on both ranks. */
    if (params->fitpoints < 2) return HM_EINVAL;
    int rc = check_pair(comm, ref, client, &me);
    if (rc != HM_OK) return rc;
    int is_client = me == client, n = params->fitpoints;
    hm_offset_pair_t *pair = NULL;
    double *xy = NULL;
    *model = no_model;

    rc = hm_offset_pair_create(comm, ref, client, params->offset, params->exchanges, &pair);
    if (rc == HM_OK && is_client && !(xy = malloc(2 * (size_t)n * sizeof *xy))) rc = HM_ENOMEM;
    if (rc != HM_EINVAL) rc = agree(comm, is_client ? ref : client, rc);
    if (rc == HM_OK) rc = collect(pair, clock, n, xy, xy ? xy + n : NULL, &params->progress);
    if (rc == HM_OK && is_client) *model = hm_sync_fit_pair(params, xy, xy + n, n);
    if (rc == HM_OK && params->recompute_intercept)
        rc = recompute_intercept(pair, clock, is_client, model);
    if (rc == HM_OK) count(stats, pair, is_client, model->kind);
    if (rc != HM_OK) *model = no_model;
    free(xy);
    hm_offset_pair_free(pair);
    return rc;
}

int hm_sync_measure_offset(MPI_Comm comm, int ref, int client, hm_clock_t *clock,
                           const hm_sync_params_t *params, hm_offset_sample_t *sample,
                           hm_sync_stats_t *stats)
{
    int me;
    if (!clock || !params) return HM_EINVAL;
    int rc = check_pair(comm, ref, client, &me);
    if (rc != HM_OK) return rc;
    hm_offset_pair_t *pair = NULL;
    rc = hm_offset_pair_create(comm, ref, client, params->offset, params->exchanges, &pair);
    if (rc != HM_EINVAL) rc = agree(comm, me == client ? ref : client, rc);
    if (rc == HM_OK) rc = hm_offset_measure(pair, clock, me == client ? sample : NULL);
    if (rc == HM_OK) count(stats, pair, 0, HM_CLOCK_IDENTITY);
    hm_offset_pair_free(pair);
    return rc;
}
