/* src/ops/nonblocking.c — nonblocking collectives, timed as the call and
 * its MPI_Wait; the call alone is the start of an overlap run. Buffers, layouts and validations are
 * those of the blocking forms (movement.c, reduction.c). */
#include "ops/ops_impl.h"

/* The timed region of every nonblocking operation: its call, then MPI_Wait
 * (the same algorithm as an overlap run, which the blocking form need not
 * be [Denis et al. 2022, §5.1]). */
int hm__op_run_started(hm_op_instance_t *inst)
{
    int rc = inst->op->start(inst);
    return rc == HM_OK ? HM_OP_RC(MPI_Wait(&inst->request, MPI_STATUS_IGNORE)) : rc;
}

int hm__op_start_ibcast(hm_op_instance_t *inst)
{
    void *buf = inst->rank == inst->root ? HM_OP_SEND(inst) : HM_OP_RECV(inst);
    return HM_OP_RC(MPI_Ibcast(buf, inst->count, MPI_CHAR, inst->root, inst->comm, &inst->request));
}

int hm__op_start_igather(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Igather(HM_OP_SEND(inst), inst->count, MPI_CHAR, HM_OP_RECV(inst),
                                inst->count, MPI_CHAR, inst->root, inst->comm, &inst->request));
}

int hm__op_start_iscatter(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Iscatter(HM_OP_SEND(inst), inst->count, MPI_CHAR, HM_OP_RECV(inst),
                                 inst->count, MPI_CHAR, inst->root, inst->comm, &inst->request));
}

int hm__op_start_iallgather(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Iallgather(HM_OP_SEND(inst), inst->count, MPI_CHAR, HM_OP_RECV(inst),
                                   inst->count, MPI_CHAR, inst->comm, &inst->request));
}

int hm__op_start_ialltoall(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Ialltoall(HM_OP_SEND(inst), inst->count, MPI_CHAR, HM_OP_RECV(inst),
                                  inst->count, MPI_CHAR, inst->comm, &inst->request));
}

int hm__op_start_ialltoallv(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Ialltoallv(HM_OP_SEND(inst), inst->counts, inst->displs, MPI_CHAR,
                                   HM_OP_RECV(inst), inst->counts, inst->displs, MPI_CHAR,
                                   inst->comm, &inst->request));
}

int hm__op_start_ibarrier(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Ibarrier(inst->comm, &inst->request));
}

int hm__op_start_ireduce(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Ireduce(HM_OP_SEND(inst), HM_OP_RECV(inst), inst->count, MPI_INT, MPI_SUM,
                                inst->root, inst->comm, &inst->request));
}

int hm__op_start_iallreduce(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Iallreduce(HM_OP_SEND(inst), HM_OP_RECV(inst), inst->count, MPI_INT,
                                   MPI_SUM, inst->comm, &inst->request));
}

int hm__op_start_iscan(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Iscan(HM_OP_SEND(inst), HM_OP_RECV(inst), inst->count, MPI_INT, MPI_SUM,
                              inst->comm, &inst->request));
}

int hm__op_start_iexscan(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Iexscan(HM_OP_SEND(inst), HM_OP_RECV(inst), inst->count, MPI_INT, MPI_SUM,
                                inst->comm, &inst->request));
}

int hm__op_start_ireduce_scatter(hm_op_instance_t *inst)
{
    return HM_OP_RC(MPI_Ireduce_scatter_block(HM_OP_SEND(inst), HM_OP_RECV(inst), inst->count,
                                              MPI_INT, MPI_SUM, inst->comm, &inst->request));
}
