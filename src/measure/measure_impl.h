/* src/measure/measure_impl.h — internals shared by the measure layer. */
#ifndef HM_MEASURE_IMPL_H
#define HM_MEASURE_IMPL_H
#include <stddef.h>
#include <mpi.h>

/* Agree on a local success: 1 on every rank when ok on all. */
int hm__measure_all_ok(MPI_Comm comm, int ok);

/* Overwrite buf (len bytes) so that the last-level cache holds none of the
 * operation's buffers (Hunold & Carpen-Amarie 2016, §5.8); round varies the bytes written. */
void hm__measure_flush_cache(unsigned char *buf, size_t len, long round);
#endif
