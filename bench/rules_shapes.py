#!/usr/bin/env python3
"""Generated inputs for the rules benches: a CSV of records and two rule sets over it, in one of four shapes.

    python3 bench/rules_shapes.py SHAPE ROWS OUT_DIR     # writes OUT_DIR/SHAPE.csv, SHAPE-baseline.yaml,
                                                          # SHAPE-candidate.yaml, SHAPE-second.yaml (a second
                                                          # candidate, for an A/B); prints their paths

Shapes (records x columns, baseline rules vs candidate rules):
    few-narrow    7 columns;  3 rules vs 5 (first_match)
    many-narrow   7 columns;  200 rules vs 200, a tenth of their thresholds moved (max_score)
    few-wide      64 columns; 3 rules vs 5 over 6 of the columns (first_match)
    many-wide     64 columns; 200 rules vs 200 over every column (max_score)

Narrow records are card transactions cut to what rules usually read; wide ones add columns of every type, most
of which few rules read (as in a feature table). The rule sets declare the types of the columns they read; the
others are left to the reader. The same SHAPE, ROWS and seed always give the same files.
"""

import csv
import os
import random
import sys

COUNTRIES = ["US", "GB", "FR", "DE", "NL", "ES", "IT", "BR", "IN", "NG", "RU", "CN", "JP", "MX", "CA", "AU",
             "PL", "RO", "TR", "ZA"]
CATEGORIES = ["grocery", "travel", "electronics", "gaming", "fuel", "fashion", "gambling", "crypto", "pharmacy",
              "restaurants"]


def narrow_columns():
    return [("id", "string"), ("amount", "double"), ("country", "string"), ("hour", "int"),
            ("account_age_days", "int"), ("txn_count_24h", "int"), ("device_new", "bool")]


def wide_columns():
    cols = narrow_columns()
    kinds = ["int", "double", "string", "bool"]
    for i in range(1, 58):
        cols.append((f"f{i:02d}", kinds[i % 4]))
    return cols


def cell(rng, name, kind):
    if name == "amount":
        return f"{rng.lognormvariate(3.5, 1.3):.2f}"
    if name == "country":
        return COUNTRIES[min(int(rng.expovariate(0.35)), len(COUNTRIES) - 1)]
    if name == "hour":
        return str(rng.randrange(24))
    if name == "account_age_days":
        return str(rng.randrange(3000))
    if name == "txn_count_24h":
        return str(min(int(rng.expovariate(0.3)), 60))
    if kind == "int":
        return str(rng.randrange(1000))
    if kind == "double":
        return f"{rng.random() * 100:.3f}"
    if kind == "string":
        return CATEGORIES[rng.randrange(len(CATEGORIES))]
    return "true" if rng.random() < 0.2 else "false"


def atom(rng, name, kind):
    if name == "amount":
        return f"amount > {rng.choice([50, 100, 250, 500, 1000, 2500])}.0"
    if name == "country":
        picked = rng.sample(COUNTRIES[5:], rng.randrange(1, 4))
        return f"country in [{', '.join(repr(c) for c in picked)}]"
    if name == "hour":
        return f"hour {rng.choice(['<', '>='])} {rng.randrange(1, 23)}"
    if name in ("account_age_days", "txn_count_24h"):
        top = 3000 if name == "account_age_days" else 30
        return f"{name} {rng.choice(['<', '>'])} {rng.randrange(1, top)}"
    if kind == "int":
        return f"{name} {rng.choice(['<', '>'])} {rng.randrange(1, 1000)}"
    if kind == "double":
        return f"{name} {rng.choice(['<', '>'])} {rng.randrange(1, 100)}.5"
    if kind == "string":
        return f"{name} == '{rng.choice(CATEGORIES)}'"
    return name if rng.random() < 0.5 else f"!{name}"


def rules_for(rng, columns, count, readable):
    """`count` rules of 1-3 atoms each over the columns named in `readable`."""
    kinds = dict(columns)
    out = []
    for i in range(count):
        names = rng.sample(readable, min(len(readable), rng.randrange(1, 4)))
        when = " && ".join(atom(rng, n, kinds[n]) for n in names)
        decision = rng.choice(["block", "review", "review", "challenge"])
        out.append({"id": f"r{i:03d}", "when": when, "decision": decision, "score": rng.randrange(10, 100),
                    "reads": names})
    return out


def candidate_of(rng, columns, base, extra, readable):
    """The baseline with a tenth of its rules' thresholds moved, plus `extra` new rules."""
    kinds = dict(columns)
    out = []
    for r in base:
        r = dict(r)
        if rng.random() < 0.1:
            r["when"] = " && ".join(atom(rng, n, kinds[n]) for n in r["reads"])
        out.append(r)
    for r in rules_for(rng, columns, extra, readable):
        r["id"] = f"new_{r['id']}"
        out.append(r)
    return out


def write_rules(path, name, strategy, columns, rules):
    kinds = dict(columns)
    read = sorted({n for r in rules for n in r["reads"]}, key=[c for c, _ in columns].index)
    with open(path, "w") as f:
        f.write(f"name: {name}\nversion: 1\nstrategy: {strategy}\ndefault:\n  decision: allow\n  score: 0\n")
        f.write("fields:\n  id: string\n")
        for n in read:
            f.write(f"  {n}: {kinds[n]}\n")
        f.write("rules:\n")
        for r in rules:
            f.write(f"  - id: {r['id']}\n    when: \"{r['when']}\"\n    decision: {r['decision']}\n"
                    f"    score: {r['score']}\n")


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("few-narrow", "many-narrow", "few-wide", "many-wide"):
        sys.exit(__doc__)
    shape, rows, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    few = shape.startswith("few")
    columns = narrow_columns() if shape.endswith("narrow") else wide_columns()
    rng = random.Random(f"{shape}-7")
    names = [c for c, _ in columns]
    readable = names[1:7] if few else names[1:]
    base = rules_for(rng, columns, 3 if few else 200, readable)
    cand = candidate_of(rng, columns, base, 2 if few else 0, readable)
    strategy = "first_match" if few else "max_score"
    # The second candidate draws from a generator of its own, so that the first three files do not depend on it.
    second = candidate_of(random.Random(f"{shape}-7-second"), columns, base, 1 if few else 0, readable)
    paths = [os.path.join(out, f"{shape}{s}") for s in (".csv", "-baseline.yaml", "-candidate.yaml", "-second.yaml")]
    write_rules(paths[1], f"{shape}-baseline", strategy, columns, base)
    write_rules(paths[2], f"{shape}-candidate", strategy, columns, cand)
    write_rules(paths[3], f"{shape}-second", strategy, columns, second)
    with open(paths[0], "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(names)
        for i in range(rows):
            w.writerow([f"t{i:08d}"] + [cell(rng, n, k) for n, k in columns[1:]])
    print("\n".join(paths))


if __name__ == "__main__":
    main()
