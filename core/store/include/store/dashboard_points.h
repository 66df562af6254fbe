#pragma once
// What the dashboard shows beside the runs (store/run_points.h): what the sandbox blocked, by kind and by
// target, and the promotions the audit log records. Read whole, off the GUI thread; counted over any span of
// time without reading the store again.

#include "util/error.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sb {

class Store;

// One blocked event: when, of what kind, and what it blocked.
struct BlockedPoint {
    std::int64_t atMs = 0; // Unix epoch ms: the run's start (an agent step's start for kind "tool")
    std::string kind;      // "import", "syscall", "network", "path", "disk", "tool", ...; "unknown" when stored empty
    std::string target;    // what was blocked: a module, a syscall's name, a host, a path, a tool
    bool operator==(const BlockedPoint&) const = default;
};

// The target a blocked event's detail names: the syscall of "openat(/etc/shadow)" ("openat"), the host of
// "example.com:443 (not on the policy's allowlist)" ("example.com"), otherwise the detail up to an explanation
// in parentheses ("/etc/passwd (read)" → "/etc/passwd"). Trimmed, control characters replaced, at most
// kMaxTargetChars characters; "(none)" when nothing is left.
inline constexpr std::size_t kMaxTargetChars = 120;
std::string blockedTarget(std::string_view kind, std::string_view detail);

// Every blocked event of every run, oldest first.
Result<std::vector<BlockedPoint>> blockedPoints(const Store& store);

struct NamedCount {
    std::string name;
    std::int64_t count = 0;
    bool operator==(const NamedCount&) const = default;
};

struct TargetCount {
    std::string kind;
    std::string target;
    std::int64_t count = 0;
    bool operator==(const TargetCount&) const = default;
};

struct BlockedCounts {
    std::int64_t total = 0;
    std::vector<NamedCount> byKind;       // the most blocked kind first; ties by name
    std::vector<TargetCount> topTargets;  // the `top` most blocked targets, most first; ties by kind, then target
    std::int64_t otherTargets = 0;        // events whose targets are beyond the top
};

// The points that fall in [fromMs, untilMs); untilMs 0 means no end.
BlockedCounts countBlocked(std::span<const BlockedPoint> points, std::int64_t fromMs, std::int64_t untilMs,
                           std::size_t top);

// A promotion as the audit log records it (operation "promote"). Fields a hand-edited entry lacks read empty.
struct PromotionRecord {
    std::int64_t seq = 0;  // the audit entry
    std::int64_t atMs = 0; // Unix epoch ms
    std::string actor;
    std::string source;     // the sandbox promoted
    std::string target;     // the sandbox it went into (usually "main")
    std::string risk;       // "low", "medium", "high"; as stored
    std::string approvedBy; // empty: no approval was given
    std::string approvalNote;
    std::string checkpoint; // the target's checkpoint the promotion made
    std::int64_t files = -1; // files changed; -1: not recorded
    bool recovered = false;  // finished after a crash, by the next process that opened the sandbox
};

// The latest `limit` promotions, newest first (by time, then by their place in the log).
Result<std::vector<PromotionRecord>> recentPromotions(const Store& store, std::size_t limit);

} // namespace sb
