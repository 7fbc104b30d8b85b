/* src/procsync/registry.c — the process synchronization methods known to
 * --sync. Adding one is a file and a line here. */
#include <string.h>

#include "common/error_set.h"
#include "common/names.h"
#include "procsync/procsync_impl.h"

static const hm__procsync_method_t *const methods[] = {
    &hm__procsync_barrier_method,   &hm__procsync_dissem_method,    &hm__procsync_window_method,
    &hm__procsync_roundtime_method, &hm__procsync_harmonize_method,
};
enum { NMETHODS = sizeof methods / sizeof methods[0] };

size_t hm_procsync_count(void)
{
    return NMETHODS;
}

const char *hm_procsync_name_at(size_t i)
{
    return i < NMETHODS ? methods[i]->name : NULL;
}

void hm_procsync_names(char *buf, size_t len)
{
    if (!buf) {
        hm__error_null(__func__, "buf");
        return;
    }
    hm__join_names(hm_procsync_name_at, NMETHODS, buf, len);
}

const hm__procsync_method_t *hm__procsync_find(const char *name)
{
    for (size_t i = 0; i < NMETHODS; i++)
        if (name && strcmp(methods[i]->name, name) == 0) return methods[i];
    return NULL;
}

int hm_procsync_reads(const char *method, hm_procsync_param_t param)
{
    if (!method) {
        hm__error_null(__func__, "method");
        return 0;
    }
    const hm__procsync_method_t *m = hm__procsync_find(method);
    return m && (m->reads & (unsigned)param) != 0;
}
