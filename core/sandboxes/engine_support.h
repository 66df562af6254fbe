#pragma once

// Private to core/sandboxes: the engine's constants (lock waits, folder names), its step trace, and the small
// helpers of text, ids and hashes its source files share.

#include "checkpoints/blob_store.h"
#include "checkpoints/diff.h"
#include "sandboxes/sandbox_engine.h"
#include "store/sqlite_db.h"
#include "util/hash.h"
#include "util/time_text.h"
#include "util/user_account.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <sys/random.h>
#include <unistd.h>
#include <vector>

namespace sb::engine {

namespace fs = std::filesystem;

inline constexpr int kSandboxLockWaitMs = 30'000;
inline constexpr int kGarbageLockWaitMs = 60'000;
inline constexpr std::string_view kWorkspaceFolder = "workspace";
inline constexpr std::string_view kStagingPrefix = ".restore-";
inline constexpr std::string_view kNewWorkspaceFolder = "workspace.new";

// SANDBENCH_TRACE_WORKSPACE=1: each step of a checkpoint or restore prints its time (milliseconds since the
// operation began, and since the process's static initialisation: what a command spent before it) to
// stderr, to see where a slow one spends it.
class StepTrace {
public:
    static std::chrono::steady_clock::time_point processStart();
    explicit StepTrace(std::string_view operation)
        : m_enabled(std::getenv("SANDBENCH_TRACE_WORKSPACE") != nullptr), m_operation(operation),
          m_start(std::chrono::steady_clock::now())
    {
    }
    void operator()(std::string_view step) const
    {
        if (!m_enabled)
            return;
        using Ms = std::chrono::duration<double, std::milli>;
        const auto now = std::chrono::steady_clock::now();
        std::fprintf(stderr, "[trace] %s %-12s %8.2f ms (%.2f ms into the process)\n", m_operation.c_str(),
                     std::string(step).c_str(), Ms(now - m_start).count(), Ms(now - processStart()).count());
    }

private:
    bool m_enabled;
    std::string m_operation;
    std::chrono::steady_clock::time_point m_start;
};

template <typename T> inline std::unexpected<Error> errorOf(const Result<T>& result)
{
    return std::unexpected(result.error());
}

inline std::string currentUser()
{
    if (auto name = knownAccountName(::geteuid()))
        return *name;
    if (const char* user = std::getenv("USER"); user && *user)
        return user;
    return fmt::format("uid {}", ::geteuid());
}

inline std::string randomHex(std::size_t bytes)
{
    std::vector<std::uint8_t> random(bytes);
    std::size_t got = 0;
    while (got < bytes) {
        const ssize_t n = ::getrandom(random.data() + got, bytes - got, 0);
        if (n <= 0) {
            // getrandom cannot fail here short of a broken kernel; fall back on the time and pid.
            const auto seed =
                static_cast<std::uint64_t>(wallClockNs()) ^ (static_cast<std::uint64_t>(::getpid()) << 32);
            for (std::size_t i = got; i < bytes; ++i)
                random[i] = static_cast<std::uint8_t>(seed >> ((i % 8) * 8));
            break;
        }
        got += static_cast<std::size_t>(n);
    }
    return toHex(random);
}

inline std::string_view asChars(const ContentHash& hash)
{
    return {reinterpret_cast<const char*>(hash.data()), hash.size()};
}

inline ContentHash hashFromColumn(sqlite3_stmt* statement, int column)
{
    ContentHash hash{};
    const std::string bytes = sqlite::columnString(statement, column);
    if (bytes.size() == hash.size())
        std::copy(bytes.begin(), bytes.end(), hash.begin());
    return hash;
}

inline std::string parentPath(std::string_view path)
{
    const auto slash = path.rfind('/');
    return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

inline std::string baseName(std::string_view path)
{
    const auto slash = path.rfind('/');
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

inline bool isHexPrefix(std::string_view text)
{
    return !text.empty() && text.size() <= 64 && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c));
    });
}

inline std::string jsonText(const nlohmann::json& value)
{
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

inline Result<std::vector<std::string>> patternsFromJson(const std::string& text)
{
    std::vector<std::string> patterns;
    const auto parsed = nlohmann::json::parse(text, nullptr, false);
    if (!parsed.is_array())
        return patterns;
    for (const auto& item : parsed) {
        if (item.is_string())
            patterns.push_back(item.get<std::string>());
    }
    return patterns;
}

inline ChangeCounts countChanges(const std::vector<TreeChange>& changes)
{
    ChangeCounts counts;
    for (const auto& change : changes) {
        switch (change.kind) {
        case ChangeKind::Added: ++counts.added; break;
        case ChangeKind::Removed: ++counts.removed; break;
        case ChangeKind::Modified: ++counts.modified; break;
        }
    }
    return counts;
}

} // namespace sb::engine
