/* include/harmonia/harmonia.h — all of libharmonia in one include, for
 * programs that use several layers. Each header can also be included on its
 * own; <harmonia/harmonize.h> is enough for hm_harmonize alone. */
#ifndef HARMONIA_HARMONIA_H
#define HARMONIA_HARMONIA_H

#include <harmonia/agree.h>
#include <harmonia/error.h>
#include <harmonia/export.h>
#include <harmonia/progress.h>
#include <harmonia/rng.h>
#include <harmonia/version.h>

#include <harmonia/gpu.h>
#include <harmonia/timer.h>
#include <harmonia/topo.h>
#include <harmonia/clock.h>
#include <harmonia/offset.h>
#include <harmonia/sync.h>
#include <harmonia/harmonize.h>
#include <harmonia/procsync.h>
#include <harmonia/ops.h>
#include <harmonia/stats.h>
#include <harmonia/output.h>
#include <harmonia/results.h>
#include <harmonia/measure.h>
#include <harmonia/bench.h>
#include <harmonia/clock_study.h>
#include <harmonia/experiment.h>
#include <harmonia/analysis.h>
#include <harmonia/overlap.h>
#include <harmonia/pattern.h>
#include <harmonia/trace.h>
#include <harmonia/figure.h>

#endif
