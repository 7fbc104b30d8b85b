# Install the library, headers, program, a pkg-config file and a CMake
# package so that other projects can find_package(harmonia).
include(CMakePackageConfigHelpers)
# The program is exported as harmonia::program, harmonia-compute as
# harmonia::compute; harmonia::harmonia is the shared library (defined in
# harmonia-config.cmake).
set_target_properties(harmonia PROPERTIES EXPORT_NAME program)
set_target_properties(harmonia-compute PROPERTIES EXPORT_NAME compute)
# The installed program finds the libharmonia.so installed with it, relative
# to itself (the tree can move), without LD_LIBRARY_PATH; in the build tree
# CMake's build RPATH finds the one built beside it.
file(RELATIVE_PATH HM_BIN_TO_LIB ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})
set_target_properties(harmonia PROPERTIES INSTALL_RPATH "\$ORIGIN/${HM_BIN_TO_LIB}")
install(TARGETS harmonia_trace LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS harmonia_shared harmonia_static harmonia harmonia-compute
        EXPORT harmoniaTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# testing.h holds test hooks: not part of the installed interface.
install(DIRECTORY include/harmonia DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        PATTERN testing.h EXCLUDE)
set(HM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/harmonia)
install(EXPORT harmoniaTargets NAMESPACE harmonia:: DESTINATION ${HM_CMAKE_DIR})
configure_package_config_file(cmake/harmonia-config.cmake.in
    ${PROJECT_BINARY_DIR}/harmonia-config.cmake INSTALL_DESTINATION ${HM_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/harmonia-config-version.cmake
    COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/harmonia-config.cmake
              ${PROJECT_BINARY_DIR}/harmonia-config-version.cmake
        DESTINATION ${HM_CMAKE_DIR})
# harmonia.pc lives in LIBDIR/pkgconfig: one "/.." per component of LIBDIR
# leads back to the prefix, wherever the tree is installed.
string(REGEX REPLACE "[^/]+" ".." HM_PC_UP "/${CMAKE_INSTALL_LIBDIR}")
configure_file(cmake/harmonia.pc.in ${PROJECT_BINARY_DIR}/harmonia.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/harmonia.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
