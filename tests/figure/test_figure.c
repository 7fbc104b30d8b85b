/* tests/figure/test_figure.c — hm_figure_draw on a campaign dataset of two
 * series (allreduce and bcast, 3 runs of 2 sizes): one image, handed to the
 * image callback, an SVG whose legend names exactly those series; a copy
 * marked partial reported through the partial callback with its factor's
 * value; and every failure classified by the stage it concerns, with a
 * sentence naming the path. gnuplot is a dependency (scripts/install-deps):
 * without it this test fails, as the command-line plot test does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <harmonia/figure.h>

#include "testutil.h"

typedef struct seen {
    int images, partials;
    char image[4200], complete[128];
} seen_t;

static void on_image(const char *path, const char *what, void *ctx)
{
    seen_t *s = ctx;
    s->images++;
    snprintf(s->image, sizeof s->image, "%s", path);
    HM_CHECK(what && *what, "the image %s says what it shows", path);
}

static void on_partial(const char *path, const char *complete, void *ctx)
{
    seen_t *s = ctx;
    s->partials++;
    snprintf(s->complete, sizeof s->complete, "%s", complete);
    (void)path;
}

/* A per-mpirun dataset as harmonia campaign writes it. */
static void write_dataset(const char *dir, const char *complete)
{
    char path[4200];
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/per-mpirun.csv", dir);
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "# harmonia_version: test\n");
    if (complete) fprintf(f, "# complete: %s\n", complete);
    fprintf(f, "run,seed,op,size_bytes,processes,sync,n,kept,median_s,mean_s\n");
    for (int r = 1; r <= 3; r++)
        fprintf(f,
                "%d,1%d,allreduce,8,2,barrier,100,98,8.%de-07,9e-07\n"
                "%d,1%d,allreduce,1024,2,barrier,100,98,1.6%de-06,1.7e-06\n"
                "%d,1%d,bcast,8,2,barrier,100,98,5.%de-07,6e-07\n"
                "%d,1%d,bcast,1024,2,barrier,100,98,1.3%de-06,1.4e-06\n",
                r, r, r, r, r, r, r, r, r, r, r, r);
    fclose(f);
}

static int file_holds(const char *path, const char *text)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strstr(buf, text) != NULL;
}

static int draw(const char *input, const char *out_dir, seen_t *s, hm_figure_failed_t *failed)
{
    const char *inputs[1] = {input};
    hm_figure_params_t p;
    hm_figure_params_default(&p);
    p.inputs = inputs, p.ninputs = input ? 1 : 0;
    p.dir = out_dir;
    p.image = on_image, p.partial = on_partial, p.ctx = s;
    memset(s, 0, sizeof *s);
    return hm_figure_draw(&p, failed);
}

int main(void)
{
    char root[] = "/tmp/hm-figure-XXXXXX", in[4200], part[4200], figs[4200], want[4300];
    HM_CHECK(mkdtemp(root) != NULL, "a scratch directory");
    setenv("TMPDIR", root, 1);
    snprintf(in, sizeof in, "%s/barrier", root);
    snprintf(part, sizeof part, "%s/cut", root);
    snprintf(figs, sizeof figs, "%s/figs", root);
    write_dataset(in, NULL);
    write_dataset(part, "no (1 of 2 experiments)");
    seen_t s;
    hm_figure_failed_t failed;

    int rc = draw(in, figs, &s, &failed);
    snprintf(want, sizeof want, "%s/barrier-campaign.svg", figs);
    HM_CHECK(rc == HM_OK && failed == HM_FIGURE_FAILED_NONE, "drawn: %d \"%s\"", rc,
             rc ? hm_last_error() : "");
    HM_CHECK(s.images == 1 && !strcmp(s.image, want), "one image, %s (got %d, %s)", want, s.images,
             s.image);
    HM_CHECK(file_holds(want, "<svg") && file_holds(want, ">allreduce barrier</text>") &&
                 file_holds(want, ">bcast barrier</text>") && !file_holds(want, ">reduce"),
             "%s: an SVG whose legend is the two series written", want);

    rc = draw(part, figs, &s, &failed);
    HM_CHECK(rc == HM_OK && s.partials == 1 && !strcmp(s.complete, "no (1 of 2 experiments)"),
             "a partial dataset is drawn and reported once with its factor (%d, %d, \"%s\")", rc,
             s.partials, s.complete);
    snprintf(want, sizeof want, "%s/cut-campaign.svg", figs);
    HM_CHECK(file_holds(want, "partial: 1 of 2 experiments"), "%s: its series say partial", want);

    rc = draw(NULL, figs, &s, &failed);
    HM_CHECK(rc == HM_EINVAL && failed == HM_FIGURE_FAILED_INPUT, "no input: refused (%d, %d)", rc,
             (int)failed);
    char bad[4200];
    snprintf(bad, sizeof bad, "%s/bad.csv", root);
    FILE *f = fopen(bad, "w");
    if (f) fputs("a,b\n1,2\n", f), fclose(f);
    rc = draw(bad, figs, &s, &failed);
    HM_CHECK(rc == HM_EINVAL && failed == HM_FIGURE_FAILED_INPUT && strstr(hm_last_error(), bad),
             "not a result file: the input, named (%d, %d, \"%s\")", rc, (int)failed,
             hm_last_error());
    rc = draw(in, bad, &s, &failed);
    HM_CHECK(rc == HM_EINVAL && failed == HM_FIGURE_FAILED_DIR && strstr(hm_last_error(), bad),
             "a file as the directory: the directory, named (%d, %d, \"%s\")", rc, (int)failed,
             hm_last_error());
    snprintf(want, sizeof want, "%s/figs2/barrier-campaign.svg", root);
    snprintf(figs, sizeof figs, "%s/figs2", root);
    mkdir(figs, 0755), mkdir(want, 0755);
    rc = draw(in, figs, &s, &failed);
    HM_CHECK(rc != HM_OK && failed == HM_FIGURE_FAILED_IMAGE && s.images == 0,
             "a directory where the image goes: refused before drawing (%d, %d, \"%s\")", rc,
             (int)failed, hm_last_error());
    rmdir(want);
    char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    setenv("PATH", "/nonexistent", 1);
    rc = draw(in, figs, &s, &failed);
    HM_CHECK(rc == HM_ENOENT && failed == HM_FIGURE_FAILED_GNUPLOT, "no gnuplot: said so (%d, %d)",
             rc, (int)failed);
    if (path) setenv("PATH", path, 1);
    free(path);
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0) hm_test_note("could not remove %s", root);
    return hm_test_finish();
}
