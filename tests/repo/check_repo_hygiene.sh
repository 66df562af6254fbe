#!/usr/bin/env bash
# What the repository itself promises: no SQLite store is committed and .gitignore keeps stores out; README's
# "The tree" names every top-level folder; every build folder the docs cite is one a CMake preset makes.
#
#   check_repo_hygiene.sh SOURCE_DIR      (a git checkout)
set -euo pipefail
cd "${1:?usage: check_repo_hygiene.sh SOURCE_DIR}"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# 1. Stores: no tracked file is an SQLite database, and a store with its -wal and -shm files is ignored.
while IFS= read -r -d '' file; do
  [[ -f $file && $(head -c 15 "$file" | LC_ALL=C tr -d "\0") == "SQLite format 3" ]] && fail "$file is an SQLite database under version control"
done < <(git ls-files -z)
for file in store.db store.db-wal store.db-shm store.db-journal docs/any.db; do
  git check-ignore -q --no-index "$file" || fail ".gitignore does not keep $file out"
done

# 2. README's "The tree" names each top-level folder as `folder/` (or `folder/sub`).
tree=$(sed -n '/^## The tree$/,/^## /p' README.md)
[[ -n $tree ]] || fail "README.md has no '## The tree' section"
for folder in $(git ls-files | grep / | cut -d/ -f1 | sort -u); do
  grep -qE "\`$folder/" <<<"$tree" || fail "README.md's 'The tree' does not name $folder/"
done

# 3. Each build/NAME/ the docs cite is made by the configure preset NAME (binaryDir build/${presetName}).
presets=$(python3 -c 'import json; print("\n".join(p["name"] for p in json.load(open("CMakePresets.json"))["configurePresets"] if not p.get("hidden")))')
for cited in $(grep -ohE '\bbuild/[A-Za-z0-9_-]+/' README.md bench/README.md docs/*.md scripts/* bench/*.sh | sort -u); do
  name=${cited#build/}
  name=${name%/}
  grep -qxF "$name" <<<"$presets" || fail "build/$name/ is cited, but no configure preset is named $name (presets: $(echo $presets))"
done

((failures == 0)) || exit 1
echo "no store committed, stores ignored, the tree documented, every cited build folder made by a preset"
