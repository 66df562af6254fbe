#include "util/utf8.h"

#include <gtest/gtest.h>

#include <string>

using namespace std::string_literals;

TEST(Utf8, PlainTextIsRecognised)
{
    EXPECT_TRUE(sb::utf8::isPlainText(""));
    EXPECT_TRUE(sb::utf8::isPlainText("plain ascii"));
    EXPECT_TRUE(sb::utf8::isPlainText("Grüße, 日本, 🙂"));
    EXPECT_FALSE(sb::utf8::isPlainText("nul\0inside"s));
    EXPECT_FALSE(sb::utf8::isPlainText("\xff"));
    EXPECT_FALSE(sb::utf8::isPlainText("\xc0\xaf"));         // overlong '/'
    EXPECT_FALSE(sb::utf8::isPlainText("\xed\xa0\x80"));     // a surrogate
    EXPECT_FALSE(sb::utf8::isPlainText("\xf4\x90\x80\x80")); // above U+10FFFF
    EXPECT_FALSE(sb::utf8::isPlainText("\xe2\x82"));         // cut short
}
