#!/usr/bin/env bash
# tests/check_layers.py, the layer check, on copies of the tree: it passes on the tree as it is and fails, naming
# the file and line, on each kind of forbidden include added to a copy.
#
#   check_layer_check.sh SOURCE_DIR SCRATCH_DIR
set -euo pipefail
source_dir=${1:?usage: check_layer_check.sh SOURCE_DIR SCRATCH_DIR}
scratch=${2:?usage: check_layer_check.sh SOURCE_DIR SCRATCH_DIR}
check=$source_dir/tests/check_layers.py
failures=0

# fresh_copy: the sources the check reads, in $scratch/tree.
fresh_copy() {
  rm -rf "$scratch/tree"
  mkdir -p "$scratch/tree"
  (cd "$source_dir" && tar -cf - --exclude=node_modules core app ui tests bench fuzz) | tar -xf - -C "$scratch/tree"
}

# expect STATUS TEXT: the check on the copy exits with STATUS and says TEXT.
expect() {
  local status=$1 text=$2 out rc=0
  out=$(python3 "$check" "$scratch/tree" 2>&1) || rc=$?
  if [[ $rc != "$status" || $out != *"$text"* ]]; then
    echo "FAIL: exit $rc (wanted $status, with \"$text\"), output:"
    echo "$out"
    failures=$((failures + 1))
  else
    echo "ok   exit $status: $text"
  fi
}

# add_line FILE LINE: LINE becomes the first line of FILE in the copy.
add_line() {
  sed -i "1i $2" "$scratch/tree/$1"
}

fresh_copy
expect 0 "layers hold"

# A layer includes one above it: the store reaching for the sandbox engine.
fresh_copy
add_line core/store/store_open.cpp '#include "sandboxes/sandbox_engine.h"'
expect 1 'core/store/store_open.cpp:1: core/store may not include core/sandboxes ("sandboxes/sandbox_engine.h")'

# The CEL engine is a library of its own: no store.
fresh_copy
add_line core/cel/eval.cpp '#include "store/sqlite_db.h"'
expect 1 'core/cel/eval.cpp:1: core/cel may not include core/store ("store/sqlite_db.h")'

# A front end reaching into a module's private parts.
fresh_copy
add_line app/cli/main.cpp '#include "isolation/cgroup.h"'
expect 1 'app/cli/main.cpp:1: "isolation/cgroup.h" is private to core/isolation'

# One module's private header from another module.
fresh_copy
add_line core/sandboxes/sandbox_engine.cpp '#include "checkpoints/chunker.h"'
expect 1 'core/sandboxes/sandbox_engine.cpp:1: "checkpoints/chunker.h" is private to core/checkpoints'

# Qt in core, by header and by CMake target.
fresh_copy
add_line core/rules/ruleset.cpp '#include <QString>'
expect 1 'core/rules/ruleset.cpp:1: core must not use Qt: <QString>'
fresh_copy
echo 'target_link_libraries(sandbench_rules PRIVATE Qt6::Core)' >>"$scratch/tree/core/rules/CMakeLists.txt"
expect 1 'core must not use Qt: target_link_libraries(sandbench_rules PRIVATE Qt6::Core)'

# Core including the Qt layer; the command line including it.
fresh_copy
add_line core/demo/demo.cpp '#include "ui/jobs/RunJob.h"'
expect 1 'core/demo/demo.cpp:1: core must not include the front ends ("ui/jobs/RunJob.h")'
fresh_copy
add_line app/cli/main.cpp '#include "ui/jobs/RunJob.h"'
expect 1 'app/cli/main.cpp:1: app/cli may not include ui ("ui/jobs/RunJob.h")'

# An include the check cannot place, and a module the table does not know.
fresh_copy
add_line core/util/hash.cpp '#include "nowhere/at_all.h"'
expect 1 'core/util/hash.cpp:1: "nowhere/at_all.h" names no file of the tree'
fresh_copy
mkdir -p "$scratch/tree/core/newmodule"
expect 1 'core/newmodule: a module the layer table (tests/check_layers.py) does not know'

rm -rf "$scratch/tree"
((failures == 0)) || { echo "$failures case(s) failed"; exit 1; }
echo "the layer check passes the tree and catches every kind of crossing"
