#pragma once

#include "util/error.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb {

// Python and shell snippets, or a command line (argv) run as it is (`sandbench exec`).
enum class Language { Python, Shell, Command };
std::string_view toString(Language language);
std::optional<Language> languageFromString(std::string_view name);

// process < container < strict; see PRODUCT.md. A run never silently gets less than it asked for.
enum class IsolationLevel { Process, Container, Strict };
std::string_view toString(IsolationLevel level);
std::optional<IsolationLevel> isolationLevelFromString(std::string_view name);

enum class NetworkMode { None, Allowlist };

struct Limits {
    std::int64_t wallMs = 5000;        // wall-clock limit; kills the whole process tree
    std::int64_t cpuMs = 0;            // CPU time limit; 0 means "the wall limit"
    std::int64_t memoryMb = 256;       // address-space limit
    std::int64_t processes = 32;       // processes/threads the run may have at once
    std::int64_t fileSizeMb = 16;      // largest file the run may write
    std::int64_t openFiles = 64;       // descriptors per process
    std::int64_t outputBytes = 65536;  // captured per stream; the rest is counted and dropped
};

struct Policy {
    std::string name = "default";
    IsolationLevel level = IsolationLevel::Process;
    Limits limits;
    NetworkMode network = NetworkMode::None;
    std::vector<std::string> envPass;            // variable names copied from the caller's environment
    std::map<std::string, std::string> envSet;   // variables set explicitly
    std::vector<std::string> readPaths;          // extra paths the run may read (system paths are implied)
    bool importGuard = true;
    bool sitePackages = false;                   // third-party packages (site, dist-packages); off: leaner, faster
    std::vector<std::string> blockedImports = defaultBlockedImports(); // top-level modules refused to the snippet
    std::string python = "/usr/bin/python3";
    std::string shell = "/bin/sh";

    static std::vector<std::string> defaultBlockedImports();
};

// Parses a policy from YAML text. Errors name the origin, line, column and field.
Result<Policy> parsePolicy(std::string_view yamlText, std::string_view origin);
Result<Policy> loadPolicyFile(const std::filesystem::path& path);
// A canonical YAML rendering (stored with every run; parsePolicy(renderPolicy(p)) == p).
std::string renderPolicy(const Policy& policy);

} // namespace sb
