#!/usr/bin/env bash
# bench/run.sh: build the benchmarks in a Release build dir, run them, then compare the CLI with a bare
# python3 start under hyperfine. Benchmarks are not tests: nothing here runs in the test command, and a
# missed figure is reported, not failed on (the exit status is non-zero only when a bench cannot run or a
# run gave a wrong result).
#
#   bench/run.sh                    # everything, default sizes
#   N=100 TIMEOUT_N=20 bench/run.sh # bigger samples
#   BUILD_DIR=build/other JOBS=1 bench/run.sh
#
# Environment: BUILD_DIR (default build/bench, the bench preset's; build/release, the release preset's, works too),
# JOBS (default 2), N (bench_start, bench_container and bench_pool rounds, 40), WARMUP (warm-up rounds,
# 5), POOL_RUNS (bench_pool throughput runs, 200), CLI_N (bench_cli rounds, 60), TIMEOUT_N (bench_timeout runs per case, 10), CEL_RECORDS
# (bench_cel records, 1000000), RULES_ROWS (bench_rules transactions, 1000000), RUNS (hyperfine runs, 30), LEAK_N
# (bench_leaks runs per level, 10000), CKPT_ROUNDS / CKPT_FIRST_ROUNDS (bench_checkpoint rounds per case, 10 and 3),
# OUT_DIR (where the JSON results go; default a fresh temp dir, printed at the end).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"

BUILD_DIR="${BUILD_DIR:-build/bench}"
JOBS="${JOBS:-2}"
N="${N:-40}"
WARMUP="${WARMUP:-5}"
TIMEOUT_N="${TIMEOUT_N:-10}"
RUNS="${RUNS:-30}"
OUT_DIR="${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/sandbench-bench.XXXXXX")}"
mkdir -p "$OUT_DIR"

for tool in cmake ninja hyperfine; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool is required" >&2; exit 1; }
done
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "run.sh: $PY is required (it is the peer the benches compare with)" >&2; exit 1; }

# A Release build of the core, the CLI and the benches only (no GUI, no tests): the `bench` preset. The
# `release` preset (build/release) builds the GUI too, which needs Qt and much longer. Another BUILD_DIR not
# configured yet is configured as the bench preset is.
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
  export SANDBENCH_CCACHE="${SANDBENCH_CCACHE-$(command -v ccache || true)}"
  if [ "$BUILD_DIR" = build/bench ]; then
    cmake --preset bench
  else
    cmake -S "$root" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSANDBENCH_BUILD_GUI=OFF \
      -DSANDBENCH_BUILD_TESTS=OFF -DSANDBENCH_BUILD_FUZZ=OFF -DSANDBENCH_BUILD_BENCH=ON \
      -DCMAKE_C_COMPILER_LAUNCHER="$SANDBENCH_CCACHE" -DCMAKE_CXX_COMPILER_LAUNCHER="$SANDBENCH_CCACHE"
  fi
fi
cmake --build "$BUILD_DIR" -j"$JOBS" --target bench_all

bin="$root/$BUILD_DIR/bin"
case "$BUILD_DIR" in /*) bin="$BUILD_DIR/bin" ;; esac

echo
echo "== machine: $(nproc) cores, $(. /etc/os-release && echo "$PRETTY_NAME"), kernel $(uname -r); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

status=0
echo "== bench_start $N $WARMUP"
"$bin/bench_start" "$N" "$WARMUP" | tee "$OUT_DIR/bench_start.txt" || status=1
grep '^{"bench":"start"' "$OUT_DIR/bench_start.txt" >"$OUT_DIR/bench_start.json" || true
echo
echo "== bench_container $N $WARMUP"
"$bin/bench_container" "$N" "$WARMUP" | tee "$OUT_DIR/bench_container.txt" || status=1
grep '^{"bench":"container"' "$OUT_DIR/bench_container.txt" >"$OUT_DIR/bench_container.json" || true
echo
echo "== bench_container $N $WARMUP --breakdown"
"$bin/bench_container" "$N" "$WARMUP" --breakdown | tee "$OUT_DIR/bench_container_breakdown.txt" || status=1
echo
echo "== bench_pool $N $WARMUP ${POOL_RUNS:-200}"
"$bin/bench_pool" "$N" "$WARMUP" "${POOL_RUNS:-200}" | tee "$OUT_DIR/bench_pool.txt" || status=1
grep '^{"bench":"pool"' "$OUT_DIR/bench_pool.txt" >"$OUT_DIR/bench_pool.json" || true

echo "== bench_cli ${CLI_N:-60} $WARMUP"
"$bin/bench_cli" "${CLI_N:-60}" "$WARMUP" | tee "$OUT_DIR/bench_cli.txt" || status=1
grep '^{"bench":"cli"' "$OUT_DIR/bench_cli.txt" >"$OUT_DIR/bench_cli.json" || true

echo "== bench_leaks ${LEAK_N:-10000}"
"$bin/bench_leaks" "${LEAK_N:-10000}" | tee "$OUT_DIR/bench_leaks.txt" || status=1
grep '^{"bench":"leaks"' "$OUT_DIR/bench_leaks.txt" >"$OUT_DIR/bench_leaks.json" || true

echo "== bench_checkpoint ${CKPT_ROUNDS:-10} ${CKPT_FIRST_ROUNDS:-3}"
"$bin/bench_checkpoint" "${CKPT_ROUNDS:-10}" "${CKPT_FIRST_ROUNDS:-3}" | tee "$OUT_DIR/bench_checkpoint.txt" || status=1
grep '^{"bench":"checkpoint"' "$OUT_DIR/bench_checkpoint.txt" >"$OUT_DIR/bench_checkpoint.json" || true

echo "== bench_timeout $TIMEOUT_N"
"$bin/bench_timeout" "$TIMEOUT_N" | tee "$OUT_DIR/bench_timeout.txt" || status=1
grep '^{"bench":"timeout"' "$OUT_DIR/bench_timeout.txt" >"$OUT_DIR/bench_timeout.json" || true

echo "== bench_cel ${CEL_RECORDS:-1000000} 3"
"$bin/bench_cel" "${CEL_RECORDS:-1000000}" 3 | tee "$OUT_DIR/bench_cel.txt" || status=1
grep '^{"bench":"cel"' "$OUT_DIR/bench_cel.txt" >"$OUT_DIR/bench_cel.json" || true

echo "== bench_rules ${RULES_ROWS:-1000000} 3"
"$bin/bench_rules" "${RULES_ROWS:-1000000}" 3 | tee "$OUT_DIR/bench_rules.txt" || status=1
grep '^{"bench":"rules"' "$OUT_DIR/bench_rules.txt" >"$OUT_DIR/bench_rules.json" || true

# The whole CLI (argument parsing, opening the SQLite store, the run, recording it) against a bare start.
work="$(mktemp -d "${TMPDIR:-/tmp}/sandbench-hyperfine.XXXXXX")"
trap 'rm -rf "$work"' EXIT
printf 'print(1)\n' >"$work/print1.py"
echo
echo "== hyperfine: sandbench run vs bare python3"
(
  cd "$work"
  hyperfine -N --warmup 5 --runs "$RUNS" --export-json "$OUT_DIR/hyperfine.json" \
    "$bin/sandbench run --store $work/bench.db print1.py" \
    "$PY -c 'print(1)'"
) || status=1

if [ -f "$OUT_DIR/hyperfine.json" ]; then
  "$PY" - "$OUT_DIR/hyperfine.json" <<'EOF'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
cli, bare = results[0], results[1]
print(f"CLI `sandbench run print1.py`: median {cli['median']*1e3:.2f} ms, mean {cli['mean']*1e3:.2f} ms")
print(f"bare `python3 -c 'print(1)'`:  median {bare['median']*1e3:.2f} ms, mean {bare['mean']*1e3:.2f} ms")
print(f"ratio (CLI / bare): median {cli['median']/bare['median']:.2f}x, mean {cli['mean']/bare['mean']:.2f}x")
print(json.dumps({"bench": "hyperfine_cli", "cli_median_ms": round(cli["median"]*1e3, 3),
                  "bare_median_ms": round(bare["median"]*1e3, 3),
                  "ratio_median": round(cli["median"]/bare["median"], 3),
                  "ratio_mean": round(cli["mean"]/bare["mean"], 3)}))
EOF
fi

echo
echo "Results (text and JSON) are in $OUT_DIR"
exit "$status"
