#include "isolation/network.h"

#include "netproxy.h"

namespace sb {

bool networkAllows(const Policy& policy, std::string_view host, int port)
{
    return policy.network == NetworkMode::Allowlist && netproxy::allows(policy.networkAllow, host, port);
}

} // namespace sb
