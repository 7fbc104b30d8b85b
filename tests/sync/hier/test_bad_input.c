/* tests/sync/hier/test_bad_input.c — specifications and parameters that are
 * refused, on every rank alike and without a hang; and the one-rank
 * communicator, where every algorithm must return the base clock's time. */
#include <stdio.h>
#include <string.h>

#include "sync/sync_impl.h"
#include "testutil.h"
#include "truth.h"

static int rank;

/* want_why "" (an accepted spec): the check leaves no sentence of its own,
 * the one of an earlier refusal stays the last error. */
static void spec(const char *text, int want, const char *want_why)
{
    char before[256];
    hm_sync_check_spec(NULL);
    snprintf(before, sizeof before, "%s", hm_last_error());
    int rc = hm_sync_check_spec(text);
    const char *why = hm_last_error();
    const char *expected = want_why && !want_why[0] ? before : want_why;
    HM_CHECK(rc == want && (!expected || strcmp(why, expected) == 0),
             "check_spec(\"%s\") = %d (expected %d): \"%s\"", text, rc, want, why);
}

static void specs(void)
{
    spec("hca4", HM_ENOENT,
         "unknown algorithm \"hca4\" (known: skampi, netgauge, jk, hca, hca2, hca3, prop, refine)");
    spec("a+b+c+d", HM_EINVAL, "\"a+b+c+d\" has 4 levels; at most 3 (node+socket+core)");
    spec("hca3+hca3+hca3+prop", HM_EINVAL,
         "\"hca3+hca3+hca3+prop\" has 4 levels; at most 3 (node+socket+core)");
    spec("", HM_EINVAL, NULL);
    spec("hca3++prop", HM_EINVAL, NULL);
    spec("hca3+", HM_EINVAL, NULL);
    spec("prop+hca3", HM_EINVAL,
         "\"prop+hca3\": prop copies a leader's clock and cannot be the outermost level");
    spec("hca3+hca4", HM_ENOENT, NULL);
    for (size_t i = 0; i < hm_sync_count(); i++) spec(hm_sync_name_at(i), HM_OK, "");
    spec("hca3+prop", HM_OK, "");
    spec("hca3+hca3+prop", HM_OK, "");
    spec("jk+prop+prop", HM_OK, "");
}

/* Every rank refused with rc and the same sentence, without waiting for
 * another (the test's timeout would catch a hang). */
static void refused(const char *what, const hm_sync_params_t *p, const char *text, int want,
                    hm_clock_t *base)
{
    char why[256], first[256];
    hm_clock_t *global = NULL;
    int rc = hm_sync_run(MPI_COMM_WORLD, text, p, base, &global, NULL);
    snprintf(why, sizeof why, "%s", hm_last_error());
    snprintf(first, sizeof first, "%s", why);
    MPI_Bcast(first, sizeof first, MPI_CHAR, 0, MPI_COMM_WORLD);
    HM_CHECK(rc == want && global == NULL && why[0] && strcmp(first, why) == 0,
             "%s: status %d (expected %d), \"%s\", rank 0 said \"%s\"", what, rc, want, why, first);
}

static void bad_runs(hm_clock_t *base)
{
    hm_sync_params_t p;
    hm_sync_params_default(&p);
    p.fitpoints = 0;
    refused("fitpoints 0", &p, "hca3", HM_EINVAL, base);
    p.fitpoints = 1; /* a line needs two points: refused up front, not in each pair */
    refused("fitpoints 1 with hca3", &p, "hca3", HM_EINVAL, base);
    hm_sync_params_default(&p);
    p.exchanges = 0;
    refused("exchanges 0", &p, "hca3+prop", HM_EINVAL, base);
    hm_sync_params_default(&p);
    refused("unknown algorithm", &p, "hca4", HM_ENOENT, base);
    p.exchanges = rank == 1 ? 21 : 20;
    refused("ranks with different parameters", &p, "hca3", HM_EINVAL, base);
}

/* Identity: the result maps every reading to itself, like base. */
static int reads_like_base(hm_clock_t *clk, hm_clock_t *base)
{
    const double t[] = {0, 1.5, 1234.5678};
    int same = 1;
    for (int i = 0; i < 3; i++)
        same &= hm_clock_from_local(clk, t[i]) == hm_clock_from_local(base, t[i]);
    return same;
}

static void one_rank(hm_clock_t *base)
{
    hm_sync_params_t p;
    hm_truth_params_default(&p, 10, 2);
    for (size_t i = 0; i < hm_sync_count(); i++) {
        const char *name = hm_sync_name_at(i);
        hm_clock_t *g = NULL, *direct = NULL;
        hm__sync_stats_t stats = {0};
        int rc = hm_sync_run(MPI_COMM_SELF, name, &p, base, &g, NULL);
        HM_CHECK(rc == HM_OK && g && reads_like_base(g, base),
                 "hm_sync_run(MPI_COMM_SELF, \"%s\"): status %d, reads like the base clock", name,
                 rc);
        rc = hm__sync_find(name)->run(MPI_COMM_SELF, base, &p, &direct, &stats);
        HM_CHECK(rc == HM_OK && direct && reads_like_base(direct, base),
                 "%s called directly over MPI_COMM_SELF: status %d (%s), reads like the base", name,
                 rc, rc == HM_OK ? "" : hm_last_error());
        hm_clock_free(g);
        hm_clock_free(direct);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    hm_truth_t t;
    int rc =
        hm_truth_open(&t, MPI_COMM_WORLD, (hm_synthetic_spec_t){1.0, 1e-4, 0}, HM_TRUTH_SEED, rank);
    HM_CHECK(rc == HM_OK, "synthetic clock created (status %d)", rc);
    specs();
    if (rc == HM_OK) {
        bad_runs(t.base);
        one_rank(t.base);
    }
    hm_truth_close(&t);
    rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
