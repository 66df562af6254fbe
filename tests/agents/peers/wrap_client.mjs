// An MCP client written with the official TypeScript SDK (its Client and StdioClientTransport, unchanged) that walks
// one of the reference servers through whatever command it is given: `sandbench mcp wrap ... -- node SERVER`, or
// the server itself. It prints one JSON summary of what each request got back on stdout; the checks are the
// caller's (test_mcp_wrap.py), so the same walk serves a run through Sandbench and a run without it.
//
//   node wrap_client.mjs filesystem|everything [--nonce N] [--frames FILE] [--timeout-ms MS] -- COMMAND ARGS...
//
// filesystem expects server-filesystem started with the workspace (".") as its first allowed folder and /tmp as
// its second; the test seeds the workspace with seed.txt. everything expects server-everything on stdio.
// A call that gets a JSON-RPC error or no answer within --timeout-ms is recorded as such and the walk goes on.
// Exit status: 0 when the walk ran to its end (whatever each call answered), 1 when the connection failed or
// closed, 2 on a usage error. The summary is printed in every case.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
    CreateMessageRequestSchema,
    ListRootsRequestSchema,
    LoggingMessageNotificationSchema,
    ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { appendFileSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

function usage(message) {
    process.stderr.write(`wrap_client.mjs: ${message}\n` +
        "usage: node wrap_client.mjs filesystem|everything [--nonce N] [--frames FILE] [--timeout-ms MS] -- COMMAND ARGS...\n");
    process.exit(2);
}

function parseArguments(argv) {
    const options = { nonce: String(process.pid), frames: null, timeoutMs: 30000 };
    const split = argv.indexOf("--");
    if (split < 0 || split === argv.length - 1)
        usage("the server's command goes after --");
    const own = argv.slice(0, split);
    options.command = argv[split + 1];
    options.args = argv.slice(split + 2);
    options.walk = own.shift();
    if (!["filesystem", "everything"].includes(options.walk))
        usage(`unknown walk '${options.walk ?? ""}'`);
    while (own.length) {
        const flag = own.shift();
        const value = own.shift();
        if (value === undefined)
            usage(`${flag} needs a value`);
        if (flag === "--nonce")
            options.nonce = value;
        else if (flag === "--frames")
            options.frames = value;
        else if (flag === "--timeout-ms")
            options.timeoutMs = Number(value);
        else
            usage(`unknown option ${flag}`);
    }
    if (!/^[A-Za-z0-9-]+$/.test(options.nonce))
        usage("--nonce takes letters, digits and dashes");
    if (!(options.timeoutMs > 0))
        usage("--timeout-ms takes a positive number");
    return options;
}

// Shows every frame the client sends and receives to observe(direction, message). Installed in start(), which
// the SDK calls after it has set its own handlers, so the SDK's code stays as it is.
function watchFrames(transport, observe) {
    const start = transport.start.bind(transport);
    transport.start = async () => {
        const received = transport.onmessage;
        transport.onmessage = (message, extra) => {
            observe("from server", message);
            received?.(message, extra);
        };
        const send = transport.send.bind(transport);
        transport.send = (message, options) => {
            observe("to server", message);
            return send(message, options);
        };
        return start();
    };
}

// The text of a tool result's content blocks, joined.
function textOf(result) {
    return (result?.content ?? []).filter((block) => block.type === "text").map((block) => block.text).join("\n");
}

class Walk {
    constructor(options) {
        this.options = options;
        this.summary = {
            walk: options.walk,
            command: [options.command, ...options.args],
            completed: false,
            server: null,
            calls: [],
            notifications: { progress: [], logging: 0, tools_list_changed: 0 },
            server_requests: { "roots/list": 0, "sampling/createMessage": 0 },
            stderr_tail: "",
        };
        this.stderr = "";
        // Progress notifications and responses from the server in the order they arrived. The SDK hands
        // notifications to their handlers a microtask later than responses, so a progress notification read
        // together with its call's result never reaches onprogress; the frames show what the gateway passed.
        this.arrivals = [];
    }

    async connect(capabilities) {
        const transport = new StdioClientTransport({
            command: this.options.command,
            args: this.options.args,
            env: { ...process.env },
            stderr: "pipe",
        });
        transport.stderr?.on("data", (chunk) => {
            this.stderr = (this.stderr + chunk.toString()).slice(-8000);
        });
        // The frames go to --frames (one JSON line each) for the report of a failure; the answer to initialize
        // tells the protocol version the two sides settled on.
        if (this.options.frames)
            writeFileSync(this.options.frames, "");
        this.summary.frames = { to_server: 0, from_server: 0 };
        watchFrames(transport, (direction, message) => {
            this.summary.frames[direction === "to server" ? "to_server" : "from_server"] += 1;
            if (direction === "from server" && message.method === "notifications/progress")
                this.arrivals.push({ progress: message.params?.progress });
            else if (direction === "from server" && message.id !== undefined && !message.method)
                this.arrivals.push({ response: message.id });
            if (message.id === 0 && message.result?.protocolVersion)
                this.protocolVersion = message.result.protocolVersion;
            if (this.options.frames) {
                appendFileSync(this.options.frames,
                    JSON.stringify({ direction, at_ms: Math.round(performance.now()), message }) + "\n");
            }
        });
        this.client = new Client({ name: "sandbench-peer-test", version: "1.0.0" }, { capabilities });
        this.client.setNotificationHandler(LoggingMessageNotificationSchema, () => {
            this.summary.notifications.logging += 1;
        });
        this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
            this.summary.notifications.tools_list_changed += 1;
        });
        const started = performance.now();
        await this.client.connect(transport, { timeout: this.options.timeoutMs });
        this.summary.server = {
            info: this.client.getServerVersion(),
            capabilities: this.client.getServerCapabilities(),
            protocol_version: this.protocolVersion ?? null,
            connect_ms: Math.round(performance.now() - started),
        };
    }

    // One request through the SDK; a JSON-RPC error or a timeout is recorded, not thrown, so the walk goes on.
    async request(name, send) {
        const entry = { name };
        const started = performance.now();
        try {
            entry.result = await send();
        } catch (error) {
            entry.error = { message: String(error?.message ?? error), code: error?.code ?? null };
        }
        entry.ms = Math.round((performance.now() - started) * 10) / 10;
        return entry;
    }

    // tools/call, recorded in summary.calls with what the walk needs to check.
    async call(name, tool, args, options = {}) {
        const from = this.arrivals.length;
        const entry = await this.request(name, () =>
            this.client.callTool({ name: tool, arguments: args }, undefined, { timeout: this.options.timeoutMs, ...options }));
        const record = { name, tool, arguments: args, ms: entry.ms };
        // The walk makes one call at a time: what arrived meanwhile is this call's.
        const arrived = this.arrivals.slice(from);
        if (arrived.some((a) => a.progress !== undefined))
            record.progress_frames = arrived.map((a) => (a.progress !== undefined ? a.progress : "result"));
        if (entry.error) {
            record.error = entry.error;
        } else {
            record.is_error = entry.result.isError === true;
            record.text = textOf(entry.result);
            if (entry.result.structuredContent !== undefined)
                record.structured_content = entry.result.structuredContent;
        }
        this.summary.calls.push(record);
        return record;
    }

    async listToolNames() {
        const entry = await this.request("tools/list", () => this.client.listTools(undefined, { timeout: this.options.timeoutMs }));
        if (entry.error)
            return { error: entry.error };
        const annotations = {};
        for (const tool of entry.result.tools)
            annotations[tool.name] = tool.annotations ?? null;
        return { names: entry.result.tools.map((tool) => tool.name).sort(), annotations };
    }

    async close() {
        await this.client?.close();
    }
}

// server-filesystem: reads, writes inside and outside the workspace, a blocked tool, a listing.
async function walkFilesystem(walk) {
    const { nonce } = walk.options;
    await walk.connect({});
    walk.summary.tools = await walk.listToolNames();
    const allowed = await walk.call("allowed directories", "list_allowed_directories", {});
    // "Allowed directories:\n/first\n/second": the first is the server's working folder, the workspace.
    const workspace = allowed.text?.split("\n")[1] ?? null;
    walk.summary.workspace = workspace;
    if (!workspace)
        return;
    const note = `${workspace}/peer-note-${nonce}.txt`;
    await walk.call("read seed", "read_text_file", { path: `${workspace}/seed.txt` });
    await walk.call("write inside", "write_file", { path: note, content: `written through the gateway ${nonce}\n` });
    await walk.call("read back", "read_text_file", { path: note });
    await walk.call("edit inside", "edit_file", {
        path: note,
        edits: [{ oldText: "through the gateway", newText: "and edited through the gateway" }],
    });
    await walk.call("write to /etc", "write_file", { path: `/etc/sandbench-peer-${nonce}`, content: "escaped\n" });
    await walk.call("write to ../", "write_file", { path: `${workspace}/../sandbench-peer-${nonce}.txt`, content: "escaped\n" });
    await walk.call("write to /tmp", "write_file", { path: `/tmp/sandbench-peer-${nonce}.txt`, content: "escaped\n" });
    await walk.call("blocked tool", "move_file", { source: note, destination: `${workspace}/moved-${nonce}.txt` });
    await walk.call("list workspace", "list_directory", { path: workspace });
}

// server-everything: plain tools, progress, server-to-client requests inside a call, cancellation, resources,
// prompts, and a tool the policy blocks.
async function walkEverything(walk) {
    const rootUri = `file:///sandbench-peer-root-${walk.options.nonce}`;
    await walk.connect({ roots: { listChanged: true }, sampling: {} });
    walk.client.setRequestHandler(ListRootsRequestSchema, () => {
        walk.summary.server_requests["roots/list"] += 1;
        return { roots: [{ uri: rootUri, name: "peer test root" }] };
    });
    walk.client.setRequestHandler(CreateMessageRequestSchema, () => {
        walk.summary.server_requests["sampling/createMessage"] += 1;
        return {
            role: "assistant",
            content: { type: "text", text: `scripted sample ${walk.options.nonce}` },
            model: "scripted",
            stopReason: "endTurn",
        };
    });
    walk.summary.root_uri = rootUri;
    walk.summary.tools = await walk.listToolNames();
    await walk.call("echo", "echo", { message: `hello through the gateway ${walk.options.nonce}` });
    await walk.call("sum", "get-sum", { a: 2, b: 40 });
    await walk.call("progress", "trigger-long-running-operation", { duration: 1, steps: 4 }, {
        onprogress: (progress) => walk.summary.notifications.progress.push(progress.progress),
        resetTimeoutOnProgress: true,
    });
    await walk.call("roots inside a call", "get-roots-list", {});
    await walk.call("sampling inside a call", "trigger-sampling-request", { prompt: "say hi", maxTokens: 5 });
    await walk.call("blocked tool", "get-env", {});

    // A long call cancelled after its first progress notification: the SDK sends notifications/cancelled and
    // rejects the call; the session goes on.
    const controller = new AbortController();
    const cancelled = await walk.call("cancelled", "trigger-long-running-operation", { duration: 20, steps: 20 }, {
        signal: controller.signal,
        onprogress: () => controller.abort("the peer test cancels after the first progress"),
        resetTimeoutOnProgress: true,
    });
    cancelled.aborted = controller.signal.aborted;
    await walk.call("echo after cancel", "echo", { message: "still here" });

    const resources = await walk.request("resources/list", () => walk.client.listResources(undefined, { timeout: walk.options.timeoutMs }));
    walk.summary.resources = resources.error ? { error: resources.error }
        : { count: resources.result.resources.length, uris: resources.result.resources.map((r) => r.uri).slice(0, 5) };
    const first = resources.result?.resources?.[0]?.uri;
    if (first) {
        const read = await walk.request("resources/read", () => walk.client.readResource({ uri: first }, { timeout: walk.options.timeoutMs }));
        walk.summary.resource_read = read.error ? { error: read.error } : { uri: first, contents: read.result.contents.length };
    }
    const prompts = await walk.request("prompts/list", () => walk.client.listPrompts(undefined, { timeout: walk.options.timeoutMs }));
    walk.summary.prompts = prompts.error ? { error: prompts.error } : { names: prompts.result.prompts.map((p) => p.name).sort() };
    const prompt = await walk.request("prompts/get", () => walk.client.getPrompt({ name: "simple-prompt" }, { timeout: walk.options.timeoutMs }));
    walk.summary.prompt_get = prompt.error ? { error: prompt.error } : { messages: prompt.result.messages.length };
}

async function main() {
    const options = parseArguments(process.argv.slice(2));
    const walk = new Walk(options);
    let status = 0;
    try {
        await (options.walk === "filesystem" ? walkFilesystem(walk) : walkEverything(walk));
        walk.summary.completed = true;
    } catch (error) {
        walk.summary.failure = String(error?.stack ?? error);
        status = 1;
    }
    try {
        await walk.close();
    } catch (error) {
        walk.summary.close_failure = String(error?.message ?? error);
    }
    walk.summary.stderr_tail = walk.stderr.slice(-4000);
    process.stdout.write(JSON.stringify(walk.summary, null, 2) + "\n");
    process.exitCode = status;
}

await main();
