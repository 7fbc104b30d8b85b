/* src/pattern/pattern_file.c — application patterns from files
 * [Hidayetoglu et al. 2024, §4.4]: a Matrix Market coordinate matrix or a
 * CSV of (src, dst, bytes) triples, into an edge list laid out as the group
 * generators lay out theirs (buffer 0 sends, buffer 1 receives, regions in
 * rank order), so that every byte of the pattern has its own place and
 * validation tells every message apart.
 *
 * The reader is strict where a guess could change the pattern (a duplicate
 * pair, a fraction of a byte, a rank outside the run, an entry count that
 * does not match the size line) and lenient where the meaning is plain
 * (blanks around fields, CRLF line ends, a UTF-8 byte order mark, bytes
 * written 1024.0 or 1.024e3). Every refusal names the file, the line and
 * the reason; docs/pattern.md lists the formats. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include <harmonia/output.h>
#include <harmonia/pattern.h>

#include "common/error_set.h"

static const char MM_BANNER[] = "%%MatrixMarket matrix coordinate integer general";
static const char CSV_HEADER[] = "src,dst,bytes";

/* The largest message: 2^63 - 1 bytes, what a signed 64-bit reader of the
 * same file (MPI_Count, pandas) holds as well. */
#define MAX_BYTES ((uint64_t)INT64_MAX < SIZE_MAX ? (uint64_t)INT64_MAX : (uint64_t)SIZE_MAX)

/* One message as read, with its line for duplicate and overflow errors. */
typedef struct entry {
    int src, dst; /* 0-based */
    size_t bytes, sendoff, recvoff, line;
} entry_t;

typedef enum format { FORMAT_CSV, FORMAT_MM, FORMAT_DENSE } format_t;

typedef struct reader {
    const char *path;
    FILE *f;
    format_t format;
    char *line; /* the current line without its end of line, as written */
    size_t cap;
    char *work; /* a copy of line that the splitting cuts up */
    size_t work_cap;
    size_t lineno;
    int nranks;
    size_t element_bytes; /* the bytes one unit of a value stands for (1: bytes) */
    entry_t *e;
    size_t n, cap_e;
} reader_t;

/* HM_EINVAL with "FILE:LINE: reason". */
static int fail(const reader_t *r, size_t lineno, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(const reader_t *r, size_t lineno, const char *fmt, ...)
{
    char reason[HM_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    return hm__error_set(HM_EINVAL, "%s:%zu: %s", r->path, lineno, reason);
}

/* ---- lines ---- */

/* 1 with r->line holding the next line, 0 at the end of the file, or a
 * negative status. */
static int next_line(reader_t *r)
{
    errno = 0;
    ssize_t len = getline(&r->line, &r->cap, r->f);
    if (len < 0) {
        if (ferror(r->f))
            return hm__error_set(HM_EIO, "%s: %s", r->path, strerror(errno ? errno : EIO));
        return 0;
    }
    r->lineno++;
    if (memchr(r->line, '\0', (size_t)len))
        return fail(r, r->lineno, "the line holds a NUL byte (a pattern file is text)");
    if (len > 0 && r->line[len - 1] == '\n') r->line[--len] = '\0';
    if (len > 0 && r->line[len - 1] == '\r') r->line[--len] = '\0';
    if (r->lineno == 1 && strncmp(r->line, HM_INPUT_BOM, 3) == 0)
        memmove(r->line, r->line + 3, (size_t)len - 2);
    else if (strncmp(r->line, HM_INPUT_BOM, 3) == 0)
        return fail(r, r->lineno,
                    "a UTF-8 byte-order mark (bytes EF BB BF) starts the line, inside the file "
                    "(were files joined?)");
    return 1;
}

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

/* Blank, or a comment line of the format (CSV '#', Matrix Market '%'). */
static int ignored(const char *line, char comment)
{
    const char *s = skip_blanks(line);
    return *s == '\0' || *s == comment;
}

/* The next line that is neither blank nor a comment: 1, 0 at the end, or
 * a negative status. */
static int next_content(reader_t *r, char comment)
{
    int rc;
    while ((rc = next_line(r)) == 1)
        if (!ignored(r->line, comment)) return 1;
    return rc;
}

/* Split a copy of the current line into at most max fields: at commas
 * (sep ','; each field without the blanks around it) or at runs of blanks
 * (sep ' '). Returns the number of fields on the line, which may exceed
 * max; a status (HM_ENOMEM) below 0. */
static int split(reader_t *r, char sep, char **field, int max)
{
    size_t len = strlen(r->line);
    if (len + 1 > r->work_cap) {
        char *w = realloc(r->work, len + 1);
        if (!w) return hm__error_set(HM_ENOMEM, "%s: a line of %zu bytes", r->path, len);
        r->work = w;
        r->work_cap = len + 1;
    }
    memcpy(r->work, r->line, len + 1);
    char *s = r->work;
    int n = 0;
    if (sep == ' ') {
        for (s = (char *)skip_blanks(s); *s; s = (char *)skip_blanks(s)) {
            if (n < max) field[n] = s;
            n++;
            while (*s && *s != ' ' && *s != '\t') s++;
            if (*s) *s++ = '\0';
        }
        return n;
    }
    for (;;) {
        char *start = (char *)skip_blanks(s), *end = strchr(start, ','), *next = NULL;
        if (end)
            next = end + 1;
        else
            end = start + strlen(start);
        while (end > start && (end[-1] == ' ' || end[-1] == '\t')) end--;
        *end = '\0';
        if (n < max) field[n] = start;
        n++;
        if (!next) return n;
        s = next;
    }
}

/* ---- numbers ---- */

/* A rank or count as written: [+-]digits. 1 with *v (saturated at
 * LLONG_MAX), 0 when tok is not an integer. */
static int parse_int(const char *tok, long long *v)
{
    const char *p = tok;
    int neg = *p == '-';
    if (*p == '+' || *p == '-') p++;
    if (!isdigit((unsigned char)*p)) return 0;
    long long x = 0;
    for (; isdigit((unsigned char)*p); p++) {
        int d = *p - '0';
        x = x > (LLONG_MAX - d) / 10 ? LLONG_MAX : 10 * x + d;
    }
    if (*p) return 0;
    *v = neg ? -x : x;
    return 1;
}

typedef enum number {
    NUMBER_OK,
    NUMBER_EMPTY,
    NUMBER_NAN,
    NUMBER_TRAILING,
    NUMBER_NEGATIVE,
    NUMBER_ZERO,
    NUMBER_FRACTION,
    NUMBER_ABOVE
} number_t;

/* A byte count: digits, optionally with a fraction and an exponent
 * (Matrix Market "real" files write 1024 as 1024.0 or 1.024e+03), taken
 * exactly, without floating point, so that 2^63 - 1 is read as written and
 * 1.5 is refused rather than rounded. *tail: where trailing characters
 * start (NUMBER_TRAILING). */
static number_t parse_bytes(const char *tok, uint64_t *out, const char **tail)
{
    const char *p = tok;
    if (*p == '\0') return NUMBER_EMPTY;
    int neg = *p == '-';
    if (*p == '+' || *p == '-') p++;
    const char *ip = p;
    while (isdigit((unsigned char)*p)) p++;
    size_t nint = (size_t)(p - ip);
    const char *fp = p;
    size_t nfrac = 0;
    if (*p == '.') {
        fp = ++p;
        while (isdigit((unsigned char)*p)) p++;
        nfrac = (size_t)(p - fp);
    }
    if (nint + nfrac == 0) return NUMBER_NAN;
    long exp = 0;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        int eneg = *q == '-';
        if (*q == '+' || *q == '-') q++;
        if (isdigit((unsigned char)*q)) {
            for (; isdigit((unsigned char)*q); q++)
                if (exp < 1000000) exp = 10 * exp + (*q - '0');
            exp = eneg ? -exp : exp;
            p = q;
        }
    }
    if (*p) return *tail = p, NUMBER_TRAILING;
    if (neg) return NUMBER_NEGATIVE;
    /* The digits d[0..n) of int and fraction, the value d x 10^scale. */
    size_t n = nint + nfrac, lo = 0, hi = n;
#define DIGIT(i) ((i) < nint ? ip[(i)] : fp[(i)-nint])
    while (lo < n && DIGIT(lo) == '0') lo++;
    if (lo == n) return NUMBER_ZERO;
    while (DIGIT(hi - 1) == '0') hi--;
    long scale = exp - (long)nfrac + (long)(n - hi);
    if (scale < 0) return NUMBER_FRACTION;
    if ((long)(hi - lo) + scale > 19) return NUMBER_ABOVE; /* >= 10^19 */
    uint64_t v = 0;
    for (size_t i = lo; i < hi; i++) v = 10 * v + (uint64_t)(DIGIT(i) - '0');
#undef DIGIT
    for (long i = 0; i < scale; i++) {
        if (v > MAX_BYTES / 10) return NUMBER_ABOVE;
        v *= 10;
    }
    if (v > MAX_BYTES) return NUMBER_ABOVE;
    *out = v;
    return NUMBER_OK;
}

static int read_bytes(const reader_t *r, const char *tok, size_t *bytes)
{
    uint64_t v = 0;
    const char *tail = tok;
    switch (parse_bytes(tok, &v, &tail)) {
    case NUMBER_OK:
        *bytes = (size_t)v;
        return HM_OK;
    case NUMBER_EMPTY:
        return fail(r, r->lineno, "the bytes field is empty");
    case NUMBER_NAN:
        return fail(r, r->lineno, "bytes \"%.40s\" is not a number", tok);
    case NUMBER_TRAILING:
        return fail(r, r->lineno, "bytes \"%.40s\" has \"%.40s\" after the number", tok, tail);
    case NUMBER_NEGATIVE:
        return fail(r, r->lineno, "bytes \"%.40s\" is not a positive integer", tok);
    case NUMBER_ZERO:
        return fail(r, r->lineno,
                    "bytes \"%.40s\" is zero: a message moves at least one byte (leave the "
                    "pair out)",
                    tok);
    case NUMBER_FRACTION:
        return fail(r, r->lineno, "bytes \"%.40s\" is not an integer", tok);
    case NUMBER_ABOVE:
        break;
    }
    return fail(r, r->lineno,
                "bytes \"%.40s\" is above %" PRIu64 " (2^63 - 1), the largest message", tok,
                MAX_BYTES);
}

/* The rank written tok in field name, accepted as written within lo..hi
 * (lo = 0 for CSV ranks, 1 for Matrix Market rows and columns), into
 * *rank counted from 0; range says where the bounds come from. */
static int read_rank(const reader_t *r, const char *name, const char *tok, long long lo,
                     long long hi, const char *range, int *rank)
{
    long long v;
    if (*tok == '\0') return fail(r, r->lineno, "the %s field is empty", name);
    if (!parse_int(tok, &v)) return fail(r, r->lineno, "%s \"%.40s\" is not an integer", name, tok);
    if (v < lo || v > hi)
        return fail(r, r->lineno, "%s %.40s is outside %lld..%lld (%s)", name, tok, lo, hi, range);
    *rank = (int)(v - lo);
    return HM_OK;
}

static int add_entry(reader_t *r, int src, int dst, size_t bytes)
{
    if (r->n == r->cap_e) {
        size_t cap = r->cap_e ? 2 * r->cap_e : 64;
        entry_t *e = cap <= SIZE_MAX / sizeof *e ? realloc(r->e, cap * sizeof *e) : NULL;
        if (!e) return hm__error_set(HM_ENOMEM, "%s: %zu entries could not be kept", r->path, cap);
        r->e = e;
        r->cap_e = cap;
    }
    if (bytes > MAX_BYTES / r->element_bytes)
        return fail(r, r->lineno,
                    "%zu elements of %zu bytes are above %" PRIu64 " bytes, the largest message",
                    bytes, r->element_bytes, MAX_BYTES);
    bytes *= r->element_bytes;
    r->e[r->n++] = (entry_t){.src = src, .dst = dst, .bytes = bytes, .line = r->lineno};
    return HM_OK;
}

/* ---- CSV ---- */

static int check_csv_header(reader_t *r)
{
    char *f[3];
    int n = split(r, ',', f, 3);
    if (n < 0) return n;
    if (n != 3 || strcmp(f[0], "src") || strcmp(f[1], "dst") || strcmp(f[2], "bytes"))
        return fail(r, r->lineno, "the header is \"%.80s\", not \"%s\"", r->line, CSV_HEADER);
    return HM_OK;
}

static int read_csv_row(reader_t *r, const char *range)
{
    char *f[3];
    int n = split(r, ',', f, 3);
    if (n < 0) return n;
    if (n < 3)
        return fail(r, r->lineno, "the row \"%.80s\" has %d field%s, not 3 (%s)", r->line, n,
                    n == 1 ? "" : "s", CSV_HEADER);
    if (n > 3)
        return fail(r, r->lineno, "the row \"%.80s\" has %d fields, %d more than %s", r->line, n,
                    n - 3, CSV_HEADER);
    int src, dst, rc;
    size_t bytes;
    if ((rc = read_rank(r, "src", f[0], 0, r->nranks - 1LL, range, &src)) != HM_OK) return rc;
    if ((rc = read_rank(r, "dst", f[1], 0, r->nranks - 1LL, range, &dst)) != HM_OK) return rc;
    if ((rc = read_bytes(r, f[2], &bytes)) != HM_OK) return rc;
    return add_entry(r, src, dst, bytes);
}

/* After the header (the current line). */
static int read_csv(reader_t *r)
{
    int rc = check_csv_header(r);
    if (rc != HM_OK) return rc;
    size_t header = r->lineno;
    char range[32];
    snprintf(range, sizeof range, "%d rank%s", r->nranks, r->nranks == 1 ? "" : "s");
    while ((rc = next_content(r, '#')) == 1)
        if ((rc = read_csv_row(r, range)) != HM_OK) return rc;
    if (rc < 0) return rc;
    if (r->n == 0)
        return fail(r, header, "no rows follow the header (a pattern needs at least one message)");
    return HM_OK;
}

/* ---- Matrix Market ---- */

/* "%%MatrixMarket matrix coordinate integer general" (the current line),
 * its words in any case as the format allows; "real" too, its values
 * whole numbers of bytes. */
static int check_banner(reader_t *r)
{
    char *w[5];
    int n = split(r, ' ', w, 5);
    if (n < 0) return n;
    size_t at = r->lineno;
    if (n != 5 || strcasecmp(w[0], "%%MatrixMarket") != 0)
        return fail(r, at, "the banner \"%.80s\" is not \"%s\"", r->line, MM_BANNER);
    if (strcasecmp(w[1], "matrix") != 0)
        return fail(r, at, "the banner's object is \"%.40s\", not \"matrix\"", w[1]);
    if (strcasecmp(w[2], "array") == 0)
        return fail(r, at,
                    "the banner's format is \"array\" (a dense matrix), not \"coordinate\" (a "
                    "list of messages)");
    if (strcasecmp(w[2], "coordinate") != 0)
        return fail(r, at, "the banner's format is \"%.40s\", not \"coordinate\"", w[2]);
    if (strcasecmp(w[3], "pattern") == 0)
        return fail(r, at,
                    "the banner's field is \"pattern\", which has no values, but every message "
                    "needs its byte count: write \"integer\" and the bytes as a third column");
    if (strcasecmp(w[3], "integer") != 0 && strcasecmp(w[3], "real") != 0)
        return fail(r, at,
                    "the banner's field is \"%.40s\", not \"integer\" (or \"real\" with whole "
                    "values)",
                    w[3]);
    if (strcasecmp(w[4], "general") != 0)
        return fail(r, at,
                    "the banner's symmetry is \"%.40s\", not \"general\" (write both directions "
                    "of a pair as two entries)",
                    w[4]);
    return HM_OK;
}

typedef struct mm_size {
    long long rows, cols, entries;
    size_t line;
} mm_size_t;

static int read_size_line(reader_t *r, mm_size_t *size)
{
    int rc = next_content(r, '%');
    if (rc < 0) return rc;
    if (rc == 0)
        return fail(r, r->lineno, "the file ends before the size line (rows columns entries)");
    char *w[3];
    int n = split(r, ' ', w, 3);
    if (n < 0) return n;
    size->line = r->lineno;
    if (n != 3 || !parse_int(w[0], &size->rows) || !parse_int(w[1], &size->cols) ||
        !parse_int(w[2], &size->entries) || size->rows < 0 || size->cols < 0 || size->entries < 0)
        return fail(r, r->lineno,
                    "the size line \"%.80s\" is not three non-negative integers (rows columns "
                    "entries)",
                    r->line);
    if (size->rows != size->cols)
        return fail(r, r->lineno,
                    "the matrix is %lld x %lld, not square (row i sends to column j: one row and "
                    "one column per rank)",
                    size->rows, size->cols);
    if (size->rows > r->nranks)
        return fail(r, r->lineno,
                    "the matrix is %lld x %lld, for %lld ranks; the pattern runs on %d", size->rows,
                    size->cols, size->rows, r->nranks);
    if (size->entries == 0)
        return fail(r, r->lineno,
                    "the size line announces 0 entries (a pattern needs at least "
                    "one message)");
    return HM_OK;
}

static int read_mm_entry(reader_t *r, const mm_size_t *size, const char *range)
{
    char *w[3];
    int n = split(r, ' ', w, 3);
    if (n < 0) return n;
    if ((long long)r->n >= size->entries)
        return fail(r, r->lineno, "entry %zu is one more than the %lld that line %zu announces",
                    r->n + 1, size->entries, size->line);
    if (n < 3)
        return fail(r, r->lineno, "the entry \"%.80s\" has %d field%s, not 3 (row column bytes)",
                    r->line, n, n == 1 ? "" : "s");
    if (n > 3)
        return fail(r, r->lineno,
                    "the entry \"%.80s\" has %d fields, %d more than row column bytes", r->line, n,
                    n - 3);
    int src, dst, rc;
    size_t bytes;
    if ((rc = read_rank(r, "row", w[0], 1, size->rows, range, &src)) != HM_OK) return rc;
    if ((rc = read_rank(r, "column", w[1], 1, size->cols, range, &dst)) != HM_OK) return rc;
    if ((rc = read_bytes(r, w[2], &bytes)) != HM_OK) return rc;
    return add_entry(r, src, dst, bytes);
}

/* After the banner (the current line). */
static int read_mm(reader_t *r)
{
    mm_size_t size;
    int rc = check_banner(r);
    if (rc == HM_OK) rc = read_size_line(r, &size);
    if (rc != HM_OK) return rc;
    char range[96];
    snprintf(range, sizeof range, "the %lld x %lld matrix of line %zu", size.rows, size.cols,
             size.line);
    while ((rc = next_content(r, '%')) == 1)
        if ((rc = read_mm_entry(r, &size, range)) != HM_OK) return rc;
    if (rc < 0) return rc;
    if ((long long)r->n < size.entries)
        return fail(r, r->lineno, "the file ends after %zu entr%s, but line %zu announces %lld",
                    r->n, r->n == 1 ? "y" : "ies", size.line, size.entries);
    return HM_OK;
}

/* ---- layout ---- */

static int cmp_int(int a, int b)
{
    return (a > b) - (a < b);
}

static int by_src_dst(const void *pa, const void *pb)
{
    const entry_t *a = pa, *b = pb;
    int c = cmp_int(a->src, b->src);
    if (!c) c = cmp_int(a->dst, b->dst);
    return c ? c : (a->line > b->line) - (a->line < b->line);
}

static int by_dst_src(const void *pa, const void *pb)
{
    const entry_t *a = pa, *b = pb;
    int c = cmp_int(a->dst, b->dst);
    return c ? c : cmp_int(a->src, b->src);
}

/* Sorted by (src, dst, line): of every pair written twice, the one whose
 * second line comes first in the file, as a reader going down the file
 * would find it. */
static int check_duplicates(const reader_t *r)
{
    const entry_t *later = NULL, *first = NULL;
    for (size_t i = 1; i < r->n; i++) {
        const entry_t *a = &r->e[i - 1], *b = &r->e[i];
        if (a->src != b->src || a->dst != b->dst) continue;
        if (!later || b->line < later->line) later = b, first = a;
    }
    if (!later) return HM_OK;
    int base = r->format == FORMAT_MM;
    if (r->format == FORMAT_MM)
        return fail(r, later->line,
                    "the entry %d %d is also on line %zu (duplicates are refused: add their "
                    "bytes into one entry)",
                    later->src + base, later->dst + base, first->line);
    return fail(r, later->line,
                "the pair %d -> %d is also on line %zu (duplicates are refused: add their bytes "
                "into one line)",
                later->src, later->dst, first->line);
}

/* Each rank's messages one after the other in its buffer (send: 0, by
 * destination; receive: 1, by sender, as r->e is sorted), refusing a
 * buffer whose end would not fit in size_t. */
static int place(reader_t *r, int sending)
{
    int base = r->format == FORMAT_MM;
    size_t off = 0;
    for (size_t i = 0; i < r->n; i++) {
        entry_t *e = &r->e[i];
        int rank = sending ? e->src : e->dst;
        if (i == 0 || rank != (sending ? r->e[i - 1].src : r->e[i - 1].dst)) off = 0;
        if (e->bytes > SIZE_MAX - off)
            return fail(r, e->line,
                        "the messages %s %s %d add up to more than %zu bytes (its %s buffer would "
                        "not fit in size_t)",
                        sending ? "of" : "to",
                        sending ? (base ? "row" : "src") : (base ? "column" : "dst"), rank + base,
                        (size_t)SIZE_MAX, sending ? "send" : "receive");
        *(sending ? &e->sendoff : &e->recvoff) = off;
        off += e->bytes;
    }
    return HM_OK;
}

static int lay_out(reader_t *r)
{
    qsort(r->e, r->n, sizeof *r->e, by_src_dst);
    int rc = check_duplicates(r);
    if (rc == HM_OK) rc = place(r, 1);
    if (rc != HM_OK) return rc;
    qsort(r->e, r->n, sizeof *r->e, by_dst_src);
    if ((rc = place(r, 0)) != HM_OK) return rc;
    qsort(r->e, r->n, sizeof *r->e, by_src_dst);
    return HM_OK;
}

static int to_edges(const reader_t *r, hm_edges_t *out)
{
    hm_edge_t *edge = malloc(r->n * sizeof *edge);
    if (!edge)
        return hm__error_set(HM_ENOMEM, "%s: %zu edges could not be allocated", r->path, r->n);
    for (size_t i = 0; i < r->n; i++) {
        const entry_t *e = &r->e[i];
        edge[i] = (hm_edge_t){.src = e->src,
                              .dst = e->dst,
                              .sendbuf = 0,
                              .recvbuf = 1,
                              .sendoff = e->sendoff,
                              .recvoff = e->recvoff,
                              .bytes = e->bytes};
    }
    *out = (hm_edges_t){.edge = edge, .n = r->n, .nranks = r->nranks, .nbufs = 2};
    return HM_OK;
}

/* ---- dense matrix (CommBench's application files) ---- */

/* Whether the line is only whole numbers between blanks: a row of a dense
 * matrix (a CSV row has commas, a header words). */
static int dense_row(const char *line)
{
    int digits = 0;
    for (const char *s = line; *s; s++) {
        if (isdigit((unsigned char)*s))
            digits = 1;
        else if (*s != ' ' && *s != '\t')
            return 0;
    }
    return digits;
}

/* One row of p values: a value of 0 is no message. */
static int read_dense_row(reader_t *r, int row, int p, char **f)
{
    int n = split(r, ' ', f, p);
    if (n < 0) return n;
    if (n != p)
        return fail(r, r->lineno,
                    "row %d of the dense matrix has %d value%s, not %d (its first row's)", row, n,
                    n == 1 ? "" : "s", p);
    for (int j = 0; j < p; j++) {
        long long v;
        if (!parse_int(f[j], &v) || v < 0)
            return fail(r, r->lineno, "\"%.40s\" (row %d, column %d) is not a count", f[j], row, j);
        int rc = v ? add_entry(r, row, j, (size_t)v) : HM_OK;
        if (rc != HM_OK) return rc;
    }
    return HM_OK;
}

/* P rows of P counts, row i sending column j (0-based), as CommBench's
 * application example reads them (its values count elements: see
 * element_bytes); '#' comments and blank lines between rows. The first
 * row (the current line) gives P, at most nranks. */
static int read_dense(reader_t *r)
{
    int p = split(r, ' ', NULL, 0);
    if (p < 0) return p;
    if (p > r->nranks)
        return fail(r, r->lineno, "a dense %d x %d matrix needs %d ranks, the run has %d", p, p, p,
                    r->nranks);
    char **f = malloc((size_t)p * sizeof *f);
    if (!f) return hm__error_set(HM_ENOMEM, "%s: a row of %d values", r->path, p);
    int rc = HM_OK, row = 0, more = 1;
    for (; rc == HM_OK && more == 1 && row < p; row++) {
        rc = read_dense_row(r, row, p, f);
        if (rc == HM_OK && row + 1 < p) more = next_content(r, '#');
    }
    if (rc == HM_OK && more < 0) rc = more;
    if (rc == HM_OK && row < p)
        rc = fail(r, r->lineno, "the dense matrix ends after %d of its %d rows", row, p);
    if (rc == HM_OK && (more = next_content(r, '#')) != 0)
        rc = more < 0 ? more
                      : fail(r, r->lineno, "a row after the %d x %d dense matrix's last", p, p);
    if (rc == HM_OK && r->n == 0) rc = fail(r, r->lineno, "every count is 0: no message");
    free(f);
    return rc;
}

/* ---- the call ---- */

/* The first line that is neither blank nor a '#' comment tells the format. */
static int read_any(reader_t *r)
{
    int rc = next_content(r, '#');
    if (rc < 0) return rc;
    if (rc == 0)
        return fail(r, r->lineno ? r->lineno : 1,
                    "the file is %s (a pattern file starts with \"%s\" or \"%s\", or is a "
                    "dense matrix of counts)",
                    r->lineno ? "only comments and blank lines" : "empty", MM_BANNER, CSV_HEADER);
    const char *s = skip_blanks(r->line);
    if (strncasecmp(s, "%%MatrixMarket", 14) == 0) {
        r->format = FORMAT_MM;
        return read_mm(r);
    }
    if (*s == '%')
        return fail(r, r->lineno, "the first line \"%.80s\" is not the Matrix Market banner \"%s\"",
                    r->line, MM_BANNER);
    if (dense_row(s)) {
        r->format = FORMAT_DENSE;
        return read_dense(r);
    }
    r->format = FORMAT_CSV;
    return read_csv(r);
}

int hm_edges_read(const char *path, int nranks, hm_edges_t *out)
{
    return hm_edges_read_elements(path, nranks, 1, out);
}

int hm_edges_read_elements(const char *path, int nranks, size_t element_bytes, hm_edges_t *out)
{
    if (!out) return hm__error_set(HM_EINVAL, "hm_edges_read: out is NULL");
    *out = (hm_edges_t){0};
    if (!path) return hm__error_set(HM_EINVAL, "hm_edges_read: path is NULL");
    if (nranks < 1) return hm__error_set(HM_EINVAL, "nranks %d is below 1", nranks);
    if (element_bytes < 1) return hm__error_set(HM_EINVAL, "element_bytes 0 is below 1");
    reader_t r = {.path = path, .nranks = nranks, .element_bytes = element_bytes};
    int rc = hm_input_open(path, "pattern file", HM_INPUT_MAX_PATTERN_BYTES, &r.f);
    if (rc != HM_OK) return rc;
    rc = read_any(&r);
    if (rc == HM_OK) rc = lay_out(&r);
    if (rc == HM_OK) rc = to_edges(&r, out);
    fclose(r.f);
    free(r.line);
    free(r.work);
    free(r.e);
    return rc;
}
