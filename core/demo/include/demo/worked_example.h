#pragma once

// The worked example (examples/agents, README "Agents"), built into the library so the demo needs no source
// checkout: a scripted agent (upgrade_agent.py, with the MCP client it imports) upgrades a dependency in a small
// repository (upgrade-repo/) under its policy (policy.yaml). agents/worked_example_session.h runs it.

#include "util/error.h"

#include <filesystem>
#include <span>
#include <string_view>

namespace sb {

// One file of the example: its path under the example's folder, and its text verbatim.
struct ExampleFile {
    std::string_view path;
    std::string_view text;
};

std::span<const ExampleFile> workedExampleFiles();

// The parts of the example, as paths under its folder.
inline constexpr std::string_view kWorkedExampleAgent = "upgrade_agent.py";
inline constexpr std::string_view kWorkedExamplePolicy = "policy.yaml";
inline constexpr std::string_view kWorkedExampleRepo = "upgrade-repo";

// The demo's sandboxes for it: the repository as imported, and the agent's, made from it (so the promotion gate
// shows the agent's change alone).
inline constexpr std::string_view kWorkedExampleRepoSandbox = "demo-upgrade-repo";
inline constexpr std::string_view kWorkedExampleSandbox = "demo-upgrade";

// Writes every file of the example under `folder`, which must exist: folders 0755 and files 0644, for the
// agent's sandbox may run it as another user (a transient one, when Sandbench runs as root).
Result<void> writeWorkedExample(const std::filesystem::path& folder);

} // namespace sb
