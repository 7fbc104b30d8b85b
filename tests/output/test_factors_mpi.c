/* tests/output/test_factors_mpi.c — hm_factors_collect at 2, 3 and 4 ranks:
 * the factors are written to a CSV, read back on rank 0 with an independent
 * reader, and compared with facts this test finds out by itself (host name,
 * each rank's hwloc binding, MPI version, the clock). */
#include <hwloc.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <harmonia/output.h>

#include "csv_read.h"
#include "testutil.h"

#define SEED UINT64_C(18446744073709551557) /* above 2^63: printed unsigned */

static const char *const required[] = {"harmonia_version",
                                       "command_line",
                                       "date",
                                       "mpi_library",
                                       "mpi_version",
                                       "processes",
                                       "nodes",
                                       "processes_per_node",
                                       "hosts",
                                       "hosts_digest",
                                       "timer",
                                       "timer_resolution_s",
                                       "pinning",
                                       "cpu_governor",
                                       "interference",
                                       "compiler",
                                       "cflags",
                                       "build_type",
                                       "seed"};
enum { NREQUIRED = sizeof required / sizeof required[0], BIND_LEN = 256 };

/* This rank's binding as the factor spells it, found with hwloc directly. */
static void my_binding(char *buf)
{
    hwloc_topology_t topo;
    hwloc_topology_init(&topo);
    hwloc_topology_load(topo);
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS);
    if (hwloc_bitmap_isincluded(hwloc_topology_get_allowed_cpuset(topo), set))
        snprintf(buf, BIND_LEN, "unbound");
    else
        hwloc_bitmap_list_snprintf(buf, BIND_LEN, set);
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);
}

/* Expected pinning: "unbound" if every rank is, else "0:LIST 1:LIST ...". */
static void expected_pinning(char *out, size_t len)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char mine[BIND_LEN] = "", *all = malloc((size_t)size * BIND_LEN);
    my_binding(mine);
    MPI_Gather(mine, BIND_LEN, MPI_CHAR, all, BIND_LEN, MPI_CHAR, 0, MPI_COMM_WORLD);
    int unbound = 0;
    for (int r = 0; rank == 0 && r < size; r++) unbound += !strcmp(all + r * BIND_LEN, "unbound");
    out[0] = '\0';
    if (rank == 0 && unbound == size) snprintf(out, len, "unbound");
    for (int r = 0; rank == 0 && unbound < size && r < size; r++)
        snprintf(out + strlen(out), len - strlen(out), "%s%d:%s", r ? " " : "", r,
                 all + r * BIND_LEN);
    free(all);
}

static uint64_t fnv(const char *text)
{
    uint64_t h = 14695981039346656037u;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        h = (h ^ *p) * 1099511628211u;
    return h;
}

/* Every rank holds the same list: compare a digest of it across ranks. */
static void check_identical(const hm_factors_t *f)
{
    uint64_t h = 14695981039346656037u, lo, hi;
    const char *k, *v;
    for (size_t i = 0; hm_factors_at(f, i, &k, &v) == HM_OK; i++) h ^= fnv(k) * 31 + fnv(v) + i;
    MPI_Allreduce(&h, &lo, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&h, &hi, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    HM_CHECK(lo == hi, "factors identical on every rank (digest %016" PRIx64 ")", h);
}

static void write_csv(const char *path, const hm_factors_t *f)
{
    const char *cols[] = {"operation", "size_bytes", "time_s"};
    hm_csv_t *csv;
    int st = hm_csv_open(path, f, cols, 3, &csv);
    HM_CHECK(st == HM_OK, "csv opened (%d %s)", st, hm_last_error());
    for (int64_t size = 1; st == HM_OK && size <= 1024; size *= 4) {
        hm_csv_put_string(csv, "bcast");
        hm_csv_put_int64(csv, size);
        hm_csv_put_double(csv, 1.25e-6 * (double)size);
        st = hm_csv_end_row(csv);
    }
    st = hm_csv_close(csv);
    HM_CHECK(st == HM_OK, "csv committed (%d %s)", st, hm_last_error());
}

static void check_presence_and_order(const csv_doc_t *doc)
{
    size_t last = 0, missing = 0, disordered = 0;
    for (int k = 0; k < NREQUIRED; k++) {
        size_t at = 0;
        while (at < doc->nfactors && strcmp(doc->keys[at], required[k])) at++;
        if (at == doc->nfactors) {
            hm_test_note("missing factor %s", required[k]);
            missing++;
        } else {
            disordered += at < last;
            last = at;
        }
    }
    HM_CHECK(missing == 0 && disordered == 0, "%d required factors: %zu missing, %zu out of order",
             NREQUIRED, missing, disordered);
}

static void check_date(const char *date)
{
    struct tm tm = {0};
    const char *end = date ? strptime(date, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
    double age = end ? difftime(time(NULL), timegm(&tm)) : 1e9;
    HM_CHECK(end && *end == '\0' && age >= -5 && age < 600,
             "date \"%s\" is ISO 8601 UTC and %.0f s old", date ? date : "", age);
}

static int is_hex16(const char *s)
{
    return s && strlen(s) == 16 && strspn(s, "0123456789abcdef") == 16;
}

static void check_hosts(const csv_doc_t *doc, int size)
{
    char host[MPI_MAX_PROCESSOR_NAME + 2], digest[20], ppn[16];
    int len;
    MPI_Get_processor_name(host, &len);
    const char *d = csv_factor(doc, "hosts_digest");
    HM_CHECK(strcmp(csv_factor(doc, "nodes"), "1") == 0, "nodes = %s on one machine",
             csv_factor(doc, "nodes"));
    snprintf(ppn, sizeof ppn, "%d", size);
    HM_CHECK(strcmp(csv_factor(doc, "processes_per_node"), ppn) == 0,
             "processes_per_node = %s, expected %s", csv_factor(doc, "processes_per_node"), ppn);
    HM_CHECK(strcmp(csv_factor(doc, "hosts"), host) == 0, "hosts = %s, processor name %s",
             csv_factor(doc, "hosts"), host);
    strcat(host, "\n");
    snprintf(digest, sizeof digest, "%016" PRIx64, fnv(host));
    HM_CHECK(is_hex16(d) && strcmp(d, digest) == 0, "hosts_digest %s is 16 hex digits = %s",
             d ? d : "", digest);
}

static void check_values(const csv_doc_t *doc, int size, const char *pinning)
{
    char text[64];
    int major, minor;
    snprintf(text, sizeof text, "%d", size);
    HM_CHECK(strcmp(csv_factor(doc, "processes"), text) == 0, "processes = %s, size %d",
             csv_factor(doc, "processes"), size);
    check_date(csv_factor(doc, "date"));
    check_hosts(doc, size);
    HM_CHECK(strcmp(csv_factor(doc, "seed"), "18446744073709551557") == 0, "seed = %s",
             csv_factor(doc, "seed"));
    HM_CHECK(strcmp(csv_factor(doc, "interference"), "quiet (test)") == 0,
             "interference = %s, as given", csv_factor(doc, "interference"));
    MPI_Get_version(&major, &minor);
    snprintf(text, sizeof text, "%d.%d", major, minor);
    HM_CHECK(strcmp(csv_factor(doc, "mpi_version"), text) == 0, "mpi_version = %s (%s)",
             csv_factor(doc, "mpi_version"), text);
    HM_CHECK(strcmp(csv_factor(doc, "timer"), "monotonic (test)") == 0 &&
                 fabs(strtod(csv_factor(doc, "timer_resolution_s"), NULL) - size * 1e-8) < 1e-12 &&
                 strtod(csv_factor(doc, "timer_nominal_resolution_s"), NULL) == 1e-9,
             "timer = %s, resolution %s (expected the coarsest rank's, %g), nominal %s",
             csv_factor(doc, "timer"), csv_factor(doc, "timer_resolution_s"), size * 1e-8,
             csv_factor(doc, "timer_nominal_resolution_s"));
    HM_CHECK(strcmp(csv_factor(doc, "pinning"), pinning) == 0,
             "pinning = \"%s\", hwloc says \"%s\"", csv_factor(doc, "pinning"), pinning);
    HM_CHECK(strstr(csv_factor(doc, "command_line"), "test_factors_mpi") != NULL,
             "command_line: %s", csv_factor(doc, "command_line"));
    HM_CHECK(strcmp(csv_factor(doc, "note"), "first line second line") == 0,
             "a newline in a value became a space: \"%s\"", csv_factor(doc, "note"));
    hm_test_note("mpi_library: %s; cpu_governor: %s; compiler: %s; cflags: %s",
                 csv_factor(doc, "mpi_library"), csv_factor(doc, "cpu_governor"),
                 csv_factor(doc, "compiler"), csv_factor(doc, "cflags"));
}

static void check_rows(const csv_doc_t *doc)
{
    size_t bad = doc->nrows != 6 || doc->ncolumns != 3;
    for (size_t r = 0; !bad && r < doc->nrows; r++) {
        long size = 1L << (2 * r);
        bad += doc->row_cells[r] != 3 || strcmp(doc->rows[r][0], "bcast") != 0 ||
               strtol(doc->rows[r][1], NULL, 10) != size ||
               strtod(doc->rows[r][2], NULL) != 1.25e-6 * (double)size;
    }
    HM_CHECK(!bad, "header and %zu data rows after the factors read back exactly", doc->nrows);
}

static void check_file(const hm_factors_t *f, int size, const char *pinning)
{
    char dir[] = "/tmp/hm_test_factors_XXXXXX", path[512], why[256] = "";
    HM_CHECK(mkdtemp(dir) != NULL, "temporary directory %s", dir);
    snprintf(path, sizeof path, "%s/factors.csv", dir);
    write_csv(path, f);
    csv_doc_t doc;
    int rc = csv_read(path, &doc, why, sizeof why);
    /* The writer adds the factor "complete" after the run's own. */
    HM_CHECK(rc == 0 && doc.nfactors == hm_factors_count(f) + 1,
             "file parses; %zu \"# key: value\" lines for %zu factors + complete (%s)",
             doc.nfactors, hm_factors_count(f), why);
    if (rc == 0) {
        check_presence_and_order(&doc);
        check_values(&doc, size, pinning);
        check_rows(&doc);
    }
    csv_doc_free(&doc);
    unlink(path);
    rmdir(dir);
}

/* Collect over halves of the ranks: processes is the size of the half,
 * also when the halves are uneven (3 ranks). */
static void check_subcommunicator(int rank)
{
    MPI_Comm half;
    int size;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_size(half, &size);
    hm_factors_t *f;
    hm_factors_create(&f);
    int st = hm_factors_collect(f, half, NULL);
    const char *p = "";
    hm_factors_get(f, "processes", &p);
    HM_CHECK(st == HM_OK && atoi(p) == size, "collect over a half of %d ranks: processes = %s",
             size, p);
    hm_factors_free(f);
    MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    hm_factors_t *f;
    hm_factors_create(&f);
    hm_factors_set(f, "note", "first line\nsecond line");
    /* Each rank measured its own resolution; the file holds the coarsest
     * (rank size - 1's), and the nominal one beside it. */
    hm_factors_context_t ctx = {argc,
                                (const char *const *)argv,
                                "monotonic (test)",
                                (rank + 1) * 1e-8,
                                1,
                                SEED,
                                "quiet (test)",
                                1e-9};
    int st = hm_factors_collect(f, MPI_COMM_WORLD, &ctx);
    HM_CHECK(st == HM_OK, "hm_factors_collect returned %d", st);
    check_identical(f);
    char pinning[4096];
    expected_pinning(pinning, sizeof pinning);
    if (rank == 0) check_file(f, size, pinning);
    check_subcommunicator(rank);
    hm_factors_free(f);
    int rc = hm_test_finish_mpi(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
