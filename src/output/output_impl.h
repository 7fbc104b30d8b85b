/* src/output/output_impl.h — helpers shared by the files of the output layer.
 * Internal; the summaries are exposed here so that tests can feed them host
 * lists and bindings that one machine cannot produce. */
#ifndef HM_OUTPUT_IMPL_H
#define HM_OUTPUT_IMPL_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <harmonia/output.h>

/* Replace control characters (newlines included) by spaces, in place, so
 * that a value stays on one line of a table or of a "# key: value" line. */
void hm__output_flatten(char *text);

/* path itself, or the file it points to when it is a symbolic link: the
 * name a result is published under. A new allocation; NULL when out of
 * memory or when a link cannot be resolved. */
char *hm__output_resolve(const char *path);

/* Publish, at the next checkpoint or commit of af, text in place of the len
 * bytes written at offset (text NULL: publish what was written). The
 * temporary keeps what was written. HM_ENOMEM. */
int hm__afile_patch(hm_afile_t *af, off_t offset, size_t len, const char *text);

/* Replace the len bytes written at offset with bytes, in the temporary
 * itself: what the next checkpoint or the commit publishes. HM_EIO. */
int hm__afile_overwrite(hm_afile_t *af, off_t offset, const void *bytes, size_t len);

/* The registry of this process's temporary files (temporaries.c):
 * hm_afile_remove_temporaries removes those registered. */
void hm__output_temp_register(const char *path);
void hm__output_temp_forget(const char *path);

/* What a file of that mode is, for a message: "a directory", "a FIFO",
 * "a regular file", ... */
const char *hm__output_kind_of(mode_t mode);

/* This host's name, for the names of temporaries ('/' replaced). */
void hm__output_host(char *buf, size_t len);

/* Remove, in dir, the temporaries of base (".BASE.tmp.HOST.PID.XXXXXX")
 * made on this host by processes that no longer run (killed by SIGKILL). */
void hm__output_remove_stale(const char *dir, const char *base);

/* vsnprintf into a new allocation (NULL when out of memory). */
char *hm__output_vformat(const char *fmt, va_list ap);
char *hm__output_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Write "fmt: strerror(err)" into buf (if not NULL): the sentence a handle
 * keeps for a failed system call (hm_csv_error). */
void hm__output_sys_error(char *buf, size_t len, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* FNV-1a 64-bit over len bytes, continuing from hash (start with
 * HM_FNV1A_OFFSET). */
#define HM_FNV1A_OFFSET UINT64_C(14695981039346656037)
uint64_t hm__output_fnv1a(uint64_t hash, const void *data, size_t len);

/* From the host name of each of n ranks, set the factors nodes,
 * processes_per_node, hosts and hosts_digest. */
int hm__output_summarize_hosts(hm_factors_t *factors, const char *const *hosts, size_t n);

/* From the binding of each of n ranks ("unbound" or an hwloc cpu list such
 * as "0-3,8"), set the factor pinning. */
int hm__output_summarize_pinning(hm_factors_t *factors, const char *const *bindings, size_t n);

/* Local facts of the calling process, each into buf (always terminated). */
void hm__output_binding(char *buf, size_t len);      /* "unbound", "0-3", "unknown" */
void hm__output_cpu_governor(char *buf, size_t len); /* "performance", "unreadable" */
void hm__output_utc_date(char *buf, size_t len);     /* "2024-05-01T12:00:00Z" */
void hm__output_mpi_library(char *buf, size_t len);  /* first line, trimmed */
#endif
