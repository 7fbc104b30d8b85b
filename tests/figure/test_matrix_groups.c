/* tests/figure/test_matrix_groups.c — the group boundaries of the matrix
 * figure (issue 32; CommBench's Fig. 6 draws its nodes), on the gnuplot
 * script itself: matrix files as `harmonia pattern --matrix` writes them
 * are read (plot_input.c) and drawn (plot_matrix.c) into a script whose
 * "set arrow" lines are compared with the boundaries expected. At P = 4
 * and group_size 2 exactly two lines, at 1.5 across the rows and down the
 * columns, spanning the map (-0.5 to 3.5); at P = 8 three on each axis;
 * none without the factor, at group_size = P or 1, when P is no multiple
 * of it, or beyond 64 groups; a rank that sends nothing still counts in P
 * (factor processes). Two files in one figure: the second map does not
 * keep the first one's lines. A factor that is no number of ranks is an
 * error naming the file. No gnuplot needed: the script is not run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "figure/plot_figure.h"
#include "figure/plot_input.h"
#include "testutil.h"

static char root[] = "/tmp/hm-matrix-groups-XXXXXX";

/* A matrix file of P ranks: rank r sends 8 bytes to rank (r + 1) % P,
 * apart from rank silent (-1: none), which neither sends nor receives;
 * factors processes (0: left out) and group_size (NULL: left out).
 * Returns its path (static). */
static const char *matrix_file(const char *name, int P, int processes, const char *group_size,
                               int silent)
{
    static char path[4200];
    snprintf(path, sizeof path, "%s/%s.csv", root, name);
    FILE *f = fopen(path, "w");
    if (!f) return path;
    fprintf(f, "# harmonia_version: test\n# pattern: symmetric\n");
    if (processes) fprintf(f, "# processes: %d\n", processes);
    if (group_size) fprintf(f, "# group_size: %s\n", group_size);
    fprintf(f, "# matrix_of: %s\nsrc,dst,bytes\n", name);
    for (int r = 0; r < P; r++)
        if (r != silent && (r + 1) % P != silent) fprintf(f, "%d,%d,8\n", r, (r + 1) % P);
    fclose(f);
    return path;
}

/* The script of the matrix figure of the files paths, into buf; its
 * reading status, HM_OK when read and drawn. */
static int script_of(const char *const *paths, int n, char *buf, size_t len)
{
    hm__plot_source_t src[4] = {{0}};
    hm__plot_data_t fig[HM_NFIG] = {{0}};
    hm__plot_out_t out = {0};
    hm__plot_script_t s;
    char what[256];
    buf[0] = '\0';
    snprintf(out.tmpdir, sizeof out.tmpdir, "%s", root);
    int rc = HM_OK;
    for (int i = 0; rc == HM_OK && i < n; i++)
        rc = hm__plot_read_file(paths[i], &src[i], HM_METRIC_GLOBAL, fig);
    if (rc == HM_OK && (rc = hm__plot_script_open(&out, "matrix", &s)) == HM_OK) {
        hm__plot_data_sort(&fig[HM_FIG_MATRIX]);
        hm__plot_data_label(&fig[HM_FIG_MATRIX]);
        rc = hm__plot_draw_matrix(&fig[HM_FIG_MATRIX], "global", &s, what, sizeof what);
        hm__plot_script_abort(&s); /* closes the files: the script is read, not run */
        FILE *f = fopen(s.body_path, "r");
        size_t got = f ? fread(buf, 1, len - 1, f) : 0;
        buf[got] = '\0';
        if (f) fclose(f);
        unlink(s.body_path), unlink(s.data_path);
    }
    for (int f = 0; f < HM_NFIG; f++) hm__plot_data_free(&fig[f]);
    return rc;
}

/* The "set arrow" lines of script from its last "unset arrow" (the last
 * map's), joined by '|'. */
static void arrows(const char *script, char *buf, size_t len)
{
    const char *p = script, *u;
    size_t used = 0;
    while ((u = strstr(p, "unset arrow\n"))) p = u + 1;
    buf[0] = '\0';
    while ((p = strstr(p, "set arrow ")) && used < len) {
        size_t n = strcspn(p, "\n");
        used += (size_t)snprintf(buf + used, len - used, "%s%.*s", used ? "|" : "", (int)n, p);
        p += n;
    }
}

#define LINE(x0, y0, x1, y1)                                                                       \
    "set arrow from " x0 "," y0 " to " x1 "," y1 " nohead front lc rgb '#202020' lw 1.5"

/* The boundary at `at` of a map ending at `end`: down the columns, then
 * across the rows. */
#define BOUNDARY(at, end) LINE(at, "-0.5", at, end) "|" LINE("-0.5", at, end, at)

static char script[1 << 16], got[1 << 12];

/* The lines of the map of one file, against want. */
static void expect(const char *path, const char *want, const char *why)
{
    int rc = script_of(&path, 1, script, sizeof script);
    arrows(script, got, sizeof got);
    HM_CHECK(rc == HM_OK && !strcmp(got, want), "%s: %s (rc %d: %s)\n  got  %s\n  want %s", path,
             why, rc, rc ? hm_last_error() : "", got, want);
}

int main(void)
{
    HM_CHECK(mkdtemp(root) != NULL, "a scratch directory");

    expect(matrix_file("g2p4", 4, 4, "2", -1), BOUNDARY("1.5", "3.5"),
           "groups of 2 at P = 4: one line down the columns, one across the rows, at 1.5");
    HM_CHECK(strstr(script, "set xrange [-0.5:3.5]") && strstr(script, "set yrange [3.5:-0.5]"),
             "the lines span the map's range");
    expect(matrix_file("g2p8", 8, 8, "2", -1),
           BOUNDARY("1.5", "7.5") "|" BOUNDARY("3.5", "7.5") "|" BOUNDARY("5.5", "7.5"),
           "groups of 2 at P = 8: lines at 1.5, 3.5 and 5.5 on both axes");
    expect(matrix_file("none", 4, 4, NULL, -1), "", "no group_size: no line");
    expect(matrix_file("gP", 4, 4, "4", -1), "", "group_size = P (one group): no line");
    expect(matrix_file("g1", 4, 4, "1", -1), "", "group_size 1: no line");
    expect(matrix_file("g4p6", 6, 6, "4", -1), "", "P = 6 is no multiple of 4: no line");
    expect(matrix_file("g2p130", 130, 130, "2", -1), "", "65 groups: too many to draw");
    /* Rank 3 neither sends nor receives: the rows reach rank 2 only, the
     * run had 4 ranks. */
    expect(matrix_file("silent", 4, 4, "2", 3), BOUNDARY("1.5", "3.5"),
           "a silent last rank: P from the factor processes, 4");
    HM_CHECK(strstr(script, "set xrange [-0.5:3.5]") != NULL, "the silent rank has its column");

    /* Two maps in one figure: groups of 2, then a file without the factor. */
    char a[4200], b[4200];
    snprintf(a, sizeof a, "%s", matrix_file("first", 4, 4, "2", -1));
    snprintf(b, sizeof b, "%s", matrix_file("second", 4, 4, NULL, -1));
    const char *two[2] = {a, b};
    int rc = script_of(two, 2, script, sizeof script);
    arrows(script, got, sizeof got);
    const char *first = strstr(script, LINE("1.5", "-0.5", "1.5", "3.5"));
    HM_CHECK(rc == HM_OK && first && !strcmp(got, ""),
             "two maps: the first with its lines, the second without (rc %d, last map: %s)", rc,
             got);

    const char *bad = matrix_file("bad", 4, 4, "two", -1);
    rc = script_of(&bad, 1, script, sizeof script);
    HM_CHECK(rc == HM_EINVAL && strstr(hm_last_error(), bad) &&
                 strstr(hm_last_error(), "\"two\" is not a number of ranks (factor group_size)"),
             "group_size two: refused, naming the file (%d, \"%s\")", rc, hm_last_error());

    char cmd[4300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0) hm_test_note("could not remove %s", root);
    return hm_test_finish();
}
