/* src/sync/registry.c — the clock synchronization algorithms known to
 * --clock-sync. Adding one is a file and a line here. */
#include <string.h>

#include "common/error_set.h"
#include "common/names.h"
#include "sync/sync_impl.h"

/* What each reads: skampi and netgauge measure one offset per rank with
 * their own ping-pong scheme (--exchanges), no fit; the fitting ones take
 * fitpoints offsets of the chosen algorithm and decide the drift; only
 * hca2 and hca3 re-measure the intercept (hca.c sets it off); prop copies
 * a leader's clock and measures nothing; refine measures one offset of the
 * chosen algorithm per rank at a time, and fits a line through them unless
 * the drift is off. */
#define FITTING                                                                                    \
    (HM_SYNC_PARAM_FITPOINTS | HM_SYNC_PARAM_EXCHANGES | HM_SYNC_PARAM_OFFSET | HM_SYNC_PARAM_DRIFT)
static const hm__sync_algorithm_t algorithms[] = {
    {"skampi", hm__sync_skampi, HM_SYNC_OFFSET_ONLY, HM_SYNC_PARAM_EXCHANGES},
    {"netgauge", hm__sync_netgauge, HM_SYNC_OFFSET_ONLY, HM_SYNC_PARAM_EXCHANGES},
    {"jk", hm__sync_jk, HM_SYNC_DRIFT, FITTING},
    {"hca", hm__sync_hca, HM_SYNC_DRIFT, FITTING},
    {"hca2", hm__sync_hca2, HM_SYNC_DRIFT, FITTING | HM_SYNC_PARAM_RECOMPUTE_INTERCEPT},
    {"hca3", hm__sync_hca3, HM_SYNC_DRIFT, FITTING | HM_SYNC_PARAM_RECOMPUTE_INTERCEPT},
    {"prop", hm__sync_prop, HM_SYNC_PROPAGATE, 0},
    {"refine", hm__sync_refine, HM_SYNC_REFINE,
     HM_SYNC_PARAM_EXCHANGES | HM_SYNC_PARAM_OFFSET | HM_SYNC_PARAM_DRIFT},
};
enum { NALGORITHMS = sizeof algorithms / sizeof algorithms[0] };

size_t hm_sync_count(void)
{
    return NALGORITHMS;
}

const char *hm_sync_name_at(size_t i)
{
    return i < NALGORITHMS ? algorithms[i].name : NULL;
}

void hm_sync_names(char *buf, size_t len)
{
    if (!buf) {
        hm__error_null(__func__, "buf");
        return;
    }
    hm__join_names(hm_sync_name_at, NALGORITHMS, buf, len);
}

const hm__sync_algorithm_t *hm__sync_find(const char *name)
{
    for (size_t i = 0; i < NALGORITHMS; i++)
        if (name && strcmp(algorithms[i].name, name) == 0) return &algorithms[i];
    return NULL;
}

static const char *const drift_modes[] = {
    [HM_DRIFT_AUTO] = "auto", [HM_DRIFT_ON] = "on", [HM_DRIFT_OFF] = "off"};
enum { NDRIFT = sizeof drift_modes / sizeof drift_modes[0] };

static const char *drift_at(size_t i)
{
    return i < NDRIFT ? drift_modes[i] : NULL;
}

const char *hm_sync_drift_name(hm_drift_t drift)
{
    return drift_at((size_t)drift);
}

void hm_sync_drift_names(char *buf, size_t len)
{
    if (!buf) {
        hm__error_null(__func__, "buf");
        return;
    }
    hm__join_names(drift_at, NDRIFT, buf, len);
}

int hm_sync_drift_find(const char *name, hm_drift_t *drift)
{
    char known[64];
    if (!name) return hm__error_null(__func__, "name");
    for (size_t i = 0; i < NDRIFT; i++)
        if (strcmp(drift_modes[i], name) == 0) {
            if (drift) *drift = (hm_drift_t)i; /* NULL: only a check of the name */
            return HM_OK;
        }
    hm_sync_drift_names(known, sizeof known);
    return hm__error_set(HM_ENOENT, "unknown drift mode \"%s\" (known: %s)", name, known);
}
