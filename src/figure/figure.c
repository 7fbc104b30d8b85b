/* src/figure/figure.c — hm_figure_draw: every input read into the
 * figures it feeds (plot_input.c), then each figure drawn with gnuplot
 * (plot_render.c), traces on their own (plot_trace.c). */
#include <stdlib.h>
#include <string.h>

#include <harmonia/figure.h>

#include "common/error_set.h"
#include "figure/plot_figure.h"
#include "figure/plot_gnuplot.h"
#include "figure/plot_input.h"
#include "figure/plot_trace.h"

/* The figures: image name suffix and how each is drawn (plot_input.h's
 * order). */
typedef struct figure {
    const char *kind;
    hm__plot_draw_t draw;
} figure_t;

static const figure_t figures[HM_NFIG] = {
    [HM_FIG_LATENCY] = {"latency", hm__plot_draw_latency},
    [HM_FIG_DISTRIBUTION] = {"distribution", hm__plot_draw_distribution},
    [HM_FIG_CAMPAIGN] = {"campaign", hm__plot_draw_campaign},
    [HM_FIG_CLOCK] = {"clock", hm__plot_draw_clock},
    [HM_FIG_CLOCK_RANKS] = {"clock-ranks", hm__plot_draw_clock_ranks},
    [HM_FIG_SKEW] = {"skew", hm__plot_draw_skew},
    [HM_FIG_SKEW_QUANTILES] = {"skew-quantiles", hm__plot_draw_skew_quantiles},
    [HM_FIG_OVERLAP] = {"overhead", hm__plot_draw_overlap},
    [HM_FIG_OVERLAP_RATIOS] = {"overlap-ratios", hm__plot_draw_overlap_ratios},
    [HM_FIG_IMPACT] = {"impact", hm__plot_draw_impact},
    [HM_FIG_MATRIX] = {"matrix", hm__plot_draw_matrix},
    [HM_FIG_BANDWIDTH] = {"bandwidth", hm__plot_draw_bandwidth},
    [HM_FIG_SCALE_DURATION] = {"scale-duration", hm__plot_draw_scale_duration},
    [HM_FIG_SCALE_ERROR] = {"scale-error", hm__plot_draw_scale_error},
    [HM_FIG_SCALE_SKEW] = {"scale-skew", hm__plot_draw_scale_skew},
    [HM_FIG_SCALE_BENCH] = {"scale-bench", hm__plot_draw_scale_bench},
    [HM_FIG_OVERLAP_DISTRIBUTION] = {"overlap-distribution", hm__plot_draw_overlap_distribution},
    [HM_FIG_OVERLAP_CAMPAIGN] = {"overlap-campaign", hm__plot_draw_overlap_campaign},
};

void hm_figure_params_default(hm_figure_params_t *p)
{
    if (!p) {
        hm__error_null(__func__, "params");
        return;
    }
    memset(p, 0, sizeof *p);
    p->dir = ".";
    p->formats = HM_FIGURE_SVG;
    p->metric = HM_METRIC_GLOBAL;
}

static int fail(hm_figure_failed_t *failed, hm_figure_failed_t what, int rc)
{
    if (failed) *failed = what;
    return rc;
}

/* The stems of the files feeding d, distinct, joined by '+'; a long list is
 * cut to the first stem and a count, so that the name stays a usable one. */
static void figure_stem(const hm__plot_data_t *d, char *stem, size_t len)
{
    size_t nstems = 0, used = 0;
    int fits = 1;
    stem[0] = '\0';
    for (size_t i = 0; i < d->ns; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = !strcmp(d->s[j].src->stem, d->s[i].src->stem);
        if (seen) continue;
        if (nstems++ && used + strlen(d->s[i].src->stem) + 1 > 80) fits = 0;
        if (fits)
            used += (size_t)snprintf(stem + used, len - used, "%s%s", used ? "+" : "",
                                     d->s[i].src->stem);
    }
    if (!fits) snprintf(stem, len, "%s+%zu-more", d->s[0].src->stem, nstems - 1);
}

static int draw_figure(const hm_figure_params_t *p, const hm__plot_out_t *out, hm__plot_fig_t f,
                       hm__plot_data_t *d)
{
    char stem[300], what[256];
    hm__plot_script_t s;
    hm__plot_data_sort(d);
    hm__plot_data_label(d);
    figure_stem(d, stem, sizeof stem);
    int rc = hm__plot_script_open(out, figures[f].kind, &s);
    if (rc != HM_OK) return rc;
    const char *metric = hm_results_metric_name(p->metric); /* the titles' words */
    if ((rc = figures[f].draw(d, metric, &s, what, sizeof what)) != HM_OK) {
        hm__plot_script_abort(&s);
        return hm__error_set(rc, "plot: %s", hm_last_error());
    }
    return hm__plot_render(out, &s, stem, figures[f].kind, what);
}

static int read_inputs(const hm_figure_params_t *p, hm__plot_source_t *src, hm__plot_data_t *fig)
{
    int rc = HM_OK;
    for (int i = 0; rc == HM_OK && i < p->ninputs; i++) {
        if (hm__plot_is_trace(p->inputs[i])) continue; /* drawn on their own (draw_all) */
        src[i].partial_fn = p->partial, src[i].ctx = p->ctx;
        rc = hm__plot_read_file(p->inputs[i], &src[i], p->metric, fig);
    }
    if (rc == HM_ENOMEM) hm__error_set(rc, "plot: %s", hm_last_error());
    return rc;
}

/* Every image's path, before the first is drawn: a FIFO, a device or a
 * directory under an image's name is refused, not replaced. */
static int check_images(const hm__plot_out_t *out, hm__plot_data_t *fig)
{
    char stem[300];
    int rc = HM_OK;
    for (int f = 0; rc == HM_OK && f < HM_NFIG; f++) {
        if (!fig[f].ns) continue;
        figure_stem(&fig[f], stem, sizeof stem);
        rc = hm__plot_check_images(out, stem, figures[f].kind);
    }
    return rc;
}

static int draw_all(const hm_figure_params_t *p, hm__plot_out_t *out, hm__plot_data_t *fig,
                    hm_figure_failed_t *failed)
{
    int rc = hm__plot_out_open(out);
    if (rc != HM_OK) return fail(failed, HM_FIGURE_FAILED_DIR, rc);
    if ((rc = check_images(out, fig)) != HM_OK) {
        hm__plot_out_close(out); /* keeps the last error */
        return fail(failed, HM_FIGURE_FAILED_IMAGE, rc);
    }
    for (int f = 0; rc == HM_OK && f < HM_NFIG; f++)
        if (fig[f].ns) rc = draw_figure(p, out, (hm__plot_fig_t)f, &fig[f]);
    for (int i = 0; rc == HM_OK && i < p->ninputs; i++)
        if (hm__plot_is_trace(p->inputs[i])) rc = hm__plot_trace(&p->select, out, p->inputs[i]);
    hm__plot_out_close(out);
    return rc == HM_OK ? HM_OK : fail(failed, HM_FIGURE_FAILED_DRAW, rc);
}

/* A selection of a call or a window applies to traces only: on result
 * files alone it would be accepted and change nothing (issue 31). */
static int any_trace(const hm_figure_params_t *p)
{
    for (int i = 0; i < p->ninputs; i++)
        if (hm__plot_is_trace(p->inputs[i])) return 1;
    return 0;
}

int hm_figure_draw(const hm_figure_params_t *p, hm_figure_failed_t *failed)
{
    if (failed) *failed = HM_FIGURE_FAILED_NONE;
    if (!p) return fail(failed, HM_FIGURE_FAILED_INPUT, hm__error_null(__func__, "params"));
    if (p->ninputs < 0 || (p->ninputs && !p->inputs) || !p->dir)
        return fail(failed, HM_FIGURE_FAILED_INPUT,
                    hm__error_set(HM_EINVAL, "plot: the inputs and a directory"));
    if (p->ninputs == 0)
        return fail(failed, HM_FIGURE_FAILED_INPUT,
                    hm__error_set(HM_EINVAL, "plot: no input files"));
    if (p->select.kind != HM_FIGURE_SELECT_WIDEST && !any_trace(p))
        return fail(failed, HM_FIGURE_FAILED_INPUT,
                    hm__error_set(HM_EINVAL, "--select: no input is a trace (it picks a call or "
                                             "a window of a trace: a directory of harmonia "
                                             "trace, or its trace.csv)"));
    hm__plot_out_t *out = calloc(1, sizeof *out);
    hm__plot_source_t *src = calloc((size_t)p->ninputs, sizeof *src);
    hm__plot_data_t fig[HM_NFIG] = {{0}};
    int rc = out && src ? HM_OK : hm__error_set(HM_ENOMEM, "plot: %s", hm_strerror(HM_ENOMEM));
    if (rc != HM_OK) fail(failed, HM_FIGURE_FAILED_INPUT, rc);
    if (rc == HM_OK && (rc = hm__plot_find_gnuplot(out->gnuplot, sizeof out->gnuplot)) != HM_OK)
        fail(failed, HM_FIGURE_FAILED_GNUPLOT, rc);
    if (rc == HM_OK && (rc = read_inputs(p, src, fig)) != HM_OK)
        fail(failed, HM_FIGURE_FAILED_INPUT, rc);
    if (rc == HM_OK) {
        snprintf(out->dir, sizeof out->dir, "%s", p->dir);
        out->svg = (p->formats & HM_FIGURE_SVG) != 0;
        out->png = (p->formats & HM_FIGURE_PNG) != 0;
        out->image = p->image, out->ctx = p->ctx;
        rc = draw_all(p, out, fig, failed);
    }
    for (int f = 0; f < HM_NFIG; f++) hm__plot_data_free(&fig[f]);
    free(src);
    free(out);
    return rc;
}
