#include "store/metrics.h"

#include "store_internal.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace sb {

namespace {

// Lower edges of the duration bins; the last bin is open-ended. Chosen to read well on a log-ish axis.
constexpr std::array kDurationEdgesMs = {0.0, 10.0, 25.0, 50.0, 100.0, 250.0, 500.0, 1000.0, 2500.0, 5000.0};

} // namespace

double percentile(std::vector<double> values, double p)
{
    // NaN has no place in an ordering (and would break std::sort's contract).
    std::erase_if(values, [](double v) { return std::isnan(v); });
    if (values.empty())
        return 0;
    if (std::isnan(p))
        p = 0;
    p = std::clamp(p, 0.0, 100.0);

    std::sort(values.begin(), values.end());
    const auto n = static_cast<double>(values.size());
    // Nearest rank: the smallest value with at least p% of the values at or below it. p * n / 100 keeps
    // integer p exact (0.95 * 20 is not 19 in binary); the epsilon absorbs the rest.
    double rank = std::ceil(p * n / 100.0 - 1e-9);
    rank = std::clamp(rank, 1.0, n);
    return values[static_cast<std::size_t>(rank) - 1];
}

std::vector<HistogramBin> durationHistogram(const std::vector<double>& durationsMs)
{
    std::vector<HistogramBin> bins;
    bins.reserve(kDurationEdgesMs.size());
    for (std::size_t i = 0; i < kDurationEdgesMs.size(); ++i) {
        const double high =
            i + 1 < kDurationEdgesMs.size() ? kDurationEdgesMs[i + 1] : std::numeric_limits<double>::infinity();
        bins.push_back(HistogramBin{kDurationEdgesMs[i], high, 0});
    }

    for (double d : durationsMs) {
        if (std::isnan(d))
            continue;
        // upper_bound finds the first edge above d; the bin is the one before it. Values below 0 (a clock
        // step backwards) count in the first bin rather than vanishing.
        const auto it = std::upper_bound(kDurationEdgesMs.begin(), kDurationEdgesMs.end(), d);
        const auto index = it == kDurationEdgesMs.begin() ? 0 : std::distance(kDurationEdgesMs.begin(), it) - 1;
        ++bins[static_cast<std::size_t>(index)].count;
    }
    return bins;
}

// The metrics of the runs a store holds.
Result<MetricsSnapshot> Store::metrics(int recentLimit) const
{
    if (!m_db)
        return detail::closedError(m_path);
    return detail::guarded(m_path, "computing metrics", [&]() -> Result<MetricsSnapshot> {
        const sqlite::Db db(m_db, m_path, m_statements);
        MetricsSnapshot snapshot;

        auto counts = db.prepare("SELECT outcome, count(*) FROM runs GROUP BY outcome");
        if (!counts)
            return std::unexpected(counts.error());
        std::vector<std::int64_t> perOutcome(kAllOutcomes.size(), 0);
        int rc = 0;
        while ((rc = sqlite3_step(counts->get())) == SQLITE_ROW) {
            const std::int64_t count = sqlite3_column_int64(counts->get(), 1);
            snapshot.total += count;
            if (auto outcome = outcomeFromString(sqlite::columnString(counts->get(), 0)))
                perOutcome[static_cast<std::size_t>(std::find(kAllOutcomes.begin(), kAllOutcomes.end(), *outcome)
                                                    - kAllOutcomes.begin())] += count;
        }
        if (rc != SQLITE_DONE)
            return db.error("cannot count outcomes");
        for (std::size_t i = 0; i < kAllOutcomes.size(); ++i) {
            const double rate =
                snapshot.total > 0 ? static_cast<double>(perOutcome[i]) / static_cast<double>(snapshot.total) : 0.0;
            snapshot.outcomes.push_back(OutcomeCount{kAllOutcomes[i], perOutcome[i], rate});
        }

        // Nearest-rank percentiles need the values themselves; a REAL column is cheap to read.
        auto durations = db.prepare("SELECT duration_ms FROM runs WHERE duration_ms IS NOT NULL");
        if (!durations)
            return std::unexpected(durations.error());
        std::vector<double> values;
        values.reserve(static_cast<std::size_t>(snapshot.total));
        while ((rc = sqlite3_step(durations->get())) == SQLITE_ROW)
            values.push_back(sqlite3_column_double(durations->get(), 0));
        if (rc != SQLITE_DONE)
            return db.error("cannot read durations");
        snapshot.p50Ms = percentile(values, 50);
        snapshot.p95Ms = percentile(values, 95);
        snapshot.p99Ms = percentile(values, 99);
        snapshot.durationHistogram = durationHistogram(values);

        if (recentLimit > 0) {
            auto recent = db.prepare(
                "SELECT r.run_id, r.started_at_ms, r.label, r.language, r.outcome, r.duration_ms, r.message, "
                "e.id, e.kind, e.detail "
                "FROM (SELECT * FROM runs ORDER BY started_at_ms DESC, id DESC LIMIT ?1) AS r "
                "LEFT JOIN blocked_events AS e ON e.id = "
                "(SELECT id FROM blocked_events WHERE run_id = r.id ORDER BY seq, id LIMIT 1) "
                "ORDER BY r.started_at_ms DESC, r.id DESC");
            if (!recent)
                return std::unexpected(recent.error());
            sqlite3_stmt* s = recent->get();
            sqlite3_bind_int64(s, 1, recentLimit);
            while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
                RecentEvent event;
                event.runId = sqlite::columnString(s, 0);
                event.startedAtMs = sqlite3_column_int64(s, 1);
                event.label = sqlite::columnString(s, 2);
                event.language = sqlite::columnString(s, 3);
                event.outcome = outcomeFromString(sqlite::columnString(s, 4)).value_or(Outcome::InternalError);
                event.durationMs = sqlite3_column_double(s, 5);
                if (sqlite3_column_type(s, 7) != SQLITE_NULL)
                    event.detail = sqlite::columnString(s, 8) + ": " + sqlite::columnString(s, 9);
                else
                    event.detail = sqlite::columnString(s, 6);
                snapshot.recent.push_back(std::move(event));
            }
            if (rc != SQLITE_DONE)
                return db.error("cannot read recent runs");
        }
        return snapshot;
    });
}

} // namespace sb
