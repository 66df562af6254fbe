#pragma once

// What the session store's files share: JSON columns written and read back, the liveness lock's path, and the
// guard that keeps exceptions (the allocator's, nlohmann's) from crossing the public API.

#include "agents/session_store.h"

#include "store/sqlite_db.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

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

// The steps of session `id` as `select` reads them (?1 the session's row, ?2 `offset`, ?3 `limit`, -1: all), each
// row made by `read(statement, storePath, id)`, which returns Result<Row>.
template <typename Row, typename Read>
Result<std::vector<Row>> stepRows(Store& store, std::string_view id, std::int64_t offset, std::int64_t limit,
                                  std::string_view select, Read&& read)
{
    return guarded(store.path(), "reading an agent session's steps", [&]() -> Result<std::vector<Row>> {
        if (offset < 0)
            return fail(fmt::format("steps of session {}: offset {} is negative", id, offset));
        auto db = sqlite::connectionOf(store);
        if (!db)
            return std::unexpected(db.error());
        auto session = sessionRow(*db, id);
        if (!session)
            return std::unexpected(session.error());
        auto statement = db->prepare(select);
        if (!statement)
            return std::unexpected(statement.error());
        sqlite3_bind_int64(statement->get(), 1, session->row);
        sqlite3_bind_int64(statement->get(), 2, offset);
        sqlite3_bind_int64(statement->get(), 3, limit < 0 ? -1 : limit);
        std::vector<Row> out;
        // As many as the session counts (a count edited by hand reserves no more than a million).
        std::int64_t expected = std::clamp<std::int64_t>(session->steps - offset, 0, std::int64_t{1} << 20);
        if (limit >= 0)
            expected = std::min(limit, expected);
        out.reserve(static_cast<std::size_t>(expected));
        int rc = 0;
        while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW) {
            auto row = read(statement->get(), db->path(), id);
            if (!row)
                return std::unexpected(row.error());
            out.push_back(std::move(*row));
        }
        if (rc != SQLITE_DONE)
            return db->error(fmt::format("cannot read the steps of session {}", id));
        return out;
    });
}

} // namespace sb::agents::sessions
