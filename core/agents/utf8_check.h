#pragma once

// Where text stops being UTF-8, by util/utf8.h's decoder (the project's one): JSON-RPC messages must be UTF-8
// (MCP 2025-11-25, basic/transports).

#include <cstddef>
#include <optional>
#include <string_view>

namespace sb::agents {

// The offset of the first byte that does not start a valid UTF-8 sequence; empty when all of it is UTF-8.
// ASCII control characters, NUL included, are UTF-8: whether JSON allows them is the JSON parser's to say.
std::optional<std::size_t> firstInvalidUtf8(std::string_view text);

} // namespace sb::agents
