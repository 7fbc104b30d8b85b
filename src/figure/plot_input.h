/* src/figure/plot_input.h — the input files of the figures: which kind each
 * file is (told by its columns), and the readers that turn its rows into the
 * series of the figures. Every problem with an input is HM_EINVAL with a
 * sentence naming the file, and the line where there is one. */
#ifndef HM_FIGURE_INPUT_H
#define HM_FIGURE_INPUT_H
#include <stddef.h>

#include <harmonia/results.h>

#include "figure/plot_data.h"

/* The figures, in the order they are drawn; each gathers the series of all
 * input files that feed it. */
typedef enum hm__plot_fig {
    HM_FIG_LATENCY,              /* bench raw and summary files */
    HM_FIG_DISTRIBUTION,         /* bench raw files */
    HM_FIG_CAMPAIGN,             /* per-mpirun datasets */
    HM_FIG_CLOCK,                /* clock summaries */
    HM_FIG_CLOCK_RANKS,          /* clock raw files */
    HM_FIG_SKEW,                 /* skew raw files */
    HM_FIG_SKEW_QUANTILES,       /* skew summaries */
    HM_FIG_OVERLAP,              /* overlap summaries: the overhead ratio per cell */
    HM_FIG_OVERLAP_RATIOS,       /* overlap summaries: r_comm and r_comp_slowdown per cell */
    HM_FIG_IMPACT,               /* overlap impact files: histogram of the MPI impact ratios */
    HM_FIG_MATRIX,               /* pattern matrices (and pattern files): bytes per rank pair */
    HM_FIG_BANDWIDTH,            /* pattern summaries: algbw per message size */
    HM_FIG_SCALE_DURATION,       /* scale/run clock files: sync duration against p, fitted */
    HM_FIG_SCALE_ERROR,          /* scale/run clock files: true error against p */
    HM_FIG_SCALE_SKEW,           /* scale/run skew files: exit skew and cost against p */
    HM_FIG_SCALE_BENCH,          /* scale/run bench files: run-time against p */
    HM_FIG_OVERLAP_DISTRIBUTION, /* overlap raw files: a metric's repetitions per cell */
    HM_FIG_OVERLAP_CAMPAIGN,     /* per-mpirun datasets of overlap: medians per cell */
    HM_NFIG
} hm__plot_fig_t;

/* What a reader works with: one open file and the figures it feeds. */
typedef struct hm__plot_read {
    hm_csv_reader_t *r;
    const hm__plot_source_t *src;
    const size_t *col;    /* the index of each column the kind requires, in order */
    hm__plot_data_t *fig; /* HM_NFIG figures */
    hm_metric_t metric;   /* the run-time of bench files (--metric) */
} hm__plot_read_t;

/* Read operand (a result file, or a campaign directory holding
 * per-mpirun.csv) into the figures; src (kept by the caller as long as fig)
 * receives its names. HM_EINVAL with the reason as the last error;
 * HM_ENOMEM. */
int hm__plot_read_file(const char *operand, hm__plot_source_t *src, hm_metric_t metric,
                       hm__plot_data_t *fig);

/* ---- For the readers ---- */

/* The next row: HM_OK with *more = 0 at the end. */
int hm__plot_next(hm__plot_read_t *c, int *more);

/* Column c->col[k] of the current row as a number (NaN and Inf accepted). */
int hm__plot_number(hm__plot_read_t *c, int k, double *v);

/* Column c->col[k] as a number that is finite; a message size must also be
 * a whole number >= 0 (what: "size in bytes"), a time >= 0, etc. ok is the
 * caller's verdict on the number read; HM_EINVAL names file, line, cell. */
int hm__plot_check(hm__plot_read_t *c, int k, int ok, const char *what);

/* Column c->col[k] as a message size: a whole number of bytes, 0 to 9e15. */
int hm__plot_size_cell(hm__plot_read_t *c, int k, double *size);

/* Column c->col[k] of the current row as text. */
const char *hm__plot_text(const hm__plot_read_t *c, int k);

/* The value of the factor line "# key: ...", or "" when there is none. */
const char *hm__plot_factor(const hm__plot_read_t *c, const char *key);

/* "4 ranks" from a process count ("" for none). */
void hm__plot_ranks(char *buf, size_t len, const char *processes);

/* Readers of each kind of file (plot_*_read.c). */
int hm__plot_read_bench_raw(hm__plot_read_t *c);
int hm__plot_read_bench_summary(hm__plot_read_t *c);
int hm__plot_read_permpirun(hm__plot_read_t *c);
int hm__plot_read_clock_summary(hm__plot_read_t *c);
int hm__plot_read_clock_raw(hm__plot_read_t *c);
int hm__plot_read_skew_raw(hm__plot_read_t *c);
int hm__plot_read_skew_summary(hm__plot_read_t *c);
int hm__plot_read_overlap_summary(hm__plot_read_t *c);
int hm__plot_read_overlap_raw(hm__plot_read_t *c);

/* One cell of overlap as its figures key it (plot_overlap_read.c). */
typedef struct hm__plot_cell {
    const char *op;
    hm_metric_t metric;
    long long size_bytes; /* -1 where comm_target_s names the cell */
    double comm_target_s; /* NaN: none (--sizes, ibarrier) */
    double comp_target_s; /* NaN: --comp-us comm */
    long processes;
    int invalid; /* its references did not stand */
} hm__plot_cell_t;

/* Append the n values v (seconds, or the metric's ratio) of cell to figure
 * fig: a series per operation and computation (and file), at x = the
 * cell's communication, in us where the metric is a time. HM_ENOMEM. */
int hm__plot_add_cell(hm__plot_read_t *c, int fig, const hm__plot_cell_t *cell, const double *v,
                      size_t n);
int hm__plot_read_impact(hm__plot_read_t *c);
int hm__plot_read_pattern_matrix(hm__plot_read_t *c);
int hm__plot_read_pattern_summary(hm__plot_read_t *c);

/* Whether the file is one scale/run gathered (docs/scale.md): rows of many
 * runs, each with its process count in a "processes" column. The clock,
 * skew and bench summary readers then hand it to these, which feed the
 * figures against the process count (plot_scale_read.c). */
int hm__plot_scale_file(const hm__plot_read_t *c);
int hm__plot_read_clock_scale(hm__plot_read_t *c);
int hm__plot_read_skew_scale(hm__plot_read_t *c);
int hm__plot_read_bench_scale(hm__plot_read_t *c);
#endif
