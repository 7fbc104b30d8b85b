# Facts about this build that every result file records (design: Output).
string(TOUPPER "${CMAKE_BUILD_TYPE}" _hm_bt)
set(HM_BUILD_CFLAGS "${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_${_hm_bt}}")
string(STRIP "${HM_BUILD_CFLAGS}" HM_BUILD_CFLAGS)
set(HM_BUILD_COMPILER "${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}")
set(HM_BUILD_VERSION "${PROJECT_VERSION}")
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS ${PROJECT_SOURCE_DIR}/.git)
    execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty
                    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                    OUTPUT_VARIABLE _hm_git OUTPUT_STRIP_TRAILING_WHITESPACE
                    ERROR_QUIET RESULT_VARIABLE _hm_git_rc)
    if(_hm_git_rc EQUAL 0 AND _hm_git)
        set(HM_BUILD_VERSION "${PROJECT_VERSION}+g${_hm_git}")
    endif()
endif()
configure_file(${PROJECT_SOURCE_DIR}/src/common/build_info.h.in
               ${PROJECT_BINARY_DIR}/generated/hm_build_info.h @ONLY)
