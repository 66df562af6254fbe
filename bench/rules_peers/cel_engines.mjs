// The JavaScript CEL engines as peers: @bufbuild/cel and @marcbachmann/cel-js, on Sandbench's rule sets and
// data. Prints one JSON line.
//
//   node cel_engines.mjs --engine bufbuild|celjs --mode throughput --rules R.yaml --data D.csv [--threads N]
//       every enabled rule on every record (records x rules), the CSV read and the compilation untimed;
//       N worker threads (default: one per core) share the records.
//   node cel_engines.mjs --engine bufbuild|celjs --mode impact --rules R0.yaml --candidate R1.yaml --data D.csv
//       end to end, timed from start: read the CSV, evaluate both rule sets with their strategy, count the
//       records whose decision changed (one thread, as a script would).

import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { args, decide, loadRuleSet, readCsv } from "./lib.mjs";

async function engine(name) {
  if (name === "bufbuild") {
    const cel = await import("@bufbuild/cel");
    const { timestampFromMs } = await import("@bufbuild/protobuf/wkt");
    const env = cel.celEnv();
    return {
      convert: {
        int: (t) => BigInt(t),
        double: (t) => Number(t),
        bool: (t) => t === "true",
        string: (t) => t,
        timestamp: (t) => timestampFromMs(Date.parse(t)),
      },
      compile(source) {
        const run = cel.plan(env, cel.parse(source));
        return (record) => run(record) === true; // a CelError or a non-bool is no match
      },
    };
  }
  if (name === "celjs") {
    const celjs = await import("@marcbachmann/cel-js");
    return {
      convert: {
        int: (t) => BigInt(t),
        double: (t) => Number(t),
        bool: (t) => t === "true",
        string: (t) => t,
        timestamp: (t) => new Date(t),
      },
      compile(source) {
        const run = celjs.parse(source);
        return (record) => {
          try {
            return run(record) === true;
          } catch {
            return false;
          }
        };
      },
    };
  }
  throw new Error(`unknown engine '${name}' (bufbuild, celjs)`);
}

// Every rule on records[from, to): how many matched (so the work cannot be optimised away).
function evaluateAll(programs, records, from, to) {
  let hits = 0;
  for (let r = from; r < to; r++) {
    const record = records[r];
    for (const p of programs) if (p(record)) hits++;
  }
  return hits;
}

async function throughput(opts) {
  const ruleSet = loadRuleSet(opts.rules);
  const threads = Number(opts.threads ?? availableParallelism());
  const e = await engine(opts.engine);
  const { records } = readCsv(opts.data, ruleSet.fields, e.convert);
  if (threads <= 1) {
    const programs = ruleSet.rules.map((r) => e.compile(r.when));
    const t0 = process.hrtime.bigint();
    const hits = evaluateAll(programs, records, 0, records.length);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    return { records: records.length, rules: programs.length, threads: 1, seconds, hits };
  }
  // Each worker reads the same file itself (untimed) and takes one slice: records do not cross threads.
  const me = fileURLToPath(import.meta.url);
  const workers = [];
  for (let i = 0; i < threads; i++) {
    const w = new Worker(me, { workerData: { ...opts, slice: i, slices: threads } });
    workers.push(w);
  }
  const ready = workers.map((w) => new Promise((res, rej) => { w.once("message", res); w.once("error", rej); }));
  await Promise.all(ready);
  const t0 = process.hrtime.bigint();
  const done = workers.map((w) => new Promise((res, rej) => { w.once("message", res); w.once("error", rej); }));
  for (const w of workers) w.postMessage("go");
  const results = await Promise.all(done);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  for (const w of workers) await w.terminate();
  return {
    records: results.reduce((a, r) => a + r.records, 0),
    rules: ruleSet.rules.length,
    threads,
    seconds,
    hits: results.reduce((a, r) => a + r.hits, 0),
  };
}

async function worker() {
  const opts = workerData;
  const ruleSet = loadRuleSet(opts.rules);
  const e = await engine(opts.engine);
  const { records } = readCsv(opts.data, ruleSet.fields, e.convert);
  const programs = ruleSet.rules.map((r) => e.compile(r.when));
  const per = Math.ceil(records.length / opts.slices);
  const from = opts.slice * per;
  const to = Math.min(records.length, from + per);
  parentPort.postMessage("ready");
  parentPort.once("message", () => {
    const hits = evaluateAll(programs, records, from, to);
    parentPort.postMessage({ records: to - from, hits });
  });
}

async function impact(opts) {
  const t0 = process.hrtime.bigint();
  const baseline = loadRuleSet(opts.rules);
  const candidate = loadRuleSet(opts.candidate);
  const e = await engine(opts.engine);
  const { records, header } = readCsv(opts.data, { ...baseline.fields, ...candidate.fields }, e.convert);
  const idColumn = opts["id-column"] ?? (header.includes("id") ? "id" : null);
  const compileSet = (set) => set.rules.map((r) => e.compile(r.when));
  const b = compileSet(baseline);
  const c = compileSet(candidate);
  let affected = 0;
  const firstChanged = [];
  for (const record of records) {
    const old = decide(baseline, (i) => b[i](record));
    const now = decide(candidate, (i) => c[i](record));
    if (old.decision !== now.decision) {
      affected++;
      if (firstChanged.length < 3) firstChanged.push(String(idColumn ? record[idColumn] : ""));
    }
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { total: records.length, affected, seconds, first_changed: firstChanged };
}

if (isMainThread) {
  const opts = args(process.argv.slice(2));
  if (!opts.engine || !opts.rules || !opts.data || (opts.mode === "impact" && !opts.candidate)) {
    console.error("usage: node cel_engines.mjs --engine bufbuild|celjs --mode throughput|impact --rules R --data D [--candidate R1] [--threads N]");
    process.exit(2);
  }
  const result = opts.mode === "impact" ? await impact(opts) : await throughput(opts);
  console.log(JSON.stringify({ engine: opts.engine, mode: opts.mode ?? "throughput", ...result }));
} else {
  await worker();
}
