#include "util/message.h"

#include <gtest/gtest.h>

#include <sstream>

using sb::Message;

TEST(Message, FillsEachPlaceholderInOrder)
{
    EXPECT_EQ(Message::fillPattern("{} files changed (more than {})", {"51", "50"}), "51 files changed (more than 50)");
    EXPECT_EQ(Message::fillPattern("no placeholder", {"unused"}), "no placeholder");
    EXPECT_EQ(Message::fillPattern("", {}), "");
}

// A translation may put the arguments in another order by naming their places.
TEST(Message, NumberedPlaceholdersTakeTheirArgument)
{
    EXPECT_EQ(Message::fillPattern("超过 {1} 的 {0}", {"51", "50"}), "超过 50 的 51");
    EXPECT_EQ(Message::fillPattern("{0} and again {0}", {"x"}), "x and again x");
}

TEST(Message, DoubledBracesAreBraces)
{
    EXPECT_EQ(Message::fillPattern("{{}} is {}", {"a map"}), "{} is a map");
    EXPECT_EQ(Message::fillPattern("}}{{", {}), "}{");
}

// An argument is text, never a pattern: a path with braces in it stays as it is.
TEST(Message, ArgumentsAreNotFilledAgain)
{
    EXPECT_EQ(Message::fillPattern("file {} changed", {"a{}b{0}"}), "file a{}b{0} changed");
    EXPECT_EQ(Message::plain("x {} y {{").text(), "x {} y {{");
}

// A pattern that asks for more than it was given, or is malformed, shows what it could not fill as written:
// nothing is read past the arguments and nothing is dropped.
TEST(Message, WhatCannotBeFilledStaysAsWritten)
{
    EXPECT_EQ(Message::fillPattern("{} of {}", {"1"}), "1 of {}");
    EXPECT_EQ(Message::fillPattern("{7}", {"a"}), "{7}");
    EXPECT_EQ(Message::fillPattern("{x} {-1} {99999999999999999999}", {"a"}), "{x} {-1} {99999999999999999999}");
    EXPECT_EQ(Message::fillPattern("open { brace", {"a"}), "open { brace");
    EXPECT_EQ(Message::fillPattern("trailing {", {}), "trailing {");
    EXPECT_EQ(Message::fillPattern("lone } brace", {}), "lone } brace");
}

TEST(Message, KeepsItsContextPatternAndArguments)
{
    const Message m(SB_TR("run outcome", "exited with status {}"), {"3"});
    EXPECT_EQ(m.context, "run outcome");
    EXPECT_EQ(m.pattern, "exited with status {}");
    EXPECT_EQ(m.text(), "exited with status 3");
    EXPECT_FALSE(m.empty());
    EXPECT_TRUE(Message{}.empty());
    EXPECT_EQ(Message{}.text(), "");

    const Message plain = Message::plain("an error from the system");
    EXPECT_TRUE(plain.context.empty());
    EXPECT_EQ(plain.text(), "an error from the system");
    std::ostringstream out;
    out << m;
    EXPECT_EQ(out.str(), "exited with status 3");
}
