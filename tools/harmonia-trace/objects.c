/* tools/harmonia-trace/objects.c — the communicators, windows and files a
 * traced program made, each named alike on every member without any
 * communication: from what each member knows (the parent's key, the
 * creating call's number on it, the first member), so that the merge can
 * find the N-th collective of an object on every member and write peers
 * as ranks of MPI_COMM_WORLD. */
#include <stdlib.h>
#include <string.h>

#include "tracer.h"

static struct {
    hm_tracer_obj_t *v;
    size_t n, cap;
    size_t last; /* the last one found: most calls use the same object */
} objs;

uint64_t hm_tracer_handle(const void *handle, size_t bytes)
{
    uint64_t h = 0;
    memcpy(&h, handle, bytes < sizeof h ? bytes : sizeof h);
    return h;
}

hm_tracer_obj_t *hm_tracer_find(int kind, uint64_t handle)
{
    if (handle == 0) return NULL;
    if (objs.last < objs.n && objs.v[objs.last].handle == handle && objs.v[objs.last].kind == kind)
        return &objs.v[objs.last];
    for (size_t i = objs.n; i-- > 0;)
        if (objs.v[i].handle == handle && objs.v[i].kind == kind) return &objs.v[objs.last = i];
    return NULL;
}

int hm_tracer_world_rank(const hm_tracer_obj_t *o, int peer)
{
    if (peer == MPI_ANY_SOURCE) return -2;
    if (!o || peer < 0) return -1; /* none, MPI_PROC_NULL, MPI_ROOT */
    int remote = o->size - o->local_size, inter = remote > 0;
    if (peer >= (inter ? remote : o->size)) return -1;
    if (!o->world_ranks) return peer;
    return o->world_ranks[inter ? o->local_size + peer : peer];
}

static hm_tracer_obj_t *add(int kind, uint64_t handle, uint64_t key, int size, int local_size,
                            int *world_ranks)
{
    if (objs.n == objs.cap) {
        size_t cap = objs.cap ? 2 * objs.cap : 16;
        hm_tracer_obj_t *v = realloc(objs.v, cap * sizeof *v);
        if (!v) return free(world_ranks), NULL;
        objs.v = v, objs.cap = cap;
    }
    /* A handle MPI gives again names the newer object. */
    for (size_t i = 0; i < objs.n; i++)
        if (objs.v[i].handle == handle && objs.v[i].kind == kind) objs.v[i].handle = 0;
    objs.v[objs.n] = (hm_tracer_obj_t){kind, handle, key, 0, 0, size, local_size, world_ranks};
    return &objs.v[objs.n++];
}

/* The members of group as ranks of MPI_COMM_WORLD, into out[0..n). */
static void translate(MPI_Group group, int n, int *out)
{
    MPI_Group world;
    int *mine = malloc((size_t)(n ? n : 1) * sizeof *mine);
    if (!mine) {
        for (int i = 0; i < n; i++) out[i] = -1;
        return;
    }
    for (int i = 0; i < n; i++) mine[i] = i;
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    PMPI_Group_translate_ranks(group, n, mine, world, out);
    PMPI_Group_free(&world);
    free(mine);
}

/* comm's members in world ranks: the local group, then the remote one of
 * an intercommunicator; *local the local group's size. */
static int *members(MPI_Comm comm, int *size, int *local)
{
    int inter = 0, remote = 0;
    PMPI_Comm_test_inter(comm, &inter);
    PMPI_Comm_size(comm, local);
    if (inter) PMPI_Comm_remote_size(comm, &remote);
    *size = *local + remote;
    int *ranks = malloc((size_t)(*size ? *size : 1) * sizeof *ranks);
    if (!ranks) return NULL;
    MPI_Group g;
    PMPI_Comm_group(comm, &g);
    translate(g, *local, ranks);
    PMPI_Group_free(&g);
    if (inter) {
        PMPI_Comm_remote_group(comm, &g);
        translate(g, remote, ranks + *local);
        PMPI_Group_free(&g);
    }
    return ranks;
}

static void add_comm(MPI_Comm comm, uint64_t parent_key, uint64_t call)
{
    int size, local;
    int *ranks = members(comm, &size, &local);
    if (!ranks) return;
    /* An intercommunicator's first member differs by side: the smaller
     * leader names it on both. */
    int first = ranks[0];
    if (size > local && ranks[local] < first) first = ranks[local];
    add(HM_TRACER_COMM, HM_TRACER_HANDLE(comm), hm_trace_object_key(parent_key, call, first), size,
        local, ranks);
}

void hm_tracer_comm_created(MPI_Comm parent, MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL) return;
    hm_tracer_lock();
    hm_tracer_obj_t *p = hm_tracer_find(HM_TRACER_COMM, HM_TRACER_HANDLE(parent));
    /* Every member saw the same call of the parent: its number there. */
    if (p) add_comm(comm, p->key, p->seq);
    hm_tracer_unlock();
}

void hm_tracer_comm_created_call(MPI_Comm parent, uint32_t call, MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL) return;
    hm_tracer_obj_t *p = hm_tracer_find(HM_TRACER_COMM, HM_TRACER_HANDLE(parent));
    if (p) add_comm(comm, p->key, call);
}

void hm_tracer_comm_created_group(MPI_Comm parent, int tag, MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL) return;
    hm_tracer_lock();
    hm_tracer_obj_t *p = hm_tracer_find(HM_TRACER_COMM, HM_TRACER_HANDLE(parent));
    /* Not numbered among the parent's collectives (its non-members do not
     * take part): the members' own count of such calls, and the tag. */
    if (p) {
        uint64_t call = ((uint64_t)++p->made << 20) ^ (uint32_t)tag ^ 0x80000000u;
        add_comm(comm, p->key, call);
    }
    hm_tracer_unlock();
}

void hm_tracer_intercomm_created(MPI_Comm local, int local_leader, MPI_Comm peer_comm,
                                 int remote_leader, int tag, MPI_Comm comm)
{
    (void)local, (void)local_leader, (void)peer_comm, (void)remote_leader;
    if (comm == MPI_COMM_NULL) return;
    hm_tracer_lock();
    /* Only the leaders know peer_comm: the key comes from what both groups
     * know alike, the tag and (add_comm) the smaller of the two groups'
     * first members. Two intercommunicators of the same groups and tag
     * get one key (docs/trace.md). */
    add_comm(comm, hm_trace_object_key(0x1c0ffeeull, (uint32_t)tag, 0), 0);
    hm_tracer_unlock();
}

static void add_derived(int kind, MPI_Comm comm, uint64_t handle)
{
    hm_tracer_lock();
    hm_tracer_obj_t *p = hm_tracer_find(HM_TRACER_COMM, HM_TRACER_HANDLE(comm));
    if (p) {
        uint64_t key = hm_trace_object_key(p->key, p->seq, 0);
        int *ranks = NULL, size = p->size, local = p->local_size;
        if (p->world_ranks && (ranks = malloc((size_t)size * sizeof *ranks)))
            memcpy(ranks, p->world_ranks, (size_t)size * sizeof *ranks);
        if (!p->world_ranks || ranks) add(kind, handle, key, size, local, ranks);
    }
    hm_tracer_unlock();
}

void hm_tracer_win_created(MPI_Comm comm, MPI_Win win)
{
    if (win != MPI_WIN_NULL) add_derived(HM_TRACER_WIN, comm, HM_TRACER_HANDLE(win));
}

void hm_tracer_file_opened(MPI_Comm comm, MPI_File file)
{
    if (file != MPI_FILE_NULL) add_derived(HM_TRACER_FILE, comm, HM_TRACER_HANDLE(file));
}

void hm_tracer_freed(int kind, uint64_t handle)
{
    hm_tracer_lock();
    hm_tracer_obj_t *o = hm_tracer_find(kind, handle);
    /* Kept for the model file (its members), unbound from the handle that
     * MPI may give to a later object. */
    if (o) o->handle = 0;
    hm_tracer_unlock();
}

hm_tracer_obj_t *hm_tracer_objects(size_t *n)
{
    *n = objs.n;
    return objs.v;
}

void hm_tracer_objects_world(int size)
{
    add(HM_TRACER_COMM, HM_TRACER_HANDLE(MPI_COMM_WORLD), 0, size, size, NULL);
}

void hm_tracer_objects_free(void)
{
    for (size_t i = 0; i < objs.n; i++) free(objs.v[i].world_ranks);
    free(objs.v);
    memset(&objs, 0, sizeof objs);
}
