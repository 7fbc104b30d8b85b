/* tests/lint/misuse_fixtures.h — the valid arguments of the generated
 * misuse test (gen_misuse.py) and its driver (test_misuse.c).
 *
 * Each fx_TYPE() makes a fresh, real handle for one case: a case may free
 * or consume what it is given, so nothing is shared between cases (the
 * handles are not released: the test runs without leak detection). */
#ifndef HM_TEST_MISUSE_FIXTURES_H
#define HM_TEST_MISUSE_FIXTURES_H
#include <stddef.h>

#include <mpi.h>

#include <harmonia/harmonia.h>
#include <harmonia/overlap_grid.h>

typedef struct hm_misuse_case {
    void (*run)(void);
    int lifetime; /* a call outside MPI's lifetime (before MPI_Init, after MPI_Finalize) */
    int ranks;    /* the ranks its fixtures need: 2 for HM_MISUSE_TWO_RANKS handles */
} hm_misuse_case_t;

/* What a case expects of an int status: any (HM_OK included: an optional
 * argument) as long as a failure has a sentence, or a failure. */
enum { HM_MISUSE_ANY = 0, HM_MISUSE_FAIL = 1 };

extern const hm_misuse_case_t hm_misuse_cases[];
extern const size_t hm_misuse_ncases;
extern const char *const hm_misuse_uncovered[];

void hm_misuse_begin(const char *function, const char *what);
void hm_misuse_end_status(int rc, int expect);

/* Valid values: a string for the parameter called name, a writable text
 * buffer, 1 MiB of zeroed memory for any other pointee, a zeroed slot for
 * an out-pointer, a communicator slot. */
const char *fx_string(const char *name);
extern char fx_chars[4096];
extern void *fx_scratch;
void *fx_slot(void);
extern MPI_Comm fx_comm_slot;

/* Real handles (NULL before MPI_Init where one needs MPI). None for NCCL
 * (a GPU): its cases are "not covered". */
hm_timer_t *fx_hm_timer_t(void);
hm_clock_t *fx_hm_clock_t(void);
hm_factors_t *fx_hm_factors_t(void);
hm_table_t *fx_hm_table_t(void);
const hm_op_t *fx_hm_op_t(void);
const hm_backend_t *fx_hm_backend_t(void);
const hm_generator_t *fx_hm_generator_t(void);
hm_topo_t *fx_hm_topo_t(void);
hm_procsync_t *fx_hm_procsync_t(void);
hm_compute_t *fx_hm_compute_t(void);
hm_csv_t *fx_hm_csv_t(void);
hm_csv_reader_t *fx_hm_csv_reader_t(void);
hm_afile_t *fx_hm_afile_t(void);
hm_results_row_t *fx_hm_results_row_t(void);
hm_op_instance_t *fx_hm_op_instance_t(void);
hm_plan_t *fx_hm_plan_t(void);
hm_buffer_t *fx_hm_buffer_t(void);
hm_experiment_t *fx_hm_experiment_t(void);
hm_bench_run_t *fx_hm_bench_run_t(void);
hm_results_bench_raw_t *fx_hm_results_bench_raw_t(void);
hm_results_overlap_raw_t *fx_hm_results_overlap_raw_t(void);
hm_analysis_repro_t *fx_hm_analysis_repro_t(void);
hm_overlap_grid_t *fx_hm_overlap_grid_t(void);

/* Handles one rank cannot make (NULL there): a pair of ranks, a pattern of
 * two groups, a baseline over two ranks. Their cases run in test_misuse_np2
 * and are counted as skipped on one rank (gen_misuse.py reads this list). */
#define HM_MISUSE_TWO_RANKS "hm_offset_pair_t hm_pattern_run_t hm_baseline_t"
hm_offset_pair_t *fx_hm_offset_pair_t(void);
hm_pattern_run_t *fx_hm_pattern_run_t(void);
hm_baseline_t *fx_hm_baseline_t(void);
#endif
