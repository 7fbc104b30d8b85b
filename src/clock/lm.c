/* src/clock/lm.c — linear models: applying and merging them. */
#include "clock/clock_impl.h"

double hm_lm_apply(hm_lm_t lm, double t)
{
    return hm__clock_apply_lm(lm, t);
}

/* Merge_LMs of Hunold & Carpen-Amarie 2016, Alg. 4 lines 33-36, with lm1 = lm_ab and
 * lm2 = lm_bc. Composition in our convention (a model maps the *local* time
 * of the clock it models):
 *   t_b = (1 - s_bc) t_c - i_bc,   t_a = (1 - s_ab) t_b - i_ab
 *   t_a = (1 - s_ab - s_bc + s_ab s_bc) t_c - (i_ab + i_bc - s_ab i_bc)
 * which is the algorithm's line 34-35. (Eq. 1 of the paper writes the last
 * term as s_bc * i_ab because there the models are functions of the
 * reference time; the algorithm, and this code, use the local time.) */
hm_lm_t hm_lm_merge(hm_lm_t lm_ab, hm_lm_t lm_bc)
{
    hm_lm_t m;
    m.slope = lm_ab.slope + lm_bc.slope - lm_ab.slope * lm_bc.slope;
    m.intercept = lm_ab.intercept + lm_bc.intercept - lm_bc.intercept * lm_ab.slope;
    return m;
}
