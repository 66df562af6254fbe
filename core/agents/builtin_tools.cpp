#include "agents/builtin_tools.h"

#include "checkpoints/files.h"
#include "isolation/network.h"
#include "isolation/policy.h"
#include "isolation/runner.h"
#include "sandboxes/sandbox_engine.h"
#include "store/store.h"
#include "usecases/run.h"
#include "util/utf8.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace sb::agents {

namespace {

constexpr std::int64_t kDefaultReadBytes = 1 << 20;
constexpr std::int64_t kMaxReadBytes = 16 << 20;

// A tool's failure, as the agent is told it.
struct ToolError {
    std::string message;
};
template <typename T> using ToolResult = std::expected<T, ToolError>;

std::unexpected<ToolError> toolError(std::string message)
{
    return std::unexpected(ToolError{std::move(message)});
}

Json textResult(std::string text, std::optional<Json> structured = std::nullopt, bool isError = false)
{
    Json result{{"content", Json::array({Json{{"type", "text"}, {"text", std::move(text)}}})}};
    if (structured)
        result["structuredContent"] = std::move(*structured);
    if (isError)
        result["isError"] = true;
    return result;
}

Json stringProperty(std::string_view description)
{
    return Json{{"type", "string"}, {"description", description}};
}

Json objectSchema(Json properties, std::vector<std::string> required)
{
    return Json{{"type", "object"}, {"properties", std::move(properties)}, {"required", std::move(required)},
                {"additionalProperties", false}};
}

struct ToolSpec {
    const char* name;
    const char* title;
    const char* description;
    bool readOnly;
    bool destructive;
    bool openWorld;
};

constexpr ToolSpec kTools[] = {
    {"read_file", "Read a file", "Read a text file of the workspace.", true, false, false},
    {"write_file", "Write a file", "Create or replace a file of the workspace (and the folders above it).", false, true,
     false},
    {"edit_file", "Edit a file", "Replace the one occurrence of old_text in a file of the workspace with new_text.",
     false, true, false},
    {"list_dir", "List a folder", "List the entries of a folder of the workspace (its top by default).", true, false,
     false},
    {"delete_file", "Delete a file", "Remove a file, or a folder and everything in it, from the workspace.", false,
     true, false},
    {"run_code", "Run code", "Run a Python or shell snippet in the sandbox, in the workspace.", false, true, false},
    {"run_command", "Run a command", "Run a program with arguments in the sandbox, in the workspace.", false, true,
     false},
    {"http_get", "HTTP GET", "Fetch a URL through the policy's network allowlist.", true, false, true},
    {"rewind", "Rewind the workspace",
     "Restore the workspace to how it was before step N of this session (from the checkpoint Sandbench took "
     "then). Nothing is lost: the state it replaces is kept as a checkpoint too.",
     false, true, false},
};

const ToolSpec* specOf(std::string_view name)
{
    const auto it = std::find_if(std::begin(kTools), std::end(kTools), [&](const ToolSpec& t) { return name == t.name; });
    return it == std::end(kTools) ? nullptr : it;
}

Json inputSchemaOf(std::string_view name)
{
    const Json path = stringProperty("A path relative to the workspace, or absolute under it");
    const Json maxBytes{{"type", "integer"}, {"minimum", 1}, {"maximum", kMaxReadBytes},
                        {"description", "Read at most this many bytes (default 1 MiB)"}};
    if (name == "read_file")
        return objectSchema({{"path", path}, {"max_bytes", maxBytes}}, {"path"});
    if (name == "write_file")
        return objectSchema({{"path", path}, {"content", stringProperty("The file's new text")}}, {"path", "content"});
    if (name == "edit_file")
        return objectSchema({{"path", path},
                             {"old_text", stringProperty("Text that occurs exactly once in the file")},
                             {"new_text", stringProperty("What replaces it")}},
                            {"path", "old_text", "new_text"});
    if (name == "list_dir")
        return objectSchema({{"path", path}}, {});
    if (name == "delete_file")
        return objectSchema({{"path", path}}, {"path"});
    if (name == "run_code")
        return objectSchema({{"language", Json{{"type", "string"}, {"enum", {"python", "shell"}}}},
                             {"code", stringProperty("The snippet")}},
                            {"language", "code"});
    if (name == "run_command")
        return objectSchema({{"command", stringProperty("The program (looked up on the sandbox's PATH)")},
                             {"args", Json{{"type", "array"}, {"items", {{"type", "string"}}}}}},
                            {"command"});
    if (name == "rewind")
        return objectSchema({{"step", Json{{"type", "integer"}, {"minimum", 1},
                                           {"description", "The step of this session to go back to (before it)"}}}},
                            {"step"});
    return objectSchema({{"url", stringProperty("An http:// or https:// URL")}, {"max_bytes", maxBytes}}, {"url"});
}

std::optional<Json> outputSchemaOf(std::string_view name)
{
    if (name == "list_dir")
        return objectSchema(
            {{"entries", Json{{"type", "array"},
                              {"items", objectSchema({{"name", Json{{"type", "string"}}},
                                                      {"type", Json{{"type", "string"}, {"enum", {"file", "folder", "symlink", "other"}}}},
                                                      {"size", Json{{"type", "integer"}}}},
                                                     {"name", "type", "size"})}}}},
            {"entries"});
    if (name == "run_code" || name == "run_command")
        return objectSchema({{"outcome", Json{{"type", "string"}}},
                             {"exit_code", Json{{"type", "integer"}}},
                             {"stdout", Json{{"type", "string"}}},
                             {"stderr", Json{{"type", "string"}}},
                             {"message", Json{{"type", "string"}}},
                             {"run_id", Json{{"type", "string"}}},
                             {"blocked", Json{{"type", "array"}, {"items", {{"type", "string"}}}}}},
                            {"outcome", "exit_code", "stdout", "stderr", "run_id"});
    if (name == "http_get")
        return objectSchema({{"status", Json{{"type", "integer"}}},
                             {"content_type", Json{{"type", "string"}}},
                             {"body", Json{{"type", "string"}}},
                             {"truncated", Json{{"type", "boolean"}}}},
                            {"status", "body"});
    return std::nullopt;
}

// --- paths, beneath the workspace -------------------------------------------------------------------------

int openBeneath(int dirfd, const std::string& relative, std::uint64_t flags, std::uint64_t mode = 0)
{
    open_how how{};
    how.flags = flags | O_CLOEXEC;
    how.mode = mode;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    return static_cast<int>(::syscall(SYS_openat2, dirfd, relative.c_str(), &how, sizeof how));
}

// The path an argument names, relative to the workspace ("." for the workspace itself).
ToolResult<std::string> relativePath(const ToolContext& context, const Json& arguments, bool required = true)
{
    const auto it = arguments.find("path");
    if (it == arguments.end() || it->is_null()) {
        if (required)
            return toolError("the argument 'path' is missing");
        return std::string(".");
    }
    if (!it->is_string())
        return toolError("the argument 'path' must be text");
    std::string path = it->get<std::string>();
    if (path.find('\0') != std::string::npos)
        return toolError("the path holds a NUL byte");
    const std::string& seen = context.workspaceAsSeen;
    if (!path.empty() && path.front() == '/') {
        if (path == seen)
            return std::string(".");
        if (!path.starts_with(seen + "/"))
            return toolError(fmt::format("'{}' is outside the workspace ({})", path, seen));
        path = path.substr(seen.size() + 1);
    }
    while (path.ends_with('/') && path.size() > 1)
        path.pop_back();
    return path.empty() ? std::string(".") : path;
}

std::string errnoMessage(std::string_view what, const std::string& path)
{
    if (errno == EXDEV)
        return fmt::format("cannot {} '{}': it leads outside the workspace", what, path);
    return fmt::format("cannot {} '{}': {}", what, path, std::strerror(errno));
}

// The workspace's folder, held for the call (its lock), open for the calls beneath it.
struct Workspace {
    SandboxHold hold;
    Fd dir;
};

ToolResult<Workspace> openWorkspace(const ToolContext& context)
{
    auto engine = SandboxEngine::open(*context.store);
    if (!engine)
        return toolError(engine.error().message);
    auto hold = (*engine)->holdForRun(context.sandbox);
    if (!hold)
        return toolError(hold.error().message);
    auto dir = openDirectory(hold->sandbox.workspace);
    if (!dir)
        return toolError(dir.error().message);
    return Workspace{std::move(*hold), std::move(*dir)};
}

ToolResult<std::string> readText(int dirfd, const std::string& path, std::int64_t maxBytes)
{
    const int fd = openBeneath(dirfd, path, O_RDONLY | O_NOFOLLOW);
    if (fd < 0)
        return toolError(errnoMessage("read", path));
    const Fd file(fd);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return toolError(fmt::format("'{}' is not a file", path));
    std::string text(static_cast<std::size_t>(std::min<std::int64_t>(st.st_size, maxBytes)), '\0');
    std::size_t got = 0;
    while (got < text.size()) {
        const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    text.resize(got);
    if (!utf8::isPlainText(text))
        return toolError(fmt::format("'{}' is not text (it is binary, or not UTF-8)", path));
    return text;
}

// Opens the folder a path's file goes in, making missing folders on the way.
ToolResult<Fd> parentOf(int dirfd, const std::string& path, std::string& leaf)
{
    const auto slash = path.rfind('/');
    leaf = slash == std::string::npos ? path : path.substr(slash + 1);
    if (leaf.empty() || leaf == "." || leaf == "..")
        return toolError(fmt::format("'{}' does not name a file", path));
    Fd current(::dup(dirfd));
    if (slash == std::string::npos)
        return current;
    std::size_t start = 0;
    const std::string folders = path.substr(0, slash);
    while (start <= folders.size()) {
        const auto end = std::min(folders.find('/', start), folders.size());
        const std::string part = folders.substr(start, end - start);
        start = end + 1;
        if (part.empty() || part == ".")
            continue;
        if (part != ".." && ::mkdirat(current.get(), part.c_str(), 0755) != 0 && errno != EEXIST)
            return toolError(errnoMessage("create the folder", part));
        const int next = openBeneath(current.get(), part, O_PATH | O_DIRECTORY);
        if (next < 0)
            return toolError(errnoMessage("open the folder", folders.substr(0, end)));
        current = Fd(next);
    }
    return current;
}

ToolResult<std::size_t> writeText(int dirfd, const std::string& path, std::string_view content)
{
    std::string leaf;
    auto parent = parentOf(dirfd, path, leaf);
    if (!parent)
        return std::unexpected(parent.error());
    const int fd = openBeneath(parent->get(), leaf, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return toolError(errnoMessage("write", path));
    const Fd file(fd);
    if (auto written = writeAll(fd, content); !written)
        return toolError(fmt::format("cannot write '{}': {}", path, written.error().message));
    return content.size();
}

// --- the tools ----------------------------------------------------------------------------------------

std::int64_t maxBytesOf(const Json& arguments)
{
    const auto it = arguments.find("max_bytes");
    if (it == arguments.end() || !it->is_number_integer())
        return kDefaultReadBytes;
    return std::clamp<std::int64_t>(it->get<std::int64_t>(), 1, kMaxReadBytes);
}

ToolResult<std::string> textArgument(const Json& arguments, const char* name)
{
    const auto it = arguments.find(name);
    if (it == arguments.end() || !it->is_string())
        return toolError(fmt::format("the argument '{}' must be text", name));
    return it->get<std::string>();
}

ToolResult<Json> fileTool(const ToolContext& context, std::string_view tool, const Json& arguments)
{
    auto path = relativePath(context, arguments, tool != "list_dir");
    if (!path)
        return std::unexpected(path.error());
    auto workspace = openWorkspace(context);
    if (!workspace)
        return std::unexpected(workspace.error());
    const int root = workspace->dir.get();
    if (tool == "read_file") {
        auto text = readText(root, *path, maxBytesOf(arguments));
        if (!text)
            return std::unexpected(text.error());
        return textResult(std::move(*text));
    }
    if (tool == "write_file") {
        auto content = textArgument(arguments, "content");
        if (!content)
            return std::unexpected(content.error());
        auto written = writeText(root, *path, *content);
        if (!written)
            return std::unexpected(written.error());
        return textResult(fmt::format("wrote {} bytes to {}", *written, *path));
    }
    if (tool == "edit_file") {
        auto oldText = textArgument(arguments, "old_text");
        auto newText = oldText ? textArgument(arguments, "new_text") : oldText;
        if (!newText)
            return std::unexpected(newText.error());
        if (oldText->empty())
            return toolError("old_text is empty");
        auto text = readText(root, *path, kMaxReadBytes);
        if (!text)
            return std::unexpected(text.error());
        const auto at = text->find(*oldText);
        if (at == std::string::npos)
            return toolError(fmt::format("old_text does not occur in '{}'", *path));
        if (text->find(*oldText, at + 1) != std::string::npos)
            return toolError(fmt::format("old_text occurs more than once in '{}': give more of the text around it", *path));
        text->replace(at, oldText->size(), *newText);
        if (auto written = writeText(root, *path, *text); !written)
            return std::unexpected(written.error());
        return textResult(fmt::format("edited {}", *path));
    }
    if (tool == "delete_file") {
        std::string leaf;
        auto parent = parentOf(root, *path, leaf);
        if (!parent)
            return std::unexpected(parent.error());
        struct stat st {};
        if (::fstatat(parent->get(), leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
            return toolError(errnoMessage("delete", *path));
        if (auto removed = removeTreeAt(parent->get(), leaf); !removed)
            return toolError(fmt::format("cannot delete '{}': {}", *path, removed.error().message));
        return textResult(fmt::format("deleted {}", *path));
    }
    // list_dir
    const int fd = openBeneath(root, *path, O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return toolError(errnoMessage("list", *path));
    DIR* dir = ::fdopendir(fd);
    if (!dir) {
        ::close(fd);
        return toolError(errnoMessage("list", *path));
    }
    Json entries = Json::array();
    std::string listing;
    std::vector<std::pair<std::string, Json>> sorted;
    while (const dirent* entry = ::readdir(dir)) {
        const std::string name = entry->d_name;
        if (name == "." || name == ".." || name.starts_with(".sandbench-job-"))
            continue;
        struct stat st {};
        ::fstatat(::dirfd(dir), name.c_str(), &st, AT_SYMLINK_NOFOLLOW);
        const char* type = S_ISREG(st.st_mode) ? "file" : S_ISDIR(st.st_mode) ? "folder" : S_ISLNK(st.st_mode) ? "symlink" : "other";
        sorted.emplace_back(name, Json{{"name", name}, {"type", type}, {"size", S_ISREG(st.st_mode) ? st.st_size : 0}});
    }
    ::closedir(dir);
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [name, entry] : sorted) {
        listing += fmt::format("{}{}\n", name, entry["type"] == "folder" ? "/" : "");
        entries.push_back(std::move(entry));
    }
    return textResult(listing.empty() ? "(empty)" : listing, Json{{"entries", std::move(entries)}});
}

Json runResultJson(const RunRecord& record)
{
    const RunResult& r = record.result;
    Json blocked = Json::array();
    for (const auto& event : r.blocked)
        blocked.push_back(event.kind + " " + event.detail);
    return Json{{"outcome", std::string(toString(r.outcome))},
                {"exit_code", r.exitCode},
                {"stdout", r.stdoutText},
                {"stderr", r.stderrText},
                {"message", r.message.text()},
                {"run_id", r.runId},
                {"blocked", std::move(blocked)}};
}

ToolResult<Json> runTool(const ToolContext& context, std::string_view tool, const Json& arguments)
{
    RunOrder order;
    order.sandbox = context.sandbox;
    order.request.policy = *context.policy;
    order.asked.level = context.policy->level; // the session's policy applies, not the sandbox's
    if (tool == "run_code") {
        auto language = textArgument(arguments, "language");
        auto code = language ? textArgument(arguments, "code") : language;
        if (!code)
            return std::unexpected(code.error());
        if (*language != "python" && *language != "shell")
            return toolError(fmt::format("language must be python or shell, not '{}'", *language));
        order.request.language = *language == "python" ? Language::Python : Language::Shell;
        order.request.source = *code;
        order.request.label = "agent run_code";
    } else {
        auto command = textArgument(arguments, "command");
        if (!command)
            return std::unexpected(command.error());
        order.request.language = Language::Command;
        order.request.command = {*command};
        if (const auto args = arguments.find("args"); args != arguments.end()) {
            if (!args->is_array())
                return toolError("the argument 'args' must be a list of text");
            for (const auto& a : *args) {
                if (!a.is_string())
                    return toolError("the argument 'args' must be a list of text");
                order.request.command.push_back(a.get<std::string>());
            }
        }
        order.request.source = fmt::format("{}", *command);
        order.request.label = "agent run_command";
    }
    auto record = runAndRecord(*context.store, *context.runner, std::move(order), context.cancel);
    if (!record)
        return toolError(record.error().message);
    const Json structured = runResultJson(*record);
    const RunResult& r = record->result;
    std::string text = fmt::format("{} (exit {})", toString(r.outcome), r.exitCode);
    if (!r.message.empty())
        text += ": " + r.message.text();
    if (!r.stdoutText.empty())
        text += "\n--- stdout\n" + r.stdoutText;
    if (!r.stderrText.empty())
        text += "\n--- stderr\n" + r.stderrText;
    return textResult(std::move(text), structured, r.outcome != Outcome::Ok);
}

// The fetch, as the sandboxed Python runs it: the URL comes in as a JSON string literal, the answer goes out as
// one JSON line.
constexpr std::string_view kFetchSnippet = R"py(import json, sys, urllib.request, urllib.error
url, limit = json.loads(URL_AND_LIMIT)
try:
    with urllib.request.urlopen(urllib.request.Request(url, method="GET"), timeout=30) as r:
        body = r.read(limit + 1)
        status, ctype = r.status, r.headers.get("content-type", "")
except urllib.error.HTTPError as e:
    body, status, ctype = e.read(limit + 1), e.code, e.headers.get("content-type", "")
except Exception as e:
    print(json.dumps({"error": str(e)}))
    sys.exit(0)
print(json.dumps({"status": status, "content_type": ctype, "body": body[:limit].decode("utf-8", "replace"),
                  "truncated": len(body) > limit}))
)py";

ToolResult<Json> httpGet(const ToolContext& context, const Json& arguments)
{
    auto url = textArgument(arguments, "url");
    if (!url)
        return std::unexpected(url.error());
    auto target = parseHttpUrl(*url);
    if (!target)
        return toolError(target.error().message);
    if (!networkAllows(*context.policy, target->host, target->port))
        return toolError(fmt::format("the policy's network allowlist does not include {}:{}", target->host, target->port));
    RunOrder order;
    order.request.policy = *context.policy;
    order.request.policy.importGuard = false; // Sandbench's own snippet, not the agent's code
    order.request.policy.level = std::max(order.request.policy.level, IsolationLevel::Container);
    order.asked.level = order.request.policy.level;
    order.request.language = Language::Python;
    std::string source(kFetchSnippet);
    const std::string literal = Json(Json::array({*url, maxBytesOf(arguments)})).dump();
    source.replace(source.find("URL_AND_LIMIT"), std::string_view("URL_AND_LIMIT").size(), Json(literal).dump());
    order.request.source = std::move(source);
    order.request.label = "agent http_get";
    auto record = runAndRecord(*context.store, *context.runner, std::move(order), context.cancel);
    if (!record)
        return toolError(record.error().message);
    const RunResult& r = record->result;
    for (const auto& event : r.blocked) {
        if (event.kind == "network")
            return toolError(fmt::format("the policy's network allowlist refused {}", event.detail));
    }
    const auto line = r.stdoutText.substr(0, r.stdoutText.find('\n'));
    const Json answer = Json::parse(line, nullptr, false);
    if (r.outcome != Outcome::Ok || !answer.is_object())
        return toolError(fmt::format("the fetch did not complete: {} {}", toString(r.outcome), r.message.text()));
    if (answer.contains("error"))
        return toolError(fmt::format("GET {} failed: {}", *url, answer["error"].get<std::string>()));
    std::string body = answer.value("body", "");
    return textResult(body, answer, answer.value("status", 0) >= 400);
}

ToolResult<Json> rewindTool(const ToolContext& context, const Json& arguments)
{
    const auto step = arguments.find("step");
    if (step == arguments.end() || !step->is_number_integer() || step->get<std::int64_t>() < 1)
        return toolError("the argument 'step' must be a step number (1 or more)");
    if (!context.rewind)
        return toolError("this session cannot rewind its workspace");
    auto done = context.rewind(step->get<std::int64_t>());
    if (!done)
        return toolError(done.error().message);
    return textResult(*done);
}

} // namespace

std::expected<HttpTarget, Error> parseHttpUrl(std::string_view url)
{
    HttpTarget target;
    std::string_view rest;
    if (url.starts_with("http://")) {
        target.port = 80;
        rest = url.substr(7);
    } else if (url.starts_with("https://")) {
        target.port = 443;
        rest = url.substr(8);
    } else {
        return std::unexpected(Error{fmt::format("'{}' is not an http:// or https:// URL", url)});
    }
    const std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
    if (authority.find('@') != std::string_view::npos)
        return std::unexpected(Error{"a URL with a user name or password is refused"});
    std::string_view host = authority;
    std::string_view port;
    if (host.starts_with('[')) {
        const auto close = host.find(']');
        if (close == std::string_view::npos)
            return std::unexpected(Error{fmt::format("'{}' has an unclosed [", url)});
        port = host.substr(close + 1);
        host = host.substr(1, close - 1);
        if (!port.empty() && port.front() != ':')
            return std::unexpected(Error{fmt::format("'{}' is not host:port", authority)});
        port = port.empty() ? port : port.substr(1);
    } else if (const auto colon = host.rfind(':'); colon != std::string_view::npos) {
        port = host.substr(colon + 1);
        host = host.substr(0, colon);
    }
    if (host.empty())
        return std::unexpected(Error{fmt::format("'{}' names no host", url)});
    if (!port.empty()) {
        int value = 0;
        const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
        if (ec != std::errc() || end != port.data() + port.size() || value < 1 || value > 65535)
            return std::unexpected(Error{fmt::format("'{}' is not a port", port)});
        target.port = value;
    }
    target.host = std::string(host);
    return target;
}

Json builtinToolList()
{
    Json tools = Json::array();
    for (const auto& spec : kTools) {
        Json tool{{"name", spec.name},
                  {"title", spec.title},
                  {"description", spec.description},
                  {"inputSchema", inputSchemaOf(spec.name)},
                  {"annotations",
                   {{"title", spec.title},
                    {"readOnlyHint", spec.readOnly},
                    {"destructiveHint", spec.destructive},
                    {"idempotentHint", spec.readOnly},
                    {"openWorldHint", spec.openWorld}}}};
        if (auto output = outputSchemaOf(spec.name))
            tool["outputSchema"] = std::move(*output);
        tools.push_back(std::move(tool));
    }
    return tools;
}

bool isBuiltinTool(std::string_view name)
{
    return specOf(name) != nullptr;
}

bool builtinToolReadOnly(std::string_view name)
{
    const ToolSpec* spec = specOf(name);
    return spec && spec->readOnly;
}

bool builtinToolDestructive(std::string_view name)
{
    const ToolSpec* spec = specOf(name);
    return spec && spec->destructive;
}

namespace {

// Whether a relative path stays beneath its top, by its text alone.
bool staysBeneath(std::string_view path)
{
    int depth = 0;
    std::size_t start = 0;
    while (start <= path.size()) {
        const auto end = std::min(path.find('/', start), path.size());
        const std::string_view part = path.substr(start, end - start);
        start = end + 1;
        if (part == "..") {
            if (--depth < 0)
                return false;
        } else if (!part.empty() && part != ".") {
            ++depth;
        }
    }
    return true;
}

} // namespace

std::optional<Ruling> checkBuiltinCall(const ToolContext& context, const ToolCallRequest& call)
{
    if (call.tool == "http_get") {
        const auto url = call.arguments.find("url");
        if (url == call.arguments.end() || !url->is_string())
            return std::nullopt; // the tool says what is wrong with its arguments
        auto target = parseHttpUrl(url->get<std::string>());
        if (!target)
            return Ruling{Ruling::Kind::Refuse, "network.allow", target.error().message};
        if (!networkAllows(*context.policy, target->host, target->port))
            return Ruling{Ruling::Kind::Refuse, "network.allow",
                          context.policy->network == NetworkMode::None
                              ? fmt::format("the policy allows no network (network: none), so {}:{} is out of reach",
                                            target->host, target->port)
                              : fmt::format("the policy's network allowlist does not include {}:{}", target->host,
                                            target->port)};
        return std::nullopt;
    }
    if (!specOf(call.tool) || call.tool == "run_code" || call.tool == "run_command" || call.tool == "rewind")
        return std::nullopt;
    auto path = relativePath(context, call.arguments, false);
    if (!path) {
        if (call.arguments.contains("path") && call.arguments["path"].is_string())
            return Ruling{Ruling::Kind::Refuse, "workspace", path.error().message};
        return std::nullopt;
    }
    if (!staysBeneath(*path))
        return Ruling{Ruling::Kind::Refuse, "workspace",
                      fmt::format("'{}' leads outside the workspace ({})", call.arguments["path"].get<std::string>(),
                                  context.workspaceAsSeen)};
    return std::nullopt;
}

Json callBuiltinTool(const ToolContext& context, std::string_view tool, const Json& arguments)
{
    ToolResult<Json> result = toolError(fmt::format("unknown tool '{}'", tool));
    if (tool == "read_file" || tool == "write_file" || tool == "edit_file" || tool == "list_dir"
        || tool == "delete_file")
        result = fileTool(context, tool, arguments);
    else if (tool == "run_code" || tool == "run_command")
        result = runTool(context, tool, arguments);
    else if (tool == "http_get")
        result = httpGet(context, arguments);
    else if (tool == "rewind")
        result = rewindTool(context, arguments);
    if (!result)
        return textResult(result.error().message, std::nullopt, true);
    return std::move(*result);
}

} // namespace sb::agents
