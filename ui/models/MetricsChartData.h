#pragma once

#include "isolation/outcome.h"
#include "store/metrics.h"

#include <QString>

#include <cstdint>
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
};

struct MetricsChartData {
    std::int64_t total = 0;
    std::vector<OutcomeBar> outcomes; // always all seven, in sb::kAllOutcomes order
    std::vector<HistogramBar> histogram;
    double okRate = 0;
    std::int64_t blocked = 0;
    std::int64_t timeouts = 0;
    double p50Ms = 0;
    double p95Ms = 0;
    double p99Ms = 0;

    std::int64_t countOf(sb::Outcome outcome) const;
    std::int64_t maxOutcomeCount() const;
    std::int64_t maxHistogramCount() const;
};

MetricsChartData chartDataFrom(const sb::MetricsSnapshot& snapshot);

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
