#!/usr/bin/env bash
# Rule evaluation against its peers, side by side in one run (issue 5), on the same rule sets (the demo's,
# resources/demo/rules) and the same data (the demo generator's card transactions):
#
#   1. throughput   records x rules evaluated per second, every enabled rule on every record, both cores:
#                   `sandbench rules eval` (its timing) vs @bufbuild/cel and @marcbachmann/cel-js (node,
#                   bench/rules_peers/cel_engines.mjs, one worker thread per core), data read untimed;
#                   TP_RUNS runs of each, interleaved, the best of each engine compared.
#   2. end to end   read a CSV of ROWS records, evaluate the baseline and a candidate rule set, compute the
#                   impact: `sandbench rules impact` vs DuckDB (the rules translated to SQL over the same
#                   CSV, bench/rules_peers/duckdb_impact.mjs) vs the JS engines; whole processes, wall time,
#                   ROUNDS interleaved rounds (the JS engines once: they take many seconds). Every engine must
#                   find the same number of affected records, or the bench fails.
#   3. A/B          three variants against the baseline over ROWS records, with the label column: `sandbench
#                   rules ab` vs DuckDB (every rule set translated to SQL, one pass over the CSV grouped by the
#                   decisions and the label, bench/rules_peers/duckdb_impact.mjs --variant); wall time and peak
#                   resident memory, ROUNDS interleaved rounds. Per variant both must report the same affected,
#                   rescored, flagged tp and fp and F1, or the bench fails.
#   4. shapes       end to end impact and A/B again, `sandbench rules impact` and `rules ab` vs DuckDB only, on
#                   generated inputs (bench/rules_shapes.py): few rules (3 vs 5) and many (200 vs 200), narrow
#                   records (7 columns, SHAPE_ROWS) and wide ones (64 columns, a quarter as many records, about 3
#                   times the bytes); the A/B of the candidate and a second one, without labels; wall time and
#                   peak resident memory of each process, ROUNDS interleaved rounds. Both sides must agree.
#
#   bench/rules_vs_peers.sh                 # ROWS=1000000 ROUNDS=3 THROUGHPUT_ROWS=200000 TP_RUNS=3
#   ROWS=200000 ROUNDS=5 bench/rules_vs_peers.sh
#   SHAPES="few-wide many-wide" SHAPE_ROWS=1000000 bench/rules_vs_peers.sh   # SHAPES="" skips part 4
#
# Needs node and npm (the peers are pinned in bench/rules_peers/package-lock.json; `npm ci` runs there when
# node_modules is missing). SANDBENCH (default: build/bench/bin/sandbench, else build/release/...,
# else build/dev/...) is the CLI measured. OUT_DIR keeps the JSON results.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
ROWS="${ROWS:-1000000}"
ROUNDS="${ROUNDS:-3}"
THROUGHPUT_ROWS="${THROUGHPUT_ROWS:-200000}"
TP_RUNS="${TP_RUNS:-3}"
SHAPES="${SHAPES-few-narrow many-narrow few-wide many-wide}"
SHAPE_ROWS="${SHAPE_ROWS:-1000000}"
OUT_DIR="${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/sandbench-rules-bench.XXXXXX")}"
mkdir -p "$OUT_DIR"

if [[ -z "${SANDBENCH:-}" ]]; then
  for dir in build/bench build/release build/dev; do
    if [[ -x "$root/$dir/bin/sandbench" ]]; then SANDBENCH="$root/$dir/bin/sandbench"; break; fi
  done
fi
[[ -x "${SANDBENCH:-}" ]] || { echo "rules_vs_peers.sh: no sandbench binary; build one (bench/run.sh) or set SANDBENCH" >&2; exit 1; }
command -v node >/dev/null && command -v npm >/dev/null || { echo "rules_vs_peers.sh: node and npm are required" >&2; exit 1; }
peers="$here/rules_peers"
if [[ ! -d "$peers/node_modules/@duckdb/node-api" ]]; then
  echo "==> npm ci in bench/rules_peers (the pinned peers)"
  (cd "$peers" && npm ci --no-audit --no-fund --loglevel=error)
fi

rules="$root/resources/demo/rules"
baseline="$rules/current.yaml"
candidate="$rules/variant_a.yaml"
# A third variant for the A/B: variant_b with its review threshold rules one notch stricter.
third="$OUT_DIR/variant_c.yaml"
sed -e 's/^name: .*/name: card-fraud-variant-c/' -e 's/score: 60$/score: 65/' "$rules/variant_b.yaml" >"$third"

data="$OUT_DIR/transactions-$ROWS.csv"
small="$OUT_DIR/transactions-$THROUGHPUT_ROWS.csv"
"$SANDBENCH" data generate --rows "$ROWS" --seed 7 "$data" >/dev/null
"$SANDBENCH" data generate --rows "$THROUGHPUT_ROWS" --seed 7 "$small" >/dev/null
echo "== machine: $(nproc) cores, kernel $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg); node $(node --version)"
echo "== data: $ROWS records ($(du -h "$data" | cut -f1)), rule sets: $(basename "$baseline") vs $(basename "$candidate")"

now_ns() { date +%s%N; }
# timed NAME CMD...: runs CMD with stdout to $OUT_DIR/NAME.json, appends "NAME seconds" to $OUT_DIR/times.
timed() {
  local name=$1 start end
  shift
  start=$(now_ns)
  "$@" >"$OUT_DIR/$name.json"
  end=$(now_ns)
  echo "$name $(( (end - start) / 1000 ))" >>"$OUT_DIR/times"
}
: >"$OUT_DIR/times"

echo
echo "== 1. throughput: every rule on every record, $(nproc) threads, data read untimed, best of $TP_RUNS runs each"
for ((i = 1; i <= TP_RUNS; i++)); do
  "$SANDBENCH" rules eval --rules "$baseline" --data "$small" --json >"$OUT_DIR/tp-sandbench-$i.json"
  for engine in bufbuild celjs; do
    node "$peers/cel_engines.mjs" --engine "$engine" --mode throughput --rules "$baseline" --data "$small" \
      --threads "$(nproc)" >"$OUT_DIR/tp-$engine-$i.json"
  done
done

echo "== 2. end to end impact, $ROUNDS interleaved rounds (the JS engines once)"
for ((i = 1; i <= ROUNDS; i++)); do
  if ((i % 2)); then
    timed "e2e-sandbench-$i" "$SANDBENCH" rules impact --baseline "$baseline" --candidate "$candidate" --data "$data" --json --limit 1
    timed "e2e-duckdb-$i" node "$peers/duckdb_impact.mjs" --rules "$baseline" --candidate "$candidate" --data "$data"
  else
    timed "e2e-duckdb-$i" node "$peers/duckdb_impact.mjs" --rules "$baseline" --candidate "$candidate" --data "$data"
    timed "e2e-sandbench-$i" "$SANDBENCH" rules impact --baseline "$baseline" --candidate "$candidate" --data "$data" --json --limit 1
  fi
done
for engine in celjs bufbuild; do
  timed "e2e-$engine-1" node "$peers/cel_engines.mjs" --engine "$engine" --mode impact --rules "$baseline" \
    --candidate "$candidate" --data "$data"
done

# measured LIST NAME CMD...: as timed, appending "NAME microseconds peak-KiB" (GNU time's) to $OUT_DIR/LIST.
measured() {
  local list=$1 name=$2 start end
  shift 2
  start=$(now_ns)
  /usr/bin/time -f "%M" -o "$OUT_DIR/peak" "$@" >"$OUT_DIR/$name.json"
  end=$(now_ns)
  echo "$name $(( (end - start) / 1000 )) $(cat "$OUT_DIR/peak")" >>"$OUT_DIR/$list"
}
: >"$OUT_DIR/ab"
: >"$OUT_DIR/shapes"
: >"$OUT_DIR/shape-ab"

echo "== 3. A/B of three variants against the baseline, with the label: $ROUNDS interleaved rounds"
for ((i = 1; i <= ROUNDS; i++)); do
  sides=(sandbench duckdb)
  ((i % 2)) || sides=(duckdb sandbench)
  for side in "${sides[@]}"; do
    if [[ $side == sandbench ]]; then
      measured ab "ab-sandbench-$i" "$SANDBENCH" rules ab --baseline "$baseline" --variant "$candidate" \
        --variant "$rules/variant_b.yaml" --variant "$third" --data "$data" --label-column is_fraud --json --limit 1
    else
      measured ab "ab-duckdb-$i" node "$peers/duckdb_impact.mjs" --rules "$baseline" --variant "$candidate" \
        --variant "$rules/variant_b.yaml" --variant "$third" --data "$data" --label-column is_fraud
    fi
  done
done

for shape in $SHAPES; do
  rows=$SHAPE_ROWS
  [[ $shape == *wide ]] && rows=$((SHAPE_ROWS / 4))
  mapfile -t files < <(python3 "$here/rules_shapes.py" "$shape" "$rows" "$OUT_DIR")
  echo "== 4. $shape: $rows records ($(du -h "${files[0]}" | cut -f1)), $ROUNDS interleaved rounds"
  for ((i = 1; i <= ROUNDS; i++)); do
    sides=(sandbench duckdb)
    ((i % 2)) || sides=(duckdb sandbench)
    for side in "${sides[@]}"; do
      if [[ $side == sandbench ]]; then
        measured shapes "shape-$shape-sandbench-$i" "$SANDBENCH" rules impact --baseline "${files[1]}" \
          --candidate "${files[2]}" --data "${files[0]}" --json --limit 1
        measured shape-ab "shape-ab-$shape-sandbench-$i" "$SANDBENCH" rules ab --baseline "${files[1]}" \
          --variant "${files[2]}" --variant "${files[3]}" --data "${files[0]}" --json --limit 1
      else
        measured shapes "shape-$shape-duckdb-$i" node "$peers/duckdb_impact.mjs" --rules "${files[1]}" \
          --candidate "${files[2]}" --data "${files[0]}"
        measured shape-ab "shape-ab-$shape-duckdb-$i" node "$peers/duckdb_impact.mjs" --rules "${files[1]}" \
          --variant "${files[2]}" --variant "${files[3]}" --data "${files[0]}"
      fi
    done
  done
done

python3 - "$OUT_DIR" "$ROWS" "$THROUGHPUT_ROWS" "$TP_RUNS" <<'EOF'
import json, os, statistics, sys
out, rows, tp_rows, tp_runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
load = lambda name: json.load(open(os.path.join(out, name)))
times = {}
for line in open(os.path.join(out, "times")):
    name, us = line.split()
    times[name] = int(us) / 1e6

print()
# Every engine's best run (a run of a few milliseconds on a shared machine loses whole time slices).
sb_runs = [load(f"tp-sandbench-{i}.json")["timing"] for i in range(1, tp_runs + 1)]
sb = max(sb_runs, key=lambda t: t["records_x_rules_per_second"])
sb_rate = sb["records_x_rules_per_second"]
show = lambda rates: ", ".join(f"{r/1e6:.1f}" for r in rates)
print(f"throughput (records x rules / s, {tp_rows} records, best of {tp_runs} runs; all runs in M):")
print(f"  sandbench          {sb_rate/1e6:9.2f} M   ({sb['threads']} threads)   runs: {show(t['records_x_rules_per_second'] for t in sb_runs)}")
results = {"bench": "rules_vs_peers", "rows": rows, "throughput": {"sandbench": sb_rate}}
for engine in ("bufbuild", "celjs"):
    runs = [load(f"tp-{engine}-{i}.json") for i in range(1, tp_runs + 1)]
    rates = [r["records"] * r["rules"] / r["seconds"] for r in runs]
    rate = max(rates)
    results["throughput"][engine] = rate
    print(f"  {engine:<18} {rate/1e6:9.2f} M   ({runs[0]['threads']} threads)   sandbench is {sb_rate/rate:6.1f}x   runs: {show(rates)}")

affected = {}
def e2e(engine):
    runs = sorted(v for k, v in times.items() if k.startswith(f"e2e-{engine}-"))
    for k in times:
        if k.startswith(f"e2e-{engine}-"):
            doc = load(k + ".json")
            affected.setdefault(engine, set()).add((doc["total"], doc["affected"]))
    return statistics.median(runs)
print(f"\nend to end impact ({rows} records; wall seconds, median of the rounds):")
sb_e2e = e2e("sandbench")
results["end_to_end_s"] = {"sandbench": sb_e2e}
print(f"  sandbench          {sb_e2e:7.3f} s")
for engine in ("duckdb", "celjs", "bufbuild"):
    t = e2e(engine)
    results["end_to_end_s"][engine] = t
    print(f"  {engine:<18} {t:7.3f} s   sandbench / {engine} = {sb_e2e/t:5.2f}x")
agree = len({a for s in affected.values() for a in s}) == 1
print(f"  affected records: {dict((k, sorted(v)) for k, v in affected.items())} -> {'all agree' if agree else 'DISAGREE'}")
results["affected_agree"] = agree

# Parts 3 and 4: runs of the two sides, grouped by what they measured (part 3's A/B, or a shape); per group each
# side's median wall time and largest peak memory, and the figures both report, which must be the same.
def runs(list_name):
    for line in open(os.path.join(out, list_name)):
        name, us, kb = line.split()
        yield name, int(us) / 1e6, int(kb)

def ab_figures(doc):
    # Per variant: name, affected, rescored and, with a label, flagged tp and fp and F1. sandbench reports the
    # flagged confusion under labels.flagged.candidate, the peer under flagged.
    def one(v):
        flagged = v.get("flagged") or v.get("labels", {}).get("flagged", {}).get("candidate")
        labelled = (flagged["tp"], flagged["fp"], round(v["f1"], 12)) if flagged else ()
        return (v["name"], v["affected"], v["score_changed"]) + labelled
    return tuple(one(v) for v in doc["variants"])

def compare(list_name, group_of, figures_of):
    groups = {}
    for name, seconds, kb in runs(list_name):
        group, side = group_of(name)
        entry = groups.setdefault(group, {}).setdefault(side, {"s": [], "kb": [], "figures": set()})
        entry["s"].append(seconds)
        entry["kb"].append(kb)
        entry["figures"].add(figures_of(load(name + ".json")))
    out = {}
    for group, sides in groups.items():
        sb, duck = sides["sandbench"], sides["duckdb"]
        out[group] = {"sandbench_s": statistics.median(sb["s"]), "duckdb_s": statistics.median(duck["s"]),
                      "sandbench_mib": max(sb["kb"]) / 1024, "duckdb_mib": max(duck["kb"]) / 1024,
                      "agree": len(sb["figures"] | duck["figures"]) == 1,
                      "figures": sorted(sb["figures"] | duck["figures"])}
    return out

def line(label, r):
    return (f"  {label:<12} sandbench {r['sandbench_s']:6.3f} s {r['sandbench_mib']:5.0f} MiB   duckdb "
            f"{r['duckdb_s']:6.3f} s {r['duckdb_mib']:5.0f} MiB   time {r['sandbench_s'] / r['duckdb_s']:4.2f}x  "
            f"memory {r['sandbench_mib'] / r['duckdb_mib']:4.2f}x")

def describe_ab(figures):
    return "; ".join(f"{v[0]}: {v[1]} affected, {v[2]} rescored"
                     + (f", flagged tp {v[3]} fp {v[4]}, F1 {v[5]:.4f}" if len(v) > 3 else "") for v in figures)

print(f"\nA/B of three variants ({rows} records; wall seconds, median of the rounds; peak resident memory, the largest):")
ab = compare("ab", lambda name: ("ab", name.split("-")[1]), ab_figures)["ab"]
print(line("", ab))
for figures in ab["figures"]:
    print("  " + describe_ab(figures))
print(f"  (per variant: affected, rescored, flagged tp and fp, F1) -> {'both agree' if ab['agree'] else 'DISAGREE'}")
agree = agree and ab["agree"]
results["ab"] = ab

# Names: shape-SHAPE-SIDE-ROUND and shape-ab-SHAPE-SIDE-ROUND.
def by_shape(name):
    rest = name.removeprefix("shape-ab-") if name.startswith("shape-ab-") else name.removeprefix("shape-")
    shape, side, _ = rest.rsplit("-", 2)
    return shape, side
impacts = compare("shapes", by_shape, lambda doc: (doc["total"], doc["affected"]))
abs_ = compare("shape-ab", by_shape, ab_figures)
if impacts:
    print("\nshapes (wall seconds, median of the rounds; peak resident memory, the largest):")
    results["shapes"] = {}
for shape, impact in impacts.items():
    shape_ab = abs_[shape]
    total, affected = impact["figures"][0]
    print(line(shape, impact) + f"   impact: {total} records, {affected} affected"
          + ("" if impact["agree"] else f" -> DISAGREE {impact['figures']}"))
    print(line("", shape_ab) + f"   A/B of 2: {describe_ab(shape_ab['figures'][0])}"
          + ("" if shape_ab["agree"] else f" -> DISAGREE {shape_ab['figures']}"))
    agree = agree and impact["agree"] and shape_ab["agree"]
    results["shapes"][shape] = {"impact": impact, "ab": shape_ab}
print(json.dumps(results))
sys.exit(0 if agree else 1)
EOF
echo "Results are in $OUT_DIR"
