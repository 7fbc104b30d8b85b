/* src/ops/reduction.c — reductions (MPI_INT, MPI_SUM): buffer layouts,
 * blocking runs and validations. Element j of rank s's input is
 * hm__op_int(s, j); the expected sums come in closed form (ops_impl.h), so
 * validation is linear in the result length whatever the number of ranks. */
#include "ops/ops_impl.h"

void hm__op_layout_reduce(hm_op_instance_t *inst)
{
    inst->send_bytes = (size_t)inst->count * sizeof(int);
    inst->recv_bytes = inst->rank == inst->root ? inst->send_bytes : 0;
}

void hm__op_layout_allreduce(hm_op_instance_t *inst)
{
    inst->send_bytes = (size_t)inst->count * sizeof(int);
    inst->recv_bytes = inst->send_bytes;
}

/* MPI leaves rank 0's exscan result undefined. */
void hm__op_layout_exscan(hm_op_instance_t *inst)
{
    hm__op_layout_allreduce(inst);
    inst->result_undefined = inst->rank == 0;
}

void hm__op_layout_reduce_scatter(hm_op_instance_t *inst)
{
    inst->send_bytes = (size_t)inst->count * inst->p * sizeof(int);
    inst->recv_bytes = (size_t)inst->count * sizeof(int);
}

/* 1 when the result holds, at k < count, the sum over ranks first ..
 * first + n - 1 of their input element offset + k. */
static int sums_are(const hm_op_instance_t *inst, int first, int n, size_t offset)
{
    const int *out = (const int *)(const void *)inst->recv;
    long long ranks = hm__op_rank_sum(first, n);
    for (size_t k = 0; k < (size_t)inst->count; k++)
        if (out[k] != ranks + (long long)n * (long long)((offset + k) % 61)) return 0;
    return 1;
}

int hm__op_valid_reduce(const hm_op_instance_t *inst)
{
    return inst->rank != inst->root || sums_are(inst, 0, inst->p, 0);
}

int hm__op_valid_allreduce(const hm_op_instance_t *inst)
{
    return sums_are(inst, 0, inst->p, 0);
}

int hm__op_valid_scan(const hm_op_instance_t *inst)
{
    return sums_are(inst, 0, inst->rank + 1, 0);
}

int hm__op_valid_exscan(const hm_op_instance_t *inst)
{
    return sums_are(inst, 0, inst->rank, 0);
}

int hm__op_valid_reduce_scatter(const hm_op_instance_t *inst)
{
    return sums_are(inst, 0, inst->p, (size_t)inst->rank * (size_t)inst->count);
}

int hm__op_run_reduce(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Reduce(HM_OP_SEND(inst), HM_OP_RECV(inst), inst->count, MPI_INT, MPI_SUM,
                               inst->root, inst->comm));
}

int hm__op_run_allreduce(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Allreduce(HM_OP_SEND(inst), HM_OP_RECV(inst), inst->count, MPI_INT, MPI_SUM,
                                  inst->comm));
}

int hm__op_run_scan(hm_op_instance_t *inst)
{
    return HM_OP_RC(
        MPI_Scan(HM_OP_SEND(inst), HM_OP_RECV(inst), inst->count, MPI_INT, MPI_SUM, inst->comm));
}

int hm__op_run_exscan(hm_op_instance_t *inst)
{
    return HM_OP_RC(
        MPI_Exscan(HM_OP_SEND(inst), HM_OP_RECV(inst), inst->count, MPI_INT, MPI_SUM, inst->comm));
}

int hm__op_run_reduce_scatter(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Reduce_scatter_block(HM_OP_SEND(inst), HM_OP_RECV(inst), inst->count,
                                             MPI_INT, MPI_SUM, inst->comm));
}
