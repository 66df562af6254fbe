#pragma once

#include "isolation/runner.h"

#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace sb::test {

// SANDBENCH_TEST_LEVEL=container|strict raises every run of a suite to that level, so that one suite
// checks each level in turn (the test command runs the escape suite once per level).
inline Policy atTestLevel(Policy policy)
{
    if (const char* name = std::getenv("SANDBENCH_TEST_LEVEL")) {
        const auto level = isolationLevelFromString(name);
        if (level && *level > policy.level)
            policy.level = *level;
    }
    return policy;
}

inline RunResult runSnippet(Language language, const std::string& source, Policy policy = {},
                            RunnerOptions options = {})
{
    policy = atTestLevel(std::move(policy));
    const Runner runner(std::move(options));
    return runner.run(RunRequest{language, source, std::move(policy), "test"});
}

inline RunResult runPython(const std::string& source, Policy policy = {})
{
    return runSnippet(Language::Python, source, std::move(policy));
}

inline RunResult runShell(const std::string& source, Policy policy = {})
{
    return runSnippet(Language::Shell, source, std::move(policy));
}

inline bool hasBlocked(const RunResult& r, const std::string& kind, const std::string& detailPart)
{
    for (const auto& b : r.blocked) {
        if (b.kind == kind && b.detail.find(detailPart) != std::string::npos)
            return true;
    }
    return false;
}

inline Policy bashPolicy()
{
    Policy p;
    p.shell = "/bin/bash";
    return p;
}

// A temporary directory (in `parent`) that is removed with its contents at the end of the scope.
class TempDir {
public:
    explicit TempDir(const std::filesystem::path& parent = std::filesystem::temp_directory_path())
    {
        std::string pattern = (parent / "sandbench-test-XXXXXX").string();
        if (::mkdtemp(pattern.data()))
            m_path = pattern;
    }
    ~TempDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

} // namespace sb::test
