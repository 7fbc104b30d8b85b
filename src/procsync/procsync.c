/* src/procsync/procsync.c — one interface over the methods of --sync: checks,
 * set-up with agreement, dispatch, and the late-start check that every
 * method with a deadline shares. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "common/comm_check.h"
#include "common/error_set.h"
#include "common/idle.h"
#include "procsync/procsync_impl.h"
#include <harmonia/testing.h>

void hm_procsync_params_default(hm_procsync_params_t *params)
{
    if (!params) {
        hm__error_null(__func__, "params");
        return;
    }
    *params = (hm_procsync_params_t){.late_s = 1e-6,
                                     .window_s = 0.0,
                                     .slice_s = 0.0,
                                     .bcast_factor = 3.0,
                                     .min_lead_s = 0.0,
                                     .late_run_factor = 0.0,
                                     .late_cap_fraction = 0.0,
                                     .check_every = 16};
    hm_harmonize_options_default(&params->harmonize);
}

static int say(int rc, const char *what, double value, const char *accepted)
{
    return hm__error_set(rc, "%s %g %s", what, value, accepted);
}

/* The sentences name the option as the command line spells it. NaN fails
 * every comparison, so each test is written to reject it. */
static int check_params(const hm_procsync_params_t *p)
{
    if (p->check_every < 1)
        return say(HM_EINVAL, "--check-every", p->check_every, "must be at least 1");
    if (!(p->late_s >= 0))
        return say(HM_EINVAL, "--late", p->late_s, "must be at least 0 (seconds)");
    if (!(p->window_s >= 0 && isfinite(p->window_s)))
        return say(HM_EINVAL, "--window", p->window_s,
                   "must be a finite number of seconds, at least 0 (0 = adaptive)");
    if (!(p->slice_s >= 0 && isfinite(p->slice_s)))
        return say(HM_EINVAL, "--slice", p->slice_s,
                   "must be a finite number of seconds, at least 0 (0 = no time slice)");
    if (!(p->bcast_factor >= 1 && isfinite(p->bcast_factor)))
        return say(HM_EINVAL, "--bcast-factor", p->bcast_factor,
                   "must be a finite number, at least 1");
    if (!(p->min_lead_s >= 0 && isfinite(p->min_lead_s)))
        return say(HM_EINVAL, "min_lead_s", p->min_lead_s,
                   "must be a finite number of seconds, at least 0");
    if (!(p->late_run_factor >= 0 && isfinite(p->late_run_factor)))
        return say(HM_EINVAL, "late_run_factor", p->late_run_factor,
                   "must be a finite number, at least 0");
    if (!(p->late_cap_fraction >= 0 && isfinite(p->late_cap_fraction)))
        return say(HM_EINVAL, "late_cap_fraction", p->late_cap_fraction,
                   "must be a finite number, at least 0");
    return HM_OK;
}

int hm_procsync_check(const char *method, const hm_procsync_params_t *params)
{
    if (!hm__procsync_find(method)) {
        char known[128];
        hm_procsync_names(known, sizeof known);
        return hm__error_set(HM_ENOENT, "unknown method \"%s\" (known: %s)", method ? method : "",
                             known);
    }
    if (!params) return HM_OK;
    return check_params(params);
}

/* Every rank returns the worst (most negative) status of any rank, so no
 * rank goes on into a collective that another has abandoned, and takes the
 * last error of the lowest rank with that status as its own. */
static int agree(MPI_Comm comm, int rc)
{
    struct {
        int rc, rank;
    } mine = {rc, 0}, worst;
    char sentence[HM_ERROR_MAX];
    if (MPI_Comm_rank(comm, &mine.rank) != MPI_SUCCESS ||
        MPI_Allreduce(&mine, &worst, 1, MPI_2INT, MPI_MINLOC, comm) != MPI_SUCCESS)
        return hm__error_set(HM_EMPI, "the ranks could not agree on the set-up");
    if (worst.rc == HM_OK) return HM_OK;
    if (mine.rank == worst.rank) snprintf(sentence, sizeof sentence, "%s", hm_last_error());
    if (MPI_Bcast(sentence, (int)sizeof sentence, MPI_CHAR, worst.rank, comm) != MPI_SUCCESS)
        return hm__error_set(HM_EMPI, "the ranks could not agree on the set-up");
    return hm__error_set(worst.rc, "%s", sentence);
}

/* Linux lets a nanosleep end up to the thread's timer slack (50 us by
 * default) after the requested time: median overshoot 74 us on the test
 * machine, 23 us with the slack at 1 ns, and a tail beyond the 50 us spin
 * that made one chunk in ten of a 425 us window start late. The methods
 * therefore set this thread's slack to 1 us (as hm_harmonize does) and spin
 * HM_PROCSYNC_SPIN_S plus whatever slack remains (another library may set
 * it back). */
double hm__procsync_spin_setup(void)
{
    double slack_s = 0.0;
#ifdef PR_GET_TIMERSLACK
    prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
    int ns = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    if (ns > 0) slack_s = ns * 1e-9;
#endif
    return HM_PROCSYNC_SPIN_S + slack_s;
}

static void release(hm_procsync_t *ps)
{
    if (ps->method->release) ps->method->release(ps);
    if (ps->comm != MPI_COMM_NULL) MPI_Comm_free(&ps->comm);
    hm_clock_free(ps->global);
    free(ps);
}

/* The method's own set-up over the private duplicate, agreed. */
static int setup(hm_procsync_t *ps, MPI_Comm comm)
{
    if (MPI_Comm_dup(comm, &ps->comm) != MPI_SUCCESS) {
        ps->comm = MPI_COMM_NULL;
        return hm__error_set(HM_EMPI, "the communicator could not be duplicated");
    }
    if (MPI_Comm_rank(ps->comm, &ps->rank) != MPI_SUCCESS ||
        MPI_Comm_size(ps->comm, &ps->size) != MPI_SUCCESS)
        return hm__error_set(HM_EMPI, "the communicator is not usable");
    hm__error_clear(); /* a method may fail without a sentence */
    int rc = ps->method->create ? ps->method->create(ps) : HM_OK;
    if (rc != HM_OK && !hm_last_error()[0])
        hm__error_set(rc, "the set-up failed on rank %d: %s", ps->rank, hm_strerror(rc));
    return agree(ps->comm, rc);
}

int hm_procsync_create(const char *method, MPI_Comm comm, hm_clock_t *global,
                       const hm_procsync_params_t *params, hm_procsync_t **out)
{
    if (!out) return hm__error_null(__func__, "out");
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    hm_procsync_params_t defaults;
    *out = NULL;
    if (!params) {
        hm_procsync_params_default(&defaults);
        params = &defaults;
    }
    int rc = hm_procsync_check(method, params);
    if (rc != HM_OK) return rc;
    if (!global) return hm__error_set(HM_EINVAL, "--sync %s: no global clock given", method);
    hm_procsync_t *ps = calloc(1, sizeof *ps);
    if (!ps) hm__error_set(HM_ENOMEM, "the handle could not be allocated");
    if ((rc = agree(comm, ps ? HM_OK : HM_ENOMEM)) != HM_OK) {
        free(ps);
        return rc;
    }
    ps->method = hm__procsync_find(method);
    ps->comm = MPI_COMM_NULL;
    ps->params = *params;
    ps->deadline_s = NAN;
    ps->spin_s = hm__procsync_spin_setup();
    ps->yield = hm_procsync_oversubscribed(comm);
    hm_clock_retain(global);
    ps->global = global;
    if ((rc = setup(ps, comm)) != HM_OK) {
        release(ps);
        return rc;
    }
    *out = ps;
    return HM_OK;
}

void hm_procsync_free(hm_procsync_t *ps)
{
    if (ps) release(ps);
}

/* A NULL handle: the sentence, for the functions that return a neutral
 * value or nothing. */
static int is_null(const hm_procsync_t *ps, const char *fn)
{
    if (!ps) hm__error_null(fn, "ps");
    return !ps;
}

const char *hm_procsync_name(const hm_procsync_t *ps)
{
    return is_null(ps, __func__) ? "" : ps->method->name;
}

int hm_procsync_has_deadline(const hm_procsync_t *ps)
{
    return is_null(ps, __func__) ? 0 : ps->method->has_deadline;
}

/* The refiner's newest clock: another handle sharing the refiner (bench
 * runs one per --sync) may have refined it since this one last did. */
static void adopt_refined(hm_procsync_t *ps)
{
    hm_clock_t *newest = ps->params.refiner ? hm_sync_refiner_clock(ps->params.refiner) : NULL;
    if (!newest || newest == ps->global) return;
    hm_clock_retain(newest);
    hm_clock_free(ps->global);
    ps->global = newest;
}

int hm_procsync_begin(hm_procsync_t *ps)
{
    if (!ps) return hm__error_null(__func__, "ps");
    if (!ps->method->clock) adopt_refined(ps);
    return ps->method->begin ? ps->method->begin(ps) : HM_OK;
}

/* A method with a clock of its own (harmonize) refines at its own
 * re-synchronizations. */
int hm_procsync_refine_due(const hm_procsync_t *ps)
{
    if (is_null(ps, __func__)) return 0;
    hm_sync_refiner_t *rf = ps->params.refiner;
    return rf && !ps->method->clock && hm_sync_refiner_due(rf, hm_clock_now(ps->global));
}

int hm_procsync_refine(hm_procsync_t *ps)
{
    if (!ps) return hm__error_null(__func__, "ps");
    if (!ps->params.refiner)
        return hm__error_set(HM_EINVAL, "%s: the handle was created without a refiner", __func__);
    hm_clock_t *fresh = NULL;
    int rc = hm_sync_refiner_refine(ps->params.refiner, &fresh);
    if (rc != HM_OK) return rc;
    hm_clock_free(ps->global);
    ps->global = fresh;
    return HM_OK;
}

int hm_procsync_inject_delay(hm_procsync_t *ps, double delay_s)
{
    if (!ps) return hm__error_null(__func__, "ps");
    if (!(delay_s >= 0))
        return hm__error_set(HM_EINVAL, "%s: delay_s %g is not at least 0", __func__, delay_s);
    if (ps->method->inject) return ps->method->inject(ps, delay_s);
    ps->inject_delay_s = delay_s;
    return HM_OK;
}

int hm_procsync_start(hm_procsync_t *ps, int *flag, double *deadline_s)
{
    if (!ps) return hm__error_null(__func__, "ps");
    if (!flag) return hm__error_null(__func__, "flag");
    if (!deadline_s) return hm__error_null(__func__, "deadline_s");
    *flag = 1;
    *deadline_s = NAN;
    if (ps->inject_delay_s > 0) {
        hm__idle_sleep(ps->inject_delay_s);
        ps->inject_delay_s = 0;
    }
    int rc = ps->method->start(ps, flag, deadline_s);
    ps->deadline_s = *deadline_s;
    return rc;
}

/* The late-start check uses the measured start timestamp, not the clock
 * read before the wait (Hunold & Carpen-Amarie 2016, Alg. 8 Start_Sync line 28 checks only
 * there): a preemption between the end of the wait and the timestamp moves
 * the start as much as a late arrival does. Without a deadline (NaN) the
 * comparison is false. */
/* The tolerance before the cap. */
static double uncapped_tolerance(const hm_procsync_params_t *p, double run_s)
{
    return p->late_s + (p->late_run_factor > 0 ? p->late_run_factor * run_s : 0.0);
}

double hm_procsync_late_tolerance(const hm_procsync_params_t *p, double run_s)
{
    if (!p) {
        hm__error_null(__func__, "params");
        return NAN;
    }
    double late_s = uncapped_tolerance(p, run_s);
    /* No operation between the timestamps (skew times the synchronization
     * itself): the cap has no run-time to relate the start to. */
    if (!(p->late_cap_fraction > 0) || !(run_s > 0)) return late_s;
    return fmin(late_s, fmax(HM_PROCSYNC_LATE_FLOOR_S, p->late_cap_fraction * run_s));
}

/* The run-time a start from start_s to end_s is related to: a timed
 * operation is held to its run-time over all ranks where that is longer
 * than this rank's own (hm_procsync_set_run_floor). */
static double judged_run_s(const hm_procsync_t *ps, double start_s, double end_s)
{
    double run_s = end_s - start_s;
    return run_s > 0 && ps->run_floor_s > run_s ? ps->run_floor_s : run_s;
}

double hm_procsync_stop_tolerance(const hm_procsync_t *ps, double start_s, double end_s)
{
    if (is_null(ps, __func__)) return NAN;
    if (!ps->method->has_deadline) return NAN;
    return hm_procsync_late_tolerance(&ps->params, judged_run_s(ps, start_s, end_s));
}

void hm_procsync_stop(hm_procsync_t *ps, double start_s, double end_s, int *flag)
{
    if (is_null(ps, __func__)) return;
    if (!flag) {
        hm__error_null(__func__, "flag");
        return;
    }
    double run_s = judged_run_s(ps, start_s, end_s);
    double late_s = hm_procsync_late_tolerance(&ps->params, run_s);
    if (ps->method->has_deadline && start_s > ps->deadline_s + late_s) {
        *flag = 0;
        ps->late_capped += start_s <= ps->deadline_s + uncapped_tolerance(&ps->params, run_s);
    }
    if (ps->method->stop) ps->method->stop(ps, start_s, end_s, flag);
}

void hm_procsync_set_run_floor(hm_procsync_t *ps, double run_s)
{
    if (is_null(ps, __func__)) return;
    ps->run_floor_s = run_s > 0 ? run_s : 0.0;
}

int hm__procsync_reached_in_time(const hm_procsync_t *ps, double now_s, double start_s)
{
    return now_s <= start_s + ps->params.late_s;
}

long hm_procsync_late_capped(const hm_procsync_t *ps)
{
    return is_null(ps, __func__) ? 0 : ps->late_capped;
}

hm_clock_t *hm_procsync_clock(const hm_procsync_t *ps)
{
    if (is_null(ps, __func__)) return NULL;
    return ps->method->clock ? ps->method->clock(ps) : ps->global;
}

int hm_procsync_chunk(const hm_procsync_t *ps)
{
    if (is_null(ps, __func__)) return 0;
    return ps->method->chunk ? ps->method->chunk(ps) : ps->params.check_every;
}

int hm_procsync_in_time(const hm_procsync_t *ps)
{
    if (is_null(ps, __func__)) return 0;
    return ps->method->in_time ? ps->method->in_time(ps) : 1;
}

void hm_procsync_chunk_done(hm_procsync_t *ps, int n, int nvalid, double busy_s)
{
    if (is_null(ps, __func__)) return;
    if (ps->method->chunk_done) ps->method->chunk_done(ps, n, nvalid, busy_s);
}

double hm_procsync_window(const hm_procsync_t *ps)
{
    if (is_null(ps, __func__)) return NAN;
    return ps->method->window ? ps->method->window(ps) : NAN;
}

void hm_procsync_describe(const hm_procsync_t *ps, char *buf, size_t len)
{
    if (!buf) {
        hm__error_null(__func__, "buf");
        return;
    }
    if (len == 0) return;
    buf[0] = '\0';
    if (is_null(ps, __func__)) return;
    if (ps->method->describe) ps->method->describe(ps, buf, len);
}
