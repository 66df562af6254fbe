#include "store/run_points.h"

#include "store/sqlite_db.h"
#include "store/store.h"
#include "store_internal.h"

#include <sqlite3.h>

namespace sb {

Result<std::vector<RunPoint>> runPoints(const Store& store)
{
    auto db = sqlite::connectionOf(store);
    if (!db)
        return std::unexpected(db.error());
    return detail::guarded(store.path(), "reading the runs' times", [&]() -> Result<std::vector<RunPoint>> {
        auto statement = db->prepare("SELECT started_at_ms, outcome, duration_ms FROM runs ORDER BY started_at_ms, id");
        if (!statement)
            return std::unexpected(statement.error());
        sqlite3_stmt* s = statement->get();
        std::vector<RunPoint> points;
        int rc = 0;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
            RunPoint point;
            point.startedAtMs = sqlite3_column_int64(s, 0);
            // An outcome this version does not know counts as internal_error, as the run history shows it.
            point.outcome = outcomeFromString(sqlite::columnString(s, 1)).value_or(Outcome::InternalError);
            if (sqlite3_column_type(s, 2) != SQLITE_NULL)
                point.durationMs = sqlite3_column_double(s, 2);
            points.push_back(point);
        }
        if (rc != SQLITE_DONE)
            return db->error("cannot read the runs' times");
        return points;
    });
}

} // namespace sb
