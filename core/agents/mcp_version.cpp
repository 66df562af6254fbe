#include "agents/mcp_version.h"

#include <algorithm>

namespace sb::agents {

namespace {

Json supportedVersions()
{
    Json list = Json::array();
    for (const std::string_view version : kMcpVersions)
        list.push_back(version);
    return list;
}

RpcError unusableVersion(const Json& id, std::string message, const Json* requested)
{
    RpcError error = invalidParams(id, std::move(message));
    error.data = Json{{"supported", supportedVersions()}};
    if (requested != nullptr)
        (*error.data)["requested"] = *requested;
    return error;
}

} // namespace

bool isSupportedMcpVersion(std::string_view version)
{
    return std::ranges::find(kMcpVersions, version) != kMcpVersions.end();
}

std::string_view negotiateMcpVersion(std::string_view requested)
{
    const auto it = std::ranges::find(kMcpVersions, requested);
    return it != kMcpVersions.end() ? *it : kLatestMcpVersion;
}

std::expected<std::string_view, RpcError> negotiateInitialize(const Message& initialize)
{
    const Json* params = initialize.params();
    if (params == nullptr || !params->is_object())
        return std::unexpected(unusableVersion(initialize.id(), "initialize needs params with a \"protocolVersion\"",
                                               nullptr));
    const auto requested = params->find("protocolVersion");
    if (requested == params->end())
        return std::unexpected(
            unusableVersion(initialize.id(), "initialize needs a \"protocolVersion\" in its params", nullptr));
    if (!requested->is_string())
        return std::unexpected(
            unusableVersion(initialize.id(), "\"protocolVersion\" must be a string", &*requested));
    return negotiateMcpVersion(requested->get_ref<const std::string&>());
}

} // namespace sb::agents
