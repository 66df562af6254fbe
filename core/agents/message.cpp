// Classifying a JSON value as a JSON-RPC 2.0 message (the rules are listed in agents/jsonrpc.h).

#include "agents/jsonrpc.h"

#include "strict_json.h"

#include <utility>

namespace sb::agents {

namespace {

const Json kNull;

std::unexpected<RpcError> refuse(int code, std::string message, const Json& id = kNull)
{
    return std::unexpected(RpcError{code, std::move(message), std::nullopt, id});
}

std::string_view typeName(const Json& value)
{
    if (value.is_number_float())
        return "a number with a fraction or an exponent";
    if (value.is_number())
        return "a number";
    switch (value.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::string: return "a string";
    case Json::value_t::array: return "an array";
    case Json::value_t::object: return "an object";
    default: return "binary data";
    }
}

// The member's value, or null when the object has no such member.
const Json* find(const Json& object, const char* name)
{
    const auto it = object.find(name);
    return it == object.end() ? nullptr : &*it;
}

// The id to answer a refused message with: its own when it is a valid request id, else null.
const Json& answerableId(const Json& object)
{
    const Json* id = find(object, "id");
    return id != nullptr && isRequestId(*id) ? *id : kNull;
}

std::expected<void, RpcError> checkId(const Json* id, MessageKind kind, const Json& answerId)
{
    if (id == nullptr)
        return refuse(kInvalidRequest, "a " + std::string(toString(kind)) + " needs an \"id\"");
    if (!isRequestId(*id))
        return refuse(kInvalidRequest,
                      "\"id\" must be a string or an integer of at most 64 bits, not " + std::string(typeName(*id)),
                      answerId);
    return {};
}

std::expected<MessageKind, RpcError> classifyCall(const Json& object, const Json& answerId)
{
    const Json* method = find(object, "method");
    if (!method->is_string())
        return refuse(kInvalidRequest, "\"method\" must be a string, not " + std::string(typeName(*method)), answerId);
    if (find(object, "result") != nullptr || find(object, "error") != nullptr)
        return refuse(kInvalidRequest, "a message with \"method\" cannot have \"result\" or \"error\"", answerId);
    const Json* params = find(object, "params");
    if (params != nullptr && !params->is_object() && !params->is_array())
        return refuse(kInvalidRequest, "\"params\" must be an object or an array, not " + std::string(typeName(*params)),
                      answerId);
    const Json* id = find(object, "id");
    if (id == nullptr)
        return MessageKind::Notification;
    if (auto checked = checkId(id, MessageKind::Request, answerId); !checked)
        return std::unexpected(checked.error());
    return MessageKind::Request;
}

std::expected<void, RpcError> checkErrorObject(const Json& error, const Json& answerId)
{
    if (!error.is_object())
        return refuse(kInvalidRequest, "\"error\" must be an object, not " + std::string(typeName(error)), answerId);
    const Json* code = find(error, "code");
    if (code == nullptr || !code->is_number_integer())
        return refuse(kInvalidRequest, "\"error\" needs an integer \"code\"", answerId);
    const Json* message = find(error, "message");
    if (message == nullptr || !message->is_string())
        return refuse(kInvalidRequest, "\"error\" needs a string \"message\"", answerId);
    return {};
}

std::expected<MessageKind, RpcError> classifyResponse(const Json& object, const Json& answerId)
{
    const Json* result = find(object, "result");
    const Json* error = find(object, "error");
    if (result != nullptr && error != nullptr)
        return refuse(kInvalidRequest, "a response cannot have both \"result\" and \"error\"", answerId);
    if (result == nullptr && error == nullptr)
        return refuse(kInvalidRequest, "a message needs \"method\" (a request or a notification), \"result\" or "
                                       "\"error\" (a response)",
                      answerId);
    const Json* id = find(object, "id");
    if (result != nullptr) {
        if (auto checked = checkId(id, MessageKind::Result, answerId); !checked)
            return std::unexpected(checked.error());
        return MessageKind::Result;
    }
    // The id of an error response is null (JSON-RPC 2.0) or absent (MCP 2025-11-25) when the request it
    // answers could not be read.
    if (id != nullptr && !id->is_null()) {
        if (auto checked = checkId(id, MessageKind::Error, answerId); !checked)
            return std::unexpected(checked.error());
    }
    if (auto checked = checkErrorObject(*error, answerId); !checked)
        return std::unexpected(checked.error());
    return MessageKind::Error;
}

} // namespace

std::string_view toString(MessageKind kind)
{
    switch (kind) {
    case MessageKind::Request: return "request";
    case MessageKind::Notification: return "notification";
    case MessageKind::Result: return "result";
    case MessageKind::Error: return "error";
    }
    return "message";
}

bool isRequestId(const Json& id)
{
    // nlohmann reads an integer beyond 64 bits as a floating-point number: refused like a fraction.
    return id.is_string() || id.is_number_integer();
}

std::expected<Message, RpcError> Message::parse(std::string_view frame)
{
    auto json = parseStrictJson(frame);
    if (!json)
        return refuse(kParseError, std::move(json.error()));
    return classify(std::move(*json));
}

std::expected<Message, RpcError> Message::classify(Json json)
{
    if (json.is_array())
        return refuse(kInvalidRequest, "a batch (a JSON array of messages) is not supported: MCP sends one message "
                                       "per line since 2025-06-18");
    if (!json.is_object())
        return refuse(kInvalidRequest, "a message must be a JSON object, not " + std::string(typeName(json)));
    const Json& answerId = answerableId(json);
    const Json* version = find(json, "jsonrpc");
    if (version == nullptr)
        return refuse(kInvalidRequest, "\"jsonrpc\" is missing: it must be \"2.0\"", answerId);
    if (!version->is_string() || version->get_ref<const std::string&>() != "2.0")
        return refuse(kInvalidRequest, "\"jsonrpc\" must be \"2.0\"", answerId);
    auto kind = find(json, "method") != nullptr ? classifyCall(json, answerId) : classifyResponse(json, answerId);
    if (!kind)
        return std::unexpected(std::move(kind.error()));
    return Message(*kind, std::move(json));
}

Message::Message(MessageKind kind, Json json)
    : m_kind(kind)
    , m_json(std::move(json))
{
}

const Json* Message::member(const char* name) const
{
    return find(m_json, name);
}

const Json& Message::id() const
{
    const Json* id = isNotification() ? nullptr : member("id");
    return id != nullptr ? *id : kNull;
}

std::string_view Message::method() const
{
    const Json* method = member("method");
    return method != nullptr ? std::string_view(method->get_ref<const std::string&>()) : std::string_view();
}

const Json* Message::params() const
{
    return member("params");
}

const Json* Message::result() const
{
    return member("result");
}

const Json* Message::error() const
{
    return member("error");
}

} // namespace sb::agents
