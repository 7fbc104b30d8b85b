/* tools/harmonia/plot/plot_input.h — the input files of `harmonia plot`: which kind each
 * file is (told by its columns), and the readers that turn its rows into the
 * series of the figures. Every problem with an input is HM_EINVAL with a
 * sentence naming the file, and the line where there is one. */
#ifndef HM_CLI_PLOT_INPUT_H
#define HM_CLI_PLOT_INPUT_H
#include <stddef.h>

#include <harmonia/results.h>

#include "plot/plot_data.h"

/* The figures, in the order they are drawn; each gathers the series of all
 * input files that feed it. */
typedef enum cli_plot_fig {
    HM_FIG_LATENCY,        /* bench raw and summary files */
    HM_FIG_DISTRIBUTION,   /* bench raw files */
    HM_FIG_CAMPAIGN,       /* per-mpirun datasets */
    HM_FIG_CLOCK,          /* clock summaries */
    HM_FIG_CLOCK_RANKS,    /* clock raw files */
    HM_FIG_SKEW,           /* skew raw files */
    HM_FIG_SKEW_QUANTILES, /* skew summaries */
    HM_FIG_OVERLAP,        /* overlap summaries: the overhead ratio per cell */
    HM_FIG_OVERLAP_RATIOS, /* overlap summaries: r_comm and r_comp_slowdown per cell */
    HM_FIG_IMPACT,         /* overlap impact files: histogram of the MPI impact ratios */
    HM_FIG_MATRIX,         /* pattern matrices (and pattern files): bytes per rank pair */
    HM_FIG_SCALE_DURATION, /* scale/run clock files: sync duration against p, fitted */
    HM_FIG_SCALE_ERROR,    /* scale/run clock files: true error against p */
    HM_FIG_SCALE_SKEW,     /* scale/run skew files: exit skew and cost against p */
    HM_FIG_SCALE_BENCH,    /* scale/run bench files: run-time against p */
    HM_NFIG
} cli_plot_fig_t;

/* What a reader works with: one open file and the figures it feeds. */
typedef struct cli_plot_read {
    hm_csv_reader_t *r;
    const cli_plot_source_t *src;
    const size_t *col;    /* the index of each column the kind requires, in order */
    cli_plot_data_t *fig; /* HM_NFIG figures */
    hm_metric_t metric;   /* the run-time of bench files (--metric) */
} cli_plot_read_t;

/* Read operand (a result file, or a campaign directory holding
 * per-mpirun.csv) into the figures; src (kept by the caller as long as fig)
 * receives its names. HM_EINVAL with the reason as the last error;
 * HM_ENOMEM. */
int cli_plot_read_file(const char *operand, cli_plot_source_t *src, hm_metric_t metric,
                       cli_plot_data_t *fig);

/* ---- For the readers ---- */

/* The next row: HM_OK with *more = 0 at the end. */
int cli_plot_next(cli_plot_read_t *c, int *more);

/* Column c->col[k] of the current row as a number (NaN and Inf accepted). */
int cli_plot_number(cli_plot_read_t *c, int k, double *v);

/* Column c->col[k] as a number that is finite; a message size must also be
 * a whole number >= 0 (what: "size in bytes"), a time >= 0, etc. ok is the
 * caller's verdict on the number read; HM_EINVAL names file, line, cell. */
int cli_plot_check(cli_plot_read_t *c, int k, int ok, const char *what);

/* Column c->col[k] of the current row as text. */
const char *cli_plot_text(const cli_plot_read_t *c, int k);

/* The value of the factor line "# key: ...", or "" when there is none. */
const char *cli_plot_factor(const cli_plot_read_t *c, const char *key);

/* "4 ranks" from a process count ("" for none). */
void cli_plot_ranks(char *buf, size_t len, const char *processes);

/* Readers of each kind of file (plot_*_read.c). */
int cli_plot_read_bench_raw(cli_plot_read_t *c);
int cli_plot_read_bench_summary(cli_plot_read_t *c);
int cli_plot_read_permpirun(cli_plot_read_t *c);
int cli_plot_read_clock_summary(cli_plot_read_t *c);
int cli_plot_read_clock_raw(cli_plot_read_t *c);
int cli_plot_read_skew_raw(cli_plot_read_t *c);
int cli_plot_read_skew_summary(cli_plot_read_t *c);
int cli_plot_read_overlap_summary(cli_plot_read_t *c);
int cli_plot_read_impact(cli_plot_read_t *c);
int cli_plot_read_pattern_matrix(cli_plot_read_t *c);

/* Whether the file is one scale/run gathered (docs/scale.md): rows of many
 * runs, each with its process count in a "processes" column. The clock,
 * skew and bench summary readers then hand it to these, which feed the
 * figures against the process count (plot_scale_read.c). */
int cli_plot_scale_file(const cli_plot_read_t *c);
int cli_plot_read_clock_scale(cli_plot_read_t *c);
int cli_plot_read_skew_scale(cli_plot_read_t *c);
int cli_plot_read_bench_scale(cli_plot_read_t *c);
#endif
