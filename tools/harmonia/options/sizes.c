/* tools/harmonia/options/sizes.c — message size specifications: "8,64,1K", ranges
 * "1:1M" (powers of two), "1:1M:x4" (factor 4), as in OSU's "-m MIN:MAX".
 * K, M, G are powers of 1024. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options/config.h"
#include "options/options_table.h"

/* The sizes parsed so far, each with the offset in the text of the item it
 * came from, so that a size listed twice can be named with both items. */
typedef struct size_list {
    const char *text; /* the whole specification, as given */
    size_t *sizes;
    int max, n;
    size_t from[HM_CLI_MAX_SIZES]; /* offset of each size's item in text */
    size_t item;                   /* offset of the item being parsed */
} size_list_t;

#define SIZE_EXAMPLES "examples: 8, 64K, 1:1M:x4"

/* One size: digits and an optional K/M/G suffix. Values above the int limit
 * are reported as such rather than as "not a size". */
static int parse_one(const char *text, const char *item, unsigned long long *out)
{
    const char *p = text;
    unsigned long long v = 0;
    if (!isdigit((unsigned char)*p)) goto bad;
    for (; isdigit((unsigned char)*p); p++) {
        if (v > (~0ULL - 9) / 10) goto too_big;
        v = v * 10 + (unsigned)(*p - '0');
    }
    int shift = 0;
    switch (toupper((unsigned char)*p)) {
    case 'K':
        shift = 10, p++;
        break;
    case 'M':
        shift = 20, p++;
        break;
    case 'G':
        shift = 30, p++;
        break;
    default:
        break;
    }
    if (*p != '\0') goto bad;
    if (v > (HM_CLI_MAX_SIZE_BYTES >> shift)) goto too_big;
    *out = v << shift;
    return 0;
bad:
    cli_opt_fail("\"%s\" is not a size (accepted: 0 to %llu bytes; K, M, G are powers of 1024; %s)",
                 item, HM_CLI_MAX_SIZE_BYTES, SIZE_EXAMPLES);
    return -1;
too_big:
    cli_opt_fail("\"%s\" exceeds the largest size, %llu bytes (MPI counts are int)", text,
                 HM_CLI_MAX_SIZE_BYTES);
    return -1;
}

/* The item of text that starts at offset at, as "%.*s" arguments. */
static int item_len(const char *text, size_t at)
{
    size_t n = strcspn(text + at, ",");
    return n > 64 ? 64 : (int)n;
}

/* A size already in the list: an error naming it and the two items (once
 * when they are spelled the same, "8,8"). */
static int listed_twice(const size_list_t *l, unsigned long long v)
{
    for (int i = 0; i < l->n; i++) {
        if (l->sizes[i] != v) continue;
        const char *a = l->text + l->from[i], *b = l->text + l->item;
        int na = item_len(l->text, l->from[i]), nb = item_len(l->text, l->item);
        if (na == nb && strncmp(a, b, (size_t)na) == 0)
            cli_opt_fail("%llu is listed twice", v);
        else
            cli_opt_fail("%llu is listed twice (\"%.*s\", then \"%.*s\")", v, na, a, nb, b);
        return -1;
    }
    return 0;
}

static int add_size(size_list_t *l, unsigned long long v)
{
    if (listed_twice(l, v)) return -1;
    if (l->n >= l->max) {
        cli_opt_fail("more than %d sizes (accepted: 1 to %d)", l->max, l->max);
        return -1;
    }
    l->from[l->n] = l->item;
    l->sizes[l->n++] = (size_t)v;
    return 0;
}

/* "xF": F at least 2 (1 would never end) and at most the largest size
 * (any larger factor gives MIN alone, as that one does). */
static int parse_factor(const char *text, const char *item, unsigned long long *factor)
{
    char *end;
    if (text[0] != 'x' && text[0] != 'X') goto bad;
    errno = 0;
    unsigned long long f = strtoull(text + 1, &end, 10);
    if (!isdigit((unsigned char)text[1]) || *end || errno || f < 2 || f > HM_CLI_MAX_SIZE_BYTES)
        goto bad;
    *factor = f;
    return 0;
bad:
    cli_opt_fail("\"%s\": \"%s\" is not a range factor (accepted: x2 to x%llu; examples: x2, x4)",
                 item, text, HM_CLI_MAX_SIZE_BYTES);
    return -1;
}

/* MIN:MAX[:xF]: MIN, MIN*F, ... up to MAX. A range from 0 gives 0, then
 * starts again at 1 (OSU's -m 0:N). */
static int parse_range(char *item, size_list_t *l)
{
    char whole[1024];
    snprintf(whole, sizeof whole, "%s", item);
    char *second = strchr(item, ':');
    *second++ = '\0';
    char *third = strchr(second, ':');
    unsigned long long lo, hi, factor = 2;
    if (third) *third++ = '\0';
    if (parse_one(item, whole, &lo) || parse_one(second, whole, &hi)) return -1;
    if (third && parse_factor(third, whole, &factor)) return -1;
    if (lo > hi) {
        cli_opt_fail("range \"%s\" is empty (the first size is above the last)", whole);
        return -1;
    }
    if (lo == 0) {
        if (add_size(l, 0)) return -1;
        lo = 1;
    }
    for (unsigned long long v = lo;; v *= factor) {
        if (add_size(l, v)) return -1;
        if (v > hi / factor) return 0; /* the next step passes MAX (or overflows) */
    }
}

static int parse_item(char *item, size_list_t *l)
{
    unsigned long long v;
    if (strchr(item, ':')) return parse_range(item, l);
    return parse_one(item, item, &v) || add_size(l, v) ? -1 : 0;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

static int parse_sizes(size_list_t *l, int *nsizes)
{
    char buf[1024];
    if (!l->text || !*l->text) {
        cli_opt_fail("empty size list (" SIZE_EXAMPLES ")");
        return -1;
    }
    if (strlen(l->text) >= sizeof buf) {
        cli_opt_fail("size list longer than %zu characters", sizeof buf - 1);
        return -1;
    }
    strcpy(buf, l->text);
    for (char *item = buf, *next; item; item = next) {
        next = strchr(item, ',');
        if (next) *next++ = '\0';
        l->item = (size_t)(item - buf);
        if (!*item) {
            cli_opt_fail("\"%s\" has an empty item (" SIZE_EXAMPLES ")", l->text);
            return -1;
        }
        if (parse_item(item, l)) return -1;
    }
    /* Distinct already: add_size refuses a size listed twice. */
    qsort(l->sizes, (size_t)l->n, sizeof *l->sizes, cmp_size);
    *nsizes = l->n;
    return 0;
}

int cli_parse_sizes(const char *text, size_t *sizes, int max, int *nsizes)
{
    size_list_t l = {.text = text, .sizes = sizes};
    l.max = max < HM_CLI_MAX_SIZES ? max : HM_CLI_MAX_SIZES;
    return parse_sizes(&l, nsizes);
}
