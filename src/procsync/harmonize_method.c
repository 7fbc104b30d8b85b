/* src/procsync/harmonize_method.c — --sync harmonize: hm_harmonize (Schuchart et al. 2023
 * Alg. 1) before every repetition, on the private duplicate of the
 * procsync handle, so its cached state (clock, slack, counters) lives and
 * dies with the handle.
 *
 * hm_harmonize is configured with the global clock given to create, which
 * saves the first clock synchronization; after a re-synchronization (failed
 * deadline, or resync_s passed) its clock is a new one, so the timestamps of
 * a repetition are converted with hm_harmonize_clock, not with that global
 * clock. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <harmonia/testing.h>

#include "common/error_set.h"
#include "procsync/procsync_impl.h"

static int harmonize_create(hm_procsync_t *ps)
{
    hm_harmonize_options_t opts = ps->params.harmonize;
    opts.global = ps->global;
    opts.refiner = ps->params.refiner;
    opts.late_s = ps->params.late_s; /* --late-us: the late start of bench */
    int rc = hm_harmonize_configure(ps->comm, &opts);
    if (rc == HM_OK) return rc;
    return hm__error_set(rc, "--sync harmonize: cannot configure hm_harmonize: %s",
                         hm_strerror(rc));
}

static hm_clock_t *harmonize_clock(const hm_procsync_t *ps)
{
    hm_clock_t *clock = hm_harmonize_clock(ps->comm);
    return clock ? clock : ps->global;
}

/* A deadline that had passed when this rank reached it fails hm_harmonize
 * (Alg. 1 line 30: flag 0, the slack grows, the clocks are refreshed at the
 * next call), and that stays so; but the repetition is judged as window's
 * and roundtime's are (hm__procsync_reached_in_time). With ranks taking turns
 * on the cores, a rank is off its processor for a scheduler slice at some
 * deadlines whatever the slack (capped at 100 us or 100 latencies,
 * harmonize.c): under MPICH at 4 ranks on 2 cores, a pattern run given
 * --late-us 200000 kept 0 of 52 attempts of a 64 KiB exchange whose ranks
 * had come milliseconds late, well inside what it accepts. */
static int harmonize_start(hm_procsync_t *ps, int *flag, double *deadline_s)
{
    hm_harmonize_info_t before = {0}, info;
    (void)hm_harmonize_info(ps->comm, &before); /* before the first call: none missed */
    int rc = hm_harmonize(ps->comm, flag);
    if (rc != HM_OK) return rc;
    rc = hm_harmonize_info(ps->comm, &info);
    *deadline_s = rc == HM_OK ? info.deadline_s : NAN;
    if (rc != HM_OK || *flag || info.missed == before.missed) return rc;
    *flag = hm__procsync_reached_in_time(ps, hm_clock_now(harmonize_clock(ps)), info.deadline_s);
    return rc;
}

/* Inside hm_harmonize, after the deadline is known and before it is
 * checked: a missed deadline (flag 0, slack x 1.5, re-synchronization). */
static int harmonize_inject(hm_procsync_t *ps, double delay_s)
{
    return hm_harmonize_inject_delay(ps->comm, delay_s);
}

static void harmonize_describe(const hm_procsync_t *ps, char *buf, size_t len)
{
    hm_harmonize_info_t info;
    if (hm_harmonize_info(ps->comm, &info) != HM_OK) {
        snprintf(buf, len, "not called");
        return;
    }
    snprintf(buf, len, "slack=%.1fus resyncs=%ld (%.1fms) missed=%ld late_exits=%ld",
             info.slack_s * 1e6, info.resyncs, info.resync_time_s * 1e3, info.missed,
             info.late_exits);
    size_t used = strlen(buf);
    if (info.clock_errors > 0 && used < len)
        used += (size_t)snprintf(buf + used, len - used, " clock_errors=%ld", info.clock_errors);
    if (info.refresh_repeats > 0 && used < len)
        used +=
            (size_t)snprintf(buf + used, len - used, " refresh_repeats=%ld", info.refresh_repeats);
    if (info.slack_capped > 0 && used < len)
        snprintf(buf + used, len - used, " slack_capped=%ld", info.slack_capped);
}

const hm__procsync_method_t hm__procsync_harmonize_method = {
    .name = "harmonize",
    .has_deadline = 1,
    .reads = HM_PROCSYNC_PARAM_RESYNC | HM_PROCSYNC_PARAM_CHECK_EVERY,
    .create = harmonize_create,
    .start = harmonize_start,
    .clock = harmonize_clock,
    .inject = harmonize_inject,
    .describe = harmonize_describe,
};
