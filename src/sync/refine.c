/* src/sync/refine.c — a clock ready after one offset per rank and refined
 * as the run goes on (include/harmonia/sync.h, "A clock ready at once").
 *
 * Every offset is measured between a client and its reference in HCA3's
 * binomial order (binomial.h), the reference timestamping with the global
 * clock it holds at that moment, so that a client's offsets are against
 * the global time directly, as in HCA3. A rank's model is the weighted
 * least-squares line through all its offsets (Hunold & Carpen-Amarie 2018
 * fit a line through one burst of fit points; here the points are spread
 * over the run, which is what sets the slope's error). */
#include <math.h>
#include <stdlib.h>

#include <harmonia/agree.h>

#include "common/comm_check.h"
#include "sync/binomial.h"
#include "sync/sync_impl.h"

/* ASCII "R1", "R2": distinct from the offset layer's tag. */
enum { REFINE_TURN_TAG = 0x5231, REFINE_ORDER_TAG = 0x5232 };

/* One offset of this rank against the global time: at its base clock's
 * t_s, offset_s = base - global, weight 1 / (rtt / 2)^2. */
typedef struct point {
    double t_s, offset_s, weight;
} point_t;

/* A pair this rank takes part in, kept so that only its first
 * measurement pays the warm-up (HM_OFFSET_WARMUP ping-pongs). */
typedef struct peer_pair {
    int peer;
    hm_offset_pair_t *pair;
} peer_pair_t;

struct hm_sync_refiner {
    MPI_Comm comm;
    hm__binomial_t tree;
    hm_sync_params_t params;
    hm_clock_t *base, *global; /* both held */
    peer_pair_t *pairs;        /* up to log2(size) + 1 */
    int npairs;
    point_t *points;
    int npoints, cap;
    double ready_at_s, first_gap_s; /* global time at the ready phase's end (agreed) */
    double last_at_s;               /* ... at the last refinement's end (agreed) */
    double ready_s, cost_s;
    long refinements;
    double uncertainty_s;
};

static int find_pair(hm_sync_refiner_t *rf, int ref, int client, hm_offset_pair_t **out)
{
    int peer = ref == rf->tree.rank ? client : ref;
    for (int i = 0; i < rf->npairs; i++)
        if (rf->pairs[i].peer == peer) return *out = rf->pairs[i].pair, HM_OK;
    peer_pair_t *p = realloc(rf->pairs, (size_t)(rf->npairs + 1) * sizeof *p);
    if (!p) return hm__error_nomem(__func__);
    rf->pairs = p;
    int rc = hm_offset_pair_create(rf->comm, ref, client, rf->params.offset, rf->params.exchanges,
                                   &p[rf->npairs].pair);
    if (rc != HM_OK) return rc;
    p[rf->npairs].peer = peer;
    *out = p[rf->npairs++].pair;
    return HM_OK;
}

static int as_reference(void *ctx, int client)
{
    hm_sync_refiner_t *rf = ctx;
    hm_offset_pair_t *pair = NULL;
    int rc = find_pair(rf, rf->tree.rank, client, &pair);
    return rc == HM_OK ? hm_offset_measure(pair, rf->global, NULL) : rc;
}

static int add_point(hm_sync_refiner_t *rf, const hm_offset_sample_t *s)
{
    if (rf->npoints == rf->cap) {
        int cap = rf->cap ? 2 * rf->cap : 32;
        point_t *p = realloc(rf->points, (size_t)cap * sizeof *p);
        if (!p) return hm__error_nomem(__func__);
        rf->points = p, rf->cap = cap;
    }
    /* A round trip of 0 (a coarse timer) would weigh infinitely: the
     * timer's 1 ns is the least error any offset has. */
    double half_rtt_s = fmax(s->rtt_s / 2, 1e-9);
    rf->points[rf->npoints++] =
        (point_t){s->timestamp_s, s->offset_s, 1 / (half_rtt_s * half_rtt_s)};
    return HM_OK;
}

/* The weighted least-squares line through the points, centred on the first
 * one's time (the base clock reads up to days: its square would lose the
 * offsets' nanoseconds), as an offset model where there is one point or
 * the drift is off; the bound of its error at the last point (its standard
 * error with each point's error taken as rtt / 2). */
static hm_lm_t fit(hm_sync_refiner_t *rf, hm_clock_kind_t *kind)
{
    double t0 = rf->points[0].t_s, sw = 0, st = 0, stt = 0, so = 0, sto = 0;
    for (int i = 0; i < rf->npoints; i++) {
        const point_t *p = &rf->points[i];
        double dt = p->t_s - t0;
        sw += p->weight, st += p->weight * dt, stt += p->weight * dt * dt;
        so += p->weight * p->offset_s, sto += p->weight * dt * p->offset_s;
    }
    double det = sw * stt - st * st;
    if (rf->npoints < 2 || !(det > 0) || rf->params.drift == HM_DRIFT_OFF) {
        *kind = HM_CLOCK_OFFSET;
        rf->uncertainty_s = rf->npoints < 2 ? NAN : sqrt(1 / sw);
        return (hm_lm_t){0, so / sw};
    }
    double slope = (sw * sto - st * so) / det, at_t0 = (so - slope * st) / sw;
    double last = rf->points[rf->npoints - 1].t_s - t0, centre = st / sw;
    rf->uncertainty_s = sqrt(1 / sw + (last - centre) * (last - centre) * sw / det);
    *kind = HM_CLOCK_LINEAR;
    return (hm_lm_t){slope, at_t0 - slope * t0};
}

/* The client: one offset of its base clock against its reference's global
 * one, and its clock refitted through all of them. */
static int as_client(void *ctx, int ref)
{
    hm_sync_refiner_t *rf = ctx;
    hm_offset_pair_t *pair = NULL;
    hm_offset_sample_t s;
    hm_clock_kind_t kind;
    hm_clock_t *fresh = NULL;
    int rc = find_pair(rf, ref, rf->tree.rank, &pair);
    if (rc == HM_OK) rc = hm_offset_measure(pair, rf->base, &s);
    if (rc == HM_OK) rc = add_point(rf, &s);
    if (rc != HM_OK) return rc;
    hm_lm_t lm = fit(rf, &kind);
    if ((rc = hm_clock_model(rf->base, kind, lm, &fresh)) != HM_OK) return rc;
    hm_clock_free(rf->global);
    rf->global = fresh;
    return HM_OK;
}

/* One round of offsets down the tree, agreed; its wall time and the
 * global time at its end, max over the ranks (the same on every rank). */
static int round_of_offsets(hm_sync_refiner_t *rf, double *wall_s, double *end_s)
{
    double t0 = MPI_Wtime();
    int rc = hm__binomial_run(&rf->tree, as_reference, as_client, rf);
    rc = hm_agree(rf->comm, rc);
    double mine[2] = {MPI_Wtime() - t0, hm_clock_now(rf->global)}, all[2];
    if (rc == HM_OK && MPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, rf->comm) != MPI_SUCCESS)
        rc = hm__error_mpi(__func__, "MPI_Allreduce");
    *wall_s = all[0], *end_s = all[1];
    return rc;
}

static int hand_out(hm_sync_refiner_t *rf, hm_clock_t **clock)
{
    hm_clock_retain(rf->global);
    *clock = rf->global;
    return HM_OK;
}

void hm_sync_refiner_free(hm_sync_refiner_t *rf)
{
    if (!rf) return;
    for (int i = 0; i < rf->npairs; i++) hm_offset_pair_free(rf->pairs[i].pair);
    free(rf->pairs);
    free(rf->points);
    hm__binomial_free(&rf->tree);
    hm_clock_free(rf->global);
    hm_clock_free(rf->base);
    if (rf->comm != MPI_COMM_NULL) MPI_Comm_free(&rf->comm);
    free(rf);
}

static int check_request(const hm_sync_params_t *params, double first_gap_s)
{
    if (params->exchanges < 1)
        return hm__error_set(HM_EINVAL, "hm_sync_refiner_create: exchanges %d: at least 1",
                             params->exchanges);
    if (!hm_offset_name(params->offset))
        return hm__error_set(HM_EINVAL,
                             "hm_sync_refiner_create: offset algorithm %d is not one of %s",
                             (int)params->offset, "skampi, meanrtt");
    if (!(first_gap_s > 0) || !isfinite(first_gap_s))
        return hm__error_set(HM_EINVAL,
                             "hm_sync_refiner_create: first_gap_s %g: a finite time above 0",
                             first_gap_s);
    return HM_OK;
}

/* Everything but the measurements: the communicator, the tree. Local
 * failures agreed. */
static int set_up(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params,
                  double first_gap_s, hm_sync_refiner_t **out)
{
    hm_sync_refiner_t *rf = calloc(1, sizeof *rf);
    int rc = hm_agree(comm, rf ? HM_OK : hm__error_nomem("hm_sync_refiner_create"));
    if (rc != HM_OK) return free(rf), rc;
    rf->comm = MPI_COMM_NULL;
    rf->params = *params, rf->first_gap_s = first_gap_s, rf->uncertainty_s = NAN;
    hm_clock_retain(base);
    hm_clock_retain(base);
    rf->base = rf->global = base;
    if (MPI_Comm_dup(comm, &rf->comm) != MPI_SUCCESS)
        rc = hm__error_mpi("hm_sync_refiner_create", "MPI_Comm_dup");
    if (rc == HM_OK) rc = hm__binomial_init(&rf->tree, rf->comm, REFINE_TURN_TAG, REFINE_ORDER_TAG);
    if (rc != HM_OK) return hm_sync_refiner_free(rf), rc;
    *out = rf;
    return HM_OK;
}

int hm_sync_refiner_create(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params,
                           double first_gap_s, hm_sync_refiner_t **out, hm_clock_t **clock)
{
    const char *null = !base ? "base" : !params ? "params" : !out ? "out" : !clock ? "clock" : NULL;
    if (null) return hm__error_null(__func__, null);
    *out = NULL, *clock = NULL;
    int rc = hm__comm_check(comm, __func__);
    if (rc != HM_OK) return rc;
    if ((rc = hm_agree(comm, check_request(params, first_gap_s))) != HM_OK) return rc;
    hm_sync_refiner_t *rf = NULL;
    if ((rc = set_up(comm, base, params, first_gap_s, &rf)) != HM_OK) return rc;
    rc = round_of_offsets(rf, &rf->ready_s, &rf->ready_at_s);
    rf->last_at_s = rf->ready_at_s;
    if (rc != HM_OK) return hm_sync_refiner_free(rf), rc;
    *out = rf;
    return hand_out(rf, clock);
}

int hm_sync_refiner_refine(hm_sync_refiner_t *rf, hm_clock_t **clock)
{
    if (!rf) return hm__error_null(__func__, "rf");
    if (!clock) return hm__error_null(__func__, "clock");
    *clock = NULL;
    double wall_s = 0;
    int rc = round_of_offsets(rf, &wall_s, &rf->last_at_s);
    if (rc != HM_OK) return rc;
    rf->refinements++;
    rf->cost_s += wall_s;
    return hand_out(rf, clock);
}

/* Refinement k is due first_gap_s x 2^(k-1) after the ready phase, or at
 * the first such instant after the last refinement when that is later:
 * each at a span twice the last's, so that the slope fitted over the span
 * keeps the error at the next refinement about one offset's. The caller's
 * occasions come late (the end of a chunk, a re-synchronization): a
 * refinement 16 ms after the ready phase makes the next due at 32 ms, not
 * at the 2, 4, 8 ms it skipped, which would each cost a round for nothing;
 * one a little late (the round's own time) leaves the schedule as it was. */
double hm_sync_refiner_next_s(const hm_sync_refiner_t *rf)
{
    if (!rf) return hm__error_null(__func__, "rf"), NAN;
    int k = (int)fmin((double)rf->refinements, 1000);
    double span_s = rf->last_at_s - rf->ready_at_s;
    while (k < 1000 && ldexp(rf->first_gap_s, k) <= span_s) k++;
    return rf->ready_at_s + ldexp(rf->first_gap_s, k);
}

int hm_sync_refiner_due(const hm_sync_refiner_t *rf, double now_s)
{
    if (!rf) return hm__error_null(__func__, "rf"), 0;
    return now_s >= hm_sync_refiner_next_s(rf);
}

hm_clock_t *hm_sync_refiner_clock(const hm_sync_refiner_t *rf)
{
    if (!rf) return hm__error_null(__func__, "rf"), NULL;
    return rf->global;
}

void hm_sync_refiner_stats(const hm_sync_refiner_t *rf, hm_sync_refiner_stats_t *out)
{
    if (!rf || !out) {
        hm__error_null(__func__, !rf ? "rf" : "out");
        return;
    }
    long pingpongs = 0;
    for (int i = 0; i < rf->npairs; i++) pingpongs += hm_offset_pair_pingpongs(rf->pairs[i].pair);
    int n = rf->npoints;
    *out = (hm_sync_refiner_stats_t){
        .ready_s = rf->ready_s,
        .refinements = rf->refinements,
        .refine_cost_s = rf->cost_s,
        .pingpongs = pingpongs,
        /* A client's clock is one model over base, at which its points were
         * taken. */
        .first_s = n ? hm_lm_apply(hm_clock_lm(rf->global), rf->points[0].t_s) : NAN,
        .last_s = n ? hm_lm_apply(hm_clock_lm(rf->global), rf->points[n - 1].t_s) : NAN,
        .uncertainty_s = rf->tree.rank == 0 ? 0.0 : rf->uncertainty_s};
}

/* The registry's entry ("refine"): the ready phase, its state kept in
 * stats for hm_sync_run_refining (freed by hm_sync_run). Its pairs' ping-
 * pongs are counted, and each client's model as an offset model: the
 * ready clock has no slope yet. */
int hm__sync_refine(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params,
                    hm_clock_t **out, hm__sync_stats_t *stats)
{
    hm_sync_refiner_t *rf = NULL;
    int rc = hm_sync_refiner_create(comm, base, params, HM_SYNC_REFINE_FIRST_GAP_S, &rf, out);
    if (rc != HM_OK) return rc;
    for (int i = 0; i < rf->npairs; i++) hm__sync_tally_pair(stats, rf->pairs[i].pair);
    stats->offset_models += rf->tree.rank != 0;
    stats->refiner = rf;
    return HM_OK;
}
