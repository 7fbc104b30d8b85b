/* src/results/cell.c — the name of a cell of bench or overlap in the words
 * messages use, so that a cell is called the same by every command. */
#include <math.h>
#include <stdio.h>

#include <harmonia/results.h>

#include "common/error_set.h"

void hm_results_cell_name(const char *op, long long size_bytes, double comm_target_s,
                          double comp_target_s, int overlap, char *buf, size_t len)
{
    char comm[48], comp[48];
    if (!buf) {
        hm__error_null(__func__, "buf");
        return;
    }
    if (!len) return;
    if (!op) {
        buf[0] = '\0';
        hm__error_null(__func__, "op");
        return;
    }
    if (!overlap) {
        snprintf(buf, len, "%s %lld B", op, size_bytes);
        return;
    }
    if (isnan(comm_target_s))
        snprintf(comm, sizeof comm, "%lld B", size_bytes);
    else
        snprintf(comm, sizeof comm, "comm %g us", comm_target_s * 1e6);
    if (isnan(comp_target_s))
        snprintf(comp, sizeof comp, "comp = comm");
    else
        snprintf(comp, sizeof comp, "comp %g us", comp_target_s * 1e6);
    snprintf(buf, len, "%s %s %s", op, comm, comp);
}
