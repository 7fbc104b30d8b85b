/* tests/trace/test_trace_recorder.c — the recorder's file: created once per
 * rank (O_EXCL), and a second recorder of the same rank and directory
 * refused with HM_EIO and a sentence that names the file (read before the
 * recorder is freed: the sanitizer build runs this test). Events written
 * at close are counted. A write cut short (a file size limit in the
 * middle of the third chunk: writev returns part of the chunk, then
 * EFBIG) stops the recorder with a sentence naming the file, and the
 * file holds the two whole chunks, then a torn one. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <harmonia/timer.h>
#include <harmonia/trace.h>

#include "testutil.h"
#include "trace/trace_impl.h"

enum { CAP = 100 };

static void cut_short(const char *dir, hm_timer_t *timer)
{
    char path[64];
    snprintf(path, sizeof path, "%s/rank-00004.events", dir);
    struct rlimit was;
    getrlimit(RLIMIT_FSIZE, &was);
    signal(SIGXFSZ, SIG_IGN);
    size_t chunk = sizeof(hm__trace_chunk_t) + CAP * sizeof(hm_trace_event_t);
    struct rlimit limit = {.rlim_cur = 2 * chunk + chunk / 2, .rlim_max = was.rlim_max};
    HM_CHECK(setrlimit(RLIMIT_FSIZE, &limit) == 0, "a file size limit of %zu B",
             (size_t)limit.rlim_cur);
    hm_trace_recorder_t *r = NULL;
    HM_CHECK(hm_trace_recorder_open(dir, 4, CAP, timer, &r) == HM_OK, "a recorder of rank 4");
    int slots = 0;
    for (int i = 0; r && i < 4 * CAP; i++) {
        hm_trace_event_t *e = hm_trace_recorder_next(r);
        if (!e) break;
        memset(e, 0, sizeof *e), slots++;
    }
    /* The third flush fails: the events of two chunks and the slots before it. */
    HM_CHECK(slots == 3 * CAP - 2, "slots until the third flush failed: %d", slots);
    const char *why = r ? hm_trace_recorder_error(r) : "";
    HM_CHECK(strstr(why, path) && strstr(why, "writing"), "the failure names %s: \"%s\"", path,
             why);
    HM_CHECK(hm_trace_recorder_close(r) == HM_EIO, "close says the write failed");
    setrlimit(RLIMIT_FSIZE, &was);
    size_t n = 0, chunks = 0;
    int torn = 0;
    int st = hm__trace_scan_events(path, &n, &chunks, &torn);
    HM_CHECK(st == HM_OK && chunks == 2 && torn && n == 2 * CAP,
             "the file: %zu whole chunks of %zu events, torn %d", chunks, n, torn);
    unlink(path);
}

int main(void)
{
    char dir[] = "/tmp/hm-recorder-XXXXXX", path[64];
    HM_CHECK(mkdtemp(dir) != NULL, "a scratch directory");
    hm_timer_t *timer = NULL;
    HM_CHECK(hm_timer_create("monotonic", NULL, &timer) == HM_OK, "a timer: %s", hm_last_error());
    hm_trace_recorder_t *r = NULL, *again = NULL;
    int rc = hm_trace_recorder_open(dir, 3, 4, timer, &r);
    HM_CHECK(rc == HM_OK && r, "the first recorder of rank 3: %d \"%s\"", rc, hm_last_error());
    snprintf(path, sizeof path, "%s/rank-00003.events", dir);
    rc = hm_trace_recorder_open(dir, 3, 4, timer, &again);
    const char *why = hm_last_error();
    HM_CHECK(rc == HM_EIO && !again && strstr(why, path) && strstr(why, "File exists"),
             "a second recorder of rank 3 is refused naming %s: %d \"%s\"", path, rc, why);
    for (int i = 0; r && i < 5; i++) {
        hm_trace_event_t *e = hm_trace_recorder_next(r);
        HM_CHECK(e != NULL, "event %d has a slot", i);
        if (e) memset(e, 0, sizeof *e);
    }
    HM_CHECK(r && hm_trace_recorder_events(r) >= 5, "5 events recorded (and the flush's)");
    HM_CHECK(hm_trace_recorder_close(r) == HM_OK, "closed: %s", hm_last_error());
    unlink(path);
    cut_short(dir, timer);
    rmdir(dir);
    hm_timer_free(timer);
    return hm_test_finish();
}
