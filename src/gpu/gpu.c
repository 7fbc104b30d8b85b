/* src/gpu/gpu.c — which GPUs a process has and which one a rank uses. The
 * CUDA runtime API is plain C: no kernel is compiled, so the layer builds
 * with the C compiler alone. In a build without CUDA every query answers
 * that there is no device, with the sentence that says why. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/gpu.h>
#include <harmonia/agree.h>

#include "common/comm_check.h"
#include "common/error_set.h"

#if HM_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif
#if HM_HAVE_NCCL
#include <nccl.h>
#endif
#if HM_MPI_EXT_H
#include <mpi-ext.h>
#endif

int hm_gpu_built(void)
{
    return HM_HAVE_CUDA;
}

int hm_gpu_nccl_built(void)
{
    return HM_HAVE_NCCL;
}

int hm_gpu_mpi_cuda_aware(void)
{
#if HM_MPI_CUDA_QUERY
    if (MPIX_Query_cuda_support() == 1) return HM_OK;
    return hm__error_set(HM_ENOTSUP,
                         "this MPI is not CUDA-aware (MPIX_Query_cuda_support() returns 0)");
#else
    return hm__error_set(
        HM_ENOTSUP, "this MPI cannot say whether it is CUDA-aware (no MPIX_Query_cuda_support)");
#endif
}

void hm_gpu_versions(hm_gpu_versions_t *out)
{
    if (!out) {
        hm__error_null(__func__, "out");
        return;
    }
    memset(out, 0, sizeof *out);
#if HM_HAVE_CUDA
    if (cudaRuntimeGetVersion(&out->runtime) != cudaSuccess) out->runtime = 0;
    if (cudaDriverGetVersion(&out->driver) != cudaSuccess) out->driver = 0;
#endif
#if HM_HAVE_NCCL
    if (ncclGetVersion(&out->nccl) != ncclSuccess) out->nccl = 0;
#endif
}

/* CUDA writes major * 1000 + minor * 10; NCCL 2.9 and later major * 10000
 * + minor * 100 + patch (nccl.h, NCCL_VERSION_CODE). */
static void cuda_version(char *buf, size_t len, const char *what, int v)
{
    if (v > 0)
        snprintf(buf, len, "%s %d.%d", what, v / 1000, v % 1000 / 10);
    else
        snprintf(buf, len, "no %s", what);
}

void hm_gpu_versions_text(char *buf, size_t len)
{
    if (!buf) {
        hm__error_null(__func__, "buf");
        return;
    }
    if (!HM_HAVE_CUDA) {
        snprintf(buf, len, "built without CUDA");
        return;
    }
    hm_gpu_versions_t v;
    char runtime[48], driver[48], nccl[48] = "no NCCL";
    hm_gpu_versions(&v);
    cuda_version(runtime, sizeof runtime, "CUDA runtime", v.runtime);
    cuda_version(driver, sizeof driver, "driver", v.driver);
    if (v.nccl > 0)
        snprintf(nccl, sizeof nccl, "NCCL %d.%d.%d", v.nccl / 10000, v.nccl % 10000 / 100,
                 v.nccl % 100);
    snprintf(buf, len, "%s, %s, %s", runtime, driver, nccl);
}

int hm_gpu_count(int *count)
{
    if (!count) return hm__error_null(__func__, "count");
    *count = 0;
#if HM_HAVE_CUDA
    cudaError_t e = cudaGetDeviceCount(count);
    if (e != cudaSuccess) {
        *count = 0;
        return hm__error_set(HM_ENOTSUP, "no GPU: %s (%s)", cudaGetErrorString(e),
                             cudaGetErrorName(e));
    }
    if (*count < 1) return hm__error_set(HM_ENOTSUP, "no GPU: the CUDA runtime sees no device");
    return HM_OK;
#else
    return hm__error_set(HM_ENOTSUP, "no GPU: this harmonia was built without CUDA (configure with "
                                     "-DHARMONIA_CUDA=on)");
#endif
}

int hm_gpu_describe(int index, hm_gpu_device_t *out)
{
    if (!out) return hm__error_null(__func__, "out");
    int count;
    int rc = hm_gpu_count(&count);
    if (rc != HM_OK) return rc;
    if (index < 0 || index >= count)
        return hm__error_set(HM_EINVAL, "GPU %d: this process sees devices 0 to %d", index,
                             count - 1);
    memset(out, 0, sizeof *out);
    out->index = index;
#if HM_HAVE_CUDA
    struct cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, index);
    if (e == cudaSuccess) e = cudaDeviceGetPCIBusId(out->pci_bus_id, sizeof out->pci_bus_id, index);
    if (e != cudaSuccess)
        return hm__error_set(HM_ENOTSUP, "GPU %d: %s", index, cudaGetErrorString(e));
    snprintf(out->name, sizeof out->name, "%s", p.name);
    out->memory_bytes = p.totalGlobalMem;
    out->cc_major = p.major, out->cc_minor = p.minor;
#endif
    return HM_OK;
}

int hm_gpu_device_for(int node_rank, int gpus_per_node, int count, int *device)
{
    if (!device) return hm__error_null(__func__, "device");
    if (count < 1) return hm__error_set(HM_ENOTSUP, "no GPU: the node shows no device");
    if (node_rank < 0)
        return hm__error_set(HM_EINVAL, "node rank %d: a rank is 0 or more", node_rank);
    if (gpus_per_node < 0 || gpus_per_node > count)
        return hm__error_set(HM_EINVAL, "%d GPUs per node: the node shows %d (accepted: 0 to %d)",
                             gpus_per_node, count, count);
    *device = node_rank % (gpus_per_node > 0 ? gpus_per_node : count);
    return HM_OK;
}

/* Local: this rank's device, made current. */
static int select_local(MPI_Comm node, int gpus_per_node, int *device)
{
    int node_rank, count;
    MPI_Comm_rank(node, &node_rank);
    int rc = hm_gpu_count(&count);
    if (rc == HM_OK) rc = hm_gpu_device_for(node_rank, gpus_per_node, count, device);
#if HM_HAVE_CUDA
    cudaError_t e = rc == HM_OK ? cudaSetDevice(*device) : cudaSuccess;
    if (e != cudaSuccess)
        rc = hm__error_set(HM_ENOTSUP, "GPU %d: cudaSetDevice: %s", *device, cudaGetErrorString(e));
#endif
    return rc;
}

int hm_gpu_select(MPI_Comm comm, int gpus_per_node, int *device)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    if (!device) return hm__error_null(__func__, "device");
    MPI_Comm node;
    int rank;
    *device = -1;
    MPI_Comm_rank(comm, &rank);
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) != MPI_SUCCESS)
        return hm_agree(comm, hm__error_set(HM_EMPI, "MPI_Comm_split_type(SHARED) failed"));
    int rc = select_local(node, gpus_per_node, device);
    MPI_Comm_free(&node);
    if (rc != HM_OK) {
        /* The sentence names the rank: ranks of several nodes may differ. */
        char why[HM_ERROR_MAX];
        snprintf(why, sizeof why, "%s", hm_last_error());
        hm__error_set(rc, "rank %d: %s", rank, why);
    }
    return hm_agree(comm, rc);
}

/* One rank's line of the mapping, fixed size for a gather. */
typedef struct mapping_row {
    char host[MPI_MAX_PROCESSOR_NAME];
    char text[384];
} mapping_row_t;

static void describe_rank(int rank, int device, mapping_row_t *row)
{
    hm_gpu_device_t d;
    int len = 0;
    memset(row, 0, sizeof *row);
    MPI_Get_processor_name(row->host, &len);
    if (device >= 0 && hm_gpu_describe(device, &d) == HM_OK)
        snprintf(row->text, sizeof row->text, "rank %d -> GPU %d %s [%s]", rank, device, d.name,
                 d.pci_bus_id);
    else
        snprintf(row->text, sizeof row->text, "rank %d -> no GPU", rank);
}

/* Rank 0: the rows grouped by host, in the order hosts first appear. */
static char *join_by_host(const mapping_row_t *rows, int size)
{
    size_t cap = (size_t)size * (sizeof rows->host + sizeof rows->text + 4) + 1, used = 0;
    char *text = malloc(cap);
    unsigned char *done = calloc((size_t)size, 1);
    if (!text || !done) return free(text), free(done), NULL;
    text[0] = '\0';
    for (int r = 0; r < size; r++) {
        if (done[r]) continue;
        used += (size_t)snprintf(text + used, cap - used, "%s%s: ", used ? "\n" : "", rows[r].host);
        for (int q = r, first = 1; q < size; q++) {
            if (done[q] || strcmp(rows[q].host, rows[r].host) != 0) continue;
            used +=
                (size_t)snprintf(text + used, cap - used, "%s%s", first ? "" : ", ", rows[q].text);
            done[q] = 1, first = 0;
        }
    }
    free(done);
    return text;
}

int hm_gpu_mapping(MPI_Comm comm, int device, char **text)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    if (!text) return hm__error_null(__func__, "text");
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    *text = NULL;
    mapping_row_t mine;
    describe_rank(rank, device, &mine);
    mapping_row_t *rows = rank == 0 ? malloc((size_t)size * sizeof *rows) : NULL;
    int ok = rank != 0 || rows != NULL;
    MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
    if (!ok)
        return hm__error_set(HM_ENOMEM, "the GPU mapping: no memory for %d ranks on rank 0", size);
    MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, rows, (int)sizeof mine, MPI_BYTE, 0, comm);
    int rc = HM_OK;
    if (rank == 0 && !(*text = join_by_host(rows, size)))
        rc = hm__error_set(HM_ENOMEM, "the GPU mapping: no memory for %d ranks on rank 0", size);
    free(rows);
    return hm_agree(comm, rc);
}
