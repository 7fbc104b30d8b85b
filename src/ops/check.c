/* src/ops/check.c — what can be refused before allocating: a root or peer
 * outside the communicator, and sizes whose counts do not fit an int. Local
 * and deterministic, so every rank reaches the same decision. */
#include <limits.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "ops/ops_impl.h"

size_t hm__op_elements(const hm_op_t *op, size_t size_bytes)
{
    if (op->flags & HM_OP_NO_SIZE) return 0;
    if (!(op->flags & HM_OP_INTS)) return size_bytes;
    return size_bytes < sizeof(int) ? 1 : size_bytes / sizeof(int);
}

static int check_root(const hm_op_t *op, int p, int root)
{
    if (!(op->flags & HM_OP_ROOTED) || (root >= 0 && root < p)) return HM_OK;
    return hm__error_set(HM_EINVAL, "root %d is outside the communicator (%d ranks)", root, p);
}

static int check_peer(const hm_op_t *op, int p, int peer)
{
    if (!(op->flags & HM_OP_PINGPONG)) return HM_OK;
    if (peer >= 1 && peer < p) return HM_OK;
    return hm__error_set(HM_EINVAL,
                         "peer %d is not a partner for rank 0: it must be 1 to %d (%d ranks)", peer,
                         p - 1, p);
}

/* The largest count an MPI call or displacement of op sees is the element
 * count, times p where one buffer holds a block for every rank. */
static int check_size(const hm_op_t *op, int p, size_t size_bytes)
{
    size_t n = hm__op_elements(op, size_bytes);
    const char *unit = (op->flags & HM_OP_INTS) ? "ints" : "bytes";
    if (n > INT_MAX)
        return hm__error_set(HM_EINVAL,
                             "size %zu bytes is %zu %s for %s, more than an int count (%d)",
                             size_bytes, n, unit, op->name, INT_MAX);
    /* NCCL's sizes are already the whole buffer, and its counts size_t. */
    if ((op->flags & HM_OP_PER_RANK) && !(op->flags & HM_OP_NCCL) && n * (size_t)p > INT_MAX)
        return hm__error_set(
            HM_EINVAL,
            "size %zu bytes times %d ranks is %zu %s for %s, more than an int count (%d)",
            size_bytes, p, n * (size_t)p, unit, op->name, INT_MAX);
    return HM_OK;
}

int hm_op_check_which(const hm_op_t *op, MPI_Comm comm, size_t size_bytes,
                      const hm_op_params_t *params, hm_op_check_failed_t *failed)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    if (!failed) return hm__error_null(__func__, "failed");
    *failed = HM_OP_CHECK_RANKS;
    if (!op) return hm__error_null(__func__, "op");
    static const hm_op_params_t defaults = {.root = 0, .peer = 1};
    const hm_op_params_t *par = params ? params : &defaults;
    int p, rc;
    if (MPI_Comm_size(comm, &p) != MPI_SUCCESS)
        return hm__error_set(HM_EINVAL, "the communicator is not usable");
    if ((op->flags & HM_OP_PINGPONG) && p < 2)
        return hm__error_set(HM_EINVAL, "%s needs at least 2 ranks (the communicator has %d)",
                             op->name, p);
    *failed = HM_OP_CHECK_ROOT;
    rc = check_root(op, p, par->root);
    if (rc == HM_OK) *failed = HM_OP_CHECK_PEER, rc = check_peer(op, p, par->peer);
    if (rc == HM_OK) *failed = HM_OP_CHECK_SIZE, rc = check_size(op, p, size_bytes);
    if (rc == HM_OK) *failed = HM_OP_CHECK_OK;
    return rc;
}

int hm_op_check(const hm_op_t *op, MPI_Comm comm, size_t size_bytes, const hm_op_params_t *params)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    if (!op) return hm__error_null(__func__, "op");
    hm_op_check_failed_t failed;
    return hm_op_check_which(op, comm, size_bytes, params, &failed);
}
