/* tests/procsync/harmonize/skew.h — exit skew of hm_harmonize between two ranks. */
#ifndef HM_TEST_HARMONIZE_SKEW_H
#define HM_TEST_HARMONIZE_SKEW_H
#include <mpi.h>

typedef struct skew {
    int n, valid;                         /* calls; calls with flag 1 on both ranks */
    double median_s, p90_s, p99_s, max_s; /* of |exit0 - exit1| over valid calls */
} skew_t;

/* Collective over comm (2 ranks): exit_s[i] and flag[i] are this rank's exit
 * time (one time base shared by both ranks) and flag of call i. The summary
 * is returned on every rank. Returns 0, or -1 when memory ran out. */
int skew_summarize(MPI_Comm comm, const double *exit_s, const int *flag, int n, skew_t *out);
#endif
