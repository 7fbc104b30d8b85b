/* src/measure/measure_impl.h — internals shared by the measure layer. */
#ifndef HM_MEASURE_IMPL_H
#define HM_MEASURE_IMPL_H
#include <stddef.h>
#include <mpi.h>

/* Agree on a local outcome rc (HM_OK, or a failure that set its sentence):
 * HM_OK when it is HM_OK on every rank, else status on every rank, with the
 * lowest failing rank's sentence (hm_agree), prefixed "FN: on another rank:"
 * on the ranks that did not fail (fn: the public function). */
int hm__measure_agree(MPI_Comm comm, int rc, int status, const char *fn);

/* Overwrite buf (len bytes) so that the last-level cache holds none of the
 * operation's buffers (Hunold & Carpen-Amarie 2016, §5.8); round varies the bytes written. */
void hm__measure_flush_cache(unsigned char *buf, size_t len, long round);
#endif
