#pragma once

// JSON-RPC 2.0 messages as MCP uses them (https://www.jsonrpc.org/specification; MCP 2025-11-25,
// basic/index "Messages" and schema.ts): a frame read as one message and classified, with the JSON-RPC rules
// checked, or refused with the error response it calls for.
//
// A message keeps the whole JSON it was read from: members MCP or JSON-RPC do not define are kept, and the
// id stays the value sent (the string "1" is not the number 1; integers keep all their 64 bits), so a
// response can be matched to its request and a message forwarded as it came. What the JSON value does not
// keep is the text itself: members come back in name order, and a number too large for 64 bits (not an id:
// those are refused) becomes a double. A forwarder that must pass a frame on byte for byte passes its text.
//
// What is refused, and how (an error response whose id is the message's when that id is valid, else null):
// - text that is not JSON, an object naming a member twice, nesting deeper than kMaxJsonDepth: -32700;
// - a batch (a JSON array: MCP removed batching in 2025-06-18), anything but an object, "jsonrpc" other than
//   "2.0", a "method" that is not a string, "params" that is neither an object nor an array, a request id
//   that is not a string or an integer of at most 64 bits (MCP: never null), a message with both "result"
//   and "error" or with "method" and either, an error that is not {code: integer, message: string, data?}:
//   -32600.
// -32601, -32602 and -32603 are the answers of whoever handles a request (methodNotFound and the others).

#include "agents/framing.h"
#include "agents/json.h"

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

namespace sb::agents {

// The error codes JSON-RPC 2.0 defines (MCP 2025-11-25 schema.ts uses the same).
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;

// An error to answer a message with: the error object of a JSON-RPC error response and the id it answers.
struct RpcError {
    int code = kInternalError;
    std::string message;       // names what is wrong, and where
    std::optional<Json> data;  // the error's "data", when there is more to say
    Json id;                   // the request's id; null when it could not be read
};

// The error a line that is not a frame is answered with (its id could not be read: null): -32700 for bytes
// that are not UTF-8 and for a stream that ended inside a frame (neither is JSON text), -32600 for a frame
// over the cap (JSON-RPC has no code of its own for a message too large to take).
RpcError errorForFrame(const FrameError& error);

// The errors a handler of requests answers with, each naming what is wrong.
RpcError methodNotFound(const Json& id, std::string_view method);
RpcError invalidParams(const Json& id, std::string message);
RpcError internalError(const Json& id, std::string message);

// The error response for an error: {"jsonrpc": "2.0", "id": ..., "error": {code, message[, data]}}. An id
// that could not be read is written as null, as JSON-RPC 2.0 requires. (MCP 2025-11-25's schema leaves
// that id out instead. The SDKs differ: the TypeScript SDK reads an error response without an id and
// drops one whose id is null; the Python SDK 1.x drops both. Neither has a request to match it to.)
Json errorResponse(const RpcError& error);
// {"jsonrpc": "2.0", "id": ..., "result": ...}
Json resultResponse(const Json& id, Json result);
// {"jsonrpc": "2.0", "id": ..., "method": ...[, "params": ...]}: "params" only when given.
Json requestMessage(const Json& id, std::string_view method, std::optional<Json> params = std::nullopt);
// {"jsonrpc": "2.0", "method": ...[, "params": ...]}
Json notificationMessage(std::string_view method, std::optional<Json> params = std::nullopt);

// Whether a JSON value may be a request's id: a string, or an integer of at most 64 bits.
bool isRequestId(const Json& id);

enum class MessageKind : std::uint8_t {
    Request,      // "method" and "id": answer it
    Notification, // "method" and no "id": never answered
    Result,       // "result" and the id of the request it answers
    Error,        // "error" and that id, or a null or absent id when the request was unreadable
};
std::string_view toString(MessageKind kind); // "request", "notification", "result", "error"

class Message {
public:
    // The frame read as JSON (UTF-8, at most kMaxJsonDepth deep, no member named twice) and classified.
    static std::expected<Message, RpcError> parse(std::string_view frame);
    // A JSON value classified by the JSON-RPC rules, as parse() does once it has read the JSON.
    static std::expected<Message, RpcError> classify(Json json);

    MessageKind kind() const { return m_kind; }
    bool isRequest() const { return m_kind == MessageKind::Request; }
    bool isNotification() const { return m_kind == MessageKind::Notification; }
    bool isResponse() const { return m_kind == MessageKind::Result || m_kind == MessageKind::Error; }

    // Everything the frame held.
    const Json& json() const { return m_json; }
    // The id as sent: requests and responses; null for notifications and for an error without a readable id.
    const Json& id() const;
    // The method: requests and notifications; empty for responses.
    std::string_view method() const;
    // "params", "result" or "error" when the message has it; null otherwise.
    const Json* params() const;
    const Json* result() const;
    const Json* error() const;

private:
    Message(MessageKind kind, Json json);
    const Json* member(const char* name) const;

    MessageKind m_kind;
    Json m_json;
};

} // namespace sb::agents
