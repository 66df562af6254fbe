#include "util/size_text.h"

#include <gtest/gtest.h>

using sb::parseSizeBytes;

TEST(SizeText, ParsesBinaryUnits)
{
    EXPECT_EQ(parseSizeBytes("4096").value(), 4096u);
    EXPECT_EQ(parseSizeBytes("10B").value(), 10u);
    EXPECT_EQ(parseSizeBytes("1K").value(), 1024u);
    EXPECT_EQ(parseSizeBytes("500M").value(), 500ULL << 20);
    EXPECT_EQ(parseSizeBytes("2G").value(), 2ULL << 30);
    EXPECT_EQ(parseSizeBytes("2g").value(), 2ULL << 30);
    EXPECT_EQ(parseSizeBytes("3MiB").value(), 3ULL << 20);
    EXPECT_EQ(parseSizeBytes("3MB").value(), 3ULL << 20);
    EXPECT_EQ(parseSizeBytes("1T").value(), 1ULL << 40);
}

TEST(SizeText, RefusesWhatIsNotASize)
{
    for (const char* bad :
         {"", "M", "-5M", "1.5G", "0", "0K", "5X", "5 M", "12MBB", "99999999999999999999", "20000000T"}) {
        auto parsed = parseSizeBytes(bad);
        ASSERT_FALSE(parsed) << bad;
        EXPECT_NE(parsed.error().message.find(std::string("'") + bad + "'"), std::string::npos)
            << parsed.error().message;
    }
}

TEST(SizeText, Formats)
{
    EXPECT_EQ(sb::formatSize(512), "512 B");
    EXPECT_EQ(sb::formatSize(1536), "1.5 KiB");
    EXPECT_EQ(sb::formatSize(2ULL << 30), "2.0 GiB");
}
