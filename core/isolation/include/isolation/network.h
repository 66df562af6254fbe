#pragma once

// What a policy's network setting lets a run reach: the one reading of the allowlist, for the proxy inside the
// sandbox (netproxy.h) and for those that decide before a run starts (an agent's http_get).

#include "isolation/policy.h"

#include <string_view>

namespace sb {

// Whether a run under `policy` may reach host:port: `network: none` reaches nothing; an allowlist entry is
// "host:port", "host:*" or "*.domain:port", matched without regard to case.
bool networkAllows(const Policy& policy, std::string_view host, int port);

} // namespace sb
