#include "oci_seccomp.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <sys/utsname.h>

namespace sb {

namespace {

using json = nlohmann::json;

// The Go/Docker name of the architecture this binary runs on: profiles name arches that way in
// includes/excludes and as SCMP_ARCH_* in architectures/archMap.
std::string_view nativeGoArch()
{
#if defined(__x86_64__)
    return "amd64";
#elif defined(__aarch64__)
    return "arm64";
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return "ppc64le";
#elif defined(__s390x__)
    return "s390x";
#elif defined(__riscv) && __riscv_xlen == 64
    return "riscv64";
#else
    return "unknown";
#endif
}

// Go name -> SCMP_ARCH_* for the 64-bit arches Sandbench could run on (the native ABI is all it allows).
std::string scmpArchFor(std::string_view goArch)
{
    static const std::map<std::string_view, std::string_view> kNames = {{"amd64", "SCMP_ARCH_X86_64"},
                                                                        {"arm64", "SCMP_ARCH_AARCH64"},
                                                                        {"ppc64le", "SCMP_ARCH_PPC64LE"},
                                                                        {"s390x", "SCMP_ARCH_S390X"},
                                                                        {"riscv64", "SCMP_ARCH_RISCV64"}};
    const auto it = kNames.find(goArch);
    return it == kNames.end() ? std::string() : std::string(it->second);
}

// A profile may name an arch the Go way ("amd64"), the kernel way ("x86_64") or the libseccomp way.
bool archMatches(std::string_view named, std::string_view goArch)
{
    if (named == goArch || named == scmpArchFor(goArch))
        return true;
    return goArch == "amd64" && named == "x86_64";
}

struct KernelVersion {
    int major = 0;
    int minor = 0;
    auto operator<=>(const KernelVersion&) const = default;
};

std::optional<KernelVersion> parseKernelVersion(std::string_view text)
{
    KernelVersion v;
    const char* end = text.data() + text.size();
    auto [p1, e1] = std::from_chars(text.data(), end, v.major);
    if (e1 != std::errc() || p1 == end || *p1 != '.')
        return std::nullopt;
    auto [p2, e2] = std::from_chars(p1 + 1, end, v.minor);
    if (e2 != std::errc())
        return std::nullopt;
    // "5.10" or "5.10.2"; the patch level never decides a syscall's existence.
    if (p2 != end && *p2 != '.')
        return std::nullopt;
    return v;
}

KernelVersion runningKernel()
{
    utsname u{};
    if (::uname(&u) == 0) {
        std::string_view release(u.release);
        // "6.1.0-18-amd64": cut at the first character that is neither a digit nor a dot.
        const auto cut = release.find_first_not_of("0123456789.");
        auto v = parseKernelVersion(release.substr(0, cut));
        if (!v) {
            // "6.1" parses; "6" alone does not: take major only.
            int major = 0;
            std::from_chars(release.data(), release.data() + release.size(), major);
            return {major, 0};
        }
        return *v;
    }
    return {0, 0};
}

struct ActionMapping {
    std::string_view oci;
    SyscallAction action;
};
constexpr ActionMapping kActions[] = {
    {"SCMP_ACT_ALLOW", SyscallAction::Allow},       {"SCMP_ACT_ERRNO", SyscallAction::Errno},
    {"SCMP_ACT_LOG", SyscallAction::Log},           {"SCMP_ACT_KILL", SyscallAction::Kill},
    {"SCMP_ACT_KILL_PROCESS", SyscallAction::Kill}, {"SCMP_ACT_KILL_THREAD", SyscallAction::Kill},
    {"SCMP_ACT_TRAP", SyscallAction::Kill},         {"SCMP_ACT_TRACE", SyscallAction::Kill},
};

struct OpMapping {
    std::string_view oci;
    ArgOp op;
};
constexpr OpMapping kOps[] = {
    {"SCMP_CMP_EQ", ArgOp::Eq},
    {"SCMP_CMP_NE", ArgOp::Ne},
    {"SCMP_CMP_LT", ArgOp::Lt},
    {"SCMP_CMP_LE", ArgOp::Le},
    {"SCMP_CMP_GT", ArgOp::Gt},
    {"SCMP_CMP_GE", ArgOp::Ge},
    {"SCMP_CMP_MASKED_EQ", ArgOp::MaskedEq},
};

class Importer {
public:
    Importer(std::string_view origin, OciImportReport& report, const OciImportHost& host)
        : m_origin(origin), m_report(report), m_goArch(host.arch.empty() ? std::string(nativeGoArch()) : host.arch),
          m_kernel(host.kernelMajor < 0 ? runningKernel() : KernelVersion{host.kernelMajor, host.kernelMinor})
    {
    }

    Result<SyscallPolicy> run(std::string_view text)
    {
        json root;
        try {
            root = json::parse(text.begin(), text.end());
        } catch (const json::exception& e) { // parse_error; out_of_range for a number too large for a double
            return fail(fmt::format("{}: invalid JSON: {}", m_origin, e.what()));
        }
        if (!root.is_object())
            return fail(fmt::format("{}: a seccomp profile must be a JSON object", m_origin));

        SyscallPolicy policy;
        if (auto r = parseDefault(root, policy); !r)
            return std::unexpected(r.error());
        if (auto r = checkArchitectures(root); !r)
            return std::unexpected(r.error());
        if (root.contains("syscalls")) {
            const auto& list = root["syscalls"];
            if (!list.is_null() && !list.is_array())
                return fail(at("syscalls", "expected an array"));
            if (list.is_array()) {
                for (std::size_t i = 0; i < list.size(); ++i) {
                    if (auto r = parseRule(list[i], fmt::format("syscalls[{}]", i), policy); !r)
                        return std::unexpected(r.error());
                }
            }
        }
        if (!m_report.unknownSyscalls.empty()) {
            std::string names;
            for (const auto& n : m_report.unknownSyscalls)
                names += (names.empty() ? "" : ", ") + n;
            m_report.warnings.push_back(fmt::format("{}: skipped {} syscall name(s) unknown on {}: {}", m_origin,
                                                    m_report.unknownSyscalls.size(), m_goArch, names));
        }
        return policy;
    }

private:
    std::string at(std::string_view path, std::string_view what) const
    {
        return fmt::format("{}: {}: {}", m_origin, path, what);
    }

    Result<int> errnoAt(const json& value, std::string_view path) const
    {
        if (!value.is_number_integer())
            return fail(at(path, "expected an errno number"));
        const auto n = value.get<std::int64_t>();
        if (n < 1 || n > 4095)
            return fail(at(path, fmt::format("errno {} is out of range [1, 4095]", n)));
        return static_cast<int>(n);
    }

    Result<SyscallAction> actionAt(const json& value, std::string_view path) const
    {
        if (!value.is_string())
            return fail(at(path, "expected an action name (SCMP_ACT_*)"));
        const auto name = value.get<std::string>();
        for (const auto& m : kActions) {
            if (m.oci == name)
                return m.action;
        }
        if (name == "SCMP_ACT_NOTIFY")
            return fail(at(path, "SCMP_ACT_NOTIFY needs a listener outside the profile; Sandbench does not import it"));
        return fail(at(path, fmt::format("unknown action '{}'", name)));
    }

    Result<void> parseDefault(const json& root, SyscallPolicy& policy)
    {
        if (!root.contains("defaultAction"))
            return fail(at("defaultAction", "missing (every seccomp profile names its default action)"));
        auto action = actionAt(root["defaultAction"], "defaultAction");
        if (!action)
            return std::unexpected(action.error());
        if (*action == SyscallAction::Log)
            return fail(at("defaultAction", "SCMP_ACT_LOG as the default would report every call; use SCMP_ACT_ALLOW"));
        policy.defaultAction = *action;
        if (root.contains("defaultErrnoRet") && !root["defaultErrnoRet"].is_null()) {
            auto e = errnoAt(root["defaultErrnoRet"], "defaultErrnoRet");
            if (!e)
                return std::unexpected(e.error());
            m_defaultErrno = *e;
        }
        policy.defaultErrno = m_defaultErrno;
        return {};
    }

    // Only the native ABI ever runs (the filter kills other arches), so the profile must describe it.
    Result<void> checkArchitectures(const json& root) const
    {
        std::vector<std::string> named;
        if (root.contains("architectures") && !root["architectures"].is_null()) {
            const auto& list = root["architectures"];
            if (!list.is_array())
                return fail(at("architectures", "expected an array of SCMP_ARCH_* names"));
            for (std::size_t i = 0; i < list.size(); ++i) {
                if (!list[i].is_string())
                    return fail(at(fmt::format("architectures[{}]", i), "expected an SCMP_ARCH_* name"));
                named.push_back(list[i].get<std::string>());
            }
        }
        if (root.contains("archMap") && !root["archMap"].is_null()) {
            const auto& list = root["archMap"];
            if (!list.is_array())
                return fail(at("archMap", "expected an array"));
            for (std::size_t i = 0; i < list.size(); ++i) {
                const auto path = fmt::format("archMap[{}]", i);
                if (!list[i].is_object() || !list[i].contains("architecture") || !list[i]["architecture"].is_string())
                    return fail(at(path, "expected {\"architecture\": \"SCMP_ARCH_*\", \"subArchitectures\": [...]}"));
                named.push_back(list[i]["architecture"].get<std::string>());
                if (list[i].contains("subArchitectures") && !list[i]["subArchitectures"].is_null()
                    && !list[i]["subArchitectures"].is_array())
                    return fail(at(path + ".subArchitectures", "expected an array"));
            }
        }
        if (named.empty())
            return {};
        if (std::none_of(named.begin(), named.end(), [&](const std::string& a) { return archMatches(a, m_goArch); }))
            return fail(
                at("architectures", fmt::format("the profile does not cover this machine's architecture ({})",
                                                scmpArchFor(m_goArch).empty() ? m_goArch : scmpArchFor(m_goArch))));
        return {};
    }

    Result<std::vector<std::string>> stringArray(const json& value, std::string_view path) const
    {
        if (!value.is_array())
            return fail(at(path, "expected an array of strings"));
        std::vector<std::string> out;
        for (std::size_t i = 0; i < value.size(); ++i) {
            if (!value[i].is_string())
                return fail(at(fmt::format("{}[{}]", path, i), "expected a string"));
            out.push_back(value[i].get<std::string>());
        }
        return out;
    }

    // Whether includes/excludes let this rule apply on this host to a process without capabilities.
    Result<bool> applies(const json& rule, std::string_view path) const
    {
        for (const char* key : {"includes", "excludes"}) {
            if (!rule.contains(key) || rule[key].is_null())
                continue;
            const bool include = std::string_view(key) == "includes";
            const auto& filter = rule[key];
            const auto fpath = fmt::format("{}.{}", path, key);
            if (!filter.is_object())
                return fail(at(fpath, "expected an object with caps, arches, minKernel"));
            if (filter.contains("caps") && !filter["caps"].is_null()) {
                auto caps = stringArray(filter["caps"], fpath + ".caps");
                if (!caps)
                    return std::unexpected(caps.error());
                // A run holds no capabilities: needing one means never; excluding one excludes nothing.
                if (include && !caps->empty())
                    return false;
            }
            if (filter.contains("arches") && !filter["arches"].is_null()) {
                auto arches = stringArray(filter["arches"], fpath + ".arches");
                if (!arches)
                    return std::unexpected(arches.error());
                const bool native = std::any_of(arches->begin(), arches->end(),
                                                [&](const std::string& a) { return archMatches(a, m_goArch); });
                if (include && !arches->empty() && !native)
                    return false;
                if (!include && native)
                    return false;
            }
            if (filter.contains("minKernel") && !filter["minKernel"].is_null()) {
                const auto& mk = filter["minKernel"];
                const auto kpath = fpath + ".minKernel";
                if (!mk.is_string())
                    return fail(at(kpath, "expected a version such as \"4.8\""));
                auto version = parseKernelVersion(mk.get<std::string>());
                if (!version)
                    return fail(
                        at(kpath, fmt::format("'{}' is not a kernel version such as \"4.8\"", mk.get<std::string>())));
                const bool newEnough = m_kernel >= *version;
                if (include && !newEnough)
                    return false;
                if (!include && newEnough)
                    return false;
            }
        }
        return true;
    }

    Result<std::vector<ArgCondition>> parseArgs(const json& args, std::string_view path) const
    {
        if (args.is_null())
            return std::vector<ArgCondition>{};
        if (!args.is_array())
            return fail(at(path, "expected an array"));
        std::vector<ArgCondition> out;
        std::set<unsigned> seen;
        for (std::size_t i = 0; i < args.size(); ++i) {
            const auto apath = fmt::format("{}[{}]", path, i);
            const auto& a = args[i];
            if (!a.is_object())
                return fail(at(apath, "expected {index, value, valueTwo, op}"));
            ArgCondition c;
            if (!a.contains("index") || !a["index"].is_number_unsigned() || a["index"].get<std::uint64_t>() > 5)
                return fail(at(apath + ".index", "expected an argument index 0..5"));
            c.index = static_cast<unsigned>(a["index"].get<std::uint64_t>());
            if (!seen.insert(c.index).second)
                return fail(at(apath + ".index", fmt::format("argument {} is compared twice; libseccomp compares "
                                                             "each argument once per rule",
                                                             c.index)));
            std::uint64_t value = 0;
            std::uint64_t valueTwo = 0;
            if (!a.contains("value") || !a["value"].is_number_unsigned())
                return fail(at(apath + ".value", "expected an unsigned 64-bit number"));
            value = a["value"].get<std::uint64_t>();
            if (a.contains("valueTwo") && !a["valueTwo"].is_null()) {
                if (!a["valueTwo"].is_number_unsigned())
                    return fail(at(apath + ".valueTwo", "expected an unsigned 64-bit number"));
                valueTwo = a["valueTwo"].get<std::uint64_t>();
            }
            if (!a.contains("op") || !a["op"].is_string())
                return fail(at(apath + ".op", "expected an operator (SCMP_CMP_*)"));
            const auto opName = a["op"].get<std::string>();
            const auto* m =
                std::find_if(std::begin(kOps), std::end(kOps), [&](const OpMapping& o) { return o.oci == opName; });
            if (m == std::end(kOps))
                return fail(at(apath + ".op", fmt::format("unknown operator '{}'", opName)));
            c.op = m->op;
            if (c.op == ArgOp::MaskedEq) {
                // libseccomp-golang's order: value is the mask, valueTwo the expected result.
                c.mask = value;
                c.value = valueTwo;
            } else {
                c.value = value;
            }
            out.push_back(c);
        }
        return out;
    }

    Result<void> parseRule(const json& rule, const std::string& path, SyscallPolicy& policy)
    {
        if (!rule.is_object())
            return fail(at(path, "expected an object"));
        std::vector<std::string> names;
        if (rule.contains("names") && !rule["names"].is_null()) {
            auto v = stringArray(rule["names"], path + ".names");
            if (!v)
                return std::unexpected(v.error());
            names = *v;
        }
        if (rule.contains("name") && !rule["name"].is_null()) {
            if (!rule["name"].is_string())
                return fail(at(path + ".name", "expected a syscall name"));
            names.push_back(rule["name"].get<std::string>());
        }
        if (names.empty())
            return fail(at(path, "names one or no syscall (expected \"names\": [...] or \"name\")"));
        if (!rule.contains("action"))
            return fail(at(path + ".action", "missing"));
        SyscallRule out;
        auto action = actionAt(rule["action"], path + ".action");
        if (!action)
            return std::unexpected(action.error());
        out.action = *action;
        const bool errnoGiven = rule.contains("errnoRet") && !rule["errnoRet"].is_null();
        if (out.action == SyscallAction::Errno) {
            out.errnoValue = m_defaultErrno;
            if (errnoGiven) {
                auto e = errnoAt(rule["errnoRet"], path + ".errnoRet");
                if (!e)
                    return std::unexpected(e.error());
                out.errnoValue = *e;
            }
        }
        // Errors in the conditions count even when the rule does not apply here: the file is wrong.
        auto args = parseArgs(rule.contains("args") ? rule["args"] : json(), path + ".args");
        if (!args)
            return std::unexpected(args.error());
        out.args = *args;
        auto use = applies(rule, path);
        if (!use)
            return std::unexpected(use.error());
        if (!*use) {
            ++m_report.rulesSkipped;
            return {};
        }
        for (const auto& name : names) {
            if (std::find(out.names.begin(), out.names.end(), name) != out.names.end())
                continue; // listed twice in one rule: the same rule
            if (!isKnownSyscall(name)) {
                if (std::find(m_report.unknownSyscalls.begin(), m_report.unknownSyscalls.end(), name)
                    == m_report.unknownSyscalls.end())
                    m_report.unknownSyscalls.push_back(name);
                continue;
            }
            if (out.args.empty()) {
                // libseccomp refuses a second unconditional rule for one syscall; the first one wins.
                auto [it, fresh] = m_unconditional.emplace(name, std::make_pair(out.action, path));
                if (!fresh) {
                    if (it->second.first != out.action)
                        m_report.warnings.push_back(fmt::format(
                            "{}: {}: '{}' already has action {} from {}; this {} rule is ignored for it", m_origin,
                            path, name, toString(it->second.first), it->second.second, toString(out.action)));
                    continue;
                }
            }
            out.names.push_back(name);
        }
        if (out.names.empty()) {
            ++m_report.rulesSkipped;
            return {};
        }
        ++m_report.rulesKept;
        policy.rules.push_back(std::move(out));
        return {};
    }

    std::string m_origin;
    OciImportReport& m_report;
    std::string m_goArch;
    KernelVersion m_kernel;
    int m_defaultErrno = 1; // EPERM, as runc uses when a profile names none
    std::map<std::string, std::pair<SyscallAction, std::string>> m_unconditional;
};

} // namespace

Result<SyscallPolicy> importOciSeccompProfile(std::string_view json, std::string_view origin)
{
    return importOciSeccompProfile(json, origin, nullptr);
}

Result<SyscallPolicy> importOciSeccompProfile(std::string_view json, std::string_view origin, OciImportReport* report,
                                              const OciImportHost& host)
{
    OciImportReport local;
    return Importer(origin, report ? *report : local, host).run(json);
}

} // namespace sb
