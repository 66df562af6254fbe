#pragma once

// JSON text read strictly for messages from untrusted peers: nlohmann's parser (RFC 8259, one value and
// nothing after it but whitespace) driven through its SAX interface, so that it can also refuse an object
// that names a member twice (a mediator and the server it forwards to must never read two different
// messages in one frame) and nesting deeper than a limit (copying and writing JSON recurse).

#include "agents/json.h"

#include <cstddef>
#include <expected>
#include <string>
#include <string_view>

namespace sb::agents {

// The value, or why the text is not one, with the byte or member where it went wrong.
std::expected<Json, std::string> parseStrictJson(std::string_view text, std::size_t maxDepth = kMaxJsonDepth);

} // namespace sb::agents
