/* tests/procsync/test_check.c — the registry of --sync and the checks of its
 * parameters (no MPI ranks: hm_procsync_check needs none). Each bad value
 * gets its code and a sentence naming the option as the command line
 * spells it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <harmonia/procsync.h>

#include "testutil.h"

/* text "" (accepted): the check leaves no sentence of its own, the one of an
 * earlier refusal stays the last error. */
static void expect(const char *method, const hm_procsync_params_t *p, int code, const char *text)
{
    char before[256];
    hm_procsync_check(NULL, NULL);
    snprintf(before, sizeof before, "%s", hm_last_error());
    int rc = hm_procsync_check(method, p);
    const char *why = hm_last_error();
    HM_CHECK(rc == code && strcmp(why, text[0] ? text : before) == 0,
             "%s: %d \"%s\" (expected %d \"%s\")", method ? method : "(null)", rc, why, code,
             text[0] ? text : before);
}

static void test_registry(void)
{
    const char *order[] = {"barrier", "dissem", "window", "roundtime", "harmonize"};
    char names[128];
    int same = hm_procsync_count() == 5;
    for (size_t i = 0; same && i < 5; i++) same = strcmp(hm_procsync_name_at(i), order[i]) == 0;
    HM_CHECK(same, "the registry lists barrier, dissem, window, roundtime, harmonize in order");
    HM_CHECK(hm_procsync_name_at(5) == NULL, "no sixth method");
    hm_procsync_names(names, sizeof names);
    HM_CHECK(strcmp(names, "barrier, dissem, window, roundtime, harmonize") == 0, "names: \"%s\"",
             names);
}

static void test_defaults(void)
{
    hm_procsync_params_t p;
    hm_procsync_params_default(&p);
    HM_CHECK(p.late_s == 1e-6 && p.window_s == 0 && p.slice_s == 0 && p.bcast_factor == 3 &&
                 p.check_every == 16 && p.min_lead_s == 0 && p.late_run_factor == 0,
             "defaults: late 1 us, adaptive window, no slice, B = 3, check every 16, no minimum "
             "lead, no run-time on the late-start tolerance");
    for (size_t i = 0; i < hm_procsync_count(); i++) expect(hm_procsync_name_at(i), &p, HM_OK, "");
    expect("window", NULL, HM_OK, "");
}

static void test_errors(void)
{
    hm_procsync_params_t d, p;
    hm_procsync_params_default(&d);
    expect("fence", &d, HM_ENOENT,
           "unknown method \"fence\" (known: barrier, dissem, window, roundtime, harmonize)");
    p = d, p.check_every = 0;
    expect("window", &p, HM_EINVAL, "--check-every 0 must be at least 1");
    p = d, p.late_s = -1e-6;
    expect("window", &p, HM_EINVAL, "--late -1e-06 must be at least 0 (seconds)");
    p = d, p.late_s = NAN;
    expect("window", &p, HM_EINVAL, "--late nan must be at least 0 (seconds)");
    p = d, p.window_s = -0.001;
    expect("window", &p, HM_EINVAL,
           "--window -0.001 must be a finite number of seconds, at least 0 (0 = adaptive)");
    p = d, p.slice_s = -1;
    expect("roundtime", &p, HM_EINVAL,
           "--slice -1 must be a finite number of seconds, at least 0 (0 = no time slice)");
    p = d, p.bcast_factor = 0.5;
    expect("roundtime", &p, HM_EINVAL, "--bcast-factor 0.5 must be a finite number, at least 1");
    p = d, p.min_lead_s = -1e-6;
    expect("roundtime", &p, HM_EINVAL,
           "min_lead_s -1e-06 must be a finite number of seconds, at least 0");
    p = d, p.late_run_factor = NAN;
    expect("harmonize", &p, HM_EINVAL, "late_run_factor nan must be a finite number, at least 0");
}

int main(void)
{
    test_registry();
    test_defaults();
    test_errors();
    return hm_test_finish();
}
