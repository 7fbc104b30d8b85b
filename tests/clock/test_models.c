/* tests/clock/test_models.c — identity, offset and linear models, nesting,
 * reading through a chain, accessors, describe and reference counting.
 *
 * Tolerances: the library applies t - (slope * t + intercept) per layer; the
 * reference values below are computed with the same formula written out in
 * long double, so the only difference is double rounding: a few ulps,
 * ~1e-16 relative. 1e-12 relative leaves 4 orders of magnitude while any
 * mistake in the formula or the order of the layers is >= 1e-6 relative for
 * the models used. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <harmonia/clock.h>

#include "testutil.h"

static long double apply_by_hand(hm_lm_t lm, long double t)
{
    return t - ((long double)lm.slope * t + (long double)lm.intercept);
}

static double rel_err(double got, long double want)
{
    return (double)(fabsl((long double)got - want) / fmaxl(fabsl(want), 1e-300L));
}

static void test_lm_apply(void)
{
    static const hm_lm_t lms[] = {{0, 0}, {0, 0.25}, {1e-4, -3.5}, {-7e-5, 1e3}, {2e-6, 1e-6}};
    static const double ts[] = {1e-3, 1.0, 17.25, 1234.5, 1e5};
    double worst = 0;
    for (size_t i = 0; i < sizeof lms / sizeof lms[0]; i++)
        for (size_t j = 0; j < sizeof ts / sizeof ts[0]; j++)
            worst = fmax(worst, rel_err(hm_lm_apply(lms[i], ts[j]), apply_by_hand(lms[i], ts[j])));
    HM_CHECK(worst <= 1e-12, "hm_lm_apply equals t - (s t + i): worst relative error %.3g", worst);
}

static void test_single_models(hm_timer_t *timer)
{
    hm_clock_t *id, *off, *lin;
    hm_lm_t lm = {3e-5, 0.125};
    HM_CHECK(hm_clock_identity(timer, &id) == HM_OK, "identity clock created");
    HM_CHECK(hm_clock_model(id, HM_CLOCK_OFFSET, lm, &off) == HM_OK, "offset model created");
    HM_CHECK(hm_clock_model(id, HM_CLOCK_LINEAR, lm, &lin) == HM_OK, "linear model created");
    double t = 42.5;
    HM_CHECK(hm_clock_from_local(id, t) == t, "identity reads the local time: %.17g", t);
    double got = hm_clock_from_local(off, t);
    HM_CHECK(rel_err(got, (long double)t - 0.125L) <= 1e-12,
             "offset model ignores the slope: %.17g, want %.17g", got, t - 0.125);
    got = hm_clock_from_local(lin, t);
    HM_CHECK(rel_err(got, apply_by_hand(lm, t)) <= 1e-12, "linear model: %.17g, want %.17Lg", got,
             apply_by_hand(lm, t));
    HM_CHECK(hm_clock_kind(id) == HM_CLOCK_IDENTITY && hm_clock_kind(off) == HM_CLOCK_OFFSET &&
                 hm_clock_kind(lin) == HM_CLOCK_LINEAR,
             "kinds: %d %d %d", hm_clock_kind(id), hm_clock_kind(off), hm_clock_kind(lin));
    hm_lm_t l_id = hm_clock_lm(id), l_off = hm_clock_lm(off), l_lin = hm_clock_lm(lin);
    HM_CHECK(l_id.slope == 0 && l_id.intercept == 0, "identity's model is {0, 0}");
    HM_CHECK(l_off.slope == 0 && l_off.intercept == 0.125, "offset's model {%g, %g}", l_off.slope,
             l_off.intercept);
    HM_CHECK(l_lin.slope == lm.slope && l_lin.intercept == lm.intercept, "linear's model kept");
    HM_CHECK(hm_clock_base(id) == NULL && hm_clock_base(lin) == id, "bases: identity has none");
    HM_CHECK(hm_clock_depth(id) == 0 && hm_clock_depth(off) == 1, "depths %d %d",
             hm_clock_depth(id), hm_clock_depth(off));
    HM_CHECK(hm_clock_timer(lin) == timer && hm_clock_timer(id) == timer, "timer at the bottom");
    hm_clock_free(off);
    hm_clock_free(lin);
    hm_clock_free(id);
}

static void test_refused(hm_timer_t *timer)
{
    hm_clock_t *id, *c = NULL;
    hm_clock_identity(timer, &id);
    HM_CHECK(hm_clock_model(id, HM_CLOCK_IDENTITY, (hm_lm_t){0, 0}, &c) == HM_EINVAL && !c,
             "HM_CLOCK_IDENTITY is not a model: HM_EINVAL");
    HM_CHECK(hm_clock_model(id, (hm_clock_kind_t)7, (hm_lm_t){0, 0}, &c) == HM_EINVAL,
             "unknown kind: HM_EINVAL");
    HM_CHECK(hm_clock_model(id, HM_CLOCK_LINEAR, (hm_lm_t){NAN, 0}, &c) == HM_EINVAL,
             "NaN slope: HM_EINVAL");
    HM_CHECK(hm_clock_model(id, HM_CLOCK_OFFSET, (hm_lm_t){0, INFINITY}, &c) == HM_EINVAL,
             "infinite intercept: HM_EINVAL");
    HM_CHECK(hm_clock_model(NULL, HM_CLOCK_OFFSET, (hm_lm_t){0, 1}, &c) == HM_EINVAL,
             "no base: HM_EINVAL");
    HM_CHECK(hm_clock_identity(NULL, &c) == HM_EINVAL, "identity without a timer: HM_EINVAL");
    hm_clock_free(id);
}

/* identity <- linear l1 <- offset l2 <- linear l3, innermost first. */
static void test_nested(hm_timer_t *timer)
{
    hm_lm_t l1 = {1e-4, 0.75}, l2 = {0, -0.5}, l3 = {-4e-5, 2e-3};
    hm_clock_t *id, *c1, *c2, *c3;
    hm_clock_identity(timer, &id);
    hm_clock_model(id, HM_CLOCK_LINEAR, l1, &c1);
    hm_clock_model(c1, HM_CLOCK_OFFSET, l2, &c2);
    hm_clock_model(c2, HM_CLOCK_LINEAR, l3, &c3);
    HM_CHECK(hm_clock_depth(c3) == 3 && hm_clock_base(c3) == c2 && hm_clock_base(c2) == c1,
             "chain of depth %d linked top to bottom", hm_clock_depth(c3));
    double worst = 0;
    for (double t = 0.5; t < 2e5; t *= 3.7) {
        long double want = apply_by_hand(l3, apply_by_hand(l2, apply_by_hand(l1, t)));
        worst = fmax(worst, rel_err(hm_clock_from_local(c3, t), want));
    }
    HM_CHECK(worst <= 1e-12, "3 layers equal the manual composition: worst relative error %.3g",
             worst);

    /* hm_clock_now reads the timer once and converts: bracketed by two
     * conversions of timer reads taken before and after (the chain is
     * increasing: every slope is far below 1). */
    double before = hm_clock_from_local(c3, hm_timer_now(timer));
    double now = hm_clock_now(c3);
    double after = hm_clock_from_local(c3, hm_timer_now(timer));
    HM_CHECK(before <= now && now <= after, "hm_clock_now within [%.9f, %.9f]: %.9f", before, after,
             now);
    /* For a real timer the truth is the reading itself. */
    double truth, read = hm_clock_now_truth(c3, &truth);
    HM_CHECK(read == hm_clock_from_local(c3, truth),
             "hm_clock_now_truth's reading is from_local(truth): %.17g", read);

    char line[256];
    hm_clock_describe(c3, line, sizeof line);
    const char *head = "linear(s=-4e-05,i=0.002) <- offset(i=-0.5) <- linear(";
    HM_CHECK(strncmp(line, head, strlen(head)) == 0 && strstr(line, "<- monotonic") != NULL,
             "describe, outermost first: \"%s\"", line);
    char small[12];
    hm_clock_describe(c3, small, sizeof small);
    HM_CHECK(strlen(small) == sizeof small - 1, "describe truncates safely: \"%s\"", small);

    /* Only c3 is kept: the chain below lives through c3's references. */
    hm_clock_free(c2);
    hm_clock_free(c1);
    hm_clock_free(id);
    double again = hm_clock_from_local(c3, 10.0);
    long double want = apply_by_hand(l3, apply_by_hand(l2, apply_by_hand(l1, 10.0)));
    HM_CHECK(rel_err(again, want) <= 1e-12,
             "after releasing the lower layers the top still reads %.17g", again);
    hm_clock_retain(c3);
    hm_clock_free(c3);
    HM_CHECK(hm_clock_depth(c3) == 3, "one retain + one free keeps the clock alive");
    hm_clock_free(c3); /* last reference: frees the chain (LeakSanitizer checks) */

    /* NULL is accepted as free(NULL) is: in a child process, so that a crash
     * is this check failing rather than the test dying without a word. */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        hm_clock_retain(NULL);
        hm_clock_free(NULL);
        _exit(hm_clock_depth(NULL) == 0 ? 0 : 3);
    }
    int wst = -1;
    int waited = pid > 0 && waitpid(pid, &wst, 0) == pid;
    HM_CHECK(waited && WIFEXITED(wst) && WEXITSTATUS(wst) == 0,
             "retain(NULL) and free(NULL) return, depth(NULL) is 0 (child: %s %d)",
             !waited            ? "not run"
             : WIFSIGNALED(wst) ? "signal"
                                : "exit",
             !waited            ? -1
             : WIFSIGNALED(wst) ? WTERMSIG(wst)
                                : WEXITSTATUS(wst));
}

int main(void)
{
    hm_timer_t *timer = NULL;
    int rc = hm_timer_create("monotonic", NULL, &timer);
    HM_CHECK(rc == HM_OK, "monotonic timer created: %s", hm_strerror(rc));
    if (rc != HM_OK) return hm_test_finish();
    test_lm_apply();
    test_single_models(timer);
    test_refused(timer);
    test_nested(timer);
    hm_timer_free(timer);
    return hm_test_finish();
}
