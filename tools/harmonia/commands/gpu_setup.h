/* tools/harmonia/commands/gpu_setup.h — the GPUs of a run that uses device
 * memory (`pattern` with a GPU backend or --memory device): usable or not,
 * each rank's device, the mapping printed once and recorded. */
#ifndef HM_CLI_GPU_SETUP_H
#define HM_CLI_GPU_SETUP_H
#include <stddef.h>

#include <harmonia/experiment.h>

#include "options/config.h"

/* Local: HM_EINVAL with the sentence in why when this process cannot
 * use a device for what (the option that asked: "--backend nccl",
 * "--memory device"), else HM_OK. Callers agree on it. */
int cli_gpu_check(const char *what);

/* Collective: with device (the run's buffers are device memory), each rank
 * takes its device (--gpus-per-node, else every device of its node), rank 0
 * prints the mapping once ("GPUs: HOST: rank 0 -> GPU 0 NAME [BUS], ..."),
 * and factors (NULL: none) record it as gpu_mapping. Without device,
 * --gpus-per-node is refused. Agreed status, failure printed once. */
int cli_gpu_setup(const cli_config_t *cfg, MPI_Comm comm, int device, hm_factors_t *factors);
#endif
