#include "agents/step_points.h"

#include "store/sqlite_db.h"

#include <sqlite3.h>

#include <exception>

namespace sb::agents {

static_assert(static_cast<std::size_t>(Verdict::Failed) + 1 == kAllVerdicts.size());

Result<std::vector<StepPoint>> stepPoints(const Store& store)
{
    auto db = sqlite::connectionOf(store);
    if (!db)
        return std::unexpected(db.error());
    try {
        auto statement = db->prepare("SELECT started_at_ms, verdict, tool FROM agent_steps "
                                     "ORDER BY started_at_ms, session_id, idx");
        if (!statement)
            return std::unexpected(statement.error());
        sqlite3_stmt* s = statement->get();
        std::vector<StepPoint> points;
        int rc = 0;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
            StepPoint point;
            point.atMs = sqlite3_column_int64(s, 0);
            point.verdict = verdictFromString(sqlite::columnString(s, 1));
            point.tool = sqlite::columnString(s, 2);
            points.push_back(std::move(point));
        }
        if (rc != SQLITE_DONE)
            return db->error("cannot read the agent steps");
        return points;
    } catch (const std::exception& e) {
        return fail("store " + store.path().string() + ": reading the agent steps failed: " + e.what());
    }
}

VerdictCounts countVerdicts(std::span<const StepPoint> points, std::int64_t fromMs, std::int64_t untilMs)
{
    VerdictCounts counts;
    for (const StepPoint& point : points) {
        if (point.atMs < fromMs || (untilMs != 0 && point.atMs >= untilMs))
            continue;
        ++counts.total;
        if (point.verdict)
            ++counts.counts[static_cast<std::size_t>(*point.verdict)];
        else
            ++counts.unknown;
    }
    return counts;
}

std::vector<BlockedPoint> blockedToolPoints(std::span<const StepPoint> points)
{
    std::vector<BlockedPoint> out;
    for (const StepPoint& point : points) {
        if (point.verdict == Verdict::Blocked || point.verdict == Verdict::Denied)
            out.push_back({point.atMs, "tool", blockedTarget("tool", point.tool)});
    }
    return out;
}

} // namespace sb::agents
