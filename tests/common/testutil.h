/* tests/common/testutil.h — assertions that say what was checked and the
 * value measured; MPI tests fail when any rank fails. */
#ifndef HM_TESTUTIL_H
#define HM_TESTUTIL_H
#include <mpi.h>

#include <harmonia/experiment.h>

/* Record one check. fmt describes what was checked, with the measured value;
 * it is printed as "ok" or "FAIL" with the rank (when MPI is up). */
#define HM_CHECK(cond, ...) hm_test_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

void hm_test_check(int ok, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Print a note (context, measured values) prefixed with the rank. */
void hm_test_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Number of failed checks on this process so far. */
int hm_test_failures(void);

/* Collective: sums failures over comm; rank 0 prints the total. Returns the
 * exit status for main (0 when every rank passed). */
int hm_test_finish_mpi(MPI_Comm comm);

/* The exit status of a skipped test: CTest reports it as skipped, never
 * passed (SKIP_RETURN_CODE, cmake/HarmoniaTesting.cmake). */
enum { HM_TEST_SKIPPED = 77 };

/* Collective over comm: 1 when some rank cannot run the test (cannot != 0
 * there), after rank 0 printed "skipped: " and the lowest such rank's why.
 * The caller then finalizes MPI and returns HM_TEST_SKIPPED. */
int hm_test_skip_if(MPI_Comm comm, int cannot, const char *why);

/* Non-MPI tests: print the total and return the exit status. */
int hm_test_finish(void);

/* Both finishes, when a check failed and HM_TEST_PRECISION=1 (CTest sets it
 * on the tests labelled precision), print what else ran on the machine, so
 * that a missed bound is read beside the load that may explain it:
 *
 *   interference: load average 3.95 (1 min), 4 running of 2 processors,
 *   other processes used 1.9 of 2 cores over 0.2 s (/proc/stat)
 *
 * (one line): /proc/loadavg read then, and /proc/stat sampled 0.2 s apart,
 * less the CPU the test's own processes used meanwhile (getrusage; under
 * MPI every rank sleeps through the window and the ranks' CPU is summed).
 * This prints that line now, for this process alone. */
void hm_test_print_interference(void);

/* Collective: a functional bound on a clock's error that holds on a busy
 * machine. quiet_s where nothing competes; else the larger of quiet_s and
 * twice the longest time a rank was off its processor during a 50 ms probe
 * (hm_interference_measure). A ping-pong that spans such an absence is off
 * by up to its length, and under two CPU-bound neighbours every ping-pong of
 * an offset may span one (netgauge was 1.47 ms off there, CI at load 3.3);
 * the probe samples the absences, so the doubling covers a longer one met
 * later. A test that uses it must inject offsets far beyond it (1 s), so
 * that it still tells a synchronized clock from a raw one. */
double hm_test_clock_bound_s(MPI_Comm comm, double quiet_s);

/* Collective barrier that sleeps while it waits (MPI_Ibarrier + MPI_Test +
 * nanosleep): ranks not taking part in a measurement leave the cores to the
 * ones that do, even under MPICH's busy-polling when oversubscribed. */
void hm_test_idle_barrier(MPI_Comm comm);

/* dir/name, in one of 8 buffers used in turn (valid for the next 7 calls),
 * for tests that work in a directory of their own. */
const char *hm_test_path(const char *dir, const char *name);

/* Write text to dir/name (created or truncated) and return its path (as
 * hm_test_path); a file that cannot be written shows in the checks that
 * read it. */
const char *hm_test_write_file(const char *dir, const char *name, const char *text);

/* 1 when dir's file system makes unnamed files (O_TMPFILE), as atomic
 * files use for their temporaries: none of them then shows in dir. */
int hm_test_unnamed_files(const char *dir);

/* Functional tests that check what the repetitions hold (bytes, counts,
 * files), not when the ranks started: hm_experiment_params_default with a
 * given late-start tolerance of HM_TEST_FUNCTIONAL_LATE_S. On an
 * oversubscribed or busy machine hm_procsync_fit would derive one capped
 * at half the run-time (issue 27: "valid" must mean a start within the
 * operation's own scale), and microsecond operations there start later
 * than that nearly every time: a run would end at its attempts with few
 * valid, although nothing it checks went wrong. Timing validity is tested
 * where it is the subject (tests/procsync, tests/measure's precision
 * runs). */
void hm_test_functional_experiment(hm_experiment_params_t *p);

/* 0.2 s: far beyond any scheduler slice or wake-up seen with two busy
 * loops beside 4 ranks on 2 cores (the longest probe gaps were 4-12 ms). */
#define HM_TEST_FUNCTIONAL_LATE_S 0.2

/* |a - b| <= tol */
int hm_test_near(double a, double b, double tol);

/* MPI_Grequest_start with callbacks that do nothing (an empty status, no
 * cancellation): a request the test completes itself with
 * MPI_Grequest_complete, at a time it chooses. */
int hm_test_grequest_start(MPI_Request *req);
#endif
