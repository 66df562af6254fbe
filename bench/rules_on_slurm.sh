#!/usr/bin/env bash
# `sandbench rules impact` over ROWS records (default 10 million) here and through a single-node Slurm cluster
# with SHARDS shards (default 2), side by side in one run: ROUNDS interleaved rounds, whole processes, wall
# time and peak memory of the command; for the cluster, where its time went as the command reports it on
# stderr (cutting the file, the scan stage, the evaluate stage and the longest task in it, the merge), and the
# scheduler's overhead: the stages' wall time less their longest tasks' own time. The JSON of the two must be
# the same, or the bench fails.
#
#   bench/rules_on_slurm.sh                     # ROWS=10000000 SHARDS=2 ROUNDS=3
#   ROWS=1000000 SHARDS=4 ROUNDS=5 bench/rules_on_slurm.sh
#
# The cluster is tests/slurm/slurm-cluster's (munge, slurmctld, slurmd: Debian's slurm-wlm packages), started in
# a scratch folder and stopped at the end; the machine's own Slurm, if any, is not used. The rule sets are the
# demo's without their `fields:`, so that every column's type is inferred (the cluster's scan stage runs).
# SANDBENCH (default: build/bench/bin/sandbench, else build/release/..., else build/dev/...) is the CLI measured.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
ROWS="${ROWS:-10000000}"
SHARDS="${SHARDS:-2}"
ROUNDS="${ROUNDS:-3}"
if [[ -z "${SANDBENCH:-}" ]]; then
  for dir in build/bench build/release build/dev; do
    if [[ -x "$root/$dir/bin/sandbench" ]]; then SANDBENCH="$root/$dir/bin/sandbench"; break; fi
  done
fi
[[ -x "${SANDBENCH:-}" ]] || { echo "rules_on_slurm.sh: no sandbench binary; build one (bench/run.sh) or set SANDBENCH" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/sandbench-slurm-bench.XXXXXX")
cluster="$work/cluster"
cleanup() {
  "$root/tests/slurm/slurm-cluster" stop "$cluster" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
"$root/tests/slurm/slurm-cluster" start "$cluster" >/dev/null
eval "$("$root/tests/slurm/slurm-cluster" env "$cluster")"
mkdir -p "$work/spool"
printf 'slurm:\n  spool: %s\n  poll_ms: 50\n' "$work/spool" >"$work/config.yaml"
export SANDBENCH_CONFIG="$work/config.yaml"

for name in current variant_a; do
  # Without `fields:`: every column's type inferred.
  awk '/^fields:/ {skip = 1; next} skip && /^  / {next} {skip = 0; print}' "$root/resources/demo/rules/$name.yaml" \
    >"$work/$name.yaml"
done
data="$work/transactions.csv"
"$SANDBENCH" data generate --rows "$ROWS" --seed 7 "$data" >/dev/null
args=(rules impact --baseline "$work/current.yaml" --candidate "$work/variant_a.yaml" --data "$data"
      --label-column is_fraud --amount-column amount --json)
echo "== machine: $(nproc) cores, kernel $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== data: $ROWS records ($(du -h "$data" | cut -f1)); cluster: 1 node, $SHARDS shards"

# run NAME ARGS...: the command's wall seconds and peak KiB on one line; its JSON in $work/NAME.json.
run() {
  local name=$1
  shift
  /usr/bin/time -f '%e %M' -o "$work/$name.time" "$SANDBENCH" "$@" >"$work/$name.json" 2>"$work/$name.err"
  cat "$work/$name.time"
}

declare -a local_s slurm_s local_kb slurm_kb cut scan eval task merge
for ((round = 1; round <= ROUNDS; ++round)); do
  read -r s kb < <(run local "${args[@]}")
  local_s+=("$s") local_kb+=("$kb")
  read -r s kb < <(run slurm "${args[@]}" --backend slurm --shards "$SHARDS")
  slurm_s+=("$s") slurm_kb+=("$kb")
  cmp -s "$work/local.json" "$work/slurm.json" || { echo "the cluster's JSON differs from the local one" >&2; exit 1; }
  # slurm: 2 shards (job 3, 4): cut 0.31 s, scan 1.05 s, evaluate 2.10 s (the longest task 0.90 s), merge 0.02 s
  line=$(grep '^slurm: .* shards\? (job' "$work/slurm.err" | tail -1)
  [[ $line =~ cut\ ([0-9.]+)\ s,\ scan\ ([0-9.]+)\ s,\ evaluate\ ([0-9.]+)\ s\ \(the\ longest\ task\ ([0-9.]+)\ s\),\ merge\ ([0-9.]+) ]] ||
    { echo "no timing line from the cluster run: $line" >&2; exit 1; }
  cut+=("${BASH_REMATCH[1]}") scan+=("${BASH_REMATCH[2]}") eval+=("${BASH_REMATCH[3]}") task+=("${BASH_REMATCH[4]}")
  merge+=("${BASH_REMATCH[5]}")
  echo "round $round: local ${local_s[-1]} s, slurm ${slurm_s[-1]} s ($line)"
done

median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
L=$(median "${local_s[@]}") S=$(median "${slurm_s[@]}")
echo
echo "== medians of $ROUNDS rounds"
printf '%-34s %10s %12s\n' "" "wall s" "peak MiB"
printf '%-34s %10.2f %12.0f\n' "local" "$L" "$(median "${local_kb[@]}" | awk '{print $1 / 1024}')"
printf '%-34s %10.2f %12.0f\n' "slurm, $SHARDS shards (the command)" "$S" "$(median "${slurm_kb[@]}" | awk '{print $1 / 1024}')"
awk -v l="$L" -v s="$S" 'BEGIN {printf "slurm / local: %.2fx\n", s / l}'
C=$(median "${cut[@]}") SC=$(median "${scan[@]}") E=$(median "${eval[@]}") T=$(median "${task[@]}") M=$(median "${merge[@]}")
echo
echo "== where the cluster run's time went (medians)"
printf '  %-44s %6.2f s\n' "cutting the file into shards" "$C" "scan stage (an array job)" "$SC" \
  "evaluate stage (an array job)" "$E" "  of which the longest task's own time" "$T" "merging the partial results" "$M"
awk -v e="$E" -v t="$T" 'BEGIN {printf "  %-44s %6.2f s\n", "scheduler overhead of the evaluate stage", e - t}'
