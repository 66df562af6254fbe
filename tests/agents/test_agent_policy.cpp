// The policy's `agent` section: read from YAML (isolation/policy.h), rendered back the same, its CEL conditions
// compiled with positions in the file, and the ruling each tool call gets (agents/agent_policy.h).

#include "agents/agent_policy.h"
#include "agents/session_control.h"
#include "isolation/policy.h"

#include <gtest/gtest.h>

#include <string>

namespace sb::agents {
namespace {

Policy parsed(std::string_view yaml)
{
    auto policy = parsePolicy(yaml, "test.yaml");
    EXPECT_TRUE(policy) << (policy ? "" : policy.error().message);
    return policy ? *policy : Policy{};
}

std::string parseError(std::string_view yaml)
{
    auto policy = parsePolicy(yaml, "test.yaml");
    EXPECT_FALSE(policy);
    return policy ? "" : policy.error().message;
}

AgentRules compiled(std::string_view yaml)
{
    const Policy policy = parsed(yaml);
    EXPECT_TRUE(policy.agent);
    auto rules = AgentRules::compile(policy.agent.value_or(AgentPolicy{}), "test.yaml");
    EXPECT_TRUE(rules) << (rules ? "" : rules.error().message);
    return std::move(rules).value_or(*AgentRules::compile(AgentPolicy{}));
}

ToolCall call(std::string tool, Json args = Json::object(), std::int64_t step = 1)
{
    return ToolCall{std::move(tool), std::move(args), step, "/work"};
}

constexpr std::string_view kFull = R"(
name: agents
agent:
  allowed_tools: [read_file, write_file, "list_*", run_command, delete_file]
  blocked_tools: [delete_*]
  argument_rules:
    - args.path.startsWith(workspace + "/")
    - name: small-writes
      tools: [write_file]
      condition: size(args.content) <= 10
      message: writes are limited to 10 characters
  max_steps: 5
  max_cost: 2.5
  tool_costs: {run_command: 1, "*": 0.25}
  require_approval: [run_command, small-writes]
  approval_timeout_ms: 1000
  checkpoint_before: [write_file]
)";

TEST(AgentPolicy, TheSectionIsReadAsWritten)
{
    const Policy policy = parsed(kFull);
    ASSERT_TRUE(policy.agent);
    const AgentPolicy& a = *policy.agent;
    ASSERT_TRUE(a.allowedTools);
    EXPECT_EQ(*a.allowedTools, (std::vector<std::string>{"read_file", "write_file", "list_*", "run_command", "delete_file"}));
    EXPECT_EQ(a.blockedTools, std::vector<std::string>{"delete_*"});
    ASSERT_EQ(a.argumentRules.size(), 2u);
    EXPECT_EQ(a.argumentRules[0].condition, "args.path.startsWith(workspace + \"/\")");
    EXPECT_EQ(a.argumentRules[0].line, 7);
    EXPECT_EQ(a.argumentRules[0].column, 7);
    EXPECT_EQ(a.argumentRules[1].name, "small-writes");
    EXPECT_EQ(a.argumentRules[1].tools, std::vector<std::string>{"write_file"});
    EXPECT_EQ(a.argumentRules[1].message, "writes are limited to 10 characters");
    EXPECT_EQ(a.maxSteps, 5);
    EXPECT_EQ(a.maxCost, 2.5);
    ASSERT_EQ(a.toolCosts.size(), 2u);
    EXPECT_EQ(a.toolCosts[0], (std::pair<std::string, double>{"run_command", 1}));
    EXPECT_EQ(a.toolCosts[1], (std::pair<std::string, double>{"*", 0.25}));
    EXPECT_EQ(a.requireApproval, (std::vector<std::string>{"run_command", "small-writes"}));
    EXPECT_EQ(a.approvalTimeoutMs, 1000);
    EXPECT_EQ(a.checkpointBefore, CheckpointBefore::Tools);
    EXPECT_EQ(a.checkpointTools, std::vector<std::string>{"write_file"});
}

TEST(AgentPolicy, RendersBackTheSame)
{
    const Policy policy = parsed(kFull);
    const std::string yaml = renderPolicy(policy);
    const Policy again = parsed(yaml);
    EXPECT_EQ(again, policy) << yaml;
    EXPECT_EQ(renderPolicy(again), yaml);
    // A policy without the section renders without it, and reads back without it.
    const Policy plain = parsed("name: plain\n");
    EXPECT_FALSE(plain.agent);
    EXPECT_EQ(renderPolicy(plain).find("agent"), std::string::npos);
    // Costs that are not short in binary come back exactly.
    Policy costly = policy;
    costly.agent->maxCost = 0.1 + 0.2;
    costly.agent->toolCosts = {{"x", 1e-7}, {"[ab]*", 123456789.125}};
    EXPECT_EQ(parsed(renderPolicy(costly)), costly);
}

TEST(AgentPolicy, AnEmptySectionHasTheDefaults)
{
    const Policy policy = parsed("agent: {}\n");
    ASSERT_TRUE(policy.agent);
    EXPECT_EQ(*policy.agent, AgentPolicy{});
    EXPECT_FALSE(policy.agent->allowedTools);
    EXPECT_EQ(policy.agent->checkpointBefore, CheckpointBefore::Auto);
}

TEST(AgentPolicy, MistakesAreNamedWithTheirPlace)
{
    EXPECT_EQ(parseError("agent:\n  alowed_tools: [x]\n"),
              "test.yaml:2:3: 'agent.alowed_tools': unknown field (expected one of: allowed_tools, blocked_tools, "
              "argument_rules, max_steps, max_cost, tool_costs, require_approval, approval_timeout_ms, "
              "checkpoint_before)");
    EXPECT_EQ(parseError("agent:\n  max_steps: -1\n"), "test.yaml:2:14: 'agent.max_steps': -1 is out of range [0, 100000000]");
    EXPECT_EQ(parseError("agent:\n  max_cost: lots\n"), "test.yaml:2:13: 'agent.max_cost': expected a number, got 'lots'");
    EXPECT_EQ(parseError("agent:\n  max_cost: -0.5\n"), "test.yaml:2:13: 'agent.max_cost': -0.5 is negative");
    EXPECT_EQ(parseError("agent:\n  max_cost: .nan\n"), "test.yaml:2:13: 'agent.max_cost': expected a number, got '.nan'");
    EXPECT_EQ(parseError("agent:\n  tool_costs: {a: 1, a: 2}\n"),
              "test.yaml:2:22: 'agent.tool_costs.a': given twice (first at line 2)");
    EXPECT_EQ(parseError("agent:\n  checkpoint_before: sometimes\n"),
              "test.yaml:2:22: 'agent.checkpoint_before': unknown value 'sometimes' (auto, always, never, or a list "
              "of tools)");
    EXPECT_EQ(parseError("agent:\n  argument_rules: [{name: a}]\n"),
              "test.yaml:2:20: 'agent.argument_rules[0]': a rule needs a 'condition' (a CEL expression)");
    EXPECT_EQ(parseError("agent:\n  argument_rules: ['  ']\n"),
              "test.yaml:2:20: 'agent.argument_rules[0]': the condition is empty");
    EXPECT_EQ(parseError("agent:\n  argument_rules: [{name: a, condition: 'true'}, {name: a, condition: 'true'}]\n"),
              "test.yaml:2:57: 'agent.argument_rules[1].name': 'a' names two rules");
    EXPECT_EQ(parseError("agent:\n  blocked_tools: ['']\n"),
              "test.yaml:2:18: 'agent.blocked_tools': a tool name or glob is empty");
    EXPECT_EQ(parseError("agent: [x]\n"), "test.yaml:1:8: 'agent': expected a mapping");
}

TEST(AgentPolicy, ConditionsAreCheckedWithTheirPlaceInTheFile)
{
    const Policy policy = parsed("agent:\n  argument_rules:\n    - args.path.startsWith(workspac)\n    - size(args) + 1\n");
    const auto problems = AgentRules::check(*policy.agent);
    ASSERT_EQ(problems.size(), 2u);
    EXPECT_EQ(problems[0].format("test.yaml"),
              "test.yaml:3:28: agent.argument_rules[0]: undeclared reference to 'workspac'");
    EXPECT_EQ(problems[1].format("test.yaml"), "test.yaml:4:7: agent.argument_rules[1]: the condition is int, not a bool");
    auto rules = AgentRules::compile(*policy.agent, "test.yaml");
    ASSERT_FALSE(rules);
    EXPECT_EQ(rules.error().message, problems[0].format("test.yaml") + "\n" + problems[1].format("test.yaml"));
}

TEST(AgentPolicy, BoundsEndTheSessionBeforeTheCallRuns)
{
    const AgentRules rules = compiled(kFull);
    const Json inside = {{"path", "/work/a.txt"}};
    EXPECT_EQ(rules.rule(call("read_file", inside, 5)).kind, Ruling::Kind::Allow);
    const Ruling past = rules.rule(call("read_file", inside, 6));
    EXPECT_EQ(past.kind, Ruling::Kind::EndSession);
    EXPECT_EQ(past.rule, "max_steps");
    EXPECT_EQ(past.message, "the session has made the 5 tool calls its policy allows (max_steps); it ends here");
    // 2.25 spent + 0.25 for read_file = 2.5: within; reported cost on top passes it.
    EXPECT_EQ(rules.rule(call("read_file", inside), 2.25).kind, Ruling::Kind::Allow);
    const Ruling costly = rules.rule(call("read_file", inside), 2.25, 0.01);
    EXPECT_EQ(costly.kind, Ruling::Kind::EndSession);
    EXPECT_EQ(costly.rule, "max_cost");
    EXPECT_DOUBLE_EQ(rules.toolCost("run_command"), 1);
    EXPECT_DOUBLE_EQ(rules.toolCost("read_file"), 0.25);
}

TEST(AgentPolicy, ToolListsDecideByGlob)
{
    const AgentRules rules = compiled(kFull);
    const Ruling blocked = rules.rule(call("delete_file", {{"path", "/work/x"}}));
    EXPECT_EQ(blocked.kind, Ruling::Kind::Refuse);
    EXPECT_EQ(blocked.rule, "blocked_tools: delete_*");
    EXPECT_EQ(blocked.message, "the policy blocks the tool 'delete_file' (blocked_tools: delete_*)");
    const Ruling unlisted = rules.rule(call("http_get", {{"path", "/work/x"}}));
    EXPECT_EQ(unlisted.kind, Ruling::Kind::Refuse);
    EXPECT_EQ(unlisted.rule, "allowed_tools");
    EXPECT_EQ(rules.rule(call("list_dir", {{"path", "/work/sub"}})).kind, Ruling::Kind::Allow);
    // A glob matches the whole name.
    EXPECT_EQ(rules.rule(call("xlist_dir", {{"path", "/work/sub"}})).kind, Ruling::Kind::Refuse);
}

TEST(AgentPolicy, ArgumentRulesRefuseAskOrFailClosed)
{
    const AgentRules rules = compiled(kFull);
    const Ruling outside = rules.rule(call("read_file", {{"path", "/etc/passwd"}}));
    EXPECT_EQ(outside.kind, Ruling::Kind::Refuse);
    EXPECT_EQ(outside.rule, "argument_rules[0]");
    EXPECT_EQ(outside.message,
              "the call does not meet the policy's argument rule argument_rules[0]: args.path.startsWith(workspace + \"/\")");
    // A call the rule cannot read is refused, with the reason.
    const Ruling unreadable = rules.rule(call("read_file", {{"file", "/work/a"}}));
    EXPECT_EQ(unreadable.kind, Ruling::Kind::Refuse);
    EXPECT_NE(unreadable.message.find("cannot be evaluated on this call"), std::string::npos) << unreadable.message;
    EXPECT_NE(unreadable.message.find("path"), std::string::npos) << unreadable.message;
    const Ruling wrongType = rules.rule(call("read_file", {{"path", 7}}));
    EXPECT_EQ(wrongType.kind, Ruling::Kind::Refuse);
    // A named rule that require_approval names asks instead of refusing, with its own message.
    const Ruling big = rules.rule(call("write_file", {{"path", "/work/a"}, {"content", "far more than ten"}}));
    EXPECT_EQ(big.kind, Ruling::Kind::Ask);
    EXPECT_EQ(big.rule, "small-writes");
    EXPECT_EQ(big.message, "writes are limited to 10 characters");
    // The rule names its tools: other tools are not held to it.
    EXPECT_EQ(rules.rule(call("write_file", {{"path", "/work/a"}, {"content", "short"}})).kind, Ruling::Kind::Allow);
    // require_approval by tool.
    const Ruling command = rules.rule(call("run_command", {{"path", "/work/"}, {"command", "ls"}}));
    EXPECT_EQ(command.kind, Ruling::Kind::Ask);
    EXPECT_EQ(command.rule, "require_approval: run_command");
}

TEST(AgentPolicy, TheRulesSeeTheWholeCall)
{
    const AgentRules rules = compiled(
        "agent:\n  argument_rules:\n    - tool != 'run_command' || !args.command.contains('rm ')\n    - step <= 3\n"
        "    - workspace == '/work'\n    - \"!has(args.deep) || args.deep.list[1].n == 2\"\n");
    EXPECT_EQ(rules.rule(call("run_command", {{"command", "ls -l"}})).kind, Ruling::Kind::Allow);
    EXPECT_EQ(rules.rule(call("run_command", {{"command", "rm -rf /"}})).rule, "argument_rules[0]");
    EXPECT_EQ(rules.rule(call("x", Json::object(), 4)).rule, "argument_rules[1]");
    EXPECT_EQ(rules.rule(call("x", {{"deep", {{"list", {Json{{"n", 1}}, Json{{"n", 2}}}}}}})).kind, Ruling::Kind::Allow);
    EXPECT_EQ(rules.rule(call("x", {{"deep", {{"list", {Json{{"n", 1}}, Json{{"n", 3}}}}}}})).rule, "argument_rules[3]");
    ToolCall elsewhere = call("x");
    elsewhere.workspace = "/home/a";
    EXPECT_EQ(rules.rule(elsewhere).rule, "argument_rules[2]");
}

TEST(AgentPolicy, CheckpointsFollowTheSectionAndDistrustServerAnnotations)
{
    const ToolFacts builtinReadOnly{.readOnly = true, .trusted = true};
    const ToolFacts serverReadOnly{.readOnly = true, .trusted = false};
    const ToolFacts destructive{.destructive = true};
    const AgentRules automatic = compiled("agent: {}\n");
    EXPECT_FALSE(automatic.checkpointBefore("read_file", builtinReadOnly));
    EXPECT_TRUE(automatic.checkpointBefore("read_file", serverReadOnly)); // a server's word removes no caution
    EXPECT_TRUE(automatic.checkpointBefore("write_file", ToolFacts{}));
    const AgentRules listed = compiled("agent: {checkpoint_before: [write_*]}\n");
    EXPECT_TRUE(listed.checkpointBefore("write_file", ToolFacts{}));
    EXPECT_FALSE(listed.checkpointBefore("read_file", serverReadOnly));
    EXPECT_TRUE(listed.checkpointBefore("wipe", destructive)); // a server's word adds caution
    EXPECT_FALSE(compiled("agent: {checkpoint_before: never}\n").checkpointBefore("wipe", destructive));
    EXPECT_TRUE(compiled("agent: {checkpoint_before: always}\n").checkpointBefore("read_file", builtinReadOnly));
}

TEST(AgentPolicy, ThePresetHasASectionThatCompiles)
{
    auto preset = builtinPreset("agent");
    ASSERT_TRUE(preset) << preset.error().message;
    ASSERT_TRUE(preset->agent);
    EXPECT_TRUE(AgentRules::check(*preset->agent).empty());
    EXPECT_GT(preset->agent->maxSteps, 0);
}

// A breakpoint is read one way for the session and for the window: a CEL condition when it compiles, a tool's name
// or glob when spelled as one, else refused saying why.
TEST(Breakpoints, AreConditionsOrToolsOrRefused)
{
    auto condition = parseBreakpoint(R"(args.path.endsWith(".py"))");
    ASSERT_TRUE(condition) << condition.error().message;
    EXPECT_TRUE(condition->condition.has_value());
    auto tool = parseBreakpoint("write_*");
    ASSERT_TRUE(tool) << tool.error().message;
    EXPECT_FALSE(tool->condition.has_value());
    EXPECT_EQ(tool->text, "write_*");
    auto broken = parseBreakpoint("args.path == ");
    ASSERT_FALSE(broken);
    EXPECT_NE(broken.error().message.find("not a CEL condition"), std::string::npos) << broken.error().message;
    EXPECT_FALSE(parseBreakpoint(""));
    EXPECT_FALSE(parseBreakpoint("rm -rf /"));
}

} // namespace
} // namespace sb::agents
