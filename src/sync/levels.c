/* src/sync/levels.c — hierarchical composition, Hunold & Carpen-Amarie 2018, Alg. 4 (H2HCA)
 * and its three-level form (H3HCA, §IV-D): parsing a specification, the
 * communicators of its levels, and running them. */
#include <stdio.h>
#include <string.h>

#include "sync/levels.h"

/* One name of the spec: the len characters at name. */
static int parse_level(const char *spec, const char *name, size_t len, int level,
                       const hm__sync_algorithm_t **alg)
{
    char token[64], known[160];
    if (len == 0)
        return hm__error_set(HM_EINVAL,
                             "\"%s\": level %d is empty (levels are joined by '+', outermost "
                             "first, e.g. hca3+prop)",
                             spec, level + 1);
    snprintf(token, sizeof token, "%.*s", (int)(len < sizeof token ? len : sizeof token - 1), name);
    *alg = len < sizeof token ? hm__sync_find(token) : NULL;
    if (*alg) return HM_OK;
    hm_sync_names(known, sizeof known);
    return hm__error_set(HM_ENOENT, "unknown algorithm \"%s\" (known: %s)", token, known);
}

int hm__sync_parse_spec(const char *spec, hm__sync_levels_t *lv)
{
    if (!spec || !*spec)
        return hm__error_set(HM_EINVAL, "empty specification: name an algorithm, or levels joined "
                                        "by '+' (e.g. hca3+prop)");
    int n = 1;
    for (const char *c = spec; *c; c++) n += *c == '+';
    if (n > HM_SYNC_MAX_LEVELS)
        return hm__error_set(HM_EINVAL, "\"%s\" has %d levels; at most %d (node+socket+core)", spec,
                             n, HM_SYNC_MAX_LEVELS);
    const char *name = spec;
    for (int l = 0; l < n; l++) {
        size_t len = strcspn(name, "+");
        int rc = parse_level(spec, name, len, l, &lv->alg[l]);
        if (rc != HM_OK) return rc;
        name += len + 1;
    }
    lv->n = n;
    /* Alg. 3 copies the clock of a leader synchronized at an outer level; the
     * outermost level has no such leader between its nodes. */
    for (int l = 0; n > 1 && l < n; l++)
        if (lv->alg[l]->kind == HM_SYNC_REFINE)
            return hm__error_set(HM_EINVAL,
                                 "\"%s\": %s is refined after the synchronization and takes no "
                                 "other level",
                                 spec, lv->alg[l]->name);
    if (n > 1 && lv->alg[0]->kind == HM_SYNC_PROPAGATE)
        return hm__error_set(HM_EINVAL,
                             "\"%s\": %s copies a leader's clock and cannot be the outermost level",
                             spec, lv->alg[0]->name);
    return HM_OK;
}

/* Alg. 4 lines 2-3 (created once per run, inside the measured duration as in
 * §IV-E). The topology's communicators are split from its own duplicate, so
 * they are private to this run without another duplicate per level. */
int hm__sync_comms_open(MPI_Comm comm, int nlevels, const hm_sync_params_t *params,
                        hm__sync_comms_t *c)
{
    *c = (hm__sync_comms_t){MPI_COMM_NULL, NULL, MPI_COMM_NULL};
    if (nlevels == 1) {
        int rc = hm__mpi_status(MPI_Comm_dup(comm, &c->dup), __func__, "MPI_Comm_dup");
        if (rc != HM_OK) return rc;
        c->whole = c->dup;
        return HM_OK;
    }
    const hm_topo_options_t opts = {params->ranks_per_node, params->ranks_per_socket};
    int rc = hm_topo_create(comm, &opts, &c->topo);
    if (rc == HM_OK)
        c->whole = hm_topo_comm(c->topo);
    else
        hm__error_set(
            rc,
            "the levels (nodes, sockets) could not be built with %d ranks per node and %d "
            "per socket (0 = real): %s",
            opts.ranks_per_node, opts.ranks_per_socket, hm_strerror(rc));
    return rc;
}

void hm__sync_comms_close(hm__sync_comms_t *c)
{
    if (c->dup != MPI_COMM_NULL) MPI_Comm_free(&c->dup);
    hm_topo_free(c->topo);
    *c = (hm__sync_comms_t){MPI_COMM_NULL, NULL, MPI_COMM_NULL};
}

static MPI_Comm level_comm(const hm__sync_comms_t *c, int level, int nlevels)
{
    MPI_Comm comm = MPI_COMM_NULL;
    if (!c->topo) return level == 0 ? c->dup : MPI_COMM_NULL;
    hm_topo_level_comm(c->topo, level, nlevels, &comm);
    return comm;
}

/* Alg. 4 lines 4-13, for any number of levels: a rank outside a level, or
 * alone in it, keeps the clock it has. */
int hm__sync_levels_run(const hm__sync_comms_t *c, const hm__sync_levels_t *lv,
                        const hm_sync_params_t *params, hm_clock_t **clock,
                        hm__sync_stats_t stats[HM_SYNC_MAX_LEVELS])
{
    int first = HM_OK;
    char first_error[HM_ERROR_MAX] = ""; /* later levels may leave sentences of their own */
    for (int l = 0; l < lv->n; l++) {
        MPI_Comm comm = level_comm(c, l, lv->n);
        int size = 0;
        if (comm == MPI_COMM_NULL || MPI_Comm_size(comm, &size) != MPI_SUCCESS || size < 2)
            continue;
        hm_clock_t *next = NULL;
        hm__error_clear(); /* an algorithm may fail without a sentence */
        int rc = lv->alg[l]->run(comm, *clock, params, &next, &stats[l]);
        if (rc != HM_OK && first == HM_OK) {
            first = rc;
            snprintf(first_error, sizeof first_error, "%s", hm_last_error());
        }
        if (rc != HM_OK) continue;
        hm_clock_free(*clock);
        *clock = next;
    }
    return first == HM_OK ? HM_OK : hm__error_set(first, "%s", first_error);
}

unsigned hm_sync_spec_reads(const char *spec)
{
    hm__sync_levels_t lv;
    if (hm__sync_parse_spec(spec, &lv) != HM_OK) return 0;
    unsigned reads = lv.n > 1 ? HM_SYNC_PARAM_TOPOLOGY : 0;
    for (int l = 0; l < lv.n; l++) reads |= lv.alg[l]->reads;
    return reads;
}

int hm_sync_spec_levels(const char *spec, int *nlevels, int *innermost_propagates)
{
    hm__sync_levels_t lv;
    if (!nlevels) return hm__error_null(__func__, "nlevels");
    if (!innermost_propagates) return hm__error_null(__func__, "innermost_propagates");
    int rc = hm__sync_parse_spec(spec, &lv);
    if (rc != HM_OK) return rc;
    *nlevels = lv.n;
    *innermost_propagates = lv.alg[lv.n - 1]->kind == HM_SYNC_PROPAGATE;
    return HM_OK;
}

int hm_sync_spec_refines(const char *spec)
{
    hm__sync_levels_t lv;
    return hm__sync_parse_spec(spec, &lv) == HM_OK && lv.alg[0]->kind == HM_SYNC_REFINE;
}
