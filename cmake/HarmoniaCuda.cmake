# GPU support, chosen at configure time: -DHARMONIA_CUDA=auto (default:
# with CUDA when the toolkit is found), on (fail without it), off. NCCL,
# Debian's (libnccl-dev) or the toolkit's, comes with it when found; `on`
# warns when it is missing (the nccl backend and operations then say so).
# Only the CUDA runtime's C API and NCCL's are used: no kernel, no nvcc.
#
# Sets HM_HAVE_CUDA and HM_HAVE_NCCL (0 or 1), compiled into the gpu,
# ops and pattern layers, and hm_cuda_attach(TARGET [PUBLIC|PRIVATE]).
set(HARMONIA_CUDA auto CACHE STRING "GPU support: auto, on or off")
set_property(CACHE HARMONIA_CUDA PROPERTY STRINGS auto on off)
if(NOT HARMONIA_CUDA MATCHES "^(auto|on|off)$")
    message(FATAL_ERROR "HARMONIA_CUDA=${HARMONIA_CUDA}: give auto, on or off")
endif()

set(HM_HAVE_CUDA 0)
set(HM_HAVE_NCCL 0)
if(NOT HARMONIA_CUDA STREQUAL off)
    # The NVIDIA installers put the toolkit in /usr/local/cuda, outside PATH.
    if(NOT CUDAToolkit_ROOT AND NOT DEFINED ENV{CUDAToolkit_ROOT} AND EXISTS /usr/local/cuda)
        set(CUDAToolkit_ROOT /usr/local/cuda)
    endif()
    find_package(CUDAToolkit QUIET)
    if(CUDAToolkit_FOUND)
        set(HM_HAVE_CUDA 1)
        find_path(HM_NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
        find_library(HM_NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR})
        if(HM_NCCL_INCLUDE_DIR AND HM_NCCL_LIBRARY)
            set(HM_HAVE_NCCL 1)
        elseif(HARMONIA_CUDA STREQUAL on)
            message(WARNING "harmonia: HARMONIA_CUDA=on: NCCL not found (nccl.h, libnccl): "
                            "no nccl backend")
        endif()
    elseif(HARMONIA_CUDA STREQUAL on)
        message(FATAL_ERROR "harmonia: HARMONIA_CUDA=on but no CUDA toolkit was found "
                            "(set CUDAToolkit_ROOT, or configure with -DHARMONIA_CUDA=off)")
    endif()
endif()
message(STATUS "harmonia: CUDA ${HM_HAVE_CUDA} (${CUDAToolkit_VERSION}), NCCL ${HM_HAVE_NCCL}")

# The libraries by their paths, not as imported targets: the installed
# harmonia::static names them in its link interface, where a consumer's
# CMake has no CUDA::cudart (harmonia-config.cmake, harmonia.pc).
set(HM_GPU_LIBRARIES)
set(HM_PC_GPU_LIBS "")
if(HM_HAVE_CUDA)
    list(APPEND HM_GPU_LIBRARIES ${CUDA_cudart_LIBRARY})
    get_filename_component(_hm_cudart_dir ${CUDA_cudart_LIBRARY} DIRECTORY)
    string(APPEND HM_PC_GPU_LIBS " -L${_hm_cudart_dir} -lcudart")
endif()
if(HM_HAVE_NCCL)
    list(APPEND HM_GPU_LIBRARIES ${HM_NCCL_LIBRARY})
    get_filename_component(_hm_nccl_dir ${HM_NCCL_LIBRARY} DIRECTORY)
    string(APPEND HM_PC_GPU_LIBS " -L${_hm_nccl_dir} -lnccl")
endif()

function(hm_cuda_attach target scope)
    target_compile_definitions(${target} ${scope} HM_HAVE_CUDA=${HM_HAVE_CUDA}
                               HM_HAVE_NCCL=${HM_HAVE_NCCL} HM_MPI_CUDA_QUERY=${HM_MPI_CUDA_QUERY}
                               HM_MPI_EXT_H=${HM_MPI_EXT_H})
    if(HM_HAVE_CUDA)
        target_include_directories(${target} SYSTEM ${scope} ${CUDAToolkit_INCLUDE_DIRS})
    endif()
    if(HM_HAVE_NCCL)
        target_include_directories(${target} SYSTEM ${scope} ${HM_NCCL_INCLUDE_DIR})
    endif()
    if(HM_GPU_LIBRARIES)
        target_link_libraries(${target} ${scope} ${HM_GPU_LIBRARIES})
    endif()
endfunction()

# Whether the MPI library can say it is CUDA-aware (MPIX_Query_cuda_support:
# Open MPI declares it in mpi-ext.h, MPICH in mpi.h). Device buffers go to
# MPI only where it answers 1 at run time.
include(CheckSymbolExists)
include(CMakePushCheckState)
cmake_push_check_state(RESET)
set(CMAKE_REQUIRED_LIBRARIES MPI::MPI_C)
set(CMAKE_REQUIRED_QUIET ON)
check_symbol_exists(MPIX_Query_cuda_support "mpi.h;mpi-ext.h" HM_MPI_CUDA_QUERY_EXT)
if(NOT HM_MPI_CUDA_QUERY_EXT)
    check_symbol_exists(MPIX_Query_cuda_support "mpi.h" HM_MPI_CUDA_QUERY_PLAIN)
endif()
cmake_pop_check_state()
set(HM_MPI_CUDA_QUERY 0)
set(HM_MPI_EXT_H 0)
if(HM_MPI_CUDA_QUERY_EXT)
    set(HM_MPI_CUDA_QUERY 1)
    set(HM_MPI_EXT_H 1)
elseif(HM_MPI_CUDA_QUERY_PLAIN)
    set(HM_MPI_CUDA_QUERY 1)
endif()
message(STATUS "harmonia: MPIX_Query_cuda_support ${HM_MPI_CUDA_QUERY}")
