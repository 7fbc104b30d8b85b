/* tools/harmonia/commands/cmd_plot.c — `harmonia plot FILE...`: figures of
 * result files with gnuplot, drawn by the library (hm_figure_draw). Offline:
 * no MPI. This maps the options, prints each image and each partial input's
 * warning, and chooses the status from what failed. */
#include <stdio.h>
#include <string.h>

#include <harmonia/figure.h>

#include "commands/analysis_inputs.h"
#include "commands/commands.h"

static void said_image(const char *path, const char *what, void *ctx)
{
    (void)ctx;
    printf("%s: %s\n", path, what);
    fflush(stdout);
}

static void said_partial(const char *path, const char *complete, void *ctx)
{
    (void)ctx;
    cli_warn_partial_once("plot", path, complete);
}

/* --format: svg unless given (the default "table" belongs to the other
 * commands). */
static unsigned formats(const cli_config_t *cfg)
{
    if (!(cfg->given & HM_OPT_BIT(HM_OPT_FORMAT))) return HM_FIGURE_SVG;
    int both = !strcmp(cfg->format, "both");
    return (both || !strcmp(cfg->format, "svg") ? HM_FIGURE_SVG : 0) |
           (both || !strcmp(cfg->format, "png") ? HM_FIGURE_PNG : 0);
}

/* A bad input, directory or image path is the user's to fix (HM_EINVAL);
 * memory, gnuplot and the machine are failures. */
static int plot_status(int rc, hm_figure_failed_t failed)
{
    switch (failed) {
    case HM_FIGURE_FAILED_INPUT:
        return rc == HM_ENOMEM ? HM_EFAILED : HM_EINVAL;
    case HM_FIGURE_FAILED_IMAGE:
        return HM_EINVAL;
    case HM_FIGURE_FAILED_DIR:
    case HM_FIGURE_FAILED_DRAW:
        return rc == HM_EINVAL ? HM_EINVAL : HM_EFAILED;
    default:
        return HM_EFAILED;
    }
}

int cli_cmd_plot(cli_config_t *cfg, MPI_Comm comm)
{
    (void)comm;
    if (cfg->nfiles == 0) {
        cli_print_error("plot: no input files (usage: harmonia plot [options] FILE...)");
        return HM_EINVAL;
    }
    if (cli_check_outputs(cfg, MPI_COMM_NULL) != HM_OK) return HM_EINVAL;
    hm_figure_params_t p;
    hm_figure_params_default(&p);
    p.inputs = cfg->files;
    p.ninputs = cfg->nfiles;
    p.dir = cfg->dir;
    p.formats = formats(cfg);
    p.metric = cfg->metric;
    p.select = (hm_figure_select_t){(hm_figure_select_kind_t)cfg->select.kind, cfg->select.func,
                                    cfg->select.call, cfg->select.from_ms, cfg->select.to_ms};
    p.image = said_image, p.partial = said_partial;
    hm_figure_failed_t failed;
    int rc = hm_figure_draw(&p, &failed);
    if (rc == HM_OK) return HM_OK;
    if (failed == HM_FIGURE_FAILED_DIR && rc == HM_EINVAL)
        cli_print_error("--dir: %s", hm_last_error());
    else
        cli_print_error("%s", hm_last_error());
    return plot_status(rc, failed);
}
