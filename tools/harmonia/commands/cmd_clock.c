/* tools/harmonia/commands/cmd_clock.c — `harmonia clock`: synchronize with each algorithm in
 * turn (fresh each time), then check the global clock right after and after
 * each wait (Hunold & Carpen-Amarie 2018, Alg. 6): offsets against rank 0 by ping-pong, and the
 * true error where the truth is known (one shared clock, or synthetic). */
#include <stdio.h>
#include <string.h>

#include <harmonia/clock_study.h>

#include "commands/clock_report.h"
#include "commands/commands.h"

/* The synchronization's failure, its sentence (or the status's text)
 * named by the option. */
static int sync_error(MPI_Comm comm, int rc, const char *spec)
{
    const char *said = hm_last_error();
    hm_error_set(HM_EINVAL, "--clock-sync %s: %s", spec, said[0] ? said : hm_strerror(rc));
    /* A refusal of the request itself (prop over ranks without a shared
     * source) is a usage error; anything else failed at run time. */
    int status = rc == HM_EINVAL || rc == HM_ENOENT ? HM_EINVAL : HM_EFAILED;
    return cli_agree(comm, status, hm_last_error());
}

/* What the study of one spec reports to: the progress line and the report. */
typedef struct clock_sink {
    const char *spec;
    cli_clock_report_t *rep;
    cli_progress_t progress;
} clock_sink_t;

static void on_waiting(void *arg, int w, double after_s)
{
    clock_sink_t *s = arg;
    char what[sizeof s->progress.what + 64];
    (void)w;
    cli_progress_clear(&s->progress);
    snprintf(what, sizeof what, "clock %.64s: waiting for the check after %g s", s->spec, after_s);
    cli_progress_stage(&s->progress, what, "s");
}

static int on_check(void *ctx, const hm_clock_study_check_t *c)
{
    clock_sink_t *s = ctx;
    cli_progress_clear(&s->progress);
    cli_clock_report_add(s->rep, s->spec, c);
    return HM_OK;
}

/* One algorithm: synchronize, then check after each wait (hm_clock_study). */
static int run_spec(cli_config_t *cfg, MPI_Comm comm, hm_clock_t *base, const char *spec,
                    cli_clock_report_t *rep)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    clock_sink_t sink = {.spec = spec, .rep = rep};
    hm_clock_study_params_t p = {.spec = spec,
                                 .check_after_s = cfg->check_after_s,
                                 .ncheck_after = cfg->ncheck_after,
                                 .exchanges = cfg->exchanges,
                                 .sample = cfg->sample,
                                 .seed = cfg->seed,
                                 .waiting = on_waiting,
                                 .wait_progress = {cli_progress_report, &sink.progress},
                                 .waiting_arg = &sink};
    char what[sizeof sink.progress.what + 64];
    cli_sync_params(cfg, &p.sync);
    cli_progress_init(&sink.progress, rank == 0);
    snprintf(what, sizeof what, "clock %.64s: pair fit", spec);
    cli_progress_stage(&sink.progress, what, "fit points");
    p.sync.progress = (hm_progress_t){cli_progress_report, &sink.progress};
    hm_clock_study_failed_t failed;
    int rc = hm_clock_study(comm, base, &p, rep->offsets_s, rep->true_errors_s, on_check, &sink,
                            &failed);
    cli_progress_clear(&sink.progress);
    if (rc == HM_OK) return HM_OK;
    if (failed == HM_CLOCK_STUDY_FAILED_SYNC) return sync_error(comm, rc, spec);
    return cli_agree(comm, HM_EFAILED, hm_last_error());
}

int cli_cmd_clock(cli_config_t *cfg, MPI_Comm comm)
{
    hm_timer_t *timer = NULL;
    hm_clock_t *base = NULL;
    cli_clock_report_t *rep = NULL;
    char specs[sizeof cfg->clock_sync];
    int size;
    MPI_Comm_size(comm, &size);
    int rc = cli_agree(comm, cli_check_applies(cfg, NULL, size), hm_last_error());
    if (rc == HM_OK) rc = cli_check_outputs(cfg, comm);
    if (rc == HM_OK) rc = cli_open_clock(cfg, comm, &timer, &base);
    if (rc == HM_OK) rc = cli_clock_report_open(cfg, comm, timer, &rep);
    strcpy(specs, cfg->clock_sync);
    for (char *spec = specs, *next; rc == HM_OK && spec; spec = next) {
        next = strchr(spec, ',');
        if (next) *next++ = '\0';
        rc = run_spec(cfg, comm, base, spec, rep);
    }
    if (rep) rc = cli_clock_report_close(rep, comm, rc);
    hm_clock_free(base);
    hm_timer_free(timer);
    return rc;
}
