/* src/figure/plot_trace.h — the Gantt chart of a trace directory. */
#ifndef HM_FIGURE_TRACE_H
#define HM_FIGURE_TRACE_H
#include <stddef.h>

#include <harmonia/figure.h>

#include "figure/plot_gnuplot.h"

/* 1 when operand is a directory holding trace.csv (harmonia trace --output). */
int hm__plot_is_trace(const char *operand);

/* Draw DIR-gantt (svg/png as out says): the selection on the local clocks
 * and on the global clock side by side over the same window, a legend naming
 * each function's colour; a window of many calls binned. trace.csv is read
 * once, its calls kept in a scratch file under out->tmpdir. HM_EINVAL (a
 * file that does not read, a call or window the trace does not have),
 * HM_ENOMEM or HM_EIO (the scratch file, gnuplot), the reason as the last
 * error. */
int hm__plot_trace(const hm_figure_select_t *select, const hm__plot_out_t *out, const char *dir);
#endif
