/* src/analysis/analysis_impl.h — the order of groups, shared by the files
 * of the analysis layer (private to it). */
#ifndef HM_ANALYSIS_IMPL_H
#define HM_ANALYSIS_IMPL_H
#include <harmonia/analysis.h>

/* The order of the cells of x and y and their processes: op, size (bench),
 * or op, comm_target_s, size_bytes, comp_target_s (overlap), then
 * processes. 0: the same cell, what compare matches A's and B's groups by. */
int hm__analysis_cell_cmp(const hm_analysis_group_t *x, const hm_analysis_group_t *y);

/* The cell, then sync and progress: 0 for the same group. */
int hm__analysis_group_cmp(const hm_analysis_group_t *x, const hm_analysis_group_t *y);

/* "bcast 8 B at 2 processes", "iallreduce comm 1000 us comp 4000 us at 2
 * processes", for messages. */
void hm__analysis_group_name(const hm_analysis_group_t *g, char *buf, size_t len);
#endif
