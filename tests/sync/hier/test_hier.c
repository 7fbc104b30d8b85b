/* tests/sync/hier/test_hier.c — hierarchical specifications against the
 * truth, and who talks to whom.
 *
 * Usage: test_hier SPEC RANKS_PER_NODE RANKS_PER_SOCKET DOMAIN_DIV [count]
 * Synthetic clocks (offset +-1 s, drift +-100 ppm) with clock domain
 * rank / DOMAIN_DIV: DOMAIN_DIV = ranks per node gives one clock per virtual
 * node, as prop requires; 1 gives every rank its own.
 *
 * Every rank's true error right after must be <= 50 us: 4 ranks run on 2
 * cores, where a ping-pong can wait for a scheduler slice, and hca3 chains
 * two models (node leaders, then sockets); 50 us still fails a rank whose
 * clock was not propagated (offsets up to 2 s).
 *
 * With "count", the point-to-point messages of the synchronization are
 * counted by peer (pmpi_count.h): a rank that is not a node leader must
 * exchange none with another node, and each node leader must exchange some
 * with another node's leader (Hunold & Carpen-Amarie 2018, Alg. 4: only the node leaders
 * synchronize between nodes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmpi_count.h"
#include "testutil.h"
#include "truth.h"

static int rank, size, rpn;

static int node_of(int r)
{
    return r / rpn;
}

static int is_leader(int r)
{
    return r % rpn == 0;
}

/* Collectives on their own must leave the counters at zero, or the
 * message counts below would include their internal traffic. */
static void check_collectives_uncounted(void)
{
    double x = rank, y;
    MPI_Comm split;
    count_start();
    MPI_Bcast(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_split(MPI_COMM_WORLD, node_of(rank), rank, &split);
    MPI_Bcast(&x, 1, MPI_DOUBLE, 0, split);
    MPI_Comm_free(&split);
    count_stop();
    long n = count_any_source();
    for (int r = 0; r < size; r++) n += count_sent(r) + count_received(r);
    HM_CHECK(n == 0,
             "collectives (bcast, allreduce, barrier, split) are not counted as "
             "point-to-point messages (%ld counted)",
             n);
}

static void check_messages(void)
{
    long sent_out = 0, received_out = 0, row[2 * 64] = {0}, *all = NULL;
    for (int r = 0; r < size; r++) {
        row[2 * r] = count_sent(r);
        row[2 * r + 1] = count_received(r);
        if (node_of(r) == node_of(rank)) continue;
        if (!(is_leader(rank) && is_leader(r)))
            HM_CHECK(row[2 * r] == 0 && row[2 * r + 1] == 0,
                     "rank %d (%s) and rank %d of another node exchange no point-to-point "
                     "messages (%ld sent, %ld receives posted)",
                     rank, is_leader(rank) ? "node leader" : "not a node leader", r, row[2 * r],
                     row[2 * r + 1]);
        else {
            sent_out += row[2 * r];
            received_out += row[2 * r + 1];
        }
    }
    HM_CHECK(count_any_source() == 0,
             "no receive from MPI_ANY_SOURCE (%ld): every message is "
             "attributed to a peer",
             count_any_source());
    if (is_leader(rank) && size > rpn)
        HM_CHECK(sent_out > 0 && received_out > 0,
                 "node leader %d exchanges messages with other node leaders (%ld sent, %ld "
                 "receives posted)",
                 rank, sent_out, received_out);
    if (rank == 0) all = malloc(sizeof row * (size_t)size);
    MPI_Gather(row, 2 * 64, MPI_LONG, all, 2 * 64, MPI_LONG, 0, MPI_COMM_WORLD);
    for (int a = 0; rank == 0 && a < size; a++) {
        char line[512];
        int k = snprintf(line, sizeof line, "messages of rank %d (sent/receives) to rank", a);
        for (int b = 0; b < size && k < (int)sizeof line; b++)
            k += snprintf(line + k, sizeof line - (size_t)k, " %d: %ld/%ld", b,
                          all[a * 128 + 2 * b], all[a * 128 + 2 * b + 1]);
        hm_test_note("%s", line);
    }
    free(all);
}

/* Models each level must have learned: one per rank of the level's
 * communicators but their leaders (hca3: every rank a client once), none for
 * prop. Virtual layout: nodes of rpn ranks, sockets of rps ranks per node. */
static void check_report(const char *spec, int rps, const hm_sync_report_t *rep)
{
    int nnodes = (size + rpn - 1) / rpn, nsockets = 0;
    for (int n = 0; n < nnodes && rps > 0; n++) {
        int node_size = n == nnodes - 1 ? size - n * rpn : rpn;
        nsockets += (node_size + rps - 1) / rps;
    }
    int nlevels = 1;
    for (const char *c = spec; *c; c++) nlevels += *c == '+';
    const int participants[3][3] = {{0}, {nnodes, size}, {nnodes, nsockets, size}};
    const int groups[3][3] = {{0}, {1, nnodes}, {1, nnodes, nsockets}};
    HM_CHECK(rep->nlevels == nlevels, "%s: the report has %d levels (%d)", spec, rep->nlevels,
             nlevels);
    char name[16];
    const char *at = spec;
    for (int l = 0; l < nlevels && l < rep->nlevels && nlevels > 1; l++) {
        size_t len = strcspn(at, "+");
        snprintf(name, sizeof name, "%.*s", (int)len, at);
        at += len + 1;
        int want =
            strcmp(name, "prop") == 0 ? 0 : participants[nlevels - 1][l] - groups[nlevels - 1][l];
        int got = rep->drift_models[l] + rep->offset_models[l];
        HM_CHECK(strcmp(rep->algorithm[l], name) == 0 && got == want,
                 "%s level %d: algorithm %s (%s), %d models learned (%d expected)", spec, l,
                 rep->algorithm[l], name, got, want);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 5 || size > 64) {
        if (rank == 0) fprintf(stderr, "usage: test_hier SPEC RPN RPS DOMAIN_DIV [count]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *spec = argv[1];
    int counting = argc > 5 && strcmp(argv[5], "count") == 0, worst = -1;
    rpn = atoi(argv[2]);
    hm_sync_params_t p;
    hm_truth_params_default(&p, 100, 20);
    p.ranks_per_node = rpn;
    p.ranks_per_socket = atoi(argv[3]);
    hm_truth_t t;
    hm_clock_t *global = NULL;
    hm_sync_report_t rep = {0};
    int rc = hm_truth_open(&t, MPI_COMM_WORLD, (hm_synthetic_spec_t){1.0, 1e-4, 0}, HM_TRUTH_SEED,
                           rank / atoi(argv[4]));
    HM_CHECK(rc == HM_OK, "synthetic clock of domain %d created (status %d)", rank / atoi(argv[4]),
             rc);
    if (counting) check_collectives_uncounted();
    if (counting) count_start();
    if (rc == HM_OK) rc = hm_sync_run(MPI_COMM_WORLD, spec, &p, t.base, &global, &rep);
    if (counting) count_stop();
    HM_CHECK(rc == HM_OK, "%s with %d ranks per node, %d per socket succeeds (status %d: %s)", spec,
             rpn, p.ranks_per_socket, rc, hm_last_error());
    if (rc == HM_OK) {
        double err = hm_truth_max_error(&t, global, &worst);
        HM_CHECK(err <= 50e-6,
                 "%s over %d ranks: max true error right after %.3f us (rank %d) "
                 "<= 50 us",
                 spec, size, err * 1e6, worst);
        if (rank == 0)
            hm_test_note("%s: %d levels, duration %.3f s", spec, rep.nlevels, rep.duration_s);
        check_report(spec, p.ranks_per_socket, &rep);
        if (counting) check_messages();
    }
    hm_clock_free(global);
    hm_truth_close(&t);
    rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
