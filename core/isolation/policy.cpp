#include "isolation/policy.h"

#include "oci_seccomp.h"
#include "isolation/policy_presets.h" // generated from resources/policies/*.yaml (see presets.cmake there)

#include "util/input_file.h"
#include "util/utf8.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <seccomp.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <list>
#include <map>
#include <mutex>
#include <ranges>
#include <set>
#include <sstream>

namespace sb {

std::string_view toString(Language language)
{
    switch (language) {
    case Language::Python: return "python";
    case Language::Shell: return "sh";
    case Language::Command: return "command";
    }
    return "python";
}

std::optional<Language> languageFromString(std::string_view name)
{
    if (name == "python" || name == "py" || name == "python3")
        return Language::Python;
    if (name == "sh" || name == "shell" || name == "bash")
        return Language::Shell;
    if (name == "command")
        return Language::Command;
    return std::nullopt;
}

std::string_view toString(IsolationLevel level)
{
    switch (level) {
    case IsolationLevel::Process: return "process";
    case IsolationLevel::Container: return "container";
    case IsolationLevel::Strict: return "strict";
    }
    return "process";
}

std::optional<IsolationLevel> isolationLevelFromString(std::string_view name)
{
    for (auto level : {IsolationLevel::Process, IsolationLevel::Container, IsolationLevel::Strict}) {
        if (toString(level) == name)
            return level;
    }
    return std::nullopt;
}

std::string_view toString(SyscallAction action)
{
    switch (action) {
    case SyscallAction::Allow: return "allow";
    case SyscallAction::Errno: return "errno";
    case SyscallAction::Kill: return "kill";
    case SyscallAction::Log: return "log";
    }
    return "allow";
}

std::optional<SyscallAction> syscallActionFromString(std::string_view name)
{
    for (auto a : {SyscallAction::Allow, SyscallAction::Errno, SyscallAction::Kill, SyscallAction::Log}) {
        if (toString(a) == name)
            return a;
    }
    return std::nullopt;
}

std::string_view toString(ArgOp op)
{
    switch (op) {
    case ArgOp::Eq: return "eq";
    case ArgOp::Ne: return "ne";
    case ArgOp::Lt: return "lt";
    case ArgOp::Le: return "le";
    case ArgOp::Gt: return "gt";
    case ArgOp::Ge: return "ge";
    case ArgOp::MaskedEq: return "masked_eq";
    }
    return "eq";
}

std::optional<ArgOp> argOpFromString(std::string_view name)
{
    for (auto op : {ArgOp::Eq, ArgOp::Ne, ArgOp::Lt, ArgOp::Le, ArgOp::Gt, ArgOp::Ge, ArgOp::MaskedEq}) {
        if (toString(op) == name)
            return op;
    }
    return std::nullopt;
}

bool isKnownSyscall(std::string_view name)
{
    // Negative numbers are libseccomp's pseudo-syscalls: names it knows from other architectures only.
    return !name.empty() && seccomp_syscall_resolve_name(std::string(name).c_str()) >= 0;
}

namespace {

struct ErrnoName {
    int value;
    std::string_view name;
};
#define SB_ERRNO(e) ErrnoName{e, #e}
// The errnos a refusal plausibly uses; any other is written as its number.
constexpr ErrnoName kErrnoNames[] = {
    SB_ERRNO(EPERM),  SB_ERRNO(ENOENT),  SB_ERRNO(ESRCH),   SB_ERRNO(EINTR),     SB_ERRNO(EIO),
    SB_ERRNO(ENXIO),  SB_ERRNO(E2BIG),   SB_ERRNO(ENOEXEC), SB_ERRNO(EBADF),     SB_ERRNO(ECHILD),
    SB_ERRNO(EAGAIN), SB_ERRNO(ENOMEM),  SB_ERRNO(EACCES),  SB_ERRNO(EFAULT),    SB_ERRNO(EBUSY),
    SB_ERRNO(EEXIST), SB_ERRNO(EXDEV),   SB_ERRNO(ENODEV),  SB_ERRNO(ENOTDIR),   SB_ERRNO(EISDIR),
    SB_ERRNO(EINVAL), SB_ERRNO(ENFILE),  SB_ERRNO(EMFILE),  SB_ERRNO(ENOTTY),    SB_ERRNO(ETXTBSY),
    SB_ERRNO(EFBIG),  SB_ERRNO(ENOSPC),  SB_ERRNO(ESPIPE),  SB_ERRNO(EROFS),     SB_ERRNO(EMLINK),
    SB_ERRNO(EPIPE),  SB_ERRNO(ERANGE),  SB_ERRNO(ENOSYS),  SB_ERRNO(ENOTSUP),   SB_ERRNO(EAFNOSUPPORT),
    SB_ERRNO(EPROTONOSUPPORT), SB_ERRNO(ENETUNREACH), SB_ERRNO(ECONNREFUSED), SB_ERRNO(EHOSTUNREACH),
    SB_ERRNO(EADDRNOTAVAIL),   SB_ERRNO(ENOTSOCK),    SB_ERRNO(ETIMEDOUT),    SB_ERRNO(ECANCELED),
};
#undef SB_ERRNO

} // namespace

std::string errnoName(int value)
{
    for (const auto& e : kErrnoNames) {
        if (e.value == value)
            return std::string(e.name); // the first name wins (EOPNOTSUPP and ENOTSUP share a number)
    }
    return std::to_string(value);
}

std::optional<int> errnoFromString(std::string_view name)
{
    for (const auto& e : kErrnoNames) {
        if (e.name == name)
            return e.value;
    }
    int value = 0;
    const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), value);
    if (ec != std::errc() || end != name.data() + name.size() || value < 1 || value > 4095)
        return std::nullopt;
    return value;
}

std::vector<std::string> Policy::defaultBlockedImports()
{
    // The seed's deny-list and its peers: process control, raw OS access, networking, native code.
    return {"os",    "posix",   "nt",         "subprocess", "socket", "_socket", "ssl",      "shutil",
            "pty",   "ctypes",  "_ctypes",    "multiprocessing",    "_posixsubprocess",  "signal",
            "fcntl", "resource", "mmap",      "select",     "selectors", "asyncio", "urllib", "http",
            "ftplib", "smtplib", "telnetlib", "webbrowser", "importlib"};
}

namespace {

// Bounds that keep a policy meaningful; a value outside them is a mistake, not a wish.
struct Bound {
    const char* key;
    std::int64_t Limits::*field;
    std::int64_t min;
    std::int64_t max;
};
constexpr Bound kLimitBounds[] = {
    {"wall_ms", &Limits::wallMs, 1, 24LL * 3600 * 1000},
    {"cpu_ms", &Limits::cpuMs, 0, 24LL * 3600 * 1000},
    {"memory_mb", &Limits::memoryMb, 16, 1024 * 1024},
    {"processes", &Limits::processes, 1, 100000},
    {"file_size_mb", &Limits::fileSizeMb, 0, 1024 * 1024},
    {"disk_mb", &Limits::diskMb, 1, 1024 * 1024},
    {"open_files", &Limits::openFiles, 8, 1048576},
    {"output_bytes", &Limits::outputBytes, 0, 1LL << 30},
};

// Where a YAML stream's second document with content starts, if it has one. Only events, nothing built,
// and at most two documents read: yaml-cpp's LoadAll() can go on without end on some malformed streams.
std::optional<YAML::Mark> secondDocument(std::string_view text)
{
    // Another document needs a line starting with "---" or "..." (the common case has neither: one parse).
    auto marker = [&](std::string_view m) {
        return text.starts_with(m) || text.find("\n" + std::string(m)) != std::string_view::npos;
    };
    if (!marker("---") && !marker("..."))
        return std::nullopt;
    struct Finder : YAML::EventHandler {
        std::optional<YAML::Mark> content; // the document's first node that is not an empty one
        void found(const YAML::Mark& mark)
        {
            if (!content)
                content = mark;
        }
        void OnDocumentStart(const YAML::Mark&) override {}
        void OnDocumentEnd() override {}
        void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
        void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { found(mark); }
        void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override
        {
            found(mark);
        }
        void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override
        {
            found(mark);
        }
        void OnSequenceEnd() override {}
        void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override
        {
            found(mark);
        }
        void OnMapEnd() override {}
    };
    std::istringstream in{std::string(text)};
    YAML::Parser parser(in);
    Finder first;
    Finder second;
    if (!parser.HandleNextDocument(first) || !parser.HandleNextDocument(second))
        return std::nullopt;
    return second.content;
}

// A value as error messages show it: a long one cut (a policy may hold megabytes in one value).
std::string shown(std::string_view value)
{
    constexpr std::size_t kShown = 80;
    if (value.size() <= kShown)
        return std::string(value);
    std::size_t cut = kShown;
    while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80)
        --cut; // not inside a UTF-8 sequence
    return fmt::format("{}… ({} bytes)", value.substr(0, cut), value.size());
}

class PolicyParser {
public:
    PolicyParser(std::string_view origin, std::optional<std::filesystem::path> baseDir,
                 std::vector<std::string>* warnings)
        : m_origin(origin), m_baseDir(std::move(baseDir)), m_warnings(warnings)
    {
    }

    Result<Policy> parse(std::string_view text, bool* namesLevel = nullptr)
    {
        YAML::Node root;
        try {
            root = YAML::Load(std::string(text));
            if (const auto second = secondDocument(text))
                return fail(fmt::format("{}:{}:{}: a policy is one YAML document; another one starts here (it "
                                        "would be ignored)",
                                        m_origin, second->line + 1, second->column + 1));
        } catch (const YAML::ParserException& e) {
            return fail(fmt::format("{}:{}:{}: invalid YAML: {}", m_origin, e.mark.line + 1, e.mark.column + 1, e.msg));
        }
        Policy policy;
        if (namesLevel)
            *namesLevel = root.IsMap() && root["level"];
        if (!root || root.IsNull())
            return policy; // an empty file is the default policy
        if (!root.IsMap())
            return fail(where(root, "") + "a policy must be a mapping of keys to values");
        try {
            if (auto r = parseRoot(root, policy); !r)
                return std::unexpected(r.error());
        } catch (const YAML::Exception& e) {
            return fail(fmt::format("{}:{}:{}: {}", m_origin, e.mark.line + 1, e.mark.column + 1, e.msg));
        }
        return policy;
    }

private:
    using Status = Result<void>;

    std::string where(const YAML::Node& node, std::string_view field) const
    {
        const auto mark = node.Mark();
        std::string loc = mark.line >= 0 ? fmt::format("{}:{}:{}: ", m_origin, mark.line + 1, mark.column + 1)
                                         : fmt::format("{}: ", m_origin);
        if (!field.empty())
            loc += fmt::format("'{}': ", field);
        return loc;
    }

    // What reading the policy may cost: its values and keys, counted each time they are read. A file is at
    // most 1 MiB, but YAML aliases repeat what they name, so that a small file can stand for gigabytes.
    static constexpr std::size_t kMaxExpandedBytes = 4 << 20;

    Status spend(const YAML::Node& node, std::size_t bytes)
    {
        m_spent += bytes + 1;
        if (m_spent > kMaxExpandedBytes)
            return fail(where(node, "") + fmt::format("the policy stands for more than {} MiB of keys and values "
                                                      "(YAML aliases repeat what they name)",
                                                      kMaxExpandedBytes >> 20));
        return {};
    }

    // The keys of a mapping, each once: YAML forbids a key given twice, and yaml-cpp would let it through
    // (with the first one winning at the top and the last in a flow mapping).
    Result<std::vector<std::string>> keysOf(const YAML::Node& map, std::string_view path)
    {
        std::vector<std::string> keys;
        std::map<std::string, int> lines;
        for (const auto& kv : map) {
            if (!kv.first.IsScalar())
                return fail(where(kv.first, path) + "expected a plain key");
            const std::string& key = kv.first.Scalar();
            if (auto spent = spend(kv.first, key.size()); !spent)
                return std::unexpected(spent.error());
            const std::string field = path.empty() ? key : fmt::format("{}.{}", path, key);
            if (const auto [it, fresh] = lines.emplace(key, kv.first.Mark().line + 1); !fresh)
                return fail(where(kv.first, field) + fmt::format("given twice (first at line {})", it->second));
            keys.push_back(key);
        }
        return keys;
    }

    Status checkKeys(const YAML::Node& map, std::string_view path, std::initializer_list<std::string_view> allowed)
    {
        if (!map.IsMap())
            return fail(where(map, path) + "expected a mapping");
        if (auto keys = keysOf(map, path); !keys)
            return std::unexpected(keys.error());
        for (const auto& kv : map) {
            const auto key = kv.first.as<std::string>();
            if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
                std::string list;
                for (auto a : allowed) {
                    if (!list.empty())
                        list += ", ";
                    list += a;
                }
                return fail(where(kv.first, path.empty() ? key : fmt::format("{}.{}", path, key))
                            + fmt::format("unknown field (expected one of: {})", list));
            }
        }
        return {};
    }

    // A value is UTF-8 without control characters but tab and newline, as YAML itself asks of its text
    // (yaml-cpp lets both through): anything else would not render back the same (renderPolicy).
    Result<std::string> scalar(const YAML::Node& node, std::string_view field)
    {
        if (!node.IsScalar())
            return fail(where(node, field) + "expected a single value");
        const std::string& text = node.Scalar();
        if (auto spent = spend(node, text.size()); !spent)
            return std::unexpected(spent.error());
        for (std::size_t i = 0; i < text.size();) {
            const auto c = static_cast<unsigned char>(text[i]);
            std::uint32_t codePoint = c;
            const std::size_t length = c < 0x80 ? 1 : utf8::decodeMultiByte(text, i, codePoint);
            if (length == 0)
                return fail(where(node, field) + fmt::format("byte {} of the value (0x{:02X}) is not UTF-8", i + 1, c));
            const bool control = (codePoint < 0x20 && codePoint != '\t' && codePoint != '\n')
                                 || (codePoint >= 0x7F && codePoint <= 0x9F);
            if (control)
                return fail(where(node, field)
                            + fmt::format("byte {} of the value is a control character (U+{:04X})", i + 1, codePoint));
            i += length;
        }
        return text;
    }

    Result<std::int64_t> integer(const YAML::Node& node, std::string_view field, std::int64_t min, std::int64_t max)
    {
        auto text = scalar(node, field);
        if (!text)
            return std::unexpected(text.error());
        std::int64_t value = 0;
        std::istringstream in(*text);
        if (!(in >> value) || !in.eof())
            return fail(where(node, field) + fmt::format("expected an integer, got '{}'", shown(*text)));
        if (value < min || value > max)
            return fail(where(node, field) + fmt::format("{} is out of range [{}, {}]", value, min, max));
        return value;
    }

    Result<bool> boolean(const YAML::Node& node, std::string_view field)
    {
        auto text = scalar(node, field);
        if (!text)
            return std::unexpected(text.error());
        if (*text == "true" || *text == "yes" || *text == "on")
            return true;
        if (*text == "false" || *text == "no" || *text == "off")
            return false;
        return fail(where(node, field) + fmt::format("expected true or false, got '{}'", shown(*text)));
    }

    Result<std::vector<std::string>> stringList(const YAML::Node& node, std::string_view field)
    {
        if (!node.IsSequence())
            return fail(where(node, field) + "expected a list");
        std::vector<std::string> out;
        for (const auto& item : node) {
            auto text = scalar(item, field);
            if (!text)
                return std::unexpected(text.error());
            out.push_back(*text);
        }
        return out;
    }

    Result<std::string> absolutePath(const YAML::Node& node, std::string_view field)
    {
        auto text = scalar(node, field);
        if (!text)
            return text;
        if (text->empty() || text->front() != '/' || text->find('\0') != std::string::npos)
            return fail(where(node, field) + fmt::format("expected an absolute path, got '{}'", shown(*text)));
        return text;
    }

    static bool validEnvName(const std::string& name)
    {
        if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
            return false;
        return std::all_of(name.begin(), name.end(),
                           [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    }

    // network: none, or an allowlist of host:port the run's proxy lets through.
    Status parseNetwork(const YAML::Node& n, Policy& policy)
    {
        if (n.IsScalar()) {
            if (n.Scalar() != "none")
                return fail(where(n, "network")
                            + fmt::format("network '{}' is not supported; use 'none' or {{mode: allowlist, allow: "
                                          "[host:port, ...]}}",
                                          shown(n.Scalar())));
            policy.network = NetworkMode::None;
        } else {
            if (auto r = checkKeys(n, "network", {"mode", "allow"}); !r)
                return r;
            auto mode = n["mode"] ? scalar(n["mode"], "network.mode") : Result<std::string>(std::string("none"));
            if (!mode)
                return std::unexpected(mode.error());
            if (*mode != "none" && *mode != "allowlist")
                return fail(where(n["mode"], "network.mode") + fmt::format("unknown mode '{}' (none, allowlist)", shown(*mode)));
            policy.network = *mode == "allowlist" ? NetworkMode::Allowlist : NetworkMode::None;
            if (auto a = n["allow"]) {
                auto list = stringList(a, "network.allow");
                if (!list)
                    return std::unexpected(list.error());
                for (const auto& entry : *list) {
                    const auto colon = entry.rfind(':');
                    const std::string host = colon == std::string::npos ? "" : entry.substr(0, colon);
                    const std::string port = colon == std::string::npos ? "" : entry.substr(colon + 1);
                    const bool portOk = port == "*"
                                        || (!port.empty() && port.size() <= 5
                                            && std::all_of(port.begin(), port.end(), ::isdigit)
                                            && std::stoi(port) >= 1 && std::stoi(port) <= 65535);
                    const bool hostOk = !host.empty() && host.find_first_of(" /\\@") == std::string::npos;
                    if (!portOk || !hostOk)
                        return fail(where(a, "network.allow")
                                    + fmt::format("'{}' is not host:port (e.g. pypi.org:443, *.example.com:*)", shown(entry)));
                }
                policy.networkAllow = *list;
            }
            if (policy.network == NetworkMode::Allowlist && policy.networkAllow.empty())
                return fail(where(n, "network") + "mode allowlist needs at least one 'allow' entry");
        }
        return {};
    }

    // limits: each within its bounds (kLimitBounds).
    Status parseLimits(const YAML::Node& n, Policy& policy)
    {
        if (!n.IsMap())
            return fail(where(n, "limits") + "expected a mapping");
        if (auto unique = keysOf(n, "limits"); !unique)
            return std::unexpected(unique.error());
        for (const auto& kv : n) {
            const auto key = kv.first.as<std::string>();
            const auto* bound = std::find_if(std::begin(kLimitBounds), std::end(kLimitBounds),
                                             [&](const Bound& b) { return key == b.key; });
            if (bound == std::end(kLimitBounds))
                return fail(where(kv.first, "limits." + key)
                            + fmt::format("unknown limit (expected one of: {})",
                                          fmt::join(kLimitBounds | std::views::transform(&Bound::key), ", ")));
            auto v = integer(kv.second, "limits." + key, bound->min, bound->max);
            if (!v)
                return std::unexpected(v.error());
            policy.limits.*(bound->field) = *v;
        }
        return {};
    }

    // env: the variables passed from the caller's environment and the ones set.
    Status parseEnv(const YAML::Node& n, Policy& policy)
    {
        if (auto r = checkKeys(n, "env", {"pass", "set"}); !r)
            return r;
        if (auto p = n["pass"]) {
            auto v = stringList(p, "env.pass");
            if (!v)
                return std::unexpected(v.error());
            for (const auto& name : *v) {
                if (!validEnvName(name))
                    return fail(where(p, "env.pass") + fmt::format("'{}' is not a variable name", shown(name)));
            }
            policy.envPass = *v;
        }
        if (auto s = n["set"]) {
            if (!s.IsMap())
                return fail(where(s, "env.set") + "expected a mapping of NAME: value");
            if (auto unique = keysOf(s, "env.set"); !unique)
                return std::unexpected(unique.error());
            for (const auto& kv : s) {
                const auto name = kv.first.as<std::string>();
                if (!validEnvName(name))
                    return fail(where(kv.first, "env.set") + fmt::format("'{}' is not a variable name", shown(name)));
                auto v = scalar(kv.second, "env.set." + name);
                if (!v)
                    return std::unexpected(v.error());
                policy.envSet[name] = *v;
            }
        }
        return {};
    }

    // paths: the absolute paths the run may read.
    Status parsePaths(const YAML::Node& n, Policy& policy)
    {
        if (auto r = checkKeys(n, "paths", {"read"}); !r)
            return r;
        if (auto read = n["read"]) {
            if (!read.IsSequence())
                return fail(where(read, "paths.read") + "expected a list");
            policy.readPaths.clear();
            for (const auto& item : read) {
                auto v = absolutePath(item, "paths.read");
                if (!v)
                    return std::unexpected(v.error());
                policy.readPaths.push_back(*v);
            }
        }
        return {};
    }

    // python: the interpreter, the import guard and the modules it refuses.
    Status parsePython(const YAML::Node& n, Policy& policy)
    {
        if (auto r = checkKeys(n, "python", {"interpreter", "import_guard", "site_packages", "blocked_imports"}); !r)
            return r;
        if (auto i = n["interpreter"]) {
            auto v = absolutePath(i, "python.interpreter");
            if (!v)
                return std::unexpected(v.error());
            policy.python = *v;
        }
        if (auto g = n["import_guard"]) {
            auto v = boolean(g, "python.import_guard");
            if (!v)
                return std::unexpected(v.error());
            policy.importGuard = *v;
        }
        if (auto g = n["site_packages"]) {
            auto v = boolean(g, "python.site_packages");
            if (!v)
                return std::unexpected(v.error());
            policy.sitePackages = *v;
        }
        if (auto b = n["blocked_imports"]) {
            auto v = stringList(b, "python.blocked_imports");
            if (!v)
                return std::unexpected(v.error());
            for (const auto& name : *v) {
                if (name.empty() || name.find('.') != std::string::npos || !validEnvName(name))
                    return fail(where(b, "python.blocked_imports")
                                + fmt::format("'{}' is not a top-level module name", shown(name)));
            }
            policy.blockedImports = *v;
        }
        return {};
    }

    // shell: the interpreter of shell snippets.
    Status parseShell(const YAML::Node& n, Policy& policy)
    {
        if (auto r = checkKeys(n, "shell", {"interpreter"}); !r)
            return r;
        if (auto i = n["interpreter"]) {
            auto v = absolutePath(i, "shell.interpreter");
            if (!v)
                return std::unexpected(v.error());
            policy.shell = *v;
        }
        return {};
    }

    // A cost: a finite number, not negative.
    Result<double> cost(const YAML::Node& node, std::string_view field)
    {
        auto text = scalar(node, field);
        if (!text)
            return std::unexpected(text.error());
        double value = 0;
        const char* end = text->data() + text->size();
        const auto [ptr, ec] = std::from_chars(text->data(), end, value);
        if (ec != std::errc() || ptr != end || !std::isfinite(value))
            return fail(where(node, field) + fmt::format("expected a number, got '{}'", shown(*text)));
        if (value < 0)
            return fail(where(node, field) + fmt::format("{} is negative", *text));
        return value;
    }

    // Tool names and globs: not empty, no control characters (scalar() checks those).
    Result<std::vector<std::string>> toolGlobs(const YAML::Node& node, std::string_view field)
    {
        auto list = stringList(node, field);
        if (!list)
            return list;
        for (const auto& glob : *list) {
            if (glob.empty())
                return fail(where(node, field) + "a tool name or glob is empty");
        }
        return list;
    }

    // agent.argument_rules: each a CEL condition, alone or with a name, the tools it applies to and a message.
    Status parseArgumentRules(const YAML::Node& n, AgentPolicy& agent)
    {
        if (!n.IsSequence())
            return fail(where(n, "agent.argument_rules") + "expected a list of CEL conditions");
        std::set<std::string> names;
        for (std::size_t i = 0; i < n.size(); ++i) {
            const YAML::Node item = n[i];
            const std::string field = fmt::format("agent.argument_rules[{}]", i);
            AgentArgumentRule rule;
            // reset(), not =: assigning to a yaml-cpp node that refers to another writes into that other.
            YAML::Node condition;
            condition.reset(item);
            if (item.IsMap()) {
                if (auto r = checkKeys(item, field, {"name", "condition", "tools", "message"}); !r)
                    return r;
                if (!item["condition"])
                    return fail(where(item, field) + "a rule needs a 'condition' (a CEL expression)");
                condition.reset(item["condition"]);
                if (auto v = item["name"]) {
                    auto name = scalar(v, field + ".name");
                    if (!name)
                        return std::unexpected(name.error());
                    if (name->empty() || !names.insert(*name).second)
                        return fail(where(v, field + ".name")
                                    + (name->empty() ? std::string("empty") : fmt::format("'{}' names two rules", *name)));
                    rule.name = *name;
                }
                if (auto v = item["tools"]) {
                    auto tools = toolGlobs(v, field + ".tools");
                    if (!tools)
                        return std::unexpected(tools.error());
                    rule.tools = *tools;
                }
                if (auto v = item["message"]) {
                    auto message = scalar(v, field + ".message");
                    if (!message)
                        return std::unexpected(message.error());
                    rule.message = *message;
                }
            }
            auto text = scalar(condition, field + (item.IsMap() ? ".condition" : ""));
            if (!text)
                return std::unexpected(text.error());
            if (text->find_first_not_of(" \t\n") == std::string::npos)
                return fail(where(condition, field) + "the condition is empty");
            rule.condition = *text;
            rule.line = condition.Mark().line + 1;
            rule.column = condition.Mark().column + 1;
            agent.argumentRules.push_back(std::move(rule));
        }
        return {};
    }

    // agent.checkpoint_before: auto, always, never, or a list of tool globs.
    Status parseCheckpointBefore(const YAML::Node& n, AgentPolicy& agent)
    {
        if (n.IsSequence()) {
            auto tools = toolGlobs(n, "agent.checkpoint_before");
            if (!tools)
                return std::unexpected(tools.error());
            agent.checkpointBefore = CheckpointBefore::Tools;
            agent.checkpointTools = *tools;
            return {};
        }
        auto v = scalar(n, "agent.checkpoint_before");
        if (!v)
            return std::unexpected(v.error());
        if (*v == "auto")
            agent.checkpointBefore = CheckpointBefore::Auto;
        else if (*v == "always")
            agent.checkpointBefore = CheckpointBefore::Always;
        else if (*v == "never")
            agent.checkpointBefore = CheckpointBefore::Never;
        else
            return fail(where(n, "agent.checkpoint_before")
                        + fmt::format("unknown value '{}' (auto, always, never, or a list of tools)", shown(*v)));
        return {};
    }

    // agent: what an agent session's MCP gateway lets through (AgentPolicy).
    Status parseAgent(const YAML::Node& n, Policy& policy)
    {
        if (auto r = checkKeys(n, "agent", {"allowed_tools", "blocked_tools", "argument_rules", "max_steps", "max_cost",
                                            "tool_costs", "require_approval", "approval_timeout_ms",
                                            "checkpoint_before"});
            !r)
            return r;
        AgentPolicy agent;
        if (auto v = n["allowed_tools"]) {
            auto tools = toolGlobs(v, "agent.allowed_tools");
            if (!tools)
                return std::unexpected(tools.error());
            agent.allowedTools = *tools;
        }
        if (auto v = n["blocked_tools"]) {
            auto tools = toolGlobs(v, "agent.blocked_tools");
            if (!tools)
                return std::unexpected(tools.error());
            agent.blockedTools = *tools;
        }
        if (auto v = n["argument_rules"]) {
            if (auto r = parseArgumentRules(v, agent); !r)
                return r;
        }
        if (auto v = n["max_steps"]) {
            auto steps = integer(v, "agent.max_steps", 0, 100'000'000);
            if (!steps)
                return std::unexpected(steps.error());
            agent.maxSteps = *steps;
        }
        if (auto v = n["max_cost"]) {
            auto c = cost(v, "agent.max_cost");
            if (!c)
                return std::unexpected(c.error());
            agent.maxCost = *c;
        }
        if (auto v = n["tool_costs"]) {
            if (!v.IsMap())
                return fail(where(v, "agent.tool_costs") + "expected a mapping of tool (or glob): cost");
            if (auto unique = keysOf(v, "agent.tool_costs"); !unique)
                return std::unexpected(unique.error());
            for (const auto& kv : v) {
                const auto tool = kv.first.as<std::string>();
                auto c = cost(kv.second, "agent.tool_costs." + tool);
                if (!c)
                    return std::unexpected(c.error());
                agent.toolCosts.emplace_back(tool, *c);
            }
        }
        if (auto v = n["require_approval"]) {
            auto names = toolGlobs(v, "agent.require_approval");
            if (!names)
                return std::unexpected(names.error());
            agent.requireApproval = *names;
        }
        if (auto v = n["approval_timeout_ms"]) {
            auto ms = integer(v, "agent.approval_timeout_ms", 1, 24LL * 3600 * 1000);
            if (!ms)
                return std::unexpected(ms.error());
            agent.approvalTimeoutMs = *ms;
        }
        if (auto v = n["checkpoint_before"]) {
            if (auto r = parseCheckpointBefore(v, agent); !r)
                return r;
        }
        policy.agent = std::move(agent);
        return {};
    }

    Status parseRoot(const YAML::Node& root, Policy& policy)
    {
        if (auto r = checkKeys(root, "", {"name", "level", "allow_lower_level", "network", "limits", "env", "paths",
                                          "python", "shell", "syscalls", "agent"});
            !r)
            return r;
        if (auto n = root["name"]) {
            auto v = scalar(n, "name");
            if (!v)
                return std::unexpected(v.error());
            policy.name = *v;
        }
        if (auto n = root["level"]) {
            auto v = scalar(n, "level");
            if (!v)
                return std::unexpected(v.error());
            auto level = isolationLevelFromString(*v);
            if (!level)
                return fail(where(n, "level") + fmt::format("unknown isolation level '{}' (process, container, strict)", shown(*v)));
            policy.level = *level;
        }
        if (auto n = root["allow_lower_level"]) {
            auto v = boolean(n, "allow_lower_level");
            if (!v)
                return std::unexpected(v.error());
            policy.allowLowerLevel = *v;
        }
        if (auto n = root["network"]) {
            if (auto r = parseNetwork(n, policy); !r)
                return r;
        }
        if (auto n = root["limits"]) {
            if (auto r = parseLimits(n, policy); !r)
                return r;
        }
        if (auto n = root["env"]) {
            if (auto r = parseEnv(n, policy); !r)
                return r;
        }
        if (auto n = root["paths"]) {
            if (auto r = parsePaths(n, policy); !r)
                return r;
        }
        if (auto n = root["python"]) {
            if (auto r = parsePython(n, policy); !r)
                return r;
        }
        if (auto n = root["shell"]) {
            if (auto r = parseShell(n, policy); !r)
                return r;
        }
        if (auto n = root["syscalls"]) {
            if (auto r = parseSyscalls(n, policy); !r)
                return r;
        }
        if (auto n = root["agent"]) {
            if (auto r = parseAgent(n, policy); !r)
                return r;
        }
        return {};
    }

    // A rule's values: decimal, 0x-hex, or negative (two's complement, as a register holds -1 or AT_FDCWD).
    Result<std::uint64_t> argValue(const YAML::Node& node, std::string_view field)
    {
        auto text = scalar(node, field);
        if (!text)
            return std::unexpected(text.error());
        const std::string& t = *text;
        const char* first = t.data();
        const char* last = t.data() + t.size();
        std::uint64_t value = 0;
        std::from_chars_result r{};
        if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
            r = std::from_chars(first + 2, last, value, 16);
        } else if (!t.empty() && t[0] == '-') {
            std::int64_t negative = 0;
            r = std::from_chars(first, last, negative);
            value = static_cast<std::uint64_t>(negative);
        } else {
            r = std::from_chars(first, last, value);
        }
        if (t.empty() || r.ec != std::errc() || r.ptr != last)
            return fail(where(node, field) + fmt::format("expected a 64-bit integer, got '{}'", shown(t)));
        return value;
    }

    Result<int> errnoValue(const YAML::Node& node, std::string_view field)
    {
        auto text = scalar(node, field);
        if (!text)
            return std::unexpected(text.error());
        auto value = errnoFromString(*text);
        if (!value)
            return fail(where(node, field)
                        + fmt::format("'{}' is not an errno (a name such as EPERM or EACCES, or 1..4095)", shown(*text)));
        return *value;
    }

    Result<SyscallAction> action(const YAML::Node& node, std::string_view field, bool isDefault)
    {
        auto text = scalar(node, field);
        if (!text)
            return std::unexpected(text.error());
        auto a = syscallActionFromString(*text);
        if (!a || (isDefault && *a == SyscallAction::Log))
            return fail(where(node, field)
                        + fmt::format("unknown action '{}' ({})", *text,
                                      isDefault ? "allow, errno, kill" : "allow, errno, kill, log"));
        return *a;
    }

    Result<std::vector<ArgCondition>> parseArgs(const YAML::Node& node, const std::string& path)
    {
        if (!node.IsSequence())
            return fail(where(node, path) + "expected a list of {index, op, value[, mask]}");
        std::vector<ArgCondition> out;
        std::set<unsigned> seen;
        for (std::size_t i = 0; i < node.size(); ++i) {
            const auto item = node[i];
            const auto apath = fmt::format("{}[{}]", path, i);
            if (auto r = checkKeys(item, apath, {"index", "op", "value", "mask"}); !r)
                return std::unexpected(r.error());
            ArgCondition c;
            const auto index = item["index"];
            if (!index)
                return fail(where(item, apath + ".index") + "missing (the argument's position, 0..5)");
            auto idx = integer(index, apath + ".index", 0, 5);
            if (!idx)
                return std::unexpected(idx.error());
            c.index = static_cast<unsigned>(*idx);
            if (!seen.insert(c.index).second)
                return fail(where(index, apath + ".index")
                            + fmt::format("argument {} is compared twice; libseccomp compares each argument once "
                                          "per rule",
                                          c.index));
            const auto op = item["op"];
            if (!op)
                return fail(where(item, apath + ".op") + "missing (eq, ne, lt, le, gt, ge, masked_eq)");
            auto opText = scalar(op, apath + ".op");
            if (!opText)
                return std::unexpected(opText.error());
            auto parsedOp = argOpFromString(*opText);
            if (!parsedOp)
                return fail(where(op, apath + ".op")
                            + fmt::format("unknown operator '{}' (eq, ne, lt, le, gt, ge, masked_eq)", *opText));
            c.op = *parsedOp;
            const auto value = item["value"];
            if (!value)
                return fail(where(item, apath + ".value") + "missing");
            auto v = argValue(value, apath + ".value");
            if (!v)
                return std::unexpected(v.error());
            c.value = *v;
            const auto mask = item["mask"];
            if (c.op == ArgOp::MaskedEq) {
                if (!mask)
                    return fail(where(item, apath + ".mask") + "masked_eq needs a mask: (argument & mask) == value");
                auto m = argValue(mask, apath + ".mask");
                if (!m)
                    return std::unexpected(m.error());
                c.mask = *m;
            } else if (mask) {
                return fail(where(mask, apath + ".mask") + "a mask applies to op masked_eq only");
            }
            out.push_back(c);
        }
        return out;
    }

    Status parseSyscalls(const YAML::Node& node, Policy& policy)
    {
        if (auto r = checkKeys(node, "syscalls", {"default", "default_errno", "rules", "profile"}); !r)
            return r;
        SyscallPolicy sys;
        std::optional<SyscallAction> explicitDefault;
        if (auto d = node["default"]) {
            auto a = action(d, "syscalls.default", true);
            if (!a)
                return std::unexpected(a.error());
            explicitDefault = *a;
        }
        std::optional<int> explicitDefaultErrno;
        if (auto e = node["default_errno"]) {
            auto v = errnoValue(e, "syscalls.default_errno");
            if (!v)
                return std::unexpected(v.error());
            explicitDefaultErrno = *v;
        }
        // Which syscalls already have a rule without conditions: libseccomp refuses a second one.
        std::map<std::string, std::string> unconditional;
        if (auto rules = node["rules"]) {
            if (!rules.IsSequence())
                return fail(where(rules, "syscalls.rules") + "expected a list of rules");
            for (std::size_t i = 0; i < rules.size(); ++i) {
                const auto item = rules[i];
                const auto path = fmt::format("syscalls.rules[{}]", i);
                if (auto r = checkKeys(item, path, {"names", "action", "errno", "args"}); !r)
                    return r;
                SyscallRule rule;
                const auto names = item["names"];
                if (!names)
                    return fail(where(item, path + ".names") + "missing (the syscalls this rule is about)");
                auto list = stringList(names, path + ".names");
                if (!list)
                    return std::unexpected(list.error());
                if (list->empty())
                    return fail(where(names, path + ".names") + "names no syscall");
                const auto act = item["action"];
                if (!act)
                    return fail(where(item, path + ".action") + "missing (allow, errno, kill, log)");
                auto a = action(act, path + ".action", false);
                if (!a)
                    return std::unexpected(a.error());
                rule.action = *a;
                if (auto e = item["errno"]) {
                    if (rule.action != SyscallAction::Errno)
                        return fail(where(e, path + ".errno") + "an errno applies to action errno only");
                    auto v = errnoValue(e, path + ".errno");
                    if (!v)
                        return std::unexpected(v.error());
                    rule.errnoValue = *v;
                }
                if (auto args = item["args"]) {
                    auto v = parseArgs(args, path + ".args");
                    if (!v)
                        return std::unexpected(v.error());
                    rule.args = *v;
                }
                for (std::size_t n = 0; n < list->size(); ++n) {
                    const auto& name = (*list)[n];
                    if (!isKnownSyscall(name))
                        return fail(where(names[n], path + ".names") + fmt::format("unknown syscall '{}'", name));
                    if (std::find(rule.names.begin(), rule.names.end(), name) != rule.names.end())
                        return fail(where(names[n], path + ".names") + fmt::format("'{}' is listed twice", name));
                    if (rule.args.empty()) {
                        auto [it, fresh] = unconditional.emplace(name, path);
                        if (!fresh)
                            return fail(where(names[n], path + ".names")
                                        + fmt::format("'{}' already has a rule without args ({})", name, it->second));
                    }
                    rule.names.push_back(name);
                }
                sys.rules.push_back(std::move(rule));
            }
        }
        if (auto profile = node["profile"]) {
            auto imported = importProfile(profile);
            if (!imported)
                return std::unexpected(imported.error());
            // The policy's own rules speak for the syscalls they name; the profile fills in the rest.
            std::set<std::string> own;
            for (const auto& r : sys.rules)
                own.insert(r.names.begin(), r.names.end());
            for (auto& r : imported->rules) {
                std::erase_if(r.names, [&](const std::string& n) { return own.contains(n); });
                if (!r.names.empty())
                    sys.rules.push_back(std::move(r));
            }
            sys.defaultAction = imported->defaultAction;
            sys.defaultErrno = imported->defaultErrno;
        }
        if (explicitDefault)
            sys.defaultAction = *explicitDefault;
        if (explicitDefaultErrno) {
            if (sys.defaultAction != SyscallAction::Errno)
                return fail(where(node["default_errno"], "syscalls.default_errno") + "applies to default: errno only");
            sys.defaultErrno = *explicitDefaultErrno;
        }
        // Keep the value canonical so a rendered policy reads back equal (it is meaningless otherwise).
        if (sys.defaultAction != SyscallAction::Errno)
            sys.defaultErrno = SyscallPolicy{}.defaultErrno;
        policy.syscalls = std::move(sys);
        return {};
    }

    Result<SyscallPolicy> importProfile(const YAML::Node& node)
    {
        auto text = scalar(node, "syscalls.profile");
        if (!text)
            return std::unexpected(text.error());
        std::filesystem::path path(*text);
        if (text->empty() || text->find('\0') != std::string::npos)
            return fail(where(node, "syscalls.profile") + "expected a path to an OCI/Docker seccomp profile (JSON)");
        if (path.is_relative()) {
            if (!m_baseDir)
                return fail(where(node, "syscalls.profile")
                            + fmt::format("'{}' is relative, and this policy has no folder to be relative to; "
                                          "use an absolute path",
                                          *text));
            path = *m_baseDir / path;
        }
        auto json = readInputText(path, input::kSeccompProfile);
        if (!json)
            return fail(where(node, "syscalls.profile") + json.error().message);
        OciImportReport report;
        auto imported = importOciSeccompProfile(*json, path.string(), &report);
        if (!imported)
            return fail(where(node, "syscalls.profile") + imported.error().message);
        if (m_warnings)
            m_warnings->insert(m_warnings->end(), report.warnings.begin(), report.warnings.end());
        return imported;
    }

    std::string m_origin;
    std::optional<std::filesystem::path> m_baseDir;
    std::vector<std::string>* m_warnings = nullptr;
    std::size_t m_spent = 0; // spend()
};

} // namespace

Result<Policy> parsePolicy(std::string_view yamlText, std::string_view origin, std::vector<std::string>* warnings)
{
    return PolicyParser(origin, std::nullopt, warnings).parse(yamlText);
}

Result<Policy> loadPolicyFile(const std::filesystem::path& path, std::vector<std::string>* warnings, bool* namesLevel)
{
    auto text = readInputText(path, input::kPolicy);
    if (!text)
        return std::unexpected(text.error());
    return PolicyParser(path.string(), std::filesystem::absolute(path).parent_path(), warnings).parse(*text, namesLevel);
}

namespace {

void renderSyscalls(YAML::Emitter& out, const SyscallPolicy& sys)
{
    out << YAML::Key << "syscalls" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "default" << YAML::Value << std::string(toString(sys.defaultAction));
    if (sys.defaultAction == SyscallAction::Errno)
        out << YAML::Key << "default_errno" << YAML::Value << errnoName(sys.defaultErrno);
    out << YAML::Key << "rules" << YAML::Value;
    if (sys.rules.empty())
        out << YAML::Flow;
    out << YAML::BeginSeq;
    for (const auto& rule : sys.rules) {
        out << YAML::BeginMap;
        out << YAML::Key << "names" << YAML::Value << YAML::Flow << rule.names;
        out << YAML::Key << "action" << YAML::Value << std::string(toString(rule.action));
        if (rule.action == SyscallAction::Errno)
            out << YAML::Key << "errno" << YAML::Value << errnoName(rule.errnoValue);
        if (!rule.args.empty()) {
            out << YAML::Key << "args" << YAML::Value << YAML::Flow << YAML::BeginSeq;
            for (const auto& a : rule.args) {
                out << YAML::BeginMap << YAML::Key << "index" << YAML::Value << a.index;
                out << YAML::Key << "op" << YAML::Value << std::string(toString(a.op));
                // Masked comparisons are about bits: hex reads as what it means there.
                if (a.op == ArgOp::MaskedEq) {
                    out << YAML::Key << "mask" << YAML::Value << YAML::Hex << a.mask;
                    out << YAML::Key << "value" << YAML::Value << YAML::Hex << a.value;
                } else {
                    out << YAML::Key << "value" << YAML::Value << a.value;
                }
                out << YAML::EndMap;
            }
            out << YAML::EndSeq;
        }
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    out << YAML::EndMap;
}

} // namespace

std::string_view toString(CheckpointBefore mode)
{
    switch (mode) {
    case CheckpointBefore::Auto: return "auto";
    case CheckpointBefore::Always: return "always";
    case CheckpointBefore::Never: return "never";
    case CheckpointBefore::Tools: return "tools";
    }
    return "auto";
}

namespace {

// A number as the shortest text that reads back as the same double.
std::string numberText(double value)
{
    return fmt::format("{}", value);
}

void renderAgent(YAML::Emitter& out, const AgentPolicy& agent)
{
    out << YAML::Key << "agent" << YAML::Value << YAML::BeginMap;
    if (agent.allowedTools)
        out << YAML::Key << "allowed_tools" << YAML::Value << YAML::Flow << *agent.allowedTools;
    out << YAML::Key << "blocked_tools" << YAML::Value << YAML::Flow << agent.blockedTools;
    out << YAML::Key << "argument_rules" << YAML::Value;
    if (agent.argumentRules.empty())
        out << YAML::Flow;
    out << YAML::BeginSeq;
    for (const auto& rule : agent.argumentRules) {
        out << YAML::BeginMap;
        if (!rule.name.empty())
            out << YAML::Key << "name" << YAML::Value << rule.name;
        out << YAML::Key << "condition" << YAML::Value << YAML::DoubleQuoted << rule.condition;
        if (!rule.tools.empty())
            out << YAML::Key << "tools" << YAML::Value << YAML::Flow << rule.tools;
        if (!rule.message.empty())
            out << YAML::Key << "message" << YAML::Value << YAML::DoubleQuoted << rule.message;
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    out << YAML::Key << "max_steps" << YAML::Value << agent.maxSteps;
    if (agent.maxCost)
        out << YAML::Key << "max_cost" << YAML::Value << numberText(*agent.maxCost);
    out << YAML::Key << "tool_costs" << YAML::Value;
    if (agent.toolCosts.empty())
        out << YAML::Flow;
    out << YAML::BeginMap;
    for (const auto& [tool, c] : agent.toolCosts)
        out << YAML::Key << tool << YAML::Value << numberText(c);
    out << YAML::EndMap;
    out << YAML::Key << "require_approval" << YAML::Value << YAML::Flow << agent.requireApproval;
    out << YAML::Key << "approval_timeout_ms" << YAML::Value << agent.approvalTimeoutMs;
    if (agent.checkpointBefore == CheckpointBefore::Tools)
        out << YAML::Key << "checkpoint_before" << YAML::Value << YAML::Flow << agent.checkpointTools;
    else
        out << YAML::Key << "checkpoint_before" << YAML::Value << std::string(toString(agent.checkpointBefore));
    out << YAML::EndMap;
}

} // namespace

namespace {

std::string emitPolicy(const Policy& policy);

} // namespace

std::string renderPolicy(const Policy& policy)
{
    // Every recorded run renders its policy, and runs come in a few policies: the YAML emitter costs more than
    // the rest of a run's record, comparing a policy with the last few rendered far less.
    static std::mutex mutex;
    static std::list<std::pair<Policy, std::string>> rendered; // the most recently rendered first
    {
        const std::lock_guard lock(mutex);
        for (auto it = rendered.begin(); it != rendered.end(); ++it) {
            if (it->first == policy) {
                rendered.splice(rendered.begin(), rendered, it);
                return it->second;
            }
        }
    }
    std::string text = emitPolicy(policy);
    const std::lock_guard lock(mutex);
    rendered.emplace_front(policy, text);
    if (rendered.size() > 4)
        rendered.pop_back();
    return text;
}

namespace {

std::string emitPolicy(const Policy& policy)
{
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << policy.name;
    out << YAML::Key << "level" << YAML::Value << std::string(toString(policy.level));
    out << YAML::Key << "allow_lower_level" << YAML::Value << policy.allowLowerLevel;
    if (policy.network == NetworkMode::Allowlist) {
        out << YAML::Key << "network" << YAML::Value << YAML::BeginMap;
        out << YAML::Key << "mode" << YAML::Value << "allowlist";
        out << YAML::Key << "allow" << YAML::Value << YAML::Flow << policy.networkAllow << YAML::EndMap;
    } else {
        out << YAML::Key << "network" << YAML::Value << "none";
    }
    out << YAML::Key << "limits" << YAML::Value << YAML::BeginMap;
    for (const auto& b : kLimitBounds)
        out << YAML::Key << b.key << YAML::Value << policy.limits.*(b.field);
    out << YAML::EndMap;
    out << YAML::Key << "env" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "pass" << YAML::Value << YAML::Flow << policy.envPass;
    out << YAML::Key << "set" << YAML::Value << YAML::BeginMap;
    for (const auto& [k, v] : policy.envSet)
        out << YAML::Key << k << YAML::Value << YAML::DoubleQuoted << v;
    out << YAML::EndMap << YAML::EndMap;
    out << YAML::Key << "paths" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "read" << YAML::Value << YAML::Flow << policy.readPaths << YAML::EndMap;
    out << YAML::Key << "python" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "interpreter" << YAML::Value << policy.python;
    out << YAML::Key << "import_guard" << YAML::Value << policy.importGuard;
    out << YAML::Key << "site_packages" << YAML::Value << policy.sitePackages;
    out << YAML::Key << "blocked_imports" << YAML::Value << YAML::Flow << policy.blockedImports;
    out << YAML::EndMap;
    out << YAML::Key << "shell" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "interpreter" << YAML::Value << policy.shell << YAML::EndMap;
    renderSyscalls(out, policy.syscalls);
    if (policy.agent)
        renderAgent(out, *policy.agent);
    out << YAML::EndMap;
    return out.c_str();
}

} // namespace

std::vector<std::string> builtinPresetNames()
{
    std::vector<std::string> names;
    for (const auto& p : presets::kPresets)
        names.emplace_back(p.name);
    return names;
}

std::optional<std::string_view> builtinPresetText(std::string_view name)
{
    for (const auto& p : presets::kPresets) {
        if (p.name == name)
            return p.text;
    }
    return std::nullopt;
}

Result<Policy> builtinPreset(std::string_view name)
{
    auto text = builtinPresetText(name);
    if (!text) {
        std::string list;
        for (const auto& n : builtinPresetNames())
            list += (list.empty() ? "" : ", ") + n;
        return fail(fmt::format("no built-in policy preset '{}' (presets: {})", name, list));
    }
    // Named like the source file, so an error points at the line to fix in resources/policies/.
    return parsePolicy(*text, fmt::format("resources/policies/{}.yaml", name));
}

} // namespace sb
