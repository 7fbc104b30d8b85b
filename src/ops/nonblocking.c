/* src/ops/nonblocking.c — nonblocking collectives, timed as the call and
 * its MPI_Wait. Buffers, layouts and validations are those of the blocking
 * forms (movement.c, reduction.c). */
#include "ops/ops_impl.h"

static int wait_for(int rc, MPI_Request *req)
{
    if (rc != MPI_SUCCESS) return HM_EMPI;
    return HM_OP_RC(MPI_Wait(req, MPI_STATUS_IGNORE));
}

int hm_op_run_ibcast(hm_op_instance_t *inst)
{
    MPI_Request req;
    void *buf = inst->rank == inst->root ? inst->send : inst->recv;
    return wait_for(MPI_Ibcast(buf, inst->count, MPI_CHAR, inst->root, inst->comm, &req), &req);
}

int hm_op_run_igather(hm_op_instance_t *inst)
{
    MPI_Request req;
    return wait_for(MPI_Igather(inst->send, inst->count, MPI_CHAR, inst->recv, inst->count,
                                MPI_CHAR, inst->root, inst->comm, &req),
                    &req);
}

int hm_op_run_iscatter(hm_op_instance_t *inst)
{
    MPI_Request req;
    return wait_for(MPI_Iscatter(inst->send, inst->count, MPI_CHAR, inst->recv, inst->count,
                                 MPI_CHAR, inst->root, inst->comm, &req),
                    &req);
}

int hm_op_run_iallgather(hm_op_instance_t *inst)
{
    MPI_Request req;
    return wait_for(MPI_Iallgather(inst->send, inst->count, MPI_CHAR, inst->recv, inst->count,
                                   MPI_CHAR, inst->comm, &req),
                    &req);
}

int hm_op_run_ialltoall(hm_op_instance_t *inst)
{
    MPI_Request req;
    return wait_for(MPI_Ialltoall(inst->send, inst->count, MPI_CHAR, inst->recv, inst->count,
                                  MPI_CHAR, inst->comm, &req),
                    &req);
}

int hm_op_run_ialltoallv(hm_op_instance_t *inst)
{
    MPI_Request req;
    return wait_for(MPI_Ialltoallv(inst->send, inst->counts, inst->displs, MPI_CHAR, inst->recv,
                                   inst->counts, inst->displs, MPI_CHAR, inst->comm, &req),
                    &req);
}

int hm_op_run_ibarrier(hm_op_instance_t *inst)
{
    MPI_Request req;
    return wait_for(MPI_Ibarrier(inst->comm, &req), &req);
}

int hm_op_run_ireduce(hm_op_instance_t *inst)
{
    MPI_Request req;
    return wait_for(MPI_Ireduce(inst->send, inst->recv, inst->count, MPI_INT, MPI_SUM, inst->root,
                                inst->comm, &req),
                    &req);
}

int hm_op_run_iallreduce(hm_op_instance_t *inst)
{
    MPI_Request req;
    return wait_for(
        MPI_Iallreduce(inst->send, inst->recv, inst->count, MPI_INT, MPI_SUM, inst->comm, &req),
        &req);
}

int hm_op_run_iscan(hm_op_instance_t *inst)
{
    MPI_Request req;
    return wait_for(
        MPI_Iscan(inst->send, inst->recv, inst->count, MPI_INT, MPI_SUM, inst->comm, &req), &req);
}

int hm_op_run_iexscan(hm_op_instance_t *inst)
{
    MPI_Request req;
    return wait_for(
        MPI_Iexscan(inst->send, inst->recv, inst->count, MPI_INT, MPI_SUM, inst->comm, &req), &req);
}

int hm_op_run_ireduce_scatter(hm_op_instance_t *inst)
{
    MPI_Request req;
    return wait_for(MPI_Ireduce_scatter_block(inst->send, inst->recv, inst->count, MPI_INT, MPI_SUM,
                                              inst->comm, &req),
                    &req);
}
