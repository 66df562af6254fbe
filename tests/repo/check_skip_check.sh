#!/usr/bin/env bash
# scripts/check-skips, which makes scripts/test fail on a skip nobody listed, on the two report formats it reads
# (data/: a ctest --output-junit report and a GoogleTest XML report, each of one passed and one skipped test,
# and one of a passed test only).
# ctest itself exits 0 on such a run.
#
#   check_skip_check.sh SOURCE_DIR SCRATCH_DIR
set -euo pipefail
source_dir=${1:?usage: check_skip_check.sh SOURCE_DIR SCRATCH_DIR}
scratch=${2:?usage: check_skip_check.sh SOURCE_DIR SCRATCH_DIR}
check=$source_dir/scripts/check-skips
data=$source_dir/tests/repo/data
mkdir -p "$scratch"
failures=0
# expect STATUS TEXT LISTING CONTEXT REPORT...: check-skips exits with STATUS and prints TEXT.
expect() {
  local status=$1 text=$2 listing=$3 out rc=0
  shift 3
  out=$("$check" --expected "$listing" "$@" 2>&1) || rc=$?
  if [[ $rc != "$status" || $out != *"$text"* ]]; then
    echo "FAIL check-skips --expected $listing $*: exit $rc (wanted $status), output:"
    echo "$out"
    failures=$((failures + 1))
  else
    echo "ok   exit $status, \"$text\": $*"
  fi
}

printf '# nothing listed\n' >"$scratch/none.txt"
printf 'p.A.Skips root  no frobnicator on the test machines\nA.Skips unprivileged  the same\n' >"$scratch/listed.txt"
printf 'A.Skips sometimes\n' >"$scratch/malformed.txt"

expect 1 "SKIPPED, NOT LISTED for root: p.A.Skips: no frobnicator here second line" "$scratch/none.txt" \
  root "$data/ctest-junit-one-skip.xml"
expect 1 "SKIPPED, NOT LISTED for unprivileged: A.Skips: no frobnicator here second line" "$scratch/none.txt" \
  unprivileged "$data/gtest-one-skip.xml"
expect 0 "skipped, listed for root (no frobnicator on the test machines): p.A.Skips" "$scratch/listed.txt" \
  root "$data/ctest-junit-one-skip.xml"
expect 0 "2 tests, 1 skipped" "$scratch/listed.txt" unprivileged "$data/gtest-one-skip.xml"
# Listed for the other context only: still a failure here.
expect 1 "NOT LISTED for root: A.Skips" "$scratch/listed.txt" root "$data/gtest-one-skip.xml"
expect 1 "expected 'TEST root|unprivileged WHY'" "$scratch/malformed.txt" root "$data/gtest-one-skip.xml"
expect 1 "No such file" "$scratch/listed.txt" root "$scratch/no-such-report.xml"
expect 1 "check-skips:" "$scratch/listed.txt" root /dev/null
expect 0 "1 tests, 0 skipped" "$scratch/none.txt" root "$data/gtest-no-skip.xml"
# The reviewed list itself is well formed.
expect 0 "1 tests, 0 skipped" "$source_dir/tests/expected-skips.txt" root "$data/gtest-no-skip.xml"

((failures == 0)) || exit 1
echo "check-skips fails on every skip that is not listed for its context"
