# The compute kernel of the overlap layer [Denis et al. 2022, §5.1]: one
# OpenMP thread per core, each calling a sequential dgemm through CBLAS.
# OpenMP and OpenBLAS (Debian: libopenblas-dev, pkg-config module openblas)
# are required. Whether this OpenBLAS has openblas_set_num_threads (one BLAS
# thread per call, see src/overlap/compute_kernel.c) and openblas_get_config
# (its build, for reports) is decided here, once.
find_package(OpenMP REQUIRED COMPONENTS C)
pkg_check_modules(OPENBLAS REQUIRED IMPORTED_TARGET openblas)
include(CheckSymbolExists)
include(CMakePushCheckState)
cmake_push_check_state(RESET)
set(CMAKE_REQUIRED_LIBRARIES PkgConfig::OPENBLAS)
set(CMAKE_REQUIRED_QUIET ON)
check_symbol_exists(openblas_set_num_threads "cblas.h" HM_HAVE_OPENBLAS_SET_NUM_THREADS)
check_symbol_exists(openblas_get_config "cblas.h" HM_HAVE_OPENBLAS_GET_CONFIG)
cmake_pop_check_state()
message(STATUS "harmonia: OpenBLAS ${OPENBLAS_VERSION}, openblas_set_num_threads: "
               "${HM_HAVE_OPENBLAS_SET_NUM_THREADS}")
set(HM_COMPUTE_DEFINITIONS)
foreach(have HM_HAVE_OPENBLAS_SET_NUM_THREADS HM_HAVE_OPENBLAS_GET_CONFIG)
    if(${have})
        list(APPEND HM_COMPUTE_DEFINITIONS ${have})
    endif()
endforeach()

# hm_compute_kernel_attach(TARGET): what compiling src/overlap/compute_kernel.c
# into TARGET needs (the library's objects and harmonia-compute).
function(hm_compute_kernel_attach target)
    target_compile_definitions(${target} PRIVATE ${HM_COMPUTE_DEFINITIONS})
    target_link_libraries(${target} PRIVATE OpenMP::OpenMP_C PkgConfig::OPENBLAS
                          PkgConfig::HWLOC m)
endfunction()
