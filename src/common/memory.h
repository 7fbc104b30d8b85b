/* src/common/memory.h — buffers whose placement does not depend on the
 * heap's history. */
#ifndef HM_COMMON_MEMORY_H
#define HM_COMMON_MEMORY_H
#include <stddef.h>

enum { HM_PAGE_BYTES = 4096 };

/* bytes (at least 1) at a page boundary; NULL when out of memory; free().
 * With malloc a send and a receive buffer's distance modulo 4 KiB follows
 * what was allocated and freed before (a preloaded tracer, glibc's moving
 * mmap threshold), and copies and reductions between buffers a few bytes
 * apart modulo 4 KiB run several times slower on AMD EPYC (4K aliasing:
 * MPI_Alltoall of 64 KiB at 2 ranks 80-95 us instead of 15-20 us; allreduce
 * of 32 KiB 19.1 us instead of 15.9 us). OSU aligns its buffers alike. */
void *hm__page_alloc(size_t bytes);
#endif
