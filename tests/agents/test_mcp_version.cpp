// MCP protocol version negotiation (agents/mcp_version.h), by the rule of MCP 2025-11-25 basic/lifecycle.

#include "agents/mcp_version.h"

#include <gtest/gtest.h>

#include <string>

using sb::agents::Json;
using sb::agents::Message;

namespace {

Message initialize(const std::string& params)
{
    const std::string frame = R"({"jsonrpc":"2.0","id":1,"method":"initialize")"
                              + (params.empty() ? std::string() : ",\"params\":" + params) + "}";
    return Message::parse(frame).value();
}

std::string clientParams(const std::string& version)
{
    return R"({"protocolVersion":)" + version
           + R"(,"capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"c","version":"1.0.0"}})";
}

} // namespace

TEST(McpVersion, SpeaksTheFourRevisionsNewestFirst)
{
    EXPECT_EQ(sb::agents::kLatestMcpVersion, "2025-11-25");
    const std::vector<std::string_view> versions(sb::agents::kMcpVersions.begin(), sb::agents::kMcpVersions.end());
    EXPECT_EQ(versions, (std::vector<std::string_view>{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}));
    for (const auto version : versions)
        EXPECT_TRUE(sb::agents::isSupportedMcpVersion(version)) << version;
    EXPECT_FALSE(sb::agents::isSupportedMcpVersion("2024-10-07"));
    EXPECT_FALSE(sb::agents::isSupportedMcpVersion(""));
}

TEST(McpVersion, AnswersASupportedVersionWithItself)
{
    for (const auto version : sb::agents::kMcpVersions)
        EXPECT_EQ(sb::agents::negotiateMcpVersion(version), version);
}

TEST(McpVersion, AnswersAnyOtherVersionWithTheLatest)
{
    for (const char* requested : {"2026-01-01", "2099-12-31", "1.0.0", "", "2025-11-25 ", "2024-10-07", "draft"})
        EXPECT_EQ(sb::agents::negotiateMcpVersion(requested), "2025-11-25") << requested;
}

TEST(McpVersion, NegotiatesTheVersionOfAnInitializeRequest)
{
    EXPECT_EQ(sb::agents::negotiateInitialize(initialize(clientParams("\"2025-06-18\""))).value(), "2025-06-18");
    EXPECT_EQ(sb::agents::negotiateInitialize(initialize(clientParams("\"2024-11-05\""))).value(), "2024-11-05");
    EXPECT_EQ(sb::agents::negotiateInitialize(initialize(clientParams("\"1999-01-01\""))).value(), "2025-11-25");
}

TEST(McpVersion, RefusesAnInitializeRequestWithoutAVersionString)
{
    for (const std::string& params : {std::string(), std::string("{}"), std::string("[\"2025-11-25\"]"),
                                     std::string(R"({"capabilities":{}})")}) {
        const auto negotiated = sb::agents::negotiateInitialize(initialize(params));
        ASSERT_FALSE(negotiated) << params;
        EXPECT_EQ(negotiated.error().code, sb::agents::kInvalidParams) << params;
        EXPECT_EQ(negotiated.error().id, Json(1)) << params;
        EXPECT_NE(negotiated.error().message.find("protocolVersion"), std::string::npos) << negotiated.error().message;
        ASSERT_TRUE(negotiated.error().data) << params;
        EXPECT_EQ(negotiated.error().data->at("supported"),
                  Json::parse(R"(["2025-11-25","2025-06-18","2025-03-26","2024-11-05"])"));
    }
    const auto number = sb::agents::negotiateInitialize(initialize(clientParams("20251125")));
    ASSERT_FALSE(number);
    EXPECT_EQ(number.error().code, sb::agents::kInvalidParams);
    EXPECT_EQ(number.error().data->at("requested"), Json(20251125));
}
