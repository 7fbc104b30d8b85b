/* src/figure/plot_gnuplot.h — running gnuplot for the figures: find it,
 * write one figure's data and script into a scratch directory, run it with a
 * time limit and publish the images atomically (written under a temporary
 * name beside the final one, renamed once gnuplot succeeded). */
#ifndef HM_FIGURE_GNUPLOT_H
#define HM_FIGURE_GNUPLOT_H
#include <stddef.h>
#include <stdio.h>

/* Where and how figures are written. */
typedef struct hm__plot_out {
    char gnuplot[4096]; /* absolute path of the program */
    char dir[4096];     /* output directory ("." for the current one) */
    char tmpdir[4096];  /* scratch directory, removed by hm__plot_out_close */
    int svg, png;       /* formats wanted */
    int pngcairo;       /* gnuplot has the pngcairo terminal (else png) */
    void (*image)(const char *path, const char *what, void *ctx); /* each image published */
    void *ctx;
} hm__plot_out_t;

/* One figure in progress: its data blocks (separated by two blank lines, so
 * that gnuplot's "index N" picks block N) and its plot commands, which read
 * the data through the gnuplot variable "data". */
typedef struct hm__plot_script {
    FILE *data, *body;
    char data_path[4200], body_path[4200];
    int blocks; /* blocks ended so far */
    /* The canvas in pixels; 0: the default 800 x 500. A figure of several
     * maps asks for room for each. */
    int width_px, height_px;
} hm__plot_script_t;

/* The absolute path of the first executable "gnuplot" in PATH into path.
 * HM_ENOENT when there is none. */
int hm__plot_find_gnuplot(char *path, size_t len);

/* Prepare out (gnuplot and dir filled in by the caller): create the output
 * directory if it does not exist (its parent must), the scratch directory,
 * and ask gnuplot whether it has pngcairo when PNG is wanted. HM_EINVAL with
 * the reason as the last error when the directory cannot be used,
 * HM_EIO for the scratch directory or gnuplot failing to start. */
int hm__plot_out_open(hm__plot_out_t *out);

/* Run gnuplot on the script file, at most a minute. HM_EIO with the reason
 * (gnuplot's first error line) as the last error. */
int hm__plot_run_gnuplot(const hm__plot_out_t *out, const char *script);

/* Remove the scratch directory and what is in it. */
void hm__plot_out_close(hm__plot_out_t *out);

/* Start the figure named kind in the scratch directory. HM_EIO. */
int hm__plot_script_open(const hm__plot_out_t *out, const char *kind, hm__plot_script_t *s);

/* End the current data block; returns its index. */
int hm__plot_end_block(hm__plot_script_t *s);

/* Write text as a gnuplot single-quoted string ('it''s'). */
void hm__plot_quote(FILE *f, const char *text);

/* Before any drawing: every image of stem and kind that the wanted formats
 * would write must be a path a result may take (hm_afile_check: a regular
 * file or nothing, in a writable directory); HM_EINVAL (or the check's
 * status) with the last error naming the image otherwise. */
int hm__plot_check_images(const hm__plot_out_t *out, const char *stem, const char *kind);

/* Close the figure's files, run gnuplot on them, publish
 * <dir>/<stem>-<kind>.svg and/or .png and hand each image to out->image:
 * its path and what (a description). HM_EIO with the reason (and
 * gnuplot's first error line) as the last error; no partial image is left. */
int hm__plot_render(const hm__plot_out_t *out, hm__plot_script_t *s, const char *stem,
                    const char *kind, const char *what);

/* Close the files of a figure that will not be drawn. */
void hm__plot_script_abort(hm__plot_script_t *s);
#endif
