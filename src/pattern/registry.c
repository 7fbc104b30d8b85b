/* src/pattern/registry.c — the backends, by the names of the command line
 * and of result files. A GPU backend is one more file and one more line. */
#include <string.h>

#include <harmonia/gpu.h>
#include <harmonia/pattern.h>

#include "common/error_set.h"
#include "common/names.h"
#include "pattern/pattern_impl.h"

static const hm_backend_t *const backends[] = {&hm__backend_mpi,     &hm__backend_host,
                                               &hm__backend_cuda,    &hm__backend_ipc,
                                               &hm__backend_ipc_get, &hm__backend_nccl};
enum { NBACKENDS = sizeof backends / sizeof backends[0] };

size_t hm_backend_count(void)
{
    return NBACKENDS;
}

const char *hm_backend_name_at(size_t i)
{
    return i < NBACKENDS ? backends[i]->name : NULL;
}

const hm_backend_t *hm_backend_find(const char *name)
{
    if (!name) {
        hm__error_null(__func__, "name");
        return NULL;
    }
    for (size_t i = 0; i < NBACKENDS; i++)
        if (strcmp(backends[i]->name, name) == 0) return backends[i];
    return NULL;
}

void hm_backend_names(char *buf, size_t len)
{
    if (!buf) {
        hm__error_null(__func__, "buf");
        return;
    }
    hm__join_names(hm_backend_name_at, NBACKENDS, buf, len);
}

const char *hm_backend_name(const hm_backend_t *b)
{
    if (!b) hm__error_null(__func__, "backend");
    return b ? b->name : NULL;
}

hm_memory_t hm_backend_memory(const hm_backend_t *b)
{
    if (!b) hm__error_null(__func__, "backend");
    return b ? b->memory : HM_MEMORY_HOST;
}

int hm_backend_check(const hm_backend_t *b)
{
    if (!b) return hm__error_null(__func__, "backend");
    if (b->memory != HM_MEMORY_DEVICE) return HM_OK;
    int count;
    int rc = hm_gpu_count(&count);
    if (rc != HM_OK) return rc;
    if (b->needs_nccl && !hm_gpu_nccl_built())
        return hm__error_set(HM_ENOTSUP,
                             "the %s backend needs NCCL, and this harmonia was built without it",
                             b->name);
    return HM_OK;
}
