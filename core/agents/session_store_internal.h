#pragma once

// What the session store's files share: JSON columns written and read back, the liveness lock's path, and the
// guard that keeps exceptions (the allocator's, nlohmann's) from crossing the public API.

#include "agents/session_store.h"

#include "store/sqlite_db.h"

#include <fmt/format.h>

#include <exception>
#include <filesystem>
#include <string>
#include <string_view>

namespace sb::agents::sessions {

// A session's lock file in the lock folder.
std::filesystem::path lockPath(const std::filesystem::path& storePath, std::string_view sessionId);

// The session with exactly this id: its row (agent_sessions.id) and the steps it counts.
struct SessionRef {
    std::int64_t row = 0;
    std::int64_t steps = 0;
};
// "no agent session 'ID'" when there is none.
Result<SessionRef> sessionRow(const sqlite::Db& db, std::string_view id);

// JSON as a column holds it: compact, with bytes that are not UTF-8 replaced (nothing else in it can fail).
std::string jsonText(const Json& value);

// A JSON column read back: `what` names the session (and step) and column in the error, which says the text is
// not JSON (an edit outside Sandbench) and where.
Result<Json> parseJsonColumn(std::string_view text, const std::filesystem::path& storePath, std::string_view what);

template <typename Function>
auto guarded(const std::filesystem::path& storePath, std::string_view what, Function&& function) -> decltype(function())
{
    try {
        return function();
    } catch (const std::exception& e) {
        return fail(fmt::format("store {}: {} failed: {}", storePath.string(), what, e.what()));
    } catch (...) {
        return fail(fmt::format("store {}: {} failed", storePath.string(), what));
    }
}

} // namespace sb::agents::sessions
