#pragma once

// The JSON value of the agents module: nlohmann's, as in the rest of core. Objects keep their members by
// name (std::map), so that finding a member of a big object costs a logarithm, never a scan.

#include <nlohmann/json.hpp>

#include <cstddef>

namespace sb::agents {

using Json = nlohmann::json;

// How deep arrays and objects may nest in a message read from a peer. Deep enough for any JSON Schema a tool
// declares; shallow enough that copying or writing a message (both recursive) never exhausts the stack.
inline constexpr std::size_t kMaxJsonDepth = 128;

} // namespace sb::agents
