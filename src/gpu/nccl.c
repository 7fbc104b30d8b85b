/* src/gpu/nccl.c — an NCCL communicator over an MPI communicator's ranks,
 * shared by the pattern layer's nccl backend and the NCCL operations of
 * bench. ncclCommInitRank blocks until every rank has joined, so no rank
 * enters it before all agreed that they can. */
#include <stdlib.h>

#include <harmonia/gpu.h>
#include <harmonia/agree.h>

#include "common/comm_check.h"
#include "common/error_set.h"

#if HM_HAVE_NCCL
#include <cuda_runtime_api.h>
#include <nccl.h>

struct hm_gpu_nccl {
    ncclComm_t comm;
    cudaStream_t stream;
    int have_comm, have_stream;
};

static int nccl_failed(ncclResult_t r, const char *call)
{
    return hm__error_set(r == ncclSystemError ? HM_ENOMEM : HM_EINVAL, "%s: %s (%s)", call,
                         ncclGetErrorString(r), ncclGetLastError(NULL));
}

/* Collective: rank 0's id, or its failure, on every rank. */
static int unique_id(MPI_Comm comm, int rank, ncclUniqueId *id)
{
    int rc = HM_OK;
    if (rank == 0) {
        ncclResult_t r = ncclGetUniqueId(id);
        if (r != ncclSuccess) rc = nccl_failed(r, "ncclGetUniqueId");
    }
    rc = hm_agree(comm, rc);
    if (rc == HM_OK && MPI_Bcast(id, (int)sizeof *id, MPI_BYTE, 0, comm) != MPI_SUCCESS)
        rc = hm_agree(comm, hm__error_set(HM_EMPI, "MPI_Bcast of the NCCL unique id failed"));
    return rc;
}

static int local_setup(hm_gpu_nccl_t *n)
{
    int count;
    int rc = hm_gpu_count(&count);
    if (rc != HM_OK) return rc;
    cudaError_t e = cudaStreamCreateWithFlags(&n->stream, cudaStreamNonBlocking);
    if (e != cudaSuccess)
        return hm__error_set(HM_ENOTSUP, "cudaStreamCreate: %s", cudaGetErrorString(e));
    n->have_stream = 1;
    return HM_OK;
}

int hm_gpu_nccl_create(MPI_Comm comm, hm_gpu_nccl_t **out)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    if (!out) return hm__error_null(__func__, "out");
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    *out = NULL;
    hm_gpu_nccl_t *n = calloc(1, sizeof *n);
    int rc = n ? local_setup(n) : hm__error_set(HM_ENOMEM, "out of memory");
    rc = hm_agree(comm, rc);
    ncclUniqueId id;
    if (rc == HM_OK) rc = unique_id(comm, rank, &id);
    if (rc == HM_OK) {
        ncclResult_t r = ncclCommInitRank(&n->comm, size, id, rank);
        n->have_comm = r == ncclSuccess;
        rc = hm_agree(comm, r == ncclSuccess ? HM_OK : nccl_failed(r, "ncclCommInitRank"));
    }
    if (rc != HM_OK) {
        hm_gpu_nccl_free(n);
        return rc;
    }
    *out = n;
    return HM_OK;
}

void hm_gpu_nccl_free(hm_gpu_nccl_t *n)
{
    if (!n) return;
    if (n->have_comm) ncclCommDestroy(n->comm);
    if (n->have_stream) cudaStreamDestroy(n->stream);
    free(n);
}

void *hm_gpu_nccl_comm(const hm_gpu_nccl_t *n)
{
    if (!n) return hm__error_null(__func__, "nccl"), NULL;
    return (void *)n->comm;
}

void *hm_gpu_nccl_stream(const hm_gpu_nccl_t *n)
{
    if (!n) return hm__error_null(__func__, "nccl"), NULL;
    return (void *)n->stream;
}

#else /* !HM_HAVE_NCCL */

struct hm_gpu_nccl {
    int unused;
};

int hm_gpu_nccl_create(MPI_Comm comm, hm_gpu_nccl_t **out)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    if (!out) return hm__error_null(__func__, "out");
    *out = NULL;
    return hm_agree(comm,
                    hm__error_set(HM_ENOTSUP, "NCCL: this harmonia was built without it (configure "
                                              "with the CUDA toolkit and NCCL found)"));
}

void hm_gpu_nccl_free(hm_gpu_nccl_t *n)
{
    (void)n;
}

void *hm_gpu_nccl_comm(const hm_gpu_nccl_t *n)
{
    if (!n) hm__error_null(__func__, "nccl");
    return NULL;
}

void *hm_gpu_nccl_stream(const hm_gpu_nccl_t *n)
{
    if (!n) hm__error_null(__func__, "nccl");
    return NULL;
}
#endif
