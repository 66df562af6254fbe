// Text from files and untrusted programs, made safe to print: what is kept and what is escaped.

#include "util/printable.h"

#include <gtest/gtest.h>

#include <string>

namespace sb {
namespace {

using namespace std::string_literals;

TEST(Printable, KeepsOrdinaryTextIncludingUnicode)
{
    EXPECT_EQ(printable("run 42: ok"), "run 42: ok");
    EXPECT_EQ(printable("Prüfung – 試験 🎉"), "Prüfung – 試験 🎉");
    EXPECT_EQ(printable(""), "");
}

TEST(Printable, EscapesControlsInvalidBytesAndBidiOverrides)
{
    EXPECT_EQ(printable("a\x1b[31mred\n"), "a\\x1b[31mred\\x0a");
    EXPECT_EQ(printable("nul\0x"s), "nul\\x00x");
    EXPECT_EQ(printable("del\x7f"), "del\\x7f");
    EXPECT_EQ(printable("\xff\xfe"), "\\xff\\xfe");
    EXPECT_EQ(printable("\xc3\x28"), "\\xc3(");              // a lead byte without its continuation
    EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");          // overlong
    EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80"); // a surrogate
    EXPECT_EQ(printable("\xc2\x9b"
                        "31m"),
              "\\u{009b}31m"); // C1 CSI
    EXPECT_EQ(printable("abc\xe2\x80\xae"
                        "fed"),
              "abc\\u{202e}fed");               // right-to-left override
    EXPECT_EQ(printable("a\\x1b"), "a\\\\x1b"); // an escape cannot be faked
}

TEST(Printable, CutsAtCodePoints)
{
    EXPECT_EQ(printable("abcdef", 3), "abc…");
    EXPECT_EQ(printable("äöüß", 2), "äö…");
    EXPECT_EQ(printable("abc", 3), "abc");
    EXPECT_EQ(printable("abc", 0), "…");
}

} // namespace
} // namespace sb
