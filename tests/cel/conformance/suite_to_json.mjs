// Writes the CEL conformance suite shipped by @bufbuild/cel-spec (in node_modules beside this file, pinned by
// package-lock.json) as one JSON file for test_cel_conformance:
//   {"version": "...", "files": [{"name": "basic", "tests": [{"section": ..., "name": ..., "expr": ...,
//     "disableCheck": ..., "container": ..., "typeEnv": [...], "bindings": {...}, "value": {...} | "evalError": {...}}]}]}
// Values keep the suite's protobuf JSON form (int64Value as a string, bytesValue in base64, ...).
//
//   node suite_to_json.mjs OUTPUT.json
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const out = process.argv[2];
if (!out) {
  console.error("usage: node suite_to_json.mjs OUTPUT.json");
  process.exit(2);
}
let tests, version;
try {
  ({ tests } = await import("@bufbuild/cel-spec/testdata/conformance.js"));
  // The package exports no package.json; read it from where the module resolved.
  const entry = createRequire(import.meta.url).resolve("@bufbuild/cel-spec/testdata/conformance.js");
  const pkg = entry.slice(0, entry.lastIndexOf("/dist/")) + "/package.json";
  version = JSON.parse(readFileSync(pkg, "utf8")).version;
} catch (e) {
  console.error(`@bufbuild/cel-spec is not installed: run 'npm ci' in ${new URL(".", import.meta.url).pathname} ` +
    `(scripts/test does it when node_modules is missing)\n${e.message}`);
  process.exit(1);
}

const files = tests.suites.map((file) => ({
  name: file.name,
  tests: (file.suites ?? []).flatMap((section) =>
    (section.tests ?? []).map((t) => ({ section: section.name, ...t.original }))),
}));
writeFileSync(out, JSON.stringify({ package: "@bufbuild/cel-spec", version, files }));
console.log(`${out}: ${files.reduce((n, f) => n + f.tests.length, 0)} tests in ${files.length} files (cel-spec ${version})`);
