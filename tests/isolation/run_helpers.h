#pragma once

#include "isolation/runner.h"

#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace sb::test {

inline RunResult runSnippet(Language language, const std::string& source, Policy policy = {},
                            RunnerOptions options = {})
{
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

// A temporary directory that is removed with its contents at the end of the scope.
class TempDir {
public:
    TempDir()
    {
        std::string pattern = (std::filesystem::temp_directory_path() / "sandbench-test-XXXXXX").string();
        m_path = ::mkdtemp(pattern.data());
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
