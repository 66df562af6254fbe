#!/usr/bin/env bash
# Every Debian package a configure error names (cmake/RequirePackage.cmake) is one that the scripts install
# (scripts/common.sh): the packages named outside tests/ and packaging/ in the run-time list, which scripts/run
# installs; those of the tests and the packaging checks in the run-time or the test list.
#
#   check_package_lists.sh SOURCE_DIR
set -euo pipefail
source_dir=${1:?usage: check_package_lists.sh SOURCE_DIR}
source "$source_dir/scripts/common.sh"

# named_packages FILE...: "FILE PACKAGE" for each package named in a sandbench_require or in the Qt table.
named_packages() {
  sed -nE -e 's/^ *sandbench_require\([^ )]+ ([^)]*)\).*/\1/p' \
    -e 's/^ *set\(\$\{out_var\} (.*) PARENT_SCOPE\).*/\1/p' "$1" | tr ' ' '\n' | sed "/^$/d; /^\\\$/d; s|^|$1 |" # not ${variables}
}

in_list() {
  local wanted=$1 pkg
  shift
  for pkg in "$@"; do [[ $pkg == "$wanted" ]] && return 0; done
  return 1
}

cd "$source_dir"
failures=0 checked=0
while read -r file package; do
  checked=$((checked + 1))
  case $file in
    tests/* | packaging/*)
      in_list "$package" "${SANDBENCH_PACKAGES[@]}" "${SANDBENCH_TEST_PACKAGES[@]}" && continue
      echo "FAIL $file names $package, which neither SANDBENCH_PACKAGES nor SANDBENCH_TEST_PACKAGES lists" ;;
    *)
      in_list "$package" "${SANDBENCH_PACKAGES[@]}" && continue
      echo "FAIL $file names $package, which SANDBENCH_PACKAGES (what scripts/run installs) does not list" ;;
  esac
  failures=$((failures + 1))
done < <(find . \( -path ./build -o -name node_modules -o -name .git \) -prune -o \
  \( -name CMakeLists.txt -o -name '*.cmake' \) -type f -printf '%P\n' | sort | while read -r f; do named_packages "$f"; done)
((checked > 0)) || { echo "FAIL no package named in any sandbench_require: the pattern above is out of date"; exit 1; }
((failures == 0)) || exit 1
echo "the $checked packages named by configure errors are all in scripts/common.sh's lists"
