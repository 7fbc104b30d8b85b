/* tools/harmonia/commands/raw_input.h — reading the raw files of `harmonia bench --raw`: the
 * one reader that stats, compare and the per-mpirun dataset share, so that a
 * raw file means the same to all of them and is refused with the same words. */
#ifndef HM_CLI_RAW_INPUT_H
#define HM_CLI_RAW_INPUT_H
#include <stddef.h>

#include <harmonia/output.h>

#include "commands/stats_report.h"

/* The index in r's header of each of names[0..n-1] into idx. When some are
 * missing, HM_EINVAL and why = "path: missing columns: a, b (expected
 * EXPECTED)", naming all of them. */
int hm_cli_find_columns(const hm_csv_reader_t *r, const char *path, const char *const *names, int n,
                        size_t *idx, const char *expected, char *why, size_t why_len);

/* Append the valid repetitions (valid = 1) of the raw file at path, the
 * column metric_col ("global_s" or "local_s"), each to its (op, size_bytes,
 * processes, sync) group of groups, in file order; processes and sync are the
 * file's "# processes:" and "# sync:" factor lines. A file without valid
 * repetitions adds nothing (the caller decides whether that is an error).
 * On failure why receives "path[:line]: reason" and the result is HM_ENOENT
 * (no such file), HM_EIO (unreadable), HM_EINVAL (missing columns or
 * factors, a cell that is not a number, a size that is not a byte count, a
 * run-time that is not finite) or HM_ENOMEM. */
int hm_raw_read(const char *path, const char *metric_col, hm_stats_groups_t *groups, char *why,
                size_t why_len);
#endif
