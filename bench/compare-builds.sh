#!/usr/bin/env bash
# bench/compare-builds.sh: two builds of Sandbench side by side, for a change that must not make anything
# slower (a refactoring, a new compiler flag). Each bench runs with one build's binaries, then with the
# other's, ROUNDS times, the order swapped every round, so that both see the same machine state; the whole
# CLI runs under one hyperfine invocation with both. It prints, per figure, the median of the rounds for each
# build and the ratio B / A.
#
#   bench/compare-builds.sh A_BIN_DIR B_BIN_DIR
#   ROUNDS=5 BENCHES="rules cel" bench/compare-builds.sh build-old/bin build/bench/bin
#
# A_BIN_DIR and B_BIN_DIR each hold the benches, `sandbench`, `sandbench-cli` and `sandbench-launcher` of one Release build
# (the `bench` preset's build/bench/bin). Environment: ROUNDS (3), BENCHES (the ones to run, of: start
# container checkpoint cel rules cli; all by default), START_N (bench_start and bench_container rounds, 40),
# CEL_RECORDS and RULES_ROWS (1000000), CKPT_ROUNDS (3), RUNS (hyperfine runs, 30), OUT_DIR (where the JSON
# lines go; a fresh temp dir by default). Run it on an idle machine: the load average is printed.
set -euo pipefail

if [ $# -ne 2 ]; then
  sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
A="$(cd "$1" && pwd)"
B="$(cd "$2" && pwd)"
ROUNDS="${ROUNDS:-3}"
BENCHES="${BENCHES:-start container checkpoint cel rules cli}"
START_N="${START_N:-40}"
CEL_RECORDS="${CEL_RECORDS:-1000000}"
RULES_ROWS="${RULES_ROWS:-1000000}"
CKPT_ROUNDS="${CKPT_ROUNDS:-3}"
RUNS="${RUNS:-30}"
OUT_DIR="${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/sandbench-compare.XXXXXX")}"
mkdir -p "$OUT_DIR"
PY=/usr/bin/python3

for dir in "$A" "$B"; do
  for name in sandbench sandbench-cli sandbench-launcher; do
    [ -x "$dir/$name" ] || { echo "compare-builds.sh: $dir/$name is missing" >&2; exit 2; }
  done
done
for bench in $BENCHES; do
  case "$bench" in
    start | container | checkpoint | cel | rules)
      for dir in "$A" "$B"; do
        [ -x "$dir/bench_$bench" ] || { echo "compare-builds.sh: $dir/bench_$bench is missing" >&2; exit 2; }
      done ;;
    cli) command -v hyperfine >/dev/null || { echo "compare-builds.sh: hyperfine is required" >&2; exit 2; } ;;
    *) echo "compare-builds.sh: unknown bench '$bench'" >&2; exit 2 ;;
  esac
done

echo "== A: $A"
echo "== B: $B"
echo "== machine: $(nproc) cores, kernel $(uname -r); load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# One bench with one build: its JSON line, tagged with the build and the round, appended to results.jsonl.
run_one() {
  local side="$1" dir="$2" bench="$3" round="$4" line
  case "$bench" in
    start) line="$("$dir/bench_start" "$START_N" 5 | grep '^{"bench":"start"')" ;;
    container) line="$("$dir/bench_container" "$START_N" 5 | grep '^{"bench":"container"')" ;;
    checkpoint) line="$("$dir/bench_checkpoint" "$CKPT_ROUNDS" 1 | grep '^{"bench":"checkpoint"')" ;;
    cel) line="$("$dir/bench_cel" "$CEL_RECORDS" 3 | grep '^{"bench":"cel"')" ;;
    rules) line="$("$dir/bench_rules" "$RULES_ROWS" 3 | grep '^{"bench":"rules"')" ;;
  esac
  printf '{"side":"%s","round":%d,"result":%s}\n' "$side" "$round" "$line" >>"$OUT_DIR/results.jsonl"
}

work="$(mktemp -d "${TMPDIR:-/tmp}/sandbench-compare-work.XXXXXX")"
trap 'rm -rf "$work"' EXIT
for ((round = 1; round <= ROUNDS; round++)); do
  for bench in $BENCHES; do
    [ "$bench" = cli ] && continue
    echo "== round $round/$ROUNDS: $bench"
    if ((round % 2)); then
      run_one A "$A" "$bench" "$round"
      run_one B "$B" "$bench" "$round"
    else
      run_one B "$B" "$bench" "$round"
      run_one A "$A" "$bench" "$round"
    fi
  done
done

if [[ " $BENCHES " == *" cli "* ]]; then
  echo "== the whole CLI: sandbench run print1.py, A and B under one hyperfine"
  printf 'print(1)\n' >"$work/print1.py"
  (
    cd "$work"
    hyperfine -N --warmup 5 --runs "$RUNS" --export-json "$OUT_DIR/hyperfine.json" \
      "$A/sandbench run --store $work/a.db print1.py" \
      "$B/sandbench run --store $work/b.db print1.py" >/dev/null
  )
fi

"$PY" - "$OUT_DIR" <<'EOF'
import json, os, statistics, sys

out_dir = sys.argv[1]
# (bench, path in its JSON line, unit, True when higher is better)
FIGURES = [
    ("start", "python.sandboxed.median_ms", "ms", False),
    ("start", "python.ratio", "x bare", False),
    ("start", "shell.sandboxed.median_ms", "ms", False),
    ("container", "container_median_ms", "ms", False),
    ("container", "ratio_container_bwrap", "x bwrap", False),
    ("container", "process_median_ms", "ms", False),
    ("checkpoint", "first_ms", "ms", False),
    ("checkpoint", "change_ms", "ms", False),
    ("checkpoint", "restore_ms", "ms", False),
    ("cel", "batch_pairs_per_s_1", "/s", True),
    ("cel", "batch_pairs_per_s_n", "/s", True),
    ("cel", "pairs_per_s_1", "/s", True),
    ("cel", "pairs_per_s_n", "/s", True),
    ("rules", "read_s", "s", False),
    ("rules", "eval1_records_x_rules_per_cpu_s", "/cpu s", True),
    ("rules", "eval_all_records_x_rules_per_s", "/s", True),
    ("rules", "impact_e2e_s", "s", False),
    ("rules", "ab3_e2e_s", "s", False),
    ("rules", "check_many_s", "s", False),
    ("rules", "eval_many_10k_s", "s", False),
    ("rules", "peak_rss_mib", "MiB", False),
]

def get(obj, path):
    for key in path.split("."):
        if not isinstance(obj, dict) or key not in obj:
            return None
        obj = obj[key]
    return obj

values = {}
results = os.path.join(out_dir, "results.jsonl")
if os.path.exists(results):
    for line in open(results):
        row = json.loads(line)
        bench = row["result"].get("bench")
        for fbench, path, _, _ in FIGURES:
            if fbench == bench:
                v = get(row["result"], path)
                if isinstance(v, (int, float)):
                    values.setdefault((bench, path), {}).setdefault(row["side"], []).append(v)

print()
print(f"{'figure':<50} {'A (median)':>14} {'B (median)':>14} {'B / A':>7}  rounds")
for bench, path, unit, higher in FIGURES:
    sides = values.get((bench, path))
    if not sides or "A" not in sides or "B" not in sides:
        continue
    a, b = statistics.median(sides["A"]), statistics.median(sides["B"])
    ratio = b / a if a else float("nan")
    better = "higher is better" if higher else "lower is better"
    print(f"{bench + ' ' + path + ' (' + unit + ')':<50} {a:>14.4g} {b:>14.4g} {ratio:>7.3f}  "
          f"A {min(sides['A']):.4g}..{max(sides['A']):.4g}, B {min(sides['B']):.4g}..{max(sides['B']):.4g} ({better})")

hf = os.path.join(out_dir, "hyperfine.json")
if os.path.exists(hf):
    a, b = json.load(open(hf))["results"]
    print(f"{'cli sandbench run print1.py, median (ms)':<50} {a['median']*1e3:>14.4g} {b['median']*1e3:>14.4g} "
          f"{b['median']/a['median']:>7.3f}  mean A {a['mean']*1e3:.4g}, B {b['mean']*1e3:.4g}")
print()
print(f"JSON lines: {results}")
EOF
