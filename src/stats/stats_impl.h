/* src/stats/stats_impl.h — internals shared by the stats layer. */
#ifndef HM_STATS_IMPL_H
#define HM_STATS_IMPL_H
#include <stddef.h>

/* Mean and sample standard deviation (n - 1; 0 for n < 2) by Welford's
 * update (summary.c). */
void hm__stats_moments(const double *x, size_t n, double *mean, double *sd);
#endif
