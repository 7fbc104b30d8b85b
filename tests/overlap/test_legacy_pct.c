/* tests/overlap/test_legacy_pct.c — OSU's and IMB's overlap % against
 * values worked by hand from their formulas (OSU 7.4 osu_util_mpi.c
 * print_stats_nbc; IMB src_c/IMB_output.c, NBC branch), in milliseconds. */
#include <math.h>

#include <harmonia/overlap.h>

#include "testutil.h"

/* Exact in binary up to the last bits: 1e-9 of a percent. */
#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

static void test_osu(void)
{
    /* overall - comp is the time in MPI; 100 - 100 x that / comm. */
    HM_CHECK(NEAR(hm_overlap_osu_pct(30, 30, 20), 100), "no time in MPI: 100 %%");
    HM_CHECK(NEAR(hm_overlap_osu_pct(40, 30, 20), 50), "half of comm in MPI: 50 %%");
    HM_CHECK(NEAR(hm_overlap_osu_pct(50, 30, 20), 0), "all of comm in MPI: 0 %%");
    HM_CHECK(NEAR(hm_overlap_osu_pct(60, 30, 20), 0), "more than comm: clamped at 0 %%");
    HM_CHECK(hm_overlap_osu_pct(25, 30, 20) > 100, "OSU has no upper clamp (%.1f)",
             hm_overlap_osu_pct(25, 30, 20));
    HM_CHECK(isnan(hm_overlap_osu_pct(30, 30, 0)), "no communication time: NAN");
}

static void test_imb(void)
{
    /* (pure + comp - ovrl) / max(pure, comp), clamped to [0, 1]. */
    HM_CHECK(NEAR(hm_overlap_imb_pct(30, 20, 30), 100.0 * 20 / 30),
             "perfect overlap of 20 in 30 reads 66.7 %% (%.3f)", hm_overlap_imb_pct(30, 20, 30));
    HM_CHECK(NEAR(hm_overlap_imb_pct(40, 20, 30), 100.0 * 10 / 30), "10 saved of 30: 33.3 %%");
    HM_CHECK(NEAR(hm_overlap_imb_pct(50, 20, 30), 0), "in sequence: 0 %%");
    HM_CHECK(NEAR(hm_overlap_imb_pct(55, 20, 30), 0), "slower than in sequence: clamped at 0");
    HM_CHECK(NEAR(hm_overlap_imb_pct(20, 30, 30), 100), "40 saved of 30: clamped at 100 %%");
    HM_CHECK(NEAR(hm_overlap_imb_pct(30, 30, 30), 100), "equal times overlapped: 100 %%");
    HM_CHECK(isnan(hm_overlap_imb_pct(30, 0, 0)), "no time at all: NAN");
}

int main(void)
{
    test_osu();
    test_imb();
    return hm_test_finish();
}
