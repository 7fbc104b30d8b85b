/* src/figure/plot_figure.h — the figures of the figures: each writes its
 * data blocks and gnuplot commands into a script (plot_gnuplot.h), and the
 * shared look: colours, labels, size tics, legend titles. */
#ifndef HM_FIGURE_FIGURE_H
#define HM_FIGURE_FIGURE_H
#include <stddef.h>
#include <stdio.h>

#include <harmonia/error.h>
#include <harmonia/results.h>

#include "figure/plot_data.h"
#include "figure/plot_gnuplot.h"

/* Draw d (sorted and labelled) into s; what receives the description printed
 * beside the image's name. metric is "global" or "local". HM_ENOMEM. */
typedef int (*hm__plot_draw_t)(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                               char *what, size_t len);

int hm__plot_draw_latency(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                          char *what, size_t len);
int hm__plot_draw_distribution(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                               char *what, size_t len);
int hm__plot_draw_campaign(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                           char *what, size_t len);
int hm__plot_draw_clock(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                        char *what, size_t len);
int hm__plot_draw_clock_ranks(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                              char *what, size_t len);
int hm__plot_draw_skew(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                       char *what, size_t len);
int hm__plot_draw_skew_quantiles(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                                 char *what, size_t len);
int hm__plot_draw_overlap(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                          char *what, size_t len);
int hm__plot_draw_overlap_ratios(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                                 char *what, size_t len);
int hm__plot_draw_overlap_distribution(const hm__plot_data_t *d, const char *metric,
                                       hm__plot_script_t *s, char *what, size_t len);
int hm__plot_draw_overlap_campaign(const hm__plot_data_t *d, const char *metric,
                                   hm__plot_script_t *s, char *what, size_t len);
int hm__plot_draw_impact(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                         char *what, size_t len);
int hm__plot_draw_bandwidth(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                            char *what, size_t len);
int hm__plot_draw_matrix(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                         char *what, size_t len);
int hm__plot_draw_scale_duration(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                                 char *what, size_t len);
int hm__plot_draw_scale_error(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                              char *what, size_t len);
int hm__plot_draw_scale_skew(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                             char *what, size_t len);
int hm__plot_draw_scale_bench(const hm__plot_data_t *d, const char *metric, hm__plot_script_t *s,
                              char *what, size_t len);

/* ---- Shared look (plot_style.c) ---- */

/* Colours that stay apart in print and for colour-blind readers, cycled. */
void hm__plot_palette(FILE *body);

/* Title and axis labels, written as they are (no enhanced-text markup: a
 * '_' in a name stays a '_'). */
void hm__plot_labels(FILE *body, const char *title, const char *xlabel, const char *ylabel);

/* "8", "1K", "64K", "1M": sizes as --sizes writes them. */
void hm__plot_size_name(char *buf, size_t len, double size_bytes);

/* Where a message size goes on the log2 axis: 0 bytes at 1/2. */
double hm__plot_size_at(double size_bytes);

/* x tics at the sizes xs: at their positions on the log axis, or at 1..n
 * when categorical (one slot per size). */
void hm__plot_size_tics(FILE *body, const double *xs, size_t n, int categorical);

/* Start the next clause of the plot command ("plot " or ", \"). */
void hm__plot_clause(FILE *body, int *nclauses);

/* title 'LABEL SUFFIX' noenhanced */
void hm__plot_title(FILE *body, const char *label, const char *suffix);

/* One titled series of the plot command: its clause, "data index BLOCK
 * using 1:2 with STYLE lt COLOR dt DASH" and the title label + suffix. */
void hm__plot_line(FILE *body, int *nclauses, int block, const char *style, int color, int dash,
                   const char *label, const char *suffix);

/* Colour of series i: series that differ only in variant share one. */
int hm__plot_color(const hm__plot_data_t *d, size_t i);

/* Number of colours used (distinct series apart from variant). */
int hm__plot_ncolors(const hm__plot_data_t *d);

/* Whether all values are > 0 (a log axis can show them all). */
int hm__plot_all_positive(const hm__plot_data_t *d);

/* ---- The cells of overlap (plot_cells.c) ---- */

/* A y axis: linear, logarithmic (gnuplot's), or symmetric-logarithmic,
 * sign(v) log10(1 + |v|), drawn on a linear axis with its own tics. */
typedef enum hm__plot_y_axis {
    HM_PLOT_Y_LINEAR,
    HM_PLOT_Y_LOG,
    HM_PLOT_Y_SYMLOG
} hm__plot_y_axis_t;

double hm__plot_symlog(double v);
/* The metric of a figure of cells (its series' variant). */
hm_metric_t hm__plot_cells_metric(const hm__plot_data_t *d);
/* The axis its values need: log for a time, and for ratios all above 0;
 * else symlog where some |value| reaches 100, else linear. */
hm__plot_y_axis_t hm__plot_cells_axis(const hm__plot_data_t *d);
/* "overhead (ratio)", "measured (µs)", "... (ratio, symmetric log scale)". */
void hm__plot_cells_ylabel(const hm__plot_data_t *d, hm__plot_y_axis_t axis, char *buf, size_t len);
/* yrange and ytics of a symlog axis over d's values. */
void hm__plot_symlog_axis(const hm__plot_data_t *d, FILE *body);
/* x tics 1..nx naming each slot's communication ("500 us", "64K B", "none"). */
void hm__plot_cells_tics(const hm__plot_data_t *d, FILE *body, const double *xs, size_t nx);

/* Slot layout of categorical figures: the centre of colour c of ncolors in
 * slot k (1-based), and the width each colour gets. */
double hm__plot_slot_x(int k, int c, int ncolors);
double hm__plot_slot_width(int ncolors);
#endif
