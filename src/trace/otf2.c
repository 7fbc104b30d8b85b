/* src/trace/otf2.c — a merged trace as an OTF2 archive (dir/otf2/traces.otf2,
 * with Debian's libopen-trace-format2 where the build found it), which
 * Vampir and the other OTF2 readers open: one location per rank, one MPI
 * region per traced function, an Enter and a Leave per call on the
 * interpolated global clock in nanoseconds from the first call. The archive
 * is written in a scratch folder beside it and renamed into place when
 * complete. */
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
#include <otf2/otf2.h>

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
                                bool final)
{
    (void)user, (void)type, (void)loc, (void)caller, (void) final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc)
{
    (void)user, (void)type, (void)loc;
    return 0;
}

/* HM_EIO with the OTF2 call that failed and OTF2's own words for e. */
static int otf2_failed(const char *call, OTF2_ErrorCode e)
{
    return hm__error_set(HM_EIO, "OTF2: %s failed: %s (%s)", call, OTF2_Error_GetName(e),
                         OTF2_Error_GetDescription(e));
}

/* HM_EIO for an OTF2 call that returned no writer (it says no more). */
static int otf2_none(const char *call, int location)
{
    return hm__error_set(HM_EIO, "OTF2: %s gave no writer (location %d)", call, location);
}

static uint64_t ticks(double global_s, double first_s)
{
    double ns = (global_s - first_s) * 1e9;
    return ns > 0 ? (uint64_t)(ns + 0.5) : 0;
}

/* Rank r's calls: Enter and Leave, never going back in time (an affine map
 * per rank keeps the order; the rounding of two calls a nanosecond apart
 * could not). */
static int write_rank(OTF2_Archive *a, const hm__trace_rank_t *tr, int r, double first_s)
{
    OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, (OTF2_LocationRef)r);
    if (!w) return otf2_none("OTF2_Archive_GetEvtWriter", r);
    uint64_t last = 0;
    OTF2_ErrorCode e = OTF2_SUCCESS;
    for (size_t i = 0; e == OTF2_SUCCESS && i < tr->n; i++) {
        uint64_t in = ticks(tr->glob[2 * i], first_s), out = ticks(tr->glob[2 * i + 1], first_s);
        in = in < last ? last : in;
        out = out < in ? in : out;
        last = out;
        OTF2_RegionRef region = (OTF2_RegionRef)tr->events[i].func;
        e = OTF2_EvtWriter_Enter(w, NULL, in, region);
        if (e == OTF2_SUCCESS) e = OTF2_EvtWriter_Leave(w, NULL, out, region);
    }
    int st = e == OTF2_SUCCESS ? HM_OK : otf2_failed("writing the events of a rank", e);
    e = OTF2_Archive_CloseEvtWriter(a, w);
    if (e != OTF2_SUCCESS && st == HM_OK) st = otf2_failed("OTF2_Archive_CloseEvtWriter", e);
    return st;
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

/* Strings: 0 "", 1 "MPI", 2 "machine", 3 the node (rank 0's host), then
 * per function its name, then per rank "rank N". */
static int write_defs(OTF2_Archive *a, const hm__trace_rank_t *ranks, int nranks, double first_s,
                      uint64_t length)
{
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
    if (!g) return otf2_none("OTF2_Archive_GetGlobalDefWriter", -1);
    int nf = hm_trace_func_count();
    OTF2_ErrorCode e = OTF2_GlobalDefWriter_WriteClockProperties(
        g, 1000000000, 0, length, first_realtime_ns(ranks, nranks, first_s));
    const char *host = host_of(ranks, nranks);
    const char *fixed[] = {"", "MPI", "machine", *host ? host : "node"};
    for (uint32_t s = 0; e == OTF2_SUCCESS && s < 4; s++)
        e = OTF2_GlobalDefWriter_WriteString(g, s, fixed[s]);
    for (int f = 0; e == OTF2_SUCCESS && f < nf; f++) {
        e = OTF2_GlobalDefWriter_WriteString(g, 4 + (uint32_t)f, hm_trace_func_name(f));
        if (e == OTF2_SUCCESS)
            e = OTF2_GlobalDefWriter_WriteRegion(g, (OTF2_RegionRef)f, 4 + (uint32_t)f,
                                                 4 + (uint32_t)f, 0, OTF2_REGION_ROLE_FUNCTION,
                                                 OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, 0, 0, 0);
    }
    if (e == OTF2_SUCCESS)
        e = OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 3, 2, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (int r = 0; e == OTF2_SUCCESS && r < nranks; r++) {
        char name[32];
        uint32_t s = 4 + (uint32_t)nf + (uint32_t)r;
        snprintf(name, sizeof name, "rank %d", r);
        e = OTF2_GlobalDefWriter_WriteString(g, s, name);
        if (e == OTF2_SUCCESS)
            e = OTF2_GlobalDefWriter_WriteLocationGroup(g, (OTF2_LocationGroupRef)r, s,
                                                        OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                        OTF2_UNDEFINED_LOCATION_GROUP);
        if (e == OTF2_SUCCESS)
            e = OTF2_GlobalDefWriter_WriteLocation(
                g, (OTF2_LocationRef)r, s, OTF2_LOCATION_TYPE_CPU_THREAD, 2 * (uint64_t)ranks[r].n,
                (OTF2_LocationGroupRef)r);
    }
    return e == OTF2_SUCCESS ? HM_OK : otf2_failed("writing the global definitions", e);
}

/* The archive's creator, description, machine and callbacks, then its
 * event files opened. */
static int set_up(OTF2_Archive *a, const char *host)
{
    static const OTF2_FlushCallbacks flush = {pre_flush, post_flush}; /* kept by the archive */
    char creator[64];
    snprintf(creator, sizeof creator, "harmonia %s", hm_version());
    OTF2_ErrorCode e = OTF2_Archive_SetCreator(a, creator);
    if (e == OTF2_SUCCESS)
        e = OTF2_Archive_SetDescription(a, "MPI calls on harmonia's global clock (interpolated)");
    if (e == OTF2_SUCCESS && *host) e = OTF2_Archive_SetMachineName(a, host);
    if (e == OTF2_SUCCESS) e = OTF2_Archive_SetFlushCallbacks(a, &flush, NULL);
    if (e == OTF2_SUCCESS) e = OTF2_Archive_SetSerialCollectiveCallbacks(a);
    if (e != OTF2_SUCCESS) return otf2_failed("setting up the archive", e);
    e = OTF2_Archive_OpenEvtFiles(a);
    return e == OTF2_SUCCESS ? HM_OK : otf2_failed("OTF2_Archive_OpenEvtFiles", e);
}

/* One (empty) local definition file per rank; every step runs, the first
 * failure is kept. */
static int write_local_defs(OTF2_Archive *a, int nranks)
{
    OTF2_ErrorCode e = OTF2_Archive_OpenDefFiles(a);
    if (e != OTF2_SUCCESS) return otf2_failed("OTF2_Archive_OpenDefFiles", e);
    int st = HM_OK;
    for (int r = 0; st == HM_OK && r < nranks; r++) {
        OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(a, (OTF2_LocationRef)r);
        if (!d)
            st = otf2_none("OTF2_Archive_GetDefWriter", r);
        else if ((e = OTF2_Archive_CloseDefWriter(a, d)) != OTF2_SUCCESS)
            st = otf2_failed("OTF2_Archive_CloseDefWriter", e);
    }
    e = OTF2_Archive_CloseDefFiles(a);
    if (e != OTF2_SUCCESS && st == HM_OK) st = otf2_failed("OTF2_Archive_CloseDefFiles", e);
    return st;
}

static int write_archive(const char *path, const hm__trace_rank_t *ranks, int nranks)
{
    double first = 0, last = 0;
    int any = 0;
    for (int r = 0; r < nranks; r++)
        for (size_t i = 0; i < 2 * ranks[r].n; i++) {
            double t = ranks[r].glob[i];
            if (!any || t < first) first = t;
            if (!any || t > last) last = t;
            any = 1;
        }
    OTF2_Archive *a = OTF2_Archive_Open(path, "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                                        OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!a) return hm__error_set(HM_EIO, "OTF2: cannot open an archive in %s", path);
    int st = set_up(a, host_of(ranks, nranks));
    for (int r = 0; st == HM_OK && r < nranks; r++) st = write_rank(a, &ranks[r], r, first);
    OTF2_ErrorCode e = st == HM_OK ? OTF2_Archive_CloseEvtFiles(a) : OTF2_SUCCESS;
    if (e != OTF2_SUCCESS) st = otf2_failed("OTF2_Archive_CloseEvtFiles", e);
    if (st == HM_OK) st = write_local_defs(a, nranks);
    if (st == HM_OK) st = write_defs(a, ranks, nranks, first, ticks(last, first));
    e = OTF2_Archive_Close(a);
    if (e != OTF2_SUCCESS && st == HM_OK) st = otf2_failed("OTF2_Archive_Close", e);
    return st;
}

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

int hm__trace_write_otf2(const char *dir, const hm__trace_rank_t *ranks, int nranks)
{
    char tmp[4200], old[4300], final[4200];
    snprintf(tmp, sizeof tmp, "%s/.otf2.tmp.%ld", dir, (long)getpid());
    snprintf(old, sizeof old, "%s.old", tmp);
    snprintf(final, sizeof final, "%s/otf2", dir);
    int st = write_archive(tmp, ranks, nranks);
    /* The folder's rename publishes the archive whole; an older one is
     * moved aside first, then removed. */
    int had = st == HM_OK && rename(final, old) == 0;
    if (st == HM_OK && rename(tmp, final) != 0)
        st = hm__error_set(HM_EIO, "renaming %s: %s", tmp, strerror(errno));
    if (had && st == HM_OK) remove_tree(old);
    if (st != HM_OK) {
        int rc =
            hm__error_set(HM_EIO, "cannot write the OTF2 archive %s: %s", final, hm_last_error());
        remove_tree(tmp);
        if (had) rename(old, final);
        return rc;
    }
    return HM_OK;
}

#else

int hm__trace_write_otf2(const char *dir, const hm__trace_rank_t *ranks, int nranks)
{
    (void)dir, (void)ranks, (void)nranks;
    return HM_OK; /* built without OTF2: trace.csv and trace.json only */
}
#endif

int hm_trace_otf2_built(void)
{
    return HM_HAVE_OTF2;
}
