/* src/trace/format.c — numbers as text for the merged trace's files,
 * without printf: a trace of millions of events has tens of millions of
 * cells, and printf's shortest round-trip doubles (three formats and three
 * reads back a cell, csv.c) took most of the merge's time (perf: 15 % in
 * __printf_fp, 9 % in strtod, 8 % in printf_positional, on a 1.9 M-event
 * hpcc trace). Times are written with a fixed number of decimals instead:
 * 9 for seconds (a nanosecond: the timers' step), 4 for microseconds. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "trace/merge_impl.h"

size_t hm__trace_uint(char *buf, uint64_t v)
{
    char tmp[24];
    size_t n = 0;
    do tmp[n++] = (char)('0' + v % 10), v /= 10;
    while (v);
    for (size_t i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
    buf[n] = '\0';
    return n;
}

size_t hm__trace_int(char *buf, int64_t v)
{
    if (v >= 0) return hm__trace_uint(buf, (uint64_t)v);
    buf[0] = '-';
    return 1 + hm__trace_uint(buf + 1, (uint64_t)0 - (uint64_t)v);
}

size_t hm__trace_fixed(char *buf, double v, int decimals)
{
    static const double scale[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
    if (!isfinite(v)) return buf[0] = '\0', 0; /* no value: an empty cell */
    if (decimals < 0) decimals = 0;
    if (decimals > 9) decimals = 9;
    double x = fabs(v) * scale[decimals];
    if (x >= 9e18) return (size_t)snprintf(buf, 48, "%.*f", decimals, v);
    uint64_t r = (uint64_t)llround(x), unit = (uint64_t)scale[decimals];
    size_t n = 0;
    if (v < 0 && r) buf[n++] = '-';
    n += hm__trace_uint(buf + n, r / unit);
    if (decimals) {
        uint64_t frac = r % unit;
        buf[n++] = '.';
        for (int d = decimals - 1; d >= 0; d--)
            buf[n + (size_t)d] = (char)('0' + frac % 10), frac /= 10;
        n += (size_t)decimals;
    }
    buf[n] = '\0';
    return n;
}
