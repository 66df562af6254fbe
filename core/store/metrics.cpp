#include "store/metrics.h"

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
        const double high = i + 1 < kDurationEdgesMs.size() ? kDurationEdgesMs[i + 1]
                                                              : std::numeric_limits<double>::infinity();
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

} // namespace sb
