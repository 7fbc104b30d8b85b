# Test helpers. Every MPI test runs under `timeout` (and a CTest TIMEOUT as a
# backstop) so a hang fails the test instead of eating CI's time.
#
# Open MPI needs --oversubscribe beyond the 2 cores of the test machine;
# MPICH does not. Debian's MPICH 4.0.2 (ch4:ucx) busy-polls, so with 4 ranks
# on 2 cores one MPI_Barrier costs ~8 ms: under MPICH, oversubscribed runs
# are registered only for tests marked SMALL.
string(FIND "${MPI_C_LIBRARY_VERSION_STRING}" "Open MPI" _hm_ompi_pos)
if(_hm_ompi_pos GREATER -1)
    set(HM_MPI_FLAVOR openmpi)
else()
    set(HM_MPI_FLAVOR mpich)
endif()
message(STATUS "harmonia: MPI flavor ${HM_MPI_FLAVOR}, launcher ${MPIEXEC_EXECUTABLE}")
find_program(HM_TIMEOUT_PROGRAM timeout REQUIRED)
set(HM_TEST_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)

# Timeouts scale with the machine's load: HM_TEST_TIMEOUT_SCALE (default 1;
# scripts/check-under-load sets 3) multiplies, when the tests run, the
# duration every test gives `timeout` here (HM_TIMEOUT, a wrapper of
# timeout(1) taking -k KILL DURATION COMMAND...), and tests/harmonia/lib.sh
# multiplies the scripts' own. CMake writes the CTest TIMEOUT into the test
# list at configure time, so that backstop is HM_TEST_TIMEOUT_SCALE_MAX times
# what the test asked for (hm_test_directory_end), and the wrapper refuses a
# larger scale rather than let CTest kill first. A hang still ends in the
# wrapper's timeout, at the scaled duration.
set(HM_TEST_TIMEOUT_SCALE_MAX 4)
set(HM_TIMEOUT ${PROJECT_BINARY_DIR}/hm-timeout)
set(HM_CROWDED ${PROJECT_SOURCE_DIR}/tests/common/crowded)
file(WRITE ${HM_TIMEOUT} "#!/bin/sh
timeout_program='${HM_TIMEOUT_PROGRAM}'
max=${HM_TEST_TIMEOUT_SCALE_MAX}
" [=[
# hm-timeout [-k KILL] DURATION COMMAND... — timeout(1) with DURATION (whole
# seconds) multiplied by HM_TEST_TIMEOUT_SCALE (default 1, at most $max) and
# rounded up. Written by cmake/HarmoniaTesting.cmake.
kill=5
if [ "$1" = -k ]; then kill=$2; shift 2; fi
duration=$1
shift
scale=${HM_TEST_TIMEOUT_SCALE:-1}
if ! scaled=$(awk -v d="$duration" -v s="$scale" -v max="$max" 'BEGIN {
        num = "^([0-9]+[.]?[0-9]*|[.][0-9]+)$"
        if (d !~ num || s !~ num || !(s + 0 > 0) || s + 0 > max + 0) exit 1
        x = d * s; printf "%d", (x == int(x)) ? x : int(x) + 1 }'); then
    echo "hm-timeout: HM_TEST_TIMEOUT_SCALE=\"$scale\" is not a number above 0 and at most $max (duration \"$duration\")" >&2
    exit 2
fi
if [ "${HM_TEST_INTERFERENCE_ON_FAIL:-}" != 1 ]; then
    exec "$timeout_program" -k "$kill" "$scaled" "$@"
fi
# HM_TEST_INTERFERENCE_ON_FAIL=1, on a precision test whose program cannot
# say it (no testutil: the examples): a failure is followed by the line of
# hm_test_print_interference (tests/common/testutil.h), measured right after
# the test ended, so none of the CPU it shows is the test's own.
"$timeout_program" -k "$kill" "$scaled" "$@"
rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then
    if read -r load _ _ run _ </proc/loadavg && read -r _ u n s _ _ q sq st _ </proc/stat; then
        b0=$((u + n + s + q + sq + ${st:-0})) t0=$(date +%s.%N)
        sleep 0.2
        read -r _ u n s _ _ q sq st _ </proc/stat
        b1=$((u + n + s + q + sq + ${st:-0})) t1=$(date +%s.%N)
        awk -v load="$load" -v run="${run%%/*}" -v p="$(getconf _NPROCESSORS_ONLN)" \
            -v hz="$(getconf CLK_TCK)" -v b="$((b1 - b0))" -v t0="$t0" -v t1="$t1" 'BEGIN {
            dt = t1 - t0; other = b / hz / dt
            printf "interference: load average %.2f (1 min), %d running of %d processors, other processes used %.1f of %d cores over %.1f s (/proc/stat)\n", load, run, p, other, p, dt }'
    else
        echo "interference: not measured (/proc/loadavg or /proc/stat unreadable)"
    fi
fi
exit "$rc"
]=])
file(CHMOD ${HM_TIMEOUT} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
     GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

# hm_test_directory_end() — run at the end of a test folder's CMakeLists.txt
# (deferred by hm_test_directory, which every hm_add_* calls), after its own
# set_tests_properties: every test's CTest TIMEOUT becomes the backstop of
# the largest HM_TEST_TIMEOUT_SCALE, and every test labelled precision gets
# HM_TEST_PRECISION=1, on which a failing test prints the machine's load
# beside the bound it missed (hm_test_finish, tests/common/testutil.h; and
# finish in tests/harmonia/lib.sh).
function(hm_test_directory_end)
    get_property(tests DIRECTORY PROPERTY TESTS)
    foreach(t IN LISTS tests)
        get_test_property(${t} TIMEOUT old)
        if(old)
            math(EXPR backstop "${old} * ${HM_TEST_TIMEOUT_SCALE_MAX}")
            set_tests_properties(${t} PROPERTIES TIMEOUT ${backstop})
        endif()
        get_test_property(${t} LABELS labels)
        if(precision IN_LIST labels)
            set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT HM_TEST_PRECISION=1)
        endif()
    endforeach()
endfunction()

# hm_test_directory() — defer hm_test_directory_end to the end of the
# calling folder, once.
function(hm_test_directory)
    get_property(done DIRECTORY PROPERTY HM_TEST_DIRECTORY_END)
    if(NOT done)
        set_property(DIRECTORY PROPERTY HM_TEST_DIRECTORY_END 1)
        cmake_language(DEFER CALL hm_test_directory_end)
    endif()
endfunction()

add_library(hm_testutil STATIC ${PROJECT_SOURCE_DIR}/tests/common/testutil.c ${PROJECT_SOURCE_DIR}/tests/common/truth.c)
# Tests of a layer may look inside it: its private headers are under src/.
target_include_directories(hm_testutil PUBLIC ${PROJECT_SOURCE_DIR}/tests/common
                           ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(hm_testutil PUBLIC harmonia_static)
target_compile_definitions(hm_testutil PRIVATE _GNU_SOURCE)

# Every test may end with exit status 77 (HM_TEST_SKIPPED, testutil.h):
# CTest reports it skipped, with the sentence the test printed, e.g. a GPU
# test on a machine without a device.

# hm_add_unit_test(NAME SOURCES... [PRECISION]) — a test without MPI ranks
# (label unit); these are the ones also built with sanitizers. PRECISION: a
# timing assertion against a target (label precision instead of unit, see
# below), so that `make check` retries it once and the sanitizer run, which
# retries nothing, leaves it out.
function(hm_add_unit_test name)
    cmake_parse_arguments(T "PRECISION" "" "" ${ARGN})
    set(label unit)
    if(T_PRECISION)
        set(label precision)
    endif()
    add_executable(${name} ${T_UNPARSED_ARGUMENTS})
    target_compile_definitions(${name} PRIVATE _GNU_SOURCE)
    target_link_libraries(${name} PRIVATE hm_testutil)
    hm_test_directory()
    add_test(NAME ${name} COMMAND ${HM_TIMEOUT} -k 5 120 $<TARGET_FILE:${name}>)
    set_tests_properties(${name} PROPERTIES LABELS ${label} TIMEOUT 150
                         ENVIRONMENT "${HM_TEST_ENV}" SKIP_RETURN_CODE 77)
endfunction()

# hm_add_mpi_executable(NAME SOURCES...)
function(hm_add_mpi_executable name)
    add_executable(${name} ${ARGN})
    target_compile_definitions(${name} PRIVATE _GNU_SOURCE)
    target_link_libraries(${name} PRIVATE hm_testutil)
endfunction()

# hm_mpi_command(OUT NPROCS) — launcher prefix for NPROCS ranks.
function(hm_mpi_command out nprocs)
    set(cmd ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${nprocs} ${MPIEXEC_PREFLAGS})
    if(HM_MPI_FLAVOR STREQUAL openmpi AND nprocs GREATER 2)
        list(APPEND cmd --oversubscribe)
    endif()
    set(${out} ${cmd} PARENT_SCOPE)
endfunction()

# Labels: unit (no MPI ranks; also run with the sanitizers), mpi and npN (an
# MPI test on N ranks), cli (a script driving the program), lint (checks of
# the tree), install, docs, and precision: a test that asserts timing or
# clock accuracy against the truth within microseconds (clock errors after a
# synchronization, exit skew, lateness against a deadline, global run-times
# against the true makespan). On the shared 2-core test machine a neighbour's
# load or, rarely, an unlucky fit can push such a test past its bound, so
# `make check` runs the precision tests once more when they fail (a
# regression fails both times) and reports which needed it
# (scripts/ctest-suite); every other test runs once and must pass, loaded
# machine included (scripts/check-under-load). A precision test gets
# HM_TEST_PRECISION=1 (hm_test_directory_end), so that when it fails it
# prints the load it ran under.

# hm_add_mpi_test(NAME EXE NPROCS n... [SMALL] [PRECISION] [TIMEOUT s] [ARGS a...])
# Registers NAME_npN for each N. A failing rank fails the test (mpirun
# returns non-zero). PRECISION labels every run of this call precision (see
# above): register the functional runs of the same executable (3 and 4
# oversubscribed ranks, loose bounds) in a call of their own.
function(hm_add_mpi_test name exe)
    cmake_parse_arguments(T "SMALL;PRECISION" "TIMEOUT" "NPROCS;ARGS" ${ARGN})
    if(NOT T_TIMEOUT)
        set(T_TIMEOUT 120)
    endif()
    math(EXPR backstop "${T_TIMEOUT} + 30")
    hm_test_directory()
    foreach(n IN LISTS T_NPROCS)
        if(HM_MPI_FLAVOR STREQUAL mpich AND n GREATER 2 AND NOT T_SMALL)
            continue()
        endif()
        hm_mpi_command(launch ${n})
        # tests/common/crowded: a run of more ranks than processors is
        # skipped (77) beside other work, or under HM_TEST_NO_OVERSUBSCRIBE.
        add_test(NAME ${name}_np${n}
                 COMMAND ${HM_CROWDED} --run ${n} ${HM_TIMEOUT} -k 5 ${T_TIMEOUT} ${launch}
                         $<TARGET_FILE:${exe}> ${MPIEXEC_POSTFLAGS} ${T_ARGS})
        set(labels mpi np${n})
        if(T_PRECISION)
            list(APPEND labels precision)
        endif()
        set_tests_properties(${name}_np${n} PROPERTIES LABELS "${labels}"
                             TIMEOUT ${backstop} ENVIRONMENT "${HM_TEST_ENV}"
                             PROCESSORS ${n} SKIP_RETURN_CODE 77)
    endforeach()
endfunction()

# hm_add_script_test(NAME SCRIPT [ARGS...]) — a shell test that drives the
# harmonia program; it gets HARMONIA, MPIEXEC, MPI_FLAVOR in its environment.
function(hm_add_script_test name script)
    hm_test_directory()
    add_test(NAME ${name}
             COMMAND ${HM_TIMEOUT} -k 5 300 bash ${script} ${ARGN})
    set_tests_properties(${name} PROPERTIES LABELS "cli" TIMEOUT 330 SKIP_RETURN_CODE 77
        ENVIRONMENT "${HM_TEST_ENV};HARMONIA=$<TARGET_FILE:harmonia>;MPIEXEC=${MPIEXEC_EXECUTABLE};MPI_FLAVOR=${HM_MPI_FLAVOR};HM_TIMEOUT=${HM_TIMEOUT}")
endfunction()
