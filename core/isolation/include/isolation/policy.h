#pragma once

#include "util/error.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb {

// Python and shell snippets, or a command line (argv) run as it is (`sandbench exec`).
enum class Language { Python, Shell, Command };
std::string_view toString(Language language);
std::optional<Language> languageFromString(std::string_view name);

// process < container < strict; see PRODUCT.md. A run never silently gets less than it asked for.
enum class IsolationLevel { Process, Container, Strict };
std::string_view toString(IsolationLevel level);
std::optional<IsolationLevel> isolationLevelFromString(std::string_view name);

enum class NetworkMode { None, Allowlist };

// What a syscall rule does. Errno: the call fails with the rule's errno and the run continues (the
// refusal is reported). Kill: the run ends as `blocked`. Log: the call proceeds and the kernel writes it to its
// audit log (SCMP_ACT_LOG), not to the run's record.
enum class SyscallAction { Allow, Errno, Kill, Log };
std::string_view toString(SyscallAction action);
std::optional<SyscallAction> syscallActionFromString(std::string_view name);

// Comparisons libseccomp can make on a syscall argument (SCMP_CMP_*).
enum class ArgOp { Eq, Ne, Lt, Le, Gt, Ge, MaskedEq };
std::string_view toString(ArgOp op);
std::optional<ArgOp> argOpFromString(std::string_view name);

// One comparison on a raw 64-bit argument register; a rule's conditions must all hold (AND).
struct ArgCondition {
    unsigned index = 0;          // 0..5
    ArgOp op = ArgOp::Eq;
    std::uint64_t value = 0;     // MaskedEq: the value (arg & mask) must equal
    std::uint64_t mask = 0;      // MaskedEq only
    bool operator==(const ArgCondition&) const = default;
};

struct SyscallRule {
    std::vector<std::string> names;             // syscall names this libseccomp knows on the native arch
    SyscallAction action = SyscallAction::Errno;
    int errnoValue = 1;                         // EPERM; meaningful for Errno only
    std::vector<ArgCondition> args;             // empty: every call of these syscalls
    bool operator==(const SyscallRule&) const = default;
};

// The policy's syscall layer, on top of Sandbench's built-in refusals (which a policy cannot lift).
// YAML `syscalls: {default, default_errno, rules, profile}`. A `profile` (OCI/Docker JSON) is imported at
// parse time: its rules follow the policy's own, minus every syscall the policy's own rules name, and its
// default applies unless the policy sets `default`. No syscall has two rules without args (libseccomp
// refuses that), and no rule compares one argument twice.
struct SyscallPolicy {
    SyscallAction defaultAction = SyscallAction::Allow; // Allow, Errno or Kill (never Log)
    int defaultErrno = 1;                               // EPERM; for defaultAction Errno
    std::vector<SyscallRule> rules;                     // a profile's rules, merged in at parse time
    bool operator==(const SyscallPolicy&) const = default;
};

// Whether libseccomp knows `name` as a syscall of the native architecture.
bool isKnownSyscall(std::string_view name);

// errno names <-> numbers for policies ("EPERM" <-> 1). Numbers without a known name render as numbers.
std::string errnoName(int value);
std::optional<int> errnoFromString(std::string_view name);

struct Limits {
    std::int64_t wallMs = 5000;        // wall-clock limit; kills the whole process tree
    std::int64_t cpuMs = 0;            // CPU time of the whole run; 0 means "the wall limit"
    std::int64_t memoryMb = 256;       // per process: address space; the run as a whole: resident memory
    std::int64_t processes = 32;       // processes/threads the run may have at once
    std::int64_t fileSizeMb = 16;      // largest file the run may write
    std::int64_t diskMb = 256;         // space the run's work dir may take in all (files x sizes)
    std::int64_t openFiles = 64;       // descriptors per process
    std::int64_t outputBytes = 65536;  // captured per stream; the rest is counted and dropped
    bool operator==(const Limits&) const = default;
};

// One argument rule of an agent policy (YAML `agent.argument_rules`): a CEL condition over a tool call (`tool`,
// `args`, `step`, `workspace`) that every call it applies to must meet. core/agents compiles and evaluates it
// (agents/agent_policy.h); this module keeps its text and where it was written.
struct AgentArgumentRule {
    std::string name;                // "" : called argument_rules[N]
    std::string condition;           // true: the call may go on
    std::vector<std::string> tools;  // globs of the tools it applies to; empty: every tool
    std::string message;             // for the agent, when the condition does not hold
    // Where the condition starts in the policy's text (1-based; 0: not from a text). Where, not what: equality
    // and the rendering leave it out.
    int line = 0;
    int column = 0;
    bool operator==(const AgentArgumentRule& o) const
    {
        return name == o.name && condition == o.condition && tools == o.tools && message == o.message;
    }
};

// Which calls get a checkpoint of the workspace before they run (YAML `agent.checkpoint_before`).
enum class CheckpointBefore {
    Auto,   // every call but those of tools Sandbench itself knows to be read-only
    Always, // every call
    Never,  // none
    Tools,  // the calls of the tools AgentPolicy::checkpointTools names, and of tools annotated destructive
};

std::string_view toString(CheckpointBefore mode);

// The `agent` section: what an agent session lets through its MCP gateway (core/agents applies it). Tool
// names are matched as globs (fnmatch: *, ?, [..]).
struct AgentPolicy {
    std::optional<std::vector<std::string>> allowedTools; // nullopt: every tool not blocked
    std::vector<std::string> blockedTools;                // blocked wins over allowed
    std::vector<AgentArgumentRule> argumentRules;
    std::int64_t maxSteps = 0;                            // tool calls a session may make; 0: no bound
    std::optional<double> maxCost;                        // tool costs plus the cost the agent reports
    std::vector<std::pair<std::string, double>> toolCosts; // glob -> cost of one call; the first match counts
    std::vector<std::string> requireApproval;             // tool globs, or names of argument rules
    std::int64_t approvalTimeoutMs = 300000;              // unanswered approvals are denied after this long
    CheckpointBefore checkpointBefore = CheckpointBefore::Auto;
    std::vector<std::string> checkpointTools;             // CheckpointBefore::Tools: their globs
    bool operator==(const AgentPolicy&) const = default;
};

struct Policy {
    std::string name = "default";
    IsolationLevel level = IsolationLevel::Process;
    Limits limits;
    NetworkMode network = NetworkMode::None;
    // allowlist: the hosts a run may reach, as "host:port" ("*" for any port, "*.example.com" for its
    // subdomains), through Sandbench's proxy (container and strict levels only).
    std::vector<std::string> networkAllow;
    std::vector<std::string> envPass;            // variable names copied from the caller's environment
    std::map<std::string, std::string> envSet;   // variables set explicitly
    std::vector<std::string> readPaths;          // extra paths the run may read (system paths are implied)
    bool importGuard = true;
    bool sitePackages = false;                   // third-party packages (site, dist-packages); off: leaner, faster
    std::vector<std::string> blockedImports = defaultBlockedImports(); // top-level modules refused to the snippet
    std::string python = "/usr/bin/python3";
    std::string shell = "/bin/sh";
    SyscallPolicy syscalls;
    // Opt-in: when the asked level is unavailable, run at the highest available lower one instead of
    // failing closed. The run still records the layers it really had.
    bool allowLowerLevel = false;
    // For agent sessions (core/agents); nullopt: the policy says nothing about them.
    std::optional<AgentPolicy> agent;

    static std::vector<std::string> defaultBlockedImports();
    bool operator==(const Policy&) const = default;
};

// Parses a policy from YAML text. Errors name the origin, line, column and field. `warnings` (optional)
// receives what was accepted but deserves a look, e.g. syscalls of an imported profile this libseccomp
// does not know. A relative `syscalls.profile` path is refused here (there is no file to be relative to).
Result<Policy> parsePolicy(std::string_view yamlText, std::string_view origin,
                           std::vector<std::string>* warnings = nullptr);
// As parsePolicy; a relative `syscalls.profile` path is taken relative to the policy file's folder.
// `namesLevel` (optional): whether the file names its level (otherwise the caller's default applies).
Result<Policy> loadPolicyFile(const std::filesystem::path& path, std::vector<std::string>* warnings = nullptr,
                              bool* namesLevel = nullptr);
// A canonical YAML rendering (stored with every run; parsePolicy(renderPolicy(p)) == p).
// Imported profiles appear as their rules, so a stored run does not depend on the profile file.
std::string renderPolicy(const Policy& policy);

// The presets compiled in from resources/policies/*.yaml (the single source of truth), by file stem:
// "python-snippet", "shell-snippet", "agent", "untrusted-strict".
std::vector<std::string> builtinPresetNames();
Result<Policy> builtinPreset(std::string_view name);
// The preset's YAML text as shipped (with its comments), for "save as" and display.
std::optional<std::string_view> builtinPresetText(std::string_view name);

} // namespace sb
