/* src/pattern/backend_mpi.c — the mpi backend: MPI_Irecv and MPI_Isend of
 * every message of the rank on the plan's own communicator, receives
 * posted first; a message above HM_PATTERN_CHUNK_BYTES travels as several
 * (an MPI count is an int), split the same way on both ends so that they
 * match in order (MPI's non-overtaking rule, one tag). */
#include <limits.h>
#include <stdlib.h>

#include <harmonia/gpu.h>

#include "common/error_set.h"
#include "pattern/pattern_impl.h"

typedef struct mpi_state {
    MPI_Request *req;
    MPI_Status *status; /* not MPI_STATUSES_IGNORE: GCC 12 reads MPICH's access attribute on
                         * MPI_Waitall as a write into a region of size 0 */
    int nreq;
} mpi_state_t;

static size_t chunks(size_t bytes)
{
    return bytes ? (bytes + HM_PATTERN_CHUNK_BYTES - 1) / HM_PATTERN_CHUNK_BYTES : 1;
}

/* Device buffers only where the MPI says it moves them. */
static int check_memory(const hm_plan_t *p)
{
    int device = 0;
    for (size_t i = 0; i < p->send.n; i++) device |= p->send.m[i].buf->memory == HM_MEMORY_DEVICE;
    for (size_t i = 0; i < p->recv.n; i++) device |= p->recv.m[i].buf->memory == HM_MEMORY_DEVICE;
    if (!device || hm_gpu_mpi_cuda_aware() == HM_OK) return HM_OK;
    return hm__error_set(HM_EINVAL, "mpi backend: rank %d's buffers are device memory, and %s",
                         p->rank, hm_last_error());
}

static int mpi_commit(hm_plan_t *p)
{
    size_t n = 0;
    int rc = check_memory(p);
    for (size_t i = 0; i < p->send.n; i++) n += chunks(p->send.m[i].bytes);
    for (size_t i = 0; i < p->recv.n; i++) n += chunks(p->recv.m[i].bytes);
    if (rc == HM_OK && n > (size_t)INT_MAX)
        rc = hm__error_set(HM_EINVAL, "mpi backend: %zu requests on one rank", n);
    mpi_state_t *s = rc == HM_OK ? calloc(1, sizeof *s) : NULL;
    if (rc == HM_OK && s) {
        s->req = malloc((n ? n : 1) * sizeof *s->req);
        s->status = malloc((n ? n : 1) * sizeof *s->status);
    }
    if (rc == HM_OK && (!s || !s->req || !s->status))
        rc = hm__error_set(HM_ENOMEM, "out of memory");
    if (rc != HM_OK) {
        if (s) free(s->req), free(s->status);
        free(s);
        return rc;
    }
    p->state = s;
    return HM_OK;
}

typedef int (*post_fn)(void *buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                       MPI_Request *req);

static int post_irecv(void *buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                      MPI_Request *req)
{
    return MPI_Irecv(buf, count, type, peer, tag, comm, req);
}

static int post_isend(void *buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,
                      MPI_Request *req)
{
    return MPI_Isend(buf, count, type, peer, tag, comm, req);
}

static int post_list(hm_plan_t *p, const hm__message_list_t *l, post_fn post, mpi_state_t *s)
{
    for (size_t i = 0; i < l->n; i++) {
        const hm__message_t *m = &l->m[i];
        char *base = (char *)m->buf->data + m->off;
        size_t left = m->bytes;
        do {
            size_t part = left < HM_PATTERN_CHUNK_BYTES ? left : HM_PATTERN_CHUNK_BYTES;
            if (post(base, (int)part, MPI_BYTE, m->peer, 0, p->wire, &s->req[s->nreq++]) !=
                MPI_SUCCESS)
                return hm__error_set(HM_EMPI, "mpi backend: posting a message to rank %d failed",
                                     m->peer);
            base += part;
            left -= part;
        } while (left > 0);
    }
    return HM_OK;
}

static int mpi_start(hm_plan_t *p)
{
    mpi_state_t *s = p->state;
    s->nreq = 0;
    int rc = post_list(p, &p->recv, post_irecv, s);
    if (rc == HM_OK) rc = post_list(p, &p->send, post_isend, s);
    return rc;
}

static int mpi_wait(hm_plan_t *p)
{
    mpi_state_t *s = p->state;
    int n = s->nreq;
    s->nreq = 0;
    if (MPI_Waitall(n, s->req, s->status) != MPI_SUCCESS)
        return hm__error_set(HM_EMPI, "mpi backend: MPI_Waitall failed");
    return HM_OK;
}

static void mpi_release(hm_plan_t *p)
{
    mpi_state_t *s = p->state;
    if (s) free(s->req), free(s->status);
    free(s);
    p->state = NULL;
}

const hm_backend_t hm__backend_mpi = {.name = "mpi",
                                      .memory = HM_MEMORY_HOST,
                                      .commit = mpi_commit,
                                      .start = mpi_start,
                                      .wait = mpi_wait,
                                      .release = mpi_release};
