#include "store/metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace sb {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<double> oneTo(int n)
{
    std::vector<double> values(static_cast<std::size_t>(n));
    std::iota(values.begin(), values.end(), 1.0);
    return values;
}

TEST(Percentile, EmptyIsZero)
{
    EXPECT_EQ(percentile({}, 50), 0);
    EXPECT_EQ(percentile({}, 0), 0);
    EXPECT_EQ(percentile({}, 100), 0);
}

TEST(Percentile, ExtremesAreMinAndMax)
{
    const std::vector<double> values = {7, -3, 12.5, 4, 9};
    EXPECT_EQ(percentile(values, 0), -3);
    EXPECT_EQ(percentile(values, 100), 12.5);
}

TEST(Percentile, NearestRankOnKnownData)
{
    // Nearest rank: the ceil(p/100 * n)-th smallest value.
    const auto twenty = oneTo(20);
    EXPECT_EQ(percentile(twenty, 50), 10);
    EXPECT_EQ(percentile(twenty, 95), 19); // 0.95 * 20 is exactly 19 in decimal, not in binary
    EXPECT_EQ(percentile(twenty, 99), 20);
    EXPECT_EQ(percentile(twenty, 5), 1);
    EXPECT_EQ(percentile(twenty, 5.1), 2);

    const auto hundred = oneTo(100);
    EXPECT_EQ(percentile(hundred, 50), 50);
    EXPECT_EQ(percentile(hundred, 95), 95);
    EXPECT_EQ(percentile(hundred, 99), 99);
    EXPECT_EQ(percentile(hundred, 1), 1);

    // The textbook example: 15, 20, 35, 40, 50.
    const std::vector<double> classic = {50, 15, 40, 20, 35};
    EXPECT_EQ(percentile(classic, 30), 20);
    EXPECT_EQ(percentile(classic, 40), 20);
    EXPECT_EQ(percentile(classic, 50), 35);
    EXPECT_EQ(percentile(classic, 100), 50);
}

TEST(Percentile, UnsortedInputAndSingleValue)
{
    EXPECT_EQ(percentile({5, 1, 4, 2, 3}, 50), 3);
    EXPECT_EQ(percentile({42}, 0), 42);
    EXPECT_EQ(percentile({42}, 50), 42);
    EXPECT_EQ(percentile({42}, 100), 42);
}

TEST(Percentile, OutOfRangeAndNaNAreTamed)
{
    const auto ten = oneTo(10);
    EXPECT_EQ(percentile(ten, -5), 1);
    EXPECT_EQ(percentile(ten, 250), 10);
    EXPECT_EQ(percentile(ten, std::nan("")), 1);
    EXPECT_EQ(percentile({std::nan(""), 3, std::nan(""), 1, 2}, 100), 3);
    EXPECT_EQ(percentile({std::nan("")}, 50), 0);
}

TEST(DurationHistogram, FixedEdgesAlwaysAllBins)
{
    const std::vector<double> expectedLows = {0, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000};
    const auto bins = durationHistogram({});
    ASSERT_EQ(bins.size(), expectedLows.size());
    for (std::size_t i = 0; i < bins.size(); ++i) {
        EXPECT_EQ(bins[i].lowMs, expectedLows[i]) << "bin " << i;
        EXPECT_EQ(bins[i].highMs, i + 1 < expectedLows.size() ? expectedLows[i + 1] : kInf) << "bin " << i;
        EXPECT_EQ(bins[i].count, 0) << "bin " << i;
    }
    EXPECT_TRUE(std::isinf(bins.back().highMs));
}

TEST(DurationHistogram, LowEdgeInclusiveHighEdgeExclusive)
{
    const auto bins = durationHistogram({0, 9.999, 10, 24.9, 25, 99.99, 100, 4999.9, 5000, 1e9, kInf});
    ASSERT_EQ(bins.size(), 10u);
    EXPECT_EQ(bins[0].count, 2); // 0, 9.999
    EXPECT_EQ(bins[1].count, 2); // 10, 24.9
    EXPECT_EQ(bins[2].count, 1); // 25
    EXPECT_EQ(bins[3].count, 1); // 99.99
    EXPECT_EQ(bins[4].count, 1); // 100
    EXPECT_EQ(bins[5].count, 0);
    EXPECT_EQ(bins[6].count, 0);
    EXPECT_EQ(bins[7].count, 0);
    EXPECT_EQ(bins[8].count, 1); // 4999.9
    EXPECT_EQ(bins[9].count, 3); // 5000, 1e9, inf
}

TEST(DurationHistogram, OddValuesNeitherLostNorCrash)
{
    // A negative duration (clock step) still counts, in the first bin; NaN is not a duration.
    const auto bins = durationHistogram({-1, std::nan(""), 3});
    ASSERT_EQ(bins.size(), 10u);
    EXPECT_EQ(bins[0].count, 2);
    std::int64_t total = 0;
    for (const auto& bin : bins)
        total += bin.count;
    EXPECT_EQ(total, 2);
}

TEST(DurationHistogram, CountsSumToInput)
{
    std::vector<double> values;
    for (int i = 0; i < 10000; i += 7)
        values.push_back(i * 0.9);
    const auto bins = durationHistogram(values);
    std::int64_t total = 0;
    for (const auto& bin : bins)
        total += bin.count;
    EXPECT_EQ(total, static_cast<std::int64_t>(values.size()));
}

} // namespace
} // namespace sb
