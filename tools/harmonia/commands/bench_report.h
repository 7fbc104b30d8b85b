/* tools/harmonia/commands/bench_report.h — what `harmonia bench` shows and writes. */
#ifndef HM_CLI_BENCH_REPORT_H
#define HM_CLI_BENCH_REPORT_H
#include <harmonia/measure.h>
#include <harmonia/output.h>
#include <harmonia/stats.h>

#include "options/config.h"
#include "commands/measure_setup.h"
#include "commands/result_files.h"

/* One experiment's summary, kept on rank 0 for the table. */
typedef struct cli_bench_row {
    int done;
    const char *op;
    size_t size_bytes;
    long wrong_results;
    long late_starts;       /* attempts whose start spread exceeded the late-start tolerance */
    long late_capped;       /* starts discarded only by the cap on the tolerance */
    hm_measure_summary_t s; /* valid and discarded repetitions (hm_measure_summarize) */
    hm_measure_end_t end;   /* why the repetitions stopped */
    long most_attempts;     /* the attempts allowed */
    double window_s;        /* --sync window: the window in effect at the end (NaN: none) */
} cli_bench_row_t;

typedef struct cli_bench_report {
    const cli_config_t *cfg;
    int size;              /* ranks */
    hm_experiment_t *e;    /* its files: rank 0 */
    cli_bench_row_t *rows; /* rank 0: by experiment index (op-major, size-minor) */
    size_t nrows;
    char note[192]; /* cli_fit_note: "" unless oversubscribed */
    long npartial;  /* rank 0: rows with fewer valid repetitions than --nrep */
} cli_bench_report_t;

/* Collective: the factors of e completed, its files opened (rank 0).
 * Returns an agreed status. */
int cli_bench_report_open(const cli_config_t *cfg, MPI_Comm comm, hm_experiment_t *e,
                          size_t nexperiments, cli_bench_report_t **out);

/* Rank 0: experiment index (run as the order-th) measured result r in
 * wall_s (warm-up, synchronizations and agreements included). Files are
 * checkpointed after each experiment. */
int cli_bench_report_add(cli_bench_report_t *rep, size_t index, size_t order, const char *op,
                         size_t size_bytes, const hm_measure_result_t *r, double wall_s);

/* Rank 0: print the table (or OSU's layout); every rank: release. The
 * files are published by closing the experiment. */
void cli_bench_report_close(cli_bench_report_t *rep, MPI_Comm comm);
#endif
