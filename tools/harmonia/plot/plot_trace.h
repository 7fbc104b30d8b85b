/* tools/harmonia/plot/plot_trace.h — the Gantt chart of a trace directory. */
#ifndef HM_CLI_PLOT_TRACE_H
#define HM_CLI_PLOT_TRACE_H
#include <stddef.h>

#include "options/config.h"
#include "plot/plot_gnuplot.h"

/* 1 when operand is a directory holding trace.csv (harmonia trace --output). */
int cli_plot_is_trace(const char *operand);

/* Draw DIR-gantt (svg/png as out says): the selection of cfg->select on the
 * local clocks and on the global clock side by side. HM_EINVAL (a file
 * that does not read, a call the trace does not have) or HM_EIO, the reason as the last error. */
int cli_plot_trace(const cli_config_t *cfg, const cli_plot_out_t *out, const char *dir);
#endif
