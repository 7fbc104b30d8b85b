/* src/timer/registry.c — the time sources known to --timer. Adding a source
 * is one file and one line here. */
#include <string.h>

#include "common/names.h"
#include "timer/timer_impl.h"

static const hm__timer_source_t *const sources[] = {
    &hm__timer_source_wtime,    &hm__timer_source_monotonic,    &hm__timer_source_monotonic_raw,
    &hm__timer_source_realtime, &hm__timer_source_gettimeofday, &hm__timer_source_tsc,
};
enum { NSOURCES = sizeof sources / sizeof sources[0] };

size_t hm_timer_count(void)
{
    return NSOURCES;
}

const char *hm_timer_name_at(size_t i)
{
    return i < NSOURCES ? sources[i]->name : NULL;
}

void hm_timer_names(char *buf, size_t len)
{
    if (!buf) {
        hm__error_null(__func__, "buf");
        return;
    }
    hm__join_names(hm_timer_name_at, NSOURCES, buf, len);
}

const hm__timer_source_t *hm__timer_find_source(const char *name)
{
    for (size_t i = 0; i < NSOURCES; i++)
        if (name && strcmp(sources[i]->name, name) == 0) return sources[i];
    return NULL;
}
