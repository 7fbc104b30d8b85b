/* src/output/text.c — small string helpers of the output layer. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error_set.h"
#include "output/output_impl.h"

size_t hm_output_utf8_length(const char *text)
{
    if (!text) {
        hm__error_null(__func__, "s");
        return 0;
    }
    const unsigned char *s = (const unsigned char *)text;
    size_t n = s[0] < 0x80             ? 1
               : (s[0] & 0xe0) == 0xc0 ? 2
               : (s[0] & 0xf0) == 0xe0 ? 3
               : (s[0] & 0xf8) == 0xf0 ? 4
                                       : 0;
    if (n == 2 && s[0] < 0xc2) return 0; /* overlong */
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    return n;
}

void hm__output_flatten(char *text)
{
    for (unsigned char *p = (unsigned char *)text; *p; p++)
        if (*p < 0x20 || *p == 0x7f) *p = ' ';
}

char *hm__output_vformat(const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *text = n < 0 ? NULL : malloc((size_t)n + 1);
    if (text) vsnprintf(text, (size_t)n + 1, fmt, again);
    va_end(again);
    return text;
}

char *hm__output_format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = hm__output_vformat(fmt, ap);
    va_end(ap);
    return text;
}

void hm__output_sys_error(char *buf, size_t len, int err, const char *fmt, ...)
{
    if (!buf || len == 0) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < len) snprintf(buf + n, len - (size_t)n, ": %s", strerror(err));
}

uint64_t hm__output_fnv1a(uint64_t hash, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        hash ^= p[i];
        hash *= UINT64_C(1099511628211);
    }
    return hash;
}
