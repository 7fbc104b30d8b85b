/* src/figure/plot_data.h — what the figures draws: named series of samples
 * grouped by an x value (a message size, a time after synchronization, ...),
 * read from the input files, and the legend labels that tell the series of
 * different files apart. */
#ifndef HM_FIGURE_DATA_H
#define HM_FIGURE_DATA_H
#include <stddef.h>

/* One input file (or campaign directory) as the legends name it. */
typedef struct hm__plot_source {
    const char *path; /* the operand: a file or a campaign directory */
    char file[4200];  /* the file read */
    char stem[256];   /* basename without .csv; a campaign's directory name */
    char library[96]; /* "# mpi_library:" up to its first comma, or "" */
    char partial[96]; /* what "# complete: no (...)" says is there, or "" for a whole file */
    /* Told of a partial file (hm_figure_params_t.partial), when set. */
    void (*partial_fn)(const char *path, const char *complete, void *ctx);
    void *ctx;
} hm__plot_source_t;

typedef struct hm__plot_series {
    char base[160];  /* "allreduce barrier": what the series is */
    char label[512]; /* base plus what tells it from others (hm__plot_data_label) */
    char ranks[32];  /* "4 ranks", or "" when the file does not say */
    const hm__plot_source_t *src;
    int variant; /* kind-specific style (e.g. measured / true clock) */
    /* A matrix's process count and ranks per group, from its file's
     * factors processes and group_size; 0 where the file does not say. */
    int processes, group_size;
} hm__plot_series_t;

/* Overlap maps: bits of the variant saying an axis holds the times
 * measured alone, where the run had no target on it (--sizes, ibarrier);
 * bit 0 tells r_comm from r_comp_slowdown. */
enum { HM_PLOT_OVERLAP_X_ALONE = 2, HM_PLOT_OVERLAP_Y_ALONE = 4 };
/* Overlap distributions: the variant is the metric (hm_metric_t), plus this
 * bit where the cells are message sizes (--sizes) instead of target times. */
enum { HM_PLOT_OVERLAP_BY_SIZE = 16, HM_PLOT_OVERLAP_METRIC_MASK = 15 };

/* The samples of one series at one x (and y, for the grid figures; 0
 * elsewhere), in file order. */
typedef struct hm__plot_group {
    size_t series;
    double x, y;
    double *v;
    size_t n, cap;
} hm__plot_group_t;

typedef struct hm__plot_data {
    hm__plot_series_t *s;
    size_t ns, cap_s;
    hm__plot_group_t *g;
    size_t ng, cap_g;
    size_t last; /* group of the last sample: rows come in runs */
} hm__plot_data_t;

/* The series (base, ranks, src, variant), appended when new; *index its
 * position (series keep the order of their first sample). HM_ENOMEM. */
int hm__plot_series(hm__plot_data_t *d, const char *base, const char *ranks,
                    const hm__plot_source_t *src, int variant, size_t *index);

/* Append v to the group (series, x), created when new. HM_ENOMEM. */
int hm__plot_add(hm__plot_data_t *d, size_t series, double x, double v);

/* The same for a cell (x, y) of a grid figure (overlap's heat maps). */
int hm__plot_add_xy(hm__plot_data_t *d, size_t series, double x, double y, double v);

/* Order the groups by series, then x, then y, and sort each group's
 * samples. */
void hm__plot_data_sort(hm__plot_data_t *d);

/* Set every label: the base, and where two series would share a label, what
 * tells them apart, in this order: process count, MPI library, file stem,
 * file path; then, for a series of a partial file, "(partial: 2 of 21
 * experiments)", so that a run cut short is not read as a whole one. */
void hm__plot_data_label(hm__plot_data_t *d);

/* The distinct x values of all groups, ascending, into a new array (caller
 * frees); NULL with *n = 0 when there are none or memory runs out. */
double *hm__plot_data_xs(const hm__plot_data_t *d, size_t *n);

/* Index of x in xs (as returned by hm__plot_data_xs). */
size_t hm__plot_x_index(const double *xs, size_t n, double x);

void hm__plot_data_free(hm__plot_data_t *d);
#endif
