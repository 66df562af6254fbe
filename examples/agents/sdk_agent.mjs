// An agent written with the official MCP TypeScript SDK, unchanged: its Client speaks to Sandbench over this
// process's own stdin and stdout (the SDK's stdio transport carries messages whichever side it is on), lists the
// tools, and makes a few calls, one of them refused by the policy. Node finds the SDK in a node_modules beside
// the script (copy tests/agents/peers/node_modules there after `npm ci` in tests/agents/peers):
//   sandbench agent run --read "$PWD/examples/agents" -- node "$PWD/examples/agents/sdk_agent.mjs"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const client = new Client({ name: "sdk-agent", version: "1.0.0" });
await client.connect(new StdioServerTransport());
const { tools } = await client.listTools();
const log = (line) => process.stderr.write(line + "\n");
log(`tools: ${tools.map((t) => t.name).join(", ")}`);

const calls = [
  ["write_file", { path: "hello.txt", content: "written by an SDK agent\n" }],
  ["read_file", { path: "hello.txt" }],
  ["list_dir", {}],
  ["read_file", { path: "/etc/hostname" }],
];
for (const [name, args] of calls) {
  const result = await client.callTool({ name, arguments: args, _meta: { reasoning: `the SDK agent calls ${name}` } });
  const text = result.content.map((c) => c.text ?? "").join("");
  log(`${name}: ${result.isError ? "refused: " : ""}${text.trim()}`);
}
await client.close();
