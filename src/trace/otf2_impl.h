/* src/trace/otf2_impl.h — what the OTF2 writer's two files share:
 * otf2.c writes the definitions and the archive, otf2_events.c the events
 * of each rank. Internal; in a build with OTF2 only. */
#ifndef HM_TRACE_OTF2_IMPL_H
#define HM_TRACE_OTF2_IMPL_H

#include <otf2/otf2.h>

#include "trace/merge_impl.h"

/* A communicator of the archive, its OTF2_CommRef its index in key order:
 * its members as ranks of MPI_COMM_WORLD, borrowed from a rank's model
 * (NULL: MPI_COMM_WORLD, rank r is r). Windows and files are there too,
 * under the keys their calls carry. */
typedef struct comm_def {
    uint64_t key;
    int size;
    const int *world_ranks;
    size_t order; /* where it was found: the first rank's description wins */
} comm_def_t;

/* The RmaWin or IoHandle refs of the communicator refs the event writers
 * met as windows or files: ref[c] given in the order met, as OTF2 wants
 * its definitions numbered 0, 1, ... (UINT32_MAX before); made[c] 1 once
 * the record of its creation was written. */
typedef struct object_refs {
    uint32_t *ref;
    uint8_t *made;
    uint32_t n;
} object_refs_t;

typedef struct comm_defs {
    comm_def_t *v;
    size_t n;
    object_refs_t windows, files; /* set by the event writers */
} comm_defs_t;

/* c's ref among the objects o (given now if it had none). */
uint32_t hm__otf2_object_ref(object_refs_t *o, uint32_t c);

/* HM_EIO with the OTF2 call that failed and OTF2's words for e; HM_EIO
 * for a call that returned no writer (location -1: none). */
int hm__otf2_failed(const char *call, OTF2_ErrorCode e);
int hm__otf2_none(const char *call, int location);

/* global_s as OTF2 ticks (ns) from base_s, never negative. */
uint64_t hm__otf2_ticks(double global_s, double base_s);

/* bsearch's comparison of a key with a comm_def_t. */
int hm__otf2_key_is(const void *key, const void *def);

/* World rank w as a rank of c; -1 when it is not a member. */
int64_t hm__otf2_rank_in(const comm_def_t *c, int w);

/* Rank r's calls and their MPI records on location r, an event at a time
 * in the order of its stream, ticks from base_s: open, then each event,
 * then close (*count: the records written, the location's number of
 * events; every failure is returned again until close, which frees). The
 * windows and files the events name get their refs in comms. */
typedef struct hm__otf2_rank hm__otf2_rank_t;
int hm__otf2_rank_open(OTF2_Archive *a, int r, comm_defs_t *comms, double base_s,
                       hm__otf2_rank_t **out);
int hm__otf2_rank_event(hm__otf2_rank_t *rw, const hm__trace_ev_t *ev);
int hm__otf2_rank_close(OTF2_Archive *a, hm__otf2_rank_t *rw, uint64_t *count);
/* The role of func's region: a collective's from the collectives table,
 * else from its class. */
OTF2_RegionRole hm__otf2_region_role(int func);
#endif
