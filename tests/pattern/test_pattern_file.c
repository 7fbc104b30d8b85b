/* tests/pattern/test_pattern_file.c — hm_edges_read: Matrix Market and CSV
 * pattern files [Hidayetoglu et al. 2024, §4.4] against edge lists written
 * by hand, and every refusal against its exact "FILE:LINE: reason".
 *
 * The good files list their messages out of order, so that the sort by
 * (src, dst) and both layouts are exercised: a sender's regions of buffer 0
 * follow its destinations' ranks, a receiver's regions of buffer 1 its
 * senders' ranks, each at the sum of the sizes before it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <harmonia/pattern.h>

#include "testutil.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static char dir[] = "/tmp/hm_test_pattern_file_XXXXXX";

typedef struct want {
    int src, dst;
    size_t sendoff, recvoff, bytes;
} want_t;

/* dir/name holding text (len bytes: text may hold a NUL). */
static const char *put(const char *name, const char *text, size_t len)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        HM_CHECK(0, "write %s", path);
        return path;
    }
    fwrite(text, 1, len, f);
    fclose(f);
    return path;
}

static void expect_edges(const char *what, const char *name, const char *text, int nranks,
                         const want_t *want, size_t nwant)
{
    const char *path = put(name, text, strlen(text));
    hm_edges_t e;
    int rc = hm_edges_read(path, nranks, &e);
    HM_CHECK(rc == HM_OK, "%s: read (%d %s)", what, rc, rc ? hm_last_error() : "");
    if (rc != HM_OK) return;
    HM_CHECK(e.nranks == nranks && e.nbufs == 2, "%s: nranks %d (want %d), nbufs %d (want 2)", what,
             e.nranks, nranks, e.nbufs);
    HM_CHECK(e.n == nwant, "%s: %zu edges, want %zu", what, e.n, nwant);
    for (size_t i = 0; i < e.n && i < nwant; i++) {
        const hm_edge_t *x = &e.edge[i];
        const want_t *w = &want[i];
        int same = x->src == w->src && x->dst == w->dst && x->sendbuf == 0 && x->recvbuf == 1 &&
                   x->sendoff == w->sendoff && x->recvoff == w->recvoff && x->bytes == w->bytes;
        HM_CHECK(same,
                 "%s: edge %zu is %d -> %d buf %d@%zu -> buf %d@%zu, %zu bytes; want %d -> %d "
                 "buf 0@%zu -> buf 1@%zu, %zu bytes",
                 what, i, x->src, x->dst, x->sendbuf, x->sendoff, x->recvbuf, x->recvoff, x->bytes,
                 w->src, w->dst, w->sendoff, w->recvoff, w->bytes);
    }
    hm_edges_free(&e);
    unlink(path);
}

/* ---- good files ---- */

/* Four ranks (0-based): 0 -> 1 100 B, 0 -> 3 300 B, 1 -> 0 50 B, 2 -> 0
 * 70 B, 3 -> 3 8 B (a copy within rank 3). Rank 0 sends 100 then 300
 * (offsets 0, 100); rank 0 receives from 1 then 2 (offsets 0, 50); rank 3
 * receives from 0 then itself (offsets 0, 300). */
static const want_t four[] = {
    {0, 1, 0, 0, 100}, {0, 3, 100, 0, 300}, {1, 0, 0, 0, 50}, {2, 0, 0, 50, 70}, {3, 3, 0, 300, 8},
};

/* The same four ranks as a dense matrix (CommBench's application files:
 * row i sends column j), blank and comment lines between rows; its values
 * counting 4-byte elements, every size and offset 4 times as large; a CSV
 * read with 2-byte elements, twice. */
static void test_elements(void)
{
    static const char dense[] = "0 100 0 300\n50 0 0 0\n# between rows\n\n70 0 0 0\n0 0 0 8\n";
    static const char csv[] = "src,dst,bytes\n0,1,100\n0,3,300\n1,0,50\n2,0,70\n3,3,8\n";
    expect_edges("dense", "four.txt", dense, 4, four, N(four));
    for (size_t k = 1; k <= 4; k *= 2) {
        want_t scaled[N(four)];
        for (size_t i = 0; i < N(four); i++)
            scaled[i] = (want_t){four[i].src, four[i].dst, k * four[i].sendoff, k * four[i].recvoff,
                                 k * four[i].bytes};
        const char *text = k == 4 ? dense : csv;
        const char *path = put("scaled", text, strlen(text));
        hm_edges_t e;
        int rc = hm_edges_read_elements(path, 4, k, &e);
        HM_CHECK(rc == HM_OK && e.n == N(four), "%zu-byte elements: read (%s)", k,
                 rc ? hm_last_error() : "");
        for (size_t i = 0; rc == HM_OK && i < e.n && i < N(four); i++)
            HM_CHECK(e.edge[i].bytes == scaled[i].bytes && e.edge[i].sendoff == scaled[i].sendoff &&
                         e.edge[i].recvoff == scaled[i].recvoff,
                     "%zu-byte elements: edge %zu is %zu bytes at %zu -> %zu (want %zu at %zu -> "
                     "%zu)",
                     k, i, e.edge[i].bytes, e.edge[i].sendoff, e.edge[i].recvoff, scaled[i].bytes,
                     scaled[i].sendoff, scaled[i].recvoff);
        if (rc == HM_OK) hm_edges_free(&e);
    }
    hm_edges_t e;
    const char *path = put("zero-size", dense, strlen(dense));
    HM_CHECK(hm_edges_read_elements(path, 4, 0, &e) == HM_EINVAL && e.n == 0,
             "0-byte elements: refused (%s)", hm_last_error());
}

static void test_good(void)
{
    expect_edges("mtx", "four.mtx",
                 "%%MatrixMarket matrix coordinate integer general\n"
                 "% four ranks, written out of order\n"
                 "%\n"
                 "4 4 5\n"
                 "4 4 8\n"
                 "3 1 70\n"
                 "1 4 300\n"
                 "\n"
                 "2 1 50\n"
                 "% a comment between entries\n"
                 "1 2 100\n",
                 4, four, N(four));
    /* A 4 x 4 matrix on 6 ranks: ranks 4 and 5 take no part. */
    expect_edges("mtx on more ranks", "four6.mtx",
                 "%%MatrixMarket matrix coordinate integer general\n4 4 5\n"
                 "1 2 100\n1 4 300\n2 1 50\n3 1 70\n4 4 8\n",
                 6, four, N(four));
    /* Keywords in any case, tabs and runs of blanks between fields. */
    expect_edges("mtx blanks", "blanks.mtx",
                 "%%matrixmarket MATRIX Coordinate Integer General\n  4\t4  5\n"
                 "1\t2\t100\n 1  4  300 \n2 1 50\n3 1 70\n4 4 8\n",
                 4, four, N(four));
    /* "real" with whole values, in the notations writers use. */
    expect_edges("mtx real", "four-real.mtx",
                 "%%MatrixMarket matrix coordinate real general\n4 4 5\n"
                 "1 2 100.0\n1 4 3.0e2\n2 1 5E+01\n3 1 700e-1\n4 4 8.000\n",
                 4, four, N(four));
    expect_edges("csv", "four.csv",
                 "src,dst,bytes\n"
                 "# four ranks, written out of order\n"
                 "3,3,8\n"
                 "2,0,70\n"
                 "\n"
                 "0,3,300\n"
                 "1,0,50\n"
                 "0,1,100\n",
                 4, four, N(four));
    /* Comments before the header, a UTF-8 byte order mark, CRLF line ends,
     * blanks around every field, and no end of line after the last row. */
    expect_edges("csv lenient", "four-crlf.csv",
                 "\xEF\xBB\xBF# exported from a spreadsheet\r\n\r\n"
                 " src , dst , bytes \r\n"
                 "0, 1, 100\r\n0 ,3 ,300\r\n\t1,0,50\r\n2,0,70\r\n3,3,8",
                 4, four, N(four));

    /* 3 GiB messages (above INT_MAX and UINT32_MAX) keep every byte of
     * their offsets: rank 0's second region starts at 3 GiB, and rank 2
     * receives rank 1's 5 bytes after rank 0's 3 GiB. Nothing is allocated
     * but the edges. */
    const want_t big[] = {
        {0, 1, 0, 0, 3221225472u},
        {0, 2, 3221225472u, 0, 3221225472u},
        {1, 2, 0, 3221225472u, 5},
    };
    expect_edges("3 GiB csv", "big.csv", "src,dst,bytes\n0,1,3221225472\n0,2,3221225472\n1,2,5\n",
                 3, big, N(big));
    expect_edges("3 GiB mtx", "big.mtx",
                 "%%MatrixMarket matrix coordinate integer general\n3 3 3\n"
                 "1 2 3221225472\n1 3 3221225472\n2 3 5\n",
                 3, big, N(big));
    /* The largest message, 2^63 - 1 bytes, alone in its buffers. */
    const want_t max[] = {{1, 0, 0, 0, (size_t)INT64_MAX}};
    expect_edges("2^63 - 1", "max.csv", "src,dst,bytes\n1,0,9223372036854775807\n", 2, max, N(max));
    expect_edges("2^63 - 1 real", "max.mtx",
                 "%%MatrixMarket matrix coordinate real general\n2 2 1\n"
                 "2 1 9.223372036854775807e18\n",
                 2, max, N(max));
}

/* ---- the example files ---- */

/* examples/patterns/halo2d-8.{mtx,csv}, found from this source file's
 * path (CMake compiles it by its absolute path), against the stencil
 * they describe: 8 ranks on a 4 x 2 grid (rank = 4 y + x), a neighbour in
 * x gets 16384 bytes, one in y 8192, no periodic boundaries. Offsets come
 * from the matrix of bytes, summed by rank, apart from the reader's sort. */
static void test_examples(void)
{
    enum { PX = 4, PY = 2, P = PX * PY };
    size_t m[P][P] = {{0}};
    for (int r = 0; r < P; r++) {
        int x = r % PX, y = r / PX;
        if (x > 0) m[r][r - 1] = 16384;
        if (x < PX - 1) m[r][r + 1] = 16384;
        if (y > 0) m[r][r - PX] = 8192;
        if (y < PY - 1) m[r][r + PX] = 8192;
    }
    want_t want[4 * P];
    size_t n = 0;
    for (int s = 0; s < P; s++)
        for (int d = 0; d < P; d++) {
            if (!m[s][d]) continue;
            want_t w = {s, d, 0, 0, m[s][d]};
            for (int j = 0; j < d; j++) w.sendoff += m[s][j];
            for (int i = 0; i < s; i++) w.recvoff += m[i][d];
            want[n++] = w;
        }
    char src_dir[512];
    snprintf(src_dir, sizeof src_dir, "%s", __FILE__);
    char *slash = strstr(src_dir, "/tests/pattern/");
    HM_CHECK(src_dir[0] == '/' && slash, "the source tree from __FILE__ \"%s\"", __FILE__);
    if (src_dir[0] != '/' || !slash) return;
    *slash = '\0';
    static const char *const files[] = {"halo2d-8.mtx", "halo2d-8.csv"};
    for (size_t f = 0; f < N(files); f++) {
        char path[600];
        snprintf(path, sizeof path, "%s/examples/patterns/%s", src_dir, files[f]);
        hm_edges_t e;
        int rc = hm_edges_read(path, P, &e);
        HM_CHECK(rc == HM_OK && e.n == n, "%s: %d edges (want %zu) %s", files[f],
                 rc == HM_OK ? (int)e.n : -1, n, rc == HM_OK ? "" : hm_last_error());
        if (rc != HM_OK) continue;
        size_t same = 0;
        for (size_t i = 0; i < n && i < e.n; i++) {
            const hm_edge_t *x = &e.edge[i];
            same += x->src == want[i].src && x->dst == want[i].dst &&
                    x->sendoff == want[i].sendoff && x->recvoff == want[i].recvoff &&
                    x->bytes == want[i].bytes && x->sendbuf == 0 && x->recvbuf == 1;
        }
        HM_CHECK(same == n, "%s: %zu of %zu edges as the stencil has them", files[f], same, n);
        hm_edges_free(&e);
    }
}

/* ---- refusals ---- */

typedef struct bad {
    const char *name, *text;
    int nranks, status;
    const char *reason; /* after "PATH:" */
} bad_t;

#define MTX "%%MatrixMarket matrix coordinate integer general\n"

static const bad_t bad[] = {
    /* which format */
    {"empty.csv", "", 16, HM_EINVAL,
     "1: the file is empty (a pattern file starts with \"%%MatrixMarket matrix coordinate integer "
     "general\" or \"src,dst,bytes\", or is a dense matrix of counts)"},
    {"comments.csv", "# nothing\n\n", 16, HM_EINVAL,
     "2: the file is only comments and blank lines (a pattern file starts with \"%%MatrixMarket "
     "matrix coordinate integer general\" or \"src,dst,bytes\", or is a dense matrix of "
     "counts)"},
    {"x.csv", "a,b,c\n0,1,8\n", 16, HM_EINVAL, "1: the header is \"a,b,c\", not \"src,dst,bytes\""},
    {"order.csv", "dst,src,bytes\n", 16, HM_EINVAL,
     "1: the header is \"dst,src,bytes\", not \"src,dst,bytes\""},
    {"four.csv", "src,dst,bytes,tag\n", 16, HM_EINVAL,
     "1: the header is \"src,dst,bytes,tag\", not \"src,dst,bytes\""},
    {"pct.mtx", "% halo exchange\n4 4 1\n", 16, HM_EINVAL,
     "1: the first line \"% halo exchange\" is not the Matrix Market banner \"%%MatrixMarket "
     "matrix coordinate integer general\""},

    /* CSV rows */
    {"rank.csv", "src,dst,bytes\n0,1,8\n17,2,8\n", 16, HM_EINVAL,
     "3: src 17 is outside 0..15 (16 ranks)"},
    {"dst.csv", "src,dst,bytes\n0,-1,8\n", 16, HM_EINVAL, "2: dst -1 is outside 0..15 (16 ranks)"},
    {"one.csv", "src,dst,bytes\n0,1,8\n", 1, HM_EINVAL, "2: dst 1 is outside 0..0 (1 rank)"},
    {"huge.csv", "src,dst,bytes\n0,99999999999999999999,8\n", 16, HM_EINVAL,
     "2: dst 99999999999999999999 is outside 0..15 (16 ranks)"},
    {"word.csv", "src,dst,bytes\nrank0,1,8\n", 16, HM_EINVAL, "2: src \"rank0\" is not an integer"},
    {"dec.csv", "src,dst,bytes\n1.0,1,8\n", 16, HM_EINVAL, "2: src \"1.0\" is not an integer"},
    {"tail.csv", "src,dst,bytes\n3x,1,8\n", 16, HM_EINVAL, "2: src \"3x\" is not an integer"},
    {"nosrc.csv", "src,dst,bytes\n,1,8\n", 16, HM_EINVAL, "2: the src field is empty"},
    {"pattern.csv", "src,dst,bytes\n0,1,8\n1,2,-4\n", 16, HM_EINVAL,
     "3: bytes \"-4\" is not a positive integer"},
    {"half.csv", "src,dst,bytes\n0,1,1.5\n", 16, HM_EINVAL, "2: bytes \"1.5\" is not an integer"},
    {"zero.csv", "src,dst,bytes\n0,1,0\n", 16, HM_EINVAL,
     "2: bytes \"0\" is zero: a message moves at least one byte (leave the pair out)"},
    {"zerodot.csv", "src,dst,bytes\n0,1,0.0\n", 16, HM_EINVAL,
     "2: bytes \"0.0\" is zero: a message moves at least one byte (leave the pair out)"},
    {"nan.csv", "src,dst,bytes\n0,1,lots\n", 16, HM_EINVAL, "2: bytes \"lots\" is not a number"},
    {"garbage.csv", "src,dst,bytes\n0,1,64K\n", 16, HM_EINVAL,
     "2: bytes \"64K\" has \"K\" after the number"},
    {"garbage2.csv", "src,dst,bytes\n0,1,12 # twelve\n", 16, HM_EINVAL,
     "2: bytes \"12 # twelve\" has \" # twelve\" after the number"},
    {"over.csv", "src,dst,bytes\n0,1,9223372036854775808\n", 16, HM_EINVAL,
     "2: bytes \"9223372036854775808\" is above 9223372036854775807 (2^63 - 1), the largest "
     "message"},
    {"over2.csv", "src,dst,bytes\n0,1,1e19\n", 16, HM_EINVAL,
     "2: bytes \"1e19\" is above 9223372036854775807 (2^63 - 1), the largest message"},
    {"over3.csv", "src,dst,bytes\n0,1,123456789012345678901234567890\n", 16, HM_EINVAL,
     "2: bytes \"123456789012345678901234567890\" is above 9223372036854775807 (2^63 - 1), the "
     "largest message"},
    {"nobytes.csv", "src,dst,bytes\n0,1,\n", 16, HM_EINVAL, "2: the bytes field is empty"},
    {"short.csv", "src,dst,bytes\n0,1\n", 16, HM_EINVAL,
     "2: the row \"0,1\" has 2 fields, not 3 (src,dst,bytes)"},
    {"long.csv", "src,dst,bytes\n0,1,8,9\n", 16, HM_EINVAL,
     "2: the row \"0,1,8,9\" has 4 fields, 1 more than src,dst,bytes"},
    {"comma.csv", "src,dst,bytes\n0,1,8,\n", 16, HM_EINVAL,
     "2: the row \"0,1,8,\" has 4 fields, 1 more than src,dst,bytes"},
    {"x.csv",
     "src,dst,bytes\n3,4,1\n# 3 -> 5 comes back on lines 9 and 10\n3,5,64\n0,1,1\n1,0,1\n\n"
     "2,3,1\n3,5,64\n3,5,1\n",
     16, HM_EINVAL,
     "9: the pair 3 -> 5 is also on line 4 (duplicates are refused: add their bytes into one "
     "line)"},
    /* The first duplicate down the file, whether its pair comes last or
     * first in rank order. */
    {"dup2.csv", "src,dst,bytes\n5,5,1\n0,0,1\n5,5,2\n0,0,2\n", 16, HM_EINVAL,
     "4: the pair 5 -> 5 is also on line 2 (duplicates are refused: add their bytes into one "
     "line)"},
    {"dup3.csv", "src,dst,bytes\n0,0,1\n5,5,1\n0,0,2\n5,5,2\n", 16, HM_EINVAL,
     "4: the pair 0 -> 0 is also on line 2 (duplicates are refused: add their bytes into one "
     "line)"},
    {"rows.csv", "src,dst,bytes\n# none yet\n\n", 16, HM_EINVAL,
     "1: no rows follow the header (a pattern needs at least one message)"},
    /* Sums beyond SIZE_MAX: three messages of 2^63 - 1 bytes from one
     * sender, or to one receiver. */
    {"sendsum.csv",
     "src,dst,bytes\n0,1,9223372036854775807\n0,2,9223372036854775807\n0,3,"
     "9223372036854775807\n",
     16, HM_EINVAL,
     "4: the messages of src 0 add up to more than 18446744073709551615 bytes (its send buffer "
     "would not fit in size_t)"},
    {"recvsum.csv",
     "src,dst,bytes\n2,3,9223372036854775807\n1,3,9223372036854775807\n0,3,"
     "9223372036854775807\n",
     16, HM_EINVAL,
     "2: the messages to dst 3 add up to more than 18446744073709551615 bytes (its receive "
     "buffer would not fit in size_t)"},

    /* Matrix Market banner */
    {"pat.mtx", "%%MatrixMarket matrix coordinate pattern general\n4 4 1\n1 2\n", 16, HM_EINVAL,
     "1: the banner's field is \"pattern\", which has no values, but every message needs its "
     "byte count: write \"integer\" and the bytes as a third column"},
    {"cplx.mtx", "%%MatrixMarket matrix coordinate complex general\n", 16, HM_EINVAL,
     "1: the banner's field is \"complex\", not \"integer\" (or \"real\" with whole values)"},
    {"arr.mtx", "%%MatrixMarket matrix array integer general\n", 16, HM_EINVAL,
     "1: the banner's format is \"array\" (a dense matrix), not \"coordinate\" (a list of "
     "messages)"},
    {"fmt.mtx", "%%MatrixMarket matrix sparse integer general\n", 16, HM_EINVAL,
     "1: the banner's format is \"sparse\", not \"coordinate\""},
    {"sym.mtx", "%%MatrixMarket matrix coordinate integer symmetric\n", 16, HM_EINVAL,
     "1: the banner's symmetry is \"symmetric\", not \"general\" (write both directions of a "
     "pair as two entries)"},
    {"vec.mtx", "%%MatrixMarket vector coordinate integer general\n", 16, HM_EINVAL,
     "1: the banner's object is \"vector\", not \"matrix\""},
    {"words.mtx", "%%MatrixMarket matrix coordinate integer\n", 16, HM_EINVAL,
     "1: the banner \"%%MatrixMarket matrix coordinate integer\" is not \"%%MatrixMarket "
     "matrix coordinate integer general\""},

    /* Matrix Market size line */
    {"nosize.mtx", MTX "% only comments\n", 16, HM_EINVAL,
     "2: the file ends before the size line (rows columns entries)"},
    {"size2.mtx", MTX "4 4\n", 16, HM_EINVAL,
     "2: the size line \"4 4\" is not three non-negative integers (rows columns entries)"},
    {"sizex.mtx", MTX "4 4 x\n", 16, HM_EINVAL,
     "2: the size line \"4 4 x\" is not three non-negative integers (rows columns entries)"},
    {"sizeneg.mtx", MTX "4 4 -1\n", 16, HM_EINVAL,
     "2: the size line \"4 4 -1\" is not three non-negative integers (rows columns entries)"},
    {"rect.mtx", MTX "4 8 1\n1 2 8\n", 16, HM_EINVAL,
     "2: the matrix is 4 x 8, not square (row i sends to column j: one row and one column per "
     "rank)"},
    {"app.mtx", MTX "% 32 ranks\n32 32 1\n1 2 8\n", 16, HM_EINVAL,
     "3: the matrix is 32 x 32, for 32 ranks; the pattern runs on 16"},
    {"none.mtx", MTX "4 4 0\n", 16, HM_EINVAL,
     "2: the size line announces 0 entries (a pattern needs at least one message)"},

    /* Matrix Market entries */
    {"row.mtx", MTX "4 4 2\n1 2 8\n5 1 8\n", 16, HM_EINVAL,
     "4: row 5 is outside 1..4 (the 4 x 4 matrix of line 2)"},
    {"col.mtx", MTX "4 4 1\n1 0 8\n", 16, HM_EINVAL,
     "3: column 0 is outside 1..4 (the 4 x 4 matrix of line 2)"},
    {"fewer.mtx", MTX "4 4 3\n1 2 8\n2 1 8\n% end\n", 16, HM_EINVAL,
     "5: the file ends after 2 entries, but line 2 announces 3"},
    {"fewer1.mtx", MTX "4 4 3\n1 2 8\n", 16, HM_EINVAL,
     "3: the file ends after 1 entry, but line 2 announces 3"},
    {"more.mtx", MTX "4 4 2\n1 2 8\n2 1 8\n3 1 8\n", 16, HM_EINVAL,
     "5: entry 3 is one more than the 2 that line 2 announces"},
    {"entry2.mtx", MTX "4 4 1\n1 2\n", 16, HM_EINVAL,
     "3: the entry \"1 2\" has 2 fields, not 3 (row column bytes)"},
    {"entry4.mtx", MTX "4 4 1\n1 2 8 9\n", 16, HM_EINVAL,
     "3: the entry \"1 2 8 9\" has 4 fields, 1 more than row column bytes"},
    {"half.mtx", "%%MatrixMarket matrix coordinate real general\n4 4 1\n1 2 1.5\n", 16, HM_EINVAL,
     "3: bytes \"1.5\" is not an integer"},
    {"neg.mtx", MTX "4 4 1\n1 2 -8\n", 16, HM_EINVAL, "3: bytes \"-8\" is not a positive integer"},
    /* dense matrices (CommBench's application files) */
    {"ragged.txt", "0 8 0\n8 0\n0 0 0\n", 16, HM_EINVAL,
     "2: row 1 of the dense matrix has 2 values, not 3 (its first row's)"},
    {"short.txt", "0 8 0\n8 0 0\n", 16, HM_EINVAL,
     "2: the dense matrix ends after 2 of its 3 rows"},
    {"long.txt", "0 8\n8 0\n0 0\n", 16, HM_EINVAL, "3: a row after the 2 x 2 dense matrix's last"},
    {"neg.txt", "0 8\n-8 0\n", 16, HM_EINVAL, "2: \"-8\" (row 1, column 0) is not a count"},
    {"zero.txt", "0 0\n0 0\n", 16, HM_EINVAL, "2: every count is 0: no message"},
    {"wide.txt", "0 1 0\n1 0 0\n0 0 0\n", 2, HM_EINVAL,
     "1: a dense 3 x 3 matrix needs 3 ranks, the run has 2"},
    {"dup.mtx", MTX "4 4 3\n2 3 8\n1 2 8\n2 3 16\n", 16, HM_EINVAL,
     "5: the entry 2 3 is also on line 3 (duplicates are refused: add their bytes into one "
     "entry)"},
};

static void expect_refusal(const bad_t *b)
{
    const char *path = put(b->name, b->text, strlen(b->text));
    hm_edges_t e = {(hm_edge_t *)&e, 99, 99, 99};
    int rc = hm_edges_read(path, b->nranks, &e);
    char want[1024];
    snprintf(want, sizeof want, "%s:%s", path, b->reason);
    HM_CHECK(rc == b->status && strcmp(hm_last_error(), want) == 0,
             "%s: status %d (want %d), \"%s\"%s%s", b->name, rc, b->status, hm_last_error(),
             strcmp(hm_last_error(), want) ? ", want " : "",
             strcmp(hm_last_error(), want) ? want : "");
    HM_CHECK(e.edge == NULL && e.n == 0, "%s: an empty list on failure", b->name);
    if (rc == HM_OK) hm_edges_free(&e);
    unlink(path);
}

static void test_unreadable(void)
{
    char path[512];
    hm_edges_t e;
    snprintf(path, sizeof path, "%s/missing.mtx", dir);
    int rc = hm_edges_read(path, 4, &e);
    char want[600];
    snprintf(want, sizeof want, "%s: No such file or directory", path);
    HM_CHECK(rc == HM_ENOENT && strcmp(hm_last_error(), want) == 0,
             "missing file: status %d (want HM_ENOENT %d), \"%s\"", rc, HM_ENOENT, hm_last_error());
    /* A directory is refused before it is read, naming what it is
     * (hm_input_open, issue 31). */
    rc = hm_edges_read(dir, 4, &e);
    snprintf(want, sizeof want, "pattern file %s is a directory, not a regular file", dir);
    HM_CHECK(rc == HM_EINVAL && strcmp(hm_last_error(), want) == 0,
             "a directory: status %d (want HM_EINVAL %d), \"%s\"", rc, HM_EINVAL, hm_last_error());
    /* A byte-order mark that starts a later line: files joined. */
    static const char joined[] = "src,dst,bytes\n0,1,8\n\xEF\xBB\xBFsrc,dst,bytes\n1,0,8\n";
    const char *jp = put("joined.csv", joined, sizeof joined - 1);
    rc = hm_edges_read(jp, 4, &e);
    HM_CHECK(rc == HM_EINVAL && strstr(hm_last_error(), ":3:") &&
                 strstr(hm_last_error(), "byte-order mark (bytes EF BB BF) starts the line"),
             "a BOM inside a pattern file: %d, \"%s\"", rc, hm_last_error());
    if (rc == HM_OK) hm_edges_free(&e);
    /* A NUL byte: not a text file. */
    static const char nul[] = "src,dst,bytes\n0,1\0,8\n";
    const char *p = put("nul.csv", nul, sizeof nul - 1);
    rc = hm_edges_read(p, 4, &e);
    snprintf(want, sizeof want, "%s:2: the line holds a NUL byte (a pattern file is text)", p);
    HM_CHECK(rc == HM_EINVAL && strcmp(hm_last_error(), want) == 0, "NUL byte: status %d, \"%s\"",
             rc, hm_last_error());
    unlink(p);
    p = put("ok.csv", "src,dst,bytes\n0,0,1\n", 20);
    rc = hm_edges_read(p, 0, &e);
    HM_CHECK(rc == HM_EINVAL && strcmp(hm_last_error(), "nranks 0 is below 1") == 0,
             "nranks 0: status %d, \"%s\"", rc, hm_last_error());
    unlink(p);
}

int main(void)
{
    if (!mkdtemp(dir)) return perror(dir), 1;
    test_good();
    test_elements();
    test_examples();
    for (size_t i = 0; i < N(bad); i++) expect_refusal(&bad[i]);
    test_unreadable();
    char cmd[300]; /* joined.csv, scaled, zero-size and what a failed check left */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) hm_test_note("could not remove %s", dir);
    return hm_test_finish();
}
