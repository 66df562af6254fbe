#pragma once

#include "isolation/outcome.h"
#include "store/metrics.h"
#include "store/run_points.h"

#include <QMetaType>
#include <QString>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace sb::ui {

// The dashboard's arithmetic, kept out of the widgets so it can be tested without drawing.
struct OutcomeBar {
    sb::Outcome outcome = sb::Outcome::Ok;
    std::int64_t count = 0;
    double rate = 0;
};

struct HistogramBar {
    QString label; // e.g. "10–25", "≥ 5000" (ms)
    std::int64_t count = 0;
    double lowMs = 0;  // inclusive
    double highMs = 0; // exclusive; infinity for the last bin
};

// The span of time the dashboard shows, up to now.
enum class TimeRange { LastHour, LastDay, LastWeek, All };
inline constexpr TimeRange kAllTimeRanges[] = {TimeRange::LastHour, TimeRange::LastDay, TimeRange::LastWeek,
                                               TimeRange::All};
std::int64_t timeRangeMs(TimeRange range); // 0 for All
QString timeRangeName(TimeRange range);    // "Last hour", ... (translated)
// The name QSettings keeps a range under ("hour", "day", "week", "all"), and back (All for anything else).
QString timeRangeKey(TimeRange range);
TimeRange timeRangeFromKey(const QString& key);

// What a click on the dashboard selects: runs of one outcome, of one duration bin, started in one window of
// time. Every part is optional; an empty filter accepts every run.
struct RunFilter {
    std::optional<sb::Outcome> outcome;
    std::optional<std::pair<double, double>> durationMs;        // [low, high)
    std::optional<std::pair<std::int64_t, std::int64_t>> startMs; // [from, to), Unix epoch ms

    bool isEmpty() const { return !outcome && !durationMs && !startMs; }
    // durationMs < 0: not recorded (then no duration bin accepts the run).
    bool accepts(sb::Outcome runOutcome, double runDurationMs, std::int64_t startedAtMs) const;
    // "blocked · 10–25 ms · 14:05–14:10": what it selects, for the clear-filter button.
    QString describe() const;
    bool operator==(const RunFilter&) const = default;
};

// Runs per bucket of time, one line per outcome that has runs in the range.
struct TimeSeries {
    sb::Outcome outcome = sb::Outcome::Ok;
    std::vector<std::int64_t> counts; // per bucket
};

struct Timeline {
    std::int64_t startMs = 0;  // the first bucket's start
    std::int64_t bucketMs = 0; // each bucket's length
    int buckets = 0;
    std::vector<TimeSeries> series; // in sb::kAllOutcomes order
    std::int64_t maxCount() const;
    std::int64_t endMs() const { return startMs + bucketMs * buckets; }
};
// "5 min", "hour", "6 hours", "day": what one bucket spans, for the axis title "Runs per …".
QString bucketName(std::int64_t bucketMs);

struct MetricsChartData {
    TimeRange range = TimeRange::All;
    RunFilter filter;
    std::int64_t total = 0;
    std::vector<OutcomeBar> outcomes; // always all seven, in sb::kAllOutcomes order
    std::vector<HistogramBar> histogram;
    double okRate = 0;
    std::int64_t blocked = 0;
    std::int64_t timeouts = 0;
    std::int64_t errors = 0;
    double p50Ms = 0;
    double p95Ms = 0;
    double p99Ms = 0;
    Timeline timeline; // empty (no buckets) without the runs' points

    std::int64_t countOf(sb::Outcome outcome) const;
    std::int64_t maxOutcomeCount() const;
    std::int64_t maxHistogramCount() const;
};

// The figures of the runs in `range` up to `nowMs` (0: the current time). Each chart leaves out only its own
// part of `filter`, so another outcome or bin stays clickable: the outcome bars show every outcome of the runs
// the duration and time parts accept, the histogram every bin of the runs the outcome and time parts accept,
// the timeline the runs the outcome and duration parts accept. The counters show the runs the whole filter
// accepts. Without `runs` (every run of the snapshot's store, store/run_points.h), the snapshot's all-time
// figures, unfiltered.
MetricsChartData chartDataFrom(const sb::MetricsSnapshot& snapshot, const std::vector<sb::RunPoint>& runs = {},
                               TimeRange range = TimeRange::All, const RunFilter& filter = {}, std::int64_t nowMs = 0);

// "<10", "10–25", "≥5000": the label of one duration bin in milliseconds.
QString histogramBinLabel(const sb::HistogramBin& bin, bool lastBin);

// A round upper bound for a count axis (at least 4) and a tick count that puts ticks on whole numbers.
struct CountAxis {
    std::int64_t max = 4;
    int tickCount = 5;
};
CountAxis countAxisFor(std::int64_t largestCount);

// "12.3 ms", "1.25 s": durations for counters.
QString formatDuration(double ms);
// "9.1 MB", "512 KB"
QString formatKilobytes(std::int64_t kb);

} // namespace sb::ui

Q_DECLARE_METATYPE(sb::ui::RunFilter)
