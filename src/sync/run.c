/* src/sync/run.c — hm_sync_run: check the request, agree on it, open the
 * levels' communicators, run the levels, agree on the outcome and report. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <harmonia/agree.h>

#include "common/comm_check.h"
#include "sync/levels.h"

void hm_sync_params_default(hm_sync_params_t *p)
{
    if (!p) {
        hm__error_null(__func__, "params");
        return;
    }
    /* 1000 x 100 (ReproMPI's HCA3 default, 2.1 s there): ~120 ms at 2 ranks
     * on shared memory, <= 15 ns right after and 0.01-0.4 us ten seconds
     * later under 100 ppm of drift with Open MPI. The window of the fit, not
     * the number of points, sets the slope's error: 200 x 20 spans 5 ms and
     * was 14 us off after 10 s; 1000 x 50 (60 ms) was up to 7.8 us off under
     * MPICH, whose offsets are noisier. */
    *p = (hm_sync_params_t){.fitpoints = 1000,
                            .exchanges = 100,
                            .offset = HM_OFFSET_SKAMPI,
                            .drift = HM_DRIFT_AUTO,
                            .drift_sigmas = 0, /* the t test's quantile */
                            .drift_resolution_ppm = 0.5,
                            .recompute_intercept = 1,
                            .ranks_per_node = 0,
                            .ranks_per_socket = 0};
}

int hm_sync_check_spec(const char *spec)
{
    hm__sync_levels_t lv;
    return hm__sync_parse_spec(spec, &lv);
}

static int check_params(const hm_sync_params_t *p)
{
    if (!p) return hm__error_set(HM_EINVAL, "no clock synchronization parameters");
    if (p->fitpoints < 1) return hm__error_set(HM_EINVAL, "fitpoints %d: at least 1", p->fitpoints);
    if (p->exchanges < 1) return hm__error_set(HM_EINVAL, "exchanges %d: at least 1", p->exchanges);
    if (!hm_offset_name(p->offset))
        return hm__error_set(HM_EINVAL, "offset algorithm %d is not one of skampi, meanrtt",
                             (int)p->offset);
    if (p->drift != HM_DRIFT_AUTO && p->drift != HM_DRIFT_ON && p->drift != HM_DRIFT_OFF)
        return hm__error_set(HM_EINVAL, "drift %d is not auto, on or off", (int)p->drift);
    if (!(p->drift_sigmas >= 0) || !isfinite(p->drift_sigmas))
        return hm__error_set(HM_EINVAL, "drift_sigmas %g: a finite number >= 0", p->drift_sigmas);
    if (!(p->drift_resolution_ppm >= 0) || !isfinite(p->drift_resolution_ppm))
        return hm__error_set(HM_EINVAL, "drift_resolution_ppm %g: a finite number >= 0",
                             p->drift_resolution_ppm);
    if (p->ranks_per_node < 0 || p->ranks_per_socket < 0)
        return hm__error_set(HM_EINVAL, "ranks per node %d / per socket %d: 0 (real) or more",
                             p->ranks_per_node, p->ranks_per_socket);
    return HM_OK;
}

/* A drift-aware level fits a line (hm__sync_learn_pair), which needs two
 * points; the others do not use fitpoints. */
static int check_fit(const hm__sync_levels_t *lv, const hm_sync_params_t *p)
{
    for (int l = 0; l < lv->n; l++)
        if (lv->alg[l]->kind == HM_SYNC_DRIFT && p->fitpoints < 2)
            return hm__error_set(HM_EINVAL, "fitpoints %d: %s fits a line and needs at least 2",
                                 p->fitpoints, lv->alg[l]->name);
    return HM_OK;
}

/* FNV-1a of the spec and the parameters: ranks given different requests
 * would run different protocols and wait for each other forever. */
static uint64_t fingerprint(const char *spec, const hm_sync_params_t *p)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    const int ints[] = {p->fitpoints,       p->exchanges,           (int)p->offset,
                        (int)p->drift,      p->recompute_intercept, p->ranks_per_node,
                        p->ranks_per_socket};
    const double doubles[] = {p->drift_sigmas, p->drift_resolution_ppm};
    const unsigned char *parts[] = {(const void *)spec, (const void *)ints, (const void *)doubles};
    const size_t lens[] = {strlen(spec), sizeof ints, sizeof doubles};
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < lens[k]; i++) h = (h ^ parts[k][i]) * 0x100000001b3ULL;
    return h;
}

/* Local checks, then agreement over comm on them and on the request being
 * the same everywhere. Nothing else is communicated before. */
static int check_request(MPI_Comm comm, const char *spec, const hm_sync_params_t *params,
                         hm_clock_t *base, hm_clock_t **out, hm__sync_levels_t *lv)
{
    int rc = check_params(params);
    if (rc == HM_OK) rc = hm__sync_parse_spec(spec, lv);
    if (rc == HM_OK) rc = check_fit(lv, params);
    if (rc == HM_OK && !base) rc = hm__error_null("hm_sync_run", "base");
    if (rc == HM_OK && !out) rc = hm__error_null("hm_sync_run", "out");
    rc = hm_agree(comm, rc);
    if (rc != HM_OK) return rc;
    uint64_t h = fingerprint(spec, params), mine[2] = {h, ~h}, max[2];
    if (MPI_Allreduce(mine, max, 2, MPI_UINT64_T, MPI_MAX, comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Allreduce");
    if (max[0] != ~max[1])
        return hm__error_set(HM_EINVAL,
                             "the ranks were given different clock synchronization specifications "
                             "or parameters");
    return HM_OK;
}

/* -INFINITY, the reductions' "no value", as NaN. */
static double or_nan(double v)
{
    return v == -INFINITY ? NAN : v;
}

/* Per level, for a MAX reduction: the largest t of the offsets, minus the
 * smallest t of the slopes, the critical value, the largest resolution of
 * the offsets (ppm), the most fit points; -INFINITY where none. */
enum { TESTS = 5, MODELS = 3 /* slopes, offsets, extended fits: summed */ };
static void drift_tests(const hm__sync_stats_t *st, double out[TESTS])
{
    int tested = st->tested_offsets + st->tested_linears;
    out[0] = st->tested_offsets ? st->t_offset_max : -INFINITY;
    out[1] = st->tested_linears ? -st->t_linear_min : -INFINITY;
    out[2] = tested && !isnan(st->t_critical) ? st->t_critical : -INFINITY;
    out[3] = st->offset_models ? st->resolution_max * 1e6 : -INFINITY;
    out[4] = tested ? st->fitpoints_max : -INFINITY;
}

static void fill_report(hm_sync_report_t *r, const hm__sync_levels_t *lv, const int *models,
                        const double *tests, const hm__sync_stats_t *stats, double duration_s,
                        const long *pingpongs)
{
    memset(r, 0, sizeof *r);
    r->duration_s = duration_s;
    r->nlevels = lv->n;
    for (int l = 0; l < lv->n; l++) {
        snprintf(r->algorithm[l], sizeof r->algorithm[l], "%s", lv->alg[l]->name);
        const double *t = tests + TESTS * l;
        r->drift_models[l] = models[MODELS * l];
        r->offset_models[l] = models[MODELS * l + 1];
        r->fits_extended[l] = models[MODELS * l + 2];
        r->drift_t_offset_max[l] = or_nan(t[0]);
        r->drift_t_linear_min[l] = t[1] == -INFINITY ? NAN : -t[1];
        r->drift_t_critical[l] = or_nan(t[2]);
        r->drift_resolution_ppm[l] = or_nan(t[3]);
        r->fitpoints_max[l] = t[4] == -INFINITY ? 0 : (int)t[4];
        r->pingpongs += stats[l].pingpongs;
    }
    /* Both ranks of a ping-pong count it. */
    r->total_pingpongs = pingpongs[0] / 2;
    r->internode_pingpongs = pingpongs[1] / 2;
}

/* The report's sums and maximum over every rank (collective over whole). */
static int report(MPI_Comm whole, const hm__sync_levels_t *lv, const hm__sync_stats_t *stats,
                  double duration_s, hm_sync_report_t *out)
{
    int mine[MODELS * HM_SYNC_MAX_LEVELS] = {0}, sum[MODELS * HM_SYNC_MAX_LEVELS];
    long pp[2] = {0, 0}, pp_sum[2];
    double max_s, tests[TESTS * HM_SYNC_MAX_LEVELS], tests_max[TESTS * HM_SYNC_MAX_LEVELS];
    for (int l = 0; l < lv->n; l++) {
        drift_tests(&stats[l], tests + TESTS * l);
        mine[MODELS * l] = stats[l].drift_models;
        mine[MODELS * l + 1] = stats[l].offset_models;
        mine[MODELS * l + 2] = stats[l].fits_extended;
        pp[0] += stats[l].pingpongs;
        pp[1] += stats[l].internode_pingpongs;
    }
    if (MPI_Allreduce(mine, sum, MODELS * lv->n, MPI_INT, MPI_SUM, whole) != MPI_SUCCESS ||
        MPI_Allreduce(pp, pp_sum, 2, MPI_LONG, MPI_SUM, whole) != MPI_SUCCESS ||
        MPI_Allreduce(tests, tests_max, TESTS * lv->n, MPI_DOUBLE, MPI_MAX, whole) != MPI_SUCCESS ||
        MPI_Allreduce(&duration_s, &max_s, 1, MPI_DOUBLE, MPI_MAX, whole) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Allreduce");
    if (out) fill_report(out, lv, sum, tests_max, stats, max_s, pp_sum);
    return HM_OK;
}

/* Alg. 4 on open communicators: the levels, agreement on the outcome, the
 * report; the communicators are closed on every path. */
static int synchronize(hm__sync_comms_t *comms, const hm__sync_levels_t *lv,
                       const hm_sync_params_t *params, hm_clock_t *base, double start_s,
                       const hm__sync_nodes_t *nodes, hm_clock_t **out, hm_sync_report_t *rep,
                       hm_sync_refiner_t **refiner)
{
    hm__sync_stats_t stats[HM_SYNC_MAX_LEVELS] = {{0}};
    for (int l = 0; l < HM_SYNC_MAX_LEVELS; l++) stats[l].nodes = nodes;
    hm_clock_t *clock = base;
    hm_clock_retain(base); /* line 4: the base clock stands for the dummy model */
    int rc = hm__sync_levels_run(comms, lv, params, &clock, stats);
    rc = hm_agree(comms->whole, rc);
    int report_rc = report(comms->whole, lv, stats, MPI_Wtime() - start_s, rep);
    hm__sync_comms_close(comms);
    if (rc == HM_OK) rc = report_rc;
    if (rc == HM_OK)
        *out = clock;
    else
        hm_clock_free(clock);
    /* A refining spec is a level of its own (levels.c): its state, if any
     * (not on a communicator of one rank, which has nothing to refine). */
    if (rc == HM_OK && refiner)
        *refiner = stats[0].refiner;
    else
        hm_sync_refiner_free(stats[0].refiner);
    return rc;
}

int hm_sync_run(MPI_Comm comm, const char *spec, const hm_sync_params_t *params, hm_clock_t *base,
                hm_clock_t **out, hm_sync_report_t *rep)
{
    return hm_sync_run_refining(comm, spec, params, base, out, rep, NULL);
}

int hm_sync_run_refining(MPI_Comm comm, const char *spec, const hm_sync_params_t *params,
                         hm_clock_t *base, hm_clock_t **out, hm_sync_report_t *rep,
                         hm_sync_refiner_t **refiner)
{
    if (refiner) *refiner = NULL;
    int bad = hm__comm_check(comm, "hm_sync_run");
    if (bad != HM_OK) return bad;
    hm__sync_levels_t lv = {0};
    hm__sync_comms_t comms;
    hm__sync_nodes_t *nodes = NULL;
    if (rep) memset(rep, 0, sizeof *rep);
    hm__error_clear(); /* a step below may fail without a sentence */
    /* Which ping-pongs cross nodes, for the report: found before the
     * synchronization is timed; agreed on inside (an allocation failure on
     * one rank fails all). */
    int rc = hm__sync_nodes_create(comm, params ? params->ranks_per_node : 0, &nodes);
    /* communicators included, as in Hunold & Carpen-Amarie 2018, §IV-E */
    const double start_s = MPI_Wtime();
    if (rc == HM_OK) rc = check_request(comm, spec, params, base, out, &lv);
    if (rc == HM_OK) rc = hm__sync_comms_open(comm, lv.n, params, &comms);
    if (rc == HM_OK) /* both steps above agreed on every rank */
        rc = synchronize(&comms, &lv, params, base, start_s, nodes, out, rep, refiner);
    hm__sync_nodes_free(nodes);
    if (rc != HM_OK && !hm_last_error()[0]) hm__error_set(rc, "%s", hm_strerror(rc));
    return rc;
}

int hm__sync_enter(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params,
                   hm_clock_t **out, const char *fn, int min_fitpoints, int *me, int *size)
{
    if (!base || !params || !out)
        return hm__error_null(fn, !base ? "base" : !params ? "params" : "out");
    if (min_fitpoints > 0 && params->fitpoints < min_fitpoints)
        return hm__error_set(HM_EINVAL, "%s: fitpoints %d is below %d", fn, params->fitpoints,
                             min_fitpoints);
    if (params->exchanges < 1)
        return hm__error_set(HM_EINVAL, "%s: exchanges %d is below 1", fn, params->exchanges);
    if (MPI_Comm_rank(comm, me) != MPI_SUCCESS) return hm__error_mpi(fn, "MPI_Comm_rank");
    if (MPI_Comm_size(comm, size) != MPI_SUCCESS) return hm__error_mpi(fn, "MPI_Comm_size");
    return HM_OK;
}
