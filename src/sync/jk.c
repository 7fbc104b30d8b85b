/* src/sync/jk.c — the clock synchronization of Jones and Koenig, Hunold & Carpen-Amarie 2016
 * Alg. 15-17: the root serves every client in turn for each fit point, so
 * that each client's fit points spread over the whole synchronization, and
 * each client fits a line through its (local time, offset) points: a model
 * of its drift and offset against the root, O(p * fitpoints) turns.
 *
 * The offsets are those of params->offset: Mean-RTT-Offset (Hunold & Carpen-Amarie 2018
 * Alg. 8, the RTT of Alg. 17 measured once per pair) is the original JK;
 * SKaMPI-Offset, the default, makes JK more precise (Hunold & Carpen-Amarie 2018, §IV). The
 * fitted slope goes through harmonia's drift decision (params->drift,
 * hm__sync_decide_drift).
 *
 * Deviations from the pseudo-code, and why:
 *  - a fit point is one measurement of the offset layer, i.e. the median
 *    one-way sample (Alg. 15 lines 18-27) for meanrtt, the midpoint of the
 *    tightest bounds for skampi;
 *  - warmup_rounds and Compute_Rtt (Alg. 15 lines 32-35) are one untimed
 *    measurement per client, in turn, before the fit points: the offset pair
 *    warms up and, for meanrtt, measures its RTT on first use; the RTT stays
 *    on the client, which is the only one that needs it (no Scatter);
 *  - with two clients or more, the root hands each client its turn with a
 *    zero-byte message that the client waits for asleep (common/idle.h):
 *    blocking MPI calls busy-poll, so with more ranks than cores the p - 2
 *    clients waiting for their turn would take the cores of the pair being
 *    measured. The price is one nap (~50-100 us) per turn;
 *  - fewer than 2 fit points is HM_EINVAL (no line), and with 2 the fit has
 *    no residual to judge the slope by: drift auto then keeps the offset;
 *  - the slope's standard error given to the drift decision allows for
 *    correlated fit points (batch means, hm__sync_fit_pair in learn.c);
 *  - drift auto's extension (sync.h): while a client's fit cannot resolve
 *    params->drift_resolution_ppm, the root serves every client more
 *    rounds, as many as the neediest fit wants. */
#include <math.h>
#include <stdlib.h>

#include <harmonia/agree.h>

#include "common/idle.h"
#include "sync/sync_impl.h"

/* Tag of the turn token: ASCII "JK". */
enum { TAG_TURN = 0x4a4b };

/* One run: the root holds pairs[i - 1] for client i, a client holds its own
 * pair in pairs[0] and its fit points in x (timestamps) and y (offsets). */
typedef struct jk {
    MPI_Comm comm;
    hm_clock_t *clock;
    const hm_sync_params_t *params;
    int me, size, npairs;
    hm_offset_pair_t **pairs;
    double *x, *y;
    int n; /* fit points taken */
} jk_t;

/* Room for n fit points on a client. */
static int grow(jk_t *j, int n)
{
    return hm__sync_grow_points(&j->x, &j->y, n);
}

/* Pairs created once, so that Mean-RTT's RTT is measured once per pair, and
 * the client's fit points: every allocation before the first ping-pong. */
static int prepare(jk_t *j)
{
    j->npairs = j->me == 0 ? j->size - 1 : 1;
    j->pairs = calloc((size_t)(j->npairs > 0 ? j->npairs : 1), sizeof *j->pairs);
    if (!j->pairs) return hm__error_nomem(__func__);
    for (int k = 0; k < j->npairs; k++) {
        int client = j->me == 0 ? k + 1 : j->me;
        int rc = hm_offset_pair_create(j->comm, 0, client, j->params->offset, j->params->exchanges,
                                       &j->pairs[k]);
        if (rc != HM_OK) return rc;
    }
    return j->me == 0 ? HM_OK : grow(j, j->params->fitpoints);
}

static void release(jk_t *j, hm__sync_stats_t *stats)
{
    for (int k = 0; j->pairs && k < j->npairs; k++) {
        if (j->pairs[k]) hm__sync_tally_pair(stats, j->pairs[k]);
        hm_offset_pair_free(j->pairs[k]);
    }
    free(j->pairs);
    free(j->x);
    free(j->y);
}

/* Alg. 15 lines 10-15 for one fit point: the root serves each client in
 * turn (its readings answer the client's pings inside the offset layer). */
static int serve_round(jk_t *j)
{
    for (int k = 0; k < j->npairs; k++) {
        if (j->size > 2 && MPI_Send(NULL, 0, MPI_BYTE, k + 1, TAG_TURN, j->comm) != MPI_SUCCESS)
            return hm__error_mpi(__func__, "MPI_Send");
        int rc = hm_offset_measure(j->pairs[k], j->clock, NULL);
        if (rc != HM_OK) return rc;
    }
    return HM_OK;
}

/* Alg. 15 lines 18-27 for one fit point on a client: its turn, then one
 * offset measurement (client - root at the client's timestamp). */
static int measure_turn(jk_t *j, hm_offset_sample_t *s)
{
    if (j->size > 2 && hm__idle_wait_token(j->comm, 0, TAG_TURN) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Irecv");
    return hm_offset_measure(j->pairs[0], j->clock, s);
}

/* Learn_Model's rounds (lines 10 and 17) up to fit point to; before the
 * first, lines 32-35 (one untimed round: warm-up, RTTs). */
static int learn(jk_t *j, int to)
{
    for (int idx = j->n ? j->n : -1; idx < to; idx++) {
        hm_offset_sample_t s = {0};
        int rc = j->me == 0 ? serve_round(j) : measure_turn(j, &s);
        if (rc != HM_OK) return rc;
        if (j->me != 0 && idx >= 0) j->x[idx] = s.timestamp_s, j->y[idx] = s.offset_s;
        const hm_progress_t *pr = &j->params->progress;
        if (pr->fn && j->me == 0 && idx >= 0 &&
            ((idx + 1) % HM_SYNC_PROGRESS_POINTS == 0 || idx + 1 == to))
            pr->fn(pr->arg, idx + 1, to);
    }
    j->n = to;
    return HM_OK;
}

/* Line 28 (Linear_Fit) and the drift decision, shared with the other
 * drift-aware algorithms. */
static hm__sync_pair_model_t fit(const jk_t *j)
{
    return hm__sync_fit_pair(j->params, j->x, j->y, j->n);
}

/* Drift auto's extension (sync.h): the most fit points a client's fit
 * wants more, for every client, since the root serves them in rounds; a
 * client that cannot grow its arrays wants none. */
static int more_rounds(jk_t *j, int *more)
{
    int mine = 0;
    *more = 0;
    if (j->params->drift != HM_DRIFT_AUTO || !(j->params->drift_resolution_ppm > 0)) return HM_OK;
    if (j->me != 0) {
        hm__sync_pair_model_t m = fit(j);
        mine = hm__sync_fit_more(j->params, &m, j->n);
    }
    if (MPI_Allreduce(&mine, more, 1, MPI_INT, MPI_MAX, j->comm) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Allreduce");
    if (*more > 0 && j->me != 0) return grow(j, j->n + *more); /* HM_OK or HM_ENOMEM */
    return HM_OK;
}

/* The rounds of fitpoints, then the extensions all clients take part in. */
static int learn_all(jk_t *j)
{
    int more = 0, rc = learn(j, j->params->fitpoints);
    while (rc == HM_OK && (rc = hm_agree(j->comm, more_rounds(j, &more))) == HM_OK && more > 0)
        rc = learn(j, j->n + more);
    return rc;
}

/* Alg. 16 as a clock: the fitted model over base on a client, base itself
 * on the root. */
static int build_clock(jk_t *j, hm_clock_t **clock, hm__sync_pair_model_t *model)
{
    if (j->me == 0) {
        hm_clock_retain(*clock = j->clock);
        return HM_OK;
    }
    *model = fit(j);
    return hm_clock_model(j->clock, model->kind, model->lm, clock);
}

int hm__sync_jk(MPI_Comm comm, hm_clock_t *base, const hm_sync_params_t *params, hm_clock_t **out,
                hm__sync_stats_t *stats)
{
    jk_t j = {.comm = comm, .clock = base, .params = params};
    int bad = hm__sync_enter(comm, base, params, out, __func__, 2, &j.me, &j.size);
    if (bad != HM_OK) return bad;
    hm_clock_t *clock = NULL;
    hm__sync_pair_model_t model = {.kind = HM_CLOCK_IDENTITY};
    int rc = hm_agree(comm, prepare(&j));
    if (rc == HM_OK) rc = learn_all(&j);
    if (rc == HM_OK) rc = build_clock(&j, &clock, &model);
    rc = hm_agree(comm, rc);
    release(&j, stats);
    if (rc != HM_OK) {
        hm_clock_free(clock);
        return rc;
    }
    if (j.me != 0) hm__sync_drift_record(stats, &model, params);
    *out = clock;
    return HM_OK;
}
