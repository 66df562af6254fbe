#!/usr/bin/env bash
# Fails when a file under core/ includes a Qt header or names a Qt target: core must stay Qt-free.
set -euo pipefail
core=${1:?usage: check_core_qt_free.sh CORE_DIR}
hits=$(grep -rnE '^\s*#\s*include\s*[<"](Q[A-Za-z]+|Qt[A-Za-z]*/)' "$core" || true)
cmake_hits=$(grep -rnE 'Qt[56]?::|find_package\(Qt' "$core" --include=CMakeLists.txt --include='*.cmake' || true)
if [[ -n "$hits$cmake_hits" ]]; then
  echo "core/ must not use Qt:" >&2
  printf '%s\n' "$hits" "$cmake_hits" | sed '/^$/d' >&2
  exit 1
fi
echo "core/ is Qt-free ($(find "$core" -name '*.h' -o -name '*.cpp' | wc -l) files checked)"
