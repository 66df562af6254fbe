// The strict JSON reader of messages (core/agents/strict_json.h).

#include "strict_json.h"

#include <gtest/gtest.h>

#include <string>

using sb::agents::Json;
using sb::agents::parseStrictJson;

namespace {

std::string nested(std::size_t depth)
{
    return std::string(depth, '[') + std::string(depth, ']');
}

std::string errorOf(std::string_view text)
{
    const auto parsed = parseStrictJson(text);
    return parsed ? std::string("(parsed)") : parsed.error();
}

} // namespace

TEST(StrictJson, ReadsWhatTheJsonParserReads)
{
    const std::string text = R"({"a":[1,-2,3.5,"x",true,null,{"b":{}}],"big":18446744073709551615,"neg":-9223372036854775808})";
    const auto parsed = parseStrictJson(text);
    ASSERT_TRUE(parsed) << parsed.error();
    EXPECT_EQ(*parsed, Json::parse(text));
    EXPECT_EQ((*parsed)["big"].get<std::uint64_t>(), 18446744073709551615u);
    EXPECT_EQ((*parsed)["neg"].get<std::int64_t>(), INT64_MIN);
}

TEST(StrictJson, ReadsScalarsAtTheTop)
{
    EXPECT_EQ(parseStrictJson("  42 ").value(), Json(42));
    EXPECT_EQ(parseStrictJson("\"s\"").value(), Json("s"));
    EXPECT_EQ(parseStrictJson("null").value(), Json());
}

TEST(StrictJson, RefusesAMemberNamedTwice)
{
    EXPECT_NE(errorOf(R"({"id":1,"id":2})").find("\"id\" appears twice"), std::string::npos) << errorOf(R"({"id":1,"id":2})");
    EXPECT_NE(errorOf(R"({"p":{"a":1,"b":2,"a":3}})").find("\"a\" appears twice"), std::string::npos);
    EXPECT_TRUE(parseStrictJson(R"({"a":{"a":1},"b":{"a":2}})")) << "the same name in two objects";
}

TEST(StrictJson, ShortensALongNameInItsMessage)
{
    const std::string name(5000, 'n');
    const std::string message = errorOf("{\"" + name + "\":1,\"" + name + "\":2}");
    EXPECT_LT(message.size(), 200u) << message;
    EXPECT_NE(message.find("appears twice"), std::string::npos) << message;
}

TEST(StrictJson, RefusesNestingPastTheLimit)
{
    EXPECT_TRUE(parseStrictJson(nested(sb::agents::kMaxJsonDepth)));
    const std::string message = errorOf(nested(sb::agents::kMaxJsonDepth + 1));
    EXPECT_NE(message.find("nested more than 128 deep"), std::string::npos) << message;
    EXPECT_FALSE(parseStrictJson(nested(100000))) << "deep input is refused, not recursed into";
    EXPECT_FALSE(parseStrictJson(std::string(100000, '['))) << "nor is an unclosed one";
}

TEST(StrictJson, RefusesWhatIsNotJsonNamingTheByte)
{
    const std::string message = errorOf(R"({"a":tru})");
    EXPECT_EQ(message.rfind("not JSON at byte ", 0), 0u) << message;
    EXPECT_NE(message.find("invalid literal"), std::string::npos) << message;
    EXPECT_EQ(message.find("last read"), std::string::npos) << "the peer's text is not echoed: " << message;
    for (const char* text : {"", " ", "{", "{\"a\":1", "{\"a\":1}}", "{\"a\":1} x", "[1,]", "{'a':1}", "// c\n{}",
                             "{\"a\":01}", "NaN", "{\"a\":\"\t\"}", "\"\xff\""})
        EXPECT_FALSE(parseStrictJson(text)) << text;
}

TEST(StrictJson, DoesNotEchoALongTokenOfThePeer)
{
    const std::string message = errorOf("\"" + std::string(100000, 'x'));
    EXPECT_LT(message.size(), 300u) << message.substr(0, 300);
}
