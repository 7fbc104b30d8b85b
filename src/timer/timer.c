/* src/timer/timer.c — creating and reading timers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/comm_check.h"
#include "timer/timer_impl.h"

int hm_timer_create(const char *name, const hm_timer_options_t *opts, hm_timer_t **out)
{
    char known[256];
    if (!out) return hm__error_null(__func__, "out");
    const hm__timer_source_t *src = hm__timer_find_source(name);
    *out = NULL;
    if (!src) {
        hm_timer_names(known, sizeof known);
        return hm__error_set(HM_ENOENT, "unknown time source \"%s\" (known: %s)", name ? name : "",
                             known);
    }
    hm_timer_t *t = calloc(1, sizeof *t);
    if (!t) return hm__error_set(HM_ENOMEM, "cannot allocate a timer");
    t->source = src;
    int rc = src->open(t, opts);
    if (rc != HM_OK) {
        free(t);
        return rc;
    }
    t->origin = src->origin_now(t);
    if (opts && opts->synthetic) hm__timer_synthetic_init(t, opts);
    *out = t;
    return HM_OK;
}

void hm_timer_free(hm_timer_t *timer)
{
    free(timer);
}

double hm_timer_now(hm_timer_t *t)
{
    if (!t) {
        hm__error_null(__func__, "timer");
        return NAN;
    }
    double v = t->source->read(t);
    return t->synthetic ? hm__timer_synthetic_apply(t, v) : v;
}

double hm_timer_now_truth(hm_timer_t *t, double *truth_s)
{
    if (!t || !truth_s) {
        hm__error_null(__func__, t ? "truth_s" : "timer");
        return NAN;
    }
    double v = t->source->read(t);
    *truth_s = v;
    return t->synthetic ? hm__timer_synthetic_apply(t, v) : v;
}

int hm_timer_agree_origin(hm_timer_t *t, MPI_Comm comm)
{
    if (!t) return hm__error_null(__func__, "timer");
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    int64_t origin = t->origin;
    int rc = hm__mpi_status(MPI_Bcast(&origin, 1, MPI_INT64_T, 0, comm), __func__, "MPI_Bcast");
    if (rc != HM_OK) return rc;
    t->origin = origin;
    return HM_OK;
}

const char *hm_timer_name(const hm_timer_t *t)
{
    if (!t) {
        hm__error_null(__func__, "timer");
        return "";
    }
    return t->source->name;
}

int hm_timer_is_monotonic(const hm_timer_t *t)
{
    if (!t) {
        hm__error_null(__func__, "timer");
        return 0;
    }
    return t->source->monotonic && !(t->synthetic && t->spec.jitter_s > 0);
}

double hm_timer_nominal_resolution(const hm_timer_t *t)
{
    if (!t) {
        hm__error_null(__func__, "timer");
        return NAN;
    }
    return t->source->nominal_resolution(t);
}

void hm_timer_describe(const hm_timer_t *t, char *buf, size_t len)
{
    if (!t || !buf) {
        hm__error_null(__func__, t ? "buf" : "timer");
        return;
    }
    int k = snprintf(buf, len, "%s", t->source->name);
    if (k < 0 || (size_t)k >= len) return;
    if (t->detail[0]) k += snprintf(buf + k, len - (size_t)k, " (%s)", t->detail);
    if (k < 0 || (size_t)k >= len) return;
    if (t->synthetic)
        snprintf(buf + k, len - (size_t)k, " synthetic offset=%g,drift=%g,jitter=%g",
                 t->spec.offset_s, t->spec.drift, t->spec.jitter_s);
}
