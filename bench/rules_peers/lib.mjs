// Shared by the peer benchmarks: rule sets (Sandbench's YAML format, README "Rule sets"), a typed CSV reader,
// and the decision logic of the two strategies. Benchmark-only code: the inputs are Sandbench's own demo and
// generated files, so the CSV reader handles what they hold (RFC 4180 quoting included), nothing more.

import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";

export function loadRuleSet(path) {
  const doc = parseYaml(readFileSync(path, "utf8"));
  const strategy = doc.strategy ?? "first_match";
  if (strategy !== "first_match" && strategy !== "max_score")
    throw new Error(`${path}: unknown strategy '${strategy}'`);
  const rules = (doc.rules ?? [])
    .filter((r) => r.enabled !== false)
    .map((r) => ({ id: String(r.id), when: String(r.when), decision: String(r.decision), score: Number(r.score ?? 0) }));
  return {
    name: String(doc.name ?? path),
    strategy,
    defaultDecision: String(doc.default?.decision ?? "allow"),
    defaultScore: Number(doc.default?.score ?? 0),
    fields: doc.fields ?? {},
    rules,
  };
}

// One CSV line split into fields, with RFC 4180 quotes. Quoted fields here never span lines.
function splitCsvLine(line) {
  const out = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = "";
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new Error(`unterminated quote: ${line}`);
        value += line.slice(i, q);
        if (line[q + 1] === '"') {
          value += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(value);
      i++; // the comma
    } else {
      const comma = line.indexOf(",", i);
      const end = comma < 0 ? line.length : comma;
      out.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return out;
}

// Column types: the rule set's `fields` where declared, else inferred from the first data row.
function inferType(text) {
  if (text === "true" || text === "false") return "bool";
  if (/^-?\d+$/.test(text)) return "int";
  if (/^-?\d+\.\d*([eE][-+]?\d+)?$/.test(text)) return "double";
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return "timestamp";
  return "string";
}

// Reads a CSV file into records, converting each value with convert[type](text).
export function readCsv(path, fields, convert) {
  const text = readFileSync(path, "utf8");
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let nl = text.indexOf("\n", start);
  const header = splitCsvLine(text.slice(start, nl).replace(/\r$/, ""));
  start = nl + 1;
  const records = [];
  let types = null;
  while (start < text.length) {
    nl = text.indexOf("\n", start);
    if (nl < 0) nl = text.length;
    const line = text.slice(start, nl).replace(/\r$/, "");
    start = nl + 1;
    if (line.length === 0) continue;
    const values = splitCsvLine(line);
    if (!types) types = header.map((name, i) => fields[name] ?? inferType(values[i] ?? ""));
    const record = {};
    for (let i = 0; i < header.length; i++) record[header[i]] = convert[types[i]](values[i] ?? "");
    records.push(record);
  }
  return { header, types: types ?? header.map((name) => fields[name] ?? "string"), records };
}

// The decision of one rule set for one record, given matched(ruleIndex) -> boolean (an error is no match).
export function decide(ruleSet, matched) {
  if (ruleSet.strategy === "first_match") {
    for (let i = 0; i < ruleSet.rules.length; i++) {
      if (matched(i)) return { decision: ruleSet.rules[i].decision, score: ruleSet.rules[i].score, rule: ruleSet.rules[i].id };
    }
  } else {
    let best = -1;
    for (let i = 0; i < ruleSet.rules.length; i++) {
      if (matched(i) && (best < 0 || ruleSet.rules[i].score > ruleSet.rules[best].score)) best = i;
    }
    if (best >= 0) return { decision: ruleSet.rules[best].decision, score: ruleSet.rules[best].score, rule: ruleSet.rules[best].id };
  }
  return { decision: ruleSet.defaultDecision, score: ruleSet.defaultScore, rule: null };
}

// Options as { name: value }; a repeated option (`--variant A --variant B`) as { name: [A, B] }.
export function args(argv) {
  const out = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith("--")) {
      out._.push(argv[i]);
      continue;
    }
    const name = argv[i].slice(2);
    const value = argv[i + 1]?.startsWith("--") === false ? argv[++i] : true;
    out[name] = name in out ? [out[name], value].flat() : value;
  }
  return out;
}
