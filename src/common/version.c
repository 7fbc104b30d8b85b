/* src/common/version.c — the library version and build facts. */
#include <gsl/gsl_version.h>
#include <hwloc.h>

#include <harmonia/version.h>

#include "common/error_set.h"
#include "hm_build_info.h"

const char *hm_version(void)
{
    return HM_BUILD_VERSION;
}

void hm_build_info(hm_build_info_t *info)
{
    if (!info) {
        hm__error_null(__func__, "info");
        return;
    }
    info->version = HM_BUILD_VERSION;
    info->compiler = HM_BUILD_COMPILER;
    info->cflags = HM_BUILD_CFLAGS;
    info->build_type = HM_BUILD_TYPE;
    info->gsl = gsl_version;
    info->hwloc_api = hwloc_get_api_version();
}
