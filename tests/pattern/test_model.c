/* tests/pattern/test_model.c — eqs. 1 and 2 of CommBench §5.2.1 against
 * values worked by hand (25 GB/s NICs, as HDR InfiniBand's 200 Gb/s). */
#include <math.h>

#include <harmonia/pattern.h>

#include "testutil.h"

/* Sums of exact binary fractions: 1e-12 is rounding only. */
#define NEAR(a, b) (fabs((a) - (b)) < 1e-12)

int main(void)
{
    /* Packed, 2 GPUs per NIC: 1 or 2 active share the first NIC (25);
     * 3 reach into the second, 1.5 NICs' worth (37.5); 4 fill both (50). */
    HM_CHECK(NEAR(hm_pattern_model_packed(25, 1, 2), 25), "packed k 1 p 2: 25");
    HM_CHECK(NEAR(hm_pattern_model_packed(25, 2, 2), 25), "packed k 2 p 2: 25");
    HM_CHECK(NEAR(hm_pattern_model_packed(25, 3, 2), 37.5), "packed k 3 p 2: 37.5 (%g)",
             hm_pattern_model_packed(25, 3, 2));
    HM_CHECK(NEAR(hm_pattern_model_packed(25, 4, 2), 50), "packed k 4 p 2: 50");
    /* Round-robin over 8 NICs (Aurora): up to 8 active each get a NIC
     * (25 k); 9 put two on one NIC: 9 / 2 NICs' worth (112.5). */
    HM_CHECK(NEAR(hm_pattern_model_round_robin(25, 1, 8), 25), "round-robin k 1 r 8: 25");
    HM_CHECK(NEAR(hm_pattern_model_round_robin(25, 8, 8), 200), "round-robin k 8 r 8: 200");
    HM_CHECK(NEAR(hm_pattern_model_round_robin(25, 9, 8), 112.5), "round-robin k 9 r 8: 112.5");
    HM_CHECK(NEAR(hm_pattern_model_round_robin(25, 16, 8), 200), "round-robin k 16 r 8: 200");
    HM_CHECK(isnan(hm_pattern_model_packed(25, 0, 2)) && isnan(hm_pattern_model_packed(0, 1, 2)) &&
                 isnan(hm_pattern_model_round_robin(25, 1, 0)),
             "k, p, r below 1 or no bandwidth: NAN");
    /* Full-duplex NICs: uni loads group 0's outbound links, bi its
     * outbound and inbound ones, omni every group's outbound links. */
    HM_CHECK(hm_pattern_model_directions(HM_DIRECTION_UNI, 4) == 1 &&
                 hm_pattern_model_directions(HM_DIRECTION_BI, 4) == 2 &&
                 hm_pattern_model_directions(HM_DIRECTION_OMNI, 4) == 4 &&
                 hm_pattern_model_directions(HM_DIRECTION_OMNI, 2) == 2 &&
                 hm_pattern_model_directions(HM_DIRECTION_BI_MIRROR, 4) == 2 &&
                 hm_pattern_model_directions(HM_DIRECTION_UNI_IN, 4) == 1,
             "directions: uni 1, bi 2, omni n, bi-mirror 2, uni-in 1 (group 0 receives)");
    HM_CHECK(isnan(hm_pattern_model_directions(HM_DIRECTION_UNI, 1)) &&
                 isnan(hm_pattern_model_directions((hm_direction_t)7, 4)),
             "directions: one group or an unknown direction: NAN");
    return hm_test_finish();
}
