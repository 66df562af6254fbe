// DuckDB as a peer for the end-to-end figures: the same rule sets, their CEL conditions translated to SQL, over
// the same CSV, in one query (DuckDB reads the CSV and evaluates on every core). Prints one JSON line.
//
//   node duckdb_impact.mjs --rules R0.yaml --candidate R1.yaml --data D.csv [--print-sql]
//       the impact of R1 against R0: {engine, mode: "impact", total, affected, seconds}
//   node duckdb_impact.mjs --rules R0.yaml --variant R1.yaml [--variant R2.yaml ...] --data D.csv
//                          [--label-column C] [--print-sql]
//       the A/B of `sandbench rules ab`: every variant against R0 in one pass over the data, with what
//       `rules ab --json` reports per variant (affected, score_changed, the decision mix, the transitions and,
//       with a label column, the confusion of "flagged" and its F1): {engine, mode: "ab", total, labels?,
//       variants: [{name, affected, score_changed, distribution, transitions, flagged?, f1?}], seconds}
//
// The translation covers what rule conditions use (comparisons, arithmetic, &&, ||, !, ?:, `in` a list,
// startsWith/endsWith/contains/matches, size, lowerAscii/upperAscii, timestamp accessors, int/double/string
// conversions); anything else is refused with the rule's id, so no rule is silently translated wrong.
// Regular expressions: DuckDB uses RE2 too, the syntax CEL specifies.

import { DuckDBInstance } from "@duckdb/node-api";
import { parse } from "@bufbuild/cel";
import { readFileSync } from "node:fs";
import { basename, extname } from "node:path";
import { args, loadRuleSet } from "./lib.mjs";

const SQL_TYPES = { int: "BIGINT", double: "DOUBLE", bool: "BOOLEAN", string: "VARCHAR", timestamp: "TIMESTAMPTZ" };

function quoteString(s) {
  return `'${String(s).replaceAll("'", "''")}'`;
}

// Translates one parsed CEL expression; `types` maps field names to rule-set types, for int vs double division.
function translator(types, ruleId) {
  const refuse = (what) => {
    throw new Error(`rule ${ruleId}: cannot translate ${what} to SQL`);
  };
  const typeOf = (e) => {
    const k = e.exprKind;
    if (k.case === "identExpr") return types[k.value.name] ?? "dyn";
    if (k.case === "constExpr") {
      const c = k.value.constantKind.case;
      return c === "int64Value" ? "int" : c === "doubleValue" ? "double" : c === "stringValue" ? "string" : "dyn";
    }
    if (k.case === "callExpr" && ["_+_", "_-_", "_*_", "_/_", "_%_"].includes(k.value.function)) {
      const [a, b] = k.value.args.map(typeOf);
      return a === "double" || b === "double" ? "double" : a;
    }
    return "dyn";
  };
  const binary = { "_==_": "=", "_!=_": "<>", "_<_": "<", "_<=_": "<=", "_>_": ">", "_>=_": ">=", "_+_": "+", "_-_": "-", "_*_": "*", "_%_": "%" };
  const accessors = {
    getHours: "hour", getMinutes: "minute", getSeconds: "second", getFullYear: "year",
    getMonth: "(month({})-1)", getDayOfMonth: "(day({})-1)", getDate: "day", getDayOfWeek: "dayofweek", getDayOfYear: "(dayofyear({})-1)",
  };
  const sql = (e) => {
    const k = e.exprKind;
    switch (k.case) {
      case "identExpr":
        return `"${k.value.name.replaceAll('"', '""')}"`;
      case "constExpr": {
        const c = k.value.constantKind;
        if (c.case === "stringValue") return quoteString(c.value);
        if (c.case === "int64Value" || c.case === "uint64Value") return String(c.value);
        if (c.case === "doubleValue") return Number.isInteger(c.value) ? `${c.value}.0` : String(c.value);
        if (c.case === "boolValue") return c.value ? "TRUE" : "FALSE";
        if (c.case === "nullValue") return "NULL";
        return refuse(`a ${c.case} constant`);
      }
      case "listExpr":
        return `[${k.value.elements.map(sql).join(", ")}]`;
      case "callExpr": {
        const { function: f, args: a, target } = k.value;
        if (f === "_&&_") return `(${sql(a[0])} AND ${sql(a[1])})`;
        if (f === "_||_") return `(${sql(a[0])} OR ${sql(a[1])})`;
        if (f === "!_") return `(NOT ${sql(a[0])})`;
        if (f === "-_") return `(-${sql(a[0])})`;
        if (f === "_?_:_") return `(CASE WHEN ${sql(a[0])} THEN ${sql(a[1])} ELSE ${sql(a[2])} END)`;
        if (f === "_/_") return `(${sql(a[0])} ${typeOf(e) === "double" ? "/" : "//"} ${sql(a[1])})`;
        if (binary[f]) return `(${sql(a[0])} ${binary[f]} ${sql(a[1])})`;
        if (f === "@in") {
          const list = a[1].exprKind;
          if (list.case === "listExpr") return `(${sql(a[0])} IN (${list.value.elements.map(sql).join(", ")}))`;
          return `list_contains(${sql(a[1])}, ${sql(a[0])})`;
        }
        const self = target ? sql(target) : null;
        if (f === "startsWith" && self) return `starts_with(${self}, ${sql(a[0])})`;
        if (f === "endsWith" && self) return `ends_with(${self}, ${sql(a[0])})`;
        if (f === "contains" && self) return `contains(${self}, ${sql(a[0])})`;
        if (f === "matches") return self ? `regexp_matches(${self}, ${sql(a[0])})` : `regexp_matches(${sql(a[0])}, ${sql(a[1])})`;
        if (f === "lowerAscii" && self) return `lower(${self})`;
        if (f === "upperAscii" && self) return `upper(${self})`;
        if (f === "size") return `length(${self ?? sql(a[0])})`;
        if (f === "int") return `CAST(${sql(a[0])} AS BIGINT)`;
        if (f === "double") return `CAST(${sql(a[0])} AS DOUBLE)`;
        if (f === "string") return `CAST(${sql(a[0])} AS VARCHAR)`;
        if (accessors[f] && self && a.length === 0) {
          const fn = accessors[f];
          return fn.includes("{}") ? fn.replace("{}", self) : `${fn}(${self})`;
        }
        return refuse(`the function ${f}`);
      }
      default:
        return refuse(`a ${k.case}`);
    }
  };
  return sql;
}

function conditionSql(ruleSet, types) {
  return ruleSet.rules.map((r) => {
    const parsed = parse(r.when);
    return `COALESCE(${translator(types, r.id)(parsed.expr)}, FALSE)`;
  });
}

// One rule set's decision in three steps, one per query stage: its rules' conditions as boolean columns
// (`matched`), the best score among matching rules for max_score (`best`), and the decision its strategy picks
// with its score (`decision`: columns NAME and NAME_score; for max_score the first rule in file order that
// matched with the best score).
function decisionStages(name, ruleSet, types) {
  const conditions = conditionSql(ruleSet, types);
  const m = (i) => `${name}_m${i}`;
  const fallback = quoteString(ruleSet.defaultDecision);
  const fallbackScore = String(ruleSet.defaultScore);
  const matched = conditions.map((c, i) => `${c} AS ${m(i)}`);
  if (ruleSet.rules.length === 0)
    return { matched: [], best: [], decision: `${fallback} AS ${name}, ${fallbackScore} AS ${name}_score` };
  if (ruleSet.strategy === "first_match") {
    const whens = ruleSet.rules.map((r, i) => `WHEN ${m(i)} THEN ${quoteString(r.decision)}`);
    const scores = ruleSet.rules.map((r, i) => `WHEN ${m(i)} THEN ${r.score}`);
    return {
      matched,
      best: [],
      decision: `CASE ${whens.join(" ")} ELSE ${fallback} END AS ${name}, ` +
        `CASE ${scores.join(" ")} ELSE ${fallbackScore} END AS ${name}_score`,
    };
  }
  const scores = ruleSet.rules.map((r, i) => `CASE WHEN ${m(i)} THEN ${r.score} END`);
  const whens = ruleSet.rules.map((r, i) => `WHEN ${m(i)} AND ${r.score} = ${name}_best THEN ${quoteString(r.decision)}`);
  return {
    matched,
    best: [`GREATEST(${scores.join(", ")}) AS ${name}_best`],
    decision: `CASE ${whens.join(" ")} ELSE ${fallback} END AS ${name}, COALESCE(${name}_best, ${fallbackScore}) AS ${name}_score`,
  };
}

// A label as `rules impact` reads it (docs/RULES.md, "Labels"): 1 positive, 0 negative, NULL unlabeled.
function labelSql(column) {
  const text = `lower(trim(CAST(${column} AS VARCHAR)))`;
  const number = `TRY_CAST(${text} AS DOUBLE)`;
  return `CASE WHEN ${text} IN ('true', 'yes', 'y', 't', 'fraud', 'positive', 'bad') THEN 1
    WHEN ${text} IN ('false', 'no', 'n', 'f', 'legit', 'negative', 'good') THEN 0
    WHEN ${number} IS NOT NULL THEN CASE WHEN ${number} <> 0 THEN 1 ELSE 0 END END`;
}

const quoteIdent = (name) => `"${name.replaceAll('"', '""')}"`;

// The counts of one confusion matrix, with precision, recall and fpr as `rules impact` reports them.
function confusion(tp, fp, positives, negatives) {
  const ratio = (a, b) => (b === 0 ? null : a / b);
  return { tp, fp, fn: positives - tp, tn: negatives - fp, precision: ratio(tp, tp + fp), recall: ratio(tp, positives), fpr: ratio(fp, negatives) };
}

// The A/B's figures per variant from the query's groups: one row per combination of the decisions of every
// rule set and the label, with its count and, per variant, how many of its records kept the decision with
// another score.
function abFigures(rows, variants, defaultDecision, labelled) {
  const total = rows.reduce((n, r) => n + Number(r.n), 0);
  const positives = rows.reduce((n, r) => n + (r.label === 1 ? Number(r.n) : 0), 0);
  const negatives = rows.reduce((n, r) => n + (r.label === 0 ? Number(r.n) : 0), 0);
  const figures = variants.map((name, i) => {
    const v = `v${i}`;
    let affected = 0, scoreChanged = 0, tp = 0, fp = 0;
    const distribution = {};
    const transitions = new Map();
    for (const r of rows) {
      const n = Number(r.n);
      distribution[r[v]] = (distribution[r[v]] ?? 0) + n;
      scoreChanged += Number(r[`${v}_rescored`]);
      if (r[v] !== r.b) {
        affected += n;
        const key = `${r.b}\u0000${r[v]}`;
        const transition = transitions.get(key) ?? { from: r.b, to: r[v], count: 0 };
        transition.count += n;
        transitions.set(key, transition);
      }
      if (r[v] !== defaultDecision && r.label === 1) tp += n;
      if (r[v] !== defaultDecision && r.label === 0) fp += n;
    }
    const out = {
      name,
      total,
      affected,
      impact_rate: total === 0 ? 0 : affected / total,
      score_changed: scoreChanged,
      distribution,
      transitions: [...transitions.values()].sort((a, b) => b.count - a.count || a.from.localeCompare(b.from) || a.to.localeCompare(b.to)),
    };
    if (labelled) {
      out.flagged = confusion(tp, fp, positives, negatives);
      const { precision, recall } = out.flagged;
      out.f1 = precision === null || recall === null || precision + recall === 0 ? null : (2 * precision * recall) / (precision + recall);
    }
    return out;
  });
  return { total, positives, negatives, figures };
}

// The CSV as DuckDB reads it: the header's columns with the rule sets' declared types, VARCHAR otherwise.
function csvSource(path, declared) {
  const header = readFileSync(path, "utf8").slice(0, 65536).split("\n")[0].replace(/^\uFEFF/, "").replace(/\r$/, "").split(",");
  const columns = header.map((name) => `${quoteString(name)}: ${quoteString(SQL_TYPES[declared[name]] ?? "VARCHAR")}`);
  return { header, sql: `read_csv(${quoteString(path)}, header = true, auto_detect = false, columns = {${columns.join(", ")}})` };
}

async function query(sql) {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  const reader = await connection.runAndReadAll(sql);
  return reader.getRowObjects();
}

async function impact(opts, t0) {
  const baseline = loadRuleSet(opts.rules);
  const candidate = loadRuleSet(opts.candidate);
  const declared = { ...baseline.fields, ...candidate.fields };
  const source = csvSource(opts.data, declared).sql;
  const b = decisionStages("b", baseline, declared);
  const c = decisionStages("c", candidate, declared);
  const sql = `WITH matched AS (SELECT ${[...b.matched, ...c.matched, "1 AS one"].join(", ")} FROM ${source}),
best AS (SELECT *, ${[...b.best, ...c.best, "1 AS two"].join(", ")} FROM matched),
decided AS (SELECT ${b.decision}, ${c.decision} FROM best)
SELECT count(*) AS total, count(*) FILTER (WHERE b <> c) AS affected FROM decided`;
  if (opts["print-sql"]) console.error(sql);
  const [row] = await query(sql);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { engine: "duckdb", mode: "impact", total: Number(row.total), affected: Number(row.affected), seconds };
}

async function ab(opts, t0) {
  const baseline = loadRuleSet(opts.rules);
  const files = [opts.variant].flat();
  const variants = files.map((f) => loadRuleSet(f));
  const declared = Object.assign({}, baseline.fields, ...variants.map((v) => v.fields));
  const { header, sql: source } = csvSource(opts.data, declared);
  const labelColumn = typeof opts["label-column"] === "string" ? opts["label-column"] : null;
  if (labelColumn !== null && !header.includes(labelColumn)) throw new Error(`${opts.data}: no column '${labelColumn}'`);
  const stages = [decisionStages("b", baseline, declared), ...variants.map((v, i) => decisionStages(`v${i}`, v, declared))];
  const label = labelColumn === null ? "NULL" : labelSql(quoteIdent(labelColumn));
  const groups = ["b", ...variants.map((_, i) => `v${i}`), "label"];
  const rescored = variants.map((_, i) => `count(*) FILTER (WHERE v${i} = b AND v${i}_score <> b_score) AS v${i}_rescored`);
  const sql = `WITH matched AS (SELECT ${[...stages.flatMap((s) => s.matched), `${label} AS label`].join(", ")} FROM ${source}),
best AS (SELECT *, ${[...stages.flatMap((s) => s.best), "1 AS two"].join(", ")} FROM matched),
decided AS (SELECT ${[...stages.map((s) => s.decision), "label"].join(", ")} FROM best)
SELECT ${groups.join(", ")}, count(*) AS n, ${rescored.join(", ")} FROM decided GROUP BY ${groups.join(", ")}`;
  if (opts["print-sql"]) console.error(sql);
  const rows = (await query(sql)).map((r) => ({ ...r, label: r.label === null ? null : Number(r.label) }));
  const names = files.map((f) => basename(f, extname(f)));
  const { total, positives, negatives, figures } = abFigures(rows, names, baseline.defaultDecision, labelColumn !== null);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const labels = labelColumn === null ? undefined : { label_column: labelColumn, positives, negatives, unlabeled: total - positives - negatives };
  return { engine: "duckdb", mode: "ab", total, labels, variants: figures, seconds };
}

async function main() {
  const opts = args(process.argv.slice(2));
  const isAb = opts.variant !== undefined;
  if (!opts.rules || !opts.data || isAb === (opts.candidate !== undefined)) {
    console.error("usage: node duckdb_impact.mjs --rules R0.yaml --candidate R1.yaml --data D.csv [--print-sql]\n" +
      "       node duckdb_impact.mjs --rules R0.yaml --variant R1.yaml [--variant R2.yaml ...] --data D.csv [--label-column C] [--print-sql]");
    process.exit(2);
  }
  const t0 = process.hrtime.bigint();
  console.log(JSON.stringify(isAb ? await ab(opts, t0) : await impact(opts, t0)));
}

await main();
