/* include/harmonia/gpu.h — GPUs: whether this build and this process have
 * them, which device a rank uses, and the facts a result records (CUDA
 * runtime and driver, NCCL, each device's name and PCI bus id).
 *
 * GPU support is chosen at configure time (-DHARMONIA_CUDA=auto|on|off). A
 * build without it has every function below: those that need a device
 * return HM_ENOTSUP with a sentence that says so, so that callers need no
 * #if. Device memory is cudaMalloc'd, never managed memory. */
#ifndef HARMONIA_GPU_H
#define HARMONIA_GPU_H
#include <harmonia/export.h>

#include <stddef.h>

#include <mpi.h>

#include <harmonia/error.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Local. 1 when this build has CUDA (hm_gpu_built) or NCCL
 * (hm_gpu_nccl_built), else 0. */
HM_EXPORT int hm_gpu_built(void);
HM_EXPORT int hm_gpu_nccl_built(void);

/* Local: HM_OK when the MPI library says it moves device memory
 * (MPIX_Query_cuda_support() == 1, Open MPI and MPICH), else HM_ENOTSUP
 * with the reason (hm_last_error): the MPI cannot say, or says it does
 * not. */
HM_EXPORT int hm_gpu_mpi_cuda_aware(void);

/* Versions as the libraries give them (CUDA 13.0 = 13000, NCCL 2.27.3 =
 * 22703); 0 where absent: no CUDA in the build, no driver, no NCCL. */
typedef struct hm_gpu_versions {
    int runtime; /* cudaRuntimeGetVersion */
    int driver;  /* cudaDriverGetVersion: the newest CUDA the driver supports */
    int nccl;    /* ncclGetVersion */
} hm_gpu_versions_t;

/* Local. Never fails but for a NULL out: what is absent is 0. */
HM_EXPORT void hm_gpu_versions(hm_gpu_versions_t *out);

/* Local. "CUDA runtime 13.0, driver 13.0, NCCL 2.27.3", "CUDA runtime
 * 13.0, no driver, NCCL 2.27.3", or "built without CUDA"; truncated to len. */
HM_EXPORT void hm_gpu_versions_text(char *buf, size_t len);

/* Local: the devices this process sees (CUDA_VISIBLE_DEVICES applies).
 * HM_OK with *count >= 1; HM_ENOTSUP with a sentence when there is none:
 * a build without CUDA, no driver, no device (the CUDA error named). */
HM_EXPORT int hm_gpu_count(int *count);

/* One device, as results record it. */
typedef struct hm_gpu_device {
    int index;              /* CUDA device index in this process */
    char name[256];         /* "NVIDIA H100 80GB HBM3" */
    char pci_bus_id[32];    /* "0000:19:00.0" (cudaDeviceGetPCIBusId) */
    size_t memory_bytes;    /* global memory */
    int cc_major, cc_minor; /* compute capability */
} hm_gpu_device_t;

/* Local: device index's facts. HM_EINVAL for an index outside 0..count-1,
 * HM_ENOTSUP without a device. */
HM_EXPORT int hm_gpu_describe(int index, hm_gpu_device_t *out);

/* Local and pure: the device of the rank with node-local rank node_rank
 * when the node shows count devices. gpus_per_node 0 means every device
 * (node_rank modulo count); N > 0 uses devices 0..N-1 (node_rank modulo
 * N). HM_EINVAL naming the values for a negative node_rank, a negative
 * gpus_per_node or one above count; HM_ENOTSUP for count < 1. */
HM_EXPORT int hm_gpu_device_for(int node_rank, int gpus_per_node, int count, int *device);

/* Collective over comm: each rank finds its node-local rank (the ranks
 * that share memory with it, MPI_COMM_TYPE_SHARED: the real node, whatever
 * a virtual topology says), picks its device with hm_gpu_device_for and
 * makes it current (cudaSetDevice). The same status and sentence on every
 * rank: HM_ENOTSUP where a rank has no device (naming the rank and why),
 * HM_EINVAL for gpus_per_node above a node's devices. */
HM_EXPORT int hm_gpu_select(MPI_Comm comm, int gpus_per_node, int *device);

/* Collective over comm, after hm_gpu_select: the mapping of every rank to
 * its device, one line per node: "HOST: rank 0 -> GPU 0 NVIDIA H100 80GB
 * HBM3 [0000:19:00.0], rank 1 -> GPU 0 ...". *text is allocated on rank 0
 * (the caller frees it) and NULL elsewhere. HM_ENOMEM on every rank when
 * rank 0 cannot hold it. */
HM_EXPORT int hm_gpu_mapping(MPI_Comm comm, int device, char **text);

/* ---- NCCL ---- */

typedef struct hm_gpu_nccl hm_gpu_nccl_t;

/* Collective over comm, after hm_gpu_select: an NCCL communicator of
 * comm's ranks (rank 0's ncclGetUniqueId broadcast over comm, then
 * ncclCommInitRank on the current device, entered only once every rank
 * agreed it can) and a non-blocking stream. The same status and sentence
 * on every rank: HM_ENOTSUP in a build without NCCL or without a device,
 * HM_EINVAL with NCCL's sentence where it refuses (two ranks on one GPU:
 * "Duplicate GPU detected"). Free with hm_gpu_nccl_free (collective). */
HM_EXPORT int hm_gpu_nccl_create(MPI_Comm comm, hm_gpu_nccl_t **out);
HM_EXPORT void hm_gpu_nccl_free(hm_gpu_nccl_t *nccl);
/* Local: its ncclComm_t and cudaStream_t, for code that includes nccl.h. */
HM_EXPORT void *hm_gpu_nccl_comm(const hm_gpu_nccl_t *nccl);
HM_EXPORT void *hm_gpu_nccl_stream(const hm_gpu_nccl_t *nccl);

#ifdef __cplusplus
}
#endif
#endif
