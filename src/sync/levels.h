/* src/sync/levels.h — a specification's levels (Hunold & Carpen-Amarie 2018, Alg. 4 and §IV-D),
 * the communicators they run on, and running them. */
#ifndef HM_SYNC_LEVELS_H
#define HM_SYNC_LEVELS_H
#include <harmonia/topo.h>

#include "sync/sync_impl.h"

/* A parsed specification, outermost level first. */
typedef struct hm__sync_levels {
    int n;
    const hm__sync_algorithm_t *alg[HM_SYNC_MAX_LEVELS];
} hm__sync_levels_t;

/* Parse "hca3+prop" without MPI; the rules and sentences (as the last
 * error) of hm_sync_check_spec. */
int hm__sync_parse_spec(const char *spec, hm__sync_levels_t *levels);

/* The communicators of one run: a private duplicate of the caller's
 * communicator for one level, a topology (which duplicates it too) for
 * several. */
typedef struct hm__sync_comms {
    MPI_Comm dup;    /* one level; MPI_COMM_NULL otherwise */
    hm_topo_t *topo; /* several levels; NULL otherwise */
    MPI_Comm whole;  /* private communicator over every rank */
} hm__sync_comms_t;

/* Collective over comm; every rank returns the same status (and leaves the
 * same last error). */
int hm__sync_comms_open(MPI_Comm comm, int nlevels, const hm_sync_params_t *params,
                        hm__sync_comms_t *comms);
void hm__sync_comms_close(hm__sync_comms_t *comms);

/* Run the levels in order on *clock (base retained on entry): a rank that
 * takes part in a level with others replaces its clock by the level's
 * result. Collective over comms->whole. Returns this rank's first failure
 * (not agreed) with its sentence as the last error ("" when the algorithm
 * gave none); the rank still takes part in the later levels so that no one
 * waits for it forever. stats[l] is this rank's share of level l. */
int hm__sync_levels_run(const hm__sync_comms_t *comms, const hm__sync_levels_t *levels,
                        const hm_sync_params_t *params, hm_clock_t **clock,
                        hm__sync_stats_t stats[HM_SYNC_MAX_LEVELS]);
#endif
