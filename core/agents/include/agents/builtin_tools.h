#pragma once

// The tools Sandbench offers an agent it runs (`sandbench agent run`): the sandbox's workspace and the isolation
// engine, as MCP tools. Each has a JSON Schema inputSchema, an outputSchema where its result has a shape, and
// annotations Sandbench stands behind (so checkpoint_before may trust readOnlyHint on them).
//
//   read_file   {path, max_bytes?}              the file's text (UTF-8; a binary file is an error)
//   write_file  {path, content}                 creates or replaces a file (and the folders above it)
//   edit_file   {path, old_text, new_text}      replaces the one occurrence of old_text
//   list_dir    {path?}                         the folder's entries {name, type, size}
//   delete_file {path}                          removes a file, or a folder and everything in it
//   run_code    {language: python|shell, code}  a snippet through the isolation engine, in the workspace
//   run_command {command, args?}                a program through the isolation engine, in the workspace
//   http_get    {url, max_bytes?}               a GET through the policy's network allowlist, from a sandbox
//   rewind      {step}                          the workspace as it was before step N of this session
//
// Paths are relative to the workspace, or absolute under the workspace as the agent sees it (`workspace` in
// the rules). Every path is resolved by the kernel beneath the workspace's folder (openat2 RESOLVE_BENEATH):
// no "..", symlink or magic link leads out of it, whatever the policy says.

#include "agents/json.h"
#include "agents/mediator.h"
#include "util/error.h"

#include <atomic>
#include <cstdint>
#include <expected>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace sb {
class Store;
class Runner;
struct Policy;
} // namespace sb

namespace sb::agents {

// tools/list's "tools": every built-in tool with its schemas and annotations.
Json builtinToolList();
// Whether `name` is a built-in tool, and what Sandbench says of it.
bool isBuiltinTool(std::string_view name);
bool builtinToolReadOnly(std::string_view name);
bool builtinToolDestructive(std::string_view name);

// Where the tools work and what they run with.
struct ToolContext {
    Store* store = nullptr;
    const Runner* runner = nullptr;
    std::string sandbox;                 // the workspace is this sandbox's (held by each call that uses it)
    std::string workspaceAsSeen;         // the rules' `workspace`: absolute paths under it are accepted
    const Policy* policy = nullptr;      // run_code, run_command and http_get run under it
    const std::atomic<bool>* cancel = nullptr;
    // rewind: restores the workspace to the session's checkpoint before step N; its text says what it did.
    std::function<Result<std::string>(std::int64_t step)> rewind{};
};

// Carries out a built-in tool call: its tool result ({content, structuredContent?, isError?}). A call the tool
// cannot carry out (a missing file, a path outside the workspace, a bad argument) is a result with isError
// true saying why, as MCP asks of tool errors.
Json callBuiltinTool(const ToolContext& context, std::string_view tool, const Json& arguments);

// The gateway's own check of a built-in tool call before it is ruled on (Mediator::setToolCheck), which no
// policy or approval lifts: a path that leads outside the workspace by its text (absolute elsewhere, or ".."
// past its top; a symlink that does is refused by the kernel when the tool opens it), and an http_get whose
// host the policy's network allowlist does not name. Its ruling refuses with the rule "workspace" or
// "network.allow"; nullopt lets the policy decide.
std::optional<Ruling> checkBuiltinCall(const ToolContext& context, const ToolCallRequest& call);

// Where an http:// or https:// URL goes (http_get, and the gateway's check of it against the allowlist).
struct HttpTarget {
    std::string host; // without the brackets of an IPv6 address
    int port = 0;     // 80, 443, or the one given
};
std::expected<HttpTarget, Error> parseHttpUrl(std::string_view url);

} // namespace sb::agents
