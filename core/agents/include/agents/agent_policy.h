#pragma once

// What an agent session's gateway lets through: the policy's `agent` section (isolation/policy.h, AgentPolicy)
// compiled, and the ruling it gives each tool call. This is the one place the rules of that section are
// applied; `sandbench policy check`, the gateway, a replay and the window all come here.
//
// A call is ruled in this order, the first that decides wins:
//  1. max_steps: a call past the bound ends the session (it is not run);
//  2. max_cost: a call whose cost (tool_costs, plus what the agent reports for it in _meta) would take the
//     session past the bound ends the session;
//  3. blocked_tools: a matching tool is refused;
//  4. allowed_tools (when given): a tool none of them matches is refused;
//  5. argument_rules, in order, each on the calls of the tools it names (every call when it names none): a
//     condition that is false refuses the call, or asks for approval when require_approval names the rule;
//     a condition that cannot be evaluated (a missing argument, a type error) refuses it: the policy cannot
//     vouch for a call it cannot read;
//  6. require_approval naming the tool: the call waits for a person;
//  7. otherwise the call goes on.
// Tools are matched as globs (fnmatch(3): *, ?, [...]) against the whole name.

#include "agents/json.h"
#include "isolation/policy.h"
#include "util/error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sb::agents {

// A tool call as the rules see it. CEL reads it as `tool` (string), `args` (map), `step` (int, the call's
// 1-based number in the session) and `workspace` (string: the workspace's path as the sandboxed program sees it).
struct ToolCall {
    std::string tool;
    Json arguments = Json::object();
    std::int64_t step = 1;
    std::string workspace;
};

// What is known of a tool besides its name. Annotations a third-party server gives are untrusted: they may
// add caution (destructive), never take it away (read-only counts only when Sandbench defined the tool).
struct ToolFacts {
    bool readOnly = false;    // annotations.readOnlyHint
    bool destructive = false; // annotations.destructiveHint
    bool trusted = false;     // the annotations are Sandbench's own (its built-in tools)
};

struct Ruling {
    enum class Kind { Allow, Refuse, Ask, EndSession };
    Kind kind = Kind::Allow;
    // What decided, for the timeline: "max_steps", "max_cost", "blocked_tools: rm*", "allowed_tools",
    // "argument_rules[0]" (or the rule's name), "require_approval: write_*", "" when nothing objected.
    std::string rule;
    // Why, in words the agent can act on ("" when allowed).
    std::string message;
};

std::string_view toString(Ruling::Kind kind);

// One diagnostic of an agent section: "FILE:LINE:COL: agent.argument_rules[0]: undeclared reference to 'argz'".
struct AgentPolicyProblem {
    int line = 0;
    int column = 0;
    std::string field; // "agent.argument_rules[0]"
    std::string message;
    std::string format(std::string_view origin) const;
};

class AgentRules {
public:
    // Compiles the section (a policy without one gets AgentPolicy's defaults: every tool allowed, no bounds,
    // checkpoints before every call not known read-only). The error lists every problem, one per line.
    static Result<AgentRules> compile(const AgentPolicy& policy, std::string_view origin = "policy");
    // Every problem of the section, for `policy check` and editors; empty when it compiles.
    static std::vector<AgentPolicyProblem> check(const AgentPolicy& policy);

    // The ruling on `call`. `spent`: the session's cost so far; `reported`: what the agent reports this call
    // costs (its _meta), on top of the tool's own cost.
    Ruling rule(const ToolCall& call, double spent = 0, double reported = 0) const;
    // Whether a checkpoint of the workspace is taken before the call runs (checkpoint_before).
    bool checkpointBefore(std::string_view tool, const ToolFacts& facts) const;
    // What one call of `tool` costs by tool_costs (the first glob that matches; 0 when none does).
    double toolCost(std::string_view tool) const;

    const AgentPolicy& policy() const;

    AgentRules(AgentRules&&) noexcept;
    AgentRules& operator=(AgentRules&&) noexcept;
    AgentRules(const AgentRules&);
    AgentRules& operator=(const AgentRules&);
    ~AgentRules();

private:
    struct Impl;
    explicit AgentRules(std::shared_ptr<const Impl> impl);
    std::shared_ptr<const Impl> m_impl;
};

// Whether `name` matches one of the globs (fnmatch, the whole name).
bool matchesAny(std::string_view name, const std::vector<std::string>& globs);

} // namespace sb::agents
