/* include/harmonia/version.h — what this build of harmonia is made of. */
#ifndef HARMONIA_VERSION_H
#define HARMONIA_VERSION_H
#include <harmonia/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the library, e.g. "0.1.0+gabc123" (git describe when built
 * from a checkout). */
HM_EXPORT const char *hm_version(void);

/* Facts about the build, recorded in every result file. Strings are static. */
typedef struct hm_build_info {
    const char *version;
    const char *compiler;   /* "GNU 12.2.0" */
    const char *cflags;     /* flags of the build type */
    const char *build_type; /* "RelWithDebInfo" */
    const char *gsl;        /* GSL version linked */
    unsigned hwloc_api;     /* hwloc API version of the running library (0x20900) */
} hm_build_info_t;

/* Fill *info. Never fails. */
HM_EXPORT void hm_build_info(hm_build_info_t *info);

#ifdef __cplusplus
}
#endif
#endif
