/* Uses the installed public headers and library: read a clock. */
#include <stdio.h>

#include <harmonia/timer.h>
#include <harmonia/version.h>

int main(int argc, char **argv)
{
    hm_timer_t *t = NULL;
    MPI_Init(&argc, &argv);
    int rc = hm_timer_create("monotonic", NULL, &t);
    double a = rc == HM_OK ? hm_timer_now(t) : 0, b = rc == HM_OK ? hm_timer_now(t) : 0;
    printf("harmonia %s: monotonic %s, two reads %s\n", hm_version(), hm_strerror(rc),
           b >= a ? "ordered" : "reversed");
    hm_timer_free(t);
    MPI_Finalize();
    return rc == HM_OK && b >= a ? 0 : 1;
}
