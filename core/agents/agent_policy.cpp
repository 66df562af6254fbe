#include "agents/agent_policy.h"

#include "cel/json.h"
#include "cel/program.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <fnmatch.h>
#include <optional>

namespace sb::agents {

namespace {

// The names a condition reads, in slot order.
constexpr std::array kVariables = {"tool", "args", "step", "workspace"};

cel::Declarations callDeclarations()
{
    cel::Declarations declarations;
    (void)declarations.add("tool", cel::Type::string());
    (void)declarations.add("args", cel::Type::map(cel::Type::string(), cel::Type::dyn()));
    (void)declarations.add("step", cel::Type::integer());
    (void)declarations.add("workspace", cel::Type::string());
    return declarations;
}

std::string ruleField(std::size_t index)
{
    return fmt::format("agent.argument_rules[{}]", index);
}

// How a rule is named in rulings and in require_approval: its name, else its place.
std::string ruleName(const AgentArgumentRule& rule, std::size_t index)
{
    return rule.name.empty() ? fmt::format("argument_rules[{}]", index) : rule.name;
}

// A position inside a condition, as a position in the policy's text: exact for a condition on one line
// written plain, the condition's own line and column otherwise.
std::pair<int, int> placeIn(const AgentArgumentRule& rule, const cel::Diagnostic& d)
{
    if (rule.line == 0)
        return {d.line, d.column};
    if (d.line == 1)
        return {rule.line, rule.column + d.column - 1};
    return {rule.line + d.line - 1, d.column};
}

} // namespace

std::string_view toString(Ruling::Kind kind)
{
    switch (kind) {
    case Ruling::Kind::Allow: return "allow";
    case Ruling::Kind::Refuse: return "refuse";
    case Ruling::Kind::Ask: return "ask";
    case Ruling::Kind::EndSession: return "end_session";
    }
    return "allow";
}

std::string AgentPolicyProblem::format(std::string_view origin) const
{
    if (line > 0)
        return fmt::format("{}:{}:{}: {}: {}", origin, line, column, field, message);
    return fmt::format("{}: {}: {}", origin, field, message);
}

bool matchesAny(std::string_view name, const std::vector<std::string>& globs)
{
    const std::string text(name);
    return std::any_of(globs.begin(), globs.end(),
                       [&](const std::string& glob) { return ::fnmatch(glob.c_str(), text.c_str(), 0) == 0; });
}

namespace {

const std::string* firstMatch(std::string_view name, const std::vector<std::string>& globs)
{
    const std::string text(name);
    const auto it = std::find_if(globs.begin(), globs.end(),
                                 [&](const std::string& glob) { return ::fnmatch(glob.c_str(), text.c_str(), 0) == 0; });
    return it == globs.end() ? nullptr : &*it;
}

} // namespace

struct AgentRules::Impl {
    AgentPolicy policy;
    std::vector<cel::Program> conditions; // one per argument rule

    // The ruling of the argument rules: nullopt when every rule that applies holds.
    std::optional<Ruling> ruleArguments(const ToolCall& call) const
    {
        cel::Arena arena;
        const cel::TypedValue args = cel::fromJson(call.arguments.is_object() ? call.arguments : Json::object(), arena);
        const std::array<cel::Value, kVariables.size()> slots = {
            cel::Value::string(call.tool), args.value, cel::Value::integer(call.step), cel::Value::string(call.workspace)};
        cel::EvalContext context;
        for (std::size_t i = 0; i < conditions.size(); ++i) {
            const AgentArgumentRule& rule = policy.argumentRules[i];
            if (!rule.tools.empty() && !matchesAny(call.tool, rule.tools))
                continue;
            const std::string name = ruleName(rule, i);
            const cel::Value value = conditions[i].eval(cel::Activation{slots}, context);
            if (value.isError())
                return Ruling{Ruling::Kind::Refuse, name,
                              fmt::format("the policy's argument rule {} cannot be evaluated on this call ({}), so the "
                                          "call is refused; the rule is: {}",
                                          name, conditions[i].errorMessage(value), rule.condition)};
            if (!value.isBool())
                return Ruling{Ruling::Kind::Refuse, name,
                              fmt::format("the policy's argument rule {} gives {}, not true or false, so the call is "
                                          "refused",
                                          name, cel::kindName(value.kind()))};
            if (value.asBool())
                continue;
            const std::string why = !rule.message.empty()
                                        ? rule.message
                                        : fmt::format("the call does not meet the policy's argument rule {}: {}", name,
                                                      rule.condition);
            if (matchesAny(name, policy.requireApproval))
                return Ruling{Ruling::Kind::Ask, name, why};
            return Ruling{Ruling::Kind::Refuse, name, why};
        }
        return std::nullopt;
    }
};

AgentRules::AgentRules(std::shared_ptr<const Impl> impl) : m_impl(std::move(impl)) {}
AgentRules::AgentRules(AgentRules&&) noexcept = default;
AgentRules& AgentRules::operator=(AgentRules&&) noexcept = default;
AgentRules::AgentRules(const AgentRules&) = default;
AgentRules& AgentRules::operator=(const AgentRules&) = default;
AgentRules::~AgentRules() = default;

std::vector<AgentPolicyProblem> AgentRules::check(const AgentPolicy& policy)
{
    std::vector<AgentPolicyProblem> problems;
    const cel::Declarations declarations = callDeclarations();
    for (std::size_t i = 0; i < policy.argumentRules.size(); ++i) {
        const AgentArgumentRule& rule = policy.argumentRules[i];
        auto program = cel::compile(rule.condition, declarations);
        if (!program) {
            for (const auto& d : program.error().diagnostics) {
                const auto [line, column] = placeIn(rule, d);
                problems.push_back({line, column, ruleField(i), d.message});
            }
            continue;
        }
        const auto kind = program->resultType().kind();
        if (kind != cel::Type::Kind::Bool && kind != cel::Type::Kind::Dyn)
            problems.push_back({rule.line, rule.column, ruleField(i),
                                fmt::format("the condition is {}, not a bool", program->resultType().toString())});
    }
    return problems;
}

Result<AgentRules> AgentRules::compile(const AgentPolicy& policy, std::string_view origin)
{
    if (const auto problems = check(policy); !problems.empty()) {
        std::string message;
        for (const auto& problem : problems) {
            if (!message.empty())
                message += '\n';
            message += problem.format(origin);
        }
        return fail(message);
    }
    auto impl = std::make_shared<Impl>();
    impl->policy = policy;
    const cel::Declarations declarations = callDeclarations();
    for (const auto& rule : policy.argumentRules)
        impl->conditions.push_back(*cel::compile(rule.condition, declarations));
    return AgentRules(std::move(impl));
}

const AgentPolicy& AgentRules::policy() const
{
    return m_impl->policy;
}

double AgentRules::toolCost(std::string_view tool) const
{
    const std::string text(tool);
    for (const auto& [glob, cost] : m_impl->policy.toolCosts) {
        if (::fnmatch(glob.c_str(), text.c_str(), 0) == 0)
            return cost;
    }
    return 0;
}

Ruling AgentRules::rule(const ToolCall& call, double spent, double reported) const
{
    const AgentPolicy& p = m_impl->policy;
    if (p.maxSteps > 0 && call.step > p.maxSteps)
        return {Ruling::Kind::EndSession, "max_steps",
                fmt::format("the session has made the {} tool calls its policy allows (max_steps); it ends here",
                            p.maxSteps)};
    const double cost = toolCost(call.tool) + reported;
    if (p.maxCost && spent + cost > *p.maxCost)
        return {Ruling::Kind::EndSession, "max_cost",
                fmt::format("this call would bring the session's cost to {} of the {} its policy allows (max_cost); "
                            "the session ends here",
                            spent + cost, *p.maxCost)};
    if (const std::string* glob = firstMatch(call.tool, p.blockedTools))
        return {Ruling::Kind::Refuse, "blocked_tools: " + *glob,
                fmt::format("the policy blocks the tool '{}' (blocked_tools: {})", call.tool, *glob)};
    if (p.allowedTools && !matchesAny(call.tool, *p.allowedTools))
        return {Ruling::Kind::Refuse, "allowed_tools",
                fmt::format("the policy does not allow the tool '{}' (allowed_tools: {})", call.tool,
                            fmt::join(*p.allowedTools, ", "))};
    if (auto ruled = m_impl->ruleArguments(call))
        return *ruled;
    if (const std::string* glob = firstMatch(call.tool, p.requireApproval))
        return {Ruling::Kind::Ask, "require_approval: " + *glob,
                fmt::format("the policy asks a person to approve calls of '{}' (require_approval: {})", call.tool,
                            *glob)};
    return {};
}

bool AgentRules::checkpointBefore(std::string_view tool, const ToolFacts& facts) const
{
    const AgentPolicy& p = m_impl->policy;
    switch (p.checkpointBefore) {
    case CheckpointBefore::Never: return false;
    case CheckpointBefore::Always: return true;
    case CheckpointBefore::Tools: return facts.destructive || matchesAny(tool, p.checkpointTools);
    case CheckpointBefore::Auto: break;
    }
    return facts.destructive || !(facts.readOnly && facts.trusted);
}

} // namespace sb::agents
