// Syscall rules, allow_lower_level, the built-in presets and the OCI/Docker seccomp profile import.
#include "oci_seccomp.h"
#include "isolation/policy.h"
#include "source_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <sstream>

using namespace sb;

namespace {

// The fixtures sit beside this file (tests/isolation/data; source_tree.h).
std::filesystem::path dataDir()
{
    return sb::test::isolationTestData();
}

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

const SyscallRule* ruleFor(const SyscallPolicy& sys, std::string_view name, std::size_t nth = 0)
{
    for (const auto& r : sys.rules) {
        if (std::find(r.names.begin(), r.names.end(), name) != r.names.end() && nth-- == 0)
            return &r;
    }
    return nullptr;
}

// Run by hand as a user who cannot enter the source tree (scripts/test gives its unprivileged run a readable
// copy, source_tree.h), the tests that read it step aside: they ran from the build already.
bool sourceTreeReadable()
{
    return std::ifstream(dataDir() / "docker-default-subset.json").good();
}
#define SKIP_WITHOUT_SOURCE_TREE()                                                                                     \
    if (!sourceTreeReadable())                                                                                         \
    GTEST_SKIP() << "source tree not readable from here: " << dataDir()

// A fixed host so the import's results do not depend on the machine running the tests.
const OciImportHost kAmd64Linux61{"amd64", 6, 1};

} // namespace

TEST(PolicySyscalls, DefaultsAreAllowWithNoRulesAndNoFallback)
{
    auto p = parsePolicy("", "empty.yaml");
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_EQ(p->syscalls.defaultAction, SyscallAction::Allow);
    EXPECT_TRUE(p->syscalls.rules.empty());
    EXPECT_FALSE(p->allowLowerLevel);
}

TEST(PolicySyscalls, ParsesRulesActionsErrnosAndArgs)
{
    auto p = parsePolicy(R"(level: container
allow_lower_level: true
syscalls:
  default: errno
  default_errno: ENOSYS
  rules:
    - names: [ptrace, process_vm_readv]
      action: kill
    - names: [personality]
      action: errno
      errno: EPERM
    - names: [socket]
      action: errno
      errno: 13
      args: [{index: 0, op: ne, value: 1}]
    - names: [clone]
      action: log
      args: [{index: 0, op: masked_eq, mask: 0x10000000, value: 0x10000000}, {index: 1, op: ge, value: -1}]
    - names: [getpid]
      action: allow
)",
                         "p.yaml");
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_TRUE(p->allowLowerLevel);
    const auto& sys = p->syscalls;
    EXPECT_EQ(sys.defaultAction, SyscallAction::Errno);
    EXPECT_EQ(sys.defaultErrno, ENOSYS);
    ASSERT_EQ(sys.rules.size(), 5u);
    EXPECT_EQ(sys.rules[0].names, (std::vector<std::string>{"ptrace", "process_vm_readv"}));
    EXPECT_EQ(sys.rules[0].action, SyscallAction::Kill);
    EXPECT_EQ(sys.rules[1].action, SyscallAction::Errno);
    EXPECT_EQ(sys.rules[1].errnoValue, EPERM);
    EXPECT_EQ(sys.rules[2].errnoValue, EACCES);
    ASSERT_EQ(sys.rules[2].args.size(), 1u);
    EXPECT_EQ(sys.rules[2].args[0], (ArgCondition{0, ArgOp::Ne, 1, 0}));
    EXPECT_EQ(sys.rules[3].action, SyscallAction::Log);
    ASSERT_EQ(sys.rules[3].args.size(), 2u);
    EXPECT_EQ(sys.rules[3].args[0], (ArgCondition{0, ArgOp::MaskedEq, 0x10000000, 0x10000000}));
    EXPECT_EQ(sys.rules[3].args[1].value, ~std::uint64_t{0}); // -1 is the all-ones register
    EXPECT_EQ(sys.rules[4].action, SyscallAction::Allow);
}

TEST(PolicySyscalls, RenderedRulesParseBackEqual)
{
    Policy p;
    p.name = "rules";
    p.allowLowerLevel = true;
    p.syscalls.defaultAction = SyscallAction::Kill;
    p.syscalls.rules = {
        {{"ptrace"}, SyscallAction::Kill, EPERM, {}},
        {{"socket", "socketpair"}, SyscallAction::Errno, EACCES, {{0, ArgOp::Ne, 1, 0}}},
        {{"clone"}, SyscallAction::Log, EPERM, {{0, ArgOp::MaskedEq, 0x7e020000, 0x7e020000}, {2, ArgOp::Lt, 5, 0}}},
        {{"personality"}, SyscallAction::Errno, 1234, {{0, ArgOp::Gt, ~std::uint64_t{0} - 1, 0}}},
        {{"getpid"}, SyscallAction::Allow, EPERM, {}},
    };
    const auto text = renderPolicy(p);
    auto back = parsePolicy(text, "rendered");
    ASSERT_TRUE(back) << back.error().message << "\n" << text;
    EXPECT_EQ(back->syscalls, p.syscalls) << text;
    EXPECT_TRUE(back->allowLowerLevel);
    EXPECT_EQ(*back, p) << text;
    EXPECT_EQ(renderPolicy(*back), text); // canonical: a second rendering is byte-identical

    p.syscalls.defaultAction = SyscallAction::Errno;
    p.syscalls.defaultErrno = EACCES;
    auto again = parsePolicy(renderPolicy(p), "rendered");
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_EQ(*again, p);
}

TEST(PolicySyscalls, ErrnoNamesAndNumbers)
{
    EXPECT_EQ(errnoFromString("EPERM"), EPERM);
    EXPECT_EQ(errnoFromString("ENOSYS"), ENOSYS);
    EXPECT_EQ(errnoFromString("38"), 38);
    EXPECT_FALSE(errnoFromString("EWHATEVER"));
    EXPECT_FALSE(errnoFromString("0"));
    EXPECT_FALSE(errnoFromString("4096"));
    EXPECT_EQ(errnoName(EACCES), "EACCES");
    EXPECT_EQ(errnoName(4000), "4000");
}

struct BadSyscalls {
    const char* yaml;
    const char* expected;
};

class PolicySyscallErrors : public ::testing::TestWithParam<BadSyscalls> {};

TEST_P(PolicySyscallErrors, NameWhereAndWhat)
{
    auto p = parsePolicy(GetParam().yaml, "bad.yaml");
    ASSERT_FALSE(p) << GetParam().yaml;
    EXPECT_NE(p.error().message.find(GetParam().expected), std::string::npos) << p.error().message;
    EXPECT_EQ(p.error().message.rfind("bad.yaml", 0), 0u) << p.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PolicySyscallErrors,
    ::testing::Values(
        BadSyscalls{"syscalls:\n  default: log\n",
                    "bad.yaml:2:12: 'syscalls.default': unknown action 'log' (allow, errno, kill)"},
        BadSyscalls{"syscalls:\n  defaults: allow\n", "bad.yaml:2:3: 'syscalls.defaults': unknown field"},
        BadSyscalls{"syscalls:\n  rules:\n    - names: [ptrace, not_a_syscall]\n      action: kill\n",
                    "bad.yaml:3:23: 'syscalls.rules[0].names': unknown syscall 'not_a_syscall'"},
        BadSyscalls{"syscalls:\n  rules:\n    - names: [ptrace]\n      action: explode\n",
                    "bad.yaml:4:15: 'syscalls.rules[0].action': unknown action 'explode'"},
        BadSyscalls{"syscalls:\n  rules:\n    - names: [ptrace]\n", "'syscalls.rules[0].action': missing"},
        BadSyscalls{"syscalls:\n  rules:\n    - action: kill\n", "'syscalls.rules[0].names': missing"},
        BadSyscalls{"syscalls:\n  rules:\n    - names: []\n      action: kill\n",
                    "'syscalls.rules[0].names': names no syscall"},
        BadSyscalls{"syscalls:\n  rules:\n    - {names: [ptrace], action: errno, errno: EWHAT}\n",
                    "'syscalls.rules[0].errno': 'EWHAT' is not an errno"},
        BadSyscalls{"syscalls:\n  rules:\n    - {names: [ptrace], action: kill, errno: EPERM}\n",
                    "'syscalls.rules[0].errno': an errno applies to action errno only"},
        BadSyscalls{
            "syscalls:\n  rules:\n    - {names: [socket], action: kill, args: [{index: 6, op: eq, value: 1}]}\n",
            "'syscalls.rules[0].args[0].index': 6 is out of range [0, 5]"},
        BadSyscalls{
            "syscalls:\n  rules:\n    - {names: [socket], action: kill, args: [{index: 0, op: like, value: 1}]}\n",
            "'syscalls.rules[0].args[0].op': unknown operator 'like'"},
        BadSyscalls{
            "syscalls:\n  rules:\n    - {names: [socket], action: kill, args: [{index: 0, op: eq, value: lots}]}\n",
            "'syscalls.rules[0].args[0].value': expected a 64-bit integer, got 'lots'"},
        BadSyscalls{
            "syscalls:\n  rules:\n    - {names: [socket], action: kill, args: [{index: 0, op: masked_eq, value: 1}]}\n",
            "'syscalls.rules[0].args[0].mask': masked_eq needs a mask"},
        BadSyscalls{"syscalls:\n  rules:\n    - {names: [socket], action: kill, args: [{index: 0, op: eq, value: 1, "
                    "mask: 1}]}\n",
                    "'syscalls.rules[0].args[0].mask': a mask applies to op masked_eq only"},
        BadSyscalls{"syscalls:\n  rules:\n    - {names: [socket], action: kill, args: [{index: 0, op: eq, value: 1}, "
                    "{index: 0, op: eq, value: 2}]}\n",
                    "argument 0 is compared twice"},
        BadSyscalls{"syscalls:\n  rules:\n    - {names: [socket], action: kill, args: [{index: 0, op: eq, value: 1, "
                    "extra: 2}]}\n",
                    "'syscalls.rules[0].args[0].extra': unknown field"},
        BadSyscalls{
            "syscalls:\n  rules:\n    - {names: [ptrace], action: kill}\n    - {names: [ptrace], action: errno}\n",
            "'syscalls.rules[1].names': 'ptrace' already has a rule without args (syscalls.rules[0])"},
        BadSyscalls{"syscalls:\n  default_errno: EPERM\n", "'syscalls.default_errno': applies to default: errno only"},
        BadSyscalls{"syscalls:\n  profile: relative/docker.json\n",
                    "'syscalls.profile': 'relative/docker.json' is relative"},
        BadSyscalls{"syscalls:\n  profile: /nonexistent/docker.json\n",
                    "bad.yaml:2:12: 'syscalls.profile': /nonexistent/docker.json: cannot read the seccomp profile"},
        // Neither a never-ending device nor a FIFO with no writer may hang or exhaust the parser.
        BadSyscalls{"syscalls:\n  profile: /dev/zero\n",
                    "'syscalls.profile': /dev/zero: the seccomp profile is not a regular file"},
        BadSyscalls{"syscalls:\n  profile: /proc/self/fd\n",
                    "'syscalls.profile': /proc/self/fd: the seccomp profile is not a regular file"},
        BadSyscalls{"allow_lower_level: perhaps\n", "'allow_lower_level': expected true or false"},
        BadSyscalls{"syscalls: [ptrace]\n", "'syscalls': expected a mapping"}));

TEST(PolicyPresets, NamesAreTheFilesInResources)
{
    EXPECT_EQ(builtinPresetNames(),
              (std::vector<std::string>{"agent", "python-snippet", "shell-snippet", "untrusted-strict"}));
}

TEST(PolicyPresets, EveryPresetParsesAndRoundTrips)
{
    for (const auto& name : builtinPresetNames()) {
        SCOPED_TRACE(name);
        auto p = builtinPreset(name);
        ASSERT_TRUE(p) << p.error().message;
        EXPECT_EQ(p->name, name); // a preset calls itself by its file name
        EXPECT_FALSE(p->syscalls.rules.empty()) << "every preset says something about syscalls";
        const auto text = renderPolicy(*p);
        auto back = parsePolicy(text, "rendered");
        ASSERT_TRUE(back) << back.error().message << "\n" << text;
        EXPECT_EQ(*back, *p) << text;
    }
}

TEST(PolicyPresets, PresetTextIsTheFileInResources)
{
    SKIP_WITHOUT_SOURCE_TREE();
    const auto source = sb::test::sourceTree() / "resources" / "policies";
    for (const auto& name : builtinPresetNames()) {
        SCOPED_TRACE(name);
        auto text = builtinPresetText(name);
        ASSERT_TRUE(text);
        EXPECT_EQ(std::string(*text), readFile(source / (name + ".yaml")));
        auto fromFile = loadPolicyFile(source / (name + ".yaml"));
        ASSERT_TRUE(fromFile) << fromFile.error().message;
        EXPECT_EQ(*fromFile, *builtinPreset(name));
    }
}

TEST(PolicyPresets, PresetsSayWhatTheyAreFor)
{
    auto strict = builtinPreset("untrusted-strict");
    ASSERT_TRUE(strict) << strict.error().message;
    EXPECT_EQ(strict->level, IsolationLevel::Strict);
    EXPECT_FALSE(strict->allowLowerLevel); // strict fails closed
    EXPECT_LE(strict->limits.wallMs, 5000);
    EXPECT_LE(strict->limits.memoryMb, 256);
    const auto* ptrace = ruleFor(strict->syscalls, "ptrace");
    ASSERT_NE(ptrace, nullptr);
    EXPECT_EQ(ptrace->action, SyscallAction::Kill);

    auto agent = builtinPreset("agent");
    ASSERT_TRUE(agent) << agent.error().message;
    EXPECT_EQ(agent->level, IsolationLevel::Container);
    EXPECT_TRUE(agent->allowLowerLevel);

    auto python = builtinPreset("python-snippet");
    ASSERT_TRUE(python) << python.error().message;
    EXPECT_EQ(python->level, IsolationLevel::Process);
    EXPECT_TRUE(python->importGuard);

    auto missing = builtinPreset("no-such-preset");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("python-snippet"), std::string::npos) << missing.error().message;
}

TEST(OciSeccomp, ImportsTheDockerDefaultSubset)
{
    SKIP_WITHOUT_SOURCE_TREE();
    const auto path = dataDir() / "docker-default-subset.json";
    const auto json = readFile(path);
    ASSERT_FALSE(json.empty()) << path;
    OciImportReport report;
    auto sys = importOciSeccompProfile(json, "docker-default-subset.json", &report, kAmd64Linux61);
    ASSERT_TRUE(sys) << sys.error().message;

    EXPECT_EQ(sys->defaultAction, SyscallAction::Errno);
    EXPECT_EQ(sys->defaultErrno, EPERM);
    // Kept: the allow list, ptrace & co (kernel >= 4.8), socket, 3 personality, arch_prctl, clone without
    // CAP_SYS_ADMIN, clone3, kexec_load, acct. Skipped: arm-only, and the three that need capabilities.
    EXPECT_EQ(report.rulesKept, 11);
    EXPECT_EQ(report.rulesSkipped, 4);
    EXPECT_EQ(sys->rules.size(), 11u);

    ASSERT_NE(ruleFor(*sys, "read"), nullptr);
    EXPECT_EQ(ruleFor(*sys, "read")->action, SyscallAction::Allow);
    EXPECT_NE(ruleFor(*sys, "arch_prctl"), nullptr);
    EXPECT_EQ(ruleFor(*sys, "set_tls"), nullptr);           // arm only
    EXPECT_EQ(ruleFor(*sys, "open_by_handle_at"), nullptr); // needs CAP_DAC_READ_SEARCH
    EXPECT_EQ(ruleFor(*sys, "mount"), nullptr);             // needs CAP_SYS_ADMIN
    EXPECT_EQ(ruleFor(*sys, "reboot"), nullptr);            // needs CAP_SYS_BOOT

    const auto* socket = ruleFor(*sys, "socket");
    ASSERT_NE(socket, nullptr);
    EXPECT_EQ(socket->args, (std::vector<ArgCondition>{{0, ArgOp::Ne, 40, 0}}));

    const auto* personality = ruleFor(*sys, "personality", 2);
    ASSERT_NE(personality, nullptr);
    EXPECT_EQ(personality->args, (std::vector<ArgCondition>{{0, ArgOp::Eq, 4294967295u, 0}}));

    // Without CAP_SYS_ADMIN, Docker allows clone only without namespace flags: value is OCI's mask.
    const auto* clone = ruleFor(*sys, "clone");
    ASSERT_NE(clone, nullptr);
    EXPECT_EQ(clone->args, (std::vector<ArgCondition>{{0, ArgOp::MaskedEq, 0, 2114060288u}}));

    const auto* clone3 = ruleFor(*sys, "clone3");
    ASSERT_NE(clone3, nullptr);
    EXPECT_EQ(clone3->action, SyscallAction::Errno);
    EXPECT_EQ(clone3->errnoValue, ENOSYS);

    EXPECT_EQ(ruleFor(*sys, "kexec_load")->action, SyscallAction::Kill);
    EXPECT_EQ(ruleFor(*sys, "acct")->action, SyscallAction::Log);

    // Names from other kernels are skipped, counted and reported, never fatal.
    EXPECT_NE(std::find(report.unknownSyscalls.begin(), report.unknownSyscalls.end(), "made_up_future_call"),
              report.unknownSyscalls.end());
    EXPECT_NE(std::find(report.unknownSyscalls.begin(), report.unknownSyscalls.end(), "another_future_call"),
              report.unknownSyscalls.end());
    ASSERT_FALSE(report.warnings.empty());
    EXPECT_NE(report.warnings.back().find("docker-default-subset.json: skipped"), std::string::npos)
        << report.warnings.back();
    EXPECT_NE(report.warnings.back().find("made_up_future_call"), std::string::npos);
}

TEST(OciSeccomp, KernelAndArchitectureDecideWhatApplies)
{
    SKIP_WITHOUT_SOURCE_TREE();
    const auto json = readFile(dataDir() / "docker-default-subset.json");
    OciImportReport oldKernel;
    auto sys = importOciSeccompProfile(json, "p.json", &oldKernel, OciImportHost{"amd64", 4, 4});
    ASSERT_TRUE(sys) << sys.error().message;
    EXPECT_EQ(ruleFor(*sys, "ptrace"), nullptr); // includes.minKernel 4.8
    EXPECT_EQ(oldKernel.rulesSkipped, 5);

    OciImportReport arm;
    auto armSys = importOciSeccompProfile(json, "p.json", &arm, OciImportHost{"arm64", 6, 1});
    ASSERT_TRUE(armSys) << armSys.error().message;
    EXPECT_EQ(ruleFor(*armSys, "arch_prctl"), nullptr); // amd64 only

    auto s390 = importOciSeccompProfile(json, "p.json", nullptr, OciImportHost{"s390x", 6, 1});
    ASSERT_FALSE(s390);
    EXPECT_NE(s390.error().message.find("does not cover this machine's architecture (SCMP_ARCH_S390X)"),
              std::string::npos)
        << s390.error().message;
}

TEST(OciSeccomp, ActionsMapAsDocumented)
{
    auto sys = importOciSeccompProfile(R"({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
        {"names": ["ptrace"], "action": "SCMP_ACT_TRAP"},
        {"names": ["kexec_load"], "action": "SCMP_ACT_TRACE", "errnoRet": 1},
        {"names": ["bpf"], "action": "SCMP_ACT_KILL_THREAD"},
        {"names": ["mount"], "action": "SCMP_ACT_KILL"},
        {"name": "acct", "action": "SCMP_ACT_ERRNO"},
        {"names": ["swapon"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13},
        {"names": ["swapon"], "action": "SCMP_ACT_KILL"}
    ]})",
                                       "inline.json");
    ASSERT_TRUE(sys) << sys.error().message;
    EXPECT_EQ(sys->defaultAction, SyscallAction::Allow);
    EXPECT_EQ(ruleFor(*sys, "ptrace")->action, SyscallAction::Kill);
    EXPECT_EQ(ruleFor(*sys, "kexec_load")->action, SyscallAction::Kill);
    EXPECT_EQ(ruleFor(*sys, "bpf")->action, SyscallAction::Kill);
    EXPECT_EQ(ruleFor(*sys, "mount")->action, SyscallAction::Kill);
    EXPECT_EQ(ruleFor(*sys, "acct")->errnoValue, EPERM); // no errnoRet, no defaultErrnoRet: EPERM
    // A second unconditional rule for one syscall is dropped (libseccomp would refuse it): first wins.
    EXPECT_EQ(ruleFor(*sys, "swapon")->errnoValue, EACCES);
    EXPECT_EQ(ruleFor(*sys, "swapon", 1), nullptr);
}

// What an import keeps is stored with every run (renderPolicy): it must parse back as a policy. A syscall
// listed twice in one rule (with conditions, where no first-wins applies) is the same rule once.
TEST(OciSeccomp, ASyscallListedTwiceInOneRuleIsKeptOnce)
{
    auto sys = importOciSeccompProfile(R"({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
        {"names": ["faccessat", "openat", "faccessat"], "name": "openat", "action": "SCMP_ACT_ERRNO",
         "args": [{"index": 2, "value": 1, "op": "SCMP_CMP_EQ"}]}
    ]})",
                                       "inline.json");
    ASSERT_TRUE(sys) << sys.error().message;
    ASSERT_EQ(sys->rules.size(), 1U);
    EXPECT_EQ(sys->rules[0].names, (std::vector<std::string>{"faccessat", "openat"}));
    Policy policy;
    policy.syscalls = *sys;
    const std::string rendered = renderPolicy(policy);
    auto again = parsePolicy(rendered, "rendered.yaml");
    ASSERT_TRUE(again) << again.error().message << "\n" << rendered;
    EXPECT_EQ(renderPolicy(*again), rendered);
}

struct BadProfile {
    const char* json;
    const char* expected;
};

class OciSeccompErrors : public ::testing::TestWithParam<BadProfile> {};

TEST_P(OciSeccompErrors, NameOriginPathAndWhat)
{
    auto sys = importOciSeccompProfile(GetParam().json, "profile.json");
    ASSERT_FALSE(sys) << GetParam().json;
    EXPECT_NE(sys.error().message.find(GetParam().expected), std::string::npos) << sys.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, OciSeccompErrors,
    ::testing::Values(
        BadProfile{"{", "profile.json: invalid JSON"},
        // Valid JSON syntax, but nlohmann refuses a number beyond a double with out_of_range, not parse_error.
        BadProfile{R"({"defaultAction": "SCMP_ACT_ALLOW", "defaultErrnoRet": 1e400})",
                   "profile.json: invalid JSON: [json.exception.out_of_range.406] number overflow parsing '1e400'"},
        BadProfile{"[]", "profile.json: a seccomp profile must be a JSON object"},
        BadProfile{"{}", "profile.json: defaultAction: missing"},
        BadProfile{R"({"defaultAction": "SCMP_ACT_MAYBE"})",
                   "profile.json: defaultAction: unknown action 'SCMP_ACT_MAYBE'"},
        BadProfile{R"({"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 0})",
                   "profile.json: defaultErrnoRet: errno 0 is out of range"},
        BadProfile{R"({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": {}})",
                   "profile.json: syscalls: expected an array"},
        BadProfile{
            R"({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_NOTIFY"}]})",
            "profile.json: syscalls[0].action: SCMP_ACT_NOTIFY needs a listener"},
        BadProfile{R"({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["read"]}]})",
                   "profile.json: syscalls[0].action: missing"},
        BadProfile{R"({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"action": "SCMP_ACT_KILL"}]})",
                   "profile.json: syscalls[0]: names one or no syscall"},
        BadProfile{R"({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_KILL"},
                   {"names": ["socket"], "action": "SCMP_ACT_KILL", "args": [{"index": 0, "value": 2, "op": "SCMP_CMP_FOO"}]}]})",
                   "profile.json: syscalls[1].args[0].op: unknown operator 'SCMP_CMP_FOO'"},
        BadProfile{R"({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["socket"], "action": "SCMP_ACT_KILL",
                   "args": [{"index": 7, "value": 2, "op": "SCMP_CMP_EQ"}]}]})",
                   "profile.json: syscalls[0].args[0].index: expected an argument index 0..5"},
        BadProfile{R"({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["socket"], "action": "SCMP_ACT_KILL",
                   "args": [{"index": 0, "value": -2, "op": "SCMP_CMP_EQ"}]}]})",
                   "profile.json: syscalls[0].args[0].value: expected an unsigned 64-bit number"},
        BadProfile{R"({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_KILL",
                   "includes": {"minKernel": "new"}}]})",
                   "profile.json: syscalls[0].includes.minKernel: 'new' is not a kernel version"},
        BadProfile{R"({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_KILL",
                   "excludes": {"caps": "CAP_SYS_ADMIN"}}]})",
                   "profile.json: syscalls[0].excludes.caps: expected an array of strings"},
        BadProfile{R"({"defaultAction": "SCMP_ACT_ALLOW", "architectures": ["SCMP_ARCH_MIPS"]})",
                   "profile.json: architectures: the profile does not cover this machine's architecture"}));

TEST(OciSeccomp, PolicyImportsAProfileAndItsOwnRulesWin)
{
    SKIP_WITHOUT_SOURCE_TREE();
    const auto profile = dataDir() / "docker-default-subset.json";
    const auto yaml =
        "syscalls:\n  rules:\n    - {names: [ptrace], action: kill}\n  profile: " + profile.string() + "\n";
    std::vector<std::string> warnings;
    auto p = parsePolicy(yaml, "with-profile.yaml", &warnings);
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_EQ(p->syscalls.defaultAction, SyscallAction::Errno); // from the profile
    EXPECT_EQ(p->syscalls.defaultErrno, EPERM);
    // The policy's own rule for ptrace comes first and the profile's ptrace entry is gone.
    const auto* ptrace = ruleFor(p->syscalls, "ptrace");
    ASSERT_NE(ptrace, nullptr);
    EXPECT_EQ(ptrace->action, SyscallAction::Kill);
    EXPECT_EQ(ruleFor(p->syscalls, "ptrace", 1), nullptr);
    EXPECT_NE(ruleFor(p->syscalls, "process_vm_readv"), nullptr); // the rest of the profile's rule stays
    EXPECT_NE(ruleFor(p->syscalls, "read"), nullptr);
    ASSERT_FALSE(warnings.empty());
    EXPECT_NE(warnings.front().find("made_up_future_call"), std::string::npos);

    // The rendering carries the imported rules, so it reads back without the profile file.
    auto back = parsePolicy(renderPolicy(*p), "rendered");
    ASSERT_TRUE(back) << back.error().message << "\n" << renderPolicy(*p);
    EXPECT_EQ(*back, *p);
}

TEST(OciSeccomp, PolicyFileTakesARelativeProfileFromItsFolder)
{
    SKIP_WITHOUT_SOURCE_TREE();
    const auto dir = std::filesystem::temp_directory_path() / "sandbench-policy-profile-test";
    std::filesystem::create_directories(dir);
    std::filesystem::copy_file(dataDir() / "docker-default-subset.json", dir / "docker.json",
                               std::filesystem::copy_options::overwrite_existing);
    {
        std::ofstream out(dir / "policy.yaml");
        out << "syscalls:\n  default: kill\n  profile: docker.json\n";
    }
    auto p = loadPolicyFile(dir / "policy.yaml");
    {
        std::ofstream out(dir / "broken.yaml");
        out << "syscalls:\n  profile: broken.json\n";
        std::ofstream json(dir / "broken.json");
        json << R"({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_NOPE"}]})";
    }
    auto broken = loadPolicyFile(dir / "broken.yaml");
    std::filesystem::remove_all(dir);
    ASSERT_TRUE(p) << p.error().message;
    EXPECT_EQ(p->syscalls.defaultAction, SyscallAction::Kill); // the policy's default beats the profile's
    EXPECT_NE(ruleFor(p->syscalls, "read"), nullptr);
    ASSERT_FALSE(broken);
    // Both places are named: the policy line that imports, and the JSON path inside the profile.
    EXPECT_NE(broken.error().message.find("broken.yaml:2:12: 'syscalls.profile': "), std::string::npos)
        << broken.error().message;
    EXPECT_NE(broken.error().message.find("broken.json: syscalls[0].action: unknown action 'SCMP_ACT_NOPE'"),
              std::string::npos)
        << broken.error().message;
}
