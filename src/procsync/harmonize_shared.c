/* src/procsync/harmonize_shared.c — refreshes that respect a hierarchical
 * clock_sync. With "hca3+prop" (or any spec whose innermost level is prop)
 * the ranks of a node read one time source, and the full synchronization
 * gives them their leader's clock exactly. A refresh that measured every
 * rank against the root would replace that exact copy by an estimate off by
 * the asymmetry of its fastest round trip (0.1-0.3 us over TCP here) at
 * every miss; so only the leaders of the innermost level measure, and each
 * passes its refreshed clock on to its group (prop, Hunold & Carpen-Amarie 2018, Alg. 3). */
#include <stdlib.h>

#include <harmonia/agree.h>
#include <harmonia/topo.h>

#include "common/error_set.h"
#include "procsync/harmonize_state.h"

/* Local: the spec's innermost level copies its leader's clock. */
static int innermost_propagates(const hm__hz_state_t *st, int *nlevels)
{
    int propagates = 0;
    if (hm_sync_spec_levels(st->clock_sync, nlevels, &propagates) != HM_OK) return 0;
    return *nlevels >= 2 && propagates;
}

int hm__hz_shared_open(hm__hz_state_t *st)
{
    int nlevels = 0, leader = 1, rc = HM_OK;
    st->shared = MPI_COMM_NULL;
    if (st->refresh && innermost_propagates(st, &nlevels)) {
        const hm_topo_options_t opts = {st->sync.ranks_per_node, st->sync.ranks_per_socket};
        rc = hm_topo_create(st->comm, &opts, &st->topo);
        if (rc == HM_OK) rc = hm_topo_level_comm(st->topo, nlevels - 1, nlevels, &st->shared);
        int me = 0;
        if (rc == HM_OK && st->shared != MPI_COMM_NULL) MPI_Comm_rank(st->shared, &me);
        leader = me == 0;
    }
    st->measures_self = leader;
    if (st->rank == 0 && !(st->measures = malloc((size_t)st->size * sizeof *st->measures)))
        rc = hm__error_nomem(__func__);
    int all = hm_agree(st->comm, rc);
    if (all != HM_OK) return all;
    return hm__mpi_status(MPI_Gather(&leader, 1, MPI_INT, st->measures, 1, MPI_INT, 0, st->comm),
                          __func__, "MPI_Gather");
}

void hm__hz_shared_close(hm__hz_state_t *st)
{
    free(st->measures);
    st->measures = NULL;
    hm_topo_free(st->topo); /* owns st->shared */
    st->topo = NULL;
    st->shared = MPI_COMM_NULL;
}

int hm__hz_shared_measures(const hm__hz_state_t *st, int r)
{
    if (st->rank == 0) return st->measures ? st->measures[r] : 1;
    return r == st->rank ? st->measures_self : 0;
}

int hm__hz_shared_propagate(hm__hz_state_t *st, hm_clock_t **clock)
{
    int size = 0, me = 0;
    if (st->shared == MPI_COMM_NULL) return HM_OK;
    MPI_Comm_size(st->shared, &size);
    MPI_Comm_rank(st->shared, &me);
    if (size < 2) return HM_OK;
    hm_clock_t *copy = NULL;
    /* The members pass their identity clock: prop reads its timer (the
     * domain check, the timer the copy is built over). */
    int rc = hm_sync_propagate(st->shared, me == 0 ? *clock : st->base, &copy);
    if (rc != HM_OK) return rc;
    hm_clock_free(*clock);
    *clock = copy;
    return HM_OK;
}
