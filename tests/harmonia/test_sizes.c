/* tests/harmonia/test_sizes.c — size specifications: lists, ranges, factors,
 * suffixes, OSU's MIN:MAX, and every way to get one wrong. */
#include <stdio.h>
#include <string.h>

#include "options/config.h"
#include "testutil.h"

/* The reason of a refusal is the last error (hm_last_error); why gets it. */
static int parse(const char *spec, size_t *sizes, int *n, char *why)
{
    int rc = cli_parse_sizes(spec, sizes, HM_CLI_MAX_SIZES, n);
    snprintf(why, 256, "%s", rc ? hm_last_error() : "");
    return rc;
}

static void expect_sizes(const char *spec, const size_t *want, int nwant)
{
    size_t got[HM_CLI_MAX_SIZES];
    char why[256] = "";
    int n = -1;
    int rc = parse(spec, got, &n, why);
    int same = rc == 0 && n == nwant && memcmp(got, want, (size_t)n * sizeof *got) == 0;
    HM_CHECK(same, "\"%s\" gives %d sizes as expected (got %d, first %zu, last %zu) %s", spec,
             nwant, n, n > 0 ? got[0] : 0, n > 0 ? got[n - 1] : 0, why);
}

static void expect_error(const char *spec, const char *fragment)
{
    size_t got[HM_CLI_MAX_SIZES];
    char why[256] = "";
    int n = 0;
    int rc = parse(spec, got, &n, why);
    HM_CHECK(rc != 0 && strstr(why, fragment) != NULL, "\"%s\" is refused with \"%s\" (got: %s)",
             spec, fragment, why);
}

int main(void)
{
    expect_sizes("8", (size_t[]){8}, 1);
    expect_sizes("8,64,1K", (size_t[]){8, 64, 1024}, 3);
    expect_sizes("1K,8,64", (size_t[]){8, 64, 1024}, 3); /* sorted */
    expect_sizes("1:16", (size_t[]){1, 2, 4, 8, 16}, 5);
    expect_sizes("1:1M:x4",
                 (size_t[]){1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576}, 11);
    expect_sizes("0:4", (size_t[]){0, 1, 2, 4}, 4); /* OSU -m 0:4 */
    expect_sizes("3:20", (size_t[]){3, 6, 12}, 3);  /* MAX need not be on the grid */
    expect_sizes("2k,1m,1G", (size_t[]){2048, 1048576, 1073741824}, 3);
    expect_sizes("1G:2047M", (size_t[]){1073741824}, 1);
    expect_sizes("2147483647", (size_t[]){2147483647}, 1); /* INT_MAX itself is fine */

    expect_error("", "empty size list");
    expect_error("1K,8,64,8", "8 is listed twice");
    expect_error("8,1:16", "8 is listed twice (\"8\", then \"1:16\")");
    expect_error("1:abc", "\"1:abc\" is not a size");
    expect_error("-8", "\"-8\" is not a size");
    expect_error("8,,64", "has an empty item");
    expect_error("8K4", "\"8K4\" is not a size");
    expect_error("1:100G", "exceeds the largest size, 2147483647 bytes");
    expect_error("2G", "exceeds the largest size, 2147483647 bytes");
    expect_error("99999999999999999999999", "exceeds the largest size");
    expect_error("64:8", "is empty");
    expect_error("1:1M:x1", "is not a range factor");
    expect_error("1:1M:4", "is not a range factor");
    expect_error("1:1M:x", "is not a range factor");
    expect_error("1:1:1:1", "is not a range factor");
    expect_error("0:2147483647:x1", "is not a range factor");
    /* 1..2^31-1 in steps of x2 is 31 sizes; a list longer than the limit is refused. */
    expect_error("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,"
                 "30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,"
                 "56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,"
                 "82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100,101,102,103,104,105,"
                 "106,107,108,109,110,111,112,113,114,115,116,117,118,119,120,121,122,123,124,125,"
                 "126,127,128,129,130,131,132,133,134,135,136,137,138,139,140,141,142,143,144,145,"
                 "146,147,148,149,150,151,152,153,154,155,156,157,158,159,160,161,162,163,164,165,"
                 "166,167,168,169,170,171,172,173,174,175,176,177,178,179,180,181,182,183,184,185,"
                 "186,187,188,189,190,191,192,193,194,195,196,197,198,199,200,201,202,203,204,205,"
                 "206,207,208,209,210,211,212,213,214,215,216,217,218,219,220,221,222,223,224,225,"
                 "226,227,228,229,230,231,232,233,234,235,236,237,238,239,240,241,242,243,244,245,"
                 "246,247,248,249,250,251,252,253,254,255,256,257",
                 "more than 256 sizes");
    return hm_test_finish();
}
