/* src/output/factors.c — the experimental factors of a run: an ordered list
 * of key/value pairs, written as "# key: value" lines in result files. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/output.h>

#include "common/error_set.h"
#include "output/output_impl.h"

typedef struct hm_factor {
    char *key;
    char *value;
} hm_factor_t;

struct hm_factors {
    hm_factor_t *items;
    size_t count, cap;
};

int hm_factors_create(hm_factors_t **out)
{
    if (!out) return hm__error_null(__func__, "out");
    *out = calloc(1, sizeof **out);
    return *out ? HM_OK : hm__error_set(HM_ENOMEM, "%s: out of memory", __func__);
}

void hm_factors_free(hm_factors_t *factors)
{
    if (!factors) return;
    for (size_t i = 0; i < factors->count; i++) {
        free(factors->items[i].key);
        free(factors->items[i].value);
    }
    free(factors->items);
    free(factors);
}

/* Keys end at the first ": " of a line when a file is read back, and tools
 * match them as identifiers: keep them to a safe alphabet. */
static int key_is_valid(const char *key)
{
    if (!key || !*key) return 0;
    for (const char *p = key; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", *p))
            return 0;
    return 1;
}

static hm_factor_t *find(const hm_factors_t *factors, const char *key)
{
    for (size_t i = 0; i < factors->count; i++)
        if (strcmp(factors->items[i].key, key) == 0) return &factors->items[i];
    return NULL;
}

static int append(hm_factors_t *factors, const char *key, char *value)
{
    if (factors->count == factors->cap) {
        size_t cap = factors->cap ? 2 * factors->cap : 16;
        hm_factor_t *grown = realloc(factors->items, cap * sizeof *grown);
        if (!grown) return hm__error_nomem(__func__);
        factors->items = grown;
        factors->cap = cap;
    }
    char *key_copy = strdup(key);
    if (!key_copy) return hm__error_nomem(__func__);
    factors->items[factors->count++] = (hm_factor_t){key_copy, value};
    return HM_OK;
}

int hm_factors_set(hm_factors_t *factors, const char *key, const char *fmt, ...)
{
    if (!factors) return hm__error_null(__func__, "factors");
    if (!key) return hm__error_null(__func__, "key");
    if (!fmt) return hm__error_null(__func__, "fmt");
    if (!key_is_valid(key))
        return hm__error_set(HM_EINVAL,
                             "factor key \"%s\" is not letters, digits, '_', '.' and '-'", key);
    va_list ap;
    va_start(ap, fmt);
    char *value = hm__output_vformat(fmt, ap);
    va_end(ap);
    if (!value) return hm__error_nomem(__func__);
    hm__output_flatten(value);
    hm_factor_t *existing = find(factors, key);
    if (existing) {
        free(existing->value);
        existing->value = value;
        return HM_OK;
    }
    int st = append(factors, key, value);
    if (st != HM_OK) free(value);
    return st;
}

int hm_factors_get(const hm_factors_t *factors, const char *key, const char **value)
{
    if (!factors) return hm__error_null(__func__, "factors");
    if (!key) return hm__error_null(__func__, "key");
    if (!value) return hm__error_null(__func__, "value");
    const hm_factor_t *f = find(factors, key);
    if (!f) return hm__error_set(HM_ENOENT, "no factor \"%s\"", key);
    *value = f->value;
    return HM_OK;
}

size_t hm_factors_count(const hm_factors_t *factors)
{
    if (!factors) hm__error_null(__func__, "factors");
    return factors ? factors->count : 0;
}

int hm_factors_at(const hm_factors_t *factors, size_t i, const char **key, const char **value)
{
    if (!factors) return hm__error_null(__func__, "factors");
    if (!key) return hm__error_null(__func__, "key");
    if (!value) return hm__error_null(__func__, "value");
    if (i >= factors->count)
        return hm__error_set(HM_ERANGE, "%s: index %zu is past the %zu factors", __func__, i,
                             factors->count);
    *key = factors->items[i].key;
    *value = factors->items[i].value;
    return HM_OK;
}
