#include "isolation/policy.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
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
    {"open_files", &Limits::openFiles, 8, 1048576},
    {"output_bytes", &Limits::outputBytes, 0, 1LL << 30},
};

class PolicyParser {
public:
    explicit PolicyParser(std::string_view origin) : m_origin(origin) {}

    Result<Policy> parse(std::string_view text)
    {
        YAML::Node root;
        try {
            root = YAML::Load(std::string(text));
        } catch (const YAML::ParserException& e) {
            return fail(fmt::format("{}:{}:{}: invalid YAML: {}", m_origin, e.mark.line + 1, e.mark.column + 1, e.msg));
        }
        Policy policy;
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

    Status checkKeys(const YAML::Node& map, std::string_view path, std::initializer_list<std::string_view> allowed)
    {
        if (!map.IsMap())
            return fail(where(map, path) + "expected a mapping");
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

    Result<std::string> scalar(const YAML::Node& node, std::string_view field)
    {
        if (!node.IsScalar())
            return fail(where(node, field) + "expected a single value");
        return node.Scalar();
    }

    Result<std::int64_t> integer(const YAML::Node& node, std::string_view field, std::int64_t min, std::int64_t max)
    {
        auto text = scalar(node, field);
        if (!text)
            return std::unexpected(text.error());
        std::int64_t value = 0;
        std::istringstream in(*text);
        if (!(in >> value) || !in.eof())
            return fail(where(node, field) + fmt::format("expected an integer, got '{}'", *text));
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
        return fail(where(node, field) + fmt::format("expected true or false, got '{}'", *text));
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
            return fail(where(node, field) + fmt::format("expected an absolute path, got '{}'", *text));
        return text;
    }

    static bool validEnvName(const std::string& name)
    {
        if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
            return false;
        return std::all_of(name.begin(), name.end(),
                           [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    }

    Status parseRoot(const YAML::Node& root, Policy& policy)
    {
        if (auto r = checkKeys(root, "", {"name", "level", "network", "limits", "env", "paths", "python", "shell"}); !r)
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
                return fail(where(n, "level") + fmt::format("unknown isolation level '{}' (process, container, strict)", *v));
            policy.level = *level;
        }
        if (auto n = root["network"]) {
            auto v = scalar(n, "network");
            if (!v)
                return std::unexpected(v.error());
            if (*v != "none")
                return fail(where(n, "network") + fmt::format("network '{}' is not supported; use 'none'", *v));
            policy.network = NetworkMode::None;
        }
        if (auto n = root["limits"]) {
            std::vector<std::string_view> keys;
            for (const auto& b : kLimitBounds)
                keys.emplace_back(b.key);
            if (!n.IsMap())
                return fail(where(n, "limits") + "expected a mapping");
            for (const auto& kv : n) {
                const auto key = kv.first.as<std::string>();
                const auto* bound = std::find_if(std::begin(kLimitBounds), std::end(kLimitBounds),
                                                 [&](const Bound& b) { return key == b.key; });
                if (bound == std::end(kLimitBounds))
                    return fail(where(kv.first, "limits." + key)
                                + "unknown limit (expected one of: wall_ms, cpu_ms, memory_mb, processes, file_size_mb, open_files, output_bytes)");
                auto v = integer(kv.second, "limits." + key, bound->min, bound->max);
                if (!v)
                    return std::unexpected(v.error());
                policy.limits.*(bound->field) = *v;
            }
        }
        if (auto n = root["env"]) {
            if (auto r = checkKeys(n, "env", {"pass", "set"}); !r)
                return r;
            if (auto p = n["pass"]) {
                auto v = stringList(p, "env.pass");
                if (!v)
                    return std::unexpected(v.error());
                for (const auto& name : *v) {
                    if (!validEnvName(name))
                        return fail(where(p, "env.pass") + fmt::format("'{}' is not a variable name", name));
                }
                policy.envPass = *v;
            }
            if (auto s = n["set"]) {
                if (!s.IsMap())
                    return fail(where(s, "env.set") + "expected a mapping of NAME: value");
                for (const auto& kv : s) {
                    const auto name = kv.first.as<std::string>();
                    if (!validEnvName(name))
                        return fail(where(kv.first, "env.set") + fmt::format("'{}' is not a variable name", name));
                    auto v = scalar(kv.second, "env.set." + name);
                    if (!v)
                        return std::unexpected(v.error());
                    policy.envSet[name] = *v;
                }
            }
        }
        if (auto n = root["paths"]) {
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
        }
        if (auto n = root["python"]) {
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
                                    + fmt::format("'{}' is not a top-level module name", name));
                }
                policy.blockedImports = *v;
            }
        }
        if (auto n = root["shell"]) {
            if (auto r = checkKeys(n, "shell", {"interpreter"}); !r)
                return r;
            if (auto i = n["interpreter"]) {
                auto v = absolutePath(i, "shell.interpreter");
                if (!v)
                    return std::unexpected(v.error());
                policy.shell = *v;
            }
        }
        return {};
    }

    std::string m_origin;
};

} // namespace

Result<Policy> parsePolicy(std::string_view yamlText, std::string_view origin)
{
    return PolicyParser(origin).parse(yamlText);
}

Result<Policy> loadPolicyFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fail(fmt::format("{}: cannot read policy file", path.string()));
    std::ostringstream text;
    text << in.rdbuf();
    constexpr std::size_t kMaxPolicyBytes = 1 << 20;
    if (text.str().size() > kMaxPolicyBytes)
        return fail(fmt::format("{}: policy file is larger than 1 MiB", path.string()));
    if (text.str().find('\0') != std::string::npos)
        return fail(fmt::format("{}: policy file is binary, expected YAML", path.string()));
    return parsePolicy(text.str(), path.string());
}

std::string renderPolicy(const Policy& policy)
{
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << policy.name;
    out << YAML::Key << "level" << YAML::Value << std::string(toString(policy.level));
    out << YAML::Key << "network" << YAML::Value << "none";
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
    out << YAML::EndMap;
    return out.c_str();
}

} // namespace sb
