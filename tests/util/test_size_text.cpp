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

// What formatSizeExact writes, parseSizeBytes reads back to the same number of bytes.
TEST(SizeText, ExactFormatsReadBack)
{
    EXPECT_EQ(sb::formatSizeExact(2ULL << 30), "2G");
    EXPECT_EQ(sb::formatSizeExact(1536ULL << 10), "1536K");
    EXPECT_EQ(sb::formatSizeExact(4097), "4097");
    EXPECT_EQ(sb::formatSizeExact(3ULL << 40), "3T");
    for (std::uint64_t bytes : {1ULL, 1023ULL, 1024ULL, 1ULL << 20, (1ULL << 30) + 1, 5ULL << 40, 123456789ULL})
        EXPECT_EQ(parseSizeBytes(sb::formatSizeExact(bytes)).value(), bytes) << bytes;
}
