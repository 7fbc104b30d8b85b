/* tests/output/test_table.c — aligned tables, checked on the printed text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/output.h>

#include "testutil.h"

/* Print table into a string (open_memstream), as a command would print to
 * stdout. */
static char *printed(const hm_table_t *table, int *st)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    *st = hm_table_print(table, f);
    fclose(f);
    return text;
}

/* Text on the left, numbers on the right, a UTF-8 header ("µs" is two bytes
 * but one column), widths set by the widest of header and cells. */
static void check_alignment(void)
{
    hm_table_t *t;
    HM_CHECK(hm_table_create(&t) == HM_OK, "table created");
    hm_table_add_column(t, "operation", HM_ALIGN_LEFT);
    hm_table_add_column(t, "size_bytes", HM_ALIGN_RIGHT);
    hm_table_add_column(t, "latency_µs", HM_ALIGN_RIGHT);
    hm_table_add_cell(t, "bcast");
    hm_table_add_cellf(t, "%d", 8);
    hm_table_add_cellf(t, "%.2f", 1.5);
    hm_table_add_cell(t, "allreduce_long_name");
    hm_table_add_cellf(t, "%d", 1048576);
    hm_table_add_cellf(t, "%.2f", 12345.25);
    HM_CHECK(hm_table_rows(t) == 2, "2 rows counted (got %zu)", hm_table_rows(t));
    int st;
    char *text = printed(t, &st);
    const char *expect = "operation            size_bytes  latency_µs\n"
                         "bcast                         8        1.50\n"
                         "allreduce_long_name     1048576    12345.25\n";
    HM_CHECK(st == HM_OK, "print succeeded (status %d)", st);
    HM_CHECK(strcmp(text, expect) == 0, "table text is aligned as expected; got:\n%s", text);
    free(text);
    hm_table_free(t);
}

/* A partial last row prints its missing cells empty and no line ends in a
 * blank; a left-aligned last column is not padded. */
static void check_partial_row_and_trailing_blanks(void)
{
    hm_table_t *t;
    hm_table_create(&t);
    hm_table_add_column(t, "n", HM_ALIGN_RIGHT);
    hm_table_add_column(t, "name", HM_ALIGN_LEFT);
    hm_table_add_column(t, "time_s", HM_ALIGN_RIGHT);
    hm_table_add_cell(t, "1");
    hm_table_add_cell(t, "a");
    hm_table_add_cell(t, "0.5");
    hm_table_add_cell(t, "100");
    hm_table_add_cell(t, "multi\nline");
    int st;
    char *text = printed(t, &st);
    const char *expect = "  n  name        time_s\n"
                         "  1  a              0.5\n"
                         "100  multi line\n";
    HM_CHECK(strcmp(text, expect) == 0,
             "partial row, newline in a cell flattened, no trailing blanks; got:\n%s", text);
    free(text);
    hm_table_free(t);
}

/* Misuse is refused rather than printing a broken table. */
static void check_misuse(void)
{
    hm_table_t *t;
    hm_table_create(&t);
    int st = hm_table_add_cell(t, "x");
    HM_CHECK(st == HM_EINVAL, "a cell before any column is HM_EINVAL (got %d)", st);
    hm_table_add_column(t, "a", HM_ALIGN_LEFT);
    hm_table_add_cell(t, "x");
    st = hm_table_add_column(t, "b", HM_ALIGN_LEFT);
    HM_CHECK(st == HM_EINVAL, "a column after the first cell is HM_EINVAL (got %d)", st);
    st = hm_table_add_column(t, "c", (hm_align_t)7);
    HM_CHECK(st == HM_EINVAL, "an unknown alignment is HM_EINVAL (got %d)", st);
    hm_table_free(t);
}

/* Many rows of varying width: every row has the same length and each
 * number ends in the same column as its header. */
static void check_many_rows(void)
{
    hm_table_t *t;
    hm_table_create(&t);
    hm_table_add_column(t, "size_bytes", HM_ALIGN_RIGHT);
    hm_table_add_column(t, "overhead_ns", HM_ALIGN_RIGHT);
    for (long s = 1; s <= (1L << 30); s *= 8) {
        hm_table_add_cellf(t, "%ld", s);
        hm_table_add_cellf(t, "%.1f", 1e9 / (double)s);
    }
    int st;
    char *text = printed(t, &st);
    size_t first = strcspn(text, "\n"), bad = 0, lines = 0;
    for (char *line = text; *line; line += strcspn(line, "\n") + 1, lines++)
        if (strcspn(line, "\n") != first) bad++;
    HM_CHECK(bad == 0 && lines == 12, "%zu lines, %zu of another length than the header (%zu)",
             lines, bad, first);
    free(text);
    hm_table_free(t);
}

int main(void)
{
    check_alignment();
    check_partial_row_and_trailing_blanks();
    check_misuse();
    check_many_rows();
    return hm_test_finish();
}
