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

/* "00" to "99": two digits a division (a third of a merge writing
 * trace.csv went to one digit a division). */
static const char pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* The digits of v, right-aligned at end (the last digit at end[-1]). */
static void digits_before(char *end, uint64_t v)
{
    char *p = end;
    while (v >= 100) {
        unsigned k = (unsigned)(v % 100) * 2;
        v /= 100;
        *--p = pairs[k + 1], *--p = pairs[k];
    }
    if (v >= 10)
        *--p = pairs[2 * v + 1], *--p = pairs[2 * v];
    else
        *--p = (char)('0' + v);
}

/* How many decimal digits v has. */
static size_t digit_count(uint64_t v)
{
    size_t n = 1;
    for (; v >= 10000; v /= 10000) n += 4;
    return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* Written in place, without a copy through a buffer (a sixth of the
 * numbers' time in a merge writing trace.csv). */
size_t hm__trace_uint(char *buf, uint64_t v)
{
    if (v < 10) return buf[0] = (char)('0' + v), buf[1] = '\0', 1; /* most cells */
    size_t n = digit_count(v);
    digits_before(buf + n, v);
    buf[n] = '\0';
    return n;
}

/* The fraction's decimals digits of f (< 10^decimals, leading zeros
 * kept) at out: 32-bit divisions, two digits each. */
static void fraction_digits(char *out, uint32_t f, int decimals)
{
    char *p = out + decimals;
    for (; decimals >= 2; decimals -= 2) {
        unsigned k = (f % 100) * 2;
        f /= 100;
        *--p = pairs[k + 1], *--p = pairs[k];
    }
    if (decimals) *--p = (char)('0' + f % 10);
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
    /* A division by a constant is a multiplication; by unit, a divide
     * instruction: the trace's files use 9 and 4 decimals. */
    uint64_t whole = decimals == 9 ? r / 1000000000u : decimals == 4 ? r / 10000u : r / unit;
    size_t n = 0;
    if (v < 0 && r) buf[n++] = '-';
    n += hm__trace_uint(buf + n, whole);
    if (decimals) {
        buf[n++] = '.';
        fraction_digits(buf + n, (uint32_t)(r - whole * unit), decimals);
        n += (size_t)decimals;
    }
    buf[n] = '\0';
    return n;
}
