/* tools/harmonia/options/sizes.c — message size specifications: "8,64,1K", ranges
 * "1:1M" (powers of two), "1:1M:x4" (factor 4), as in OSU's "-m MIN:MAX".
 * K, M, G are powers of 1024. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options/config.h"

static void say(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
}

/* One size: digits and an optional K/M/G suffix. Values above the int limit
 * are reported as such rather than as "not a size". */
static int parse_one(const char *text, const char *item, unsigned long long *out, char *why,
                     size_t len)
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
    say(why, len, "\"%s\" is not a size (examples: 8, 64K, 1:1M:x4)", item);
    return -1;
too_big:
    say(why, len, "\"%s\" exceeds the largest size, %llu bytes (MPI counts are int)", text,
        HM_CLI_MAX_SIZE_BYTES);
    return -1;
}

static int add_size(unsigned long long v, size_t *sizes, int max, int *n, char *why, size_t len)
{
    if (*n >= max) {
        say(why, len, "more than %d sizes", max);
        return -1;
    }
    sizes[(*n)++] = (size_t)v;
    return 0;
}

static int parse_factor(const char *text, const char *item, unsigned long long *factor, char *why,
                        size_t len)
{
    char *end;
    if (text[0] != 'x' && text[0] != 'X') goto bad;
    errno = 0;
    unsigned long long f = strtoull(text + 1, &end, 10);
    if (!isdigit((unsigned char)text[1]) || *end || errno || f < 2) goto bad;
    *factor = f;
    return 0;
bad:
    say(why, len, "\"%s\": \"%s\" is not a range factor (examples: x2, x4)", item, text);
    return -1;
}

/* MIN:MAX[:xF]: MIN, MIN*F, ... up to MAX. A range from 0 gives 0, then
 * starts again at 1 (OSU's -m 0:N). */
static int parse_range(char *item, size_t *sizes, int max, int *n, char *why, size_t len)
{
    char whole[1024];
    snprintf(whole, sizeof whole, "%s", item);
    char *second = strchr(item, ':');
    *second++ = '\0';
    char *third = strchr(second, ':');
    unsigned long long lo, hi, factor = 2;
    if (third) *third++ = '\0';
    if (parse_one(item, whole, &lo, why, len) || parse_one(second, whole, &hi, why, len)) return -1;
    if (third && parse_factor(third, whole, &factor, why, len)) return -1;
    if (lo > hi) {
        say(why, len, "range \"%s\" is empty (the first size is above the last)", whole);
        return -1;
    }
    if (lo == 0) {
        if (add_size(0, sizes, max, n, why, len)) return -1;
        lo = 1;
    }
    for (unsigned long long v = lo;; v *= factor) {
        if (add_size(v, sizes, max, n, why, len)) return -1;
        if (v > hi / factor) return 0; /* the next step passes MAX (or overflows) */
    }
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

static int sort_unique(size_t *sizes, int n)
{
    int k = 0;
    qsort(sizes, (size_t)n, sizeof *sizes, cmp_size);
    for (int i = 0; i < n; i++)
        if (k == 0 || sizes[k - 1] != sizes[i]) sizes[k++] = sizes[i];
    return k;
}

int hm_cli_parse_sizes(const char *text, size_t *sizes, int max, int *nsizes, char *why, size_t len)
{
    char buf[1024];
    int n = 0;
    if (!text || !*text) {
        say(why, len, "empty size list (examples: 8, 64K, 1:1M:x4)");
        return -1;
    }
    if (strlen(text) >= sizeof buf) {
        say(why, len, "size list longer than %zu characters", sizeof buf - 1);
        return -1;
    }
    strcpy(buf, text);
    for (char *item = buf, *next; item; item = next) {
        next = strchr(item, ',');
        if (next) *next++ = '\0';
        if (!*item) {
            say(why, len, "\"%s\" has an empty item (examples: 8, 64K, 1:1M:x4)", text);
            return -1;
        }
        unsigned long long v;
        int rc = strchr(item, ':') ? parse_range(item, sizes, max, &n, why, len)
                                   : (parse_one(item, item, &v, why, len) ||
                                      add_size(v, sizes, max, &n, why, len));
        if (rc) return -1;
    }
    *nsizes = sort_unique(sizes, n);
    return 0;
}
