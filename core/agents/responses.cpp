// Building JSON-RPC 2.0 messages: the error responses of agents/jsonrpc.h and the others.

#include "agents/jsonrpc.h"

#include <utility>

namespace sb::agents {

RpcError errorForFrame(const FrameError& error)
{
    const int code = error.kind == FrameError::Kind::TooLong ? kInvalidRequest : kParseError;
    return RpcError{code, error.message, std::nullopt, Json()};
}

RpcError methodNotFound(const Json& id, std::string_view method)
{
    return RpcError{kMethodNotFound,
                    "method " + Json(method).dump(-1, ' ', false, Json::error_handler_t::replace) + " not found",
                    std::nullopt, id};
}

RpcError invalidParams(const Json& id, std::string message)
{
    return RpcError{kInvalidParams, std::move(message), std::nullopt, id};
}

RpcError internalError(const Json& id, std::string message)
{
    return RpcError{kInternalError, std::move(message), std::nullopt, id};
}

Json errorResponse(const RpcError& error)
{
    Json object = {{"code", error.code}, {"message", error.message}};
    if (error.data)
        object["data"] = *error.data;
    return {{"jsonrpc", "2.0"}, {"id", error.id}, {"error", std::move(object)}};
}

Json resultResponse(const Json& id, Json result)
{
    return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

Json requestMessage(const Json& id, std::string_view method, std::optional<Json> params)
{
    Json message = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
    if (params)
        message["params"] = std::move(*params);
    return message;
}

Json notificationMessage(std::string_view method, std::optional<Json> params)
{
    Json message = {{"jsonrpc", "2.0"}, {"method", method}};
    if (params)
        message["params"] = std::move(*params);
    return message;
}

} // namespace sb::agents
