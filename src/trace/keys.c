/* src/trace/keys.c — the keys a tracer gives communicators, windows and
 * files (include/harmonia/trace.h): alike on every member, from what each
 * member knows, so that nothing is communicated to name them. */
#include <harmonia/trace.h>

/* splitmix64's finalizer: keys of distinct inputs differ. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint64_t hm_trace_object_key(uint64_t parent_key, uint64_t call, int first)
{
    uint64_t key = mix(parent_key ^ mix((call << 32) ^ (uint32_t)first));
    return key < 2 ? key + 2 : key; /* 0 and 1 are MPI_COMM_WORLD's and "none" */
}
