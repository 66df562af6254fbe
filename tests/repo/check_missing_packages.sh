#!/usr/bin/env bash
# A missing build dependency names the Debian package to install (cmake/RequirePackage.cmake), not a CMake
# search report. Configures the project once per case below with one dependency hidden from CMake (each way
# CMake finds one: a Qt component whose CMake files Debian ships apart, a package config file, a pkg-config
# module, a program, a header) and checks that the configure fails naming the package.
#
#   check_missing_packages.sh SOURCE_DIR SCRATCH_DIR
set -euo pipefail
source_dir=${1:?usage: check_missing_packages.sh SOURCE_DIR SCRATCH_DIR}
scratch=${2:?usage: check_missing_packages.sh SOURCE_DIR SCRATCH_DIR}
rm -rf "$scratch"
mkdir -p "$scratch"

# What the hiding of programs below would hide too: the tools CMake itself needs, given by path.
# python3 and gzip write the bash completion and the man pages (packaging/), before the first program hidden.
tools=(-DCMAKE_C_COMPILER=/usr/bin/cc -DCMAKE_CXX_COMPILER=/usr/bin/c++ -DCMAKE_MAKE_PROGRAM="$(command -v ninja)"
  -DPKG_CONFIG_EXECUTABLE="$(command -v pkg-config)" -DPython3_EXECUTABLE="$(command -v python3)"
  -DGZIP="$(command -v gzip)")

# pkg_config_without MODULE: a pkg-config search folder with every module of this machine but MODULE.
pkg_config_without() {
  local dir=$scratch/pkgconfig-without-$1 path pc
  mkdir -p "$dir"
  IFS=: read -ra path <<<"$(pkg-config --variable pc_path pkg-config)"
  for pc in $(find "${path[@]}" -maxdepth 1 -name '*.pc' 2>/dev/null); do
    [[ $(basename "$pc") == "$1.pc" ]] || ln -sf "$pc" "$dir/"
  done
  echo "$dir"
}

failures=0
# expect_package NAME PACKAGE [ENV=VALUE...] -- CMAKE_ARG...: configures with CMAKE_ARGs (under ENV) and checks
# that it fails with "apt-get install PACKAGE".
expect_package() {
  local name=$1 package=$2 env=() log=$scratch/$1.log
  shift 2
  while [[ $1 != -- ]]; do env+=("$1"); shift; done
  shift
  if env "${env[@]}" cmake -S "$source_dir" -B "$scratch/$name" -G Ninja "$@" >"$log" 2>&1; then
    echo "FAIL $name: the configure succeeded with the dependency hidden (see $log)"
    failures=$((failures + 1))
  elif ! tr -s ' \n' '  ' <"$log" | grep -qF "apt-get install $package "; then
    echo "FAIL $name: the configure failed without naming the Debian package '$package':"
    sed -n '/CMake Error/,/^-- Configuring incomplete/p' "$log" | head -20
    failures=$((failures + 1))
  else
    echo "ok   $name: names $package"
  fi
  rm -rf "${scratch:?}/$name"
}

# Charts needs Qt6OpenGL, whose CMake files Debian 12 ships in a package of their own.
expect_package qt-opengl libqt6opengl6-dev -- -DCMAKE_DISABLE_FIND_PACKAGE_Qt6OpenGL=ON
expect_package qt-charts qt6-charts-dev -- -DCMAKE_DISABLE_FIND_PACKAGE_Qt6Charts=ON
expect_package sqlite libsqlite3-dev -- -DCMAKE_DISABLE_FIND_PACKAGE_SQLite3=ON
expect_package gtest "libgtest-dev libgmock-dev" -- -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DSANDBENCH_BUILD_GUI=OFF
expect_package re2 libre2-dev "PKG_CONFIG_LIBDIR=$(pkg_config_without re2)" -- -DSANDBENCH_BUILD_GUI=OFF
# No program in the system's folders: the first one looked for is the desktop file validator (packaging/).
expect_package desktop-file-validate desktop-file-utils -- "${tools[@]}" \
  "-DCMAKE_IGNORE_PATH=/usr/local/sbin;/usr/local/bin;/usr/sbin;/usr/bin;/sbin;/bin"
qt_include=/usr/include/$(gcc -print-multiarch)/qt6
expect_package qscintilla libqscintilla2-qt6-dev -- "-DCMAKE_IGNORE_PATH=$qt_include;$qt_include/QtCore/.."

if ((failures)); then
  echo "$failures case(s) failed"
  exit 1
fi
echo "every hidden dependency is named by its Debian package"
