#pragma once

#include "util/error.h"
#include "sandboxes/sandbox_engine.h"

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace sb {

// What seedDemoSandboxes made.
struct DemoSandboxes {
    std::vector<std::string> sandboxes; // the rules sandbox first, then its fork
    int checkpoints = 0;
};

inline constexpr std::string_view kDemoSandbox = "demo-rules";
inline constexpr std::string_view kDemoFork = "demo-rules-strict";

// The demo's worlds, so a first look at the checkpoint browser has something to show: `demo-rules`, made
// from main, holding a rule set, a data sample, a README and a small binary, with three labelled
// checkpoints that edit them and one unsaved change in its workspace; and `demo-rules-strict`, forked from
// its second checkpoint with a change of its own. `demo-rules` expires after a week (a fork takes no expiry:
// the fork stays until the next demo or a destroy). Sandboxes left by an earlier demo are destroyed first,
// so the demo always starts from the same state.
// Destroys the sandboxes of these names that an earlier demo left, in this order (a fork before the sandbox it
// was made from), so a demo starts from the same state. Their checkpoints go with them; agent sessions that
// worked in them stay, as history.
Result<void> destroyEarlierDemoSandboxes(SandboxEngine& engine, std::initializer_list<std::string_view> names);

Result<DemoSandboxes> seedDemoSandboxes(SandboxEngine& engine, const ProgressCallback& progress = {});

} // namespace sb
