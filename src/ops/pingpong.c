/* src/ops/pingpong.c — one round trip between rank 0 and the peer; other
 * ranks take no part. Each side sends its own pattern, so each validates
 * the direction it received. */
#include "ops/ops_impl.h"

enum { PINGPONG_TAG = 0x4850 };

void hm__op_layout_pingpong(hm_op_instance_t *inst)
{
    int active = inst->rank == 0 || inst->rank == inst->peer;
    inst->send_bytes = active ? (size_t)inst->count : 0;
    inst->recv_bytes = inst->send_bytes;
}

int hm__op_valid_pingpong(const hm_op_instance_t *inst)
{
    int from = inst->rank == 0 ? inst->peer : 0;
    for (size_t k = 0; k < inst->recv_bytes; k++)
        if (inst->recv[k] != hm__op_byte(from, k)) return 0;
    return 1;
}

static int ping(hm_op_instance_t *inst)
{
    int rc = HM_OP_RC(
        MPI_Send(HM_OP_SEND(inst), inst->count, MPI_CHAR, inst->peer, PINGPONG_TAG, inst->comm));
    if (rc != HM_OK) return rc;
    return HM_OP_RC(MPI_Recv(HM_OP_RECV(inst), inst->count, MPI_CHAR, inst->peer, PINGPONG_TAG,
                             inst->comm, MPI_STATUS_IGNORE));
}

static int pong(hm_op_instance_t *inst)
{
    int rc = HM_OP_RC(MPI_Recv(HM_OP_RECV(inst), inst->count, MPI_CHAR, 0, PINGPONG_TAG, inst->comm,
                               MPI_STATUS_IGNORE));
    if (rc != HM_OK) return rc;
    return HM_OP_RC(MPI_Send(HM_OP_SEND(inst), inst->count, MPI_CHAR, 0, PINGPONG_TAG, inst->comm));
}

int hm__op_run_pingpong(hm_op_instance_t *inst)
{
    if (inst->rank == 0) return ping(inst);
    if (inst->rank == inst->peer) return pong(inst);
    return HM_OK;
}
