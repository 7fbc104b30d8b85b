/* src/pattern/model.c — the bandwidth across nodes that static GPU-to-NIC
 * associations allow [CommBench, §5.2.1, eqs. 1-2], printed beside the
 * measurements as their ceiling. */
#include <math.h>

#include <harmonia/pattern.h>

double hm_pattern_model_packed(double nic_bw, int k, int p)
{
    if (!(nic_bw > 0) || k < 1 || p < 1) return NAN;
    return nic_bw * (1.0 + fmax(0.0, (double)(k - p)) / (double)p);
}

double hm_pattern_model_round_robin(double nic_bw, int k, int r)
{
    if (!(nic_bw > 0) || k < 1 || r < 1) return NAN;
    return nic_bw * (double)k / ceil((double)k / (double)r);
}

double hm_pattern_model_directions(hm_direction_t direction, int n)
{
    if (n < 2) return NAN;
    switch (direction) {
    case HM_DIRECTION_UNI:
    case HM_DIRECTION_UNI_IN:
        return 1;
    case HM_DIRECTION_BI:
    case HM_DIRECTION_BI_MIRROR:
        return 2;
    case HM_DIRECTION_OMNI:
        return n;
    }
    return NAN;
}
