#include "usecases/policy_reference.h"

#include "isolation/doctor.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>

namespace sb {

Result<Policy> loadPolicyOrPreset(const std::string& nameOrPath, bool& namesLevel)
{
    std::error_code ec;
    // A dangling link or a loop is a file the user meant: its error says what is wrong with it.
    if (std::filesystem::exists(nameOrPath, ec) || std::filesystem::is_symlink(nameOrPath, ec))
        return loadPolicyFile(nameOrPath, nullptr, &namesLevel);
    if (auto text = builtinPresetText(nameOrPath)) {
        namesLevel = YAML::Load(std::string(*text))["level"].IsDefined();
        return builtinPreset(nameOrPath);
    }
    std::string names;
    for (const auto& n : builtinPresetNames())
        names += (names.empty() ? "" : ", ") + n;
    return fail(fmt::format("{}: no such policy file, and not a preset ({})", nameOrPath, names));
}

Result<std::string> policyReference(Store& store, const std::string& fileOrPreset)
{
    std::error_code ec;
    if (!std::filesystem::exists(fileOrPreset, ec) && builtinPresetText(fileOrPreset))
        return "preset:" + fileOrPreset;
    bool namesLevel = false;
    auto policy = loadPolicyOrPreset(fileOrPreset, namesLevel);
    if (!policy)
        return std::unexpected(policy.error());
    // A file that leaves the level open gets the one a run with --policy FILE would have here.
    if (!namesLevel)
        policy->level = highestAvailableLevel();
    auto version = store.recordPolicy(*policy);
    if (!version)
        return std::unexpected(version.error());
    return fmt::format("{}@{}", version->name, version->version);
}

Result<Policy> policyFromReference(const Store& store, const std::string& reference)
{
    if (reference.starts_with("preset:")) {
        const std::string name = reference.substr(7);
        auto policy = builtinPreset(name);
        if (!policy)
            return policy;
        if (auto text = builtinPresetText(name); text && !YAML::Load(std::string(*text))["level"].IsDefined())
            policy->level = highestAvailableLevel();
        return policy;
    }
    const auto at = reference.rfind('@');
    std::int64_t version = 0;
    if (at != std::string::npos) {
        try {
            version = std::stoll(reference.substr(at + 1));
        } catch (const std::exception&) {
            version = 0;
        }
    }
    if (at == std::string::npos || version <= 0)
        return fail(fmt::format("'{}' is not a policy reference (preset:NAME or NAME@VERSION)", reference));
    const std::string name = reference.substr(0, at);
    auto stored = store.findPolicy(name, version);
    if (!stored)
        return std::unexpected(stored.error());
    if (!*stored)
        return fail(fmt::format("policy {} is not in store {}", reference, store.path().string()));
    return parsePolicy((*stored)->yaml, reference);
}

} // namespace sb
