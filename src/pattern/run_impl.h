/* src/pattern/run_impl.h — a pattern benchmark between its two calls: what
 * hm_pattern_run_create decided, which hm_pattern_run_measure follows. */
#ifndef HM_PATTERN_RUN_IMPL_H
#define HM_PATTERN_RUN_IMPL_H
#include <harmonia/pattern.h>

/* What the rows of one size time, in table order (docs/pattern.md). */
typedef enum hm_run_measured {
    HM_RUN_PATTERN, /* the pattern's one step */
    HM_RUN_SPLIT,   /* striping's steps, each alone */
    HM_RUN_TRANSLATE,
    HM_RUN_ASSEMBLE,
    HM_RUN_SEQUENCE,   /* the steps as dependent steps, end to end (§4.2, Fig. 5a) */
    HM_RUN_CONCURRENT, /* every step started, then every step waited for (Fig. 5c) */
    HM_RUN_BASELINE,   /* the MPI collective that moves the same data (§5.2.5) */
    HM_RUN_NMEASURED
} hm__run_measured_t;

struct hm_pattern_run {
    MPI_Comm comm;
    hm_pattern_run_params_t p; /* sizes and file: the run's own copies */
    int n, g, k;
    hm_memory_t memory;
    hm_baseline_kind_t baseline;
    size_t *order, nsizes;
    hm__run_measured_t measured[HM_RUN_NMEASURED];
    int nmeasured;
};

/* Collective: the failure of what on the lowest failing rank (its sentence,
 * its step) on every rank, with rc agreed. */
int hm__pattern_run_agree(MPI_Comm comm, int rc, hm_pattern_failure_t *f);
#endif
