/* src/timer/synthetic.c — the synthetic clock of the test bed: a real source
 * seen through a per-rank offset, drift and Gaussian jitter. Since all ranks
 * on one machine read the same real clock, the truth is known and every
 * synchronization algorithm can be checked against it. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "timer/timer_impl.h"

/* Largest accepted bounds: an offset of a day and a drift of 1% are far
 * beyond any real clock; larger values only lose double precision. */
#define SYNTH_MAX_OFFSET_S 86400.0
#define SYNTH_MAX_DRIFT    1e-2
#define SYNTH_MAX_JITTER_S 1.0

static int parse_value(const char *key, const char *text, double max, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno || !isfinite(v))
        return hm__error_set(HM_EINVAL, "%s=\"%s\" is not a number (accepted: 0 to %g)", key, text,
                             max);
    if (v < 0 || v > max)
        return hm__error_set(HM_EINVAL, "%s=%s is outside [0, %g]", key, text, max);
    *out = v;
    return HM_OK;
}

static int parse_pair(char *item, hm_synthetic_spec_t *spec)
{
    char *eq = strchr(item, '=');
    if (!eq) return hm__error_set(HM_EINVAL, "\"%s\" is not key=value", item);
    *eq = '\0';
    const char *value = eq + 1;
    if (strcmp(item, "offset") == 0)
        return parse_value(item, value, SYNTH_MAX_OFFSET_S, &spec->offset_s);
    if (strcmp(item, "drift") == 0) return parse_value(item, value, SYNTH_MAX_DRIFT, &spec->drift);
    if (strcmp(item, "jitter") == 0)
        return parse_value(item, value, SYNTH_MAX_JITTER_S, &spec->jitter_s);
    return hm__error_set(HM_EINVAL, "unknown key \"%s\" (known: offset, drift, jitter)", item);
}

int hm_timer_parse_synthetic(const char *text, hm_synthetic_spec_t *spec)
{
    char buf[256];
    int rc = HM_OK;
    if (!spec) return hm__error_null(__func__, "spec");
    memset(spec, 0, sizeof *spec);
    if (!text || !*text) return hm__error_set(HM_EINVAL, "empty specification");
    if (strlen(text) >= sizeof buf)
        return hm__error_set(HM_EINVAL, "specification longer than %zu characters", sizeof buf - 1);
    strcpy(buf, text);
    /* An empty item is a typo (offset=1,,drift=1e-4), as in every list of
     * the command line; a later key replaces an earlier one. */
    for (char *item = buf, *next; item && rc == HM_OK; item = next) {
        next = strchr(item, ',');
        if (next) *next++ = '\0';
        rc = *item ? parse_pair(item, spec)
                   : hm__error_set(HM_EINVAL, "an empty item in \"%s\"", text);
    }
    return rc;
}

/* Draws depend on (seed, domain) only: rerunning with the recorded seed gives
 * every domain the same clock again; the jitter stream is per process. */
void hm__timer_synthetic_init(hm_timer_t *t, const hm_timer_options_t *o)
{
    hm_rng_t draw;
    hm_rng_seed(&draw, o->seed, (uint64_t)o->domain);
    t->synthetic = 1;
    t->spec = o->spec;
    t->offset_s = hm_rng_symmetric(&draw, o->spec.offset_s);
    t->drift = hm_rng_symmetric(&draw, o->spec.drift);
    t->domain = o->domain;
    hm_rng_seed(&t->jitter_rng, o->seed ^ 0x6a09e667f3bcc909ULL, (uint64_t)o->rank);
}

double hm__timer_synthetic_apply(hm_timer_t *t, double truth_s)
{
    double v = truth_s * (1.0 + t->drift) + t->offset_s;
    if (t->spec.jitter_s > 0) v += t->spec.jitter_s * hm_rng_gaussian(&t->jitter_rng);
    return v;
}

int hm_timer_synthetic_draw(const hm_timer_t *t, double *offset_s, double *drift)
{
    if (!t) return hm__error_null(__func__, "timer");
    if (!t->synthetic)
        return hm__error_set(HM_EINVAL, "%s: timer \"%s\" is not synthetic", __func__,
                             t->source->name);
    if (offset_s) *offset_s = t->offset_s;
    if (drift) *drift = t->drift;
    return HM_OK;
}
