#pragma once

#include "util/message.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace sb {

// A message as JSON, {context, pattern, args}: how the launcher hands a run's message to the runner and how the
// store keeps it (runs.message_parts).
inline nlohmann::json messageToJson(const Message& message)
{
    return {{"context", message.context}, {"pattern", message.pattern}, {"args", message.args}};
}

// The message of messageToJson's form; nullopt when `json` is not of that form (a field missing or not text).
inline std::optional<Message> messageFromJson(const nlohmann::json& json)
{
    if (!json.is_object() || !json.value("context", nlohmann::json()).is_string()
        || !json.value("pattern", nlohmann::json()).is_string() || !json.value("args", nlohmann::json()).is_array())
        return std::nullopt;
    Message message;
    message.context = json["context"].get<std::string>();
    message.pattern = json["pattern"].get<std::string>();
    for (const auto& arg : json["args"]) {
        if (!arg.is_string())
            return std::nullopt;
        message.args.push_back(arg.get<std::string>());
    }
    return message;
}

} // namespace sb
