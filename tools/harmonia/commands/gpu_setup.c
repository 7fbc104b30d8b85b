/* tools/harmonia/commands/gpu_setup.c — a run's GPUs: usable, selected,
 * printed once, recorded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/gpu.h>
#include <harmonia/output.h>

#include "commands/commands.h"
#include "commands/gpu_setup.h"

int cli_gpu_check(const char *what)
{
    int count;
    if (hm_gpu_count(&count) == HM_OK) return HM_OK;
    hm_error_set(HM_EINVAL, "%s: %s", what, hm_last_error());
    return HM_EINVAL;
}

/* One line of factors: the hosts' lines joined with "; ". */
static int record(hm_factors_t *factors, char *mapping)
{
    for (char *c = mapping; *c; c++)
        if (*c == '\n') *c = ';';
    return hm_factors_set(factors, "gpu_mapping", "%s", mapping);
}

int cli_gpu_setup(const cli_config_t *cfg, MPI_Comm comm, int device, hm_factors_t *factors)
{
    int rank, gpu = -1;
    MPI_Comm_rank(comm, &rank);
    if (!device) {
        if (!(cfg->given & HM_OPT_BIT(HM_OPT_GPUS_PER_NODE))) return HM_OK;
        hm_error_set(HM_EINVAL,
                     "--gpus-per-node %d: the run uses no GPU (give a GPU backend or --memory "
                     "device)",
                     cfg->gpus_per_node);
        return cli_agree(comm, HM_EINVAL, hm_last_error());
    }
    int rc = hm_gpu_select(comm, cfg->gpus_per_node, &gpu);
    if (rc != HM_OK) {
        hm_error_set(HM_EINVAL, "%s%s", rc == HM_EINVAL ? "--gpus-per-node: " : "",
                     hm_last_error());
        return cli_agree(comm, rc == HM_EINVAL ? HM_EINVAL : HM_EFAILED, hm_last_error());
    }
    char *mapping = NULL;
    rc = hm_gpu_mapping(comm, gpu, &mapping);
    int status = rc == HM_OK ? HM_OK : HM_EFAILED;
    if (rank == 0 && mapping) {
        printf("GPUs: %s\n", mapping);
        fflush(stdout);
        if (factors && record(factors, mapping) != HM_OK)
            status = HM_EFAILED, hm_error_set(HM_EINVAL, "out of memory");
    }
    free(mapping);
    return cli_agree(comm, status, hm_last_error());
}
