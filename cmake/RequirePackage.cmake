# sandbench_require(FOUND_VARIABLE DEBIAN_PACKAGE...): stops the configure when FOUND_VARIABLE is false, naming
# the Debian package(s) to install, so that a missing dependency reads as what to do rather than as a CMake
# search report. FOUND_VARIABLE is the result of the find_package, pkg_check_modules, find_program, find_path
# or find_library just before, called without REQUIRED (and with QUIET where it takes it, which keeps CMake's
# own report out of the way). scripts/run and scripts/test install these packages (the lists in
# scripts/common.sh; tests/repo/check_package_lists.sh checks that each package named here is in one).
#
#   find_package(SQLite3 QUIET)
#   sandbench_require(SQLite3_FOUND libsqlite3-dev)
function(sandbench_require found_variable)
  if(NOT ${found_variable})
    list(JOIN ARGN " " packages)
    string(REGEX REPLACE "_FOUND$" "" what "${found_variable}")
    message(FATAL_ERROR "Not found: ${what}, which Sandbench needs to build.\n"
                        "Install the Debian package that provides it:\n"
                        "  apt-get install ${packages}\n"
                        "(scripts/run and scripts/test install what they need themselves.)")
  endif()
endfunction()

# sandbench_require_qt(VERSION COMPONENT...): find_package(Qt6 VERSION COMPONENTS ...), then sandbench_require
# for each component in the order given, with the Debian package that ships its CMake files. List a component
# before those that depend on it (OpenGL before Charts), so that the message names the package really missing.
# A macro, so that what find_package sets (Qt6Core_INCLUDE_DIRS, ...) lands in the caller's scope.
macro(sandbench_require_qt version)
  find_package(Qt6 ${version} QUIET COMPONENTS ${ARGN})
  foreach(_sandbench_qt_component IN ITEMS ${ARGN})
    sandbench_qt_debian_packages(${_sandbench_qt_component} _sandbench_qt_packages)
    sandbench_require(Qt6${_sandbench_qt_component}_FOUND ${_sandbench_qt_packages})
  endforeach()
  sandbench_require(Qt6_FOUND qt6-base-dev) # what the components do not explain (a Qt older than VERSION)
  unset(_sandbench_qt_component)
  unset(_sandbench_qt_packages)
endmacro()

# sandbench_qt_debian_packages(COMPONENT OUT_VAR): the Debian 12 package(s) that ship Qt6<COMPONENT>'s CMake files.
function(sandbench_qt_debian_packages component out_var)
  if(component MATCHES "^(Core|Gui|Widgets|Concurrent|OpenGLWidgets|Test)$")
    set(${out_var} qt6-base-dev PARENT_SCOPE)
  elseif(component STREQUAL "OpenGL")
    set(${out_var} libqt6opengl6-dev PARENT_SCOPE) # not in qt6-base-dev, and qt6-charts-dev does not pull it in
  elseif(component STREQUAL "Charts")
    set(${out_var} qt6-charts-dev PARENT_SCOPE)
  elseif(component STREQUAL "LinguistTools")
    set(${out_var} qt6-tools-dev qt6-l10n-tools PARENT_SCOPE) # the CMake files, and the lrelease they point to
  else()
    message(FATAL_ERROR "sandbench_qt_debian_packages: no Debian package known for Qt6${component}: add it here")
  endif()
endfunction()
