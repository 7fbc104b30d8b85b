/* tools/harmonia/plot/cmd_plot.c — `harmonia plot FILE...`: figures of result files with
 * gnuplot. Offline: no MPI. Every input is read (and every problem with it
 * reported as a usage error naming the file and line) before any figure is
 * drawn; each figure gathers the series of all files that feed it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "plot/plot_figure.h"
#include "plot/plot_gnuplot.h"
#include "plot/plot_input.h"
#include "plot/plot_trace.h"

/* The figures: image name suffix and how each is drawn (plot_input.h's
 * order). */
typedef struct figure {
    const char *kind;
    cli_plot_draw_t draw;
} figure_t;

static const figure_t figures[HM_NFIG] = {
    [HM_FIG_LATENCY] = {"latency", cli_plot_draw_latency},
    [HM_FIG_DISTRIBUTION] = {"distribution", cli_plot_draw_distribution},
    [HM_FIG_CAMPAIGN] = {"campaign", cli_plot_draw_campaign},
    [HM_FIG_CLOCK] = {"clock", cli_plot_draw_clock},
    [HM_FIG_CLOCK_RANKS] = {"clock-ranks", cli_plot_draw_clock_ranks},
    [HM_FIG_SKEW] = {"skew", cli_plot_draw_skew},
    [HM_FIG_SKEW_QUANTILES] = {"skew-quantiles", cli_plot_draw_skew_quantiles},
    [HM_FIG_OVERLAP] = {"overhead", cli_plot_draw_overlap},
    [HM_FIG_OVERLAP_RATIOS] = {"overlap-ratios", cli_plot_draw_overlap_ratios},
    [HM_FIG_IMPACT] = {"impact", cli_plot_draw_impact},
    [HM_FIG_MATRIX] = {"matrix", cli_plot_draw_matrix},
    [HM_FIG_SCALE_DURATION] = {"scale-duration", cli_plot_draw_scale_duration},
    [HM_FIG_SCALE_ERROR] = {"scale-error", cli_plot_draw_scale_error},
    [HM_FIG_SCALE_SKEW] = {"scale-skew", cli_plot_draw_scale_skew},
    [HM_FIG_SCALE_BENCH] = {"scale-bench", cli_plot_draw_scale_bench},
};

/* The stems of the files feeding d, distinct, joined by '+'; a long list is
 * cut to the first stem and a count, so that the name stays a usable one. */
static void figure_stem(const cli_plot_data_t *d, char *stem, size_t len)
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

static int draw_figure(const cli_config_t *cfg, const cli_plot_out_t *out, cli_plot_fig_t f,
                       cli_plot_data_t *d)
{
    char stem[300], what[256];
    cli_plot_script_t s;
    cli_plot_data_sort(d);
    cli_plot_data_label(d);
    figure_stem(d, stem, sizeof stem);
    int rc = cli_plot_script_open(out, figures[f].kind, &s);
    if (rc != HM_OK) return rc;
    const char *metric = hm_results_metric_name(cfg->metric); /* the titles' words */
    if ((rc = figures[f].draw(d, metric, &s, what, sizeof what)) != HM_OK) {
        cli_plot_script_abort(&s);
        hm_error_set(HM_EINVAL, "plot: %s", hm_strerror(rc));
        return rc;
    }
    return cli_plot_render(out, &s, stem, figures[f].kind, what);
}

/* --format: svg unless given (the default "table" belongs to the other
 * commands). */
static void formats(const cli_config_t *cfg, cli_plot_out_t *out)
{
    int given = (cfg->given & HM_OPT_BIT(HM_OPT_FORMAT)) != 0;
    out->svg = !given || !strcmp(cfg->format, "svg") || !strcmp(cfg->format, "both");
    out->png = given && (!strcmp(cfg->format, "png") || !strcmp(cfg->format, "both"));
}

static int read_inputs(const cli_config_t *cfg, cli_plot_source_t *src, cli_plot_data_t *fig)
{
    int rc = HM_OK;
    for (int i = 0; rc == HM_OK && i < cfg->nfiles; i++)
        if (!cli_plot_is_trace(cfg->files[i])) /* traces: drawn on their own (draw_traces) */
            rc = cli_plot_read_file(cfg->files[i], &src[i], cfg->metric, fig);
    if (rc == HM_OK) return HM_EXIT_OK;
    if (rc == HM_ENOMEM) {
        cli_print_error("plot: %s", hm_strerror(rc));
        return HM_EXIT_FAILURE;
    }
    cli_print_error("%s", hm_last_error());
    return HM_EXIT_USAGE;
}

/* Every image's path, before the first is drawn: a FIFO, a device or a
 * directory under an image's name is refused, not replaced. */
static int check_images(const cli_plot_out_t *out, cli_plot_data_t *fig)
{
    char stem[300];
    int rc = HM_OK;
    for (int f = 0; rc == HM_OK && f < HM_NFIG; f++) {
        if (!fig[f].ns) continue;
        figure_stem(&fig[f], stem, sizeof stem);
        rc = cli_plot_check_images(out, stem, figures[f].kind);
    }
    return rc;
}

static int draw_all(const cli_config_t *cfg, cli_plot_out_t *out, cli_plot_data_t *fig)
{
    char why[4608] = ""; /* what failed, kept over the clean-up below */
    int rc = cli_plot_out_open(out);
    if (rc != HM_OK) snprintf(why, sizeof why, "%s", hm_last_error());
    if (rc == HM_OK && (rc = check_images(out, fig)) != HM_OK) {
        snprintf(why, sizeof why, "%s", hm_last_error());
        cli_plot_out_close(out);
        cli_print_error("%s", why);
        return HM_EXIT_USAGE;
    }
    if (rc != HM_OK) {
        cli_plot_out_close(out);
        cli_print_error("%s", why);
        return rc == HM_EINVAL ? HM_EXIT_USAGE : HM_EXIT_FAILURE;
    }
    for (int f = 0; rc == HM_OK && f < HM_NFIG; f++)
        if (fig[f].ns) rc = draw_figure(cfg, out, (cli_plot_fig_t)f, &fig[f]);
    for (int i = 0; rc == HM_OK && i < cfg->nfiles; i++)
        if (cli_plot_is_trace(cfg->files[i])) rc = cli_plot_trace(cfg, out, cfg->files[i]);
    if (rc != HM_OK) snprintf(why, sizeof why, "%s", hm_last_error());
    cli_plot_out_close(out);
    if (rc == HM_EINVAL) {
        cli_print_error("%s", why);
        return HM_EXIT_USAGE;
    }
    if (rc == HM_OK) return HM_EXIT_OK;
    cli_print_error("%s", why);
    return HM_EXIT_FAILURE;
}

int cli_cmd_plot(cli_config_t *cfg, MPI_Comm comm)
{
    (void)comm;
    cli_plot_out_t *out = calloc(1, sizeof *out);
    cli_plot_source_t *src = calloc((size_t)cfg->nfiles + 1, sizeof *src);
    cli_plot_data_t fig[HM_NFIG] = {{0}};
    int status = HM_EXIT_OK;
    if (!out || !src) {
        cli_print_error("plot: %s", hm_strerror(HM_ENOMEM));
        status = HM_EXIT_FAILURE;
    } else if (cfg->nfiles == 0) {
        cli_print_error("plot: no input files (usage: harmonia plot [options] FILE...)");
        status = HM_EXIT_USAGE;
    } else if (cli_plot_find_gnuplot(out->gnuplot, sizeof out->gnuplot) != HM_OK) {
        cli_print_error("plot: gnuplot not found in PATH (install gnuplot-nox)");
        status = HM_EXIT_FAILURE;
    }
    if (status == HM_EXIT_OK && cli_check_outputs(cfg, MPI_COMM_NULL) != HM_EXIT_OK)
        status = HM_EXIT_USAGE;
    if (status == HM_EXIT_OK) status = read_inputs(cfg, src, fig);
    if (status == HM_EXIT_OK) {
        snprintf(out->dir, sizeof out->dir, "%s", cfg->dir);
        formats(cfg, out);
        status = draw_all(cfg, out, fig);
    }
    for (int f = 0; f < HM_NFIG; f++) cli_plot_data_free(&fig[f]);
    free(src);
    free(out);
    return status;
}
