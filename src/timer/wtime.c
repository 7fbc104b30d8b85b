/* src/timer/wtime.c — MPI_Wtime. Open MPI 4.1's MPI_Wtime has a per-process
 * origin, so ranks on one machine disagree by tens of microseconds: never use
 * it as ground truth. MPI_WTIME_IS_GLOBAL is not trusted either. */
#include <math.h>

#include "timer/timer_impl.h"

static int open_wtime(hm_timer_t *t, const hm_timer_options_t *o)
{
    (void)t, (void)o;
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) return hm__error_set(HM_EINVAL, "wtime needs MPI to be initialized");
    return HM_OK;
}

static double read_wtime(const hm_timer_t *t)
{
    return MPI_Wtime() - (double)t->origin;
}

static int64_t origin_wtime(const hm_timer_t *t)
{
    (void)t;
    return (int64_t)floor(MPI_Wtime());
}

static double res_wtime(const hm_timer_t *t)
{
    (void)t;
    return MPI_Wtick();
}

const hm__timer_source_t hm__timer_source_wtime = {.name = "wtime",
                                                   .monotonic = 0,
                                                   .per_process = 1,
                                                   .open = open_wtime,
                                                   .read = read_wtime,
                                                   .origin_now = origin_wtime,
                                                   .nominal_resolution = res_wtime};
