#pragma once

#include "isolation/outcome.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sb {

struct OutcomeCount {
    Outcome outcome;
    std::int64_t count = 0;
    double rate = 0; // count / total, 0 when there are no runs
};

struct HistogramBin {
    double lowMs = 0;  // inclusive
    double highMs = 0; // exclusive; the last bin is open-ended
    std::int64_t count = 0;
};

struct RecentEvent {
    std::string runId;
    std::int64_t startedAtMs = 0;
    std::string label;
    std::string language;
    Outcome outcome = Outcome::Ok;
    double durationMs = 0;
    std::string detail; // first blocked event, or the message
};

struct MetricsSnapshot {
    std::int64_t total = 0;
    std::vector<OutcomeCount> outcomes; // one entry per outcome, in kAllOutcomes order
    double p50Ms = 0;
    double p95Ms = 0;
    double p99Ms = 0;
    std::vector<HistogramBin> durationHistogram;
    std::vector<RecentEvent> recent; // newest first
};

// Nearest-rank percentile of unsorted values (p in [0, 100]); 0 for no values.
double percentile(std::vector<double> values, double p);
// Duration histogram over fixed, human-friendly bin edges (ms): 0,10,25,50,100,250,500,1000,2500,5000,+inf.
std::vector<HistogramBin> durationHistogram(const std::vector<double>& durationsMs);

} // namespace sb
