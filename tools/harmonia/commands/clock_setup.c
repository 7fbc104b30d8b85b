/* tools/harmonia/commands/clock_setup.c — the time source and clock parameters every MPI
 * command starts from, built the same way everywhere. */
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"

int cli_clock_domain(const cli_config_t *cfg, MPI_Comm comm)
{
    int rank, domain;
    MPI_Comm_rank(comm, &rank);
    /* Only a synthetic clock reads its domain: a real one is spared the splits. */
    if (!cfg->synthetic) return rank;
    return hm_topo_clock_domain(comm, cfg->ranks_per_node, &domain) == HM_OK ? domain : rank;
}

hm_timer_options_t cli_timer_options(const cli_config_t *cfg, int rank, int domain)
{
    hm_timer_options_t o = {.tsc_ghz = cfg->tsc_ghz,
                            .synthetic = cfg->synthetic,
                            .spec = cfg->synthetic_spec,
                            .seed = cfg->seed,
                            .domain = domain,
                            .rank = rank,
                            /* Testing (docs/testbed.md): the program, not the
                             * library, reads the environment. */
                            .cpuinfo_path = getenv("HARMONIA_CPUINFO")};
    return o;
}

int cli_open_timer(const cli_config_t *cfg, MPI_Comm comm, const char *name, hm_timer_t **timer)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    hm_timer_options_t o = cli_timer_options(cfg, rank, cli_clock_domain(cfg, comm));
    int rc = hm_timer_create(name, &o, timer);
    if (rc != HM_OK) hm_error_set(HM_EINVAL, "--timer %s: %s", name, hm_last_error());
    rc = cli_agree(comm, rc == HM_OK ? HM_OK : HM_EINVAL, hm_last_error());
    if (rc != HM_OK) {
        hm_timer_free(*timer);
        *timer = NULL;
        return rc;
    }
    hm_timer_agree_origin(*timer, comm);
    return HM_OK;
}

int cli_open_clock(const cli_config_t *cfg, MPI_Comm comm, hm_timer_t **timer, hm_clock_t **base)
{
    *base = NULL;
    int rc = cli_open_timer(cfg, comm, cfg->timer, timer);
    if (rc != HM_OK) return rc;
    int ok = hm_clock_identity(*timer, base) == HM_OK;
    return cli_agree(comm, ok ? HM_OK : HM_EFAILED, ok ? "" : "out of memory");
}

void cli_sync_params(const cli_config_t *cfg, hm_sync_params_t *p)
{
    hm_sync_params_default(p);
    p->fitpoints = cfg->fitpoints;
    p->exchanges = cfg->exchanges;
    p->offset = cfg->offset;
    p->drift = cfg->drift;
    p->recompute_intercept = cfg->recompute_intercept;
    p->ranks_per_node = cfg->ranks_per_node;
    p->ranks_per_socket = cfg->ranks_per_socket;
}
