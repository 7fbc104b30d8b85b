/* src/trace/otf2.c — a merged trace as an OTF2 archive (dir/otf2/traces.otf2,
 * with Debian's libopen-trace-format2 where the build found it), which
 * Vampir and the other OTF2 readers open as they open Score-P's: one
 * location per rank, one MPI region per traced function, an Enter and a
 * Leave per call on the interpolated global clock in nanoseconds (the
 * clock properties' global offset the first call), and between them the MPI records of what the
 * call did (a message sent or received, a request started or completed, a collective operation), on
 * the communicators the ranks described. The archive is written in a scratch folder beside it and
 * renamed into place when complete. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <harmonia/version.h>

#include "common/error_set.h"
#include "trace/merge_impl.h"

#if HM_HAVE_OTF2
#include "trace/otf2_impl.h"

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
                                bool final)
{
    (void)user, (void)type, (void)loc, (void)caller, (void) final;
    return OTF2_FLUSH;
}

/* A writer's chunks. By default OTF2 holds up to 128 MiB of them per
 * writer before it writes them out: a merge of 6.8 M events peaked at 104
 * MB with OTF2 against 18 MB without, 154 MB at 40 M events. Refusing a
 * chunk beyond POOL_CHUNKS makes OTF2 write the full ones and free them
 * (OTF2_Buffer_RequestNewChunk), so the memory is bounded by the ranks,
 * not the events. */
enum { POOL_CHUNKS = 8 };

typedef struct chunk_pool {
    size_t n;
    void *chunk[POOL_CHUNKS];
} chunk_pool_t;

static void *pool_allocate(void *user, OTF2_FileType type, OTF2_LocationRef loc, void **per_buffer,
                           uint64_t chunk_bytes)
{
    (void)user, (void)type, (void)loc;
    chunk_pool_t *p = *per_buffer ? *per_buffer : (*per_buffer = calloc(1, sizeof *p));
    if (!p || p->n == POOL_CHUNKS) return NULL; /* full: OTF2 writes it out, then frees */
    void *c = malloc(chunk_bytes);
    if (c) p->chunk[p->n++] = c;
    return c;
}

static void pool_free_all(void *user, OTF2_FileType type, OTF2_LocationRef loc, void **per_buffer,
                          bool final)
{
    (void)user, (void)type, (void)loc;
    chunk_pool_t *p = *per_buffer;
    if (!p) return;
    for (size_t k = 0; k < p->n; k++) free(p->chunk[k]);
    p->n = 0;
    if (final) free(p), *per_buffer = NULL;
}

/* HM_EIO with the OTF2 call that failed and OTF2's own words for e. */
int hm__otf2_failed(const char *call, OTF2_ErrorCode e)
{
    return hm__error_set(HM_EIO, "OTF2: %s failed: %s (%s)", call, OTF2_Error_GetName(e),
                         OTF2_Error_GetDescription(e));
}

/* HM_EIO for an OTF2 call that returned no writer (it says no more). */
int hm__otf2_none(const char *call, int location)
{
    return hm__error_set(HM_EIO, "OTF2: %s gave no writer (location %d)", call, location);
}

uint64_t hm__otf2_ticks(double global_s, double first_s)
{
    double ns = (global_s - first_s) * 1e9;
    return ns > 0 ? (uint64_t)(ns + 0.5) : 0;
}

/* ---- Communicators ---- */

static int by_key(const void *a, const void *b)
{
    const comm_def_t *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

int hm__otf2_key_is(const void *key, const void *def)
{
    uint64_t k = *(const uint64_t *)key, d = ((const comm_def_t *)def)->key;
    return k < d ? -1 : k > d;
}

/* Every member of m is a location of the archive (a group naming any
 * other would not be read). */
static int members_fit(const hm__trace_comm_t *m, int nranks)
{
    for (int i = 0; i < m->size; i++)
        if (m->world_ranks[i] < 0 || m->world_ranks[i] >= nranks) return 0;
    return m->size > 0;
}

static int objects_init(object_refs_t *o, size_t n)
{
    o->ref = malloc((n ? n : 1) * sizeof *o->ref);
    o->made = calloc(n ? n : 1, 1);
    o->n = 0;
    if (!o->ref || !o->made) return hm__error_nomem("hm_trace_merge");
    for (size_t i = 0; i < n; i++) o->ref[i] = UINT32_MAX;
    return HM_OK;
}

uint32_t hm__otf2_object_ref(object_refs_t *o, uint32_t c)
{
    if (o->ref[c] == UINT32_MAX) o->ref[c] = o->n++;
    return o->ref[c];
}

/* The communicator (ref) of object ref r among o. */
static uint32_t object_comm(const object_refs_t *o, uint32_t r)
{
    uint32_t c = 0;
    while (o->ref[c] != r) c++;
    return c;
}

static void comms_free(comm_defs_t *c)
{
    free(c->v);
    free(c->windows.ref), free(c->windows.made);
    free(c->files.ref), free(c->files.made);
}

/* MPI_COMM_WORLD and every communicator a rank's model lists, once each,
 * sorted by key: MPI_COMM_WORLD (key 0) is ref 0. */
static int comms_collect(const hm__trace_rank_t *ranks, int nranks, comm_defs_t *out)
{
    size_t total = 1, n = 0;
    for (int r = 0; r < nranks; r++) total += ranks[r].has_model ? ranks[r].model.ncomms : 0;
    *out = (comm_defs_t){0};
    comm_def_t *v = malloc(total * sizeof *v);
    if (!v) return hm__error_nomem("hm_trace_merge");
    v[n++] = (comm_def_t){HM_TRACE_WORLD, nranks, NULL, 0};
    for (int r = 0; r < nranks; r++)
        for (size_t c = 0; ranks[r].has_model && c < ranks[r].model.ncomms; c++) {
            const hm__trace_comm_t *m = &ranks[r].model.comms[c];
            if (m->key > HM_TRACE_NO_COMM && members_fit(m, nranks))
                v[n] = (comm_def_t){m->key, m->size, m->world_ranks, n}, n++;
        }
    qsort(v, n, sizeof *v, by_key);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (kept == 0 || v[i].key != v[kept - 1].key) v[kept++] = v[i];
    out->v = v, out->n = kept;
    int st = objects_init(&out->windows, kept);
    if (st == HM_OK) st = objects_init(&out->files, kept);
    if (st != HM_OK) comms_free(out);
    return st;
}

/* World rank w as a rank of c; -1 when it is not a member. */
int64_t hm__otf2_rank_in(const comm_def_t *c, int w)
{
    if (w < 0) return -1;
    if (!c->world_ranks) return w < c->size ? w : -1;
    for (int i = 0; i < c->size; i++)
        if (c->world_ranks[i] == w) return i;
    return -1;
}

/* The date of the first event (ns since the epoch): rank 0's realtime
 * reading at MPI_Init put on the global clock through its start model;
 * OTF2_UNDEFINED_TIMESTAMP where rank 0 wrote none. */
static uint64_t first_realtime_ns(const hm__trace_rank_t *ranks, int nranks, double first_s)
{
    if (nranks < 1 || !ranks[0].has_model) return OTF2_UNDEFINED_TIMESTAMP;
    const hm_trace_rank_info_t *in = &ranks[0].model.info;
    if (!isfinite(in->realtime_s) || !isfinite(in->realtime_local_s))
        return OTF2_UNDEFINED_TIMESTAMP;
    double at_s =
        in->realtime_s + (first_s - hm_trace_model_apply(in->start, in->realtime_local_s));
    return at_s > 0 ? (uint64_t)(at_s * 1e9 + 0.5) : OTF2_UNDEFINED_TIMESTAMP;
}

/* Rank 0's host, "" where not known. */
static const char *host_of(const hm__trace_rank_t *ranks, int nranks)
{
    return nranks > 0 && ranks[0].has_model ? ranks[0].model.info.host : "";
}

/* Per function f, string 4 + f its name and region f. */
static OTF2_ErrorCode write_regions(OTF2_GlobalDefWriter *g, int nf)
{
    OTF2_ErrorCode e = OTF2_SUCCESS;
    for (int f = 0; e == OTF2_SUCCESS && f < nf; f++) {
        uint32_t s = 4 + (uint32_t)f;
        e = OTF2_GlobalDefWriter_WriteString(g, s, hm_trace_func_name(f));
        if (e == OTF2_SUCCESS)
            e = OTF2_GlobalDefWriter_WriteRegion(g, (OTF2_RegionRef)f, s, s, 0,
                                                 hm__otf2_region_role(f), OTF2_PARADIGM_MPI,
                                                 OTF2_REGION_FLAG_NONE, 0, 0, 0);
    }
    return e;
}

/* Per rank r, string base + r "rank r", its process and its location r
 * with the count of records written there. */
static OTF2_ErrorCode write_locations(OTF2_GlobalDefWriter *g, int nranks, const uint64_t *counts,
                                      uint32_t base)
{
    OTF2_ErrorCode e = OTF2_SUCCESS;
    for (int r = 0; e == OTF2_SUCCESS && r < nranks; r++) {
        char name[32];
        uint32_t s = base + (uint32_t)r;
        snprintf(name, sizeof name, "rank %d", r);
        e = OTF2_GlobalDefWriter_WriteString(g, s, name);
        if (e == OTF2_SUCCESS)
            e = OTF2_GlobalDefWriter_WriteLocationGroup(g, (OTF2_LocationGroupRef)r, s,
                                                        OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                        OTF2_UNDEFINED_LOCATION_GROUP);
        if (e == OTF2_SUCCESS)
            e = OTF2_GlobalDefWriter_WriteLocation(g, (OTF2_LocationRef)r, s,
                                                   OTF2_LOCATION_TYPE_CPU_THREAD, counts[r],
                                                   (OTF2_LocationGroupRef)r);
    }
    return e;
}

/* Communicator c of group 1 + c named by string s (OTF2 3 added flags). */
static OTF2_ErrorCode write_comm(OTF2_GlobalDefWriter *g, uint32_t c, uint32_t s)
{
#if OTF2_VERSION_MAJOR >= 3
    return OTF2_GlobalDefWriter_WriteComm(g, c, s, 1 + c, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
#else
    return OTF2_GlobalDefWriter_WriteComm(g, c, s, 1 + c, OTF2_UNDEFINED_COMM);
#endif
}

/* Score-P's convention, which Vampir reads: group 0 lists every MPI
 * location (rank r is location r); communicator c has group 1 + c, its
 * members as indices into group 0 (their world ranks), and is named by
 * string base + c. members: room for the largest group. */
static OTF2_ErrorCode write_comm_defs(OTF2_GlobalDefWriter *g, const comm_defs_t *comms, int nranks,
                                      uint32_t base, uint64_t *members)
{
    for (int r = 0; r < nranks; r++) members[r] = (uint64_t)r;
    OTF2_ErrorCode e =
        OTF2_GlobalDefWriter_WriteGroup(g, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                        OTF2_GROUP_FLAG_NONE, (uint32_t)nranks, members);
    for (uint32_t c = 0; e == OTF2_SUCCESS && c < comms->n; c++) {
        const comm_def_t *d = &comms->v[c];
        char name[48];
        if (d->key == HM_TRACE_WORLD)
            snprintf(name, sizeof name, "MPI_COMM_WORLD");
        else
            snprintf(name, sizeof name, "comm %llu", (unsigned long long)d->key);
        for (int k = 0; k < d->size; k++)
            members[k] = (uint64_t)(d->world_ranks ? d->world_ranks[k] : k);
        e = OTF2_GlobalDefWriter_WriteString(g, base + c, name);
        if (e == OTF2_SUCCESS)
            e = OTF2_GlobalDefWriter_WriteGroup(g, 1 + c, 0, OTF2_GROUP_TYPE_COMM_GROUP,
                                                OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                                (uint32_t)d->size, members);
        if (e == OTF2_SUCCESS) e = write_comm(g, c, base + c);
    }
    return e;
}

/* Per window, RmaWin w, named by string base + w, over its communicator
 * (its group the window's); flagged for create and destroy records where
 * its creation was written. */
static OTF2_ErrorCode write_windows(OTF2_GlobalDefWriter *g, const comm_defs_t *comms,
                                    uint32_t base)
{
    OTF2_ErrorCode e = OTF2_SUCCESS;
    for (uint32_t w = 0; e == OTF2_SUCCESS && w < comms->windows.n; w++) {
        uint32_t c = object_comm(&comms->windows, w);
        char name[48];
        snprintf(name, sizeof name, "window %llu", (unsigned long long)comms->v[c].key);
        e = OTF2_GlobalDefWriter_WriteString(g, base + w, name);
#if OTF2_VERSION_MAJOR >= 3
        OTF2_RmaWinFlag flags = comms->windows.made[c] ? OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS
                                                       : OTF2_RMA_WIN_FLAG_NONE;
        if (e == OTF2_SUCCESS) e = OTF2_GlobalDefWriter_WriteRmaWin(g, w, base + w, c, flags);
#else
        if (e == OTF2_SUCCESS) e = OTF2_GlobalDefWriter_WriteRmaWin(g, w, base + w, c);
#endif
    }
    return e;
}

/* MPI-IO as I/O paradigm 0 (strings base, base + 1); per file f, named by
 * string base + 2 + f (the trace holds no file names), a regular file f
 * and its handle f over its communicator (pre-created where its opening
 * was not written). */
static OTF2_ErrorCode write_files(OTF2_GlobalDefWriter *g, const comm_defs_t *comms, uint32_t base)
{
    if (!comms->files.n) return OTF2_SUCCESS;
    OTF2_ErrorCode e = OTF2_GlobalDefWriter_WriteString(g, base, "MPI-IO");
    if (e == OTF2_SUCCESS) e = OTF2_GlobalDefWriter_WriteString(g, base + 1, "MPI I/O");
    if (e == OTF2_SUCCESS)
        e = OTF2_GlobalDefWriter_WriteIoParadigm(g, 0, base, base + 1,
                                                 OTF2_IO_PARADIGM_CLASS_PARALLEL,
                                                 OTF2_IO_PARADIGM_FLAG_NONE, 0, NULL, NULL, NULL);
    for (uint32_t f = 0; e == OTF2_SUCCESS && f < comms->files.n; f++) {
        uint32_t c = object_comm(&comms->files, f);
        char name[48];
        snprintf(name, sizeof name, "file %llu", (unsigned long long)comms->v[c].key);
        e = OTF2_GlobalDefWriter_WriteString(g, base + 2 + f, name);
        if (e == OTF2_SUCCESS) e = OTF2_GlobalDefWriter_WriteIoRegularFile(g, f, base + 2 + f, 0);
    }
    for (uint32_t f = 0; e == OTF2_SUCCESS && f < comms->files.n; f++) {
        uint32_t c = object_comm(&comms->files, f);
        OTF2_IoHandleFlag flags =
            comms->files.made[c] ? OTF2_IO_HANDLE_FLAG_NONE : OTF2_IO_HANDLE_FLAG_PRE_CREATED;
        e = OTF2_GlobalDefWriter_WriteIoHandle(g, f, base + 2 + f, f, 0, flags, c,
                                               OTF2_UNDEFINED_IO_HANDLE);
    }
    return e;
}

/* The communicators' groups need room for the largest. */
static int write_comms(OTF2_GlobalDefWriter *g, const comm_defs_t *comms, int nranks, uint32_t base)
{
    size_t most = (size_t)nranks;
    for (size_t c = 0; c < comms->n; c++)
        if ((size_t)comms->v[c].size > most) most = (size_t)comms->v[c].size;
    uint64_t *members = malloc((most ? most : 1) * sizeof *members);
    if (!members) return hm__error_nomem("hm_trace_merge");
    OTF2_ErrorCode e = write_comm_defs(g, comms, nranks, base, members);
    uint32_t windows_base = base + (uint32_t)comms->n;
    if (e == OTF2_SUCCESS) e = write_windows(g, comms, windows_base);
    if (e == OTF2_SUCCESS) e = write_files(g, comms, windows_base + comms->windows.n);
    free(members);
    return e == OTF2_SUCCESS ? HM_OK : hm__otf2_failed("writing the communicators", e);
}

/* Strings: 0 "", 1 "MPI", 2 "machine", 3 the node (rank 0's host), then
 * per function its name, per rank "rank N", per communicator its name,
 * per window its name, MPI-IO's two and per file its name.
 * counts: the records written per location. */
static int write_defs(OTF2_Archive *a, const hm__trace_rank_t *ranks, int nranks,
                      const comm_defs_t *comms, const uint64_t *counts, double first_s,
                      uint64_t first_tick, uint64_t last_tick)
{
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
    if (!g) return hm__otf2_none("OTF2_Archive_GetGlobalDefWriter", -1);
    uint32_t nf = (uint32_t)hm_trace_func_count();
    OTF2_ErrorCode e =
        OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, first_tick, last_tick - first_tick,
                                                  first_realtime_ns(ranks, nranks, first_s));
    const char *host = host_of(ranks, nranks);
    const char *fixed[] = {"", "MPI", "machine", *host ? host : "node"};
    for (uint32_t s = 0; e == OTF2_SUCCESS && s < 4; s++)
        e = OTF2_GlobalDefWriter_WriteString(g, s, fixed[s]);
    if (e == OTF2_SUCCESS)
        e = OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_MPI, 1,
                                               OTF2_PARADIGM_CLASS_PROCESS);
    if (e == OTF2_SUCCESS) e = write_regions(g, (int)nf);
    if (e == OTF2_SUCCESS)
        e = OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 3, 2, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    if (e == OTF2_SUCCESS) e = write_locations(g, nranks, counts, 4 + nf);
    if (e != OTF2_SUCCESS) return hm__otf2_failed("writing the global definitions", e);
    return write_comms(g, comms, nranks, 4 + nf + (uint32_t)nranks);
}

/* The archive's creator, description, machine and callbacks, then its
 * event files opened. */
static int set_up(OTF2_Archive *a, const char *host)
{
    /* Kept by the archive. No post-flush: a flush record would date a
     * pause of the traced run at the moment the merge wrote a chunk (and
     * one at time 0 did, after every 128 MiB). */
    static const OTF2_FlushCallbacks flush = {pre_flush, NULL};
    static const OTF2_MemoryCallbacks memory = {pool_allocate, pool_free_all};
    char creator[64];
    snprintf(creator, sizeof creator, "harmonia %s", hm_version());
    OTF2_ErrorCode e = OTF2_Archive_SetCreator(a, creator);
    if (e == OTF2_SUCCESS)
        e = OTF2_Archive_SetDescription(a, "MPI calls on harmonia's global clock (interpolated)");
    if (e == OTF2_SUCCESS && *host) e = OTF2_Archive_SetMachineName(a, host);
    if (e == OTF2_SUCCESS) e = OTF2_Archive_SetFlushCallbacks(a, &flush, NULL);
    if (e == OTF2_SUCCESS) e = OTF2_Archive_SetMemoryCallbacks(a, &memory, NULL);
    if (e == OTF2_SUCCESS) e = OTF2_Archive_SetSerialCollectiveCallbacks(a);
    if (e != OTF2_SUCCESS) return hm__otf2_failed("setting up the archive", e);
    e = OTF2_Archive_OpenEvtFiles(a);
    return e == OTF2_SUCCESS ? HM_OK : hm__otf2_failed("OTF2_Archive_OpenEvtFiles", e);
}

/* One (empty) local definition file per rank; every step runs, the first
 * failure is kept. */
static int write_local_defs(OTF2_Archive *a, int nranks)
{
    OTF2_ErrorCode e = OTF2_Archive_OpenDefFiles(a);
    if (e != OTF2_SUCCESS) return hm__otf2_failed("OTF2_Archive_OpenDefFiles", e);
    int st = HM_OK;
    for (int r = 0; st == HM_OK && r < nranks; r++) {
        OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(a, (OTF2_LocationRef)r);
        if (!d)
            st = hm__otf2_none("OTF2_Archive_GetDefWriter", r);
        else if ((e = OTF2_Archive_CloseDefWriter(a, d)) != OTF2_SUCCESS)
            st = hm__otf2_failed("OTF2_Archive_CloseDefWriter", e);
    }
    e = OTF2_Archive_CloseDefFiles(a);
    if (e != OTF2_SUCCESS && st == HM_OK) st = hm__otf2_failed("OTF2_Archive_CloseDefFiles", e);
    return st;
}

/* The archive being written: under a temporary name in dir until it is
 * complete; one location open at a time. */
struct hm__trace_otf2 {
    OTF2_Archive *a;
    const hm__trace_rank_t *ranks;
    int nranks;
    double base_s;
    comm_defs_t comms;
    uint64_t *counts;
    hm__otf2_rank_t *rank; /* the location open, NULL between ranks */
    int r;                 /* its rank */
    int st;                /* the first failure; nothing more is written after it */
    char tmp[4200], final[4200];
};

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

/* A folder and what it holds (links not followed). */
static int remove_tree(const char *path)
{
    return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The messages are written from each rank's own records (OTF2 readers
 * match sends and receives themselves): each rank from its own stream,
 * without the others, so the archive is written beside the rank pass. */
int hm__trace_otf2_open(const char *dir, const hm__trace_rank_t *ranks, int nranks, double base_s,
                        hm__trace_otf2_t **out)
{
    hm__trace_otf2_t *o = calloc(1, sizeof *o);
    *out = NULL;
    if (!o) return hm__error_nomem("hm_trace_merge");
    *o = (hm__trace_otf2_t){.ranks = ranks, .nranks = nranks, .base_s = base_s, .r = -1};
    snprintf(o->tmp, sizeof o->tmp, "%s/.otf2.tmp.%ld", dir, (long)getpid());
    snprintf(o->final, sizeof o->final, "%s/otf2", dir);
    int st = comms_collect(ranks, nranks, &o->comms);
    if (st != HM_OK) return free(o), st;
    o->counts = calloc(nranks > 0 ? (size_t)nranks : 1, sizeof *o->counts);
    if (!o->counts) st = hm__error_nomem("hm_trace_merge");
    if (st == HM_OK &&
        !(o->a = OTF2_Archive_Open(o->tmp, "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                                   OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE)))
        st = hm__error_set(HM_EIO, "OTF2: cannot open an archive in %s", o->tmp);
    if (st == HM_OK) st = set_up(o->a, host_of(ranks, nranks));
    o->st = st;
    *out = o;
    return st;
}

/* The location open closed, its events counted. */
static void end_rank(hm__trace_otf2_t *o)
{
    if (!o->rank) return;
    int st = hm__otf2_rank_close(o->a, o->rank, &o->counts[o->r]);
    if (o->st == HM_OK) o->st = st;
    o->rank = NULL;
}

int hm__trace_otf2_event(hm__trace_otf2_t *o, int r, const hm__trace_ev_t *ev)
{
    if (!o || o->st != HM_OK) return o ? o->st : HM_OK;
    if (r != o->r) {
        end_rank(o);
        o->r = r;
        if (o->st == HM_OK) o->st = hm__otf2_rank_open(o->a, r, &o->comms, o->base_s, &o->rank);
    }
    if (o->st == HM_OK) o->st = hm__otf2_rank_event(o->rank, ev);
    return o->st;
}

/* The event files closed, then the definitions (which count the events);
 * every step runs once one failed only to close. */
static int write_rest(hm__trace_otf2_t *o, double first_s, double last_s)
{
    end_rank(o);
    int st = o->st;
    OTF2_ErrorCode e = st == HM_OK ? OTF2_Archive_CloseEvtFiles(o->a) : OTF2_SUCCESS;
    if (e != OTF2_SUCCESS) st = hm__otf2_failed("OTF2_Archive_CloseEvtFiles", e);
    if (st == HM_OK) st = write_local_defs(o->a, o->nranks);
    if (st == HM_OK)
        st = write_defs(o->a, o->ranks, o->nranks, &o->comms, o->counts, first_s,
                        hm__otf2_ticks(first_s, o->base_s), hm__otf2_ticks(last_s, o->base_s));
    return st;
}

static void free_archive(hm__trace_otf2_t *o)
{
    free(o->counts);
    comms_free(&o->comms);
    free(o);
}

/* The folder's rename publishes the archive whole; an older one is moved
 * aside first, then removed. */
static int publish(const char *tmp, const char *final)
{
    char old[4300];
    snprintf(old, sizeof old, "%s.old", tmp);
    int had = rename(final, old) == 0;
    if (rename(tmp, final) != 0) {
        int rc = hm__error_set(HM_EIO, "renaming %s: %s", tmp, strerror(errno));
        if (had) rename(old, final);
        return rc;
    }
    if (had) remove_tree(old);
    return HM_OK;
}

int hm__trace_otf2_close(hm__trace_otf2_t *o, double first_s, double last_s)
{
    if (!o) return HM_OK;
    int st = o->a ? write_rest(o, first_s, last_s) : o->st;
    OTF2_ErrorCode e = o->a ? OTF2_Archive_Close(o->a) : OTF2_SUCCESS;
    if (e != OTF2_SUCCESS && st == HM_OK) st = hm__otf2_failed("OTF2_Archive_Close", e);
    if (st == HM_OK) st = publish(o->tmp, o->final);
    if (st != HM_OK) {
        st = hm__error_set(HM_EIO, "cannot write the OTF2 archive %s: %s", o->final,
                           hm_last_error());
        remove_tree(o->tmp);
    }
    free_archive(o);
    return st;
}

void hm__trace_otf2_abort(hm__trace_otf2_t *o)
{
    if (!o) return;
    if (o->rank) hm__otf2_rank_close(o->a, o->rank, &o->counts[o->r]);
    if (o->a) OTF2_Archive_Close(o->a);
    remove_tree(o->tmp);
    free_archive(o);
}

#else

/* Built without OTF2: trace.csv and trace.json only. */
int hm__trace_otf2_open(const char *dir, const hm__trace_rank_t *ranks, int nranks, double base_s,
                        hm__trace_otf2_t **out)
{
    (void)dir, (void)ranks, (void)nranks, (void)base_s;
    *out = NULL;
    return HM_OK;
}

int hm__trace_otf2_event(hm__trace_otf2_t *o, int r, const hm__trace_ev_t *ev)
{
    (void)o, (void)r, (void)ev;
    return HM_OK;
}

int hm__trace_otf2_close(hm__trace_otf2_t *o, double first_s, double last_s)
{
    (void)o, (void)first_s, (void)last_s;
    return HM_OK;
}

void hm__trace_otf2_abort(hm__trace_otf2_t *o)
{
    (void)o;
}
#endif

int hm_trace_otf2_built(void)
{
    return HM_HAVE_OTF2;
}
