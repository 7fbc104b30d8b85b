/* src/measure/experiment.c — the set-up of a measurement from one parameter
 * struct (experiment.h): time source, global clock, process
 * synchronization, factors, result files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/agree.h>
#include <harmonia/experiment.h>
#include <harmonia/topo.h>

#include "common/comm_check.h"
#include "common/error_set.h"

struct hm_experiment {
    MPI_Comm comm;
    int rank;
    hm_timer_t *timer;
    hm_clock_t *base, *global;
    hm_sync_refiner_t *refiner; /* a refining clock_sync's ("refine"), else NULL */
    hm_sync_report_t report;
    hm_procsync_params_t procsync_params; /* fitted */
    hm_procsync_fit_t fit;
    hm_interference_t interference;
    hm_procsync_t *ps;
    hm_factors_t *factors;
    char *summary_path, *raw_path;
    hm_csv_t *summary, *raw;
};

void hm_experiment_params_default(hm_experiment_params_t *p)
{
    if (!p) {
        hm__error_null(__func__, "params");
        return;
    }
    memset(p, 0, sizeof *p);
    p->timer = "monotonic";
    p->clock_sync = "hca3";
    hm_sync_params_default(&p->sync);
    p->procsync = "harmonize";
    hm_procsync_params_default(&p->procsync_params);
    p->interference_probe_s = HM_INTERFERENCE_PROBE_S;
    p->seed = 1;
}

/* Every rank returns the status of the lowest failing rank, and that
 * rank's sentence becomes every rank's last error: the one rank that prints
 * says what went wrong wherever it went wrong. A failure that left no
 * sentence is told by its code's text. */
static int agree(MPI_Comm comm, int status)
{
    const char *bare = status != HM_OK && !hm_last_error()[0] ? hm_strerror(status) : NULL;
    return hm_agree_with(comm, status, bare);
}

static int open_timer(hm_experiment_t *e, const hm_experiment_params_t *p)
{
    hm_timer_options_t o = p->timer_options;
    o.rank = e->rank;
    /* Only a synthetic clock reads its domain: a real one is spared the splits. */
    o.domain = e->rank;
    int rc = HM_OK;
    if (o.synthetic)
        rc = agree(e->comm, hm_topo_clock_domain(e->comm, p->sync.ranks_per_node, &o.domain));
    if (rc == HM_OK) rc = agree(e->comm, hm_timer_create(p->timer, &o, &e->timer));
    if (rc == HM_OK) rc = agree(e->comm, hm_timer_agree_origin(e->timer, e->comm));
    if (rc == HM_OK) rc = agree(e->comm, hm_clock_identity(e->timer, &e->base));
    return rc;
}

static int sync_clocks(hm_experiment_t *e, const hm_experiment_params_t *p)
{
    if (p->clock_sync && strchr(p->clock_sync, ','))
        return hm__error_set(HM_EINVAL,
                             "\"%s\" is a list; one specification is needed "
                             "(e.g. hca3 or hca3+prop)",
                             p->clock_sync);
    /* hm_sync_run agrees on its outcome and its sentence itself. A refiner
     * is kept: the procsync handles refine its clock between chunks. */
    return hm_sync_run_refining(e->comm, p->clock_sync, &p->sync, e->base, &e->global, &e->report,
                                &e->refiner);
}

/* Once, before any process synchronization exists: with more ranks than
 * processors the late-start tolerance is measured on this machine (see
 * hm_procsync_fit); hm_procsync_fit agrees on its outcome itself. */
static int fit_procsync(hm_experiment_t *e, const hm_experiment_params_t *p)
{
    e->procsync_params = p->procsync_params;
    e->procsync_params.harmonize.clock_sync = p->clock_sync;
    e->procsync_params.harmonize.sync = p->sync;
    e->procsync_params.refiner = e->refiner;
    return hm_procsync_fit(e->comm, e->global, p->late_given, &e->interference, &e->procsync_params,
                           &e->fit);
}

static int create_procsync(hm_experiment_t *e, const hm_experiment_params_t *p)
{
    if (!p->procsync) return HM_OK;
    return agree(e->comm,
                 hm_procsync_create(p->procsync, e->comm, e->global, &e->procsync_params, &e->ps));
}

/* The union of what the specs of a comma-separated list read (the clock
 * command compares several). */
static unsigned list_reads(const char *list)
{
    unsigned reads = 0;
    char spec[128];
    for (const char *c = list; *c;) {
        size_t len = strcspn(c, ",");
        snprintf(spec, sizeof spec, "%.*s", (int)(len < sizeof spec ? len : sizeof spec - 1), c);
        reads |= hm_sync_spec_reads(spec);
        c += len + (c[len] == ',');
    }
    return reads;
}

/* Only the parameters some algorithm of clock_sync reads: skampi has no
 * fit points, offset algorithm or drift, prop reads nothing, the virtual
 * topology shapes a spec of two levels or more (hm_sync_spec_reads). */
int hm_experiment_clock_factors(hm_factors_t *f, const char *clock_sync,
                                const hm_sync_params_t *sync, int synthetic)
{
    if (!f) return hm__error_null(__func__, "factors");
    if (!sync) return hm__error_null(__func__, "sync");
    const char *specs = clock_sync ? clock_sync : "";
    unsigned reads = list_reads(specs);
    char test[256];
    int rc = hm_factors_set(f, "clock_sync", "%s", specs);
    if (rc == HM_OK && (reads & HM_SYNC_PARAM_FITPOINTS))
        rc = hm_factors_set(f, "fitpoints", "%d", sync->fitpoints);
    if (rc == HM_OK && (reads & HM_SYNC_PARAM_EXCHANGES))
        rc = hm_factors_set(f, "exchanges", "%d", sync->exchanges);
    if (rc == HM_OK && (reads & HM_SYNC_PARAM_OFFSET))
        rc = hm_factors_set(f, "offset", "%s", hm_offset_name(sync->offset));
    if (rc == HM_OK && (reads & HM_SYNC_PARAM_DRIFT))
        rc = hm_factors_set(f, "drift", "%s", hm_sync_drift_name(sync->drift));
    if (rc == HM_OK && (reads & HM_SYNC_PARAM_DRIFT)) {
        hm_sync_drift_test_describe(sync, test, sizeof test);
        rc = hm_factors_set(f, "drift_test", "%s", test);
    }
    if (rc == HM_OK && (reads & HM_SYNC_PARAM_RECOMPUTE_INTERCEPT))
        rc = hm_factors_set(f, "recompute_intercept", "%s",
                            sync->recompute_intercept ? "on" : "off");
    /* The synthetic parameters are in the timer factor. */
    if (rc == HM_OK) rc = hm_factors_set(f, "synthetic_clock", "%s", synthetic ? "yes" : "none");
    if (rc == HM_OK && (reads & HM_SYNC_PARAM_TOPOLOGY))
        rc = hm_factors_set(f, "ranks_per_node", "%d", sync->ranks_per_node);
    if (rc == HM_OK && (reads & HM_SYNC_PARAM_TOPOLOGY))
        rc = hm_factors_set(f, "ranks_per_socket", "%d", sync->ranks_per_socket);
    return rc;
}

int hm_experiment_fit_factors(hm_factors_t *f, const hm_procsync_fit_t *fit,
                              const hm_procsync_params_t *pp)
{
    const char *null = !f ? "factors" : !fit ? "fit" : !pp ? "params" : NULL;
    if (null) return hm__error_null(__func__, null);
    int rc = hm_factors_set(f, "late_us", "%g", pp->late_s * 1e6);
    if (rc == HM_OK && fit->derived)
        rc = hm_factors_set(f, "late_us_source",
                            "derived (%g x p%g of the slowest rank's start lateness %.9g us over "
                            "%ld deadlines; plus %g x the repetition's run-time; at most max(1 "
                            "us, %g x the run-time); %s)",
                            fit->factor, fit->quantile * 100, fit->lateness_s * 1e6, fit->waits,
                            fit->late_run_factor, fit->late_cap_fraction,
                            fit->oversubscribed && fit->busy ? "oversubscribed, busy machine"
                            : fit->oversubscribed            ? "oversubscribed"
                                                             : "busy machine");
    else if (rc == HM_OK)
        rc = hm_factors_set(f, "late_us_source", "%s", fit->late_given ? "given" : "default");
    if (rc == HM_OK)
        rc = hm_factors_set(f, "oversubscribed", "%s (%d rank%s, %d processor%s)",
                            fit->oversubscribed ? "yes" : "no", fit->ranks,
                            fit->ranks == 1 ? "" : "s", fit->processors,
                            fit->processors == 1 ? "" : "s");
    return rc;
}

/* 1 when some method of the comma-separated list reads param. */
static int some_method_reads(const char *methods, hm_procsync_param_t param)
{
    char name[64];
    for (const char *m = methods; m && *m;) {
        size_t n = strcspn(m, ",");
        snprintf(name, sizeof name, "%.*s", (int)n, m);
        if (hm_procsync_reads(name, param)) return 1;
        m += n + (m[n] == ',');
    }
    return 0;
}

int hm_experiment_procsync_factors(hm_factors_t *f, const char *methods,
                                   const hm_procsync_params_t *pp)
{
    if (!f) return hm__error_null(__func__, "factors");
    if (!pp) return hm__error_null(__func__, "params");
    int rc = hm_factors_set(f, "sync", "%s", methods ? methods : "none");
    if (rc == HM_OK && some_method_reads(methods, HM_PROCSYNC_PARAM_CHECK_EVERY))
        rc = hm_factors_set(f, "check_every", "%d", pp->check_every);
    if (rc == HM_OK && some_method_reads(methods, HM_PROCSYNC_PARAM_WINDOW))
        rc = pp->window_s > 0 ? hm_factors_set(f, "window_us", "%g", pp->window_s * 1e6)
                              : hm_factors_set(f, "window_us", "adaptive");
    if (rc == HM_OK && some_method_reads(methods, HM_PROCSYNC_PARAM_SLICE))
        rc = hm_factors_set(f, "slice_s", "%g", pp->slice_s);
    if (rc == HM_OK && some_method_reads(methods, HM_PROCSYNC_PARAM_BCAST_FACTOR))
        rc = hm_factors_set(f, "roundtime_bcast_factor", "%g", pp->bcast_factor);
    if (rc == HM_OK && some_method_reads(methods, HM_PROCSYNC_PARAM_MIN_LEAD))
        rc = hm_factors_set(f, "roundtime_min_lead_us", "%g", pp->min_lead_s * 1e6);
    if (rc == HM_OK && some_method_reads(methods, HM_PROCSYNC_PARAM_RESYNC))
        rc = hm_factors_set(f, "resync_s", "%g", pp->harmonize.resync_s);
    return rc;
}

static int procsync_factors(hm_factors_t *f, const hm_experiment_t *e,
                            const hm_experiment_params_t *p)
{
    int rc = hm_experiment_procsync_factors(f, p->procsync, &e->procsync_params);
    if (rc == HM_OK) rc = hm_experiment_fit_factors(f, &e->fit, &e->procsync_params);
    return rc;
}

static int collect_factors(hm_experiment_t *e, const hm_experiment_params_t *p)
{
    char desc[256], interference[HM_INTERFERENCE_TEXT_MAX];
    hm_timer_describe(e->timer, desc, sizeof desc);
    hm_interference_describe(&e->interference, interference, sizeof interference);
    hm_factors_context_t ctx = {.argc = p->argc,
                                .argv = p->argv,
                                .timer = desc,
                                .timer_resolution_s = hm_timer_measured_resolution(e->timer),
                                .timer_nominal_resolution_s = hm_timer_nominal_resolution(e->timer),
                                .seed_set = 1,
                                .seed = p->seed,
                                .interference = interference};
    int rc = hm_factors_create(&e->factors);
    if (rc == HM_OK) rc = hm_factors_collect(e->factors, e->comm, &ctx);
    if (rc == HM_OK)
        rc = hm_experiment_clock_factors(e->factors, p->clock_sync, &p->sync,
                                         p->timer_options.synthetic);
    if (rc == HM_OK)
        rc = hm_factors_set(e->factors, "clock_sync_duration_s", "%.9g", e->report.duration_s);
    if (rc == HM_OK) {
        /* What the drift test decided, per level: the clock the run rests on. */
        char models[256];
        hm_sync_report_models(&e->report, models, sizeof models);
        rc = hm_factors_set(e->factors, "clock_models", "%s", models);
    }
    if (rc == HM_OK) rc = procsync_factors(e->factors, e, p);
    return agree(e->comm, rc);
}

static int copy_path(char **dst, const char *src)
{
    if (!src || !*src) return HM_OK;
    return (*dst = strdup(src)) ? HM_OK : hm__error_nomem(__func__);
}

static void release(hm_experiment_t *e)
{
    hm_csv_abort(e->summary);
    hm_csv_abort(e->raw);
    hm_factors_free(e->factors);
    hm_procsync_free(e->ps);
    hm_clock_free(e->global);
    hm_sync_refiner_free(e->refiner);
    hm_clock_free(e->base);
    hm_timer_free(e->timer);
    free(e->summary_path);
    free(e->raw_path);
    free(e);
}

int hm_experiment_open(MPI_Comm comm, const hm_experiment_params_t *p, hm_experiment_t **out,
                       hm_experiment_stage_t *failed)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    if (!out) return hm__error_null(__func__, "out");
    *out = NULL;
    if (!p) return hm__error_null(__func__, "params");
    hm_experiment_stage_t stage = HM_EXPERIMENT_TIMER;
    hm_experiment_t *e = calloc(1, sizeof *e);
    int rc = e ? HM_OK : hm__error_nomem(__func__);
    if (rc == HM_OK) {
        e->comm = comm;
        MPI_Comm_rank(comm, &e->rank);
        rc = copy_path(&e->summary_path, p->summary_path);
        if (rc == HM_OK) rc = copy_path(&e->raw_path, p->raw_path);
    }
    rc = agree(comm, rc);
    /* Before anything else spins or waits: what other work takes from the
     * ranks decides the tolerances (fit_procsync) and goes into the factors. */
    if (rc == HM_OK)
        rc = agree(comm, hm_interference_measure(comm, p->interference_probe_s, &e->interference));
    if (rc == HM_OK) rc = open_timer(e, p);
    if (rc == HM_OK) stage = HM_EXPERIMENT_CLOCK, rc = sync_clocks(e, p);
    if (rc == HM_OK) stage = HM_EXPERIMENT_PROCSYNC, rc = fit_procsync(e, p);
    if (rc == HM_OK) rc = create_procsync(e, p);
    if (rc == HM_OK) stage = HM_EXPERIMENT_FACTORS, rc = collect_factors(e, p);
    if (failed) *failed = rc == HM_OK ? HM_EXPERIMENT_OK : stage;
    if (rc != HM_OK && e) release(e), e = NULL;
    *out = e;
    return rc;
}

hm_timer_t *hm_experiment_timer(const hm_experiment_t *e)
{
    if (!e) return hm__error_null(__func__, "e"), NULL;
    return e->timer;
}

hm_clock_t *hm_experiment_global_clock(const hm_experiment_t *e)
{
    if (!e) return hm__error_null(__func__, "e"), NULL;
    return e->global; /* the first of a refiner's clocks: handles adopt its newest */
}

hm_procsync_t *hm_experiment_procsync(const hm_experiment_t *e)
{
    if (!e) return hm__error_null(__func__, "e"), NULL;
    return e->ps;
}

const hm_procsync_fit_t *hm_experiment_fit(const hm_experiment_t *e)
{
    if (!e) return hm__error_null(__func__, "e"), NULL;
    return &e->fit;
}

const hm_interference_t *hm_experiment_interference(const hm_experiment_t *e)
{
    if (!e) return hm__error_null(__func__, "e"), NULL;
    return &e->interference;
}

void hm_experiment_measure_params(const hm_experiment_t *e, hm_measure_params_t *params)
{
    if (!e || !params) {
        hm__error_null(__func__, !e ? "e" : "params");
        return;
    }
    hm_measure_params_default(params);
    if (e->fit.busy || e->fit.oversubscribed) params->budget_factor = HM_MEASURE_BUDGET_FACTOR;
}

const hm_procsync_params_t *hm_experiment_procsync_params(const hm_experiment_t *e)
{
    if (!e) return hm__error_null(__func__, "e"), NULL;
    return &e->procsync_params;
}

const hm_sync_report_t *hm_experiment_sync_report(const hm_experiment_t *e)
{
    if (!e) return hm__error_null(__func__, "e"), NULL;
    return &e->report;
}

hm_factors_t *hm_experiment_factors(hm_experiment_t *e)
{
    if (!e) return hm__error_null(__func__, "e"), NULL;
    return e->factors;
}

hm_csv_t *hm_experiment_summary(const hm_experiment_t *e)
{
    if (!e) return hm__error_null(__func__, "e"), NULL;
    return e->summary;
}

hm_csv_t *hm_experiment_raw(const hm_experiment_t *e)
{
    if (!e) return hm__error_null(__func__, "e"), NULL;
    return e->raw;
}

int hm_experiment_files_open(hm_experiment_t *e, const char *const *summary_columns,
                             size_t nsummary, const char *const *raw_columns, size_t nraw)
{
    if (!e) return hm__error_null(__func__, "e");
    /* No columns are needed for a file that is not opened. */
    if (!summary_columns && nsummary > 0) return hm__error_null(__func__, "summary_columns");
    if (!raw_columns && nraw > 0) return hm__error_null(__func__, "raw_columns");
    int rc = HM_OK;
    if (e->rank == 0 && e->summary_path && nsummary > 0)
        rc = hm_csv_open(e->summary_path, e->factors, summary_columns, nsummary, &e->summary);
    if (rc == HM_OK && e->rank == 0 && e->raw_path && nraw > 0)
        rc = hm_csv_open(e->raw_path, e->factors, raw_columns, nraw, &e->raw);
    return agree(e->comm, rc);
}

int hm_experiment_close(hm_experiment_t *e)
{
    if (!e) return HM_OK;
    int rc = agree(e->comm, e->rank == 0 ? hm_csv_close_pair(&e->summary, &e->raw) : HM_OK);
    release(e);
    return rc;
}
