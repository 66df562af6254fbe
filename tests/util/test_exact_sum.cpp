// The exact sum of doubles (util/exact_sum.h): one value whatever the order and the grouping of its terms.

#include "util/exact_sum.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <random>
#include <vector>

namespace sb {
namespace {

double sumOf(const std::vector<double>& terms)
{
    ExactSum s;
    for (const double t : terms)
        s.add(t);
    return s.value();
}

TEST(ExactSum, SumsWhatPlainAdditionLoses)
{
    // 1e16 + 1 - 1e16 is 0 in plain doubles, 1 exactly.
    EXPECT_EQ(sumOf({1e16, 1.0, -1e16}), 1.0);
    // The doubles these literals are add up to 2^-55 exactly; plain addition gives 2^-54 or 2^-55 by the order.
    EXPECT_EQ(sumOf({0.1, 0.2, -0.3}), std::ldexp(1.0, -55));
    EXPECT_EQ(sumOf({-0.3, 0.1, 0.2}), std::ldexp(1.0, -55));
    EXPECT_EQ(sumOf({}), 0.0);
    EXPECT_EQ(sumOf({-2.5, -2.5}), -5.0);
    EXPECT_EQ(sumOf({DBL_MAX, -DBL_MAX, 3.0}), 3.0);
    EXPECT_EQ(sumOf({DBL_TRUE_MIN, DBL_TRUE_MIN}), 2 * DBL_TRUE_MIN);
    EXPECT_EQ(sumOf({DBL_MAX, DBL_MAX}), HUGE_VAL); // beyond the doubles: infinite, as plain addition says
    EXPECT_EQ(sumOf({std::nan(""), HUGE_VAL, 1.0}), 1.0); // not finite: not added
}

TEST(ExactSum, RoundsOnceToTheNearest)
{
    // 2^53 + 1 is not a double: ties go to even (2^53); with a little more it rounds up.
    const double big = 9007199254740992.0;
    EXPECT_EQ(sumOf({big, 1.0}), big);
    EXPECT_EQ(sumOf({big, 1.0, 1e-300}), big + 2.0);
    EXPECT_EQ(sumOf({big, 3.0}), big + 4.0);
}

TEST(ExactSum, SameValueInAnyOrderAndAnyGrouping)
{
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> money(-5000.0, 5000.0);
    std::uniform_int_distribution<int> exponent(-30, 30);
    std::vector<double> terms;
    for (int i = 0; i < 20000; ++i)
        terms.push_back(i % 3 == 0 ? std::ldexp(money(random), exponent(random)) : std::round(money(random) * 100) / 100);
    const double whole = sumOf(terms);
    for (int trial = 0; trial < 5; ++trial) {
        std::shuffle(terms.begin(), terms.end(), random);
        EXPECT_EQ(sumOf(terms), whole);
        // Cut into parts summed apart, then added together (as a cluster's shards are).
        ExactSum total;
        for (std::size_t from = 0; from < terms.size(); from += 1000 + static_cast<std::size_t>(trial) * 777) {
            ExactSum part;
            for (std::size_t i = from; i < std::min(terms.size(), from + 1000 + static_cast<std::size_t>(trial) * 777); ++i)
                part.add(terms[i]);
            auto copied = ExactSum::fromText(part.toText());
            ASSERT_TRUE(copied);
            total.add(*copied);
        }
        EXPECT_EQ(total.value(), whole);
    }
    // And near plain addition in long double, which is close for these terms.
    long double plain = 0;
    for (const double t : terms)
        plain += t;
    EXPECT_NEAR(whole, static_cast<double>(plain), 1e-6);
}

TEST(ExactSum, TextRoundTripsAndRefusesWhatIsNotIt)
{
    ExactSum s;
    s.add(-1234.56);
    s.add(1e-200);
    s.add(7e250);
    auto back = ExactSum::fromText(s.toText());
    ASSERT_TRUE(back);
    EXPECT_EQ(back->value(), s.value());
    EXPECT_EQ(*back, s);
    EXPECT_TRUE(ExactSum::fromText(""));
    for (const char* bad : {"x", "1", "1:", ":1", "68:1", "3:-1", "3:4294967296", "1:2,", "1:2,,3:4", "99999999999999999999:1"})
        EXPECT_FALSE(ExactSum::fromText(bad)) << bad;
}

} // namespace
} // namespace sb
