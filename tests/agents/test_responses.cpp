// The error responses and messages Sandbench writes (agents/jsonrpc.h): their shape, codes and ids, and that a
// peer's invalid frame gets the answer JSON-RPC 2.0 gives it.

#include "agents/framing.h"
#include "agents/jsonrpc.h"

#include <gtest/gtest.h>

#include <string>

using sb::agents::Json;
using sb::agents::Message;
using sb::agents::MessageKind;

namespace {

// The error response a frame is answered with, as it goes back on the wire and is read there.
Message answerTo(std::string_view frame)
{
    const auto read = Message::parse(frame);
    EXPECT_FALSE(read) << frame;
    const std::string line = sb::agents::encodeFrame(sb::agents::errorResponse(read ? sb::agents::RpcError{} : read.error()));
    auto answer = Message::parse(line.substr(0, line.size() - 1));
    EXPECT_TRUE(answer) << line;
    return std::move(answer.value());
}

} // namespace

TEST(ErrorResponse, IsAJsonRpcErrorResponse)
{
    const Json response = sb::agents::errorResponse({sb::agents::kInvalidParams, "no name", std::nullopt, Json("q")});
    EXPECT_EQ(response, Json::parse(R"({"jsonrpc":"2.0","id":"q","error":{"code":-32602,"message":"no name"}})"));
    const Json withData = sb::agents::errorResponse({-32000, "m", Json{{"k", 1}}, Json(2)});
    EXPECT_EQ(withData.at("error").at("data"), Json({{"k", 1}}));
}

TEST(ErrorResponse, WritesAnUnreadableIdAsNull)
{
    const Json response = sb::agents::errorResponse({sb::agents::kParseError, "not JSON", std::nullopt, Json()});
    ASSERT_TRUE(response.contains("id"));
    EXPECT_TRUE(response.at("id").is_null());
}

TEST(ErrorResponse, AnswersAnInvalidFrameWithTheRightCodeAndId)
{
    struct Case {
        std::string frame;
        int code;
        Json id;
    };
    const Case cases[] = {
        {"{not json", sb::agents::kParseError, Json()},
        {R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])", sb::agents::kInvalidRequest, Json()},
        {R"({"jsonrpc":"2.0","id":"a","method":5})", sb::agents::kInvalidRequest, Json("a")},
        {R"({"jsonrpc":"2.0","id":9223372036854775807,"method":"x","params":"s"})", sb::agents::kInvalidRequest,
         Json(INT64_C(9223372036854775807))},
        {R"({"jsonrpc":"2.0","id":1.5,"method":"x"})", sb::agents::kInvalidRequest, Json()},
    };
    for (const Case& c : cases) {
        const Message answer = answerTo(c.frame);
        EXPECT_EQ(answer.kind(), MessageKind::Error) << c.frame;
        EXPECT_EQ(answer.error()->at("code"), c.code) << c.frame;
        EXPECT_EQ(answer.id().dump(), c.id.dump()) << c.frame;
        EXPECT_FALSE(answer.error()->at("message").get<std::string>().empty()) << c.frame;
    }
}

TEST(ErrorResponse, NamesTheErrorsOfAHandler)
{
    const auto notFound = sb::agents::methodNotFound(Json("7"), "tools/frobnicate");
    EXPECT_EQ(notFound.code, sb::agents::kMethodNotFound);
    EXPECT_EQ(notFound.id, Json("7"));
    EXPECT_NE(notFound.message.find("\"tools/frobnicate\""), std::string::npos) << notFound.message;

    const auto params = sb::agents::invalidParams(Json(3), "\"name\" is missing");
    EXPECT_EQ(params.code, sb::agents::kInvalidParams);
    EXPECT_EQ(params.message, "\"name\" is missing");
    EXPECT_EQ(params.id, Json(3));

    const auto internal = sb::agents::internalError(Json(4), "the store is closed");
    EXPECT_EQ(internal.code, sb::agents::kInternalError);
    EXPECT_EQ(internal.id, Json(4));
}

TEST(Messages, AreBuiltWithJsonRpc20AndReadBackAsTheirKind)
{
    const Json request = sb::agents::requestMessage(Json("r"), "tools/call", Json{{"name", "echo"}});
    EXPECT_EQ(Message::classify(request)->kind(), MessageKind::Request);
    EXPECT_EQ(request.at("params").at("name"), "echo");
    EXPECT_FALSE(sb::agents::requestMessage(1, "ping").contains("params"));

    const Json notification = sb::agents::notificationMessage("notifications/cancelled", Json{{"requestId", 1}});
    EXPECT_EQ(Message::classify(notification)->kind(), MessageKind::Notification);
    EXPECT_FALSE(notification.contains("id"));

    const Json result = sb::agents::resultResponse(Json("1"), Json::object());
    const auto read = Message::classify(result);
    ASSERT_TRUE(read);
    EXPECT_EQ(read->kind(), MessageKind::Result);
    EXPECT_EQ(read->id(), Json("1"));
    for (const Json& message : {request, notification, result})
        EXPECT_EQ(message.at("jsonrpc"), "2.0");
}

TEST(ErrorResponse, AnswersALineThatIsNotAFrame)
{
    sb::agents::FrameReader reader(16);
    const auto read = reader.feed(std::string(20, 'x') + "\n\"\xff\"\n" + "{\"a\":");
    ASSERT_EQ(read.size(), 2u);
    const auto tooLong = sb::agents::errorForFrame(read[0].error());
    EXPECT_EQ(tooLong.code, sb::agents::kInvalidRequest);
    EXPECT_TRUE(tooLong.id.is_null());
    EXPECT_NE(tooLong.message.find("longer than 16 bytes"), std::string::npos) << tooLong.message;
    const auto notUtf8 = sb::agents::errorForFrame(read[1].error());
    EXPECT_EQ(notUtf8.code, sb::agents::kParseError);
    EXPECT_NE(notUtf8.message.find("not UTF-8"), std::string::npos) << notUtf8.message;
    const auto cut = reader.finish();
    ASSERT_TRUE(cut);
    EXPECT_EQ(sb::agents::errorForFrame(*cut).code, sb::agents::kParseError);
}

TEST(ErrorResponse, AnswersInterleavedFramesAndReadsOnAfterThem)
{
    const std::string a = R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})";
    const std::string b = R"({"jsonrpc":"2.0","id":2,"method":"ping"})";
    const std::string c = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
    sb::agents::FrameReader reader;
    const auto read = reader.feed(a.substr(0, 20) + b + "\n" + a.substr(20) + "\n" + c + "\n");
    ASSERT_EQ(read.size(), 3u);
    for (int i = 0; i < 2; ++i) {
        ASSERT_TRUE(read[i]);
        const auto message = Message::parse(*read[i]);
        ASSERT_FALSE(message) << *read[i];
        EXPECT_EQ(message.error().code, sb::agents::kParseError) << *read[i];
    }
    ASSERT_TRUE(read[2]);
    EXPECT_EQ(Message::parse(*read[2])->kind(), MessageKind::Notification);
}
