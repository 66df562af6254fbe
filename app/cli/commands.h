#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sb::cli {

// Exit statuses besides the per-outcome ones of sb::exitStatusFor(): documented in README.md.
inline constexpr int kExitFailure = 1; // Sandbench itself could not do it (store, input file, ...)
inline constexpr int kExitUsage = 2;

struct RunOptions {
    std::string file;        // path or "-" for standard input
    std::string language;    // "", python, sh
    std::int64_t timeoutMs = 0;
    std::int64_t memoryMb = 0;
    std::string policyFile;
    std::string level;       // "", process, container, strict
    std::string store;
    bool json = false;
    std::vector<std::string> command; // exec: the argv
};

int runCommand(const RunOptions& options);
int execCommand(const RunOptions& options);
int demoCommand(const std::string& store, bool json);
int metricsCommand(const std::string& store, bool json);
int historyCommand(const std::string& store, int limit, bool json);
int doctorCommand(bool json);
int policyCommand(const std::string& action, const std::string& argument, bool json);

} // namespace sb::cli
