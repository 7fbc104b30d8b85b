/* src/pattern/buffer.c — the memory that plans move: host memory, a slice
 * of an MPI-3 shared window of the node (so that the host backend can copy
 * straight into a peer's buffer), device memory (GPU builds). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/pattern.h>
#include <harmonia/agree.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "common/memory.h"
#include "pattern/pattern_impl.h"

#if HM_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

static int alloc_host(hm_buffer_t *b)
{
    size_t bytes = b->bytes ? b->bytes : 1;
    if (!(b->data = hm__page_alloc(bytes)))
        return hm__error_set(HM_ENOMEM, "cannot allocate %zu bytes of host memory", b->bytes);
    memset(b->data, 0, bytes);
    return HM_OK;
}

/* A slice's data: its first page boundary. Open MPI 4.1 places slices of a
 * window 16 to 3392 bytes past one (noncontig or not), and two buffers
 * whose data then sit 16 bytes apart modulo 4 KiB make glibc's memcpy (rep
 * movsb) 30 times slower on AMD EPYC: 1.9 GB/s at 16 KiB against 63 GB/s
 * between aligned ones (bench/pattern_self.c). */
static void *page_up(void *base)
{
    uintptr_t a = (uintptr_t)base;
    return (void *)((a + HM_PAGE_BYTES - 1) / HM_PAGE_BYTES * HM_PAGE_BYTES);
}

int hm__buffer_shared_at(const hm_buffer_t *b, int node_rank, void **at)
{
    MPI_Aint size;
    int disp;
    void *base;
    if (MPI_Win_shared_query(b->win, node_rank, &size, &disp, &base) != MPI_SUCCESS)
        return hm__error_set(HM_EINVAL, "no slice of rank %d in the shared window", node_rank);
    *at = page_up(base);
    return HM_OK;
}

/* Collective over the node: every rank its own slice, a page more than
 * asked so that its data starts on a page (page_up), contiguous or not
 * (alloc_shared_noncontig lets each slice sit near the rank that touches
 * it). */
static int alloc_shared(hm_buffer_t *b)
{
    MPI_Info info;
    if (MPI_Comm_split_type(b->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &b->node) !=
        MPI_SUCCESS)
        return hm__error_set(HM_EMPI, "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) failed");
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    void *base;
    int rc = b->bytes > (size_t)PTRDIFF_MAX - HM_PAGE_BYTES
                 ? MPI_ERR_SIZE
                 : MPI_Win_allocate_shared((MPI_Aint)(b->bytes + HM_PAGE_BYTES), 1, info, b->node,
                                           &base, &b->win);
    MPI_Info_free(&info);
    if (rc != MPI_SUCCESS) {
        b->win = MPI_WIN_NULL;
        return hm__error_set(HM_ENOMEM, "cannot allocate %zu bytes in a shared window", b->bytes);
    }
    b->data = page_up(base);
    if (b->bytes) memset(b->data, 0, b->bytes);
    return HM_OK;
}

/* cudaMalloc on the current device, zeroed; never managed memory (a
 * managed allocation larger than the card can hang it). */
static int alloc_device(hm_buffer_t *b)
{
#if HM_HAVE_CUDA
    cudaError_t e = cudaGetDevice(&b->device);
    if (e == cudaSuccess) e = cudaMalloc(&b->data, b->bytes ? b->bytes : 1);
    if (e == cudaSuccess) e = cudaMemset(b->data, 0, b->bytes ? b->bytes : 1);
    if (e == cudaSuccess) e = cudaDeviceSynchronize(); /* cudaMemset may not have run yet */
    if (e != cudaSuccess)
        return hm__error_set(e == cudaErrorMemoryAllocation ? HM_ENOMEM : HM_ENOTSUP,
                             "cannot allocate %zu bytes of device memory: %s", b->bytes,
                             cudaGetErrorString(e));
    return HM_OK;
#else
    (void)b;
    return hm__error_set(HM_ENOTSUP, "device memory needs a build with CUDA (HARMONIA_CUDA=on)");
#endif
}

int hm_buffer_alloc(MPI_Comm comm, hm_memory_t memory, size_t bytes, hm_buffer_t **out)
{
    if (!out) return hm__error_null(__func__, "out");
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    *out = NULL;
    hm_buffer_t *b = calloc(1, sizeof *b);
    int rc = b ? HM_OK : hm__error_set(HM_ENOMEM, "out of memory");
    if (b) {
        b->memory = memory;
        b->bytes = bytes;
        b->win = MPI_WIN_NULL;
        b->node = MPI_COMM_NULL;
        if (MPI_Comm_dup(comm, &b->comm) != MPI_SUCCESS) b->comm = MPI_COMM_NULL;
        if (b->comm == MPI_COMM_NULL) rc = hm__error_set(HM_EMPI, "MPI_Comm_dup failed");
    }
    if (rc == HM_OK && bytes > (size_t)PTRDIFF_MAX)
        rc = hm__error_set(HM_EINVAL, "%zu bytes: more than memory can address", bytes);
    if (rc == HM_OK && memory == HM_MEMORY_HOST)
        rc = alloc_host(b);
    else if (rc == HM_OK && memory == HM_MEMORY_SHARED)
        rc = alloc_shared(b);
    else if (rc == HM_OK)
        rc = alloc_device(b);
    rc = hm_agree(comm, rc);
    if (rc != HM_OK) {
        hm_buffer_free(b);
        return rc;
    }
    *out = b;
    return HM_OK;
}

void hm_buffer_free(hm_buffer_t *b)
{
    if (!b) return;
    if (b->memory == HM_MEMORY_SHARED) {
        if (b->win != MPI_WIN_NULL) MPI_Win_free(&b->win);
        if (b->node != MPI_COMM_NULL) MPI_Comm_free(&b->node);
    } else if (b->memory == HM_MEMORY_DEVICE) {
#if HM_HAVE_CUDA
        if (b->data) cudaFree(b->data);
#endif
    } else {
        free(b->data);
    }
    if (b->comm != MPI_COMM_NULL) MPI_Comm_free(&b->comm);
    free(b);
}

void *hm_buffer_data(const hm_buffer_t *b)
{
    if (!b) hm__error_null(__func__, "buf");
    return b ? b->data : NULL;
}

size_t hm_buffer_size(const hm_buffer_t *b)
{
    if (!b) hm__error_null(__func__, "buf");
    return b ? b->bytes : 0;
}

hm_memory_t hm_buffer_memory(const hm_buffer_t *b)
{
    if (!b) hm__error_null(__func__, "buf");
    return b ? b->memory : HM_MEMORY_HOST;
}

/* Device memory through the runtime (synchronous: validation is outside
 * the timed region). */
static int copy_device(void *to, const void *from, size_t bytes, int to_device)
{
#if HM_HAVE_CUDA
    cudaError_t e =
        cudaMemcpy(to, from, bytes, to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
    /* A copy from pageable memory may return before its DMA lands; the
     * plans' streams are non-blocking and other processes read through IPC,
     * so the bytes must be in device memory on return (a get read stale
     * bytes on an H200 before this). */
    if (e == cudaSuccess && to_device) e = cudaDeviceSynchronize();
    return e == cudaSuccess ? HM_OK
                            : hm__error_set(HM_EINVAL, "copy of %zu bytes %s the device: %s", bytes,
                                            to_device ? "to" : "from", cudaGetErrorString(e));
#else
    (void)to, (void)from, (void)bytes, (void)to_device;
    return hm__error_set(HM_ENOTSUP, "device memory needs a build with CUDA");
#endif
}

int hm__buffer_copy_out(const hm_buffer_t *b, size_t off, void *host, size_t bytes)
{
    if (b->memory == HM_MEMORY_DEVICE)
        return bytes ? copy_device(host, (const char *)b->data + off, bytes, 0) : HM_OK;
    if (bytes) memcpy(host, (const char *)b->data + off, bytes);
    return HM_OK;
}

int hm__buffer_copy_in(hm_buffer_t *b, size_t off, const void *host, size_t bytes)
{
    if (b->memory == HM_MEMORY_DEVICE)
        return bytes ? copy_device((char *)b->data + off, host, bytes, 1) : HM_OK;
    if (bytes) memcpy((char *)b->data + off, host, bytes);
    return HM_OK;
}

static int check_region(const char *fn, const hm_buffer_t *b, size_t off, const void *host,
                        size_t bytes)
{
    if (!b) return hm__error_null(fn, "buf");
    if (!host && bytes) return hm__error_null(fn, "host");
    if (off > b->bytes || bytes > b->bytes - off)
        return hm__error_set(HM_EINVAL, "%zu bytes at %zu: beyond the buffer's %zu bytes", bytes,
                             off, b->bytes);
    return HM_OK;
}

int hm_buffer_read(const hm_buffer_t *b, size_t off, void *host, size_t bytes)
{
    int rc = check_region(__func__, b, off, host, bytes);
    return rc == HM_OK ? hm__buffer_copy_out(b, off, host, bytes) : rc;
}

int hm_buffer_write(hm_buffer_t *b, size_t off, const void *host, size_t bytes)
{
    int rc = check_region(__func__, b, off, host, bytes);
    return rc == HM_OK ? hm__buffer_copy_in(b, off, host, bytes) : rc;
}
