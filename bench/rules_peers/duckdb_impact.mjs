// DuckDB as a peer for the end-to-end impact figure: the same two rule sets, their CEL conditions translated to
// SQL, over the same CSV, in one query (DuckDB reads the CSV and evaluates on every core). Prints one JSON line.
//
//   node duckdb_impact.mjs --rules R0.yaml --candidate R1.yaml --data D.csv [--print-sql]
//
// The translation covers what rule conditions use (comparisons, arithmetic, &&, ||, !, ?:, `in` a list,
// startsWith/endsWith/contains/matches, size, lowerAscii/upperAscii, timestamp accessors, int/double/string
// conversions); anything else is refused with the rule's id, so no rule is silently translated wrong.
// Regular expressions: DuckDB uses RE2 too, the syntax CEL specifies.

import { DuckDBInstance } from "@duckdb/node-api";
import { parse } from "@bufbuild/cel";
import { readFileSync } from "node:fs";
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
// (`decision`; for max_score the first rule in file order that matched with the best score).
function decisionStages(name, ruleSet, types) {
  const conditions = conditionSql(ruleSet, types);
  const m = (i) => `${name}_m${i}`;
  const fallback = quoteString(ruleSet.defaultDecision);
  const matched = conditions.map((c, i) => `${c} AS ${m(i)}`);
  if (ruleSet.rules.length === 0) return { matched: [], best: [], decision: `${fallback} AS ${name}` };
  if (ruleSet.strategy === "first_match") {
    const whens = ruleSet.rules.map((r, i) => `WHEN ${m(i)} THEN ${quoteString(r.decision)}`);
    return { matched, best: [], decision: `CASE ${whens.join(" ")} ELSE ${fallback} END AS ${name}` };
  }
  const scores = ruleSet.rules.map((r, i) => `CASE WHEN ${m(i)} THEN ${r.score} END`);
  const whens = ruleSet.rules.map((r, i) => `WHEN ${m(i)} AND ${r.score} = ${name}_best THEN ${quoteString(r.decision)}`);
  return {
    matched,
    best: [`GREATEST(${scores.join(", ")}) AS ${name}_best`],
    decision: `CASE ${whens.join(" ")} ELSE ${fallback} END AS ${name}`,
  };
}

async function main() {
  const opts = args(process.argv.slice(2));
  if (!opts.rules || !opts.candidate || !opts.data) {
    console.error("usage: node duckdb_impact.mjs --rules R0.yaml --candidate R1.yaml --data D.csv [--print-sql]");
    process.exit(2);
  }
  const t0 = process.hrtime.bigint();
  const baseline = loadRuleSet(opts.rules);
  const candidate = loadRuleSet(opts.candidate);
  const header = readFileSync(opts.data, "utf8").slice(0, 65536).split("\n")[0].replace(/^\uFEFF/, "").replace(/\r$/, "").split(",");
  const declared = { ...baseline.fields, ...candidate.fields };
  const columns = header.map((name) => `${quoteString(name)}: ${quoteString(SQL_TYPES[declared[name]] ?? "VARCHAR")}`);
  const source = `read_csv(${quoteString(opts.data)}, header = true, auto_detect = false, columns = {${columns.join(", ")}})`;

  const b = decisionStages("b", baseline, declared);
  const c = decisionStages("c", candidate, declared);
  const sql = `WITH matched AS (SELECT ${[...b.matched, ...c.matched, "1 AS one"].join(", ")} FROM ${source}),
best AS (SELECT *, ${[...b.best, ...c.best, "1 AS two"].join(", ")} FROM matched),
decided AS (SELECT ${b.decision}, ${c.decision} FROM best)
SELECT count(*) AS total, count(*) FILTER (WHERE b <> c) AS affected FROM decided`;
  if (opts["print-sql"]) console.error(sql);

  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  const reader = await connection.runAndReadAll(sql);
  const [row] = reader.getRowObjects();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(JSON.stringify({ engine: "duckdb", mode: "impact", total: Number(row.total), affected: Number(row.affected), seconds }));
}

await main();
