# A build for SimGrid's SMPI (docs/scale.md): -DHARMONIA_SMPI=ON with
# CMAKE_C_COMPILER=smpicc (what `make build MPI=smpi` passes). The harmonia
# program is then an SMPI program: smpirun runs thousands of simulated ranks
# of it in one process, and SMPI's dlopen privatization gives each rank its
# own copy of the program, the static library included. Only the program
# is built: the shared library, the tracer (LD_PRELOAD), harmonia-compute,
# the tests, examples and benchmarks of a real MPI are not. GPU and OTF2
# support are off. Sets HM_SMPI (0 or 1).
option(HARMONIA_SMPI "Build for SimGrid SMPI (compiler smpicc)" OFF)
set(HM_SMPI 0)
if(HARMONIA_SMPI)
    include(CheckCSourceCompiles)
    check_c_source_compiles("#include <smpi/smpi.h>
#include <simgrid/version.h>
int main(void) { return SIMGRID_VERSION_MAJOR < 3; }" HM_SMPI_HEADERS)
    get_filename_component(_hm_cc ${CMAKE_C_COMPILER} NAME)
    if(NOT HM_SMPI_HEADERS OR NOT _hm_cc MATCHES "^smpicc")
        set(HM_SMPI_COMPILER OFF)
    else()
        set(HM_SMPI_COMPILER ON)
    endif()
    if(NOT HM_SMPI_COMPILER)
        message(FATAL_ERROR "harmonia: HARMONIA_SMPI=ON needs SimGrid (libsimgrid-dev) and "
                            "CMAKE_C_COMPILER=smpicc, not ${CMAKE_C_COMPILER}")
    endif()
    set(HM_SMPI 1)
    set(HARMONIA_CUDA off CACHE STRING "GPU support: auto, on or off" FORCE)
    set(HARMONIA_OTF2 off CACHE STRING "OTF2 trace output: auto, on, off" FORCE)
    set(HARMONIA_TESTS OFF CACHE BOOL "Build the tests" FORCE)
endif()
message(STATUS "harmonia: SMPI ${HM_SMPI}")
