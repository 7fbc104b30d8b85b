/* src/ops/registry.c — the operations known to --ops. Adding one is a run
 * (and, for a new shape, a layout and a validation) and a line here. */
#include <string.h>

#include "common/error_set.h"
#include "common/names.h"
#include "ops/ops_impl.h"

enum {
    PER_RANK = HM_OP_PER_RANK,
    ROOTED = HM_OP_ROOTED,
    INTS = HM_OP_INTS,
    NB = HM_OP_NONBLOCKING
};

/* clang-format off */
static const hm_op_t ops[] = {
    {"bcast", ROOTED, hm__op_layout_bcast, hm__op_run_bcast, hm__op_valid_bcast, NULL},
    {"reduce", ROOTED | INTS, hm__op_layout_reduce, hm__op_run_reduce, hm__op_valid_reduce, NULL},
    {"allreduce", INTS, hm__op_layout_allreduce, hm__op_run_allreduce, hm__op_valid_allreduce, NULL},
    {"alltoall", PER_RANK, hm__op_layout_alltoall, hm__op_run_alltoall, hm__op_valid_alltoall, NULL},
    {"alltoallv", PER_RANK | HM_OP_VCOUNTS, hm__op_layout_alltoall, hm__op_run_alltoallv,
     hm__op_valid_alltoall, NULL},
    {"allgather", PER_RANK, hm__op_layout_allgather, hm__op_run_allgather,
     hm__op_valid_allgather, NULL},
    {"gather", ROOTED | PER_RANK, hm__op_layout_gather, hm__op_run_gather, hm__op_valid_gather, NULL},
    {"scatter", ROOTED | PER_RANK, hm__op_layout_scatter, hm__op_run_scatter,
     hm__op_valid_scatter, NULL},
    {"scan", INTS, hm__op_layout_allreduce, hm__op_run_scan, hm__op_valid_scan, NULL},
    {"exscan", INTS, hm__op_layout_exscan, hm__op_run_exscan, hm__op_valid_exscan, NULL},
    {"reduce_scatter_block", INTS | PER_RANK, hm__op_layout_reduce_scatter,
     hm__op_run_reduce_scatter, hm__op_valid_reduce_scatter, NULL},
    {"barrier", HM_OP_NO_SIZE, hm__op_layout_none, hm__op_run_barrier, hm__op_valid_always, NULL},

    {"ibcast", NB | ROOTED, hm__op_layout_bcast, hm__op_run_started,
     hm__op_valid_bcast, hm__op_start_ibcast},
    {"ireduce", NB | ROOTED | INTS, hm__op_layout_reduce, hm__op_run_started,
     hm__op_valid_reduce, hm__op_start_ireduce},
    {"iallreduce", NB | INTS, hm__op_layout_allreduce, hm__op_run_started,
     hm__op_valid_allreduce, hm__op_start_iallreduce},
    {"ialltoall", NB | PER_RANK, hm__op_layout_alltoall, hm__op_run_started,
     hm__op_valid_alltoall, hm__op_start_ialltoall},
    {"ialltoallv", NB | PER_RANK | HM_OP_VCOUNTS, hm__op_layout_alltoall, hm__op_run_started,
     hm__op_valid_alltoall, hm__op_start_ialltoallv},
    {"iallgather", NB | PER_RANK, hm__op_layout_allgather, hm__op_run_started,
     hm__op_valid_allgather, hm__op_start_iallgather},
    {"igather", NB | ROOTED | PER_RANK, hm__op_layout_gather, hm__op_run_started,
     hm__op_valid_gather, hm__op_start_igather},
    {"iscatter", NB | ROOTED | PER_RANK, hm__op_layout_scatter, hm__op_run_started,
     hm__op_valid_scatter, hm__op_start_iscatter},
    {"iscan", NB | INTS, hm__op_layout_allreduce, hm__op_run_started,
     hm__op_valid_scan, hm__op_start_iscan},
    {"iexscan", NB | INTS, hm__op_layout_exscan, hm__op_run_started,
     hm__op_valid_exscan, hm__op_start_iexscan},
    {"ireduce_scatter_block", NB | INTS | PER_RANK, hm__op_layout_reduce_scatter,
     hm__op_run_started, hm__op_valid_reduce_scatter, hm__op_start_ireduce_scatter},
    {"ibarrier", NB | HM_OP_NO_SIZE, hm__op_layout_none, hm__op_run_started,
     hm__op_valid_always, hm__op_start_ibarrier},

    {"pingpong", HM_OP_PINGPONG, hm__op_layout_pingpong, hm__op_run_pingpong,
     hm__op_valid_pingpong, NULL},
};
/* clang-format on */
enum { NOPS = sizeof ops / sizeof ops[0] };

size_t hm_op_count(void)
{
    return NOPS;
}

const char *hm_op_name_at(size_t i)
{
    return i < NOPS ? ops[i].name : NULL;
}

void hm_op_names(char *buf, size_t len)
{
    if (!buf) {
        hm__error_null(__func__, "buf");
        return;
    }
    hm__join_names(hm_op_name_at, NOPS, buf, len);
}

const hm_op_t *hm_op_find(const char *name)
{
    if (!name) return hm__error_null(__func__, "name"), NULL;
    for (size_t i = 0; i < NOPS; i++)
        if (strcmp(ops[i].name, name) == 0) return &ops[i];
    return NULL;
}

const char *hm_op_name(const hm_op_t *op)
{
    if (!op) return hm__error_null(__func__, "op"), "";
    return op->name;
}

unsigned hm__op_flags(const hm_op_t *op)
{
    return op->flags;
}

int hm_op_is_rooted(const hm_op_t *op)
{
    if (!op) return hm__error_null(__func__, "op"), 0;
    return (op->flags & HM_OP_ROOTED) != 0;
}

int hm_op_is_pingpong(const hm_op_t *op)
{
    if (!op) return hm__error_null(__func__, "op"), 0;
    return (op->flags & HM_OP_PINGPONG) != 0;
}

int hm_op_uses_size(const hm_op_t *op)
{
    if (!op) return hm__error_null(__func__, "op"), 0;
    return !(op->flags & HM_OP_NO_SIZE);
}

int hm_op_is_nonblocking(const hm_op_t *op)
{
    if (!op) return hm__error_null(__func__, "op"), 0;
    return (op->flags & HM_OP_NONBLOCKING) != 0;
}
