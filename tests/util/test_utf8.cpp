#include "util/utf8.h"

#include <gtest/gtest.h>

#include <string>

using namespace std::string_literals;

TEST(Utf8, PlainTextIsRecognised)
{
    EXPECT_TRUE(sb::isPlainUtf8(""));
    EXPECT_TRUE(sb::isPlainUtf8("plain ascii"));
    EXPECT_TRUE(sb::isPlainUtf8("Grüße, 日本, 🙂"));
    EXPECT_FALSE(sb::isPlainUtf8("nul\0inside"s));
    EXPECT_FALSE(sb::isPlainUtf8("\xff"));
    EXPECT_FALSE(sb::isPlainUtf8("\xc0\xaf"));         // overlong '/'
    EXPECT_FALSE(sb::isPlainUtf8("\xed\xa0\x80"));     // a surrogate
    EXPECT_FALSE(sb::isPlainUtf8("\xf4\x90\x80\x80")); // above U+10FFFF
    EXPECT_FALSE(sb::isPlainUtf8("\xe2\x82"));         // cut short
}

TEST(Utf8, PrintableTextEscapesWhatATerminalWouldActOn)
{
    EXPECT_EQ(sb::printableText("a/b.txt"), "a/b.txt");
    EXPECT_EQ(sb::printableText("Grüße"), "Grüße");
    EXPECT_EQ(sb::printableText("line\nbreak\ttab"), "line\\nbreak\\ttab");
    EXPECT_EQ(sb::printableText("\x1b[31mred"), "\\x1b[31mred");
    EXPECT_EQ(sb::printableText("bad\xff\xfe"), "bad\\xff\\xfe");
    EXPECT_EQ(sb::printableText("back\\slash"), "back\\\\slash");
    EXPECT_EQ(sb::printableText("\xc2\x9b" "c1"), "\\xc2\\x9bc1"); // C1 CSI
    EXPECT_EQ(sb::printableText("del\x7f"), "del\\x7f");
}
