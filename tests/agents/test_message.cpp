// Reading frames as JSON-RPC 2.0 messages (agents/jsonrpc.h): classification, ids kept as sent, and the error
// each invalid frame is answered with.

#include "agents/jsonrpc.h"

#include <gtest/gtest.h>

#include <string>

using sb::agents::Json;
using sb::agents::Message;
using sb::agents::MessageKind;
using sb::agents::RpcError;

namespace {

Message read(std::string_view frame)
{
    auto message = Message::parse(frame);
    EXPECT_TRUE(message) << frame << ": " << message.error().message;
    return message ? std::move(*message) : Message::classify(Json{{"jsonrpc", "2.0"}, {"method", "unread"}}).value();
}

RpcError refusal(std::string_view frame)
{
    auto message = Message::parse(frame);
    EXPECT_FALSE(message) << frame << " was read as a " << toString(message->kind());
    return message ? RpcError{} : message.error();
}

// The refusal of a frame: its code, its id, and that its message names `needle`.
void expectRefused(std::string_view frame, int code, const Json& id, std::string_view needle)
{
    const RpcError error = refusal(frame);
    EXPECT_EQ(error.code, code) << frame << ": " << error.message;
    EXPECT_EQ(error.id.dump(), id.dump()) << frame;
    EXPECT_NE(error.message.find(needle), std::string::npos) << frame << ": " << error.message;
}

} // namespace

TEST(Message, ReadsARequest)
{
    const Message m = read(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo"}})");
    EXPECT_EQ(m.kind(), MessageKind::Request);
    EXPECT_TRUE(m.isRequest());
    EXPECT_EQ(m.id(), Json(7));
    EXPECT_EQ(m.method(), "tools/call");
    ASSERT_NE(m.params(), nullptr);
    EXPECT_EQ((*m.params())["name"], "echo");
    EXPECT_EQ(m.result(), nullptr);
}

TEST(Message, ReadsARequestWithoutParamsOrWithAnArray)
{
    EXPECT_EQ(read(R"({"jsonrpc":"2.0","id":"a","method":"ping"})").params(), nullptr);
    EXPECT_TRUE(read(R"({"jsonrpc":"2.0","id":"a","method":"sum","params":[1,2]})").params()->is_array());
}

TEST(Message, TellsANotificationFromARequest)
{
    const Message n = read(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    EXPECT_EQ(n.kind(), MessageKind::Notification);
    EXPECT_TRUE(n.isNotification());
    EXPECT_TRUE(n.id().is_null());
    EXPECT_EQ(n.method(), "notifications/initialized");
    EXPECT_EQ(read(R"({"jsonrpc":"2.0","method":"notifications/initialized","id":0})").kind(), MessageKind::Request);
}

TEST(Message, ReadsResultAndErrorResponses)
{
    const Message r = read(R"({"jsonrpc":"2.0","id":1,"result":{}})");
    EXPECT_EQ(r.kind(), MessageKind::Result);
    EXPECT_TRUE(r.isResponse());
    EXPECT_TRUE(r.method().empty());
    EXPECT_EQ(*r.result(), Json::object());
    EXPECT_EQ(read(R"({"jsonrpc":"2.0","id":1,"result":null})").kind(), MessageKind::Result)
        << "JSON-RPC allows any result; MCP's object is the layer above's to check";

    const Message e = read(R"({"jsonrpc":"2.0","id":"r1","error":{"code":-32601,"message":"no","data":[1]}})");
    EXPECT_EQ(e.kind(), MessageKind::Error);
    EXPECT_EQ(e.id(), Json("r1"));
    EXPECT_EQ((*e.error())["code"], -32601);
}

TEST(Message, ReadsAnErrorWhoseRequestWasUnreadable)
{
    const Message nullId = read(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}})");
    EXPECT_EQ(nullId.kind(), MessageKind::Error);
    EXPECT_TRUE(nullId.id().is_null());
    const Message noId = read(R"({"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error"}})");
    EXPECT_EQ(noId.kind(), MessageKind::Error);
    EXPECT_TRUE(noId.id().is_null());
}

TEST(Message, KeepsIdsExactlyAsSent)
{
    const Message text = read(R"({"jsonrpc":"2.0","id":"1","method":"ping"})");
    const Message number = read(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
    EXPECT_TRUE(text.id().is_string());
    EXPECT_TRUE(number.id().is_number_integer());
    EXPECT_NE(text.id(), number.id()) << "the string \"1\" is not the number 1";

    for (const char* id : {"9223372036854775807", "-9223372036854775808", "18446744073709551615", "-42", "0"}) {
        const std::string frame = std::string(R"({"jsonrpc":"2.0","id":)") + id + R"(,"method":"ping"})";
        const Message m = read(frame);
        EXPECT_EQ(m.id().dump(), id) << "kept to the last digit";
        EXPECT_EQ(sb::agents::resultResponse(m.id(), Json::object()).at("id").dump(), id);
    }
    EXPECT_EQ(read(R"({"jsonrpc":"2.0","id":"\u00e9 \ud83d\ude42","method":"ping"})").id(), Json("é 🙂"));
}

TEST(Message, MatchesAResponseToItsRequestById)
{
    const Message request = read(R"({"jsonrpc":"2.0","id":9223372036854775807,"method":"tools/list"})");
    const Message response = read(R"({"jsonrpc":"2.0","result":{"tools":[]},"id":9223372036854775807})");
    EXPECT_EQ(request.id(), response.id());
    EXPECT_NE(read(R"({"jsonrpc":"2.0","result":{},"id":9223372036854775806})").id(), request.id());
}

TEST(Message, KeepsMembersItDoesNotKnow)
{
    const Message m = read(R"({"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"progressToken":"t"}},"extra":[1,{"k":null}]})");
    EXPECT_EQ(m.json().at("extra"), Json::parse(R"([1,{"k":null}])"));
    EXPECT_EQ(m.json().at("params").at("_meta").at("progressToken"), "t");
}

TEST(Message, AnswersTextThatIsNotJsonWithAParseError)
{
    expectRefused(R"({"jsonrpc":"2.0","id":1,"method":"ping")", sb::agents::kParseError, Json(), "not JSON at byte");
    expectRefused("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}", sb::agents::kParseError, Json(), "not JSON");
    expectRefused(R"({"jsonrpc":"2.0","id":1,"method":"ping"} {"jsonrpc":"2.0","id":2,"method":"ping"})",
                  sb::agents::kParseError, Json(), "not JSON");
    expectRefused(R"({"jsonrpc":"2.0","id":1,"id":2,"method":"ping"})", sb::agents::kParseError, Json(),
                  "\"id\" appears twice");
    expectRefused(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":)" + std::string(200, '[')
                      + std::string(200, ']') + "}",
                  sb::agents::kParseError, Json(), "nested more than");
}

TEST(Message, RefusesABatch)
{
    expectRefused(R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}])",
                  sb::agents::kInvalidRequest, Json(), "batch");
    expectRefused("[]", sb::agents::kInvalidRequest, Json(), "batch");
}

TEST(Message, RefusesJsonThatIsNotAnObject)
{
    for (const char* frame : {"1", "\"ping\"", "null", "true", "1.5"})
        expectRefused(frame, sb::agents::kInvalidRequest, Json(), "must be a JSON object");
}

TEST(Message, RefusesAnyOtherJsonRpcVersion)
{
    expectRefused(R"({"id":1,"method":"ping"})", sb::agents::kInvalidRequest, Json(1), "\"jsonrpc\" is missing");
    expectRefused(R"({"jsonrpc":"1.0","id":1,"method":"ping"})", sb::agents::kInvalidRequest, Json(1),
                  "\"jsonrpc\" must be \"2.0\"");
    expectRefused(R"({"jsonrpc":2.0,"id":"a","method":"ping"})", sb::agents::kInvalidRequest, Json("a"),
                  "\"jsonrpc\" must be \"2.0\"");
    expectRefused(R"({"jsonrpc":null,"method":"ping"})", sb::agents::kInvalidRequest, Json(), "\"jsonrpc\"");
}

TEST(Message, RefusesAMethodThatIsNotAString)
{
    expectRefused(R"({"jsonrpc":"2.0","id":3,"method":1})", sb::agents::kInvalidRequest, Json(3),
                  "\"method\" must be a string, not a number");
    expectRefused(R"({"jsonrpc":"2.0","method":null})", sb::agents::kInvalidRequest, Json(), "\"method\" must be a string");
}

TEST(Message, RefusesParamsThatAreNeitherObjectNorArray)
{
    for (const char* params : {"\"bar\"", "1", "null", "true"})
        expectRefused(std::string(R"({"jsonrpc":"2.0","id":"p","method":"x","params":)") + params + "}",
                      sb::agents::kInvalidRequest, Json("p"), "\"params\" must be an object or an array");
}

TEST(Message, RefusesARequestIdThatIsNotAStringOrAnInteger)
{
    for (const char* id : {"null", "true", "1.5", "1.0", "1e3", "{}", "[1]", "18446744073709551616",
                           "-9223372036854775809", "123456789012345678901234567890"})
        expectRefused(std::string(R"({"jsonrpc":"2.0","id":)") + id + R"(,"method":"ping"})",
                      sb::agents::kInvalidRequest, Json(), "\"id\" must be a string or an integer of at most 64 bits");
}

TEST(Message, RefusesAMessageThatIsBothCallAndResponse)
{
    expectRefused(R"({"jsonrpc":"2.0","id":1,"method":"ping","result":{}})", sb::agents::kInvalidRequest, Json(1),
                  "cannot have \"result\" or \"error\"");
    expectRefused(R"({"jsonrpc":"2.0","method":"ping","error":{"code":1,"message":"m"}})",
                  sb::agents::kInvalidRequest, Json(), "cannot have \"result\" or \"error\"");
    expectRefused(R"({"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}})",
                  sb::agents::kInvalidRequest, Json(1), "both \"result\" and \"error\"");
}

TEST(Message, RefusesAMessageThatIsNeither)
{
    expectRefused(R"({"jsonrpc":"2.0","id":1})", sb::agents::kInvalidRequest, Json(1), "needs \"method\"");
    expectRefused(R"({"jsonrpc":"2.0"})", sb::agents::kInvalidRequest, Json(), "needs \"method\"");
}

TEST(Message, RefusesAResultWithoutAValidId)
{
    expectRefused(R"({"jsonrpc":"2.0","result":{}})", sb::agents::kInvalidRequest, Json(), "a result needs an \"id\"");
    expectRefused(R"({"jsonrpc":"2.0","id":null,"result":{}})", sb::agents::kInvalidRequest, Json(),
                  "\"id\" must be a string or an integer");
    expectRefused(R"({"jsonrpc":"2.0","id":false,"error":{"code":1,"message":"m"}})", sb::agents::kInvalidRequest,
                  Json(), "\"id\" must be a string or an integer");
}

TEST(Message, RefusesAMalformedErrorObject)
{
    expectRefused(R"({"jsonrpc":"2.0","id":1,"error":"bad"})", sb::agents::kInvalidRequest, Json(1),
                  "\"error\" must be an object");
    expectRefused(R"({"jsonrpc":"2.0","id":1,"error":{"message":"m"}})", sb::agents::kInvalidRequest, Json(1),
                  "integer \"code\"");
    expectRefused(R"({"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}})", sb::agents::kInvalidRequest,
                  Json(1), "integer \"code\"");
    expectRefused(R"({"jsonrpc":"2.0","id":1,"error":{"code":1}})", sb::agents::kInvalidRequest, Json(1),
                  "string \"message\"");
    expectRefused(R"({"jsonrpc":"2.0","id":1,"error":{"code":1,"message":7}})", sb::agents::kInvalidRequest, Json(1),
                  "string \"message\"");
}

TEST(Message, ClassifiesAValueBuiltInMemoryAsParseDoes)
{
    const auto built = Message::classify(sb::agents::requestMessage(5, "tools/list"));
    ASSERT_TRUE(built);
    EXPECT_EQ(built->kind(), MessageKind::Request);
    EXPECT_FALSE(Message::classify(Json::array()));
    EXPECT_EQ(Message::classify(Json{{"jsonrpc", "2.0"}, {"id", 1.5}, {"method", "m"}}).error().code,
              sb::agents::kInvalidRequest);
}
