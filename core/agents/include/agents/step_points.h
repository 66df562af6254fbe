#pragma once
// Every agent step's time, verdict and tool: what the dashboard counts by verdict over a span of time, and the
// calls the policy refused, as blocked events of kind "tool" beside the runs' (store/dashboard_points.h).

#include "agents/session_store.h"
#include "store/dashboard_points.h"
#include "util/error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace sb::agents {

inline constexpr std::array kAllVerdicts = {Verdict::Allowed, Verdict::Blocked, Verdict::Approved, Verdict::Denied,
                                            Verdict::Failed};

struct StepPoint {
    std::int64_t atMs = 0;          // the step's start, Unix epoch ms
    std::optional<Verdict> verdict; // none: a verdict this version does not know (a hand edit)
    std::string tool;
    bool operator==(const StepPoint&) const = default;
};

// Every step of every session, oldest first.
Result<std::vector<StepPoint>> stepPoints(const Store& store);

struct VerdictCounts {
    std::array<std::int64_t, kAllVerdicts.size()> counts{}; // in kAllVerdicts order
    std::int64_t unknown = 0;                               // steps of a verdict this version does not know
    std::int64_t total = 0;                                 // all of them, unknown included
    std::int64_t of(Verdict verdict) const { return counts[static_cast<std::size_t>(verdict)]; }
};

// The steps that fall in [fromMs, untilMs); untilMs 0 means no end.
VerdictCounts countVerdicts(std::span<const StepPoint> points, std::int64_t fromMs, std::int64_t untilMs);

// The steps the policy refused (verdict blocked) or a person denied, as blocked events of kind "tool" naming
// the tool, oldest first.
std::vector<BlockedPoint> blockedToolPoints(std::span<const StepPoint> points);

} // namespace sb::agents
