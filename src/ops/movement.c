/* src/ops/movement.c — data movement collectives (MPI_CHAR, count = size):
 * buffer layouts, blocking runs and validations. Byte j of a sender's
 * buffer holds hm__op_byte(sender, j), so a result byte names the rank and
 * the place it must have come from. */
#include "ops/ops_impl.h"

void hm__op_layout_none(hm_op_instance_t *inst)
{
    (void)inst;
}

int hm__op_valid_always(const hm_op_instance_t *inst)
{
    (void)inst;
    return 1;
}

void hm__op_layout_bcast(hm_op_instance_t *inst)
{
    int is_root = inst->rank == inst->root;
    inst->send_bytes = is_root ? (size_t)inst->count : 0;
    inst->recv_bytes = is_root ? 0 : (size_t)inst->count;
}

void hm__op_layout_gather(hm_op_instance_t *inst)
{
    inst->send_bytes = (size_t)inst->count;
    inst->recv_bytes = inst->rank == inst->root ? (size_t)inst->count * inst->p : 0;
}

void hm__op_layout_scatter(hm_op_instance_t *inst)
{
    inst->send_bytes = inst->rank == inst->root ? (size_t)inst->count * inst->p : 0;
    inst->recv_bytes = (size_t)inst->count;
}

void hm__op_layout_allgather(hm_op_instance_t *inst)
{
    inst->send_bytes = (size_t)inst->count;
    inst->recv_bytes = (size_t)inst->count * inst->p;
}

void hm__op_layout_alltoall(hm_op_instance_t *inst)
{
    inst->send_bytes = (size_t)inst->count * inst->p;
    inst->recv_bytes = (size_t)inst->count * inst->p;
}

/* 1 when out[k] == hm__op_byte(from, first + k) for k < n. */
static int block_is(const unsigned char *out, size_t n, int from, size_t first)
{
    for (size_t k = 0; k < n; k++)
        if (out[k] != hm__op_byte(from, first + k)) return 0;
    return 1;
}

int hm__op_valid_bcast(const hm_op_instance_t *inst)
{
    return block_is(inst->recv, inst->recv_bytes, inst->root, 0);
}

/* Block s of the result came from rank s, from offset first_block * count
 * of its buffer. */
static int blocks_are(const hm_op_instance_t *inst, int first_block)
{
    size_t c = (size_t)inst->count;
    if (c == 0) return 1;
    for (int s = 0; s < inst->p; s++)
        if (!block_is(inst->recv + s * c, c, s, (size_t)first_block * c)) return 0;
    return 1;
}

int hm__op_valid_gather(const hm_op_instance_t *inst)
{
    return inst->rank != inst->root || blocks_are(inst, 0);
}

int hm__op_valid_scatter(const hm_op_instance_t *inst)
{
    size_t c = (size_t)inst->count;
    return block_is(inst->recv, c, inst->root, (size_t)inst->rank * c);
}

int hm__op_valid_allgather(const hm_op_instance_t *inst)
{
    return blocks_are(inst, 0);
}

int hm__op_valid_alltoall(const hm_op_instance_t *inst)
{
    return blocks_are(inst, inst->rank);
}

int hm__op_run_bcast(hm_op_instance_t *inst)
{
    void *buf = inst->rank == inst->root ? HM_OP_SEND(inst) : HM_OP_RECV(inst);
    return HM_OP_RC(MPI_Bcast(buf, inst->count, MPI_CHAR, inst->root, inst->comm));
}

int hm__op_run_gather(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Gather(HM_OP_SEND(inst), inst->count, MPI_CHAR, HM_OP_RECV(inst),
                               inst->count, MPI_CHAR, inst->root, inst->comm));
}

int hm__op_run_scatter(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Scatter(HM_OP_SEND(inst), inst->count, MPI_CHAR, HM_OP_RECV(inst),
                                inst->count, MPI_CHAR, inst->root, inst->comm));
}

int hm__op_run_allgather(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Allgather(HM_OP_SEND(inst), inst->count, MPI_CHAR, HM_OP_RECV(inst),
                                  inst->count, MPI_CHAR, inst->comm));
}

int hm__op_run_alltoall(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Alltoall(HM_OP_SEND(inst), inst->count, MPI_CHAR, HM_OP_RECV(inst),
                                 inst->count, MPI_CHAR, inst->comm));
}

int hm__op_run_alltoallv(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Alltoallv(HM_OP_SEND(inst), inst->counts, inst->displs, MPI_CHAR,
                                  HM_OP_RECV(inst), inst->counts, inst->displs, MPI_CHAR,
                                  inst->comm));
}

int hm__op_run_barrier(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Barrier(inst->comm));
}
