/* src/ops/instance.c — an operation set up for (comm, size): buffers
 * allocated on every rank or on none, inputs filled with the pattern, the
 * result poisoned before each run so that validation sees only that run. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/agree.h>

#include "common/comm_check.h"
#include "common/error_set.h"
#include "common/memory.h"
#include "ops/ops_impl.h"

int hm__op_mpi_failed(int mpi_rc, const char *fn, const char *call)
{
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(call, "("), call);
    return hm__mpi_status(mpi_rc, fn, name);
}

long long hm__op_rank_sum(int first, int n)
{
    long long sum = 0;
    for (int s = first; s < first + n; s++) sum += s % 64 + 1;
    return sum;
}

static int init_instance(hm_op_instance_t *inst, const hm_op_t *op, MPI_Comm comm,
                         size_t size_bytes, const hm_op_params_t *params, long count)
{
    inst->op = op;
    inst->comm = comm;
    inst->request = MPI_REQUEST_NULL;
    inst->root = params ? params->root : 0;
    inst->peer = params ? params->peer : 1;
    inst->batch = params && params->batch > 1 ? params->batch : 1;
    inst->count = count >= 0 ? (int)count : (int)hm__op_elements(op, size_bytes);
    if (MPI_Comm_rank(comm, &inst->rank) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Comm_rank");
    if (MPI_Comm_size(comm, &inst->p) != MPI_SUCCESS)
        return hm__error_mpi(__func__, "MPI_Comm_size");
    op->layout(inst);
    return HM_OK;
}

/* At least one byte: distinct, non-NULL buffers even for empty messages
 * (MPICH refuses NULL send and receive buffers as aliased); page-aligned
 * (memory.h). */
static int alloc_bytes(void *ptr_out, size_t bytes)
{
    void **ptr = ptr_out;
    *ptr = hm__page_alloc(bytes);
    return *ptr != NULL;
}

static size_t wanted_bytes(const hm_op_instance_t *inst)
{
    size_t v = (inst->op->flags & HM_OP_VCOUNTS) ? 2 * (size_t)inst->p * sizeof(int) : 0;
    return sizeof *inst + inst->send_bytes + inst->recv_bytes + v;
}

static int alloc_buffers(hm_op_instance_t *inst)
{
    size_t v = (inst->op->flags & HM_OP_VCOUNTS) ? (size_t)inst->p * sizeof(int) : 0;
    int ok = alloc_bytes(&inst->send, inst->send_bytes);
    ok &= alloc_bytes(&inst->recv, inst->recv_bytes);
    ok &= alloc_bytes(&inst->counts, v);
    ok &= alloc_bytes(&inst->displs, v);
    return ok;
}

static void fill(hm_op_instance_t *inst)
{
    if (inst->op->flags & HM_OP_INTS) {
        int *in = (int *)(void *)inst->send;
        for (size_t i = 0; i < inst->send_bytes / sizeof(int); i++)
            in[i] = hm__op_int(inst->rank, i);
    } else {
        for (size_t i = 0; i < inst->send_bytes; i++) inst->send[i] = hm__op_byte(inst->rank, i);
    }
    if (inst->recv_bytes) memset(inst->recv, HM_OP_POISON, inst->recv_bytes);
    for (int d = 0; (inst->op->flags & HM_OP_VCOUNTS) && d < inst->p; d++) {
        inst->counts[d] = inst->count;
        inst->displs[d] = d * inst->count;
    }
}

/* Every rank learns whether any failed, and the most bytes a failed rank
 * asked for. */
static int agree(MPI_Comm comm, int ok, size_t bytes, const char *name)
{
    unsigned long long mine[2] = {!ok, ok ? 0 : bytes}, all[2];
    if (MPI_Allreduce(mine, all, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm) != MPI_SUCCESS)
        return hm__error_set(HM_EMPI, "the agreement on the buffers of %s failed", name);
    if (!all[0]) return HM_OK;
    return hm__error_set(HM_ENOMEM, "could not allocate %llu bytes of buffers for %s on a rank",
                         all[1], name);
}

int hm_op_prepare(const hm_op_t *op, MPI_Comm comm, size_t size_bytes, const hm_op_params_t *params,
                  hm_op_instance_t **out)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    if (!op) return hm__error_null(__func__, "op");
    if (!out) return hm__error_null(__func__, "out");
    if (op->flags & HM_OP_NCCL)
        return hm__error_set(HM_EINVAL, "%s is an NCCL operation (hm_op_prepare_nccl)", op->name);
    return hm__op_prepare_host(op, comm, size_bytes, params, -1, out);
}

int hm__op_prepare_host(const hm_op_t *op, MPI_Comm comm, size_t size_bytes,
                        const hm_op_params_t *params, long count, hm_op_instance_t **out)
{
    hm_op_instance_t probe = {0}, *inst;
    int rc;
    *out = NULL;
    rc = hm_op_check(op, comm, size_bytes, params);
    if (rc != HM_OK) return rc;
    rc = init_instance(&probe, op, comm, size_bytes, params, count);
    if (rc != HM_OK)
        return hm__error_set(rc, "the communicator is not usable: %s", hm_last_error());
    inst = malloc(sizeof *inst);
    if (inst) {
        *inst = probe;
        if (!alloc_buffers(inst)) {
            hm_op_free(inst);
            inst = NULL;
        }
    }
    rc = agree(comm, inst != NULL, wanted_bytes(&probe), op->name);
    if (rc != HM_OK) {
        hm_op_free(inst);
        return rc;
    }
    fill(inst);
    *out = inst;
    return HM_OK;
}

int hm_op_prepare_device(const hm_op_t *op, MPI_Comm comm, size_t size_bytes,
                         const hm_op_params_t *params, hm_op_instance_t **out)
{
    int bad = hm__comm_check(comm, __func__);
    if (bad != HM_OK) return bad;
    if (!op) return hm__error_null(__func__, "op");
    if (!out) return hm__error_null(__func__, "out");
    if (op->flags & HM_OP_NCCL)
        return hm__error_set(HM_EINVAL, "%s is an NCCL operation (hm_op_prepare_nccl)", op->name);
    int rc = hm__op_prepare_host(op, comm, size_bytes, params, -1, out);
    if (rc != HM_OK) return rc;
    rc = hm_agree(comm, hm__op_device_attach(*out));
    if (rc != HM_OK) {
        hm_op_free(*out);
        *out = NULL;
    }
    return rc;
}

int hm_op_run(hm_op_instance_t *inst)
{
    if (!inst) return hm__error_null(__func__, "inst");
    return inst->op->run(inst);
}

int hm_op_start(hm_op_instance_t *inst)
{
    if (!inst) return hm__error_null(__func__, "inst");
    if (!inst->op->start)
        return hm__error_set(HM_EINVAL, "%s: %s is blocking", __func__, inst->op->name);
    if (inst->request != MPI_REQUEST_NULL)
        return hm__error_set(HM_EINVAL, "%s: the last start of %s was not waited for", __func__,
                             inst->op->name);
    return inst->op->start(inst);
}

int hm_op_wait(hm_op_instance_t *inst)
{
    if (!inst) return hm__error_null(__func__, "inst");
    if (!inst->op->start)
        return hm__error_set(HM_EINVAL, "%s: %s is blocking", __func__, inst->op->name);
    return HM_OP_RC(MPI_Wait(&inst->request, MPI_STATUS_IGNORE));
}

int hm_op_validate(hm_op_instance_t *inst, int *ok)
{
    if (!inst) return hm__error_null(__func__, "inst");
    if (!ok) return hm__error_null(__func__, "ok");
    int rc = inst->dsend ? hm__op_device_fetch(inst) : HM_OK;
    *ok = rc == HM_OK && (inst->result_undefined || inst->op->validate(inst));
    if (inst->recv_bytes) memset(inst->recv, HM_OP_POISON, inst->recv_bytes);
    if (rc == HM_OK && inst->dsend) rc = hm__op_device_restore(inst);
    return rc;
}

void *hm_op_result_buffer(hm_op_instance_t *inst, size_t *len_bytes)
{
    if (!inst) {
        if (len_bytes) *len_bytes = 0;
        return hm__error_null(__func__, "inst"), NULL;
    }
    int none = inst->result_undefined || inst->recv_bytes == 0;
    if (len_bytes) *len_bytes = none ? 0 : inst->recv_bytes;
    return none ? NULL : inst->recv;
}

void hm_op_free(hm_op_instance_t *inst)
{
    if (!inst) return;
    hm__op_device_free(inst);
    free(inst->send);
    free(inst->recv);
    free(inst->counts);
    free(inst->displs);
    free(inst);
}
