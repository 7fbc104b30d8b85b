/* tests/overlap/test_blas_guard.c — a program linked with GSL's reference
 * CBLAS before OpenBLAS (tests/overlap/CMakeLists.txt) has cblas_dgemm bound
 * to GSL's, about 30 times slower: the compute kernel must refuse to time
 * it, with HM_ENOTSUP and a sentence that names both libraries, rather than
 * report a t_comp_ref of the wrong dgemm. */
#include <string.h>

#include <gsl/gsl_cblas.h>
#include <harmonia/overlap.h>

#include "testutil.h"

int main(void)
{
    /* A call of GSL's CBLAS of the program's own: the linker keeps the
     * library, first on the line, whatever it drops as not needed. */
    double x = 1.5, y = 2;
    HM_CHECK(cblas_ddot(1, &x, 1, &y, 1) == 3, "GSL's cblas_ddot is linked");
    hm_compute_t *c = NULL;
    int rc = hm_compute_create(NULL, &c);
    const char *why = hm_last_error();
    HM_CHECK(rc == HM_ENOTSUP && c == NULL && strstr(why, "libgslcblas") && strstr(why, "openblas"),
             "cblas_dgemm bound to GSL's CBLAS: %d \"%s\"", rc, why);
    hm_compute_free(c);
    return hm_test_finish();
}
