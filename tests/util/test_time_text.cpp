// Times and durations as people type them on a command line: what is read, what is refused.

#include "util/time_text.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <string>

namespace sb {
namespace {

constexpr std::int64_t kNow = 1'714'566'600'000; // 2024-05-01T12:30:00Z

TEST(Duration, ReadsUnitsAndSums)
{
    EXPECT_EQ(parseDurationMs("250ms").value(), 250);
    EXPECT_EQ(parseDurationMs("90s").value(), 90'000);
    EXPECT_EQ(parseDurationMs("30m").value(), 1'800'000);
    EXPECT_EQ(parseDurationMs("2h").value(), 7'200'000);
    EXPECT_EQ(parseDurationMs("1h30m").value(), 5'400'000);
    EXPECT_EQ(parseDurationMs("7d").value(), 604'800'000);
    EXPECT_EQ(parseDurationMs("2w").value(), 1'209'600'000);
    EXPECT_EQ(parseDurationMs("0s").value(), 0);
}

TEST(Duration, RefusesWhatItCannotRead)
{
    for (const char* text : {"", "5", "h", "-2h", "2 h", "2hours", "1.5h", "2h-", "99999999999999999999d",
                             "9223372036854775807w", "2h\n", "\xff"}) {
        auto parsed = parseDurationMs(text);
        ASSERT_FALSE(parsed) << text;
        EXPECT_NE(parsed.error().message.find("not a duration"), std::string::npos) << parsed.error().message;
    }
}

TEST(TimePoint, IsoWithZoneIsExact)
{
    EXPECT_EQ(parseTimePointMs("2024-05-01T12:30:00Z", 0).value(), kNow);
    EXPECT_EQ(parseTimePointMs("2024-05-01T12:30Z", 0).value(), kNow);
    EXPECT_EQ(parseTimePointMs("2024-05-01 14:30:00+02:00", 0).value(), kNow);
    EXPECT_EQ(parseTimePointMs("2024-05-01T07:30-0500", 0).value(), kNow);
    EXPECT_EQ(parseTimePointMs("2024-05-01T12:30:00.250Z", 0).value(), kNow + 250);
    EXPECT_EQ(parseTimePointMs("2024-05-01T12:30:00.2509Z", 0).value(), kNow + 250);
    EXPECT_EQ(parseTimePointMs("1970-01-01T00:00:00Z", 0).value(), 0);
}

TEST(TimePoint, IsoWithoutZoneIsLocalTime)
{
    const char* before = std::getenv("TZ");
    const std::string saved = before ? before : "";
    ::setenv("TZ", "UTC", 1);
    ::tzset();
    EXPECT_EQ(parseTimePointMs("2024-05-01T12:30:00", 0).value(), kNow);
    EXPECT_EQ(parseTimePointMs("2024-05-01", 0).value(), kNow - 45'000'000);
    ::setenv("TZ", "EST5", 1);
    ::tzset();
    EXPECT_EQ(parseTimePointMs("2024-05-01T07:30", 0).value(), kNow);
    if (before)
        ::setenv("TZ", saved.c_str(), 1);
    else
        ::unsetenv("TZ");
    ::tzset();
}

TEST(TimePoint, DurationsCountBackFromNow)
{
    EXPECT_EQ(parseTimePointMs("2h", kNow).value(), kNow - 7'200'000);
    EXPECT_EQ(parseTimePointMs("now", kNow).value(), kNow);
}

TEST(TimePoint, RefusesNonsenseWithAHint)
{
    for (const char* text : {"", "yesterday", "2024-13-01", "2024-02-30", "2024-05-01T25:00", "2024-05-01T12:60",
                             "2024-05-01T12:30:00Q", "2024-05-01T12:30:00+25:00", "2024-5-1", "24-05-01", "2024-05-01T",
                             "2024-05-01T12:30:00.Z", "5", "-2h", "2024-05-01Z junk"}) {
        auto parsed = parseTimePointMs(text, kNow);
        ASSERT_FALSE(parsed) << text;
        EXPECT_NE(parsed.error().message.find("not a time"), std::string::npos) << parsed.error().message;
    }
}

TEST(TimePoint, FormatsUtcWithMilliseconds)
{
    EXPECT_EQ(formatIsoUtc(kNow + 5), "2024-05-01T12:30:00.005Z");
    EXPECT_EQ(formatIsoUtc(0), "1970-01-01T00:00:00.000Z");
    EXPECT_EQ(formatIsoUtc(-1), "1969-12-31T23:59:59.999Z");
    EXPECT_EQ(parseTimePointMs(formatIsoUtc(kNow + 123), 0).value(), kNow + 123);
}

} // namespace
TEST(Lifetime, ParsesWhatPeopleWrite)
{
    EXPECT_EQ(parseLifetimeMs("90s").value(), 90'000);
    EXPECT_EQ(parseLifetimeMs("30m").value(), 30 * 60'000);
    EXPECT_EQ(parseLifetimeMs("2h").value(), 2 * 3'600'000);
    EXPECT_EQ(parseLifetimeMs("7d").value(), 7LL * 86'400'000);
    EXPECT_EQ(parseLifetimeMs("2w").value(), 14LL * 86'400'000);
    EXPECT_EQ(parseLifetimeMs("1h30m").value(), 90 * 60'000);
    EXPECT_EQ(parseLifetimeMs("1d2h3m4s").value(), 86'400'000 + 2 * 3'600'000 + 3 * 60'000 + 4'000);
}

TEST(Lifetime, RefusesWhatIsNotOne)
{
    for (const char* bad : {"", "0s", "0m0s", "30", "m", "-5m", "+5m", "5 m", " 5m", "5m ", "1.5h", "5x", "5M", "30m1h",
                            "1h1h", "99999999999999999999d", "36700d", "5mm", "h5", "1e3s"}) {
        auto parsed = parseLifetimeMs(bad);
        EXPECT_FALSE(parsed) << "'" << bad << "' parsed as " << parsed.value_or(-1);
        if (!parsed) {
            EXPECT_NE(parsed.error().message.find("is not a duration"), std::string::npos) << parsed.error().message;
        }
    }
}

// What formatDurationExact writes, parseDurationMs reads back to the same milliseconds.
TEST(Duration, ExactFormatsReadBack)
{
    EXPECT_EQ(formatDurationExact(7 * 86'400'000LL), "7d");
    EXPECT_EQ(formatDurationExact(36 * 3'600'000LL), "1d12h");
    EXPECT_EQ(formatDurationExact(90'000), "1m30s");
    EXPECT_EQ(formatDurationExact(0), "0s");
    for (std::int64_t ms : {1LL, 999LL, 1000LL, 61'001LL, 86'400'000LL + 1, 1'234'567'890LL})
        EXPECT_EQ(parseDurationMs(formatDurationExact(ms)).value(), ms) << ms;
}

TEST(Lifetime, FormatsShortly)
{
    EXPECT_EQ(formatDurationShort(2 * 3'600'000), "2h");
    EXPECT_EQ(formatDurationShort(27 * 3'600'000), "1d3h");
    EXPECT_EQ(formatDurationShort(45'000), "45s");
    EXPECT_EQ(formatDurationShort(86'400'000 + 5 * 60'000), "1d");
}

} // namespace sb
