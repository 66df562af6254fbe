#pragma once
// Every run's start, outcome and duration: what a chart of runs over time, or over a chosen span of time, needs
// and the aggregate metrics (store/metrics.h) do not keep.

#include "isolation/outcome.h"
#include "util/error.h"

#include <cstdint>
#include <vector>

namespace sb {

class Store;

struct RunPoint {
    std::int64_t startedAtMs = 0; // Unix epoch milliseconds
    Outcome outcome = Outcome::Ok;
    double durationMs = -1; // -1: not recorded
};

// Every run the store holds, oldest first (three small columns a run: a million runs are 24 MB).
Result<std::vector<RunPoint>> runPoints(const Store& store);

} // namespace sb
