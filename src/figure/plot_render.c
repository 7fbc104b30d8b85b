/* src/figure/plot_render.c — one figure of the figures: its data and
 * script files, the gnuplot run and the atomic publication of its images. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <harmonia/error.h>
#include <harmonia/output.h>

#include "common/error_set.h"
#include "figure/plot_gnuplot.h"

/* Image formats: file extension, gnuplot terminal, and its options after
 * the size. */
typedef struct image_format {
    const char *ext;
    const char *terminal, *options;
} image_format_t;

static const image_format_t svg = {"svg", "svg", "dynamic enhanced"};
static const image_format_t pngcairo = {"png", "pngcairo", "enhanced"};
static const image_format_t png = {"png", "png truecolor", "enhanced"};

enum { DEFAULT_WIDTH_PX = 800, DEFAULT_HEIGHT_PX = 500 };

int hm__plot_script_open(const hm__plot_out_t *out, const char *kind, hm__plot_script_t *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->data_path, sizeof s->data_path, "%s/%s.tsv", out->tmpdir, kind);
    snprintf(s->body_path, sizeof s->body_path, "%s/%s.gp", out->tmpdir, kind);
    s->data = fopen(s->data_path, "w");
    int err = s->data ? 0 : errno;
    s->body = fopen(s->body_path, "w");
    if (s->data && s->body) {
        fputs("set encoding utf8\n", s->body);
        return HM_OK;
    }
    int rc = hm__error_set(HM_EIO, "plot: cannot write %s: %s",
                           s->data ? s->body_path : s->data_path, strerror(err ? err : errno));
    hm__plot_script_abort(s);
    return rc;
}

int hm__plot_end_block(hm__plot_script_t *s)
{
    fputs("\n\n", s->data);
    return s->blocks++;
}

void hm__plot_quote(FILE *f, const char *text)
{
    /* A newline cannot stand in a single-quoted string (it ends the
     * command): it is joined in as the double-quoted "\n". */
    fputc('\'', f);
    for (const char *p = text; *p; p++)
        fputs(*p == '\'' ? "''" : *p == '\n' ? "'.\"\\n\".'" : (char[]){*p, '\0'}, f);
    fputc('\'', f);
}

void hm__plot_script_abort(hm__plot_script_t *s)
{
    if (s->data) fclose(s->data);
    if (s->body) fclose(s->body);
    s->data = s->body = NULL;
}

static void join(char *buf, size_t len, const char *dir, const char *name)
{
    size_t n = strlen(dir);
    snprintf(buf, len, "%s%s%s", dir, n && dir[n - 1] != '/' ? "/" : "", name);
}

/* The final and temporary names of the image of stem, kind, format. */
static void image_paths(const hm__plot_out_t *out, const char *stem, const char *kind,
                        const char *ext, char *final, char *tmp, size_t len)
{
    char name[1024];
    snprintf(name, sizeof name, "%s-%s.%s", stem, kind, ext);
    join(final, len, out->dir, name);
    snprintf(name, sizeof name, ".%s-%s.%s.tmp.%ld", stem, kind, ext, (long)getpid());
    join(tmp, len, out->dir, name);
}

static void script_image(FILE *f, const image_format_t *fmt, const hm__plot_script_t *s,
                         const char *tmp)
{
    const char *body = s->body_path;
    fprintf(f, "set terminal %s size %d,%d %s font 'sans,11' background rgb 'white'\nset output ",
            fmt->terminal, s->width_px > 0 ? s->width_px : DEFAULT_WIDTH_PX,
            s->height_px > 0 ? s->height_px : DEFAULT_HEIGHT_PX, fmt->options);
    hm__plot_quote(f, tmp);
    fputs("\nload ", f);
    hm__plot_quote(f, body);
    fputs("\nunset output\n", f);
}

/* The script that draws body once per wanted format. */
static int main_script(const hm__plot_script_t *s, const char *path, const image_format_t **fmts,
                       char (*tmps)[5200], int nfmt)
{
    FILE *f = fopen(path, "w");
    if (!f) return hm__error_set(HM_EIO, "plot: cannot write %s: %s", path, strerror(errno));
    fputs("set encoding utf8\ndata = ", f);
    hm__plot_quote(f, s->data_path);
    fputc('\n', f);
    for (int i = 0; i < nfmt; i++) script_image(f, fmts[i], s, tmps[i]);
    if (fclose(f) == 0) return HM_OK;
    return hm__error_set(HM_EIO, "plot: cannot write %s: %s", path, strerror(errno));
}

/* Make the image durable under its temporary name, with the owner and
 * mode of the image it replaces, then rename it. */
static int publish(const char *tmp, const char *final)
{
    struct stat st;
    int fd = open(tmp, O_RDONLY), rc = HM_OK;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0)
        rc = hm__error_set(HM_EIO, "plot: gnuplot wrote no image %s", final);
    else if (hm_afile_adopt(fd, final) != HM_OK)
        rc = HM_EIO; /* sentence: set by hm_afile_adopt */
    else if (fsync(fd) != 0)
        rc = hm__error_set(HM_EIO, "plot: syncing %s: %s", tmp, strerror(errno));
    if (fd >= 0) close(fd);
    if (rc == HM_OK && rename(tmp, final) != 0)
        rc = hm__error_set(HM_EIO, "plot: renaming %s to %s: %s", tmp, final, strerror(errno));
    return rc;
}

static int close_files(hm__plot_script_t *s)
{
    int bad_data = ferror(s->data) != 0, bad_body = ferror(s->body) != 0;
    bad_data |= fclose(s->data) != 0;
    bad_body |= fclose(s->body) != 0;
    s->data = s->body = NULL;
    if (!bad_data && !bad_body) return HM_OK;
    return hm__error_set(HM_EIO, "plot: cannot write %s", bad_data ? s->data_path : s->body_path);
}

static int wanted_formats(const hm__plot_out_t *out, const image_format_t **fmts)
{
    int n = 0;
    if (out->svg) fmts[n++] = &svg;
    if (out->png) fmts[n++] = out->pngcairo ? &pngcairo : &png;
    return n;
}

int hm__plot_check_images(const hm__plot_out_t *out, const char *stem, const char *kind)
{
    const image_format_t *fmts[2];
    char final[5200], tmp[5200];
    int nfmt = wanted_formats(out, fmts);
    for (int i = 0; i < nfmt; i++) {
        image_paths(out, stem, kind, fmts[i]->ext, final, tmp, sizeof final);
        int rc = hm_afile_check(final);
        if (rc != HM_OK) return hm__error_set(rc, "plot: image %s", hm_last_error());
    }
    return HM_OK;
}

int hm__plot_render(const hm__plot_out_t *out, hm__plot_script_t *s, const char *stem,
                    const char *kind, const char *what)
{
    const image_format_t *fmts[2];
    char finals[2][5200], tmps[2][5200], script[4200];
    int rc = close_files(s), nfmt = wanted_formats(out, fmts);
    for (int i = 0; i < nfmt; i++)
        image_paths(out, stem, kind, fmts[i]->ext, finals[i], tmps[i], sizeof finals[i]);
    snprintf(script, sizeof script, "%s/%s.main.gp", out->tmpdir, kind);
    if (rc == HM_OK) rc = main_script(s, script, fmts, tmps, nfmt);
    if (rc == HM_OK) rc = hm__plot_run_gnuplot(out, script);
    for (int i = 0; rc == HM_OK && i < nfmt; i++)
        if ((rc = publish(tmps[i], finals[i])) == HM_OK && out->image)
            out->image(finals[i], what, out->ctx);
    for (int i = 0; i < nfmt; i++) unlink(tmps[i]);
    return rc;
}
