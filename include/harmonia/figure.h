/* include/harmonia/figure.h — figures of result files with gnuplot (layer
 * figure): what `harmonia plot` draws, for a program of its own.
 *
 * Every input is read (each problem reported naming the file and the line)
 * before any figure is drawn; each figure gathers the series of every
 * input that feeds it (bench latency and distributions, campaigns, clock,
 * skew, overlap, impact, pattern matrices, scale/run files, and the Gantt
 * chart of a trace directory). Images are written atomically, as
 * DIR/STEM-KIND.svg and/or .png; gnuplot runs at most a minute a figure.
 * Local: no MPI. docs/plot.md shows every figure. */
#ifndef HARMONIA_FIGURE_H
#define HARMONIA_FIGURE_H
#include <harmonia/error.h>
#include <harmonia/export.h>
#include <harmonia/results.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hm_figure_format { HM_FIGURE_SVG = 1, HM_FIGURE_PNG = 2 } hm_figure_format_t;

/* What the Gantt chart of a trace shows. */
typedef enum hm_figure_select_kind {
    HM_FIGURE_SELECT_WIDEST = 0, /* the collective call with the largest entry skew */
    HM_FIGURE_SELECT_CALL,       /* call `call` (from 1) of function `func` (hm_trace_func_find) */
    HM_FIGURE_SELECT_WINDOW      /* from_ms to to_ms after the trace's first event */
} hm_figure_select_kind_t;

typedef struct hm_figure_select {
    hm_figure_select_kind_t kind;
    int func;
    long call;
    double from_ms, to_ms;
} hm_figure_select_t;

typedef struct hm_figure_params {
    const char *const *inputs; /* result files, campaign directories, trace directories */
    int ninputs;
    const char *dir;           /* the images' directory, created when missing (not its parent) */
    unsigned formats;          /* HM_FIGURE_SVG and/or HM_FIGURE_PNG */
    hm_metric_t metric;        /* the run-time of bench files */
    hm_figure_select_t select; /* trace directories */
    /* Optional: each image once written (its path, what it shows), and
     * each partial input (a run cut short: its path and what its
     * "complete" factor says), whose series are labelled so. */
    void (*image)(const char *path, const char *what, void *ctx);
    void (*partial)(const char *path, const char *complete, void *ctx);
    void *ctx;
} hm_figure_params_t;

/* Defaults: no input, ".", svg, global run-times, the widest call. */
HM_EXPORT void hm_figure_params_default(hm_figure_params_t *params);

/* What a failure concerns (its sentence: hm_last_error). */
typedef enum hm_figure_failed {
    HM_FIGURE_FAILED_NONE = 0,
    HM_FIGURE_FAILED_GNUPLOT, /* no gnuplot in PATH */
    HM_FIGURE_FAILED_INPUT,   /* an input (HM_EINVAL naming file and line; HM_ENOMEM) */
    HM_FIGURE_FAILED_DIR,     /* dir cannot be used (HM_EINVAL) or the scratch space (HM_EIO) */
    HM_FIGURE_FAILED_IMAGE,   /* an image's path holds what is not a regular file */
    HM_FIGURE_FAILED_DRAW     /* a trace that does not read (HM_EINVAL), gnuplot (HM_EIO) */
} hm_figure_failed_t;

/* Read every input, then draw every figure they feed. HM_OK, or the
 * failure with *failed (NULL allowed) saying what it concerns; images
 * already drawn stay, none is left half written. */
HM_EXPORT int hm_figure_draw(const hm_figure_params_t *params, hm_figure_failed_t *failed);

#ifdef __cplusplus
}
#endif
#endif
