/* tests/trace/test_trace_recorder.c — the recorder's file: created once per
 * rank (O_EXCL), and a second recorder of the same rank and directory
 * refused with HM_EIO and a sentence that names the file (read before the
 * recorder is freed: the sanitizer build runs this test). Events written
 * at close are counted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <harmonia/timer.h>
#include <harmonia/trace.h>

#include "testutil.h"

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
    rmdir(dir);
    hm_timer_free(timer);
    return hm_test_finish();
}
