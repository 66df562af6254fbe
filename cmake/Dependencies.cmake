# The third-party libraries, as targets sandbench::<name>.
#
# With SANDBENCH_STATIC_DEPENDENCIES (the default) each links from the static archive its Debian -dev package
# ships, and fmt's compiled part is built here (core/util/fmt_library.cpp). The command line starts once per
# command: with libc and libm the only shared libraries left to load (and libstdc++ linked in, see
# sandbench_static_runtime), each command is spared the dynamic loader's relocations, about 1 ms
# (bench/README.md). Where an archive is missing, the shared library is used.

option(SANDBENCH_STATIC_DEPENDENCIES "Link third-party libraries from their static archives" ON)

find_package(PkgConfig QUIET)
sandbench_require(PKG_CONFIG_FOUND pkg-config)
pkg_check_modules(SECCOMP QUIET IMPORTED_TARGET libseccomp)
sandbench_require(SECCOMP_FOUND libseccomp-dev)
# SHA-256 (core/util/hash.h)
pkg_check_modules(NETTLE QUIET IMPORTED_TARGET nettle)
sandbench_require(NETTLE_FOUND nettle-dev)
pkg_check_modules(RE2 QUIET IMPORTED_TARGET re2)
sandbench_require(RE2_FOUND libre2-dev)
pkg_check_modules(ZSTD QUIET IMPORTED_TARGET libzstd)
sandbench_require(ZSTD_FOUND libzstd-dev)
find_package(SQLite3 QUIET)
sandbench_require(SQLite3_FOUND libsqlite3-dev)
find_package(nlohmann_json 3.10 QUIET)
sandbench_require(nlohmann_json_FOUND nlohmann-json3-dev)
find_package(yaml-cpp QUIET)
sandbench_require(yaml-cpp_FOUND libyaml-cpp-dev)
find_package(fmt QUIET)
sandbench_require(fmt_FOUND libfmt-dev)
find_package(CLI11 CONFIG QUIET)
sandbench_require(CLI11_FOUND libcli11-dev)
find_package(Threads REQUIRED)

# sandbench_dependency(NAME SHARED_TARGET ARCHIVE [what the archive needs besides...])
function(sandbench_dependency name shared archive)
  add_library(sandbench::${name} INTERFACE IMPORTED GLOBAL)
  if(SANDBENCH_STATIC_DEPENDENCIES)
    find_library(SANDBENCH_${name}_ARCHIVE NAMES ${archive})
  endif()
  if(SANDBENCH_STATIC_DEPENDENCIES AND SANDBENCH_${name}_ARCHIVE)
    target_include_directories(sandbench::${name} SYSTEM INTERFACE
                               $<TARGET_PROPERTY:${shared},INTERFACE_INCLUDE_DIRECTORIES>)
    target_link_libraries(sandbench::${name} INTERFACE ${SANDBENCH_${name}_ARCHIVE} ${ARGN})
  else()
    target_link_libraries(sandbench::${name} INTERFACE ${shared})
  endif()
endfunction()

sandbench_dependency(seccomp PkgConfig::SECCOMP libseccomp.a)
sandbench_dependency(nettle PkgConfig::NETTLE libnettle.a)
sandbench_dependency(re2 PkgConfig::RE2 libre2.a Threads::Threads)
sandbench_dependency(zstd PkgConfig::ZSTD libzstd.a)
sandbench_dependency(sqlite3 SQLite::SQLite3 libsqlite3.a m ${CMAKE_DL_LIBS} Threads::Threads)
sandbench_dependency(yaml-cpp yaml-cpp libyaml-cpp.a)

# fmt: Debian ships no archive, and libfmt.so would load libstdc++.so with it.
add_library(sandbench::fmt INTERFACE IMPORTED GLOBAL)
if(SANDBENCH_STATIC_DEPENDENCIES)
  add_library(sandbench_fmt STATIC ${PROJECT_SOURCE_DIR}/core/util/fmt_library.cpp)
  target_include_directories(sandbench_fmt SYSTEM PUBLIC $<TARGET_PROPERTY:fmt::fmt,INTERFACE_INCLUDE_DIRECTORIES>)
  target_link_libraries(sandbench::fmt INTERFACE sandbench_fmt)
else()
  target_link_libraries(sandbench::fmt INTERFACE fmt::fmt)
endif()

# sandbench_static_runtime(TARGET): links the C++ runtime into an executable that starts often (the command
# line, the launcher) and uses no Qt. Not in sanitizer builds, whose runtimes expect the shared one.
function(sandbench_static_runtime target)
  if(SANDBENCH_STATIC_DEPENDENCIES AND NOT CMAKE_CXX_FLAGS MATCHES "sanitize")
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
  endif()
endfunction()
