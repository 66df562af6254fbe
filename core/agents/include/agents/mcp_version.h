#pragma once

// The MCP protocol versions Sandbench speaks, and version negotiation as the spec's lifecycle sets it
// (MCP 2025-11-25, basic/lifecycle, "Version Negotiation"): the client's initialize request names the
// version it wants (its latest); a server that supports it answers with the same version, otherwise with
// another version it supports, its latest; a client that does not support the answer disconnects.

#include "agents/jsonrpc.h"

#include <array>
#include <expected>
#include <string_view>

namespace sb::agents {

// Newest first. 2025-11-25 is the revision the gateway is built on; the older ones are what clients and
// servers of the SDKs in use still send. (2025-06-18 removed JSON-RPC batches; 2025-03-26 had them, and
// Sandbench refuses them whatever the version.)
inline constexpr std::array<std::string_view, 4> kMcpVersions = {"2025-11-25", "2025-06-18", "2025-03-26",
                                                                 "2024-11-05"};
inline constexpr std::string_view kLatestMcpVersion = kMcpVersions.front();

bool isSupportedMcpVersion(std::string_view version);

// The version a server answers a client's request for `requested` with: the same when Sandbench speaks
// it, else its latest.
std::string_view negotiateMcpVersion(std::string_view requested);

// The version to answer an initialize request with (params.protocolVersion negotiated), or the -32602
// invalid params error for a request whose params has no protocolVersion string; its data lists the
// supported versions and what was requested, as in the spec's example of an initialization error.
std::expected<std::string_view, RpcError> negotiateInitialize(const Message& initialize);

} // namespace sb::agents
